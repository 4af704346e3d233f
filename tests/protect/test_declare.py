"""The declarations of the protection methods (sdc/protect/_declare.py) and the common checks
every declared method passes, as scikit-learn's ``check_estimator`` runs over every estimator:
parametrised from the declarations, so a new method is checked without a line here.

* the declaration is the signature's (parameters, defaults, seed) and the registry is the
  package's exported methods;
* the input is untouched (values, dtypes, index, attrs), the result frozen, ``summary()`` a
  DataFrame, the run deterministic under a seed;
* every declared option's rule refuses a value it does not allow, in one line naming the
  parameter (the bad value generated from the rule);
* on Dask where declared: row-wise methods give the in-memory records exactly, per-partition
  random methods the same file on a rerun with the same seed and partitioning; the others are
  refused in one line saying why;
* the docs' method tables are what the declarations give;
* the protection report computes nothing (no ``is_dask`` outside the engine's dispatch point
  and Dask's home is tests/project/test_layering.py's rule, for every module).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc._schema import REQUIRED, Choice, Each, Edges, Either, Flag, Name, Names, Real, Rule, Text, Whole
from sdc.protect import MethodInfo, method_infos
from sdc.protect._declare import Listed, PathLike, Table, dask_markdown, methods_markdown

ROOT = Path(__file__).resolve().parents[2]
INFOS = method_infos()
METHODS = list(INFOS.values())
IDS = [i.name for i in METHODS]


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    df = sdc.load_example().head(400).copy()
    df.attrs["source"] = {"file": "health_survey.csv", "notes": ["a nested value"]}
    return df


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    p = tmp_path_factory.mktemp("key") / "key.txt"
    p.write_text("0123456789abcdef-a-key-for-the-checks\n", encoding="utf-8")
    p.chmod(0o600)  # a pseudonymisation key must be private (sdc refuses one others can read)
    return str(p)


def _arguments(info: MethodInfo, key: str, seed: int | None = 7) -> dict[str, Any]:
    """The declared example call, with a seed (seeded methods) and a key (methods that need one)."""
    args = dict(info.example)
    if info.seeded and seed is not None:
        args["seed"] = seed
    if "key" in info.needs:
        args["key_file"] = key
    return args


def _run(info: MethodInfo, frame: Any, key: str, **extra: Any) -> Any:
    args = {**_arguments(info, key), **extra}
    variables = args.pop(info.variables_param)
    return info.function(frame, variables, **args)


# --- the declarations ---------------------------------------------------------------------

def test_the_registry_is_the_exported_declared_functions() -> None:
    import sdc.protect as pkg

    assert IDS[:15] == ["global_recode", "top_bottom_code", "apply_transformation", "mv_top_code", "local_suppression", "local_suppression_by_risk",
                       "add_ghost_vars", "microaggregation", "microaggregation_gower", "pram", "add_noise", "rank_swap", "record_swap", "shuffle",
                       "pseudonymise"]
    for info in METHODS:
        assert getattr(sdc, info.name, info.function) is info.function, info.name   # the flat API: the declared one
        assert info.function.__sdc_method__ is info
    assert pkg.pram.__name__ == "sdc.protect.pram"   # a module named as its method stays the module


@pytest.mark.parametrize("info", METHODS, ids=IDS)
def test_the_declaration_is_the_signature(info: MethodInfo) -> None:
    params = list(inspect.signature(info.function).parameters.values())
    assert params[1].name == info.variables_param
    rest = [p for p in params[2:] if p.name != "seed"]
    assert list(info.parameters) == [p.name for p in rest]
    assert info.seeded == any(p.name == "seed" for p in params)
    for p in rest:
        assert info.options[p.name].default == (REQUIRED if p.default is p.empty else p.default), p.name
    assert info.summary and info.example, info.name
    assert (info.dask is None) == bool(info.dask_rows), info.name


def test_a_declaration_that_drifts_from_its_signature_is_refused() -> None:
    from sdc.protect._declare import param, protection_method

    with pytest.raises(TypeError, match=r"declared parameters \(width\) are not the signature's \(k\)"):
        @protection_method("scratch", summary="x", why="y", options={"width": param(Real())})
        def scratch(data, variables, *, k=2):  # noqa: ANN001, ANN202
            return None
    with pytest.raises(TypeError, match="say why it cannot run on a Dask DataFrame"):
        @protection_method("other", summary="x", options={})
        def other(data, variables):  # noqa: ANN001, ANN202
            return None


# --- the common checks --------------------------------------------------------------------

@pytest.mark.parametrize("info", METHODS, ids=IDS)
def test_input_untouched(info: MethodInfo, data: pd.DataFrame, key_file: str) -> None:
    before = data.copy(deep=True)
    attrs = copy.deepcopy(data.attrs)
    res = _run(info, data, key_file)
    pd.testing.assert_frame_equal(data, before, check_exact=True)
    assert list(data.dtypes) == list(before.dtypes) and data.index.equals(before.index)
    assert data.attrs == attrs
    if isinstance(res.data, pd.DataFrame) and res.data.attrs:  # changing the release's attrs leaves the input's
        res.data.attrs.setdefault("source", {})["notes"] = ["changed"]
        assert data.attrs == attrs
    for v in res.variables:  # writing into the release leaves the input
        if v in res.data.columns and len(res.data):
            res.data.loc[res.data.index[0], v] = res.data[v].iloc[-1]
    pd.testing.assert_frame_equal(data, before, check_exact=True)


@pytest.mark.parametrize("info", METHODS, ids=IDS)
def test_results_frozen_and_summary_a_frame(info: MethodInfo, data: pd.DataFrame, key_file: str) -> None:
    res = _run(info, data, key_file)
    assert res.method == info.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.method = "other"  # type: ignore[misc]
    s = res.summary()
    assert isinstance(s, pd.DataFrame) and list(s.columns) == ["statistic", "value", "description"]
    assert s.set_index("statistic").loc["cells_changed", "value"] == res.n_changed
    assert isinstance(res.to_frame(), pd.DataFrame)
    assert res.data.index.isin(data.index).all()
    if not info.drops_records:
        assert len(res.data) == len(data)


@pytest.mark.parametrize("info", METHODS, ids=IDS)
def test_deterministic_under_a_seed(info: MethodInfo, data: pd.DataFrame, key_file: str) -> None:
    a, b = _run(info, data, key_file), _run(info, data, key_file)
    pd.testing.assert_frame_equal(a.data, b.data, check_exact=True)
    pd.testing.assert_series_equal(a.changed, b.changed)
    assert a.parameters == b.parameters and a.seed == b.seed
    if info.seeded:
        c = _run(info, data, key_file, seed=8)
        assert c.seed == 8 and not c.data.equals(a.data)


def bad_value(rule: Rule) -> Any:
    """A value `rule` refuses (at its boundary where it has one); None for a rule that allows anything."""
    if isinstance(rule, Whole):
        return rule.min - 1 if rule.min is not None else (rule.max + 1 if rule.max is not None else 0.5)
    if isinstance(rule, Real):
        if not math.isinf(rule.low):
            return rule.low if rule.low_open else rule.low - 1
        if not math.isinf(rule.high):
            return rule.high if rule.high_open else rule.high + 1
        return "a word"
    if isinstance(rule, Each):
        return bad_value(rule.rule)
    if isinstance(rule, Choice):
        return "no such choice"
    if isinstance(rule, Edges):
        return [3, 1]
    if isinstance(rule, Flag):
        return "yes"
    if isinstance(rule, (Names, Name, Text, Table, Listed, PathLike)):
        return 3
    if isinstance(rule, Either):
        return {"not": "allowed"}
    return None


CHECKED = [(i, o) for i in METHODS for o in i.options if bad_value(o.rule) is not None]


@pytest.mark.parametrize(("info", "option"), CHECKED, ids=[f"{i.name}-{o.name}" for i, o in CHECKED])
def test_a_bad_argument_is_refused_in_one_line_naming_it(info: MethodInfo, option: Any, data: pd.DataFrame,
                                                         key_file: str) -> None:
    bad = bad_value(option.rule)
    assert option.rule.problem(bad) is not None, (option.name, bad)
    with pytest.raises((TypeError, ValueError)) as exc:
        _run(info, data, key_file, **{option.name: bad})
    text = str(exc.value)
    assert "\n" not in text and f"`{option.name}`" in text and option.rule.what in text, text


def test_a_bound_below_its_partner_is_refused_naming_both(data: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"^`top` \(5\) must not lie below `bottom` \(10\)\.$"):
        sdc.top_bottom_code(data, "bmi", top=5, bottom=10)


# --- on Dask where declared -----------------------------------------------------------------

def _dask_frame(data: pd.DataFrame) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    return dd.from_pandas(data.reset_index(drop=True), npartitions=3)


@pytest.mark.parametrize("info", METHODS, ids=IDS)
def test_on_dask_as_declared(info: MethodInfo, data: pd.DataFrame, key_file: str) -> None:
    import dask

    from sdc.core.engine import EngineError

    ddf = _dask_frame(data)
    with dask.config.set(scheduler="sync"):
        if info.dask is not None:
            with pytest.raises(EngineError, match=f"^{info.name}\\(\\) cannot run on a Dask DataFrame exactly "
                                                  f"\\({info.dask}\\)"):
                _run(info, ddf, key_file)
            return
        got = _run(info, ddf, key_file).data.compute()
        if info.dask_rows == "as in memory":
            pd.testing.assert_frame_equal(got, _run(info, data.reset_index(drop=True), key_file).data)
        else:
            pd.testing.assert_frame_equal(got, _run(info, ddf, key_file).data.compute())
        for o in info.options:  # a parameter set from the whole file: refused in one line
            if getattr(o, "whole_file", ""):
                with pytest.raises(EngineError, match=f"{info.name}\\({o.name}=...\\) cannot run .*{o.whole_file}"):
                    _run(info, ddf, key_file, **{o.name: 3 if not isinstance(o.rule, Flag) else True})


# --- the docs' tables -------------------------------------------------------------------------

def test_the_docs_method_tables_are_the_declarations() -> None:
    assert methods_markdown(INFOS) in (ROOT / "docs" / "protect-run.md").read_text(encoding="utf-8")
    assert dask_markdown(INFOS) in (ROOT / "docs" / "dask.md").read_text(encoding="utf-8")


def _matrix_rows() -> list[list[str]]:
    """The rows of docs/protection.md's table of sdcMicro's methods (its cells, stripped)."""
    text = (ROOT / "docs" / "protection.md").read_text(encoding="utf-8")
    body = text[text.index("## sdcMicro's methods in a plan, a sweep and on Dask"):]
    lines = [ln for ln in body[:body.index("\n\n", body.index("| sdcMicro |"))].splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in re.split(r"(?<!\\)\|", ln)[1:-1]] for ln in lines[1:] if not ln.startswith("|---")]


def test_the_sdcmicro_matrix_is_the_declarations() -> None:
    # docs/protection.md's matrix: each declared method's plan, sweep and Dask cells are its
    # declaration's, its variants values of its `method` / `measure` choice, every such value in a
    # row; each cited prefix of validation/results/cross_validation.md starts that many rows and
    # each cited live test exists.
    from sdc.workflow.plan import method_table

    table = method_table()
    published = [ln.split("|")[1].strip() for ln in
                 (ROOT / "validation/results/cross_validation.md").read_text(encoding="utf-8").splitlines()
                 if ln.startswith("| ") and not ln.startswith("| measure")]
    variants: dict[str, set[str]] = {}
    for sdcmicro, ours, plan, sweep, dask, crossval, _ in _matrix_rows():
        name = re.match(r"`([a-z_.]+)", ours).group(1)
        if name in table:
            info = table[name]
            assert (plan, sweep, dask) == ("yes", "yes", "yes" if info.dask_refusal({}) is None else "no"), sdcmicro
            inside = re.search(r"\((.*)\)", ours)
            for v in re.findall(r"`([^`]+)`", inside.group(1) if inside else ""):
                assert any(isinstance(o.rule, Choice) and v in o.rule.values for o in info.options
                           if o.name in ("method", "measure")), (name, v)
                variants.setdefault(name, set()).add(v)
        else:
            assert plan == "no" and dask == "no", sdcmicro   # a measure or an API function
        for prefix, n in re.findall(r"`([^`]+)` (\d+)", crossval):
            assert sum(r.startswith(prefix) for r in published) == int(n), (sdcmicro, prefix)
        for path in re.findall(r"`(tests/[^`]+\.py)`", crossval):
            assert (ROOT / path).is_file(), path
    for name, seen in variants.items():
        declared = {v for o in table[name].options if o.name in ("method", "measure") and isinstance(o.rule, Choice)
                    for v in o.rule.values}
        assert declared <= seen | {o.default for o in table[name].options if o.name in ("method", "measure")}, name


# --- the layering rule of this part -------------------------------------------------------------

def test_the_protection_report_computes_nothing() -> None:
    for p in (ROOT / "sdc/report").glob("protection*.py"):
        tree = ast.parse(p.read_text())
        computes = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "compute"]
        assert not computes, (p.name, computes)
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("sdc.workflow"):
                names = [a.name for a in n.names]
                assert all(a[:1].isupper() for a in names), (p.name, n.lineno, names)   # result types only
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                mods = [n.module or ""] if isinstance(n, ast.ImportFrom) else [a.name for a in n.names]
                assert not any(m.startswith(("dask", "sdc.core._dask")) for m in mods), (p.name, n.lineno)


# --- a Dask run's summary, log and folder (they failed on the lazy Delayed objects) ------------

def test_a_lazy_dask_run_summarises_logs_and_writes(data: pd.DataFrame, tmp_path: Path) -> None:
    import dask

    ddf = _dask_frame(data)
    plan = {"plan": {"seed": 3}, "steps": [{"method": "global_recode", "variables": ["age"], "width": 10},
                                          {"method": "pram", "variables": ["sex"]}]}
    from sdc.workflow.plan import plan_from_mapping

    with dask.config.set(scheduler="sync"):
        run = sdc.protect_data(ddf, plan_from_mapping(plan), reassess=False)
        assert run.lazy
        s = run.summary()
        assert s.set_index("statistic").loc["records_in", "value"] == len(data)
        log = run.log()
        assert log["steps"][0]["cells_changed"] == {"age": int(data["age"].notna().sum())}
        assert log["engine"]["name"] == "dask"
        folder = sdc.write_protection(run, tmp_path / "out")
    assert (tmp_path / "out" / "protection.json").is_file()
    parts = sorted((tmp_path / "out" / "released").glob("part-*.csv"))
    assert [p.name for p in parts] == ["part-0000.csv", "part-0001.csv", "part-0002.csv"]
    assert folder.released == "released/"
    released = pd.concat([pd.read_csv(p) for p in parts], ignore_index=True)
    assert len(released) == len(data) and released["age"].str.startswith("(").all()
