"""ARX's Lightning heuristic: a budgeted best-first search for lattices too large to prove.

The exact search (:mod:`sdc.identify.search`) holds the whole lattice in memory and refuses
more than :data:`~sdc.identify.lattice.MAX_NODES` transformations. Lightning (Prasser, Bild,
Eicher, Spengler and Kuhn, "Lightning: utility-driven anonymization of high-dimensional data",
Transactions on Data Privacy 9(2), 2016; ARX's ``LIGHTNINGAlgorithm``) never builds it: a node
is its tuple of levels, and only the nodes it checks are stored.

1. Check the bottom node (no generalisation) and queue it. The queue is ordered by
   information loss (ties by the level tuple, so the search is deterministic); a checked node's
   loss is the metric's value with its failing classes suppressed, anonymous or not.
2. Pop the node of least loss. It is *pruned* when already expanded, or when its lower bound
   (:meth:`~sdc.identify.metrics.MetricTables.lower_bounds`; with DM and DM* also its own
   classes' DM*, as ARX's bound) is at least the loss of the best anonymous node found
   (itself excepted): neither it nor, the bounds rising with generalisation, anything above
   it can do better.
3. Otherwise *expand* it: check each direct generalisation (one level up in one
   quasi-identifier) not yet expanded nor pruned, and queue it. Every ``H``-th expansion
   (``H`` the top node's height) is instead a *dive*: expand, then expand the expanded
   node's successor of least loss, and so on up to the top: the depth-first part that
   reaches anonymous nodes quickly on high lattices.
4. Stop when the queue is empty ("exhausted"), the time limit has passed ("time") or the
   node limit has been checked ("nodes"). The best anonymous node checked is the result: the
   best found, not proven optimal.

Each node's classes are rolled up from the smallest cached checked specialisation, and the
models, suppression and loss are those of the exact search (:mod:`sdc.identify._evaluate`).
"""

from __future__ import annotations

import heapq
import math
import time

import numpy as np
import pandas as pd

from sdc.core.generalise import GroupTable
from sdc.identify._evaluate import Evaluator
from sdc.identify.criteria import Models
from sdc.identify.lattice import Lattice, Problem
from sdc.identify.metrics import dm_star

__all__ = ["Lightning", "run_lightning", "lattice_size", "ALGORITHMS", "STOPPED", "AUTO_TIME_LIMIT"]

#: The search algorithms: the proven optimum, the heuristics (Lightning; the genetic search,
#: :mod:`sdc.identify.genetic`), or by lattice size.
ALGORITHMS = ("exact", "lightning", "genetic", "auto")
#: Why a search stopped: the optimum proven, the heuristic's queue empty, or its budget spent.
STOPPED = {"proven": "the optimum is proven", "exhausted": "no node left to expand",
           "time": "the time limit was reached", "nodes": "the node limit was reached",
           "generations": "every generation was run"}
#: The time limit (seconds) "auto" gives Lightning when no budget is given (ARX's default).
AUTO_TIME_LIMIT = 30.0

_CACHE_TABLES = 64
_CACHE_GROUPS = 2_000_000

Node = tuple[int, ...]


def lattice_size(problem: Problem) -> int:
    """Transformations of the problem's lattice: the product of (top level + 1)."""
    return math.prod(q.top + 1 for q in problem.qis)


class Lightning:
    """State of one Lightning search (nodes as level tuples, only the checked ones stored)."""

    algorithm = "lightning"
    title = "Lightning (ARX's heuristic)"
    how = "Lightning: best-first from the bottom, bounded by its budget"
    optimal = False
    seed: int | None = None

    def __init__(self, problem: Problem, models: Models, limit: float, metric: str, keep: int,
                 practical: bool = False, time_limit: float | None = None, node_limit: int | None = None) -> None:
        self.p = problem
        self.ev = Evaluator(problem, models, limit, metric, practical)
        self.keep = keep
        self.names = problem.names
        self.top = tuple(q.top for q in problem.qis)
        self.n_nodes = lattice_size(problem)
        self.deadline = time.perf_counter() + time_limit if time_limit is not None else math.inf
        self.node_limit = node_limit
        self.stopped: str | None = None
        self.rec: dict[Node, dict] = {}           # checked node -> its figures
        self.expanded: set[Node] = set()
        self.insufficient: set[Node] = set()      # pruned by their bound
        self.best: list[tuple[float, int, Node]] = []
        bottom = (0,) * len(self.top)
        self._cache: dict[Node, tuple[GroupTable, np.ndarray | None]] = {
            bottom: (problem.base, problem.first_records(problem.base.n_groups, np.arange(problem.base.n_groups))
                     if models.release_wide else None)}

    # -- budget and bounds

    def must_stop(self) -> bool:
        if self.stopped is None:
            if self.node_limit is not None and len(self.rec) >= self.node_limit:
                self.stopped = "nodes"
            elif time.perf_counter() > self.deadline:
                self.stopped = "time"
        return self.stopped is not None

    def _bound(self, node: Node, t: GroupTable) -> float:
        one = Lattice(names=self.names, top=self.top, levels=np.array([node], dtype=np.int64),
                      height=np.array([sum(node)], dtype=np.int64), strides=np.ones(len(node), dtype=np.int64))
        lb = float(self.ev.tables.lower_bounds(self.ev.metric, one)[0])
        if self.ev.metric in ("discernibility", "dm_star"):
            lb = max(lb, dm_star(t))
        elif self.ev.metric == "avg_class_size":
            lb = max(lb, self.p.n / max(t.n_groups, 1))
        return lb

    # -- checking a node

    def _table(self, node: Node) -> tuple[GroupTable, np.ndarray | None]:
        if node in self._cache:
            return self._cache[node]
        keys = list(self._cache)
        below = (np.array(keys) <= np.array(node)).all(axis=1)
        cand = [k for k, b in zip(keys, below) if b]
        src = min(cand, key=lambda k: (self._cache[k][0].n_groups, k))
        t, first = self.ev.rolled(node, self._cache[src][0], src, self._cache[src][1])
        self._cache[node] = (t, first)
        while len(self._cache) > _CACHE_TABLES or sum(v[0].n_groups for v in self._cache.values()) > _CACHE_GROUPS:
            old = next(k for k in self._cache if any(k))  # oldest, never the bottom's table
            if old == node:
                break
            del self._cache[old]
        return t, first

    def check(self, node: Node) -> None:
        """ARX's assureChecked: the node's classes, verdict, loss and bound, once."""
        if node in self.rec:
            return
        t, first = self._table(node)
        a = self.ev.assess(node, t, first)
        loss = self.ev.loss(node, t, a.ok)
        loss = math.inf if math.isnan(loss) else loss
        kc = t.counts[a.ok] if a.anonymous else t.counts[:0]
        self.rec[node] = {"classes": t.n_groups, "suppressed": a.out, "anonymous": a.anonymous, "loss": loss,
                          "released": int(np.count_nonzero(a.ok)) if a.anonymous else -1,
                          "lower_bound": self._bound(node, t),
                          "max_risk": 1.0 / float(kc.min()) if kc.size else math.nan,
                          "avg_risk": kc.size / float(kc.sum()) if kc.size else math.nan}
        if a.anonymous:
            key = (loss, sum(node), node)
            if len(self.best) < self.keep or key < self.best[-1]:
                self.best = sorted([*self.best, key])[: self.keep]

    # -- the traversal

    def _successors(self, node: Node) -> list[Node]:
        return [node[:j] + (node[j] + 1,) + node[j + 1:] for j in range(len(node)) if node[j] < self.top[j]]

    def expand(self, heap: list, node: Node) -> Node | None:
        """Check and queue the node's successors; return the one of least loss (None when the
        budget ran out)."""
        best: tuple[float, Node] | None = None
        for s in self._successors(node):
            if s not in self.expanded and s not in self.insufficient:
                self.check(s)
                key = (self.rec[s]["loss"], s)
                heapq.heappush(heap, key)
                best = key if best is None or key < best else best
            if self.must_stop():
                return None
        self.expanded.add(node)
        return None if best is None else best[1]

    def prune(self, node: Node) -> bool:
        if node in self.expanded or node in self.insufficient:
            return True
        if self.best and self.best[0][2] != node and self.rec[node]["lower_bound"] >= self.best[0][0]:
            self.insufficient.add(node)
            return True
        return False

    def run(self) -> "Lightning":
        bottom = (0,) * len(self.top)
        self.check(bottom)
        heap: list[tuple[float, Node]] = [(self.rec[bottom]["loss"], bottom)]
        stepping, step = max(sum(self.top), 1), 0
        while heap and not self.must_stop():
            _, node = heapq.heappop(heap)
            if self.prune(node):
                continue
            step += 1
            if step % stepping == 0:
                while node is not None and not self.must_stop():  # the dive
                    node = self.expand(heap, node)
            else:
                self.expand(heap, node)
        if self.stopped is None:
            self.stopped = "exhausted"
        return self

    # -- what the result reads

    @property
    def n_evaluated(self) -> int:
        return len(self.rec)

    def best_levels(self) -> Node:
        return self.best[0][2]

    def best_loss(self) -> float:
        return float(self.best[0][0])

    def frame(self) -> pd.DataFrame:
        """One row per checked node, in level order (the lattice itself is never built)."""
        nodes = sorted(self.rec)
        df = pd.DataFrame(np.array(nodes, dtype=np.int64).reshape(len(nodes), len(self.top)), columns=list(self.names))
        df["height"] = df[list(self.names)].sum(axis=1) if self.names else 0
        recs = [self.rec[n] for n in nodes]
        anon = np.array([r["anonymous"] for r in recs], dtype=bool)
        df["status"] = np.where(anon, "anonymous", "not anonymous").astype(object)
        df["evaluated"] = True
        df["classes"] = pd.array([r["classes"] for r in recs], dtype="Int64")
        df["classes_released"] = pd.array([r["released"] if r["anonymous"] else pd.NA for r in recs], dtype="Int64")
        df["suppressed"] = pd.array([r["suppressed"] for r in recs], dtype="Int64")
        df["loss"] = np.where(anon, [r["loss"] for r in recs], np.nan)
        for col in ("lower_bound", "max_risk", "avg_risk"):
            df[col] = [r[col] for r in recs]
        row = {n: i for i, n in enumerate(nodes)}
        rank = pd.array([pd.NA] * len(nodes), dtype="Int64")
        for r, (_, _, n) in enumerate(self.best, start=1):
            rank[row[n]] = r
        df["rank"] = rank
        return df

    def ranked_rows(self, frame: pd.DataFrame) -> list[int]:
        """The frame's rows of the best nodes, best first."""
        row = {tuple(int(v) for v in r): i for i, r in enumerate(frame[list(self.names)].to_numpy())}
        return [row[n] for _, _, n in self.best]


def run_lightning(problem: Problem, models: Models, limit: float, metric: str, keep: int, practical: bool,
                  time_limit: float | None, node_limit: int | None) -> Lightning:
    """The Lightning search, refused in one line when it found no anonymous node."""
    s = Lightning(problem, models, limit, metric, keep, practical, time_limit, node_limit).run()
    if not s.best:
        budget = "" if s.stopped == "exhausted" else f" within its budget ({STOPPED[s.stopped]}; raise `time_limit` or `node_limit`)"
        raise ValueError(
            f"Lightning checked {s.n_evaluated:,} of {s.n_nodes:,} transformations and found none meeting "
            f"{', '.join(models.describe())} with at most {limit:.4g} of the records suppressed{budget}."
        )
    return s

