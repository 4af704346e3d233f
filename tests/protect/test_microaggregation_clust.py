"""Microaggregation's clustering methods (clustpca, clustmcdpca, clustpppca, influence): hand
examples, PAM against brute force (no single swap of a medoid improves it), group sizes, input untouched,
determinism, refusals and a plan step. Live sdcMicro and cluster:: comparisons:
``tests/protect/test_sdcmicro_microaggregation_clust.py``."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.protect.microaggregation_clust import CLUST_METHODS, CLUSTER_METHODS, cluster_records, pam_medoids
from sdc.workflow.protect import protect_data
from tests import scale

# Two clouds far apart: records 0-3 near (1, 10), records 4-9 near (20, 2).
H = pd.DataFrame({"a": [1.0, 1.2, 0.8, 1.1, 20.0, 21.0, 19.0, 20.5, 19.5, 20.2],
                  "b": [10.0, 11.0, 9.0, 10.5, 2.0, 2.5, 1.5, 2.2, 1.8, 2.1]})


def test_pam_and_clara_find_the_two_clouds() -> None:
    for cm in ("pam", "clara"):
        label, centres = cluster_records(H.to_numpy(), 2, cm, "none")
        assert label.tolist() == [0] * 4 + [1] * 6  # numbered by their first record, as cluster::pam
        for c, rows in enumerate((slice(0, 4), slice(4, 10))):  # each medoid: least total distance in its cloud
            Y = H.to_numpy()[rows]
            total = np.sqrt(((Y[:, None] - centres[c]) ** 2).sum(axis=2)).sum()
            assert any((Y == centres[c]).all(axis=1))
            assert total <= np.sqrt(((Y[:, None] - Y[None]) ** 2).sum(axis=2)).sum(axis=1).min() + 1e-12


def test_influence_by_hand() -> None:
    # cloud 1's medoid is largest on b: sorted by b -> records 2, 0, 3, 1; cloud 2's on a:
    # sorted by a -> 6, 8, 4, 9, 7, 5; blocks of 3 over 2 0 3 | 1 6 8 | 4 9 7 5
    r = sdc.microaggregation(H, ["a", "b"], k=3, method="influence", nc=2, clustermethod="pam")
    groups = [[2, 0, 3], [1, 6, 8], [4, 9, 7, 5]]
    for g in groups:
        np.testing.assert_allclose(r.data.loc[g].to_numpy(), np.tile(H.loc[g].mean().to_numpy(), (len(g), 1)))
    assert r.details["group_size_counts"] == {3: 2, 4: 1} and r.details["cluster_seed"] == 0
    assert r.parameters["nc"] == 2 and r.parameters["clustermethod"] == "pam" and r.parameters["transf"] == "none"


def test_clustpca_by_hand() -> None:
    # in each cloud the records sorted on the cloud's first principal component (a and b rise
    # together in cloud 1, so its order is its order by a: 2 0 3 1), blocks over the concatenation
    r = sdc.microaggregation(H, ["a", "b"], k=2, method="clustpca", nc=2, clustermethod="pam")
    g = r.details["group"]
    assert g[2] == g[0] and g[3] == g[1] and g[0] != g[3]
    assert r.details["group_size_counts"] == {2: 5}


def _cost(D: np.ndarray, med: np.ndarray) -> float:
    return float(D[med].min(axis=0).sum())


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_pam_no_single_swap_improves(seed, nc) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(nc + 1, 25))
    X = rng.normal(size=(n, 2)).round(1)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=2))
    med = pam_medoids(D, nc)
    assert med.size == nc and np.unique(med).size == nc
    best = _cost(D, med)
    for i, h in itertools.product(range(nc), np.setdiff1d(np.arange(n), med)):
        other = med.copy()
        other[i] = h
        assert _cost(D, other) >= best - 1e-9 * max(1.0, best)


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.sampled_from([m for m in CLUST_METHODS if m != "clustmcdpca"]),
       st.sampled_from(CLUSTER_METHODS), st.sampled_from(["none", "log", "boxcox"]))
def test_groups_sizes_means_untouched_and_deterministic(seed, k, method, cm, transf) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(max(2 * k, 12), 70))
    p = int(rng.integers(2, 4))
    df = pd.DataFrame(rng.lognormal(size=(n, p)).round(2) + 0.01, columns=[f"v{j}" for j in range(p)])
    df["tag"] = np.arange(n)
    before = df.copy()
    nc = int(rng.integers(1, 5))
    vs = [f"v{j}" for j in range(p)]
    r = sdc.microaggregation(df, vs, k=k, method=method, nc=nc, clustermethod=cm, transf=transf)
    pd.testing.assert_frame_equal(df, before)
    sizes = r.details["group_sizes"].to_numpy()
    assert sizes.sum() == n and sizes.size == n // k and sizes.min() >= k and sizes.max() <= 2 * k - 1
    np.testing.assert_allclose(r.data[vs].sum().to_numpy(), df[vs].sum().to_numpy(), rtol=1e-10)
    assert (r.data.groupby(r.details["group"])[vs].nunique() == 1).all().all()
    again = sdc.microaggregation(df, vs, k=k, method=method, nc=nc, clustermethod=cm, transf=transf)
    pd.testing.assert_frame_equal(r.data, again.data)


def test_clustmcdpca_groups_and_means() -> None:
    # its MCD (500 seeded starts per cluster) is the slow step: one file, every clustering
    rng = np.random.default_rng(7)
    df = pd.DataFrame(rng.lognormal(size=(40, 3)).round(2), columns=["a", "b", "c"])
    for cm in CLUSTER_METHODS:
        r = sdc.microaggregation(df, ["a", "b", "c"], k=3, method="clustmcdpca", nc=2, clustermethod=cm)
        assert r.details["group_size_counts"] == {3: 12, 4: 1}
        np.testing.assert_allclose(r.data.sum().to_numpy(), df.sum().to_numpy(), rtol=1e-10)


@pytest.mark.parametrize("kwargs, said", [
    ({"nc": 0}, "nc"),
    ({"nc": 10}, "`nc` = 10 must be less than the 10 records"),
    ({"nc": 2.5}, "nc"),
    ({"clustermethod": "bclust"}, "clustermethod"),
    ({"transf": "sqrt"}, "transf"),
    ({"transf": "log", "nc": 2, "data": H.assign(a=H["a"] - 5)}, "transf='log' needs positive values"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    data = kwargs.pop("data", H)
    with pytest.raises((ValueError, TypeError)) as err:
        sdc.microaggregation(data, ["a", "b"], k=3, method="clustpca", **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_strata_and_one_variable() -> None:
    df = H.assign(s=[0, 1] * 5)
    r = sdc.microaggregation(df, ["a", "b"], k=2, method="influence", nc=2, strata="s")
    assert r.details["n_groups"] == 4
    one = sdc.microaggregation(H, ["a"], k=3, method="clustpca", nc=2)  # one variable: individual ranking
    assert one.details["algorithm"].startswith("individual ranking")


def test_a_plan_step_runs_it() -> None:
    df = sdc.load_example()
    step = {"method": "microaggregation", "variables": ["bmi", "systolic_bp"], "k": 4,
            "params": {"method": "clustpppca", "nc": 3, "clustermethod": "pam"}}
    run = protect_data(df.head(300), [step], reassess=False)
    direct = sdc.microaggregation(df.head(300), ["bmi", "systolic_bp"], k=4, method="clustpppca", nc=3,
                                  clustermethod="pam")
    pd.testing.assert_frame_equal(run.released, direct.data)


@pytest.mark.parametrize("kwargs", [{"nc": 4}, {"clustermethod": "pam"}, {"transf": "log"}])
def test_clustering_options_with_a_method_that_does_not_cluster_are_refused(kwargs) -> None:
    # A plan step `clustermethod = "pam"` without `params = { method = "clustpca" }` ran MDAV silently.
    before = H.copy()
    with pytest.raises(ValueError) as err:
        sdc.microaggregation(H, ["a", "b"], k=3, method="mdav", **kwargs)
    name, value = next(iter(kwargs.items()))
    assert f"{name}={value!r}" in str(err.value) and "not of method 'mdav'" in str(err.value)
    assert "\n" not in str(err.value)
    pd.testing.assert_frame_equal(H, before)
    # the defaults, given explicitly, are no change
    sdc.microaggregation(H, ["a", "b"], k=3, method="mdav", nc=8, clustermethod="clara", transf="none")


def test_the_clustering_defaults_are_the_signature_s() -> None:
    import inspect

    from sdc.protect.microaggregation import _CLUST_DEFAULTS

    sig = inspect.signature(sdc.microaggregation).parameters
    assert _CLUST_DEFAULTS == {name: sig[name].default for name in _CLUST_DEFAULTS}


def test_pam_on_a_large_file_is_refused_in_one_line() -> None:
    # pam holds every pair's distance: 20,000 records were gigabytes and hours; clara is the way
    from sdc.protect.microaggregation_clust import PAM_MAX_RECORDS

    n = PAM_MAX_RECORDS + 1
    big = pd.DataFrame({"a": np.arange(n, dtype=float), "b": np.arange(n, dtype=float) % 7})
    with pytest.raises(ValueError) as err:
        sdc.microaggregation(big, ["a", "b"], k=3, method="clustpca", clustermethod="pam")
    assert f"at most {PAM_MAX_RECORDS:,} records" in str(err.value) and "clustermethod='clara'" in str(err.value)
    assert "\n" not in str(err.value)
