"""What each point of a sweep changed (issue 26): a setting whose steps leave the data untouched,
or change variables outside the utility variables, must not look free on the sweep page.

Per setting: the cells changed (as :data:`sdc.protect._result.CELLS_CHANGED` counts them: the
released records' cells that differ from the original's), the variables they are in, and the
changed variables whose loss the utility figures do not measure (not among the utility
variables). A setting that changes a variable the utility figures do not measure has an
unknown utility cost: it is left out of the non-dominated settings, and the page says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc.protect._result import changed_cells

__all__ = ["what_changed", "CHANGE_COLUMNS", "comparable", "change_notes"]

#: The sweep table's columns this module adds, in order.
CHANGE_COLUMNS = ("cells_changed", "variables_changed", "not_measured")


def what_changed(original: pd.DataFrame, released: pd.DataFrame, columns: Sequence[str],
                 utility_variables: Sequence[str]) -> dict[str, Any]:
    """The cells a setting changed in `columns` (the variables the plan's steps name: no other
    can change), the variables they are in (text, in the data's order) and those of them not
    among `utility_variables` (text; "" when every change is measured)."""
    common = [c for c in columns if c in released.columns and c in original.columns]
    before = original.loc[released.index, common] if len(released) != len(original) else original[common]
    per = changed_cells(before, released[common], common) if common else pd.Series(dtype=np.int64)
    changed = [c for c in original.columns if c in per.index and per[c] > 0]
    dropped = [c for c in columns if c in original.columns and c not in released.columns]
    measured = set(utility_variables)
    return {"cells_changed": int(per.sum()),
            "variables_changed": ", ".join(map(str, changed + [f"{c} (dropped)" for c in dropped])),
            "not_measured": ", ".join(str(c) for c in changed if c not in measured)}


def comparable(frame: pd.DataFrame) -> np.ndarray:
    """Rows whose every change the utility figures measure (the baseline included)."""
    return (frame["not_measured"].fillna("") == "").to_numpy()


def _settings(frame: pd.DataFrame, mask: np.ndarray) -> str:
    part = frame[mask]
    shown = [f"{int(s)} ({lab})" for s, lab in zip(part["setting"], part["label"])]
    return ", ".join(shown[:6]) + (f" and {len(shown) - 6} more" if len(shown) > 6 else "")


def change_notes(frame: pd.DataFrame, utility_variables: Sequence[str]) -> list[str]:
    """The page's words for settings that are not what their figures suggest."""
    out = []
    setting = frame["setting"].to_numpy() != 0
    untouched = setting & (frame["cells_changed"].to_numpy() == 0) & (frame["records_dropped"].to_numpy() == 0)
    if untouched.any():
        out.append(f"Setting(s) {_settings(frame, untouched)} change no cell and drop no record: their parameters "
                   "leave the data as they are (the baseline's figures), so they cost nothing because they do "
                   "nothing, not because they protect for free.")
    blind = setting & ~comparable(frame)
    if blind.any():
        names = sorted({v.strip() for x in frame.loc[blind, "not_measured"] for v in str(x).split(",") if v.strip()})
        out.append(f"Setting(s) {_settings(frame, blind)} change {', '.join(names)}, which the utility figures do "
                   f"not measure (utility variables: {', '.join(utility_variables) or 'none'}): their information "
                   "loss and eigenvalue similarity leave those changes out, so their utility cost is not known and "
                   "they are left out of the non-dominated settings. Name the variables in [sweep].utility_variables "
                   "to measure them.")
    return out
