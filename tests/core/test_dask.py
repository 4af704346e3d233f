"""The measures and row-wise protection on a Dask DataFrame (issue 14) give the in-memory numbers.

Every test runs on a LocalCluster with worker processes (module fixture: 2 workers, 1 thread
each) and data in at least 4 partitions, with missing key values and weights. Counts must be
equal; risks agree to 1e-12 (relative; the weight sums are added per partition, then across).
Without dask the module skips with the reason, unless SDC_REQUIRE_DASK=1 (then it fails).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.core._dask import is_dask, partition_seeds

from tests.dask_support import require_dask

require_dask()

import dask.dataframe as dd

KEYS = ["age", "sex", "region", "edu"]
RTOL = 1e-12


def _data(n: int = 4000, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "age": rng.integers(0, 9, n).astype(float),
        "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(["n", "s", "e", "w", "c"], n).astype(object),
        "edu": rng.integers(0, 4, n),
        "w": rng.uniform(1, 80, n),
        "dx": rng.choice(["a", "b", "c", "d"], n, p=[.5, .3, .15, .05]),
        "income": rng.gamma(2, 1000, n).round(),
    }, index=pd.RangeIndex(1000, 1000 + n))
    df.loc[rng.random(n) < .06, "age"] = np.nan
    df.loc[rng.random(n) < .05, "region"] = None
    df.loc[rng.random(n) < .02, ["age", "region"]] = [np.nan, None]
    return df


@pytest.fixture(scope="module")
def frames(client):
    df = _data()
    return df, dd.from_pandas(df, npartitions=5)


def _close(a, b) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=RTOL, atol=0)


def test_is_dask_without_importing(frames) -> None:
    df, ddf = frames
    assert is_dask(ddf) and is_dask(ddf["age"]) and not is_dask(df) and not is_dask(None)
    assert ddf.npartitions >= 4


@pytest.mark.parametrize("missing,alpha", [("wildcard", 1.0), ("wildcard", 0.5), ("category", 1.0)])
@pytest.mark.parametrize("weights", [None, "w"])
def test_frequencies_equal_in_memory(frames, missing, alpha, weights) -> None:
    df, ddf = frames
    m = sdc.frequencies(df, KEYS, weights=weights, missing=missing, alpha=alpha)
    d = sdc.frequencies(ddf, KEYS, weights=weights, missing=missing, alpha=alpha)
    assert isinstance(d, sdc.FrequencyResult) and is_dask(d.sample_frequency)
    fk = d.sample_frequency.compute()
    Fk = d.population_frequency.compute()
    # per-record alignment: same index, same order, same values
    assert fk.index.equals(df.index) and Fk.index.equals(df.index)
    assert fk.dtype == m.sample_frequency.dtype
    if fk.dtype.kind == "i":
        assert (fk.to_numpy() == m.sample_frequency.to_numpy()).all()
    else:
        _close(fk, m.sample_frequency)
    _close(Fk, m.population_frequency)
    assert (d.n_records, d.n1, d.n2, d.n_patterns) == (m.n_records, m.n1, m.n2, m.n_patterns)
    assert d.to_frame().compute().equals(pd.concat([fk, Fk], axis=1))


@pytest.mark.parametrize("missing", ["wildcard", "category"])
@pytest.mark.parametrize("weights,method", [(None, "approx"), ("w", "approx"), ("w", "exact")])
def test_individual_risk_equal_in_memory(frames, missing, weights, method) -> None:
    df, ddf = frames
    m = sdc.individual_risk(df, KEYS, weights=weights, method=method, missing=missing, max_global_risk=0.02)
    d = sdc.individual_risk(ddf, KEYS, weights=weights, method=method, missing=missing, max_global_risk=0.02)
    assert isinstance(d, sdc.IndividualRiskResult) and is_dask(d.risk)
    risk = d.risk.compute()
    assert risk.index.equals(df.index)
    _close(risk, m.risk)
    _close([d.expected_reidentifications, d.global_risk, d.max_risk],
           [m.expected_reidentifications, m.global_risk, m.max_risk])
    assert d.n_records == m.n_records and d.n_higher_risk() == m.n_higher_risk()
    for g in (0.02, 0.05, 0.2):
        t_d, t_m = d.threshold_for(g), m.threshold_for(g)
        assert (np.isnan(t_d) and np.isnan(t_m)) or t_d == pytest.approx(t_m, rel=RTOL)
    assert d.to_frame().compute().shape == (len(df), 3)


@pytest.mark.parametrize("missing", ["wildcard", "category"])
def test_k_anonymity_equal_in_memory(frames, missing) -> None:
    df, ddf = frames
    m = sdc.k_anonymity(df, KEYS, k=3, weights="w", missing=missing, top=8)
    d = sdc.k_anonymity(ddf, KEYS, k=3, weights="w", missing=missing, top=8)
    for f in ("n_records", "n_classes", "n_unique", "n_k_lt_threshold", "n_k_le_threshold", "min_k", "median_k"):
        assert getattr(d, f) == getattr(m, f), f
    pd.testing.assert_frame_equal(d.class_sizes, m.class_sizes)
    # riskiest classes: same classes in the same order (ties broken by first appearance)
    pd.testing.assert_frame_equal(d.riskiest_classes, m.riskiest_classes, check_dtype=False, rtol=RTOL)
    v = d.violates.compute()
    assert v.index.equals(df.index) and (v == m.violates).all()


@pytest.mark.parametrize("missing", ["wildcard", "category"])
def test_snapshots_equal_in_memory(frames, missing) -> None:
    df, ddf = frames
    m = sdc.key_subset_snapshots(df, KEYS, weights="w", missing=missing, threshold=2)
    d = sdc.key_subset_snapshots(ddf, KEYS, weights="w", missing=missing, threshold=2)
    assert len(d.table) == 2 ** len(KEYS) - 1
    pd.testing.assert_frame_equal(d.table, m.table, rtol=RTOL)
    sub = [["age"], ["region", "sex"]]
    pd.testing.assert_frame_equal(sdc.key_subset_snapshots(ddf, KEYS, subsets=sub).table,
                                  sdc.key_subset_snapshots(df, KEYS, subsets=sub).table, rtol=RTOL)
    # the subsets are checked by the same code: the same one line for a bad one
    for bad in ([["agee"]], [], [[1]]):
        with pytest.raises((ValueError, TypeError)) as on_dask:
            sdc.key_subset_snapshots(ddf, KEYS, subsets=bad)
        with pytest.raises((ValueError, TypeError)) as in_memory:
            sdc.key_subset_snapshots(df, KEYS, subsets=bad)
        assert str(on_dask.value) == str(in_memory.value)


def test_nan_keys_merge_to_nan_patterns(client) -> None:
    # a record whose keys are all missing, and one missing in one key only: per-record values
    # come back through a merge, which must match a missing key to the missing pattern
    df = pd.DataFrame({"a": [1.0, np.nan, np.nan, 1.0, 2.0, np.nan, 2.0, 1.0],
                       "b": ["x", None, "y", "x", None, None, "y", "y"]}, index=list("abcdefgh"))
    ddf = dd.from_pandas(df, npartitions=4)
    for missing in ("wildcard", "category"):
        fk = sdc.frequencies(ddf, ["a", "b"], missing=missing).sample_frequency.compute()
        m = sdc.frequencies(df, ["a", "b"], missing=missing).sample_frequency
        assert fk.index.equals(df.index) and fk.notna().all() and (fk == m).all(), missing
    assert sdc.frequencies(ddf, ["a", "b"], missing="category").sample_frequency.compute()["f"] == 2


def test_categorical_keys(client) -> None:
    df = _data(800, seed=3)
    df["region"] = df["region"].astype("category")
    ddf = dd.from_pandas(df, npartitions=4)
    m = sdc.individual_risk(df, KEYS, weights="w")
    d = sdc.individual_risk(ddf, KEYS, weights="w")
    _close(d.risk.compute(), m.risk)


def test_not_distributed_measures_say_so(frames) -> None:
    _, ddf = frames
    # The refusal names the function called and why, from its declaration (sdc.core.engine.dispatch).
    with pytest.raises(ValueError, match=r"^suda\(\) cannot run on a Dask DataFrame exactly \(it searches the minimal "
                                         r"sample uniques .*\); compute it on a pandas DataFrame \(ddf.compute\(\)\)"):
        sdc.suda(ddf, KEYS)
    with pytest.raises(ValueError, match=r"^household_risk\(\) cannot run on a Dask DataFrame exactly \(it needs each "
                                         r"household's records together\)"):
        sdc.household_risk(ddf, KEYS, "edu")
    with pytest.raises(ValueError, match=r"^model_risk\(\) cannot run on a Dask DataFrame exactly \(its log-linear "
                                         r"model is fitted over all cells of the key table together\)"):
        sdc.model_risk(ddf, KEYS)
    # width (and quantile) bins depend on the whole file; explicit edges are applied per partition
    with pytest.raises(ValueError, match=r"`key_bins` of 'age' must be explicit edges on a Dask DataFrame"):
        sdc.individual_risk(ddf, KEYS, key_bins={"age": {"width": 2}})


def test_bad_weights_one_line(client) -> None:
    df = _data(400)
    df.loc[df.index[5], "w"] = 0.5
    with pytest.raises(ValueError, match="weight column .w. must be >= 1"):
        sdc.individual_risk(dd.from_pandas(df, npartitions=4), KEYS, weights="w")


# --- row-wise protection ------------------------------------------------------------------

def test_partition_seeds_are_reproducible() -> None:
    assert partition_seeds(42, 6) == partition_seeds(42, 6)
    assert len(set(partition_seeds(42, 6))) == 6 and partition_seeds(42, 6) != partition_seeds(43, 6)


def test_recode_and_top_code_equal_in_memory(frames) -> None:
    df, ddf = frames
    m = sdc.global_recode(df, "income", edges=[0, 1000, 2000, 5000, 1e9])
    d = sdc.global_recode(ddf, "income", edges=[0, 1000, 2000, 5000, 1e9])
    assert is_dask(d.data)
    pd.testing.assert_frame_equal(d.data.compute(), m.data, check_categorical=False)
    pd.testing.assert_series_equal(d.changed.compute(), m.changed, check_names=False)
    m = sdc.top_bottom_code(df, "income", top=6000, bottom=100)
    d = sdc.top_bottom_code(ddf, "income", top=6000, bottom=100)
    pd.testing.assert_frame_equal(d.data.compute(), m.data)
    assert df.equals(_data())  # input untouched
    with pytest.raises(ValueError, match="whole file"):
        sdc.global_recode(ddf, "income", bins=4)


def test_values_equal_in_memory_with_dask_string_conversion() -> None:
    """Dask's own default (dataframe.convert-string, on where pyarrow is installed) gives text
    columns another dtype, not other values: the tests otherwise keep pandas' dtypes (conftest)."""
    import dask

    pytest.importorskip("pyarrow", reason="Dask converts text columns only with pyarrow installed (Debian sid)")
    df = _data()
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(df, npartitions=4)
        d = sdc.global_recode(ddf, "income", edges=[0, 1000, 2000, 5000, 1e9]).data.compute()
        f = sdc.frequencies(ddf, KEYS).sample_frequency.compute()
    m = sdc.global_recode(df, "income", edges=[0, 1000, 2000, 5000, 1e9]).data
    pd.testing.assert_frame_equal(d.astype(object).where(d.notna(), None), m.astype(object).where(m.notna(), None),
                                  check_categorical=False, check_dtype=False)
    pd.testing.assert_series_equal(f, sdc.frequencies(df, KEYS).sample_frequency, check_names=False)


def test_pseudonymise_equal_in_memory(frames, tmp_path) -> None:
    df, ddf = frames
    key = tmp_path / "key.txt"
    key.write_text("k" * 64)
    key.chmod(0o600)
    df = df.assign(id=[f"P{i}" for i in df.index])
    ddf = dd.from_pandas(df, npartitions=4)
    m = sdc.pseudonymise(df, "id", key_file=str(key))
    d = sdc.pseudonymise(ddf, "id", key_file=str(key))
    pd.testing.assert_frame_equal(d.data.compute(), m.data)
    assert "k" * 64 not in repr(d)
    with pytest.raises(ValueError, match="random_key"):
        sdc.pseudonymise(ddf, "id", random_key=True)


def test_seeded_partitions_rerun_identical(frames, tmp_path) -> None:
    from sdc.core._dask import map_partitions_seeded, write_partitioned
    from sdc.protect._result import ProtectionResult

    df, ddf = frames

    def jitter(part: pd.DataFrame, seed: int) -> ProtectionResult:
        rng = np.random.default_rng(seed)
        out = part.assign(income=part["income"] + rng.normal(size=len(part)))
        return ProtectionResult(method="jitter", data=out, variables=("income",), parameters={}, seed=seed,
                                changed=pd.Series(True, index=part.index))

    a = map_partitions_seeded(ddf, jitter, seed=11)
    b = map_partitions_seeded(ddf, jitter, seed=11)
    files_a = write_partitioned(a, str(tmp_path / "a"))
    files_b = write_partitioned(b, str(tmp_path / "b"))
    assert len(files_a) == ddf.npartitions
    assert [open(f).read() for f in files_a] == [open(f).read() for f in files_b]
    c = map_partitions_seeded(ddf, jitter, seed=12).compute()
    assert not c["income"].equals(a.compute()["income"])
    with pytest.raises(ValueError, match="not empty"):
        write_partitioned(a, str(tmp_path / "a"))


# --- command line ---------------------------------------------------------------------------

def test_cli_risk_engine_dask_matches_pandas(client, tmp_path, capsys) -> None:
    import json

    from sdc.cli.main import main

    df = _data(3000, seed=11).drop(columns=["dx"])
    for i in range(4):
        df.iloc[i * 750:(i + 1) * 750].to_csv(tmp_path / f"part-{i}.csv", index=False)
    df.to_csv(tmp_path / "all.csv", index=False)
    args = ["--keys", ",".join(KEYS), "--weights", "w", "--json"]
    assert main(["risk", str(tmp_path / "part-*.csv"), *args, "--engine", "dask",
                 "--scheduler", client.scheduler.address]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(["risk", str(tmp_path / "all.csv"), *args]) == 0
    m = json.loads(capsys.readouterr().out)
    for f in ("n_records", "n_classes", "n_unique", "n_k_lt_threshold", "n_k_le_threshold"):
        assert d[f] == m[f], f
    for f in ("expected_reidentifications", "global_risk", "global_threshold"):
        assert d[f] == pytest.approx(m[f], rel=RTOL), f
    # a measure that is not distributed: one line, exit 2
    assert main(["risk", str(tmp_path / "part-*.csv"), *args, "--engine", "dask", "--household", "edu",
                 "--scheduler", client.scheduler.address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "household risk cannot run on a Dask DataFrame" in err[0]
