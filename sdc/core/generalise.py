"""Grouping primitive of full-domain generalisation: records -> equivalence classes per lattice node.

A generalisation search (:mod:`sdc.identify.search`) evaluates thousands of transformations
of the same data. Each quasi-identifier is encoded once to *level-0 codes* (row numbers of
its hierarchy's distinct original values); a transformation maps those codes through one
integer array per quasi-identifier (``level_map[code]``, a ``numpy.take``) and the mapped
codes are packed into one integer per row (mixed radix) and counted. No Python loop runs
over records.

The unit of work is a :class:`GroupTable`: distinct combinations of codes with their record
counts and, per sensitive variable, the sparse (group, sensitive code, count) cells. The
table of the data itself (level 0) is built once by :func:`group_table`; the table of any
coarser node is obtained by :func:`roll_up` from *any* finer table, so a search can start
from the smallest table it has already computed (ARX's "roll-up" optimisation; Kohlmayer
et al. 2012, Flash), not from the records.

Only this module groups the quasi-identifier codes (the layering rule of :mod:`sdc.core`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["GroupTable", "Cells", "dense_ids", "group_table", "roll_up", "pack_codes"]

# Mixed-radix products above this bound could overflow int64 while packing.
_MAX_RADIX = 1 << 62


def pack_codes(columns: Sequence[np.ndarray], cards: Sequence[int]) -> tuple[np.ndarray, int]:
    """Pack per-column codes (each in ``0 .. card-1``) into one int64 per row.

    Returns the packed values and the size of their space. When the product of the
    cardinalities would overflow int64, the columns packed so far are first replaced by dense
    ids, which bounds the radix by the number of rows.
    """
    n = columns[0].shape[0] if columns else 0
    if not columns:
        return np.zeros(n, dtype=np.int64), 1
    packed = columns[0].astype(np.int64, copy=True)
    radix = int(cards[0])
    for codes, card in zip(columns[1:], cards[1:]):
        card = int(card)
        if radix * card > _MAX_RADIX:
            packed, radix = dense_ids(packed, radix)
        packed *= card
        packed += codes
        radix *= card
    return packed, radix


def dense_ids(packed: np.ndarray, space: int) -> tuple[np.ndarray, int]:
    """Dense ids ``0 .. G-1`` of the distinct values of `packed` (values in ``0 .. space-1``).

    A small space is addressed directly (ids in value order, no hashing); a large one is
    hashed with ``pandas.factorize`` (ids in order of first appearance).
    """
    n = packed.shape[0]
    if space <= 4 * n + 65536:
        seen = np.zeros(space, dtype=np.int64)
        seen[packed] = 1
        ids = np.cumsum(seen) - 1
        return ids[packed], int(seen.sum()) if n else 0
    ids, uniques = pd.factorize(packed, sort=False)
    return ids.astype(np.int64, copy=False), len(uniques)


@dataclass(frozen=True, slots=True)
class Cells:
    """Sparse counts of one sensitive variable per group: one entry per occurring
    (group, code), sorted by group then code. Missing sensitive values are left out."""

    group: np.ndarray = field(repr=False)
    code: np.ndarray = field(repr=False)
    count: np.ndarray = field(repr=False)
    n_values: int


def _cells(group: np.ndarray, code: np.ndarray, weight: np.ndarray, n_groups: int, n_values: int) -> Cells:
    """Sum `weight` per (group, code) pair; pairs with code -1 (missing) are dropped."""
    ok = code >= 0
    if not ok.all():
        group, code, weight = group[ok], code[ok], weight[ok]
    width = max(int(n_values), 1)
    key = group.astype(np.int64) * width + code
    space = int(n_groups) * width
    if space <= 4 * key.shape[0] + 65536:
        counts = np.bincount(key, weights=weight, minlength=space)
        nz = np.flatnonzero(counts)
        cnt = counts[nz]
    else:
        nz, inv = np.unique(key, return_inverse=True)
        cnt = np.bincount(inv.ravel(), weights=weight, minlength=nz.shape[0])
    return Cells(group=nz // width, code=nz % width, count=np.rint(cnt).astype(np.int64), n_values=int(n_values))


@dataclass(frozen=True, slots=True)
class GroupTable:
    """Distinct code combinations of the quasi-identifiers at some generalisation levels.

    Attributes
    ----------
    codes : tuple of numpy.ndarray
        Per quasi-identifier, the code of each group (int64) at the table's levels.
    cards : tuple of int
        Per quasi-identifier, the size of its code space at those levels.
    counts : numpy.ndarray
        Records per group (int64).
    cells : tuple of Cells
        Per sensitive variable, the sparse group x value counts.
    """

    codes: tuple[np.ndarray, ...] = field(repr=False)
    cards: tuple[int, ...]
    counts: np.ndarray = field(repr=False)
    cells: tuple[Cells, ...] = field(repr=False, default=())

    @property
    def n_groups(self) -> int:
        return int(self.counts.shape[0])


def group_table(
    codes: Sequence[np.ndarray], cards: Sequence[int],
    sensitive: Sequence[np.ndarray] = (), sensitive_values: Sequence[int] = (),
) -> tuple[GroupTable, np.ndarray]:
    """The table of the records themselves, and each record's group id.

    `codes` are per-record quasi-identifier codes (``0 .. card-1``, no missing); `sensitive`
    per-record sensitive codes (-1 missing) with ``sensitive_values[s]`` distinct values each.
    """
    n = codes[0].shape[0]
    packed, space = pack_codes(codes, cards)
    ids, g = dense_ids(packed, space)
    return _build(ids, g, codes, cards, np.ones(n, dtype=np.int64), [
        (np.arange(n, dtype=np.int64), np.asarray(s, dtype=np.int64), np.ones(n, dtype=np.int64), m)
        for s, m in zip(sensitive, sensitive_values)
    ]), ids


def roll_up(table: GroupTable, maps: Sequence[np.ndarray], cards: Sequence[int]) -> tuple[GroupTable, np.ndarray]:
    """Generalise `table` further: ``maps[j][code]`` is the new code of quasi-identifier j.

    Groups whose mapped codes coincide are merged (counts and cells summed). Returns the new
    table and, for each old group, its new group id.
    """
    mapped = [np.take(m, c) for m, c in zip(maps, table.codes)]
    packed, space = pack_codes(mapped, cards)
    ids, g = dense_ids(packed, space)
    return _build(ids, g, mapped, cards, table.counts, [
        (c.group, c.code, c.count, c.n_values) for c in table.cells
    ]), ids


def _build(ids: np.ndarray, g: int, codes: Sequence[np.ndarray], cards: Sequence[int], weight: np.ndarray,
           cells: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]) -> GroupTable:
    # one row per group (every row of a group carries the group's codes): scatter once, take per column
    rep = np.empty(g, dtype=np.int64)
    rep[ids] = np.arange(ids.shape[0], dtype=np.int64)
    new_codes = [np.take(c, rep).astype(np.int64, copy=False) for c in codes]
    counts = np.bincount(ids, weights=weight, minlength=g)
    new_cells = tuple(_cells(ids[row], code, w, g, m) for row, code, w, m in cells)
    return GroupTable(codes=tuple(new_codes), cards=tuple(int(c) for c in cards),
                      counts=np.rint(counts).astype(np.int64), cells=new_cells)
