"""Individual risk, global risk, expected re-identifications and the higher-risk count."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import sdc
from sdc.exceptions import SdcWarning
from sdc.risk.individual import pattern_risk
from tests import brute, scale
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


def test_unweighted_risk_is_one_over_fk(toy):
    r = sdc.individual_risk(toy, ["age", "sex", "region"])
    assert r.risk.tolist() == [0.5, 0.5, 1.0, 0.5, 0.5, 0.5, 0.5, 1.0]
    assert r.expected_reidentifications == 5.0  # one per class
    assert r.global_risk == 5.0 / 8
    assert r.global_risk_pct == 62.5
    assert r.max_risk == 1.0
    assert list(r.risk.index) == list(toy.index)


def test_benedetti_franconi_hand_computed():
    # fk=1, Fk=45.5: p/(1-p) ln(1/p); fk=2, Fk=100: p/(1-p) - (p/(1-p))^2 ln(1/p); fk=3: p/(f-(1-p)).
    p1, p2, p3 = 1 / 45.5, 2 / 100, 3 / 108
    expected = [p1 / (1 - p1) * math.log(1 / p1),
                p2 / (1 - p2) - (p2 / (1 - p2)) ** 2 * math.log(1 / p2),
                p3 / (3 - (1 - p3))]
    got = pattern_risk(np.array([1.0, 2, 3]), np.array([45.5, 100, 108]), weighted=True)
    assert_allclose(got, expected, rtol=1e-14)
    # sdcMicro test_indivRisk.R values (D1): 0.0857912882237507, 0.0187788325675018, 0.0136986301369863
    assert_allclose(got, [0.0857912882237507, 0.0187788325675018, 0.0136986301369863], rtol=1e-13)


def test_fk_equal_Fk_gives_one_over_fk_even_with_weights():
    got = pattern_risk(np.array([1.0, 2, 5]), np.array([1.0, 2, 5]), weighted=True)
    assert got.tolist() == [1.0, 0.5, 0.2]


def test_fractional_fk_between_one_and_two_gets_zero_with_a_warning():
    # alpha example of the reference (section 9.7), alpha = 0.5: record 2 has fk = 2.5, record 1 fk = 2.
    df = pd.DataFrame({"a": [1, 1, np.nan, 2, 2, 3], "b": [1, np.nan, 1, 2, 2, 3], "w": [10.0, 20, 30, 40, 50, 60]})
    r = sdc.individual_risk(df, ["a", "b"], weights="w", alpha=0.5)
    assert_allclose(r.risk.to_numpy()[:3], [0.05009292606, 0.03571428571, 0.03225806452], rtol=1e-9)
    df2 = pd.DataFrame({"a": [1, 1, np.nan, 5], "b": [1, np.nan, 7, 5], "w": [10.0, 20, 30, 40]})
    with pytest.warns(SdcWarning, match="fractional sample frequency"):
        r2 = sdc.individual_risk(df2, ["a", "b"], weights="w", alpha=0.5)
    assert r2.sample_frequency.iloc[0] == 1.5 and r2.risk.iloc[0] == 0.0
    exact = sdc.individual_risk(df2, ["a", "b"], weights="w", alpha=0.5, method="exact")
    assert 0 < exact.risk.iloc[0] < 1


@pytest.mark.parametrize(("f", "F"), [(3, 108), (3, 300), (4, 151), (5, 20), (10, 17), (40, 4000), (2, 100), (1, 45.5)])
def test_exact_risk_equals_the_posterior_mean(f, F):
    got = pattern_risk(np.array([float(f)]), np.array([float(F)]), weighted=True, method="exact")[0]
    assert got == pytest.approx(brute.exact_risk(f, F), rel=1e-10)


def test_exact_matches_sdcmicro_golden_values():
    # test_indivRisk.R, D1 exact at fk=3 (Fk=108) and D6 exact values (reference section 9.2).
    fk = np.array([3.0, 4, 2, 3, 5])
    Fk = np.array([108.0, 125, 56, 151, 208])
    want = [0.0135529683717424, 0.01050488865153682, 0.03246611178302441, 0.00975688878984215, 0.00596255125152961]
    assert_allclose(pattern_risk(fk, Fk, weighted=True, method="exact"), want, rtol=1e-12)


def test_exact_stays_finite_for_large_classes():
    # sdcMicro's closed form overflows here (p^(1-f) = 100^499); the series does not.
    got = pattern_risk(np.array([500.0, 2000.0]), np.array([50000.0, 1e5]), weighted=True, method="exact")
    assert np.isfinite(got).all()
    assert got == pytest.approx([brute.exact_risk(500, 50000), brute.exact_risk(2000, 1e5)], rel=1e-10)


def test_records_above_and_higher_risk_count():
    df = pd.DataFrame({"k": list(range(5)) + [9] * 45})
    r = sdc.individual_risk(df, ["k"])
    above = r.records_above(0.5)
    assert above.sum() == 5 and above.index.equals(df.index)
    # median 1/45, MAD 0: the 5 uniques exceed median + 3*MAD and 0.1
    assert r.n_higher_risk() == 5
    assert r.n_higher_risk(floor=1.0) == 0
    with pytest.raises(ValueError, match="`threshold` must lie in"):
        r.records_above(1.5)


def test_summary_and_frame(toy):
    r = sdc.individual_risk(toy, ["age", "sex"], weights="w")
    frame = r.to_frame()
    assert list(frame.columns) == ["risk", "fk", "Fk"] and frame.index.equals(toy.index)
    s = r.summary()
    assert list(s.columns) == ["statistic", "value", "description"]
    assert s.set_index("statistic").loc["expected_reidentifications", "value"] == pytest.approx(r.risk.sum())


@settings(max_examples=scale.examples(120))
@given(microdata())
def test_risk_matches_brute_force(case):
    df, keys, w = case
    r = sdc.individual_risk(df, keys, weights=w)
    fk, Fk = brute.frequencies(df, keys, w)
    want = brute.risk(fk, Fk, weighted=w is not None)
    assert_allclose(r.risk.to_numpy(), want, rtol=1e-12)
    assert r.expected_reidentifications == pytest.approx(want.sum(), rel=1e-12)
    assert ((r.risk >= 0) & (r.risk <= 1)).all()
    t = r.global_threshold
    bt = brute.threshold(want, 0.01)
    assert (math.isnan(t) and math.isnan(bt)) or t == pytest.approx(bt, rel=1e-12)


@settings(max_examples=scale.examples(60))
@given(microdata(missing=False, weights=True))
def test_exact_and_approx_agree_on_uniques_and_pairs(case):
    df, keys, w = case
    a = sdc.individual_risk(df, keys, weights=w)
    e = sdc.individual_risk(df, keys, weights=w, method="exact")
    small = a.sample_frequency <= 2
    assert_allclose(e.risk[small].to_numpy(), a.risk[small].to_numpy(), rtol=1e-10)


@settings(max_examples=scale.examples(40))
@given(microdata(), st.sampled_from([0.001, 0.01, 0.1, 0.5]))
def test_threshold_for_matches_brute_force(case, g):
    df, keys, w = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        r = sdc.individual_risk(df, keys, weights=w)
    t, bt = r.threshold_for(g), brute.threshold(r.risk.to_numpy(), g)
    assert (math.isnan(t) and math.isnan(bt)) or t == bt
