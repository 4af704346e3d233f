"""A misspelt column is refused in one line before the file's records are read (issue 26 c):
sdc risk, sdc ldiversity, sdc protect, sdc compare and sdc sweep check their columns against
the header first, as sdc assess does."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import sdc.io

from tests.helpers import run_cli

SWEEP = """
[sweep]
keys = ["sex", "agee"]
[[steps]]
method = "pram"
variables = ["sex"]
grid = { flip = [0.1] }
"""

PLAN = """
[[steps]]
method = "global_recode"
variables = ["agee"]
width = 10
"""


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "d.csv").write_text("sex,age,disease,w\n0,30,a,1\n1,40,b,2\n0,35,a,1\n")
    (tmp_path / "r.csv").write_text("sex,age,disease,w\n0,30,a,1\n1,40,b,2\n0,35,a,1\n")
    (tmp_path / "sweep.toml").write_text(SWEEP)
    (tmp_path / "plan.toml").write_text(PLAN)

    def no_read(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the records were read before the columns were checked")

    cli_main = importlib.import_module("sdc.cli.main")  # sdc.cli.main the name is the function
    for mod in (cli_main, sdc.io):
        monkeypatch.setattr(mod, "read_data", no_read)
    monkeypatch.setattr(cli_main, "read_columns", no_read)
    return tmp_path


@pytest.mark.parametrize("argv, message", [
    (["risk", "{d}", "--keys", "sex,agee"], "--keys names columns not in the data: 'agee' (did you mean 'age'?)"),
    (["risk", "{d}", "--keys", "sex,age", "--weights", "ww"], "--weights names columns not in the data: 'ww'"),
    (["ldiversity", "{d}", "--keys", "sex,age", "--sensitive", "disase"],
     "--sensitive names columns not in the data: 'disase' (did you mean 'disease'?)"),
    (["protect", "{d}", "--keys", "sex,agee", "--k", "2", "--out", "{t}/p"], "'agee'"),
    (["protect", "{d}", "--plan", "{t}/plan.toml", "--keys", "sex", "--out", "{t}/p"],
     "step 1 (global_recode): parameter `variables` names a column that is not in the data: 'agee'"),
    (["protect", "{d}", "--keys", "sex", "--pram", "sex=0.8", "--utility-variables", "agee", "--out", "{t}/p"],
     "--utility-variables names columns not in the data: 'agee'"),
    (["compare", "{d}", "{t}/r.csv", "--keys", "sex,agee", "--out", "{t}/c"], "'agee'"),
    (["compare", "{d}", "{t}/r.csv", "--keys", "sex", "--utility-variables", "agee", "--out", "{t}/c"],
     "--utility-variables names columns not in the original file: 'agee'"),
    (["sweep", "{d}", "--plan", "{t}/sweep.toml", "--out", "{t}/s"],
     "`[sweep].keys` names columns not in the data: 'agee' (did you mean 'age'?)"),
])
def test_a_misspelt_column_is_refused_before_the_read(files: Path, capsys: pytest.CaptureFixture,
                                                       argv: list[str], message: str) -> None:
    args = [a.format(d=files / "d.csv", t=files) for a in argv]
    code, _, err = run_cli(capsys, *args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sdc: error: "), err
    assert message in lines[0], lines[0]
