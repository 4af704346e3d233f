"""``sdc identify``: the table and checklist, --out (a config sdc assess reads), --json, --role,
--config, --fail-on-identifiers, escaping of hostile column names, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from sdc.io import read_data
from sdc.workflow.config import load_config
from tests.helpers import run_cli


@pytest.fixture
def data(tmp_path: Path) -> Path:
    n = 30
    df = pd.DataFrame({
        "patient_id": [f"P{i:03d}" for i in range(n)],
        "zip": (["03601", "10001", "94110"] * n)[:n],
        "age": [20 + (i * 7) % 75 for i in range(n)],
        "sex": (["f", "m"] * n)[:n],
        "diagnosis": (["flu", "none", "asthma"] * n)[:n],
        "email": [f"p{i}@example.org" for i in range(n)],
    })
    p = tmp_path / "d.csv"
    df.to_csv(p, index=False)
    return p


def test_table_and_checklist(capsys, data: Path) -> None:
    code, out, err = run_cli(capsys, "identify", str(data))
    assert code == 0 and err == ""
    assert "Identification of" in out and "30 records, 6 columns" in out
    lines: dict[str, str] = {}
    for ln in out.splitlines():  # the first line naming each column is its row in the roles table
        if ln.startswith("  ") and ln.split():
            lines.setdefault(ln.split()[0], ln)
    assert "direct identifier" in lines["patient_id"] and "quasi-identifier" in lines["zip"]
    assert "sensitive" in lines["diagnosis"] and "direct identifier" in lines["email"]
    assert "HIPAA Safe Harbor checklist" in out and "4 of 18 categories found" in out
    assert "(F) e-mail addresses" in out and "expert determination" in out
    # The ZIP codes were read as text: 03601 kept its leading zero and its restricted prefix.
    assert "036" in out and "Safe Harbor requires 000 there" in out
    assert "p0@example.org" not in out  # no data value is printed


def test_out_writes_a_config_sdc_assess_reads(capsys, data: Path, tmp_path: Path) -> None:
    out_path = tmp_path / "cfg" / "run.toml"
    code, out, err = run_cli(capsys, "identify", str(data), "--out", str(out_path))
    assert code == 0 and "Starter config written to" in out
    cfg = load_config(out_path)
    assert Path(cfg.data_path).resolve() == data.resolve()
    assert 'path = "../d.csv"' in out_path.read_text()
    assert set(cfg.keys) == {"zip", "age", "sex"} and cfg.sensitive == ("diagnosis",) and cfg.id == "patient_id"
    code, out, err = run_cli(capsys, "assess", "--config", str(out_path), "--out", str(tmp_path / "rep"),
                             "--measures", "k_anonymity", "--formats", "json")
    assert code == 0, err


def test_json(capsys, data: Path, tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "identify", str(data), "--json", "--out", str(tmp_path / "c.toml"))
    assert code == 0 and "Starter config written" in err
    doc = json.loads(out)
    roles = {c["column"]: c["role"] for c in doc["columns"]}
    assert roles["sex"] == "quasi-identifier" and roles["email"] == "direct identifier"
    cats = {c["code"]: c for c in doc["safe_harbor"]["categories"]}
    assert len(cats) == 18 and cats["F"]["found"] and cats["F"]["columns"] == ["email"]
    assert doc["safe_harbor"]["restricted_zip3"][0] == "036"
    assert doc["parameters"]["alpha"] == 0.1 and doc["summary"]["safe_harbor_found"] == ["B", "C", "F", "R"]


def test_role_flags_and_options(capsys, data: Path) -> None:
    code, out, err = run_cli(capsys, "identify", str(data), "--json", "--role", "diagnosis=qi", "--role",
                             "email=other", "--alpha", "0.5", "--beta", "0.02", "--average", "values")
    assert code == 0
    doc = json.loads(out)
    col = {c["column"]: c for c in doc["columns"]}
    assert col["diagnosis"]["role"] == "quasi-identifier" and col["diagnosis"]["overridden"]
    assert col["email"]["role"] == "other"
    assert doc["parameters"] == {"missing_threshold": 0.85, "near_constant": 0.95, "alpha": 0.5, "beta": 0.02,
                                 "average": "values"}


def test_config_roles_are_kept(capsys, data: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "old.toml"
    cfg.write_text('[data]\npath = "d.csv"\n[variables]\ncategorical_keys = ["diagnosis"]\nsensitive = ["sex"]\n')
    code, out, err = run_cli(capsys, "identify", str(data), "--json", "--config", str(cfg), "--role", "sex=other")
    doc = json.loads(out)
    col = {c["column"]: c["role"] for c in doc["columns"]}
    assert code == 0 and col["diagnosis"] == "quasi-identifier" and col["sex"] == "other"  # --role beats --config


def test_fail_on_identifiers(capsys, data: Path, tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "identify", str(data), "--fail-on-identifiers")
    assert code == 3
    clean = tmp_path / "clean.csv"
    pd.DataFrame({"sex": ["f", "m"] * 10, "smoker": ["y", "n", "n", "n"] * 5}).to_csv(clean, index=False)
    code, out, err = run_cli(capsys, "identify", str(clean), "--fail-on-identifiers")
    assert code == 0 and "0 of 18 categories found" in out


def test_escape_codes_in_column_names_are_not_printed_raw(capsys, tmp_path: Path) -> None:
    hostile = "\x1b[31mred\x1b]0;title\x07"
    bidi = "ab\u202ecd"
    p = tmp_path / "h.csv"
    pd.DataFrame({hostile: ["a", "b", "c"] * 4, bidi: ["x"] * 12, "sex": ["f", "m"] * 6}).to_csv(p, index=False)
    for extra, name in (([], "c.toml"), (["--json"], "c2.toml")):
        code, out, err = run_cli(capsys, "identify", str(p), *extra, "--out", str(tmp_path / name))
        assert code == 0
        for ch in ("\x1b", "\x07", "\u202e"):
            assert ch not in out and ch not in err
    code, out, err = run_cli(capsys, "identify", str(p))
    assert "\\x1b[31mred" in out and "ab\\u202ecd" in out
    toml = (tmp_path / "c.toml").read_text()
    assert "\x1b" not in toml and "\u202e" not in toml.split("[data]")[0]  # comments escaped
    assert load_config(tmp_path / "c.toml").keys  # and the names in strings are valid TOML


@pytest.mark.parametrize("argv, fragment", [
    (["--role", "nope"], "expected COLUMN=ROLE"),
    (["--role", "nope=qi"], "--role names columns not examined: 'nope'"),
    (["--role", "agee=qi"], "--role names columns not examined: 'agee' (did you mean 'age'?)."),
    (["--role", "sex=boss"], "unknown role 'boss' for column 'sex'"),
    (["--missing-threshold", "1.5"], "--missing-threshold must lie in [0, 1]"),
    (["--alpha", "0.01", "--beta", "0.5"], "--beta must not exceed --alpha"),
    (["--average", "rows"], "invalid choice"),
])
def test_errors_are_one_line(capsys, data: Path, argv: list[str], fragment: str) -> None:
    code, out, err = run_cli(capsys, "identify", str(data), *argv)
    assert code == 2 and fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_no_config_written_when_nothing_is_a_key(capsys, tmp_path: Path) -> None:
    p = tmp_path / "ids.csv"
    pd.DataFrame({"email": [f"u{i}@x.org" for i in range(12)]}).to_csv(p, index=False)
    target = tmp_path / "c.toml"
    code, out, err = run_cli(capsys, "identify", str(p), "--out", str(target))
    assert code == 2 and "no column is a quasi-identifier" in err and out == ""
    assert not target.exists()


def test_missing_file(capsys, tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "identify", str(tmp_path / "none.csv"))
    assert code == 2 and "no such file" in err


def test_read_data_text_columns(tmp_path: Path) -> None:
    p = tmp_path / "z.csv"
    p.write_text("zip,n,code\n02134,1,007\n10001,2,\n")
    assert read_data(p, text_columns=False)["zip"].tolist() == [2134, 10001]  # codes detection off
    assert read_data(p)["zip"].tolist() == ["02134", "10001"]  # by default a code with a leading zero is text
    df = read_data(p, text_columns=True)
    assert df["zip"].tolist() == ["02134", "10001"] and df["n"].tolist() == ["1", "2"]
    assert pd.isna(df.loc[1, "code"])  # missing stays missing
    df = read_data(p, text_columns=["zip"])
    assert df["zip"].tolist() == ["02134", "10001"] and df["n"].tolist() == [1, 2]


def test_a_config_value_is_named_as_the_config_key_though_an_option_has_its_name(capsys, tmp_path: Path) -> None:
    """identify's --alpha (g-distinct, with a default) is not the config's [options].alpha: a
    bad value from the file is the file's."""
    p = tmp_path / "d.csv"
    p.write_text("a,b\n1,2\n3,4\n", encoding="utf-8")
    cfg = tmp_path / "c.toml"
    cfg.write_text('[options]\nalpha = 5\n[variables]\ncategorical_keys = ["a"]\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "identify", str(p), "--config", str(cfg))
    assert code == 2 and err == "sdc: error: config [options].alpha must be a number in [0, 1]; got 5.\n"
