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
from scipy.special import digamma, gammaln, polygamma

from sdc._stats import summary_frame
from sdc._validation import check_fraction, check_int, check_option
from sdc.core.scenario import resolve_keys
from sdc.exceptions import SdcWarning
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare
from sdc.risk.pitman_newton import newton_pitman, paper_root, pitman_estimate_arx
from sdc.risk.snb import SNB_EDGE, snb, snb_expected, snb_fit  # noqa: F401 (re-exported)

__all__ = [
    "PopulationUniquenessResult", "population_uniqueness", "class_size_histogram",
    "zayatz", "pitman", "snb", "dankar", "ESTIMATORS", "USA_POPULATION", "population_uniques_of_sizes",
]

#: The estimators of :func:`population_uniques_of_sizes` (ARX's ``PopulationUniquenessModel``).
ESTIMATORS = ("dankar", "pitman", "zayatz", "snb")
#: ARX's ``ARXPopulationModel.Region.USA`` population (the figure its JUnit tests use).
USA_POPULATION = 317_238_626

VARIANTS = ("paper", "arx")


# Above this N the hypergeometric and negative-binomial terms lose all precision in float64
# (Zayatz and SNB turn NaN from about 1e12); it exceeds every real population (about 8e9 people).
MAX_POPULATION = 10**10

# Half the 95 % point of chi-squared with 1 df: a Pitman fit whose log-likelihood exceeds the
# uniform limit (alpha -> -inf) by less is not told from it (variant "arx").
LR_LIMIT = 0.5 * 3.841458820694124


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
    h = hypergeom_one(N, i, n)  # P[X = 1], X ~ Hypergeom(N, i, n)
    denom = float(np.dot(c / u, h))
    p = (c1 / u) * (n / N) / denom  # P[X = 1] for one success in N is n / N
    return c1 * p / (n / N)


def hypergeom_one(N: int, K: np.ndarray, n: int) -> np.ndarray:
    r"""P[X = 1] for X ~ Hypergeometric(population N, K successes, n draws), per K:

    .. math:: \frac{\binom{K}{1}\binom{N-K}{n-1}}{\binom{N}{n}}
              = K \frac{n}{N} \prod_{j=0}^{K-2} \Bigl(1 - \frac{n-1}{N-1-j}\Bigr)

    (the binomial coefficients expanded and cancelled), summed as logs (``log1p``) cumulatively
    over j: one pass for every K, where scipy's general pmf takes 2 ms a call at N = 3e8 (the
    search calls it per transformation). A factor (N - n - j) = 0 makes the probability 0.
    """
    K = np.asarray(K).astype(np.int64)
    j = np.arange(max(int(K.max(initial=1)) - 1, 0), dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(N - n - j > 0, np.log1p(-(n - 1) / (N - 1 - j)), -np.inf)
    cum = np.concatenate(([0.0], np.cumsum(t)))
    return K * (n / N) * np.exp(cum[K - 1])


@dataclass(frozen=True, slots=True)
class PitmanFit:
    """Pitman's fit: the estimate, (theta, alpha), the log-likelihood there, and why there is
    no estimate (``note``, empty when there is one)."""

    estimate: float
    theta: float
    alpha: float
    log_likelihood: float
    note: str = ""


#: Classes from which Pitman's likelihood sums its first term in closed form, and the largest
#: theta / |alpha| it does so at (beyond it the lgamma difference would lose digits).
_CLOSED = 4096
_CLOSED_X = 1e7


class _PitmanLikelihood:
    """Pitman's sampling formula for a sample partition (Hoshino 2001, eq. 3):
    log L = sum_{i=1}^{u-1} log(theta + i alpha) - sum_{i=1}^{n-1} log(theta + i)
    + sum_j c_j sum_{l=1}^{j-1} log(l - alpha), with its gradient (the likelihood equations)
    and Hessian. ``space`` is Hoshino's (0 < alpha < 1, theta > -alpha) or ARX's (alpha < 1,
    theta >= 0, every theta + i alpha > 0)."""

    def __init__(self, i: np.ndarray, c: np.ndarray, n: int, space: str) -> None:
        self.u = int(c.sum())
        self.n = n
        self.space = space
        self.iu = np.arange(1, self.u, dtype=np.float64)
        big = int(i.max())
        self.l = np.arange(1, big, dtype=np.float64)
        # classes with size > l, for each l < the largest size
        above = np.concatenate([np.cumsum(c[::-1])[::-1], [0.0]])
        self.w = above[np.searchsorted(i, self.l, side="right")]

    def inside(self, theta: float, alpha: float) -> bool:
        if not (np.isfinite(theta) and np.isfinite(alpha)) or alpha >= 1:
            return False
        if self.space == "paper":
            return alpha > 0 and theta > -alpha
        return theta >= 0 and theta + alpha > 0 and theta + (self.u - 1) * min(alpha, 0.0) > 0

    def log_likelihood(self, theta: float, alpha: float) -> float:
        with np.errstate(invalid="ignore", divide="ignore"):
            v = (self._log_rising(theta, alpha) - (gammaln(theta + self.n) - gammaln(theta + 1))
                 + np.dot(self.w, np.log(self.l - alpha)))
        return float(v)

    def _log_rising(self, theta: float, alpha: float) -> float:
        """sum_{i=1}^{u-1} log(theta + i alpha): summed term by term for up to _CLOSED classes
        (and wherever the closed form would lose digits), else in closed form, since
        prod_{i=1}^{u-1} (x + i) = Gamma(x + u) / Gamma(x + 1) with x = theta / alpha:
        (u - 1) log alpha + lgamma(x + u) - lgamma(x + 1) for alpha > 0, and for alpha < 0
        (ARX's space, where theta + i alpha > 0 for every i) (u - 1) log|alpha| +
        lgamma(y) - lgamma(y - u + 1) with y = theta / |alpha|. The optimiser evaluates the
        likelihood tens of thousands of times: O(1) instead of O(u) each."""
        u = self.u
        if u - 1 <= _CLOSED or alpha == 0 or not np.isfinite(theta):
            return float(np.log(theta + self.iu * alpha).sum())
        x = theta / abs(alpha)
        if abs(x) > _CLOSED_X:  # the two lgamma values would be far larger than their difference
            return float(np.log(theta + self.iu * alpha).sum())
        if alpha > 0:
            if x + 1 <= 0:
                return float(np.log(theta + self.iu * alpha).sum())  # a term <= 0: the sum says how
            return float((u - 1) * math.log(alpha) + gammaln(x + u) - gammaln(x + 1))
        if x - u + 1 <= 0:
            return float(np.log(theta + self.iu * alpha).sum())
        return float((u - 1) * math.log(-alpha) + gammaln(x) - gammaln(x - u + 1))

    def neg(self, p: np.ndarray) -> float:
        if not self.inside(p[0], p[1]):
            return np.inf
        v = self.log_likelihood(p[0], p[1])
        return -v if np.isfinite(v) else np.inf

    def score(self, p: np.ndarray) -> np.ndarray:
        theta, alpha = p
        a = 1.0 / (theta + self.iu * alpha)
        return np.array([a.sum() - (digamma(theta + self.n) - digamma(theta + 1)),
                         np.dot(self.iu, a) - np.dot(self.w, 1.0 / (self.l - alpha))])

    def hessian(self, p: np.ndarray) -> np.ndarray:
        theta, alpha = p
        a2 = 1.0 / (theta + self.iu * alpha) ** 2
        t = -a2.sum() + polygamma(1, theta + 1) - polygamma(1, theta + self.n)
        ta = -np.dot(self.iu, a2)
        aa = -np.dot(self.iu ** 2, a2) - np.dot(self.w, 1.0 / (self.l - alpha) ** 2)
        return np.array([[t, ta], [ta, aa]])

    def uniform_limit(self) -> tuple[float, float]:
        """(m, log L) of the best limit alpha -> -inf with theta = -m alpha: Pitman's formula
        becomes a uniform draw from m classes, log L = sum_{i=1}^{u-1} log(m - i) - (n - 1) log m."""
        u, n = self.u, self.n

        def neg(z: float) -> float:  # m = u - 1 + exp(z) > u - 1
            m = u - 1 + math.exp(z)
            return -float(gammaln(m) - gammaln(m - u + 1) - (n - 1) * math.log(m))

        r = optimize.minimize_scalar(neg, bounds=(-30.0, 60.0), method="bounded", options={"xatol": 1e-10})
        return u - 1 + math.exp(r.x), -float(r.fun)

    def edge(self, theta: float, alpha: float) -> str:
        """The edge of the parameter space nearest a boundary maximum (theta, alpha), in words."""
        if self.space == "paper":
            near = min((alpha, "alpha = 0, the edge of Pitman's 0 < alpha < 1 (variant 'arx' allows alpha < 0)"),
                       (1 - alpha, "alpha = 1, the edge of Pitman's 0 < alpha < 1"),
                       (theta + alpha, "theta = -alpha, the edge of Pitman's theta > -alpha"))
        else:
            near = min((1 - alpha, "alpha = 1, the edge of Pitman's alpha < 1"),
                       (theta, "theta = 0, where ARX's solver stops (it keeps theta >= 0)"),
                       (theta + (self.u - 1) * alpha if alpha < 0 else math.inf, "theta = (u - 1) |alpha|, the edge of "
                                                                "Pitman's space for alpha < 0"))
        return "the likelihood is largest at " + near[1]


def _pitman_starts(i: np.ndarray, c: np.ndarray, n: int, u: int, space: str) -> list[tuple[float, float]]:
    """Nelder-Mead start points: a spread over the space, and ARX's moment-type initial guess."""
    starts = [(1.0, 0.5), (10.0, 0.2), (100.0, 0.8), (u * 0.5, 0.5)]
    if space == "arx":
        starts += [(u * 0.2, -0.1), (u * 2.0, -1.0), (u * 20.0, -10.0)]
        c1 = float(c[i == 1].sum())
        c2 = float(c[i == 2].sum()) or 1.0
        g = c1 * (c1 - 1) / c2
        den = 2 * c1 * u + c1 * g - n * g
        if den != 0:
            t = (n * u * g - c1 * (n - 1) * (2 * u + g)) / den
            starts.append((t, (t * (c1 - n) + (n - 1) * c1) / (n * u)))
    return starts


def pitman_fit(i: np.ndarray, c: np.ndarray, n: int, N: int, variant: str = "paper",
               explain: bool = True) -> PitmanFit:
    """Pitman's estimate of the number of population uniques, by maximum likelihood.

    The estimate is Gamma(theta + 1) / Gamma(theta + alpha) * N^alpha (the number of singletons
    of a Pitman partition of N, to leading order; Hoshino 2001). (theta, alpha) maximise
    Pitman's sampling formula over Hoshino's space 0 < alpha < 1, theta > -alpha
    (``variant="paper"``) or over ARX's, alpha < 1 and theta >= 0 (``"arx"``: alpha may be
    negative). The maximum is accepted only where it solves the likelihood equations inside the
    space; a maximum on the edge of the space (the likelihood rises towards alpha <= 0 in the
    papers' space, towards theta < 0 in ARX's, whose Newton-Raphson solver then finds no root)
    gives no estimate, as does an estimate outside [0, N] (ARX's rule); ``note`` says why.

    ``variant="arx"`` solves the likelihood equations as ARX does (:mod:`sdc.risk.pitman_newton`:
    Newton-Raphson from ARX's moment-type start, then its 16 prepared starts, |score| <= 1e-6,
    theta >= 0): an estimate exactly where ARX's solver finds a root (polished to machine
    precision), none where it does not; about 1 ms on adult's classes. Without a root,
    ``explain=True`` runs the direct maximisation below once more to say where the likelihood is
    largest (the search criterion passes ``explain=False``: only the decision counts there).
    """
    c1 = float(c[i == 1].sum())
    if c1 == 0:
        return PitmanFit(0.0, math.nan, math.nan, math.nan)
    if c.sum() < 2:
        return PitmanFit(math.nan, math.nan, math.nan, math.nan, "a single class: the likelihood has no maximum")
    space = "arx" if variant == "arx" else "paper"
    lik = _PitmanLikelihood(i, c, n, space)
    if space == "arx":
        return _pitman_fit_arx(lik, i, c, n, N, explain)
    return _pitman_fit_paper_fast(lik, i, c, n, N) or _pitman_fit_direct(lik, i, c, n, N)


def _pitman_fit_paper_fast(lik: _PitmanLikelihood, i: np.ndarray, c: np.ndarray, n: int, N: int) -> PitmanFit | None:
    """Hoshino's space by Newton's iterations (:func:`sdc.risk.pitman_newton.paper_root`): taken
    when they find a local maximum inside the space whose likelihood beats the one finite edge,
    alpha = 0 (Ewens's formula, maximised over theta); the likelihood falls to -inf at the
    others (theta -> -alpha, alpha -> 1 and theta -> inf, given a class of size 2 or more).
    None (the direct maximisation decides) otherwise."""
    if not lik.w.size or lik.w[0] <= 0:
        return None
    theta, alpha, maximum = paper_root(i, c, n)
    if not maximum:
        return None
    ll = lik.log_likelihood(theta, alpha)
    r = optimize.minimize_scalar(lambda z: -lik.log_likelihood(math.exp(z), 0.0), bounds=(-30.0, 40.0),
                                 method="bounded", options={"xatol": 1e-10})
    if not (np.isfinite(ll) and ll > -float(r.fun) + 1e-9 * abs(ll)):
        return None
    est = math.exp(gammaln(theta + 1) - gammaln(theta + alpha) + alpha * math.log(N))
    if not (0 <= est <= N):
        return PitmanFit(math.nan, theta, alpha, ll, f"the estimate {est:.6g} is outside [0, N]")
    return PitmanFit(est, theta, alpha, ll)


def _pitman_fit_arx(lik: _PitmanLikelihood, i: np.ndarray, c: np.ndarray, n: int, N: int,
                    explain: bool) -> PitmanFit:
    """ARX's decision (:func:`sdc.risk.pitman_newton.newton_pitman`), the note from the direct fit."""
    nr = newton_pitman(i, c, n)
    if nr.converged:
        theta, alpha = nr.theta, nr.alpha
        ll = lik.log_likelihood(theta, alpha)
        if alpha == 0:
            return PitmanFit(math.nan, theta, alpha, ll, "alpha = 0 exactly (ARX gives no estimate there)")
        est = pitman_estimate_arx(theta, alpha, N)
        if math.isnan(est):
            e10 = (gammaln(theta + 1) - gammaln(theta + alpha) + alpha * math.log(N)) / math.log(10)
            raw = f"{10 ** e10:.6g}" if abs(e10) < 300 else f"10^{e10:.6g}"
            return PitmanFit(math.nan, theta, alpha, ll, f"the estimate {raw} (theta = {theta:.6g}, "
                             f"alpha = {alpha:.6g}) is outside [0, N]")
        return PitmanFit(est, theta, alpha, ll)
    why = "ARX's Newton-Raphson solver finds no root of the likelihood equations (17 starts)"
    d = _pitman_fit_direct(lik, i, c, n, N) if explain else PitmanFit(math.nan, math.nan, math.nan, math.nan, why)
    note = d.note or f"{why}; the likelihood is largest at theta = {d.theta:.6g}, alpha = {d.alpha:.6g}"
    return PitmanFit(math.nan, d.theta, d.alpha, d.log_likelihood, note)


def _pitman_fit_direct(lik: _PitmanLikelihood, i: np.ndarray, c: np.ndarray, n: int, N: int) -> PitmanFit:
    """Nelder-Mead from eight starts, then the likelihood equations (the fit over either space)."""
    space = lik.space
    best = None
    for start in _pitman_starts(i, c, n, lik.u, space):
        if not np.isfinite(lik.neg(np.array(start))):
            continue
        with np.errstate(all="ignore"):
            r = optimize.minimize(lik.neg, np.array(start), method="Nelder-Mead",
                                  options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000, "maxfev": 40000})
        if np.isfinite(r.fun) and (best is None or r.fun < best.fun):
            best = r
    if best is None:
        return PitmanFit(math.nan, math.nan, math.nan, math.nan, "the likelihood could not be evaluated")
    theta, alpha = (float(v) for v in best.x)
    with np.errstate(all="ignore"):
        sol = optimize.root(lik.score, best.x, jac=lik.hessian, method="hybr", options={"xtol": 1e-14})
    x = sol.x
    # A maximum inside the space solves the likelihood equations: take the root when it is inside
    # and no worse a likelihood than the Nelder-Mead point (judged by the equations, not by the
    # solver's flag: hybr may say "xtol too small" at a point that already solves them).
    scale = np.sum(1.0 / (x[0] + lik.iu * x[1])) if lik.inside(x[0], x[1]) else math.inf
    root = (lik.inside(x[0], x[1]) and np.max(np.abs(lik.score(x))) <= 1e-8 * max(scale, 1.0)
            and -lik.log_likelihood(x[0], x[1]) <= best.fun + 1e-9 * abs(best.fun))
    ll = lik.log_likelihood(x[0], x[1]) if root else -float(best.fun)
    if space == "arx":
        # ARX's space is unbounded below in alpha: the likelihood may rise all the way to
        # alpha -> -inf (classes like a uniform draw from m cells), where no root exists.
        # A finite maximum that a likelihood-ratio test (1 df, 5 %) cannot tell from that limit
        # is no fit either: its estimate swings between about 0 and above N (ARX's solver finds
        # neither; docs/risk-models.md).
        m, ll_inf = lik.uniform_limit()
        if ll - ll_inf < LR_LIMIT:
            return PitmanFit(math.nan, theta, alpha, ll,
                             f"the likelihood is largest as alpha -> -inf, or not significantly below it "
                             f"(the classes look like a uniform draw from about {m:,.0f} classes): no finite fit")
    if not root:
        return PitmanFit(math.nan, theta, alpha, ll, lik.edge(theta, alpha))
    theta, alpha = float(x[0]), float(x[1])
    if alpha == 0:
        return PitmanFit(math.nan, theta, alpha, ll, "alpha = 0 exactly (ARX gives no estimate there)")
    est = math.exp(gammaln(theta + 1) - gammaln(theta + alpha) + alpha * math.log(N))
    if not (0 <= est <= N):
        return PitmanFit(math.nan, theta, alpha, ll, f"the estimate {est:.6g} is outside [0, N]")
    return PitmanFit(est, theta, alpha, ll)


def pitman(i: np.ndarray, c: np.ndarray, n: int, N: int, variant: str = "paper") -> tuple[float, float, float]:
    """Pitman's estimate and fitted (theta, alpha) (:func:`pitman_fit`); NaN when there is none."""
    f = pitman_fit(i, c, n, N, variant)
    return f.estimate, f.theta, f.alpha


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


def population_uniques_of_sizes(sizes: np.ndarray, N: int, estimator: str, variant: str = "arx",
                                fallback: bool = True) -> float:
    """One estimator's number of population uniques from the class sizes of a sample of
    n = sum(sizes) records drawn from N (the functions above, nothing recomputed apart).

    0 when no class has size 1 (every estimator, as ARX); NaN when the estimator gives no
    estimate (an estimate of exactly 0 counts as none, ARX's ``isValid``). ``"dankar"`` is
    :func:`dankar`'s rule; with ``fallback=False`` it does not fall back to Zayatz when
    Pitman fails (pi <= 0.1), as ARX's ``PopulationUniqueness`` criterion calls it
    (``getFractionOfUniqueTuplesDankar(false)``). Only the estimators the rule needs are fitted.
    """
    i, c = class_size_histogram(np.asarray(sizes))
    c1 = float(c[i == 1].sum())
    if c1 == 0:
        return 0.0
    n = int(np.sum(np.asarray(sizes)))
    pi = n / N

    def valid(v: float) -> float:
        return math.nan if (math.isnan(v) or v == 0) else v

    if estimator == "zayatz":
        return valid(zayatz(i, c, n, N))
    if estimator == "pitman" or (estimator == "dankar" and pi <= 0.1):
        p = valid(pitman_fit(i, c, n, N, variant, explain=False).estimate)
        if estimator == "pitman" or not math.isnan(p) or not fallback:
            return p
        return valid(zayatz(i, c, n, N))
    s = valid(snb_fit(i, c, n, N, variant)[0])
    if estimator == "snb":
        return s
    return valid(dankar(zayatz(i, c, n, N), math.nan, s, c1, pi)[0])


@dataclass(frozen=True, slots=True, kw_only=True)
class PopulationUniquenessResult:
    """Result of :func:`population_uniqueness`.

    Estimates are numbers of population-unique records; ``fraction_*`` divide by N.
    ``chosen``/``model`` follow Dankar et al.'s rule. Also the sample facts: n, u
    (classes), c_1 (sample uniques) and the fitted parameters. An estimator without an estimate
    is NaN (never 0), and ``pitman_note`` / ``snb_note`` say why.
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
    pitman_note: str = ""
    snb_note: str = ""

    @property
    def sample_uniqueness(self) -> float:
        """Fraction of records that are sample uniques."""
        return self.n_sample_uniques / self.n_records

    def fraction(self, estimate: float) -> float:
        return estimate / self.population_size

    @property
    def fraction_chosen(self) -> float:
        return self.chosen / self.population_size

    def note(self, estimator: str) -> str:
        """Why `estimator` ("zayatz", "pitman", "snb") has no estimate; empty when it has one."""
        return {"pitman": self.pitman_note, "snb": self.snb_note}.get(estimator, "")

    def to_frame(self) -> pd.DataFrame:
        """One row per estimator and Dankar's choice; ``note`` says why an estimate is missing
        ("no estimate: ...") or, for Dankar, which estimator it took."""
        rows = []
        for m in ("zayatz", "pitman", "snb"):
            v = getattr(self, m)
            rows.append((m, v, v / self.population_size, f"no estimate: {self.note(m)}" if self.note(m) else ""))
        rows.append((f"dankar ({self.model})", self.chosen, self.fraction_chosen, ""))
        return pd.DataFrame(rows, columns=["estimator", "population_uniques", "fraction_of_population", "note"])

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
    pf = pitman_fit(i, c, n, N, variant)
    p, theta, alpha_p = pf.estimate, pf.theta, pf.alpha
    s, K, alpha_s, beta_s, snb_note = snb_fit(i, c, n, N, variant)
    chosen, model = dankar(z, p, s, c1, pi)
    if pi <= 0.1 and model == "zayatz" and c1 > 0:
        warnings.warn(f"Pitman gives no estimate ({pf.note}); Dankar et al.'s rule falls back to Zayatz.",
                      SdcWarning, stacklevel=2)
    return PopulationUniquenessResult(
        keys=keys, variant=variant, n_records=n, population_size=N, sampling_fraction=pi,
        n_classes=int(c.sum()), n_sample_uniques=int(c1),
        zayatz=z, pitman=p, snb=s, chosen=chosen, model=model,
        pitman_theta=theta, pitman_alpha=alpha_p, snb_k=K, snb_alpha=alpha_s, snb_beta=beta_s,
        pitman_note=pf.note, snb_note=snb_note,
        class_sizes=pd.DataFrame({"size": i.astype(np.int64), "n_classes": c.astype(np.int64)}),
    )
