"""sdc advise on the command line: the folder, plan_1.toml rerun by sdc protect, bad input in one line."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import sdc
from tests.helpers import run_cli

CONFIG = """[variables]
categorical_keys = ["sex", "region"]
continuous_keys = ["age"]

[thresholds]
k = 3
risk = 0.34
max_global_risk = 0.2

[options]
measures = ["k_anonymity", "risk"]

[output]
formats = ["json"]
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("advise")
    sdc.load_example().head(200).to_csv(d / "small.csv", index=False)
    (d / "run.toml").write_text(CONFIG, encoding="utf-8")
    (d / "nokeys.toml").write_text("[thresholds]\nk = 3\n", encoding="utf-8")
    return d


def test_advise_writes_the_ranked_plans_and_protect_reruns_the_best(files, capsys):
    out = files / "advice"
    code, text, err = run_cli(capsys, "advise", str(files / "small.csv"), "--config", str(files / "run.toml"),
                              "--out", str(out), "--seed", "3", "--top", "2")
    assert code == 0, err
    assert "meet every threshold; the best:" in text and "advice.csv" in text
    table = pd.read_csv(out / "advice.csv")
    assert table.loc[0, "rank"] == 1 and table["meets"].iloc[0]
    assert (out / "plan_1.toml").is_file() and (out / "plan_2.toml").is_file() and not (out / "plan_3.toml").exists()
    assert (out / "comparison" / "report.json").is_file()
    code, text, err = run_cli(capsys, "protect", str(files / "small.csv"), "--plan", str(out / "plan_1.toml"),
                              "--out", str(files / "protected"))
    assert code == 0, err
    from sdc.io import read_data

    released = read_data(files / "protected" / "released.csv")
    plan_steps = table.loc[0, "steps"]
    assert plan_steps.startswith("global_recode") and len(released) == 200
    doc = json.loads((out / "comparison" / "report.json").read_text(encoding="utf-8"))
    assert doc  # the comparison of the best, by compare's writer


@pytest.mark.parametrize("extra, message", [
    (["--top", "0"], "--top must be"),
    (["--max-candidates", "0"], "max-candidates"),
])
def test_bad_flags_one_line(files, capsys, extra, message):
    code, _, err = run_cli(capsys, "advise", str(files / "small.csv"), "--config", str(files / "run.toml"),
                           "--out", str(files / "bad"), *extra)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1


def test_config_without_keys_one_line(files, capsys):
    code, _, err = run_cli(capsys, "advise", str(files / "small.csv"), "--config", str(files / "nokeys.toml"),
                           "--out", str(files / "bad2"))
    assert code != 0 and "key variables" in err and len(err.strip().splitlines()) == 1


def test_none_kept_prints_why_and_exits_1(files, capsys):
    (files / "strict.toml").write_text(CONFIG.replace("risk = 0.34", "risk = 0.01"), encoding="utf-8")
    code, text, err = run_cli(capsys, "advise", str(files / "small.csv"), "--config", str(files / "strict.toml"),
                              "--out", str(files / "strict"), "--max-candidates", "2")
    assert code == 1, err
    assert "The nearest plan, candidate" in text and "fails: " in text
    assert "(1 file in " in text  # advice.csv alone
