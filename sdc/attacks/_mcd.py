"""Minimum covariance determinant (MCD): a robust covariance for ``dRiskRMD``'s Mahalanobis distances.

The h-subset is FAST-MCD's (Rousseeuw & Van Driessen 1999, Technometrics 41(3), 212-223), the
search of :func:`sdc.core.robust.mcd_subset`; h = floor((n + p + 1) / 2) at the default
alpha = 0.5 (the maximal breakdown point). :func:`sdc.core.robust.robust_covariance` is the
estimator with robustbase's small-sample factors too (``mv_top_code``).

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

from sdc.core.robust import h_of, mahalanobis2, mcd_subset

__all__ = ["mcd"]


def _consistency(q: int, n: int, p: int) -> float:
    frac = q / n
    if frac >= 1:
        return 1.0
    return float(frac / stats.chi2.cdf(stats.chi2.ppf(frac, p), p + 2))


def mcd(x: np.ndarray, *, seed: int = 0, n_starts: int = 500, alpha: float = 0.5,
        reweight: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Robust center and covariance of the rows of `x` (complete, finite numbers).

    Seeded (``numpy.random.default_rng(seed)``) for the random starts.
    """
    x = np.asarray(x, dtype=np.float64)
    n, p = x.shape
    h = h_of(n, p, alpha)
    best, _ = mcd_subset(x, h, np.random.default_rng(seed), n_starts)
    sub = x[best]
    mu = sub.mean(axis=0)
    cov = (sub - mu).T @ (sub - mu) / best.size * _consistency(h, n, p)
    if not reweight:
        return mu, cov
    w = mahalanobis2(x, mu, cov) <= stats.chi2.ppf(0.975, p)
    q = int(w.sum())
    sub = x[w]
    mu = sub.mean(axis=0)
    dev = sub - mu
    cov = dev.T @ dev / max(q - 1, 1) * _consistency(q, n, p)
    return mu, cov
