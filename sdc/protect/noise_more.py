"""sdcMicro's other ``addNoise`` methods (``R/addNoise.r``): ``additive0``, ``restr``, ``ROMM`` and
``outdect``; :func:`sdc.add_noise` calls them.

* ``additive0``: ``additive`` noise, but a zero stays zero (sdcMicro: ``noise[x == 0] <- 0``).
* ``restr``: ``c x + (1 - c) mean(x)`` with w = noise/100, ``c = sqrt((N - 1 - w) / ((N + 1)(1 + w)))``
  below 500 records and ``sqrt((N - 1) / (N + N w - 1))`` from 500 (Kim 1986's restricted-noise
  factor). As sdcMicro, no random draw is added: the values are shrunk toward the mean only.
* ``ROMM`` (random orthogonal matrix masking; Ting, Fienberg & Trottini 2008, *Random
  orthogonal matrix masking methodology for microdata release*, IJICS 2(1), 86-105): ``T X``
  with T the Gram-Schmidt orthonormalisation of the columns of ``I + p M``, M an N x N matrix of
  standard normal draws (sdcMicro's `p`, default 0.001: T close to the identity). T is
  orthogonal, so the cross-products X'X are kept exactly. Gram-Schmidt is the Q of the QR
  decomposition with R's diagonal positive.
* ``outdect``: noise only on outliers: the records above a variable's 99 % quantile (R's type 7)
  or with robust distance sqrt(D) > sqrt(chi2_{p, 0.975}) under the reweighted MCD
  (:func:`sdc.core.robust.robust_covariance`); each of their values gets N(0, (1.96 sd / sqrt(N)
  w)^2) noise, one draw per outlier for each variable in turn.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats

from sdc.core.robust import mahalanobis2, robust_covariance

__all__ = ["MORE", "additive0", "restr", "romm", "outliers", "outdect", "more_noise"]

MORE = ("additive0", "restr", "ROMM", "outdect")

#: The largest file ROMM draws its N x N matrix for (8 bytes a cell: 10,000 records is 0.8 GB).
ROMM_MAX = 10_000


def _sd(x: np.ndarray) -> float:
    ok = x[~np.isnan(x)]
    return float(np.std(ok, ddof=1)) if ok.size >= 2 else math.nan


def additive0(X: np.ndarray, noise: float, Z: np.ndarray) -> np.ndarray:
    """``x + noise/100 sd(x) z`` per column, zeros kept."""
    scale = np.array([noise / 100 * _sd(X[:, j]) for j in range(X.shape[1])])
    E = Z * scale
    E[X == 0] = 0.0
    return X + E


def restr_factor(n: int, noise: float) -> float:
    w = noise / 100
    if n < 500 and n - 1 - w < 0:
        raise ValueError(f"`method` 'restr' with {n} records needs `noise` <= {100 * (n - 1):g} (100 (N - 1)); "
                         f"got {noise:g}.")
    return math.sqrt((n - 1 - w) / ((n + 1) * (1 + w))) if n < 500 else math.sqrt((n - 1) / (n + n * w - 1))


def restr(X: np.ndarray, noise: float) -> tuple[np.ndarray, float]:
    c = restr_factor(X.shape[0], noise)
    return c * X + (1 - c) * np.nanmean(X, axis=0), c


def romm(X: np.ndarray, p: float, M: np.ndarray) -> np.ndarray:
    """``T X``, T the orthonormalised columns of ``I + p M`` (Gram-Schmidt: QR, R's diagonal positive)."""
    Q, R = np.linalg.qr(np.eye(X.shape[0]) + p * M)
    Q = Q * np.sign(np.diag(R))
    return Q @ X


def outliers(X: np.ndarray, center: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """The records outdect treats: above a variable's 99 % quantile, or robust distance beyond
    sqrt(chi2_{p, 0.975}) (a missing value: not by distance)."""
    q99 = np.nanquantile(X, 0.99, axis=0)
    univariate = (np.nan_to_num(X, nan=-np.inf) > q99).any(axis=1)
    complete = ~np.isnan(X).any(axis=1)
    far = np.zeros(X.shape[0], dtype=bool)
    far[complete] = np.sqrt(mahalanobis2(X[complete], center, cov)) > math.sqrt(stats.chi2.ppf(0.975, X.shape[1]))
    return np.flatnonzero(univariate | far)


def outdect(X: np.ndarray, noise: float, rows: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """`rows` (the outliers, in order) get ``1.96 sd / sqrt(N) noise/100 z``; `Z` is outliers x variables."""
    out = X.copy()
    scale = np.array([1.96 * _sd(X[:, j]) / math.sqrt(X.shape[0]) * noise / 100 for j in range(X.shape[1])])
    out[rows] = X[rows] + Z * scale
    return out


def more_noise(method: str, X: np.ndarray, noise: float, p: float, rng: np.random.Generator,
               seed: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The released values and the details of one of :data:`MORE`."""
    n, k = X.shape
    if method == "additive0":
        return additive0(X, noise, np.column_stack([rng.standard_normal(n) for _ in range(k)])), {}
    if method == "restr":
        Y, c = restr(X, noise)
        return Y, {"factor": c}
    if method == "ROMM":
        if np.isnan(X).any():
            raise ValueError("`method` 'ROMM' mixes every record into every value: the variables may have no "
                             "missing value.")
        if n > ROMM_MAX:
            raise ValueError(f"`method` 'ROMM' draws an N x N matrix: at most {ROMM_MAX:,} records; got {n:,}.")
        return romm(X, p, rng.standard_normal((n, n))), {"p": p}
    complete = X[~np.isnan(X).any(axis=1)]
    if complete.shape[0] <= k + 1:
        raise ValueError(f"`method` 'outdect' needs more than {k + 1} complete records for its robust covariance.")
    fit = robust_covariance(complete, seed=seed)
    rows = outliers(X, fit.center, np.atleast_2d(fit.cov))
    Z = np.column_stack([rng.standard_normal(rows.size) for _ in range(k)]) if rows.size else np.empty((0, k))
    return outdect(X, noise, rows, Z), {"outliers": int(rows.size)}
