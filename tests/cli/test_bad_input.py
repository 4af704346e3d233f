"""Regressions from an adversarial review of the command line's bad-input handling.

Each test runs ``sdc`` in-process on a small file and checks the project's rule: exit status 2,
one line on stderr naming the argument, column or value, no traceback, no input changed, and
nothing written where the run refused to write.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.cli._args import flag_names
from sdc.cli.main import _parser
from tests.helpers import run_cli


@pytest.fixture
def data(tmp_path: Path) -> Path:
    df = pd.DataFrame({"id": [f"S{i}" for i in range(12)], "sex": ["f", "m"] * 6,
                       "region": ["a", "a", "b", "b", "c", "c"] * 2, "age": list(range(30, 42)),
                       "w": [2.0] * 12})
    p = tmp_path / "in" / "data.csv"
    p.parent.mkdir()
    df.to_csv(p, index=False)
    os.chmod(p, 0o600)
    return p


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _one_error(err: str) -> str:
    # sdc's own warnings may precede the error (a missing-value marker read as text, say)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("sdc: warning: ")]
    assert len(lines) == 1 and lines[0].startswith("sdc: error: ") and "Traceback" not in err, err
    return lines[0]


# --- single-file outputs never go over an input, a folder, or below a file --------------------

def test_identify_out_never_overwrites_its_config(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "in" / "run.toml"
    cfg.write_text('[data]\npath = "data.csv"\n[variables]\ncategorical_keys = ["sex"]\n', encoding="utf-8")
    before = _digest(cfg)
    status, out, err = run_cli(capsys, "identify", str(data), "--config", str(cfg), "--out", str(cfg))
    line = _one_error(err)
    assert status == 2 and "--out" in line and "never writes over its input" in line
    assert _digest(cfg) == before and out == ""  # refused before any work or output


def test_identify_out_never_overwrites_its_data(data: Path, capsys: pytest.CaptureFixture) -> None:
    before = _digest(data)
    status, _, err = run_cli(capsys, "identify", str(data), "--out", str(data))
    assert status == 2 and "--out" in _one_error(err)
    assert _digest(data) == before


@pytest.mark.parametrize("where", ["folder", "below a file"])
def test_identify_out_bad_targets_name_the_option(where: str, data: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "in" if where == "folder" else data / "x.toml"
    status, _, err = run_cli(capsys, "identify", str(data), "--out", str(target))
    line = _one_error(err)
    assert status == 2 and f"--out '{target}'" in line and "Errno" not in line and ".tmp" not in line


def test_identify_out_is_no_more_readable_than_the_data(data: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    old = os.umask(0o022)
    try:
        status, _, _ = run_cli(capsys, "identify", str(data), "--out", str(tmp_path / "start.toml"))
    finally:
        os.umask(old)
    assert status == 0 and (os.stat(tmp_path / "start.toml").st_mode & 0o777) == 0o600


def test_combine_out_is_a_folder(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "combine", f"DM={data}", "--subject-id", "id", "--out", str(tmp_path))
    line = _one_error(err)
    assert status == 2 and f"--out '{tmp_path}' is a folder" in line
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_combine_text_column_without_a_domain(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "joined.csv"
    status, _, err = run_cli(capsys, "combine", f"DM={data}", "--subject-id", "id", "--text", "zip", "--out", str(out))
    line = _one_error(err)
    assert status == 2 and "--text" in line and "'zip'" in line and "DOMAIN__COLUMN" in line
    assert not out.exists()


def test_example_save_targets(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "in.csv").mkdir()
    same = tmp_path / "same.csv"
    status, _, err = run_cli(capsys, "example", "--save", str(same), "--save-config", str(same))
    assert status == 2 and "--save and --save-config name the same file" in _one_error(err)
    assert not same.exists()
    status, _, err = run_cli(capsys, "example", "--save", str(tmp_path / "in.csv"))  # a folder named .csv
    assert status == 2 and "--save" in _one_error(err) and "is a folder" in err
    status, _, err = run_cli(capsys, "example", "--save-config", str(data / "x.toml"))
    assert status == 2 and f"'{data}' is a file, not a folder" in _one_error(err)


# --- output folders ------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["assess", "protect"])
def test_out_folder_below_a_file(command: str, data: Path, capsys: pytest.CaptureFixture) -> None:
    extra = ["--recode", "age=10"] if command == "protect" else []
    status, _, err = run_cli(capsys, command, str(data), "--keys", "sex,region", *extra, "--out", str(data / "rep"))
    line = _one_error(err)
    assert status == 2 and f"--out '{data / 'rep'}'" in line and "is a file, not a folder" in line
    assert "Errno" not in line


# --- messages name the option the user typed -------------------------------------------------

@pytest.mark.parametrize("argv", [["risk", "{data}", "--keys", "sex", "--threshold", "0"],
                                  ["snapshots", "{data}", "--keys", "sex", "--threshold", "0"],
                                  ["example", "--threshold", "0"]])
def test_threshold_is_named_not_k(argv: list[str], data: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, *[a.replace("{data}", str(data)) for a in argv])
    assert status == 2 and "--threshold must be an integer >= 1; got 0" in _one_error(err)


@pytest.mark.parametrize(("argv", "expected"), [
    (["linkage", "{data}", "--original", "{data}", "--known", "sex,nope"], "--known names columns not in the data"),
    (["linkage", "{data}", "--original", "{data}", "--known", "sex", "--share", "0"], "--share must lie in (0, 1]"),
    (["singling-out", "{data}", "--original", "{data}", "--n-attacks", "0"], "--n-attacks must be an integer >= 1"),
    (["linkability", "{data}", "--original", "{data}", "--aux-a", "nope", "--aux-b", "sex", "--n-attacks", "5"],
     "--aux-a names columns not in the released file"),
    (["inference", "{data}", "--original", "{data}", "--aux", "sex", "--secret", "sex", "--n-attacks", "5"],
     "--secret 'sex' is also in --aux"),
    (["skewness", "{data}", "--keys", "sex", "--sensitive", "region", "--lift-threshold", "0"],
     "--lift-threshold must lie in (0, inf]"),
])
def test_attack_messages_name_the_attack_options(argv: list[str], expected: str, data: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "attack", *[a.replace("{data}", str(data)) for a in argv])
    line = _one_error(err)
    assert status == 2 and expected in line and "`" not in line


@pytest.mark.parametrize("command", ["assess", "compare", "protect"])
def test_unknown_key_is_named_as_keys(command: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    files = [str(data), str(data)] if command == "compare" else [str(data)]
    extra = ["--recode", "age=10"] if command == "protect" else []
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, command, *files, "--keys", "sex,nope", *extra, "--out", str(out))
    line = _one_error(err)
    assert status == 2 and "--keys names columns not in the data: 'nope'" in line
    assert not out.exists()


def test_flag_names_leave_values_from_elsewhere_alone() -> None:
    # A library name is an option only when the command line gave that option: `k` read from a
    # config file is not "--k".
    parser = _parser()
    args = parser.parse_args(["search", "--config", "x.toml"])
    assert flag_names(parser, args, "`k` must be an integer; got 'two'.") == "`k` must be an integer; got 'two'."
    args = parser.parse_args(["search", "--config", "x.toml", "--k", "0"])
    assert flag_names(parser, args, "`k` must be an integer >= 1; got 0.") == "--k must be an integer >= 1; got 0."


# --- values -------------------------------------------------------------------------------

def test_text_weights_name_the_bad_value(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    p = tmp_path / "w.csv"
    p.write_text("sex,w\nf,12.5\nm,n/a\nf,3\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex", "--weights", "w")
    assert status == 2 and "got text with value 'n/a'" in _one_error(err)
    with pytest.raises(ValueError, match="got text with value 'n/a'"):
        sdc.individual_risk(pd.DataFrame({"sex": ["f", "m"], "w": ["12.5", "n/a"]}), ["sex"], weights="w")


def test_quantile_bins_message(data: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "age", "--bins", "age=quantiles:0")
    line = _one_error(err)
    assert status == 2 and "bins for 'age': the number of quantiles must be an integer >= 2; got 0" in line
    assert "`" not in line


def test_compare_protection_log_is_a_folder(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "compare", str(data), str(data), "--keys", "sex", "--protection", str(tmp_path),
                             "--out", str(tmp_path / "out"))
    assert status == 2 and "is a folder; give its protection.json" in _one_error(err)
    assert not (tmp_path / "out").exists()


def test_check_file_target_library() -> None:
    from sdc._files import check_file_target

    with pytest.raises(IsADirectoryError, match="is a folder"):
        check_file_target(Path.cwd(), flag="--out")
    assert check_file_target(Path.cwd() / "no-such-file.csv", [Path.cwd() / "pyproject.toml"]) is None
    with pytest.raises(FileExistsError, match="never writes over its input"):
        check_file_target("pyproject.toml", [str(Path.cwd() / "pyproject.toml")])


def test_skewness_negative_top_is_refused(data: Path, capsys: pytest.CaptureFixture) -> None:
    # head(-1) would have listed every class but the last, under the title "top 1"
    status, out, err = run_cli(capsys, "attack", "skewness", str(data), "--keys", "sex", "--sensitive", "region",
                               "--top", "-1")
    assert status == 2 and "--top must be an integer >= 0; got -1" in _one_error(err) and out == ""
    res = sdc.skewness_attack(pd.read_csv(data), ["sex"], "region")
    assert len(res.most_skewed(0)) == 0 and len(res.most_skewed(10)) == len(res.classes)
    with pytest.raises(ValueError, match="`top` must be an integer >= 0"):
        res.to_dict(top=-1)


def test_missing_scheduler_file_fails_at_once(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # distributed would wait, without end, for the file to appear
    pytest.importorskip("distributed")
    from sdc.core._dask import client_for

    missing = tmp_path / "scheduler.json"
    with pytest.raises(ValueError, match="`scheduler` file .* does not exist"):
        client_for(str(missing))
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex", "--engine", "dask", "--scheduler", str(missing))
    assert status == 2 and f"--scheduler file '{missing}' does not exist" in _one_error(err)


# --- reading: the lead's follow-ups of the review (sdc/io.py, config, risk --chunks, --engine dask) ----

def test_text_that_is_not_utf8_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    p = tmp_path / "latin1.csv"
    p.write_bytes(b"a,b\n1,2\n" + b"x,y\n" * 3 + b"3,caf\xe9\n")
    for extra in ((), ("--chunks", "2"), ("--engine", "dask")):
        status, _, err = run_cli(capsys, "risk", str(p), "--keys", "a,b", *extra)
        line = _one_error(err)
        assert status == 2 and "line 6 is not UTF-8" in line, (extra, line)
    with pytest.raises(sdc.DataFileError, match="line 6 is not UTF-8"):
        sdc.io.read_data(p)


def test_undecodable_line_across_reading_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Characters cut by the reading blocks' boundaries, then a bad byte: the same line as
    decoding the whole file, whatever the block size."""
    import sdc._structure as st

    p = tmp_path / "cut.csv"
    p.write_bytes(("a\n" + "é\n" * 5 + "€x\n").encode("utf-8") + b"\xff\n")
    for block in (1, 2, 3, 5, 7, 1 << 22):
        monkeypatch.setattr(st, "_CHUNK", block)
        assert st.first_undecodable_line(p) == 8, block
    p.write_bytes("a\né\n".encode("utf-8"))
    assert st.first_undecodable_line(p) is None
    p.write_bytes(b"a\n\xc3")  # cut at the end
    monkeypatch.setattr(st, "_CHUNK", 1)
    assert st.first_undecodable_line(p) == 2


def test_undecodable_line_of_a_compressed_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Compressed files are decoded too (the line was not found for them before)."""
    import gzip

    import sdc._structure as st

    gz = tmp_path / "latin1.csv.gz"
    gz.write_bytes(gzip.compress(b"a,b\n1,2\n3,caf\xe9\n"))
    assert st.first_undecodable_line(gz) == 3
    status, _, err = run_cli(capsys, "risk", str(gz), "--keys", "a,b")
    assert status == 2 and "line 3 is not UTF-8" in _one_error(err), err


def test_config_not_utf8_or_bad_yaml_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    toml = tmp_path / "latin1.toml"
    toml.write_bytes(b'[data]\npath = "caf\xe9.csv"\n')
    yaml = tmp_path / "bad.yaml"
    yaml.write_text("data: [a, b\nx: 1\n", encoding="utf-8")
    for cfg, want in ((toml, "is not UTF-8 text (line 2)"), (yaml, "(line 2, column")):
        status, _, err = run_cli(capsys, "assess", "--config", str(cfg))
        line = _one_error(err)
        assert status == 2 and str(cfg) in line and want in line, line


@pytest.mark.parametrize("sep", [";;", "", "ab", '"'])
def test_a_delimiter_is_one_character(data: Path, sep: str, capsys: pytest.CaptureFixture) -> None:
    for extra in ((), ("--chunks", "5")):
        status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex", f"--sep={sep}", *extra)
        line = _one_error(err)
        assert status == 2 and "--sep must be one character" in line and repr(sep) in line, line


def test_sheet_is_for_excel_only(data: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex", "--sheet", "x")
    line = _one_error(err)
    assert status == 2 and "--sheet is for Excel files" in line
    with pytest.raises(ValueError, match="`sheet` is for Excel"):
        sdc.io.read_data(data, sheet=0)


def test_chunks_name_a_missing_column_and_an_empty_file(data: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex,nope", "--chunks", "5")
    # refused against the header before any chunk is read (issue 26)
    assert status == 2 and "--keys names columns not in the data: 'nope'" in _one_error(err)
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    status, _, err = run_cli(capsys, "risk", str(empty), "--keys", "sex", "--chunks", "5")
    assert status == 2 and "is empty" in _one_error(err)


@pytest.mark.parametrize("content, want", [
    (b"a,a\n1,2\n", "names column 'a' twice"),
    (b"a,b\n1,2\n3\n", "line 3 has 1 field(s)"),
    (b"", "is empty"),
])
def test_risk_on_dask_refuses_what_reading_in_memory_refuses(tmp_path: Path, content: bytes, want: str,
                                                             capsys: pytest.CaptureFixture) -> None:
    """dask's own reader renames a repeated column (a.1) and misreads ragged rows: each file
    is checked first, before any cluster starts."""
    p = tmp_path / "part-1.csv"
    p.write_bytes(content)
    status, _, err = run_cli(capsys, "risk", str(tmp_path / "part-*.csv"), "--keys", "a", "--engine", "dask")
    line = _one_error(err)
    assert status == 2 and want in line, line


def test_a_failed_write_leaves_no_folder_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parents an output needed are removed again when the write fails (a file and a folder)."""
    import sdc._files as files
    from sdc.report.folder import write_folder

    def boom(*a, **kw):  # noqa: ANN002, ANN003
        raise OSError(28, "No space left on device")

    target = tmp_path / "a" / "b" / "out.txt"
    monkeypatch.setattr(files.tempfile, "mkstemp", boom)
    with pytest.raises(OSError, match="cannot write --out .*No space left"):
        files.atomic_write(target, "x", flag="--out")
    assert not (tmp_path / "a").exists()
    monkeypatch.undo()

    monkeypatch.setattr("sdc.report.folder._fill", boom)
    with pytest.raises(OSError):
        write_folder(tmp_path / "c" / "d" / "report", {"x.txt": "x"}, marker="test\n")
    assert not (tmp_path / "c").exists() and list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()  # folders that were there stay
    with pytest.raises(OSError):
        write_folder(tmp_path / "kept" / "e" / "report", {"x.txt": "x"}, marker="test\n")
    assert (tmp_path / "kept").is_dir() and not (tmp_path / "kept" / "e").exists()


def test_option_value_starting_with_a_dash_gets_a_hint(capsys: pytest.CaptureFixture) -> None:
    """argparse before Python 3.14 reads --weights -1,1 as two options; the message says how to
    pass the value. (3.14's argparse takes -1,1 as the value: the next problem is reported.)"""
    status, _, err = run_cli(capsys, "attack", "record-linkage", "a.csv", "--original", "b.csv", "--variables", "x",
                             "--weights", "-1,1")
    assert status == 2
    line = [ln for ln in err.splitlines() if ln.strip()]
    assert len(line) == 1 and "Traceback" not in err, err
    if "expected one argument" in line[0]:
        assert "write --weights=VALUE" in line[0], err
    else:
        assert "--weights" not in line[0] and ".csv" in line[0], err  # the value read: a missing file is next


def test_option_prefixes_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """argparse took --k 0 for --keys 0 (a prefix); options must be spelled out."""
    data = tmp_path / "d.csv"
    data.write_text("sex,age\nf,1\nm,2\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex", "--thr", "2")
    assert status == 2 and "unrecognized arguments: --thr 2" in err, err
    status, _, err = run_cli(capsys, "risk", str(data), "--keys", "sex", "--threshold", "2")
    assert status == 0, err


def test_reader_that_stops_early_gets_no_error_line(tmp_path: Path) -> None:
    """sdc ... | head: the closed pipe printed 'sdc: error: [Errno 32] Broken pipe', status 2."""
    import subprocess
    import sys

    data = tmp_path / "d.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"a": rng.integers(0, 300, 50_000), "b": rng.integers(0, 300, 50_000)}).to_csv(data, index=False)
    proc = subprocess.Popen([sys.executable, "-m", "sdc", "risk", str(data), "--keys", "a,b", "--top", "50000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(100)
    proc.stdout.close()  # as head does after its lines
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == "", err


def test_command_without_config_names_the_options_it_suggests(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """snapshots over 17 keys told the user to give `max_size` or `subsets` (the library's
    words): a command without a config file names its options, given or not."""
    keys = [f"c{i}" for i in range(17)]
    data = tmp_path / "wide.csv"
    pd.DataFrame({k: [0, 1, 0] for k in keys}).to_csv(data, index=False)
    status, _, err = run_cli(capsys, "snapshots", str(data), "--keys", ",".join(keys))
    line = _one_error(err)
    assert status == 2 and "give --max-size (e.g. 9) or the --subsets" in line, line


def test_dask_engine_refuses_household_and_chunks_before_reading(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """risk --engine dask --household read the data on a cluster, then refused; --chunks with
    --engine dask was silently ignored. Both are refused first, without starting Dask."""
    import sdc.workflow.engine as engine

    def no_cluster(*a: object, **k: object) -> None:
        raise AssertionError("the cluster was started")

    monkeypatch.setattr(engine, "open_dask", no_cluster)
    data = tmp_path / "h.csv"
    data.write_text("a,hh\n1,1\n2,1\n", encoding="utf-8")
    for extra, said in ((("--household", "hh"), "household risk cannot run on a Dask DataFrame"),
                        (("--chunks", "5"), "--chunks reads the file in memory")):
        status, _, err = run_cli(capsys, "risk", str(data), "--keys", "a", "--engine", "dask", *extra)
        assert status == 2 and said in _one_error(err), err


# --- issues 27 and 35: silent acceptances, misleading lines, output folders, Excel, hierarchies ---

@pytest.mark.parametrize("argv", [
    ["risk", "{data}", "--keys", "sex,w", "--weights", "w"],
    ["risk", "{data}", "--keys", "sex,w", "--weights", "w", "--chunks", "5"],  # was an AttributeError traceback
    ["snapshots", "{data}", "--keys", "sex,w", "--weights", "w"],
    ["assess", "{data}", "--keys", "sex,w", "--weights", "w", "--out", "{out}"],
])
def test_a_weight_column_that_is_also_a_key_is_refused(argv: list[str], data: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 4: --keys sex,w --weights w used w as both."""
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, *[a.replace("{data}", str(data)).replace("{out}", str(out)) for a in argv])
    line = _one_error(err)
    assert status == 2 and "--weights column 'w' is also one of the --keys" in line, line
    assert not out.exists()


@pytest.mark.parametrize("keys, id_, said", [
    ("sex,region", "sex", "--id column 'sex' is also a key variable"),
    ("region", "sex", "--id column 'sex' is not a record id: 12 records share a value or lack one (first: 'f', held "
                      "by 6 records)"),
])
def test_an_id_that_is_a_key_or_repeats_is_refused(keys: str, id_: str, said: str, data: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 5: a non-unique --id (and a key) drove the per-record files."""
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", keys, "--id", id_, "--out", str(out))
    assert status == 2 and said in _one_error(err) and not out.exists()
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", keys, "--id", "id", "--out", str(out))
    assert status == 0, err  # S0..S11: a record id


def test_a_continuous_key_that_holds_text_is_refused_and_bands_are_counted(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 6: --continuous-keys diag (text) was used unbinned as a categorical key."""
    p = tmp_path / "d.csv"
    pd.DataFrame({"sex": ["f", "m"] * 4, "diag": ["flu", "x1"] * 4,
                  "age": ["(30,40]", "(40,50]", "90+", "<18"] * 2}).to_csv(p, index=False)
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, "assess", str(p), "--keys", "sex", "--continuous-keys", "diag", "--out", str(out))
    line = _one_error(err)
    assert status == 2 and "continuous key 'diag' holds text, not numbers or bands of them (e.g. 'flu')" in line
    assert "--keys" in line and not out.exists()
    # the bands a protection made of a continuous key are counted by band (a released file)
    status, _, err = run_cli(capsys, "assess", str(p), "--keys", "sex", "--continuous-keys", "age", "--out", str(out))
    assert status == 0, err


def test_skewness_on_an_unbanded_measurement_warns_and_takes_bins(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 9: 100 % of records at lift >= 2 (every value unique), with no word and no bins option."""
    rng = np.random.default_rng(0)
    p = tmp_path / "s.csv"
    pd.DataFrame({"sex": rng.choice(["f", "m"], 400), "grp": rng.integers(0, 4, 400),
                  "inc": rng.lognormal(10, 1, 400).round(2)}).to_csv(p, index=False)
    status, out, err = run_cli(capsys, "attack", "skewness", str(p), "--keys", "sex,grp", "--sensitive", "inc")
    assert status == 0 and "sdc: warning: sensitive variable 'inc' is numeric with 400 distinct values" in err
    assert "band it (--bins" in err and "records in classes with lift >= 2  400 (100.00%)" in out
    status, out, err = run_cli(capsys, "attack", "skewness", str(p), "--keys", "sex,grp", "--sensitive", "inc",
                               "--bins", "quantiles:4")
    assert status == 0 and "warning" not in err and "(0.00%)" in out
    status, _, err = run_cli(capsys, "attack", "skewness", str(p), "--keys", "sex", "--sensitive", "inc",
                             "--bins", "quantiles:x")
    assert status == 2 and "--bins" in err


def test_suda_over_many_keys_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 10: numpy's _ArrayMemoryError traceback under an 8 GB limit (core/msu.py)."""
    rng = np.random.default_rng(0)
    keys = [f"k{i}" for i in range(30)]
    p = tmp_path / "wide.csv"
    pd.DataFrame({k: rng.integers(1, 4, 5000) for k in keys}).to_csv(p, index=False)
    status, out, err = run_cli(capsys, "suda", str(p), "--keys", ",".join(keys))
    line = _one_error(err)
    assert status == 2 and out == "" and "SUDA2 not computed" in line and "over 30 keys" in line
    assert "--max-size" in line and "--max-work" in line


def test_a_utf16_file_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 12: a UTF-16 file was 'binary, not delimited text'."""
    for encoding, name in (("utf-16", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-32", "UTF-32LE")):
        p = tmp_path / f"{encoding}.csv"
        p.write_bytes("sex,age\nf,1\nm,2\n".encode(encoding))
        for extra in ((), ("--chunks", "1")):
            status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex", *extra)
            line = _one_error(err)
            assert status == 2 and f"it is {name} text; sdc reads UTF-8" in line and "iconv" in line, line


def test_na_values_empty_is_the_empty_field(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 12: --na-values '' said "expected comma-separated column names" (they are markers)."""
    status, plain, _ = run_cli(capsys, "risk", str(data), "--keys", "sex")
    for value in ("", "NA,,"):
        status, out, err = run_cli(capsys, "risk", str(data), "--keys", "sex", f"--na-values={value}")
        assert status == 0 and out == plain and "column names" not in err, err


def test_whole_numbers_beyond_64_bits_are_not_called_text(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 12: integers >= 2^64 were 'text'."""
    p = tmp_path / "big.csv"
    p.write_text("sex,big\nf,18446744073709551616\nm,-9223372036854775809\nf,1\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex", "--weights", "big")
    line = _one_error(err)
    assert status == 2 and "holds whole numbers beyond the 64-bit range, read as text" in line and "got text" not in line
    out = tmp_path / "rep"
    status, _, err = run_cli(capsys, "assess", str(p), "--keys", "sex,big", "--out", str(out))
    assert status == 0, err
    assert "| big | categorical key | whole numbers beyond the 64-bit range (kept as text) |" in (
        out / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("flag, value, said", [
    ("--t", "5", "--t: t = 5 for 'region' can never fail"),
    ("--l", "0", "--l must be a whole number >= 1; got 0"),
    ("--t", "region=5", "--t region=5.0: t = 5 for 'region' can never fail"),
    ("--l", "region=0", "--l region=0 must be a whole number >= 1; got 0"),
])
def test_threshold_flags_are_named_not_their_config_keys(flag: str, value: str, said: str, data: Path,
                                                         tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 12: named as config [thresholds].t / .l."""
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex", "--sensitive", "region", flag, value,
                             "--out", str(tmp_path / "out"))
    line = _one_error(err)
    assert status == 2 and said in line and "config [" not in line, line


def test_attack_controls_name_what_the_user_gave(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 27 item 12: --columns named when it was not given (singling-out with a control lacking
    columns), `aux_cols` for --aux-a/--aux-b."""
    control = tmp_path / "control.csv"
    pd.read_csv(data)[["id", "sex"]].to_csv(control, index=False)
    status, _, err = run_cli(capsys, "attack", "singling-out", str(data), "--original", str(data), "--control",
                             str(control), "--n-attacks", "5")
    line = _one_error(err)
    assert status == 2 and "the control file lacks columns the attack uses by default" in line
    assert "'region'" in line and "give --columns to choose the columns" in line
    status, _, err = run_cli(capsys, "attack", "linkability", str(data), "--original", str(data), "--control",
                             str(control), "--aux-a", "sex", "--aux-b", "age", "--n-attacks", "5")
    assert status == 2 and "--aux-b names columns not in the control file: 'age'" in _one_error(err)


@pytest.mark.parametrize("mode", [0o700, 0o750, 0o555])
def test_an_existing_out_folder_keeps_its_mode(mode: int, data: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 1: an empty --out folder of mode 0700 (or 0555) was replaced by a 0755 one."""
    out = tmp_path / "out"
    out.mkdir()
    os.chmod(out, mode)
    old = os.umask(0o022)
    try:
        os.chmod(data, 0o644)
        for _ in range(2):  # the empty folder, then the folder sdc wrote
            status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex", "--out", str(out))
            assert status == 0, err
            assert (os.stat(out).st_mode & 0o777) == mode & 0o755
    finally:
        os.umask(old)
        os.chmod(out, 0o700)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # nothing left aside


def test_an_out_link_is_followed_said_and_nothing_is_left(data: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 2: a symlink --out was replaced by a real folder and '.out.old-XXXX -> real' left."""
    real = tmp_path / "real"
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex", "--out", str(real))
    assert status == 0, err
    link = tmp_path / "latest"
    link.symlink_to(real)
    before = (real / "report.md").stat().st_mtime_ns
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex,region", "--out", str(link))
    assert status == 0 and f"sdc: warning: --out '{link}' is a symbolic link: sdc writes the folder it points to" in err
    assert link.is_symlink() and link.resolve() == real.resolve() and "sex, region" in (real / "report.md").read_text()
    assert (real / "report.md").stat().st_mtime_ns != before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "latest", "real"]
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex", "--out", str(dangling))
    assert status == 2 and "is a symbolic link to" in _one_error(err) and "which does not exist" in err
    assert not (tmp_path / "nowhere").exists()


def test_a_full_disk_names_the_output(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 3: 'sdc: error: [Errno 28] No space left on device' named nothing."""
    import errno

    import sdc.report.folder as folder

    real = folder._write_one

    def full(tmp, name, *a, **kw):  # noqa: ANN001, ANN002, ANN003
        if name == "report.html":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(tmp, name, *a, **kw)

    monkeypatch.setattr(folder, "_write_one", full)
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, "assess", str(data), "--keys", "sex", "--out", str(out))
    line = _one_error(err)
    assert status == 2 and f"cannot write --out '{out}': No space left on device (while writing report.html)" in line
    assert "Errno" not in line and not out.exists() and [p.name for p in tmp_path.iterdir()] == ["in"]


def _workbook(path: Path, rows: list[list[object]], merge: str | None = None) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "survey"
    for r in rows:
        ws.append(r)
    if merge:
        ws.merge_cells(merge)
    wb.save(path)
    return path


def test_excel_merged_cells_are_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 4: merged cells in a key column read as 4 missing values of 5, without a word."""
    p = _workbook(tmp_path / "m.xlsx", [["sex", "region"], ["f", "north"], ["m", None], ["f", None], ["m", None],
                                       ["f", "south"]], merge="B2:B5")
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex,region")
    assert status == 0
    assert ("sdc: warning: data file '" in err and "sheet 'survey': cells B2:B5 are merged (column 'region')" in err
            and "3 record(s) read as missing" in err), err


def test_excel_formulas_without_values_say_why_the_column_is_missing(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 4: a key column of formulas with no cached values was 'missing in every record'."""
    p = _workbook(tmp_path / "f.xlsx", [["sex", "band"]] + [["f" if i % 2 else "m", f'=IF(A{i + 2}="f","a","b")']
                                                             for i in range(5)])
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex,band")
    assert status == 2 and "key variable 'band' is missing in every record" in _one_error(err)
    assert "column 'band' holds formulas with no saved values (5 of its cells, B2:B6)" in err


def test_excel_title_rows_are_refused_naming_the_header_row(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 4: a header on row 3 under title rows gave '--keys names columns not in the data'."""
    p = _workbook(tmp_path / "t.xlsx", [["Survey 2024"], [], ["sex", "region", "age"], ["f", "a", 30], ["m", "b", 31]])
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex,region")
    line = _one_error(err)
    assert status == 2 and "sheet 'survey': row 1 holds a title ('Survey 2024'), not column names" in line
    assert "looks to be row 3 (sex, region, age)" in line
    # two title cells: the columns read are listed (as the CSV path does)
    p = _workbook(tmp_path / "t2.xlsx", [["Survey 2024", "county"], [], ["sex", "region"], ["f", "a"], ["m", "b"]])
    status, _, err = run_cli(capsys, "risk", str(p), "--keys", "sex,region")
    line = _one_error(err)
    assert status == 2 and "The columns read are 'Survey 2024', 'county'" in line


@pytest.mark.parametrize("hierarchy, said", [
    ({"file": "comma.csv"}, "has one field per line, and every line holds ','"),
    ({"file": "folder"}, "it is a folder, not a file"),
    ({"intervals": [5, 10]}, "interval_hierarchy needs numeric values; column 'region' holds text such as 'a'"),
    ({"dates": ["month", "year"]}, "column 'region' has the value 'a' at index 0, which is not a date"),
])
def test_hierarchy_problems_are_named(hierarchy: dict, said: str, data: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture) -> None:
    """Issue 35 item 5: ',' for ';' gave 'values missing from its hierarchy'; a folder was 'no such file';
    the intervals and dates builders raised pandas' parse errors."""
    (data.parent / "comma.csv").write_text("a,north,*\nb,north,*\nc,south,*\n", encoding="utf-8")
    (data.parent / "folder").mkdir()
    spec = ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in hierarchy.items())
    cfg = data.parent / "search.toml"
    cfg.write_text(f'[data]\npath = "data.csv"\n[quasi_identifiers]\nregion = {{ {spec} }}\n[models]\nk = 2\n',
                   encoding="utf-8")
    out = tmp_path / "out"
    status, _, err = run_cli(capsys, "search", "--config", str(cfg), "--out", str(out))
    line = _one_error(err)
    assert status == 2 and "[keys].region" in line and said in line, line
    assert not out.exists()
