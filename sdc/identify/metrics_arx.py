"""ARX's further quality models of a transformation: ambiguity, KL divergence, normalised
non-uniform entropy, entropy-based information loss and publisher payout.

Notation as in :mod:`sdc.identify.metrics`; besides, ``r_j(g)`` is the number of rows of
quasi-identifier j's hierarchy (its domain, D_j rows) that generalise to g, so that
``share_j(g) = r_j(g) / D_j``; a class E has the generalised values ``g_j(E)``; S records are
suppressed. Definitions read from ARX's sources (arx-deidentifier/arx, master aacd487,
``src/main/org/deidentifier/arx/metric/v2``); nothing of ARX's code is copied.

``"ambiguity"`` — ``Metric.createAmbiguityMetric()`` (``MetricSDNMAmbiguity``; Nergiz and Clifton
    2007): sum over released classes of |E| prod_j r_j(g_j(E)), plus S prod_j D_j.
``"kl_divergence"`` — ``createKLDivergenceMetric()`` (``MetricSDNMKLDivergence``; Kifer and Gehrke
    2006, in ARX's form): with f_t the share of the records equal to record t on all
    quasi-identifiers and q_t the share of t's class spread evenly over the class's area
    (|E| / n / prod_j r_j(g_j(E)); for a suppressed record S / n / prod_j D_j), the sum over all
    *records* t of f_t log2(f_t / q_t) (ARX sums per record, so each distinct tuple counts
    c_t times).
``"nue_normalised"`` — ``createNormalizedEntropyMetric()`` (``MetricMDNUNMNormalizedEntropy``):
    ARX's non-uniform entropy per quasi-identifier (``"nue"``, rounded) divided by its value at
    the coarsest loss, round(sum_v a_v log2(n / a_v)), summed over the quasi-identifiers (ARX's
    default aggregate, SUM, weighted by the attribute weights). A quasi-identifier with one value (bound 0) contributes 0 (ARX
    divides by zero there).
``"entropy_loss"`` — ``createEntropyBasedInformationLossMetric()``
    (``MetricSDNMEntropyBasedInformationLoss``; Prasser et al. 2017, "A scalable and pragmatic
    method for the safe sharing of high-quality health data"): per class
    IL(E) = 1 + log10(prod_j share_j(g_j(E))) / log10(prod_j D_j), in [0, 1]; the metric is
    sum_kept g |E| IL(E) + s S, with ARX's factors at its default generalisation/suppression
    factor 0.5 (g = s = 1): sum_kept |E| IL(E) + S.
``"publisher_payout"`` — ``createPublisherPayoutMetric(false)`` (``MetricSDNMPublisherPayout``,
    prosecutor attacker; Wan et al. 2015) with ARX's default ``ARXCostBenefitConfiguration``
    (publisher benefit B = 1200, publisher loss 300, adversary gain 300, adversary cost 4): per
    released class the publisher's payout per record is B (1 - IL(E)) minus, when the
    adversary's expected payout 300 p - 4 is positive (p = 1 / |E|), 300 p; the metric is the
    payout lost, sum_kept |E| (B - payout(E)) + S B. Lower is better.

Monotonicity (ARX declares all five non-monotonic; we prune only with true lower bounds):
without suppression ambiguity, entropy_loss, publisher_payout's information part and
nue_normalised only grow under generalisation (each record's r_j and share_j grow); a
suppressed record costs the most a record can cost, so each metric is at least its value with
every class released. That value is the bound: exact and per quasi-identifier for
entropy_loss (log10 of a product is a sum) and nue_normalised, over the level-0 groups for
ambiguity (when the lattice is small enough), B times entropy_loss's bound for the payout.
KL divergence has no bound (it can fall under generalisation).

``"classification"`` — ``createClassificationMetric()`` (``MetricSDClassification``; Iyengar
    2002's classification metric, in ARX's form) with response variables (ARX's
    ``DataDefinition.setResponseVariable``; here not quasi-identifiers). With ARX's penalties at
    its default gs factor 0.5 (a suppressed record 0.5, a record outside its class's majority
    response 1, every record of a class whose most frequent response is tied 1; in general
    :func:`classification_penalties`), per response variable r and released class E with
    top_r(E) the count of its most frequent response: (|E| - top_r(E)) when that value is
    unique, else |E|; plus 0.5 R per suppressed record (R response variables); the sum divided
    by n times the largest penalty (1). In [0, R]; a missing response is one more value.
    No bound and no monotonicity (ARX declares none): merging two tied classes or suppressing
    one can lower the value, so the search prunes on the privacy models only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from sdc.core.generalise import GroupTable, dense_ids, pack_codes

# `tables` is a sdc.identify.metrics.MetricTables and `lattice` a sdc.identify.lattice.Lattice
# (not imported: metrics imports this module)
MetricTables = Lattice = Any

__all__ = ["ARX_EXTRA", "PAYOUT_DEFAULTS", "CLASSIFICATION_GS_FACTOR", "classification_penalties", "extra_value",
           "extra_bounds"]

ARX_EXTRA = ("ambiguity", "kl_divergence", "nue_normalised", "entropy_loss", "publisher_payout", "classification")
#: ARX's generalisation/suppression factor of ``createClassificationMetric()`` (its default).
CLASSIFICATION_GS_FACTOR = 0.5
# ARX's ARXCostBenefitConfiguration defaults
PAYOUT_DEFAULTS = {"publisher_benefit": 1200.0, "publisher_loss": 300.0, "adversary_gain": 300.0,
                   "adversary_cost": 4.0}
_AMBIGUITY_BOUND_CELLS = 5e7  # lattice nodes x level-0 groups for the exact ambiguity bound


def _class_rows(tables: MetricTables, levels: Sequence[int], table: GroupTable) -> np.ndarray:
    """Per class, prod_j r_j(g_j(E)) (its area, ARX's share x domain size per dimension)."""
    area = np.ones(table.n_groups)
    for j, lev in enumerate(levels):
        area = area * tables.rows_of[j][lev][table.codes[j]]
    return area


def _entropy_il(tables: MetricTables, levels: Sequence[int], table: GroupTable) -> np.ndarray:
    """Per class, ARX's entropy-based information loss IL(E) in [0, 1]."""
    max_il = tables.log10_domain
    if max_il == 0 or not math.isfinite(max_il):
        return np.zeros(table.n_groups)
    prod = np.ones(table.n_groups)
    for j, lev in enumerate(levels):  # ARX multiplies the shares, then takes log10
        prod = prod * tables.share[j][lev][table.codes[j]]
    return np.clip(np.log10(prod) / max_il + 1.0, 0.0, 1.0)


def _payout(il: np.ndarray, counts: np.ndarray, costs: dict[str, float]) -> np.ndarray:
    """Per class, ARX's expected publisher payout per record (prosecutor: p = 1 / |E|)."""
    p = 1.0 / counts.astype(float)
    attack = costs["adversary_gain"] * p - costs["adversary_cost"] > 0
    return costs["publisher_benefit"] * (1.0 - il) - np.where(attack, costs["publisher_loss"] * p, 0.0)


def _base_classes(tables: MetricTables, levels: Sequence[int], table: GroupTable) -> np.ndarray:
    """For each level-0 group of the problem, the index of its class in `table`."""
    p = tables.problem
    base = p.base
    mapped = [p.qis[j].to_level[lev][base.codes[j]] for j, lev in enumerate(levels)]
    cols = [np.concatenate([t, m]) for t, m in zip(table.codes, mapped)]
    packed, space = pack_codes(cols, table.cards)
    ids, _ = dense_ids(packed, space)
    g = table.n_groups
    where = np.empty(int(ids.max()) + 1 if ids.size else 0, dtype=np.int64)
    where[ids[:g]] = np.arange(g, dtype=np.int64)
    return where[ids[g:]]


def _kl(tables: MetricTables, levels: Sequence[int], table: GroupTable, kept: np.ndarray) -> float:
    n = float(tables.problem.n)
    cnt = table.counts.astype(float)
    s = float(cnt[~kept].sum())
    cls = _base_classes(tables, levels, table)
    area = _class_rows(tables, levels, table)
    c = tables.problem.base.counts.astype(float)
    f = c / n
    k = kept[cls]
    q = np.where(k, cnt[cls] / n / area[cls], s / n / tables.domain_product)
    return float(np.sum(c * f * np.log2(f / q)))


def classification_penalties(gs: float = CLASSIFICATION_GS_FACTOR) -> tuple[float, float, float]:
    """ARX's penalties of ``MetricSDClassification`` from its gs factor: (suppressed record,
    record outside its class's majority response, record of a class without a majority), read
    from ``Metric``'s factors: gs, g = 1 - 2 max(gs - 0.5, 0), s = min(2 gs, 1); at 0.5: (0.5, 1, 1)."""
    g = 1.0 if gs <= 0.5 else 1.0 - 2.0 * (gs - 0.5)
    s = 2.0 * gs if gs < 0.5 else 1.0
    return float(gs), g, s


def _classification(tables: MetricTables, table: GroupTable, kept: np.ndarray,
                    gs: float = CLASSIFICATION_GS_FACTOR) -> float:
    """ARX's classification metric (see the module's docstring), its penalties from `gs`."""
    p = tables.problem
    if not p.response:
        raise ValueError("metric \"classification\" needs `response`: the response variable(s) of the classification.")
    pen_supp, pen_minor, pen_tie = classification_penalties(gs)
    cnt = table.counts.astype(float)
    g = table.n_groups
    total = float(cnt[~kept].sum()) * len(p.response) * pen_supp
    for r in range(len(p.response)):
        c = table.cells[p.response_cells + r]
        top = np.zeros(g)
        np.maximum.at(top, c.group, c.count.astype(float))
        at_top = np.bincount(c.group, weights=(c.count == top[c.group]).astype(float), minlength=g)
        per = np.where(at_top == 1, (cnt - top) * pen_minor, cnt * pen_tie)
        total += float(per[kept].sum())
    return total / (max(pen_supp, pen_minor, pen_tie) * float(p.n))


def extra_value(tables: MetricTables, metric: str, levels: Sequence[int], table: GroupTable,
                kept: np.ndarray) -> float:
    """The value of one of :data:`ARX_EXTRA` at a node (classes `table`, released `kept`)."""
    cnt = table.counts.astype(float)
    n_supp = float(cnt[~kept].sum())
    if metric == "ambiguity":
        area = _class_rows(tables, levels, table)
        return float(np.sum(cnt[kept] * area[kept]) + n_supp * tables.domain_product)
    if metric == "kl_divergence":
        return _kl(tables, levels, table, kept)
    if metric == "classification":
        return _classification(tables, table, kept)
    if metric == "nue_normalised":
        out = 0.0  # ARX's SUM aggregate, weighted (ILMultiDimensionalSum)
        for v, u, w in zip(tables.nue_columns(levels, table, kept), tables.nue_upper, tables.w):
            out += (v / u if u else 0.0) * w
        return out
    il = _entropy_il(tables, levels, table)
    if metric == "entropy_loss":
        return float(np.sum(cnt[kept] * il[kept]) + n_supp)
    if metric == "publisher_payout":
        b = PAYOUT_DEFAULTS["publisher_benefit"]
        pay = _payout(il[kept], cnt[kept], PAYOUT_DEFAULTS)
        return float(np.sum(cnt[kept] * (b - pay)) + n_supp * b)
    raise ValueError(f"unknown metric {metric!r}")


def _entropy_bound(tables: MetricTables, lattice: Lattice) -> np.ndarray:
    """sum_E |E| IL(E) with every class released: n + sum_j sum_v a_v log10 share_j(g(v)) / maxIL."""
    n = float(tables.problem.n)
    max_il = tables.log10_domain
    if max_il == 0 or not math.isfinite(max_il):
        return np.zeros(lattice.size)
    total = np.full(lattice.size, n)
    for j, logs in enumerate(tables.log10_share):
        total = total + logs[lattice.levels[:, j]] / max_il
    return np.maximum(total, 0.0)


def _ambiguity_bound(tables: MetricTables, lattice: Lattice) -> np.ndarray:
    """sum over level-0 groups of |group| prod_j r_j (every class released), when cheap; else n."""
    p = tables.problem
    base = p.base
    if lattice.size * max(base.n_groups, 1) > _AMBIGUITY_BOUND_CELLS:
        return np.full(lattice.size, float(p.n))
    out = np.empty(lattice.size)
    c = base.counts.astype(float)
    for i in range(lattice.size):  # one vectorised pass over the level-0 groups per node
        area = np.ones(base.n_groups)
        for j, lev in enumerate(lattice.levels[i]):
            area = area * tables.rows_of[j][lev][p.qis[j].to_level[lev][base.codes[j]]]
        out[i] = float(np.dot(c, area))
    return out


def extra_bounds(tables: MetricTables, metric: str, lattice: Lattice) -> np.ndarray:
    """Lower bounds of one of :data:`ARX_EXTRA` for every node (see the module's docstring)."""
    slack = 1.0 - 1e-12  # the bounds are exact sums; leave room for rounding
    if metric == "ambiguity":
        return _ambiguity_bound(tables, lattice) * slack
    if metric == "nue_normalised":
        total = np.zeros(lattice.size)
        for j, u in enumerate(tables.nue_upper):
            if u:
                total = total + tables.nue_rounded[j][lattice.levels[:, j]] / u * tables.w[j]
        return total * slack
    if metric == "entropy_loss":
        return _entropy_bound(tables, lattice) * slack
    if metric == "publisher_payout":
        return PAYOUT_DEFAULTS["publisher_benefit"] * _entropy_bound(tables, lattice) * slack
    return np.full(lattice.size, -np.inf)  # kl_divergence, classification
