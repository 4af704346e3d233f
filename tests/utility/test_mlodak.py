"""Mlodak's IL_correl and IL_variables, and sdcMicro's robeigen: hand-computed values and
properties on random data (sdcMicro itself: tests/utility/test_sdcmicro.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.exceptions import DegenerateDataWarning
from sdc.utility.eigen import eigen_loss


def _inverse_diagonal_by_cofactors(r: np.ndarray) -> np.ndarray:
    """diag(R^-1) of a 3 x 3 matrix by hand: the cofactor of each diagonal entry over det R."""
    det = np.linalg.det(r)
    return np.array([
        (r[1, 1] * r[2, 2] - r[1, 2] ** 2) / det,
        (r[0, 0] * r[2, 2] - r[0, 2] ** 2) / det,
        (r[0, 0] * r[1, 1] - r[0, 1] ** 2) / det,
    ])


X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5], "b": [2.0, 1, 4, 3, 5], "c": [1.0, 3, 2, 5, 4]})


def test_il_correl_by_hand():
    xm = X.assign(c=[5.0, 3, 2, 1, 4])
    # correlations by hand: sums of products of deviations over sqrt(10 * 10)
    r_o = np.array([[1, 0.8, 0.8], [0.8, 1, 0.3], [0.8, 0.3, 1]])
    r_p = np.array([[1, 0.8, -0.4], [0.8, 1, -0.1], [-0.4, -0.1, 1]])
    assert X.corr().to_numpy() == pytest.approx(r_o, abs=1e-15)
    assert xm.corr().to_numpy() == pytest.approx(r_p, abs=1e-15)
    d_o, d_p = _inverse_diagonal_by_cofactors(r_o), _inverse_diagonal_by_cofactors(r_p)
    expected = np.linalg.norm(d_o / np.linalg.norm(d_o) - d_p / np.linalg.norm(d_p)) / math.sqrt(2)
    r = sdc.il_correl(X, xm)
    assert r.value == pytest.approx(expected, rel=1e-12)
    assert r.per_variable["vif_before"].to_numpy() == pytest.approx([0.91 / 0.014, 0.36 / 0.014, 0.36 / 0.014], rel=1e-12)
    assert r.to_frame()["variable"].tolist() == ["a", "b", "c"]
    assert r.summary().set_index("statistic").loc["il_correl", "value"] == pytest.approx(expected)


def test_il_correl_of_two_variables_is_zero_and_singular_is_nan():
    # with two variables both diagonal entries are 1 / (1 - r^2): always proportional
    assert sdc.il_correl(X[["a", "b"]], X[["a", "b"]].assign(b=[5.0, 1, 2, 2, 3])).value == pytest.approx(0, abs=1e-15)
    with pytest.warns(DegenerateDataWarning, match="singular"):
        assert math.isnan(sdc.il_correl(X, X.assign(c=X["a"] + X["b"])).value)
    with pytest.raises(ValueError, match="needs numeric columns; column 's'"):
        sdc.il_correl(X.assign(s="x"), X.assign(s="x"), ["a", "s"])


def test_il_correl_uses_complete_records_of_each_file():
    xm = X.assign(c=[5.0, 3, np.nan, 1, 4])
    r = sdc.il_correl(X, xm)
    assert (r.n_complete_original, r.n_complete_released) == (5, 4)
    assert r.per_variable["vif_after"].to_numpy() == pytest.approx(
        np.diag(np.linalg.inv(xm.dropna().corr().to_numpy())), rel=1e-12)


def test_il_variables_by_hand():
    x = pd.DataFrame({"v": [0.0, 1.0, 2.0, np.nan, 4.0],
                      "o": pd.Categorical(["lo", "mid", "hi", "lo", None], categories=["lo", "mid", "hi"], ordered=True),
                      "s": ["a", "b", None, "b", None]})
    xm = pd.DataFrame({"v": [0.0, 2.0, np.nan, np.nan, 1.0],
                       "o": pd.Categorical(["hi", "mid", None, "mid", None], categories=["lo", "mid", "hi"], ordered=True),
                       "s": ["a", "a", "c", None, None]})
    r = sdc.il_variables(x, xm)
    def atan(t: float) -> float:
        return (2 / math.pi) * math.atan(t)

    # v: |0-0|, |1-2|, missing on one side (max(|min p - max x|, |max p - min x|) = max(|0-4|, |2-0|) = 4),
    # both missing, |4-1|
    v = (0 + atan(1) + atan(4) + 0 + atan(3)) / 5
    o = (2 / 2 + 0 + 1 + 1 / 2 + 0) / 5        # ranks lo=1, mid=2, hi=3 over K - 1 = 2; one missing: 1
    s = (0 + 1 + 1 + 1 + 0) / 5
    assert r.loss.to_numpy() == pytest.approx([v, o, s], rel=1e-14)
    assert r.value == pytest.approx((v + o + s) / 3, rel=1e-14)
    assert r.per_variable["kind"].tolist() == ["numeric", "ordered", "nominal"]
    assert r.per_variable["max_difference"].iloc[:2].tolist() == [4.0, 2.0]
    assert r.per_variable["n_changed"].tolist() == [3, 3, 3]


def test_il_variables_edge_kinds():
    x = pd.DataFrame({"age": [20, 30, 40], "o": pd.Categorical(["a", "b", "a"], ordered=True)})
    # integers are numeric (sdcMicro refuses R integers); categories that differ make it nominal
    xm = x.assign(o=pd.Categorical(["a", "b", "c"], ordered=True))
    r = sdc.il_variables(x, xm)
    assert r.per_variable["kind"].tolist() == ["numeric", "nominal"]
    assert r.loss["o"] == pytest.approx(1 / 3)
    one = pd.DataFrame({"o": pd.Categorical(["a", "a"], ordered=True)})
    with pytest.warns(DegenerateDataWarning, match="one category"):
        assert math.isnan(sdc.il_variables(one, one).value)
    with pytest.raises(ValueError, match="'nope'"):
        sdc.il_variables(x, xm, ["age", "nope"])


def test_eigen_loss_by_hand_and_robust_eigen_basics():
    assert eigen_loss(np.diag([4.0, 1.0]), np.diag([2.0, 1.5])) == pytest.approx(2 / 4 + 0.5 / 1)
    rng = np.random.default_rng(4)
    x = pd.DataFrame(rng.normal(size=(40, 3)), columns=list("abc"))
    r = sdc.robust_eigen_loss(x, x * 3 + 1)  # standardised first: a change of scale is no loss
    assert r.value == pytest.approx(0, abs=1e-12) and r.seed == 0
    assert r.to_frame().shape == (3, 4)
    with pytest.warns(DegenerateDataWarning, match="constant"):
        assert math.isnan(sdc.robust_eigen_loss(x, x.assign(c=1.0)).value)
    with pytest.raises(TypeError, match="`seed` must be an integer"):
        sdc.robust_eigen_loss(x, x, seed="1")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(6, 30), p=st.integers(2, 5))
def test_il_correl_lies_in_0_1_and_ignores_order_and_scale(seed, n, p):
    rng = np.random.default_rng(seed)
    x = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"v{j}" for j in range(p)])
    xm = x + rng.normal(scale=rng.uniform(0.1, 2), size=x.shape)
    r = sdc.il_correl(x, xm)
    if not math.isnan(r.value):
        assert -1e-12 <= r.value <= 1 + 1e-12
        perm = list(rng.permutation(x.columns))
        assert sdc.il_correl(x[perm], xm[perm] * 7 - 2).value == pytest.approx(r.value, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 30))
def test_il_variables_lies_in_0_1_and_is_the_mean_of_the_variables(seed, n):
    rng = np.random.default_rng(seed)
    x = pd.DataFrame({"v": rng.normal(size=n), "s": rng.choice(["a", "b", None], n),
                      "o": pd.Categorical(rng.choice(["x", "y", "z"], n), categories=["x", "y", "z"], ordered=True)})
    xm = pd.DataFrame({"v": np.where(rng.random(n) < 0.2, np.nan, x["v"] + rng.normal(size=n)),
                       "s": rng.choice(["a", "b", None], n),
                       "o": pd.Categorical(rng.choice(["x", "y", "z", None], n), categories=["x", "y", "z"], ordered=True)})
    r = sdc.il_variables(x, xm)
    assert 0 <= r.value <= 1 and (r.loss.between(0, 1)).all()
    assert r.value == pytest.approx(r.loss.mean(), rel=1e-12)


def test_robust_eigen_leaves_out_incomplete_records():
    rng = np.random.default_rng(8)
    x = pd.DataFrame(rng.normal(size=(40, 2)), columns=["a", "b"])
    xm = x + rng.normal(scale=0.3, size=x.shape)
    holes = xm.copy()
    holes.loc[[3, 17], "a"] = np.nan
    r = sdc.robust_eigen_loss(x, holes)
    assert (r.n_complete_original, r.n_complete_released) == (40, 38)
    assert r.value == pytest.approx(sdc.robust_eigen_loss(x, xm.drop(index=[3, 17]).reindex(x.index)).value, rel=1e-12)
