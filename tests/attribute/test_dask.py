"""l-diversity and t-closeness on a Dask DataFrame (issue 14) give the in-memory numbers.

A LocalCluster with worker processes (2 workers, 1 thread each) and data in 5 partitions,
with missing key values, missing sensitive values, sdcMicro's missing code and weights.
Counts must be equal; the floats agree to 1e-12 (relative; in practice they are identical,
since the per-class sums run over the same cells in the same order). Without dask the module
skips with the reason, unless SDC_REQUIRE_DASK=1 (then it fails).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.core._dask import is_dask

from tests.dask_support import require_dask

require_dask()

import dask.dataframe as dd

KEYS = ["age", "sex", "region"]
RTOL = 1e-12


def _data(n: int = 3000, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "age": rng.integers(0, 7, n).astype(float),
        "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(["n", "s", "e", "w"], n).astype(object),
        "w": rng.uniform(1, 60, n),
        "dx": rng.choice(["a", "b", "c", "d", "e"], n, p=[.45, .3, .15, .07, .03]).astype(object),
        "income": rng.integers(0, 15, n).astype(float) * 1000,
    }, index=pd.RangeIndex(500, 500 + n))
    df.loc[rng.random(n) < .06, "age"] = np.nan
    df.loc[rng.random(n) < .05, "region"] = None
    df.loc[rng.random(n) < .07, "dx"] = None
    df.loc[rng.random(n) < .05, "income"] = np.nan
    df.loc[rng.random(n) < .03, "income"] = -999.0
    # a class whose sensitive values are all missing, and one whose values are all the missing code
    df.loc[df.index[:3], ["age", "sex", "region", "dx", "income"]] = [99.0, "f", "z", None, -999.0]
    return df


@pytest.fixture(scope="module")
def frames(client):
    df = _data()
    return df, dd.from_pandas(df, npartitions=5)


def _close_frame(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=RTOL, atol=0)


@pytest.mark.parametrize("mode", ["correct", "sdcmicro"])
@pytest.mark.parametrize("sensitive", [["dx"], ["income"], ["dx", "income"]])
def test_l_diversity_equal_in_memory(frames, mode, sensitive) -> None:
    df, ddf = frames
    assert ddf.npartitions >= 4
    kw = dict(l={s: 2 + i for i, s in enumerate(sensitive)}, c=1.5, mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = sdc.l_diversity(df, KEYS, sensitive, **kw)
        d = sdc.l_diversity(ddf, KEYS, sensitive, **kw)
    assert isinstance(d, sdc.LDiversityResult) and is_dask(d.records)
    rec = d.records.compute()
    assert rec.index.equals(df.index) and list(rec.columns) == list(m.records.columns)
    _close_frame(rec, m.records)  # distinct, entropy and recursive (c, l) per record, multi-attribute
    assert (d.n_records, d.n_classes, d.l, d.l_by_sensitive) == (m.n_records, m.n_classes, m.l, m.l_by_sensitive)
    counts = [c for c in m.by_sensitive.columns if c.startswith("n_")]
    assert d.by_sensitive[counts].equals(m.by_sensitive[counts])
    _close_frame(d.by_sensitive, m.by_sensitive)
    _close_frame(d.classes, m.classes)  # per class, with the dominant values
    for s in sensitive:
        for measure in ("distinct", "entropy", "recursive"):
            assert d.classes_below(s, measure)["class"].tolist() == m.classes_below(s, measure)["class"].tolist()


def test_l_diversity_recursive_c(frames) -> None:
    # a non-integer c takes the loop path of the recursive (c, l)-diversity
    df, ddf = frames
    for c in (0.7, 3.0):
        m = sdc.l_diversity(df, ["age", "sex"], "dx", l=3, c=c)
        d = sdc.l_diversity(ddf, ["age", "sex"], "dx", l=3, c=c)
        _close_frame(d.records.compute(), m.records)
        _close_frame(d.by_sensitive, m.by_sensitive)


@pytest.mark.parametrize("distance", ["ordered", "equal", "tvd", "wasserstein"])
def test_t_closeness_equal_in_memory(frames, distance) -> None:
    df, ddf = frames
    m = sdc.t_closeness(df, KEYS, "income", distance=distance, t=0.15)
    d = sdc.t_closeness(ddf, KEYS, "income", distance=distance, t=0.15)
    assert isinstance(d, sdc.TClosenessResult) and is_dask(d.records)
    r = d.records.compute()
    assert r.index.equals(df.index) and r.name == m.records.name
    pd.testing.assert_series_equal(r, m.records, check_exact=False, rtol=RTOL, atol=0)
    assert (d.n_records, d.n_classes, d.n_classes_above_t, d.n_records_above_t) == \
        (m.n_records, m.n_classes, m.n_classes_above_t, m.n_records_above_t)
    assert d.max_t == pytest.approx(m.max_t, rel=RTOL)
    _close_frame(d.classes, m.classes)
    assert d.classes_above()["class"].tolist() == m.classes_above()["class"].tolist()


@pytest.mark.parametrize("distance", ["equal", "tvd"])
def test_t_closeness_unordered_sensitive(frames, distance) -> None:
    df, ddf = frames
    m = sdc.t_closeness(df, KEYS, "dx", distance=distance)
    d = sdc.t_closeness(ddf, KEYS, "dx", distance=distance)
    pd.testing.assert_series_equal(d.records.compute(), m.records, check_exact=False, rtol=RTOL, atol=0)
    assert d.n_records_above_t == m.n_records_above_t
    with pytest.raises(ValueError, match="unordered"):
        sdc.t_closeness(ddf, KEYS, "dx", distance="ordered")


def test_categorical_sensitive_and_keys(client) -> None:
    # categoricals: unobserved categories count in the ordered distance, as in memory
    df = _data(1200, seed=9)
    df["grade"] = pd.Categorical(np.where(df["income"] > 7000, "high", "low"), categories=["low", "mid", "high"],
                                 ordered=True)
    df["region"] = df["region"].astype("category")
    ddf = dd.from_pandas(df, npartitions=4)
    m = sdc.t_closeness(df, KEYS, "grade", distance="ordered")
    d = sdc.t_closeness(ddf, KEYS, "grade", distance="ordered")
    pd.testing.assert_series_equal(d.records.compute(), m.records, check_exact=False, rtol=RTOL, atol=0)
    ml = sdc.l_diversity(df, KEYS, "grade", mode="sdcmicro")
    dl = sdc.l_diversity(ddf, KEYS, "grade", mode="sdcmicro")
    _close_frame(dl.records.compute(), ml.records)


def test_arguments_checked_before_any_pass(frames) -> None:
    _, ddf = frames
    with pytest.raises(ValueError, match="not in the data|did you mean"):
        sdc.l_diversity(ddf, ["age", "nope"], "dx")
    with pytest.raises(ValueError, match="may not also be keys"):
        sdc.l_diversity(ddf, KEYS, "sex")
    with pytest.raises(ValueError, match="`l`"):
        sdc.l_diversity(ddf, KEYS, "dx", l=0)
    with pytest.raises(ValueError, match="distance"):
        sdc.t_closeness(ddf, KEYS, "income", distance="chebyshev")
    # bins are applied per partition, so only explicit edges (quantiles and widths need the whole file)
    with pytest.raises(ValueError, match=r"`key_bins` of 'age' must be explicit edges on a Dask DataFrame"):
        sdc.t_closeness(ddf, KEYS, "income", key_bins={"age": {"width": 3}})
    with pytest.raises(ValueError, match=r"`sensitive_bins` of 'income' must be explicit edges on a Dask DataFrame"):
        sdc.l_diversity(ddf, KEYS, "income", sensitive_bins={"income": {"quantiles": 4}})
    with pytest.raises(ValueError, match="wasserstein"):
        sdc.t_closeness(ddf, KEYS, "dx", distance="wasserstein")


def test_warnings_as_in_memory(client) -> None:
    df = _data(400, seed=2)
    ddf = dd.from_pandas(df, npartitions=4)
    with pytest.warns(sdc.SdcWarning, match="takes only"):
        sdc.l_diversity(ddf, KEYS, "dx", l=9)
