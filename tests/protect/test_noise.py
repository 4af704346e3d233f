"""add_noise: the formulas with given draws, seeded output, moments, errors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import sdc
from sdc.protect._result import changed_cells
from sdc.protect.noise import _additive, _correlated2


def test_additive_formula():
    x = np.array([1.0, 2.0, 4.0, np.nan])
    z = np.array([0.5, -1.0, 2.0, 1.0])
    sd = np.std([1, 2, 4], ddof=1)
    y, scale = _additive(x, 150, z)
    assert scale == pytest.approx(1.5 * sd, rel=1e-15)
    assert_allclose(y[:3], x[:3] + 1.5 * sd * z[:3], rtol=1e-15)
    assert np.isnan(y[3])


def test_correlated2_formula():
    x = np.array([1.0, 2.0, 4.0])
    z = np.array([0.5, -1.0, 2.0])
    d1 = math.sqrt(1 - 0.1**2)
    y, info = _correlated2(x, 0.1, z)
    m, s = np.mean(x), np.std(x, ddof=1)
    assert_allclose(y, d1 * x + 0.1 * ((1 - d1) / 0.1 * m + s * z), rtol=1e-15)
    assert info["noise_sd"] == pytest.approx(0.1 * s) and info["d1"] == pytest.approx(d1)


def test_seeded_output_and_details():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.normal(100, 10, 50), "b": rng.integers(0, 1000, 50)})
    r = sdc.add_noise(df, ["a", "b"], noise=50, seed=9)
    g = np.random.default_rng(9)
    za, zb = g.standard_normal(50), g.standard_normal(50)
    assert_allclose(r.data["a"], df["a"] + 0.5 * df["a"].std() * za, rtol=1e-14)
    assert_allclose(r.data["b"], df["b"] + 0.5 * df["b"].std() * zb, rtol=1e-14)
    assert r.data["b"].dtype == np.float64
    assert r.details["a"]["noise_sd"] == pytest.approx(0.5 * df["a"].std(), rel=1e-15)
    assert r.seed == 9 and r.parameters == {"variables": ["a", "b"], "method": "additive", "noise": 50.0}
    pd.testing.assert_frame_equal(sdc.add_noise(df, ["a", "b"], noise=50, seed=9).data, r.data)


def test_moments():
    rng = np.random.default_rng(1)
    n = 200_000
    df = pd.DataFrame({"a": rng.normal(50, 5, n), "b": rng.exponential(3, n)})
    df["c"] = df["a"] * 0.5 + rng.normal(0, 1, n)
    r = sdc.add_noise(df, ["a", "b"], noise=20, seed=2)
    e = r.data["a"] - df["a"]
    assert abs(e.mean()) < 4 * 0.2 * 5 / math.sqrt(n) * 1.1 and e.std() == pytest.approx(0.2 * df["a"].std(), rel=0.01)
    r = sdc.add_noise(df, ["a", "b"], method="correlated2", delta=0.3, seed=3)
    for v in ("a", "b"):                                   # mean and variance kept in expectation
        assert r.data[v].mean() == pytest.approx(df[v].mean(), abs=4 * 0.3 * df[v].std() / math.sqrt(n) * 1.1)
        assert r.data[v].std() == pytest.approx(df[v].std(), rel=0.01)
    r = sdc.add_noise(df, ["a", "c"], method="correlated", noise=50, seed=4)
    E = (r.data[["a", "c"]] - df[["a", "c"]]).to_numpy()
    assert_allclose(np.cov(E, rowvar=False), 0.5 * np.cov(df[["a", "c"]].to_numpy(), rowvar=False), rtol=0.02)
    assert_allclose(r.details["covariance"].to_numpy(), 0.5 * np.cov(df[["a", "c"]].to_numpy(), rowvar=False),
                    rtol=1e-12)


def test_missing_values_stay_missing():
    df = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0], "b": [2.0, 1.0, np.nan, 5.0]})
    for method in ("additive", "correlated2", "correlated"):
        r = sdc.add_noise(df, ["a", "b"], method=method, seed=1)
        assert r.data.isna().equals(df.isna())
        assert r.changed.tolist() == [3, 3]


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "romm"}, r"`method` must be one of 'additive', 'correlated', 'correlated2', 'additive0', 'restr', "
                         r"'ROMM', 'outdect'; got 'romm'"),
    ({"noise": -1}, r"`noise` must be a number >= 0; got -1"),
    ({"method": "correlated2", "delta": 1}, r"`delta` must be a number in \(0, 1\); got 1"),
    ({"method": "correlated", "variables": ["a"]}, r"'correlated' needs at least two variables"),
    ({"variables": ["s"]}, r"add_noise needs numeric columns; column 's' is text"),
    ({"variables": ["one"]}, r"column 'one' has fewer than two non-missing values"),
])
def test_errors(kwargs, message):
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1, 5, 2], "s": ["x", "y", "z"], "one": [1.0, np.nan, np.nan]})
    variables = kwargs.pop("variables", ["a", "b"])
    with pytest.raises((ValueError, TypeError), match=message):
        sdc.add_noise(df, variables, **kwargs)


@given(values=st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=2, max_size=30).filter(
    lambda v: sum(x is not None for x in v) >= 2), seed=st.integers(0, 2**32 - 1),
    method=st.sampled_from(["additive", "correlated2"]))
def test_properties(values, seed, method):
    df = pd.DataFrame({"x": np.array(values, dtype="float64"), "k": range(len(values))},
                      index=pd.RangeIndex(7, 7 + len(values)))
    before = df.copy()
    r = sdc.add_noise(df, "x", method=method, seed=seed)
    pd.testing.assert_frame_equal(df, before)
    assert r.data.index.equals(df.index) and r.data["k"].equals(df["k"])
    assert r.data["x"].isna().equals(df["x"].isna())
    assert r.changed["x"] == changed_cells(df, r.data, ["x"])["x"]
    pd.testing.assert_frame_equal(sdc.add_noise(df, "x", method=method, seed=seed).data, r.data)
