"""The result every protection method returns, and the small helpers they share."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["ProtectionResult", "changed_cells", "CELLS_CHANGED"]

#: What "cells changed" counts, on the protection log and on the comparison alike (issue 26):
#: the cells of the released records, in the variables both files hold, whose value differs
#: between the two files (:func:`changed_cells`). Dropped columns and dropped records are
#: counted apart (columns dropped, records dropped), never as changed cells.
CELLS_CHANGED = ("cells changed: the cells of the released records, in the variables both files hold, whose value "
                 "differs between the original and the release; missing on both sides is unchanged, a value made "
                 "missing is changed (and counted as suppressed too); a cell two steps changed counts once; dropped "
                 "columns and dropped records are counted apart, not as changed cells")


@dataclass(frozen=True)
class ProtectionResult:
    """A protected copy of the data and what the method changed.

    Attributes
    ----------
    method : str
        The method's public name (``"global_recode"``, ``"pram"``, ...).
    data : pandas.DataFrame
        The protected data: a new frame with the input's index and columns.
    variables : tuple of str
        The columns the method was asked to treat.
    parameters : dict
        Every parameter as given (JSON-ready; never a secret such as a pseudonymisation key).
    seed : int or None
        The seed of the method's random steps (None for deterministic methods).
    changed : pandas.Series
        Cells changed per treated variable (int, indexed by variable).
    details : dict
        Method-specific extras (a transition matrix, group sizes, suppressions per key, ...),
        JSON-ready where possible (DataFrames are allowed and rendered as tables).
    """

    method: str
    data: pd.DataFrame = field(repr=False)
    variables: tuple[str, ...]
    parameters: dict[str, Any]
    seed: int | None
    changed: pd.Series = field(repr=False)
    details: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # pandas before 2.1 copies ``attrs`` shallowly: a nested value (a dict, a list) would be
        # shared with the input's, and changing it on the release would change the input.
        if isinstance(self.data, pd.DataFrame) and self.data.attrs:
            self.data.attrs = copy.deepcopy(self.data.attrs)

    @property
    def n_changed(self) -> int:
        """Cells changed in all treated variables."""
        return int(self.changed.sum())

    def to_frame(self) -> pd.DataFrame:
        """One row per treated variable: cells changed and their share of the records."""
        n = len(self.data)
        out = pd.DataFrame({"variable": list(self.changed.index), "cells_changed": self.changed.to_numpy(dtype=np.int64)})
        out["share_changed"] = out["cells_changed"] / n if n else np.nan
        return out

    def summary(self) -> pd.DataFrame:
        """Headline figures (statistic, value, description): method, variables, records, cells
        changed, seed."""
        from sdc._stats import summary_frame

        return summary_frame([("method", self.method, "the protection method"),
                              ("variables", list(self.variables), "the variables treated"),
                              ("records", len(self.data), "records of the protected data"),
                              ("cells_changed", self.n_changed, "cells changed in the treated variables"),
                              ("seed", self.seed, "the seed of the random steps (none: deterministic)")])


def changed_cells(before: pd.DataFrame, after: pd.DataFrame, variables: list[str] | tuple[str, ...]) -> pd.Series:
    """Cells that differ per variable; missing on both sides counts as unchanged, missing on
    one side only as changed."""
    out = {}
    for v in variables:
        a, b = before[v], after[v]
        na_a, na_b = a.isna().to_numpy(), b.isna().to_numpy()
        diff = na_a != na_b
        # Values compared only where both sides have one: `x != pd.NA` is NA, not a bool, and
        # numpy then answered one True for the whole column (every cell "changed").
        both = ~(na_a | na_b)
        if both.any():
            if a.dtype.kind in "iufb" and b.dtype.kind in "iufb":  # numpy numbers: the same answer, no boxing
                diff[both] = a.to_numpy()[both] != b.to_numpy()[both]
            else:
                diff[both] = np.asarray(a.to_numpy(dtype=object)[both] != b.to_numpy(dtype=object)[both],
                                        dtype=bool)
        out[v] = int(diff.sum())
    return pd.Series(out, dtype=np.int64, name="cells_changed")
