"""shuffle (sdcMicro's shuffle, Muralidhar and Sarathy's data shuffling): hand-computed pieces,
properties on random data (hypothesis: marginals kept exactly), rank correlations over seeds, a
plan step and the command line, and sdcMicro (marker ``sdcmicro``): R's draw replayed, cell for
cell; the rank correlations over seeds; method mlm against R's lm."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import sdc
from sdc.core.robust import robust_covariance
from sdc.protect.shuffling import correlations, ds_model, egadp, mlm_prediction, normal_scores, reverse_map
from sdc.workflow.protect import protect_data
from tests import scale


def test_reverse_map_gives_the_own_values_in_the_order_of_the_prediction() -> None:
    y = np.array([30.0, 10.0, 20.0, 40.0])
    assert reverse_map(y, np.array([0.5, -1.0, 2.0, 0.0])).tolist() == [30.0, 10.0, 40.0, 20.0]
    # ties in the prediction: record order, as R's order()
    assert reverse_map(y, np.array([1.0, 1.0, 0.0, 1.0])).tolist() == [20.0, 30.0, 10.0, 40.0]


def test_ds_model_hand_computed_one_response_one_predictor() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=50)
    y = x + rng.normal(size=50)
    r = stats.spearmanr(y, x).statistic
    p = 2 * np.sin(np.pi * r / 6)                          # the normal correlation of Spearman's r
    mean, sigma = ds_model(y[:, None], x[:, None])
    zx = stats.norm.ppf((stats.rankdata(x) - 0.5) / 50)
    np.testing.assert_allclose(mean[:, 0], p * zx, rtol=1e-12)   # P_XX = 2 sin(pi / 6) = 1
    assert sigma[0, 0] == pytest.approx(1 - p**2, rel=1e-12)
    np.testing.assert_allclose(normal_scores(x[:, None])[:, 0], zx)


def _case(seed: int, n: int = 80, missing: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=n), rng.integers(0, 4, n).astype(float)
    df = pd.DataFrame({"x1": x1, "x2": x2, "y1": np.exp(x1 + rng.normal(0, 0.5, n)).round(1),
                       "y2": (x1 - x2 + rng.normal(size=n)).round(0)})
    if missing:
        df[["y1", "x1"]] = df[["y1", "x1"]].mask(rng.random((n, 2)) < missing)
    return df


@settings(max_examples=scale.examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(5, 120), st.sampled_from(["ds", "mlm", "mvn"]),
       st.sampled_from(["spearman", "pearson"]), st.sampled_from([0.0, 0.1]))
def test_marginals_kept_exactly_predictors_untouched(seed, n, method, covmethod, missing) -> None:
    df = _case(seed, n, missing)
    before = df.copy()
    r = sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], method=method, covmethod=covmethod, seed=seed,
                    gadp=n > 10)
    for v in ("y1", "y2"):
        assert np.array_equal(np.sort(r.data[v].dropna().to_numpy()), np.sort(df[v].dropna().to_numpy()))
        assert r.data[v].isna().equals(df[v].isna())           # missing stays missing, where it was
    assert r.data[["x1", "x2"]].equals(df[["x1", "x2"]]) and df.equals(before)
    again = sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], method=method, covmethod=covmethod, seed=seed,
                        gadp=n > 10)
    assert again.data.equals(r.data)                             # seeded
    if n > 10:
        assert again.details["gadp"].equals(r.details["gadp"])
        assert r.details["gadp"].isna().equals(df[["y1", "y2"]].isna())


def _clean(seed: int, n: int = 300, outliers: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    Y = X @ np.array([[1.0, 0.5], [-0.5, 1.0]]) + rng.normal(size=(n, 2))
    bad = rng.random(n) < outliers
    Y[bad] += rng.normal(8, 1, size=(int(bad.sum()), 2))
    return pd.DataFrame(np.column_stack([Y, X]), columns=["y1", "y2", "x1", "x2"])


@pytest.fixture(scope="module")
def clean() -> pd.DataFrame:
    return _clean(4, outliers=0.1)


def test_mcd_marginals_kept_input_untouched_seeded(clean) -> None:
    before = clean.copy()
    r = sdc.shuffle(clean, ["y1", "y2"], predictors=["x1", "x2"], covmethod="mcd", seed=5)
    for v in ("y1", "y2"):
        assert np.array_equal(np.sort(r.data[v]), np.sort(clean[v]))
    assert clean.equals(before) and r.data[["x1", "x2"]].equals(clean[["x1", "x2"]])
    assert sdc.shuffle(clean, ["y1", "y2"], predictors=["x1", "x2"], covmethod="mcd", seed=5).data.equals(r.data)
    assert r.parameters["covmethod"] == "mcd" and r.seed == 5


def test_mcd_correlation_is_the_reweighted_mcd_scaled_and_resists_outliers(clean) -> None:
    M = clean.to_numpy()
    cov = robust_covariance(M, seed=0).cov
    R = correlations(M, "mcd", 0)
    np.testing.assert_allclose(R, cov / np.sqrt(np.outer(np.diag(cov), np.diag(cov))), rtol=1e-12)
    np.testing.assert_allclose(np.diag(R), 1.0, rtol=1e-12)
    truth = correlations(_clean(4).to_numpy(), "pearson")             # the same file without its outliers
    assert np.abs(R - truth).max() < 0.5 * np.abs(correlations(M, "pearson") - truth).max()
    flat = clean.assign(x2=0.0)
    with pytest.raises(ValueError, match="covmethod=.mcd.") as err:
        sdc.shuffle(flat, ["y1", "y2"], predictors=["x1", "x2"], covmethod="mcd", seed=1)
    assert "\n" not in str(err.value)


def test_egadp_has_the_exact_sample_moments() -> None:
    """Yhat + R_V S_V^-1/2 S_R^1/2: the mean, covariance and covariance with X of Y exactly, its
    noise uncorrelated with Y (Muralidhar and Sarathy 2005)."""
    df = _clean(8, n=60)
    Y, X = df[["y1", "y2"]].to_numpy(), df[["x1", "x2"]].to_numpy()
    g = egadp(Y, X, np.random.default_rng(1))
    np.testing.assert_allclose(g.mean(axis=0), Y.mean(axis=0), atol=1e-12)
    full = np.cov(np.column_stack([Y, X]), rowvar=False)
    np.testing.assert_allclose(np.cov(np.column_stack([g, X]), rowvar=False), full, atol=1e-11)
    e = g - mlm_prediction(Y, X)
    np.testing.assert_allclose(np.cov(np.column_stack([e, Y]), rowvar=False)[:2, 2:], 0.0, atol=1e-11)
    assert not np.allclose(g, Y)                                       # perturbed, not the originals
    r = sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], gadp=True, seed=2)
    assert list(r.details["gadp"].columns) == ["y1", "y2"] and "gadp" not in sdc.shuffle(
        df, ["y1", "y2"], predictors=["x1", "x2"], seed=2).details


def test_mvn_keeps_the_responses_rank_relation_not_the_predictors() -> None:
    df = _clean(1009, n=1500)      # not a seed of the runs: the same stream would align
    R = stats.spearmanr(df["y1"], df["y2"]).statistic
    runs = [sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], method="mvn", seed=s).data for s in range(12)]
    between = [stats.spearmanr(o["y1"], o["y2"]).statistic for o in runs]
    with_x = [stats.spearmanr(o["y1"], df["x1"]).statistic for o in runs]
    own = [stats.spearmanr(o["y1"], df["y1"]).statistic for o in runs]
    assert abs(np.mean(between) - R) < 0.02                    # 2 sin(pi R / 6): its rank correlation is R
    assert abs(np.mean(with_x)) < 0.02 and abs(np.mean(own)) < 0.02


def test_rank_correlations_with_the_predictors_are_kept_over_seeds() -> None:
    df = _case(3, n=2000)
    original = stats.spearmanr(df["y1"], df["x1"]).statistic
    got = [stats.spearmanr(sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], seed=s).data["y1"],
                           df["x1"]).statistic for s in range(20)]
    assert abs(np.mean(got) - original) < 0.02 and np.std(got) < 0.02
    mlm = sdc.shuffle(df, ["y1", "y2"], predictors=["x1", "x2"], method="mlm")
    assert stats.spearmanr(mlm.data["y1"], df["x1"]).statistic > original      # no noise: closer to X


@pytest.mark.parametrize("kwargs, said", [
    ({"variables": ["y1"], "predictors": ["y1"]}, "'y1' is both a variable and a predictor"),
    ({"variables": ["y1"], "predictors": ["nope"]}, "'nope'"),
    ({"variables": ["y1"], "predictors": ["x1"], "method": "ds2"}, "method"),
    ({"variables": ["s"], "predictors": ["x1"]}, "column 's'"),
    ({"variables": ["y1"], "predictors": ["x1"], "covmethod": "kendall"}, "covmethod"),
    ({"variables": ["y1"], "predictors": ["x1"], "regmethod": "MM"}, "'MM'"),
    ({"variables": ["y1"], "predictors": ["x1"], "regmethod": "rlm"}, "regmethod"),
    ({"variables": ["y1"], "predictors": ["x1"], "gadp": "yes"}, "gadp"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    df = _case(1).assign(s="a")
    with pytest.raises((ValueError, TypeError)) as err:
        sdc.shuffle(df, kwargs.pop("variables"), **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_a_plan_step_and_the_cli_run_it(tmp_path, monkeypatch) -> None:
    from sdc.cli import main

    df = sdc.load_example()
    step = {"method": "shuffle", "variables": ["bmi", "cholesterol"], "predictors": ["age", "systolic_bp"],
            "seed": 9}
    run = protect_data(df, [step], reassess=False)
    direct = sdc.shuffle(df, ["bmi", "cholesterol"], predictors=["age", "systolic_bp"], seed=9)
    pd.testing.assert_frame_equal(run.released, direct.data)
    monkeypatch.chdir(tmp_path)
    df.to_csv("data.csv", index=False)
    Path("plan.toml").write_text('[[steps]]\nmethod = "shuffle"\nvariables = ["bmi", "cholesterol"]\n'
                                 'predictors = ["age", "systolic_bp"]\nseed = 9\n')
    assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "out", "--no-assess"]) == 0
    released = pd.read_csv("out/released.csv")
    np.testing.assert_allclose(released["bmi"], direct.data["bmi"].to_numpy(), rtol=1e-12)


# --- sdcMicro -------------------------------------------------------------------------------

def rank_correlation_gaps(ours: list[pd.DataFrame], theirs: list[pd.DataFrame], df: pd.DataFrame,
                          resp: list[str], pred: list[str]) -> pd.DataFrame:
    """Over the seeds, per response v and w in (predictors, v): Spearman's rho(v', w) on each side,
    their means, sdcMicro's sd, and z = |difference of means| / its standard error (Welch);
    validation/crossval_shuffle.py reads the same table."""
    rows = []
    for v in resp:
        for w in [*pred, v]:
            a = [stats.spearmanr(o[v], df[w]).statistic for o in ours]
            b = [stats.spearmanr(t[v], df[w]).statistic for t in theirs]
            se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
            rows.append((v, w, np.mean(a), np.mean(b), np.std(b, ddof=1), len(b), abs(np.mean(a) - np.mean(b)) / se))
    return pd.DataFrame(rows, columns=["v", "w", "sdc_mean", "sdcmicro_mean", "sdcmicro_sd", "seeds", "z"])


def _random(rng: np.random.Generator) -> tuple[pd.DataFrame, list[str], list[str]]:
    n, q, k = int(rng.integers(30, 800)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
    X = rng.normal(size=(n, k)) @ rng.normal(size=(k, k))
    Y = X @ rng.normal(size=(k, q)) + rng.normal(size=(n, q)) * rng.uniform(0.3, 3, q)
    Y[:, 0] = np.exp(Y[:, 0] / 3).round(2)                     # a skewed response with ties
    df = pd.DataFrame(np.column_stack([Y, X]), columns=[f"y{j}" for j in range(q)] + [f"x{j}" for j in range(k)])
    return df, [f"y{j}" for j in range(q)], [f"x{j}" for j in range(k)]


@pytest.mark.sdcmicro
def test_sdcmicro_ds_with_its_draw_replayed_cell_for_cell() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    cases = [(td, ["expend", "income", "savings"], ["age", "urbrur", "water", "electcon", "sex"], "spearman"),
             (td, ["income", "savings"], ["age", "hhcivil"], "pearson")]
    rng = np.random.default_rng(20261202)
    cases += [(*_random(rng), str(rng.choice(["spearman", "pearson"]))) for _ in range(scale.cases(100))]
    agree, cells, worst = 0, 0, 0.0
    for i, (df, resp, pred, cm) in enumerate(cases):
        theirs = rb.shuffle(df, resp, pred, covmethod=cm, seed=i + 1)
        Y, X = df[resp].to_numpy(float), df[pred].to_numpy(float)
        mean, _ = ds_model(Y, X, cm)
        ystar = mean + theirs.e
        worst = max(worst, float(np.abs(ystar - theirs.perturbed.to_numpy()).max()))
        ours = np.column_stack([reverse_map(Y[:, j], ystar[:, j]) for j in range(len(resp))])
        assert np.array_equal(ours, theirs.shuffled.to_numpy()), i
        agree, cells = agree + 1, cells + ours.size
    assert agree == len(cases) == 2 + scale.cases(100) and worst < 1e-9
    print(f"shuffle ds, R's draw replayed: {agree} of {len(cases)} cases, {cells} cells equal; perturbed values "
          f"max difference {worst:.1e}")


@pytest.mark.sdcmicro
def test_sdcmicro_rank_correlations_over_seeds() -> None:
    """sdc's and sdcMicro's shuffles, each with its own draws: the Spearman correlations of each
    shuffled variable with each predictor and with its original have the same means over seeds."""
    import r_bridge as rb

    df, resp, pred = _random(np.random.default_rng(11))
    df = df.head(600)
    seeds = range(60)
    ours = [sdc.shuffle(df, resp, predictors=pred, seed=s).data for s in seeds]
    theirs = [rb.shuffle(df, resp, pred, seed=s + 1).shuffled for s in seeds]
    worst = float(rank_correlation_gaps(ours, theirs, df, resp, pred)["z"].max())
    print(f"shuffle ds, own draws: {len(resp) * (len(pred) + 1)} rank correlations over {len(seeds)} seeds, "
          f"largest difference of means {worst:.2f} standard errors")
    assert worst < 4.0


@pytest.mark.sdcmicro
def test_sdcmicro_mlm_stops_and_its_prediction_is_lm() -> None:
    import r_bridge as rb

    rng = np.random.default_rng(5)
    df, resp, pred = _random(rng)
    with pytest.raises(rb.RBridgeError, match="must be a data.frame"):
        rb.shuffle(df, resp, pred, method="mlm")
    worst = 0.0
    for _ in range(100):
        df, resp, pred = _random(rng)
        theirs = rb.lm_fitted(df, resp, pred).to_numpy()
        ours = mlm_prediction(df[resp].to_numpy(float), df[pred].to_numpy(float))
        worst = max(worst, float(np.abs(ours - theirs).max() / np.abs(theirs).max()))
    print(f"shuffle mlm: 100 of 100 predictions equal R's lm, max relative difference {worst:.1e}")
    assert worst < 1e-10


def _contaminated(rng: np.random.Generator) -> tuple[pd.DataFrame, list[str], list[str]]:
    n, k = int(rng.integers(40, 300)), int(rng.integers(1, 3))
    X = rng.normal(size=(n, k))
    Y = X @ rng.normal(size=(k, 2)) + rng.normal(size=(n, 2))
    bad = rng.random(n) < 0.1                                  # outliers: a clear h-subset
    Y[bad] += rng.normal(8, 1, size=(int(bad.sum()), 2))
    pred = [f"x{j}" for j in range(k)]
    return pd.DataFrame(np.column_stack([Y, X]), columns=["y0", "y1", *pred]), ["y0", "y1"], pred


@pytest.mark.sdcmicro
def test_sdcmicro_mcd_correlation_and_ds_replayed() -> None:
    """covmethod mcd: where sdc's and robustbase's searches find the same h-subset the MCD
    correlations agree to 1e-9; with R's correlation and R's draw the shuffle is cell for cell."""
    import r_bridge as rb

    rng = np.random.default_rng(20261204)
    n_cases, same, worst_cor, worst_y = scale.cases(12), 0, 0.0, 0.0
    for i in range(n_cases):
        df, resp, pred = _contaminated(rng)
        theirs = rb.shuffle(df, resp, pred, covmethod="mcd", seed=i + 1)
        M = df[[*resp, *pred]].to_numpy(float)
        if np.array_equal(robust_covariance(M, seed=i).best, theirs.best):
            same += 1
            worst_cor = max(worst_cor, float(np.abs(correlations(M, "mcd", i) - theirs.cor).max()))
        Y, X = M[:, :2], M[:, 2:]
        mean, _ = ds_model(Y, X, R=theirs.cor)
        ystar = mean + theirs.e
        worst_y = max(worst_y, float(np.abs(ystar - theirs.perturbed.to_numpy()).max()))
        ours = np.column_stack([reverse_map(Y[:, j], ystar[:, j]) for j in range(2)])
        assert np.array_equal(ours, theirs.shuffled.to_numpy()), i
    print(f"shuffle mcd: {same} of {n_cases} with the same h-subset, correlations max difference {worst_cor:.1e}; "
          f"with R's correlation and draw all {n_cases} cell for cell, perturbed max difference {worst_y:.1e}")
    assert same >= n_cases // 3 and worst_cor < 1e-9 and worst_y < 1e-9


@pytest.mark.sdcmicro
def test_sdcmicro_mvn_loses_the_predictors_as_sdc() -> None:
    """method mvn, each with its own draws: the shuffled variables' rank correlations with the
    predictors and with their originals are about 0 in both (sdcMicro's draw ignores the
    records); those between the responses are printed (sdcMicro's EGADP step changes them)."""
    import r_bridge as rb

    df, resp, pred = _contaminated(np.random.default_rng(31))
    seeds = range(30)
    ours = [sdc.shuffle(df, resp, predictors=pred, method="mvn", seed=s + 500).data for s in seeds]
    theirs = [rb.shuffle(df, resp, pred, method="mvn", seed=s + 1).shuffled for s in seeds]
    gaps = rank_correlation_gaps(ours, theirs, df, resp, pred)
    worst = float(gaps["z"].max())
    for _, g in gaps.iterrows():
        assert abs(g["sdcmicro_mean"]) < 4 * g["sdcmicro_sd"] / np.sqrt(g["seeds"]) + 0.01
    between = [np.mean([stats.spearmanr(o[resp[0]], o[resp[1]]).statistic for o in runs]) for runs in (ours, theirs)]
    original = stats.spearmanr(df[resp[0]], df[resp[1]]).statistic
    print(f"shuffle mvn, own draws: {len(resp) * (len(pred) + 1)} rank correlations over {len(seeds)} seeds, largest "
          f"difference of means {worst:.2f} standard errors; between the responses: original {original:.3f}, "
          f"sdc {between[0]:.3f}, sdcMicro {between[1]:.3f}")
    assert worst < 4.0 and abs(between[0] - original) < 0.05


@pytest.mark.sdcmicro
def test_sdcmicro_gadp_noise_is_misscaled() -> None:
    """sdcMicro's egapd: its fitted part is R's lm, its noise has almost no variance (the residuals
    of V multiplied by S_V^-1 S_R^-1, not S_V^-1/2 S_R^1/2); sdc's noise has the residuals'
    covariance exactly."""
    import r_bridge as rb

    df, resp, pred = _contaminated(np.random.default_rng(41))
    theirs = rb.shuffle(df, resp, pred, covmethod="pearson", gadp=True, seed=3)
    Y, X = df[resp].to_numpy(float), df[pred].to_numpy(float)
    fitted = mlm_prediction(Y, X)
    resid_cov = np.cov(Y - fitted, rowvar=False)
    their_noise = np.cov(theirs.egadp.to_numpy() - fitted, rowvar=False)
    ours = sdc.shuffle(df, resp, predictors=pred, covmethod="pearson", gadp=True, seed=3).details["gadp"]
    our_noise = np.cov(ours.to_numpy() - fitted, rowvar=False)
    ratio = float(np.abs(their_noise).max() / np.abs(resid_cov).max())
    print(f"shuffle gadp: sdcMicro's noise covariance / the residuals' {ratio:.1e}; sdc's equal to "
          f"{np.abs(our_noise - resid_cov).max():.1e}")
    assert ratio < 0.1 and np.abs(our_noise - resid_cov).max() < 1e-9 * np.abs(resid_cov).max()


def test_the_variants_run_in_a_plan_and_mm_is_refused_there(clean) -> None:
    step = {"method": "shuffle", "variables": ["y1", "y2"], "predictors": ["x1", "x2"], "seed": 3}
    for extra in ({"method": "mvn", "covmethod": "mcd"}, {"covmethod": "pearson", "gadp": True}):
        run = protect_data(clean, [{**step, "params": extra}], reassess=False)
        direct = sdc.shuffle(clean, ["y1", "y2"], predictors=["x1", "x2"], seed=3, **extra)
        pd.testing.assert_frame_equal(run.released, direct.data)
    with pytest.raises(ValueError, match="'MM'") as err:
        protect_data(clean, [{**step, "regmethod": "MM"}], reassess=False)
    assert "\n" not in str(err.value)
