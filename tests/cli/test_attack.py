"""``sdc attack ...``: every attack from the command line, JSON output, one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import sdc
from tests.helpers import run_cli


@pytest.fixture
def files(tmp_path):
    df = sdc.load_example()
    orig = tmp_path / "orig.csv"
    df.to_csv(orig, index=False)
    rel = df.copy()
    rel["age"] = (rel["age"] // 10) * 10
    released = tmp_path / "released.csv"
    rel.to_csv(released, index=False)
    train, control = sdc.split_control(df, share=0.2, seed=1)
    train_p, control_p = tmp_path / "train.csv", tmp_path / "control.csv"
    train.to_csv(train_p, index=False)
    control.to_csv(control_p, index=False)
    voters = df.sample(300, random_state=1)[["subject_id", "age", "sex", "region"]]
    ext = tmp_path / "voters.csv"
    voters.to_csv(ext, index=False)
    cats = tmp_path / "cats.csv"
    pd.DataFrame({"value": sorted(df["diagnosis"].dropna().unique())}).assign(
        category=lambda t: np.where(t["value"].str.contains("diabetes|hypertension"), "metabolic", "other")
    ).to_csv(cats, index=False)
    return {"orig": str(orig), "released": str(released), "train": str(train_p), "control": str(control_p),
            "ext": str(ext), "cats": str(cats)}


def test_linkage_external_with_truth(capsys, files):
    code, out, err = run_cli(capsys, "attack", "linkage", files["orig"], "--external", files["ext"],
                             "--on", "age,sex,region", "--truth", "subject_id", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["n_external"] == 300 and doc["n_targets"] == 300 and doc["n_correct"] == 300
    assert 0 < doc["precision_at_1"] <= 1 and doc["truth"] == "subject_id"
    code, out, _ = run_cli(capsys, "attack", "linkage", files["orig"], "--external", files["ext"],
                           "--on", "age,sex,region", "--truth", "subject_id")
    assert code == 0 and "precision at 1" in out and "Match-set sizes" in out


def test_linkage_drawn_from_original_before_after(capsys, files):
    args = ["--original", files["orig"], "--known", "age,sex,region", "--share", "0.2", "--seed", "1", "--json"]
    code, out, err = run_cli(capsys, "attack", "linkage", files["orig"], *args)
    before = json.loads(out)
    code2, out2, _ = run_cli(capsys, "attack", "linkage", files["released"], *args)
    after = json.loads(out2)
    assert code == code2 == 0, err
    assert before["parameters"]["seed"] == 1 and before["n_external"] == after["n_external"] == 825
    assert after["precision_at_1"] < before["precision_at_1"]
    # Library and CLI agree.
    df = sdc.load_example()
    lib = sdc.simulate_linkage_attack(df, df, ["age", "sex", "region"], share=0.2, seed=1)
    assert before["precision_at_1"] == pytest.approx(lib.precision_at_1, rel=1e-12)


def test_linkage_nearest(capsys, files):
    code, out, err = run_cli(capsys, "attack", "linkage", files["orig"], "--original", files["orig"],
                             "--known", "bmi,systolic_bp,sex", "--method", "nearest", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["numeric"] == ["bmi", "systolic_bp"] and doc["method"] == "nearest"


@pytest.mark.parametrize("argv", [
    ["singling-out", "--columns", "age,sex,region,marital_status", "--n-attacks", "40"],
    ["singling-out", "--mode", "univariate"],
    ["linkability", "--aux-a", "age,sex", "--aux-b", "region,marital_status", "--n-attacks", "60"],
    ["inference", "--aux", "age,sex,region", "--secret", "diagnosis", "--n-attacks", "60"],
])
def test_anonymeter_attacks(capsys, files, argv):
    kind, rest = argv[0], argv[1:]
    code, out, err = run_cli(capsys, "attack", kind, files["train"], "--original", files["train"],
                             "--control", files["control"], "--seed", "3", *rest, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["attack"] == kind.replace("-", "_") and doc["seed"] == 3
    assert 0 <= doc["risk"] <= 1 and len(doc["rates"]) == 3
    code, out, _ = run_cli(capsys, "attack", kind, files["train"], "--original", files["train"],
                           "--control", files["control"], *rest)
    assert code == 0 and "Success rates (Wilson score)" in out and "risk = (main - control)" in out


def test_skewness_with_categories(capsys, files):
    code, out, err = run_cli(capsys, "attack", "skewness", files["orig"], "--keys", "age,sex,region",
                             "--sensitive", "diagnosis", "--categories", files["cats"], "--json", "--top", "2")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["n_records_pure"] >= 0 and len(doc["top_classes"]) == 2
    code, out, _ = run_cli(capsys, "attack", "skewness", files["orig"], "--keys", "age,sex,region",
                           "--sensitive", "diagnosis")
    assert code == 0 and "Most skewed classes" in out


def test_distance_and_record_linkage(capsys, tmp_path):
    rng = np.random.default_rng(0)
    x = pd.DataFrame({"a": rng.normal(size=50), "b": rng.normal(size=50) * 10})
    xm = x + rng.normal(scale=0.01, size=x.shape)
    xp, mp = tmp_path / "x.csv", tmp_path / "xm.csv"
    x.to_csv(xp, index=False)
    xm.to_csv(mp, index=False)
    code, out, err = run_cli(capsys, "attack", "distance", str(mp), "--original", str(xp), "--variables", "a,b",
                             "--rmd", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["dRisk"]["risk"] == pytest.approx(sdc.distance_risk(x, xm, ["a", "b"]).risk)
    assert doc["dRiskRMD"]["seed"] == 0
    code, out, _ = run_cli(capsys, "attack", "distance", str(mp), "--original", str(xp), "--variables", "a,b")
    assert code == 0 and "dRisk (k = 0.05)" in out
    code, out, err = run_cli(capsys, "attack", "record-linkage", str(mp), "--original", str(xp), "--variables", "a,b",
                             "--distance", "euclidean", "--json")
    assert code == 0, err
    assert json.loads(out)["correct_matches"] == 50
    code, out, _ = run_cli(capsys, "attack", "record-linkage", str(mp), "--original", str(xp), "--variables", "a,b",
                           "--weights", "1,2")
    assert code == 0 and "Correct matches".lower() in out.lower()


@pytest.mark.parametrize("argv, message", [
    (["linkage", "{orig}"], "give either --external FILE"),
    (["linkage", "{orig}", "--external", "{ext}"], "--external needs --on"),
    (["linkage", "{orig}", "--original", "{orig}"], "--original needs --known"),
    (["linkage", "{orig}", "--original", "{orig}", "--known", "agee"], "did you mean 'age'"),
    # (the argument's name may be shown as the library's `name` or as the command's --flag)
    (["linkage", "{orig}", "--original", "{orig}", "--known", "age", "--share", "2"], "must lie in (0, 1]"),
    (["singling-out", "{orig}", "--original", "{orig}", "--n-cols", "0"], "must be an integer >= 1"),
    (["inference", "{orig}", "--original", "{orig}", "--aux", "age", "--secret", "nope"],
     "--secret names columns not in the released file: 'nope'"),
    (["distance", "{orig}", "--original", "{orig}", "--variables", "sex"], "must be numeric"),
    (["skewness", "{orig}", "--keys", "age", "--sensitive", "diag", "--categories", "{cats}"], "is not a column"),
    (["linkability", "{orig}", "--original", "{orig}", "--aux-a", "age,sex", "--aux-b", "age"],
     "sdc: error: --aux-a and --aux-b must be disjoint; 'age' is in both."),
])
def test_errors_are_one_line(capsys, files, argv, message):
    argv = [a.format(**files) for a in argv]
    code, out, err = run_cli(capsys, "attack", *argv)
    assert code == 2 and message in err
    assert err.startswith("sdc: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_attack_needs_a_subcommand(capsys):
    code, _, err = run_cli(capsys, "attack")
    assert code == 2 and ("ATTACK" in err or "required" in err)


def test_singling_out_estimator_flag(capsys, files):
    # --estimator found divides by the queries found; the default by the attacks asked (anonymeter)
    docs = {}
    for est in ("anonymeter", "found"):
        code, out, err = run_cli(capsys, "attack", "singling-out", files["train"], "--original", files["train"],
                                 "--mode", "univariate", "--n-attacks", "5000", "--estimator", est, "--json")
        assert code == 0, err
        docs[est] = json.loads(out)
    found = docs["found"]["parameters"]["n_queries_found"]
    assert found < 5000 and docs["anonymeter"]["n_attacks"] == 5000 and docs["found"]["n_attacks"] == found
    assert docs["anonymeter"]["n_success"] == docs["found"]["n_success"]
    assert docs["anonymeter"]["parameters"]["estimator"] == "anonymeter"
