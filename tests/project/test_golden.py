"""Golden values from sdcMicro's own test files and the reference build (no R needed).

Each number is quoted from ../shared/reference/sdcmicro-5.8.1-semantics.md section 9, with
the sdcMicro call that produced it. The same data are re-checked live against the installed
sdcMicro in risk/test_sdcmicro_measures.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import sdc
from validation.cases import golden_cases

CASES = {c.name: c for c in golden_cases()}


def _freq(name, **kw):
    c = CASES[name]
    return sdc.frequencies(c.data, c.keys, weights=c.weights, **kw)


def test_freqcalc_d1_to_d5():
    # freqCalc(D, keyVars = 1:3, w = 4)   (test_freqCalc.R)
    f = _freq("golden/D1/w")
    assert f.population_frequency.tolist() == [108, 45.5, 108, 17, 100, 100, 123.5, 108]
    assert f.sample_frequency.tolist() == [3, 1, 3, 1, 2, 2, 1, 3] and (f.n1, f.n2) == (3, 2)
    f = _freq("golden/D2/w")
    assert f.population_frequency.tolist() == [108, 45.5, 125, 56, 100, 100, 123.5, 108]
    assert f.sample_frequency.tolist() == [3, 1, 4, 2, 2, 2, 1, 3] and (f.n1, f.n2) == (2, 3)
    f = _freq("golden/D4/w")
    assert f.population_frequency.tolist() == [133, 92.5, 394, 133, 262.5, 394, 262.5, 133]
    assert f.sample_frequency.tolist() == [5, 3, 8, 5, 4, 8, 4, 5]
    f = _freq("golden/D5/w")
    assert f.population_frequency.tolist() == [18, 167.5, 167.5] and f.sample_frequency.tolist() == [1, 2, 2]
    assert _freq("golden/D2").population_frequency.tolist() == _freq("golden/D2").sample_frequency.tolist()


def test_indivrisk_d1_and_d6():
    # indivRisk(freqCalc(D1, 1:3, w = 4))                (test_indivRisk.R)
    c = CASES["golden/D1/w"]
    r = sdc.individual_risk(c.data, c.keys, weights="w")
    assert_allclose(r.risk, [0.0136986301369863, 0.0857912882237507, 0.0136986301369863, 0.1770758340035135,
                             0.0187788325675018, 0.0187788325675018, 0.0393162543352492, 0.0136986301369863],
                    rtol=1e-12)
    e = sdc.individual_risk(c.data, c.keys, weights="w", method="exact")
    assert e.risk.iloc[0] == pytest.approx(0.0135529683717424, rel=1e-12)
    c = CASES["golden/D6/w"]
    r = sdc.individual_risk(c.data, c.keys, weights="w")
    assert r.sample_frequency.tolist() == [3, 1, 4, 2, 3, 3, 1, 5]
    assert r.population_frequency.tolist() == [108, 45.5, 125, 56, 151, 151, 123.5, 208]
    assert_allclose(r.risk, [0.01369863013698630, 0.08579128822375068, 0.01055408970976253, 0.03246611178302441,
                             0.00983606557377049, 0.00983606557377049, 0.03931625433524923, 0.00597371565113501],
                    rtol=1e-12)
    e = sdc.individual_risk(c.data, c.keys, weights="w", method="exact")
    assert_allclose(e.risk, [0.01355296837174242, 0.08579128822375068, 0.01050488865153682, 0.03246611178302441,
                             0.00975688878984215, 0.00975688878984215, 0.03931625433524923, 0.00596255125152961],
                    rtol=1e-12)
    u = sdc.individual_risk(c.data, c.keys)
    assert_allclose(u.risk, [1 / 3, 1, 0.25, 0.5, 1 / 3, 1 / 3, 1, 0.2], rtol=1e-15)


def test_calcrisks_s1_s2():
    # createSdcObj(S, keyVars = ...) without weights       (test_calcRisks.R)
    c = CASES["golden/S1"]
    r = sdc.individual_risk(c.data, c.keys)
    assert r.risk.tolist() == [0.5, 1, 0.5, 1, 1, 0.5, 1, 0.5, 1, 1]
    assert (r.global_risk, r.expected_reidentifications, r.global_risk_pct, r.global_threshold) == (0.8, 8, 80, 0)
    c = CASES["golden/S2"]
    r = sdc.individual_risk(c.data, c.keys)
    assert r.risk.tolist() == [0.5, 0.5, 0.25, 0.5] and r.sample_frequency.tolist() == [2, 2, 4, 2]
    assert (r.global_risk, r.expected_reidentifications, r.global_threshold) == (0.4375, 1.75, 0)


@pytest.mark.parametrize(("alpha", "fk", "Fk", "rk"), [
    (1.0, [3, 3, 3, 2, 2, 1], [60, 60, 60, 90, 90, 60],
     [0.02439024390, 0.02439024390, 0.02439024390, 0.02076102144, 0.02076102144, 0.06939567055]),
    (0.5, [2, 2.5, 2.5, 2, 2, 1], [35, 45, 50, 90, 90, 60], [0.05009292606, 0.03571428571, 0.03225806452]),
    (0.0, [1, 2, 2, 2, 2, 1], [10, 30, 40, 90, 90, 60], [0.25584278811, 0.05761198877, 0.04433315160]),
])
def test_alpha_example(alpha, fk, Fk, rk):
    # createSdcObj(df, keyVars = c("a", "b"), weightVar = "w", alpha = alpha)   (reference 9.7)
    c = CASES[f"golden/alpha={alpha:g}/w"]
    r = sdc.individual_risk(c.data, c.keys, weights="w", alpha=alpha)
    assert r.sample_frequency.tolist() == fk and r.population_frequency.tolist() == Fk
    assert_allclose(r.risk.to_numpy()[: len(rk)], rk, rtol=1e-9)
