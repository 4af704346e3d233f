"""One "cells changed" (issue 26): the protection log and the comparison count the same cells on
the same run, by one definition (sdc.protect._result.CELLS_CHANGED), and a drop step is logged
as a drop."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.protect._result import CELLS_CHANGED

from tests.helpers import run_cli


@pytest.fixture
def data(tmp_path: Path) -> Path:
    df = sdc.load_example()
    df.loc[::7, "bmi"] = np.nan  # cells missing before: suppressing them changes nothing
    df.to_csv(tmp_path / "ex.csv", index=False)
    return tmp_path


def _run(capsys, tmp_path: Path) -> tuple[str, dict, pd.DataFrame, str]:
    code, out, err = run_cli(capsys, "protect", str(tmp_path / "ex.csv"), "--keys", "age,sex,region",
                             "--recode", "age=10", "--k", "3", "--drop", "household_id",
                             "--out", str(tmp_path / "p"))
    assert code == 0, err
    log = json.loads((tmp_path / "p" / "protection.json").read_text(encoding="utf-8"))
    changes = pd.read_csv(tmp_path / "p" / "comparison" / "changes.csv")
    md = (tmp_path / "p" / "protection.md").read_text(encoding="utf-8")
    return out, log, changes, md


def test_the_log_and_the_comparison_count_the_same_cells(data: Path, capsys: pytest.CaptureFixture) -> None:
    out, log, changes, md = _run(capsys, data)
    original = pd.read_csv(data / "ex.csv")
    released = pd.read_csv(data / "p" / "released.csv")
    # independent count: the cells that differ, missing on both sides unchanged
    common = [c for c in original.columns if c in released.columns]
    a, b = original[common].astype(str).where(original[common].notna(), None), \
        released[common].astype(str).where(released[common].notna(), None)
    # age is recoded to bands: every age cell differs; 25 of them also suppressed, counted once
    truth = {c: int(((a[c] != b[c]) & ~(a[c].isna() & b[c].isna())).sum()) for c in common}
    truth = {c: n for c, n in truth.items() if n}
    assert truth == {"age": 4125}
    assert log["totals"]["cells_changed"] == truth                   # was age 4,150: 4,125 recoded + 25 suppressed
    assert log["totals"]["cells_changed_total"] == 4125
    assert log["totals"]["cells_changed_definition"] == CELLS_CHANGED
    assert int(changes["cells_changed"].sum()) == 4125                # was 8,250: the dropped column counted n
    assert changes.set_index("variable").loc["household_id", "status"] == "dropped"
    assert changes.set_index("variable").loc["household_id", "cells_changed"] == 0
    assert "4,125 cells changed in 1 variable(s); 1 column(s) dropped; 0 record(s) dropped." in out
    assert "a cell two steps changed counts once" in md and "Cells changed per variable (original vs release)" in md


def test_a_drop_step_is_logged_as_a_drop(data: Path, capsys: pytest.CaptureFixture) -> None:
    out, log, _, md = _run(capsys, data)
    step = log["steps"][-1]
    assert step["action"] == "drop household_id" and step["columns_dropped"] == ["household_id"]
    assert "pseudonymise on -" not in out and "3. drop household_id: 1 column(s) dropped" in out
    assert "## Step 3: drop household_id" in md
    assert "| 3 | drop columns (pseudonymise step) | household_id |" in md
    assert "variables = ;" not in md
