"""CLI: suda, modrisk, uniqueness, risk --household."""

from __future__ import annotations

import json

import pytest

import sdc
from tests.helpers import run_cli as run


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    p = tmp_path_factory.mktemp("data") / "example.csv"
    sdc.load_example().to_csv(p, index=False)
    return str(p)



def test_suda_json(capsys, example):
    code, out, err = run(capsys, "suda", example, "--keys", "age,sex,region,marital_status", "--json")
    assert code == 0, err
    doc = json.loads(out)
    for f in ["n_records", "keys", "score_sum", "score_max", "n_records_with_msu", "dis_sum", "dis_max",
              "attribute_contributions", "dis_table"]:
        assert f in doc, f
    r = sdc.suda(sdc.load_example(), ["age", "sex", "region", "marital_status"])
    assert doc["score_sum"] == r.score_sum and set(doc["attribute_contributions"]) == {"age", "sex", "region", "marital_status"}


def test_risk_with_household(capsys, example):
    code, out, err = run(capsys, "risk", example, "--keys", "age,sex,region", "--weights", "weight", "--household",
                         "household_id", "--json")
    assert code == 0, err
    doc = json.loads(out)
    h = sdc.household_risk(sdc.load_example(), ["age", "sex", "region"], "household_id", weights="weight")
    assert doc["hier_expected_reidentifications"] == pytest.approx(h.expected_reidentifications)
    assert doc["hier_risk"] == pytest.approx(h.global_risk) and doc["hier_risk_pct"] == pytest.approx(h.global_risk_pct)
    code, out, _ = run(capsys, "risk", example, "--keys", "age,sex", "--household", "household_id")
    assert "households  " in out and "household expected re-identifications" in out


def test_modrisk_json_and_text(capsys, example):
    code, out, err = run(capsys, "modrisk", example, "--keys", "age,sex", "--weights", "weight", "--method", "IPF",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["method"] == "IPF" and {"gr1", "gr2", "gr1perc", "gr2perc"} <= set(doc)
    code, out, _ = run(capsys, "modrisk", example, "--formula", "~ sex + region", "--keys", "sex", "--weights", "weight")
    assert code == 0 and "~ sex + region" in out


def test_uniqueness_json(capsys, example):
    code, out, err = run(capsys, "uniqueness", example, "--keys", "age,sex,region", "--sampling-fraction", "0.05",
                         "--weights", "weight", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc["estimates"]) == {"zayatz", "pitman", "snb"}
    # Pitman's maximum is on the edge alpha = 0 of the papers' space: no estimate, with the reason
    assert doc["chosen"]["model"] == "zayatz" and doc["population_size"] == round(4125 / 0.05)
    assert doc["estimates"]["pitman"]["population_uniques"] is None
    assert "alpha = 0" in doc["estimates"]["pitman"]["note"] and "Pitman gives no estimate" in err
    assert {"prosecutor_highest_risk", "journalist_average_risk", "marketer_risk"} <= set(doc["attacker_models"])
    code, out, err = run(capsys, "uniqueness", example, "--keys", "age,sex,region", "--sampling-fraction", "0.05",
                         "--variant", "arx", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["chosen"]["model"] == "pitman" and doc["estimates"]["pitman"]["note"] == ""
    assert doc["chosen"]["population_uniques"] == pytest.approx(3.9195540806159825, rel=1e-6)  # ARX's (alpha < 0)


@pytest.mark.parametrize(("argv", "message"), [
    (["uniqueness", "{p}", "--keys", "age"], "one of the arguments --population-size --sampling-fraction is required"),
    (["uniqueness", "{p}", "--keys", "age", "--sampling-fraction", "2"], "--sampling-fraction must lie in (0, 1]"),
    (["modrisk", "{p}", "--keys", "age", "--method", "IPF", "--formula", "~ age*sex"], "cannot fit models with interactions"),
    (["suda", "{p}", "--keys", "age", "--max-size", "3"], "--max-size must be an integer <= 1"),
    (["risk", "{p}", "--keys", "age", "--household", "household"], "did you mean 'household_id'"),
])
def test_errors_one_line(capsys, example, argv, message):
    code, out, err = run(capsys, *[a.replace("{p}", example) for a in argv])
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err
