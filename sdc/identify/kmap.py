"""k-map estimated from the sample: the class size that makes every class of the sample stand
for at least k people of the population, with a stated significance.

k-map (Sweeney 2002; El Emam and Dankar 2008) asks that each released combination of the
quasi-identifiers matches at least k individuals of the *population*. Without a population
table, El Emam and Dankar (2008, "Protecting privacy using k-anonymity", JAMIA 15(5), 627-637)
model the population count of a class given the sample as Poisson with mean lambda = f k,
f = n / N the sampling fraction, and derive the smallest sample class size k' such that a
class of k' sample records has fewer than k population records with probability at most the
significance level alpha. The model then is k'-anonymity of the sample.

ARX implements the rule as ``KMap(k, significance, population, estimator)`` (``initialize``,
``calculateKPoisson``, ``calculateKZeroPoisson``). Its loops are followed here, with lambda = f k:

* Poisson: the smallest c with F(c - 1) >= 1 - alpha, k' = c + 1 (F the Poisson CDF; the
  loop counts c = 1, 2, ... after evaluating F(c - 1));
* zero-truncated Poisson: the smallest c >= 2 with sum_{j=1}^{c-1} P(j) / (1 - P(0)) >= 1 - alpha,
  k' = c;

each stopped, as ARX, as soon as c reaches k (then k' = c and the error is 0: a class of k
sample records stands for at least k people). Then k' is capped at the records of the file and
at k. The type-1 error is 1 minus the probability reached (0 where the loop was stopped at k).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats

__all__ = ["KMapEstimate", "K_MAP_ESTIMATORS", "k_map_estimate"]

#: The estimators of the population count of a class (ARX's ``KMap.CellSizeEstimator``).
K_MAP_ESTIMATORS = ("poisson", "zero_truncated_poisson")


@dataclass(frozen=True)
class KMapEstimate:
    """k-map's derived class size: ``k_derived`` (the k-anonymity the sample must meet) and the
    probability ``type1_error`` that a class of that size stands for fewer than `k` people."""

    k: int
    estimator: str
    significance: float
    population_size: int
    k_derived: int
    type1_error: float


def k_map_estimate(k: int, n: int, population_size: int, significance: float, estimator: str) -> KMapEstimate:
    """The sample class size that meets k-map at `significance`, by ARX's rule (module notes).

    Parameters
    ----------
    k : int
        The k of k-map (people of the population per released class), >= 1.
    n : int
        Records of the sample (the file).
    population_size : int
        N, at least n; lambda = (n / N) k.
    significance : float
        alpha in [0, 1]: the largest probability that a class of the derived size stands for
        fewer than k people.
    estimator : {"poisson", "zero_truncated_poisson"}

    Returns
    -------
    KMapEstimate

    Examples
    --------
    ARX's k-map 3 on adult (30,162 records) with the USA's population, 1 % significance and the
    zero-truncated Poisson: lambda = 2.85e-4, P(1) / (1 - P(0)) = 0.99986 >= 0.99, so k' = 2.

    >>> k_map_estimate(3, 30162, 317238626, 0.01, "zero_truncated_poisson").k_derived
    2
    """
    lam = n / population_size * k
    dist = stats.poisson(lam)
    threshold = 1.0 - significance
    value = 0.0
    if estimator == "poisson":
        count = 0
        while value < threshold:
            value = float(dist.cdf(count))
            count += 1
            if count >= k:  # as ARX: a class of k sample records stands for at least k people
                value = 1.0
                break
        derived = count + 1
    else:
        nonzero = -math.expm1(-lam)  # 1 - P(0), exact for small lambda
        count = 1
        while value < threshold:
            value += float(dist.pmf(count)) / nonzero
            count += 1
            if count >= k:
                value = 1.0
                break
        derived = count
    derived = min(k, min(derived, n))
    return KMapEstimate(k=k, estimator=estimator, significance=significance, population_size=population_size,
                        k_derived=int(derived), type1_error=max(0.0, 1.0 - value))
