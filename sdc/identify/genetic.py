"""A genetic search of the generalisation lattice, after ARX's ``GeneticAlgorithm``.

Like Lightning (:mod:`sdc.identify.lightning`, whose node checks, budget and result it
shares), it never builds the lattice and reports the best anonymous transformation it checked,
not proven optimal. The design is ARX's (``GeneticAlgorithm`` and
``GeneticAlgorithmSubpopulation``, ARX 3.9, with ARX's defaults); genetic search for
generalisations goes back to Iyengar 2002 (KDD, "Transforming data to satisfy privacy
constraints"). An individual is a transformation
(its level per quasi-identifier); its fitness is the loss of the checked node, lower is fitter
(ARX's order: anonymous or not; the best *anonymous* node is the result). With m
quasi-identifiers and P = m + 100 individuals per sub-population:

1. Sub-population 1 starts with the "triangle" (for i < m: the first i + 1 quasi-identifiers
   at their top level, the rest at level 0) and random individuals; sub-population 2 with
   random ones. A random level of j is round(u * top_j), u uniform on [0, 1).
2. Each of 50 generations sorts both by loss (then by levels, so that the order is
   deterministic), every 10th from the first swaps the int(0.2 P) fittest of each with the
   other (ARX writes ``(int) fraction * k``, which is 0: its populations never exchange; sdc
   exchanges as the parameter says), then renews each sub-population: the fittest ceil(0.2 P)
   kept (the elite); the last ceil(0.2 P) replaced by children whose every level is either
   parent's with probability 1/2, both parents drawn from the fittest ceil(0.2 P) with
   probability proportional to 1 - (loss - min) / (max - min) (uniformly when all are equal or
   none is finite); the others replaced by mutants of a random member: r levels redrawn at
   random, r uniform on 0 .. ceil(0.2 m), at distinct random positions.
3. It stops after the generations, or earlier at the time or node limit.

Random steps draw from numpy's generator seeded with `seed` (recorded in the result), not
Java's ``Random``: the search is deterministic under a seed, but not ARX's sequence of nodes.
"""

from __future__ import annotations

import math

import numpy as np

from sdc.identify.criteria import Models
from sdc.identify.lattice import Problem
from sdc.identify.lightning import STOPPED, Lightning, Node

__all__ = ["Genetic", "run_genetic", "GENERATIONS", "SUBPOPULATION"]

#: ARX's defaults (``ARXConfiguration``): generations, individuals per sub-population beyond m,
#: the elite, crossover, production and immigration fractions, the immigration interval and
#: the mutation probability (the largest share of levels a mutant redraws).
GENERATIONS, SUBPOPULATION = 50, 100
ELITE, CROSSOVER, PRODUCTION, IMMIGRATION, INTERVAL, MUTATION = 0.2, 0.2, 0.2, 0.2, 10, 0.2


class Genetic(Lightning):
    """State of one genetic search (Lightning's node checks, budget and result)."""

    algorithm = "genetic"
    title = "the genetic search (ARX's GeneticAlgorithm)"
    how = "genetic: two sub-populations of transformations over 50 generations, bounded by its budget"

    def __init__(self, problem: Problem, models: Models, limit: float, metric: str, keep: int, practical: bool,
                 time_limit: float | None, node_limit: int | None, seed: int) -> None:
        super().__init__(problem, models, limit, metric, keep, practical, time_limit, node_limit)
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.m = len(self.top)

    def _individual(self, levels: np.ndarray | Node) -> Node:
        node = tuple(int(v) for v in levels)
        self.check(node)
        return node

    def _random_levels(self, dims: np.ndarray | None = None) -> np.ndarray:
        top = np.asarray(self.top if dims is None else [self.top[j] for j in dims], dtype=float)
        return np.round(self.rng.random(top.size) * top).astype(np.int64)

    def _sorted(self, pop: list[Node]) -> list[Node]:
        return sorted(pop, key=lambda n: (self.rec[n]["loss"], n))

    def _parents(self, pop: list[Node], count: int) -> list[Node]:
        """`count` draws from the fittest ceil(0.2 P), weighted by 1 - relative loss."""
        pool = pop[: math.ceil(PRODUCTION * len(pop))]
        loss = np.array([self.rec[n]["loss"] for n in pool], dtype=float)
        finite = np.isfinite(loss)
        w = np.ones(len(pool))
        if finite.any():
            lo, hi = loss[finite].min(), loss[finite].max()
            rel = np.where(finite, (loss - lo) / (hi - lo) if hi > lo else 0.0, 1.0)
            w = 1.0 - rel
        w = w if w.sum() > 0 else np.ones(len(pool))
        picks = self.rng.choice(len(pool), size=count, p=w / w.sum())
        return [pool[i] for i in picks]

    def _mutant(self, node: Node) -> Node:
        levels = np.array(node, dtype=np.int64)
        r = int(self.rng.integers(0, math.ceil(MUTATION * self.m) + 1))
        where = self.rng.permutation(self.m)[:r]
        levels[where] = self._random_levels(where)
        return self._individual(levels)

    def _renew(self, pop: list[Node]) -> list[Node] | None:
        """One generation of one sorted sub-population (None when the budget ran out)."""
        old, new, k = list(pop), list(pop), len(pop)
        n_cross, n_elite = math.ceil(CROSSOVER * k), math.ceil(ELITE * k)
        a, b = self._parents(old, n_cross), self._parents(old, n_cross)
        for c in range(n_cross):
            if self.must_stop():
                return None
            pick = self.rng.random(self.m) < 0.5
            new[k - c - 1] = self._individual(np.where(pick, a[c], b[c]))
        for i in range(n_elite, k - n_cross):
            if self.must_stop():
                return None
            new[i] = self._mutant(old[int(self.rng.integers(0, k))])
        return new

    def _start(self) -> tuple[list[Node], list[Node]] | None:
        size = self.m + SUBPOPULATION
        z1, z2 = [], []
        for i in range(size):
            if self.must_stop():
                return None
            levels = (np.where(np.arange(self.m) <= i, self.top, 0) if i < self.m else self._random_levels())
            z1.append(self._individual(levels))
        for _ in range(size):
            if self.must_stop():
                return None
            z2.append(self._individual(self._random_levels()))
        return z1, z2

    def run(self) -> "Genetic":
        self.check((0,) * self.m)  # the bottom, as every search reports it
        pops = self._start()
        if pops is not None:
            z1, z2 = pops
            moved = int(IMMIGRATION * len(z1))
            for g in range(GENERATIONS):
                z1, z2 = self._sorted(z1), self._sorted(z2)
                if g % INTERVAL == 0 and moved:
                    z1, z2 = z1[moved:], z2 + z1[:moved]
                    z2, z1 = z2[moved:], z1 + z2[:moved]
                    z1, z2 = self._sorted(z1), self._sorted(z2)
                r1 = self._renew(z1)
                r2 = None if r1 is None else self._renew(z2)
                if r1 is None or r2 is None:
                    break
                z1, z2 = r1, r2
        if self.stopped is None:
            self.stopped = "generations"
        return self


def run_genetic(problem: Problem, models: Models, limit: float, metric: str, keep: int, practical: bool,
                time_limit: float | None, node_limit: int | None, seed: int) -> Genetic:
    """The genetic search, refused in one line when it found no anonymous node."""
    s = Genetic(problem, models, limit, metric, keep, practical, time_limit, node_limit, seed).run()
    if not s.best:
        budget = f" ({STOPPED[s.stopped]}; raise `time_limit` or `node_limit`)" if s.stopped != "generations" else ""
        raise ValueError(
            f"the genetic search checked {s.n_evaluated:,} of {s.n_nodes:,} transformations and found none meeting "
            f"{', '.join(models.describe())} with at most {limit:.4g} of the records suppressed{budget}."
        )
    return s
