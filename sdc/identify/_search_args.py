"""The arguments of a generalisation search, checked once (:func:`resolve`): the hierarchies of
the quasi-identifiers and, for t-closeness with hierarchical distance, of the sensitive
variables (given in the same ``hierarchies`` mapping under their names), the sensitive
variables and the privacy models (:class:`sdc.identify.criteria.Models`). Every bad value is
one line naming the argument.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc._validation import (
    subset_rows, check_columns, check_fraction, check_frame, check_int, check_number, check_option, did_you_mean,
)
from sdc.identify.criteria import BETA_VARIANTS, DELTA_VARIANTS, L_VARIANTS, POP_MODELS, T_DISTANCES, Models
from sdc.identify.hierarchy import Hierarchy, as_hierarchy
from sdc.identify.kmap import K_MAP_ESTIMATORS, KMapEstimate, k_map_estimate
from sdc.identify.lightning import ALGORITHMS
from sdc.identify.metrics import METRICS
from sdc.risk.uniqueness import MAX_POPULATION, USA_POPULATION

__all__ = ["Resolved", "resolve", "settings", "budget", "attribute_weights", "response_variables", "SUPPRESSED_AS",
           "ARX_DEFAULT_WEIGHT"]

SUPPRESSED_AS = ("missing", "*")


@dataclass(frozen=True)
class Resolved:
    """Quasi-identifier hierarchies (in lattice order), sensitive variables (those with a model
    first), the models, and the sensitive variables' hierarchies (hierarchical distance)."""

    hierarchies: dict[str, Hierarchy]
    sensitive: list[str]
    models: Models
    sensitive_hierarchies: dict[str, Hierarchy]
    #: The research subset's row positions (sorted), with delta-presence or k-map with it.
    subset: np.ndarray | None = None


def _presence(delta_presence: object, research_subset: object, k_map: object) -> tuple[float, float] | None:
    """delta-presence's (dmin, dmax), checked: 0 <= dmin <= dmax <= 1, with a research subset."""
    if research_subset is None:
        if delta_presence is not None:
            raise ValueError("`delta_presence` needs `research_subset`: the rows of the population that are released.")
        return None
    if delta_presence is None and k_map is None:
        raise ValueError("`research_subset` needs `delta_presence` or `k_map` (the models of a population and its subset).")
    if delta_presence is None:
        return None
    if isinstance(delta_presence, (str, bytes)) or not hasattr(delta_presence, "__len__") or len(delta_presence) != 2:
        raise TypeError(f"`delta_presence` must be a pair (dmin, dmax); got {delta_presence!r}.")
    lo = check_fraction(delta_presence[0], "delta_presence dmin")
    hi = check_fraction(delta_presence[1], "delta_presence dmax")
    if lo > hi:
        raise ValueError(f"`delta_presence` dmin {lo:g} is above dmax {hi:g}; give dmin <= dmax.")
    return (float(lo), float(hi))


def _per_sensitive(value: object, name: str, sensitive: list[str], check) -> dict[str, float]:  # noqa: ANN001
    if value is None:
        return {}
    if isinstance(value, Mapping):
        out = {}
        for s, v in value.items():
            if s not in sensitive:
                raise ValueError(f"`{name}` names {s!r}, which is not a sensitive variable ({', '.join(map(repr, sensitive)) or 'none given'}).")
            out[s] = check(v, f"{name}[{s!r}]")
        return out
    if not sensitive:
        raise ValueError(f"`{name}` needs `sensitive`: the sensitive variable(s) it applies to.")
    v = check(value, name)
    return {s: v for s in sensitive}


def _sensitive_names(data: pd.DataFrame, sensitive: object, per_model: tuple[object, ...]) -> list[str]:
    sens: list[str] = []
    if sensitive is not None:
        sens = list(check_columns(data, sensitive, role="sensitive"))
    for m in per_model:
        if isinstance(m, Mapping):
            sens += [s for s in m if s not in sens and s in data.columns]
            for s in m:
                if s not in data.columns:
                    check_columns(data, [s], role="sensitive")
    return sens


def _split_trees(hierarchies: Mapping[str, object], sens: list[str], t: object, t_distance: str) -> tuple[list, list]:
    """The names of `hierarchies` that are quasi-identifiers, and those that are the trees of
    sensitive variables (only with the hierarchical distance, for variables with a t bound)."""
    if t_distance != "hierarchical" or t is None:
        return list(hierarchies), []
    with_t = list(t) if isinstance(t, Mapping) else sens
    trees = [s for s in with_t if s in hierarchies]
    missing = [s for s in with_t if s not in hierarchies]
    if missing:
        raise ValueError(
            f"`t_distance=\"hierarchical\"` needs the hierarchy of sensitive variable {missing[0]!r}: give it in "
            f"`hierarchies` under its name (it is then its tree, not a quasi-identifier)."
        )
    return [q for q in hierarchies if q not in trees], trees


def _population(data: pd.DataFrame, pop_uniques: object, pop_model: object, population_size: object,
                sampling_fraction: object, k_map: object = None) -> tuple[float | None, str, int | None]:
    """Population uniqueness's threshold, estimator and the population size N, checked: N is
    `population_size` (at least the records) or round(n / `sampling_fraction`), as ARX's
    ``ARXPopulationModel``; exactly one of them with `pop_uniques` or `k_map`, neither without."""
    check_option(pop_model, "pop_model", POP_MODELS)
    users = [name for name, v in (("pop_uniques", pop_uniques), ("k_map", k_map)) if v is not None]
    if not users:
        if population_size is not None or sampling_fraction is not None:
            raise ValueError("`population_size` and `sampling_fraction` need `pop_uniques` (the population uniqueness "
                             "limit) or `k_map`.")
        return None, str(pop_model), None
    pu = None if pop_uniques is None else check_number(pop_uniques, "pop_uniques", low=0, high=1)
    n = len(data)
    if (population_size is None) == (sampling_fraction is None):
        raise ValueError(f"`{users[0]}` needs exactly one of `population_size` and `sampling_fraction` "
                         f"(ARX's USA population is population_size={USA_POPULATION}).")
    if population_size is not None:
        return pu, str(pop_model), check_int(population_size, "population_size", min_value=max(n, 1), max_value=MAX_POPULATION)
    f = check_fraction(sampling_fraction, "sampling_fraction", closed="right")
    N = int(round(n / f))
    if N > MAX_POPULATION:
        raise ValueError(f"`sampling_fraction` gives a population of {N} records, more than {MAX_POPULATION}; got {f!r}.")
    return pu, str(pop_model), max(N, 1)


def _k_map(data: pd.DataFrame, k_map: object, estimator: object, significance: object,
           population_size: int | None) -> KMapEstimate | None:
    """k-map's k, estimator and significance checked, and its derived class size (:mod:`sdc.identify.kmap`)."""
    check_option(estimator, "k_map_estimator", K_MAP_ESTIMATORS)
    alpha = check_fraction(significance, "k_map_significance")
    if k_map is None:
        return None
    km = check_int(k_map, "k_map", min_value=1)
    assert population_size is not None  # _population asked for it
    return k_map_estimate(km, len(data), population_size, alpha, str(estimator))


def resolve(
    data: pd.DataFrame, hierarchies: Mapping[str, object], sensitive: object, k: object, l: object,
    l_variant: str, c: float, t: object, t_distance: str, beta: object, beta_variant: str, base: object,
    delta: object = None, delta_variant: str = "arx", alpha: object = None, avg_risk: object = None,
    sample_uniques: object = None, population: tuple = (None, "dankar", None, None),
    kmap: tuple = (None, "poisson", 0.01), subset: tuple = (None, None),
) -> Resolved:
    """Check every argument of the search; see :func:`sdc.identify.search.generalisation_search`."""
    check_frame(data)
    if not isinstance(hierarchies, Mapping) or not hierarchies:
        raise TypeError("`hierarchies` must be a non-empty mapping from each quasi-identifier to its hierarchy.")
    check_option(t_distance, "t_distance", T_DISTANCES)
    sens = _sensitive_names(data, sensitive, (l, t, beta, delta, alpha))
    qi_names, tree_names = _split_trees(hierarchies, sens, t, t_distance)
    if not qi_names:
        raise ValueError("`hierarchies` names no quasi-identifier: only the sensitive variables' trees.")
    qis = check_columns(data, qi_names, role="hierarchies")
    hs = {q: as_hierarchy(hierarchies[q], name=q, base=base) for q in qis}  # type: ignore[arg-type]
    sh = {s: as_hierarchy(hierarchies[s], name=s, base=base) for s in tree_names}  # type: ignore[arg-type]
    both = [s for s in sens if s in qis]
    if both:
        raise ValueError(f"{both[0]!r} is both a quasi-identifier and a sensitive variable; choose one role.")
    check_option(l_variant, "l_variant", L_VARIANTS)
    check_option(beta_variant, "beta_variant", BETA_VARIANTS)
    check_option(delta_variant, "delta_variant", DELTA_VARIANTS)
    kk = None if k is None else check_int(k, "k", min_value=1)
    ls = _per_sensitive(l, "l", sens, lambda v, n: check_number(v, n, low=1, high=math.inf))
    if l_variant not in ("entropy", "grassberger"):
        for s_, v in ls.items():
            if not float(v).is_integer():
                raise ValueError(f"`l` must be a whole number for {l_variant} l-diversity; got {v:g} for {s_!r} "
                                 "(entropy l-diversity takes any l >= 1).")
    ts = _per_sensitive(t, "t", sens, lambda v, n: check_fraction(v, n))
    bs = _per_sensitive(beta, "beta", sens, lambda v, n: check_number(v, n, low=0, high=math.inf))
    ds = _per_sensitive(delta, "delta", sens, lambda v, n: check_number(v, n, low=0, high=math.inf, low_open=True))
    als = _per_sensitive(alpha, "alpha", sens, lambda v, n: check_number(v, n, low=0, high=1, low_open=True))
    ar = None if avg_risk is None else check_number(avg_risk, "avg_risk", low=0, high=1, low_open=True)
    su = None if sample_uniques is None else check_fraction(sample_uniques, "sample_uniques")
    research_subset, delta_presence = subset
    dp = _presence(delta_presence, research_subset, kmap[0])
    rows = None if research_subset is None else subset_rows(data, research_subset)
    with_subset = rows is not None
    pu, pm, pn = _population(data, *population, k_map=None if with_subset else kmap[0])
    km = None if with_subset else _k_map(data, *kmap, population_size=pn)
    kmp = check_int(kmap[0], "k_map", min_value=1) if with_subset and kmap[0] is not None else None
    cc = check_number(c, "c", low=0, high=math.inf, low_open=True)
    models = Models(k=kk, k_map=km, l=ls, l_variant=l_variant, c=cc, t=ts, t_distance=t_distance, beta=bs,
                    beta_variant=beta_variant, delta=ds, delta_variant=delta_variant, alpha=als,
                    avg_risk=ar, sample_uniques=su, pop_uniques=pu, pop_model=pm, population_size=pn,
                    presence=dp, k_map_population=kmp, subset=None if rows is None else (int(rows.size), len(data)))
    if models.empty:
        raise ValueError("no privacy model given: set at least one of `k`, `k_map`, `l`, `t`, `beta`, `delta`, `alpha`, "
                         "`avg_risk`, `sample_uniques`, `pop_uniques`.")
    used = set(ls) | set(ts) | set(bs) | set(ds) | set(als)
    sens = [s for s in sens if s in used] + [s for s in sens if s not in used]
    return Resolved(hierarchies=hs, sensitive=sens, models=models, sensitive_hierarchies=sh, subset=rows)


def settings(suppression_limit: object, metric: object, suppressed_as: object, runner_ups: object,
             exhaustive: object, practical: object) -> tuple[float, int]:
    """The search's settings checked (one line each): the suppression limit and the runner-ups."""
    limit = check_fraction(suppression_limit, "suppression_limit")
    check_option(metric, "metric", METRICS)
    check_option(suppressed_as, "suppressed_as", SUPPRESSED_AS)
    n_up = check_int(runner_ups, "runner_ups", min_value=0)
    if exhaustive is not None and not isinstance(exhaustive, bool):
        raise TypeError(f"`exhaustive` must be True, False or None; got {exhaustive!r}.")
    if not isinstance(practical, bool):
        raise TypeError(f"`practical_monotonicity` must be True or False; got {practical!r}.")
    return limit, n_up


def budget(algorithm: object, time_limit: object, node_limit: object, exhaustive: object,
           seed: object = 0) -> tuple[str, float | None, int | None, int]:
    """The algorithm, a heuristic's budget and the genetic search's seed checked (one line
    each): a time limit in seconds (> 0) and a node limit (>= 1), each optional, neither with
    ``algorithm="exact"``; the seed a whole number >= 0."""
    check_option(algorithm, "algorithm", ALGORITHMS)
    tl = None if time_limit is None else check_number(time_limit, "time_limit", low=0, high=math.inf, low_open=True)
    nl = None if node_limit is None else check_int(node_limit, "node_limit", min_value=1)
    sd = check_int(seed, "seed", min_value=0)
    if algorithm == "exact" and (tl is not None or nl is not None):
        raise ValueError("`time_limit` and `node_limit` are a heuristic's budget: they need algorithm=\"lightning\", "
                         "\"genetic\" or \"auto\" (the exact search runs until the optimum is proven).")
    if algorithm in ("lightning", "genetic") and exhaustive:
        raise ValueError(f"`exhaustive=True` evaluates every node: it needs algorithm=\"exact\", not \"{algorithm}\".")
    return str(algorithm), (None if tl is None else float(tl)), nl, sd


#: ARX's weight of a quasi-identifier given none (``ARXConfiguration.getAttributeWeight``).
ARX_DEFAULT_WEIGHT = 0.5


def attribute_weights(value: object, quasi_identifiers: tuple[str, ...]) -> tuple[float, ...] | None:
    """The metric's attribute weights per quasi-identifier, checked and normalised as ARX's
    ``AbstractMetricMultiDimensional`` does: a quasi-identifier not named weighs ARX's default
    0.5; each weight is divided by the largest (all 0: every weight 1). None when the weights
    come out all 1 (the unweighted metrics, byte for byte)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError("`attribute_weights` must be a mapping of quasi-identifier -> weight (a number >= 0); "
                        f"got {type(value).__name__}.")
    for name in value:
        if name not in quasi_identifiers:
            raise ValueError(f"`attribute_weights` names {name!r}, which is not a quasi-identifier (one of "
                             f"{', '.join(map(repr, quasi_identifiers))}){did_you_mean(name, quasi_identifiers)}.")
    raw = [check_number(value[q], f"attribute_weights[{q!r}]", low=0, high=math.inf) if q in value
           else ARX_DEFAULT_WEIGHT for q in quasi_identifiers]
    top = max(raw, default=0.0)
    w = [1.0] * len(raw) if top == 0 else [x / top for x in raw]
    return None if all(x == 1.0 for x in w) else tuple(w)


def response_variables(data: pd.DataFrame, response: object, metric: str, quasi_identifiers: tuple[str, ...]) -> tuple[str, ...]:
    """The classification metric's response variables, checked (one line each): columns of the
    data, not quasi-identifiers, given exactly when ``metric="classification"``."""
    names = () if response is None else check_columns(data, response, role="response", allow_empty=True)
    if metric == "classification" and not names:
        raise ValueError("metric \"classification\" needs `response`: the column(s) the released data should still "
                         "predict (e.g. response=[\"salary-class\"]).")
    if metric != "classification" and names:
        raise ValueError(f"`response` is read by metric=\"classification\" only; got metric={metric!r}.")
    both = [r for r in names if r in quasi_identifiers]
    if both:
        raise ValueError(f"response variable {both[0]!r} is a quasi-identifier; the classification metric takes "
                         "response variables that are not generalised.")
    return tuple(names)
