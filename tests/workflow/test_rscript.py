"""sdc's plan as an R script for sdcMicro (issue 28 item 6): ``ProtectionRun.to_r_script()``
and ``sdc protect --export-r``. The script runs under Rscript, and each step it marks exact
gives the release's cells when R runs it on that step's input (sdc's output of the step
before), checked here for the bundled plan and for plans of every exactly translated method."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.cli.main import main
from sdc.datasets import example_path
from sdc.workflow.rscript import r_steps

pytestmark = pytest.mark.sdcmicro  # sdcMicro in R (Rscript); required in CI

PLAN = Path(example_path()).with_name("example_plan.toml")

DRIVER = r"""
Sys.setenv(SDC_STEPS_ONLY = "1")
args <- commandArgs(TRUE)
source(args[1])
data <- read.csv(args[3], stringsAsFactors = FALSE, na.strings = "", check.names = FALSE)
out <- steps[[as.integer(args[2])]](data)
write.csv(out, args[4], row.names = FALSE, na = "")
"""


def _as_text(df: pd.DataFrame, path: Path) -> pd.DataFrame:
    df.to_csv(path, index=False)
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _same_cells(r: pd.Series, ours: pd.Series, what: str) -> None:
    """The same cells: text equal, numbers equal to R's 15 printed digits (write.csv), missing
    where missing."""
    assert (r == "").equals(ours == ""), f"{what}: other cells missing"
    a, b = pd.to_numeric(r[r != ""], errors="coerce"), pd.to_numeric(ours[ours != ""], errors="coerce")
    if a.notna().all() and b.notna().all():
        assert np.allclose(a.to_numpy(float), b.to_numpy(float), rtol=1e-14, atol=0), what
    else:
        pd.testing.assert_series_equal(r, ours, obj=what)


def _check_exact_steps(run: sdc.ProtectionRun, tmp_path: Path) -> list[int]:
    """Every step marked exact, run by R on sdc's input of that step: R's cells = sdc's."""
    script = tmp_path / "plan.R"
    script.write_text(run.to_r_script(), encoding="utf-8")
    current = run.original
    checked = []
    for record, r in r_steps(run):
        n = record.step.number
        if r.exact:
            src, out = tmp_path / f"in{n}.csv", tmp_path / f"out{n}.csv"
            current.to_csv(src, index=False)
            proc = subprocess.run(["Rscript", "-e", DRIVER, str(script), str(n), str(src), str(out)],
                                  capture_output=True, text=True, timeout=300)
            assert proc.returncode == 0, proc.stderr[-2000:]
            r_cells = pd.read_csv(out, dtype=str, keep_default_na=False)
            sdc_cells = _as_text(record.result.data.reset_index(drop=True), tmp_path / f"sdc{n}.csv")
            for v in record.result.variables:
                _same_cells(r_cells[v], sdc_cells[v], f"step {n} ({record.step.method}) {v}")
            checked.append(n)
        current = record.result.data.reset_index(drop=True)
    return checked


def test_the_bundled_plan_runs_under_rscript_and_its_deterministic_step_matches(tmp_path: Path) -> None:
    df = sdc.load_example()
    run = sdc.protect_data(df, PLAN, reassess=False)
    script = run.to_r_script()
    assert "#   1. global_recode: exact" in script and "#   2. pram: differs - sdcMicro's pram, random" in script
    assert "#   3. local_suppression: differs - sdcMicro's localSuppression suppresses more cells" in script
    (tmp_path / "plan.R").write_text(script)
    df.to_csv(tmp_path / "in.csv", index=False)
    proc = subprocess.run(["Rscript", str(tmp_path / "plan.R"), str(tmp_path / "in.csv"), str(tmp_path / "out.csv")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = pd.read_csv(tmp_path / "out.csv", dtype=str, keep_default_na=False)
    assert list(out.columns) == list(df.columns) and len(out) == len(df)
    assert _check_exact_steps(run, tmp_path) == [1]


def test_every_exact_translation_gives_the_release_cells(tmp_path: Path) -> None:
    """Bands closed on either side, top and bottom coding, local suppression in sdcMicro's mode,
    suppression by risk (localSupp), multivariate top coding with a given center and covariance
    (mvTopCoding), addNoise's restr, ghost variables (addGhostVars), Gower microaggregation of
    complete numeric variables within strata (microaggrGower)."""
    plan = {"plan": {"seed": 5}, "steps": [
        {"method": "global_recode", "variables": ["age"], "width": 10, "closed": "left"},
        {"method": "top_bottom_code", "variables": ["bmi"], "top": 35, "bottom": 18, "bottom_value": 17},
        {"method": "global_recode", "variables": ["cholesterol"], "edges": [0, 4, 5, 6, 7, 12]},
        {"method": "local_suppression", "keys": ["age", "sex", "region", "marital_status"], "k": 3,
         "mode": "sdcmicro"},
        {"method": "local_suppression_by_risk", "keys": ["age", "sex", "region"], "variable": "region",
         "threshold": 0.1},
        {"method": "mv_top_code", "variables": ["bmi", "systolic_bp"], "alpha": 0.05, "center": [25.0, 130.0],
         "cov": [[9.0, 4.0], [4.0, 150.0]]},
        {"method": "add_noise", "variables": ["bmi", "systolic_bp"], "params": {"method": "restr"}, "noise": 50},
        {"method": "add_ghost_vars", "variables": ["relation", "household_id"], "key_var": "region"},
        {"method": "microaggregation_gower", "variables": ["bmi", "systolic_bp"], "k": 3,
         "dist_var": ["bmi", "systolic_bp", "weight"], "strata": ["smoking"]}]}
    run = sdc.protect_data(sdc.load_example(), plan, reassess=False)
    assert int(run.steps[4].result.changed["region"]) > 0 and run.steps[5].result.details["flagged"] > 0
    assert run.steps[7].result.n_changed > 0 and run.steps[8].result.n_changed > 0
    assert _check_exact_steps(run, tmp_path) == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_sdc_protect_export_r_writes_the_script(tmp_path: Path) -> None:
    target = tmp_path / "plan.R"
    assert main(["protect", example_path(), "--plan", str(PLAN), "--out", str(tmp_path / "out"),
                 "--export-r", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# sdc ") and "steps[[4]] <- function(data)" in text
    assert os.access(target, os.R_OK)


def test_r_bridge_hands_back_an_sdcmicroobj_and_results_as_r_data_frames() -> None:
    import r_bridge
    import rpy2.robjects as ro

    df = sdc.load_example()
    obj = r_bridge.create_sdc_obj(df, ["age", "sex", "region"], handle=True)
    assert list(ro.r["class"](obj.handle)) == ["sdcMicroObj"]
    after = ro.r("sdcMicro::localSuppression")(obj.handle, k=3)
    assert list(ro.r["class"](after)) == ["sdcMicroObj"]
    frame = r_bridge.to_r(sdc.k_anonymity(df, ["age", "sex", "region"], k=3))
    assert list(ro.r["dim"](frame)) == [len(df), 2]
    run = sdc.protect_data(df, PLAN, reassess=False)
    table = r_bridge.to_r(run)
    seeds = [s for s in ro.r("function(x) as.character(x$seed)")(table) if s != "NA"]
    assert str(run.steps[1].seed) in seeds  # exact, as text (R has no 64-bit integer)
