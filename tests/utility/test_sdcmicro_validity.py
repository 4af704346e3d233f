"""analysis_validity's Poisson and Cox fits vs R's glm(family = poisson) and
survival::coxph(ties = "breslow"), live through r_bridge (marker ``sdcmicro``).

Coefficients and standard errors of both files agree with R's to 1e-6 (absolute), and the
interval overlap built from R's estimates (Wald intervals, normal quantile) with ours.
Data: seeded random files (ties, censoring, exposures, missing values); a small seeded file
shaped like ACTG 175 (Hammer et al. 1996: four arms, age, weight, CD4 count, Karnofsky score,
days to the endpoint with administrative censoring); and the real ACTG 175 file (2,139
patients) where R's speff2trial package ships it (sdc bundles no ACTG 175 file).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import r_bridge
import sdc
from sdc.utility.validity import ci_overlap

pytestmark = [pytest.mark.sdcmicro]

TOL = 1e-6


@pytest.fixture(scope="session")
def survival() -> None:
    if not r_bridge.survival_available():
        reason = "R's survival package is not installed (it ships with R: r-cran-survival)"
        if os.environ.get("SDC_REQUIRE_SDCMICRO", "") not in ("", "0"):
            pytest.fail(f"{reason} (required here: SDC_REQUIRE_SDCMICRO=1)", pytrace=False)
        pytest.skip(reason)


def _random(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.integers(0, 2, n).astype(float),
                       "x3": rng.uniform(-1, 1, n), "e": rng.uniform(0.2, 5.0, n)})
    eta = 0.1 + 0.5 * df["x1"] - 0.4 * df["x2"] + 0.3 * df["x3"]
    df["y"] = rng.poisson(np.exp(eta) * df["e"]).astype(float)
    df["t"] = np.ceil(rng.exponential(20 * np.exp(-eta)))  # whole units: many ties
    df["d"] = (rng.uniform(size=n) < 0.75).astype(float)
    return df


def actg175_like(n: int = 400, seed: int = 175) -> pd.DataFrame:
    """A seeded file with ACTG 175's layout (arms 0-3, covariates, days to event / censoring)."""
    rng = np.random.default_rng(seed)
    arm = rng.integers(0, 4, n)
    df = pd.DataFrame({"age": rng.normal(35, 9, n).round(), "wtkg": rng.normal(75, 13, n).round(1),
                       "cd40": rng.normal(350, 120, n).clip(50).round(), "karnof": rng.choice([70, 80, 90, 100], n),
                       "arm1": (arm == 1).astype(float), "arm2": (arm == 2).astype(float),
                       "arm3": (arm == 3).astype(float)})
    eta = (0.02 * (df["age"] - 35) - 0.004 * (df["cd40"] - 350) - 0.02 * (df["karnof"] - 90)
           - 0.5 * df["arm1"] - 0.45 * df["arm2"] - 0.2 * df["arm3"])
    event_day = np.ceil(rng.exponential(2500 * np.exp(-eta)))
    censor_day = rng.integers(600, 1232, n)  # end of follow-up
    df["days"] = np.minimum(event_day, censor_day).astype(float)
    df["cens"] = (event_day <= censor_day).astype(float)
    return df


def _release(df: pd.DataFrame, cols: list[str], seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rel = df.copy()
    for c in cols:
        rel[c] = rel[c] + rng.normal(scale=0.3 * rel[c].std(), size=len(rel))
    rel.loc[rel.index[:7], cols[0]] = np.nan  # suppressed cells: both sides drop those records
    return rel


def _check(res: sdc.ValidityResult, fits: list[r_bridge.RFit]) -> None:
    co = res.coefficients
    assert len(co) == len(fits[0].terms)
    for side, fit in zip(("before", "after"), fits):
        assert co[f"estimate_{side}"].to_numpy() == pytest.approx(fit.estimate, abs=TOL, rel=TOL)
        assert co[f"se_{side}"].to_numpy() == pytest.approx(fit.se, abs=TOL, rel=TOL)
    assert (res.n_before, res.n_after) == (fits[0].nobs, fits[1].nobs)
    z = norm.ppf(1 - (1 - res.level) / 2)
    (b, a) = fits
    want = ci_overlap(b.estimate - z * b.se, b.estimate + z * b.se, a.estimate - z * a.se, a.estimate + z * a.se)
    assert co["ci_overlap"].to_numpy() == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("seed", range(6))
def test_poisson_equals_r_glm_on_random_data(seed: int) -> None:
    df = _random(seed, 120 + 40 * seed)
    rel = _release(df, ["x1", "x3"], seed + 100)
    kw = {"exposure": "e"} if seed % 2 else {}
    res = sdc.analysis_validity(df, rel, "y ~ x1 + x2 + x3", model="poisson", **kw)
    _check(res, [r_bridge.glm_poisson(f, "y", ["x1", "x2", "x3"], **kw) for f in (df, rel)])


@pytest.mark.parametrize("seed", range(6))
def test_cox_equals_r_coxph_breslow_on_random_data(seed: int, survival: None) -> None:
    df = _random(seed, 120 + 40 * seed)
    rel = _release(df, ["x1", "x3"], seed + 200)
    res = sdc.analysis_validity(df, rel, "t ~ x1 + x2 + x3", model="cox", event="d", level=0.9)
    _check(res, [r_bridge.coxph_breslow(f, "t", "d", ["x1", "x2", "x3"]) for f in (df, rel)])


def test_cox_and_poisson_equal_r_on_an_actg175_like_file(survival: None) -> None:
    df = actg175_like()
    rel = _release(df, ["age", "wtkg", "cd40"], 7)
    preds = ["age", "wtkg", "cd40", "karnof", "arm1", "arm2", "arm3"]
    res = sdc.analysis_validity(df, rel, "days ~ " + " + ".join(preds), model="cox", event="cens")
    _check(res, [r_bridge.coxph_breslow(f, "days", "cens", preds) for f in (df, rel)])
    assert res.coefficients.loc["arm1", "estimate_before"] < 0  # the treatment effect is recovered
    # the same endpoint as a Poisson rate: events per day of follow-up
    res = sdc.analysis_validity(df, rel, "cens ~ " + " + ".join(preds), model="poisson", exposure="days")
    _check(res, [r_bridge.glm_poisson(f, "cens", preds, exposure="days") for f in (df, rel)])


@pytest.fixture(scope="session")
def actg175() -> pd.DataFrame:
    """The real ACTG 175 file, where R's speff2trial package is installed (2,139 patients)."""
    try:
        d = r_bridge.actg175()
    except r_bridge.RBridgeError as exc:
        pytest.skip(f"ACTG 175 comes from R's speff2trial package: {exc}")
    arms = d["arms"].to_numpy()
    return pd.DataFrame({"days": d["days"].astype(float), "cens": d["cens"].astype(float),
                         "age": d["age"].astype(float), "wtkg": d["wtkg"].astype(float),
                         "karnof": d["karnof"].astype(float), "cd40": d["cd40"].astype(float),
                         **{f"arm{k}": (arms == k).astype(float) for k in (1, 2, 3)}})


def test_cox_and_poisson_equal_r_on_actg175(actg175: pd.DataFrame, survival: None) -> None:
    rel = _release(actg175, ["age", "wtkg", "cd40"], 11)
    preds = ["age", "wtkg", "karnof", "cd40", "arm1", "arm2", "arm3"]
    res = sdc.analysis_validity(actg175, rel, "days ~ " + " + ".join(preds), model="cox", event="cens")
    _check(res, [r_bridge.coxph_breslow(f, "days", "cens", preds) for f in (actg175, rel)])
    assert res.n_before == 2139 and (res.coefficients.loc[["arm1", "arm2", "arm3"], "estimate_before"] < 0).all()
    res = sdc.analysis_validity(actg175, rel, "cens ~ " + " + ".join(preds), model="poisson", exposure="days")
    _check(res, [r_bridge.glm_poisson(f, "cens", preds, exposure="days") for f in (actg175, rel)])
