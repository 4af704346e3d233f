"""The comparison of an original and a released file (sdc compare): hand-computed risk before
and after, record matching, the released file's configuration, the report folder."""

from __future__ import annotations

import json
import warnings
import os
import stat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sdc._stats import summary_values
from sdc.exceptions import SdcWarning
import sdc
from sdc.report.folder import MARKER
from sdc.workflow.compare import compare, match_records, released_config
from sdc.workflow.config import from_mapping

from tests.helpers import run_cli

ORIG = pd.DataFrame({
    "id": ["r1", "r2", "r3", "r4", "r5", "r6"],
    "sex": ["m", "m", "f", "f", "f", "m"],
    "region": ["a", "a", "a", "b", "b", "b"],
    "income": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
})


def _cfg(**extra) -> sdc.RunConfig:  # noqa: ANN003
    raw = {"data": {"path": "x.csv", "id": "id"}, "variables": {"categorical_keys": ["sex", "region"]},
           "options": {"measures": ["k_anonymity", "risk"]}, "thresholds": {"k": 3}, **extra}
    return from_mapping(raw)


def _fig(c, measure: str) -> tuple[float, float]:
    row = c.risk[(c.risk["measure"] == measure)].iloc[0]
    return float(row["before"]), float(row["after"])


def test_hand_computed_risk_before_and_after() -> None:
    rel = ORIG.assign(region="x")
    c = compare(ORIG, rel, _cfg())
    # before: classes (m,a)=2 (f,a)=1 (f,b)=2 (m,b)=1; after: (m,x)=3 (f,x)=3
    assert _fig(c, "sample uniques") == (2, 0)
    assert _fig(c, "records with fk < 3") == (6, 0)
    assert _fig(c, "expected re-identifications") == pytest.approx((4.0, 2.0))
    assert _fig(c, "global risk") == pytest.approx((4 / 6, 2 / 6))
    ch = c.changes.set_index("variable")
    assert ch.loc["region", "cells_changed"] == 6 and ch.loc["sex", "cells_changed"] == 0
    assert c.changed_variables == ("region",)
    il1 = c.utility_table[(c.utility_table["measure"] == "il1") & (c.utility_table["variable"] == "region")]
    assert float(il1["value"].iloc[0]) == 1.0  # a categorical's IL1: the share of changed values
    kf = c.key_frequencies.set_index(["variable", "level"])
    assert kf.loc[("region", "a"), "before"] == 3 and kf.loc[("region", "a"), "after"] == 0
    assert kf.loc[("region", "x"), "after"] == 6
    vs = c.verdicts.set_index("measure")
    assert vs.loc["3-anonymity", "verdict before"] == "fail" and vs.loc["3-anonymity", "verdict after"] == "pass"


def test_per_variable_thresholds_name_their_own_l_and_t() -> None:
    """[sensitive_thresholds] give income its own l and t: the risk rows are labelled (and
    counted) with them, not with the global ones."""
    cfg = _cfg(variables={"categorical_keys": ["sex", "region"], "sensitive": ["income"]},
               options={"measures": ["k_anonymity", "risk", "ldiversity", "tcloseness"]},
               thresholds={"k": 3, "l": 2, "t": 0.2}, sensitive_thresholds={"income": {"l": 3, "t": 0.5}})
    c = compare(ORIG, ORIG.assign(region="x"), cfg)
    measures = set(c.risk["measure"])
    assert "records in classes with distinct l < 3 (income)" in measures
    assert "records in classes with t > 0.5 (income)" in measures
    assert not any("l < 2" in m or "t > 0.2" in m for m in measures)
    # before: every class holds 1 or 2 distinct incomes (< 3); after: two classes of 3
    assert _fig(c, "records in classes with distinct l < 3 (income)") == (6, 0)


def test_identical_files_change_nothing() -> None:
    c = compare(ORIG, ORIG.copy(), _cfg())
    assert (c.risk["change"].fillna(0) == 0).all()
    assert c.changes["cells_changed"].sum() == 0 and c.changed_variables == ()
    assert c.utility is None and any("no variable changed" in n for n in c.notes)


def test_matching_by_id_survives_a_shuffle_and_row_order_does_not() -> None:
    rel = ORIG.assign(region="x").iloc[[5, 3, 1, 0, 2, 4]]
    by_id = compare(ORIG, rel, _cfg(), match="id")
    assert by_id.matched_by == "id column 'id'"
    assert by_id.changes.set_index("variable").loc["income", "cells_changed"] == 0
    by_rows = compare(ORIG, rel, _cfg(), match="rows")
    assert by_rows.changes.set_index("variable").loc["income", "cells_changed"] > 0
    assert _fig(by_id, "global risk") == _fig(by_rows, "global risk")  # risk does not need matching


def test_matching_by_index_copies_only_when_records_were_dropped_or_moved() -> None:
    # A protection run keeps the index: with every record kept in place the original is paired
    # as it is (no copy of its columns), else the released records' rows are taken.
    rel = ORIG.assign(region="x")
    o, r, how = match_records(ORIG, rel, match="index")
    assert o is ORIG and r is rel and how == "the protection run (record by record)"
    for sub in (rel.iloc[[0, 2, 5]], rel.iloc[[5, 4, 3, 2, 1, 0]]):
        o, r, _ = match_records(ORIG, sub, match="index")
        assert o is not ORIG and list(o.index) == list(sub.index)
        pd.testing.assert_frame_equal(o, ORIG.loc[sub.index])
    with pytest.raises(ValueError, match=r"1 released record\(s\) have no original"):
        match_records(ORIG, rel.set_axis([0, 1, 2, 3, 4, 99]), match="index")


def test_matching_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="the original has 6 records and the released file 5"):
        match_records(ORIG, ORIG.iloc[:5], match="rows")
    with pytest.raises(ValueError, match=r"1 released record\(s\) have an id the original lacks, e.g. 'zz'"):
        match_records(ORIG, ORIG.assign(id=["r1", "r2", "r3", "r4", "r5", "zz"]), match="id", id="id")
    with pytest.raises(ValueError, match=r"not a unique id: value 'r1'"):
        match_records(ORIG, ORIG.assign(id=["r1", "r1", "r3", "r4", "r5", "r6"]), match="id", id="id")
    with pytest.raises(ValueError, match="pseudonymised.*--match rows"):
        match_records(ORIG, ORIG.assign(id=list("abcdef")), match="id", id="id")
    with pytest.raises(ValueError, match="not in the released file"):
        match_records(ORIG, ORIG.drop(columns="id"), match="id", id="id")


def test_records_the_protection_dropped_are_counted() -> None:
    rel = ORIG.iloc[[0, 2, 3, 5]]
    c = compare(ORIG, rel, _cfg(), match="id")
    assert c.n_original == 6 and c.n_released == 4 and c.records_dropped == 2
    assert list(c.original["id"]) == ["r1", "r3", "r4", "r6"]


def test_the_released_config_follows_the_protection() -> None:
    cfg = from_mapping({"data": {"path": "x", "id": "id"},
                        "variables": {"categorical_keys": ["sex"], "continuous_keys": ["income"],
                                      "household": "hh"},
                        "bins": {"income": [0, 25, 100]}, "scenarios": [{"name": "s", "keys": ["sex", "income"]}]})
    rel = ORIG.drop(columns="id").assign(income=["(0,25]"] * 6)
    new, notes = released_config(cfg, rel, recoded=["income"])
    assert new.bins == {} and new.id is None and new.household is None
    assert any("income is counted by its released values" in n for n in notes)
    assert any("id column id is not released" in n for n in notes)
    new2, _ = released_config(cfg, ORIG.drop(columns="income"))
    assert new2.scenarios[0].keys == ("sex",)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def pair(tmp_path: Path) -> Path:
    data = sdc.load_example()
    data.to_csv(tmp_path / "orig.csv", index=False)
    plan = tmp_path / "plan.toml"
    plan.write_text('[plan]\nseed = 3\n[[steps]]\nmethod = "global_recode"\nvariables = ["age"]\nwidth = 10\n'
                    'closed = "left"\n[[steps]]\nmethod = "local_suppression"\nkeys = ["age", "sex", "region"]\n'
                    'k = 3\n[[steps]]\nmethod = "add_noise"\nvariables = ["bmi", "cholesterol"]\nnoise = 20\n',
                    encoding="utf-8")
    (tmp_path / "run.toml").write_text(
        '[data]\npath = "orig.csv"\nid = "subject_id"\n[variables]\ncategorical_keys = ["sex", "region", "age"]\n'
        'sensitive = ["diagnosis"]\n[options]\nmeasures = ["k_anonymity", "risk", "ldiversity"]\n', encoding="utf-8")
    run = sdc.protect_data(data, sdc.workflow.plan.load_plan(plan), reassess=False)
    sdc.write_protection(run, tmp_path / "prot", input_path=tmp_path / "orig.csv")
    return tmp_path


def _compare(capsys, pair: Path, out: str, *extra: str) -> tuple[int, str, str]:
    return run_cli(capsys, "compare", str(pair / "orig.csv"), str(pair / "prot" / "released.csv"), "--config",
                   str(pair / "run.toml"), "--out", str(pair / out), *extra)


def test_cli_writes_the_report_folder(pair: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = _compare(capsys, pair, "cmp", "--protection", str(pair / "prot" / "protection.json"))
    assert code == 0, err
    assert "matched by id column 'subject_id'" in out
    names = set(_files(pair / "cmp"))
    assert {MARKER, "report.html", "report.md", "summary.txt", "report.json", "report.xlsx", "config.toml",
            "risk.csv", "utility.csv", "changes.csv", "key_frequencies.csv", "plots/risk_before_after.png",
            "plots/changed_distributions.png", "plots/correlations.png"} <= names
    md = (pair / "cmp" / "report.md").read_text(encoding="utf-8")
    for text in ("Risk before and after", "Key frequencies before and after", "Utility",
                 "What the protection changed", "Protection log: protection steps",
                 "Protection log: step 2: local_suppression",
                 "records in classes with distinct l < 2 (diagnosis)"):
        assert text in md, text
    html = (pair / "cmp" / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 3
    doc = json.loads((pair / "cmp" / "report.json").read_text(encoding="utf-8"))
    assert doc["records"]["matched_by"] == "id column 'subject_id'"
    assert doc["protection"]["steps"][1]["method"] == "local_suppression"
    risk = pd.read_csv(pair / "cmp" / "risk.csv")
    assert {"scenario", "measure", "before", "after", "change"} <= set(risk.columns)
    util = pd.read_csv(pair / "cmp" / "utility.csv")
    il1 = util[(util["measure"] == "il1") & (util["variable"] == "bmi")]["value"].iloc[0]
    direct = sdc.information_loss(pd.read_csv(pair / "orig.csv"), pd.read_csv(pair / "prot" / "released.csv"),
                                  ["bmi"]).overall
    assert il1 == pytest.approx(direct, rel=1e-9)


def test_the_report_is_reproducible(pair: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert _compare(capsys, pair, "a")[0] == 0
    assert _compare(capsys, pair, "b")[0] == 0
    a, b = _files(pair / "a"), _files(pair / "b")
    assert a.keys() == b.keys()
    differ = [n for n in a if a[n] != b[n]]
    # only the command line, which names the output folder, differs
    assert set(differ) <= {"report.html", "report.md", "summary.txt", "report.json", "report.xlsx"}
    for n in set(differ) - {"report.xlsx"}:
        assert a[n].replace(str(pair / "a").encode(), str(pair / "b").encode()) == b[n], n


def test_a_mismatch_is_a_clear_error_and_writes_nothing(pair: Path, capsys: pytest.CaptureFixture) -> None:
    released = pd.read_csv(pair / "prot" / "released.csv").iloc[:-5]
    released.to_csv(pair / "short.csv", index=False)
    code, out, err = run_cli(capsys, "compare", str(pair / "orig.csv"), str(pair / "short.csv"), "--keys",
                             "sex,region", "--out", str(pair / "x"))
    assert code == 2 and err.startswith("sdc: error: the files do not match") and len(err.splitlines()) == 1
    assert not (pair / "x").exists()
    code, _, err = run_cli(capsys, "compare", str(pair / "orig.csv"), str(pair / "short.csv"), "--keys",
                           "sex,region", "--id", "subject_id", "--out", str(pair / "x"))
    assert code == 0, err  # by id, the five missing records were dropped
    doc = json.loads((pair / "x" / "report.json").read_text(encoding="utf-8"))
    assert doc["records"]["dropped"] == 5


def test_spreadsheet_safety_and_modes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    orig = ORIG.assign(region=["=cmd", "=cmd", "a", "b", "b", "b"])
    orig.to_csv(tmp_path / "o.csv", index=False)
    orig.assign(region="+x").to_csv(tmp_path / "r.csv", index=False)
    os.chmod(tmp_path / "r.csv", 0o640)
    os.chmod(tmp_path / "o.csv", 0o600)
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "o.csv"), str(tmp_path / "r.csv"), "--keys",
                           "sex,region", "--out", str(tmp_path / "c"))
    assert code == 0, err
    kf = (tmp_path / "c" / "key_frequencies.csv").read_text(encoding="utf-8")
    assert "'=cmd" in kf and "'+x" in kf and "\n=cmd" not in kf
    for p in [tmp_path / "c", *(tmp_path / "c").rglob("*")]:
        assert stat.S_IMODE(p.stat().st_mode) & 0o077 == 0, p


def test_compare_needs_keys(pair: Path, capsys: pytest.CaptureFixture) -> None:
    code, _, err = run_cli(capsys, "compare", str(pair / "orig.csv"), str(pair / "orig.csv"), "--out",
                           str(pair / "x"))
    assert code == 2 and "key variables" in err and not (pair / "x").exists()


def test_api_round_trip(pair: Path) -> None:
    data = pd.read_csv(pair / "orig.csv")
    released = pd.read_csv(pair / "prot" / "released.csv")
    cfg = sdc.load_config(pair / "run.toml")
    c = sdc.compare(data, released, cfg)
    s = summary_values(c.summary())
    assert s["records_original"] == len(data) and s["matched_by"] == "id column 'subject_id'"
    assert s["cells_changed"] == int(c.changes["cells_changed"].sum())
    assert np.isfinite(s["il1_overall"])
    folder = sdc.write_comparison(c, pair / "api", formats=["md"])
    assert set(folder.files) == {"report.md", "config.toml"}


def _people(n: int = 400, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"id": [f"p{i}" for i in range(n)], "sex": rng.choice(["f", "m"], n),
                         "region": rng.choice(list("abcdefgh"), n), "age": rng.integers(20, 80, n)})


def test_the_linkage_attack_before_and_after() -> None:
    from sdc.workflow.compare import linkage_before_after

    df = _people()
    cfg = _cfg(variables={"categorical_keys": ["sex", "region", "age"]})
    same = linkage_before_after(df, df, cfg).set_index("figure")
    assert (same["before"] == same["after"]).all() and same.loc["attacker's records", "before"] == 80
    # brute force: a record of the attacker's is re-identified when exactly one record has its keys
    sizes = df.groupby(["sex", "region", "age"])["id"].transform("size")
    assert 0 < same.loc["re-identified (unique and correct match)", "before"] <= int((sizes == 1).sum())
    # age in decades: an attacker who recodes his own file the same way finds larger match sets
    rel = df.assign(age=((df["age"] // 10) * 10).astype(str) + "s")  # "40s": no raw age equals a label
    att = linkage_before_after(df, rel, cfg, repeatable=["age"]).set_index("figure")
    assert att.loc["precision at 1", "after"] < att.loc["precision at 1", "before"]
    assert att.loc["mean match-set size", "after"] > att.loc["mean match-set size", "before"]
    # without repeating the recoding his raw ages match no released decade, and the attack says so
    from sdc.exceptions import CodingWarning

    with pytest.warns(CodingWarning, match="column 'age': no value of the external file occurs"):
        raw = linkage_before_after(df, rel, cfg).set_index("figure")
    assert raw.loc["re-identified (unique and correct match)", "after"] == 0
    assert not raw.loc["precision at 1", "after"] > 0  # no match at all: undefined (NaN)


def test_the_linkage_attacker_knows_his_targets_true_values() -> None:
    """Issue 32: the attacker holds his targets' true values, coded by the published recoding,
    not the release's suppressions. Ages in decades (global_recode, width 10), then the age of
    every record unique on (sex, region, decade) suppressed: an attacker who knows a target's
    decade still finds one record when it is the only suppressed one of its (sex, region) with
    no other record of its decade there. Copying the release's suppressions into his file (as
    the comparison did) made every such target match every record of its (sex, region)."""
    from sdc.attacks.linkage import draw_external
    from sdc.workflow.compare import ATTACK_SEED, ATTACK_SHARE, attacker_file, linkage_before_after

    df = _people(150)
    cfg = _cfg(variables={"categorical_keys": ["sex", "region", "age"]})
    step = {"method": "global_recode", "variables": ["age"], "parameters": {"variables": ["age"], "width": 10}}
    decade = sdc.global_recode(df, ["age"], width=10).data["age"]
    unique = df.assign(age=decade).groupby(["sex", "region", "age"], observed=True)["id"].transform("size") == 1
    rel = df.assign(age=decade.where(~unique))
    assert rel["age"].isna().sum() == int(unique.sum()) > 0
    assert attacker_file(df, rel, ["age"], {"steps": [step]})["age"].astype(str).equals(decade.astype(str))
    att = linkage_before_after(df, rel, cfg, repeatable=["age"], protection={"steps": [step]}).set_index("figure")
    got = att.loc["re-identified (unique and correct match)", "after"]
    # brute force: each attacker's record (true decade) against every released record, a
    # missing value matching anything
    ext = draw_external(df.assign(age=decade.astype(str)), ["sex", "region", "age"], share=ATTACK_SHARE,
                        seed=ATTACK_SEED)
    r_age = rel["age"].astype(object)
    expect = 0
    for _, e in ext.iterrows():
        m = rel[(rel["sex"] == e["sex"]) & (rel["region"] == e["region"])
                & (r_age.isna() | (r_age.astype(str) == e["age"]))]
        expect += int(len(m) == 1 and m.index[0] == e["target_id"])
    assert got == expect > 0


def test_the_comparison_report_shows_the_attack(pair: Path, capsys: pytest.CaptureFixture) -> None:
    rc, _, _ = _compare(capsys, pair, "cmp-attack")
    assert rc == 0
    doc = json.loads((pair / "cmp-attack" / "report.json").read_text())
    figures = {r["figure"] for r in doc["attacks"]["linkage"]}
    assert "precision at 1" in figures and "re-identified (unique and correct match)" in figures
    assert "Linkage attack per scenario" in (pair / "cmp-attack" / "report.md").read_text()


def test_cells_changed_count_a_nullable_column_cell_by_cell() -> None:
    """Local suppression turns an integer key into a nullable Int64 column with pd.NA; the
    element-wise `!=` against pd.NA is not a bool, and numpy answered a single True for the
    whole column: 4,125 of 4,125 cells "changed" where 36 were suppressed."""
    from sdc.protect._result import changed_cells

    before = pd.DataFrame({"x": [1, 2, 3, 4], "s": ["a", "b", None, "d"], "f": [1.0, np.nan, 3.0, 4.0]})
    after = pd.DataFrame({"x": pd.array([1, pd.NA, 3, 5], dtype="Int64"), "s": ["a", "b", None, None],
                          "f": [1.0, np.nan, np.nan, 4.5]})
    assert changed_cells(before, after, ["x", "s", "f"]).to_dict() == {"x": 2, "s": 1, "f": 2}
    # end to end: the comparison of a suppression counts the suppressed cells only
    df = sdc.load_example()
    from sdc.workflow.plan import plan_from_mapping

    plan = plan_from_mapping({"plan": {"seed": 1}, "steps": [
        {"method": "local_suppression", "keys": ["sex", "region", "age"], "k": 3}]})
    run = sdc.protect_data(df, plan, overrides={"variables": {"categorical_keys": ["sex", "region", "age"]},
                                                "options": {"measures": ["k_anonymity"]}})
    suppressed = int((run.released["age"].isna() & df["age"].notna()).sum())
    row = run.comparison.changes.set_index("variable").loc["age"]
    assert 0 < suppressed < len(df) and row["cells_changed"] == row["cells_suppressed"] == suppressed


def test_protect_and_compare_give_the_same_utility_for_the_same_files() -> None:
    """sdc protect averaged IL1 over the variables its steps named (keys without a suppressed
    cell at 0), sdc compare over the changed ones: 0.038 against 0.053 for one release."""
    from sdc.workflow.plan import plan_from_mapping

    df = sdc.load_example()
    plan = plan_from_mapping({"plan": {"seed": 3}, "steps": [
        {"method": "global_recode", "variables": ["age"], "width": 10},
        {"method": "local_suppression", "keys": ["sex", "region", "age"], "k": 3}]})
    over = {"variables": {"categorical_keys": ["sex", "region", "age"]}, "options": {"measures": ["k_anonymity"]}}
    run = sdc.protect_data(df, plan, overrides=over)
    alone = compare(df, run.released, run.config, match="rows", recoded=["age"])
    assert "sex" not in set(run.comparison.utility_table["variable"])  # named by a step, not changed
    pd.testing.assert_frame_equal(run.comparison.utility_table, alone.utility_table)


def test_the_headline_has_every_scenario_and_the_verdicts_that_changed() -> None:
    """Only the first scenario was printed: a scenario the protection fixed, or a verdict that
    turned to fail, went unseen on the console."""
    from sdc.report.compare import comparison_headline

    rel = ORIG.assign(region="x")
    c = compare(ORIG, rel, _cfg(scenarios=[{"name": "sex only", "keys": ["sex"]}, {"name": "both", "keys": ["sex", "region"]}]))
    lines = comparison_headline(c).splitlines()
    assert [ln.split(":")[0] for ln in lines[:2]] == ["Scenario 'sex only'", "Scenario 'both'"]
    assert "records with fk < 3 6 -> 0" in lines[1]  # classes of 2, 1, 2 and 1 records; after: 3 and 3
    assert lines[2] == "6 cells changed in 1 variable(s); 0 record(s) dropped."
    assert lines[3].startswith("Verdicts that changed: ") and "fail -> pass: 3-anonymity in 'both'" in lines[3]
    assert "pass -> fail" not in lines[3]
    unchanged = comparison_headline(compare(ORIG, ORIG, _cfg())).splitlines()
    assert len(unchanged) == 2 and not any(ln.startswith("Verdicts") for ln in unchanged)


def test_the_attacker_models_missing_value_rule_is_said_where_it_differs_from_fk() -> None:
    """After local suppression the smallest fk was 3 and the prosecutor's highest risk 1, side by
    side and unexplained: the attacker models count a suppressed cell as a value (ARX)."""
    df = _people(200)
    rel = df.copy()
    rel.loc[rel.index[:5], "region"] = None
    cfg = _cfg(variables={"categorical_keys": ["sex", "region"]},
               options={"measures": ["k_anonymity", "risk", "uniqueness"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = compare(df, rel, cfg, match="rows")
        same = compare(df, df, cfg, match="rows")
    assert any("as ARX does, not as the wildcard" in n for n in c.notes)
    assert not any("as ARX does" in n for n in same.notes)  # no missing key value: nothing to say


def test_utility_variables_chosen_as_in_the_sweep(tmp_path, capsys) -> None:
    """compare(utility_variables=...) / sdc compare --utility-variables: the utility measures use
    the variables asked for (issue 26, item 6), not only the changed ones. One name for compare,
    protect and the sweep plan; the old `variables` / --variables still work and warn."""
    rel = ORIG.assign(region="x")
    default = compare(ORIG, rel, _cfg())
    assert set(default.marginals["variable"]) == {"region"}
    c = compare(ORIG, rel, _cfg(), utility_variables=["region", "income", "sex"])
    assert set(c.marginals["variable"]) == {"region", "income", "sex"}
    assert "income" in set(c.utility_table["variable"])
    with pytest.warns(SdcWarning, match="`variables` is deprecated"):
        old = compare(ORIG, rel, _cfg(), variables=["region", "income", "sex"])
    assert set(old.marginals["variable"]) == {"region", "income", "sex"}
    with pytest.raises(ValueError, match="`utility_variables` names columns not in the original file: 'nope'"):
        compare(ORIG, rel, _cfg(), utility_variables=["nope"])
    ORIG.to_csv(tmp_path / "o.csv", index=False)
    rel.to_csv(tmp_path / "r.csv", index=False)
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "o.csv"), str(tmp_path / "r.csv"), "--keys", "sex,region",
                           "--utility-variables", "region,income", "--out", str(tmp_path / "cmp"), "--json")
    assert code == 0, err
    assert "deprecated" not in err
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "o.csv"), str(tmp_path / "r.csv"), "--keys", "sex,region",
                           "--variables", "region,income", "--out", str(tmp_path / "cmp2"), "--json")
    assert code == 0, err
    assert "sdc: warning: `variables` is deprecated" in err or "--variables is deprecated" in err, err
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "o.csv"), str(tmp_path / "r.csv"), "--keys", "sex,region",
                           "--utility-variables", "nope", "--out", str(tmp_path / "cmp3"))
    assert code == 2 and "--utility-variables names columns not in the original file: 'nope'" in err, err


def test_a_comparison_after_l_diversity_dropping_records_shows_the_sensitive_shift() -> None:
    # Classes of (sex, region) with one disease value are dropped by l = 2 enforcement: no value
    # of a kept record changes, yet the sensitive distribution moves (issue 26: the comparison
    # listed changed variables only and showed nothing).
    orig = pd.DataFrame({"id": [f"r{i}" for i in range(12)],
                         "sex": ["m"] * 6 + ["f"] * 6,
                         "region": ["a", "a", "a", "b", "b", "b"] * 2,
                         "disease": ["flu", "cold", "flu", "cold", "cold", "cold",
                                     "flu", "cold", "asthma", "flu", "cold", "flu"]})
    res = sdc.local_suppression(orig, ["sex", "region"], k=2, unit="record", sensitive="disease", l=2)
    rel = res.data
    assert len(rel) == 9  # the class (m, b) holds "cold" only
    cfg = from_mapping({"data": {"path": "x.csv", "id": "id"},
                        "variables": {"categorical_keys": ["sex", "region"], "sensitive": ["disease"]},
                        "options": {"measures": ["k_anonymity"]}, "thresholds": {"k": 2}})
    c = compare(orig, rel, cfg, match="id")
    m = c.release_marginals
    assert list(m["variable"])[:3] == ["disease", "sex", "region"]
    row = m.set_index("variable").loc["disease"]
    assert row["role"] == "sensitive" and row["status"] == "untouched, records withheld"
    # cold: 6/12 before, 3/9 after -> 16.7 points; TV = (16.7 + 8.3 + 8.3) / 2 / 100
    assert row["largest shift (points)"] == pytest.approx(100 * (6 / 12 - 3 / 9))
    assert row["level of the largest shift"] == "cold"
    assert row["total variation"] == pytest.approx(1 / 6)
    assert row["records withheld"] == 3
    assert row["shift from the withheld records (points)"] == pytest.approx(100 * (6 / 12 - 3 / 9))
    # Without dropping, an untouched variable says so.
    same = compare(orig, orig, cfg, match="id").release_marginals.set_index("variable")
    assert set(same["status"]) == {"untouched"} and float(same["total variation"].max()) == 0.0
