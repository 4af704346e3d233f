"""Local recoding in the search (ARX's local transformation, sdc.identify.local): a hand-computed
case, invariants by hypothesis (every class meets the models, every value a generalisation of
its own, loss never above the full-domain optimum's), bad settings in one line, and ARX's own
output on adult (recorded below; checked live in tests/identify/test_local_arx_live.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.cli.main import main
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.search import generalisation_search

ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
ALL = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation", "salary-class"]

# ----------------------------------------------------------------------------- by hand

X_H = Hierarchy(np.array([[str(v), "1-3" if v <= 3 else "4-6", "*"] for v in range(1, 7)], dtype=object), name="x")


def test_hand_case_loss() -> None:
    # x = 1,1,4,4,5,5,2,3; hierarchy 1..6 -> 1-3 / 4-6 -> *; k = 2, limit 100 %, Loss (share_0 = 1/6,
    # share_1 = 1/2, lo = n/6).
    # Full domain: level 0 suppresses x=2, x=3: L = 6/6 + 2 = 3 -> (3 - 8/6)/(8 - 8/6) = 0.25;
    #   level 1: L = 8/2 = 4 -> 0.4; level 2: 1.  Optimum level 0, 2 suppressed.
    # Step 1 on {2, 3} (n = 2, lo = 1/3): level 0 all suppressed -> 1; level 1 one class of 2,
    #   L = 1 -> (1 - 1/3)/(2 - 1/3) = 0.4; level 2 -> 1.  Level 1 releases both.
    # Local release: L = 6/6 + 2/2 = 2 -> (2 - 4/3)/(8 - 4/3) = 0.1; saving 0.15.
    data = pd.DataFrame({"x": [1, 1, 4, 4, 5, 5, 2, 3], "y": list("abcdefgh")})
    r = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="loss", local=True)
    loc = r.local
    assert r.levels == {"x": 0} and r.loss == pytest.approx(0.25, abs=1e-9)
    assert loc.steps[["step", "x", "residue", "released"]].values.tolist() == [[0, 0, 8, 6], [1, 1, 2, 2]]
    assert loc.record_step.tolist() == [0, 0, 0, 0, 0, 0, 1, 1]
    assert loc.levels["x"].tolist() == [0, 0, 0, 0, 0, 0, 1, 1]
    assert loc.loss_full == pytest.approx(0.25, abs=1e-9) and loc.loss == pytest.approx(0.1, abs=1e-9)
    assert loc.saving == pytest.approx(0.15, abs=1e-9) and loc.suppressed == 0 and loc.suppressed_full == 2
    assert r.data["x"].tolist() == ["1", "1", "4", "4", "5", "5", "1-3", "1-3"]
    assert r.data["y"].tolist() == list("abcdefgh") and r.suppressed == 0
    summ = dict(zip(loc.summary()["statistic"], loc.summary()["value"]))
    assert summ["steps"] == 2 and summ["mode"] == "optimizeIterative"
    # without local recoding: the same optimum, the two records suppressed
    plain = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="loss")
    assert plain.local is None and plain.data["x"].isna().sum() == 2


def test_hand_case_other_metrics() -> None:
    data = pd.DataFrame({"x": [1, 1, 4, 4, 5, 5, 2, 3]})
    # Precision: level 0 costs 0 per released record, a suppressed one 1: (0 + 2)/8 = 0.25; level 1
    # costs 1/2 each: 0.5.  Step 1: level 0 -> 1, level 1 -> 0.5.  Local: (6*0 + 2*0.5)/8 = 0.125.
    r = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="precision", local=True)
    assert r.local.loss_full == pytest.approx(0.25) and r.local.loss == pytest.approx(0.125)
    # AECS: level 0 three classes + the suppressed: 8/4 = 2 (level 1: 8/2 = 4); step 1 on 2 records:
    # level 0 2/1 = 2, level 1 2/1 = 2 -> tie, lower height: level 0 releases none; the loop stops.
    r = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="avg_class_size", local=True)
    assert r.local.loss_full == 2.0 and r.local.loss == 2.0 and len(r.local.steps) == 1
    # with r = 0.25 each step must release >= 2 records: step 1's limit 1 - 2/2 = 0 forces level 1
    r = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="avg_class_size", local=True,
                              local_records=0.25)
    assert r.local.steps["x"].tolist() == [0, 1] and r.local.loss == pytest.approx(8 / 4)


def test_step_needs_k_records_and_the_iteration_cap() -> None:
    data = pd.DataFrame({"x": [1, 1, 4, 4, 5, 5, 2, 3]})
    for n_steps in (1, 2):
        r = generalisation_search(data, {"x": X_H}, k=2, suppression_limit=1.0, metric="loss", local=True,
                                  local_iterations=n_steps)
        assert len(r.local.steps) == 2  # one step is enough
    # residue of 2 records, k = 3: no step (ARX's minimal group size)
    data3 = pd.DataFrame({"x": [1, 1, 1, 4, 4, 4, 5, 5, 5, 2, 6]})
    r = generalisation_search(data3, {"x": X_H}, k=3, suppression_limit=1.0, metric="loss", local=True)
    assert r.levels == {"x": 0} and len(r.local.steps) == 1 and r.local.suppressed == 2


@pytest.mark.parametrize("kwargs, words", [
    ({"local": "yes"}, "`local` must be True or False"),
    ({"local": True, "local_records": 0}, "`local_records` must be a share in ]0, 1]"),
    ({"local": True, "local_records": 1.5}, "`local_records` must be a share in ]0, 1]"),
    ({"local_records": 0.1}, "`local_records` needs `local=True`"),
    ({"local": True, "local_iterations": 0}, "`local_iterations` must be a whole number >= 1"),
    ({"local": True, "metric": "nue"}, "local recoding measures the metrics"),
    ({"local": True, "sample_uniques": 0.1}, "does not support sample or population uniqueness"),
    ({"local": True, "k": None, "k_map": 2, "research_subset": [0, 1, 2, 3]}, "does not support a research subset"),
])
def test_bad_settings_are_one_line(kwargs: dict, words: str) -> None:
    data = pd.DataFrame({"x": [1, 1, 4, 4, 5, 5, 2, 3]})
    kw = {"k": 2, "suppression_limit": 1.0, "metric": "loss", **kwargs}
    with pytest.raises((ValueError, TypeError)) as e:
        generalisation_search(data, {"x": X_H}, **kw)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_sdc_search_with_local_recoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pd.DataFrame({"x": [1, 1, 4, 4, 5, 5, 2, 3], "y": range(8)}).to_csv(tmp_path / "d.csv", index=False)
    (tmp_path / "hx.csv").write_text("".join(f"{v};{'1-3' if v <= 3 else '4-6'};*\n" for v in range(1, 7)))
    (tmp_path / "s.toml").write_text('[keys]\nx = "hx.csv"\n[models]\nk = 2\n[search]\nsuppression_limit = 1.0\n'
                                     'metric = "loss"\nlocal = true\nlocal_iterations = 5\n')
    args = ["search", str(tmp_path / "d.csv"), "--config", str(tmp_path / "s.toml"), "--out", str(tmp_path / "o")]
    assert main(args) == 0
    assert "Local recoding: 1 more step(s); loss 0.1" in capsys.readouterr().out
    assert pd.read_csv(tmp_path / "o" / "released.csv")["x"].tolist() == ["1", "1", "4", "4", "5", "5", "1-3", "1-3"]
    assert "## Local recoding" in (tmp_path / "o" / "search.md").read_text()
    doc = json.loads((tmp_path / "o" / "search.json").read_text())["local_recoding"]
    assert doc["suppressed_full"] == 2 and [s["x"] for s in doc["steps"]] == [0, 1]
    assert main([*args, "--local-records", "0"]) == 2
    assert "--local-records must be a number in (0, 1]" in capsys.readouterr().err
    (tmp_path / "s.toml").write_text('[keys]\nx = "hx.csv"\n[models]\nk = 2\n[search]\nlocal_iterations = 0\n')
    assert main(args) == 2
    assert "local_iterations" in capsys.readouterr().err


# ----------------------------------------------------------------------------- invariants

A_H = Hierarchy(np.array([[str(v), str(v // 4), "*"] for v in range(8)], dtype=object), name="a")
B_H = Hierarchy(np.array([[c, "vowel" if c in "ae" else "other", "*"] for c in "abcde"], dtype=object), name="b")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_invariants(d: st.DataObject) -> None:
    n = d.draw(st.integers(4, 40))
    a = d.draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
    b = d.draw(st.lists(st.sampled_from("abcde"), min_size=n, max_size=n))
    s = d.draw(st.lists(st.sampled_from("pqr"), min_size=n, max_size=n))
    k = d.draw(st.integers(2, 4))
    l_div = d.draw(st.sampled_from([None, 2]))
    t_emd = d.draw(st.sampled_from([None, 0.4]))
    metric = d.draw(st.sampled_from(["loss", "precision", "discernibility", "avg_class_size"]))
    records = d.draw(st.sampled_from([None, 0.1, 0.3]))
    limit = d.draw(st.sampled_from([0.1, 0.5, 1.0]))
    data = pd.DataFrame({"a": a, "b": b, "s": s})
    kw = {"l": l_div, "sensitive": "s"} if l_div else {}
    if t_emd:
        kw.update(t=t_emd, sensitive="s")
    try:
        r = generalisation_search(data, {"a": A_H, "b": B_H}, k=k, suppression_limit=limit, metric=metric,
                                  local=True, local_records=records, runner_ups=0, **kw)
    except ValueError as e:
        assert "no transformation meets" in str(e)
        return
    loc = r.local
    rel = loc.record_step >= 0
    out = r.data
    # every value a generalisation of the record's own at the record's level
    for col, h in (("a", A_H), ("b", B_H)):
        row_of = {str(v): i for i, v in enumerate(h.table[:, 0])}
        lv = loc.levels[col]
        for i in np.flatnonzero(rel):
            want = h.table[row_of[str(data[col].iloc[i])], int(lv.iloc[i])]
            got = out[col].iloc[i]
            assert str(got) == str(want)
        assert out.loc[~rel, col].isna().all()
    # each step's released classes meet k (and l): classes are the step's records with equal values
    cls = pd.DataFrame({"step": loc.record_step, "a": out["a"].astype(str), "b": out["b"].astype(str), "s": s})[rel]
    g = cls.groupby(["step", "a", "b"])
    assert (g.size() >= k).all()
    if l_div:
        assert (g["s"].nunique() >= 2).all()
    if t_emd:  # t-closeness against the whole data's distribution in every step (ARX's DataManagerSubset)
        whole = pd.Series(s).value_counts(normalize=True)
        for _, grp in g:
            p = grp["s"].value_counts(normalize=True).reindex(whole.index, fill_value=0.0)
            assert 0.5 * float((p - whole).abs().sum()) <= t_emd + 1e-12
    # the local release's classes (equal values, whichever step) meet k as well
    assert (cls.groupby(["a", "b"]).size() >= k).all()
    # the full-domain figures are the search's; the local loss never above them (Loss, Precision)
    assert loc.loss_full == pytest.approx(r.loss, rel=1e-9, abs=1e-9)
    if metric in ("loss", "precision"):
        assert loc.loss <= loc.loss_full + 1e-9
    assert loc.suppressed <= loc.suppressed_full == int((loc.record_step == 0).size - (loc.steps["released"].iloc[0]))
    assert int(loc.steps["released"].sum()) == int(rel.sum())


# ----------------------------------------------------------------------------- ARX on adult

# ARX's optimizeIterativeFast(output, r) / optimizeIterative(output, 0.5, 100, 0) after its optimum
# (k-anonymity, Loss, the suppression limit), all nine attributes with ARX's hierarchies; from
# validation/arx/ArxQuality.java's "local" mode (ARX master aacd487). Per step: ARX's
# transformation and the records it released (getNumberOfRecordsTransformed; ARX counts 0 for the
# last step of the k = 10 case, whose transformation is the top: its "*" records read as suppressed).
# sdc's release is the same as ARX's output row for row in all four (tests/identify/test_local_arx_live.py).
ARX_LOCAL = [
    # k, limit, records, optimum, [(step levels, released)], sdc's loss_full, loss
    (5, 1.0, 0.01, (0, 3, 0, 0, 2, 1, 1, 1, 0),
     [((0, 3, 0, 2, 3, 1, 1, 2, 0), 2314), ((0, 4, 1, 2, 3, 2, 1, 2, 0), 239)], 0.22041192847984292, 0.170487),
    (20, 1.0, 0.05, (0, 3, 0, 0, 2, 1, 1, 2, 0),
     [((0, 4, 0, 2, 3, 1, 1, 2, 0), 3108), ((0, 4, 1, 2, 3, 2, 2, 2, 0), 322)], 0.2993806621760702, 0.239371),
    (10, 0.1, None, (0, 3, 0, 1, 2, 1, 1, 1, 0),
     [((0, 4, 0, 2, 3, 2, 1, 1, 0), 2497), ((0, 4, 1, 2, 3, 1, 2, 2, 0), 122), ((1, 4, 1, 2, 3, 2, 2, 2, 1), 11)],
     0.2654514418089955, 0.218968),
    (5, 1.0, None, (0, 3, 0, 0, 2, 1, 1, 1, 0),
     [((0, 3, 0, 2, 3, 1, 1, 2, 0), 2314), ((0, 4, 1, 1, 3, 2, 1, 2, 0), 228), ((1, 4, 0, 2, 3, 0, 0, 2, 0), 8)],
     0.22041192847984292, 0.169952),
]


def adult_search(k: int, limit: float, records: float | None):
    data = pd.read_csv(ADULT, sep=";", dtype=str, keep_default_na=False)
    hs = {c: str(ADULT.parent / f"adult_hierarchy_{c}.csv") for c in ALL}
    return generalisation_search(data, hs, k=k, suppression_limit=limit, metric="loss", local=True,
                                 local_records=records, suppressed_as="*", runner_ups=0)


@pytest.mark.skipif(not ADULT.exists(), reason=f"ARX's adult.csv is not at {ADULT} (set SDC_ARX_ADULT)")
@pytest.mark.parametrize("k, limit, records, optimum, steps, loss_full, loss",
                         [pytest.param(*c, marks=pytest.mark.breadth) if c[2] is not None else c for c in ARX_LOCAL[:3]])
def test_adult_steps_are_arx(k: int, limit: float, records: float | None, optimum: tuple, steps: list,
                             loss_full: float, loss: float) -> None:
    r = adult_search(k, limit, records)
    loc = r.local
    assert tuple(r.levels.values()) == optimum
    got = [(tuple(int(v) for v in row[ALL]), int(row["released"])) for _, row in loc.steps.iloc[1:].iterrows()]
    assert got == steps
    assert loc.loss_full == pytest.approx(loss_full, rel=1e-12) and loc.loss == pytest.approx(loss, abs=5e-7)
    assert loc.loss < loc.loss_full
