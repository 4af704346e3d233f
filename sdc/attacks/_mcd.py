"""Minimum covariance determinant (MCD): a robust covariance for ``dRiskRMD``'s Mahalanobis distances.

FAST-MCD (Rousseeuw & Van Driessen 1999, Technometrics 41(3), 212-223): from many random
(p+1)-subsets, concentration steps ("C-steps": keep the h records closest in Mahalanobis
distance to the current fit, refit) decrease the covariance determinant; the best few starts
are iterated to convergence and the h-subset with the smallest determinant is the raw MCD.
Above 1,500 records the starts run on a random subsample of 1,500 and the ten best fits are then
iterated on all records.
h = floor((n + p + 1) / 2) at the default alpha = 0.5 (the maximal breakdown point).

Consistency (Croux & Haesbroeck 1999): the raw covariance of the h-subset (divisor h) is
multiplied by c(q) = (q/n) / F_{chi2_{p+2}}(chi2_{p, q/n}) with q = h. Reweighting: records
with squared distance <= chi2_{p, 0.975} get weight 1, the others 0; the final center is their
mean and the final covariance their covariance (divisor sum(w) - 1) times c(sum(w)).

robustbase's ``covMcd`` (which sdcMicro's ``dRiskRMD`` calls) also multiplies by the
small-sample correction factors of Pison, Van Aelst & Willems (2002); we do not, so the
covariance can differ by a few percent on small samples (docs/sdcmicro-differences.md). Pass
sdcMicro's own covariance (``covariance=`` of :func:`sdc.distance_risk_rmd`) to reproduce it.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["mcd"]

#: Records on which the random starts run when the file is larger.
_SUBSAMPLE = 1500


def _consistency(q: int, n: int, p: int) -> float:
    frac = q / n
    if frac >= 1:
        return 1.0
    return float(frac / stats.chi2.cdf(stats.chi2.ppf(frac, p), p + 2))


def _fit(x: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    sub = x[idx]
    mu = sub.mean(axis=0)
    dev = sub - mu
    cov = dev.T @ dev / idx.size
    sign, logdet = np.linalg.slogdet(cov)
    return mu, cov, (logdet if sign > 0 else -np.inf)


def _dist2(x: np.ndarray, mu: np.ndarray, cov: np.ndarray) -> np.ndarray:
    dev = x - mu
    return np.einsum("ij,ij->i", dev @ np.linalg.inv(cov), dev)


def _csteps(x: np.ndarray, idx: np.ndarray, h: int, steps: int | None) -> tuple[np.ndarray, float]:
    mu, cov, logdet = _fit(x, idx)
    i = 0
    while steps is None or i < steps:
        i += 1
        if not np.isfinite(logdet):  # an exact fit: h records on a hyperplane
            return idx, logdet
        new = np.argpartition(_dist2(x, mu, cov), h - 1)[:h]
        mu, cov, new_logdet = _fit(x, new)
        if steps is None and np.array_equal(np.sort(new), np.sort(idx)):
            return new, new_logdet
        idx, logdet = new, new_logdet
        if steps is None and i > 200:
            break
    return idx, logdet


def mcd(x: np.ndarray, *, seed: int = 0, n_starts: int = 500, alpha: float = 0.5,
        reweight: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Robust center and covariance of the rows of `x` (complete, finite numbers).

    Seeded (``numpy.random.default_rng(seed)``) for the random starts.
    """
    x = np.asarray(x, dtype=np.float64)
    n, p = x.shape
    n2 = (n + p + 1) // 2
    h = int(np.floor(2 * n2 - n + 2 * (n - n2) * alpha))
    h = min(max(h, p + 1), n)
    rng = np.random.default_rng(seed)
    if h == n:
        best = np.arange(n)
    else:
        # Large files: the random starts and their first C-steps run on a subsample (FAST-MCD's
        # "nested extension" in spirit); the ten best fits are then iterated on all records.
        sub = np.sort(rng.choice(n, size=_SUBSAMPLE, replace=False)) if n > _SUBSAMPLE else np.arange(n)
        xs = x[sub]
        hs = h if sub.size == n else int(np.ceil(h * sub.size / n))
        found: list[tuple[float, np.ndarray]] = []
        for _ in range(n_starts):
            start = rng.choice(sub.size, size=min(p + 1, sub.size), replace=False)
            # Extend a singular start with random records until it has full rank.
            while np.linalg.matrix_rank(xs[start] - xs[start].mean(axis=0)) < p and start.size < sub.size:
                extra = rng.choice(np.setdiff1d(np.arange(sub.size), start), size=1)
                start = np.concatenate([start, extra])
            mu, cov, logdet = _fit(xs, start)
            if not np.isfinite(logdet):
                continue
            first = np.argpartition(_dist2(xs, mu, cov), hs - 1)[:hs]
            idx, logdet = _csteps(xs, first, hs, steps=2)
            found.append((logdet, idx))
        if not found:
            raise ValueError("the MCD found no subset of full rank; the variables are (nearly) collinear.")
        found.sort(key=lambda t: t[0])
        finals = []
        for _, idx in found[:10]:
            if sub.size < n:  # carry the subsample's fit to all records
                mu, cov, _ = _fit(xs, idx)
                idx = np.argpartition(_dist2(x, mu, cov), h - 1)[:h]
            finals.append(_csteps(x, idx, h, steps=None))
        best = min(finals, key=lambda t: t[1])[0]
    mu, cov, _ = _fit(x, best)
    cov = cov * _consistency(h, n, p)
    if not reweight:
        return mu, cov
    w = _dist2(x, mu, cov) <= stats.chi2.ppf(0.975, p)
    q = int(w.sum())
    sub = x[w]
    mu = sub.mean(axis=0)
    dev = sub - mu
    cov = dev.T @ dev / max(q - 1, 1) * _consistency(q, n, p)
    return mu, cov
