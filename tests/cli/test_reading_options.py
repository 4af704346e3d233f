"""The reading options (--sep, --na-values, --text, --sheet) of every command that reads a data
file: identify, protect, compare, sweep, search and attack take them as the analysis commands
do, pass them to every file they read, and take a config's (or plan's) [data] settings unless
the flag is given."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
import sdc.io
from tests.helpers import run_cli

N = 300


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    df = sdc.load_example().iloc[:N].reset_index(drop=True)
    df = df[["subject_id", "region", "age", "sex", "marital_status", "cholesterol", "bmi", "diagnosis", "weight"]]
    df["age"] = df["age"].astype(float)
    df.loc[df.index % 17 == 3, "age"] = np.nan  # the walk-through's case: NA markers in a numeric key
    df["code"] = [f"{i % 40:04d}" for i in range(N)]  # codes with leading zeros
    return df


def _with_markers(df: pd.DataFrame, marker: str = "NA") -> pd.DataFrame:
    return df.astype(object).where(df.notna(), marker)


@pytest.fixture(scope="module")
def files(frame: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("reading")
    out = {"clean": d / "clean.csv", "na": d / "na.csv", "xlsx": d / "two.xlsx", "dots": d / "dots.csv"}
    frame.to_csv(out["clean"], index=False)
    _with_markers(frame).to_csv(out["na"], index=False)
    _with_markers(frame, ".").to_csv(out["dots"], index=False)
    with pd.ExcelWriter(out["xlsx"]) as w:  # the data on the second sheet
        pd.DataFrame({"note": ["not the data"]}).to_excel(w, sheet_name="readme", index=False)
        _with_markers(frame).to_excel(w, sheet_name="data", index=False)
    released = frame.copy()
    released["age"] = (released["age"] // 10) * 10
    out["released"] = d / "released.csv"
    released.to_csv(out["released"], index=False)
    out["released_na"] = d / "released_na.csv"
    _with_markers(released).to_csv(out["released_na"], index=False)
    out["config"] = d / "c.toml"
    out["config"].write_text('[data]\nna_values = ["NA"]\n[variables]\ncategorical_keys = ["age", "sex", "region"]\n',
                             encoding="utf-8")
    out["sweep"] = d / "sweep.toml"
    out["sweep"].write_text('[sweep]\nkeys = ["age", "sex", "region"]\nk = 2\n[plan]\nseed = 3\n'
                            '[[steps]]\nmethod = "global_recode"\nvariables = ["age"]\ngrid = { width = [10, 20] }\n',
                            encoding="utf-8")
    out["sweep_na"] = d / "sweep_na.toml"
    out["sweep_na"].write_text(out["sweep"].read_text(encoding="utf-8") + '[data]\nna_values = ["NA"]\n',
                               encoding="utf-8")
    out["search"] = d / "search.toml"
    out["search"].write_text('[keys]\nsex = { mapping = [{ female = "*", male = "*" }] }\n'
                             'bmi = { intervals = [5, 20], start = 0 }\n[models]\nk = 2\n'
                             '[search]\nsuppression_limit = 0.1\n', encoding="utf-8")
    return {k: str(v) for k, v in out.items()}


def _argv(command: str, data: str, files: dict[str, str], out: Path) -> list[str]:
    """A run of `command` on `data` (as the original; the released file is files' released)."""
    if command == "identify":
        return ["identify", data, "--json"]
    if command == "protect":
        return ["protect", data, "--recode", "age=10", "--keys", "age,sex,region", "--formats", "json",
                "--out", str(out), "--json"]
    if command == "compare":
        return ["compare", data, files["released"], "--keys", "age,sex,region", "--formats", "json",
                "--out", str(out), "--json"]
    if command == "sweep":
        return ["sweep", data, "--plan", files["sweep"], "--no-png", "--out", str(out), "--json"]
    if command == "search":
        return ["search", data, "--config", files["search"], "--out", str(out), "--json"]
    if command == "attack":
        return ["attack", "inference", files["released"], "--original", data, "--aux", "age,sex",
                "--secret", "cholesterol", "--n-attacks", "40", "--json"]
    raise AssertionError(command)


COMMANDS = ("identify", "protect", "compare", "sweep", "search", "attack")


def _result(command: str, stdout: str) -> object:
    doc = json.loads(stdout)
    if command == "identify":
        doc.pop("source", None)
        return doc
    if command == "attack":
        return doc
    doc.pop("out", None)
    doc.pop("files", None)
    for k in ("released", "released_sha256", "seconds"):  # protect: the release is in the input's format
        doc.pop(k, None)
    summary = doc.get("summary", {})
    if isinstance(summary, dict):
        for k in ("seconds", "seed", "command", "input_file", "input_sha256", "generated_utc", "files", "source"):
            summary.pop(k, None)
    return doc


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    return run_cli(capsys, *argv)


# ----------------------------------------------------------------------------------- every call


@pytest.mark.parametrize("command", COMMANDS)
def test_every_read_gets_the_options(command, files, tmp_path, capsys, monkeypatch) -> None:
    """--na-values and --text reach every read_data call of the command (all files it reads)."""
    calls: list[tuple[str, dict]] = []
    inside: list[bool] = []  # read_data reads with read_data_details: one call, counted once

    def spying(real):  # noqa: ANN001, ANN202
        def spy(path, **kw):  # noqa: ANN001, ANN202
            if not inside:
                calls.append((str(path), kw))
            inside.append(True)
            try:
                return real(path, **kw)
            finally:
                inside.pop()
        return spy

    monkeypatch.setattr(sdc.io, "read_data", spying(sdc.io.read_data))
    # protect, compare and sweep read with the details (what reading said goes on their pages)
    monkeypatch.setattr(sdc.io, "read_data_details", spying(sdc.io.read_data_details))
    argv = _argv(command, files["na"], files, tmp_path / "o") + ["--na-values", "NA", "--text", "code"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    assert calls
    data_calls = [kw for path, kw in calls if not path.endswith(".toml")]
    assert len(data_calls) == (2 if command in ("compare", "attack") else 1)
    for kw in data_calls:
        assert list(kw["na_values"]) == ["NA"]
        tc = kw["text_columns"]
        assert tc is True or "code" in tc
    assert "--na-values" not in err  # no warning to give it


# ------------------------------------------------------------------------- same result as clean


@pytest.mark.parametrize("command", COMMANDS)
def test_na_markers_with_the_flag_as_the_clean_file(command, files, tmp_path, capsys) -> None:
    code, clean, err = _run(capsys, _argv(command, files["clean"], files, tmp_path / "a"))
    assert code == 0, err
    code, marked, err = _run(capsys, _argv(command, files["na"], files, tmp_path / "b") + ["--na-values", "NA"])
    assert code == 0, err
    assert _result(command, marked) == _result(command, clean)


@pytest.mark.parametrize("command", COMMANDS)
def test_second_excel_sheet_as_the_clean_file(command, files, tmp_path, capsys) -> None:
    code, clean, err = _run(capsys, _argv(command, files["clean"], files, tmp_path / "a"))
    assert code == 0, err
    for sheet in ("data", "1"):
        argv = _argv(command, files["xlsx"], files, tmp_path / f"x{sheet}") + ["--sheet", sheet, "--na-values", "NA"]
        code, got, err = _run(capsys, argv)
        assert code == 0, err
        assert _result(command, got) == _result(command, clean)


def test_text_keeps_a_code_column_as_text(files, tmp_path, capsys) -> None:
    """--text makes a column text: a recode of it is refused, as for any text column."""
    argv = ["protect", files["clean"], "--recode", "bmi=5", "--no-assess", "--out", str(tmp_path / "p")]
    assert _run(capsys, argv)[0] == 0
    code, _, err = _run(capsys, argv[:-1] + [str(tmp_path / "q"), "--text", "bmi"])
    assert code == 2 and "'bmi'" in err and "text" in err
    assert len(err.strip().splitlines()) == 1


def test_search_text_adds_to_its_text_quasi_identifiers(files, tmp_path, capsys, monkeypatch) -> None:
    calls: list[dict] = []
    real = sdc.io.read_data
    monkeypatch.setattr(sdc.io, "read_data", lambda path, **kw: calls.append(kw) or real(path, **kw))
    code, _, err = _run(capsys, _argv("search", files["clean"], files, tmp_path / "s") + ["--text", "code,region"])
    assert code == 0, err
    assert calls[-1]["text_columns"] == ["sex", "code", "region"]  # bmi has a numeric hierarchy


# ---------------------------------------------------------------------------- config and flag


def test_protect_config_na_values_the_walk_through(files, tmp_path, capsys) -> None:
    """sdc protect hsna.csv --config c.toml --recode age=10: the config's na_values are used."""
    code, out, err = _run(capsys, ["protect", files["na"], "--config", files["config"], "--recode", "age=10",
                                   "--formats", "json", "--out", str(tmp_path / "p1"), "--json"])
    assert code == 0, err
    assert "warning" not in err
    clean = _run(capsys, ["protect", files["clean"], "--config", files["config"], "--recode", "age=10",
                          "--formats", "json", "--out", str(tmp_path / "p2"), "--json"])
    assert clean[0] == 0
    assert _result("protect", out) == _result("protect", clean[1])
    plan = tmp_path / "p1" / "plan.toml"
    assert 'na_values = ["NA"]' in plan.read_text(encoding="utf-8")  # the rerun reads the file alike
    code, again, err = _run(capsys, ["protect", files["na"], "--plan", str(plan), "--formats", "json",
                                     "--out", str(tmp_path / "p5"), "--json"])
    assert code == 0, err
    assert (tmp_path / "p5" / "released.csv").read_bytes() == (tmp_path / "p1" / "released.csv").read_bytes()
    # The flag wins: '.' is the marker, so NA is a value and age is text.
    code, _, err = _run(capsys, ["protect", files["na"], "--config", files["config"], "--recode", "age=10",
                                 "--na-values", ".", "--out", str(tmp_path / "p3")])
    assert code == 2 and "'age'" in err
    code, _, err = _run(capsys, ["protect", files["dots"], "--config", files["config"], "--recode", "age=10",
                                 "--na-values", ".", "--formats", "json", "--out", str(tmp_path / "p4")])
    assert code == 0, err


def test_protect_no_assess_keeps_the_reading_in_the_plan(files, tmp_path, capsys) -> None:
    out = tmp_path / "p"
    code, _, err = _run(capsys, ["protect", files["na"], "--na-values", "NA", "--recode", "age=10", "--no-assess",
                                 "--out", str(out)])
    assert code == 0, err
    code, _, err = _run(capsys, ["protect", files["na"], "--plan", str(out / "plan.toml"), "--no-assess",
                                 "--out", str(tmp_path / "again")])
    assert code == 0, err
    assert (out / "released.csv").read_bytes() == (tmp_path / "again" / "released.csv").read_bytes()


def test_compare_config_na_values_and_the_flag(files, tmp_path, capsys) -> None:
    base = ["compare", files["na"], files["released_na"], "--config", files["config"], "--formats", "json", "--json"]
    code, got, err = _run(capsys, base + ["--out", str(tmp_path / "a")])
    assert code == 0, err
    code, clean, err = _run(capsys, ["compare", files["clean"], files["released"], "--config", files["config"],
                                     "--formats", "json", "--json", "--out", str(tmp_path / "b")])
    assert code == 0, err
    assert _result("compare", got) == _result("compare", clean)
    code, _, err = _run(capsys, base + ["--out", str(tmp_path / "c"), "--na-values", "."])
    assert code == 0 and "warning: column 'age' holds numbers and 'NA'" in err  # the flag wins: NA is a value


def test_sweep_plan_data_section(files, tmp_path, capsys) -> None:
    argv = ["sweep", files["na"], "--plan", files["sweep_na"], "--no-png", "--json"]
    code, got, err = _run(capsys, argv + ["--out", str(tmp_path / "a")])
    assert code == 0, err
    code, clean, err = _run(capsys, _argv("sweep", files["clean"], files, tmp_path / "b"))
    assert code == 0, err
    assert _result("sweep", got) == _result("sweep", clean)
    code, _, err = _run(capsys, argv + ["--out", str(tmp_path / "c"), "--na-values", "."])
    assert code == 2 and "'age'" in err
    # A flag is kept in the resolved plan: its rerun reads the file alike.
    code, _, err = _run(capsys, ["sweep", files["na"], "--plan", files["sweep"], "--no-png", "--na-values", "NA",
                                 "--out", str(tmp_path / "d")])
    assert code == 0, err
    assert 'na_values = ["NA"]' in (tmp_path / "d" / "plan.toml").read_text(encoding="utf-8")
    code, again, err = _run(capsys, ["sweep", files["na"], "--plan", str(tmp_path / "d" / "plan.toml"), "--no-png",
                                     "--json", "--out", str(tmp_path / "e")])
    assert code == 0, err
    assert _result("sweep", again) == _result("sweep", clean)


def test_identify_config_na_values(files, tmp_path, capsys) -> None:
    base = ["identify", "--config", files["config"], "--json"]
    code, got, err = _run(capsys, base + [files["na"]])
    assert code == 0, err
    code, clean, err = _run(capsys, base + [files["clean"]])
    assert code == 0, err
    assert _result("identify", got) == _result("identify", clean)
    code, flag, err = _run(capsys, base + [files["na"], "--na-values", "."])  # the flag wins: NA is a value
    assert code == 0, err
    assert _result("identify", flag) != _result("identify", clean)


# ---------------------------------------------------------------------------------- bad values


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad,said", [(["--sheet", "data"], "--sheet"), (["--text", "nosuch"], "'nosuch'")])
def test_bad_reading_options_one_line(command, bad, said, files, tmp_path, capsys) -> None:
    out = tmp_path / "o"
    code, stdout, err = _run(capsys, _argv(command, files["clean"], files, out) + bad)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sdc: error:") and said in lines[0], err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_sheet_applies_to_the_excel_file_among_several(files, tmp_path, capsys) -> None:
    """compare/attack: --sheet is for the Excel files given; the CSV beside it is read as CSV."""
    code, clean, err = _run(capsys, _argv("attack", files["clean"], files, tmp_path))
    assert code == 0, err
    code, got, err = _run(capsys, _argv("attack", files["xlsx"], files, tmp_path) + ["--sheet", "data",
                                                                                        "--na-values", "NA"])
    assert code == 0, err
    assert json.loads(got) == json.loads(clean)


def test_text_column_of_one_file_only(files, frame, tmp_path, capsys) -> None:
    """A column the released file lacks (dropped) may be named: each file reads those it has."""
    released = tmp_path / "released.csv"
    frame.drop(columns=["code"]).to_csv(released, index=False)
    code, _, err = _run(capsys, ["compare", files["clean"], str(released), "--keys", "age,sex,region",
                                 "--formats", "json", "--out", str(tmp_path / "c"), "--text", "code"])
    assert code == 0, err


def test_search_config_data_section_gives_the_reading_settings(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """sdc search's [data] took only path and sep: na_values (and text_columns, sheet) were
    refused as unknown keys, so NA markers were read as values of a numeric QI."""
    from sdc.workflow.config import ConfigError
    from sdc.workflow.search_config import search_config_from_mapping

    data = tmp_path / "d.csv"
    data.write_text("age,sex\n" + "".join(f"{20 + i % 30},{'fm'[i % 2]}\n" for i in range(60)) + "NA,f\n",
                    encoding="utf-8")
    cfg = tmp_path / "s.toml"
    cfg.write_text('[data]\nna_values = ["NA"]\n[keys]\nage = { intervals = [10, 20] }\n'
                   'sex = { prefix = true }\n[models]\nk = 2\n', encoding="utf-8")
    # NA read as missing (the config's marker): the hierarchy's row for missing values is asked for
    status, _, err = run_cli(capsys, "search", str(data), "--config", str(cfg), "--out", str(tmp_path / "found"))
    assert status == 2 and "'age' has 1 missing value(s)" in err, err
    c = search_config_from_mapping({"data": {"na_values": "NA", "text_columns": ["sex"], "sheet": 0},
                                    "keys": {"sex": {"prefix": True}}})
    assert (c.na_values, c.text_columns, c.sheet) == (("NA",), ("sex",), 0)
    assert c.to_dict()["data"]["na_values"] == ("NA",)
    with pytest.raises(ConfigError, match=r"\[data\]\.sheet"):
        search_config_from_mapping({"data": {"sheet": -1}, "keys": {"sex": {"prefix": True}}})


def test_identify_starter_config_records_how_the_file_was_read(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """identify --out wrote only sep to the starter config's [data]: sdc assess with it read the
    NA markers as text again."""
    from sdc.workflow.config import load_config

    data = tmp_path / "d.csv"
    rows = [f"{20 + i % 40},{'fm'[i % 2]},{i % 7:04d},{'NA' if i % 10 == 0 else 100 + i}" for i in range(200)]
    data.write_text("age,sex,zip,income\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "start.toml"
    status, _, err = run_cli(capsys, "identify", str(data), "--na-values", "NA", "--text", "zip",
                             "--role", "age=qi", "--out", str(out))
    assert status == 0, err
    cfg = load_config(out)
    assert cfg.na_values == ("NA",) and tuple(cfg.text_columns) == ("zip",)
    from sdc.identify.starter import starter_config

    r = sdc.identify(pd.read_csv(data, dtype=str), roles={"age": "quasi-identifier"})
    assert "sheet = 1" in starter_config(r, "d.csv", sheet=1) and 'sheet = "s"' in starter_config(r, sheet="s")
    assert "text_columns = true" in starter_config(r, text_columns=True)
