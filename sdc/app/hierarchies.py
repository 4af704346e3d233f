"""The hierarchy editor of ``sdc app``'s Protect page, as ARX's hierarchy wizard: a key's values
generalised level by level (intervals of numbers, prefixes of codes, periods of dates, groups
the steward writes), the table of every value with its labels and records, the hierarchy in
ARX's CSV layout (``sdc search`` and ARX read it), and a level taken as a recode step.

The builders are :mod:`sdc.identify.hierarchy`'s (each checks that the levels nest: a tree);
a level becomes a ``global_recode`` step with its ``mapping`` (value -> label), added to the plan
as any step is (checked, undoable), so ``sdc protect`` reruns it from the exported plan.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sdc.app.session import AppError, AppSession
from sdc.app.tables import frame_json

__all__ = ["HIERARCHY_KINDS", "build_hierarchy", "hierarchy_values", "recode_to_level"]

#: The builders the page offers, with what their "levels" field holds.
HIERARCHY_KINDS = {
    "intervals": "interval widths per level, each a multiple of the previous (5, 10, 20)",
    "prefix": "characters kept per level, decreasing (4, 3, 2); empty: one fewer per level",
    "dates": "periods, fine to coarse: month, quarter, year, decade",
    "groups": "one line per value: value = group (level 1)",
}

#: The most distinct values the groups form is filled with.
MAX_GROUP_VALUES = 500


def _column(session: AppSession, variable: Any) -> pd.Series:
    data = session.need_data()
    if not isinstance(variable, str) or variable not in data.columns:
        raise AppError(f"hierarchy: no column {variable!r} in the data.")
    return data[variable]


def hierarchy_values(session: AppSession, variable: Any) -> dict[str, Any]:
    """The distinct values of `variable` as the hierarchy matches them (text), for the groups form."""
    from sdc.identify.hierarchy import column_text  # the text a hierarchy matches values by

    _, values = column_text(_column(session, variable).dropna())
    return {"values": values[:MAX_GROUP_VALUES], "total": len(values)}


def _numbers(levels: Any, what: str) -> list[float]:
    parts = [p.strip() for p in str(levels or "").split(",") if p.strip()]
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise AppError(f"hierarchy: {what} must be numbers separated by commas; got {levels!r}.") from None


def _groups(levels: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for n, line in enumerate(str(levels or "").splitlines(), start=1):
        if not line.strip():
            continue
        if "=" not in line:
            raise AppError(f"hierarchy groups, line {n}: write `value = group`; got {line.strip()!r}.")
        value, group = (x.strip() for x in line.rsplit("=", 1))
        if not value or not group:
            raise AppError(f"hierarchy groups, line {n}: both the value and its group are needed; got {line.strip()!r}.")
        out[value] = group
    if not out:
        raise AppError("hierarchy groups: give one line per value, `value = group`.")
    return out


def _build(session: AppSession, variable: Any, kind: Any, levels: Any) -> Any:
    from sdc.identify import hierarchy as H

    col = _column(session, variable).dropna().rename(variable)
    if kind not in HIERARCHY_KINDS:
        raise AppError(f"hierarchy: kind must be one of {', '.join(HIERARCHY_KINDS)}; got {kind!r}.")
    try:
        if kind == "intervals":
            widths = _numbers(levels, "interval widths")
            if not widths:
                raise AppError("hierarchy: give the interval widths per level, e.g. 5, 10, 20.")
            return H.interval_hierarchy(col, widths)
        if kind == "prefix":
            lengths = _numbers(levels, "prefix lengths")
            if any(not k.is_integer() for k in lengths):
                raise AppError(f"hierarchy: prefix lengths must be whole numbers; got {levels!r}.")
            keep = [int(k) for k in lengths] or None
            return H.prefix_hierarchy(col, keep=keep)
        if kind == "dates":
            periods = [p.strip() for p in str(levels or "").split(",") if p.strip()] or ["month", "year"]
            return H.date_hierarchy(col, periods)
        return H.mapping_hierarchy([_groups(levels)], values=col)
    except ValueError as exc:
        if isinstance(exc, AppError):
            raise
        raise AppError("hierarchy: " + " ".join(str(exc).split())) from None


def build_hierarchy(session: AppSession, variable: Any, kind: Any, levels: Any) -> dict[str, Any]:
    """The hierarchy of `variable`: every value with its label per level and its records, and
    the hierarchy as ARX's CSV (level 0 first, ``;``-separated)."""
    from sdc.identify.hierarchy import column_text  # the text a hierarchy matches values by

    h = _build(session, variable, kind, levels)
    table = h.to_frame()
    codes, texts = column_text(_column(session, variable).dropna())
    counts = dict(zip(texts, np.bincount(codes, minlength=len(texts)).tolist()))
    table["records"] = [counts.get(v, 0) for v in table["level_0"]]
    per_level = [{"level": i, "labels": len(h.labels(i))} for i in range(1, h.n_levels)]
    return {"variable": variable, "name": h.name, "levels": per_level, "table": frame_json(table),
            "csv": h.to_csv()}


def recode_to_level(session: AppSession, variable: Any, kind: Any, levels: Any, level: Any) -> dict[str, Any]:
    """Add the step that recodes `variable` to `level` of its hierarchy (``global_recode`` with
    the level's mapping): checked with the plan and undoable, as every step."""
    from sdc.app.steps import add_step

    h = _build(session, variable, kind, levels)
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level < h.n_levels:
        raise AppError(f"hierarchy: level must be 1 to {h.n_levels - 1}; got {level!r}.")
    return add_step(session, {"method": "global_recode", "variables": [variable], "mapping": h.mapping(level)})
