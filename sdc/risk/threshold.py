"""The mu-Argus individual-risk threshold for an acceptable global risk.

Given individual risks and an acceptable global risk g, find the risk level above which
records must be protected so that, once those records are made safe, the expected number
of re-identifications falls below g * n (mu-Argus 4.1 manual, section 2.3.4.1, eq. 17;
sdcMicro's ``measure_threshold``).

sdcMicro walks the risks from the highest down. At the first record j of each lower level
r, it compares S_j + r * j with g * n, where S_j is the sum of the risks from j on and j
the number of records before it; the first level where the sum is below g * n is the
threshold. That sum is exactly

    f(r) = sum_i min(r_i, r),

which never decreases as r grows, so the threshold is the *largest* level below the
highest risk with f(r) < g * n. Conventions, as sdcMicro returns them:

* the whole file already has sum(r) < g * n: NaN (sdcMicro: NA, "already safe");
* no level qualifies: 0 (a level of risk 0 always qualifies, so NaN cannot arise here).
"""

from __future__ import annotations

import numpy as np

__all__ = ["global_threshold"]

# Below this relative gap between f(r) and g * n, sums taken in another order could round
# to the other side; we then replay sdcMicro's record-by-record double sums.
_AMBIGUOUS = 1e-10


def global_threshold(risk: np.ndarray, count: np.ndarray, max_global_risk: float) -> float:
    """Threshold from per-pattern risks `risk` held by `count` records each (any order).

    Selection, not sorting, in expected O(number of patterns): with many patterns, a
    histogram of the risks first gives f exactly at the bucket edges (through cumulative
    sums) and so the one bucket that can hold the answer; then a selection search over
    that bucket evaluates f at the median of the remaining candidates and discards the
    half that cannot hold the answer, keeping running totals for what it discards. Where f
    at a deciding point is within 1e-10 (relative) of g * n, the decision is replayed with
    sdcMicro's sequential sums over the sorted records.
    """
    if risk.size == 0 or np.isnan(risk).any():
        return float("nan")
    er = max_global_risk * float(count.sum())
    total = float(np.dot(risk, count))
    if _close(total, er):
        return _threshold_by_records(risk, count, er)
    if total < er:
        return float("nan")
    top = float(risk.max())
    below = risk < top
    if risk.size > _HISTOGRAM_FROM:
        narrowed = _narrow(risk, count, below, top, er)
        if narrowed is None:
            return _threshold_by_records(risk, count, er)
        v, c, sum_below, n_above, fallback = narrowed
    else:
        v, c = risk[below], count[below].astype(np.float64)
        sum_below, n_above, fallback = 0.0, float(count[~below].sum()), None
    best = _select(v, c, sum_below, n_above, er)
    if best is _AMBIGUOUS_RESULT:
        return _threshold_by_records(risk, count, er)
    if best is None:
        best = fallback
    return 0.0 if best is None else float(best)


_HISTOGRAM_FROM = 1 << 16
_BUCKETS = 4096
_AMBIGUOUS_RESULT = object()


def _select(v: np.ndarray, c: np.ndarray, sum_below: float, n_above: float, er: float):  # noqa: ANN202
    """Largest candidate level with f < er; None if none; _AMBIGUOUS_RESULT on a near-tie.

    `sum_below` is the sum of the risks below every candidate, `n_above` the records
    above every candidate, so that f(r) = sum_below + sum(min(v, r) * c) + r * n_above.
    """
    best = None
    while v.size:
        pivot = np.partition(v, v.size // 2)[v.size // 2]
        le = v <= pivot
        le_sum = float(np.dot(v[le], c[le]))
        f = sum_below + le_sum + pivot * (n_above + float(c[~le].sum()))
        if _close(f, er):
            return _AMBIGUOUS_RESULT
        if f < er:   # pivot qualifies: the answer is pivot or a higher level
            best = pivot
            sum_below += le_sum
            v, c = v[~le], c[~le]
        else:        # the answer is a lower level
            ge = v >= pivot
            n_above += float(c[ge].sum())
            v, c = v[~ge], c[~ge]
    return best


def _narrow(risk: np.ndarray, count: np.ndarray, below: np.ndarray, top: float, er: float):  # noqa: ANN202
    """Cut the candidates down to one histogram bucket of the risks below the top level.

    Returns (candidates, their counts, sum below them, records above them, the best level
    below the bucket) or None when an edge is too close to call.
    """
    v, c = risk[below], count[below].astype(np.float64)
    if v.size == 0:
        return v, c, 0.0, float(count.sum()), None
    n_top = float(count.sum()) - float(c.sum())
    width = top / _BUCKETS
    bucket = np.minimum((v / width).astype(np.int64), _BUCKETS - 1)
    n_b = np.bincount(bucket, weights=c, minlength=_BUCKETS)
    s_b = np.bincount(bucket, weights=v * c, minlength=_BUCKETS)
    s_lt = np.concatenate([[0.0], np.cumsum(s_b)[:-1]])           # risk sum in buckets below j
    n_ge = n_top + np.cumsum(n_b[::-1])[::-1]                       # records in buckets j and up
    edges = np.arange(_BUCKETS) * width
    f_edge = s_lt + edges * n_ge  # f at each bucket's lower edge (values are >= their edge)
    if (np.abs(f_edge - er) <= _AMBIGUOUS * np.maximum(np.abs(f_edge), er)).any():
        return None
    ok = np.flatnonzero(f_edge < er)
    j = int(ok[-1]) if ok.size else 0  # f(0) = 0 < er, so bucket 0 always qualifies
    inside = bucket == j
    lower = bucket < j
    fallback = float(v[lower].max()) if lower.any() else None  # qualifies, since f(it) <= f(edge_j)
    return v[inside], c[inside], float(s_lt[j]), float(n_ge[j] - n_b[j]), fallback


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= _AMBIGUOUS * max(abs(a), abs(b), 1e-300)


def _threshold_by_records(risk: np.ndarray, count: np.ndarray, er: float) -> float:
    """sdcMicro's loop, replayed with its sequential double sums over the sorted records."""
    order = np.argsort(-risk, kind="stable")
    levels, n_at = risk[order], count[order].astype(np.int64)
    r = np.repeat(levels, n_at)
    total = np.cumsum(r)[-1]  # sequential left-to-right sum, as the C loop adds
    if total < er:
        return float("nan")
    # remaining[j] = ((total - r0) - r1) ... - r_{j-1}, again sequential.
    remaining = np.subtract.accumulate(np.concatenate([[total], r[:-1]]))
    change = np.flatnonzero(r[1:] != r[:-1]) + 1  # first record of each lower level
    lhs = remaining[change] + r[change] * change.astype(np.float64)
    hit = np.flatnonzero(lhs < er)
    return float(r[change[hit[0]]]) if hit.size else 0.0
