"""Local suppression: key values set to missing until the keys are k-anonymous.

A record is at risk when its sample frequency f_k, counted under sdcMicro's wildcard rule
for missing values (:mod:`sdc.core.frequencies`: a missing value may stand for any value,
with weight ``alpha``), is below k. Local suppression replaces some of its key values by
missing values: each one makes the record compatible with more records, which raises f_k.

The algorithm is sdcMicro's ``localSuppression`` / ``kAnon`` (Templ, Kowarik and Meindl
2015, J. Stat. Softw. 67(4); Templ 2017, *Statistical Disclosure Control for Microdata*,
Springer, ch. 3), reimplemented from its description and behaviour:

1. **Importance.** Each key gets an importance in 1..K (1 = most important, suppressed
   last). By default the key with the fewest distinct values is the most important; ties go
   to the earlier key. Keys are tried for suppression from the least important.
2. **Reduction** (``mode="sdcmicro"`` only). In every key pattern (a missing value being a
   value of its own) with more than k records, only the first k records take part; the rest
   cannot change any decision and are added back at the end.
3. **Passes.** The records with f_k < k, ordered by their risk 1/f_k (highest first, ties
   in record order), are visited one by one. For a record p, the *distance* to every other
   record is the number of keys observed in both and different; the *nearest* records are
   those at the smallest positive distance. The key suppressed in p is the least important
   key, observed in p, in which p differs from at least one nearest record. If no record
   is at a positive distance (p agrees with everything it can be compared with), the least
   important key observed in p is suppressed. After the pass f_k is counted again, and
   passes repeat until every record has f_k >= k.

Modes:

``mode="sdcmicro"``
    Exactly the cells sdcMicro 5.8's ``localSuppression`` suppresses (cross-validated cell
    for cell, see ``tests/test_sdcmicro_protect_suppression.py``): the reduction of step 2,
    and every record on the pass's list gets one suppression, even when an earlier
    suppression of the same pass already made it safe. Where sdcMicro stops with an error
    (a record with f_k < k that agrees with every record, alpha = 1), so does this mode.
``mode="minimal"`` (default)
    Never more suppressed cells than ``mode="sdcmicro"`` where sdcMicro's result is
    k-anonymous, and often far fewer. Three candidates are built and the one with fewer
    suppressed cells is kept: (a) the passes above on all the records, skipping a record
    that an earlier suppression of the pass has already made safe; (b) the same, the key
    being the least important one whose suppression alone makes the record safe (else as in
    step 3); (c) sdcMicro's own result (finished by passes (a) where it is not k-anonymous:
    ``combs`` with alpha < 1). Each candidate is then pruned: every suppressed cell whose
    original value can be put back while every record keeps f_k >= k (on every key subset,
    in every stratum) is put back, the most important keys first.

Options: ``combs`` (sdcMicro's name) asks for k-anonymity on every subset of ``combs[i]``
keys, with ``k[i]``, subsets handled in sdcMicro's order (sizes as given, each size in
lexicographic order); ``strata`` makes each stratum k-anonymous on its own; ``unit="record"``
drops whole records instead of suppressing cells, and ``l``/``sensitive`` add distinct
l-diversity (Machanavajjhala et al. 2007) of the equivalence classes: after the cells,
classes that are not l-diverse are dropped, and records are dropped until the kept records
are k-anonymous and l-diverse together (the kept records are reported).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from sdc._validation import check_columns, check_frame, check_fraction, check_int, check_keys, check_option
from sdc.core.frequencies import pattern_frequencies
from sdc.core.keys import EncodedKeys, combine_codes
from sdc.core.missing import MissingRule
from sdc.core.patterns import code_matrix, group_positions, pattern_table, rank_in_group
from sdc.core.strata import strata_ids
from sdc.protect._result import ProtectionResult

__all__ = ["local_suppression", "SUPPRESSION_MODES", "SUPPRESSION_UNITS", "default_importance", "SdcMicroStops",
           "wildcard_fk"]

SUPPRESSION_MODES = ("minimal", "sdcmicro")
SUPPRESSION_UNITS = ("cell", "record")

# Wildcard frequencies are sums of counts and alpha-multiples of counts; with a fractional
# alpha the incremental updates of the minimal mode may differ from a fresh count in the last
# bits, so "f >= k" is read with this slack there (sdcmicro mode compares exactly, as R does).
_TOL = 1e-9


class SdcMicroStops(ValueError):
    """sdcMicro's localSuppression stops with an error on this input (mode="sdcmicro")."""


# --------------------------------------------------------------------------------------
# Frequencies of a code matrix (sdcMicro's freqCalc rule), through sdc.core.
# --------------------------------------------------------------------------------------
def _cards(codes: np.ndarray) -> list[int]:
    return [max(int(codes[:, j].max()) + 1, 0) if codes.shape[0] else 0 for j in range(codes.shape[1])]


def wildcard_fk(codes: np.ndarray, alpha: float) -> np.ndarray:
    """f_k of every row of an ``(n, K)`` code matrix (-1 = missing) under sdcMicro's rule."""
    n, K = codes.shape
    if n == 0:
        return np.empty(0)
    cols = [np.ascontiguousarray(codes[:, j]) for j in range(K)]
    cards = _cards(codes)
    pattern, n_ids = combine_codes(cols, cards, n)
    enc = EncodedKeys(keys=tuple(f"k{j}" for j in range(K)), codes=tuple(cols), cardinalities=tuple(cards),
                      pattern=pattern, n_ids=n_ids, index=pd.RangeIndex(n))
    pf = pattern_frequencies(enc, None, MissingRule("wildcard", alpha))
    return np.asarray(pf.fk, dtype=np.float64)[pf.pattern]


# --------------------------------------------------------------------------------------
# The distinct patterns of one key subset, with counts and (optionally) wildcard f per pattern.
# --------------------------------------------------------------------------------------
class _Patterns:
    """Patterns (rows of codes, -1 = missing) of the records of one key subset in one stratum.

    Records move between patterns as cells are suppressed or put back; a pattern no record
    holds any more stays in the table with count 0 and is ignored. With ``track_f`` the
    wildcard frequency of every pattern is kept up to date after each move, from the rule's
    pairwise form: f(p) = sum over patterns q of count(q) * w(q -> p), where w is 1 for q = p,
    and for compatible q != p: 1 when p is all-missing; alpha when p is complete and q partial
    (and, with one key, when q is missing); 0 when p is complete and q all-missing (K >= 2);
    1 when p is partial and q complete; alpha when p is partial and q partial or all-missing.
    """

    def __init__(self, codes: np.ndarray, alpha: float, *, track_f: bool) -> None:
        n, K = codes.shape
        ids, rows, counts = pattern_table(codes)
        U = rows.shape[0]
        cap = max(16, 2 * U)
        self.K, self.alpha, self.U, self.n = K, float(alpha), U, n
        # Column-major: the distance loops read whole columns.
        self.P = np.empty((cap, K), dtype=np.int32, order="F")
        self.P[:U] = rows
        self.obs = np.zeros((cap, K), dtype=bool, order="F")
        self.obs[:U] = rows >= 0
        self.nobs = np.zeros(cap, dtype=np.int64)
        self.nobs[:U] = self.obs[:U].sum(axis=1)
        self.count = np.zeros(cap, dtype=np.int64)
        self.count[:U] = counts
        self.rec = ids.astype(np.int64)
        self._lookup: dict[bytes, int] | None = None
        self.track_f = track_f
        if track_f:
            self.f = np.zeros(cap)
            fk = wildcard_fk(codes, alpha)
            self.f[ids] = fk

    # -- table -------------------------------------------------------------------------
    def codes(self) -> np.ndarray:
        """The current code matrix of the records."""
        return self.P[self.rec]

    def _id_of(self, row: np.ndarray) -> int:
        if self._lookup is None:
            self._lookup = {self.P[i].tobytes(): i for i in range(self.U)}
        key = row.tobytes()
        i = self._lookup.get(key)
        if i is not None:
            return i
        if self.U == self.P.shape[0]:
            self._grow()
        i = self.U
        self.P[i] = row
        self.obs[i] = row >= 0
        self.nobs[i] = int(self.obs[i].sum())
        self.count[i] = 0
        if self.track_f:
            self.f[i] = self._f_of(row)
        self.U += 1
        self._lookup[key] = i
        return i

    def _grow(self) -> None:
        cap = 2 * self.P.shape[0]
        for name in ("P", "obs", "nobs", "count") + (("f",) if self.track_f else ()):
            old = getattr(self, name)
            new = np.zeros((cap,) + old.shape[1:], dtype=old.dtype, order="F")
            new[: old.shape[0]] = old
            setattr(self, name, new)

    # -- the wildcard rule ---------------------------------------------------------------
    def _compat(self, row: np.ndarray) -> np.ndarray:
        """Patterns compatible with `row`: equal wherever both are observed."""
        U = self.U
        o = np.flatnonzero(row >= 0)
        if o.size == 0:
            return np.ones(U, dtype=bool)
        sub = self.P[:U, o] if o.size < self.K else self.P[:U]
        return ((sub == row[o]) | ~(self.obs[:U, o] if o.size < self.K else self.obs[:U])).all(axis=1)

    def _kind(self, nobs: np.ndarray | int) -> np.ndarray:
        # 0 = all missing, 1 = partial, 2 = complete
        return np.where(nobs == 0, 0, np.where(nobs == self.K, 2, 1))

    def _contrib_from(self, row: np.ndarray) -> np.ndarray:
        """w(q -> p) for q = `row` and every pattern p of the table."""
        U, a = self.U, self.alpha
        compat = self._compat(row)
        kq = int(self._kind(int((row >= 0).sum())))
        kp = self._kind(self.nobs[:U])
        if kq == 2:
            wq = (1.0, 0.0, 1.0)       # to p all-missing, (p complete: only itself), p partial
        elif kq == 1:
            wq = (1.0, a, a)
        else:
            wq = (1.0, a if self.K == 1 else 0.0, a)
        w = np.where(kp == 0, wq[0], np.where(kp == 2, wq[1], wq[2]))
        w = np.where(compat, w, 0.0)
        # Compatible with the same observed keys means identical.
        same = compat & (self.obs[:U] == (row >= 0)).all(axis=1)
        w[same] = 1.0
        return w

    def _f_of(self, row: np.ndarray) -> float:
        """f of a pattern `row` given the current counts (the row itself may hold no record)."""
        U, a = self.U, self.alpha
        cnt = self.count[:U]
        kp = int(self._kind(int((row >= 0).sum())))
        if kp == 0:
            return float(self.n)
        compat = self._compat(row)
        kq = self._kind(self.nobs[:U])
        same = compat & (self.obs[:U] == (row >= 0)).all(axis=1)
        if kp == 2:
            other = compat & ~same & ((kq == 1) | ((kq == 0) & (self.K == 1)))
            return float(cnt[same].sum()) + a * float(cnt[other].sum())
        full = compat & ~same & (kq == 2)
        part = compat & ~same & (kq != 2)
        return float(cnt[same].sum()) + float(cnt[full].sum()) + a * float(cnt[part].sum())

    # -- moves ---------------------------------------------------------------------------
    def trial(self, r: int, new_row: np.ndarray) -> tuple[int, np.ndarray | None]:
        """The pattern id record r would move to and the change of f (None without track_f)."""
        a = int(self.rec[r])
        b = self._id_of(new_row)
        if not self.track_f:
            return b, None
        return b, self._contrib_from(self.P[b]) - self._contrib_from(self.P[a])

    def commit(self, r: int, b: int, delta: np.ndarray | None) -> None:
        a = int(self.rec[r])
        if delta is not None:
            self.f[: self.U] += delta
        self.count[a] -= 1
        self.count[b] += 1
        self.rec[r] = b

    def move(self, r: int, new_row: np.ndarray) -> None:
        b, delta = self.trial(r, new_row)
        self.commit(r, b, delta)

    def valid_after(self, r: int, b: int, delta: np.ndarray, k: float) -> bool:
        """Whether every pattern holding a record keeps f >= k after moving record r to b."""
        a = int(self.rec[r])
        U = self.U
        cnt = self.count[:U].copy()
        cnt[a] -= 1
        cnt[b] += 1
        newf = self.f[:U] + delta
        return bool((newf[cnt > 0] >= k - _TOL).all())

    def all_valid(self, k: float) -> bool:
        U = self.U
        return bool((self.f[:U][self.count[:U] > 0] >= k - _TOL).all())

    # -- sdcMicro's choice of the key to suppress ------------------------------------------
    def choose(self, r: int, priority: Sequence[int]) -> int | None:
        """The key to suppress in record r (sdcMicro's nearest-record rule), or None when no
        record lies at a positive distance."""
        U = self.U
        p = self.P[self.rec[r]]
        o = np.flatnonzero(p >= 0)
        if o.size == 0:
            return None
        d = np.zeros(U, dtype=np.int16)
        for j in o:
            np.add(d, (self.P[:U, j] != p[j]) & self.obs[:U, j], out=d, casting="unsafe")
        d[self.count[:U] == 0] = 0
        pos = d > 0
        if not pos.any():
            return None
        m = d[pos].min()
        near = np.flatnonzero(d == m)
        for c in priority:
            v = p[c]
            if v < 0:
                continue
            col = self.P[near, c]
            if ((col >= 0) & (col != v)).any():
                return int(c)
        return None  # pragma: no cover - a nearest record differs in some observed key

    def first_observed(self, r: int, priority: Sequence[int]) -> int:
        p = self.P[self.rec[r]]
        for c in priority:
            if p[c] >= 0:
                return int(c)
        raise AssertionError("record with every key missing cannot be at risk")  # pragma: no cover

    def suppress(self, r: int, c: int) -> None:
        row = self.P[self.rec[r]].copy()
        row[c] = -1
        self.move(r, row)


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


# --------------------------------------------------------------------------------------
# Importance, subsets, strata.
# --------------------------------------------------------------------------------------
def _priority(importance: np.ndarray) -> list[int]:
    """Keys in the order they are tried for suppression: least important (largest number)
    first, ties in key order (sdcMicro: ``order((K + 1) - importance)``)."""
    return [int(i) for i in np.argsort(-np.asarray(importance), kind="stable")]


def default_importance(data: pd.DataFrame, keys: Sequence[str]) -> dict[str, int]:
    """sdcMicro's default importance: keys ranked by their number of distinct observed values,
    fewest first (importance 1 = most important); ties go to the earlier key."""
    keys = check_keys(check_frame(data), keys)
    n_values = [int(data[k].nunique(dropna=True)) for k in keys]
    order = np.argsort(n_values, kind="stable")
    imp = np.empty(len(keys), dtype=np.int64)
    imp[order] = np.arange(1, len(keys) + 1)
    return {k: int(v) for k, v in zip(keys, imp)}


def _check_importance(importance: object, keys: tuple[str, ...], data: pd.DataFrame) -> np.ndarray:
    K = len(keys)
    if importance is None:
        d = default_importance(data, keys)
        return np.array([d[k] for k in keys], dtype=np.int64)
    if isinstance(importance, Mapping):
        unknown = [k for k in importance if k not in keys]
        if unknown:
            raise ValueError(f"`importance` names variables that are not keys: {', '.join(map(repr, unknown))}.")
        missing = [k for k in keys if k not in importance]
        if missing:
            raise ValueError(f"`importance` has no value for key(s) {', '.join(map(repr, missing))}.")
        vals = [importance[k] for k in keys]
    elif isinstance(importance, (str, bytes)) or not isinstance(importance, Sequence):
        raise TypeError(f"`importance` must be a sequence of integers (one per key) or a mapping; got {importance!r}.")
    else:
        vals = list(importance)
        if len(vals) != K:
            raise ValueError(f"`importance` must have one value per key ({K}); got {len(vals)}.")
    return np.array([check_int(v, "importance", min_value=1, max_value=K) for v in vals], dtype=np.int64)


def _subsets(keys: tuple[str, ...], k: object, combs: object) -> list[tuple[tuple[int, ...], int]]:
    K = len(keys)
    if combs is None:
        if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
            raise TypeError(f"`k` must be an integer (a sequence only with `combs`); got {k!r}.")
        return [(tuple(range(K)), check_int(k, "k", min_value=2))]
    if isinstance(combs, (int, np.integer)) and not isinstance(combs, bool):
        combs = [combs]
    if isinstance(combs, (str, bytes)) or not isinstance(combs, Sequence) or len(combs) == 0:
        raise TypeError(f"`combs` must be a sequence of subset sizes; got {combs!r}.")
    sizes = [check_int(c, "combs", min_value=1, max_value=K) for c in combs]
    if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
        ks = [check_int(k, "k", min_value=2)] * len(sizes)
    elif isinstance(k, Sequence) and not isinstance(k, (str, bytes)):
        if len(k) != len(sizes):
            raise ValueError(f"`k` must be one integer or one per entry of `combs` ({len(sizes)}); got {len(k)}.")
        ks = [check_int(v, "k", min_value=2) for v in k]
    else:
        raise TypeError(f"`k` must be an integer or a sequence of integers; got {k!r}.")
    out = []
    for size, kk in zip(sizes, ks):
        for sub in itertools.combinations(range(K), size):
            out.append((tuple(sub), kk))
    return out


# --------------------------------------------------------------------------------------
# Records dropped for k and l together.
# --------------------------------------------------------------------------------------
def _distinct_per_record(class_ids: np.ndarray, sens: np.ndarray) -> np.ndarray:
    """Distinct observed sensitive values in each record's class (0 when none is observed)."""
    n_cls = int(class_ids.max()) + 1 if class_ids.size else 0
    obs = sens >= 0
    pairs = np.column_stack([class_ids[obs], sens[obs]]).astype(np.int32)
    if pairs.shape[0] == 0:
        return np.zeros(class_ids.shape[0], dtype=np.int64)
    _, distinct_rows, _ = pattern_table(pairs)
    per_class = np.bincount(distinct_rows[:, 0], minlength=n_cls)
    return per_class[class_ids]


def _drop_records(codes: np.ndarray, strata: list[np.ndarray], subsets: list[tuple[tuple[int, ...], int]],
                  alpha: float, sens_codes: list[np.ndarray], l: int | None) -> np.ndarray:
    """Records kept: whole records are dropped until, in every stratum, the kept records are
    k-anonymous on every key subset and (with `l`) every class is distinct l-diverse."""
    kept = np.ones(codes.shape[0], dtype=bool)
    for pos in strata:
        live = pos
        while live.size:
            bad = np.zeros(live.size, dtype=bool)
            sub = codes[live]
            for cols, k in subsets:
                bad |= wildcard_fk(np.ascontiguousarray(sub[:, cols]), alpha) < k - _TOL
            if l is not None:
                cls, _, _ = pattern_table(np.ascontiguousarray(sub))
                for s in sens_codes:
                    d = _distinct_per_record(cls, s[live])
                    bad |= (d > 0) & (d < l)
            if not bad.any():
                break
            kept[live[bad]] = False
            live = live[~bad]
    return kept


# --------------------------------------------------------------------------------------
# The public function.
# --------------------------------------------------------------------------------------
def _with_missing(s: pd.Series, mask: np.ndarray) -> pd.Series:
    """`s` with the cells of `mask` set to missing, in a dtype that can hold a missing value."""
    if not mask.any():
        return s.copy()
    dt = s.dtype
    if pd.api.types.is_bool_dtype(dt):
        s = s.astype("boolean")
    elif pd.api.types.is_integer_dtype(dt) and not isinstance(dt, pd.CategoricalDtype):
        s = s.astype("Int64") if isinstance(dt, np.dtype) else s.copy()
    else:
        s = s.copy()
    m = pd.Series(mask, index=s.index)
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "fc":
        return s.mask(m, np.nan)
    if isinstance(s.dtype, np.dtype) and s.dtype.kind == "M":
        return s.mask(m, pd.NaT)
    if isinstance(s.dtype, np.dtype) and s.dtype == object:
        return s.mask(m, None)
    return s.mask(m)


def local_suppression(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    k: int | Sequence[int] = 3,
    importance: Sequence[int] | Mapping[str, int] | None = None,
    combs: int | Sequence[int] | None = None,
    strata: str | Sequence[str] | None = None,
    alpha: float = 1.0,
    mode: Literal["minimal", "sdcmicro"] = "minimal",
    unit: Literal["cell", "record"] = "cell",
    sensitive: str | Sequence[str] | None = None,
    l: int | None = None,
) -> ProtectionResult:
    """Suppress key values (or drop records) until the keys are k-anonymous.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Categorical key variables (quasi-identifiers). Missing values are wildcards.
    k : int or sequence of int, default 3
        The threshold: every record must end with f_k >= k (sdcMicro's default is 2). With
        `combs`, one k per entry of `combs` may be given.
    importance : sequence of int or mapping, optional
        Importance of each key in 1..K (1 = most important, suppressed last); ties allowed.
        Default: sdcMicro's (fewest distinct values = most important).
    combs : int or sequence of int, optional
        k-anonymity on every subset of these sizes of the keys (sdcMicro's ``combs``).
    strata : str or sequence of str, optional
        Stratum variables: k-anonymity within each stratum (missing is a stratum value).
    alpha : float in [0, 1], default 1
        Weight of wildcard matches (sdcMicro's ``alpha``, see :func:`sdc.frequencies`).
    mode : {"minimal", "sdcmicro"}, default "minimal"
        ``"sdcmicro"``: exactly sdcMicro's cells; ``"minimal"``: never more, often fewer.
    unit : {"cell", "record"}, default "cell"
        ``"record"`` drops whole records (a whole equivalence class at a time, as they share
        their frequency) instead of suppressing cells.
    sensitive : str or sequence of str, optional
        Sensitive variables for distinct l-diversity (with `l`).
    l : int, optional
        Every equivalence class (keys and strata, missing a value of its own) with at least
        one observed sensitive value must hold >= l distinct observed values of each
        sensitive variable; classes that do not are dropped (records kept are reported).

    Returns
    -------
    ProtectionResult
        ``data``: the protected copy (same index; without the dropped records, if any).
        ``changed``: new suppressions per key. ``details``: ``suppressions`` (per key),
        ``suppressions_by_stratum``, ``missing_after`` (per key), ``importance``,
        ``kept`` (bool per input record), ``records_dropped``, ``k_anonymous``,
        ``sdcmicro_suppressions`` (minimal mode: the cells sdcMicro's algorithm suppresses,
        None where it stops with an error).

    Notes
    -----
    The frequency rule is ``sdcMicro::freqCalc``'s (Templ 2008); the suppression algorithm is
    ``sdcMicro::localSuppression`` (5.8; Templ, Kowarik and Meindl 2015). Integer keys with
    suppressions come back as pandas' nullable ``Int64`` and booleans as ``boolean``.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": ["m", "m", "f", "f", "f", "f"]})
    >>> sdc.local_suppression(df, ["age", "sex"], k=2, mode="sdcmicro").changed.to_dict()
    {'age': 2, 'sex': 0}
    >>> res = sdc.local_suppression(df, ["age", "sex"], k=2)
    >>> res.changed.to_dict(), res.details["sdcmicro_suppressions"]
    ({'age': 1, 'sex': 0}, 2)
    >>> res.data["age"].tolist()
    [30, 30, <NA>, 40, 40, 50]
    """
    check_frame(data)
    keys = check_keys(data, keys)
    mode = check_option(mode, "mode", SUPPRESSION_MODES)
    unit = check_option(unit, "unit", SUPPRESSION_UNITS)
    alpha = check_fraction(alpha, "alpha")
    subsets = _subsets(keys, k, combs)
    imp = _check_importance(importance, keys, data)
    strata_cols = check_columns(data, strata, role="strata") if strata is not None else ()
    overlap = [c for c in strata_cols if c in keys]
    if overlap:
        raise ValueError(f"`strata` must not repeat key variables: {', '.join(map(repr, overlap))}.")
    sens_cols: tuple[str, ...] = ()
    if (sensitive is None) != (l is None):
        raise ValueError("`sensitive` and `l` go together: give both or neither.")
    if l is not None:
        l = check_int(l, "l", min_value=2)
        sens_cols = check_columns(data, sensitive, role="sensitive")
        bad = [c for c in sens_cols if c in keys or c in strata_cols]
        if bad:
            raise ValueError(f"`sensitive` must not repeat key or strata variables: {', '.join(map(repr, bad))}.")

    codes, _ = code_matrix(data, keys)
    st = strata_ids(data, list(strata_cols))
    positions = [p for p in group_positions(st.ids, st.n_strata) if p.size]
    min_k = max(kk for _, kk in subsets)
    for pos in positions:
        if pos.size < min_k and unit == "cell":
            lab = st.labels[int(st.ids[pos[0]])]
            where = f"stratum {lab!r}" if strata_cols else "the data"
            raise ValueError(f"{where} has {pos.size} record(s), fewer than k = {min_k}: it cannot be made "
                             f"{min_k}-anonymous by suppressing cells (use unit='record' to drop it).")

    out = codes.copy()
    sdcm_total: int | None = 0
    if unit == "cell":
        for pos in positions:
            sub = np.ascontiguousarray(codes[pos])
            if mode == "sdcmicro":
                res = _sdcmicro_stratum(sub, subsets, imp, alpha)
            else:
                res, n_sdcm = _minimal_stratum(sub, subsets, imp, alpha)
                sdcm_total = None if (n_sdcm is None or sdcm_total is None) else sdcm_total + n_sdcm
            out[pos] = res
    kept = np.ones(len(data), dtype=bool)
    if unit == "record" or l is not None:
        sens_codes = [code_matrix(data, (s,))[0][:, 0] for s in sens_cols]
        # Within a stratum, classes on the keys are classes on keys and strata.
        kept = _drop_records(out, positions, subsets, alpha, sens_codes, l)

    new_na = (out < 0) & (codes >= 0)
    frame = data.copy()
    for j, key in enumerate(keys):
        frame[key] = _with_missing(data[key], new_na[:, j])
    if not kept.all():
        frame = frame.loc[kept]
    supp = pd.Series(new_na[kept].sum(axis=0).astype(np.int64), index=list(keys), name="suppressions")
    by_stratum = pd.DataFrame(
        [new_na[pos][kept[pos]].sum(axis=0) for pos in positions], columns=list(keys),
        index=pd.Index([st.labels[int(st.ids[p[0]])] for p in positions], name="stratum"),
    ).astype(np.int64)
    k_anon = True
    for pos in positions:
        live = pos[kept[pos]]
        for cols, kk in subsets:
            if live.size and (wildcard_fk(np.ascontiguousarray(out[live][:, cols]), alpha) < kk - _TOL).any():
                k_anon = False
    details = {
        "suppressions": supp,
        "suppressions_by_stratum": by_stratum,
        "missing_after": pd.Series((out[kept] < 0).sum(axis=0).astype(np.int64), index=list(keys), name="missing"),
        "importance": {kk: int(v) for kk, v in zip(keys, imp)},
        "kept": pd.Series(kept, index=data.index, name="kept"),
        "records_dropped": int((~kept).sum()),
        "k_anonymous": k_anon,
        "sdcmicro_suppressions": (sdcm_total if mode == "minimal" and unit == "cell" else None),
        "subsets": [[keys[i] for i in cols] for cols, _ in subsets],
    }
    if combs is None:
        k_param: object = subsets[0][1]
        combs_param = None
    else:
        k_param = [int(v) for v in (k if isinstance(k, Sequence) else [k])]
        combs_param = [int(c) for c in (combs if isinstance(combs, Sequence) else [combs])]
    params = {
        "keys": list(keys), "k": k_param, "importance": details["importance"], "combs": combs_param,
        "strata": list(strata_cols) or None, "alpha": alpha, "mode": mode, "unit": unit,
        "sensitive": list(sens_cols) or None, "l": l,
    }
    return ProtectionResult(
        method="local_suppression", data=frame, variables=tuple(keys), parameters=params, seed=None,
        changed=supp.rename("cells_changed"), details=details,
    )
