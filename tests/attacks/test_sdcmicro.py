"""dRisk, dRiskRMD and recordLinkage vs sdcMicro, live (marker ``sdcmicro``).

The comparisons are those of ``validation/crossval_attacks.py``: sdcMicro's datasets and
seeded random cases.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import r_bridge
import sdc
from validation.crossval_attacks import (
    compare_d_risk, compare_d_risk_rmd, compare_record_linkage, dataset_cases, own_mcd_row,
    random_continuous_linkage_case, random_distance_case, random_linkage_case, with_missing,
)

pytestmark = pytest.mark.sdcmicro


def _agree(diffs):
    bad = [d.explain() for d in diffs if not d.agree]
    assert diffs and not bad, "\n".join(bad)


@pytest.fixture(scope="module")
def cases():
    return dataset_cases()


def test_drisk_golden_free1():
    # The reference notes' golden value: free1[, 31:34] vs INCOME rounded to -2 and ASSETS x 1.05.
    f = r_bridge.load_dataset("free1")
    x = f[["INCOME", "MONEY", "ASSETS", "DEBTS"]].astype(float)
    xm = x.assign(INCOME=np.round(x["INCOME"], -2), ASSETS=x["ASSETS"] * 1.05)
    assert sdc.distance_risk(x, xm, list(x.columns)).risk == 0.19275
    assert r_bridge.attacks.d_risk(x, xm, list(x.columns)) == 0.19275


def test_distance_measures_on_sdcmicro_datasets(cases):
    for case in cases["distance"]:
        _agree(compare_d_risk(case) + compare_d_risk_rmd(case))


def test_record_linkage_on_sdcmicro_datasets(cases):
    for case in cases["linkage"]:
        _agree(compare_record_linkage(case))


@pytest.mark.parametrize("seed", range(9000, 9040))
def test_drisk_random(seed):
    case = random_distance_case(seed)
    _agree(compare_d_risk(case) + compare_d_risk(with_missing(case, seed)))


@pytest.mark.parametrize("seed", range(9000, 9015))
def test_drisk_rmd_random(seed):
    case = random_distance_case(seed)
    if case.x.shape[0] <= 3 * case.x.shape[1] + 2 or (case.x.std() == 0).any() or (case.xm.std() == 0).any():
        pytest.skip("too few records or a constant variable for the MCD")
    _agree(compare_d_risk_rmd(case))


def _rmd_ok(case):
    return case.x.shape[0] > 3 * case.x.shape[1] + 2 and (case.x.std() > 0).all() and (case.xm.std() > 0).all()


# dRiskRMD's k (the unsafe interval, default 0.01) and k2 (the isolation radius, default 0.05),
# varied; robustbase's covariance (same seed) given to sdc, so every figure must agree to 1e-9.
RMD_K = [(0.001, 0.01), (0.05, 0.2), (0.2, 0.5)]


@pytest.mark.parametrize(("k", "k2"), RMD_K)
def test_drisk_rmd_k_k2_on_sdcmicro_datasets(cases, k, k2):
    for case in cases["distance"]:
        _agree(compare_d_risk_rmd(case, k=k, k2=k2))


@pytest.mark.parametrize(("k", "k2"), RMD_K)
def test_drisk_rmd_k_k2_random(k, k2):
    compared = 0
    for seed in range(9000, 9030):
        case = random_distance_case(seed)
        if _rmd_ok(case):
            _agree(compare_d_risk_rmd(case, k=k, k2=k2))
            compared += 1
    assert compared >= 25


def _robustbase_095():
    import rpy2.robjects as ro

    return str(ro.r('as.character(packageVersion("robustbase"))')[0]).startswith("0.95")


def test_drisk_rmd_default_mcd_within_documented_tolerance(cases):
    # The default covariance is sdc's own FAST-MCD, robustbase's covMcd on sdcMicro's side: two
    # random searches, and robustbase's small-sample factors. docs/attacks.md (A2) states the
    # agreement on sdcMicro's datasets: covariance within 0.3-5% (max 0.0505, testdata2) and
    # unsafe counts to 2 records; asserted as documented. Measured against robustbase 0.95
    # (0.99 changed its subsampling: see test_a2_rmd_own_mcd_is_close_to_robustbase).
    if not _robustbase_095():
        pytest.skip("the documented tolerance was measured against robustbase 0.95")
    for case in cases["distance"]:
        row = own_mcd_row(case)
        assert row["cov_max_rel_diff"] <= 0.051, row
        assert abs(row["unsafe_sdc"] - row["unsafe_sdcmicro"]) <= 2, row
        assert abs(row["isolated_sdc"] - row["isolated_sdcmicro"]) <= 2, row


def test_drisk_rmd_default_mcd_random_within_documented_tolerance():
    # docs/attacks.md / crossval-attacks.md: on the random cases with 100 records or more the
    # covariance differs by at most 0.386 relative and the unsafe count by at most 4 records
    # (smaller and tied data differ more, documented and not asserted).
    if not _robustbase_095():
        pytest.skip("the documented tolerance was measured against robustbase 0.95")
    rows = [own_mcd_row(c) for c in map(random_distance_case, range(9000, 9100)) if _rmd_ok(c) and len(c.x) >= 100]
    assert len(rows) == 61
    for row in rows:
        assert row["cov_max_rel_diff"] <= 0.39, row
        assert abs(row["unsafe_sdc"] - row["unsafe_sdcmicro"]) <= 4, row


@pytest.mark.parametrize("seed", range(9500, 9560))
def test_record_linkage_random(seed):
    case = random_linkage_case(seed)
    try:
        diffs = compare_record_linkage(case)
    except ValueError as exc:  # sdc refuses a pair with no variable observed in both: so does sdcMicro
        with pytest.raises(r_bridge.RBridgeError, match="Non-finite entries"):
            r_bridge.attacks.record_linkage(case.x, case.xm, case.variables, distance=case.distance,
                                            weights=case.weights)
        assert "cannot be computed" in str(exc)
        return
    _agree(diffs)
    _agree(compare_record_linkage(random_continuous_linkage_case(seed + 200)))


def test_record_linkage_zero_range_and_all_false_logical():
    # A numeric variable constant over both files (range 0 counts as 1) and a logical pair of FALSE.
    x = pd.DataFrame({"c": [5.0, 5.0, 5.0], "a": [1.0, 2.0, 3.0], "f": [False, True, False]})
    y = pd.DataFrame({"c": [5.0, 5.0, 5.0], "a": [1.5, 2.0, 2.5], "f": [False, False, True]})
    r = r_bridge.attacks.record_linkage(x, y, ["c", "a", "f"])
    ours = sdc.record_linkage(x, y, ["c", "a", "f"], return_matrix=True)
    np.testing.assert_allclose(ours.distance_matrix, r["distance_matrix"], rtol=1e-12)


# ---------------------------------------------------------------- deliberate differences (docs/attacks.md, A1-A4)
def test_a1_drisk_files_of_different_sizes():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    # sdcMicro truncates xm, then fails on its own warning code ("object 'obj' not found").
    with pytest.raises(r_bridge.RBridgeError):
        r_bridge.attacks.d_risk(x, x.iloc[:3], ["a"])
    with pytest.raises(ValueError, match="same number of records"):
        sdc.distance_risk(x, x.iloc[:3], "a")


def test_a2_rmd_own_mcd_is_close_to_robustbase():
    tar = r_bridge.load_dataset("Tarragona")[["PAID.UP.CAPITAL", "SHORT.TERM.DEBT", "SALES"]].astype(float)
    xm = tar * (1 + np.random.default_rng(1).normal(scale=0.01, size=tar.shape))
    r = r_bridge.attacks.d_risk_rmd(tar, xm, list(tar.columns), seed=1)
    exact = sdc.distance_risk_rmd(tar, xm, list(tar.columns), covariance=r["cov"])
    own = sdc.distance_risk_rmd(tar, xm, list(tar.columns), seed=1)
    assert exact.risk1 == r["risk1"] and exact.risk2 == r["risk2"]  # exact on every R stack
    # FAST-MCD draws random subsets: our estimate is compared with the robustbase it was checked
    # against (0.95-x, Debian 12); robustbase 0.99 (Debian 13) changed its subsampling and its
    # estimate on this file moved by a factor 1.8, so there only the agreement above is asserted.
    import rpy2.robjects as ro

    robustbase = str(ro.r('as.character(packageVersion("robustbase"))')[0])
    if robustbase.startswith("0.95"):
        np.testing.assert_allclose(own.covariance, r["cov"], rtol=0.05)
        assert abs(own.n_unsafe - round(r["risk1"] * len(tar))) <= 3
    else:
        assert np.all(np.linalg.eigvalsh(own.covariance) > 0)


def test_a3_rmd_missing_values():
    x = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0, 5.0, 7.0, 3.0], "b": [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 9.0]})
    # sdcMicro: colMeans() is NA, so every distance is NA and no record is ever unsafe: risk 0, silently,
    # even though the released file is the original itself.
    r = r_bridge.attacks.d_risk_rmd(x, x, ["a", "b"])
    assert r["risk1"] == r["risk2"] == r["wrisk1"] == 0.0
    assert sdc.distance_risk_rmd(x.dropna(), x.dropna(), ["a", "b"], covariance="classical").risk1 == 1.0
    with pytest.raises(ValueError, match="dRiskRMD needs complete numbers"):
        sdc.distance_risk_rmd(x, x, ["a", "b"])


def test_a4_record_linkage_tied_assignments_have_the_same_total():
    # On one variable with |a - b| costs, 1 < 2 < 10 < 11 can be paired either way at the same total.
    x = pd.DataFrame({"v": [1.0, 2.0]})
    y = pd.DataFrame({"v": [10.0, 11.0]})
    r = r_bridge.attacks.record_linkage(x, y, ["v"], distance="manhattan")
    ours = sdc.record_linkage(x, y, ["v"], distance="manhattan")
    assert ours.total_distance == r["total_distance"] == 18.0
