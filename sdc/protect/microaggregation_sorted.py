"""sdcMicro's sort-based microaggregation methods ``simple`` and ``single`` and its aggregation
measures (``R/microaggregation.R``); :func:`sdc.microaggregation` calls them.

* ``simple``: the records in data order, cut into consecutive groups of k, the last group taking
  the remainder (k .. 2k - 1 records; sdcMicro's ``indexMicro``).
* ``single``: the same after sorting the records by one variable (`varsort`; ties in data order).

Every variable of a group's records is replaced by the group's `measure`: ``mean``; ``median``;
``trim`` (R's ``mean(x, trim)``: floor(m trim) values cut from each end of the sorted m values);
``onestep`` (each value clipped to median +- (3 / 1.486) MAD, MAD = 1.4826 median |x - median|
as R's ``mad``, then the mean).
"""

from __future__ import annotations

import numpy as np

import pandas as pd

from sdc._validation import dtype_name, is_real_numeric, plain

__all__ = ["SORTED_METHODS", "MEASURES", "block_groups", "measure_of", "sorted_groups", "groups_of_order", "aggregate",
           "grouped_in_strata", "group_sizes", "size_counts", "numeric_matrix", "check_sorted_options", "run_grouped"]

SORTED_METHODS = ("simple", "single")
MEASURES = ("mean", "median", "trim", "onestep")


def block_groups(m: int, k: int) -> np.ndarray:
    """Group id of each of m positions: consecutive blocks of k, the last block taking the rest."""
    n_groups = max(m // k, 1)
    return np.minimum(np.arange(m) // k, n_groups - 1)


def _mad(x: np.ndarray) -> np.ndarray:
    med = np.median(x, axis=0)
    return 1.4826 * np.median(np.abs(x - med), axis=0)


def measure_of(x: np.ndarray, measure: str, trim: float) -> np.ndarray:
    """The `measure` of each column of one group's values `x` (rows: records)."""
    if measure == "mean":
        return x.mean(axis=0)
    if measure == "median":
        return np.median(x, axis=0)
    if measure == "trim":
        cut = int(np.floor(x.shape[0] * trim))
        s = np.sort(x, axis=0)
        return s[cut:x.shape[0] - cut].mean(axis=0)
    med, spread = np.median(x, axis=0), _mad(x) * (3 / 1.486)
    return np.clip(x, med - spread, med + spread).mean(axis=0)


def sorted_groups(X: np.ndarray, k: int, method: str, sort_col: int) -> np.ndarray:
    """Group id per record of `X` by ``simple`` (data order) or ``single`` (sorted by column `sort_col`)."""
    order = np.arange(X.shape[0]) if method == "simple" else np.argsort(X[:, sort_col], kind="stable")
    return groups_of_order(order, k)


def groups_of_order(order: np.ndarray, k: int) -> np.ndarray:
    """Group id per record when the records in `order` are cut into blocks of k (the last taking the rest)."""
    gid = np.empty(order.size, dtype=np.int64)
    gid[order] = block_groups(order.size, k)
    return gid


def aggregate(X: np.ndarray, gid: np.ndarray, measure: str, trim: float) -> np.ndarray:
    """Every record's values replaced by its group's `measure` (group ids 0 .. G - 1; complete values)."""
    if measure == "mean":  # vectorised: the sums and sizes of all groups at once
        sizes = np.bincount(gid)
        sums = np.column_stack([np.bincount(gid, weights=X[:, j]) for j in range(X.shape[1])])
        return (sums / sizes[:, None])[gid]
    out = np.empty_like(X)
    order = np.argsort(gid, kind="stable")
    bounds = np.flatnonzero(np.diff(gid[order])) + 1
    for rows in np.split(order, bounds):  # one pass per group (n / k), not per record
        out[rows] = measure_of(X[rows], measure, trim)
    return out


def grouped_in_strata(X: np.ndarray, positions: list[np.ndarray], k: int, method: str, groups_of: object,
                      measure: str, trim: float, too_few: object) -> tuple[np.ndarray, np.ndarray]:
    """`groups_of(X_stratum)` (group ids) and :func:`aggregate` in each stratum (`positions`); group ids
    numbered across strata. `too_few(pos)` is the message for a stratum of fewer than k records."""
    if np.isnan(X).any():
        raise ValueError(f"microaggregation method {method!r} needs complete values (sdcMicro's gives a missing mean "
                         "to every record of a group with one); use mdav or onedims, which leave them out.")
    out = np.full(X.shape, np.nan)
    gid = np.full(X.shape[0], -1, dtype=np.int64)
    offset = 0
    for pos in positions:
        if pos.size < k:
            raise ValueError(too_few(pos))  # type: ignore[operator]
        g = groups_of(X[pos])  # type: ignore[operator]
        out[pos], gid[pos] = aggregate(X[pos], g, measure, trim), g + offset
        offset += int(g.max()) + 1
    return out, gid


def check_sorted_options(method: str, measure: str, varsort: str | None, variables: tuple[str, ...]) -> str:
    """The measure, checked (every method takes every measure); `varsort` one of the variables."""
    from sdc._validation import check_option

    measure = check_option(measure, "measure", MEASURES)
    if varsort is not None and varsort not in variables:
        raise ValueError(f"`varsort` {varsort!r} is not one of the `variables`.")
    return measure


def run_grouped(X: np.ndarray, positions: list[np.ndarray], k: int, method: str, groups_of: object, measure: str,
                trim: float, index: pd.Index, too_few: object) -> tuple[np.ndarray, pd.Series, pd.Series, dict, int]:
    """:func:`grouped_in_strata` with what microaggregation's result reports: values, group per record,
    group sizes, {size: groups}, the number of groups."""
    out, gid = grouped_in_strata(X, positions, k, method, groups_of, measure, trim, too_few)
    sizes = group_sizes(gid)
    return out, pd.Series(gid, index=index, name="group"), sizes, size_counts(sizes), int(sizes.size)


def group_sizes(gid: np.ndarray) -> pd.Series:
    """Records per group (groups numbered from 0; -1: in no group)."""
    g = gid[gid >= 0]
    counts = np.bincount(g) if g.size else np.zeros(0, dtype=np.int64)
    return pd.Series(counts.astype(np.int64), index=pd.RangeIndex(counts.size, name="group"), name="size")


def size_counts(sizes: pd.Series) -> dict[int, int]:
    """{group size: groups of that size}."""
    vals, cnt = np.unique(sizes.to_numpy(), return_counts=True)
    return {int(v): int(c) for v, c in zip(vals, cnt)}


def numeric_matrix(data: pd.DataFrame, variables: tuple[str, ...]) -> np.ndarray:
    """The variables as float64 columns (NaN for missing), or one line naming a non-numeric
    variable or a non-finite value."""
    cols = []
    for v in variables:
        s = data[v]
        if not is_real_numeric(s.dtype):
            raise TypeError(f"microaggregation needs numeric variables; {v!r} is {dtype_name(s.dtype)}.")
        a = s.to_numpy(dtype=np.float64, na_value=np.nan)
        bad = np.isinf(a)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"variable {v!r} has a non-finite value {float(a[i])!r} at index {plain(s.index[i])!r}.")
        cols.append(a)
    return np.column_stack(cols) if cols else np.empty((len(data), 0))
