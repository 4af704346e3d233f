"""What suppression took away: cells suppressed per variable and records retained."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.utility._common import align, resolve_variables

__all__ = ["SuppressionResult", "suppression", "missing_masks"]


@dataclass(frozen=True)
class SuppressionResult:
    """Result of :func:`suppression`.

    Attributes
    ----------
    variables : tuple of str
    n_records : int
    cells_suppressed : pandas.Series
        Per variable: cells present in the original and missing in the release.
    records_suppressed : int
        Records whose every variable is missing in the release while at least one was
        present in the original (the record is withheld, as ARX's record suppression).
    records_with_suppression : int
        Records with at least one suppressed cell.
    """

    variables: tuple[str, ...]
    n_records: int
    cells_suppressed: pd.Series = field(repr=False)
    records_suppressed: int
    records_with_suppression: int

    @property
    def records_retained(self) -> int:
        """Records not withheld: ``n_records - records_suppressed``."""
        return self.n_records - self.records_suppressed

    @property
    def pct_records_retained(self) -> float:
        return 100.0 * self.records_retained / self.n_records

    @property
    def total_cells_suppressed(self) -> int:
        return int(self.cells_suppressed.sum())

    def to_frame(self) -> pd.DataFrame:
        """One row per variable: cells suppressed and their share of the records."""
        out = self.cells_suppressed.rename("cells_suppressed").to_frame()
        out["pct_suppressed"] = 100.0 * out["cells_suppressed"] / self.n_records
        out.index.name = "variable"
        return out.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures (records retained, cells suppressed) as rows of (statistic, value, description)."""
        return summary_frame([
            ("records_retained", self.records_retained, "records not withheld (n - records suppressed)"),
            ("pct_records_retained", self.pct_records_retained, "% records retained"),
            ("records_suppressed", self.records_suppressed, "records withheld: every variable missing in the release"),
            ("records_with_suppression", self.records_with_suppression, "records with at least one cell suppressed"),
            ("cells_suppressed", self.total_cells_suppressed, "cells suppressed"),
            ("cells_suppressed_per_variable", {k: int(v) for k, v in self.cells_suppressed.items()},
             "cells suppressed per variable"),
        ])


def missing_masks(original: pd.DataFrame, released: pd.DataFrame, cols: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Boolean (n, p) masks of missing values in the two (aligned) frames."""
    mo = np.column_stack([original[c].isna().to_numpy() for c in cols]) if cols else np.zeros((len(original), 0), bool)
    mr = np.column_stack([released[c].isna().to_numpy() for c in cols]) if cols else np.zeros((len(released), 0), bool)
    return mo, mr


def suppression(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> SuppressionResult:
    """Cells suppressed per variable, and records retained.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Usually the key variables. By default every column of `original` that is also in
        `released`.

    Returns
    -------
    SuppressionResult

    Notes
    -----
    A cell is suppressed when its value is present in the original and missing in the
    release (local suppression, sdcMicro's ``localSuppression``/``kAnon``, writes NA).
    A record is withheld (suppressed as a whole, ARX's record suppression) when every one
    of `variables` is missing in the release and at least one was present before; records
    retained = n - withheld. Values missing in the original are not counted.

    Examples
    --------
    >>> import numpy as np, pandas as pd, sdc
    >>> orig = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    >>> rel = pd.DataFrame({"a": [1, np.nan, np.nan], "b": ["x", "y", None]})
    >>> r = sdc.suppression(orig, rel)
    >>> r.cells_suppressed.tolist(), r.records_retained
    ([2, 1], 2)
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables, default_changed=False)
    mo, mr = missing_masks(orig, rel, cols)
    supp = ~mo & mr
    withheld = mr.all(axis=1) & ~mo.all(axis=1) if cols else np.zeros(len(orig), bool)
    return SuppressionResult(
        variables=cols, n_records=len(orig),
        cells_suppressed=pd.Series(supp.sum(axis=0).astype(np.int64), index=pd.Index(cols, name="variable"),
                                   name="cells_suppressed"),
        records_suppressed=int(withheld.sum()), records_with_suppression=int(supp.any(axis=1).sum()),
    )
