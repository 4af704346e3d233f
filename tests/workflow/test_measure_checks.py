"""The common checks of every declared measure (as scikit-learn's ``check_estimator``), run
over the registries' entries: each risk, attribute and file-wide measure of
:mod:`sdc.workflow.registry` and each utility measure of :mod:`sdc.workflow.utility_registry`.

For every entry, on one small file with every role (keys, weights, households, a categorical
and a banded numeric sensitive variable, a population size):

* the input is untouched;
* a bad argument (a column the data lack) is refused in one line that names it;
* the results are frozen, and ``summary()`` is a DataFrame of statistic, value, description;
* the same call gives the same result (the random steps are seeded);
* the result does not depend on the records' order, and per-record outputs follow the input's
  index (files with shuffled, non-default index labels give the same figures);
* where the function the entry calls declares Dask (:func:`sdc.core.engine.engines_of`), the
  entry on a Dask DataFrame gives the same ``summary()`` as in memory; where it declares
  chunks, the entry on the file read in chunks (:func:`sdc.read_chunks`) gives the same
  ``summary()`` as on the file read in memory.

A new entry is checked by being registered: the parameters are read from the declarations.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sdc
from sdc.core.engine import engines_of
from sdc.io import read_data
from sdc.core.scenario import key_classes
from sdc.workflow.config import RunConfig, Scenario, Thresholds
from sdc.workflow.measure import Context, Measure, UtilityContext, UtilityMeasure
from sdc.workflow.registry import ALL_MEASURES, CORE_MEASURES, FILE_MEASURES, OPTIONAL_MEASURES
from sdc.workflow.analyses import Analysis
from sdc.workflow.utility_registry import UTILITY_MEASURES
from tests import scale

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")

KEYS = ("sex", "region", "band")
SCENARIO_ENTRIES = [*ALL_MEASURES, *FILE_MEASURES]


def _data(n: int = 240, seed: int = 12) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "id": np.arange(n), "hh": rng.integers(0, n // 3, n), "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(list("abcde"), n), "band": rng.choice(["0-30", "30-60", "60+"], n),
        "w": rng.uniform(5, 20, n).round(2), "dx": rng.choice(["flu", "cold", "hiv", "none"], n),
        "chol": rng.normal(5.5, 1.0, n).round(1)})


def _config(keys: tuple[str, ...] = KEYS, sensitive: tuple[str, ...] = ("dx", "chol")) -> RunConfig:
    return RunConfig(categorical_keys=keys, weights="w", household="hh", sensitive=sensitive, id="id",
                     sensitive_bins={"chol": [0, 4, 5, 6, 7, float("inf")]}, population_size=5000,
                     thresholds=Thresholds(k=3), measures=(*dict.fromkeys(m.name for m in SCENARIO_ENTRIES),),
                     source="test")


def _context(data: Any, cfg: RunConfig, *, encoded: bool = True) -> Context:
    sc = Scenario("all keys", cfg.categorical_keys)
    kc = key_classes(data, list(sc.keys)) if encoded else None
    ctx = Context(cfg=cfg, work=data, scenario=sc, key_classes=kc,
                  opts={"weights": cfg.weights, "missing": cfg.missing, "alpha": cfg.alpha})
    for core in CORE_MEASURES:  # what a measure may read of those run before it
        if core.field != "intervals":
            ctx.done[core.field] = core.run(Context(**{**ctx.__dict__, "done": {}}))
    return ctx


def _run(m: Measure, data: Any, cfg: RunConfig | None = None, *, encoded: bool = True) -> Any:
    return m.run(_context(data, cfg or _config(), encoded=encoded))


def _parts(res: Any) -> list[Any]:
    """The result objects of an entry (several, by variable, for some)."""
    return list(res.values()) if isinstance(res, dict) else [res]


def _summaries(res: Any) -> list[pd.DataFrame]:
    return [p.summary() for p in _parts(res)]


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    return _data()


@pytest.fixture(scope="module")
def results(data: pd.DataFrame) -> dict[str, Any]:
    return {f"{m.name}/{m.field}": _run(m, data) for m in SCENARIO_ENTRIES}


def _id(m: Measure | UtilityMeasure) -> str:
    return f"{m.name}/{getattr(m, 'field', m.name)}"


def test_every_declared_measure_is_checked() -> None:
    # Each entry names the public function it calls (what engines_of reads) and is run here.
    assert all(m.function is not None for m in (*SCENARIO_ENTRIES, *UTILITY_MEASURES))
    assert {m.name for m in SCENARIO_ENTRIES} >= {"k_anonymity", "risk", "ldiversity", *OPTIONAL_MEASURES}
    # The engine checks below run over the scenario measures; a utility measure compares two
    # files in memory. One that declares another engine needs its same-result check here.
    assert [m.name for m in UTILITY_MEASURES if set(k for k, why in engines_of(m.function).items() if why is None)
            != {"pandas"}] == []


@pytest.mark.parametrize("m", SCENARIO_ENTRIES, ids=_id)
def test_input_untouched_results_frozen_summary_a_frame(m: Measure, data: pd.DataFrame,
                                                      results: dict[str, Any]) -> None:
    before = data.copy(deep=True)
    res = _run(m, data)
    pd.testing.assert_frame_equal(data, before)
    assert res is not None and _parts(res), "the entry gave no result on a file with every role"
    for part in _parts(res):
        assert dataclasses.is_dataclass(part) and part.__dataclass_params__.frozen, type(part).__name__
        field = dataclasses.fields(part)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(part, field, None)
    for s in _summaries(res):
        assert isinstance(s, pd.DataFrame) and list(s.columns) == ["statistic", "value", "description"]
        assert len(s) and s["statistic"].is_unique and s["description"].map(bool).all()


@pytest.mark.parametrize("m", SCENARIO_ENTRIES, ids=_id)
def test_deterministic(m: Measure, data: pd.DataFrame, results: dict[str, Any]) -> None:
    again = _run(m, data)
    for a, b in zip(_summaries(results[_id(m)]), _summaries(again)):
        pd.testing.assert_frame_equal(a, b)


def _figures(summary: pd.DataFrame) -> dict[str, Any]:
    return dict(zip(summary["statistic"], summary["value"]))


def _same_figures(a: pd.DataFrame, b: pd.DataFrame) -> None:
    fa, fb = _figures(a), _figures(b)
    assert fa.keys() == fb.keys()
    for name, va in fa.items():
        vb = fb[name]
        if isinstance(va, (int, float, np.number)) and not isinstance(va, bool):
            assert float(va) == pytest.approx(float(vb), rel=1e-12, abs=1e-12, nan_ok=True), name
        else:
            assert va == vb, name


def _shuffled(data: pd.DataFrame, seed: int) -> pd.DataFrame:
    """The records in another order, under index labels that are neither positions nor sorted."""
    perm = np.random.default_rng(seed).permutation(len(data))
    out = data.iloc[perm]
    out.index = pd.Index(1000 + 7 * perm, name="row")
    return out


@pytest.mark.parametrize("m", SCENARIO_ENTRIES, ids=_id)
def test_order_free_and_aligned_to_the_index(m: Measure, data: pd.DataFrame, results: dict[str, Any]) -> None:
    # Three files: this module's and two of other sizes, each against its shuffled copy. A
    # function with a seed (a random split of the records, as the jackknife's groups) deals its
    # draws to the records in their order: only its alignment is checked.
    seeded = {"rng", "seed"} & set(inspect.signature(m.function).parameters)
    for frame in (data, _data(97, seed=3), _data(331, seed=41)):
        base = results[_id(m)] if frame is data else _run(m, frame)
        shuffled = _shuffled(frame, seed=len(frame))
        moved = _run(m, shuffled)
        for a, b in zip(_summaries(base), _summaries(moved), strict=True):
            if not seeded:
                _same_figures(a, b)
        for part in _parts(moved):
            table = part.to_frame()
            assert isinstance(table, pd.DataFrame), type(part).__name__
            if len(table) == len(shuffled):  # a per-record table
                assert table.index.equals(shuffled.index), type(part).__name__


@pytest.mark.parametrize("m", SCENARIO_ENTRIES, ids=_id)
@settings(max_examples=scale.examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(6, 80), seed=st.integers(0, 2**16))
def test_order_free_on_random_files(m: Measure, n: int, seed: int) -> None:
    # Brute force over small random files (few records, lone classes, a household per record):
    # the records' order changes no figure, and the input is untouched.
    if {"rng", "seed"} & set(inspect.signature(m.function).parameters):
        return
    frame = _data(n, seed=seed)
    before = frame.copy(deep=True)
    try:
        base = _run(m, frame)
    except ValueError as refusal:  # a small file can be refused (e.g. too few records): in one line
        assert "\n" not in str(refusal)
        return
    pd.testing.assert_frame_equal(frame, before)
    for a, b in zip(_summaries(base), _summaries(_run(m, _shuffled(frame, seed=seed))), strict=True):
        _same_figures(a, b)


@pytest.mark.parametrize("m", SCENARIO_ENTRIES, ids=_id)
def test_a_bad_argument_is_refused_in_one_line(m: Measure, data: pd.DataFrame) -> None:
    # A key (or sensitive variable) the data lack, named by the configuration.
    cfg = _config(keys=("sex", "nope"), sensitive=("dx", "nope"))
    with pytest.raises((ValueError, TypeError)) as info:
        _run(m, data, cfg, encoded=False)
    msg = str(info.value)
    assert "\n" not in msg and "'nope'" in msg, msg


def _dask_entries(entries: list[Any]) -> list[Any]:
    return [m for m in entries if engines_of(m.function)["dask"] is None]


DASK_ENTRIES = _dask_entries(SCENARIO_ENTRIES)


@pytest.mark.skipif(not DASK_ENTRIES, reason="no measure's function declares a Dask variant yet (dispatch)")
@pytest.mark.parametrize("m", DASK_ENTRIES or [None], ids=lambda m: _id(m) if m is not None else "none")
def test_same_result_on_dask_where_declared(m: Measure, data: pd.DataFrame, results: dict[str, Any]) -> None:
    dd = pytest.importorskip("dask.dataframe")
    import dask

    ddf = dd.from_pandas(data, npartitions=3)
    # The local scheduler: a distributed client that an earlier test module closed must not be
    # looked for (the numbers are the same on any scheduler).
    with dask.config.set(scheduler="sync"):
        on_dask = _run(m, ddf, encoded=False)
    for a, b in zip(_summaries(results[_id(m)]), _summaries(on_dask)):
        pd.testing.assert_frame_equal(a, b)


CHUNKS_ENTRIES = [m for m in SCENARIO_ENTRIES if engines_of(m.function)["chunks"] is None]


@pytest.fixture(scope="module")
def csv_file(data: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("chunks") / "data.csv"
    data.to_csv(path, index=False)
    return str(path)


@pytest.mark.skipif(not CHUNKS_ENTRIES, reason="no measure's function declares a chunks variant yet (dispatch)")
@pytest.mark.parametrize("m", CHUNKS_ENTRIES or [None], ids=lambda m: _id(m) if m is not None else "none")
def test_same_result_in_chunks_where_declared(m: Measure, csv_file: str) -> None:
    # The file read in chunks of 50 records (5 chunks) against the same file read in memory; bins
    # are refused in chunks (the file is binned first), so both read the sensitive values unbinned.
    cfg = dataclasses.replace(_config(), sensitive_bins={})
    in_memory = _run(m, read_data(csv_file), cfg)
    in_chunks = _run(m, sdc.read_chunks(csv_file, chunk_rows=50), cfg, encoded=False)
    for a, b in zip(_summaries(in_memory), _summaries(in_chunks), strict=True):
        pd.testing.assert_frame_equal(a, b)


# --------------------------------------------------------------------------------- utility measures
def _release(data: pd.DataFrame) -> pd.DataFrame:
    rel = data.copy()
    rel["chol"] = rel["chol"].round(0)
    rel.loc[rel.index[::7], "region"] = None
    return rel


def _utility_context(original: pd.DataFrame, released: pd.DataFrame, variables: list[str] | None = None,
                     keys: list[str] | None = None) -> UtilityContext:
    # an analysis and a swapped table, so that the measures that run only with them run
    return UtilityContext(original, released, variables or ["chol", "region", "w"], keys or ["sex", "region", "band"],
                          analyses=(Analysis("cholesterol", "chol ~ w + C(sex)"),), tables=("sex", "region"))


@pytest.mark.parametrize("m", UTILITY_MEASURES, ids=_id)
def test_utility_measure_common_checks(m: UtilityMeasure, data: pd.DataFrame) -> None:
    rel = _release(data)
    o0, r0 = data.copy(deep=True), rel.copy(deep=True)
    res = m.run(_utility_context(data, rel))
    pd.testing.assert_frame_equal(data, o0)
    pd.testing.assert_frame_equal(rel, r0)
    assert dataclasses.is_dataclass(res) and res.__dataclass_params__.frozen
    s = res.summary()
    assert isinstance(s, pd.DataFrame) and list(s.columns) == ["statistic", "value", "description"]
    again = m.run(_utility_context(data, rel))
    pd.testing.assert_frame_equal(s, again.summary())
    assert [v for _, _, v in m.rows(res)] == pytest.approx([v for _, _, v in m.rows(again)], nan_ok=True)
    # A release with its rows in another order is matched by index; both files shuffled alike
    # change nothing.
    _same_figures(s, m.run(_utility_context(data, rel.iloc[::-1])).summary())
    _same_figures(s, m.run(_utility_context(_shuffled(data, seed=5), _shuffled(rel, seed=5))).summary())
    with pytest.raises((ValueError, TypeError)) as info:
        m.run(_utility_context(data, rel, variables=["chol", "nope"]))
    assert "\n" not in str(info.value) and "'nope'" in str(info.value)
