"""The generalisation lattice and the data encoded through the hierarchies, once.

A *transformation* (a node of the lattice) gives each quasi-identifier a generalisation
level; nodes are ordered componentwise (node A precedes B when every level of A is at most
B's), which makes them a lattice with the untouched data at the bottom and the most general
release at the top (Samarati 2001; LeFevre et al. 2005, Incognito; Kohlmayer et al. 2012,
Flash).

:class:`Problem` encodes everything a search needs, once:

* each quasi-identifier's records as level-0 codes (the row of their value in the
  hierarchy) and, per level, an array mapping level-0 codes to that level's codes, so a
  node's codes are one ``numpy.take`` per quasi-identifier;
* each sensitive variable as codes in value order, with its file-wide distribution (and, for
  t-closeness with hierarchical distance, its hierarchy as a tree over those codes);
* the level-0 :class:`~sdc.core.generalise.GroupTable` (distinct level-0 combinations with
  counts and sensitive cells), from which every node's classes are rolled up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from sdc.core.classes import sensitive_kind
from sdc.core.generalise import GroupTable, group_table, roll_up
from sdc.core.values import refuse_values_without_rows
from sdc.attribute.tree_closeness import HierarchyTree
from sdc.identify.presence import PopulationCounts, PopulationIndex
from sdc.identify.hierarchy import Hierarchy, column_text

__all__ = ["Lattice", "EncodedQI", "EncodedSensitive", "Problem", "MAX_NODES"]

#: Largest lattice a search accepts (the node table is held in memory).
MAX_NODES = 2_000_000


@dataclass(frozen=True, eq=False)
class Lattice:
    """All level combinations of the quasi-identifiers, indexed in mixed radix.

    ``levels[i]`` is node i's level per quasi-identifier (the last one varies fastest);
    ``height[i]`` the sum of its levels.
    """

    names: tuple[str, ...]
    top: tuple[int, ...]          # highest level per quasi-identifier
    levels: np.ndarray = field(repr=False)
    height: np.ndarray = field(repr=False)
    strides: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, names: Sequence[str], top: Sequence[int]) -> "Lattice":
        top = tuple(int(t) for t in top)
        size = 1
        for t in top:
            size *= t + 1
        if size > MAX_NODES:
            raise ValueError(
                f"the lattice has {size:,} transformations, more than {MAX_NODES:,}; use algorithm=\"lightning\" "
                "(or \"genetic\" or \"auto\"; the best found, not proven optimal), fewer quasi-identifiers or hierarchies with fewer levels."
            )
        grids = np.meshgrid(*[np.arange(t + 1, dtype=np.int16) for t in top], indexing="ij")
        levels = np.stack([g.ravel() for g in grids], axis=1) if top else np.zeros((1, 0), dtype=np.int16)
        strides = np.ones(len(top), dtype=np.int64)
        for j in range(len(top) - 2, -1, -1):
            strides[j] = strides[j + 1] * (top[j + 1] + 1)
        return cls(names=tuple(names), top=top, levels=levels, height=levels.sum(axis=1, dtype=np.int64),
                   strides=strides)

    @property
    def size(self) -> int:
        return int(self.levels.shape[0])

    def index(self, levels: Sequence[int]) -> int:
        return int(np.dot(np.asarray(levels, dtype=np.int64), self.strides))

    def node(self, i: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.levels[i])

    def up_set(self, i: int) -> np.ndarray:
        """Mask of node i and every node above it (its generalisations)."""
        masks = self._masks()
        if masks is None:
            return (self.levels >= self.levels[i]).all(axis=1)
        lv = self.levels[i]
        out = masks[0][0][lv[0]].copy()
        for j in range(1, len(self.top)):
            out &= masks[0][j][lv[j]]
        return out

    def down_set(self, i: int) -> np.ndarray:
        """Mask of node i and every node below it (its specialisations)."""
        masks = self._masks()
        if masks is None:
            return (self.levels <= self.levels[i]).all(axis=1)
        lv = self.levels[i]
        out = masks[1][0][lv[0]].copy()
        for j in range(1, len(self.top)):
            out &= masks[1][j][lv[j]]
        return out

    def _masks(self) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
        """Per quasi-identifier j and level v, the nodes with level_j >= v and <= v (cached;
        None when they would take more than ~64 MB)."""
        cache = self.__dict__.get("_mask_cache", False)
        if cache is False:
            cache = None
            if self.top and self.size * (sum(self.top) + len(self.top)) * 2 <= 64 * 2**20:
                ge = [self.levels[:, j][None, :] >= np.arange(t + 1)[:, None] for j, t in enumerate(self.top)]
                le = [self.levels[:, j][None, :] <= np.arange(t + 1)[:, None] for j, t in enumerate(self.top)]
                cache = (ge, le)
            object.__setattr__(self, "_mask_cache", cache)
        return cache

    def direct_successors(self, i: int) -> list[int]:
        lv = self.levels[i]
        return [i + int(self.strides[j]) for j in range(len(self.top)) if lv[j] < self.top[j]]


@dataclass(frozen=True, eq=False)
class EncodedQI:
    """One quasi-identifier through its hierarchy.

    ``to_level[L][c]`` is the level-L code of level-0 code c; ``labels[L][code]`` its text;
    ``cards[L]`` the number of level-L labels; ``count0[c]`` the records with level-0 code c.
    """

    name: str
    hierarchy: Hierarchy = field(repr=False)
    codes: np.ndarray = field(repr=False)       # per record, level-0 code
    to_level: tuple[np.ndarray, ...] = field(repr=False)
    labels: tuple[np.ndarray, ...] = field(repr=False)
    cards: tuple[int, ...]
    count0: np.ndarray = field(repr=False)

    @property
    def top(self) -> int:
        return len(self.cards) - 1

    def step(self, a: int, b: int) -> np.ndarray:
        """Map level-a codes to level-b codes (a <= b)."""
        if a == 0:
            return self.to_level[b]
        out = np.empty(self.cards[a], dtype=np.int64)
        out[self.to_level[a]] = self.to_level[b]  # a tree: each level-a code has one level-b code
        return out

    def present(self, level: int) -> int:
        """Level-`level` labels that occur in the data."""
        used = np.bincount(self.to_level[level], weights=self.count0, minlength=self.cards[level])
        return int(np.count_nonzero(used))


@dataclass(frozen=True, eq=False)
class EncodedSensitive:
    """A sensitive variable: codes in value order (-1 missing), its file-wide distribution
    over the observed values (``q``) and, when given a hierarchy, its tree (``tree``)."""

    name: str
    codes: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    q: np.ndarray = field(repr=False)
    tree: HierarchyTree | None = field(default=None, repr=False)

    @property
    def n_values(self) -> int:
        return int(self.values.shape[0])


def _encode_qi(data: pd.DataFrame, name: str, h: Hierarchy) -> EncodedQI:
    codes, texts = column_text(data[name])
    table = h.table
    row_of = {v: i for i, v in enumerate(table[:, 0])}
    if (codes < 0).any():
        if "" not in row_of:
            n_miss = int((codes < 0).sum())
            raise ValueError(
                f"quasi-identifier {name!r} has {n_miss} missing value(s) and its hierarchy has no row for them; "
                "add a row whose first field is empty (ARX's convention) or recode the missing values."
            )
    refuse_values_without_rows("quasi-identifier", name, h.name or "", [t for t in texts if t not in row_of])
    lookup = np.array([row_of[t] for t in texts] + [row_of.get("", 0)], dtype=np.int64)
    rec = lookup[codes]  # code -1 picks the last entry: the empty-value row
    to_level, labels, cards = [], [], []
    for lev in range(h.n_levels):
        c, uniq = _codes_of(table[:, lev])
        to_level.append(c)
        labels.append(uniq)
        cards.append(int(uniq.shape[0]))
    count0 = np.bincount(rec, minlength=h.n_values).astype(np.int64)
    return EncodedQI(name=name, hierarchy=h, codes=rec, to_level=tuple(to_level), labels=tuple(labels),
                     cards=tuple(cards), count0=count0)


def _codes_of(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a hierarchy column's labels (in order of first appearance) and the labels."""
    uniq, first, inv = np.unique(labels.astype(str), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inv.ravel()].astype(np.int64), labels[first[order]]


def _encode_sensitive(data: pd.DataFrame, name: str, hierarchy: Hierarchy | None = None) -> EncodedSensitive:
    s = data[name]
    numeric, _ = sensitive_kind(s)
    if isinstance(s.dtype, pd.CategoricalDtype):
        # category order (ordered categoricals); only the categories that occur
        cat_codes = s.cat.codes.to_numpy().astype(np.int64)
        used = np.flatnonzero(np.bincount(cat_codes[cat_codes >= 0], minlength=len(s.cat.categories)))
        remap = np.full(len(s.cat.categories) + 1, -1, dtype=np.int64)
        remap[used] = np.arange(used.size)
        codes = remap[cat_codes]  # -1 stays -1 (the last entry)
        uniq = np.asarray(s.cat.categories)[used]
    elif numeric:
        uniq = np.sort(pd.unique(s.dropna().to_numpy()))
        codes = np.full(len(s), -1, dtype=np.int64)
        ok = s.notna().to_numpy()
        codes[ok] = np.searchsorted(uniq, s.to_numpy()[ok])
    else:
        # text order, as ARX orders a string attribute; each distinct value converted once
        raw, texts = column_text(s)
        uniq = np.array(sorted(set(texts)), dtype=object)
        rank = np.searchsorted(uniq, np.array(texts, dtype=object)) if texts else np.zeros(0, dtype=np.int64)
        lookup = np.append(rank, -1).astype(np.int64)
        codes = lookup[raw]  # code -1 (missing) picks the appended -1
    counts = np.bincount(codes[codes >= 0], minlength=len(uniq)).astype(float)
    q = counts / counts.sum() if counts.sum() else counts
    tree = None if hierarchy is None else HierarchyTree.of_values(name, list(uniq), counts.astype(np.int64),
                                                                  hierarchy.table, hierarchy.name)
    return EncodedSensitive(name=name, codes=codes, values=np.asarray(uniq), q=q, tree=tree)


def population_index(data: pd.DataFrame, hierarchies: Mapping[str, Hierarchy]) -> PopulationIndex:
    """The population's level-0 classes through `hierarchies` (every value checked as for a search)."""
    qis = [_encode_qi(data, name, h) for name, h in hierarchies.items()]
    return PopulationIndex.build([q.codes for q in qis], [q.cards[0] for q in qis])


def _encode_response(data: pd.DataFrame, name: str) -> EncodedSensitive:
    """A response variable: as a sensitive variable, its missing value one more value (as in
    ARX, where an empty cell is a value of the attribute)."""
    e = _encode_sensitive(data, name)
    if not (e.codes < 0).any():
        return e
    codes = np.where(e.codes < 0, e.n_values, e.codes)
    values = np.append(e.values.astype(object), None)
    return EncodedSensitive(name=name, codes=codes, values=values, q=e.q)


@dataclass(frozen=True, eq=False)
class Problem:
    """Data, hierarchies and sensitive variables encoded for a search."""

    qis: tuple[EncodedQI, ...]
    sensitive: tuple[EncodedSensitive, ...]
    base: GroupTable = field(repr=False)
    record_group: np.ndarray = field(repr=False)   # each record's group in `base`
    n: int
    #: The metric's attribute weights per quasi-identifier, normalised as ARX does (largest 1);
    #: None when all are equal (every weight 1: the unweighted metrics, byte for byte).
    weights: tuple[float, ...] | None = None
    #: With a research subset (delta-presence, k-map with the population known): the
    #: population's classes; the problem's records are then the subset's.
    population: PopulationIndex | None = None
    #: The response variables of the classification metric, their value counts per class in
    #: the tables' last cells (after the sensitive variables'); a missing value is a value.
    response: tuple[EncodedSensitive, ...] = ()

    @classmethod
    def encode(cls, data: pd.DataFrame, hierarchies: Mapping[str, Hierarchy], sensitive: Sequence[str],
               sensitive_hierarchies: Mapping[str, Hierarchy] | None = None,
               response: Sequence[str] = ()) -> "Problem":
        """`sensitive_hierarchies`: the hierarchies of sensitive variables (hierarchical distance);
        `response`: the classification metric's response variables."""
        qis = tuple(_encode_qi(data, name, h) for name, h in hierarchies.items())
        sh = sensitive_hierarchies or {}
        sens = tuple(_encode_sensitive(data, s, sh.get(s)) for s in sensitive)
        resp = tuple(_encode_response(data, r) for r in response)
        base, rec = group_table([q.codes for q in qis], [q.cards[0] for q in qis],
                                [s.codes for s in sens + resp], [s.n_values for s in sens + resp])
        return cls(qis=qis, sensitive=sens, base=base, record_group=rec, n=len(data), response=resp)

    @property
    def response_cells(self) -> int:
        """Index of the first response variable's cells in the tables."""
        return len(self.sensitive)

    def subset(self, rows: np.ndarray) -> "Problem":
        """The records at positions `rows` as a problem of their own (local recoding's residue,
        :mod:`sdc.identify.local`): their codes and counts; the sensitive variables keep the whole
        data's values, distribution and tree, as ARX's ``DataManagerSubset`` delegates them."""
        qis = tuple(replace(q, codes=q.codes[rows], count0=np.bincount(q.codes[rows], minlength=q.count0.shape[0])
                            .astype(np.int64)) for q in self.qis)
        sens = tuple(replace(s, codes=s.codes[rows]) for s in self.sensitive)
        base, rec = group_table([q.codes for q in qis], [q.cards[0] for q in qis],
                                [s.codes for s in sens], [s.n_values for s in sens])
        return replace(self, qis=qis, sensitive=sens, base=base, record_group=rec, n=int(len(rows)))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(q.name for q in self.qis)

    def first_records(self, n_groups: int, ids: np.ndarray) -> np.ndarray:
        """Each class's first record, for a table whose classes hold the level-0 groups
        `ids` maps (the tie-break of the risk-based models' suppression)."""
        first = np.full(n_groups, self.n, dtype=np.int64)
        np.minimum.at(first, ids[self.record_group], np.arange(self.n, dtype=np.int64))
        return first

    @property
    def trees(self) -> dict[str, HierarchyTree]:
        """The hierarchies (as trees) of the sensitive variables that have one."""
        return {s.name: s.tree for s in self.sensitive if s.tree is not None}

    def population_counts(self, levels: Sequence[int], table: GroupTable) -> PopulationCounts | None:
        """The population records of `table`'s classes at `levels` (None without a research subset)."""
        if self.population is None:
            return None
        return self.population.counts([q.to_level[b] for q, b in zip(self.qis, levels)],
                                      [q.cards[b] for q, b in zip(self.qis, levels)], table)

    def lattice(self) -> Lattice:
        return Lattice.build(self.names, [q.top for q in self.qis])

    def table_at(self, levels: Sequence[int], source: GroupTable | None = None,
                 source_levels: Sequence[int] | None = None) -> tuple[GroupTable, np.ndarray]:
        """The classes at `levels`, rolled up from `source` (at `source_levels`, each <= levels)
        or from the level-0 table. Returns the table and each source group's class id."""
        if source is None:
            source, source_levels = self.base, (0,) * len(self.qis)
        maps = [q.step(a, b) for q, a, b in zip(self.qis, source_levels, levels)]
        return roll_up(source, maps, [q.cards[b] for q, b in zip(self.qis, levels)])


def search_problem(data: pd.DataFrame, hierarchies: Mapping[str, Hierarchy], sensitive: Sequence[str],
                   sensitive_hierarchies: Mapping[str, Hierarchy], subset: np.ndarray | None,
                   weights: tuple[float, ...] | None, response: Sequence[str] = ()) -> tuple[pd.DataFrame, Problem]:
    """The encoded search and the records it releases; with a research subset (its row
    positions) the file is the population, whose classes are indexed, and the subset's records
    are searched and released (:mod:`sdc.identify.presence`); `response`: the classification
    metric's response variables."""
    population = None
    if subset is not None:
        population = population_index(data, hierarchies)
        data = data.iloc[subset]
    problem = Problem.encode(data, hierarchies, sensitive, sensitive_hierarchies, response)
    return data, replace(problem, weights=weights, population=population)
