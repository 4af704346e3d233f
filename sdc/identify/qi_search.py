"""Searches over subsets: which quasi-identifiers to generalise, which listed transformations to combine.

Two searches from the third stage of Khan, Menten and Peeters' pipeline ("An algorithmic
pipeline for GDPR-compliant healthcare data anonymisation", arXiv 2506.02942, 2025:
identification, de-identification, quasi-identifier dimension evaluation; privacy judged by
k-anonymity, l-diversity and t-closeness, utility by non-uniform entropy). The paper's code
was not available to us; this is our reading of the two steps, stated so it can be checked:

:func:`qi_dimension_search`
    For every subset S of the quasi-identifiers, by increasing size, the release in which the
    quasi-identifiers in S are generalised (each to a configured level, one step up its
    hierarchy by default) and the others kept. The answer is the *smallest* S whose release
    meets the targets (default k >= 2, l >= 2, t <= 0.8), and among subsets of that size the
    one with the highest non-uniform-entropy utility.
:func:`transformation_search`
    For every non-empty combination of user-listed transformations (m candidates give
    2^m - 1 combinations; a transformation sets levels of one or more quasi-identifiers, and
    a combination takes the highest level per quasi-identifier), the release is ranked first
    by how far it misses the targets, then by utility.

Targets are met by the classes that are released: classes failing them are suppressed when
their records fit in ``suppression_limit`` (0 by default: nothing suppressed). Achieved values
are the smallest class (k), the smallest l and the largest t over the released classes.

Miss distance: the sum of relative shortfalls, max(0, k* - k)/k* + max(0, l* - l)/l* +
max(0, t - t*)/t*, 0 when every target is met.

Utility: 1 - NUE / NUE_max, with NUE ARX's non-uniform entropy of the release
(:mod:`sdc.identify.metrics`, suppressed records included) and NUE_max = sum_j sum_v a_v
log2(n / a_v), the entropy lost when every quasi-identifier is removed; 1 is the untouched
data, 0 a release without quasi-identifiers. Reported as a share (Khan et al. report it in %).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_fraction, check_int
from sdc.identify.criteria import Models, achieved, class_checks
from sdc.identify.lattice import Problem
from sdc.identify.metrics import MetricTables
from sdc.identify._search_args import resolve

__all__ = ["SubsetSearchResult", "qi_dimension_search", "transformation_search", "MAX_CANDIDATES"]

#: Most candidates a combination search accepts (2^16 - 1 combinations).
MAX_CANDIDATES = 16


@dataclass(frozen=True)
class SubsetSearchResult:
    """Ranked releases of a subset search.

    Attributes
    ----------
    kind : str
        ``"dimension"`` or ``"transformations"``.
    table : pandas.DataFrame
        One row per evaluated subset, best first: the subset, its size, the level per
        quasi-identifier, classes, suppressed records, achieved k / l / t, whether the
        targets are met, the miss distance, NUE and utility.
    best : dict
        The chosen row (the first of `table`).
    meets : bool
        Whether the chosen release meets every target.
    targets : dict
        The targets and the suppression limit.
    seconds : float
    """

    kind: str
    table: pd.DataFrame = field(repr=False)
    best: dict[str, Any]
    meets: bool
    targets: dict[str, Any] = field(repr=False)
    seconds: float

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """The chosen release as rows of (statistic, value, description)."""
        return summary_frame([
            ("kind", self.kind, "what was searched: dimension (subsets) or transformations"),
            ("best", self.best, "the chosen row"), ("meets", self.meets, "whether it meets every target"),
            ("evaluated", len(self.table), "subsets evaluated"), ("targets", self.targets, "the targets"),
            ("seconds", self.seconds, "wall time of the search"),
        ])


class _Evaluator:
    def __init__(self, problem: Problem, models: Models, limit: float) -> None:
        self.p = problem
        self.models = models
        self.limit = int(math.floor(limit * problem.n + 1e-9))
        self.tables = MetricTables(problem)
        self.sidx = {s.name: i for i, s in enumerate(problem.sensitive)}
        self.q = {s.name: s.q for s in problem.sensitive}
        self.nue_max = float(sum(np.sum(q.count0[q.count0 > 0] * np.log2(problem.n / q.count0[q.count0 > 0]))
                                 for q in problem.qis))

    def __call__(self, levels: Sequence[int]) -> dict[str, Any]:
        table, _ = self.p.table_at(levels)
        ok = class_checks(table, self.models, self.sidx, self.q, self.p.trees)
        failing = int(table.counts[~ok].sum())
        kept = ok if failing <= self.limit else np.ones(table.n_groups, dtype=bool)
        ach = achieved(table, kept, self.models, self.sidx, self.q, self.p.trees)
        nue = self.tables.value("nue", levels, table, kept)
        miss = 0.0
        m = self.models
        if m.k is not None and ach["k"] is not None:
            miss += max(0.0, m.k - ach["k"]) / m.k
        for s, target in m.l.items():
            v = ach.get("l", {}).get(s)
            miss += max(0.0, target - (v or 0.0)) / target
        for s, target in m.t.items():
            v = ach.get("t", {}).get(s)
            if v is not None:
                miss += max(0.0, v - target) / target if target > 0 else float(v > 0)
        row: dict[str, Any] = {
            "classes": int(np.count_nonzero(kept)), "suppressed": failing if failing <= self.limit else 0,
            "k": ach["k"],
        }
        for s in m.l:
            row[f"l[{s}]"] = ach.get("l", {}).get(s)
        for s in m.t:
            row[f"t[{s}]"] = ach.get("t", {}).get(s)
        row.update(meets=failing <= self.limit, miss=round(miss, 12), nue=nue,
                   utility=1.0 - nue / self.nue_max if self.nue_max > 0 else 1.0)
        return row


def _setup(data, hierarchies, sensitive, k, l, l_variant, c, t, t_distance, suppression_limit, base):  # noqa: ANN001, ANN202
    args = resolve(data, hierarchies, sensitive, k, l if sensitive or isinstance(l, Mapping) else None,
                   l_variant, c, t if sensitive or isinstance(t, Mapping) else None, t_distance, None, "basic", base)
    hs, sens, models = args.hierarchies, args.sensitive, args.models
    limit = check_fraction(suppression_limit, "suppression_limit")
    problem = Problem.encode(data, hs, sens, args.sensitive_hierarchies)
    return problem, models, limit


def _finish(kind: str, rows: list[dict[str, Any]], models: Models, limit: float, start: float,
            order: list[str], ascending: list[bool]) -> SubsetSearchResult:
    table = pd.DataFrame(rows).sort_values(order, ascending=ascending, kind="stable").reset_index(drop=True)
    best = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in table.iloc[0].to_dict().items()}
    targets = models.to_dict()
    targets["suppression_limit"] = limit
    return SubsetSearchResult(kind=kind, table=table, best=best, meets=bool(table.iloc[0]["meets"]),
                              targets=targets, seconds=time.perf_counter() - start)


def qi_dimension_search(
    data: pd.DataFrame,
    hierarchies: Mapping[str, object],
    *,
    levels: Mapping[str, int] | None = None,
    k: int | None = 2,
    l: float | Mapping[str, float] | None = 2,
    l_variant: str = "distinct",
    c: float = 2.0,
    t: float | Mapping[str, float] | None = 0.8,
    t_distance: str = "equal",
    sensitive: str | Sequence[str] | None = None,
    suppression_limit: float = 0.0,
    hierarchy_base: str | None = None,
) -> SubsetSearchResult:
    """The smallest set of quasi-identifiers to generalise so the release meets the targets.

    Parameters
    ----------
    data, hierarchies
        As in :func:`~sdc.identify.search.generalisation_search`.
    levels : mapping, optional
        The level each quasi-identifier is generalised to when it is in the subset
        (default 1, the first step of its hierarchy).
    k, l, t : targets
        Default k >= 2, l >= 2, t <= 0.8 (Khan et al.); l and t need `sensitive` and are
        skipped without it. None drops a target.
    suppression_limit : float, default 0
        Share of records that may be suppressed (whole classes failing the targets).

    Returns
    -------
    SubsetSearchResult
        ``table`` ranks every subset: those meeting the targets first, by size, then by
        utility; then the others by miss distance and utility. Subsets larger than the
        smallest passing size are not evaluated once one passes.
    """
    start = time.perf_counter()
    problem, models, limit = _setup(data, hierarchies, sensitive, k, l, l_variant, c, t, t_distance,
                                    suppression_limit, hierarchy_base)
    names = problem.names
    lv = {q.name: min(1, q.top) for q in problem.qis}
    for name, v in (levels or {}).items():
        if name not in lv:
            raise ValueError(f"`levels` names {name!r}, which is not a quasi-identifier ({', '.join(map(repr, names))}).")
        top = problem.qis[names.index(name)].top
        lv[name] = check_int(v, f"levels[{name!r}]", min_value=0, max_value=top)
    ev = _Evaluator(problem, models, limit)
    rows: list[dict[str, Any]] = []
    found = False
    for size in range(0, len(names) + 1):
        for subset in itertools.combinations(range(len(names)), size):
            node = [lv[names[j]] if j in subset else 0 for j in range(len(names))]
            row = {"subset": ", ".join(names[j] for j in subset) or "(none)", "size": size}
            row.update({name: v for name, v in zip(names, node)})
            row.update(ev(node))
            found = found or row["meets"]
            rows.append(row)
        if found:
            break
    for r in rows:
        r["rank_key"] = 0 if r["meets"] else 1
    res = _finish("dimension", rows, models, limit, start, ["rank_key", "size", "miss", "utility"],
                  [True, True, True, False])
    table = res.table.drop(columns="rank_key")
    best = {k_: v for k_, v in res.best.items() if k_ != "rank_key"}
    return SubsetSearchResult(kind=res.kind, table=table, best=best, meets=res.meets, targets=res.targets,
                              seconds=res.seconds)


def transformation_search(
    data: pd.DataFrame,
    hierarchies: Mapping[str, object],
    transformations: Mapping[str, Mapping[str, int]] | Sequence[tuple[str, int]],
    *,
    k: int | None = 2,
    l: float | Mapping[str, float] | None = 2,
    l_variant: str = "distinct",
    c: float = 2.0,
    t: float | Mapping[str, float] | None = 0.8,
    t_distance: str = "equal",
    sensitive: str | Sequence[str] | None = None,
    suppression_limit: float = 0.0,
    hierarchy_base: str | None = None,
) -> SubsetSearchResult:
    """Every combination of listed transformations, ranked by how far it misses the targets,
    then by utility.

    Parameters
    ----------
    transformations : mapping or sequence
        The candidates: ``{"age in decades": {"age": 2}, "zip3": {"zip": 2}, ...}`` (a name
        -> the levels it sets), or a list of ``(variable, level)`` pairs (named
        ``variable:level``). At most 16.
    Other parameters as in :func:`qi_dimension_search`.

    Returns
    -------
    SubsetSearchResult
        ``table`` has one row per combination (``2^m - 1`` rows), sorted by miss distance
        (0 = every target met), then utility (highest first), then fewer transformations.
    """
    start = time.perf_counter()
    problem, models, limit = _setup(data, hierarchies, sensitive, k, l, l_variant, c, t, t_distance,
                                    suppression_limit, hierarchy_base)
    names = problem.names
    cands: dict[str, dict[str, int]] = {}
    if isinstance(transformations, Mapping):
        items = list(transformations.items())
    else:
        items = []
        for tr in transformations:
            if not isinstance(tr, (tuple, list)) or len(tr) != 2:
                raise TypeError(f"each transformation must be a (variable, level) pair; got {tr!r}.")
            items.append((f"{tr[0]}:{tr[1]}", {tr[0]: tr[1]}))
    if not items:
        raise ValueError("`transformations` must list at least one transformation.")
    if len(items) > MAX_CANDIDATES:
        raise ValueError(f"`transformations` lists {len(items)} candidates; at most {MAX_CANDIDATES} "
                         f"({2 ** MAX_CANDIDATES - 1} combinations) are searched.")
    for name, spec in items:
        if not isinstance(spec, Mapping) or not spec:
            raise TypeError(f"transformation {name!r} must map quasi-identifiers to levels; got {spec!r}.")
        out = {}
        for var, lev in spec.items():
            if var not in names:
                raise ValueError(f"transformation {name!r} names {var!r}, which is not a quasi-identifier "
                                 f"({', '.join(map(repr, names))}).")
            top = problem.qis[names.index(var)].top
            out[var] = check_int(lev, f"level of {var!r} in transformation {name!r}", min_value=0, max_value=top)
        cands[str(name)] = out
    ev = _Evaluator(problem, models, limit)
    keys = list(cands)
    rows = []
    for size in range(1, len(keys) + 1):
        for combo in itertools.combinations(keys, size):
            node = [0] * len(names)
            for name in combo:
                for var, lev in cands[name].items():
                    j = names.index(var)
                    node[j] = max(node[j], lev)
            row = {"combination": " + ".join(combo), "size": size}
            row.update({name: v for name, v in zip(names, node)})
            row.update(ev(node))
            rows.append(row)
    return _finish("transformations", rows, models, limit, start, ["miss", "utility", "size"], [True, False, True])
