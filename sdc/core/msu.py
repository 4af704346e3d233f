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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import math
from itertools import combinations

import numpy as np
import pandas as pd

from sdc.core.keys import combine_codes

__all__ = ["minimal_uniques"]

# Keep a level's non-unique sets as boolean masks while they take at most this many bytes.
_MASK_BYTES = 1 << 28


def minimal_uniques(cols: Sequence[np.ndarray], cards: Sequence[int], max_size: int, *, progress: bool = False
                    ) -> Iterator[tuple[tuple[int, ...], np.ndarray]]:
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

    Yields
    ------
    (S, rows)
        For every subset S with at least one MSU, in order of size then lexicographically
        (``itertools.combinations``): the key positions and the (sorted) record positions.
    """
    K = len(cols)
    n = cols[0].shape[0] if K else 0
    # Records not unique on each subset of the previous size. (On the empty subset every
    # record is not unique, unless there is only one record: then nothing is ever minimal.)
    previous: dict[tuple[int, ...], np.ndarray] = {}
    levels: Sequence[int] | Iterator[int] = range(1, max_size + 1)
    if progress:
        from tqdm.auto import tqdm

        levels = tqdm(levels, desc="SUDA2 MSU sizes", unit="size")
    observed = [np.flatnonzero(c >= 0) for c in cols]
    tally = np.zeros(n, dtype=np.uint8 if max_size < 255 else np.int32)  # scratch for sparse intersections
    for size in levels:
        # Non-unique records of this level's subsets, kept as masks over the records (an
        # intersection is then a few vectorised ANDs) when they fit in _MASK_BYTES, else as
        # position arrays.
        as_masks = math.comb(K, size) * n <= _MASK_BYTES
        current: dict[tuple[int, ...], np.ndarray] = {}
        for S in combinations(range(K), size):
            if size == 1:
                alive = observed[S[0]] if n > 1 else np.empty(0, dtype=np.int64)
            else:
                parts = [previous.get(S[:i] + S[i + 1:]) for i in range(size)]
                if any(p is None for p in parts):
                    continue
                alive = _intersect(parts, tally)
            if alive.size == 0:
                continue
            unique = _unique_rows([cols[v][alive] for v in S], [cards[v] for v in S])
            if unique.any():
                yield S, alive[unique]
            rest = alive[~unique]
            if rest.size:
                if as_masks:
                    mask = np.zeros(n, dtype=bool)
                    mask[rest] = True
                    current[S] = mask
                else:
                    current[S] = rest
        previous = current
        if not previous:
            break


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
    return ~pd.Series(packed).duplicated(keep=False).to_numpy()


def _intersect(parts: list[np.ndarray], tally: np.ndarray) -> np.ndarray:
    """Positions in every part: parts are boolean masks over the records, or arrays of
    distinct positions (then tallied in `tally`, left zeroed: linear in their sizes)."""
    if parts[0].dtype == bool:
        return np.flatnonzero(np.logical_and.reduce(parts))
    smallest = min(parts, key=len)
    if smallest.size == 0:
        return smallest
    for p in parts:
        tally[p] += 1
    out = smallest[tally[smallest] == len(parts)]
    for p in parts:
        tally[p] = 0
    return out
