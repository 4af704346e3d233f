"""pram: the invariant matrix by hand, its properties, seeded application, strata, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

import sdc
from sdc.protect._result import changed_cells
from sdc.protect.pram import flip_matrix, pram_matrix


def test_matrix_by_hand():
    # counts (3, 1): p = (.75, .25); d = (.8, .6): P = [[.8, .2], [.4, .6]]; s = pP = (.7, .3)
    # Q = [[.8*.75/.7, .4*.25/.7], [.2*.75/.3, .6*.25/.3]]; R = PQ.
    R = np.array([[0.8 * 0.6 / 0.7 + 0.2 * 0.5, 0.8 * 0.1 / 0.7 + 0.2 * 0.5],
                  [0.4 * 0.6 / 0.7 + 0.6 * 0.5, 0.4 * 0.1 / 0.7 + 0.6 * 0.5]])
    assert_allclose(pram_matrix([3, 1], [0.8, 0.6], 1.0), R, rtol=1e-15)
    assert_allclose(R, [[0.785714285714286, 0.214285714285714], [0.642857142857143, 0.357142857142857]], rtol=1e-13)
    assert_allclose(pram_matrix([3, 1], [0.8, 0.6], 0.5), 0.5 * R + 0.5 * np.eye(2), rtol=1e-15)
    assert_allclose(pram_matrix([30, 10], [0.8, 0.6], 0.5), pram_matrix([3, 1], [0.8, 0.6], 0.5), rtol=1e-15)


def test_matrix_edge_cases():
    assert pram_matrix([7], [0.9], 0.5).tolist() == [[1.0]]                       # one level
    assert_allclose(pram_matrix([5, 0, 2], [1, 1, 1], 0.5), np.eye(3))            # d = 1: identity
    assert_allclose(pram_matrix([5, 0, 2], [0.7, 0.7, 0.7], 0.0), np.eye(3))       # alpha = 0: identity
    M = pram_matrix([5, 0, 2], [0.7, 0.8, 0.9], 1.0)
    assert_allclose(M[:, 1], 0, atol=1e-17)                                        # never to an absent level
    assert_allclose(flip_matrix(3, 0.3), [[0.7, 0.15, 0.15], [0.15, 0.7, 0.15], [0.15, 0.15, 0.7]])


@given(counts=st.lists(st.integers(0, 50), min_size=2, max_size=7).filter(lambda c: sum(c) > 0),
       data=st.data(), alpha=st.floats(0, 1))
def test_matrix_is_stochastic_and_invariant(counts, data, alpha):
    d = data.draw(st.lists(st.floats(0, 1), min_size=len(counts), max_size=len(counts)))
    M = pram_matrix(counts, d, alpha)
    p = np.asarray(counts, float) / sum(counts)
    assert (M >= -1e-15).all()
    assert_allclose(M.sum(axis=1), 1, atol=1e-12)
    assert_allclose(p @ M, p, atol=1e-12)     # invariant PRAM: the expected frequencies are kept


def test_seeded_and_recorded():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 300), "b": rng.integers(0, 3, 300)})
    r1 = sdc.pram(df, ["a", "b"], seed=42)
    r2 = sdc.pram(df, ["a", "b"], seed=42)
    pd.testing.assert_frame_equal(r1.data, r2.data)
    assert r1.seed == 42 and r1.parameters == {"variables": ["a", "b"], "pd": 0.8, "alpha": 0.5}
    assert not r1.data.equals(sdc.pram(df, ["a", "b"], seed=43).data)
    r3 = sdc.pram(df, "a")
    assert isinstance(r3.seed, int)
    pd.testing.assert_frame_equal(sdc.pram(df, "a", seed=r3.seed).data, r3.data)   # the recorded seed replays


def test_details_matrix_and_changes():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 500, p=[0.6, 0.3, 0.1])})
    r = sdc.pram(df, "a", pd=0.7, alpha=0.8, seed=3)
    det = r.details["a"]
    counts = df["a"].value_counts().reindex(["x", "y", "z"]).to_numpy()
    assert det["levels"] == ["x", "y", "z"] and det["kind"] == "invariant"
    assert_allclose(det["matrix"].to_numpy(), pram_matrix(counts, det["diagonal"], 0.8), rtol=1e-15)
    assert all(0.7 <= d <= 1 for d in det["diagonal"])
    assert det["transitions"].to_numpy().sum() == 500
    assert r.changed["a"] == 500 - np.trace(det["transitions"].to_numpy()) == det["changed"]
    assert r.changed["a"] == changed_cells(df, r.data, ["a"])["a"]


def test_dtypes_missing_values_and_index_kept():
    df = pd.DataFrame({
        "s": pd.Series(["a", None, "b", "c"] * 25, dtype=object),
        "c": pd.Categorical(["u", "v", None, "v"] * 25, categories=["u", "v", "w"], ordered=True),
        "i": np.tile([1, 2, 3, 4], 25),
        "f": np.tile([1.0, np.nan, 2.0, 2.0], 25),
    }, index=np.arange(100) * 3)
    before = df.copy()
    r = sdc.pram(df, list(df.columns), seed=5)
    pd.testing.assert_frame_equal(df, before)
    out = r.data
    assert out.index.equals(df.index)
    assert out["c"].dtype == df["c"].dtype and out["i"].dtype == np.int64 and out["f"].dtype == np.float64
    for v in df.columns:
        assert out[v].isna().equals(df[v].isna())
        assert set(out[v].dropna()) <= set(df[v].dropna()) | ({"w"} if v == "c" else set())
    assert r.details["c"]["levels"] == ["u", "v", "w"]   # unused categories are levels, as R's factor levels


def test_no_change_cases():
    df = pd.DataFrame({"a": ["x", "y"] * 50})
    assert sdc.pram(df, "a", pd=1.0, seed=1).n_changed == 0
    assert sdc.pram(df, "a", alpha=0.0, seed=1).n_changed == 0
    assert sdc.pram(df, "a", flip=0.0, seed=1).n_changed == 0
    assert sdc.pram(df, "a", flip=1.0, seed=1).n_changed == 100     # a binary flip with certainty


def test_flip_and_custom_matrix():
    df = pd.DataFrame({"sex": ["m", "f"] * 5000})
    r = sdc.pram(df, "sex", flip=0.1, seed=7)
    share = r.changed["sex"] / 10000
    assert abs(share - 0.1) < 4 * np.sqrt(0.1 * 0.9 / 10000)
    assert r.parameters["flip"] == 0.1 and r.details["sex"]["kind"] == "flip"
    m = pd.DataFrame([[1.0, 0.0], [0.5, 0.5]], index=["f", "m"], columns=["f", "m"])
    r = sdc.pram(df, "sex", matrix={"sex": m}, seed=7)
    assert (r.data["sex"][df["sex"] == "f"] == "f").all()        # row f keeps f with probability 1
    r2 = sdc.pram(df, "sex", matrix={"sex": {"m": {"m": 0.5, "f": 0.5}, "f": {"f": 1.0, "m": 0.0}}}, seed=7)
    pd.testing.assert_frame_equal(r.data, r2.data)


def test_application_follows_the_matrix():
    # Chi-square goodness of fit of each row's transitions to the matrix (fixed seed).
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"a": rng.choice(list("pqrs"), 20000, p=[0.4, 0.3, 0.2, 0.1])})
    r = sdc.pram(df, "a", pd=0.5, alpha=0.9, seed=11)
    M = r.details["a"]["matrix"].to_numpy()
    T = r.details["a"]["transitions"].to_numpy()
    for i in range(4):
        res = stats.chisquare(T[i], T[i].sum() * M[i])
        assert res.pvalue > 1e-4
    freq = r.data["a"].value_counts(normalize=True).reindex(list("pqrs")).to_numpy()
    assert_allclose(freq, [0.4, 0.3, 0.2, 0.1], atol=0.02)       # invariance, up to sampling error


def test_strata_matrices_from_stratum_counts():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"v": rng.choice(["a", "b", "c"], 600), "s1": rng.integers(0, 2, 600),
                       "s2": rng.choice(["x", "y"], 600)})
    r = sdc.pram(df, "v", strata=["s1", "s2"], seed=9)
    det = r.details["v"]
    assert sorted(det["matrices"]) == ["0_x", "0_y", "1_x", "1_y"] == sorted(det["diagonal"])
    for label, M in det["matrices"].items():
        a, b = label.split("_")
        sub = df[(df["s1"] == int(a)) & (df["s2"] == b)]
        counts = sub["v"].value_counts().reindex(["a", "b", "c"], fill_value=0).to_numpy()
        assert_allclose(M.to_numpy(), pram_matrix(counts, det["diagonal"][label], 0.5), rtol=1e-15)
    assert r.parameters["strata"] == ["s1", "s2"]
    pd.testing.assert_series_equal(r.data["s1"], df["s1"])


@pytest.mark.parametrize("kwargs, message", [
    ({"pd": 1.5}, r"`pd` must be a number in \[0, 1\], or a table of column = value; got 1.5"),
    ({"alpha": -0.1}, r"`alpha` must be a number in \[0, 1\], or a table of column = value; got -0.1"),
    ({"flip": 2}, r"`flip` must be a number in \[0, 1\], or a table of column = value; got 2"),
    ({"flip": 0.1, "pd": 0.8}, r"give `flip` or `pd`/`alpha`, not both"),
    ({"pd": {"zz": 0.5}}, r"`pd` names variables not being pramed: 'zz'"),
    ({"strata": ["a"]}, r"`strata` cannot include a pramed variable: 'a'"),
    ({"strata": ["nope"]}, r"`strata` names columns not in the data: 'nope'"),
    ({"matrix": {"a": pd.DataFrame([[1.0]], index=["x"], columns=["x"])}}, r"must have the levels of 'a'"),
    ({"matrix": {"a": pd.DataFrame([[0.5, 0.4], [0, 1]], index=["x", "y"], columns=["x", "y"])}},
     r"`matrix\['a'\]` row 'x' sums to 0.9; every row must sum to 1"),
    ({"seed": -1}, r"`seed` must be an integer >= 0; got -1"),
])
def test_errors(kwargs, message):
    df = pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 3]})
    with pytest.raises((ValueError, TypeError), match=message):
        sdc.pram(df, "a", **kwargs)


@given(values=st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d"])), min_size=1, max_size=40),
       seed=st.integers(0, 2**32 - 1), pd_=st.floats(0, 1), alpha=st.floats(0, 1))
def test_properties(values, seed, pd_, alpha):
    df = pd.DataFrame({"v": pd.Series(values, dtype=object).to_numpy(), "k": range(len(values))},
                      index=pd.RangeIndex(5, 5 + len(values)))
    before = df.copy()
    r = sdc.pram(df, "v", pd=pd_, alpha=alpha, seed=seed)
    pd.testing.assert_frame_equal(df, before)
    assert r.data.index.equals(df.index)
    assert r.data["v"].isna().equals(df["v"].isna())
    assert set(r.data["v"].dropna()) <= set(df["v"].dropna())
    assert r.changed["v"] == changed_cells(df, r.data, ["v"])["v"]
    pd.testing.assert_frame_equal(sdc.pram(df, "v", pd=pd_, alpha=alpha, seed=seed).data, r.data)
