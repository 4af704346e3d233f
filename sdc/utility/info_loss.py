"""Table-based information loss of a swapped file (sdcMicro's ``infoLoss``, the measures of
the record-swapping vignette; Shlomo, Tudor and Groom 2010, *Data swapping for protecting
census tables*, PSD 2010).

The frequency tables of `table_vars` -- every non-empty combination of them (all margins),
or the full table alone (``only_inner_cells``) -- are counted on the original (``o``) and the
swapped (``s``) file; each cell, present in either, gets

* ``absD = |o - s|``,
* ``relabsD = |o - s| / o`` (0 where ``o = 0``),
* ``abssqrtD = |sqrt(o) - sqrt(s)|``,

and each measure is summarised over the cells by its quantiles at `probs` (type 7, R's
default) and its mean. ``false_zero``: cells with ``o > 0, s = 0``; ``false_nonzero``:
``o = 0, s > 0``. With `hid` one record per household is counted (its first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from sdc._validation import check_columns, check_frame
from sdc.core.keys import combine_codes, factorize_column, first_occurrence

__all__ = ["InfoLossResult", "info_loss", "METRICS"]

METRICS = ("absD", "relabsD", "abssqrtD")
PROBS = tuple(sorted([i / 10 for i in range(11)] + [0.95, 0.99]))


def _metric(name: str, o: np.ndarray, s: np.ndarray) -> np.ndarray:
    if name == "absD":
        return np.abs(o - s)
    if name == "relabsD":
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.abs(o - s) / o
        return np.where(o == 0, 0.0, r)
    return np.abs(np.sqrt(o) - np.sqrt(s))


@dataclass(frozen=True)
class InfoLossResult:
    """Result of :func:`info_loss`.

    Attributes
    ----------
    table_vars : tuple of str
    cells : pandas.DataFrame
        One row per table cell: the `table_vars` values (missing where the cell is of a margin
        without that variable), ``count_o``, ``count_s`` and each metric.
    measures : pandas.DataFrame
        Index ``what`` (Min, the quantiles, Mean, Median, ..., Max, as sdcMicro's), a column
        per metric.
    false_zero, false_nonzero : int
    exclude_zeros : bool
    """

    table_vars: tuple[str, ...]
    cells: pd.DataFrame = field(repr=False)
    measures: pd.DataFrame = field(repr=False)
    false_zero: int
    false_nonzero: int
    exclude_zeros: bool

    def to_frame(self) -> pd.DataFrame:
        """The measures (one row per quantile or mean, a column per metric)."""
        return self.measures.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures: cells, mean of each metric, false zeros and non-zeros."""
        from sdc._stats import summary_frame

        rows = [("cells", len(self.cells), "table cells compared (all margins unless only inner cells)")]
        rows += [(f"mean_{m}", float(self.measures.loc["Mean", m]), f"mean {m} over the cells")
                 for m in self.measures.columns]
        rows += [("false_zero", self.false_zero, "cells non-zero in the original, zero after swapping"),
                 ("false_nonzero", self.false_nonzero, "cells zero in the original, non-zero after swapping")]
        return summary_frame(rows)


def _quantile_names(probs: Sequence[float]) -> list[str]:
    names = []
    for p in probs:
        pct = f"{100 * p:.10g}%"
        names.append({"0%": "Min", "50%": "Median", "100%": "Max"}.get(pct, pct))
    return names


def _measures(values: dict[str, np.ndarray], probs: Sequence[float]) -> pd.DataFrame:
    names = _quantile_names(probs)
    below = [i for i, p in enumerate(probs) if p < 0.5]
    at = (max(below) + 1) if below else 0
    what = names[:at] + ["Mean"] + names[at:]
    cols = {}
    for m, x in values.items():
        q = list(np.quantile(x, probs)) if x.size else [np.nan] * len(probs)
        cols[m] = q[:at] + [float(x.mean()) if x.size else np.nan] + q[at:]
    return pd.DataFrame(cols, index=pd.Index(what, name="what"))


def _cells(codes: list[np.ndarray], cards: list[int], n_orig: int, subset: tuple[int, ...]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First position (in the stacked files), original and swapped count of each cell of one table."""
    cols = [codes[j] for j in subset]
    n = cols[0].size
    ids, size = combine_codes(cols, [cards[j] for j in subset], n)
    dense, inv = np.unique(ids, return_inverse=True)
    k = dense.size
    o = np.bincount(inv[:n_orig], minlength=k)
    s = np.bincount(inv[n_orig:], minlength=k)
    return first_occurrence(inv, k), o, s


def info_loss(original: pd.DataFrame, swapped: pd.DataFrame, table_vars: Sequence[str] | str, *,
              metric: str | Sequence[str] = METRICS, hid: str | None = None, probs: Sequence[float] = PROBS,
              exclude_zeros: bool = False, only_inner_cells: bool = False) -> InfoLossResult:
    """Information loss over frequency tables of the original and the swapped file (sdcMicro's
    ``infoLoss``): see the module docstring for the formulas.

    Parameters
    ----------
    original, swapped : pandas.DataFrame
    table_vars : str or list of str
        The variables tabulated (``table_vars``).
    metric : str or list of str, default all three
        Among ``absD``, ``relabsD``, ``abssqrtD``.
    hid : str, optional
        Count households (the first record of each `hid`) instead of records.
    probs : list of float
        Quantiles reported (sdcMicro's default: 0, 0.1, ..., 1 and 0.95, 0.99).
    exclude_zeros : bool, default False
        Drop the cells empty in the swapped file.
    only_inner_cells : bool, default False
        The full table only, no margins.

    Returns
    -------
    InfoLossResult
    """
    a, b = check_frame(original), check_frame(swapped)
    tv = check_columns(a, table_vars, role="table_vars")
    check_columns(b, list(tv), role="table_vars")
    metric = [metric] if isinstance(metric, str) else list(metric)  # one metric by its name, as sdcMicro's
    bad = [m for m in metric if m not in METRICS]
    if bad or not metric:
        raise ValueError(f"`metric` must be among {', '.join(METRICS)}; got {', '.join(map(repr, bad)) or 'none'}.")
    if any(not (0 <= float(p) <= 1) for p in probs) or not len(probs):
        raise ValueError("`probs` must be numbers in [0, 1].")
    if hid is not None:
        hid = check_columns(a, [hid], role="hid")[0]
        check_columns(b, [hid], role="hid")
        a, b = a.drop_duplicates(subset=[hid]), b.drop_duplicates(subset=[hid])
    both = pd.concat([a[list(tv)], b[list(tv)]], ignore_index=True)
    enc = [factorize_column(both[v]) for v in tv]
    codes, cards = [c for c, _ in enc], [k for _, k in enc]
    subsets = [tuple(range(len(tv)))] if only_inner_cells else \
        [c for r in range(1, len(tv) + 1) for c in combinations(range(len(tv)), r)]
    parts = []
    for sub in subsets:
        first, o, s = _cells(codes, cards, len(a), sub)
        cell = both.iloc[first].reset_index(drop=True)
        for j, v in enumerate(tv):
            if j not in sub:
                cell[v] = pd.Series([pd.NA] * len(cell), dtype=object) if cell[v].dtype == object else np.nan
        cell["count_o"], cell["count_s"] = o, s
        parts.append(cell)
    cells = pd.concat(parts, ignore_index=True)
    if exclude_zeros:
        cells = cells[cells["count_s"] != 0].reset_index(drop=True)
    o = cells["count_o"].to_numpy(dtype=float)
    s = cells["count_s"].to_numpy(dtype=float)
    values = {m: _metric(m, o, s) for m in metric}
    for m, x in values.items():
        cells[m] = x
    return InfoLossResult(table_vars=tuple(tv), cells=cells, measures=_measures(values, list(probs)),
                          false_zero=int(((o != 0) & (s == 0)).sum()), false_nonzero=int(((o == 0) & (s != 0)).sum()),
                          exclude_zeros=bool(exclude_zeros))
