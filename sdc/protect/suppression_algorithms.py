"""The two suppression algorithms of :func:`sdc.local_suppression` on one stratum (see
:mod:`sdc.protect.suppression` for the description): sdcMicro's ``localSuppression``
(``mode="sdcmicro"``) and the minimal mode's three candidates and pruning.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sdc.core.patterns import pattern_table, rank_in_group
from sdc.protect.suppression_patterns import _TOL, SdcMicroStops, _Patterns, wildcard_fk

__all__ = ["sdcmicro_stratum", "minimal_stratum", "priority"]


def _priority(importance: np.ndarray) -> list[int]:
    """Keys in the order they are tried for suppression: least important (largest number)
    first, ties in key order (sdcMicro: ``order((K + 1) - importance)``)."""
    return [int(i) for i in np.argsort(-np.asarray(importance), kind="stable")]



# --------------------------------------------------------------------------------------
# sdcMicro's algorithm (mode="sdcmicro") on one key subset of one stratum.
# --------------------------------------------------------------------------------------
def _problems_in_order(fk: np.ndarray, k: float, *, tol: float = 0.0) -> np.ndarray:
    prob = np.flatnonzero(fk < k - tol)
    rk = 1.0 / fk[prob]  # sdcMicro's indivRisk without weights: 1/fk
    return prob[np.argsort(-rk, kind="stable")]


def _sdcmicro_subset(codes: np.ndarray, k: int, priority: Sequence[int], alpha: float) -> np.ndarray:
    """sdcMicro's suppSubset: the code matrix after local suppression."""
    ids, rows, _ = pattern_table(codes)
    keep = rank_in_group(ids, rows.shape[0]) < k
    red = np.flatnonzero(keep)
    R = codes[red]
    while True:
        fk = wildcard_fk(R, alpha)
        if (fk >= k).all():
            break
        prob = _problems_in_order(fk, k)
        st = _Patterns(R, alpha, track_f=False)
        for r in prob:
            c = st.choose(int(r), priority)
            if c is None:
                if alpha >= 1:
                    raise SdcMicroStops(
                        "mode='sdcmicro': sdcMicro's localSuppression stops here ('the length of the index vector "
                        "is 0'): a record at risk agrees with every other record on its observed keys; use "
                        "mode='minimal'.")
                c = st.first_observed(int(r), priority)
            st.suppress(int(r), c)
        R = st.codes()
    out = codes.copy()
    out[red] = R
    return out


def _sdcmicro_stratum(codes: np.ndarray, subsets: list[tuple[tuple[int, ...], int]], importance: np.ndarray,
                      alpha: float) -> np.ndarray:
    cur = codes.copy()
    for cols, k in subsets:
        pr = _priority(importance[list(cols)])
        cur[:, cols] = _sdcmicro_subset(np.ascontiguousarray(cur[:, cols]), k, pr, alpha)
    return cur


# --------------------------------------------------------------------------------------
# mode="minimal": heuristic passes on all records, then pruning.
# --------------------------------------------------------------------------------------
def _safe_choice(st: _Patterns, r: int, priority: Sequence[int], k: float) -> int | None:
    """The least important observed key whose suppression alone makes record r safe, if any."""
    p = st.P[st.rec[r]]
    for c in priority:
        if p[c] < 0:
            continue
        row = p.copy()
        row[c] = -1
        b, delta = st.trial(r, row)
        if st.f[b] + delta[b] >= k - _TOL:
            return int(c)
    return None


def _heuristic_stratum(codes: np.ndarray, subsets: list[tuple[tuple[int, ...], int]], importance: np.ndarray,
                       alpha: float, *, rule: str = "nearest") -> np.ndarray:
    """Passes of suppressions on all records, skipping records already made safe. The key is
    chosen by sdcMicro's nearest-record rule, or (``rule="safe"``) as the least important key
    whose suppression alone makes the record safe, falling back to the nearest-record rule."""
    cur = codes.copy()
    while True:
        suppressed = False
        for cols, k in subsets:
            pr = _priority(importance[list(cols)])
            st = _Patterns(np.ascontiguousarray(cur[:, cols]), alpha, track_f=True)
            while True:
                prob = _problems_in_order(st.f[st.rec], k, tol=_TOL)
                if prob.size == 0:
                    break
                suppressed = True
                for r in prob:
                    r = int(r)
                    if st.f[st.rec[r]] >= k - _TOL:
                        continue  # an earlier suppression of this pass made it safe
                    c = _safe_choice(st, r, pr, k) if rule == "safe" else None
                    if c is None:
                        c = st.choose(r, pr)
                    if c is None:
                        c = st.first_observed(r, pr)
                    st.suppress(r, c)
                # Count afresh (exact sums) before the next pass.
                st = _Patterns(st.codes(), alpha, track_f=True)
            cur[:, cols] = st.codes()
        if not suppressed:
            return cur


def _prune(orig: np.ndarray, cur: np.ndarray, subsets: list[tuple[tuple[int, ...], int]],
           importance: np.ndarray, alpha: float) -> np.ndarray | None:
    """Put back every suppressed cell that can be put back; None if `cur` is not k-anonymous."""
    states = []
    for cols, k in subsets:
        st = _Patterns(np.ascontiguousarray(cur[:, cols]), alpha, track_f=True)
        if not st.all_valid(k):
            return None
        states.append((cols, k, st))
    rows, cols_ = np.nonzero((cur < 0) & (orig >= 0))
    if rows.size == 0:
        return cur
    # Most important keys first (they are the ones a user wants back), then record order.
    rank = np.argsort(np.argsort(importance, kind="stable"), kind="stable")
    order = np.lexsort((rows, rank[cols_]))
    out = cur.copy()
    for i in order:
        r, c = int(rows[i]), int(cols_[i])
        moves = []
        ok = True
        for cols, k, st in states:
            if c not in cols:
                continue
            lc = cols.index(c)
            row = st.P[st.rec[r]].copy()
            row[lc] = orig[r, c]
            b, delta = st.trial(r, row)
            if not st.valid_after(r, b, delta, k):
                ok = False
                break
            moves.append((st, b, delta))
        if ok:
            for st, b, delta in moves:
                st.commit(r, b, delta)
            out[r, c] = orig[r, c]
    return out


def _minimal_stratum(codes: np.ndarray, subsets: list[tuple[tuple[int, ...], int]], importance: np.ndarray,
                     alpha: float) -> tuple[np.ndarray, int | None]:
    """The minimal mode's result and the number of cells sdcMicro's algorithm suppresses
    (None where sdcMicro stops with an error)."""
    base = int((codes < 0).sum())
    heur = _prune(codes, _heuristic_stratum(codes, subsets, importance, alpha), subsets, importance, alpha)
    safe = _prune(codes, _heuristic_stratum(codes, subsets, importance, alpha, rule="safe"), subsets, importance,
                  alpha)
    try:
        sdcm = _sdcmicro_stratum(codes, subsets, importance, alpha)
    except SdcMicroStops:
        sdcm, n_sdcm, pruned = None, None, None
    else:
        n_sdcm = int((sdcm < 0).sum()) - base
        pruned = _prune(codes, sdcm, subsets, importance, alpha)
        if pruned is None:
            # sdcMicro's result is not k-anonymous on every subset (combs with alpha < 1: a later
            # subset's suppressions lower an earlier subset's frequencies): finish it, then prune.
            fixed = _heuristic_stratum(sdcm, subsets, importance, alpha)
            pruned = _prune(codes, fixed, subsets, importance, alpha)
    # Every candidate is k-anonymous (the heuristic passes end only when every record is
    # safe, and pruning keeps every record safe); the fewest cells win, the first on ties.
    cands = [c for c in (heur, safe, pruned) if c is not None]
    best = min(cands, key=lambda c: int((c < 0).sum()))
    return best, n_sdcm


sdcmicro_stratum, minimal_stratum, priority = _sdcmicro_stratum, _minimal_stratum, _priority
