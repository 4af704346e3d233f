"""Reading Excel files (sdc._excel), regressions found by the review of the reading options: an Excel file's header is read
before its data (read_header), so --text names a column of one Excel file only, and search
checks its quasi-identifiers in an Excel file; identify matches --text against an Excel
header that is a number."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import sdc
from sdc.io import read_header
from tests.helpers import run_cli


def _frame(n: int = 40) -> pd.DataFrame:
    return pd.DataFrame({"age": [20 + i % 5 for i in range(n)], "sex": ["fm"[i % 2] for i in range(n)],
                         "code": [f"{i % 4:03d}" for i in range(n)]})


def test_read_header_of_an_excel_sheet(tmp_path: Path) -> None:
    p = tmp_path / "b.xlsx"
    with pd.ExcelWriter(p) as w:
        pd.DataFrame({"note": ["x"]}).to_excel(w, sheet_name="readme", index=False)
        pd.DataFrame({"a": [1], 2020: [2]}).to_excel(w, sheet_name="data", index=False)
    assert read_header(p) == ["note"]
    assert read_header(p, sheet="data") == read_header(p, sheet=1) == ["a", "2020"]
    assert read_header(p, sheet="nosuch") is None  # read_data says why


def test_text_column_of_one_excel_file_only(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """compare/attack with two Excel files: --text names a column the release lacks (dropped);
    the Excel release was refused ('`text_columns` names columns not in its header')."""
    df = _frame()
    orig, rel = tmp_path / "o.xlsx", tmp_path / "r.xlsx"
    df.to_excel(orig, index=False)
    df.drop(columns=["code"]).to_excel(rel, index=False)
    status, _, err = run_cli(capsys, "compare", str(orig), str(rel), "--keys", "age,sex", "--formats", "json",
                             "--text", "code", "--out", str(tmp_path / "c"))
    assert status == 0, err
    status, _, err = run_cli(capsys, "attack", "linkage", str(rel), "--original", str(orig), "--known", "age,sex",
                             "--text", "code", "--json")
    assert status == 0, err
    status, _, err = run_cli(capsys, "compare", str(orig), str(rel), "--keys", "age,sex", "--text", "nosuch",
                             "--out", str(tmp_path / "d"))
    assert status == 2 and "in none of ORIGINAL, RELEASED: 'nosuch'" in err


def test_search_names_a_quasi_identifier_missing_from_an_excel_file(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture) -> None:
    data = tmp_path / "d.xlsx"
    _frame().drop(columns=["code"]).to_excel(data, index=False)
    cfg = tmp_path / "s.toml"
    cfg.write_text('[keys]\nsex = { prefix = true }\ncode = { prefix = true }\n[models]\nk = 2\n',
                   encoding="utf-8")
    status, _, err = run_cli(capsys, "search", str(data), "--config", str(cfg), "--out", str(tmp_path / "s"))
    assert status == 2 and "key variable 'code' (config [keys])" in err and "text_columns" not in err, err


def test_identify_text_matches_a_numeric_excel_header(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """read_data matches --text against str(header); identify refused '2020' for the header 2020."""
    data = tmp_path / "n.xlsx"
    pd.DataFrame({"sex": ["f", "m"] * 10, 2020: list(range(20))}).to_excel(data, index=False)
    status, _, err = run_cli(capsys, "identify", str(data), "--text", "2020", "--json")
    assert status == 0, err


def test_search_json_records_the_reading_flags(tmp_path: Path) -> None:
    """search.json's config.data held only the config file's reading settings: a run with
    --na-values NA recorded none."""
    import json

    from sdc.cli.main import main

    data = tmp_path / "d.csv"
    data.write_text("age,sex\n" + "".join(f"{20 + i % 30},{'fm'[i % 2]}\n" for i in range(60)), encoding="utf-8")
    cfg = tmp_path / "s.toml"
    cfg.write_text('[keys]\nage = { intervals = [10, 20] }\nsex = { prefix = true }\n[models]\nk = 2\n',
                   encoding="utf-8")
    out = tmp_path / "found"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out), "--na-values", "NA", "--sep", ","]) == 0
    doc = json.loads((out / "search.json").read_text(encoding="utf-8"))
    assert doc["config"]["data"]["sep"] == "," and doc["config"]["data"]["na_values"] == ["NA"], doc["config"]["data"]
