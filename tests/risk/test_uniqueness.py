"""Population uniqueness: Zayatz, Pitman, SNB, Dankar; ARX's reference values where the data are available."""


from __future__ import annotations

import math
import os
from pathlib import Path
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from scipy.special import comb, gammaln
import sdc
from tests import scale
from sdc.risk.uniqueness import class_size_histogram, dankar, pitman, snb_expected, zayatz
from sdc.risk import uniqueness as U


def test_zayatz_by_definition():
    sizes = np.array([1, 1, 1, 2, 2, 3, 5])
    i, c = class_size_histogram(sizes)
    n, N = int(sizes.sum()), 150
    h = lambda s: comb(s, 1) * comb(N - s, n - 1) / comb(N, n)  # noqa: E731
    u = len(sizes)
    p = (3 / u) * h(1) / sum((cnt / u) * h(s) for s, cnt in zip(i, c))
    assert zayatz(i, c, n, N) == pytest.approx(3 * p / (n / N), rel=1e-12)
    assert zayatz(i, c, n, n) == pytest.approx(3.0)  # a census: the sample uniques


def test_pitman_solves_its_likelihood_equations():
    rng = np.random.default_rng(4)
    sizes = rng.zipf(1.8, size=400)
    i, c = class_size_histogram(sizes)
    n, u = int(sizes.sum()), len(sizes)
    est, theta, alpha = pitman(i, c, n, 20 * n)
    g1 = sum(1 / (theta + k * alpha) for k in range(1, u)) - sum(1 / (theta + k) for k in range(1, n))
    g2 = sum(k / (theta + k * alpha) for k in range(1, u)) - sum(
        cnt * sum(1 / (l - alpha) for l in range(1, int(s))) for s, cnt in zip(i, c))
    assert abs(g1) < 1e-8 and abs(g2) < 1e-6
    assert est == pytest.approx(math.exp(gammaln(theta + 1) - gammaln(theta + alpha) + alpha * math.log(20 * n)))


@pytest.mark.parametrize(("K", "pi", "alpha", "beta"), [(1000, 0.1, 0.8, 0.3), (500, 0.3, 2.0, 0.6), (200, 0.05, 0.4, 0.1)])
def test_snb_expected_counts_match_the_model_by_direct_summation(K, pi, alpha, beta):
    # F - 1 ~ NegBin(alpha, beta), f | F ~ Binomial(F, pi): sum the series directly
    m = np.arange(0, 4000)
    logp = gammaln(m + alpha) - gammaln(alpha) - gammaln(m + 1) + alpha * np.log(beta) + m * np.log1p(-beta)
    F = m + 1
    p1 = np.exp(logp) * F * pi * (1 - pi) ** (F - 1)
    p2 = np.exp(logp) * F * (F - 1) / 2 * pi ** 2 * (1 - pi) ** (F - 2)
    e1, e2 = snb_expected(K, pi, alpha, beta, "paper")
    assert e1 == pytest.approx(K * p1.sum(), rel=1e-9)
    assert e2 == pytest.approx(K * p2.sum(), rel=1e-9)
    # ARX's coding of E[c2] multiplies by (1 - d)^(alpha + 2): not the model
    assert snb_expected(K, pi, alpha, beta, "arx")[1] != pytest.approx(K * p2.sum(), rel=1e-3)


def test_dankar_rule():
    assert dankar(5.0, 3.0, 4.0, c1=0, pi=0.05) == (0.0, "none")
    assert dankar(5.0, 3.0, 4.0, c1=2, pi=0.05) == (3.0, "pitman")
    assert dankar(5.0, math.nan, 4.0, c1=2, pi=0.05) == (5.0, "zayatz")
    assert dankar(5.0, 3.0, 4.0, c1=2, pi=0.5) == (4.0, "snb")
    assert dankar(5.0, 3.0, 6.0, c1=2, pi=0.5) == (5.0, "zayatz")
    assert dankar(5.0, 3.0, math.nan, c1=2, pi=0.5) == (5.0, "zayatz")


def test_population_uniqueness_result():
    df = sdc.load_example()
    # Pitman's likelihood is largest at alpha = 0 here (Hoshino's space; tests/risk/test_uniqueness_fit.py)
    with pytest.warns(sdc.SdcWarning, match="Pitman gives no estimate"):
        r = sdc.population_uniqueness(df, ["age", "sex", "region"], sampling_fraction=0.05)
    assert r.population_size == round(len(df) / 0.05) and r.model == "zayatz"
    assert 0 < r.chosen <= r.n_sample_uniques / r.sampling_fraction
    assert list(r.to_frame()["estimator"]) == ["zayatz", "pitman", "snb", "dankar (zayatz)"]
    r = sdc.population_uniqueness(df, ["region", "diagnosis", "age"], sampling_fraction=0.05)
    assert r.model == "pitman" and 0 < r.pitman_alpha < 1
    with pytest.raises(ValueError, match="exactly one of"):
        sdc.population_uniqueness(df, ["age"], population_size=10**6, sampling_fraction=0.1)
    with pytest.raises(ValueError, match="`population_size` must be an integer >= 4125"):
        sdc.population_uniqueness(df, ["age"], population_size=100)


def _adult() -> pd.DataFrame | None:
    """ARX's Adult test data, when a copy is available (SDC_ARX_ADULT or a fetched ARX snapshot)."""
    candidates = [os.environ.get("SDC_ARX_ADULT", ""), "/tmp/adult.csv"]
    for c in candidates:
        if c and Path(c).exists():
            return pd.read_csv(c, sep=";", dtype=str)
    return None


ARX = {0.1: 0.27684993883653597, 0.2: 0.3577099234829125, 0.01: 0.1446083531167384, 1.0: 0.5142895033485844}


@pytest.mark.parametrize("fraction", sorted(ARX))
def test_arx_reference_values(fraction):
    df = _adult()
    if df is None:
        pytest.skip("ARX's data/adult.csv is not available (set SDC_ARX_ADULT to its path)")
    r = sdc.population_uniqueness(df, list(df.columns), sampling_fraction=fraction, variant="arx")
    # ARX's TestRiskMetrics compares four significant digits; we agree to ~1e-10
    assert r.fraction_chosen == pytest.approx(ARX[fraction], rel=1e-9)
    if fraction == 0.2:
        paper = sdc.population_uniqueness(df, list(df.columns), sampling_fraction=fraction)
        assert paper.model == "snb" and paper.fraction_chosen < ARX[fraction]  # documented difference


# Each estimator on its own, as ARX computes it on adult (9 keys): recorded from ARX itself
# (master aacd487, validation/arx/ArxRisk.java; tests/risk/test_arx_live.py reruns ARX when built).
# ARX's SNB finds no root below pi = 1 with its equations; sdc's variant="arx" neither.
ARX_ESTIMATES = {  # fraction: (Zayatz, Pitman) population uniques
    0.01: (819539.9058719622, 436167.7146707063), 0.05: (178797.8620725102, 137350.02293962502),
    0.1: (96741.67099172718, 83503.47855187597), 0.2: (53946.23356045803, 50766.87124638239),
    0.5: (26056.918512805987, 26295.40039041532), 1.0: (15512.0, 15986.581986078201),
}


@pytest.mark.breadth
@pytest.mark.parametrize("fraction", sorted(ARX_ESTIMATES))
def test_arx_recorded_estimators(fraction):
    df = _adult()
    if df is None:
        pytest.skip("ARX's data/adult.csv is not available (set SDC_ARX_ADULT to its path)")
    zay, pit = ARX_ESTIMATES[fraction]
    results = {variant: sdc.population_uniqueness(df, list(df.columns), sampling_fraction=fraction, variant=variant)
               for variant in ("arx", "paper")}
    for r in results.values():  # Zayatz and Pitman do not depend on the variant
        assert r.zayatz == pytest.approx(zay, rel=1e-9)  # measured 1.1e-10
        assert r.pitman == pytest.approx(pit, rel=1e-7)  # measured 6.1e-12; both solve to their own accuracy
    arx = results["arx"]
    assert math.isnan(arx.snb) if fraction < 1 else arx.snb == 15512.0


# Issue 33: Pitman's likelihood sums its first term, sum_{i=1}^{u-1} log(theta + i alpha), in
# closed form (a difference of lgamma values) from 4,096 classes on: the same value as the term by
# term sum, on both sides of alpha = 0, and the same fits.
def _lik(u: int) -> U._PitmanLikelihood:
    i = np.array([1, 2, 3, 7])
    c = np.array([u - 30, 20, 8, 2], dtype=float)
    return U._PitmanLikelihood(i, c, int((i * c).sum()), "arx")


@pytest.mark.parametrize("u", [5000, 200_000])
@pytest.mark.parametrize("theta, alpha", [(10.0, 0.5), (3000.0, 0.01), (0.2, 0.999), (1e5, 1e-3),
                                          (5e6, -1.0), (3e7, -7.0), (9e5, -0.01)])
def test_closed_form_is_the_sum(u, theta, alpha):
    lik = _lik(u)
    direct = float(np.log(theta + lik.iu * alpha).sum())
    if not np.isfinite(direct):
        pytest.skip("outside the space")
    assert lik._log_rising(theta, alpha) == pytest.approx(direct, rel=1e-12, abs=1e-6)


def test_the_fit_is_the_same(monkeypatch):
    rng = np.random.default_rng(8)
    p = rng.lognormal(0, 2, 300_000)  # skewed cells: an interior maximum (theta 9,794, alpha 0.452)
    f = np.bincount(rng.choice(p.size, 200_000, p=p / p.sum()))
    f = f[f > 0]
    i, c = np.unique(f, return_counts=True)
    for variant in ("paper", "arx"):
        closed = U.pitman_fit(i, c.astype(float), int(f.sum()), 12_000_000, variant)
        monkeypatch.setattr(U, "_CLOSED", 10**12)
        direct = U.pitman_fit(i, c.astype(float), int(f.sum()), 12_000_000, variant)
        monkeypatch.undo()
        assert closed.note == direct.note == "" and closed.estimate > 0
        np.testing.assert_allclose([closed.estimate, closed.theta, closed.alpha],
                                   [direct.estimate, direct.theta, direct.alpha], rtol=1e-8)


# The search criterion's entry (population_uniques_of_sizes): the same estimates as the measure,
# from the class sizes alone, with ARX's Dankar rule without the Zayatz fallback.
@pytest.mark.parametrize("seed, N", [(0, 10**5), (1, 250)])  # pi = 0.002 (Pitman's side), 0.8 (SNB's)
def test_population_uniques_of_sizes_is_the_measure(seed, N):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"a": rng.zipf(1.6, 200).astype(str)})  # heavy-tailed classes: Pitman fits (0.2 s)
    r = sdc.population_uniqueness(df, ["a"], population_size=N, variant="arx")
    sizes = df.groupby("a").size().to_numpy()
    for est in ("zayatz", "pitman", "snb"):
        got, want = U.population_uniques_of_sizes(sizes, N, est, "arx"), getattr(r, est)
        assert (math.isnan(got) and (math.isnan(want) or want == 0)) or got == pytest.approx(want, rel=1e-12)
    got = U.population_uniques_of_sizes(sizes, N, "dankar", "arx")
    assert got == pytest.approx(r.chosen, rel=1e-12) or (math.isnan(got) and r.chosen in (0, None))
    no_fallback = U.population_uniques_of_sizes(sizes, N, "dankar", "arx", fallback=False)
    if r.sampling_fraction <= 0.1 and not r.pitman > 0:
        assert math.isnan(no_fallback)
    else:
        assert no_fallback == pytest.approx(got, rel=1e-12)
    assert U.population_uniques_of_sizes(np.array([2, 3, 5]), 100, "pitman") == 0.0  # no sample unique


def test_usa_population_is_arx_figure():
    assert U.USA_POPULATION == 317238626  # ARXPopulationModel.Region.USA


# Zayatz's P[X = 1] of a hypergeometric, as a product of ratios (scipy's pmf cost 2 ms a call in
# the search): equal to the exact ratio of binomial coefficients, in integers, to 1e-13 per unit of
# |log P| (the rounding of the summed logs; 1.0e-12 measured at P = 1e-204, 7.8e-14 at adult's); 0 where
# N - K < n - 1; n / N for one success; the census (n = N) gives 1 for K = 1 and 0 above.
@settings(max_examples=scale.examples(200), deadline=None)
@given(st.integers(1, 400), st.integers(0, 5000), st.data())
def test_hypergeometric_one_is_the_exact_ratio(n, extra, data):
    from fractions import Fraction

    N = n + extra
    K = np.array(sorted(set(data.draw(st.lists(st.integers(1, N), min_size=1, max_size=8)))))
    got = U.hypergeom_one(N, K, n)
    for k, v in zip(K.tolist(), got):
        exact = Fraction(k * math.comb(N - k, n - 1), math.comb(N, n)) if N - k >= n - 1 else Fraction(0)
        if exact == 0:
            assert v == 0
        elif exact < Fraction(1, 10**300):  # below the normal floats: only "tiny" is meaningful
            assert 0 <= v < 1e-299
        else:
            log_p = abs(math.log(exact.numerator) - math.log(exact.denominator))
            assert abs(float(Fraction(v) / exact - 1)) <= 1e-13 * max(1.0, log_p)


def test_hypergeometric_one_edges():
    assert U.hypergeom_one(1000, np.array([1]), 30)[0] == pytest.approx(0.03, rel=1e-15)
    assert U.hypergeom_one(50, np.array([1, 2, 50]), 50).tolist() == [1.0, 0.0, 0.0]
    assert U.hypergeom_one(317238626, np.array([1]), 30162)[0] == pytest.approx(30162 / 317238626, rel=1e-15)
