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
from itertools import combinations

import numpy as np

from sdc.core.keys import combine_codes

__all__ = ["minimal_uniques"]


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
    # Records not unique on each subset of the previous size (sorted positions); the empty
    # subset: every record, unless there is only one (then it is unique on nothing at all).
    previous: dict[tuple[int, ...], np.ndarray] = {(): np.arange(n) if n > 1 else np.empty(0, dtype=np.int64)}
    levels: Sequence[int] | Iterator[int] = range(1, max_size + 1)
    if progress:
        from tqdm.auto import tqdm

        levels = tqdm(levels, desc="SUDA2 MSU sizes", unit="size")
    observed = [np.flatnonzero(c >= 0) for c in cols]
    for size in levels:
        current: dict[tuple[int, ...], np.ndarray] = {}
        for S in combinations(range(K), size):
            if size == 1:
                alive = observed[S[0]] if previous[()].size else previous[()]
            else:
                parts = [previous.get(S[:i] + S[i + 1:]) for i in range(size)]
                if any(p is None for p in parts):
                    continue
                alive = _intersect(parts)
            if alive.size == 0:
                continue
            ids, n_ids = combine_codes([cols[v][alive] for v in S], [cards[v] for v in S], alive.size)
            cnt = np.bincount(ids, minlength=n_ids)[ids]
            unique = cnt == 1
            if unique.any():
                yield S, alive[unique]
            rest = alive[~unique]
            if rest.size:
                current[S] = rest
        previous = current
        if not previous:
            break


def _intersect(parts: list[np.ndarray]) -> np.ndarray:
    """Intersection of sorted arrays of distinct positions, starting from the smallest."""
    parts = sorted(parts, key=len)
    out = parts[0]
    for other in parts[1:]:
        if out.size == 0:
            break
        pos = np.searchsorted(other, out)
        pos[pos == other.size] = 0
        out = out[other[pos] == out]
    return out
