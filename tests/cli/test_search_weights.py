"""``sdc search`` with ARX's attribute weights: from the configuration's [search] and from the
flag (``--attribute-weights KEY=W,...``), both checked by the option's one declaration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdc.workflow.config import ConfigError
from sdc.workflow.search_config import search_config_from_mapping
from tests.helpers import run_cli


def _files(tmp_path: Path, search: str = "") -> tuple[Path, Path]:
    data = tmp_path / "d.csv"
    data.write_text("age,sex\n" + "".join(f"{20 + i % 30},{'fm'[i % 2]}\n" for i in range(60)), encoding="utf-8")
    cfg = tmp_path / "s.toml"
    cfg.write_text('[keys]\nage = { intervals = [10, 20] }\nsex = { prefix = true }\n[models]\nk = 4\n'
                   f'[search]\nmetric = "height"\n{search}', encoding="utf-8")
    return data, cfg


def _found(capsys: pytest.CaptureFixture, out: Path, *argv: str) -> tuple:
    status, text, err = run_cli(capsys, "search", *argv, "--out", str(out), "--json")
    assert status == 0, err
    s = json.loads(text)
    return s["levels"], s["loss"], s.get("attribute_weights")


def test_weights_from_the_config_and_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data, cfg = _files(tmp_path, "attribute_weights = { age = 1, sex = 0.25 }\n")
    (tmp_path / "plain").mkdir()
    _, plain_cfg = _files(tmp_path / "plain")
    got = _found(capsys, tmp_path / "a", str(data), "--config", str(cfg))
    flag = _found(capsys, tmp_path / "b", str(data), "--config", str(plain_cfg), "--attribute-weights", "age=1,sex=0.25")
    plain = _found(capsys, tmp_path / "c", str(data), "--config", str(plain_cfg))
    assert got == flag and got[2] == {"age": 1.0, "sex": 0.25}
    assert plain[2] is None and plain[1] == sum(got[0].values()) and got[1] == got[0]["age"] + 0.25 * got[0]["sex"]


def test_bad_weights_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data, cfg = _files(tmp_path)
    status, _, err = run_cli(capsys, "search", str(data), "--config", str(cfg), "--out", str(tmp_path / "f"),
                             "--attribute-weights", "age=heavy")
    assert status == 2 and "expected NAME=NUMBER[,NAME=...], got 'age=heavy'" in err
    status, _, err = run_cli(capsys, "search", str(data), "--config", str(cfg), "--out", str(tmp_path / "f"),
                             "--attribute-weights", "agee=1")
    assert status == 2 and "names 'agee', which is not a quasi-identifier" in err and "did you mean 'age'" in err
    assert "Traceback" not in err
    with pytest.raises(ConfigError, match=r"^config \[search\]\.attribute_weights must be a table of key = weight "
                                          r"\(a number >= 0\)"):
        search_config_from_mapping({"keys": {"a": "a.csv"}, "search": {"attribute_weights": {"a": -1}}})
