"""The population of a research subset: delta-presence and k-map with a population table.

ARX poses two models where the input file is the *population* and a research subset of its
rows the sample that is released (``DataSubset``): delta-presence (Nergiz, Atzori and Clifton
2007, "Hiding the presence of individuals from shared databases", SIGMOD) and k-map with the
population known (Sweeney 2002; ARX's ``KMap(k, DataSubset)``). For a class E of the
generalised population (all its records), with |E| its population records and |E ∩ S| those
of the subset S:

* delta-presence: delta(E) = |E ∩ S| / |E|, and dmin <= delta(E) <= dmax for every class;
  a class without subset records has delta = 0 (ARX's ``DPresence.isAnonymous``): with
  dmin > 0 it fails, and since it holds no subset record it cannot be suppressed, so the
  transformation fails (ARX's ``HashGroupify``, "tuples from the public table that have no
  matching candidates in the private table ... cannot be suppressed");
* k-map: every class holding subset records has |E| >= k.

Suppression (a failing class's subset records withheld) and the suppression limit count
subset records only (ARX: ``floor(limit * |S|)``); the metrics are those of the released
subset (ARX's counts ``entry.count`` are the subset's). Both models are monotone under
generalisation (a merged class's delta is a weighted mean of its parts'; population counts
add); with suppression only k-map stays so (a suppressed class merged with a kept one can
fail delta-presence; so ARX: ``DPresence`` is not monotone with suppression, ``KMap`` is).

:class:`PopulationIndex` holds the population's level-0 classes, so that a node's subset
classes get their population counts with one roll-up of the population's table and one
``searchsorted``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sdc.core.generalise import GroupTable, group_table, pack_codes, roll_up

__all__ = ["PopulationIndex", "PopulationCounts"]


@dataclass(frozen=True)
class PopulationCounts:
    """A node's population figures: per subset class its population records, and the number
    of population classes holding no subset record."""

    pcounts: np.ndarray = field(repr=False)
    empty_classes: int


@dataclass(frozen=True, eq=False)
class PopulationIndex:
    """The population's level-0 classes in the codes of the search's hierarchies."""

    base: GroupTable = field(repr=False)
    n: int

    @classmethod
    def build(cls, codes: Sequence[np.ndarray], cards: Sequence[int]) -> "PopulationIndex":
        """`codes`: per quasi-identifier the population records' level-0 codes (the hierarchy
        rows, the same code space as the subset's); `cards` their sizes."""
        base, _ = group_table(list(codes), list(cards))
        return cls(base=base, n=int(codes[0].shape[0]) if codes else 0)

    def counts(self, maps: Sequence[np.ndarray], cards: Sequence[int], table: GroupTable) -> PopulationCounts:
        """The population counts of `table`'s classes (a subset table at the levels that
        `maps`, level-0 code -> level code per quasi-identifier, and `cards` describe)."""
        pop, _ = roll_up(self.base, maps, cards)
        both = [np.concatenate([a, b]) for a, b in zip(pop.codes, table.codes)]
        packed, _ = pack_codes(both, cards)  # one packing for both, so keys are comparable
        pkey, skey = packed[:pop.n_groups], packed[pop.n_groups:]
        order = np.argsort(pkey, kind="stable")
        pos = np.searchsorted(pkey[order], skey)
        pcounts = pop.counts[order][np.minimum(pos, max(pop.n_groups - 1, 0))]
        empty = pop.n_groups - table.n_groups  # every subset record is a population record
        return PopulationCounts(pcounts=pcounts.astype(np.int64), empty_classes=int(empty))
