"""Analysis validity (CI overlap, Karr et al. 2006) and the utility summary."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf

from sdc._stats import summary_values
import sdc
from sdc.utility.validity import ci_overlap

# ---------------------------------------------------------------------------------------------
# Interval overlap.
# ---------------------------------------------------------------------------------------------


def test_ci_overlap_hand_values():
    assert ci_overlap(0, 2, 0, 2) == 1.0
    assert ci_overlap(0, 2, 1, 3) == pytest.approx(0.5)        # 1/2 (1/2 + 1/2)
    assert ci_overlap(0, 2, 1, 2) == pytest.approx(0.75)       # 1/2 (1/2 + 1)
    assert ci_overlap(0, 1, 1, 2) == 0.0                       # touching
    assert ci_overlap(0, 1, 2, 3) == pytest.approx(-1.0)       # disjoint: negative, as Karr et al.
    assert math.isnan(float(ci_overlap(1, 1, 0, 2)))           # no width
    # symmetric
    assert ci_overlap(1, 3, 0, 2) == ci_overlap(0, 2, 1, 3)


def _data(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"age": rng.integers(18, 80, n).astype(float), "sex": rng.choice(["m", "f"], n)})
    df["income"] = 1000 + 30 * df["age"] + 200 * (df["sex"] == "m") + rng.normal(scale=300, size=n)
    df["high"] = (df["income"] > df["income"].median()).astype(int)
    return df


def test_identical_data_overlap_fully():
    df = _data()
    r = sdc.analysis_validity(df, df.copy(), "income ~ age + C(sex)")
    assert r.coefficients["ci_overlap"].tolist() == [1.0, 1.0, 1.0]
    assert r.mean_overlap == 1.0 and r.min_overlap == 1.0
    assert r.coefficients["std_difference"].abs().max() == 0.0
    assert summary_values(r.summary())["sign_changes"] == 0
    assert (r.n_before, r.n_after) == (300, 300)


def test_overlap_matches_statsmodels_intervals():
    df = _data()
    rel = df.copy()
    rel["age"] = rel["age"] + np.random.default_rng(1).normal(scale=8, size=len(df))
    r = sdc.analysis_validity(df, rel, "income ~ age + C(sex)", level=0.9)
    f0 = smf.ols("income ~ age + C(sex)", data=df).fit()
    f1 = smf.ols("income ~ age + C(sex)", data=rel).fit()
    c0, c1 = f0.conf_int(alpha=0.1), f1.conf_int(alpha=0.1)
    lo, hi = np.maximum(c0[0], c1[0]), np.minimum(c0[1], c1[1])
    want = 0.5 * ((hi - lo) / (c0[1] - c0[0]) + (hi - lo) / (c1[1] - c1[0]))
    assert r.coefficients["ci_overlap"].to_numpy() == pytest.approx(want.to_numpy(), rel=1e-12)
    assert r.coefficients.loc["age", "std_difference"] == pytest.approx(
        (f1.params["age"] - f0.params["age"]) / f0.bse["age"], rel=1e-12)
    assert r.coefficients.loc["age", "ci_overlap"] < 1.0
    assert r.level == 0.9


def test_logit_and_records_missing_in_one_file():
    df = _data()
    rel = df.copy()
    rel.loc[rel.index[:30], "age"] = np.nan  # suppressed: the fit drops those records
    r = sdc.analysis_validity(df, rel, "high ~ age + C(sex)", model="logit")
    assert r.model == "logit" and (r.n_before, r.n_after) == (300, 270)
    assert 0.0 < r.min_overlap <= 1.0
    # the released file may hold fewer records: each model is fitted on its own file
    r2 = sdc.analysis_validity(df, df.iloc[:200], "income ~ age")
    assert r2.n_after == 200


def test_a_category_that_disappears_has_nan_on_one_side():
    df = pd.DataFrame({"y": [1.0, 2.0, 3.0, 4.0, 5.0, 6.5, 7.0, 8.2], "g": list("aabbccab")})
    rel = df.assign(g=list("aabbbbab"))
    r = sdc.analysis_validity(df, rel, "y ~ C(g)")
    assert math.isnan(r.coefficients.loc["C(g)[T.c]", "estimate_after"])
    assert math.isnan(r.coefficients.loc["C(g)[T.c]", "ci_overlap"])
    assert not math.isnan(r.mean_overlap)


def test_validity_errors_are_one_line():
    df = _data(50)
    with pytest.raises(ValueError, match="`formula` must be a model formula"):
        sdc.analysis_validity(df, df, "income")
    with pytest.raises(ValueError, match="names 'nosuchcolumn', which is not a column of `original`"):
        sdc.analysis_validity(df, df, "income ~ nosuchcolumn")
    with pytest.raises(ValueError, match="names 'gone', which is not a column of `released`"):
        sdc.analysis_validity(df.assign(gone=1.0), df, "income ~ np.log(gone) + age")
    with pytest.raises(ValueError, match="cannot be used on `original`|cannot be fitted on `original`"):
        sdc.analysis_validity(df, df, "income ~ nofunction(age)")
    with pytest.raises(ValueError, match="`model` must be one of 'ols', 'logit'"):
        sdc.analysis_validity(df, df, "income ~ age", model="probit")
    with pytest.raises(ValueError, match="`level` must lie in"):
        sdc.analysis_validity(df, df, "income ~ age", level=1.0)
    with pytest.raises(ValueError) as exc:
        sdc.analysis_validity(df, df, "income ~ age", model="logit")
    assert "\n" not in str(exc.value)


# ---------------------------------------------------------------------------------------------
# The utility summary.
# ---------------------------------------------------------------------------------------------


def test_utility_summary_collects_the_headline_figures():
    df = _data(200)
    rel = df.copy()
    rel["income"] = rel["income"] + np.random.default_rng(2).normal(scale=100, size=len(df))
    rel["sex"] = np.where(np.arange(len(df)) < 10, None, rel["sex"])
    s = sdc.utility_summary(df, rel, ["age", "income", "sex"], keys=["age", "sex"])
    il = sdc.information_loss(df, rel, ["age", "income", "sex"])
    assert s.il1_overall == il.overall and s.il1.equals(il.il1)
    assert s.eigen_similarity_pct == sdc.eigen_similarity(df, rel, ["age", "income"]).percent
    ent = sdc.non_uniform_entropy(df, rel, ["age", "sex"])
    assert (s.nue, s.nue_normalised, s.nue_utility_retained) == (ent.entropy, ent.normalised, ent.utility_retained)
    assert s.records_retained == 200 and s.cells_suppressed == 10
    flat = summary_values(s.summary())
    assert list(flat) == ["il1_overall", "il1[age]", "il1[income]", "il1[sex]", "eigen_similarity_pct", "nue",
                          "nue_normalised", "nue_utility_retained", "records_retained", "pct_records_retained",
                          "cells_suppressed"]
    assert all(isinstance(v, (int, float)) for v in flat.values())
    assert s.to_frame()["statistic"].iloc[0] == "il1_overall"


def test_utility_summary_defaults_and_degenerate_cases():
    df = pd.DataFrame({"a": [1, 2, 3, 4], "k": list("xxyy")})
    rel = df.assign(k=list("xyyy"))
    s = sdc.utility_summary(df, rel)
    assert s.variables == ("k",) and s.keys == ("k",)
    assert math.isnan(s.eigen_similarity_pct) and s.eigen is None
    assert s.il1["k"] == 0.25
    same = sdc.utility_summary(df, df.copy())
    assert same.variables == () and same.il1_overall == 0.0 and same.nue == 0.0 and same.records_retained == 4


def test_flat_namespace_exports_every_utility_measure():
    for name in ("information_loss", "il1s", "eigen_similarity", "non_uniform_entropy", "discernibility", "suppression",
                 "association_change", "marginal_change", "analysis_validity", "utility_summary"):
        assert name in sdc.__all__ and callable(getattr(sdc, name))


# ---------------------------------------------------------------------------------------------
# Poisson and Cox models (their agreement with R: tests/utility/test_sdcmicro_validity.py).
# ---------------------------------------------------------------------------------------------


def _counts(n: int = 150, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x": rng.normal(size=n), "g": rng.choice(["a", "b"], n), "e": rng.uniform(0.5, 3.0, n)})
    df["y"] = rng.poisson(np.exp(0.2 + 0.4 * df["x"] - 0.3 * (df["g"] == "b")) * df["e"])
    df["t"] = np.ceil(rng.exponential(10 * np.exp(-0.5 * df["x"])))  # whole days: ties
    df["d"] = (rng.uniform(size=n) < 0.7).astype(int)
    return df


def _poisson_nll(beta: np.ndarray, x: np.ndarray, y: np.ndarray, off: np.ndarray) -> float:
    eta = x @ beta + off
    return float(np.sum(np.exp(eta) - y * eta))


def _breslow_nll(beta: np.ndarray, x: np.ndarray, t: np.ndarray, d: np.ndarray) -> float:
    """Minus Breslow's log partial likelihood, brute force over the distinct event times."""
    eta = x @ beta
    total = 0.0
    for tj in np.unique(t[d == 1]):
        dead = (t == tj) & (d == 1)
        total += eta[dead].sum() - dead.sum() * np.log(np.exp(eta[t >= tj]).sum())
    return -total


def test_poisson_and_cox_maximise_their_likelihoods():
    from scipy.optimize import minimize

    df = _counts()
    column = {"Intercept": np.ones(len(df)), "x": df["x"].to_numpy(), "C(g)[T.b]": (df["g"] == "b").to_numpy(float)}
    r = sdc.analysis_validity(df, df, "y ~ x + C(g)", model="poisson", exposure="e")
    x = np.column_stack([column[t] for t in r.coefficients.index])
    want = minimize(_poisson_nll, np.zeros(3), args=(x, df["y"].to_numpy(), np.log(df["e"].to_numpy())),
                    method="BFGS", options={"gtol": 1e-10}).x
    assert r.coefficients["estimate_before"].to_numpy() == pytest.approx(want, abs=1e-5)
    c = sdc.analysis_validity(df, df, "t ~ x + C(g)", model="cox", event="d")
    assert sorted(c.coefficients.index) == ["C(g)[T.b]", "x"]  # no intercept in a Cox model
    xc = np.column_stack([column[t] for t in c.coefficients.index])
    want = minimize(_breslow_nll, np.zeros(2), args=(xc, df["t"].to_numpy(), df["d"].to_numpy()),
                    method="BFGS", options={"gtol": 1e-10}).x
    assert c.coefficients["estimate_before"].to_numpy() == pytest.approx(want, abs=1e-5)
    assert c.mean_overlap == 1.0 and (c.n_before, c.model, c.event) == (150, "cox", "d")


def test_poisson_exposure_is_a_log_offset_and_cox_drops_missing_records():
    df = _counts().assign(loge=lambda d: np.log(d["e"]))
    rel = df.assign(x=df["x"] + np.random.default_rng(4).normal(scale=0.5, size=len(df)))
    a = sdc.analysis_validity(df, rel, "y ~ x", model="poisson", exposure="e")
    b = sdc.analysis_validity(df, rel, "y ~ x", model="poisson", offset="loge")
    assert a.coefficients["ci_overlap"].to_numpy() == pytest.approx(b.coefficients["ci_overlap"].to_numpy(), rel=1e-9)
    assert 0 < a.min_overlap < 1 and a.exposure == "e" and b.offset == "loge"
    rel.loc[rel.index[:20], "x"] = np.nan
    c = sdc.analysis_validity(df, rel, "t ~ x", model="cox", event="d")
    assert (c.n_before, c.n_after) == (150, 130) and "Intercept" not in c.coefficients.index
    assert summary_values(c.summary())["model"] == "cox" and summary_values(c.summary())["event"] == "d"
    assert summary_values(a.summary())["exposure"] == "e" and "event" not in summary_values(a.summary())


def test_poisson_and_cox_errors_are_one_line():
    df = _counts(40)
    cases = [
        (dict(model="cox"), "the Cox model needs `event`"),
        (dict(model="ols", event="d"), "`event` is used by the Cox model only"),
        (dict(model="cox", exposure="e", event="d"), "`exposure` is used by the Poisson model only"),
        (dict(model="poisson", exposure="nope"), "`exposure` column 'nope' is not in `original`"),
        (dict(model="poisson", exposure="x"), "`exposure` column 'x' of `original` must hold positive numbers"),
        (dict(model="cox", event="y"), "`event` column 'y' of `original` must hold 0 \\(censored\\) or 1"),
        (dict(model="poisson", offset="g"), "`offset` column 'g' of `original` must hold numbers; got '[ab]'"),
    ]
    for kw, msg in cases:
        formula = "t ~ x" if kw["model"] == "cox" else "y ~ x"
        with pytest.raises(ValueError, match=msg) as exc:
            sdc.analysis_validity(df, df, formula, **kw)
        assert "\n" not in str(exc.value)


def test_missing_exposure_or_event_drops_the_record():
    df = _counts()
    rel = df.copy()
    rel.loc[rel.index[:5], "e"] = np.nan
    rel.loc[rel.index[5:12], "d"] = np.nan
    for kw, col, formula in ((dict(model="poisson", exposure="e"), "e", "y ~ x"),
                             (dict(model="cox", event="d"), "d", "t ~ x")):
        a = sdc.analysis_validity(df, rel, formula, **kw)
        b = sdc.analysis_validity(df, rel.dropna(subset=[col]), formula, **kw)
        assert a.n_after == b.n_after == len(df) - rel[col].isna().sum()
        assert a.coefficients["estimate_after"].to_numpy() == pytest.approx(b.coefficients["estimate_after"].to_numpy(),
                                                                            rel=1e-12)


def test_a_cox_file_without_events_is_refused_in_one_line():
    # every record censored: statsmodels' PHReg raised an IndexError (a traceback)
    df = _counts(40)
    before = df.copy()
    with pytest.raises(ValueError, match="^`event` column 'd' of `released` has no event") as exc:
        sdc.analysis_validity(df, df.assign(d=0), "t ~ x", model="cox", event="d")
    assert "\n" not in str(exc.value)
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize("model, kw, change, msg", [
    ("poisson", {}, {"y": -1}, "the poisson model's response 'y' of `released` must hold counts"),
    ("poisson", {}, {"y": "many"}, "the poisson model's response 'y' of `released` must hold counts"),
    ("cox", {"event": "d"}, {"t": -2.0}, "the cox model's response 't' of `released` must hold durations"),
])
def test_a_response_that_is_no_count_or_duration_is_named(model, kw, change, msg):
    # statsmodels said "NaN, inf or invalid value detected in weights" or "operands could not be broadcast"
    df = _counts(40)
    rel = df.astype({"y": object}) if change.get("y") == "many" else df.copy()
    col, value = next(iter(change.items()))
    rel.loc[rel.index[3], col] = value
    formula = "t ~ x" if model == "cox" else "y ~ x"
    with pytest.raises(ValueError, match="^" + msg) as exc:
        sdc.analysis_validity(df, rel, formula, model=model, **kw)
    assert "\n" not in str(exc.value)
