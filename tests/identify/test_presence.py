"""delta-presence and k-map with a research subset (sdc.identify.presence; ARX's DPresence and
KMap(k, DataSubset)): hand-computed cases on their exact boundaries, a brute force from the
definitions over every transformation of random small lattices, ARX's optima on adult with a
seeded subset of our own (recorded here, and live with the `arx` marker through
validation/arx/ArxSubset.java), the arguments' one-line errors, and `sdc search`'s config."""

from __future__ import annotations

import itertools
import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.identify.hierarchy import Hierarchy
from sdc.identify.search import generalisation_search
from tests import scale

H_A = pd.DataFrame([["x", "xy", "*"], ["y", "xy", "*"], ["z", "z", "*"]])


def _pop() -> pd.DataFrame:
    # x: 2 records, y: 3, z: 1 (the population); level 1 merges x and y
    return pd.DataFrame({"a": ["x", "x", "y", "y", "y", "z"]})


# ----------------------------------------------------------------------------- by hand

def test_delta_presence_by_hand() -> None:
    """Subset rows 0, 2, 5: delta(x) = 1/2, delta(y) = 1/3, delta(z) = 1; at level 1 delta(xy) = 2/5,
    delta(z) = 1; at the top 3/6. With dmax 0.6 and no suppression only the top meets it; with
    one record suppressed (limit 1/3 of the 3 subset records: floor(1) = 1), level 0 does, z
    suppressed."""
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2, 5], delta_presence=(0.2, 0.6),
                              suppression_limit=0, metric="discernibility")
    assert r.levels == {"a": 2} and r.loss == 9.0 and r.research_subset == 3 and r.population_records == 6
    assert list(r.data.index) == [0, 2, 5] and list(r.data["a"]) == ["*"] * 3
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2, 5], delta_presence=(0.2, 0.6),
                              suppression_limit=1 / 3, metric="discernibility")
    assert r.levels == {"a": 0} and r.suppressed == 1 and r.loss == 1 + 1 + 3 * 1
    assert r.data["a"].isna().tolist() == [False, False, True]


@pytest.mark.parametrize("dmin, dmax, meets", [
    (0.5, 0.5, True),        # delta = 1/2 exactly on both bounds
    (0.5 + 1e-6, 1, False),  # dmin just above it
    (0, 0.5 - 1e-6, False),  # dmax just below it
])
def test_delta_on_its_bounds(dmin: float, dmax: float, meets: bool) -> None:
    """Population x x y y, subset rows 0 and 2: every class of every node has delta = 1/2."""
    pop = pd.DataFrame({"a": ["x", "x", "y", "y"]})
    h = pd.DataFrame([["x", "*"], ["y", "*"]])
    kw = dict(research_subset=[0, 2], delta_presence=(dmin, dmax), suppression_limit=0)
    if meets:
        r = generalisation_search(pop, {"a": h}, **kw)
        assert r.levels == {"a": 0} and r.suppressed == 0 and r.loss == 2.0
    else:
        with pytest.raises(ValueError, match="no transformation meets"):
            generalisation_search(pop, {"a": h}, **kw)


def test_a_population_class_without_subset_records() -> None:
    """dmin > 0: a class of the population with no subset record has delta 0 and cannot be
    suppressed, so the node fails (ARX's HashGroupify); dmin = 0: it meets the model."""
    pop = pd.DataFrame({"a": ["x", "x", "y", "z"]})
    h = pd.DataFrame([["x", "xy", "*"], ["y", "xy", "*"], ["z", "z", "*"]])
    lat = generalisation_search(pop, {"a": h}, research_subset=[0, 2], delta_presence=(0.1, 1),
                                suppression_limit=1, exhaustive=True).lattice
    assert lat["status"].tolist() == ["not anonymous", "not anonymous", "anonymous"]  # z has no subset record
    r = generalisation_search(pop, {"a": h}, research_subset=[0, 2], delta_presence=(0, 1), suppression_limit=0)
    assert r.levels == {"a": 0}


def test_k_map_by_hand_on_its_bound() -> None:
    """k-map with the population: the subset's classes need k population records. x has 2, y 3:
    k = 3 keeps y (|E| = k), suppresses x; k = 2 keeps both (|E| = k for x); z has no subset
    record and needs nothing."""
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2], k_map=2, suppression_limit=0)
    assert r.levels == {"a": 0} and r.suppressed == 0 and r.achieved["k"] == 1  # 1 subset record per class
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2], k_map=3, suppression_limit=0.5)
    assert r.levels == {"a": 0} and r.suppressed == 1 and r.data["a"].tolist()[1] == "y"
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2], k_map=3, suppression_limit=0)
    assert r.levels == {"a": 1}  # xy: 5 >= 3
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2], k_map=6, suppression_limit=0)
    assert r.levels == {"a": 2}  # the top: 6 = k


def test_a_boolean_mask_and_an_index_select_the_same_subset() -> None:
    pop = _pop().set_axis(list("abcdef"))
    by_rows = generalisation_search(pop, {"a": H_A}, research_subset=[0, 2, 5], delta_presence=(0.2, 0.6))
    by_mask = generalisation_search(pop, {"a": H_A}, research_subset=np.isin(np.arange(6), [0, 2, 5]),
                                    delta_presence=(0.2, 0.6))
    by_index = generalisation_search(pop, {"a": H_A}, research_subset=pd.Index(["a", "c", "f"]),
                                     delta_presence=(0.2, 0.6))
    for r in (by_mask, by_index):
        assert r.levels == by_rows.levels and r.loss == by_rows.loss and r.data.equals(by_rows.data)
    assert by_rows.models["delta_presence"] == [0.2, 0.6] and by_rows.models["research_subset"] == 3
    s = by_rows.summary().set_index("statistic")
    assert s.loc["research_subset", "value"] == 3


@pytest.mark.parametrize("kwargs, message", [
    (dict(research_subset=[0, 6], delta_presence=(0, 1)), "`research_subset` row 6 is out of range: the data has 6 records"),
    (dict(research_subset=[-1], delta_presence=(0, 1)), "`research_subset` row -1 is out of range"),
    (dict(research_subset=[], delta_presence=(0, 1)), "`research_subset` is empty"),
    (dict(research_subset=[1, 1], delta_presence=(0, 1)), "`research_subset` lists row 1 more than once"),
    (dict(research_subset=[0], delta_presence=(0.6, 0.2)), "`delta_presence` dmin 0.6 is above dmax 0.2"),
    (dict(research_subset=[0], delta_presence=(0, 1.5)), "`delta_presence dmax` must lie in [0, 1]"),
    (dict(delta_presence=(0, 1)), "`delta_presence` needs `research_subset`"),
    (dict(research_subset=[0], k=2), "`research_subset` needs `delta_presence` or `k_map`"),
    (dict(research_subset=[True, False], delta_presence=(0, 1)), "one value per record (6); got 2"),
    (dict(research_subset=pd.Index(["q"]), delta_presence=(0, 1)), "names the label 'q'"),
])
def test_bad_arguments_one_line(kwargs: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError)) as e:
        generalisation_search(_pop(), {"a": H_A}, **kwargs)
    assert message in str(e.value) and "\n" not in str(e.value)


# ----------------------------------------------------------------------------- brute force

def _brute(pop: pd.DataFrame, hs: dict[str, Hierarchy], rows: np.ndarray, presence, kmap, k, limit: float):  # noqa: ANN001
    """Every node from the definitions: the population's classes by pandas, delta and |E| per
    class, failing subset classes suppressed, DM of the subset; the best (DM, height, levels)."""
    insub = np.zeros(len(pop), dtype=bool)
    insub[rows] = True
    n_s = int(insub.sum())
    cap = math.floor(limit * n_s + 1e-9)
    best = None
    tops = [h.n_levels - 1 for h in hs.values()]
    for levels in itertools.product(*[range(t + 1) for t in tops]):
        lab = {}
        for (q, h), lev in zip(hs.items(), levels):
            m = dict(zip(h.table[:, 0], h.table[:, lev]))
            lab[q] = pop[q].astype(str).map(m)
        g = pd.DataFrame(lab).assign(_s=insub).groupby(list(hs), sort=False)["_s"].agg(["size", "sum"])
        p, s = g["size"].to_numpy(), g["sum"].to_numpy()
        ok = np.ones(len(g), dtype=bool)
        blocked = False
        if presence is not None:
            d = s / p
            ok &= (d >= presence[0] - 1e-12) & (d <= presence[1] + 1e-12)
            blocked = presence[0] > 0 and bool((s == 0).any())
        if kmap is not None:
            ok &= p >= kmap
        if k is not None:
            ok &= s >= k
        ok |= s == 0  # nothing of the subset to suppress
        out = int(s[~ok].sum())
        if blocked or out > cap:
            continue
        dm = float((s[ok] ** 2).sum() + n_s * out)
        key = (dm, sum(levels), levels)
        best = key if best is None or key < best else best
    return best


def _lattice_case(seed: int):  # noqa: ANN202
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 60))
    hs, cols = {}, {}
    for j in range(int(rng.integers(1, 4))):
        m = int(rng.integers(2, 6))
        vals = [f"v{j}{i}" for i in range(m)]
        mid = [f"g{j}{i % 2}" for i in range(m)]
        table = np.array([[v, g, "*"] for v, g in zip(vals, mid)], dtype=object)
        if rng.random() < 0.4:
            table = table[:, [0, 2]]
        hs[f"q{j}"] = Hierarchy(table, name=f"q{j}")
        cols[f"q{j}"] = rng.choice(vals, n)
    pop = pd.DataFrame(cols)
    rows = np.flatnonzero(rng.random(n) < rng.uniform(0.2, 0.8))
    if rows.size == 0:
        rows = np.array([0])
    return pop, hs, rows


@given(seed=st.integers(0, 10 ** 6), which=st.sampled_from(["presence", "kmap", "both", "presence+k"]),
       dmin=st.sampled_from([0.0, 0.1, 0.25, 1 / 3]), width=st.sampled_from([0.3, 0.5, 1.0]),
       kmap=st.integers(1, 8), limit=st.sampled_from([0.0, 0.1, 0.3]), exhaustive=st.booleans())
@settings(max_examples=scale.examples(120), deadline=None)
def test_search_against_brute_force(seed: int, which: str, dmin: float, width: float, kmap: int, limit: float,
                                    exhaustive: bool) -> None:
    """The optimum (DM, then height, then levels) of the pruned and the exhaustive search is the
    brute force's over every node, or both find none."""
    pop, hs, rows = _lattice_case(seed)
    presence = (dmin, min(1.0, dmin + width)) if which != "kmap" else None
    km = kmap if which in ("kmap", "both") else None
    k = 2 if which == "presence+k" else None
    want = _brute(pop, hs, rows, presence, km, k, limit)
    kw = dict(delta_presence=presence) if presence else {}
    try:
        r = generalisation_search(pop, hs, research_subset=rows, k_map=km, k=k, suppression_limit=limit,
                                  metric="discernibility", exhaustive=exhaustive, runner_ups=0, **kw)
    except ValueError as e:
        assert want is None, f"sdc found nothing ({e}), the brute force {want}"
        return
    assert want is not None
    assert (r.loss, tuple(r.levels.values())) == (want[0], want[2])
    assert r.n_records == len(rows) and len(r.data) == len(rows)


# ----------------------------------------------------------------------------- ARX on adult

ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
EIGHT = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
HARNESS = Path(__file__).resolve().parents[2] / "validation" / "arx" / "ArxSubset.java"

# ARX (master aacd487, built from its sources) on adult, the eight quasi-identifiers of its
# TestAnonymizationDPresence (occupation insensitive), the research subset _subset_rows()
# (10 % of the rows, numpy seed 30), run by validation/arx/ArxSubset.java: its optimum and score.
ARX_SUBSET_OPTIMA = [
    ("dpresence", (0.0, 0.2), 0.0, "avg_class_size", (1, 0, 1, 2, 3, 2, 2, 1), 45.014925373134325),
    ("dpresence", (0.05, 0.15), 0.04, "nue", (1, 4, 1, 1, 0, 2, 2, 1), 33213.5328409671),
    ("dpresence", (0.05, 0.15), 0.0, "discernibility", (0, 4, 1, 1, 1, 2, 2, 1), 1004860.0),
    ("dpresence", (0.0, 0.2), 0.04, "loss", (0, 3, 0, 1, 3, 1, 0, 0), 0.23031461031534084),
    ("kmap", 5, 0.0, "avg_class_size", (0, 0, 1, 2, 3, 2, 2, 1), 24.322580645161292),
    ("kmap", 20, 0.04, "nue", (1, 0, 1, 1, 2, 2, 2, 1), 22473.308045524),
    ("kmap", 3, 0.0, "loss", (0, 3, 0, 1, 3, 2, 2, 0), 0.386358209869498),
    ("kmap", 10, 0.04, "discernibility", (0, 0, 1, 2, 3, 2, 2, 0), 116457.0),
]


def _subset_rows(n: int) -> np.ndarray:
    return np.sort(np.random.default_rng(30).choice(n, size=n // 10, replace=False))


@pytest.fixture(scope="module")
def adult() -> pd.DataFrame:
    if not ADULT.exists():
        pytest.skip(f"ARX's adult.csv is not at {ADULT} (set SDC_ARX_ADULT)")
    return pd.read_csv(ADULT, sep=";", dtype=str)


def _sdc(adult: pd.DataFrame, model: str, param, limit: float, metric: str):  # noqa: ANN001, ANN202
    kw = dict(delta_presence=param) if model == "dpresence" else dict(k_map=param)
    hs = {c: str(ADULT.parent / f"adult_hierarchy_{c}.csv") for c in EIGHT}
    return generalisation_search(adult, hs, research_subset=_subset_rows(len(adult)), suppression_limit=limit,
                                 metric=metric, runner_ups=0, **kw)


@pytest.mark.parametrize("model, param, limit, metric, node, loss", ARX_SUBSET_OPTIMA)
def test_arx_optima_with_a_research_subset(adult: pd.DataFrame, model: str, param, limit: float, metric: str,  # noqa: ANN001
                                           node: tuple, loss: float) -> None:
    r = _sdc(adult, model, param, limit, metric)
    assert tuple(r.levels[c] for c in EIGHT) == node
    assert r.loss == pytest.approx(loss, rel=1e-12, abs=0)
    assert r.research_subset == 3016 and r.population_records == len(adult)


@pytest.mark.arx
@pytest.mark.parametrize("model, param, limit, metric, node, loss", ARX_SUBSET_OPTIMA)
def test_arx_live_with_a_research_subset(adult: pd.DataFrame, tmp_path: Path, model: str, param, limit: float,  # noqa: ANN001
                                         metric: str, node: tuple, loss: float) -> None:
    """ARX itself, run now: its optimum and score equal the recorded ones and sdc's."""
    cp = os.environ.get("SDC_ARX_CLASSPATH", "")
    if not cp or shutil.which("javac") is None:
        if os.environ.get("SDC_REQUIRE_ARX", "") not in ("", "0"):
            pytest.fail("ARX is not built: set SDC_ARX_CLASSPATH", pytrace=False)
        pytest.skip("ARX is not built: set SDC_ARX_CLASSPATH (see validation/arx/README.md)")
    build = tmp_path / "h"
    done = subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", cp, str(HARNESS)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    rows = tmp_path / "rows.csv"
    rows.write_text("".join(f"{i}\n" for i in _subset_rows(len(adult))))
    params = [repr(p) for p in param] if model == "dpresence" else [str(param)]
    out = subprocess.run(["java", "-cp", f"{cp}{os.pathsep}{build}", "ArxSubset", str(rows), model, *params, repr(limit),
                          metric], capture_output=True, text=True, env={**os.environ, "SDC_ARX_ADULT": str(ADULT)})
    assert out.returncode == 0, out.stderr[-500:]
    levels, high, _ = out.stdout.strip().splitlines()[-1].split("\t")
    assert tuple(int(x) for x in levels.strip("[]").split(",")) == node and float(high) == loss
    r = _sdc(adult, model, param, limit, metric)
    assert tuple(r.levels[c] for c in EIGHT) == node and r.loss == pytest.approx(float(high), rel=1e-12, abs=0)


# ----------------------------------------------------------------------------- ARX's published JUnit optima

# TestAnonymizationDPresence.java:53-64 and TestAnonymizationKMap.java:57-68 (master aacd487):
# adult, occupation sensitive (so not a quasi-identifier), ARX's adult_subset.csv as the
# research subset; the metric's name in sdc (ARX's AECS; createPrecomputedEntropyMetric(0.1,
# true / false): the monotonic / non-monotonic NUE), the limit, the model, ARX's loss and optimum.
ARX_JUNIT = [
    ("avg_class_size", 0.0, (0.0, 0.2), None, 52.0, (1, 4, 1, 1, 0, 2, 2, 0)),
    ("nue_monotonic", 0.0, (0.0, 0.2), None, 30238.2081484441, (0, 1, 1, 2, 3, 2, 2, 0)),
    ("nue", 0.0, (0.0, 0.2), None, 30238.2081484441, (0, 1, 1, 2, 3, 2, 2, 0)),
    ("avg_class_size", 0.05, (0.0, 0.2), None, 8.02127659574468, (0, 0, 1, 2, 1, 2, 2, 1)),
    ("nue_monotonic", 0.05, (0.0, 0.2), None, 19804.2887675027, (1, 0, 1, 1, 2, 2, 2, 0)),
    ("nue", 0.05, (0.0, 0.2), None, 20747.362350403302, (1, 0, 1, 1, 2, 2, 2, 0)),
    ("avg_class_size", 0.0, (0.05, 0.15), None, 150.8, (0, 4, 0, 1, 3, 2, 2, 1)),
    ("nue_monotonic", 0.0, (0.05, 0.15), None, 37223.2491248282, (1, 4, 1, 1, 1, 2, 2, 1)),
    ("nue", 0.0, (0.05, 0.15), None, 37223.2491248282, (1, 4, 1, 1, 1, 2, 2, 1)),
    ("avg_class_size", 0.05, (0.05, 0.15), None, 97.29032258064517, (1, 4, 1, 1, 0, 2, 2, 1)),
    ("nue_monotonic", 0.05, (0.05, 0.15), None, 33649.9118226187, (1, 4, 1, 1, 0, 2, 2, 1)),
    ("nue", 0.05, (0.05, 0.15), None, 33660.3063277646, (1, 4, 1, 1, 0, 2, 2, 1)),
    ("avg_class_size", 0.0, None, 5, 45.014925373134325, (1, 0, 1, 2, 3, 2, 2, 1)),
    ("nue_monotonic", 0.0, None, 3, 23387.494246375998, (0, 0, 1, 2, 3, 2, 2, 0)),
    ("nue", 0.0, None, 5, 28551.7222913157, (1, 0, 1, 2, 3, 2, 2, 1)),
    ("avg_class_size", 0.05, None, 20, 11.424242424242424, (1, 0, 1, 1, 3, 2, 1, 0)),
    ("nue_monotonic", 0.05, None, 7, 17075.7181747451, (0, 0, 1, 1, 2, 2, 2, 0)),
    ("nue", 0.05, None, 3, 15121.633326877098, (0, 0, 1, 1, 1, 2, 1, 0)),
    ("nue_monotonic", 0.0, None, 2, 23108.1673304724, (1, 0, 1, 1, 3, 2, 2, 0)),
    ("nue", 0.0, None, 10, 30238.2081484441, (0, 1, 1, 2, 3, 2, 2, 0)),
    ("avg_class_size", 0.05, None, 10, 7.215311004784689, (0, 0, 1, 1, 3, 2, 1, 0)),
    ("nue_monotonic", 0.05, None, 5, 17053.8743069776, (0, 0, 1, 0, 2, 2, 2, 1)),
]


def arx_subset_rows(population: pd.DataFrame, subset: pd.DataFrame) -> np.ndarray:
    """The rows of `population` that ARX's ``DataSubset.create(data, subset)`` selects: each
    subset record matched to the first population record equal to it in every column not yet
    taken."""
    cols = list(population.columns)
    p = population.reset_index(drop=True).assign(_n=lambda d: d.groupby(cols, sort=False).cumcount(),
                                                 _row=lambda d: np.arange(len(d)))
    s = subset[cols].assign(_n=lambda d: d.groupby(cols, sort=False).cumcount())
    m = s.merge(p, on=[*cols, "_n"], how="left")
    assert m["_row"].notna().all(), "a subset record has no match in the population"
    return np.sort(m["_row"].to_numpy(dtype=np.int64))


@pytest.mark.parametrize("metric, limit, presence, kmap, loss, node", ARX_JUNIT)
def test_arx_published_optima_with_its_subset(adult: pd.DataFrame, metric: str, limit: float, presence, kmap,  # noqa: ANN001
                                              loss: float, node: tuple) -> None:
    """ARX's own research subset (not shipped: SDC_ARX_SUBSET=/path/to/adult_subset.csv)."""
    path = os.environ.get("SDC_ARX_SUBSET", "")
    if not path or not Path(path).exists():
        pytest.skip("ARX's adult_subset.csv is not given (set SDC_ARX_SUBSET)")
    rows = arx_subset_rows(adult, pd.read_csv(path, sep=";", dtype=str))
    hs = {c: str(ADULT.parent / f"adult_hierarchy_{c}.csv") for c in EIGHT}
    kw = dict(delta_presence=presence) if presence else dict(k_map=kmap)
    r = generalisation_search(adult, hs, research_subset=rows, suppression_limit=limit, metric=metric, runner_ups=0, **kw)
    assert tuple(r.levels[c] for c in EIGHT) == node
    assert r.loss == pytest.approx(loss, rel=1e-12, abs=0)


# ----------------------------------------------------------------------------- sdc search

def _cli_setup(tmp_path: Path) -> tuple[Path, Path]:
    pop = pd.DataFrame({"a": ["x", "x", "y", "y", "y", "z"] * 3, "other": range(18)})
    pop.to_csv(tmp_path / "pop.csv", index=False)
    H_A.to_csv(tmp_path / "a.csv", sep=";", header=False, index=False)
    (tmp_path / "rows.csv").write_text("0\n2\n5\n\n6\n8\n11\n", encoding="utf-8")
    cfg = tmp_path / "search.toml"
    cfg.write_text('[keys]\na = "a.csv"\n[models]\ndelta_presence_min = 0.2\ndelta_presence_max = 0.6\n'
                   '[search]\nresearch_subset = "rows.csv"\nsuppression_limit = 0\n', encoding="utf-8")
    return tmp_path / "pop.csv", cfg


def test_cli_search_with_a_research_subset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The config's rows file (relative to it) selects the subset; the release is the subset's 6
    rows; search.json and search.md say the subset's size; --k-map and --research-subset as flags."""
    import json

    from sdc.cli.main import main

    data, cfg = _cli_setup(tmp_path)
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out)]) == 0
    assert "Optimum: a=2" in capsys.readouterr().out
    doc = json.loads((out / "search.json").read_text(encoding="utf-8"))
    assert doc["records"] == 6 and doc["research_subset"] == {"records": 6, "population_records": 18}
    assert "research subset of the population's 18" in (out / "search.md").read_text(encoding="utf-8")
    released = pd.read_csv(out / "released.csv")
    assert released["other"].tolist() == [0, 2, 5, 6, 8, 11] and set(released["a"]) == {"*"}
    cfg.write_text('[keys]\na = "a.csv"\n', encoding="utf-8")
    rows = tmp_path / "rows.csv"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(tmp_path / "o2"), "--k-map", "3",
                 "--research-subset", str(rows), "--suppression-limit", "0"]) == 0
    assert "Optimum: a=0" in capsys.readouterr().out  # x: 6, y: 9, z: 3 population records, each >= 3


@pytest.mark.parametrize("body, match", [
    ('[search]\nresearch_subset = "rows.csv"\n[models]\ndelta_presence_max = 0.5\n', None),
    ('[search]\nresearch_subset = "bad.csv"\n[models]\ndelta_presence_max = 0.5\n',
     "config [search].research_subset: line 2 of bad.csv is not a 0-based row number; got '1.5'."),
    ('[search]\nresearch_subset = "none.csv"\n[models]\ndelta_presence_max = 0.5\n', "config [search].research_subset: no file"),
    ('[search]\nresearch_subset = "far.csv"\n[models]\ndelta_presence_max = 0.5\n',
     "`research_subset` row 99 is out of range: the data has 18 records (rows 0 to 17)."),
    ('[models]\ndelta_presence_min = 0.7\ndelta_presence_max = 0.5\n[search]\nresearch_subset = "rows.csv"\n',
     "`delta_presence` dmin 0.7 is above dmax 0.5; give dmin <= dmax."),
    ('[models]\ndelta_presence_min = 2\n', "config [models].delta_presence_min must be a number in [0, 1]; got 2."),
])
def test_cli_subset_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, match: str | None) -> None:
    from sdc.cli.main import main

    data, cfg = _cli_setup(tmp_path)
    (tmp_path / "bad.csv").write_text("0\n1.5\n", encoding="utf-8")
    (tmp_path / "far.csv").write_text("0\n99\n", encoding="utf-8")
    cfg.write_text('[keys]\na = "a.csv"\n' + body, encoding="utf-8")
    code = main(["search", str(data), "--config", str(cfg), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    if match is None:
        assert code == 0
        return
    assert code == 2 and err.startswith("sdc: error: ") and match in err and err.count("\n") == 1


# ----------------------------------------------------------------------------- the measure

def test_delta_presence_measure_by_hand() -> None:
    """sdc.delta_presence: x 1/2, y 1/3, z 1 for subset rows 0, 2, 5 of x x y y y z; k-map 1 (z)."""
    import sdc

    r = sdc.delta_presence(_pop(), [0, 2, 5], "a", dmin=1 / 3, dmax=1)
    assert (r.n_population, r.n_subset, r.n_classes, r.n_classes_with_subset, r.k_map) == (6, 3, 3, 3, 1)
    assert r.min_delta == 1 / 3 and r.max_delta == 1.0 and r.meets is True  # 1/3 and 1 on the bounds
    f = r.to_frame()
    assert f["a"].tolist() == ["x", "y", "z"] and f["population"].tolist() == [2, 3, 1]
    assert f["subset"].tolist() == [1, 1, 1] and f["delta"].tolist() == [0.5, 1 / 3, 1.0]
    assert sdc.delta_presence(_pop(), [0, 2, 5], "a", dmax=0.99).meets is False
    s = r.summary().set_index("statistic")
    assert s.loc["k_map", "value"] == 1
    with pytest.raises(ValueError, match="`dmin` 0.5 is above `dmax` 0.2"):
        sdc.delta_presence(_pop(), [0], "a", dmin=0.5, dmax=0.2)
    with pytest.raises(ValueError, match="`subset` row 9 is out of range"):
        sdc.delta_presence(_pop(), [9], "a")


@given(seed=st.integers(0, 10 ** 6))
@settings(max_examples=scale.examples(40), deadline=None)
def test_the_search_release_is_delta_present(seed: int) -> None:
    """The search's optimum, measured on the generalised population by sdc.delta_presence: every
    class holding released subset records lies within the bounds and has >= k population records."""
    import sdc

    pop, hs, rows = _lattice_case(seed)
    try:
        r = generalisation_search(pop, hs, research_subset=rows, delta_presence=(0.1, 0.8), k_map=2,
                                  suppression_limit=0.3, runner_ups=0)
    except ValueError:
        return
    gen = pd.DataFrame({q: pop[q].map(dict(zip(h.table[:, 0], h.table[:, r.levels[q]]))) for q, h in hs.items()})
    kept = r.data.dropna().index  # the released subset rows (suppressed ones are missing)
    m = sdc.delta_presence(gen, pd.Index(kept), list(hs)).to_frame()
    held = m[m["subset"] > 0]
    assert ((held["delta"] >= 0.1 - 1e-12) & (held["delta"] <= 0.8 + 1e-12)).all() and (held["population"] >= 2).all()


def test_achieved_says_the_delta_range_and_the_k_map() -> None:
    r = generalisation_search(_pop(), {"a": H_A}, research_subset=[0, 2, 5], delta_presence=(0.2, 0.6),
                              suppression_limit=1 / 3)
    assert r.achieved["delta_presence"] == [1 / 3, 0.5] and r.achieved["k_map"] == 2  # x 1/2 of 2, y 1/3 of 3
