"""Privacy models checked per equivalence class during a generalisation search.

Each model says, for every class of a transformation, whether the class satisfies it; a
transformation is *anonymous* when the records of the failing classes number at most the
suppression limit (those classes are then suppressed), as in ARX (``HashGroupify``). For a
class with counts f_v of the sensitive values (missing values left out), N = sum f_v,
p_v = f_v / N, and q_v the file-wide share of value v (all records, before suppression):

* k-anonymity: the class has at least k records (Sweeney 2002).
* distinct l-diversity: at least l distinct sensitive values.
* entropy l-diversity: H = ln N - (1/N) sum f_v ln f_v >= ln l (natural log, ARX's Shannon
  estimator; Machanavajjhala et al. 2007).
* recursive (c, l)-diversity: with counts sorted r_1 >= r_2 >= ... >= r_m, at least l values
  and r_1 < c (r_l + ... + r_m) (Machanavajjhala et al. 2007).
* t-closeness (Li, Li and Venkatasubramanian 2007), earth mover's distance to q <= t:
  equal ground distance: 1/2 sum_v |p_v - q_v|; ordered distance over the m values of the
  file in value order: 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)|.
* beta-likeness (Cao and Karras 2012): basic, max over the class's values of
  (p_v - q_v) / q_v <= beta; enhanced, (p_v - q_v) / q_v <= min(beta, -ln q_v) for each value.

A class without any observed sensitive value fails l-diversity (it has no value) and meets
t-closeness and beta-likeness (it discloses nothing). Bounds are compared with a tolerance of
1e-12, so a class exactly on a bound meets it.

Monotonicity (what lets a search prune; ARX's ``isMonotonicWithSuppression``): every model is
monotone under generalisation without suppression (merging two classes that satisfy it gives
a class that satisfies it), but with suppression only k-anonymity and distinct l-diversity
stay monotone: merging a satisfying class with a suppressed one can break the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sdc.core.generalise import Cells, GroupTable

__all__ = ["Models", "L_VARIANTS", "T_DISTANCES", "BETA_VARIANTS", "class_checks", "achieved"]

L_VARIANTS = ("distinct", "entropy", "recursive")
T_DISTANCES = ("equal", "ordered")
BETA_VARIANTS = ("basic", "enhanced")
_TOL = 1e-12
_BLOCK = 1 << 22


@dataclass(frozen=True)
class Models:
    """The privacy models of a search: thresholds per sensitive variable where they apply."""

    k: int | None = None
    l: Mapping[str, float] = field(default_factory=dict)
    l_variant: str = "distinct"
    c: float = 2.0
    t: Mapping[str, float] = field(default_factory=dict)
    t_distance: str = "equal"
    beta: Mapping[str, float] = field(default_factory=dict)
    beta_variant: str = "basic"

    def describe(self) -> list[str]:
        out = [] if self.k is None else [f"{self.k}-anonymity"]
        for s, v in self.l.items():
            lab = f"recursive ({self.c:g}, {v:g})" if self.l_variant == "recursive" else f"{self.l_variant} {v:g}"
            out.append(f"{lab}-diversity of {s}")
        out += [f"{v:g}-closeness of {s} ({self.t_distance} distance)" for s, v in self.t.items()]
        out += [f"{self.beta_variant} {v:g}-likeness of {s}" for s, v in self.beta.items()]
        return out

    def monotone_part(self, suppression: bool) -> "Models":
        """The models that stay monotone: all without suppression, else k and distinct l."""
        if not suppression:
            return self
        return Models(k=self.k, l=dict(self.l) if self.l_variant == "distinct" else {}, l_variant="distinct")

    @property
    def empty(self) -> bool:
        return self.k is None and not self.l and not self.t and not self.beta

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.k}
        if self.l:
            out.update(l=dict(self.l), l_variant=self.l_variant)
            if self.l_variant == "recursive":
                out["c"] = self.c
        if self.t:
            out.update(t=dict(self.t), t_distance=self.t_distance)
        if self.beta:
            out.update(beta=dict(self.beta), beta_variant=self.beta_variant)
        return out


def _per_group_max(values: np.ndarray, group: np.ndarray, n_groups: int, fill: float) -> np.ndarray:
    out = np.full(n_groups, fill)
    if group.size:
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        out[group[starts]] = np.maximum.reduceat(values, starts)
    return out


def _sum(group: np.ndarray, w: np.ndarray, n_groups: int) -> np.ndarray:
    return np.bincount(group, weights=w, minlength=n_groups)


def l_values(cells: Cells, n_groups: int, variant: str, c: float = 2.0) -> np.ndarray:
    """Per class: distinct count, exp(entropy), or the largest l meeting recursive (c, l)."""
    distinct = np.bincount(cells.group, minlength=n_groups).astype(float)
    if variant == "distinct":
        return distinct
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    if variant == "entropy":
        flnf = _sum(cells.group, cnt * np.log(cnt), n_groups)
        with np.errstate(divide="ignore", invalid="ignore"):
            h = np.where(n_obs > 0, np.log(np.where(n_obs > 0, n_obs, 1)) - flnf / np.where(n_obs > 0, n_obs, 1), 0.0)
        return np.exp(h)
    # recursive: largest l with r_1 < c * (r_l + ... + r_m), 1 if none (and 0 without values)
    order = np.lexsort((-cnt, cells.group))
    g, r = cells.group[order], cnt[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]]) if g.size else np.array([], dtype=np.int64)
    rank = np.arange(g.size) - np.repeat(starts, np.diff(np.r_[starts, g.size]))
    r1 = np.zeros(n_groups)
    r1[g[starts]] = r[starts]
    # tail sum from rank i on: total - cumulative before i
    csum = np.cumsum(r)
    before = csum - r - np.repeat(csum[starts] - r[starts], np.diff(np.r_[starts, g.size]))
    tail = n_obs[g] - before
    ok = r1[g] < c * tail - _TOL * max(c, 1.0)
    # the largest l = rank + 1 of the last rank i (>= 1) with r_1 < c * tail(i); l = 1 always holds
    cand = np.where(ok & (rank >= 1), rank + 1, 1).astype(float)
    best = _per_group_max(cand, g, n_groups, 0.0)
    return np.where(distinct > 0, np.maximum(best, 1.0), 0.0)


def recursive_ok(cells: Cells, n_groups: int, l: int, c: float) -> np.ndarray:
    """Per class, whether it meets recursive (c, l)-diversity: at least l values and
    r_1 < c (N - r_1 - ... - r_{l-1}). Only the l - 1 largest counts are needed."""
    g, cnt = cells.group, cells.count
    distinct = np.bincount(g, minlength=n_groups)
    n_obs = np.bincount(g, weights=cnt, minlength=n_groups)
    r1 = _per_group_max(cnt.astype(float), g, n_groups, 0.0)
    if l <= 2:
        top = r1
    else:  # counts sorted descending within each class (cells come sorted by class)
        w = int(cnt.max()) + 1 if cnt.size else 1
        order = np.argsort(g.astype(np.int64) * w + (w - 1 - cnt), kind="stable")
        starts = np.repeat(np.cumsum(distinct) - distinct, distinct)
        rank = np.arange(g.size) - starts
        take = order[rank < l - 1]
        top = np.bincount(g[take], weights=cnt[take], minlength=n_groups)
    return (distinct >= l) & (r1 < c * (n_obs - top) - _TOL * max(c, 1.0))


def t_values(cells: Cells, q: np.ndarray, n_groups: int, distance: str) -> np.ndarray:
    """Per class: EMD to the file's distribution q (NaN for a class without observed values)."""
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    if distance == "equal":
        p = cnt / n_obs[cells.group]
        qv = q[cells.code]
        s = _sum(cells.group, np.abs(p - qv) - qv, n_groups)
        out = (s + 1.0) / 2.0
    else:
        m = q.shape[0]
        out = np.zeros(n_groups)
        if m > 1:
            qc = np.cumsum(q)
            rows = max(1, _BLOCK // m)
            for g0 in range(0, n_groups, rows):
                g1 = min(n_groups, g0 + rows)
                lo, hi = np.searchsorted(cells.group, [g0, g1])
                P = np.zeros((g1 - g0, m))
                P[cells.group[lo:hi] - g0, cells.code[lo:hi]] = cnt[lo:hi] / n_obs[cells.group[lo:hi]]
                cum = np.cumsum(P, axis=1) - qc
                out[g0:g1] = np.abs(cum[:, :-1]).sum(axis=1) / (m - 1)
    return np.where(n_obs > 0, np.clip(out, 0.0, None), np.nan)


def beta_values(cells: Cells, q: np.ndarray, n_groups: int, variant: str) -> np.ndarray:
    """Per class: basic beta = max (p - q) / q; enhanced: the same, but infinite when some value
    exceeds -ln q (so the class meets enhanced beta-likeness iff the value <= beta)."""
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    qv = q[cells.code]
    rel = (cnt / n_obs[cells.group] - qv) / qv
    if variant == "enhanced":
        rel = np.where(rel > -np.log(qv) + _TOL, np.inf, rel)
    out = _per_group_max(rel, cells.group, n_groups, np.nan)
    return np.where(n_obs > 0, np.maximum(out, 0.0), np.nan)


def class_checks(table: GroupTable, models: Models, sensitive_index: Mapping[str, int],
                 q: Mapping[str, np.ndarray]) -> np.ndarray:
    """Per class, whether it satisfies every model in `models`."""
    g = table.n_groups
    ok = np.ones(g, dtype=bool)
    if models.k is not None:
        ok &= table.counts >= models.k
    for s, lv in models.l.items():
        cl = table.cells[sensitive_index[s]]
        if models.l_variant == "recursive":
            ok &= recursive_ok(cl, g, int(lv), models.c)
            continue
        vals = l_values(cl, g, models.l_variant, models.c)
        ok &= vals >= lv - _TOL * max(lv, 1.0)
    for s, tv in models.t.items():
        d = t_values(table.cells[sensitive_index[s]], q[s], g, models.t_distance)
        ok &= ~(d > tv + _TOL)
    for s, bv in models.beta.items():
        b = beta_values(table.cells[sensitive_index[s]], q[s], g, models.beta_variant)
        ok &= ~(b > bv + _TOL)
    return ok


def achieved(table: GroupTable, kept: np.ndarray, models: Models, sensitive_index: Mapping[str, int],
             q: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """What the released classes (those in `kept`) achieve: the smallest class, and per
    sensitive variable the smallest l, largest t and largest beta."""
    g = table.n_groups
    out: dict[str, Any] = {"k": int(table.counts[kept].min()) if kept.any() else None}
    for s in models.l:
        v = l_values(table.cells[sensitive_index[s]], g, models.l_variant, models.c)[kept]
        out.setdefault("l", {})[s] = float(v.min()) if v.size else None
    for s in models.t:
        v = t_values(table.cells[sensitive_index[s]], q[s], g, models.t_distance)[kept]
        v = v[~np.isnan(v)]
        out.setdefault("t", {})[s] = float(v.max()) if v.size else None
    for s in models.beta:
        v = beta_values(table.cells[sensitive_index[s]], q[s], g, models.beta_variant)[kept]
        v = v[~np.isnan(v)]
        out.setdefault("beta", {})[s] = float(v.max()) if v.size else None
    return out
