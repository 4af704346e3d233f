"""dRisk, dRiskRMD and recordLinkage natively: hand-computed values, boundaries, brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from sdc.attacks._mcd import mcd
from sdc.attacks.distance import distance_risk, distance_risk_rmd, record_linkage


# ---------------------------------------------------------------- dRisk
def test_drisk_hand_computed():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [10.0, 20.0, 30.0, 40.0]})
    xm = x.copy()
    xm["a"] = [1.0, 2.2, 3.0, 4.0]
    # sd(xm$a) = sd(1, 2.2, 3, 4); k = 0.05: half-width 0.05 * sd ~ 0.064, so record 2 (2 vs 2.2) is out.
    r = distance_risk(x, xm, ["a", "b"])
    assert r.records["at_risk"].tolist() == [True, False, True, True]
    assert r.risk == 0.75 and r.n_at_risk == 3
    assert r.sd["a"] == pytest.approx(np.std([1, 2.2, 3, 4], ddof=1))
    assert distance_risk(x, x, ["a", "b"]).risk == 1.0


def test_drisk_bounds_are_inclusive():
    xm = pd.DataFrame({"a": [0.0, 2.0, 4.0]})  # sd = 2
    k = 0.25  # half-width 0.5, exactly representable
    on_bound = pd.DataFrame({"a": [0.5, 1.5, 4.0]})
    assert distance_risk(on_bound, xm, "a", k=k).records["at_risk"].tolist() == [True, True, True]
    beyond = pd.DataFrame({"a": [np.nextafter(0.5, 1), np.nextafter(1.5, 0), 4.0]})
    assert distance_risk(beyond, xm, "a", k=k).records["at_risk"].tolist() == [False, False, True]


def test_drisk_missing_values_do_not_count_against():
    x = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [5.0, 6.0, 100.0]})
    xm = pd.DataFrame({"a": [1.0, 2.0, np.nan], "b": [5.0, 6.0, 7.0]})
    r = distance_risk(x, xm, ["a", "b"])
    # record 1: a missing in x -> only b compared (equal); record 2: a missing in xm, b far off.
    assert r.records["at_risk"].tolist() == [True, True, False]


def test_drisk_errors():
    x = pd.DataFrame({"a": [1.0, 2.0]})
    with pytest.raises(ValueError, match="same number of records"):
        distance_risk(x, x.iloc[:1], "a")
    with pytest.raises(ValueError, match="must be numeric in `released`"):
        distance_risk(x, pd.DataFrame({"a": ["1", "2"]}), "a")
    with pytest.raises(ValueError, match="`k` must lie in"):
        distance_risk(x, x, "a", k=-1)


# ---------------------------------------------------------------- dRiskRMD
def _rmd_brute(x, xm, k, k2, cov):
    def scale(a):
        return (a - a.mean(0)) / a.std(0, ddof=1)

    xs, xms = scale(x), scale(xm)
    c = xs.mean(0)
    inv = np.linalg.inv(cov)
    n = len(xs)
    rmd = np.array([np.sqrt((xs[i] - c) @ inv @ (xs[i] - c)) * 0.05 for i in range(n)])
    unsafe = []
    for i in range(n):
        if any(xs[i, j] - k * rmd[i] < xms[i, j] < xs[i, j] + k * rmd[i] for j in range(xs.shape[1])):
            unsafe.append(i)
    iso = [i for i in unsafe if min(np.linalg.norm(xms[i] - xms[j]) for j in range(n) if j != i) > k2]
    return rmd, unsafe, iso


@pytest.mark.parametrize("seed", range(8))
def test_rmd_formula_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 60))
    x = pd.DataFrame(rng.normal(size=(n, 3)) * [1, 5, 20], columns=["a", "b", "c"])
    xm = x + rng.normal(scale=float(rng.choice([0.001, 0.01, 0.1])), size=x.shape)
    cov = np.cov(((x - x.mean()) / x.std()).to_numpy(), rowvar=False)
    k, k2 = float(rng.choice([0.01, 0.1, 1.0])), float(rng.choice([0.05, 0.5]))
    r = distance_risk_rmd(x, xm, ["a", "b", "c"], k=k, k2=k2, covariance="classical")
    rmd, unsafe, iso = _rmd_brute(x.to_numpy(), xm.to_numpy(), k, k2, cov)
    np.testing.assert_allclose(r.records["rmd"], rmd, rtol=1e-10)
    assert np.flatnonzero(r.records["unsafe"]).tolist() == unsafe
    assert np.flatnonzero(r.records["isolated"]).tolist() == iso
    assert r.risk1 == len(unsafe) / n and r.risk2 == len(iso) / n
    assert r.wrisk1 == pytest.approx(len(unsafe) * rmd[unsafe].sum() / n)
    assert r.wrisk2 == pytest.approx(len(iso) * rmd[iso].sum() / n)
    given = distance_risk_rmd(x, xm, ["a", "b", "c"], k=k, k2=k2, covariance=cov)
    assert given.risk1 == r.risk1 and given.covariance_method == "given"


def test_rmd_duplicates_are_not_isolated():
    x = pd.DataFrame({"a": [1.0, 1.0, 5.0, 9.0, 2.0], "b": [2.0, 2.0, 7.0, 1.0, 3.0]})
    r = distance_risk_rmd(x, x, ["a", "b"], k=1.0, covariance="classical")
    assert r.records["unsafe"].all()
    assert r.records["isolated"].tolist() == [False, False, True, True, True]


def test_rmd_errors():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 1.0, 1.0]})
    with pytest.raises(ValueError, match="'b' is constant in `original`"):
        distance_risk_rmd(x, x, ["a", "b"])
    with pytest.raises(ValueError, match="missing or infinite value in `original`"):
        distance_risk_rmd(x.assign(b=[1.0, np.nan, 2.0]), x, ["a", "b"])
    with pytest.raises(ValueError, match="finite 1 x 1 matrix"):
        distance_risk_rmd(x, x, ["a"], covariance=np.eye(2))


def test_mcd_resists_outliers_and_is_seeded():
    rng = np.random.default_rng(1)
    clean = rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], size=400)
    dirty = np.vstack([clean, rng.normal(20, 1, size=(60, 2))])
    mu, cov = mcd(dirty, seed=3)
    assert np.abs(mu).max() < 0.2  # the 60 points at (20, 20) are ignored
    # robustbase 0.95.0 on the same data: covMcd(x, use.correction = FALSE)$cov (set.seed(1)).
    np.testing.assert_allclose(cov, [[1.2703070, 0.6613358], [0.6613358, 1.3746584]], rtol=1e-6)
    mu2, cov2 = mcd(dirty, seed=3)
    np.testing.assert_array_equal(cov, cov2)
    # Without outliers the reweighted MCD is close to the classical covariance.
    _, c = mcd(clean, seed=0)
    np.testing.assert_allclose(c, np.cov(clean, rowvar=False), rtol=0.15, atol=0.05)


# ---------------------------------------------------------------- recordLinkage
def test_record_linkage_gower_hand_computed():
    # sdcMicro's example: ages 23, 40, 35 vs 24, 39, 35; sex identical; region differs for record 3.
    x = pd.DataFrame({"id": [1, 2, 3], "age": [23.0, 40.0, 35.0], "sex": pd.Categorical(["f", "m", "f"]),
                      "region": ["A", "B", "A"]})
    y = pd.DataFrame({"id": [1, 2, 3], "age": [24.0, 39.0, 35.0], "sex": pd.Categorical(["f", "m", "f"]),
                      "region": ["A", "B", "B"]})
    r = record_linkage(x, y, ["age", "sex", "region"], original_id="id", released_id="id", return_matrix=True)
    rng = 40.0 - 23.0  # range over both files
    assert r.distance_matrix[0, 0] == pytest.approx((1 / rng) / 3)
    assert r.distance_matrix[2, 2] == pytest.approx(1 / 3)
    assert r.distance_matrix[0, 1] == pytest.approx((16 / rng + 1 + 1) / 3)
    assert r.correct_matches == 3 and r.correct_match_rate == 1.0
    assert r.matches["y_row"].tolist() == [0, 1, 2]
    assert r.total_distance == pytest.approx((1 / rng + 1 / rng) / 3 + 1 / 3)


def test_record_linkage_logical_and_ordered():
    x = pd.DataFrame({"f": [True, False, False], "o": pd.Categorical(["lo", "mid", "hi"], ["lo", "mid", "hi"], ordered=True)})
    y = pd.DataFrame({"f": [True, False, True], "o": pd.Categorical(["lo", "hi", "hi"], ["lo", "mid", "hi"], ordered=True)})
    r = record_linkage(x, y, ["f", "o"], return_matrix=True)
    d = r.distance_matrix
    # Pair (1, 1): f FALSE/FALSE is skipped, o mid vs hi = 1/2 -> 0.5. Pair (0, 0): both TRUE -> 0; lo/lo -> 0.
    assert d[1, 1] == pytest.approx(0.5) and d[0, 0] == 0.0
    # Pair (1, 2): FALSE vs TRUE = 1, mid vs hi = 0.5 -> 0.75.
    assert d[1, 2] == pytest.approx(0.75)


def test_record_linkage_minkowski_with_missing():
    x = pd.DataFrame({"a": [0.0, 3.0], "b": [0.0, np.nan]})
    y = pd.DataFrame({"a": [3.0, 0.0], "b": [4.0, 1.0]})
    e = record_linkage(x, y, ["a", "b"], distance="euclidean", return_matrix=True).distance_matrix
    assert e[0, 0] == pytest.approx(5.0) and e[1, 0] == pytest.approx(np.sqrt(2 / 1 * 0.0))
    assert e[1, 1] == pytest.approx(np.sqrt(2 * 9.0))
    m = record_linkage(x, y, ["a", "b"], distance="manhattan", return_matrix=True).distance_matrix
    assert m[0, 0] == pytest.approx(7.0) and m[1, 1] == pytest.approx(6.0)


@pytest.mark.parametrize("seed", range(10))
def test_record_linkage_assignment_is_optimal(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    x = pd.DataFrame({"a": rng.integers(0, 5, n) * 1.0, "c": rng.choice(list("pq"), n)})
    y = x.sample(frac=1, random_state=seed).reset_index(drop=True)
    y["a"] += rng.integers(-1, 2, n)
    r = record_linkage(x, y, ["a", "c"], return_matrix=True)
    d = r.distance_matrix
    best = min(sum(d[i, p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
    assert r.total_distance == pytest.approx(best)
    assert sorted(r.matches["y_row"]) == list(range(n))
    assert (r.matches["n_best"] >= 1).all()


def test_record_linkage_errors():
    x = pd.DataFrame({"a": [1.0, 2.0], "s": ["u", "v"]})
    with pytest.raises(ValueError, match="same number of records"):
        record_linkage(x, x.iloc[:1], "a")
    with pytest.raises(ValueError, match="needs numeric or logical variables; not: s"):
        record_linkage(x, x, ["a", "s"], distance="euclidean")
    with pytest.raises(ValueError, match="one value per variable"):
        record_linkage(x, x, ["a"], weights=[1, 2])
    with pytest.raises(ValueError, match="at least one positive"):
        record_linkage(x, x, ["a"], weights=[0])
    with pytest.raises(ValueError, match="cannot be computed"):
        record_linkage(pd.DataFrame({"a": [np.nan, 1.0]}), pd.DataFrame({"a": [1.0, 2.0]}), "a")
    with pytest.raises(ValueError, match="`original_id` names columns not in the data"):
        record_linkage(x, x, "a", original_id="nope")


# ---------------------------------------------------------------- sdcMicro's own test values (test_recordLinkage.R)
def test_record_linkage_sdcmicro_golden():
    # Herranz et al. (2015), examples 1 and 2: global linkage gets all right, then all wrong.
    x = pd.DataFrame({"v1": [1.0, 0, -1, 0], "v2": [0.0, 1, 0, -1], "id": [1, 2, 3, 4]})
    y = pd.DataFrame({"v1": [0.0, 0, -2.1, 0], "v2": [0.0, 2.1, 0, -2.1], "id": [1, 2, 3, 4]})
    assert record_linkage(x, y, ["v1", "v2"], original_id="id", released_id="id").correct_match_rate == 1.0
    x = pd.DataFrame({"v1": [1.0, 2, 3, 4], "id": [1, 2, 3, 4]})
    y = pd.DataFrame({"v1": [2.0, 3, 4, -0.1], "id": [1, 2, 3, 4]})
    assert record_linkage(x, y, ["v1"], original_id="id", released_id="id").correct_match_rate == 0.0
    # Mixed-type Gower matrix, unweighted and weighted (age 2, sex 1, region 1).
    x = pd.DataFrame({"age": [20.0, 40.0], "sex": pd.Categorical(["f", "m"]), "region": ["A", "B"]})
    y = pd.DataFrame({"age": [20.0, 30.0], "sex": pd.Categorical(["f", "m"]), "region": ["B", "B"]})
    r = record_linkage(x, y, ["age", "sex", "region"], return_matrix=True, tol=0)
    np.testing.assert_allclose(r.distance_matrix, [[1 / 3, 5 / 6], [2 / 3, 1 / 6]], rtol=1e-12)
    assert r.matches["y_row"].tolist() == [0, 1] and r.correct_match_rate == 1.0
    w = record_linkage(x, y, ["age", "sex", "region"], weights=[2, 1, 1], return_matrix=True)
    np.testing.assert_allclose(w.distance_matrix, [[1 / 4, 3 / 4], [3 / 4, 1 / 4]], rtol=1e-12)
