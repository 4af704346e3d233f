"""Minimum covariance determinant (MCD): a robust center and covariance of numeric records.

The search is FAST-MCD (Rousseeuw & Van Driessen 1999, *A fast algorithm for the minimum
covariance determinant estimator*, Technometrics 41(3), 212-223): from many random
(p+1)-subsets, concentration steps ("C-steps": keep the h records closest in Mahalanobis
distance to the current fit, refit) decrease the covariance determinant; the best ten starts
are iterated to convergence and the h-subset with the smallest determinant is the raw MCD.
Above 1,500 records the starts run on a random subsample of 1,500 and the ten best fits are then
iterated on all records. h = floor(2 n2 - n + 2 (n - n2) alpha) with n2 = floor((n + p + 1) / 2)
(floor((n + p + 1) / 2) at the default alpha = 0.5, the maximal breakdown point).

:func:`robust_covariance` is the estimator robustbase's ``covMcd`` defines with its defaults
(which sdcMicro's ``mvTopCoding`` calls): the raw covariance of the h-subset (divisor h - 1) times
the consistency factor c(h/n) = (h/n) / F_{chi2_{p+2}}(chi2_{p, h/n}) (Croux & Haesbroeck 1999,
*Influence function and efficiency of the MCD scatter matrix estimator*, J. Multivariate Anal.
71, 161-190) and the small-sample factor of Pison, Van Aelst & Willems (2002, *Small sample
corrections for LTS and MCD*, Metrika 55, 111-123); then the reweighting step: the records with
squared distance below chi2_{p, 0.975} get weight 1, the final center is their mean and the final
covariance their covariance (divisor sum(w) - 1) times c(sum(w)/n) and the reweighted
small-sample factor. Pison et al.'s factors are their fitted curves 1 / (1 - exp(b0) / n^b1);
robustbase replaces them by simulated values for n <= 20 (at alpha 0.5), which we do not.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from scipy import stats

from sdc._provenance import sha256_bytes

__all__ = ["h_of", "mcd_subset", "consistency", "small_sample_factor", "RobustFit", "robust_covariance",
           "mahalanobis2"]

#: Records on which the random starts run when the file is larger.
_SUBSAMPLE = 1500
#: The last fits, by the digest of the records and the search's settings: a comparison and each
#: setting of a sweep take the original's MCD again, the same search on the same records.
_FITS: OrderedDict[tuple, "RobustFit"] = OrderedDict()
_FITS_KEPT = 8


def h_of(n: int, p: int, alpha: float = 0.5) -> int:
    """The size of the MCD's subset for n records of p variables."""
    n2 = (n + p + 1) // 2
    return int(min(max(int(np.floor(2 * n2 - n + 2 * (n - n2) * alpha)), p + 1), n))


def consistency(frac: float, p: int) -> float:
    """Croux and Haesbroeck's factor making the covariance of the closest share `frac` of a
    normal sample consistent: frac / F_{chi2_{p+2}}(chi2_{p, frac})."""
    if frac >= 1:
        return 1.0
    return float(frac / stats.chi2.cdf(stats.chi2.ppf(frac, p), p + 2))


# Pison, Van Aelst & Willems (2002): f(n) = 1 - exp(b0) / n^b1 at alpha 0.5 and 0.875, linear in
# alpha between them. For p = 1, 2 their fitted (b0, b1); for p > 2, b0 and b1 from their two
# curves -a / p^b = exp(b0) (c p^2)^-b1 at (a, b, c) below (raw MCD, then reweighted).
_FIT_SMALL_P = {False: {1: ((0.262024211897096, 0.604756680630497), (-0.351584646688712, 1.01646567502486)),
                        2: ((0.673292623522027, 0.691365864961895), (0.446537815635445, 1.06690782995919))},
                True: {1: ((1.11098143415027, 1.5182890270453), (-0.66046776772861, 0.88939595831888)),
                       2: ((3.11101712909049, 1.91401056721863), (0.79473550581058, 1.10081930350091))}}
_FIT_LARGE_P = {False: (((-1.42764571687802, 1.26263336932151, 2), (-1.06141115981725, 1.28907991440387, 3)),
                        ((-0.455179464070565, 1.11192541278794, 2), (-0.294241208320834, 1.09649329149811, 3))),
                True: (((-1.02842572724793, 1.67659883081926, 2), (-0.26800273450853, 1.35968562893582, 3)),
                       ((-0.544482443573914, 1.25994483222292, 2), (-0.343791072183285, 1.25159004257133, 3)))}


def _fp(p: int, n: int, curves: tuple[tuple[float, float, float], ...]) -> float:
    y = [np.log(-a / p**b) for a, b, _ in curves]
    A = np.array([[1.0, -np.log(c * p**2)] for _, _, c in curves])
    b0, b1 = np.linalg.solve(A, np.array(y))
    return float(1 - np.exp(b0) / n**b1)


def small_sample_factor(p: int, n: int, alpha: float = 0.5, *, reweighted: bool = False) -> float:
    """Pison, Van Aelst and Willems's (2002) small-sample factor of the MCD covariance."""
    if p <= 2:
        (a0, a1), (c0, c1) = _FIT_SMALL_P[reweighted][p]
        f500, f875 = 1 - np.exp(a0) / n**a1, 1 - np.exp(c0) / n**c1
    else:
        half, most = _FIT_LARGE_P[reweighted]
        f500, f875 = _fp(p, n, half), _fp(p, n, most)
    f = f500 + (f875 - f500) / 0.375 * (alpha - 0.5) if alpha <= 0.875 else f875 + (1 - f875) / 0.125 * (alpha - 0.875)
    return float(1 / f)


def _fit(x: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    sub = x[idx]
    mu = sub.mean(axis=0)
    dev = sub - mu
    cov = dev.T @ dev / idx.size
    sign, logdet = np.linalg.slogdet(cov)
    return mu, cov, (logdet if sign > 0 else -np.inf)


def mahalanobis2(x: np.ndarray, mu: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """Squared Mahalanobis distances of the rows of `x` (R's ``mahalanobis``)."""
    dev = x - mu
    return np.einsum("ij,ij->i", dev @ np.linalg.inv(cov), dev)


def _csteps(x: np.ndarray, idx: np.ndarray, h: int, steps: int | None) -> tuple[np.ndarray, float]:
    mu, cov, logdet = _fit(x, idx)
    i = 0
    while steps is None or i < steps:
        i += 1
        if not np.isfinite(logdet):  # an exact fit: h records on a hyperplane
            return idx, logdet
        new = np.argpartition(mahalanobis2(x, mu, cov), h - 1)[:h]
        mu, cov, new_logdet = _fit(x, new)
        if steps is None and np.array_equal(np.sort(new), np.sort(idx)):
            return new, new_logdet
        idx, logdet = new, new_logdet
        if steps is None and i > 200:
            break
    return idx, logdet


def _starts(xs: np.ndarray, hs: int, rng: np.random.Generator, n_starts: int) -> list[tuple[float, np.ndarray]]:
    m, p = xs.shape
    found: list[tuple[float, np.ndarray]] = []
    for _ in range(n_starts):
        start = rng.choice(m, size=min(p + 1, m), replace=False)
        # Extend a singular start with random records until it has full rank.
        while np.linalg.matrix_rank(xs[start] - xs[start].mean(axis=0)) < p and start.size < m:
            extra = rng.choice(np.setdiff1d(np.arange(m), start), size=1)
            start = np.concatenate([start, extra])
        mu, cov, logdet = _fit(xs, start)
        if not np.isfinite(logdet):
            continue
        first = np.argpartition(mahalanobis2(xs, mu, cov), hs - 1)[:hs]
        found.append(_csteps(xs, first, hs, steps=2)[::-1])
    return found


def mcd_subset(x: np.ndarray, h: int, rng: np.random.Generator,
               n_starts: int = 500) -> tuple[np.ndarray, float]:
    """The indices of the h records of smallest covariance determinant FAST-MCD finds, and the
    log of that determinant (-inf: an exact fit, the h records on a hyperplane)."""
    n = x.shape[0]
    if h >= n:
        return np.arange(n), _fit(x, np.arange(n))[2]
    # Large files: the random starts and their first C-steps run on a subsample (FAST-MCD's
    # "nested extension" in spirit); the ten best fits are then iterated on all records.
    sub = np.sort(rng.choice(n, size=_SUBSAMPLE, replace=False)) if n > _SUBSAMPLE else np.arange(n)
    xs = x[sub]
    hs = h if sub.size == n else int(np.ceil(h * sub.size / n))
    found = _starts(xs, hs, rng, n_starts)
    if not found:
        raise ValueError("the MCD found no subset of full rank; the variables are (nearly) collinear.")
    found.sort(key=lambda t: t[0])
    finals = []
    for _, idx in found[:10]:
        if sub.size < n:  # carry the subsample's fit to all records
            mu, cov, _ = _fit(xs, idx)
            idx = np.argpartition(mahalanobis2(x, mu, cov), h - 1)[:h]
        finals.append(_csteps(x, idx, h, steps=None))
    best, logdet = min(finals, key=lambda t: t[1])
    return best, logdet


@dataclass(frozen=True)
class RobustFit:
    """A reweighted MCD: `center`, `cov`, the raw (h-subset) `raw_center`, `raw_cov`, the
    reweighting's `weights` (bool per record) and the h-subset `best` (indices)."""

    center: np.ndarray
    cov: np.ndarray
    raw_center: np.ndarray
    raw_cov: np.ndarray
    weights: np.ndarray
    best: np.ndarray


def robust_covariance(x: np.ndarray, *, seed: int = 0, alpha: float = 0.5, n_starts: int = 500) -> RobustFit:
    """robustbase's ``covMcd`` estimator (see the module docstring) of the rows of `x`
    (complete, finite numbers; at least two columns); seeded for the random starts. The last
    eight fits are kept (their arrays read-only): the same records and settings give the same
    fit without a second search."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    key = (x.shape, sha256_bytes(x.tobytes()), int(seed), float(alpha), int(n_starts))
    fit = _FITS.get(key)
    if fit is not None:
        return fit
    fit = _search(x, seed, alpha, n_starts)
    _FITS[key] = fit
    if len(_FITS) > _FITS_KEPT:
        _FITS.popitem(last=False)
    return fit


def _search(x: np.ndarray, seed: int, alpha: float, n_starts: int) -> RobustFit:
    n, p = x.shape
    h = h_of(n, p, alpha)
    best, logdet = mcd_subset(x, h, np.random.default_rng(seed), n_starts)
    if not np.isfinite(logdet):
        raise ValueError(f"at least {h} of the {n} records lie on a hyperplane: their covariance is singular, "
                         "so no Mahalanobis distance is defined.")
    raw_center = x[best].mean(axis=0)
    raw_cov = np.atleast_2d(np.cov(x[best], rowvar=False, ddof=1))
    if h < n:
        raw_cov = raw_cov * consistency(h / n, p) * small_sample_factor(p, n, alpha)
    w = mahalanobis2(x, raw_center, raw_cov) < stats.chi2.ppf(0.975, p)
    q = int(w.sum())
    center = x[w].mean(axis=0)
    cov = np.atleast_2d(np.cov(x[w], rowvar=False, ddof=1))
    if q != n:
        cov = cov * consistency(q / n, p) * small_sample_factor(p, n, alpha, reweighted=True)
    fit = RobustFit(center=center, cov=cov, raw_center=raw_center, raw_cov=raw_cov, weights=w, best=np.sort(best))
    for a in (fit.center, fit.cov, fit.raw_center, fit.raw_cov, fit.weights, fit.best):
        a.setflags(write=False)  # shared by every caller of the same fit
    return fit
