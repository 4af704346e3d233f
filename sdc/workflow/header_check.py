"""The columns a command names, checked against the file's header before its records are read
(issue 26): a misspelt key, sensitive variable, weight, plan variable or utility variable is
refused in one line at once, not after the whole file was read. ``sdc assess`` has its own
(:func:`sdc.workflow.assess_input.check_before_reading`); these serve ``sdc risk``, the other
single-measure commands, ``sdc protect``, ``sdc compare`` and ``sdc sweep``.

A file whose header cannot be read without reading the records (Stata, SAS, ...: :func:`sdc.io.read_header`
gives None), and an Excel sheet (whose first row may be a title, which only the read tells), is
checked after the read, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._validation import check_columns
from sdc.io import EXCEL_SUFFIXES, read_header
from sdc.workflow.assess_input import check_before_reading
from sdc.workflow.config import RunConfig
from sdc.workflow.plan import Plan, check_plan

__all__ = ["header_frame", "check_names_in_header", "check_plan_in_header", "check_config_in_header"]


def header_frame(path: str | Path | None, *, sep: str | None = None, sheet: str | int | None = None,
                 **_: Any) -> pd.DataFrame | None:
    """The file's columns as an empty frame (None: no header to read before the records).
    Other reading options (`na_values`, ...) are accepted and ignored, so a command can pass
    its reading options whole."""
    if path is None or Path(path).suffix.lower() in EXCEL_SUFFIXES:
        # a sheet's first row may be a title above the table, which only the read can tell
        # (sdc._excel): the read refuses it naming the header row, as it did
        return None
    header = read_header(path, sep=sep, sheet=sheet)
    return None if header is None else pd.DataFrame(columns=header)


def _names(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return [x for x in v if x is not None]


def check_names_in_header(path: str | Path | None, named: Mapping[str, Any], *, where: str = "the data",
                          **reading: Any) -> None:
    """Each role's columns (``{"keys": [...], "weights": "w"}``) are in the file's header,
    else one error naming the role, the column and the closest name."""
    frame = header_frame(path, **reading)
    if frame is None:
        return
    for role, cols in named.items():
        names = list(dict.fromkeys(_names(cols)))
        if names:
            check_columns(frame, names, role=role, where=where)


def check_plan_in_header(plan: Plan, path: str | Path | None, named: Mapping[str, Any] | None = None,
                         **reading: Any) -> None:
    """The columns every step of `plan` names (as :func:`sdc.workflow.plan.check_plan` checks
    them, without their types, which need the records), and `named` roles, against the header."""
    frame = header_frame(path, **reading)
    if frame is None:
        return
    check_plan(plan, frame, types=False)
    for role, cols in (named or {}).items():
        names = list(dict.fromkeys(_names(cols)))
        if names:
            check_columns(frame, names, role=role)


def check_config_in_header(cfg: RunConfig | None, paths: Sequence[str | Path] = ()) -> None:
    """An assessment configuration's columns against its data file's header (as ``sdc assess``
    checks them); with `paths`, against each of those files' headers instead."""
    if cfg is None:
        return
    if not paths:
        check_before_reading(cfg)
        return
    from dataclasses import replace

    for p in paths:
        check_before_reading(replace(cfg, data_path=str(p)))
