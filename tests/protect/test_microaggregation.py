"""Microaggregation (MDAV and individual ranking): hand values, brute force, properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import sdc
from sdc.protect import microaggregation_mdav as M
from sdc.protect.microaggregation import mdav_groups, microaggregation
from tests import scale


# --------------------------------------------------------------------------------------
# Hand-computed
# --------------------------------------------------------------------------------------
def test_hand_mdav():
    # Var x = 379/6 - 6.5^2 = 20.9167, Var y = 92/6 - (10/3)^2 = 4.2222. From the centre
    # (6.5, 3.333): d(1,1) = 1.4462 + 1.2895 = 2.7357 < d(12,6) = 1.4462 + 1.6842 = 3.1304,
    # so r = (12,6); its 3 nearest are itself, (11,5) and (10,5). 6 = 2k records: one group
    # in the loop, the other 3 are the last group.
    df = pd.DataFrame({"x": [1.0, 2, 3, 10, 11, 12], "y": [1.0, 1, 2, 5, 5, 6]}, index=list("abcdef"))
    res = microaggregation(df, ["x", "y"], k=3)
    assert res.data["x"].tolist() == [2, 2, 2, 11, 11, 11]
    assert res.data["y"].tolist() == pytest.approx([4 / 3] * 3 + [16 / 3] * 3, rel=1e-15)
    assert res.details["group"].tolist() == [1, 1, 1, 0, 0, 0]
    assert res.details["group_sizes"].tolist() == [3, 3]
    assert res.details["group_size_counts"] == {3: 2}
    assert res.changed.to_dict() == {"x": 4, "y": 6}


def _row(summary, statistic):
    """A value of a summary() table (statistic, value, description)."""
    return summary.set_index("statistic").loc[statistic, "value"]


def test_hand_nearest_ties_in_reverse_data_order():
    # All records equal: r = the first record (first maximum), its 3 "nearest" are the last
    # three in data order (sdcMicro's hash sort puts a record before equal ones already listed).
    df = pd.DataFrame({"x": [1.0] * 7, "y": [2.0] * 7})
    g = mdav_groups(df.to_numpy(), 3)
    assert [sorted(x.tolist()) for x in g] == [[4, 5, 6], [0, 1, 2, 3]]
    assert g[0].tolist() == [6, 5, 4]


def test_hand_onedims():
    # sorted 1..7 -> groups {1,2,3}, {4,5,6,7} (the last takes the remainder)
    df = pd.DataFrame({"x": [5.0, 1, 3, 2, 4, 6, 7], "y": [1.0, 1, 1, 1, 2, 2, 2]})
    res = microaggregation(df, ["x", "y"], k=3, method="onedims")
    assert res.data["x"].tolist() == [5.5, 2, 2, 2, 5.5, 5.5, 5.5]
    # y: ties in data order: records 0,1,2 -> 1; records 3,4,5,6 (1,2,2,2) -> 1.75
    assert res.data["y"].tolist() == [1, 1, 1, 1.75, 1.75, 1.75, 1.75]
    assert res.details["group"]["x"].tolist() == [1, 0, 0, 0, 1, 1, 1]
    assert res.details["algorithm"] == "individual ranking"
    assert microaggregation(df, ["x", "y"], k=3, method="individual").data.equals(res.data)


def test_one_variable_mdav_is_individual_ranking_as_sdcmicro():
    df = pd.DataFrame({"x": [5.0, 1, 3, 2, 4, 6, 7]})
    res = microaggregation(df, "x", k=3)
    assert res.data["x"].tolist() == [5.5, 2, 2, 2, 5.5, 5.5, 5.5]
    assert "mafast" in res.details["algorithm"]


def test_missing_values_modes():
    # A missing term counts as the largest possible one, so record 1 is the farthest from the
    # centre and its group forms first; in-loop groups average their observed values in both
    # modes ((2 + 3) / 2), and missing stays missing.
    df = pd.DataFrame({"x": [2.0, np.nan, 3, 10, 11, 12], "y": [1.0, 1, 2, 5, 5, 6]})
    cor = microaggregation(df, ["x", "y"], k=3)
    sdm = microaggregation(df, ["x", "y"], k=3, mode="sdcmicro")
    assert cor.details["group"].tolist() == sdm.details["group"].tolist() == [0, 0, 0, 1, 1, 1]
    assert cor.data["x"].iloc[[0, 2]].tolist() == sdm.data["x"].iloc[[0, 2]].tolist() == [2.5, 2.5]
    assert np.isnan(cor.data["x"].iloc[1]) and np.isnan(sdm.data["x"].iloc[1])


def test_last_group_divides_by_its_size_in_sdcmicro_mode():
    # The records left after the loop: sdcMicro divides their sums by their number, observed
    # or not ((1 + 2) / 3); correct mode by the observed values ((1 + 2) / 2).
    X = np.array([[1.0], [np.nan], [2.0], [5.0], [6.0], [7.0]])
    groups = [np.array([3, 4, 5]), np.array([0, 1, 2])]
    miss = np.isnan(X)
    assert M.group_means(X, miss, groups, True)[[0, 2], 0].tolist() == [1.0, 1.0]
    assert M.group_means(X, miss, groups, False)[[0, 2], 0].tolist() == [1.5, 1.5]
    assert M.group_means(X, miss, groups, False)[3:, 0].tolist() == [6.0] * 3


def test_sdcmicro_missing_code():
    # sdcMicro's mdav reads -999 as missing (and gives that cell the group mean).
    df = pd.DataFrame({"x": [1.0, 2, -999, 10, 11, 12], "y": [1.0, 1, 2, 5, 5, 6]})
    sdm = microaggregation(df, ["x", "y"], k=3, mode="sdcmicro")
    cor = microaggregation(df, ["x", "y"], k=3)
    # The -999 record is farthest from the centre (a missing term is the largest one): its
    # group is records 0..2 and x becomes (1 + 2) / 2 there; correct mode averages -999 in.
    assert sdm.data["x"].iloc[:3].tolist() == [1.5, 1.5, 1.5]
    assert cor.data["x"].iloc[2] != sdm.data["x"].iloc[2]


def test_onedims_missing_modes():
    df = pd.DataFrame({"x": [1.0, 2, 3, 4, 5, np.nan, 7]})
    cor = microaggregation(df, "x", k=3, method="onedims")
    assert cor.data["x"].tolist()[:5] == [2, 2, 2, 16 / 3, 16 / 3] and cor.data["x"].iloc[6] == 16 / 3
    sdm = microaggregation(df, "x", k=3, method="onedims", mode="sdcmicro")
    # NA sorts last; its group (4, 5, 7, NA) gets NA for every record, as sdcMicro.
    assert sdm.data["x"].tolist()[:3] == [2, 2, 2] and sdm.data["x"].iloc[3:].isna().all()


def test_strata():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"x": rng.normal(size=40), "y": rng.normal(size=40), "s": np.repeat(["a", "b"], 20)})
    res = microaggregation(df, ["x", "y"], k=3, strata="s")
    g = res.details["group"]
    for _, part in res.data.assign(g=g).groupby("g"):
        assert part["s"].nunique() == 1
    for s in ("a", "b"):
        sub = df[df["s"] == s]
        alone = microaggregation(sub, ["x", "y"], k=3)
        pd.testing.assert_frame_equal(alone.data, res.data[df["s"] == s])


def test_flat_api_and_result():
    df = pd.DataFrame({"x": np.arange(10.0), "y": np.arange(10.0) ** 2})
    res = sdc.microaggregation(df, ["x", "y"], k=3, method="mdav")
    assert isinstance(res, sdc.ProtectionResult) and res.method == "microaggregation"
    assert res.parameters == {"variables": ["x", "y"], "k": 3, "method": "mdav", "strata": None, "mode": "correct"}
    assert res.details["n_groups"] == 3 and _row(res.summary(), "records") == 10


@pytest.mark.parametrize("kwargs, match", [
    (dict(k=1), "`k` must be a whole number >= 2; got 1"),
    (dict(method="gower"), "`method` must be one of"),
    (dict(mode="fast"), "`mode` must be one of"),
    (dict(strata="x"), "must not repeat variables"),
    (dict(k=5), "fewer than k = 5"),
])
def test_bad_input(kwargs, match):
    df = pd.DataFrame({"x": [1.0, 2, 3, 4], "y": [1.0, 2, 3, 5], "s": ["a"] * 4})
    with pytest.raises(ValueError, match=match):
        microaggregation(df, ["x", "y"], **kwargs)


def test_bad_columns():
    df = pd.DataFrame({"x": [1.0, 2, 3, 4], "t": list("abcd"), "z": [1.0, np.inf, 2, 3]})
    with pytest.raises(TypeError, match="'t' is text"):  # text: object (pandas < 3) or str (pandas 3)
        microaggregation(df, ["x", "t"])
    with pytest.raises(ValueError, match="non-finite value inf"):
        microaggregation(df, ["x", "z"])


# --------------------------------------------------------------------------------------
# Brute force and the fast path
# --------------------------------------------------------------------------------------
def _brute_first_group(X: np.ndarray, k: int) -> set[int]:
    """MDAV's first group, from the definition (double precision; generic data, no ties)."""
    var = X.var(axis=0)
    w = np.where(var != 0, 1 / np.where(var != 0, var, 1), 1)
    c = X.mean(axis=0)
    r = int(np.argmax(((X - c) ** 2 * w).sum(axis=1)))
    d = ((X - X[r]) ** 2 * w).sum(axis=1)
    return set(np.argsort(d, kind="stable")[:k].tolist())


@settings(max_examples=scale.examples(40), deadline=None)
@given(n=st.integers(6, 60), p=st.integers(2, 4), k=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_brute_first_group(n, p, k, seed):
    X = np.random.default_rng(seed).normal(size=(n, p))
    g = mdav_groups(X, k)
    if n >= 2 * k:
        assert set(g[0].tolist()) == _brute_first_group(X, k)


@settings(max_examples=scale.examples(60), deadline=None)
@given(X=arrays(np.float64, st.tuples(st.integers(2, 50), st.integers(2, 3)),
                elements=st.sampled_from([0.0, 1.0, 1.5, 2.0, -3.0, 1e6, 7.25])),
       k=st.sampled_from([2, 3, 4, 9, 12]))
def test_fast_path_equals_exact_path(X, k):
    # Heavy ties: the filtered fast path must reproduce the exact single-precision path.
    M._FAST = True
    try:
        fast = mdav_groups(X, k)
        M._FAST = False
        exact = mdav_groups(X, k)
    finally:
        M._FAST = True
    assert len(fast) == len(exact) and all((a == b).all() for a, b in zip(fast, exact))


@settings(max_examples=scale.examples(60), deadline=None)
@given(n=st.integers(2, 40), p=st.integers(1, 3), k=st.integers(2, 4), seed=st.integers(0, 10**6),
       method=st.sampled_from(["mdav", "onedims"]), na=st.sampled_from([0.0, 0.0, 0.2]),
       ties=st.booleans(), index=st.sampled_from(["range", "shifted", "str"]))
def test_properties(n, p, k, seed, method, na, ties, index):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (n, p)).astype(float) if ties else rng.normal(size=(n, p)) * 100
    X[rng.random((n, p)) < na] = np.nan
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(p)]).assign(other=np.arange(n))
    if index == "shifted":
        df.index = pd.RangeIndex(7, 7 + n)
    elif index == "str":
        df.index = [f"r{i}" for i in range(n)]
    v = [f"x{j}" for j in range(p)]
    observed = df[v].notna().sum().min()
    if (method == "mdav" and p > 1 and n < k) or ((method == "onedims" or p == 1) and 0 < observed < k):
        with pytest.raises(ValueError, match="fewer than k"):
            microaggregation(df, v, k=k, method=method)
        return
    before = df.copy(deep=True)
    res = microaggregation(df, v, k=k, method=method)
    pd.testing.assert_frame_equal(df, before)
    assert res.data.index.equals(df.index)
    pd.testing.assert_series_equal(res.data["other"], df["other"])
    out = res.data[v]
    assert (out.isna() == df[v].isna()).all().all()          # missing stays missing, and only it
    groups = res.details["group"]
    for j, c in enumerate(v):
        g = groups if isinstance(groups, pd.Series) else groups[c]
        obs = df[c].notna()
        sizes = g[g >= 0].value_counts()
        if method == "mdav" and p > 1:
            assert (sizes >= min(k, n)).all() and (sizes <= max(2 * k - 1, n if n < 2 * k else 0)).all()
        else:
            assert (sizes >= k).all() and (sizes <= 2 * k - 1).all()
        for gid in sizes.index:
            members = (g == gid) & obs
            if members.any():
                vals = out.loc[members, c]
                assert np.allclose(vals, df.loc[members, c].mean(), rtol=1e-12, atol=1e-9)
        # Means preserve the total of the observed values.
        assert out[c].sum() == pytest.approx(df[c].sum(), rel=1e-9, abs=1e-6)


# --------------------------------------------------------------------------------------
# Deliberate differences from sdcMicro (docs/protection.md, rows M1-M3)
# --------------------------------------------------------------------------------------
def test_difference_fewer_than_k_records_is_an_error():
    # M2: sdcMicro's mdav makes one group of 2 records with aggr = 3 (no error): not 3-anonymous.
    with pytest.raises(ValueError, match="has 2 record"):
        microaggregation(pd.DataFrame({"x": [1.0, 2], "y": [3.0, 4]}), ["x", "y"], k=3)


def test_difference_onedims_between_k_and_2k_records():
    # M3: sdcMicro's onedims stops ("Too less observations (4) for aggregate =3"); sdc makes
    # one group, which is 3-anonymous.
    res = microaggregation(pd.DataFrame({"x": [1.0, 2, 3, 4], "y": [3.0, 4, 5, 6]}), ["x", "y"], k=3,
                           method="onedims")
    assert res.data["x"].tolist() == [2.5] * 4 and res.data["y"].tolist() == [4.5] * 4
