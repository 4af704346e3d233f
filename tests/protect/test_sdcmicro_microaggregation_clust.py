"""Microaggregation's clustering methods against sdcMicro 5.8 and the cluster package, live
(marker ``sdcmicro``): cluster::pam's and clara's partitions record for record, and
sdcMicro's clustpca, clustpppca and influence cell for cell (pam and clara); clustmcdpca (whose MCD draws
from R's generator) and kmeans (random starts) by their invariants."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.protect.microaggregation_clust import cluster_records
from tests import scale

pytestmark = pytest.mark.sdcmicro


def _file(rng: np.random.Generator, n: int, p: int) -> pd.DataFrame:
    return pd.DataFrame(rng.lognormal(size=(n, p)).round(3), columns=[f"v{j}" for j in range(p)])


def test_pam_and_clara_partitions_record_for_record() -> None:
    import r_bridge as rb

    rng = np.random.default_rng(20261204)
    cases = 0
    for _ in range(scale.cases(30)):
        n, p = int(rng.integers(10, 57)), int(rng.integers(2, 5))
        nc = int(rng.integers(2, min(9, n // 3)))
        df = _file(rng, n, p)
        for cm in ("pam", "clara") if n <= 40 + 2 * nc else ("pam",):
            theirs, _ = rb.cluster_partition(df, nc, cm)
            ours, _ = cluster_records(df.to_numpy(), nc, cm, "none")
            np.testing.assert_array_equal(ours + 1, theirs, err_msg=f"{cm} n={n} p={p} nc={nc}")
            cases += 1
    for _ in range(scale.cases(15)):  # clara's sampled case: more than 40 + 2 nc records
        nc = int(rng.integers(2, 6))
        df = _file(rng, int(rng.integers(41 + 2 * nc, 200)), int(rng.integers(2, 5)))
        theirs, _ = rb.cluster_partition(df, nc, "clara")
        ours, _ = cluster_records(df.to_numpy(), nc, "clara", "none")
        np.testing.assert_array_equal(ours + 1, theirs, err_msg=f"clara n={len(df)} nc={nc}")
        cases += 1
    print(f"cluster::pam / clara partitions: {cases} of {cases} equal record for record")


def test_sdcmicro_cell_for_cell() -> None:
    import r_bridge as rb
    from r_bridge.errors import RBridgeError

    rng = np.random.default_rng(20261205)
    agree, failed, worst = 0, 0, 0.0
    for _ in range(scale.cases(10)):
        n, p = int(rng.integers(12, 90)), int(rng.integers(2, 5))
        nc = int(rng.integers(2, min(9, n // 4)))
        k = int(rng.integers(2, 5))
        df = _file(rng, n, p)
        vs = list(df.columns)
        for method in ("clustpca", "clustpppca", "influence"):
            for cm in ("pam", "clara"):
                try:  # sdcMicro's transf is computed but not used: "log" clusters the raw values
                    theirs = rb.microaggregation_clust(df, vs, aggr=k, method=method, nc=nc, clustermethod=cm,
                                                       transf="log").to_numpy()
                except RBridgeError:  # prcompRob: a record at a cluster's median gives NaN (sdc skips it)
                    failed += 1
                    continue
                ours = sdc.microaggregation(df, vs, k=k, method=method, nc=nc, clustermethod=cm).data[vs].to_numpy()
                rel = float((np.abs(ours - theirs) / np.maximum(1, np.abs(theirs))).max())
                assert rel < 1e-12, (method, cm, n, p, nc, k, rel)
                agree, worst = agree + 1, max(worst, rel)
    assert agree >= 2 * scale.cases(10)
    print(f"sdcMicro clustpca/clustpppca/influence: {agree} cases equal (max relative difference {worst:.1e}), "
          f"{failed} where sdcMicro fails")


def test_clustmcdpca_and_kmeans_by_invariants() -> None:
    import r_bridge as rb

    rng = np.random.default_rng(11)
    df = pd.DataFrame(np.vstack([rng.normal(0, 1, (30, 2)), rng.normal(8, 1, (30, 2))]).round(3), columns=["a", "b"])
    vs = list(df.columns)
    for method, cm in (("clustmcdpca", "pam"), ("clustpca", "kmeans"), ("influence", "kmeans")):
        # two clouds of 30: sdcMicro's cov.mcd needs enough records in each cluster
        theirs = rb.microaggregation_clust(df, vs, aggr=3, method=method, nc=2, clustermethod=cm)
        ours = sdc.microaggregation(df, vs, k=3, method=method, nc=2, clustermethod=cm).data[vs]
        for out in (theirs, ours):  # both: totals kept, 20 groups of 3 (equal rows within a group)
            np.testing.assert_allclose(out.sum().to_numpy(), df.sum().to_numpy(), rtol=1e-10, atol=1e-9)
            assert out.drop_duplicates().shape[0] <= 60 // 3
            assert ((out["a"] > 4) == (df["a"] > 4)).mean() > 0.9  # the clouds' records stay apart
