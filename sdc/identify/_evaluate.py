"""One node of the generalisation lattice evaluated: its classes rolled up, the privacy models
checked, failing classes suppressed, the loss measured. Shared by the exact search
(:mod:`sdc.identify.search`) and the Lightning heuristic (:mod:`sdc.identify.lightning`), so
both judge a transformation the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sdc.core.generalise import GroupTable
from sdc.identify.criteria import Models, class_checks, release_suppression
from sdc.identify.lattice import Problem
from sdc.identify.metrics import MetricTables

__all__ = ["Assessment", "Evaluator"]


@dataclass(frozen=True)
class Assessment:
    """A node's verdict: whether the monotone part of the models holds within the suppression
    limit, the classes kept (under every model when it does, else under the monotone part),
    the records suppressed, and whether the node is anonymous."""

    mono_pass: bool
    ok: np.ndarray
    out: int
    anonymous: bool


class Evaluator:
    """The models, suppression limit and metric of one search, applied to a node's classes."""

    def __init__(self, problem: Problem, models: Models, limit: float, metric: str, practical: bool = False) -> None:
        self.p = problem
        self.models = models
        self.metric = metric
        self.practical = practical
        self.limit = int(math.floor(limit * problem.n + 1e-9))  # ARX: floor(limit * n) records
        self.tables = MetricTables(problem)
        self.sidx = {s.name: i for i, s in enumerate(problem.sensitive)}
        self.q = {s.name: s.q for s in problem.sensitive}
        self.trees = problem.trees
        # ARX's practical monotonicity: every model taken as monotone (tagging on all of them)
        self.mono = models if practical else models.monotone_part(self.limit > 0)
        self.full_monotone = self.mono == models
        self.top_height = sum(q.top for q in problem.qis)

    def rolled(self, levels: Sequence[int], source: GroupTable, source_levels: Sequence[int],
               source_first: np.ndarray | None) -> tuple[GroupTable, np.ndarray | None]:
        """The classes at `levels` rolled up from an evaluated specialisation and, with a
        release-wide model, each class's first record (the tie-break of its suppression)."""
        t, ids = self.p.table_at(levels, source, source_levels)
        if not self.models.release_wide:
            return t, None
        first = np.full(t.n_groups, self.p.n, dtype=np.int64)
        np.minimum.at(first, ids, source_first)
        return t, first

    def kept(self, levels: Sequence[int], t: GroupTable, models: Models, first: np.ndarray | None,
             pcounts: np.ndarray | None = None) -> np.ndarray:
        """The classes kept under `models`: the per-class checks, then the average risk's
        suppression of the smallest classes (the top node meets it, as in ARX)."""
        ok = class_checks(t, models, self.sidx, self.q, self.trees, pcounts)
        if models.release_wide and sum(levels) < self.top_height:
            tie = self.tables.class_loss(levels, t) if self.metric == "loss" else None
            ok = release_suppression(t.counts, ok, first, models, tie, self.limit)
        return ok

    def assess(self, levels: Sequence[int], t: GroupTable, first: np.ndarray | None) -> Assessment:
        """The monotone part first (its verdict tags other nodes); every model when it holds."""
        cnt = t.counts
        pop = self.p.population_counts(levels, t) if self.models.needs_population else None
        pc = None if pop is None else pop.pcounts
        # delta-presence with dmin > 0: a population class without subset records fails and
        # cannot be suppressed (it holds nothing to suppress), so the node fails (module notes of
        # sdc.identify.presence); in the monotone part when delta-presence is
        blocked = pop is not None and self.models.presence is not None and self.models.presence[0] > 0 \
            and pop.empty_classes > 0
        mono_pass = True
        if not self.mono.empty:
            ok_m = self.kept(levels, t, self.mono, first, pc)
            mono_pass = int(cnt[~ok_m].sum()) <= self.limit and not (blocked and self.mono.presence is not None)
        if mono_pass and not self.full_monotone:
            ok = self.kept(levels, t, self.models, first, pc)
        elif not self.mono.empty:
            ok = ok_m
        else:
            ok = self.kept(levels, t, self.models, first, pc)
        out = int(cnt[~ok].sum())
        return Assessment(mono_pass=mono_pass, ok=ok, out=out, anonymous=mono_pass and out <= self.limit and not blocked)

    def loss(self, levels: Sequence[int], t: GroupTable, ok: np.ndarray) -> float:
        return self.tables.value(self.metric, levels, t, ok)
