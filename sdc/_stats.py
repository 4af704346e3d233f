"""Small statistics helpers with R's conventions (median of even counts, ``mad``)."""

from __future__ import annotations

import numpy as np

__all__ = ["weighted_median", "mad"]


def weighted_median(values: np.ndarray, counts: np.ndarray) -> float:
    """Median of `values` each repeated `counts` times, as ``np.median`` of the expansion.

    Lets record-level medians be computed from per-pattern values in O(patterns).
    """
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
