"""The mu-Argus individual-risk threshold for an acceptable global risk.

Given individual risks and an acceptable global risk g, find the risk level above which
records must be protected so that, once those records are made safe, the expected number
of re-identifications falls below g * n (mu-Argus 4.1 manual, section 2.3.4.1, eq. 17;
sdcMicro's ``measure_threshold``).

Walk the risks from the highest down. At the first record j whose risk r_j is lower than
the one before, let S_j be the sum of the risks from j on and j the number of records
before it (the ones that would be protected). If S_j + r_j * j < g * n, the threshold is
r_j. Conventions, as sdcMicro returns them:

* the whole file already has sum(r) < g * n: NaN (sdcMicro: NA, "already safe");
* no level qualifies: 0, or NaN when the lowest risk is itself 0.
"""

from __future__ import annotations

import numpy as np

__all__ = ["global_threshold"]

# Below this relative gap between the two sides of a comparison, aggregated sums could
# round differently from the record-by-record sums; we then replay sdcMicro's order.
_AMBIGUOUS = 1e-10


def global_threshold(levels: np.ndarray, n_at: np.ndarray, max_global_risk: float) -> float:
    """Threshold from distinct risk `levels` (strictly decreasing) and records `n_at` each.

    Works on levels, not records, so it costs O(number of distinct risks). Where a
    comparison is too close to call in aggregated arithmetic, it replays sdcMicro's
    record-by-record double-precision sums (sorted decreasing), which decide the same way
    sdcMicro does.
    """
    if levels.size == 0:
        return float("nan")
    if np.isnan(levels).any():
        return float("nan")
    n = int(n_at.sum())
    er_target = max_global_risk * n
    contrib = levels * n_at
    total = float(contrib.sum())
    if _close(total, er_target):
        return _threshold_by_records(levels, n_at, er_target)
    if total < er_target:
        return float("nan")
    # S_j for the first record of each level: the sum of all risks from that level down.
    s_from = np.cumsum(contrib[::-1])[::-1]
    before = np.concatenate([[0], np.cumsum(n_at)[:-1]])
    lhs = s_from + levels * before
    lhs[0] = np.inf  # the first level is never a change of level
    hit = lhs < er_target
    first = int(np.argmax(hit)) if hit.any() else -1
    upto = first + 1 if first >= 0 else len(levels)
    if any(_close(float(v), er_target) for v in lhs[1:upto]):
        return _threshold_by_records(levels, n_at, er_target)
    return _result(levels, first)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= _AMBIGUOUS * max(abs(a), abs(b), 1e-300)


def _result(levels: np.ndarray, first: int) -> float:
    if first >= 0:
        return float(levels[first])
    # No level qualifies: sdcMicro returns 0, or NA when its "unsafe" level is also 0.
    return float("nan") if levels[-1] == 0 else 0.0


def _threshold_by_records(levels: np.ndarray, n_at: np.ndarray, er_target: float) -> float:
    """sdcMicro's loop, replayed with its sequential double sums over the sorted records."""
    r = np.repeat(levels, n_at)
    total = np.cumsum(r)[-1]  # sequential left-to-right sum, as the C loop adds
    if total < er_target:
        return float("nan")
    # remaining[j] = ((total - r0) - r1) ... - r_{j-1}, again sequential.
    remaining = np.subtract.accumulate(np.concatenate([[total], r[:-1]]))
    starts = np.concatenate([[0], np.cumsum(n_at)[:-1]])
    lhs = remaining[starts] + levels * starts.astype(np.float64)
    lhs[0] = np.inf
    hit = lhs < er_target
    return _result(levels, int(np.argmax(hit)) if hit.any() else -1)
