"""Minimal sample uniques over subsets of the keys, searched with pruning (SUDA2's search).

A set S of keys is a *minimal sample unique* (MSU) of record i when i is observed on every
key of S, no other record shares i's values on S, and no proper subset of S has that
property (Elliot, Manning and Ford 2002). Uniqueness is inherited by supersets, so S is
minimal exactly when i is not unique on any subset of S one key smaller.

The search goes level by level (subsets of size 1, 2, ...) and, for each subset, counts
only the records still *alive* there: those not unique on any of its subsets one key
smaller (the intersection of those subsets' non-unique records). Leaving the others out
changes no count that matters: a record unique on a subset of S is unique on S, so its
values on S are shared with no alive record. The alive sets shrink quickly as subsets grow
(the pruning of Manning, Haglin and Keane 2008), and a subset whose alive set is empty is
skipped, as are, through it, all its supersets. Each subset's counts are one grouped count
(:func:`sdc.core.keys.combine_codes`) over its alive records only.

Memory and work are bounded, whatever the number of keys. A level's non-unique sets are
held as packed bit sets (one bit per record, n/8 bytes per subset, in one array), and the
next level's candidates (the subsets all of whose subsets one key smaller survived) are
found, and their alive sets intersected, *before* any of them is counted: the exact number
of records the level will count and the bytes its sets can take are known first. When they
would pass `max_work` or `max_bytes`, the search stops with :class:`SearchTooLargeError`,
which says how far it got, before the level is counted; the MSUs of the sizes already
searched have been yielded by then. The number of MSUs grows roughly as the number of key
subsets up to the size at which records become unique (about log(n) / log(values per key)):
with many keys of few values no search can list them all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.core import algorithms as _algorithms

from sdc.core.keys import combine_codes
from sdc.exceptions import SearchTooLargeError

__all__ = ["minimal_uniques", "estimate_work", "SearchLimits", "MAX_WORK", "MAX_BYTES", "SUBSET_COST"]

#: Default work bound: records counted over all subsets searched, each subset counting as
#: SUBSET_COST records more (its fixed cost). About two minutes on one core of 2024.
MAX_WORK = 2_000_000_000
#: A subset's fixed cost, in records counted.
SUBSET_COST = 2_000
#: Default bound on the bytes one level's non-unique sets (packed bits) may take.
MAX_BYTES = 1 << 29
#: Candidates intersected at once (bounds the scratch arrays of the candidate generation).
_CHUNK = 1 << 15
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Bounds of the MSU search: `max_work` (records counted, each subset counting
    :data:`SUBSET_COST` more; None = no bound) and `max_bytes` (one level's sets)."""

    max_work: int | None = MAX_WORK
    max_bytes: int = MAX_BYTES


def minimal_uniques(cols: Sequence[np.ndarray], cards: Sequence[int], max_size: int, *, progress: bool = False,
                    limits: SearchLimits | None = None) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
    """The records of which each key subset is an MSU.

    Parameters
    ----------
    cols : sequence of numpy.ndarray
        Per key, the records' integer codes in ``0 .. cards[v] - 1``; -1 = missing (a
        missing value matches nothing, so it is never part of an MSU).
    cards : sequence of int
        Number of codes of each key.
    max_size : int
        Largest subset size searched.
    progress : bool
        Show a progress bar over the sizes.
    limits : SearchLimits, optional
        Work and memory bounds (default :class:`SearchLimits()`).

    Yields
    ------
    (S, rows)
        For every subset S with at least one MSU, in order of size then lexicographically
        (``itertools.combinations``): the key positions and the (sorted) record positions.

    Raises
    ------
    SearchTooLargeError
        Before counting a size whose work or memory would pass the limits (the sizes before
        it are complete).
    """
    limits = SearchLimits() if limits is None else limits
    K = len(cols)
    n = cols[0].shape[0] if K else 0
    if K == 0 or n <= 1:  # a lone record is minimal on nothing (the empty set makes it unique)
        return
    codes = [np.asarray(c, dtype=np.int64) for c in cols]
    if limits.max_work is not None:
        _refuse_hopeless(codes, cards, max_size, limits.max_work)
    words = (K + 63) // 64
    levels: Sequence[int] | Iterator[int] = range(1, max_size + 1)
    bar = None
    if progress:
        from sdc.core.progress import progress_bar

        bar = levels = progress_bar(levels, desc="SUDA2 (minimal sample uniques, by size)", unit="size")
    # Level 1: every key, its observed records alive.
    level = _Level.singletons(K, words, codes)
    spent = 0
    try:
        for size in levels:
            def guard(n_subsets: int, work: int, final: bool, size: int = size, spent: int = spent) -> None:
                _check(limits, size, K, n, n_subsets, work, spent, final)

            if size > 1:
                level = level.candidates(K, guard)
                if level.n == 0:
                    break
            work = _work(level)
            guard(level.n, work, True)
            spent += work
            yield from level.count(codes, cards, n)
            level = level.survivors()
            if level.n == 0:
                break
    finally:
        if bar is not None:
            bar.close()


#: Random key subsets of each size drawn by the estimate, and how far over the work limit
#: the estimate must be for the search to be refused before it starts.
_SAMPLES = 16
_HOPELESS = 1.5


def estimate_work(codes: Sequence[np.ndarray], cards: Sequence[int], max_size: int, stop: float
                  ) -> list[float]:
    """The expected work of each size, estimated from random key subsets (fixed seed).

    A subset S is searched when its alive set, the records not unique on any subset of S one
    key smaller (among the records observed there), is not empty; that set can be counted
    directly, from s grouped counts over all records. The size's work is estimated as
    C(K, s) times the mean over `_SAMPLES` random subsets of (alive records + SUBSET_COST if
    any), or exactly when there are no more subsets than that. Sizes are estimated until the
    running total passes `stop` or no sample is alive.
    """
    K, n = len(codes), codes[0].shape[0]
    rng = np.random.default_rng(0)
    out: list[float] = []
    total = 0.0
    seen = [codes[v] >= 0 for v in range(K)]
    full = [bool(m.all()) for m in seen]
    # The draws of a size share their one-smaller subsets (with 8 keys, at most 70): each is
    # counted once and kept as bits (n / 8 bytes) while that size is estimated; the observed
    # masks are made once per key.
    uniques: dict[tuple[int, ...], np.ndarray] = {}

    def unique_on(T: tuple[int, ...]) -> np.ndarray:
        if T not in uniques:
            if all(full[v] for v in T):
                u = _unique_rows([codes[v] for v in T], [cards[v] for v in T])
            else:
                rows = np.flatnonzero(np.logical_and.reduce([seen[v] for v in T]))
                u = np.zeros(n, dtype=bool)
                u[rows] = _unique_rows([codes[v][rows] for v in T], [cards[v] for v in T])
            uniques[T] = np.packbits(u)
        return np.unpackbits(uniques[T], count=n).view(bool)

    for size in range(1, max_size + 1):
        uniques.clear()
        subsets = math.comb(K, size)
        draws = list(combinations(range(K), size)) if subsets <= _SAMPLES else [
            tuple(sorted(rng.choice(K, size, replace=False).tolist())) for _ in range(_SAMPLES)]
        per = []
        for S in draws:
            alive = np.ones(n, dtype=bool)
            for v in S:
                if not full[v]:
                    alive &= seen[v]
            for x in (S if size > 1 else ()):
                alive &= ~unique_on(tuple(v for v in S if v != x))
            k = int(alive.sum())
            per.append(k + (SUBSET_COST if k else 0))
        work = subsets * float(np.mean(per))
        out.append(work)
        total += work
        if total > stop or not any(per):
            break
    return out


def _refuse_hopeless(codes: Sequence[np.ndarray], cards: Sequence[int], max_size: int, max_work: int) -> None:
    """Refuse at once a search estimated at more than _HOPELESS times the work limit. The
    estimate is skipped when even every subset counting every record (the most any estimate
    can say: sum over sizes of C(K, s) (n + SUBSET_COST)) stays within that bound: with 8 keys
    over 10^6 records, 2.6e8 work units, it cannot refuse (the estimate took 1.3 s of SUDA2's 3.8 s there)."""
    n = codes[0].shape[0]
    ceiling = sum(math.comb(len(codes), s) for s in range(1, max_size + 1)) * (n + SUBSET_COST)
    if ceiling <= _HOPELESS * max_work:
        return
    est = estimate_work(codes, cards, max_size, _HOPELESS * max_work)
    total = float(np.sum(est))
    if total <= _HOPELESS * max_work:
        return
    fits = int(np.searchsorted(np.cumsum(est), max_work, side="right"))  # sizes whose total fits
    over = len(est)
    raise SearchTooLargeError(
        f"the search of minimal sample uniques over {len(codes)} keys would pass its work limit: about "
        f"{total:,.0f} work units up to subsets of {over} keys (estimated from random key subsets of each size; the "
        f"limit is {max_work:,}); nothing was searched",
        searched=fits, size=fits + 1, n_subsets=math.comb(len(codes), over), work=int(min(total, 2**62)))


def _work(level: _Level) -> int:
    """Records the level counts, and SUBSET_COST per subset counted (one with alive records)."""
    return int(level.alive_sizes.sum()) + SUBSET_COST * int(np.count_nonzero(level.alive_sizes))


def _check(limits: SearchLimits, size: int, K: int, n: int, n_subsets: int, work: int, spent: int,
           final: bool) -> None:
    """Refuse a level whose work or sets would pass the limits (`final`: the totals are
    complete, else they are the candidates found so far, and the level needs more)."""
    nbytes = n_subsets * ((n + 7) // 8)
    more = "" if final else "more than "
    over = []
    if limits.max_work is not None and spent + work > limits.max_work:
        over.append(f"its work limit ({more}{spent + work:,} of {limits.max_work:,} work units, {more}"
                    f"{n_subsets:,} key subsets)")
    if nbytes > limits.max_bytes:
        over.append(f"its memory limit ({more}{_mib(nbytes)} of record sets, the limit is {_mib(limits.max_bytes)})")
    if over:
        done = "nothing was searched" if size == 1 else f"subsets of up to {size - 1} keys were searched"
        raise SearchTooLargeError(f"the search of minimal sample uniques over {K} keys would pass "
                                  f"{' and '.join(over)} at subsets of {size} keys; {done}",
                                  searched=size - 1, size=size, n_subsets=n_subsets, work=spent + work)


def _mib(nbytes: int) -> str:
    return f"{nbytes / (1 << 20):,.0f} MiB" if nbytes >= 1 << 20 else f"{nbytes:,} bytes"


@dataclass(slots=True)
class _Level:
    """The subsets of one size still searched: `keys` (rows in lexicographic order), their
    masks (`words` uint64 per subset, for look-ups), and per subset a packed bit set of
    records (`bits`): the alive records before counting, the non-unique ones after."""

    keys: np.ndarray          # (m, size) key positions
    masks: np.ndarray         # (m, words) uint64
    bits: np.ndarray          # (m, nb) uint8, little-endian bit order
    alive_sizes: np.ndarray   # (m,) records in each set

    @property
    def n(self) -> int:
        return int(self.keys.shape[0])

    @classmethod
    def singletons(cls, K: int, words: int, codes: list[np.ndarray]) -> _Level:
        keys = np.arange(K, dtype=np.int64)[:, None]
        masks = np.zeros((K, words), dtype=np.uint64)
        _set_bit(masks, keys[:, 0])
        bits = np.stack([np.packbits(c >= 0, bitorder="little") for c in codes])
        return cls(keys, masks, bits, np.array([int((c >= 0).sum()) for c in codes], dtype=np.int64))

    def count(self, codes: list[np.ndarray], cards: Sequence[int], n: int
              ) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
        """Count each subset over its alive records, yield its MSUs and keep, in `bits`, the
        records that are not unique (the alive set of its supersets)."""
        for i in range(self.n):
            if not self.alive_sizes[i]:
                continue
            alive = np.flatnonzero(np.unpackbits(self.bits[i], count=n, bitorder="little"))
            S = tuple(self.keys[i].tolist())
            unique = _unique_rows([codes[v][alive] for v in S], [cards[v] for v in S])
            if unique.any():
                yield S, alive[unique]
                rest = np.zeros(n, dtype=bool)
                rest[alive[~unique]] = True
                self.bits[i] = np.packbits(rest, bitorder="little")
                self.alive_sizes[i] -= int(unique.sum())

    def survivors(self) -> _Level:
        keep = self.alive_sizes > 0
        return _Level(self.keys[keep], self.masks[keep], self.bits[keep], self.alive_sizes[keep])

    def candidates(self, K: int, guard: Callable[[int, int, bool], None]) -> _Level:
        """The next size's subsets whose every subset one key smaller is here, with their
        alive sets (the intersection of those subsets' sets), in lexicographic order.
        `guard(subsets, work, False)` is called on the running totals as they grow (it
        raises before they take more than the limits allow)."""
        size = self.keys.shape[1]
        view = _as_void(self.masks)
        order = np.argsort(view, kind="stable")
        sorted_view = view[order]
        out_keys, out_masks, out_bits, out_sizes = [], [], [], []
        grow = K - 1 - self.keys[:, -1]  # keys after the last one: the possible extensions
        starts = np.concatenate([[0], np.cumsum(grow)])
        lo, found_n, found_work = 0, 0, 0
        while lo < self.n:
            # rows [lo, hi) with at most _CHUNK extensions between them (at least one row)
            hi = max(lo + 1, int(np.searchsorted(starts, starts[lo] + _CHUNK, side="right")) - 1)
            hi = min(hi, self.n)
            rows = np.repeat(np.arange(lo, hi), grow[lo:hi])
            lo = hi
            if rows.size == 0:
                continue
            offset = np.arange(rows.size) - (starts[rows] - starts[rows[0]])
            b = self.keys[rows, -1] + 1 + offset
            masks = self.masks[rows].copy()
            _set_bit(masks, b)
            parts = [rows]
            ok = np.ones(rows.size, dtype=bool)
            for j in range(size):
                pm = masks.copy()
                _clear_bit(pm, self.keys[rows, j])
                pos = np.searchsorted(sorted_view, _as_void(pm))
                pos = np.minimum(pos, sorted_view.size - 1)
                found = sorted_view[pos] == _as_void(pm)
                ok &= found
                parts.append(order[pos])
            if not ok.any():
                continue
            sel = np.flatnonzero(ok)
            bits = self.bits[parts[0][sel]].copy()
            for p in parts[1:]:
                np.bitwise_and(bits, self.bits[p[sel]], out=bits)
            sizes = _POPCOUNT[bits].sum(axis=1)
            nonempty = sizes > 0
            sel, bits, sizes = sel[nonempty], bits[nonempty], sizes[nonempty]
            out_keys.append(np.column_stack([self.keys[rows[sel]], b[sel]]))
            out_masks.append(masks[sel])
            out_bits.append(bits)
            out_sizes.append(sizes)
            found_n += int(sel.size)
            found_work += int(sizes.sum()) + SUBSET_COST * int(sel.size)
            guard(found_n, found_work, False)
        if not out_keys:
            nb = self.bits.shape[1]
            return _Level(np.zeros((0, size + 1), dtype=np.int64), np.zeros((0, self.masks.shape[1]), dtype=np.uint64),
                          np.zeros((0, nb), dtype=np.uint8), np.zeros(0, dtype=np.int64))
        return _Level(np.concatenate(out_keys), np.concatenate(out_masks), np.concatenate(out_bits),
                      np.concatenate(out_sizes))


def _as_void(masks: np.ndarray) -> np.ndarray:
    """Each row of uint64 words as one comparable item (for sorting and searching)."""
    a = np.ascontiguousarray(masks)
    return a.view(np.dtype((np.void, a.shape[1] * 8))).ravel()


def _set_bit(masks: np.ndarray, keys: np.ndarray) -> None:
    masks[np.arange(keys.size), keys // 64] |= np.left_shift(np.uint64(1), (keys % 64).astype(np.uint64))


def _clear_bit(masks: np.ndarray, keys: np.ndarray) -> None:
    masks[np.arange(keys.size), keys // 64] &= ~np.left_shift(np.uint64(1), (keys % 64).astype(np.uint64))


def _unique_rows(codes: list[np.ndarray], cards: list[int]) -> np.ndarray:
    """Whether each row's combination of codes (all observed) occurs once: the codes packed
    in mixed radix and counted (``bincount`` in a small space, else one hashing pass that
    flags repeated values), or :func:`combine_codes` when the radix would overflow."""
    n = codes[0].size
    radix = 1
    for c in cards:
        radix *= max(int(c), 1)
    if radix >= 1 << 62:
        ids, n_ids = combine_codes(codes, cards, n)
        return np.bincount(ids, minlength=n_ids)[ids] == 1
    packed = codes[0].astype(np.int64)
    for c, card in zip(codes[1:], cards[1:]):
        packed *= max(int(card), 1)
        packed += c
    if radix <= n + 1024:
        return np.bincount(packed, minlength=radix)[packed] == 1
    return ~_duplicated(packed)


def _duplicated(values: np.ndarray) -> np.ndarray:
    """Whether each value occurs more than once: pandas' hashing pass, called without building
    a Series (4x faster on the few thousand values of a subset's alive records)."""
    fn = getattr(_algorithms, "duplicated", None)
    if fn is not None:
        return np.asarray(fn(values, keep=False), dtype=bool)
    return pd.Series(values).duplicated(keep=False).to_numpy()

