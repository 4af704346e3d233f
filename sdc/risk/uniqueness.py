"""Population uniqueness: how many sample records are unique in the population too.

From the sample's class-size distribution (c_i = number of equivalence classes of size i,
u = number of classes, n records) and the population size N (or the sampling fraction
pi = n / N), four estimators of the number of population-unique records, as in ARX:

* **Zayatz (1991)**: the sample's class-size distribution stands in for the population's.
  With h(i) = P[X = 1] for X ~ Hypergeometric(N, i, n) (a population class of size i gives
  exactly one sampled record), P(population unique | sample unique) =
  (c_1/u) h(1) / sum_i (c_i/u) h(i), and the estimate is c_1 * P / pi.
* **Pitman (Hoshino 2001)**: the Pitman (two-parameter Poisson-Dirichlet) sampling formula
  with parameters (theta, alpha) fitted by maximum likelihood to the sample partition,
  log L = sum_{i=1}^{u-1} log(theta + i alpha) - sum_{i=1}^{n-1} log(theta + i)
  + sum_j c_j sum_{l=1}^{j-1} log(l - alpha); the estimate is
  Gamma(theta + 1) / Gamma(theta + alpha) * N^alpha (the number of singletons of a Pitman
  partition of N, to leading order).
* **SNB, slide negative binomial (Chen and Keller-McNulty 1998)**: population class sizes
  F - 1 ~ NegBin(alpha, beta) over K non-empty population classes, records sampled with
  probability pi. K is estimated with Haas et al.'s (1995) Shlosser-type estimator
  K = u + c_1 (A / B) (C / D)^2, A = sum_i i pi^2 (1 - pi^2)^(i-1) c_i,
  B = sum_i (1 - pi)^i ((1 + pi)^i - 1) c_i, C = sum_i (1 - pi)^i c_i,
  D = sum_i i pi (1 - pi)^(i-1) c_i; then (alpha, beta) solve E[c_1] = c_1, E[c_2] = c_2:
  with d = (1 - pi)(1 - beta),
  E[c_1] = K pi (beta / (1 - d))^alpha (alpha d / (1 - d) + 1),
  E[c_2] = K alpha beta^alpha pi^2 (1 - beta) / 2 (1 - d)^-(alpha + 2) (2 - (1 - alpha) d);
  the estimate is K beta^alpha.
* **Dankar et al. (2012)** decision rule: no sample uniques gives 0; pi <= 0.1: Pitman,
  falling back to Zayatz when Pitman fails; pi > 0.1: min(Zayatz, SNB) when SNB converges,
  else Zayatz.

``variant="arx"`` reproduces two places where ARX's code differs from those papers (see
docs/risk-models.md): its K estimator subtracts 1 per class size in B instead of
(1 - pi)^i c_i, and its c_2 equation multiplies by (1 - d)^(alpha + 2) instead of dividing.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import gammaln
from scipy.stats import hypergeom

from sdc._stats import summary_frame
from sdc._validation import check_fraction, check_int, check_option
from sdc.core.scenario import resolve_keys
from sdc.exceptions import SdcWarning
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = [
    "PopulationUniquenessResult", "population_uniqueness", "class_size_histogram",
    "zayatz", "pitman", "snb", "dankar",
]

VARIANTS = ("paper", "arx")


# Above this N the hypergeometric and negative-binomial terms lose all precision in float64
# (Zayatz and SNB turn NaN from about 1e12); it exceeds every real population (about 8e9 people).
MAX_POPULATION = 10**10


def class_size_histogram(sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(class sizes i, number of classes c_i of each size), sizes increasing."""
    i, c = np.unique(sizes, return_counts=True)
    return i.astype(np.float64), c.astype(np.float64)


def zayatz(i: np.ndarray, c: np.ndarray, n: int, N: int) -> float:
    """Zayatz's estimate of the number of population uniques."""
    c1 = float(c[i == 1].sum())
    if c1 == 0:
        return 0.0
    u = c.sum()
    h = hypergeom.pmf(1, N, i.astype(np.int64), n)  # P[X = 1], X ~ Hypergeom(N, i, n)
    denom = float(np.dot(c / u, h))
    p = (c1 / u) * hypergeom.pmf(1, N, 1, n) / denom
    return c1 * p / (n / N)


def pitman(i: np.ndarray, c: np.ndarray, n: int, N: int) -> tuple[float, float, float]:
    """Pitman's estimate of the number of population uniques, with the fitted (theta, alpha).

    NaN when the maximum-likelihood fit fails or the estimate falls outside [0, N].
    """
    c1 = float(c[i == 1].sum())
    if c1 == 0:
        return 0.0, math.nan, math.nan
    u = int(c.sum())
    iu = np.arange(1, u, dtype=np.float64)
    in_ = np.arange(1, n, dtype=np.float64)
    # sum_j c_j sum_{l=1}^{j-1} log(l - alpha): the inner sums over l < max class size
    big = int(i.max())
    l = np.arange(1, big, dtype=np.float64)
    weight_l = np.array([c[i > x].sum() for x in l]) if big > 1 else np.zeros(0)  # classes with size > l

    def neg_ll(p: np.ndarray) -> float:
        theta, alpha = p
        if alpha < 0 or alpha >= 1 or theta <= -alpha:
            return np.inf
        with np.errstate(invalid="ignore", divide="ignore"):
            v = np.log(theta + iu * alpha).sum() - np.log(theta + in_).sum() + np.dot(weight_l, np.log(l - alpha))
        return -v if np.isfinite(v) else np.inf

    best = None
    for start in ((1.0, 0.5), (10.0, 0.2), (100.0, 0.8), (u * 0.5, 0.5)):
        try:
            r = optimize.minimize(neg_ll, np.array(start), method="Nelder-Mead",
                                  options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000, "maxfev": 40000})
        except (ValueError, FloatingPointError):
            continue
        if np.isfinite(r.fun) and (best is None or r.fun < best.fun):
            best = r
    if best is None:
        return math.nan, math.nan, math.nan

    def score(p: np.ndarray) -> np.ndarray:  # the likelihood equations (Hoshino 2001)
        theta, alpha = p
        return np.array([
            np.sum(1.0 / (theta + iu * alpha)) - np.sum(1.0 / (theta + in_)),
            np.sum(iu / (theta + iu * alpha)) - np.dot(weight_l, 1.0 / (l - alpha)),
        ])

    with np.errstate(all="ignore"):
        sol = optimize.root(score, best.x, method="hybr", options={"xtol": 1e-14})
        # Judge the root by the equations, not by the solver's flag: hybr reports "xtol too
        # small" (scipy 1.15 does, for the same root) when it cannot improve on a point that
        # already solves them. Take it when it is admissible, solves the equations at least as
        # well as the Nelder-Mead point and is no worse a likelihood.
        x = sol.x
        theta, alpha = best.x
        if (np.all(np.isfinite(x)) and 0 < x[1] < 1 and x[0] > -x[1]
                and np.max(np.abs(score(x))) <= np.max(np.abs(score(best.x)))
                and neg_ll(x) <= best.fun + 1e-9 * abs(best.fun)):
            theta, alpha = x
    if alpha <= 0:
        return math.nan, float(theta), float(alpha)
    est = math.exp(gammaln(theta + 1) - gammaln(theta + alpha) + alpha * math.log(N))
    if not (0 <= est <= N):
        return math.nan, float(theta), float(alpha)
    return est, float(theta), float(alpha)


def _snb_k(i: np.ndarray, c: np.ndarray, u: float, c1: float, pi: float, variant: str) -> float:
    if pi >= 1:
        return u  # a census: every class is observed
    q = 1.0 - pi
    A = np.sum(i * pi ** 2 * (1 - pi ** 2) ** (i - 1) * c)
    if variant == "arx":
        B = np.sum(q ** i * c * (1 + pi) ** i - 1)
    else:
        B = np.sum(q ** i * ((1 + pi) ** i - 1) * c)
    C = np.sum(q ** i * c)
    D = np.sum(i * pi * q ** (i - 1) * c)
    return float(u + c1 * (A / B) * (C / D) ** 2)


def snb_expected(K: float, pi: float, alpha: float, beta: float, variant: str = "paper") -> tuple[float, float]:
    """E[c_1], E[c_2] under the SNB model (the c_2 power as the paper, or as ARX codes it)."""
    d = (1 - pi) * (1 - beta)
    e1 = K * pi * (beta / (1 - d)) ** alpha * (alpha * d / (1 - d) + 1)
    power = (alpha + 2) if variant == "arx" else -(alpha + 2)
    e2 = K * alpha * beta ** alpha * pi ** 2 * (1 - beta) / 2 * (1 - d) ** power * (2 - (1 - alpha) * d)
    return e1, e2


def snb(i: np.ndarray, c: np.ndarray, n: int, N: int, variant: str = "paper") -> tuple[float, float, float, float]:
    """SNB estimate of the number of population uniques, with (K, alpha, beta); NaN if unsolved."""
    c1 = float(c[i == 1].sum())
    c2 = float(c[i == 2].sum())
    if c1 == 0:
        return 0.0, math.nan, math.nan, math.nan
    pi = n / N
    if pi >= 1:
        return c1, float(c.sum()), math.nan, math.nan  # N = n: the sample uniques are the population uniques
    K = _snb_k(i, c, float(c.sum()), c1, pi, variant)
    if not np.isfinite(K) or K <= 0 or c2 == 0:
        return math.nan, K, math.nan, math.nan

    def eqs(p: np.ndarray) -> np.ndarray:
        alpha, beta = math.exp(p[0]), 1 / (1 + math.exp(-p[1]))  # alpha > 0, 0 < beta < 1
        e1, e2 = snb_expected(K, pi, alpha, beta, variant)
        return np.array([e1 / c1 - 1, e2 / c2 - 1])

    for start in ((0.0, 0.0), (-2.0, 2.0), (1.0, -2.0), (-1.0, 4.0)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sol = optimize.root(eqs, np.array(start), method="hybr", options={"xtol": 1e-12})
        except (ValueError, OverflowError, FloatingPointError):
            continue
        if np.all(np.isfinite(sol.x)) and np.all(np.abs(eqs(sol.x)) < 1e-8):  # the equations, not the flag
            alpha, beta = math.exp(sol.x[0]), 1 / (1 + math.exp(-sol.x[1]))
            est = K * beta ** alpha
            if 0 <= est <= N:
                return est, K, alpha, beta
    return math.nan, K, math.nan, math.nan


def dankar(zay: float, pit: float, snb_est: float, c1: float, pi: float) -> tuple[float, str]:
    """Dankar et al.'s choice among the estimates: (estimate, model name)."""
    if c1 == 0:
        return 0.0, "none"
    if pi <= 0.1:
        if not math.isnan(pit) and pit != 0:
            return pit, "pitman"
        return zay, "zayatz"
    if not math.isnan(snb_est):
        return (snb_est, "snb") if snb_est < zay else (zay, "zayatz")
    return zay, "zayatz"


@dataclass(frozen=True, slots=True, kw_only=True)
class PopulationUniquenessResult:
    """Result of :func:`population_uniqueness`.

    Estimates are numbers of population-unique records; ``fraction_*`` divide by N.
    ``chosen``/``model`` follow Dankar et al.'s rule. Also the sample facts: n, u
    (classes), c_1 (sample uniques) and the fitted parameters.
    """

    keys: tuple[str, ...]
    variant: str
    n_records: int
    population_size: int
    sampling_fraction: float
    n_classes: int
    n_sample_uniques: int
    zayatz: float
    pitman: float
    snb: float
    chosen: float
    model: str
    pitman_theta: float
    pitman_alpha: float
    snb_k: float
    snb_alpha: float
    snb_beta: float
    class_sizes: pd.DataFrame = field(repr=False)

    @property
    def sample_uniqueness(self) -> float:
        """Fraction of records that are sample uniques."""
        return self.n_sample_uniques / self.n_records

    def fraction(self, estimate: float) -> float:
        return estimate / self.population_size

    @property
    def fraction_chosen(self) -> float:
        return self.chosen / self.population_size

    def to_frame(self) -> pd.DataFrame:
        rows = [(m, getattr(self, m), getattr(self, m) / self.population_size) for m in ("zayatz", "pitman", "snb")]
        rows.append((f"dankar ({self.model})", self.chosen, self.fraction_chosen))
        return pd.DataFrame(rows, columns=["estimator", "population_uniques", "fraction_of_population"])

    def summary(self) -> pd.DataFrame:
        rows = [
            ("n_records", self.n_records, "sample size n"),
            ("population_size", self.population_size, "N"),
            ("sampling_fraction", self.sampling_fraction, "n / N"),
            ("n_sample_uniques", self.n_sample_uniques, "records unique in the sample"),
            ("sample_uniqueness", self.sample_uniqueness, "fraction of records that are sample uniques"),
            ("population_uniques", self.chosen, f"estimated population uniques ({self.model}, Dankar et al.)"),
            ("population_uniqueness", self.fraction_chosen, "estimated population uniques / N"),
        ]
        return summary_frame(rows)


def population_uniqueness(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    variant: Literal["paper", "arx"] = "paper",
    key_bins: Mapping[str, BinSpec] | None = None,
) -> PopulationUniquenessResult:
    """Estimated number of population-unique records (Zayatz, Pitman, SNB, Dankar).

    Give exactly one of `population_size` (N >= n) or `sampling_fraction` (in (0, 1];
    N = round(n / fraction), as ARX does). Classes are the distinct key patterns, a
    missing key value counted as a value of its own (ARX's default); the estimators assume
    a simple random sample. ``key_bins`` bins continuous keys first (:mod:`sdc.core.binning`).

    References
    ----------
    .. [1] Zayatz, L. (1991). Estimation of the percent of unique population elements on a
           microdata file using the sample. US Census Bureau SRD Report 91/08.
    .. [2] Hoshino, N. (2001). Applying Pitman's sampling formula to microdata disclosure
           risk assessment. Journal of Official Statistics 17(4), 499-520.
    .. [3] Chen, G. and Keller-McNulty, S. (1998). Estimation of identification disclosure
           risk in microdata. Journal of Official Statistics 14(1), 79-95.
    .. [4] Haas, P. J., Naughton, J. F., Seshadri, S. and Stokes, L. (1995). Sampling-based
           estimation of the number of distinct values of an attribute. VLDB 1995, 311-322.
    .. [5] Dankar, F. K., El Emam, K., Neisa, A. and Roffey, T. (2012). Estimating the
           re-identification risk of clinical data sets. BMC Med Inform Decis Mak 12, 66.
    """
    data, keys, _ = prepare(data, keys, key_bins=key_bins)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    variant = check_option(variant, "variant", VARIANTS)
    n = len(data)
    if (population_size is None) == (sampling_fraction is None):
        raise ValueError("give exactly one of `population_size` and `sampling_fraction`.")
    if population_size is not None:
        N = check_int(population_size, "population_size", min_value=n, max_value=MAX_POPULATION)
    else:
        f = check_fraction(sampling_fraction, "sampling_fraction", closed="right")
        N = int(round(n / f))
        if N > MAX_POPULATION:
            raise ValueError(f"`sampling_fraction` gives a population of {N} records, more than {MAX_POPULATION}; "
                             f"got {sampling_fraction!r}.")
    classes = kc.classes
    i, c = class_size_histogram(classes.sizes)
    c1 = float(c[i == 1].sum())
    pi = n / N
    z = zayatz(i, c, n, N)
    p, theta, alpha_p = pitman(i, c, n, N)
    s, K, alpha_s, beta_s = snb(i, c, n, N, variant)
    chosen, model = dankar(z, p, s, c1, pi)
    if pi <= 0.1 and model == "zayatz" and c1 > 0:
        warnings.warn("the Pitman fit failed; Dankar et al.'s rule falls back to Zayatz.", SdcWarning, stacklevel=2)
    return PopulationUniquenessResult(
        keys=keys, variant=variant, n_records=n, population_size=N, sampling_fraction=pi,
        n_classes=int(c.sum()), n_sample_uniques=int(c1),
        zayatz=z, pitman=p, snb=s, chosen=chosen, model=model,
        pitman_theta=theta, pitman_alpha=alpha_p, snb_k=K, snb_alpha=alpha_s, snb_beta=beta_s,
        class_sizes=pd.DataFrame({"size": i.astype(np.int64), "n_classes": c.astype(np.int64)}),
    )
