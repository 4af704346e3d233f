"""Local recoding against ARX itself: ARX's optimizeIterativeFast / optimizeIterative on adult
through validation/arx/ArxQuality.java (our harness, ARX's public API only); sdc's release must
be ARX's output row for row, and ARX's steps the values recorded in tests/identify/test_local.py.
Needs SDC_ARX_CLASSPATH (validation/arx/README.md) and ARX's adult with its hierarchies."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from tests.identify.test_local import ADULT, ALL, ARX_LOCAL, adult_search

pytestmark = pytest.mark.arx

HARNESS = Path(__file__).resolve().parents[2] / "validation" / "arx" / "ArxQuality.java"


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("SDC_REQUIRE_ARX", "") not in ("", "0"):
        pytest.fail(f"{reason} (required here: SDC_REQUIRE_ARX=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    cp = os.environ.get("SDC_ARX_CLASSPATH", "")
    if not cp:
        _skip_or_fail("ARX is not built: set SDC_ARX_CLASSPATH (see validation/arx/README.md)")
    if shutil.which("java") is None or shutil.which("javac") is None:
        _skip_or_fail("java/javac are not on PATH")
    if not (ADULT.exists() and (ADULT.parent / "adult_hierarchy_age.csv").exists()):
        _skip_or_fail(f"ARX's adult and its hierarchies are not at {ADULT.parent}")
    build = tmp_path_factory.mktemp("arx-quality")
    done = subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", cp, str(HARNESS)], capture_output=True, text=True)
    if done.returncode != 0:
        _skip_or_fail(f"the harness does not compile against SDC_ARX_CLASSPATH: {done.stderr.strip()[:300]}")
    return cp, build


def _levels(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", text))


@pytest.mark.parametrize("k, limit, records, optimum, steps, loss_full, loss", ARX_LOCAL)
def test_local_recoding_is_arx(harness: tuple[str, Path], tmp_path: Path, k: int, limit: float,
                               records: float | None, optimum: tuple, steps: list, loss_full: float,
                               loss: float) -> None:
    cp, build = harness
    out = tmp_path / "arx.csv"
    mode = ["iterative", "100"] if records is None else ["fast", repr(records)]
    done = subprocess.run(["java", "-cp", f"{cp}{os.pathsep}{build}", "ArxQuality", "local", str(k), repr(limit),
                           *mode, str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
    lines = [ln.split("\t") for ln in done.stdout.splitlines()]
    assert _levels(lines[0][1]) == optimum
    arx_steps = [(_levels(ln[1]), int(ln[2])) for ln in lines if ln[0] == "step"]
    r = adult_search(k, limit, records)
    # ARX counts a step at the top transformation as releasing 0 records (its "*" cells read as suppressed)
    assert [s for s, _ in arx_steps] == [s for s, _ in steps]
    for (s, c_arx), (_, c) in zip(arx_steps, steps):
        assert c_arx == c or (c_arx == 0 and s == r.top_levels)
    arx = pd.read_csv(out, sep=";", dtype=str, keep_default_na=False)
    mine = r.data[ALL].astype(str)
    same = (arx[ALL].to_numpy() == mine.to_numpy()).all(axis=1)
    assert same.all(), f"{int((~same).sum())} records differ from ARX's output"
    assert r.local.loss == pytest.approx(loss, abs=5e-7)
