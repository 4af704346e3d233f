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
# A sort of a target costs about this many probes per pattern (for choosing orders).
_ORDER_COST = 0.5


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
    packed = _pack(codes, cards)
    if packed is None:
        return None
    geo, key, stars, digits = packed
    K = len(codes)
    out = CompatibleSums(int(c.size))
    out.partial = stars != 0
    out.all_missing = stars == (1 << K) - 1
    rows = np.flatnonzero(~out.all_missing)
    if not out.partial[rows].any():
        return out
    arr, g_masks, g_start = _arrange(rows, stars, key, K, math.prod(geo.radix))
    scale = _scale(w)
    acc = _sum_groups(arr, g_masks, g_start, key, digits, c, w, scale, geo)

    # The all-missing pattern is compatible with every partial pattern (not with complete ones).
    am = np.flatnonzero(out.all_missing)
    part = stars[arr] != 0
    if am.size:
        am_h, am_l = _split(w[am].astype(np.float64), scale)
        acc.c_partial[part] += int(c[am].sum())
        acc.h_partial[part] += int(am_h.sum())
        acc.l_partial[part] += float(am_l.sum())
    out.c_complete[arr] = acc.c_complete
    out.c_partial[arr] = acc.c_partial
    out.w_complete[arr] = acc.h_complete / scale + acc.l_complete
    out.w_partial[arr] = acc.h_partial / scale + acc.l_partial
    return out


def _pack(codes: list[np.ndarray], cards: list[int]
          ) -> tuple[_Geometry, np.ndarray, np.ndarray, list[np.ndarray]] | None:
    """The digits of every pattern (keys by increasing number of values, missing = one more
    digit), packed into one integer, and each pattern's mask of missing keys; None when the
    packed digits would not fit in int64."""
    P = int(codes[0].size) if codes else 0
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
    return _Geometry(radix, mult), key, stars, digits


def _arrange(rows: np.ndarray, stars: np.ndarray, key: np.ndarray, K: int, space: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The patterns `rows` in groups by mask (complete first, then largest first), each sorted
    by key: their order, the groups' masks and the groups' starts."""
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
    if (masks.size - 1) * space < _MAX_SPACE:
        # One sort by (group, key): the keys are distinct.
        arr = rows[np.argsort(grank * space + key[rows])]
    else:  # sorted by key, then stably by group (a radix sort for few groups)
        o = np.argsort(key[rows])
        rows, grank = rows[o], grank[o]
        if masks.size < (1 << 15):
            grank = grank.astype(np.int16)
        arr = rows[np.argsort(grank, kind="stable")]
    return arr, masks[rank_order], np.concatenate([[0], np.cumsum(sizes[rank_order])])


def _sum_groups(arr: np.ndarray, g_masks: np.ndarray, g_start: np.ndarray, key: np.ndarray,
                digits: list[np.ndarray], c: np.ndarray, w: np.ndarray, scale: float, geo: _Geometry
                ) -> _Accumulator:
    """Each unordered pair of groups once: the patterns of every later group are queries
    against each group T (see the module notes), summed per arranged pattern."""
    a_key = key[arr]
    a_dig = [d[arr] for d in digits]
    a_c = c[arr].astype(np.int64)
    a_h, a_l = _split(w[arr].astype(np.float64), scale)
    has_low = bool(a_l.any())  # weights not whole at this scale
    n = arr.size
    acc = _Accumulator(n)
    for t in range(g_masks.size - 1):
        s, e = int(g_start[t]), int(g_start[t + 1])
        target = _Target(a_key[s:e], a_c[s:e], a_h[s:e], a_l[s:e], [d[s:e] for d in a_dig], int(g_masks[t]), geo,
                         has_low)
        to_complete = t == 0 and g_masks[0] == 0
        for q0 in range(e, n, _CHUNK):
            q1 = min(n, q0 + _CHUNK)
            # The query groups in this chunk: their masks and bounds (relative to q0).
            g0 = int(np.searchsorted(g_start, q0, side="right")) - 1
            g1 = int(np.searchsorted(g_start, q1, side="left"))
            bounds = np.clip(g_start[g0:g1 + 1], q0, q1) - q0
            q_c, q_h, q_l = target.match(a_key[q0:q1], [d[q0:q1] for d in a_dig], a_c[q0:q1], a_h[q0:q1],
                                         a_l[q0:q1], g_masks[g0:g1], bounds)
            if to_complete:
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
    return acc


class _Accumulator:
    """Per arranged pattern: exact counts, and weights as whole parts (exact) and remainders."""

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


def _drop(key: np.ndarray, drop: int, geo: _Geometry) -> np.ndarray:
    """Keys with the digits of the levels in `drop` (a bit mask) removed: mixed radix over
    the other levels, in the same order."""
    div = 1
    for L in range(geo.K - 1, -1, -1):  # deepest first: shallower multipliers shrink by each removed radix
        if (drop >> L) & 1:
            m = geo.mult[L] // div
            key = (key // (m * geo.radix[L])) * m + key % m
            div *= geo.radix[L]
    return key


class _Target:
    """One group's patterns (sorted), probed by the queries of later groups."""

    def __init__(self, key: np.ndarray, c: np.ndarray, h: np.ndarray, lw: np.ndarray, dig: list[np.ndarray],
                 mask: int, geo: _Geometry, has_low: bool):
        self.key, self.c, self.h, self.lw, self.dig, self.mask, self.geo = key, c, h, lw, dig, mask, geo
        self.has_low = has_low
        self.orders: dict[int, tuple] = {}
        self.pending: dict[int, list] = {}

    def _order(self, drop: int) -> tuple:
        """(sorted keys, permutation, prefix sums of c, h and l) of the order of the keys with
        the levels in `drop` (a bit mask) removed."""
        if drop not in self.orders:
            if drop == 0:
                perm = None
                skey = self.key
            else:
                kd = _drop(self.key, drop, self.geo)
                perm = np.argsort(kd, kind="stable")  # nearly sorted: its runs merge quickly
                skey = kd[perm]
            c = self.c if perm is None else self.c[perm]
            h = self.h if perm is None else self.h[perm]
            lw = self.lw if perm is None else self.lw[perm]
            # Remainders are all 0 for whole weights: no prefix sums for them then.
            self.orders[drop] = (skey, perm, _prefix(c), _prefix(h), _prefix(lw) if self.has_low else None)
            self.pending[drop] = []
        return self.orders[drop]

    def match(self, qkey: np.ndarray, qdig: list[np.ndarray], qc: np.ndarray, qh: np.ndarray, ql: np.ndarray,
              gmasks: np.ndarray, bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sums over this group's compatible patterns for each query; records the queries'
        contributions to this group's patterns. The queries come in groups (masks `gmasks`,
        rows ``bounds[i]:bounds[i + 1]``), so that everything that depends on the masks
        alone is worked out once per group."""
        geo, K, Y = self.geo, self.geo.K, self.mask
        nq = qkey.size
        sizes = np.diff(bounds)
        gm = np.asarray(gmasks, dtype=np.int64)
        free, t0, drop, enum, n_enum, first, yfix = self._plan(gm, sizes)

        # Probe keys: the query's key with '*' on yfix levels and zeros on the trailing run.
        b1 = qkey
        for L in range(K):
            if (Y >> L) & 1 and ((yfix >> L) & 1).any():
                rows = np.repeat((yfix >> L) & 1 == 1, sizes)
                b1 = b1 + np.where(rows, (geo.radix[L] - 1 - qdig[L].astype(np.int64)) * geo.mult[L], 0)
        span_t0 = np.repeat(geo.span[t0], sizes)
        base = (b1 // span_t0) * span_t0
        drop_q = np.repeat(drop, sizes)
        q_c = np.zeros(nq, dtype=np.int64)
        q_h = np.zeros(nq, dtype=np.int64)
        q_l = np.zeros(nq)
        multi = np.flatnonzero(enum != 0)
        if multi.size:
            # Queries with levels to enumerate: where the target's patterns sharing the
            # query's digits before the first free level are fewer than the values to
            # enumerate, compare those patterns directly.
            rows = np.concatenate([np.arange(bounds[g], bounds[g + 1]) for g in multi])
            grow = np.repeat(multi, sizes[multi])
            span_f = geo.span[first[grow]]
            lo_key = (b1[rows] // span_f) * span_f
            a = np.searchsorted(self.key, lo_key)
            b = np.searchsorted(self.key, lo_key + span_f)
            scan = (b - a) <= n_enum[grow]
            if scan.any():
                self._scan(rows[scan], a[scan], b[scan], qdig, free[grow[scan]], qc, qh, ql, q_c, q_h, q_l)
            enum_rows = rows[~scan]
            enum_grp = grow[~scan]
            single = np.ones(nq, dtype=bool)
            single[rows] = False
            one = np.flatnonzero(single)
        else:
            enum_rows = np.empty(0, dtype=np.int64)
            enum_grp = enum_rows
            one = np.arange(nq, dtype=np.int64)
        # Queries with nothing to enumerate: one range each.
        width = span_t0
        self._probe_by_drop(one, base[one], width[one], drop_q[one], True, qc, qh, ql, q_c, q_h, q_l)
        # The others: every combination of values of their enumerated levels, in batches.
        if enum_rows.size:
            self._probe_enumerated(enum_rows, enum_grp, n_enum, enum, base, width, drop_q, qdig,
                                   (qc, qh, ql, q_c, q_h, q_l))
        return q_c, q_h, q_l

    def _plan(self, gm: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, ...]:
        """Per query group (masks `gm`, `sizes` queries each): the free levels, the start t0 of
        their trailing run, the levels dropped from the target's order and those enumerated
        (with the number of their combinations), the first needed level, and the levels the
        target misses and the query observes."""
        geo, K, Y = self.geo, self.geo.K, self.mask
        G = gm.size
        free = gm | Y
        # Per query group: the trailing run of free levels starts at t0; the free levels
        # before it that the target observes ('need') are dropped from the order (one more
        # sort of the target per set of dropped levels) or, all but the deepest, enumerated.
        t0 = np.zeros(G, dtype=np.int64)
        for L in range(K):
            t0 = np.where((free >> L) & 1 == 0, L + 1, t0)
        before = (np.int64(1) << t0) - 1
        need = gm & ~Y & before
        deepest = np.zeros(G, dtype=np.int64)
        for L in range(K):
            deepest = np.where((need >> L) & 1 == 1, np.int64(1) << L, deepest)
        rest = need & ~deepest
        n_enum = np.ones(G, dtype=np.int64)
        for L in range(K):
            n_enum = np.where((rest >> L) & 1 == 1, n_enum * (geo.radix[L] - 1), n_enum)
        # For each set of needed levels: drop them all (an order of the target per set),
        # drop the deepest and enumerate the others, or enumerate them all in the main order,
        # whichever costs least (a sort of the target counts as _ORDER_COST probes per
        # pattern, unless that order exists already).
        drop = np.zeros(G, dtype=np.int64)
        enum = np.zeros(G, dtype=np.int64)
        n_all = np.ones(G, dtype=np.int64)
        for L in range(K):
            n_all = np.where((need >> L) & 1 == 1, n_all * (geo.radix[L] - 1), n_all)
        per_need: dict[int, list[int]] = {}
        for g in np.flatnonzero(need != 0):
            per_need.setdefault(int(need[g]), []).append(int(g))
        planned = set(self.orders) | {0}
        sort_cost = _ORDER_COST * self.key.size
        for M, gs in sorted(per_need.items(), key=lambda kv: -int(sizes[kv[1]].sum())):
            sz = int(sizes[gs].sum())
            deep = int(deepest[gs[0]])
            options = [
                ((0 if M in planned else sort_cost) + sz, M, 0),
                ((0 if deep in planned else sort_cost) + sz * int(n_enum[gs[0]]), deep, M & ~deep),
                (sz * int(n_all[gs[0]]), 0, M),
            ]
            _, dm, em = min(options, key=lambda o: o[0])
            planned.add(dm)
            drop[gs] = dm
            enum[gs] = em
        n_enum = np.ones(G, dtype=np.int64)
        for L in range(K):
            n_enum = np.where((enum >> L) & 1 == 1, n_enum * (geo.radix[L] - 1), n_enum)
        first = np.full(G, K, dtype=np.int64)
        for L in range(K - 1, -1, -1):
            first = np.where((need >> L) & 1 == 1, L, first)
        yfix = Y & before & ~gm  # levels the target misses and the query observes: '*' in the probe
        return free, t0, drop, enum, n_enum, first, yfix

    def _probe_enumerated(self, enum_rows: np.ndarray, enum_grp: np.ndarray, n_enum: np.ndarray, enum: np.ndarray,
                          base: np.ndarray, width: np.ndarray, drop_q: np.ndarray, qdig: list[np.ndarray],
                          sums: tuple[np.ndarray, ...]) -> None:
        """Probe every combination of values of the enumerated levels of the queries
        `enum_rows` (groups `enum_grp`), in batches of at most _CHUNK probes."""
        geo, K = self.geo, self.geo.K
        ne = n_enum[enum_grp]
        ends = np.cumsum(ne)
        start = 0
        while start < enum_rows.size:
            stop = max(int(np.searchsorted(ends, ends[start] - ne[start] + _CHUNK, side="right")), start + 1)
            r_, g_ = enum_rows[start:stop], enum_grp[start:stop]
            nn = ne[start:stop]
            rep = np.repeat(np.arange(r_.size), nn)
            j = np.arange(rep.size, dtype=np.int64) - np.repeat(np.cumsum(nn) - nn, nn)
            rr, en = r_[rep], enum[g_][rep]
            bb = base[rr].copy()
            for L in range(K - 1, -1, -1):
                on = (en >> L) & 1 == 1
                if on.any():
                    r = geo.radix[L] - 1  # every value of the level ('*' cannot occur in the target there)
                    bb += np.where(on, (j % r - qdig[L][rr].astype(np.int64)) * geo.mult[L], 0)
                    j = np.where(on, j // r, j)
            self._probe_by_drop(rr, bb, width[rr], drop_q[rr], False, *sums)
            start = stop

    def _probe_by_drop(self, qi, base, width, drop_q, unique, qc, qh, ql, q_c, q_h, q_l) -> None:
        if qi.size == 0:
            return
        o = np.argsort(drop_q, kind="stable")
        ds = drop_q[o]
        cut = np.flatnonzero(np.r_[True, ds[1:] != ds[:-1], True])
        for i in range(cut.size - 1):
            sel = o[cut[i]:cut[i + 1]]
            dm = int(ds[cut[i]])
            lo = base[sel] if dm == 0 else _drop(base[sel], dm, self.geo)
            self._probe(dm, qi[sel], lo, lo + width[sel], unique, qc, qh, ql, q_c, q_h, q_l)

    def _probe(self, drop: int, qi, lo_key, hi_key, unique, qc, qh, ql, q_c, q_h, q_l) -> None:
        skey, _perm, C, H, Lw = self._order(drop)
        o = np.argsort(lo_key, kind="stable")  # sorted probes walk the keys in order
        a = np.empty(o.size, dtype=np.int64)
        b = np.empty(o.size, dtype=np.int64)
        a[o] = np.searchsorted(skey, lo_key[o])
        b[o] = np.searchsorted(skey, hi_key[o])
        hit = a < b
        qi, a, b = qi[hit], a[hit], b[hit]
        if qi.size == 0:
            return
        if unique:
            q_c[qi] += C[b] - C[a]
            q_h[qi] += H[b] - H[a]
            if Lw is not None:
                q_l[qi] += Lw[b] - Lw[a]
        else:
            n = q_c.size
            q_c += _int_sums(qi, C[b] - C[a], n)
            q_h += _int_sums(qi, H[b] - H[a], n)
            if Lw is not None:
                q_l += np.bincount(qi, weights=Lw[b] - Lw[a], minlength=n)
        self.pending[drop].append((a, b, qc[qi], qh[qi], ql[qi] if self.has_low else None))

    def _scan(self, qi, a, b, qdig, free, qc, qh, ql, q_c, q_h, q_l) -> None:
        """Compare the queries `qi` with the target's patterns in [a, b), one by one, on the
        levels that neither misses (`free`: the levels either misses, per query)."""
        K = self.geo.K
        cnt = b - a
        qq = np.repeat(np.arange(qi.size), cnt)
        pos = np.repeat(a - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(qq.size, dtype=np.int64)
        ok = np.ones(pos.size, dtype=bool)
        fq = free[qq]
        rq = qi[qq]
        for L in range(K):
            constrained = (fq >> L) & 1 == 0
            if constrained.any():
                ok &= ~constrained | (self.dig[L][pos] == qdig[L][rq])
        qq, pos = qq[ok], pos[ok]
        q = qi[qq]
        n = q_c.size
        q_c += _int_sums(q, self.c[pos], n)
        q_h += _int_sums(q, self.h[pos], n)
        if self.has_low:
            q_l += np.bincount(q, weights=self.lw[pos], minlength=n)
        self._order(0)
        self.pending[0].append((pos, pos + 1, qc[q], qh[q], ql[q] if self.has_low else None))

    def received(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per pattern of this group: counts and weights (whole parts, remainders) of the
        compatible queries seen."""
        n = self.key.size
        rc = np.zeros(n, dtype=np.int64)
        rh = np.zeros(n, dtype=np.int64)
        rl = np.zeros(n)
        for D, parts in self.pending.items():
            if not parts:
                continue
            a = np.concatenate([p[0] for p in parts])
            b = np.concatenate([p[1] for p in parts])
            perm = self.orders[D][1]
            out = []
            for col in (2, 3, 4) if self.has_low else (2, 3):
                v = np.concatenate([p[col] for p in parts])
                if col < 4:  # whole numbers: exact differences, summed in int64
                    d = _int_sums(a, v, n + 1) - _int_sums(b, v, n + 1)
                else:
                    d = np.bincount(a, weights=v, minlength=n + 1) - np.bincount(b, weights=v, minlength=n + 1)
                out.append(np.cumsum(d)[:n])
            if perm is None:
                rc += out[0]
                rh += out[1]
                if self.has_low:
                    rl += out[2]
            else:
                rc[perm] += out[0]
                rh[perm] += out[1]
                if self.has_low:
                    rl[perm] += out[2]
        return rc, rh, rl


def _int_sums(idx: np.ndarray, v: np.ndarray, size: int) -> np.ndarray:
    """Sums of whole numbers `v` by `idx` as int64 (``bincount`` adds in float64: exact, as
    every sum here stays below 2^53)."""
    return np.bincount(idx, weights=v, minlength=size).astype(np.int64)


def _prefix(v: np.ndarray) -> np.ndarray:
    out = np.empty(v.size + 1, dtype=v.dtype)
    out[0] = 0
    np.cumsum(v, out=out[1:])
    return out


def _scale(w: np.ndarray) -> float:
    """A power of two 2^s with sum(|w|) * 2^s < 2^51: the whole parts of w * 2^s, and every
    sum of them, are integers below 2^53, exact in int64 and in float64 (``bincount``).
    Whole weights (counts, for instance) keep 2^0, so that they have no remainders."""
    total = float(np.abs(w).sum())
    if total == 0 or not math.isfinite(total):
        return 1.0
    if total < 2.0**51 and bool(np.all(w == np.rint(w))):
        return 1.0
    return math.ldexp(1.0, 51 - math.frexp(total)[1])


def _split(w: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """w = h / scale + l: h whole (int64, exact sums, see :func:`_scale`), l the small
    remainder (exact too, as h / scale and w are close)."""
    h = np.rint(w * scale)
    return h.astype(np.int64), w - h / scale
