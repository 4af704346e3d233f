"""The protection run (sdc protect): plans, their validation, seeds, the released file, the log,
reproducibility, secrets, and the output folder."""

from __future__ import annotations

import gzip
import hashlib
import inspect
import json
import os
import stat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.protect.microaggregation import microaggregation
from sdc.protect.suppression import local_suppression
from sdc.report.folder import MARKER
from sdc.workflow.plan import PlanError, check_plan, load_plan, method_table, plan_from_mapping, plan_to_toml, step_seed
from sdc.workflow.protect import protect_data

from tests.helpers import complete_example, method_steps, plan_step, run_cli

KEY = "7f3a9c1e5b2d48f6a0c3e9b1d7f2a6c4-unmistakable-test-key"

FAST_CONFIG = """
[data]
path = "unused.csv"
id = "subject_id"
[variables]
categorical_keys = ["sex", "region"]
continuous_keys = ["age"]
[bins]
age = [0, 25, 45, 65, inf]
[options]
measures = ["k_anonymity", "risk"]
[output]
formats = ["md", "json", "csv"]
"""

PLAN = """
[plan]
seed = 42

[[steps]]
method = "global_recode"
variables = ["age"]
width = 10
closed = "left"

[[steps]]
method = "pram"
variables = ["marital_status"]
pd = 0.8

[[steps]]
method = "local_suppression"
keys = ["age", "sex", "region", "marital_status"]
k = 3

[[steps]]
method = "add_noise"
variables = ["bmi", "systolic_bp"]
noise = 20

[[steps]]
method = "microaggregation"
variables = ["cholesterol"]
k = 3

[[steps]]
method = "pseudonymise"
variables = ["household_id"]
key_file = "key.txt"
"""


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder with the example data (as CSV), a fast config, a key file and the plan."""
    data = sdc.load_example()
    data.to_csv(tmp_path / "survey.csv", index=False)
    (tmp_path / "run.toml").write_text(FAST_CONFIG, encoding="utf-8")
    (tmp_path / "key.txt").write_text(KEY + "\n", encoding="utf-8")
    (tmp_path / "key.txt").chmod(0o600)
    (tmp_path / "plan.toml").write_text(PLAN, encoding="utf-8")
    return tmp_path


def _protect(capsys, work: Path, out: str, *extra: str, plan: str = "plan.toml") -> tuple[int, str, str]:
    return run_cli(capsys, "protect", str(work / "survey.csv"), "--plan", str(work / plan), "--config",
                   str(work / "run.toml"), "--out", str(work / out), *extra)


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


# --- the method table ---------------------------------------------------------------------

def test_method_table_reads_the_signatures() -> None:
    table = method_table()
    assert list(table)[:15] == ["global_recode", "top_bottom_code", "apply_transformation", "mv_top_code", "local_suppression",
                                "local_suppression_by_risk", "add_ghost_vars", "microaggregation", "microaggregation_gower", "pram", "add_noise",
                                "rank_swap", "record_swap", "shuffle", "pseudonymise"]
    for name, spec in table.items():
        fn = getattr(sdc, name, spec.function)
        params = [p for p in inspect.signature(fn).parameters.values()][2:]
        names = [p.name for p in params if p.name != "seed"]
        assert list(spec.parameters) == names, name
        assert spec.seeded == any(p.name == "seed" for p in params)
    assert table["local_suppression"].variables_param == "keys"
    assert table["pram"].seeded and not table["global_recode"].seeded


def test_a_parameter_named_like_a_plan_key_goes_in_params(tmp_path: Path) -> None:
    data = sdc.load_example()
    plan = plan_from_mapping({"steps": [{"method": "microaggregation", "variables": ["bmi", "cholesterol"], "k": 4,
                                         "params": {"method": "onedims"}}]})
    run = protect_data(data, plan, reassess=False)
    assert run.steps[0].result.parameters.get("method") in ("onedims", "individual")
    text = run.plan_toml()
    assert 'params = { method = "onedims" }' in text
    again = load_plan_text(tmp_path, text)
    assert again.steps[0].parameters == plan.steps[0].parameters


def load_plan_text(tmp_path: Path, text: str):
    p = tmp_path / "again.toml"
    p.write_text(text, encoding="utf-8")
    return load_plan(p)


# --- bad plans: one line naming the step, the parameter and the value; nothing written ------

BAD_PLANS = {
    "unknown method": ('method = "blur"\nvariables = ["age"]', ["step 1 (blur)", "'blur'"]),
    "unknown variable": ('method = "global_recode"\nvariables = ["agee"]\nwidth = 10',
                         ["step 1 (global_recode)", "`variables`", "'agee'", "did you mean 'age'"]),
    "misspelt method": ('method = "local_supression"\nkeys = ["age"]\nk = 3',
                        ["step 1 (local_supression)", "(did you mean 'local_suppression'?)"]),
    "unknown parameter": ('method = "global_recode"\nvariables = ["age"]\nwidht = 10',
                          ["step 1 (global_recode)", "`widht`"]),
    "k below 2": ('method = "local_suppression"\nkeys = ["age", "sex"]\nk = 1', ["step 1 (local_suppression)", "`k`",
                                                                                "got 1"]),
    "probability above 1": ('method = "pram"\nvariables = ["sex"]\npd = 1.5', ["step 1 (pram)", "`pd`", "1.5"]),
    "probability below 0": ('method = "pram"\nvariables = ["sex"]\nflip = -0.1', ["step 1 (pram)", "`flip`", "-0.1"]),
    "non-increasing edges": ('method = "global_recode"\nvariables = ["age"]\nedges = [0, 30, 20]',
                             ["step 1 (global_recode)", "`edges`", "[0, 30, 20]"]),
    "top below bottom": ('method = "top_bottom_code"\nvariables = ["bmi"]\ntop = 10\nbottom = 20',
                         ["step 1 (top_bottom_code)", "`top`", "10", "`bottom`", "20"]),
    "numeric method on text": ('method = "add_noise"\nvariables = ["region"]',
                               ["step 1 (add_noise)", "`variables`", "'region'", "text"]),
    "missing key file": ('method = "pseudonymise"\nvariables = ["subject_id"]\nkey_file = "nokey.txt"',
                         ["step 1 (pseudonymise)", "`key_file`", "nokey.txt"]),
    "empty key file": ('method = "pseudonymise"\nvariables = ["subject_id"]\nkey_file = "empty.txt"',
                       ["step 1 (pseudonymise)", "`key_file`", "empty.txt", "is empty"]),
    "unset key variable": ('method = "pseudonymise"\nvariables = ["subject_id"]\nkey_env = "SDC_TEST_NO_SUCH_KEY"',
                           ["step 1 (pseudonymise)", "`key_env`", "SDC_TEST_NO_SUCH_KEY"]),
    "secret in the plan": ('method = "pseudonymise"\nvariables = ["subject_id"]\nkey = "abc"',
                           ["step 1 (pseudonymise)", "`key`"]),
    "seed on a deterministic method": ('method = "global_recode"\nvariables = ["age"]\nwidth = 5\nseed = 3',
                                       ["step 1 (global_recode)", "`seed`", "3"]),
    "method's own check": ('method = "global_recode"\nvariables = ["age"]', ["step 1 (global_recode)", "needs one of"]),
}


@pytest.mark.parametrize("case", sorted(BAD_PLANS))
def test_a_bad_plan_is_one_line_and_writes_nothing(case: str, work: Path, capsys: pytest.CaptureFixture) -> None:
    body, must = BAD_PLANS[case]
    # A good first step, so the bad one is step 2: the message must name the right one.
    plan = '[[steps]]\nmethod = "top_bottom_code"\nvariables = ["bmi"]\ntop = 60\n\n[[steps]]\n' + body + "\n"
    (work / "bad.toml").write_text(plan, encoding="utf-8")
    (work / "empty.txt").write_bytes(b"")
    (work / "empty.txt").chmod(0o600)
    before = _sha(work / "survey.csv")
    code, out, err = _protect(capsys, work, "out", plan="bad.toml")
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sdc: error: plan step 2 ("), err
    for text in must:
        assert text.replace("step 1", "step 2") in lines[0], (text, lines[0])
    assert KEY not in err
    assert not (work / "out").exists()
    assert not [p for p in work.iterdir() if p.name.startswith(".out.")]  # no temporary folder left behind
    assert _sha(work / "survey.csv") == before


def test_k_with_continuous_keys_is_refused_not_a_silent_no_op(work: Path, capsys: pytest.CaptureFixture) -> None:
    """--k suppressed the --keys only: with age a continuous key of the assessment, the
    release was the input unchanged and the scenario still failed, with status 0."""
    code, out, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--k", "3", "--keys",
                             "sex,region,marital_status", "--continuous-keys", "age", "--bins", "age=width:10",
                             "--out", str(work / "out"))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "the continuous key(s) 'age' would not be among them: recode them into bands (--recode age=10)" in err
    assert not (work / "out").exists()
    # the same when the continuous key comes from the config
    (work / "cont.toml").write_text('[variables]\ncategorical_keys = ["sex", "region"]\ncontinuous_keys = ["age"]\n'
                                    '[bins]\nage = { width = 10 }\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--config", str(work / "cont.toml"), "--k",
                             "3", "--keys", "sex,region", "--out", str(work / "out"))
    assert code == 2 and "the continuous key(s) 'age' would not be among them" in err and not (work / "out").exists()


def test_plan_level_errors(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match=r"\[plan\]\.seed.*-1"):
        plan_from_mapping({"plan": {"seed": -1}, "steps": [{"method": "global_recode", "variables": "age",
                                                            "width": 5}]})
    with pytest.raises(PlanError, match="empty"):
        plan_from_mapping({"steps": []})
    with pytest.raises(PlanError, match=r"section \[stepz\]"):
        plan_from_mapping({"stepz": []})
    with pytest.raises(PlanError, match="`grid` belongs in a sweep plan"):
        plan_from_mapping({"steps": [{"method": "global_recode", "variables": "age", "grid": {"width": [5]}}]})
    with pytest.raises(PlanError, match="does not name the data file"):
        plan_from_mapping({"data": {"path": "x.csv"}, "steps": [{"method": "global_recode", "variables": "age",
                                                                 "width": 5}]})
    p = tmp_path / "broken.toml"
    p.write_text("[[steps]\nmethod = 1", encoding="utf-8")
    with pytest.raises(PlanError, match="could not be parsed"):
        load_plan(p)


def test_a_column_dropped_by_an_earlier_step_is_unknown_later() -> None:
    data = sdc.load_example()
    plan = plan_from_mapping({"steps": [
        {"method": "pseudonymise", "variables": [], "drop": ["subject_id"], "random_key": True},
        {"method": "pram", "variables": ["subject_id"]}]})
    with pytest.raises(PlanError, match=r"step 2 \(pram\).*earlier step dropped it.*'subject_id'"):
        check_plan(plan, data)


def test_a_step_is_checked_against_the_types_the_earlier_steps_leave() -> None:
    """issue 32: date = "year" makes numbers that top_bottom_code may code; bands written as
    intervals make text that it may not."""
    data = pd.DataFrame({"dob": ["1930-05-01", "1990-01-02", "2001-07-30"], "age": [91, 30, 22]})
    plan = plan_from_mapping({"steps": [
        {"method": "global_recode", "variables": ["dob"], "date": "year"},
        {"method": "top_bottom_code", "variables": ["dob"], "bottom": 1936, "bottom_value": 1935}]})
    check_plan(plan, data)
    run = protect_data(data, plan, reassess=False)
    assert run.released["dob"].tolist() == [1935, 1990, 2001]
    plan = plan_from_mapping({"steps": [
        {"method": "global_recode", "variables": ["age"], "width": 10},
        {"method": "top_bottom_code", "variables": ["age"], "top": 89}]})
    with pytest.raises(PlanError, match=r"step 2 \(top_bottom_code\).*needs numeric columns"):
        check_plan(plan, data)


def test_yaml_plans_read_like_toml(tmp_path: Path) -> None:
    p = tmp_path / "plan.yaml"
    p.write_text("plan:\n  seed: 3\nsteps:\n  - method: pram\n    variables: [sex]\n    flip: 0.1\n", encoding="utf-8")
    plan = load_plan(p)
    assert plan.seed == 3 and plan.steps[0].parameters == {"variables": ["sex"], "flip": 0.1}


# --- the run ----------------------------------------------------------------------------------

def test_steps_apply_in_order_and_the_log_says_what_changed(work: Path) -> None:
    data = pd.read_csv(work / "survey.csv")
    snapshot = data.copy()
    run = protect_data(data, load_plan(work / "plan.toml"), config=work / "run.toml",
                       input_file=work / "survey.csv")
    pd.testing.assert_frame_equal(data, snapshot)  # the input is never modified
    assert [r.step.method for r in run.steps] == ["global_recode", "pram", "local_suppression", "add_noise",
                                                  "microaggregation", "pseudonymise"]
    # each step ran on the previous one's output: replaying them by hand gives the same release
    d = data
    d = sdc.global_recode(d, ["age"], width=10, closed="left").data
    d = sdc.pram(d, ["marital_status"], pd=0.8, seed=step_seed(42, 2)).data
    d = local_suppression(d, ["age", "sex", "region", "marital_status"], k=3).data
    d = sdc.add_noise(d, ["bmi", "systolic_bp"], noise=20, seed=step_seed(42, 4)).data
    d = microaggregation(d, ["cholesterol"], k=3).data
    d = sdc.pseudonymise(d, ["household_id"], key_file=str(work / "key.txt")).data
    pd.testing.assert_frame_equal(run.released, d)
    log = run.log()
    assert [s["seed"] for s in log["steps"]] == [None, step_seed(42, 2), None, step_seed(42, 4), None, None]
    assert [s["seed_source"] for s in log["steps"]] == ["", "plan", "", "plan", "", ""]
    ls = log["steps"][2]
    assert ls["cells_changed"] == {k: int(v) for k, v in run.steps[2].result.changed.items()}
    assert ls["details"]["suppressions"] == {k: int(v) for k, v in run.steps[2].result.details["suppressions"].items()}
    pram_matrix = log["steps"][1]["details"]["marital_status"]["matrix"]
    assert pram_matrix["columns"][0] == "level" and len(pram_matrix["rows"]) == 4
    assert np.allclose([sum(r[1:]) for r in pram_matrix["rows"]], 1.0)
    assert "group_size_counts" in log["steps"][4]["details"]
    assert log["totals"]["records_dropped"] == 0
    assert log["input"]["sha256"] == _sha(work / "survey.csv")


def test_explicit_step_seed_wins_and_a_missing_plan_seed_is_drawn_and_recorded() -> None:
    data = sdc.load_example()
    plan = plan_from_mapping({"steps": [{"method": "pram", "variables": ["sex"], "flip": 0.2, "seed": 7},
                                        {"method": "pram", "variables": ["region"], "flip": 0.2}]})
    run = protect_data(data, plan, reassess=False)
    assert run.plan.seed is not None
    assert run.seeds == {1: 7, 2: step_seed(run.plan.seed, 2)}
    assert f"seed = {run.plan.seed}" in run.plan_toml()
    assert step_seed(1, 2) != step_seed(1, 3) and step_seed(1, 2) != step_seed(2, 2)


def test_records_dropped_are_counted(work: Path) -> None:
    data = sdc.load_example()
    plan = plan_from_mapping({"plan": {"seed": 1}, "steps": [
        {"method": "local_suppression", "keys": ["age", "sex", "region"], "k": 3, "unit": "record"}]})
    run = protect_data(data, plan, config=work / "run.toml")
    dropped = len(data) - len(run.released)
    assert dropped > 0 and run.records_dropped == dropped and run.steps[0].records_dropped == dropped
    assert run.log()["totals"]["records_dropped"] == dropped
    assert run.comparison.records_dropped == dropped
    assert run.comparison.n_released == len(run.released)


def test_the_reassessment_matches_sdc_assess_on_each_file(work: Path) -> None:
    data = pd.read_csv(work / "survey.csv")
    run = protect_data(data, load_plan(work / "plan.toml"), config=work / "run.toml")
    cfg = sdc.load_config(work / "run.toml")
    direct = sdc.assess(cfg, data)
    c = run.comparison
    row = c.risk[(c.risk["measure"] == "expected re-identifications")].iloc[0]
    assert row["before"] == pytest.approx(direct.primary.risk.expected_reidentifications, rel=1e-12)
    # the released file: age was recoded, so it is counted by its bands, not binned again
    from dataclasses import replace

    released_cfg = replace(cfg, bins={}, continuous_keys=(), categorical_keys=("sex", "region", "age"))
    after = sdc.assess(released_cfg, run.released)
    assert row["after"] == pytest.approx(after.primary.risk.expected_reidentifications, rel=1e-12)
    assert any("age is counted by its released values" in n for n in c.notes)


def test_flags_make_the_common_plan(work: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--recode", "age=-inf,18,40,65,inf",
                             "--k", "3", "--keys", "age,sex,region", "--measures", "k_anonymity,risk",
                             "--formats", "md", "--seed", "5", "--out", str(work / "flags"))
    assert code == 0, err
    plan = (work / "flags" / "plan.toml").read_text(encoding="utf-8")
    assert 'method = "global_recode"' in plan and "edges = [-inf, 18, 40, 65, inf]" in plan
    assert 'method = "local_suppression"' in plan and 'keys = ["age", "sex", "region"]' in plan and "k = 3" in plan
    released = pd.read_csv(work / "flags" / "released.csv")
    assert set(released["age"].dropna()) <= {"(-Inf,18]", "(18,40]", "(40,65]", "(65,Inf]"}
    assert sdc.k_anonymity(released, ["age", "sex", "region"], k=3).n_k_lt_threshold == 0
    assert "Released file" in out


def test_without_keys_there_is_nothing_to_assess(work: Path, capsys: pytest.CaptureFixture) -> None:
    code, _, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--recode", "age=10", "--out",
                           str(work / "o"))
    assert code == 2 and "key variables" in err and not (work / "o").exists()
    code, _, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--recode", "age=10", "--no-assess", "--out",
                           str(work / "o"))
    assert code == 0, err
    assert not (work / "o" / "comparison").exists()


# --- reproducibility, the input, secrets --------------------------------------------------------

def test_same_plan_data_seed_and_key_give_a_byte_identical_release(work: Path, capsys) -> None:
    before = (_sha(work / "survey.csv"), os.stat(work / "survey.csv").st_mtime_ns)
    assert _protect(capsys, work, "a")[0] == 0
    assert _protect(capsys, work, "b")[0] == 0
    a, b = (work / "a" / "released.csv").read_bytes(), (work / "b" / "released.csv").read_bytes()
    assert a == b
    # the resolved plan reruns the same release, from its own folder
    code, _, err = run_cli(capsys, "protect", str(work / "survey.csv"), "--plan", str(work / "a" / "plan.toml"),
                           "--out", str(work / "c"))
    assert code == 0, err
    assert (work / "c" / "released.csv").read_bytes() == a
    # another seed, another release
    assert _protect(capsys, work, "d", "--seed", "43")[0] == 0
    assert (work / "d" / "released.csv").read_bytes() != a
    # the input was only read
    assert (_sha(work / "survey.csv"), os.stat(work / "survey.csv").st_mtime_ns) == before
    log_a = json.loads((work / "a" / "protection.json").read_text(encoding="utf-8"))
    assert log_a["released"]["sha256"] == hashlib.sha256(a).hexdigest()


def test_the_key_is_written_nowhere(work: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = _protect(capsys, work, "out", "--json")
    assert code == 0, err
    fingerprints = {KEY, KEY.encode().hex(), hashlib.sha256(KEY.encode()).hexdigest()}
    for p in (work / "out").rglob("*"):
        if p.is_file():
            body = p.read_bytes()
            for f in fingerprints:
                assert f.encode() not in body, p
    assert KEY not in out and KEY not in err
    doc = json.loads(out)
    assert doc["released"] == "released.csv" and len(doc["released_sha256"]) == 64
    run = protect_data(pd.read_csv(work / "survey.csv"), load_plan(work / "plan.toml"), reassess=False)
    assert KEY not in repr(run) and KEY not in json.dumps(run.log(), default=str)


def test_the_key_from_an_environment_variable(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDC_TEST_KEY", KEY)
    data = sdc.load_example()
    by_env = protect_data(data, plan_from_mapping({"steps": [
        {"method": "pseudonymise", "variables": ["subject_id"], "key_env": "SDC_TEST_KEY"}]}), reassess=False)
    by_file = protect_data(data, plan_from_mapping({"steps": [
        {"method": "pseudonymise", "variables": ["subject_id"], "key_file": str(work / "key.txt")}]}), reassess=False)
    pd.testing.assert_frame_equal(by_env.released, by_file.released)
    assert KEY not in by_env.plan_toml()


# --- the released file's format ---------------------------------------------------------------------

def _one_step_plan(tmp: Path) -> Path:
    p = tmp / "p.toml"
    p.write_text('[plan]\nseed = 1\n[[steps]]\nmethod = "local_suppression"\nkeys = ["age", "sex", "region"]\n'
                 'k = 3\n', encoding="utf-8")
    return p


def test_the_release_keeps_the_delimiter_line_ends_and_integers(tmp_path: Path, capsys) -> None:
    data = sdc.load_example()
    text = data.to_csv(index=False, sep=";", lineterminator="\r\n")
    (tmp_path / "in.csv").write_bytes(text.encode("utf-8"))
    code, _, err = run_cli(capsys, "protect", str(tmp_path / "in.csv"), "--plan", str(_one_step_plan(tmp_path)),
                           "--no-assess", "--out", str(tmp_path / "o"))
    assert code == 0, err
    body = (tmp_path / "o" / "released.csv").read_bytes()
    assert body.count(b"\r\n") == len(data) + 1 and body.splitlines()[0].count(b";") == data.shape[1] - 1
    rel = pd.read_csv(tmp_path / "o" / "released.csv", sep=";", dtype=str)
    assert rel["age"].isna().any()                                  # suppressed
    assert not rel["age"].dropna().str.contains(r"\.").any()        # 31, not 31.0
    assert (rel["subject_id"] == data["subject_id"]).all()


def test_stata_and_gzip_inputs_give_the_same_format(tmp_path: Path, capsys) -> None:
    data = sdc.load_example()[["subject_id", "age", "sex", "region", "bmi"]]
    data.to_stata(tmp_path / "in.dta", write_index=False)
    with gzip.open(tmp_path / "in.csv.gz", "wt", encoding="utf-8", newline="") as fh:
        data.to_csv(fh, index=False)
    plan = _one_step_plan(tmp_path)
    for name, released in (("in.dta", "released.dta"), ("in.csv.gz", "released.csv.gz")):
        outs = []
        for run in ("a", "b"):
            out = tmp_path / f"{name}-{run}"
            code, _, err = run_cli(capsys, "protect", str(tmp_path / name), "--plan", str(plan), "--no-assess",
                                   "--out", str(out))
            assert code == 0, err
            outs.append((out / released).read_bytes())
        assert outs[0] == outs[1], name
        back = sdc.io.read_data(tmp_path / f"{name}-a" / released)
        assert list(back.columns) == list(data.columns) and len(back) == len(data)


def test_an_excel_input_gives_an_excel_workbook_with_its_text_kept_as_text(tmp_path: Path, capsys) -> None:
    """The release of an .xlsx input was CSV text named released.xlsx (Excel refused it)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["pid", "city", "age", "sex"])
    cities = ["A", "B", "=SUM(1,2)", "<b>x</b>"]
    for i in range(40):
        ws.append([i + 1, cities[i % 4], [20, 35, 47, 61][i % 4], "fm"[i % 2]])
        ws.cell(row=i + 2, column=2).data_type = "s"  # a text cell, whatever it holds
    wb.save(tmp_path / "in.xlsx")
    for name in ("in.xlsx", "in.xlsm"):
        if name != "in.xlsx":
            (tmp_path / name).write_bytes((tmp_path / "in.xlsx").read_bytes())
        outs = []
        for run in ("a", "b"):
            out = tmp_path / f"{name}-{run}"
            code, _, err = run_cli(capsys, "protect", str(tmp_path / name), "--recode", "age=20", "--no-assess",
                                   "--out", str(out))
            assert code == 0, err
            outs.append((out / "released.xlsx").read_bytes())
        assert outs[0] == outs[1] and outs[0][:2] == b"PK"  # a zip archive, the same bytes each run
        book = openpyxl.load_workbook(tmp_path / f"{name}-a" / "released.xlsx")
        rows = list(book.active.iter_rows(min_row=2, max_row=5))
        assert [r[1].value for r in rows] == cities and all(r[1].data_type == "s" for r in rows)
        assert [r[0].value for r in rows] == [1, 2, 3, 4] and rows[0][2].value == "(0,20]"
        log = json.loads((tmp_path / f"{name}-a" / "protection.json").read_text())
        assert ("without macros" in json.dumps(log)) == (name == "in.xlsm")


def test_the_released_workbook_keeps_values_no_cell_can_hold_as_text() -> None:
    """Time zones, integers beyond 2^53, infinities and control characters raised or were lost
    in openpyxl; a value shown as text is text (never a formula)."""
    import io
    from datetime import datetime

    import openpyxl

    from sdc.report.xlsx import data_workbook

    df = pd.DataFrame({"t": pd.to_datetime(["2020-01-02 03:04", None]).tz_localize("Europe/Paris"),
                       "d": pd.to_datetime(["2020-01-02", None]), "s": ["a\x01b", "=1+1"],
                       "big": pd.array([2**60, None], dtype="Int64"), "f": [np.inf, 1.5],
                       "c": pd.Categorical(["x", None]), "b": [True, False], "o": [("=x", 2), 3]})
    ws = openpyxl.load_workbook(io.BytesIO(data_workbook(df, sheet="released", when=datetime(2000, 1, 1)))).active
    rows = [[(c.value, c.data_type) for c in r] for r in ws.iter_rows()]
    assert rows[1] == [("2020-01-02T03:04:00+01:00", "s"), (datetime(2020, 1, 2), "d"), ("a_x0001_b", "s"),
                       (str(2**60), "s"), ("inf", "s"), ("x", "s"), (True, "b"), ("('=x', 2)", "s")]
    assert rows[2] == [(None, "n"), (None, "n"), ("=1+1", "s"), (None, "n"), (1.5, "n"), (None, "n"),
                       (False, "b"), (3, "n")]


# --- the output folder ------------------------------------------------------------------------------

def test_the_folder_holds_the_documented_files(work: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = _protect(capsys, work, "out")
    assert code == 0, err
    names = {str(p.relative_to(work / "out")) for p in (work / "out").rglob("*") if p.is_file()}
    assert {"released.csv", "protection.json", "protection.md", "plan.toml", MARKER, "comparison/report.md",
            "comparison/report.json", "comparison/risk.csv", "comparison/changes.csv",
            "comparison/utility.csv", "comparison/key_frequencies.csv"} <= names
    md = (work / "out" / "protection.md").read_text(encoding="utf-8")
    for text in ("Step 2: pram", "marital_status / matrix", "suppressions", "group_size_counts", "Seed: ",
                 # the totals compare the two files (a cell recoded then suppressed counts once), and say so
                 "Cells changed per variable (original vs release)", "counts once",
                 # the folder's files, listed (only the hidden marker listed them)
                 "The files of this folder", "| released.csv | the released data |", "| comparison/ |"):
        assert text in md, text


def test_outputs_are_no_more_readable_than_the_input(work: Path, capsys: pytest.CaptureFixture) -> None:
    os.chmod(work / "survey.csv", 0o600)
    code, _, err = _protect(capsys, work, "out")
    assert code == 0, err
    for p in [work / "out", *(work / "out").rglob("*")]:
        mode = stat.S_IMODE(p.stat().st_mode)
        assert mode & 0o077 == 0, (p, oct(mode))


def test_a_folder_sdc_did_not_write_is_never_replaced(work: Path, capsys: pytest.CaptureFixture) -> None:
    mine = work / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious", encoding="utf-8")
    code, _, err = _protect(capsys, work, "mine")
    assert code == 2 and "not a folder written by sdc" in err
    assert (mine / "thesis.tex").read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in mine.iterdir()) == ["thesis.tex"]
    # an earlier sdc folder is replaced whole, but not when it holds a file sdc did not write (issue 11)
    assert _protect(capsys, work, "out")[0] == 0
    assert _protect(capsys, work, "out")[0] == 0
    (work / "out" / "stale.txt").write_text("x", encoding="utf-8")
    code, _, err = _protect(capsys, work, "out")
    assert code == 2 and "holds 'stale.txt', which sdc did not write there" in err
    assert (work / "out" / "stale.txt").read_text(encoding="utf-8") == "x"


def test_a_failure_while_writing_leaves_the_previous_folder(work: Path, capsys, monkeypatch) -> None:
    assert _protect(capsys, work, "out")[0] == 0
    first = (work / "out" / "released.csv").read_bytes()
    import sdc.report.protection as prot

    def boom(*a, **k):  # noqa: ANN002, ANN003
        raise RuntimeError("disk full")

    monkeypatch.setattr(prot, "protection_markdown", boom)
    code, _, err = _protect(capsys, work, "out", "--seed", "99")
    assert code == 2 and "disk full" in err
    assert (work / "out" / "released.csv").read_bytes() == first
    assert not [p for p in work.iterdir() if p.name.startswith(".out.")]


def test_a_stratum_column_is_checked_up_front() -> None:
    plan = plan_from_mapping({"steps": [{"method": "pram", "variables": ["sex"], "strata": "regoin"}]})
    with pytest.raises(PlanError, match=r"step 1 \(pram\): parameter `strata`.*'regoin' \(did you mean 'region'\?\)"):
        check_plan(plan, sdc.load_example())


@pytest.mark.parametrize("column, words", [
    (pd.Series(["a", "b", "c"]), "holds text."),
    (pd.Series(["a", "b", "c"], dtype="category"), "holds categories."),
    (pd.Series([True, False, True]), "holds true/false values."),
])
def test_a_numeric_step_on_a_non_numeric_column_says_what_it_holds_in_words(column: pd.Series, words: str) -> None:
    # The message must not show a pandas dtype name: it differs between pandas 1.5 ("object")
    # and pandas 3 ("str").
    data = pd.DataFrame({"x": column})
    plan = plan_from_mapping({"steps": [{"method": "add_noise", "variables": ["x"]}]})
    with pytest.raises(PlanError) as err:
        check_plan(plan, data)
    assert str(err.value).endswith(f"'x' {words}")
    assert "object" not in str(err.value) and "dtype" not in str(err.value)


def test_population_size_flag_and_early_refusal(tmp_path, capsys, monkeypatch) -> None:
    """sdc protect had no --population-size (a config copy was needed), and a population
    smaller than the data was refused only by the assessment, after the steps had run."""
    import sdc.workflow.protect as wp
    from sdc.cli.main import main

    data = tmp_path / "ex.csv"
    sdc.load_example().to_csv(data, index=False)
    ran = []
    real = wp.run_steps
    monkeypatch.setattr(wp, "run_steps", lambda *a, **k: ran.append(1) or real(*a, **k))
    args = ["protect", str(data), "--keys", "age,sex,region", "--recode", "age=10", "--out", str(tmp_path / "p")]
    assert main([*args, "--population-size", "100"]) == 2
    err = capsys.readouterr().err
    assert "--population-size must be an integer >=" in err and not ran, err
    assert not (tmp_path / "p").exists()
    assert main([*args, "--population-size", "100000"]) == 0 and ran
    assert "100000" in (tmp_path / "p" / "protection.json").read_text(encoding="utf-8")


def test_columns_no_step_touches_keep_the_inputs_values(tmp_path: Path, capsys) -> None:
    """pandas' default float parser read 0.9412864224039919 as 0.941286422403992 (14 % of
    shortest-form doubles): the release changed a column the plan never named."""
    rng = np.random.default_rng(7)
    w = rng.random(2000) * 10
    lines = ["age,n,w"] + [f"{20 + i % 60},{i},{w[i]!r}" for i in range(2000)]
    (tmp_path / "in.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "protect", str(tmp_path / "in.csv"), "--recode", "age=10", "--no-assess",
                           "--out", str(tmp_path / "out"))
    assert code == 0, err
    got = (tmp_path / "out" / "released.csv").read_text(encoding="utf-8").splitlines()
    kept = [ln.rsplit(",", 2)[1:] for ln in got[1:]]  # the recoded age band is quoted: "(20,30]"
    assert kept == [ln.split(",")[1:] for ln in lines[1:]]  # n and w field by field, as in the input


def test_utility_variables_of_the_comparison(work: Path, capsys: pytest.CaptureFixture) -> None:
    """protect's comparison takes the utility variables as a sweep does (issue 26, item 6)."""
    from sdc.workflow.protect import protect_data

    data = sdc.load_example()
    plan = {"plan": {"seed": 1}, "steps": [{"method": "add_noise", "variables": ["bmi"], "noise": 20}]}
    run = protect_data(data, plan, config=work / "run.toml")
    assert "cholesterol" not in set(run.comparison.marginals["variable"])
    run = protect_data(data, plan, config=work / "run.toml", utility_variables=["bmi", "cholesterol"])
    assert set(run.comparison.marginals["variable"]) == {"bmi", "cholesterol"}
    (work / "noise.toml").write_text('[plan]\nseed = 1\n[[steps]]\nmethod = "add_noise"\nvariables = ["bmi"]\n'
                                     'noise = 20\n', encoding="utf-8")
    code, _, err = _protect(capsys, work, "out", "--utility-variables", "bmi,cholesterol", plan="noise.toml")
    assert code == 0, err


# --- every declared method, and each variant, in a one-step plan -------------------------------

@pytest.fixture(scope="module")
def complete() -> pd.DataFrame:
    return complete_example()


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    p = tmp_path_factory.mktemp("key") / "key.txt"
    p.write_text(KEY + "\n", encoding="utf-8")
    p.chmod(0o600)
    return str(p)


STEPS = method_steps()


@pytest.mark.parametrize(("method", "parameters"), [s[1:] for s in STEPS], ids=[s[0] for s in STEPS])
def test_every_method_and_variant_runs_in_a_one_step_plan(method: str, parameters: dict, complete: pd.DataFrame,
                                                          key_file: str, tmp_path: Path) -> None:
    # The declared example (and each value of its `method` / `measure`) written as a TOML plan, read
    # back and run: the release is the API call's, with the step's seed.
    info = method_table()[method]
    params = {**parameters, **({"key_file": key_file} if "key_file" in parameters else {})}
    text = plan_to_toml(plan_from_mapping({"steps": [plan_step(method, params)]}))
    run = protect_data(complete, load_plan_text(tmp_path, text), reassess=False)
    args = dict(params)
    direct = info.function(complete, args.pop(info.variables_param), **args)
    assert [s.method for s in run.plan.steps] == [method]
    pd.testing.assert_frame_equal(run.released, direct.data)
