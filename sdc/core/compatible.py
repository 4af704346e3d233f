"""Sums over compatible key patterns, paying for the matches: sorted groups probed by range.

sdcMicro's wildcard rule (:mod:`sdc.core.frequencies`) needs, for every pattern with a
missing key value (a *partial* pattern), the counts and weights of every pattern that is
*compatible* with it (equal wherever both are observed), and for every complete pattern the
counts of the compatible partial patterns. This module finds them without a pass over all
patterns per missingness mask.

Digits and order
    A pattern is a string of digits, one per key, the missing value being one more digit
    ``*`` (the key's number of values). Keys are ordered by increasing number of values and
    the digits packed into one integer (mixed radix), so that sorting by that integer sorts
    patterns lexicographically. Patterns are grouped by their set of missing keys (their
    *mask*): the complete patterns first, then the partial groups, largest first; each group
    sorted.

Each unordered pair of groups once
    For every group T, the patterns of all later groups are *queries* against T. A query q
    and a pattern p of T are compatible when they agree on every key observed in both. In
    T's own keys (T is complete there: its missing keys are the same constant ``*``), the
    compatible patterns of q are those equal to q on the keys q observes, free on the keys q
    misses. Free keys that come last in the key order form a contiguous range of T's sorted
    patterns. One more free key D (the deepest one not in that trailing run) is made part
    of the run by a second order of T, sorted with D's digit dropped (T's order sorted by
    the remaining digits; it is nearly sorted already, so the stable sort is cheap).
    Further free keys are enumerated (their values' product, usually small), or, when that
    product is large, the range of the keys before them is compared pattern by pattern.
    Each compatible pair is thus found by two binary searches of sorted probes into a sorted
    array, and each Python-level step is a vectorised pass over all queries of one group T
    (so the number of masks costs Python steps, not passes over the data).

Sums over ranges
    Counts are summed exactly with int64 prefix sums. Weights are split as w = h / 2^s + l
    with h an integer small enough that every prefix sum of h fits in int64 (so it sums
    exactly) and l the tiny remainder, so that a range's weight sum is correct to about one
    rounding, independent of the order of the data. The contributions of queries to the
    patterns of T use difference arrays, in the same split.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["compatible_sums", "CompatibleSums"]

# Packed digits must stay below this; beyond it callers use another method.
_MAX_SPACE = 1 << 62
# Enumerate at most this many values of the free keys per query; beyond, compare a range.
_ENUM_MAX = 64
# Queries handled per step (bounds the memory of the probes).
_CHUNK = 1 << 21


class CompatibleSums:
    """Per pattern (in the input order): sums of counts and weights over compatible patterns.

    ``c_complete``/``w_complete``: over the compatible complete patterns (0 for a complete
    pattern: complete patterns are distinct). ``c_partial``/``w_partial``: over the
    compatible partial patterns other than the pattern itself; for a complete pattern the
    all-missing pattern is left out (sdcMicro's rule), for a partial one it is included.
    ``partial`` and ``all_missing`` flag the patterns; values are undefined (0) for the
    all-missing pattern.
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
    if K > 62 or math.prod(radix) >= _MAX_SPACE:
        return None
    mult = [1] * K
    for L in range(K - 2, -1, -1):
        mult[L] = mult[L + 1] * radix[L + 1]
    ddt = np.int16 if max(radix) < (1 << 15) else np.int32 if max(radix) < (1 << 31) else np.int64
    key = np.zeros(P, dtype=np.int64)
    stars = np.zeros(P, dtype=np.int64)
    digits = []
    for L, v in enumerate(levels):
        d = codes[v].astype(ddt, copy=True)
        miss = d < 0
        d[miss] = radix[L] - 1
        stars |= miss.astype(np.int64) << L
        key += d.astype(np.int64) * mult[L]
        digits.append(d)
    full = (1 << K) - 1
    out = CompatibleSums(P)
    out.partial = stars != 0
    out.all_missing = stars == full
    rows = np.flatnonzero(~out.all_missing)
    if not out.partial[rows].any():
        return out

    # Arrange: groups by mask (complete first, then largest first), each sorted by key.
    rows = rows[np.argsort(key[rows])]
    rmask = stars[rows]
    if K <= 24:
        per_mask = np.bincount(rmask, minlength=1 << K)
        masks = np.flatnonzero(per_mask)
        sizes = per_mask[masks]
        slot = np.zeros(1 << K, dtype=np.int64)
        slot[masks] = np.arange(masks.size)
        group_of = slot[rmask]
    else:
        masks, group_of, sizes = np.unique(rmask, return_inverse=True, return_counts=True)
    rank_order = sorted(range(masks.size), key=lambda g: (masks[g] != 0, -sizes[g], masks[g]))
    rank = np.empty(masks.size, dtype=np.int64)
    rank[rank_order] = np.arange(masks.size)
    grank = rank[group_of]
    if masks.size < (1 << 15):
        grank = grank.astype(np.int16)  # a radix sort
    arr = rows[np.argsort(grank, kind="stable")]
    g_masks = masks[rank_order]
    g_start = np.concatenate([[0], np.cumsum(sizes[rank_order])])

    a_key = key[arr]
    a_dig = [d[arr] for d in digits]
    a_c = c[arr].astype(np.int64)
    scale, a_wh, a_wl = _split(w[arr].astype(np.float64), _scale(w))
    a_star = stars[arr]
    n = arr.size
    acc = _Accumulator(n)
    geo = _Geometry(radix, mult)
    for t in range(g_masks.size - 1):
        s, e = int(g_start[t]), int(g_start[t + 1])
        target = _Target(a_key[s:e], a_c[s:e], a_wh[s:e], a_wl[s:e], [d[s:e] for d in a_dig], int(g_masks[t]), geo,
                         scale)
        for q0 in range(e, n, _CHUNK):
            q1 = min(n, q0 + _CHUNK)
            res = target.match(a_key[q0:q1], [d[q0:q1] for d in a_dig], a_star[q0:q1], a_c[q0:q1],
                               a_wh[q0:q1], a_wl[q0:q1])
            q_c, q_h, q_l = res
            if t == 0 and g_masks[0] == 0:
                acc.c_complete[q0:q1] += q_c
                acc.h_complete[q0:q1] += q_h
                acc.l_complete[q0:q1] += q_l
            else:
                acc.c_partial[q0:q1] += q_c
                acc.h_partial[q0:q1] += q_h
                acc.l_partial[q0:q1] += q_l
        t_c, t_h, t_l = target.received()
        acc.c_partial[s:e] += t_c
        acc.h_partial[s:e] += t_h
        acc.l_partial[s:e] += t_l

    # The all-missing pattern is compatible with every partial pattern (not with complete ones).
    am = np.flatnonzero(out.all_missing)
    part = a_star != 0
    if am.size:
        _, am_h, am_l = _split(w[am].astype(np.float64), scale)
        acc.c_partial[part] += int(c[am].sum())
        acc.h_partial[part] += int(am_h.sum())
        acc.l_partial[part] += float(am_l.sum())
    out.c_complete[arr] = acc.c_complete
    out.c_partial[arr] = acc.c_partial
    out.w_complete[arr] = acc.h_complete / scale + acc.l_complete
    out.w_partial[arr] = acc.h_partial / scale + acc.l_partial
    return out


class _Accumulator:
    """Per arranged pattern: exact counts, and weights as integer parts and remainders."""

    __slots__ = ("c_complete", "c_partial", "h_complete", "h_partial", "l_complete", "l_partial")

    def __init__(self, n: int):
        self.c_complete = np.zeros(n, dtype=np.int64)
        self.c_partial = np.zeros(n, dtype=np.int64)
        self.h_complete = np.zeros(n, dtype=np.int64)
        self.h_partial = np.zeros(n, dtype=np.int64)
        self.l_complete = np.zeros(n)
        self.l_partial = np.zeros(n)


class _Geometry:
    """The digit layout: radix and multiplier of each level, as Python ints and arrays."""

    def __init__(self, radix: list[int], mult: list[int]):
        self.K = len(radix)
        self.radix = radix
        self.mult = mult
        self.r_arr = np.array(radix, dtype=np.int64)
        self.m_arr = np.array(mult, dtype=np.int64)
        # span[t]: keys with the same digits on levels < t (levels >= t free): product of radix[t:].
        span = [1] * (self.K + 1)
        for L in range(self.K - 1, -1, -1):
            span[L] = span[L + 1] * radix[L]
        self.span = np.array(span, dtype=np.int64)


def _drop(key: np.ndarray, D: int, geo: _Geometry) -> np.ndarray:
    """Keys with level D's digit removed (mixed radix over the other levels)."""
    m = geo.mult[D]
    return (key // (m * geo.radix[D])) * m + key % m


class _Target:
    """One group's patterns (sorted), probed by the queries of later groups."""

    def __init__(self, key: np.ndarray, c: np.ndarray, wh: np.ndarray, wl: np.ndarray, dig: list[np.ndarray],
                 mask: int, geo: _Geometry, scale: float):
        self.key, self.c, self.wh, self.wl, self.dig, self.mask, self.geo, self.scale = (
            key, c, wh, wl, dig, mask, geo, scale)
        n = key.size
        self.recv_c = np.zeros(n + 1, dtype=np.int64)   # difference arrays per order, summed at the end
        self.recv_h = np.zeros(n + 1, dtype=np.int64)
        self.recv_l = np.zeros(n + 1)
        self.orders: dict[int, tuple] = {}
        self.pending: dict[int, list] = {}

    def _order(self, D: int) -> tuple:
        """(sorted keys, permutation, prefix sums of c, h and l) of the order without level D."""
        if D not in self.orders:
            if D < 0:
                perm = None
                skey = self.key
            else:
                kd = _drop(self.key, D, self.geo)
                perm = np.argsort(kd, kind="stable")  # nearly sorted: runs merge quickly
                skey = kd[perm]
            c = self.c if perm is None else self.c[perm]
            h = self.wh if perm is None else self.wh[perm]
            lw = self.wl if perm is None else self.wl[perm]
            zero = np.zeros(1, dtype=np.int64)
            self.orders[D] = (skey, perm, np.concatenate([zero, np.cumsum(c)]), np.concatenate([zero, np.cumsum(h)]),
                              np.concatenate([[0.0], np.cumsum(lw)]))
            self.pending[D] = []
        return self.orders[D]

    def match(self, qkey: np.ndarray, qdig: list[np.ndarray], qstar: np.ndarray, qc: np.ndarray, qh: np.ndarray,
              ql: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sums over this group's compatible patterns for each query; records the queries'
        contributions to this group's patterns."""
        geo, K, Y = self.geo, self.geo.K, self.mask
        nq = qkey.size
        free = qstar | Y
        # t0: start of the trailing run of free levels.
        t0 = np.zeros(nq, dtype=np.int64)
        for L in range(K):
            t0 = np.where((free >> L) & 1 == 0, L + 1, t0)
        before = (np.int64(1) << t0) - 1
        need = qstar & ~Y & before           # query-missing, target-observed, before the run
        D = np.full(nq, -1, dtype=np.int64)
        for L in range(K):
            D = np.where((need >> L) & 1 == 1, L, D)
        enum = need & ~np.where(D >= 0, np.int64(1) << np.maximum(D, 0), 0)
        n_enum = np.ones(nq, dtype=np.int64)
        for L in range(K):
            n_enum = np.where((enum >> L) & 1 == 1, n_enum * geo.radix[L], n_enum)
        # Probe key: the query's digits; '*' where the target misses; 0 on the run, D and the
        # enumerated levels (the enumerated values are added below).
        base = qkey.copy()
        for L in range(K):
            d = qdig[L].astype(np.int64)
            zero = ((enum | before) >> L) & 1 == 0   # in the run
            zero |= ((enum >> L) & 1 == 1) | (D == L)
            new = np.where(zero, 0, np.where((Y >> L) & 1 == 1, geo.radix[L] - 1, d))
            base += (new - d) * geo.mult[L]
        width = geo.span[t0]
        idx = np.arange(nq, dtype=np.int64)
        q_c = np.zeros(nq, dtype=np.int64)
        q_h = np.zeros(nq, dtype=np.int64)
        q_l = np.zeros(nq)
        big = n_enum > _ENUM_MAX
        if big.any():
            # Many values to enumerate: compare the range before the first free level instead,
            # where that range is the smaller task.
            sel = np.flatnonzero(big)
            lo_key, hi_key = self._scan_bounds(sel, qdig, qstar)
            a = np.searchsorted(self.key, lo_key)
            b = np.searchsorted(self.key, hi_key)
            scan = (b - a) <= 4 * n_enum[sel]
            if scan.any():
                self._scan(sel[scan], a[scan], b[scan], qdig, qstar, qc, qh, ql, q_c, q_h, q_l)
                keep = np.ones(nq, dtype=bool)
                keep[sel[scan]] = False
                idx, base, width, D, enum, n_enum = (idx[keep], base[keep], width[keep], D[keep], enum[keep],
                                                     n_enum[keep])
        # Enumerate the values of the enumerated levels, in batches of bounded size.
        ends = np.cumsum(n_enum)
        start = 0
        while start < idx.size:
            stop = int(np.searchsorted(ends, ends[start] - n_enum[start] + _CHUNK, side="right"))
            stop = max(stop, start + 1)
            self._enumerate(idx[start:stop], base[start:stop], width[start:stop], D[start:stop],
                            enum[start:stop], n_enum[start:stop], qc, qh, ql, q_c, q_h, q_l)
            start = stop
        return q_c, q_h, q_l

    def _enumerate(self, idx, base, width, D, enum, n_enum, qc, qh, ql, q_c, q_h, q_l) -> None:
        geo, K = self.geo, self.geo.K
        if (n_enum > 1).any():
            rep = np.repeat(np.arange(idx.size), n_enum)
            j = np.arange(rep.size, dtype=np.int64) - np.repeat(np.cumsum(n_enum) - n_enum, n_enum)
            idx, base, width, D, enum = idx[rep], base[rep].copy(), width[rep], D[rep], enum[rep]
            for L in range(K - 1, -1, -1):
                on = (enum >> L) & 1 == 1
                if on.any():
                    r = geo.radix[L]
                    base += np.where(on, (j % r) * geo.mult[L], 0)
                    j = np.where(on, j // r, j)
        for d_val in np.unique(D):
            sel = np.flatnonzero(D == d_val)
            b0 = base[sel] if d_val < 0 else _drop(base[sel], int(d_val), geo)
            self._probe(int(d_val), idx[sel], b0, b0 + width[sel], qc, qh, ql, q_c, q_h, q_l)

    def _probe(self, D: int, qi: np.ndarray, lo_key: np.ndarray, hi_key: np.ndarray, qc, qh, ql, q_c, q_h, q_l) -> None:
        skey, _perm, C, H, Lw = self._order(D)
        o = np.argsort(lo_key, kind="stable")
        a = np.empty(o.size, dtype=np.int64)
        b = np.empty(o.size, dtype=np.int64)
        a[o] = np.searchsorted(skey, lo_key[o])
        b[o] = np.searchsorted(skey, hi_key[o])
        hit = a < b
        qi, a, b = qi[hit], a[hit], b[hit]
        if qi.size == 0:
            return
        n = q_c.size
        q_c += np.bincount(qi, weights=C[b] - C[a], minlength=n).astype(np.int64)
        q_h += _int_bincount(qi, H[b] - H[a], n)
        q_l += np.bincount(qi, weights=Lw[b] - Lw[a], minlength=n)
        self.pending[D].append((a, b, qc[qi], qh[qi], ql[qi]))

    def _scan_bounds(self, sel: np.ndarray, qdig: list[np.ndarray], qstar: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Key bounds of the target's patterns that share the queries' digits before their
        first free level (the target's own missing keys count as shared)."""
        geo, K, Y = self.geo, self.geo.K, self.mask
        need = qstar[sel] & ~Y
        first = np.full(sel.size, K, dtype=np.int64)
        for L in range(K - 1, -1, -1):
            first = np.where((need >> L) & 1 == 1, L, first)
        lo_key = np.zeros(sel.size, dtype=np.int64)
        for L in range(K):
            d = np.where((Y >> L) & 1 == 1, geo.radix[L] - 1, qdig[L][sel].astype(np.int64))
            lo_key += np.where(L < first, d * geo.mult[L], 0)
        return lo_key, lo_key + geo.span[first]

    def _scan(self, sel: np.ndarray, a: np.ndarray, b: np.ndarray, qdig: list[np.ndarray], qstar: np.ndarray,
              qc, qh, ql, q_c, q_h, q_l) -> None:
        """Compare the queries `sel` with the target's patterns in [a, b), one by one."""
        K, Y = self.geo.K, self.mask
        free = qstar[sel] | Y
        cnt = b - a
        qq = np.repeat(np.arange(sel.size), cnt)
        pos = np.repeat(a - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(qq.size, dtype=np.int64)
        ok = np.ones(pos.size, dtype=bool)
        for L in range(K):
            constrained = (free[qq] >> L) & 1 == 0
            ok &= ~constrained | (self.dig[L][pos] == qdig[L][sel][qq])
        qq, pos = qq[ok], pos[ok]
        qi = sel[qq]
        n = q_c.size
        q_c += np.bincount(qi, weights=self.c[pos], minlength=n).astype(np.int64)
        q_h += _int_bincount(qi, self.wh[pos], n)
        q_l += np.bincount(qi, weights=self.wl[pos], minlength=n)
        self._order(-1)
        self.pending[-1].append((pos, pos + 1, qc[qi], qh[qi], ql[qi]))

    def received(self) -> tuple[np.ndarray, np.ndarray]:
        """Per pattern of this group: counts and weights of the compatible queries seen."""
        n = self.key.size
        rc = np.zeros(n, dtype=np.int64)
        rh = np.zeros(n, dtype=np.int64)
        rl = np.zeros(n)
        for D, parts in self.pending.items():
            if not parts:
                continue
            a = np.concatenate([p[0] for p in parts])
            b = np.concatenate([p[1] for p in parts])
            vc = np.concatenate([p[2] for p in parts])
            vh = np.concatenate([p[3] for p in parts])
            vl = np.concatenate([p[4] for p in parts])
            dc = np.bincount(a, weights=vc, minlength=n + 1).astype(np.int64) - \
                np.bincount(b, weights=vc, minlength=n + 1).astype(np.int64)
            dh = _int_bincount(a, vh, n + 1) - _int_bincount(b, vh, n + 1)
            dl = np.bincount(a, weights=vl, minlength=n + 1) - np.bincount(b, weights=vl, minlength=n + 1)
            perm = self.orders[D][1]
            c_o, h_o, l_o = np.cumsum(dc)[:n], np.cumsum(dh)[:n], np.cumsum(dl)[:n]
            if perm is None:
                rc += c_o
                rh += h_o
                rl += l_o
            else:
                rc[perm] += c_o
                rh[perm] += h_o
                rl[perm] += l_o
        return rc, rh, rl


def _int_bincount(idx: np.ndarray, v: np.ndarray, size: int) -> np.ndarray:
    """Exact int64 sums of `v` (|v| below 2^62) by `idx`: ``bincount`` adds in float64, exact
    only below 2^53, so the values go in as three 21-bit parts (exact for up to 2^31 values
    per index); negative values are not expected."""
    total = np.zeros(size, dtype=np.int64)
    for shift in (42, 21, 0):
        part = (v >> shift) & ((1 << 21) - 1)
        total += np.bincount(idx, weights=part, minlength=size).astype(np.int64) << shift
    return total


def _scale(w: np.ndarray) -> float:
    """A power of two 2^s with sum(|w|) * 2^s < 2^60: integer parts of w * 2^s then sum
    exactly in int64, whatever subset is summed."""
    total = float(np.abs(w).sum())
    if total == 0 or not math.isfinite(total):
        return 1.0
    return math.ldexp(1.0, 60 - math.frexp(total)[1])


def _split(w: np.ndarray, scale: float) -> tuple[float, np.ndarray, np.ndarray]:
    """w = hi / scale + low, with hi int64 (exact sums, see :func:`_scale`) and low the small
    remainder (exact too: hi / scale and w are close)."""
    hi_f = np.rint(w * scale)
    low = w - hi_f / scale
    return scale, hi_f.astype(np.int64), low
