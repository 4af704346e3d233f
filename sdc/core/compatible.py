"""Sums over compatible key patterns at the cost of the matches: a sorted trie with wildcards.

sdcMicro's wildcard rule (:mod:`sdc.core.frequencies`) needs, for every pattern with a
missing key value (a *partial* pattern), the counts and weights of every pattern that is
*compatible* with it (equal wherever both are observed), and for every complete pattern the
counts of the partial patterns compatible with it. This module finds those pairs with one
sort of the patterns and a level-by-level descent, paying for the pairs it finds rather than
for a pass over all patterns per missingness mask.

The trie
    Each pattern is a string of digits, one per key, the missing value being one more digit
    ``*`` (the key's number of values, so it sorts last). Keys are ordered by increasing
    number of values (few values near the root, where every branch exists anyway; many
    values near the leaves, where the trie is sparse), and the patterns are sorted once by
    their digits packed into one integer. A node of the trie (a prefix of digits) is then a
    contiguous range of the sorted patterns, found from its packed bounds: by a table of
    range starts for the shallow levels (one entry per possible prefix), by binary search
    below.

The descent
    A partial pattern q is compatible with p when at every key, q's digit is ``*``, or p's
    digit is ``*``, or they are equal. Starting from the root, each state (q, node) moves
    one level down: where q is observed, to the child with q's digit and to the ``*`` child;
    where q is missing, to every child. A state whose remaining digits of q are all ``*`` is
    a final range (every pattern in it matches), and a state whose range is small is
    finished by comparing its few patterns directly. The work is the number of states, i.e.
    the prefixes of the matches, and every Python-level step is a vectorised pass over all
    states of one level (K levels), whatever the number of masks.

Sums over ranges
    Counts are summed exactly with int64 prefix sums. Weights are split as w = h + l with h
    a multiple of 2^-s (s chosen so that every prefix sum of h fits in int64, so h sums
    exactly) and l the tiny remainder; a range's weight sum is then correct to about one
    rounding, independent of the order of the data. Contributions to complete patterns
    (the same sums in the other direction) use difference arrays in the same split.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["compatible_sums", "CompatibleSums"]

# Packed digits must stay below this; beyond it callers use another method.
_MAX_SPACE = 1 << 62
# Levels whose prefixes number at most this (and not much more than the patterns) get a table.
_TABLE_MAX = 1 << 24
# A state whose range holds at most this many patterns is finished by direct comparison.
_SCAN = 16
# States processed at once (bounds the memory of the descent).
_CHUNK = 1 << 19


class CompatibleSums:
    """Per pattern (in the input order): sums of counts and weights over compatible patterns.

    For a partial pattern q (not all-missing): ``c_complete``/``w_complete`` over the
    compatible complete patterns, ``c_partial``/``w_partial`` over the compatible partial
    ones, q itself and the all-missing pattern included. For a complete pattern p:
    ``c_partial``/``w_partial`` over the compatible partial patterns, the all-missing one
    excluded; its ``c_complete``/``w_complete`` are 0 (complete patterns are distinct).
    Undefined (0) for the all-missing pattern.
    """

    __slots__ = ("c_complete", "c_partial", "w_complete", "w_partial", "partial", "all_missing")

    def __init__(self, P: int):
        self.c_complete = np.zeros(P, dtype=np.int64)
        self.c_partial = np.zeros(P, dtype=np.int64)
        self.w_complete = np.zeros(P)
        self.w_partial = np.zeros(P)
        self.partial = np.zeros(P, dtype=bool)
        self.all_missing = np.zeros(P, dtype=bool)


def compatible_sums(codes: list[np.ndarray], cards: list[int], c: np.ndarray, w: np.ndarray
                    ) -> CompatibleSums | None:
    """Compatible-pattern sums for distinct patterns given as per-key codes (-1 = missing).

    `codes` holds one array per key (length P, distinct rows), `cards` each key's number of
    codes, `c` the records and `w` the weight sum of each pattern. Returns None when the
    packed digits would not fit in int64 (the caller then uses another method).
    """
    P = int(c.size)
    K = len(codes)
    levels = sorted(range(K), key=lambda v: (cards[v], v))
    radix = [int(cards[v]) + 1 for v in levels]
    space = 1
    for r in radix:
        space *= r
    if space >= _MAX_SPACE:
        return None
    mult = [1] * K
    for L in range(K - 2, -1, -1):
        mult[L] = mult[L + 1] * radix[L + 1]
    dtype = np.int16 if max(radix) < (1 << 15) else np.int32 if max(radix) < (1 << 31) else np.int64
    digits = []
    key = np.zeros(P, dtype=np.int64)
    for L, v in enumerate(levels):
        d = codes[v].astype(dtype, copy=True)
        d[d < 0] = radix[L] - 1
        digits.append(d)
        key += d.astype(np.int64) * mult[L]
    order = np.argsort(key)  # the packed digits are distinct: no ties to keep stable
    skey = key[order]
    del key
    sdig = [d[order] for d in digits]
    del digits
    star = [r - 1 for r in radix]
    partial = np.zeros(P, dtype=bool)
    all_missing = np.ones(P, dtype=bool)
    # tail[i]: first level from which every digit of sorted pattern i is '*'.
    tail = np.full(P, K, dtype=np.int8 if K < 127 else np.int16)
    for L in range(K - 1, -1, -1):
        is_star = sdig[L] == star[L]
        partial |= is_star
        all_missing &= is_star
        tail[all_missing] = L
    # all_missing now says: every digit from level 0 on is '*'.
    cs = c[order].astype(np.int64)
    ws = w[order].astype(np.float64)
    queries = np.flatnonzero(partial & ~all_missing)
    out = CompatibleSums(P)
    if queries.size == 0:
        out.partial[order] = partial
        out.all_missing[order] = all_missing
        return out

    tables = _level_tables(skey, radix, mult, P)
    sums = _RangeSums(cs, ws, partial)
    qc = np.zeros(queries.size, dtype=np.int64)   # per query: complete counts
    qp = np.zeros(queries.size, dtype=np.int64)   # per query: partial counts
    qwc = np.zeros(queries.size)
    qwp = np.zeros(queries.size)
    diff = _RangeAdder(P)
    for start in range(0, queries.size, _CHUNK):
        qs = queries[start:start + _CHUNK]
        q_idx, a, b = _descend(qs, skey, sdig, star, radix, mult, tables, tail, P)
        # Sums of each range, by query.
        cc, cp, wc, wp = sums.ranges(a, b)
        local = q_idx - start
        qc[start:start + qs.size] += np.bincount(local, weights=cc, minlength=qs.size).astype(np.int64)
        qp[start:start + qs.size] += np.bincount(local, weights=cp, minlength=qs.size).astype(np.int64)
        qwc[start:start + qs.size] += np.bincount(local, weights=wc, minlength=qs.size)
        qwp[start:start + qs.size] += np.bincount(local, weights=wp, minlength=qs.size)
        # Each partial query counts towards every complete pattern in its ranges.
        diff.add(a, b, cs[queries[q_idx]], ws[queries[q_idx]])
    to_c, to_w = diff.totals()
    c_complete = np.zeros(P, dtype=np.int64)
    c_partial = np.where(partial, 0, to_c)
    w_complete = np.zeros(P)
    w_partial = np.where(partial, 0.0, to_w)
    c_complete[queries] = qc
    c_partial[queries] = qp
    w_complete[queries] = qwc
    w_partial[queries] = qwp
    # Back to the input order.
    out.c_complete[order] = c_complete
    out.c_partial[order] = c_partial
    out.w_complete[order] = w_complete
    out.w_partial[order] = w_partial
    out.partial[order] = partial
    out.all_missing[order] = all_missing
    return out


def _level_tables(skey: np.ndarray, radix: list[int], mult: list[int], P: int) -> list[np.ndarray | None]:
    """For each level whose prefixes are few enough, the start of every prefix's range."""
    tables: list[np.ndarray | None] = []
    space = 1
    for L, r in enumerate(radix):
        space *= r
        if space <= min(_TABLE_MAX, 4 * P + (1 << 16)):
            tables.append(np.searchsorted(skey, np.arange(space + 1, dtype=np.int64) * mult[L]))
        else:
            tables.append(None)
    return tables


def _descend(qs: np.ndarray, skey: np.ndarray, sdig: list[np.ndarray], star: list[int], radix: list[int],
             mult: list[int], tables: list[np.ndarray | None], tail: np.ndarray, P: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranges of patterns compatible with the queries `qs` (sorted positions).

    Returns ``(query, start, stop)`` arrays: query indexes into `qs`, and ranges of sorted
    positions whose patterns are all compatible with it (each compatible pattern in exactly
    one range of its query)."""
    K = len(radix)
    out_q: list[np.ndarray] = []
    out_a: list[np.ndarray] = []
    out_b: list[np.ndarray] = []
    # State: query index, range [lo, hi), prefix value pv (digits of levels < L, radix-packed).
    q = np.arange(qs.size, dtype=np.int64)
    lo = np.zeros(qs.size, dtype=np.int64)
    hi = np.full(qs.size, P, dtype=np.int64)
    pv = np.zeros(qs.size, dtype=np.int64)
    qtail = tail[qs]
    for L in range(K):
        if q.size == 0:
            break
        # Final ranges: the query is '*' from this level on. Small ranges: compare directly
        # (for a '*' digit, when the range is smaller than the children to enumerate).
        r = radix[L]
        s = star[L]
        d = sdig[L][qs[q]].astype(np.int64)
        size = hi - lo
        fin = qtail[q] <= L
        small = ~fin & ((size <= _SCAN) | ((d == s) & (size <= 2 * r)))
        if fin.any():
            out_q.append(q[fin]); out_a.append(lo[fin]); out_b.append(hi[fin])
        if small.any():
            sq, sa = _scan(q[small], lo[small], hi[small], qs, sdig, star, L)
            out_q.append(sq); out_a.append(sa); out_b.append(sa + 1)
        go = ~(fin | small)
        q, lo, hi, pv, d = q[go], lo[go], hi[go], pv[go], d[go]
        if q.size == 0:
            break
        obs = d != s
        # Observed digit: the child with that digit and the '*' child.
        qo, pvo, do = q[obs], pv[obs], d[obs]
        base = pvo * r
        a1, b1 = _bounds(base + do, base + do + 1, skey, tables[L], mult[L])
        a2 = _bounds(base + s, None, skey, tables[L], mult[L])[0]
        b2 = hi[obs]
        # Missing digit: every child.
        qm, pvm = q[~obs], pv[~obs]
        if qm.size:
            qm = np.repeat(qm, r)
            child = np.tile(np.arange(r, dtype=np.int64), pvm.size)
            basem = np.repeat(pvm * r, r) + child
            am, bm = _bounds(basem, basem + 1, skey, tables[L], mult[L])
        else:
            am = bm = basem = np.empty(0, dtype=np.int64)
        q = np.concatenate([qo, qo, qm])
        lo = np.concatenate([a1, a2, am])
        hi = np.concatenate([b1, b2, bm])
        pv = np.concatenate([base + do, base + s, basem])
        keep = lo < hi
        q, lo, hi, pv = q[keep], lo[keep], hi[keep], pv[keep]
    if q.size:  # below the last level every range is one pattern, compatible by construction
        out_q.append(q); out_a.append(lo); out_b.append(hi)
    return np.concatenate(out_q), np.concatenate(out_a), np.concatenate(out_b)


def _bounds(v0: np.ndarray, v1: np.ndarray | None, skey: np.ndarray, table: np.ndarray | None, m: int
            ) -> tuple[np.ndarray, np.ndarray | None]:
    """Sorted positions where prefixes `v0` (and `v1`) of this level start."""
    if table is not None:
        return table[v0], (None if v1 is None else table[v1])
    if v1 is None:
        return _search(skey, v0 * m), None
    both = _search(skey, np.concatenate([v0, v1]) * m)
    return both[: v0.size], both[v0.size:]


def _search(skey: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``searchsorted`` with the probes sorted first: sorted probes walk the array in order
    (random probes into a large array cost a cache miss per step)."""
    if x.size < 64:
        return np.searchsorted(skey, x)
    o = np.argsort(x, kind="stable")
    res = np.empty(x.size, dtype=np.int64)
    res[o] = np.searchsorted(skey, x[o])
    return res


def _scan(q: np.ndarray, lo: np.ndarray, hi: np.ndarray, qs: np.ndarray, sdig: list[np.ndarray],
          star: list[int], L: int) -> tuple[np.ndarray, np.ndarray]:
    """Compare each small range's patterns with the query on levels L and below."""
    n = hi - lo
    qq = np.repeat(q, n)
    first = np.repeat(lo - np.concatenate([[0], np.cumsum(n)[:-1]]), n)
    pos = first + np.arange(qq.size, dtype=np.int64)
    ok = np.ones(pos.size, dtype=bool)
    qpos = qs[qq]
    for lvl in range(L, len(sdig)):
        dq = sdig[lvl][qpos]
        dp = sdig[lvl][pos]
        s = star[lvl]
        ok &= (dq == dp) | (dq == s) | (dp == s)
    return qq[ok], pos[ok]


class _RangeSums:
    """Sums of counts and weights over ranges of the sorted patterns, split complete/partial."""

    def __init__(self, c: np.ndarray, w: np.ndarray, partial: np.ndarray):
        zero = np.zeros(1, dtype=np.int64)
        self.cc = np.concatenate([zero, np.cumsum(np.where(partial, 0, c))])
        self.cp = np.concatenate([zero, np.cumsum(np.where(partial, c, 0))])
        self.scale, hi, low = _split(w)
        self.hc = np.concatenate([zero, np.cumsum(np.where(partial, 0, hi))])
        self.hp = np.concatenate([zero, np.cumsum(np.where(partial, hi, 0))])
        zf = np.zeros(1)
        self.lc = np.concatenate([zf, np.cumsum(np.where(partial, 0.0, low))])
        self.lp = np.concatenate([zf, np.cumsum(np.where(partial, low, 0.0))])

    def ranges(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        cc = self.cc[b] - self.cc[a]
        cp = self.cp[b] - self.cp[a]
        wc = (self.hc[b] - self.hc[a]) / self.scale + (self.lc[b] - self.lc[a])
        wp = (self.hp[b] - self.hp[a]) / self.scale + (self.lp[b] - self.lp[a])
        return cc, cp, wc, wp


class _RangeAdder:
    """Adds values over ranges of positions (difference arrays), counts exactly, weights split."""

    def __init__(self, P: int):
        self.P = P
        self.dc = np.zeros(P + 1, dtype=np.int64)
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, a: np.ndarray, b: np.ndarray, c: np.ndarray, w: np.ndarray) -> None:
        self.dc += np.bincount(a, weights=c, minlength=self.P + 1).astype(np.int64)
        self.dc -= np.bincount(b, weights=c, minlength=self.P + 1).astype(np.int64)
        self.parts.append((a, b, w))

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        to_c = np.cumsum(self.dc)[: self.P]
        if not self.parts:
            return to_c, np.zeros(self.P)
        w_all = np.concatenate([w for _, _, w in self.parts])
        scale, hi, low = _split(w_all)
        dh = np.zeros(self.P + 1, dtype=np.int64)
        dl = np.zeros(self.P + 1)
        at = 0
        for a, b, w in self.parts:
            h, lw = hi[at:at + a.size], low[at:at + a.size]
            at += a.size
            dh += _int_bincount(a, h, self.P + 1)
            dh -= _int_bincount(b, h, self.P + 1)
            dl += np.bincount(a, weights=lw, minlength=self.P + 1)
            dl -= np.bincount(b, weights=lw, minlength=self.P + 1)
        to_w = np.cumsum(dh)[: self.P] / scale + np.cumsum(dl)[: self.P]
        return to_c, to_w


def _int_bincount(idx: np.ndarray, v: np.ndarray, size: int) -> np.ndarray:
    """Exact int64 sums of non-negative `v` (below 2^63) by `idx`: ``bincount`` adds in
    float64, exact only below 2^53, so the values go in as three 21-bit parts (exact for up
    to 2^32 values per index)."""
    total = np.zeros(size, dtype=np.int64)
    for shift in (42, 21, 0):
        part = (v >> shift) & ((1 << 21) - 1)
        total += np.bincount(idx, weights=part, minlength=size).astype(np.int64) << shift
    return total


def _split(w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """w = hi / scale + low, with hi int64 whose every prefix sum fits in int64 (exact sums)
    and low the small remainder (also exact: hi / scale and w are close)."""
    total = float(np.abs(w).sum())
    if total == 0 or not math.isfinite(total):
        return 1.0, np.zeros(w.size, dtype=np.int64), w.astype(np.float64, copy=True)
    shift = 61 - math.frexp(total)[1]   # total * 2^shift < 2^61
    scale = math.ldexp(1.0, shift)
    hi_f = np.rint(w * scale)
    low = w - hi_f / scale
    return scale, hi_f.astype(np.int64), low
