"""The machinery of local suppression (:mod:`sdc.protect.suppression`): sample frequencies of a
code matrix under sdcMicro's wildcard rule for missing values (``freqCalc``), and the table
of distinct key patterns that records move between as cells are suppressed or put back,
with each pattern's wildcard frequency kept up to date.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc.core.frequencies import pattern_frequencies
from sdc.core.keys import EncodedKeys, combine_codes
from sdc.core.missing import MissingRule
from sdc.core.patterns import pattern_table

__all__ = ["wildcard_fk", "SdcMicroStops"]

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
