"""k-map estimated from the sample (sdc.identify.kmap; ARX's KMap with a cell-size estimator):
the derived class size by hand, against an independent closed form on random arguments, on
its boundary, and in the search (k-map is k'-anonymity; with k, the larger). ARX's two
published k-map optima on adult are in test_search.py's ARX_CASES."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sdc.identify.hierarchy import Hierarchy, interval_hierarchy
from sdc.identify.kmap import k_map_estimate
from sdc.identify.search import generalisation_search
from tests import scale

ADULT_N, USA = 30162, 317238626


def test_adult_cases_by_hand() -> None:
    """ARX's TestAnonymizationKMap :55 and :56: lambda = (n / N) k; the zero-truncated Poisson's
    P(X = 1 | X > 0) = lambda e^-lambda / (1 - e^-lambda)."""
    lam = ADULT_N / USA * 3
    p1 = lam * math.exp(-lam) / -math.expm1(-lam)
    e = k_map_estimate(3, ADULT_N, USA, 0.01, "zero_truncated_poisson")
    assert p1 >= 0.99 and e.k_derived == 2 and e.type1_error == pytest.approx(1 - p1, rel=1e-9)
    lam = ADULT_N / USA * 1000
    p1 = lam * math.exp(-lam) / -math.expm1(-lam)
    p2 = lam ** 2 / 2 * math.exp(-lam) / -math.expm1(-lam)
    e = k_map_estimate(1000, ADULT_N, USA, 0.01, "zero_truncated_poisson")
    assert p1 < 0.99 <= p1 + p2 and e.k_derived == 3 and e.type1_error == pytest.approx(1 - p1 - p2, rel=1e-9)


def test_poisson_by_hand() -> None:
    """Poisson: the smallest c with F(c - 1) >= 1 - alpha, k' = c + 1 (ARX's calculateKPoisson):
    for a tiny lambda F(0) = e^-lambda >= 0.99 already, so k' = 2."""
    e = k_map_estimate(5, 100, 10 ** 6, 0.01, "poisson")
    assert e.k_derived == 2 and e.type1_error == pytest.approx(1 - math.exp(-100 / 10 ** 6 * 5), rel=1e-9)
    # lambda = 2.5 (f = 1/2, k = 5): F(4) = 0.8912, F(5) = 0.9580, F(6) = 0.9858 < 0.99: the loop
    # reaches c = 5 = k first, so k' = k and the error is 0 (a class of k records stands for k people).
    e = k_map_estimate(5, 100, 200, 0.01, "poisson")
    assert e.k_derived == 5 and e.type1_error == 0.0


def _closed_form(k: int, n: int, N: int, alpha: float, estimator: str) -> tuple[int, float]:
    """The derived k and its type-1 error from the distribution's closed forms (not the loop):
    Poisson, c* the least c >= 1 with F(c - 1) >= 1 - alpha, k' = min(k, c* + 1, n); the
    zero-truncated Poisson, c* the least c >= 2 with (F(c - 1) - F(0)) / (1 - F(0)) >= 1 - alpha,
    k' = min(k, c*, n); the error 0 when c* >= k (ARX stops there), else 1 minus that probability."""
    lam = n / N * k
    d = stats.poisson(lam)
    thr = 1 - alpha
    if estimator == "poisson":
        c = 1
        while c < k and d.cdf(c - 1) < thr:
            c += 1
        err = 0.0 if c >= k else 1 - d.cdf(c - 1)
        return min(k, min(c, k) + 1, n), max(err, 0.0)
    p0 = d.pmf(0)
    c = 2
    while c < k and (d.cdf(c - 1) - p0) / (1 - p0) < thr:
        c += 1
    err = 0.0 if c >= k else 1 - (d.cdf(c - 1) - p0) / (1 - p0)
    return min(k, c, n), max(err, 0.0)


@given(k=st.integers(1, 60), n=st.integers(1, 5000), extra=st.integers(0, 10 ** 7),
       alpha=st.sampled_from([0.0, 0.001, 0.01, 0.05, 0.2, 0.5, 0.999]),
       estimator=st.sampled_from(["poisson", "zero_truncated_poisson"]))
@settings(max_examples=scale.examples(200), deadline=None)
def test_matches_the_closed_form(k: int, n: int, extra: int, alpha: float, estimator: str) -> None:
    e = k_map_estimate(k, n, n + extra, alpha, estimator)
    derived, err = _closed_form(k, n, n + extra, alpha, estimator)
    assert 1 <= e.k_derived <= min(k, n)
    if e.k_derived != derived:  # only where the probability lies on 1 - alpha within rounding
        lam = n / (n + extra) * k
        assert abs(stats.poisson(lam).cdf(max(e.k_derived, derived)) - (1 - alpha)) < 1e-9
        return
    assert e.type1_error == pytest.approx(err, abs=1e-9)
    assert e.type1_error <= alpha + 1e-12 or e.k_derived == min(k, n)


def test_the_exact_bound() -> None:
    """A probability exactly on 1 - alpha meets it (ARX's `while (value < threshold)`): with
    alpha = 1 - F(0) = 1 - e^-lambda the Poisson loop stops at c = 1, k' = 2."""
    lam = 100 / 1000 * 10
    alpha = 1 - stats.poisson(lam).cdf(0)
    assert k_map_estimate(10, 100, 1000, alpha, "poisson").k_derived == 2
    assert k_map_estimate(10, 100, 1000, alpha * (1 - 1e-9), "poisson").k_derived > 2


@pytest.mark.parametrize("estimator", ["poisson", "zero_truncated_poisson"])
def test_significance_one_asks_nothing(estimator: str) -> None:
    """alpha = 1 (threshold 0): ARX's loop never runs, so k' = 1 with a type-1 error of 1."""
    e = k_map_estimate(5, 100, 1000, 1.0, estimator)
    assert e.k_derived == 1 and e.type1_error == 1.0


def _random_frame(seed: int) -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    rng = np.random.default_rng(seed)
    ages = rng.integers(18, 90, 300)
    data = pd.DataFrame({"age": ages, "sex": rng.choice(["M", "F"], 300), "zone": rng.choice(list("abcdef"), 300)})
    zone = Hierarchy(np.array([[z, "ac" if z in "abc" else "df", "*"] for z in "abcdef"], dtype=object), name="zone")
    hs = {"age": interval_hierarchy(ages, [5, 10, 20], start=0),
          "sex": Hierarchy(np.array([["M", "*"], ["F", "*"]], dtype=object), name="sex"), "zone": zone}
    return data, hs


@pytest.mark.parametrize("seed", range(scale.cases(6)))
def test_search_is_k_prime_anonymity(seed: int) -> None:
    """The search with k-map finds what k'-anonymity finds (same node, loss, release); with k
    too, the larger of k and k'."""
    data, hs = _random_frame(seed)
    f = float(np.random.default_rng(seed).choice([0.01, 0.1, 0.5]))
    est = k_map_estimate(8, len(data), round(len(data) / f), 0.05, "zero_truncated_poisson")
    r = generalisation_search(data, hs, k_map=8, k_map_estimator="zero_truncated_poisson", k_map_significance=0.05,
                              sampling_fraction=f, suppression_limit=0.05, metric="loss")
    ref = generalisation_search(data, hs, k=est.k_derived, suppression_limit=0.05, metric="loss")
    assert r.levels == ref.levels and r.loss == ref.loss and r.data.equals(ref.data)
    both = generalisation_search(data, hs, k=4, k_map=8, k_map_estimator="zero_truncated_poisson",
                                 k_map_significance=0.05, sampling_fraction=f, suppression_limit=0.05, metric="loss")
    ref = generalisation_search(data, hs, k=max(4, est.k_derived), suppression_limit=0.05, metric="loss")
    assert both.levels == ref.levels and both.loss == ref.loss
    assert r.models["k_map"] == 8 and r.models["k_map_derived_k"] == est.k_derived
