"""ARX's Lightning heuristic (sdc/identify/lightning.py) through generalisation_search: never
better than the proven optimum and meeting the models on small lattices, ARX's optimum on an
adult case, its budget respected, a lattice far above MAX_NODES searched, bad arguments refused."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdc.identify.hierarchy import interval_hierarchy
from sdc.identify.lattice import MAX_NODES
from sdc.identify.search import generalisation_search

ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
BIG_NODES, BIG_SECONDS = 700, 30.0  # the big run's budget: deterministic in nodes, a time limit as a guard


def _k_of(released: pd.DataFrame, qis: list[str]) -> int:
    """The smallest class of the released (not suppressed) records, counted by brute force."""
    kept = released[qis].notna().all(axis=1)
    return int(released.loc[kept, qis].astype(str).value_counts().min()) if kept.any() else 0


@pytest.fixture(scope="session")
def big() -> tuple[pd.DataFrame, dict]:
    """15 keys of 16 values on 5,000 seeded records, 3 levels each: 3^15 = 14.3 million transformations."""
    rng = np.random.default_rng(30)
    df = pd.DataFrame({f"q{j}": rng.integers(0, 16, 5_000) for j in range(15)})
    return df, {c: interval_hierarchy(range(16), [4]) for c in df.columns}


@pytest.fixture(scope="session")
def big_run(big):  # noqa: ANN001, ANN201
    df, hs = big
    return generalisation_search(df, hs, k=5, suppression_limit=0.04, algorithm="auto", node_limit=BIG_NODES,
                                 time_limit=BIG_SECONDS)


def test_a_lattice_above_max_nodes_is_searched_within_its_budget(big, big_run) -> None:  # noqa: ANN001
    df, _ = big
    r = big_run
    assert r.n_nodes == 3 ** 15 > MAX_NODES
    assert r.algorithm == "lightning" and r.optimal is False and r.stopped == "nodes"
    assert r.n_evaluated == BIG_NODES == len(r.lattice) and r.seconds < BIG_SECONDS + 3.0
    assert r.suppressed <= int(0.04 * len(df))
    assert _k_of(r.data, list(df.columns)) >= 5 and r.achieved["k"] >= 5
    assert set(r.lattice["status"]) <= {"anonymous", "not anonymous"}
    assert r.lattice["rank"].min() == 1 and len(r.runner_ups) == 5
    summary = r.summary().set_index("statistic")
    assert summary.loc["optimal", "description"] == "best found, not proven optimal"
    assert summary.loc["stopped", "value"] == "nodes"


def test_the_time_limit_stops_the_search(big) -> None:  # noqa: ANN001
    df, hs = big
    with pytest.raises(ValueError, match=r"found none meeting 5-anonymity.*within its budget \(the time limit"):
        generalisation_search(df, hs, k=5, algorithm="lightning", time_limit=0.3)


def test_the_exact_search_still_refuses_it_naming_lightning(big) -> None:  # noqa: ANN001
    df, hs = big
    with pytest.raises(ValueError, match=r"more than 2,000,000; use algorithm=\"lightning\""):
        generalisation_search(df, hs, k=5)


def test_node_limit_is_respected_and_the_search_is_deterministic() -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6] * 2, "b": [1, 2, 3, 1, 2, 3] * 2})
    hs = {"a": interval_hierarchy(range(7), [2, 4]), "b": interval_hierarchy(range(4), [2])}
    runs = [generalisation_search(df, hs, k=2, algorithm="lightning", node_limit=3) for _ in range(2)]
    assert all(r.n_evaluated == 3 and r.stopped == "nodes" for r in runs)
    assert runs[0].levels == runs[1].levels == {"a": 0, "b": 0}
    pd.testing.assert_frame_equal(runs[0].lattice, runs[1].lattice)


@st.composite
def _small(draw: st.DrawFn) -> tuple[pd.DataFrame, dict, dict]:
    n = draw(st.integers(20, 80))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"a": rng.integers(0, 16, n), "b": rng.integers(0, 8, n), "c": rng.integers(0, 4, n),
                       "s": rng.choice(["x", "y", "z"], n)})
    hs = {"a": interval_hierarchy(range(16), [2, 4, 8]), "b": interval_hierarchy(range(8), [2, 4]),
          "c": interval_hierarchy(range(4), [2])}
    models = draw(st.sampled_from([dict(k=2), dict(k=3), dict(k=2, l={"s": 2}), dict(avg_risk=0.3)]))
    models["metric"] = draw(st.sampled_from(["discernibility", "loss", "nue", "precision", "avg_class_size"]))
    models["suppression_limit"] = draw(st.sampled_from([0.0, 0.05, 0.2]))
    return df, hs, models


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_small())
def test_unlimited_lightning_meets_the_models_and_never_beats_the_optimum(case) -> None:  # noqa: ANN001
    df, hs, models = case
    try:
        exact = generalisation_search(df, hs, **models, runner_ups=0)
    except ValueError:
        with pytest.raises(ValueError, match="found none meeting"):
            generalisation_search(df, hs, **models, algorithm="lightning")
        return
    light = generalisation_search(df, hs, **models, algorithm="lightning", runner_ups=0)
    assert light.stopped == "exhausted" and light.optimal is False
    assert light.loss >= exact.loss - 1e-9 * max(1.0, abs(exact.loss))
    assert light.suppressed <= int(models["suppression_limit"] * len(df) + 1e-9)
    if "k" in models:
        assert _k_of(light.data, ["a", "b", "c"]) >= models["k"]
    if "l" in models:
        kept = light.data[["a", "b", "c"]].notna().all(axis=1)
        assert light.data[kept].groupby(["a", "b", "c"])["s"].nunique().min() >= 2


@pytest.mark.skipif(not ADULT.exists(), reason=f"the adult extract is not at {ADULT} (set SDC_ARX_ADULT)")
def test_adult_lightning_finds_the_exact_optimum() -> None:
    """adult, five of ARX's quasi-identifiers, 5-anonymity, 4 % suppression: Lightning reaches the
    proven optimum (as ARX's does on adult, Prasser et al. 2016)."""
    cols = ["sex", "age", "race", "marital-status", "education"]
    df = pd.read_csv(ADULT, sep=";", dtype=str, usecols=cols)
    hs = {c: str(ADULT.parent / f"adult_hierarchy_{c}.csv") for c in cols}
    kw = dict(k=5, suppression_limit=0.04, metric="nue_monotonic", runner_ups=0)
    exact = generalisation_search(df, hs, **kw)
    light = generalisation_search(df, hs, **kw, algorithm="lightning")
    assert light.levels == exact.levels
    assert light.loss == pytest.approx(exact.loss, rel=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    (dict(algorithm="fast"), r"`algorithm`.*'fast'"),
    (dict(algorithm="lightning", time_limit=0), r"`time_limit`"),
    (dict(algorithm="lightning", node_limit=0), r"`node_limit`"),
    (dict(time_limit=5), r"`time_limit` and `node_limit` are a heuristic's budget"),
    (dict(algorithm="genetic", seed=-1), r"`seed` must be an integer >= 0"),
    (dict(algorithm="genetic", exhaustive=True), r"`exhaustive=True`.*not \"genetic\""),
    (dict(algorithm="lightning", exhaustive=True), r"`exhaustive=True`.*algorithm=\"exact\""),
])
def test_bad_arguments_are_refused_in_one_line(kwargs: dict, message: str) -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 4]})
    with pytest.raises((ValueError, TypeError), match=message) as err:
        generalisation_search(df, {"a": interval_hierarchy(range(5), [2])}, k=2, **kwargs)
    assert "\n" not in str(err.value)


def test_auto_is_exact_on_a_small_lattice() -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6]})
    r = generalisation_search(df, {"a": interval_hierarchy(range(7), [2, 4])}, k=2, algorithm="auto", node_limit=3)
    assert r.algorithm == "exact" and r.optimal is True and r.stopped == "proven"
