"""Small statistics helpers with R's conventions (median of even counts, ``mad``), and the
table every result's ``summary()`` returns."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

__all__ = ["weighted_median", "mad", "summary_frame", "summary_values"]


def weighted_median(values: np.ndarray, counts: np.ndarray) -> float:
    """Median of `values` each repeated `counts` times, as ``np.median`` of the expansion.

    Lets record-level medians be computed from per-pattern values in O(patterns).
    """
    if values.dtype.kind in "iu" and values.size and 0 <= values.min() and values.max() <= 4 * values.size + 1024:
        # Small whole numbers (frequencies): the same ranks from a count per value, no sort.
        per = np.bincount(values, weights=counts)
        v = np.flatnonzero(per != 0)
        c = np.cumsum(np.rint(per[v]).astype(np.int64))
        n = int(c[-1])
        lo = v[np.searchsorted(c, (n - 1) // 2, side="right")]
        hi = v[np.searchsorted(c, n // 2, side="right")]
        return float((lo + hi) / 2)
    order = np.argsort(values, kind="stable")
    v, c = values[order], np.cumsum(counts[order])
    n = int(c[-1])
    lo = v[np.searchsorted(c, (n - 1) // 2, side="right")]
    hi = v[np.searchsorted(c, n // 2, side="right")]
    return float((lo + hi) / 2)


def mad(x: np.ndarray) -> float:
    """Median absolute deviation, scaled for normal consistency (R's ``mad``: 1.4826)."""
    med = np.median(x)
    return float(1.4826 * np.median(np.abs(x - med)))


def summary_frame(rows: list[tuple[str, object, str]]) -> pd.DataFrame:
    """``statistic``, ``value``, ``description`` rows as a DataFrame whose values keep their kind:
    a count stays an integer (a float column would show 4 records as 4.0), numpy scalars become
    Python numbers, and -0.0 becomes 0.0.

    >>> summary_frame([("n", np.int64(4), "records"), ("p", -0.0, "share")])["value"].tolist()
    [4, 0.0]
    """
    def plain(v: object) -> object:
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
        if isinstance(v, numbers.Integral):
            return int(v)
        if isinstance(v, numbers.Real):
            return float(v) + 0.0
        return v

    values = pd.Series([plain(v) for _, v, _ in rows], dtype=object)
    return pd.DataFrame({"statistic": [r[0] for r in rows], "value": values,
                         "description": [r[2] for r in rows]})


def summary_values(frame: pd.DataFrame) -> dict[str, object]:
    """A ``summary()`` table back as ``{statistic: value}``, in row order: what a JSON document
    holds of a summary.

    >>> summary_values(summary_frame([("n", 4, "records"), ("p", 0.5, "share")]))
    {'n': 4, 'p': 0.5}
    """
    return dict(zip(frame["statistic"], frame["value"]))
