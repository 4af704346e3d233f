"""``sdc assess`` and ``sdc combine`` end to end: defaults, flags, config, errors, exit codes, progress."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sdc.cli import main
from sdc.report import MARKER

from tests.helpers import run_cli
from tests.workflow.test_assess import TOY
from tests.workflow.test_combine import DM, LB, VS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy_csv(tmp_path: Path) -> Path:
    p = tmp_path / "toy.csv"
    TOY.to_csv(p, index=False)
    return p


TOY_FLAGS = ["--keys", "sex,region", "--continuous-keys", "age", "--bins", "age=0,40,inf", "--sensitive", "diag",
             "--id", "sid", "--household", "hh", "--k", "3", "--l", "2", "--t", "0.5", "--risk-threshold", "0.4"]


def test_default_run_assesses_the_bundled_example(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "rep"
    assert main(["assess", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "Assessed 4,125 records (bundled example" in stdout and f"Report: {out / 'report.html'}" in stdout
    assert "Scenario 'demographics + marital status'" in stdout
    assert (out / MARKER).exists() and (out / "report.xlsx").exists() and (out / "plots").is_dir()
    doc = json.loads((out / "report.json").read_text())
    assert doc["provenance"]["command"] == f"sdc assess --out {out}"
    assert len(doc["provenance"]["input_sha256"]) == 1


def test_flags_only_run(toy_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "r"
    assert main(["assess", str(toy_csv), *TOY_FLAGS, "--formats", "json,csv", "--out", str(out)]) == 0
    low = pd.read_csv(out / "records_at_risk_k3.csv")
    assert low["sid"].tolist() == ["p7", "p8", "p9", "p10"]
    doc = json.loads((out / "report.json").read_text())
    assert doc["config"]["source"] == "flags"
    assert doc["scenarios"][0]["risk"]["expected_reidentifications"] == pytest.approx(5.0)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [MARKER, "config.toml", "report.json", "records.csv", "records_at_risk_k3.csv",
         "records_at_risk_l2_diag.csv", "records_at_risk_t0.5_diag.csv"])


def test_json_mode_prints_the_document_and_nothing_else(toy_csv: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)  # even on a terminal
    assert main(["assess", str(toy_csv), *TOY_FLAGS, "--json", "--out", str(tmp_path / "r")]) == 0
    cap = capsys.readouterr()
    doc = json.loads(cap.out)
    assert doc["schema_version"] == 1 and cap.err == ""


def test_progress_bars_on_a_terminal_only(toy_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["assess", str(toy_csv), *TOY_FLAGS, "--out", str(tmp_path / "r")]) == 0
    err = capsys.readouterr().err
    assert "key subsets" in err or "SUDA" in err or "jackknife" in err, err
    # not a terminal (a pipe, as under cron or Airflow): quiet
    proc = subprocess.run([sys.executable, "-m", "sdc", "assess", str(toy_csv), *TOY_FLAGS, "--out",
                           str(tmp_path / "r2")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_config_file_with_flag_overrides(toy_csv: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "run.toml"
    cfg.write_text(f"""
[data]
path = "{toy_csv.name}"
id = "sid"
[variables]
categorical_keys = ["sex", "region"]
continuous_keys = ["age"]
sensitive = ["diag"]
[bins]
age = [0, 40, inf]
[thresholds]
k = 3
[options]
measures = ["k_anonymity", "risk", "ldiversity"]
[output]
formats = ["csv", "json"]
""")
    out = tmp_path / "r"
    assert main(["assess", "--config", str(cfg), "--k", "2", "--out", str(out)]) == 0
    assert (out / "records_at_risk_k2.csv").exists() and not (out / "records_at_risk_k3.csv").exists()
    doc = json.loads((out / "report.json").read_text())
    assert doc["config"]["source"] == str(cfg) and doc["config"]["thresholds"]["k"] == 2


@pytest.mark.parametrize("args, message", [
    (["--config", "{cfg}"], "sdc: error: config [thresholds].k must be a whole number >= 1; got 0."),
    (["{data}"], "sdc: error: give the key variables (--keys, --continuous-keys or --scenario) or a --config file."),
    (["{data}", "--keys", "sex,regoin"], "regoin"),
    # A configuration key the command line set is named as its option, not as the config's key.
    (["{data}", "--keys", "sex", "--measures", "risk,magic"], "sdc: error: --measures must be a list of measures from 'k_anonymity', "),
    (["{data}", "--keys", "sex", "--k", "0"], "sdc: error: --k must be a whole number >= 1; got 0."),
    (["--config", "{cfg}", "--k", "0"], "sdc: error: --k must be a whole number >= 1; got 0."),
    (["{data}", "--keys", "sex", "--alpha", "2"], "sdc: error: --alpha must be a number in [0, 1]; got 2.0."),
    (["{data}", "--keys", "sex", "--sep="], "sdc: error: --sep must be one character other than a quote or a line break"),
    (["{data}", "--keys", "sex", "--bins", "age=0,x"], "bin edges must be numbers"),
])
def test_errors_are_one_line_with_status_2(args: list[str], message: str, toy_csv: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f'[data]\npath = "{toy_csv}"\n[variables]\ncategorical_keys = ["sex"]\n[thresholds]\nk = 0\n')
    argv = ["assess"] + [a.format(cfg=cfg, data=toy_csv) for a in args] + ["--out", str(tmp_path / "r")]
    status, _, err = run_cli(capsys, *argv)
    assert status == 2
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "r").exists()  # nothing half-written


def test_fail_on_risk_exit_status(toy_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    base = ["assess", str(toy_csv), *TOY_FLAGS, "--formats", "json"]
    assert main([*base, "--out", str(tmp_path / "a")]) == 0
    assert main([*base, "--fail-on-risk", "--out", str(tmp_path / "b")]) == 3
    assert (tmp_path / "b" / "report.json").exists()  # the report is still written


def test_out_refuses_a_foreign_folder(toy_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("keep")
    assert main(["assess", str(toy_csv), *TOY_FLAGS, "--out", str(tmp_path / "docs")]) == 2
    assert "not a folder written by sdc" in capsys.readouterr().err
    assert (tmp_path / "docs" / "a.txt").read_text() == "keep"


def test_example_save_config_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "my-run.toml"
    assert main(["example", "--save", str(tmp_path / "survey.csv"), "--save-config", str(cfg)]) == 0
    assert str((tmp_path / "survey.csv").resolve()) in cfg.read_text()
    assert main(["assess", "--config", str(cfg), "--formats", "json", "--out", str(tmp_path / "r")]) == 0
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    assert doc["provenance"]["input_files"] == [str((tmp_path / "survey.csv").resolve())]


def test_combine_cli(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for name, df in (("dm", DM), ("vs", VS), ("lb", LB)):
        df.to_csv(tmp_path / f"{name}.csv", index=False)
    out = tmp_path / "study.csv"
    argv = ["combine", f"DM={tmp_path / 'dm.csv'}", f"VS={tmp_path / 'vs.csv'}", f"LB={tmp_path / 'lb.csv'}",
            "--subject-id", "USUBJID", "--long", "LB=LBTESTCD", "--out", str(out)]
    assert main(argv) == 0
    joined = pd.read_csv(out)
    assert joined.columns.tolist() == ["USUBJID", "DM__AGE", "DM__SEX", "VS__HEIGHT", "LB__GLUC", "LB__HGB"]
    assert "Joined 3 domains (DM, VS, LB): 3 subjects x 6 columns" in capsys.readouterr().out
    # an existing file is not written over (sdc did not make it in this run)
    before = out.read_bytes()
    assert main(argv) == 2
    assert "exists; sdc does not write over a file" in capsys.readouterr().err and out.read_bytes() == before
    # an ambiguous join is refused and nothing is written
    pd.concat([VS, VS]).to_csv(tmp_path / "vs.csv", index=False)
    assert main(argv[:-1] + [str(tmp_path / "again.csv")]) == 2
    assert "domain 'VS'" in capsys.readouterr().err and not (tmp_path / "again.csv").exists()


def test_assess_a_combined_study_from_config(tmp_path: Path) -> None:
    for name, df in (("dm", DM), ("vs", VS), ("lb", LB)):
        df.to_csv(tmp_path / f"{name}.csv", index=False)
    (tmp_path / "study.toml").write_text("""
[data]
domains = { DM = "dm.csv", VS = "vs.csv", LB = "lb.csv" }
subject_id = "USUBJID"
long = { LB = "LBTESTCD" }
id = "USUBJID"
[variables]
categorical_keys = ["DM__SEX"]
continuous_keys = ["DM__AGE"]
[bins]
DM__AGE = [0, 50, inf]
[options]
measures = ["k_anonymity", "risk"]
[output]
formats = ["json"]
""")
    assert main(["assess", "--config", str(tmp_path / "study.toml"), "--out", str(tmp_path / "r")]) == 0
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    assert doc["scenarios"][0]["risk"]["n_records"] == 3
    assert len(doc["provenance"]["input_sha256"]) == 3


def test_python_dash_m_and_console_script_agree(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("sdc")
    if not exe.exists():
        pytest.skip("the sdc console script is not installed next to this Python")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    a = subprocess.run([sys.executable, "-m", "sdc", "assess", "--formats", "json", "--out", str(tmp_path / "a")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    b = subprocess.run([str(exe), "assess", "--formats", "json", "--out", str(tmp_path / "b")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    ja, jb = (json.loads((tmp_path / x / "report.json").read_text()) for x in "ab")
    assert ja["generated_utc"] == jb["generated_utc"] == "2026-01-01 00:00:00 UTC"  # SOURCE_DATE_EPOCH
    assert ja["scenarios"] == jb["scenarios"]


def test_library_errors_name_the_flag_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # the library names its argument (`out`); the command line says which flag that is
    (tmp_path / "f").write_text("x")
    assert main(["assess", "--formats", "json", "--out", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err
    assert f"sdc: error: --out '{tmp_path / 'f'}' is a file, not a folder." in err and "`out`" not in err


# ---- issue 11 ---------------------------------------------------------------------------------------

def test_an_input_inside_out_is_never_deleted(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # item 9: the input sits in an earlier report folder; replacing the folder would delete it
    out = tmp_path / "rep"
    TOY.to_csv(tmp_path / "toy.csv", index=False)
    assert main(["assess", str(tmp_path / "toy.csv"), *TOY_FLAGS, "--formats", "json", "--out", str(out)]) == 0
    TOY.to_csv(out / "toy.csv", index=False)
    status, _, err = run_cli(capsys, "assess", str(out / "toy.csv"), *TOY_FLAGS, "--formats", "json", "--out", str(out))
    assert status == 2 and f"--out '{out}' holds the input '{out / 'toy.csv'}'" in err
    assert (out / "toy.csv").exists()
    # a file put there by hand is not the report's either
    (out / "toy.csv").rename(out / "notes.txt")
    status, _, err = run_cli(capsys, "assess", str(tmp_path / "toy.csv"), *TOY_FLAGS, "--formats", "json",
                             "--out", str(out))
    assert status == 2 and "holds 'notes.txt', which sdc did not write there" in err
    assert (out / "notes.txt").exists()


def test_a_folder_created_at_out_during_the_run_is_left_alone(toy_csv: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # item 9: the target did not exist when the run started; someone creates it meanwhile
    import sdc.report.folder as folder

    out = tmp_path / "rep"
    real = folder._fill

    def meanwhile(*args, **kw):  # noqa: ANN002, ANN003, ANN202 - while sdc writes its temporary folder
        out.mkdir()
        (out / "theirs.txt").write_text("precious")
        return real(*args, **kw)

    monkeypatch.setattr(folder, "_fill", meanwhile)
    status, _, err = run_cli(capsys, "assess", str(toy_csv), *TOY_FLAGS, "--formats", "json", "--out", str(out))
    assert status == 2 and ("appeared while sdc was writing" in err or "appeared or changed while sdc was writing" in err)
    assert (out / "theirs.txt").read_text() == "precious" and sorted(p.name for p in out.iterdir()) == ["theirs.txt"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_sigterm_while_writing_leaves_no_hidden_folder(toy_csv: Path, tmp_path: Path) -> None:
    # item 9: kill the process while it writes; nothing half-written may stay behind
    script = tmp_path / "slow.py"
    script.write_text(f"""
import os, signal, sys, time
sys.path.insert(0, {str(ROOT)!r})
real_rename, real_replace = os.rename, os.replace
def kill_first(real):
    def move(src, dst, *a, **k):
        if os.path.basename(str(src)).startswith(".rep.tmp-"):  # the finished folder, about to move in
            os.kill(os.getpid(), signal.SIGTERM)  # as a scheduler would, in the middle of writing
            time.sleep(5)
        return real(src, dst, *a, **k)
    return move
os.rename, os.replace = kill_first(real_rename), kill_first(real_replace)
from sdc.cli import main
sys.exit(main({["assess", str(toy_csv), *TOY_FLAGS, "--formats", "xlsx,json", "--out", str(tmp_path / "rep")]!r}))
""")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 143, proc.stderr
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["slow.py", "toy.csv"], left


def test_combine_never_writes_over_an_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for name, df in (("dm", DM), ("vs", VS)):
        df.to_csv(tmp_path / f"{name}.csv", index=False)
    before = (tmp_path / "dm.csv").read_bytes()
    status, _, err = run_cli(capsys, "combine", f"DM={tmp_path / 'dm.csv'}", f"VS={tmp_path / 'vs.csv'}",
                             "--subject-id", "USUBJID", "--out", str(tmp_path / "dm.csv"))
    assert status == 2 and "--out" in err and "never writes over its input" in err
    assert (tmp_path / "dm.csv").read_bytes() == before


def test_outputs_are_no_more_readable_than_the_input(toy_csv: Path, tmp_path: Path) -> None:
    # item 12: a 0600 input gives 0600 files and 0700 folders, whatever the umask
    os.chmod(toy_csv, 0o600)
    old = os.umask(0o022)
    try:
        assert main(["assess", str(toy_csv), *TOY_FLAGS, "--out", str(tmp_path / "rep")]) == 0
        assert main(["combine", f"DM={toy_csv}", "--subject-id", "sid", "--out", str(tmp_path / "joined.csv")]) == 0
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path): p.stat().st_mode & 0o777 for p in (tmp_path / "rep").rglob("*")}
    assert modes and all(m == (0o700 if (tmp_path / p).is_dir() else 0o600) for p, m in modes.items()), modes
    assert (tmp_path / "rep").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "joined.csv").stat().st_mode & 0o777 == 0o600


def test_terminal_escape_codes_are_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # item 13: a value and a column name holding escape codes are printed escaped
    df = TOY.assign(region=TOY["region"].replace({"s": "s\x1b[2J\x1b[31m"}))
    df = df.rename(columns={"sex": "sex\x1b]0;title\x07"})
    p = tmp_path / "evil.csv"
    df.to_csv(p, index=False)
    key = "sex\x1b]0;title\x07"
    for argv in (["risk", str(p), "--keys", f"{key},region"],
                 ["assess", str(p), "--keys", f"{key},region", "--formats", "json", "--out", str(tmp_path / "r")],
                 ["risk", str(p), "--keys", "nope\x1b[2J"]):
        _, out, err = run_cli(capsys, *argv)
        for text in (out, err):
            assert "\x1b" not in text and "\x07" not in text, (argv, text)
        assert "\\u001b" in out + err or "\\x1b" in out + err, argv  # shown escaped


def test_modrisk_all_missing_key_and_bad_subsets_are_one_line_errors(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    # item 10
    p = tmp_path / "d.csv"
    TOY.assign(empty="").to_csv(p, index=False)
    status, _, err = run_cli(capsys, "modrisk", str(p), "--keys", "sex,empty")
    assert status == 2 and "key variable 'empty' is missing in every record" in err and err.count("\n") == 1
    status, _, err = run_cli(capsys, "snapshots", str(p), "--keys", "sex,region", "--subsets", "sex,,region")
    assert status == 2 and err == "sdc: error: --subsets: expected comma-separated column names, got 'sex,,region'.\n"


def test_bins_with_widths_in_every_measure(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # item 18: --bins (widths too) in every command that takes keys
    p = tmp_path / "d.csv"
    TOY.to_csv(p, index=False)
    banded = tmp_path / "banded.csv"
    TOY.assign(age=(TOY["age"] // 20) * 20).to_csv(banded, index=False)
    for cmd, extra in (("risk", []), ("snapshots", []), ("suda", []), ("modrisk", []),
                       ("uniqueness", ["--population-size", "1000"]), ("ldiversity", ["--sensitive", "diag"]),
                       ("tcloseness", ["--sensitive", "diag", "--distance", "equal"])):
        status, out, err = run_cli(capsys, cmd, str(p), "--keys", "age,sex", "--bins", "age=width:20", "--json", *extra)
        assert status == 0, (cmd, err)
        status, want, err = run_cli(capsys, cmd, str(banded), "--keys", "age,sex", "--json", *extra)
        assert status == 0, (cmd, err)
        a, b = json.loads(out), json.loads(want)
        for doc in (a, b):
            if isinstance(doc, dict):
                doc.pop("binning", None)
                doc.pop("riskiest_classes", None)  # key values: a band's label there, its lower edge here
                doc.pop("attribute_level_contributions", None)
        if cmd in ("ldiversity", "tcloseness"):  # class key values are labels, the class figures agree
            a, b = a.get("n_classes"), b.get("n_classes")
        assert a == b, cmd
    status, out, err = run_cli(capsys, "inference", str(p), "--sensitive", "age", "--bins", "age=width:40", "--json")
    assert status == 0 and json.loads(out)[0]["sensitive"] == "age", err


def test_assess_reads_excel_and_markers_and_codes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # items 2, 3, 19: --na-values, --text, Excel input
    df = TOY.assign(zip=["02134", "2134"] * 5, pc=["NA"] * 3 + ["AB"] * 7)
    p = tmp_path / "d.xlsx"
    df.to_excel(p, index=False)
    out = tmp_path / "r"
    assert main(["assess", str(p), "--keys", "sex,zip,pc", "--formats", "json", "--out", str(out)]) == 0
    doc = json.loads((out / "report.json").read_text())
    rows = {r["variable"]: r for r in doc["tables"]["variables"]["rows"]}
    assert rows["zip"]["distinct values"] == 2 and rows["pc"]["read as missing"] == 0
    assert main(["assess", str(p), "--keys", "sex,zip,pc", "--na-values", "NA", "--formats", "json",
                 "--out", str(out)]) == 0
    rows = {r["variable"]: r for r in json.loads((out / "report.json").read_text())["tables"]["variables"]["rows"]}
    assert rows["pc"]["read as missing"] == 3
    csv = tmp_path / "d.csv"
    df.to_csv(csv, index=False)
    assert main(["assess", str(csv), "--keys", "sex,hh", "--text", "hh", "--formats", "json", "--out", str(out)]) == 0
    rows = {r["variable"]: r for r in json.loads((out / "report.json").read_text())["tables"]["variables"]["rows"]}
    assert rows["hh"]["kind"] == "text" and rows["zip"]["kind"] == "text (a code with leading zeros)"


def test_per_sensitive_thresholds_on_the_command_line(toy_csv: Path, tmp_path: Path) -> None:
    # item 6
    out = tmp_path / "r"
    assert main(["assess", str(toy_csv), "--keys", "sex,region", "--sensitive", "diag", "--t", "diag=0.6",
                 "--l", "diag=3", "--distance", "equal", "--formats", "json", "--out", str(out)]) == 0
    doc = json.loads((out / "report.json").read_text())
    assert doc["config"]["sensitive_thresholds"] == {"diag": {"t": 0.6, "l": 3}}
    assert {v["measure"] for v in doc["verdicts"]} >= {"3-diversity (diag)", "t-closeness (diag, equal)"}
