"""microaggregation's sort-based methods simple and single and the measures median, trim and
onestep (sdcMicro's microaggregation): sdcMicro's values on a hand-sized file, brute force on
random data (hypothesis), refusals, a plan step, and sdcMicro (marker ``sdcmicro``) cell for cell
on testdata and 100 random files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.workflow.protect import protect_data
from tests import scale

D = pd.DataFrame({"a": [-9, 2, 16, -11, -1, 1, 7, -2, 20, -1, 4], "b": [10, -4, -10, 18, -23, 9, 0, 10, 4, 21, -12]})


@pytest.mark.parametrize("method, kwargs, first_a, first_b", [
    # sdcMicro 5.8.2's microaggregation(D, aggr = 3, ...)$mx, rows 1, 4 and 5 (printed to 6 digits)
    ("simple", {}, [3.0, -3.666667, -3.666667], [-1.333333, 1.333333, 1.333333]),
    ("single", {}, [-7.333333, -7.333333, -0.333333], [12.666667, 12.666667, 2.333333]),
    ("simple", {"measure": "onestep"}, [3.0, -2.328757, -2.328757], [-1.333333, 3.020592, 3.020592]),
    ("single", {"measure": "trim", "trim": 0.2}, [-7.333333, -7.333333, -0.333333], [12.666667, 12.666667, 2.333333]),
])
def test_sdcmicro_values_by_hand(method, kwargs, first_a, first_b) -> None:
    r = sdc.microaggregation(D, ["a", "b"], k=3, method=method, **kwargs)
    assert r.data.loc[[0, 3, 4], "a"].round(6).tolist() == first_a
    assert r.data.loc[[0, 3, 4], "b"].round(6).tolist() == first_b
    assert r.details["group_size_counts"] == {3: 2, 5: 1} and r.details["algorithm"] == method


def _expected(x: np.ndarray, measure: str, trim: float) -> np.ndarray:
    s = pd.DataFrame(x)
    if measure == "mean":
        return s.mean().to_numpy()
    if measure == "median":
        return s.median().to_numpy()
    if measure == "trim":
        from scipy import stats

        return np.array([stats.trim_mean(x[:, j], trim) for j in range(x.shape[1])])
    med = s.median()
    mad = (s - med).abs().median() * 1.4826
    return s.clip(med - 3 / 1.486 * mad, med + 3 / 1.486 * mad, axis=1).mean().to_numpy()


@settings(max_examples=scale.examples(80), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.sampled_from(["simple", "single"]),
       st.sampled_from(["mean", "median", "trim", "onestep"]), st.sampled_from([0.0, 0.1, 0.25, 0.4]))
def test_brute_force_blocks_and_measures(seed, k, method, measure, trim) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2 * k, 60))
    df = pd.DataFrame({"a": rng.integers(0, 8, n).astype(float), "b": rng.normal(size=n).round(2)})
    r = sdc.microaggregation(df, ["b", "a"], k=k, method=method, measure=measure, trim=trim, varsort="a")
    order = np.arange(n) if method == "simple" else np.argsort(df["a"].to_numpy(), kind="stable")
    groups = [order[i * k:(i + 1) * k] for i in range(n // k - 1)] + [order[(n // k - 1) * k:]]
    for g in groups:
        got = r.data.iloc[g][["b", "a"]].to_numpy()
        np.testing.assert_allclose(got, np.tile(_expected(df.iloc[g][["b", "a"]].to_numpy(), measure, trim),
                                                (g.size, 1)), rtol=1e-12, atol=1e-12)
    assert sorted(r.details["group_sizes"].tolist()) == sorted(g.size for g in groups)


@pytest.mark.parametrize("kwargs, said", [
    ({"method": "single", "varsort": "zz"}, "`varsort` 'zz' is not one of the `variables`"),
    ({"method": "simple", "measure": "mode"}, "measure"),
    ({"method": "simple", "trim": 0.5}, "trim"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    with pytest.raises((ValueError, TypeError)) as err:
        sdc.microaggregation(D, ["a", "b"], k=3, **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_missing_values_are_refused_for_the_sorted_methods() -> None:
    with pytest.raises(ValueError, match="method 'single' needs complete values"):
        sdc.microaggregation(D.assign(a=D["a"].where(D["a"] > 0)), ["a", "b"], method="single")


def test_a_plan_step_runs_it() -> None:
    df = sdc.load_example()
    step = {"method": "microaggregation", "variables": ["bmi", "systolic_bp"], "k": 4,
            "params": {"method": "single", "measure": "median"}, "varsort": "systolic_bp"}
    run = protect_data(df, [step], reassess=False)
    direct = sdc.microaggregation(df, ["bmi", "systolic_bp"], k=4, method="single", measure="median",
                                  varsort="systolic_bp")
    pd.testing.assert_frame_equal(run.released, direct.data)


@pytest.mark.sdcmicro
def test_sdcmicro_cell_for_cell_testdata_and_100_random_files() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    cols = ["expend", "income", "savings"]
    cases = [(td, cols, 3, m, ms, t, 2, None) for m in ("simple", "single")
             for ms, t in (("mean", 0), ("median", 0), ("trim", 0.2), ("onestep", 0))]
    cases.append((td, cols, 4, "single", "mean", 0, 1, "urbrur"))
    rng = np.random.default_rng(20261202)
    for _ in range(scale.cases(100)):
        n, p = int(rng.integers(10, 500)), int(rng.integers(2, 5))   # one variable: sdcMicro runs mafast (P20)
        df = pd.DataFrame({f"v{j}": rng.lognormal(3, 1, n).round(int(rng.integers(0, 3))) for j in range(p)})
        df["s"] = rng.integers(0, 2, n)
        k = int(rng.integers(2, max(3, min(8, n // 4))))
        ms = str(rng.choice(["mean", "median", "trim", "onestep"]))
        cases.append((df, [f"v{j}" for j in range(p)], k, str(rng.choice(["simple", "single"])), ms,
                      float(rng.choice([0.1, 0.25])) if ms == "trim" else 0.0, int(rng.integers(1, p + 1)),
                      "s" if rng.random() < 0.2 else None))
    agree, cells, worst = 0, 0, 0.0
    for i, (df, vs, k, m, ms, t, vsort, strata) in enumerate(cases):
        theirs = rb.microaggregation_measure(df, vs, aggr=k, method=m, measure=ms, trim=t, varsort=vsort,
                                             strata_variables=strata).to_numpy()
        ours = sdc.microaggregation(df, vs, k=k, method=m, measure=ms, trim=t, varsort=vs[vsort - 1],
                                    strata=strata).data[vs].to_numpy()
        rel = np.abs(ours - theirs) / np.maximum(1, np.abs(theirs))
        assert rel.max() < 1e-12, (i, m, ms, rel.max())
        agree, cells, worst = agree + 1, cells + ours.size, max(worst, float(rel.max()))
    assert agree == 9 + scale.cases(100)
    print(f"microaggregation simple/single x mean/median/trim/onestep: {agree} of {len(cases)} cases, {cells} cells, "
          f"max relative difference {worst:.1e}")
