"""ARX's classification metric (``metric="classification"``, ``MetricSDClassification``): hand
values, ARX's penalties from its gs factor, a hypothesis brute force of every node and of the
search against a plain-Python formula, ARX's own values on adult (recorded, and live with the
``arx`` marker through validation/arx/ArxQuality.java), the option in [search] and on the command
line, and bad input in one line."""

from __future__ import annotations

import itertools
import json
import math
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.identify.hierarchy import Hierarchy, as_hierarchy
from sdc.identify.lattice import Problem
from sdc.identify.metrics import METRICS, MetricTables
from sdc.identify.metrics_arx import _classification, classification_penalties
from sdc.identify.search import generalisation_search
from sdc.workflow.config import ConfigError
from sdc.workflow.search_config import search_config_from_mapping
from tests import scale
from tests.helpers import run_cli
from tests.identify.test_search import _hand

ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
HARNESS = Path(__file__).resolve().parents[2] / "validation" / "arx" / "ArxQuality.java"
CLS_QIS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass"]
needs_adult = pytest.mark.skipif(not ADULT.exists(), reason=f"the adult extract is not at {ADULT} (set SDC_ARX_ADULT)")


def _value(data: pd.DataFrame, hs: dict, response: list[str], node: tuple, kept_of=None, gs: float = 0.5) -> float:
    p = Problem.encode(data, hs, [], None, response)
    t, _ = p.table_at(node)
    kept = np.ones(t.n_groups, dtype=bool) if kept_of is None else kept_of(t)
    return _classification(MetricTables(p), t, kept, gs)


def test_declared_once() -> None:
    assert "classification" in METRICS


# _hand(): age 21 22 23 24 | 31 32 33 39, sex M M F F | M M F F, dx a b a b | a a b c
@pytest.mark.parametrize("node, kept_of, want", [
    # {20s}: a b a b tied -> all 4; {30s}: a a b c, majority a -> 2 missed
    ((1, 1), None, (4 + 2) / 8),
    # one class a4 b3 c1: 8 - 4; generalising lowered the loss (not monotone)
    ((2, 1), None, 4 / 8),
    # {20s,M} a b, {20s,F} a b tied (2 + 2), {30s,M} a a (0), {30s,F} b c tied (2)
    ((1, 0), None, 6 / 8),
    # ... with {30s,F} (the last class, 2 records) suppressed: 0.5 each, lower than released
    ((1, 0), lambda t: np.arange(t.n_groups) != t.n_groups - 1, (2 + 2 + 0 + 0.5 * 2) / 8),
    # singletons: each its own majority
    ((0, 0), None, 0.0),
    ((0, 0), lambda t: np.zeros(t.n_groups, dtype=bool), 8 * 0.5 / 8),
])
def test_hand_values(node: tuple, kept_of, want: float) -> None:  # noqa: ANN001
    data, hs = _hand()
    assert _value(data, hs, ["dx"], node, kept_of) == pytest.approx(want, rel=1e-15)


def test_two_responses_and_a_missing_response() -> None:
    """R response variables: each adds its penalties, a suppressed record costs 0.5 per variable;
    a missing response is one more value (as ARX's empty cell)."""
    data, hs = _hand()
    data = data.assign(z=["u"] * 8, w=["u", None, "u", None, "u", "u", "u", "u"])
    supp = lambda t: np.arange(t.n_groups) != t.n_groups - 1  # noqa: E731
    assert _value(data, hs, ["dx", "z"], (1, 0), supp) == pytest.approx((4 + 0 + 0.5 * 2 * 2) / 8)
    # w at (1, 1): {20s} u None u None tied -> 4; {30s} all u -> 0
    assert _value(data, hs, ["w"], (1, 1)) == pytest.approx(4 / 8)


@pytest.mark.parametrize("gs, want", [
    (0.5, (0.5, 1.0, 1.0)), (0.0, (0.0, 1.0, 0.0)), (1.0, (1.0, 0.0, 1.0)), (0.2, (0.2, 1.0, 0.4)),
    (0.8, (0.8, 0.4, 1.0)),
])
def test_arx_penalties_from_its_gs_factor(gs: float, want: tuple) -> None:
    assert classification_penalties(gs) == pytest.approx(want, rel=1e-15)


# --------------------------------------------------------------------------- brute force


def _brute(data: pd.DataFrame, tabs: dict[str, np.ndarray], response: list[str], node: tuple, k: int,
           gs: float) -> tuple[float, int]:
    """The metric from its definition, classes below k suppressed: (loss, records suppressed)."""
    pen_s, pen_i, pen_n = gs, min(1.0, 2.0 - 2.0 * gs), min(1.0, 2.0 * gs)
    keys = [tuple({r[0]: r[lev] for r in tabs[q]}[v] for q, lev, v in zip(tabs, node, row))
            for row in data[list(tabs)].itertuples(index=False)]
    classes: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        classes.setdefault(key, []).append(i)
    total, supp = 0.0, 0
    for rows in classes.values():
        if len(rows) < k:
            supp += len(rows)
            total += len(rows) * len(response) * pen_s
            continue
        for r in response:
            freq = sorted(Counter("<na>" if pd.isna(data[r].iloc[i]) else data[r].iloc[i] for i in rows).values(),
                          reverse=True)
            majority = len(freq) == 1 or freq[0] > freq[1]
            total += (len(rows) - freq[0]) * pen_i if majority else len(rows) * pen_n
    return total / (max(pen_s, pen_i, pen_n) * len(data)), supp


def _random_problem(d: st.DataObject) -> tuple[pd.DataFrame, dict[str, Hierarchy], dict[str, np.ndarray], list[str]]:
    n = d.draw(st.integers(2, 16))
    ints = lambda hi: st.lists(st.integers(0, hi), min_size=n, max_size=n)  # noqa: E731
    y = d.draw(st.lists(st.sampled_from(["p", "q", "r", None]), min_size=n, max_size=n))
    data = pd.DataFrame({"a": [str(v) for v in d.draw(ints(5))], "b": [str(v) for v in d.draw(ints(2))],
                         "y": y, "z": [str(v) for v in d.draw(ints(1))]})
    ta = np.array([[str(v), str(v // 2), str(v // 4), "*"] for v in range(6)], dtype=object)
    tb = np.array([[str(v), "*"] for v in range(3)], dtype=object)
    response = d.draw(st.sampled_from([["y"], ["z"], ["y", "z"]]))
    return data, {"a": Hierarchy(ta, name="a"), "b": Hierarchy(tb, name="b")}, {"a": ta, "b": tb}, response


@settings(max_examples=scale.examples(60), deadline=None)
@given(st.data())
def test_every_node_against_the_definition(d: st.DataObject) -> None:
    data, hs, tabs, response = _random_problem(d)
    k = d.draw(st.integers(1, 3))
    gs = d.draw(st.sampled_from([0.5, 0.0, 0.2, 0.8, 1.0]))
    p = Problem.encode(data, hs, [], None, response)
    mt = MetricTables(p)
    for node in itertools.product(range(4), range(2)):
        t, _ = p.table_at(node)
        kept = t.counts >= k
        want, supp = _brute(data, tabs, response, node, k, gs)
        assert int(t.counts[~kept].sum()) == supp
        assert _classification(mt, t, kept, gs) == pytest.approx(want, rel=1e-12, abs=1e-15), node


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.data())
def test_search_finds_the_brute_force_optimum(d: st.DataObject) -> None:
    """The search (no metric pruning: the metric has no bound) finds the least loss among the
    nodes within the suppression limit, exhaustive or not."""
    data, hs, tabs, response = _random_problem(d)
    k = d.draw(st.integers(1, 3))
    limit = d.draw(st.sampled_from([0.0, 0.25, 1.0]))
    found = [loss for loss, supp in (_brute(data, tabs, response, node, k, 0.5)
                                     for node in itertools.product(range(4), range(2)))
             if supp <= math.floor(limit * len(data) + 1e-9)]
    if not found:
        with pytest.raises(ValueError):
            generalisation_search(data, hs, k=k, suppression_limit=limit, metric="classification", response=response)
        return
    best = min(found)
    for exhaustive in (False, True):
        r = generalisation_search(data, hs, k=k, suppression_limit=limit, metric="classification",
                                  response=response, exhaustive=exhaustive, runner_ups=0)
        assert r.loss == pytest.approx(best, rel=1e-12, abs=1e-15)
        assert r.response == tuple(response)


# --------------------------------------------------------------------------- ARX on adult

# ARX (master aacd487, built from its sources) run by validation/arx/ArxQuality.java
# ("classification" mode): adult, the seven quasi-identifiers CLS_QIS with ARX's hierarchies,
# occupation and salary-class insensitive, k = 5 and a suppression limit of 100 % (classes below 5
# suppressed), the lattice fixed to the one transformation; ARX's getHighestScore() of it.
# (response variables, gs factor, transformation, records suppressed, ARX's loss).
_NODES = [(0, 0, 0, 0, 0, 0, 0), (1, 2, 1, 1, 0, 2, 2), (0, 1, 0, 1, 1, 1, 1), (1, 4, 1, 2, 3, 2, 2),
          (0, 2, 1, 0, 1, 0, 0), (1, 3, 0, 2, 2, 1, 1)]
_SUPPRESSED = [13657, 86, 1825, 0, 3187, 213]
ARX_CLASSIFICATION = [
    *[(("salary-class",), 0.5, node, s, v) for node, s, v in zip(_NODES, _SUPPRESSED, [
        0.32340362044965104, 0.17863536900736027, 0.20272196803926093, 0.24892248524633642,
        0.21495590478086526, 0.2435017571779064])],
    *[(("salary-class", "occupation"), gs, node, s, v) for gs, values in [
        (0.5, [0.9211590743321462, 0.8917180558318433, 0.8865791393143938, 1.1150454213911543,
               0.8875074597175745, 0.9985080564949296]),
        (0.2, [0.5959352828062542, 0.8802400371328174, 0.8268815065314093, 1.1150454213911543,
               0.7911676944500029, 0.9776805251641147]),
        (0.8, [0.9653603872423406, 0.36987600291757755, 0.45063324713215325, 0.4460181685564617,
               0.5147404018301265, 0.42446787348319054])]
      for node, s, v in zip(_NODES, _SUPPRESSED, values)],
]
# ARX's own search (``classification-search`` mode, createClassificationMetric()): (k, limit,
# response variables, ARX's optimum, its loss).
ARX_CLASSIFICATION_OPTIMA = [
    (5, 0.04, ("salary-class",), (1, 2, 1, 1, 0, 2, 2), 0.17863536900736027),
    (5, 0.0, ("salary-class",), (1, 4, 1, 1, 0, 2, 2), 0.18447052582719972),
    (10, 0.1, ("salary-class", "occupation"), (0, 3, 1, 1, 0, 2, 0), 0.8515018897951151),
]


@pytest.fixture(scope="module")
def adult_problem() -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    data = pd.read_csv(ADULT, sep=";", dtype=str)
    return data, {c: as_hierarchy(str(ADULT.parent / f"adult_hierarchy_{c}.csv"), name=c) for c in CLS_QIS}


@needs_adult
@pytest.mark.parametrize("response, gs, node, suppressed, want", ARX_CLASSIFICATION)
def test_arx_values_on_adult(adult_problem: tuple, response: tuple, gs: float, node: tuple, suppressed: int,
                             want: float) -> None:
    """sdc's value is ARX's to 1e-9 relative (about 1e-13 seen: the order of ARX's sum)."""
    data, hs = adult_problem
    p = Problem.encode(data, hs, [], None, list(response))
    t, _ = p.table_at(node)
    kept = t.counts >= 5
    if node != (1, 4, 1, 2, 3, 2, 2):  # ARX's isOutlier counts every row of the top node
        assert int(t.counts[~kept].sum()) == suppressed
    assert _classification(MetricTables(p), t, kept, gs) == pytest.approx(want, rel=1e-9)


@needs_adult
@pytest.mark.parametrize("k, limit, response, node, want", ARX_CLASSIFICATION_OPTIMA)
def test_arx_optima_on_adult(adult_problem: tuple, k: int, limit: float, response: tuple, node: tuple,
                             want: float) -> None:
    data, hs = adult_problem
    r = generalisation_search(data, hs, k=k, suppression_limit=limit, metric="classification", response=list(response))
    assert tuple(r.levels[q] for q in CLS_QIS) == node
    assert r.loss == pytest.approx(want, rel=1e-9)


@pytest.fixture(scope="module")
def arx_harness(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    cp = os.environ.get("SDC_ARX_CLASSPATH", "")
    reason = ("ARX is not built: set SDC_ARX_CLASSPATH (see validation/arx/README.md)" if not cp else
              "java/javac are not on PATH" if shutil.which("javac") is None else "")
    if not reason and not ADULT.exists():
        reason = f"the adult extract is not at {ADULT}"
    if reason:
        if os.environ.get("SDC_REQUIRE_ARX", "") not in ("", "0"):
            pytest.fail(f"{reason} (required here: SDC_REQUIRE_ARX=1)", pytrace=False)
        pytest.skip(reason)
    build = tmp_path_factory.mktemp("arx-quality")
    done = subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", cp, str(HARNESS)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    return ["java", "-cp", f"{cp}{os.pathsep}{build}", "ArxQuality"]


def _arx_lines(cmd: list[str], *args: str) -> list[list[str]]:
    out = subprocess.run([*cmd, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-500:]
    return [line.split("\t") for line in out.stdout.splitlines() if "\t" in line]


@pytest.mark.arx
@pytest.mark.parametrize("gs, response", [(0.5, ("salary-class",)), (0.2, ("salary-class", "occupation"))])
def test_arx_live_values(arx_harness: list[str], adult_problem: tuple, gs: float, response: tuple) -> None:
    """ARX computes the loss of six transformations (five with suppression); sdc's is the same to 1e-9."""
    lines = _arx_lines(arx_harness, "classification", "5", repr(gs), ",".join(response),
                       *[",".join(map(str, n)) for n in _NODES])
    assert len(lines) == len(_NODES)
    data, hs = adult_problem
    p = Problem.encode(data, hs, [], None, list(response))
    mt = MetricTables(p)
    for node, (_, levels, _s, value) in zip(_NODES, lines):
        assert levels == str(list(node))
        t, _ = p.table_at(node)
        assert _classification(mt, t, t.counts >= 5, gs) == pytest.approx(float(value), rel=1e-9)


@pytest.mark.arx
def test_arx_live_optimum(arx_harness: list[str], adult_problem: tuple) -> None:
    k, limit, response, node, _ = ARX_CLASSIFICATION_OPTIMA[0]
    [(_, levels, _s, value)] = _arx_lines(arx_harness, "classification-search", str(k), repr(limit), ",".join(response))
    data, hs = adult_problem
    r = generalisation_search(data, hs, k=k, suppression_limit=limit, metric="classification", response=list(response))
    assert levels == str([r.levels[q] for q in CLS_QIS]) == str(list(node))
    assert r.loss == pytest.approx(float(value), rel=1e-9)


# --------------------------------------------------------------------------- options and bad input


@pytest.mark.parametrize("kwargs, words", [
    ({"metric": "classification"}, 'metric "classification" needs `response`'),
    ({"metric": "classification", "response": "age"}, "response variable 'age' is a quasi-identifier"),
    ({"metric": "classification", "response": "dxx"}, "`response` names columns not in the data: 'dxx' (did you mean 'dx'?)"),
    ({"metric": "loss", "response": "dx"}, '`response` is read by metric="classification" only'),
])
def test_bad_input_is_one_line(kwargs: dict, words: str) -> None:
    data, hs = _hand()
    with pytest.raises(ValueError) as e:
        generalisation_search(data, hs, k=2, **kwargs)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_config_and_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data = tmp_path / "d.csv"
    data.write_text("age,sex,y\n" + "".join(f"{20 + i % 30},{'fm'[i % 2]},{'ab'[i % 3 == 0]}\n" for i in range(60)),
                    encoding="utf-8")
    cfg = tmp_path / "s.toml"
    head = '[keys]\nage = { intervals = [10, 20] }\nsex = { prefix = true }\n[models]\nk = 4\n[search]\nmetric = "classification"\n'
    cfg.write_text(head + 'response = ["y"]\n', encoding="utf-8")
    bare = tmp_path / "b.toml"
    bare.write_text(head, encoding="utf-8")
    status, a, err = run_cli(capsys, "search", str(data), "--config", str(cfg), "--out", str(tmp_path / "a"), "--json")
    assert status == 0, err
    status, b, err = run_cli(capsys, "search", str(data), "--config", str(bare), "--response", "y",
                             "--out", str(tmp_path / "b"), "--json")
    assert status == 0, err
    ja, jb = json.loads(a), json.loads(b)
    assert (ja["levels"], ja["loss"]) == (jb["levels"], jb["loss"]) and ja["response"] == "y"
    status, _, err = run_cli(capsys, "search", str(data), "--config", str(bare), "--out", str(tmp_path / "c"))
    assert status != 0 and 'metric "classification" needs `response`' in err and "Traceback" not in err
    with pytest.raises(ConfigError, match=r"^config \[search\]\.response"):
        search_config_from_mapping({"keys": {"a": "a.csv"}, "search": {"response": 3}})
