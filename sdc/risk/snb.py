"""The slide negative binomial (SNB) estimator of population uniques (Chen and Keller-McNulty
1998), with Haas et al.'s (1995) estimate of the population's classes; the formulas, and where
ARX's code differs from the papers (``variant="arx"``), are in :mod:`sdc.risk.uniqueness`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import optimize

__all__ = ["snb_expected", "snb_fit", "snb", "SNB_EDGE"]


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


# A root of the SNB equations this close to the edge of (alpha > 0, 0 < beta < 1) solves them
# only in a limit: a degenerate fit, not an estimate.
SNB_EDGE = 1e-12


def snb_fit(i: np.ndarray, c: np.ndarray, n: int, N: int, variant: str = "paper"
            ) -> tuple[float, float, float, float, str]:
    """SNB estimate of the number of population uniques, with (K, alpha, beta) and why there
    is no estimate (empty when there is one).

    No estimate when K is not a positive number, when c_2 = 0 (E[c_2] > 0 for every
    admissible (alpha, beta)), when the equations have no root from the four start points, or
    when the root is degenerate (alpha or beta within 1e-12 of the edge of its range).
    """
    c1 = float(c[i == 1].sum())
    c2 = float(c[i == 2].sum())
    if c1 == 0:
        return 0.0, math.nan, math.nan, math.nan, ""
    pi = n / N
    if pi >= 1:
        return c1, float(c.sum()), math.nan, math.nan, ""  # N = n: the sample uniques are the population uniques
    K = _snb_k(i, c, float(c.sum()), c1, pi, variant)
    if not np.isfinite(K) or K <= 0:
        return math.nan, K, math.nan, math.nan, f"Haas et al.'s estimate of the population's classes is {K:.6g}"
    if c2 == 0:
        return math.nan, K, math.nan, math.nan, "no class of size 2: E[c_2] = c_2 = 0 has no solution"

    def eqs(p: np.ndarray) -> np.ndarray:
        alpha, beta = math.exp(p[0]), 1 / (1 + math.exp(-p[1]))  # alpha > 0, 0 < beta < 1
        e1, e2 = snb_expected(K, pi, alpha, beta, variant)
        return np.array([e1 / c1 - 1, e2 / c2 - 1])

    note = "the SNB equations have no root (four start points)"
    for start in ((0.0, 0.0), (-2.0, 2.0), (1.0, -2.0), (-1.0, 4.0)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sol = optimize.root(eqs, np.array(start), method="hybr", options={"xtol": 1e-12})
        except (ValueError, OverflowError, FloatingPointError):
            continue
        if np.all(np.isfinite(sol.x)) and np.all(np.abs(eqs(sol.x)) < 1e-8):  # the equations, not the flag
            alpha, beta = math.exp(sol.x[0]), 1 / (1 + math.exp(-sol.x[1]))
            if min(alpha, 1 / alpha, beta, 1 - beta) < SNB_EDGE:
                note = (f"degenerate fit: the root lies at the edge of the model's range (alpha = {alpha:.3g}, "
                        f"beta = {beta:.3g})")
                continue
            est = K * beta ** alpha
            if 0 <= est <= N:
                return est, K, alpha, beta, ""
            note = f"the estimate {est:.6g} is outside [0, N]"
    return math.nan, K, math.nan, math.nan, note


def snb(i: np.ndarray, c: np.ndarray, n: int, N: int, variant: str = "paper") -> tuple[float, float, float, float]:
    """SNB estimate of the number of population uniques, with (K, alpha, beta); NaN if unsolved
    (:func:`snb_fit` says why)."""
    return snb_fit(i, c, n, N, variant)[:4]
