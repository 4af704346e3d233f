"""Information-loss metrics of a transformation, in ARX's definitions and units.

Notation: n records; a transformation puts them in classes E; a class that fails the privacy
models is suppressed (S = records suppressed); for quasi-identifier j, a_v counts the records
with original value v and b_g those whose generalised value is g (all records, suppressed
ones included); ``share_j(g)`` is the fraction of the hierarchy's rows (its domain, including
values absent from the data) that generalise to g.

``"discernibility"`` — ARX's default ``Metric.createDiscernabilityMetric()``
    (``MetricSDNMDiscernability``; Bayardo and Agrawal 2005): sum over released classes of
    |E|^2, plus n for every suppressed record: DM = sum_kept |E|^2 + n * S.
``"dm_star"`` — ``createDiscernabilityMetric(true)`` (``MetricSDDiscernability``, DM*):
    sum over all classes of |E|^2, suppressed ones counted as classes.
``"nue"`` — non-uniform entropy, ARX's ``createEntropyMetric()`` (``MetricMDNUNMEntropy``;
    Gionis and Tassa 2009, de Waal and Willenborg 1999): per quasi-identifier
    sum_v a_v log2(b_g(v) / a_v), plus, for the suppressed records, sum_g c_g log2(S / c_g)
    with c_g the suppressed records of generalised value g; summed over quasi-identifiers.
``"nue_monotonic"`` — ``createEntropyMetric(true)`` (``MetricMDNUEntropy``): the first term only.
``"loss"`` — ARX's Loss (``MetricMDNMLoss``, generalisation/suppression factor 0.5, geometric
    mean; Iyengar 2002): per quasi-identifier, L_j = sum_kept |E| share_j(g_E) + S, normalised
    to [0, 1] as (L_j - n/D_j) / (n - n/D_j) (D_j the hierarchy's rows), then aggregated as
    prod_j (1 + L_j)^(1/d) - 1 over the d quasi-identifiers. 0 = untouched, 1 = all suppressed.
``"avg_class_size"`` — ARX's AECS (``MetricSDAECS``; LeFevre et al. 2006): n divided by the
    number of released classes, the suppressed records counting as one more class.
``"precision"`` — ARX's Precision, ``createPrecisionMetric(false)`` (``MetricMDNMPrecision``;
    Sweeney 2002): per quasi-identifier at level L_j of H_j, ((n - S) L_j / H_j + S) / n (a
    suppressed record costs 1), averaged over the quasi-identifiers.
``"precision_monotonic"`` — ``createPrecisionMetric(true)`` (``MetricMDPrecision``): the mean of
    L_j / H_j, suppression ignored.
``"height"`` — ARX's Height (``createHeightMetric()``, ``MetricMDHeight``): the sum of the levels.

Attribute weights (ARX's ``ARXConfiguration.setAttributeWeight``, read in
``AbstractMetricMultiDimensional.initializeInternal``): each quasi-identifier j has a weight
(ARX's default 0.5), divided by the largest so that the largest is 1 (all 0: every weight 1);
the multi-dimensional metrics (both NUEs, Loss, both Precisions, Height, normalised NUE) weigh
their per quasi-identifier values v_j in ARX's aggregate functions: SUM sum_j w_j v_j
(``ILMultiDimensionalSum``; NUEs, Height), ARITHMETIC_MEAN sum_j (v_j / d) w_j
(``ILMultiDimensionalArithmeticMean``; Precisions), GEOMETRIC_MEAN prod_j (w_j v_j + 1)^(1/d) - 1
(``ILMultiDimensionalGeometricMean``; Loss). The single-dimensional metrics (DM, DM*, AECS,
ambiguity, KL, entropy loss, payout) ignore them, as in ARX. Equal weights are every weight 1:
the unweighted values, byte for byte.

As in ARX, ``loss`` per quasi-identifier and ``nue`` per quasi-identifier are rounded down to
10 decimals before aggregation (``Metric.round``). Lower is better for all nine.

Lower bounds (for pruning): ``nue``/``nue_monotonic`` and ``loss`` have a generalisation-only
part that needs no grouping and never exceeds the metric; DM* never exceeds DM, grows under
generalisation, and is at least n^2 / (number of classes), so at least n^2 / min(n, product
of the quasi-identifiers' value counts at the node's levels); AECS is at least n / classes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from sdc.core.generalise import GroupTable
from sdc.identify.lattice import Lattice, Problem
from sdc.identify.metrics_arx import ARX_EXTRA, extra_bounds, extra_value

__all__ = ["METRICS", "MetricTables", "metric_value", "dm_star"]

METRICS = ("discernibility", "dm_star", "nue", "nue_monotonic", "loss", "avg_class_size", "precision",
           "precision_monotonic", "height", *ARX_EXTRA)
_FACTOR = 1e10


def _round(x: np.ndarray | float) -> np.ndarray | float:
    """ARX's Metric.round: down to 10 decimals."""
    return np.floor(np.asarray(x) * _FACTOR) / _FACTOR


class MetricTables:
    """Per quasi-identifier and level, the parts of the metrics that need no grouping."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        n = problem.n
        self.nue_gen: list[np.ndarray] = []     # per qi, per level: sum_v a_v log2(b/a)
        self.share: list[list[np.ndarray]] = []  # per qi, per level: share of each level code
        self.loss_gen: list[np.ndarray] = []    # per qi, per level: sum_v a_v share(g(v))
        self.present: list[np.ndarray] = []     # per qi, per level: labels occurring in the data
        for q in problem.qis:
            a = q.count0.astype(float)
            nz = a > 0
            nue, shares, lg, pres = [], [], [], []
            rows = float(q.hierarchy.n_values)
            for lev in range(q.top + 1):
                code = q.to_level[lev]
                b = np.bincount(code, weights=a, minlength=q.cards[lev])
                nue.append(float(np.sum(a[nz] * np.log2(b[code[nz]] / a[nz]))))
                sh = np.bincount(code, minlength=q.cards[lev]) / rows
                shares.append(sh)
                lg.append(float(np.sum(a * sh[code])))
                pres.append(int(np.count_nonzero(b)))
            self.nue_gen.append(np.array(nue))
            self.share.append(shares)
            self.loss_gen.append(np.array(lg))
            self.present.append(np.array(pres, dtype=float))
        self.loss_min = [n / float(q.hierarchy.n_values) for q in problem.qis]
        # ARX's normalised attribute weights (1.0 each when unweighted: x * 1.0 == x exactly)
        self.weighted = problem.weights is not None
        self.w = [float(x) for x in problem.weights] if problem.weights is not None else [1.0] * len(problem.qis)
        self._init_extra()

    def _init_extra(self) -> None:
        """The per quasi-identifier parts of :mod:`sdc.identify.metrics_arx`'s models."""
        n = float(self.problem.n)
        self.rows_of = [[sh * float(q.hierarchy.n_values) for sh in shares]  # r_j(g) per level
                        for q, shares in zip(self.problem.qis, self.share)]
        self.domain_product = float(np.prod([float(q.hierarchy.n_values) for q in self.problem.qis]))
        self.log10_domain = math.log10(self.domain_product) if self.domain_product > 0 else 0.0
        self.log10_share, self.nue_rounded, self.nue_upper = [], [], []
        for j, q in enumerate(self.problem.qis):
            a = q.count0.astype(float)
            nz = a > 0
            self.log10_share.append(np.array([float(np.sum(a[nz] * np.log10(self.share[j][lev][q.to_level[lev][nz]])))
                                              for lev in range(q.top + 1)]))
            self.nue_rounded.append(_round(self.nue_gen[j]))
            self.nue_upper.append(float(_round(float(np.sum(a[nz] * np.log2(n / a[nz]))))))

    def nue_columns(self, levels: Sequence[int], table: GroupTable, kept: np.ndarray) -> list[float]:
        """ARX's non-uniform entropy (``"nue"``) per quasi-identifier, rounded as ARX does."""
        cs = table.counts[~kept].astype(float)
        supp = np.flatnonzero(~kept)
        n_supp = float(cs.sum())
        out = []
        for j, lev in enumerate(levels):
            v = self.nue_gen[j][lev]
            if n_supp > 0:
                c = np.bincount(table.codes[j][supp], weights=cs, minlength=table.cards[j])
                c = c[c > 0]
                v += float(np.sum(c * np.log2(n_supp / c)))
            out.append(float(_round(v)))
        return out

    def loss_columns(self, levels: Sequence[int], table: GroupTable, kept: np.ndarray) -> list[float]:
        """ARX's Loss per quasi-identifier (``"loss"`` before aggregation, unweighted): L_j =
        sum_kept |E| share_j(g_E) + S, normalised to [0, 1] and rounded as ARX does."""
        supp = np.flatnonzero(~kept)
        cs = table.counts[supp].astype(float)
        n_supp = float(cs.sum())
        parts = []
        for j, lev in enumerate(levels):
            tot = self.loss_gen[j][lev]
            if n_supp > 0:
                tot = tot - float(np.dot(cs, self.share[j][lev][table.codes[j][supp]])) + n_supp
            parts.append(float(self._loss_norm(j, tot)))
        return parts

    # -- lower bounds for every node (vectorised over the lattice)

    def _level_shares(self, L: np.ndarray) -> np.ndarray:
        """L_j / H_j per node and quasi-identifier (0 where H_j = 0)."""
        H = np.array([q.top for q in self.problem.qis], dtype=float)
        return np.divide(L.astype(float), H, out=np.zeros(L.shape, dtype=float), where=H > 0)

    def lower_bounds(self, metric: str, lattice: Lattice) -> np.ndarray:
        if metric in ARX_EXTRA:
            return extra_bounds(self, metric, lattice)
        L = lattice.levels
        n = float(self.problem.n)
        w = self.w
        if metric == "height":
            if not self.weighted:
                return L.sum(axis=1).astype(float)
            return sum((L[:, j].astype(float) * w[j] for j in range(L.shape[1])), np.zeros(lattice.size))
        if metric in ("precision", "precision_monotonic"):  # suppression only adds (L / H <= 1)
            if not L.shape[1]:
                return np.zeros(lattice.size)
            shares = self._level_shares(L)
            if not self.weighted:
                return shares.mean(axis=1)
            d = float(L.shape[1])  # ARX's weighted arithmetic mean, in its order of operations
            return sum((shares[:, j] / d * w[j] for j in range(L.shape[1])), np.zeros(lattice.size))
        if metric in ("nue", "nue_monotonic"):
            return sum(_round(t[L[:, j]]) * w[j] for j, t in enumerate(self.nue_gen)) if self.nue_gen else np.zeros(lattice.size)
        if metric == "loss":
            parts = [self._loss_norm(j, self.loss_gen[j][L[:, j]]) for j in range(len(self.loss_gen))]
            return _geomean(parts, w) if parts else np.zeros(lattice.size)
        classes = np.ones(lattice.size)
        for j, p in enumerate(self.present):
            classes = np.minimum(classes * p[L[:, j]], n)
        if metric == "avg_class_size":
            return n / classes
        return n * n / classes  # discernibility, dm_star

    def _loss_norm(self, j: int, total: np.ndarray | float) -> np.ndarray | float:
        lo, n = self.loss_min[j], float(self.problem.n)
        if isinstance(total, float) and n - lo > 0:  # one node: plain floats
            return math.floor(max((total - lo) / (n - lo), 0.0) * _FACTOR) / _FACTOR
        if n - lo <= 0:
            return np.zeros_like(np.asarray(total, dtype=float))
        return _round(np.maximum((np.asarray(total, dtype=float) - lo) / (n - lo), 0.0))

    def class_loss(self, levels: Sequence[int], table: GroupTable) -> np.ndarray:
        """Per class, ARX's Loss of the class alone (``MetricMDNMLoss`` of an entry: per
        quasi-identifier |E| share_j(g), geometric mean): ARX's order of suppression for the
        risk-based models with this metric."""
        d = len(levels)
        out = np.ones(table.n_groups)
        for j, lev in enumerate(levels):
            x = table.counts * self.share[j][lev][table.codes[j]]
            out = out * np.power(x * self.w[j] + 1.0, 1.0 / d)
        return out - 1.0

    # -- the metric of an evaluated node

    def value(self, metric: str, levels: Sequence[int], table: GroupTable, kept: np.ndarray) -> float:
        n = float(self.problem.n)
        cnt = table.counts
        supp = np.flatnonzero(~kept)  # suppressed classes
        cs = cnt[supp].astype(float)
        n_supp = float(cs.sum())
        if metric == "dm_star":
            c = cnt.astype(float)
            return float(np.dot(c, c))
        if metric == "discernibility":
            c = cnt.astype(float)
            return float(np.dot(c, c) - np.dot(cs, cs) + n * n_supp)
        if metric == "height":
            if self.weighted:
                return _weighted_sum([float(v) for v in levels], self.w)
            return float(sum(int(v) for v in levels))
        if metric in ("precision", "precision_monotonic"):
            return self._precision(metric, levels, n, n_supp)
        if metric == "avg_class_size":
            denom = float(table.n_groups - supp.size) + (1.0 if n_supp > 0 else 0.0)
            return n / denom if denom else math.inf
        if metric == "nue":
            return _weighted_sum(self.nue_columns(levels, table, kept), self.w)
        if metric == "nue_monotonic":
            return _weighted_sum([float(_round(self.nue_gen[j][lev])) for j, lev in enumerate(levels)], self.w)
        if metric in ARX_EXTRA:
            return extra_value(self, metric, levels, table, kept)
        if metric == "loss":
            parts = self.loss_columns(levels, table, kept)
            out = 1.0
            for x, w in zip(parts, self.w):  # ARX's geometric mean, in ARX's order of operations
                out *= math.pow(float(x) * w + 1.0, 1.0 / len(parts))
            return out - 1.0 if parts else 0.0
        raise ValueError(f"unknown metric {metric!r}")

    def _precision(self, metric: str, levels: Sequence[int], n: float, n_supp: float) -> float:
        """ARX's Precision (a suppressed record costs 1) or its monotonic form, averaged over the
        quasi-identifiers; weighted as ARX's ILMultiDimensionalArithmeticMean: sum_j (v_j / d) w_j."""
        total, d = 0.0, float(len(levels))
        for lev, q, w in zip(levels, self.problem.qis, self.w):  # ARX's order of operations
            v = float(lev) / float(q.top) if q.top else 0.0
            v = ((n - n_supp) * v + n_supp) / n if metric == "precision" else v
            total += v / d * w if self.weighted else v
        if self.weighted:
            return total
        return total / len(levels) if levels else 0.0


def _weighted_sum(values: Sequence[float], weights: Sequence[float]) -> float:
    """ARX's ILMultiDimensionalSum: sum_j v_j w_j, from 0 in the quasi-identifiers' order (with
    every weight 1 the plain sum, bit for bit)."""
    out = 0.0
    for v, w in zip(values, weights):
        out += float(v) * w
    return out


def _geomean(parts: list[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """ARX's ILMultiDimensionalGeometricMean: prod (1 + w_j x_j)^(1/d) - 1."""
    d = len(parts)
    out = np.ones_like(np.asarray(parts[0], dtype=float))
    for p, w in zip(parts, weights):
        out = out * np.power(np.asarray(p, dtype=float) * w + 1.0, 1.0 / d)
    return out - 1.0


def dm_star(table: GroupTable) -> float:
    cnt = table.counts.astype(float)
    return float(np.dot(cnt, cnt))


def metric_value(tables: MetricTables, metric: str, levels: Sequence[int], table: GroupTable,
                 kept: np.ndarray) -> float:
    return tables.value(metric, levels, table, kept)
