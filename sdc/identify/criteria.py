"""Privacy models checked per equivalence class during a generalisation search.

Each model says, for every class of a transformation, whether the class satisfies it; a
transformation is *anonymous* when the records of the failing classes number at most the
suppression limit (those classes are then suppressed), as in ARX (``HashGroupify``). For a
class with counts f_v of the sensitive values (missing values left out), N = sum f_v,
p_v = f_v / N, and q_v the file-wide share of value v (all records, before suppression):

* k-anonymity: the class has at least k records (Sweeney 2002).
* k-map estimated from the sample (``k_map``; ARX's ``KMap`` with a ``CellSizeEstimator``; El
  Emam and Dankar 2008): every class at least k' records, k' derived from k, the sampling
  fraction and a significance level (:mod:`sdc.identify.kmap`); with ``k`` the larger of the two.
* delta-presence and k-map with a research subset (``presence``, ``k_map_population``; ARX's
  ``DPresence`` and ``KMap(k, DataSubset)``): the file is the population, the search's records
  the subset; dmin <= |E ∩ S| / |E| <= dmax and |E| >= k from each class's population count
  (:mod:`sdc.identify.presence`; a population class without subset records blocks dmin > 0).
  Monotone without suppression; with it only k-map.
* distinct l-diversity: at least l distinct sensitive values.
* entropy l-diversity: H = ln N - (1/N) sum f_v ln f_v >= ln l (natural log, ARX's Shannon
  estimator; Machanavajjhala et al. 2007).
* Grassberger entropy l-diversity (``l_variant="grassberger"``): at least ceil(l) distinct
  values and H_G = G(N) - (1/N) sum f_v G(f_v) >= ln l, G Grassberger's (1988, 2003)
  function (:func:`sdc.attribute._diversity.grassberger_g`); ARX's ``EntropyLDiversity`` with
  ``EntropyEstimator.GRASSBERGER`` (which also asks for ceil(l) distinct values).
* recursive (c, l)-diversity: with counts sorted r_1 >= r_2 >= ... >= r_m, at least l values
  and r_1 < c (r_l + ... + r_m) (Machanavajjhala et al. 2007).
* t-closeness (Li, Li and Venkatasubramanian 2007), earth mover's distance to q <= t:
  equal ground distance: 1/2 sum_v |p_v - q_v|; ordered distance over the m values of the
  file in value order: 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)|; hierarchical distance over the
  sensitive variable's hierarchy of height H (levels 0 .. H, the values at level 0): with the
  extra of a value e_v = p_v - q_v and of a node the sum of its children's extras,
  EMD = sum over the nodes N above level 0 of (level(N) / H) min(pos(N), neg(N)), pos(N) the
  sum of its children's positive extras and neg(N) of the negative ones in absolute value
  (Li et al. 2007, section 4.2; ARX's ``HierarchicalDistanceTCloseness``, computed in integers
  as ARX does: e_v scaled by the file's and the class's totals; :mod:`sdc.attribute.tree_closeness`).
* beta-likeness (Cao and Karras 2012): basic, max over the class's values of
  (p_v - q_v) / q_v <= beta; enhanced, (p_v - q_v) / q_v <= min(beta, -ln q_v) for each value.
* (alpha, k)-anonymity's alpha (Wong, Li, Fu and Wang 2006, KDD): every value's share in the
  class is at most alpha, max_v p_v <= alpha (with ``k`` for the k; not an ARX model).
* average re-identification risk (``avg_risk``; ARX's ``AverageReidentificationRisk``, El Emam
  2013): a limit on the whole release, not a class: after the classes failing the other models
  are suppressed, released classes / released records <= avg_risk; when it is above, the
  smallest classes are suppressed first (ties: the class whose first record comes first), as
  few as make it hold (ARX's ``HashGroupifyDistribution``), within the suppression limit. The
  top transformation (every record generalised completely) meets it, as in ARX.
* sample uniqueness (``sample_uniques``; ARX's ``SampleUniqueness``): the share of released
  records alone in their class at most the limit, enforced like the average risk (the unique
  classes suppressed first; among them, with the ``loss`` metric, those of least loss first, as
  ARX orders them by the metric's loss of the class, else by first record). Monotone with
  suppression by the same argument (a unique class of a generalisation is a unique class of
  the node it generalises).
* population uniqueness (``pop_uniques``; ARX's ``PopulationUniqueness``): the estimated
  population uniques of the released classes / N at most the limit, by one estimator of
  :mod:`sdc.risk.uniqueness` (Zayatz 1991, Pitman (Hoshino 2001), SNB (Chen and Keller-McNulty
  1998), Dankar et al. 2012 without the Zayatz fallback, as ARX calls it) fed the released
  classes' frequency of frequencies (n = released records, N fixed); 0 or no estimate meets it
  only without sample uniques. Enforced by ARX's binary search over the number of classes
  suppressed in the sample-uniqueness order (:func:`pop_suppression`). Not monotone, with or
  without suppression (a fitted estimate can rise when classes merge; ARX declares only Zayatz's
  monotone with generalisation): sdc never prunes on it.
* delta-disclosure privacy (Brickell and Shmatikov 2008) as ARX defines it
  (``DDisclosurePrivacy``, ``delta_variant="arx"``): |log2(p_v / q_v)| < delta for every value
  present in the class; ``"present"`` is the same with the natural log (pyCANON's reading).

A class without any observed sensitive value fails l-diversity (it has no value) and meets
t-closeness, beta-likeness, delta-disclosure and alpha (it discloses nothing). The l-diversity of a
class is the one :mod:`sdc.attribute.ldiversity` computes (distinct values; exp of the entropy;
the recursive (c, l) value of sdcMicro's loop, :func:`sdc.attribute.ldiversity._recursive`),
and every bound is compared with that module's one tolerance: a value within 1e-9 x max(bound,
1) of its bound is on it (``ENTROPY_RTOL``), so a class exactly on a bound meets it whatever the
rounding (delta-disclosure's inequality is strict, as in ARX and the paper: on the bound fails).

Monotonicity (what lets a search prune; ARX's ``isMonotonicWithSuppression`` and
``isMonotonicWithGeneralization``): without suppression k-anonymity, distinct, Shannon entropy
and recursive l-diversity, t-closeness (every distance: the EMD is convex in p),
beta-likeness and alpha (a merged share lies between the parts' shares) are monotone under generalisation (merging two classes that satisfy it gives a
class that satisfies it); Grassberger entropy l-diversity is not (two classes with counts
{1, 1} have H_G = 2, l = 7.4; merged, {2, 2} has H_G = 2/3, l = 1.9: the estimator's
small-sample correction shrinks as classes grow) and neither is delta-disclosure (a merged
class can hold a value rare in it that the parts did not hold). ARX declares Grassberger's
estimator monotone with generalisation; sdc does not prune on it. With suppression only
k-anonymity, distinct l-diversity and the average risk limit stay monotone: merging a satisfying
class with a suppressed one can break the others. The average risk (with k and distinct l, the
classes failing them suppressed first): if node A meets it suppressing a set of classes, a
generalisation B can keep every class holding one of A's kept classes and suppress the rest (no
more records than A); it keeps at least as many records in at most as many classes, so the
average risk is no higher; and suppressing B's smallest classes first needs the fewest records
(for any number j of classes removed the j smallest remove the fewest records and lower the
ratio most), so B meets it too. ARX declares it monotone likewise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sdc.attribute._diversity import grassberger_entropy
from sdc.attribute.ldiversity import ENTROPY_RTOL, entropy_below
from sdc.attribute.ldiversity import _recursive as _recursive_l
from sdc.attribute.tree_closeness import HierarchyTree, tree_emd
from sdc.core.generalise import Cells, GroupTable
from sdc.identify.kmap import KMapEstimate
from sdc.risk.uniqueness import ESTIMATORS as POP_MODELS
from sdc.risk.uniqueness import population_uniques_of_sizes

__all__ = ["Models", "POP_MODELS", "L_VARIANTS", "T_DISTANCES", "BETA_VARIANTS", "DELTA_VARIANTS", "HierarchyTree", "class_checks",
           "achieved"]

L_VARIANTS = ("distinct", "entropy", "grassberger", "recursive")
T_DISTANCES = ("equal", "ordered", "hierarchical")
BETA_VARIANTS = ("basic", "enhanced")
DELTA_VARIANTS = ("arx", "present")
#: The one tolerance of the bounds (attribute.ldiversity's ENTROPY_RTOL): a value within
#: _RTOL * max(|bound|, 1) of its bound is on it (entropy_below says the same of l >= 1).
_RTOL = ENTROPY_RTOL


def _above(x: np.ndarray, bound: float | np.ndarray) -> np.ndarray:
    """x above its bound by more than the tolerance (NaN is never above)."""
    return x > bound + _RTOL * np.maximum(np.abs(bound), 1.0)
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
    delta: Mapping[str, float] = field(default_factory=dict)
    delta_variant: str = "arx"
    alpha: Mapping[str, float] = field(default_factory=dict)
    avg_risk: float | None = None
    sample_uniques: float | None = None
    pop_uniques: float | None = None
    pop_model: str = "dankar"
    population_size: int | None = None
    k_map: KMapEstimate | None = None
    #: delta-presence's (dmin, dmax) and k-map's k with the population known: the file is the
    #: population, a research subset of it the release (:mod:`sdc.identify.presence`).
    presence: tuple[float, float] | None = None
    k_map_population: int | None = None
    #: (records of the research subset, records of the population), with either of them.
    subset: tuple[int, int] | None = None

    @property
    def needs_population(self) -> bool:
        return self.presence is not None or self.k_map_population is not None

    @property
    def min_size(self) -> int | None:
        """The least class size: k, or k-map's derived k' (:mod:`sdc.identify.kmap`), the larger."""
        sizes = [s for s in (self.k, None if self.k_map is None else self.k_map.k_derived) if s is not None]
        return max(sizes) if sizes else None

    @property
    def release_wide(self) -> bool:
        """Whether a model limits the whole release (average risk, sample or population
        uniqueness), enforced by suppressing the smallest classes (:func:`release_suppression`)."""
        return self.avg_risk is not None or self.sample_uniques is not None or self.pop_uniques is not None

    def describe(self) -> list[str]:
        out = [] if self.k is None else [f"{self.k}-anonymity"]
        if self.k_map is not None:
            km = self.k_map
            how = "zero-truncated Poisson" if km.estimator == "zero_truncated_poisson" else "Poisson"
            out.append(f"{km.k}-map ({how} estimate, N = {km.population_size:,}, significance "
                       f"{km.significance:g}): every class at least {km.k_derived} records (type-1 error {km.type1_error:.3g})")
        for s, v in self.l.items():
            lab = f"recursive ({self.c:g}, {v:g})" if self.l_variant == "recursive" else f"{self.l_variant} {v:g}"
            if self.l_variant == "grassberger":
                lab = f"entropy {v:g} (Grassberger)"
            out.append(f"{lab}-diversity of {s}")
        out += [f"{v:g}-closeness of {s} ({self.t_distance} distance)" for s, v in self.t.items()]
        out += [f"{self.beta_variant} {v:g}-likeness of {s}" for s, v in self.beta.items()]
        out += [f"{v:g}-disclosure privacy of {s} ({self.delta_variant})" for s, v in self.delta.items()]
        out += [f"alpha {v:g} of {s} (largest share of a value in a class)" for s, v in self.alpha.items()]
        if self.presence is not None:
            out.append(f"({self.presence[0]:g}, {self.presence[1]:g})-presence of the research subset")
        if self.k_map_population is not None:
            out.append(f"{self.k_map_population}-map: every released class at least {self.k_map_population} "
                       "records of the population")
        if self.avg_risk is not None:
            out.append(f"average re-identification risk <= {self.avg_risk:g}")
        if self.sample_uniques is not None:
            out.append(f"share of sample uniques <= {self.sample_uniques:g}")
        if self.pop_uniques is not None:
            out.append(f"population uniqueness <= {self.pop_uniques:g} ({self.pop_model}, N = {self.population_size:,})")
        return out

    def monotone_part(self, suppression: bool) -> "Models":
        """The models that stay monotone under generalisation: without suppression all but
        Grassberger entropy l-diversity and delta-disclosure; with it, k, distinct l and the
        average risk (module notes)."""
        if not suppression:
            keep_l = self.l_variant != "grassberger"
            return Models(k=self.k, k_map=self.k_map, l=dict(self.l) if keep_l else {}, l_variant=self.l_variant, c=self.c,
                          t=dict(self.t), t_distance=self.t_distance, beta=dict(self.beta),
                          beta_variant=self.beta_variant, alpha=dict(self.alpha), avg_risk=self.avg_risk,
                          sample_uniques=self.sample_uniques, presence=self.presence,
                          k_map_population=self.k_map_population, subset=self.subset)
        return Models(k=self.k, k_map=self.k_map, l=dict(self.l) if self.l_variant == "distinct" else {}, l_variant="distinct",
                      avg_risk=self.avg_risk, sample_uniques=self.sample_uniques,
                      k_map_population=self.k_map_population, subset=self.subset)

    @property
    def empty(self) -> bool:
        return (self.min_size is None and not self.l and not self.t and not self.beta and not self.delta and not self.alpha
                and not self.release_wide and not self.needs_population)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"k": self.k}
        if self.k_map is not None:
            km = self.k_map
            out.update(k_map=km.k, k_map_estimator=km.estimator, k_map_significance=km.significance,
                       population_size=km.population_size, k_map_derived_k=km.k_derived, k_map_type1_error=km.type1_error)
        if self.l:
            out.update(l=dict(self.l), l_variant=self.l_variant)
            if self.l_variant == "recursive":
                out["c"] = self.c
        if self.t:
            out.update(t=dict(self.t), t_distance=self.t_distance)
        if self.beta:
            out.update(beta=dict(self.beta), beta_variant=self.beta_variant)
        if self.delta:
            out.update(delta=dict(self.delta), delta_variant=self.delta_variant)
        if self.alpha:
            out["alpha"] = dict(self.alpha)
        if self.presence is not None:
            out["delta_presence"] = list(self.presence)
        if self.k_map_population is not None:
            out["k_map"] = self.k_map_population
        if self.subset is not None:
            out.update(research_subset=self.subset[0], population_records=self.subset[1])
        if self.avg_risk is not None:
            out["avg_risk"] = self.avg_risk
        if self.sample_uniques is not None:
            out["sample_uniques"] = self.sample_uniques
        if self.pop_uniques is not None:
            out.update(pop_uniques=self.pop_uniques, pop_model=self.pop_model, population_size=self.population_size)
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
    """Per class: distinct count, exp(entropy) (Shannon's or Grassberger's estimate), or the
    largest l meeting recursive (c, l)."""
    distinct = np.bincount(cells.group, minlength=n_groups).astype(float)
    if variant == "distinct":
        return distinct
    if variant == "grassberger":
        return np.nan_to_num(np.exp(grassberger_entropy(cells.group, cells.count, n_groups)), nan=0.0)
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    if variant == "entropy":
        flnf = _sum(cells.group, cnt * np.log(cnt), n_groups)
        with np.errstate(divide="ignore", invalid="ignore"):
            h = np.where(n_obs > 0, np.log(np.where(n_obs > 0, n_obs, 1)) - flnf / np.where(n_obs > 0, n_obs, 1), 0.0)
        return np.exp(h)
    # recursive: the largest l with r_1 < c * (r_l + ... + r_m), 1 if none (and 0 without
    # values): attribute.ldiversity's, exact in float64
    return np.nan_to_num(_recursive_l(cells.group, cells.count, n_groups, c, np.float64), nan=0.0)


def recursive_ok(cells: Cells, n_groups: int, l: int, c: float) -> np.ndarray:
    """Per class, whether it meets recursive (c, l)-diversity: at least l values and
    r_1 < c (r_l + ... + r_m) (the recursive value of :func:`l_values` is at least l)."""
    return l_values(cells, n_groups, "recursive", c) >= l


def t_values(cells: Cells, q: np.ndarray, n_groups: int, distance: str, tree: HierarchyTree | None = None) -> np.ndarray:
    """Per class: EMD to the file's distribution q (NaN for a class without observed values);
    the hierarchical distance needs the sensitive variable's `tree`."""
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    if distance == "hierarchical":
        if tree is None:
            raise ValueError("the hierarchical distance needs the sensitive variable's hierarchy.")
        out = tree_emd(cells.group, cells.code, cells.count, n_groups, tree)
    elif distance == "equal":
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
        rel = np.where(_above(rel, -np.log(qv)), np.inf, rel)
    out = _per_group_max(rel, cells.group, n_groups, np.nan)
    return np.where(n_obs > 0, np.maximum(out, 0.0), np.nan)


def delta_values(cells: Cells, q: np.ndarray, n_groups: int, variant: str) -> np.ndarray:
    """Per class: max over the values present in it of |log(p / q)| (log2 for ARX's definition,
    the natural log for "present"); NaN for a class without observed values."""
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    ratio = (cnt / n_obs[cells.group]) / q[cells.code]
    d = np.abs(np.log2(ratio) if variant == "arx" else np.log(ratio))
    return _per_group_max(d, cells.group, n_groups, np.nan)


def alpha_values(cells: Cells, n_groups: int) -> np.ndarray:
    """Per class: the largest share of one value (NaN for a class without observed values)."""
    cnt = cells.count.astype(float)
    n_obs = _sum(cells.group, cnt, n_groups)
    share = cnt / n_obs[cells.group]
    return _per_group_max(share, cells.group, n_groups, np.nan)


def risk_suppression(counts: np.ndarray, ok: np.ndarray, first: np.ndarray, avg_risk: float | None,
                     uniques: float | None = None, tie: np.ndarray | None = None) -> np.ndarray:
    """The classes kept once the average re-identification risk (or the share of sample
    uniques) is enforced: of those in `ok`, the fewest smallest (ties: smaller `tie`, then
    smaller `first`, the class's first record) suppressed so that classes / records <= avg_risk
    (and uniques / records <= uniques) (module notes). Suppressing the smallest class never
    lowers the mean class size, nor raises the share of uniques, so the fewest is the first
    prefix that meets the limits."""
    idx = np.flatnonzero(ok)
    if idx.size == 0:
        return ok
    keys = (first[idx],) if tie is None else (first[idx], tie[idx])
    order = idx[np.lexsort((*keys, counts[idx]))]
    sizes = counts[order].astype(float)
    recs = sizes.sum() - np.concatenate([[0.0], np.cumsum(sizes)])   # records left after j removed
    left = idx.size - np.arange(idx.size + 1, dtype=float)
    ones = np.count_nonzero(sizes == 1) - np.minimum(np.arange(idx.size + 1), np.count_nonzero(sizes == 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        cond = np.ones(idx.size + 1, dtype=bool)
        if avg_risk is not None:
            cond &= 1.0 / (recs / left) <= avg_risk  # ARX: 1 / average class size
        if uniques is not None:
            cond &= ones / recs <= uniques           # ARX: records in classes of size 1 / records
        meets = (recs <= 0) | cond
    j = int(np.argmax(meets))
    out = ok.copy()
    out[order[:j]] = False
    return out


def population_uniqueness_met(sizes: np.ndarray, threshold: float, estimator: str, N: int) -> bool:
    """ARX's ``PopulationUniqueness.isFulfilled`` on the released class sizes: nothing
    released meets it; else the estimated population uniques / N (the estimator of
    :func:`sdc.risk.uniqueness.population_uniques_of_sizes`, ARX's variant, Dankar without the
    Zayatz fallback) is above 0 and at most `threshold`, or is 0 (no estimate) with no sample
    unique."""
    if sizes.size == 0:
        return True
    est = population_uniques_of_sizes(sizes, N, estimator, "arx", fallback=False)
    frac = 0.0 if math.isnan(est) else est / N
    if frac > 0:
        return frac <= threshold
    return not bool(np.any(sizes == 1))


def pop_suppression(counts: np.ndarray, ok: np.ndarray, order: np.ndarray, models: Models, limit: float) -> np.ndarray:
    """The classes kept once population uniqueness is enforced as ARX does
    (``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``): the classes in `ok`, in
    `order` (smallest first), are suppressed by a binary search over how many of the first are
    suppressed, stopped once a failing state suppresses more than `limit` records. The
    criterion is not monotone in that number, so the search finds a boundary, not always the
    fewest (ARX's result, reproduced)."""
    thr, est, N = models.pop_uniques, models.pop_model, models.population_size
    m = order.size
    if m == 0 or population_uniqueness_met(counts[ok], thr, est, N):
        return ok
    sizes = counts[order]
    base = float(counts[~ok].sum())
    sup = np.zeros(m, dtype=bool)

    def state() -> str:
        met = population_uniqueness_met(sizes[~sup], thr, est, N)
        if not met and base + float(sizes[sup].sum()) > limit:
            return "abort"
        return "met" if met else "not"

    low, high = 0, m - 1
    mid = (low + high) // 2
    sup[:mid + 1] = True
    st = "abort"
    while low <= high:
        st = state()
        if st == "abort":
            break
        if st == "met":
            high = mid - 1
            mid = int((low + high) / 2)  # Java's division, towards zero
            j = mid + 1
            while j < m and sup[j]:
                sup[j] = False
                j += 1
        else:
            low = mid + 1
            mid = int((low + high) / 2)
            if mid >= low:
                sup[low:mid + 1] = True
    if st != "abort" and state() == "not" and mid + 1 < m and not sup[mid + 1]:
        sup[mid + 1] = True
    out = ok.copy()
    out[order[sup]] = False
    return out


def release_suppression(counts: np.ndarray, ok: np.ndarray, first: np.ndarray, models: Models,
                        tie: np.ndarray | None = None, limit: float = math.inf) -> np.ndarray:
    """The release-wide models enforced in turn on the classes in `ok` (ARX enforces each risk
    criterion on the same distribution): the average risk and sample uniqueness
    (:func:`risk_suppression`), then population uniqueness (:func:`pop_suppression`), the
    classes ordered by size, then `tie`, then first record."""
    if models.avg_risk is not None or models.sample_uniques is not None:
        ok = risk_suppression(counts, ok, first, models.avg_risk, models.sample_uniques, tie)
    if models.pop_uniques is not None:
        idx = np.flatnonzero(ok)
        keys = (first[idx],) if tie is None else (first[idx], tie[idx])
        ok = pop_suppression(counts, ok, idx[np.lexsort((*keys, counts[idx]))], models, limit)
    return ok


def presence_checks(counts: np.ndarray, pcounts: np.ndarray | None, models: Models) -> np.ndarray:
    """Per class of the research subset (`counts` its subset records, `pcounts` its population
    records): delta-presence dmin <= counts / pcounts <= dmax (on a bound meets it, within the
    one tolerance) and k-map pcounts >= k."""
    if pcounts is None:
        raise ValueError("delta-presence and k-map with a research subset need the population's class counts.")
    ok = np.ones(counts.shape[0], dtype=bool)
    if models.presence is not None:
        lo, hi = models.presence
        d = counts / np.maximum(pcounts, 1)
        ok &= _at_or_above(d, lo) & ~_above(d, hi)
    if models.k_map_population is not None:
        ok &= pcounts >= models.k_map_population
    return ok


def _at_or_above(x: np.ndarray, bound: float) -> np.ndarray:
    """x >= bound, a value within the tolerance below the bound counting as on it (NaN never)."""
    return x >= bound - _RTOL * max(abs(bound), 1.0)


def class_checks(table: GroupTable, models: Models, sensitive_index: Mapping[str, int],
                 q: Mapping[str, np.ndarray], trees: Mapping[str, HierarchyTree] | None = None,
                 pcounts: np.ndarray | None = None) -> np.ndarray:
    """Per class, whether it satisfies every model in `models` (`trees`: the hierarchies of the
    sensitive variables, for the hierarchical distance; `pcounts`: each class's population
    records, for delta-presence and k-map with a research subset, :mod:`sdc.identify.presence`)."""
    trees = trees or {}
    g = table.n_groups
    ok = np.ones(g, dtype=bool)
    if models.min_size is not None:
        ok &= table.counts >= models.min_size
    if models.needs_population:
        ok &= presence_checks(table.counts, pcounts, models)
    for s, lv in models.l.items():
        cl = table.cells[sensitive_index[s]]
        if models.l_variant == "recursive":
            ok &= recursive_ok(cl, g, int(lv), models.c)
            continue
        vals = l_values(cl, g, models.l_variant, models.c)
        if models.l_variant in ("entropy", "grassberger"):
            ok &= ~entropy_below(vals, lv)
            if models.l_variant == "grassberger":  # ARX: at least ceil(l) distinct values too
                ok &= l_values(cl, g, "distinct") >= math.ceil(lv - _RTOL * max(lv, 1.0))
        else:
            ok &= vals >= lv
    for s, tv in models.t.items():
        d = t_values(table.cells[sensitive_index[s]], q[s], g, models.t_distance, trees.get(s))
        ok &= ~_above(d, tv)
    for s, bv in models.beta.items():
        b = beta_values(table.cells[sensitive_index[s]], q[s], g, models.beta_variant)
        ok &= ~_above(b, bv)
    for s, dv in models.delta.items():
        d = delta_values(table.cells[sensitive_index[s]], q[s], g, models.delta_variant)
        ok &= ~_at_or_above(d, dv)
    for s, av in models.alpha.items():
        ok &= ~_above(alpha_values(table.cells[sensitive_index[s]], g), av)
    return ok


def achieved(table: GroupTable, kept: np.ndarray, models: Models, sensitive_index: Mapping[str, int],
             q: Mapping[str, np.ndarray], trees: Mapping[str, HierarchyTree] | None = None,
             population: Any = None) -> dict[str, Any]:
    """What the released classes (those in `kept`) achieve: the smallest class, and per
    sensitive variable the smallest l, largest t, largest beta and largest delta; with a
    research subset (`population`, :class:`sdc.identify.presence.PopulationCounts`) the least
    and largest delta-presence and the smallest population class (the k-map) of the released classes."""
    g = table.n_groups
    trees = trees or {}
    out: dict[str, Any] = {"k": int(table.counts[kept].min()) if kept.any() else None}
    if population is not None:
        pc = population.pcounts[kept]
        d = table.counts[kept] / np.maximum(pc, 1)
        out["delta_presence"] = [float(d.min()), float(d.max())] if d.size else None
        out["k_map"] = int(pc.min()) if pc.size else None
    for s in models.l:
        v = l_values(table.cells[sensitive_index[s]], g, models.l_variant, models.c)[kept]
        out.setdefault("l", {})[s] = float(v.min()) if v.size else None
    for s in models.t:
        v = t_values(table.cells[sensitive_index[s]], q[s], g, models.t_distance, trees.get(s))[kept]
        v = v[~np.isnan(v)]
        out.setdefault("t", {})[s] = float(v.max()) if v.size else None
    for s in models.beta:
        v = beta_values(table.cells[sensitive_index[s]], q[s], g, models.beta_variant)[kept]
        v = v[~np.isnan(v)]
        out.setdefault("beta", {})[s] = float(v.max()) if v.size else None
    for s in models.delta:
        v = delta_values(table.cells[sensitive_index[s]], q[s], g, models.delta_variant)[kept]
        v = v[~np.isnan(v)]
        out.setdefault("delta", {})[s] = float(v.max()) if v.size else None
    for s in models.alpha:
        v = alpha_values(table.cells[sensitive_index[s]], g)[kept]
        v = v[~np.isnan(v)]
        out.setdefault("alpha", {})[s] = float(v.max()) if v.size else None
    return out
