"""sdcMicro's microaggregation methods that sort the records on a first principal component, and
its robust-Mahalanobis method ``rmd`` (``R/microaggregation.R``, Templ 2008; reimplemented from
the formulas below); :func:`sdc.microaggregation` calls them.

* ``pca``: the records sorted by their score on the first principal component of the
  standardised variables (z_ij = (x_ij - mean_j) / sd_j, sd with n - 1; the component is the
  leading eigenvector v of the covariance of z with divisor n, as ``princomp``; score z_i . v),
  then cut into consecutive groups of k, the last taking the remainder (as ``single``).
* ``mcdpca``: the same with v the leading eigenvector of a robust (MCD) covariance of the raw
  variables, the scores (x_i - 2 c) . v with c the MCD centre (sdcMicro centres the already
  centred data a second time; a shift of all scores, which leaves the order unchanged).
* ``pppca``: projection pursuit (Croux and Ruiz-Gazen 2005, the ``prcompRob`` of sdcMicro):
  the candidate directions are the records centred at the coordinate-wise median and scaled
  to unit length; v is the candidate on which the projections of the records have the largest
  MAD (the last one among equal MADs), its sign such that v_1 >= 0; scores (x_i - median) . v.
* ``rmd``: the variables standardised as for ``pca``; each record's squared robust
  Mahalanobis distance d_i = (z_i - c)' S^-1 (z_i - c) from an MCD centre c and covariance S
  of z. floor(n / k) - 1 times: the remaining record with the largest d_i (the first among
  equal ones) and its k - 1 nearest remaining records (Euclidean on z; equal distances in data
  order; the record itself has distance 0) form a group. The records left form the last group.

The eigenvector's sign decides which end of the order takes the remainder group: as ``princomp``
(``fix_sign = TRUE``), the first loading is made non-negative.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PC_METHODS", "pc_scores", "pp_direction", "rmd_groups", "mcd_fit"]

PC_METHODS = ("pca", "mcdpca", "pppca")
_CHUNK = 512  # candidate directions projected at once by pppca


def _leading(cov: np.ndarray) -> np.ndarray:
    from scipy import linalg

    v = linalg.eigh(cov, driver="evr")[1][:, -1]
    return -v if v[0] < 0 else v  # princomp's fix_sign: a first loading >= 0


def standardised(X: np.ndarray) -> np.ndarray:
    """(x - mean) / sd per column, sd with n - 1 (R's ``scale``); a constant column stays 0."""
    sd = X.std(axis=0, ddof=1)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def mcd_fit(X: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(centre, covariance) of the reweighted MCD of the rows of `X` (:mod:`sdc.core.robust`)."""
    from sdc.core.robust import robust_covariance

    fit = robust_covariance(X, seed=seed)
    return fit.center, fit.cov


def pp_direction(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(median, first projection-pursuit direction) of the rows of `X` (see the module notes).
    Candidates with zero length (records at the median) are skipped."""
    med = np.median(X, axis=0)
    C = X - med
    norm = np.sqrt(np.einsum("ij,ij->i", C, C))
    cand = np.flatnonzero(norm > 0)
    if cand.size == 0:
        return med, np.eye(X.shape[1])[0]
    A = C[cand] / norm[cand, None]
    best_s, best_j = -np.inf, 0
    for lo in range(0, A.shape[0], _CHUNK):
        Y = A[lo:lo + _CHUNK] @ X.T
        m = np.median(Y, axis=1)
        s = np.median(np.abs(Y - m[:, None]), axis=1)
        j = s.size - 1 - int(np.argmax(s[::-1]))  # the last maximum
        if s[j] >= best_s:
            best_s, best_j = float(s[j]), lo + j
    v = A[best_j].copy()
    return med, -v if v[0] < 0 else v


def pc_scores(X: np.ndarray, method: str, fit: tuple[np.ndarray, np.ndarray] | None = None,
              seed: int = 0) -> np.ndarray:
    """Each record's score on the first component of `method` (pca, mcdpca, pppca); `fit`: a given
    MCD (centre, covariance) for mcdpca (default: sdc's own, seeded)."""
    if method == "pca":
        Z = standardised(X)
        C = Z - Z.mean(axis=0)
        return C @ _leading(C.T @ C / X.shape[0])
    if method == "mcdpca":
        center, cov = fit if fit is not None else mcd_fit(X, seed)
        return (X - center - center) @ _leading(cov)
    med, v = pp_direction(X)
    return (X - med) @ v


def rmd_groups(X: np.ndarray, k: int, fit: tuple[np.ndarray, np.ndarray] | None = None, seed: int = 0) -> np.ndarray:
    """Group id of each record by ``rmd`` (see the module notes); `fit`: a given MCD (centre,
    covariance) of the standardised variables (default: sdc's own, seeded)."""
    from sdc.core.robust import mahalanobis2

    n = X.shape[0]
    Z = standardised(X)
    center, cov = fit if fit is not None else mcd_fit(Z, seed)
    md = mahalanobis2(Z, center, cov).astype(np.float64)
    gid = np.full(n, -1, dtype=np.int64)
    # the removed records stay in place, masked (distance +inf, md -inf): the data order, and so
    # every tie-break (first maximum, stable nearest), is that of the remaining records
    alive = np.ones(n, dtype=bool)
    dead = np.zeros(n, dtype=bool)
    mda = md.copy()
    cols = [np.ascontiguousarray(Z[:, j]) for j in range(Z.shape[1])]
    d, tmp = np.empty(n), np.empty(n)
    for g in range(n // k - 1):
        s = int(np.argmax(mda))
        if len(cols) < 8:  # the sum of squares in column order: np.sum(axis=1)'s order below 8 terms (pairwise beyond)
            np.square(np.subtract(cols[0], Z[s, 0], out=d), out=d)
            for j in range(1, len(cols)):
                d += np.square(np.subtract(cols[j], Z[s, j], out=tmp), out=tmp)
        else:
            d[:] = np.sum((Z - Z[s]) ** 2, axis=1)
        np.sqrt(d, out=d)
        np.copyto(d, np.inf, where=dead)
        t = np.partition(d, k - 1)[k - 1]
        cand = np.flatnonzero(alive & (d <= t))   # the k nearest and the ties of the k-th
        near = cand[np.argsort(d[cand], kind="stable")[:k]]
        gid[near] = g
        alive[near] = False
        dead[near] = True
        mda[near] = -np.inf
    gid[alive] = max(n // k - 1, 0)
    return gid
