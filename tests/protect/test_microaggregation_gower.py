"""microaggregation_gower (sdcMicro's microaggrGower): a hand example, the Gower distance and the
neighbours recomputed by brute force (hypothesis), neighbourhoods of k, input untouched,
determinism, a plan step, the Dask refusal and bad arguments refused in one line. sdcMicro
itself: tests/protect/test_sdcmicro_microaggregation_gower.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.workflow.protect import protect_data
from tests import scale


def _mixed(seed: int, n: int, missing: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "num": rng.integers(0, 6, n).astype(float),
        "cat": pd.Categorical(rng.choice(list("abc"), n)),
        "ord": pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"], ordered=True),
        "mix": np.where(rng.random(n) < 0.4, 0.0, rng.integers(1, 4, n)).astype(float),
        "txt": rng.choice(["x", "y"], n).astype(object),
    })
    if missing:
        df.loc[rng.random(n) < 0.1, "num"] = np.nan
        df.loc[rng.random(n) < 0.1, "cat"] = np.nan
    return df


def _brute_distance(df: pd.DataFrame, w: dict[str, float], c: float) -> np.ndarray:
    """The Gower distance one pair at a time, from the definition (VIM's gowerD, see _gower)."""
    n = len(df)
    num = df["num"].to_numpy()
    r = np.nanmax(num) - np.nanmin(num) or 1.0
    numf = np.where(np.isnan(num), np.nanmax(num) / r + 1, num / r)
    cat = df["cat"].cat.codes.to_numpy()
    cat = np.where(cat < 0, 99, cat)
    ordr = df["ord"].cat.codes.to_numpy() + 1.0
    mix = df["mix"].to_numpy()
    D = np.zeros((n, n))
    W = sum(w.values())
    for i in range(n):
        for j in range(n):
            xc, yc = mix[i] == c, mix[j] == c
            m = 1.0 if xc != yc else (0.0 if xc else abs(mix[i] - mix[j]))
            D[i, j] = (w["num"] * abs(numf[i] - numf[j]) + w["cat"] * (cat[i] != cat[j])
                       + w["ord"] * abs(ordr[i] - ordr[j]) / 2 + w["mix"] * m) / W
    return D


def test_hand_example() -> None:
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0], "s": list("aabbbb")})
    # Range of x is 11: d(0, 1) = (1/11 + 0) / 2; d(2, 3) = (7/11 + 0) / 2; d(1, 2) = (1/11 + 1) / 2.
    D = sdc.gower_distance(df, ["x", "s"])
    assert D[0, 1] == pytest.approx(1 / 22) and D[2, 3] == pytest.approx(7 / 22) and D[1, 2] == pytest.approx(6 / 11)
    r = sdc.microaggregation_gower(df, ["x", "s"], k=3, seed=5)
    # Record 2 (x = 3, s = b): nearest itself, 3 (7/22), 4 (8/22): mean (3 + 10 + 11) / 3 = 8.
    assert r.data["x"].tolist() == [2.0, 2.0, 8.0, 11.0, 11.0, 11.0]
    assert r.details["neighbours"].tolist() == [[0, 1, 2], [1, 0, 2], [2, 3, 4], [3, 4, 5], [4, 5, 3], [5, 4, 3]]
    assert r.data["s"].tolist()[3:] == ["b"] * 3 and r.seed == 5
    med = sdc.microaggregation_gower(df, ["x"], dist_var=["x"], k=3, measure="median")
    assert med.data["x"].tolist() == [2.0, 2.0, 2.0, 11.0, 11.0, 11.0]


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 25), st.integers(2, 4))
def test_distance_and_neighbours_by_brute_force(seed, n, k) -> None:
    df = _mixed(seed, n)
    rng = np.random.default_rng(seed + 1)
    w = {v: float(rng.integers(1, 4)) for v in ("num", "cat", "ord", "mix")}
    dist = ["mix", "ord", "num", "cat"]   # any order: the weights follow dist_var
    D = sdc.gower_distance(df, dist, mixed="mix", mixed_constant=0.0, weights=[w[v] for v in dist])
    B = _brute_distance(df, w, 0.0)
    np.testing.assert_allclose(D, B, rtol=0, atol=1e-12)
    if k > n:
        return
    r = sdc.microaggregation_gower(df, ["num", "cat", "txt"], k=k, dist_var=dist, mixed="mix",
                                   weights=[w[v] for v in dist], seed=seed % 1000)
    nb = r.details["neighbours"]
    expect = np.argsort(D, axis=1, kind="stable")[:, :k]
    np.testing.assert_allclose(D[np.arange(n)[:, None], nb], D[np.arange(n)[:, None], expect], atol=1e-15)
    assert nb.shape == (n, k) and all(len(set(row)) == k for row in nb)   # k distinct records each
    num = df["num"].to_numpy()
    np.testing.assert_allclose(r.data["num"].to_numpy(), [np.nanmean(num[row]) if (~np.isnan(num[row])).any()
                                                          else np.nan for row in nb], rtol=1e-12)
    for v in ("cat", "txt"):   # a neighbour's value (missing counts as a value)
        vals = df[v].astype(object).where(df[v].notna(), "<NA>").to_numpy()
        got = r.data[v].astype(object).where(r.data[v].notna(), "<NA>").to_numpy()
        assert all(got[i] in set(vals[nb[i]]) for i in range(n))


def test_mode_takes_the_most_frequent_category() -> None:
    df = pd.DataFrame({"x": [0.0, 0.1, 0.2, 5.0, 5.1, 5.2], "c": list("aabccc")})
    r = sdc.microaggregation_gower(df, ["c"], dist_var=["x"], k=3, category="mode", seed=3)
    assert r.data["c"].tolist() == ["a", "a", "a", "c", "c", "c"]
    assert r.data["c"].dtype == df["c"].dtype  # object, or str on pandas 3


def test_strata_keep_neighbours_inside_and_input_untouched() -> None:
    df = _mixed(7, 40)
    df["g"] = np.repeat(["p", "q"], 20)
    before = df.copy(deep=True)
    r = sdc.microaggregation_gower(df, ["num", "cat"], k=3, dist_var=["num", "cat", "ord"], strata="g", seed=1)
    pd.testing.assert_frame_equal(df, before)
    g = df["g"].to_numpy()
    assert (g[r.details["neighbours"]] == g[:, None]).all() and r.details["n_strata"] == 2
    assert r.data["cat"].dtype == df["cat"].dtype and r.data.index.equals(df.index)
    again = sdc.microaggregation_gower(df, ["num", "cat"], k=3, dist_var=["num", "cat", "ord"], strata="g", seed=1)
    pd.testing.assert_frame_equal(r.data, again.data)   # the same seed, the same release
    assert r.parameters["strata"] == ["g"] and r.parameters["weights"] == [1.0, 1.0, 1.0]


def test_add_random_is_seeded() -> None:
    df = pd.DataFrame({"x": [1.0] * 6 + [2.0] * 6})
    a = sdc.microaggregation_gower(df, ["x"], k=2, add_random=True, seed=4)
    b = sdc.microaggregation_gower(df, ["x"], k=2, add_random=True, seed=4)
    assert (a.details["neighbours"] == b.details["neighbours"]).all()
    plain = sdc.microaggregation_gower(df, ["x"], k=2)
    assert plain.details["neighbours"][0].tolist() == [0, 1]   # ties in data order without it


def test_a_plan_step_and_the_declaration() -> None:
    df = sdc.load_example().iloc[:300]
    step = {"method": "microaggregation_gower", "variables": ["age", "sex"], "k": 3, "seed": 2,
            "params": {"dist_var": ["age", "sex", "bmi"]}}
    run = protect_data(df, [step], reassess=False)
    direct = sdc.microaggregation_gower(df, ["age", "sex"], k=3, dist_var=["age", "sex", "bmi"], seed=2)
    pd.testing.assert_frame_equal(run.released, direct.data)
    info = sdc.protect.method_infos()["microaggregation_gower"]
    assert info.seeded and "whole file" in info.dask


def test_refused_on_dask() -> None:
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pd.DataFrame({"x": [1.0, 2.0, 3.0]}), npartitions=1)
    with pytest.raises(Exception, match="nearest records are sought over the whole file"):
        sdc.microaggregation_gower(ddf, ["x"])


@pytest.mark.parametrize("kwargs, message", [
    ({"variables": ["nope"]}, "nope"),
    ({"k": 1}, "k"),
    ({"k": 31}, "fewer than k = 31"),
    ({"weights": [1.0]}, "one number per distance variable"),
    ({"weights": [1.0, -1.0, 1.0]}, "weights"),
    ({"mixed": ["cat"], "dist_var": ["num", "cat"]}, "must be numeric"),
    ({"mixed": ["mix"]}, "is not a distance variable"),
    ({"mixed": ["mix"], "dist_var": ["mix"], "mixed_constant": [0.0, 1.0]}, "one number per mixed variable"),
    ({"measure": "trim"}, "measure"),
    ({"category": "first"}, "category"),
    ({"strata": ["num"]}, "must not repeat"),
    ({"variables": ["inf"]}, "column 'inf' has infinite values"),
    ({"dist_var": ["num", "none"]}, "`dist_var` column 'none' is missing in every record"),
    ({"variables": ["none"]}, "`dist_var` column 'none' is missing in every record"),
])
def test_bad_arguments_refused_in_one_line(kwargs, message) -> None:
    df = _mixed(3, 30).assign(inf=np.r_[np.inf, np.zeros(29)], none=np.nan)
    before = df.copy()
    args = {"variables": ["num", "cat"], **kwargs}
    with pytest.raises((ValueError, TypeError)) as e:
        sdc.microaggregation_gower(df, args.pop("variables"), **args)
    assert message in str(e.value) and "\n" not in str(e.value)
    pd.testing.assert_frame_equal(df, before)


def test_a_stratum_smaller_than_k_is_named() -> None:
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "g": ["p", "p", "p", "q", "q"]})
    with pytest.raises(ValueError, match="^stratum 'q' has 2 record\\(s\\), fewer than k = 3"):
        sdc.microaggregation_gower(df, ["x"], strata="g")


def test_the_r_translation_is_exact_only_for_complete_numeric_releases() -> None:
    from sdc.protect._rcode import StepRun

    info = sdc.protect.method_infos()["microaggregation_gower"]
    df = _mixed(2, 20, missing=False)
    for variables, exact in ((["num2"], True), (["num2", "cat"], False)):
        df["num2"] = np.arange(20.0)
        r = sdc.microaggregation_gower(df, variables, dist_var=["num", "cat"], seed=1)
        step = info.sdcmicro(StepRun("microaggregation_gower", tuple(variables), r.parameters, r.seed, r.details, {}))
        assert step.exact is exact and any("sdcMicro:::maGowerWORK(" in line and "aggr = 3" in line for line in step.code)
        assert 'x[["cat"]] <- factor(x[["cat"]])' in "\n".join(step.code)
    df.loc[0, "num2"] = np.nan
    r = sdc.microaggregation_gower(df, ["num2"], dist_var=["num", "cat"], seed=1)
    step = info.sdcmicro(StepRun("microaggregation_gower", ("num2",), r.parameters, r.seed, r.details, {}))
    assert not step.exact and "NA means" in step.note
