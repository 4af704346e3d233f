"""Ctrl-C at any point of a command: exit status 130, one line "sdc: interrupted", no traceback,
no output folder left as if complete (issue 26, item 7)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import sigint_default

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")


def _big_csv(path: Path, rows: int = 4_000_000) -> None:
    """A file pandas takes seconds to read, written in well under a second."""
    block = "".join(f"{a},{s},{r},{a * 7 % 1000}.{r}\n" for a in range(90) for s in (0, 1) for r in range(50))
    reps = rows // 9000 + 1
    with path.open("w") as f:
        f.write("age,sex,region,income\n")
        f.write(block * reps)


def test_ctrl_c_while_reading_exits_130_with_one_line(tmp_path):
    data = tmp_path / "big.csv"
    _big_csv(data)
    out = tmp_path / "out"
    env = {**os.environ, "SDC_STAGES": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "sdc", "assess", str(data), "--keys", "age,sex,region",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=sigint_default)
    first = proc.stderr.readline()  # the stage line said just before the full read
    assert first.startswith("sdc: reading big.csv"), first
    time.sleep(0.5)  # inside pandas' C parser, which turns KeyboardInterrupt into "Error tokenizing data"
    assert proc.poll() is None, "the command ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["sdc: interrupted"], err  # one line: no traceback, no parser error
    assert not out.exists()


@pytest.mark.parametrize("flags, message", [
    (["--keys", "sex,disease", "--sensitive", "disease"], "--sensitive variables may not also be keys: 'disease'"),
    (["--keys", "sex,nope"], "names columns not in the data: 'nope'"),
])
def test_flags_checked_against_the_header_before_the_read(tmp_path, capsys, monkeypatch, flags, message):
    import sdc.workflow.assess_input as wa
    from sdc.cli.main import main

    data = tmp_path / "d.csv"
    data.write_text("sex,age,disease\n0,30,a\n1,40,b\n")

    def no_read(*a, **k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the records were read before the flags were checked")

    monkeypatch.setattr(wa, "read_data_details", no_read)
    assert main(["assess", str(data), *flags, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_progress_bars_named_for_the_measure(monkeypatch):
    """The jackknife's bar is named for the interval it computes, not "jackknife replicates"."""
    import numpy as np
    import pandas as pd
    import tqdm.std

    from sdc.risk.uncertainty import jackknife_interval

    names: list[str] = []
    real = tqdm.std.tqdm

    def spy(*a, **k):  # noqa: ANN002, ANN003, ANN202
        names.append(k.get("desc", ""))
        return real(*a, **{**k, "disable": True})

    monkeypatch.setattr(tqdm.std, "tqdm", spy)  # the text bar (sdc.core.progress)
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.integers(0, 3, 200), "b": rng.integers(0, 2, 200), "w": rng.uniform(1, 5, 200)})
    jackknife_interval(df, ["a", "b"], weights="w", statistic="global_risk", progress=True)
    assert names == ["interval of the global risk"]


@pytest.mark.parametrize("how, min_bytes, expected", [
    ("csv", None, "records.csv"), ("none", None, None), ("gz", None, "records.csv.gz"),
    ("auto", None, "records.csv"),        # larger than the input, but below AUTO_MIN_BYTES
    ("auto", 0, "records.csv.gz"),        # larger than the input (it adds a column per measure)
    ("auto", 10**6, "records.csv"),       # ... and not larger than the minimum
    (None, None, "records.csv")])         # the default is auto
def test_records_file_optional_or_compressed(tmp_path, monkeypatch, how, min_bytes, expected):
    """[output].records / --records: records.csv as CSV, gzip-compressed, compressed when it would
    be larger than the input and sdc.report.AUTO_MIN_BYTES, or not written; the compressed file
    holds the CSV's bytes."""
    import gzip

    import pandas as pd

    import sdc.report
    from sdc.cli.main import main

    if min_bytes is not None:
        monkeypatch.setattr(sdc.report, "AUTO_MIN_BYTES", min_bytes)
    data = tmp_path / "d.csv"
    pd.DataFrame({"sex": [0, 1] * 30, "age": [20, 30, 40] * 20}).to_csv(data, index=False)
    out = tmp_path / "out"
    flag = ["--records", how] if how else []
    assert main(["assess", str(data), "--keys", "sex,age", *flag, "--out", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    assert {n for n in names if n.startswith("records.csv")} == ({expected} if expected else set())
    if expected == "records.csv.gz":
        assert len(pd.read_csv(gzip.open(out / expected))) == 60
        main(["assess", str(data), "--keys", "sex,age", "--records", "csv", "--out", str(tmp_path / "plain")])
        assert gzip.open(out / expected).read() == (tmp_path / "plain" / "records.csv").read_bytes()


def test_records_auto_decides_from_the_first_bytes(tmp_path, monkeypatch):
    """A records.csv longer than AUTO_PEEK_BYTES is judged by the size its first rows scale to,
    streamed (compressed or not) without being held whole: the same bytes either way."""
    import gzip

    import numpy as np
    import pandas as pd

    import sdc.report
    from sdc.cli.main import main

    rng = np.random.default_rng(3)
    data = tmp_path / "d.csv"
    pd.DataFrame({"sex": rng.integers(0, 2, 30000), "age": rng.integers(0, 90, 30000)}).to_csv(data, index=False)
    main(["assess", str(data), "--keys", "sex,age", "--records", "csv", "--formats", "json,csv",
          "--out", str(tmp_path / "plain")])
    plain = (tmp_path / "plain" / "records.csv").read_bytes()
    monkeypatch.setattr(sdc.report, "AUTO_PEEK_BYTES", 4096)
    for min_bytes, name in ((0, "records.csv.gz"), (10 * len(plain), "records.csv")):
        monkeypatch.setattr(sdc.report, "AUTO_MIN_BYTES", min_bytes)
        out = tmp_path / f"out{min_bytes}"
        assert main(["assess", str(data), "--keys", "sex,age", "--formats", "json,csv", "--out", str(out)]) == 0
        got = (out / name).read_bytes()
        assert (gzip.decompress(got) if name.endswith(".gz") else got) == plain


def test_a_stage_line_per_step(tmp_path, capsys, monkeypatch):
    """reading, frequencies, each measure by its label, writing each file: one line each on stderr."""
    import pandas as pd

    from sdc.cli.main import main

    monkeypatch.setenv("SDC_STAGES", "1")
    data = tmp_path / "d.csv"
    pd.DataFrame({"sex": [0, 1] * 30, "age": [20, 30, 40] * 20}).to_csv(data, index=False)
    assert main(["assess", str(data), "--keys", "sex,age", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err.splitlines()
    for line in ("sdc: reading d.csv (", "sdc: frequencies of 2 keys over 60 records", "sdc: SUDA2",
                 "sdc: k-anonymity", "sdc: writing records.csv", "sdc: writing report.html"):
        assert any(e.startswith(line) for e in err), (line, err)
    assert not any("jackknife" in e or "plots/" in e for e in err)


_HOOK = """
import os, signal, sys

class _InterruptAt:
    # SIGINT to this process when `{module}` is first imported: Ctrl-C during sdc's imports
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, _InterruptAt())
"""


@pytest.mark.parametrize("module", ["pandas", "sdc.workflow.compare", "sdc.cli.sweep"])
@pytest.mark.parametrize("how", ["-m", "script"])
def test_ctrl_c_during_the_imports_exits_130_with_one_line(tmp_path, module, how):
    """Issue 26: Ctrl-C while `sdc` imports the package (pandas, the workflow) or the command
    modules, before the main loop, printed a traceback through the imports."""
    (tmp_path / "sitecustomize.py").write_text(_HOOK.format(module=module))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    cmd = ([sys.executable, "-m", "sdc"] if how == "-m" else
           [sys.executable, "-c", "import sys; sys.argv[0] = 'sdc'; from sdc.cli.main import main; sys.exit(main())"])
    proc = subprocess.run([*cmd, "risk", "nowhere.csv", "--keys", "a"], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path, preexec_fn=sigint_default)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip().splitlines() == ["sdc: interrupted"], proc.stderr


def test_a_library_import_interrupted_is_python_s_own(tmp_path):
    """`import sdc` in a user's script keeps Python's KeyboardInterrupt (no handler installed);
    the face loads on first use, so the script uses a name (which imports pandas)."""
    (tmp_path / "sitecustomize.py").write_text(_HOOK.format(module="pandas"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", "import sdc; sdc.load_example"], capture_output=True, text=True,
                          env=env, timeout=120, preexec_fn=sigint_default)
    assert proc.returncode != 130 and "KeyboardInterrupt" in proc.stderr
