"""mv_top_code (sdcMicro's mvTopCoding) and the robust covariance under it: hand-computed cases,
the exact boundary, properties on random data (hypothesis), brute-force MCD on small files, a
plan step, and sdcMicro (marker ``sdcmicro``): the values cell for cell with the same center and
covariance, robustbase's factors, and sdc's own MCD against sdcMicro's."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import sdc
from sdc.core.robust import h_of, mcd_subset, robust_covariance
from sdc.workflow.protect import protect_data
from tests import scale

IDENTITY = [[1.0, 0.0], [0.0, 1.0]]


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [0.0, 1.0, 0.0, -1.0, 6.0, np.nan], "b": [1.0, 0.0, -1.0, 0.0, 8.0, 50.0],
                         "sex": list("mfmfmf")})


def test_hand_computed_a_far_record_moves_onto_the_ellipsoid() -> None:
    df = _frame()
    before = df.copy()
    r = sdc.mv_top_code(df, ["a", "b"], center=[0, 0], cov=IDENTITY, alpha=0.05)
    d = stats.chi2.ppf(0.95, 2)                    # 5.991...; D of (6, 8) is 100
    assert r.data.loc[4, ["a", "b"]].tolist() == pytest.approx([6 * np.sqrt(d / 100), 8 * np.sqrt(d / 100)])
    assert r.data.loc[:3, ["a", "b"]].equals(df.loc[:3, ["a", "b"]])   # within the bound: unchanged
    assert r.data.loc[5, "b"] == 50.0                                   # a missing value: no distance, unchanged
    assert r.data["sex"].equals(df["sex"]) and df.equals(before)        # pure
    assert r.details["flagged"] == 1 and r.changed.to_dict() == {"a": 1, "b": 1}
    assert r.seed is None and r.details["bound"] == pytest.approx(d)


def test_a_distance_equal_to_the_bound_is_kept() -> None:
    d = stats.chi2.ppf(0.9, 2)
    df = pd.DataFrame({"a": [np.sqrt(d), 0.0, 3.0], "b": [0.0, 0.0, 3.0]})
    r = sdc.mv_top_code(df, ["a", "b"], center=[0, 0], cov=IDENTITY, alpha=0.1)
    assert r.data.loc[0, "a"] == df.loc[0, "a"] and r.details["flagged"] == 1   # only (3, 3), D = 18 > d


@settings(max_examples=scale.examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.sampled_from([0.01, 0.025, 0.1, 0.5]))
def test_properties_with_a_given_center_and_covariance(seed: int, p: int, alpha: float) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    X = rng.standard_t(3, size=(n, p)) * rng.uniform(0.5, 3, p)
    X[rng.random((n, p)) < 0.05] = np.nan
    A = rng.normal(size=(p, p))
    cov, center = A @ A.T + np.eye(p) * 0.5, rng.normal(size=p)
    df = pd.DataFrame(X, columns=[f"v{j}" for j in range(p)])
    r = sdc.mv_top_code(df, list(df.columns), center=center.tolist(), cov=cov.tolist(), alpha=alpha)
    Y, d = r.data.to_numpy(), stats.chi2.ppf(1 - alpha, p)
    inv = np.linalg.inv(cov)
    dist = lambda M: np.einsum("ij,jk,ik->i", M - center, inv, M - center)  # noqa: E731
    complete = ~np.isnan(X).any(axis=1)
    far = complete & (np.where(complete, dist(np.nan_to_num(X)), 0) > d)
    assert int(far.sum()) == r.details["flagged"]
    np.testing.assert_array_equal(Y[~far], X[~far])                    # the others untouched, NaN kept
    if far.any():
        np.testing.assert_allclose(dist(Y[far]), d, rtol=1e-9)        # onto the ellipsoid
        t = (Y[far] - center) / (X[far] - center)                      # the same direction, shrunk
        np.testing.assert_allclose(t, np.repeat(t[:, :1], p, axis=1), rtol=1e-9)
        assert ((t > 0) & (t < 1)).all()


def _logdet(x: np.ndarray, idx: tuple[int, ...] | np.ndarray) -> float:
    return float(np.linalg.slogdet(np.cov(x[list(idx)], rowvar=False))[1])


@settings(max_examples=scale.examples(25), deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_mcd_search_finds_the_smallest_determinant_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(8, 13)), 2
    x = rng.normal(size=(n, p))
    x[: n // 4] += rng.normal(0, 5, size=(n // 4, p))
    h = h_of(n, p)
    best = min(_logdet(x, c) for c in itertools.combinations(range(n), h))
    found, logdet = mcd_subset(x, h, np.random.default_rng(seed))
    assert logdet == pytest.approx(best + p * np.log((h - 1) / h), abs=1e-9)   # divisor h there, h - 1 here
    assert _logdet(x, found) == pytest.approx(best, abs=1e-9)


def test_planted_outliers_are_flagged_and_the_robust_fit_ignores_them() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(300, 3))
    x[:30] += 8.0                                   # 10 % far away
    fit = robust_covariance(x, seed=1)
    assert np.abs(fit.center).max() < 0.3 and not fit.weights[:30].any()
    df = pd.DataFrame(x, columns=list("abc"))
    r = sdc.mv_top_code(df, list("abc"), seed=1)
    assert r.details["flagged"] >= 30 and r.seed == 1
    assert sdc.mv_top_code(df, list("abc"), seed=1).data.equals(r.data)   # seeded


@pytest.mark.parametrize("kwargs, said", [
    ({"variables": ["a"]}, "at least two variables"),
    ({"variables": ["a", "sex"]}, "column 'sex'"),
    ({"variables": ["a", "b"], "center": [0, 0]}, "`center` and `cov` together"),
    ({"variables": ["a", "b"], "center": [0, 0, 0], "cov": IDENTITY}, "`center` must hold 2 numbers"),
    ({"variables": ["a", "b"], "center": [0, 0], "cov": [[1, 2], [2, 1]]}, "positive definite"),
    ({"variables": ["a", "b"], "alpha": 1.5}, "alpha"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    with pytest.raises((ValueError, TypeError)) as err:
        variables = kwargs.pop("variables")
        sdc.mv_top_code(_frame(), variables, **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_too_few_complete_records_for_the_mcd_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="needs more than 3 records with every variable present; got 3"):
        sdc.mv_top_code(_frame().head(3), ["a", "b"])


def test_a_plan_step_runs_it() -> None:
    df = sdc.load_example()
    plan = [{"method": "mv_top_code", "variables": ["bmi", "cholesterol"], "alpha": 0.01, "seed": 4}]
    run = protect_data(df, plan, reassess=False)
    direct = sdc.mv_top_code(df, ["bmi", "cholesterol"], alpha=0.01, seed=4)
    pd.testing.assert_frame_equal(run.released, direct.data)
    assert run.steps[-1].result.method == "mv_top_code" and direct.details["flagged"] > 0


def test_the_cli_runs_a_plan_step_and_reruns_byte_for_byte(tmp_path, monkeypatch) -> None:
    from sdc.cli import main

    monkeypatch.chdir(tmp_path)
    sdc.load_example().to_csv("data.csv", index=False)
    Path("plan.toml").write_text('[plan]\nseed = 3\n[[steps]]\nmethod = "mv_top_code"\n'
                                 'variables = ["bmi", "cholesterol", "systolic_bp"]\nalpha = 0.01\n')
    assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "out", "--no-assess"]) == 0
    assert main(["protect", "data.csv", "--plan", "out/plan.toml", "--out", "again", "--no-assess"]) == 0
    assert Path("out/released.csv").read_bytes() == Path("again/released.csv").read_bytes()
    released = pd.read_csv("out/released.csv")
    direct = sdc.mv_top_code(sdc.load_example(), ["bmi", "cholesterol", "systolic_bp"], alpha=0.01,
                             seed=_step_seed(Path("out/plan.toml")))
    np.testing.assert_allclose(released["bmi"], direct.data["bmi"], rtol=1e-12)


def _step_seed(plan: Path) -> int:
    import tomllib

    text = tomllib.loads(plan.read_text())
    return int(text["steps"][0].get("seed", text["plan"]["seed"]))


# --- sdcMicro -------------------------------------------------------------------------------

def _random_case(rng: np.random.Generator) -> pd.DataFrame:
    n, p = int(rng.integers(40, 600)), int(rng.integers(2, 6))
    x = rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + rng.normal(0, 10, p)
    k = int(n * rng.uniform(0, 0.15))
    x[:k] += rng.normal(0, 6, size=(k, p))
    return pd.DataFrame(x, columns=[f"x{j}" for j in range(p)])


@pytest.mark.sdcmicro
def test_sdcmicro_values_cell_for_cell_with_the_same_center_and_covariance() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    cases = [(td, ["expend", "income", "savings"], 0.025), (td, ["income", "savings"], 0.1)]
    rng = np.random.default_rng(20261202)
    cases += [(df, list(df.columns), float(rng.choice([0.01, 0.025, 0.05, 0.2]))) for df in
              (_random_case(rng) for _ in range(scale.cases(100)))]
    agree, worst, flagged = 0, 0.0, 0
    for i, (df, cols, alpha) in enumerate(cases):
        theirs = rb.mv_top_coding(df, cols, alpha=alpha, seed=i + 1)          # sdcMicro's own MCD
        ours = sdc.mv_top_code(df, cols, alpha=alpha, center=theirs.center.tolist(), cov=theirs.cov.tolist())
        diff = np.abs(ours.data[cols].to_numpy() - theirs.x.to_numpy()) / np.maximum(1, np.abs(theirs.x.to_numpy()))
        assert diff.max() < 1e-10, (i, diff.max())
        assert ours.details["flagged"] == int(theirs.flagged.sum()), i
        agree, worst, flagged = agree + 1, max(worst, float(diff.max())), flagged + int(theirs.flagged.sum())
    assert agree == len(cases) == 2 + scale.cases(100) and flagged > 5 * scale.cases(100)
    print(f"mvTopCoding, same center/cov: {agree} of {len(cases)} cases, {flagged} records pulled back, "
          f"max relative difference {worst:.1e}")


@pytest.mark.sdcmicro
def test_sdcmicro_robustbase_factors() -> None:
    import rpy2.robjects as ro

    from sdc.core.robust import consistency, small_sample_factor

    for p, n in itertools.product((1, 2, 3, 5, 8), (25, 61, 200, 5000)):
        cons = ro.r(f"robustbase:::.MCDcons({p}, {h_of(n, p) / n})")[0]
        raw = ro.r(f"robustbase:::.MCDcnp2({p}, {n}, 0.5)")[0]
        rew = ro.r(f"robustbase:::.MCDcnp2.rew({p}, {n}, 0.5)")[0]
        assert consistency(h_of(n, p) / n, p) == pytest.approx(cons, rel=1e-12)
        assert small_sample_factor(p, n) == pytest.approx(raw, rel=1e-12), (p, n)
        assert small_sample_factor(p, n, reweighted=True) == pytest.approx(rew, rel=1e-12), (p, n)


@pytest.mark.sdcmicro
def test_sdcmicro_own_mcd_against_sdc_own_mcd() -> None:
    """Both MCDs are randomised searches: where they find the same h-subset the covariance agrees
    to 1e-9; overall the records pulled back differ from sdcMicro's about as much as sdcMicro's
    differ between two of its own seeds."""
    import r_bridge as rb

    robustbase = rb.versions().get("robustbase", "0")
    if tuple(int(x) for x in robustbase.replace("-", ".").split(".")[:2]) >= (0, 99):
        pytest.skip(f"robustbase {robustbase} changed the reweighted MCD's consistency factor (cnp2[1]: 1.078 "
                    "where 0.95 gives 1.254 on the same data); sdc follows robustbase 0.95, as sdcMicro 5.8 on "
                    "Debian 12 runs it (docs/protection.md, P15)")
    rng = np.random.default_rng(7)
    cov_ok = n_cases = 0
    differ_sdc = differ_r = records = 0
    for i in range(scale.cases(100)):
        df = _random_case(rng)
        cols = list(df.columns)
        r1, r2 = rb.mv_top_coding(df, cols, seed=i + 1), rb.mv_top_coding(df, cols, seed=i + 1001)
        ours = sdc.mv_top_code(df, cols, seed=i)
        ours_flag = ours.data[cols].ne(df[cols]).any(axis=1)
        differ_sdc += int((ours_flag != r1.flagged).sum())
        differ_r += int((r2.flagged != r1.flagged).sum())
        records += len(df)
        n_cases += 1
        close = np.abs(np.array(ours.details["cov"]) - r1.cov).max() <= 1e-9 * np.abs(r1.cov).max()
        cov_ok += bool(close)
    print(f"mvTopCoding, own MCDs: {n_cases} cases, {cov_ok} with the same covariance (1e-9); records pulled back "
          f"differently: sdc vs sdcMicro {differ_sdc}, sdcMicro seed vs seed {differ_r}, of {records}")
    assert cov_ok >= n_cases // 2
    assert differ_sdc <= 3 * max(differ_r, 1) + records // 1000
