"""CLI: ldiversity, tcloseness, inference (JSON contracts, readable output, errors)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tests.helpers import run_cli as run


@pytest.fixture
def path(tmp_path):
    df = pd.DataFrame({
        "age": [20, 22, 35, 38, 51, 55, 20, 23],
        "sex": ["f", "f", "m", "m", "f", "f", "m", "m"],
        "dx": ["flu", "hiv", "flu", "flu", "cold", "flu", np.nan, "cold"],
        "arm": ["A", "A", "B", "B", "A", "B", "A", "B"],
        "flag": [1, 1, 0, 0, 1, 0, 1, 0],
        "chol": [4.1, 5.2, 6.3, 4.4, 5.5, 6.6, 4.7, 5.8],
    })
    p = tmp_path / "d.csv"
    df.to_csv(p, index=False)
    return str(p)



def test_ldiversity_json(capsys, path):
    code, out, err = run(capsys, "ldiversity", path, "--keys", "age,sex", "--sensitive", "dx", "--bins",
                         "age=0,30,60", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["n_records"] == 8 and doc["keys"] == ["age", "sex"] and doc["l"] == 2
    per = doc["dx"]
    for f in ["n_records_below_l", "pct_records_below_l", "min_distinct", "mean_distinct_per_record", "min_entropy",
              "min_recursive", "n_classes_below_l"]:
        assert f in per, f
    assert doc["by_sensitive"]["dx"] == per
    assert doc["binning"][0]["labels"] == ["0--30", "30--60"]
    # classes (age band, sex): (0-30,f) {flu,hiv}; (30-60,m) {flu}; (30-60,f) {cold,flu}; (0-30,m) {NA,cold}
    assert per["n_records_below_l"] == 4 and per["n_classes_below_l"] == 2


def test_ldiversity_text_and_mode(capsys, path):
    code, out, _ = run(capsys, "ldiversity", path, "--keys", "sex", "--sensitive", "dx,chol", "--mode", "sdcmicro")
    # the report's l-diversity section: one row per sensitive variable, the classes below l of each
    assert code == 0 and "l-diversity by sensitive variable:" in out and "Mode sdcmicro;" in out
    rows = [ln.split()[0] for ln in out.split("l-diversity by sensitive variable:")[1].splitlines()[3:5]]
    assert rows == ["dx", "chol"]
    assert "Classes with fewer than 2 distinct values of dx" in out and "of chol" in out


def test_tcloseness_json(capsys, path):
    code, out, err = run(capsys, "tcloseness", path, "--keys", "sex", "--sensitive", "chol", "--distance",
                         "wasserstein", "--t", "0.1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    for f in ["n_records", "keys", "sensitive", "distance", "t", "max_t", "n_classes_above_t", "n_records_above_t",
              "pct_records_above_t"]:
        assert f in doc, f
    assert doc["distance"] == "wasserstein" and doc["sensitive"] == "chol"


def test_inference_json_sorted(capsys, path):
    code, out, err = run(capsys, "inference", path, "--sensitive", "flag", "--candidates", "arm,sex,age", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows[0]["variables"] == ["arm"] and rows[0]["deterministic"] is True
    for f in ["variables", "sensitive", "deterministic", "max_posterior", "conditional_entropy",
              "pct_records_revealed"]:
        assert f in rows[0]
    revealed = [r["pct_records_revealed"] for r in rows]
    assert revealed == sorted(revealed, reverse=True)


@pytest.mark.parametrize(("argv", "message"), [
    (["ldiversity", "{p}", "--keys", "age", "--sensitive", "dxx"], "did you mean 'dx'"),
    (["ldiversity", "{p}", "--keys", "age", "--sensitive", "dx", "--bins", "age"], "expected COLUMN=EDGES"),
    (["ldiversity", "{p}", "--keys", "age", "--sensitive", "dx", "--bins", "age=0,10"], "outside the bin edges"),
    (["tcloseness", "{p}", "--keys", "age", "--sensitive", "dx"], "needs a numeric or ordered categorical"),
    (["tcloseness", "{p}", "--keys", "age", "--sensitive", "chol", "--t", "-1"], "--t must lie in"),
    (["inference", "{p}", "--sensitive", "flag", "--min-posterior", "2"], "--min-posterior must lie in"),
])
def test_errors_one_line(capsys, path, argv, message):
    code, out, err = run(capsys, *[a.replace("{p}", path) for a in argv])
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err
