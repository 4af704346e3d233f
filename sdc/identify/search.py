"""The search for a safe release: the optimal full-domain generalisation (ARX's main feature).

:func:`generalisation_search` finds, among all transformations of the lattice (one
generalisation level per quasi-identifier, :mod:`sdc.identify.lattice`), the one that meets
the privacy models (:mod:`sdc.identify.criteria`) with at most ``suppression_limit`` of the
records suppressed and the least information loss (:mod:`sdc.identify.metrics`). Failing
classes are suppressed whole (their quasi-identifiers removed), as in ARX.

The optimum is exact. Small lattices are evaluated exhaustively; larger ones by a
branch-and-bound in the spirit of Flash and OLA (Kohlmayer et al. 2012; El Emam et al. 2009):

1. *Predictive tagging.* The monotone models (without suppression all but Grassberger entropy
   l-diversity and delta-disclosure; with it k-anonymity and distinct l-diversity, see
   :mod:`sdc.identify.criteria`; every model with ``practical_monotonicity``, ARX's option)
   are settled by binary searches along upward paths of the lattice: if a node meets them, so
   does every generalisation of it; if it fails, so does every specialisation. Tagged nodes
   are not evaluated.
2. *Bound pruning.* Each node has a lower bound of its loss (metric's generalisation-only
   part, or the DM*/class counts of an evaluated specialisation, see
   :mod:`sdc.identify.metrics`). Candidates are evaluated in order of their bound; once the
   bound exceeds the loss of the ``runner_ups + 1``-th best release found, the search stops.
   So the optimum *and* the runner-ups are exact.
3. *Roll-up.* A node's classes are computed from the classes of the smallest already
   evaluated specialisation (:func:`sdc.core.generalise.roll_up`), not from the records.

Ties in loss are broken by the lower height (sum of levels), then by the level vector in
lexicographic order. Lattices above MAX_NODES go to ARX's heuristics (``algorithm="lightning"``
or ``"auto"``, :mod:`sdc.identify.lightning`; ``"genetic"``, :mod:`sdc.identify.genetic`): best
found, not proven.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc.core.generalise import GroupTable
from sdc.identify._evaluate import Evaluator
from sdc.identify._release import release
from sdc.identify._search_args import (
    SUPPRESSED_AS, attribute_weights as check_weights, budget, resolve, response_variables, settings,
)
from sdc.identify.criteria import Models, achieved
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.lattice import MAX_NODES, Lattice, Problem, search_problem
from sdc.identify.genetic import run_genetic
from sdc.identify.lightning import AUTO_TIME_LIMIT, Lightning, lattice_size, run_lightning
from sdc.identify.local import check_local, localised
from sdc.identify.metrics import dm_star
from sdc.identify.search_result import GeneralisationResult
from sdc.protect.transformation import level_mapping

__all__ = ["GeneralisationResult", "generalisation_search", "SUPPRESSED_AS", "EXHAUSTIVE_NODES"]

#: Lattices up to this many nodes are evaluated exhaustively when ``exhaustive=None``.
EXHAUSTIVE_NODES = 256

_UNKNOWN, _PASS, _FAIL = 0, 1, 2
_PROPAGATED = ("discernibility", "dm_star", "avg_class_size")  # metrics whose bounds rise from evaluated nodes
_CACHE_GROUPS = 4_000_000
_CACHE_TABLES = 256


# ----------------------------------------------------------------------------- the search


class _Search:
    """State of one search over one lattice."""

    def __init__(self, problem: Problem, models: Models, limit: float, metric: str, keep: int,
                 practical: bool = False) -> None:
        self.p = problem
        self.models = models
        self.metric = metric
        self.keep = keep                      # optimum + runner-ups
        self.ev = Evaluator(problem, models, limit, metric, practical)
        self.limit, self.tables, self.sidx, self.q = self.ev.limit, self.ev.tables, self.ev.sidx, self.ev.q
        self.trees, self.mono, self.full_monotone = self.ev.trees, self.ev.mono, self.ev.full_monotone
        self.lat: Lattice = problem.lattice()
        N = self.lat.size
        self.lb = self.tables.lower_bounds(metric, self.lat).astype(float)
        self.mono_state = np.zeros(N, dtype=np.int8)     # _PASS / _FAIL of the monotone part
        self.anon = np.zeros(N, dtype=np.int8)           # _PASS / _FAIL of all models (evaluated or tagged)
        self.evaluated = np.zeros(N, dtype=bool)
        self.classes = np.full(N, -1, dtype=np.int64)
        self.released = np.full(N, -1, dtype=np.int64)  # classes kept (not suppressed), anonymous nodes
        self.suppressed = np.full(N, -1, dtype=np.int64)
        self.loss = np.full(N, np.nan)
        self.max_risk = np.full(N, np.nan)
        self.avg_risk = np.full(N, np.nan)
        self.best: list[tuple[float, int, int]] = []     # sorted keys (loss, height, index)
        self._cache: dict[int, GroupTable] = {0: problem.base} if N else {}
        self._first: dict[int, np.ndarray] = {}
        if models.release_wide and N:
            self._first[0] = problem.first_records(problem.base.n_groups, np.arange(problem.base.n_groups))
        self._cache_groups = problem.base.n_groups
        self.integer_metric = metric in ("discernibility", "dm_star")

    # -- evaluation

    def _source(self, i: int) -> int:
        keys = np.fromiter(self._cache.keys(), dtype=np.int64)
        below = (self.lat.levels[keys] <= self.lat.levels[i]).all(axis=1)
        cand = keys[below]
        sizes = np.array([self._cache[int(c)].n_groups for c in cand])
        return int(cand[int(np.argmin(sizes))])

    def _remember(self, i: int, table: GroupTable) -> None:
        if i in self._cache:
            return
        self._cache[i] = table
        self._cache_groups += table.n_groups
        while (len(self._cache) > _CACHE_TABLES or self._cache_groups > _CACHE_GROUPS) and len(self._cache) > 1:
            old = next(k for k in self._cache if k != 0)  # oldest, never the level-0 table
            self._cache_groups -= self._cache.pop(old).n_groups
            self._first.pop(old, None)

    def table(self, i: int) -> GroupTable:
        """Node i's classes (and, with the average-risk model, each class's first record in
        ``_first[i]``, the tie-break of its suppression), rolled up from a cached table."""
        if i in self._cache:
            return self._cache[i]
        j = self._source(i)
        t, first = self.ev.rolled(self.lat.node(i), self._cache[j], self.lat.node(j), self._first.get(j))
        if first is not None:
            self._first[i] = first
        self._remember(i, t)
        return t

    def evaluate(self, i: int) -> None:
        if self.evaluated[i]:
            return
        lat, t = self.lat, self.table(i)
        self.evaluated[i] = True
        self.classes[i] = t.n_groups
        cnt = t.counts
        a = self.ev.assess(lat.node(i), t, self._first.get(i))
        mono_pass, ok, out, anonymous = a.mono_pass, a.ok, a.out, a.anonymous
        self.suppressed[i] = out
        if anonymous:  # `ok` is then the check of every model
            self.released[i] = int(np.count_nonzero(ok))
        up = lat.up_set(i) if (mono_pass and not self.mono.empty) or self.metric in _PROPAGATED else None
        # tagging of the monotone part
        if not self.mono.empty:
            if mono_pass:
                self.mono_state[up & (self.mono_state == _UNKNOWN)] = _PASS
                if self.full_monotone:
                    self.anon[up & (self.anon == _UNKNOWN)] = _PASS
            else:
                down = lat.down_set(i)
                self.mono_state[down] = _FAIL
                self.anon[down] = _FAIL
        self.anon[i] = _PASS if anonymous else _FAIL
        self.mono_state[i] = _PASS if mono_pass else _FAIL
        # bounds for the generalisations of this node
        if self.metric in ("discernibility", "dm_star"):
            self.lb[up] = np.maximum(self.lb[up], dm_star(t))
        elif self.metric == "avg_class_size":
            self.lb[up] = np.maximum(self.lb[up], self.p.n / max(t.n_groups, 1))
        if anonymous:
            kept = ok
            self.loss[i] = self.ev.loss(lat.node(i), t, kept)
            kc = cnt[kept]
            if kc.size:
                self.max_risk[i] = 1.0 / float(kc.min())
                self.avg_risk[i] = kc.size / float(kc.sum())
            self._offer(i)

    def _offer(self, i: int) -> None:
        key = (float(self.loss[i]), int(self.lat.height[i]), i)
        if len(self.best) < self.keep or key < self.best[-1]:
            self.best.append(key)
            self.best.sort()
            del self.best[self.keep:]

    def _slack(self, v: float) -> float:
        return 0.0 if self.integer_metric else 1e-9 * max(1.0, abs(v))

    def pruned(self, i: int) -> bool:
        """True when node i cannot enter the top `keep` (its bound exceeds the threshold key)."""
        if len(self.best) < self.keep:
            return False
        thr = self.best[-1]
        lbe = self.lb[i] - self._slack(self.lb[i])
        return bool(lbe > thr[0] or (lbe >= thr[0] and (int(self.lat.height[i]), i) > thr[1:]))

    # -- phases

    def exhaustive(self) -> None:
        for i in range(self.lat.size):
            self.evaluate(i)

    def settle(self, i: int) -> None:
        """Flash-style: settle the monotone part of node i (and of many others, by tagging) with a
        binary search along an upward path from i through unsettled nodes."""
        lat = self.lat
        path = [i]
        cur = i
        while True:
            nxt = [s for s in lat.direct_successors(cur) if self.mono_state[s] == _UNKNOWN]
            if not nxt:
                break
            cur = min(nxt, key=lambda s: (self.lb[s], s))
            path.append(cur)
        lo, hi = 0, len(path) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            node = path[mid]
            if self.mono_state[node] == _UNKNOWN:
                self.evaluate(node)
            if self.mono_state[node] == _PASS:
                hi = mid - 1
            else:
                lo = mid + 1

    def optimise(self) -> None:
        """Visit nodes in order of their lower bound until none can enter the top `keep`:
        settle the monotone models of an unsettled node first (tagging), then evaluate it."""
        heap = [(float(self.lb[i]), int(self.lat.height[i]), int(i)) for i in range(self.lat.size)]
        heapq.heapify(heap)
        while heap:
            lb, h, i = heapq.heappop(heap)
            if self.evaluated[i] or self.anon[i] == _FAIL:
                continue
            if self.lb[i] > lb:  # the bound rose since it was queued
                heapq.heappush(heap, (float(self.lb[i]), h, i))
                continue
            if self.pruned(i):
                break
            if self.mono_state[i] == _UNKNOWN and not self.mono.empty:
                self.settle(i)
                if self.evaluated[i] or self.anon[i] == _FAIL:
                    continue
                if self.lb[i] > lb:
                    heapq.heappush(heap, (float(self.lb[i]), h, i))
                    continue
            self.evaluate(i)

    # -- results

    algorithm, stopped = "exact", "proven"
    title, how = "the exact search", ""
    optimal = True
    seed: int | None = None

    @property
    def n_nodes(self) -> int:
        return self.lat.size

    @property
    def n_evaluated(self) -> int:
        return int(self.evaluated.sum())

    def best_levels(self) -> tuple[int, ...]:
        return self.lat.node(self.best[0][2])

    def best_loss(self) -> float:
        return float(self.loss[self.best[0][2]])

    def ranked_rows(self, frame: pd.DataFrame) -> list[int]:
        return [i for _, _, i in self.best]

    def frame(self) -> pd.DataFrame:
        lat = self.lat
        df = pd.DataFrame(lat.levels.astype(np.int64), columns=list(lat.names))
        df["height"] = lat.height
        status = np.full(lat.size, "not evaluated", dtype=object)
        status[self.anon == _PASS] = "anonymous"
        status[self.anon == _FAIL] = "not anonymous"
        df["status"] = status
        df["evaluated"] = self.evaluated
        df["classes"] = pd.Series(self.classes, dtype="Int64").where(self.evaluated)
        df["classes_released"] = pd.Series(self.released, dtype="Int64").where(self.released >= 0)
        df["suppressed"] = pd.Series(self.suppressed, dtype="Int64").where(self.evaluated)
        df["loss"] = self.loss
        df["lower_bound"] = self.lb
        df["max_risk"] = self.max_risk
        df["avg_risk"] = self.avg_risk
        rank = pd.array([pd.NA] * lat.size, dtype="Int64")
        for r, (_, _, i) in enumerate(self.best, start=1):
            rank[i] = r
        df["rank"] = rank
        return df


def _result(data: pd.DataFrame, problem: Problem, s: _Search | Lightning, models: Models, hs: Mapping[str, Hierarchy],
            metric: str, limit: float, suppressed_as: str, full: bool, start: float) -> GeneralisationResult:
    """The best transformation's release, lattice, runner-ups and figures."""
    levels = s.best_levels()
    released, table, kept, n_supp, after, changed = release(data, problem, levels, models, suppressed_as, metric)
    lattice = s.frame()
    ranked = s.ranked_rows(lattice)
    ups = lattice.iloc[ranked[1:]].reset_index(drop=True)
    ups = ups[[*problem.names, "height", "loss", "classes", "classes_released", "suppressed", "max_risk", "avg_risk"]]
    ach = achieved(table, kept, models, s.ev.sidx, s.ev.q, s.ev.trees, problem.population_counts(levels, table))
    mdict = models.to_dict()
    mdict["described"] = models.describe()
    if s.ev.practical:
        mdict["practical_monotonicity"] = True
    return GeneralisationResult(
        levels=dict(zip(problem.names, levels)), loss=s.best_loss(), metric=metric, data=released,
        lattice=lattice, runner_ups=ups, suppressed=n_supp, classes=int(np.count_nonzero(kept)), achieved=ach,
        models=mdict, suppression_limit=limit, suppressed_as=suppressed_as, quasi_identifiers=problem.names,
        hierarchy_names=tuple(h.name for h in hs.values()), top_levels=tuple(q.top for q in problem.qis),
        distinct_before=tuple(int(np.count_nonzero(q.count0)) for q in problem.qis), distinct_after=after,
        changed=changed, n_records=problem.n, n_nodes=s.n_nodes, n_evaluated=s.n_evaluated, exhaustive=bool(full),
        seconds=time.perf_counter() - start,
        mapping=pd.concat([level_mapping(q.name, lev, q.hierarchy.table[:, 0], q.labels[lev][q.to_level[lev]])
                           for q, lev in zip(problem.qis, levels)], ignore_index=True),
        algorithm=s.algorithm, optimal=bool(s.optimal), stopped=str(s.stopped), algorithm_title=s.title,
        algorithm_how=s.how, seed=s.seed,
        attribute_weights=None if problem.weights is None else dict(zip(problem.names, problem.weights)),
        research_subset=None if models.subset is None else models.subset[0],
        population_records=None if models.subset is None else models.subset[1],
        response=tuple(r.name for r in problem.response),
    )


def _searched(problem: Problem, models: Models, limit: float, metric: str, n_up: int,
              exhaustive: bool | None, practical: bool = False) -> tuple[_Search, bool]:
    """The search over the lattice (every node when `exhaustive`, or by default when the
    lattice is small and monotonicity is not assumed; else ARX's optimisation), and whether it
    was exhaustive; refused when no node meets the models within the suppression limit."""
    s = _Search(problem, models, limit, metric, n_up + 1, practical)
    full = exhaustive if exhaustive is not None else (s.lat.size <= EXHAUSTIVE_NODES and not practical)
    if full:
        s.exhaustive()
    else:
        s.optimise()
    if not s.best:
        raise ValueError(
            f"no transformation meets {', '.join(models.describe())} with at most {limit:.4g} of the records "
            f"suppressed; allow more suppression, add hierarchy levels or relax the models."
        )
    return s, bool(full)


def _dispatched(problem: Problem, models: Models, limit: float, metric: str, n_up: int, exhaustive: bool | None,
                practical: bool, how: tuple[str, float | None, int | None]) -> tuple[_Search | Lightning, bool]:
    """The exact search, or Lightning (asked for, or "auto" above MAX_NODES; "auto" without a
    budget gives it ARX's default time limit)."""
    algorithm, time_limit, node_limit, seed = how
    if algorithm == "genetic":
        g = run_genetic(problem, models, limit, metric, n_up + 1, practical, time_limit, node_limit, seed)
        return g, g.n_evaluated == g.n_nodes
    if algorithm == "exact" or (algorithm == "auto" and lattice_size(problem) <= MAX_NODES):
        s, full = _searched(problem, models, limit, metric, n_up, exhaustive, practical)
        s.optimal = not practical
        return s, full
    if algorithm == "auto" and time_limit is None and node_limit is None:
        time_limit = AUTO_TIME_LIMIT
    s = run_lightning(problem, models, limit, metric, n_up + 1, practical, time_limit, node_limit)
    return s, s.n_evaluated == s.n_nodes


def generalisation_search(
    data: pd.DataFrame, hierarchies: Mapping[str, object], *,
    k: int | None = None, l: float | Mapping[str, float] | None = None,
    l_variant: str = "distinct", c: float = 2.0,
    t: float | Mapping[str, float] | None = None, t_distance: str = "equal",
    beta: float | Mapping[str, float] | None = None, beta_variant: str = "basic",
    delta: float | Mapping[str, float] | None = None, delta_variant: str = "arx",
    alpha: float | Mapping[str, float] | None = None, avg_risk: float | None = None, sample_uniques: float | None = None,
    pop_uniques: float | None = None, pop_model: str = "dankar",
    population_size: int | None = None, sampling_fraction: float | None = None,
    k_map: int | None = None, k_map_estimator: str = "poisson", k_map_significance: float = 0.01,
    sensitive: str | Sequence[str] | None = None, suppression_limit: float = 0.04, metric: str = "discernibility",
    runner_ups: int = 5, suppressed_as: str = "missing",
    exhaustive: bool | None = None, hierarchy_base: str | None = None, practical_monotonicity: bool = False,
    algorithm: str = "exact", time_limit: float | None = None, node_limit: int | None = None, seed: int = 0,
    attribute_weights: Mapping[str, float] | None = None, response: str | Sequence[str] | None = None,
    research_subset: Any = None, delta_presence: tuple[float, float] | None = None,
    local: bool = False, local_records: float | None = None, local_iterations: int = 100,
) -> GeneralisationResult:
    """Find the full-domain generalisation that meets the privacy models with the least loss.

    Parameters
    ----------
    data : pandas.DataFrame
        The microdata (only read).
    hierarchies : mapping
        Each quasi-identifier (in lattice order) -> its hierarchy: a path to ARX's CSV layout,
        a DataFrame in it or a :class:`~sdc.identify.hierarchy.Hierarchy`; with the
        hierarchical distance also each sensitive variable with a t bound -> its tree.
    k : int, optional
        k-anonymity: every released class has at least k records.
    l, t, beta, delta, alpha : number or mapping, optional
        l-diversity, t-closeness, beta-likeness, delta-disclosure privacy, the alpha of (alpha,
        k)-anonymity: one bound for every `sensitive` variable, or ``{variable: bound}``.
    l_variant : {"distinct", "entropy", "grassberger", "recursive"}
        Shannon's or Grassberger's entropy (ARX's estimators); recursive (c, l) with `c`.
    t_distance, beta_variant, delta_variant : {"equal", "ordered", "hierarchical"}, {"basic", "enhanced"}, {"arx", "present"}
        EMD ground distance ("hierarchical": the variable's hierarchy from `hierarchies`); the variants.
    avg_risk, sample_uniques : float, optional
        ARX's AverageReidentificationRisk, SampleUniqueness: released classes / records, or the
        share of unique records, smallest classes suppressed first (:mod:`sdc.identify.criteria`).
    pop_uniques, pop_model, population_size, sampling_fraction : optional
        ARX's PopulationUniqueness: population uniques / N <= pop_uniques, estimated by `pop_model`
        ("dankar", "pitman", "zayatz", "snb"; :mod:`sdc.risk.uniqueness`) from the released
        classes; N = `population_size` (ARX's USA: 317,238,626) or round(n / `sampling_fraction`).
    k_map, k_map_estimator, k_map_significance : optional
        ARX's KMap estimated ("poisson", "zero_truncated_poisson"; N as above): k'-anonymity (:mod:`sdc.identify.kmap`).
    sensitive : str or sequence of str, optional
        The sensitive variables (default: the keys of the mappings given for l, t, beta, ...).
    suppression_limit : float, default 0.04
        Largest share of records suppressed (whole failing classes): ``floor(limit * n)``, as ARX.
    metric : str, default "discernibility"
        One of :data:`~sdc.identify.metrics.METRICS`, in ARX's definitions (that module).
    runner_ups, suppressed_as : int (default 5), {"missing", "*"}
        Next-best transformations reported (found exactly); suppressed keys in ``.data`` missing or ARX's "*".
    exhaustive, hierarchy_base, practical_monotonicity : bool, str, bool
        Every node (True), prune (False) or by size (None: to 256 nodes); relative hierarchy paths' base;
        ARX's practical monotonicity (every model taken as monotone: not proven optimal; default False).
    algorithm : {"exact", "lightning", "genetic", "auto"}, default "exact"
        The proven optimum (up to :data:`~sdc.identify.lattice.MAX_NODES` nodes), ARX's Lightning or
        genetic search (:mod:`~sdc.identify.lightning`, :mod:`~sdc.identify.genetic`; best found), or by size.
    time_limit, node_limit, seed : optional
        A heuristic's budget: seconds, nodes checked ("auto": 30 s); the genetic search's seed.
    attribute_weights, response : mapping, str or sequence of str, optional
        ARX's ``setAttributeWeight``: quasi-identifier -> weight >= 0 (unnamed: 0.5), for the
        multi-dimensional metrics (:mod:`sdc.identify.metrics`; default: unweighted). ARX's
        ``setResponseVariable``: the response variables (not quasi-identifiers) of "classification".
    research_subset, delta_presence : row numbers, mask or Index; (dmin, dmax), optional
        The file is the population, these rows the release (ARX's ``DataSubset``); ARX's ``DPresence``
        dmin <= |E ∩ S| / |E| <= dmax, and `k_map` is ``KMap(k, DataSubset)`` (:mod:`sdc.identify.presence`).
    local, local_records, local_iterations : bool, float, int (default False, None, 100)
        ARX's local recoding of the suppressed records (``optimizeIterative``; with `local_records` r
        ``optimizeIterativeFast(r)``), at most `local_iterations` steps: ``.local``, :mod:`sdc.identify.local`.

    Returns
    -------
    GeneralisationResult

    Raises
    ------
    ValueError
        No transformation meets the models within the suppression limit, or a bad argument.

    Notes
    -----
    :mod:`sdc.identify.criteria`, :mod:`sdc.identify.metrics`; as ARX (Prasser and Kohlmayer 2015), checked on adult.
    """
    start = time.perf_counter()
    args = resolve(data, hierarchies, sensitive, k, l, l_variant, c, t, t_distance, beta, beta_variant, hierarchy_base,
                   delta, delta_variant, alpha, avg_risk, sample_uniques, (pop_uniques, pop_model, population_size, sampling_fraction),
                   (k_map, k_map_estimator, k_map_significance), (research_subset, delta_presence))
    limit, n_up = settings(suppression_limit, metric, suppressed_as, runner_ups, exhaustive, practical_monotonicity)
    how, weights = budget(algorithm, time_limit, node_limit, exhaustive, seed), check_weights(attribute_weights, tuple(args.hierarchies))
    resp = response_variables(data, response, str(metric), tuple(args.hierarchies))
    check_local(local, local_records, local_iterations, metric, args.models)
    data, problem = search_problem(data, args.hierarchies, args.sensitive, args.sensitive_hierarchies, args.subset, weights, resp)
    s, full = _dispatched(problem, args.models, limit, metric, n_up, exhaustive, practical_monotonicity, how)
    res = _result(data, problem, s, args.models, args.hierarchies, metric, limit, suppressed_as, full, start)
    return localised(data, res, problem, args.models, limit, (local_records, local_iterations),
                     (_dispatched, exhaustive, practical_monotonicity, how), start) if local else res
