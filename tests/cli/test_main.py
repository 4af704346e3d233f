"""The command line: JSON contracts, readable output, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.cli.main import main
from tests.helpers import run_cli as run

RISK_FIELDS = ["n_records", "keys", "weights", "threshold", "n_classes", "n_unique", "pct_unique",
               "n_k_lt_threshold", "pct_k_lt_threshold", "n_k_le_threshold", "pct_k_le_threshold", "min_k",
               "median_k", "global_risk", "global_risk_pct", "expected_reidentifications", "max_risk"]
SNAPSHOT_FIELDS = ["keys", "n_classes", "n_unique", "pct_unique", "median_k", "pct_k_le_threshold",
                   "expected_reidentifications", "global_risk"]


@pytest.fixture
def csv(tmp_path):
    df = pd.DataFrame({"age": [30, 30, 40, 40, 50, np.nan], "sex": ["f", "f", "m", "m", "f", "m"],
                       "region": ["n", "n", "s", "s", "s", "n"], "w": [10.0, 20, 5, 12.5, 7.5, 30]})
    p = tmp_path / "d.csv"
    df.to_csv(p, sep=";", index=False)
    return p, df



def test_risk_json_has_the_contract_fields_and_matches_the_api(capsys, csv):
    path, df = csv
    code, out, err = run(capsys, "risk", str(path), "--keys", "age,sex,region", "--weights", "w", "--threshold", "2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    for f in RISK_FIELDS:
        assert f in doc, f
    r = sdc.individual_risk(df, ["age", "sex", "region"], weights="w")
    p = sdc.k_anonymity(df, ["age", "sex", "region"], weights="w", k=2)
    assert doc["keys"] == ["age", "sex", "region"] and doc["weights"] == "w" and doc["threshold"] == 2
    assert doc["expected_reidentifications"] == pytest.approx(r.expected_reidentifications, rel=1e-15)
    assert doc["n_k_lt_threshold"] == p.n_k_lt_threshold and doc["n_classes"] == p.n_classes
    assert doc["max_risk"] == pytest.approx(r.max_risk)


def test_risk_readable_output(capsys, csv):
    path, _ = csv
    code, out, _ = run(capsys, "risk", str(path), "--keys", "age,sex", "--threshold", "3")
    assert code == 0
    # the report's k-anonymity and risk sections, in the report's vocabulary
    for text in ["k-anonymity\n-----------", "records violating 3-anonymity (fk < 3)", "sample uniques (fk = 1)",
                 "Re-identification risk\n----------------------", "expected re-identifications",
                 "The riskiest classes (top 10)", "Class-size distribution"]:
        assert text in out


def test_missing_category_option_changes_counts(capsys, csv):
    path, _ = csv
    _, out_w, _ = run(capsys, "risk", str(path), "--keys", "age,sex", "--json")
    _, out_c, _ = run(capsys, "risk", str(path), "--keys", "age,sex", "--json", "--missing", "category")
    assert json.loads(out_w)["missing"] == "wildcard" and json.loads(out_c)["missing"] == "category"
    assert json.loads(out_c)["n_unique"] > json.loads(out_w)["n_unique"]


def test_snapshots_json(capsys, csv):
    path, _ = csv
    code, out, _ = run(capsys, "snapshots", str(path), "--keys", "age,sex,region", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 7
    for f in SNAPSHOT_FIELDS:
        assert f in rows[0]
    assert rows[-1]["keys"] == ["age", "sex", "region"] and rows[0]["keys"] == ["age"]


def test_snapshots_subsets_and_table(capsys, csv):
    path, _ = csv
    code, out, _ = run(capsys, "snapshots", str(path), "--keys", "age,sex,region", "--subsets", "age,sex;region")
    assert code == 0 and "age + sex" in out and "Risk by subset of the key variables" in out
    assert "Snapshots over key subsets:" in out and "\n  region " in out


@pytest.mark.parametrize(("argv", "message"), [
    (["risk", "nope.csv", "--keys", "a"], "no such file"),
    (["risk", "{path}", "--keys", "agee"], "did you mean 'age'"),
    (["risk", "{path}", "--keys", "age", "--weights", "sex"], "must be numeric"),
    (["risk", "{path}", "--keys", "age", "--threshold", "0"], "--threshold must be an integer >= 1"),
    (["risk", "{path}", "--keys", "age", "--alpha", "2"], "--alpha must be a number in [0, 1]; got 2"),
    (["risk", "{path}", "--keys", "age", "--max-global-risk", "1"], "--max-global-risk must lie in (0, 1)"),
    (["risk", "{path}"], "the following arguments are required: --keys"),
    (["risk", "{path}", "--keys", "age,,sex"], "expected comma-separated column names"),
    (["risk", "{path}", "--keys", "age", "--missing", "drop"], "invalid choice: 'drop'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_errors_are_one_line_on_stderr(capsys, csv, argv, message):
    path, _ = csv
    argv = [a.replace("{path}", str(path)) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def test_warnings_go_to_stderr_and_json_stays_clean(capsys, tmp_path):
    p = tmp_path / "u.csv"
    pd.DataFrame({"id": [1, 2, 3]}).to_csv(p, index=False)
    code, out, err = run(capsys, "risk", str(p), "--keys", "id", "--json")
    assert code == 0
    json.loads(out)
    assert err.startswith("sdc: warning: all 3 records are sample uniques")


def test_example_runs_without_arguments(capsys, tmp_path):
    save = tmp_path / "example.csv"
    code, out, err = run(capsys, "example", "--save", str(save))
    assert code == 0, err
    assert "bundled example" in out and "Risk by subset of the key variables" in out and "k = 5." in out
    assert pd.read_csv(save).shape == sdc.load_example().shape


def test_example_json(capsys):
    code, out, _ = run(capsys, "example", "--json")
    doc = json.loads(out)
    assert doc["risk"]["keys"] == ["age", "sex", "region", "marital_status"]
    assert len(doc["snapshots"]) == 15


def test_python_dash_m_sdc():
    proc = subprocess.run([sys.executable, "-m", "sdc", "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == f"sdc {sdc.__version__}"


def test_example_save_dir_writes_the_data_config_plan_and_sweep_plan(capsys, tmp_path):
    from sdc.datasets import EXAMPLE_FILES, example_path

    out = tmp_path / "ex"
    code, _, err = run(capsys, "example", "--save", str(out))
    assert code == 0, err
    bundled = Path(example_path()).parent
    for name in EXAMPLE_FILES:
        assert (out / name).read_bytes() == (bundled / name).read_bytes()
    # The copies work together where they are: the plan names the config, the config the data.
    code, _, err = run(capsys, "protect", str(out / "health_survey.csv"), "--plan", str(out / "example_plan.toml"),
                       "--out", str(tmp_path / "p"), "--formats", "json")
    assert code == 0, err
    code, _, err = run(capsys, "example", "--save", str(out))  # nothing overwritten
    assert code == 2 and "--save" in err


def test_sdc_alone_prints_the_workflow_and_minus_v_the_version(capsys):
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    stages = [ln.split()[0] for ln in out.splitlines() if ln.startswith("  ")]
    assert stages == ["identify", "assess", "protect", "compare", "sweep", "advise", "search", "attack",
                      "release"]
    with pytest.raises(SystemExit) as exc:
        main(["-V"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("sdc ")
