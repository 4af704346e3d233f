"""``sdc assess --engine dask`` (issue 14): the measures that run on Dask give the in-memory
verdicts and figures, and the report marks SUDA2, modRisk and household risk as not run.

A LocalCluster with worker processes (2 workers, 1 thread each); the data are 4 CSV files
(4 partitions), with missing key and sensitive values and weights. Without dask the module
skips with the reason, unless SDC_REQUIRE_DASK=1 (then it fails).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tests.dask_support import require_dask

require_dask()

from sdc.cli.main import main

RTOL = 1e-12


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("dask-assess")
    rng = np.random.default_rng(21)
    n = 2400
    df = pd.DataFrame({
        "age": rng.integers(15, 85, n).astype(float), "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(["n", "s", "e", "w", "c"], n), "w": rng.uniform(1, 60, n).round(3),
        "hh": rng.integers(0, 800, n), "dx": rng.choice(["a", "b", "c", "d"], n, p=[.5, .3, .15, .05]),
        "income": rng.integers(0, 12, n) * 1000.0})
    df.loc[rng.random(n) < .05, "age"] = np.nan
    df.loc[rng.random(n) < .05, "region"] = None
    df.loc[rng.random(n) < .06, "dx"] = None
    df.loc[rng.random(n) < .04, "income"] = np.nan
    for i in range(4):
        df.iloc[i * 600:(i + 1) * 600].to_csv(d / f"part-{i}.csv", index=False)
    df.to_csv(d / "all.csv", index=False)
    return d


ARGS = ["--keys", "sex,region", "--continuous-keys", "age", "--bins", "age=0,30,50,65,inf", "--weights", "w",
        "--household", "hh", "--sensitive", "dx,income", "--k", "5", "--t", "0.1", "--l", "3"]


def test_assess_engine_dask_matches_memory(client, files, capsys) -> None:
    out = files / "rep-dask"
    assert main(["assess", str(files / "part-*.csv"), *ARGS, "--engine", "dask", "--scheduler",
                 client.scheduler.address, "--out", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(["assess", str(files / "all.csv"), *ARGS, "--out", str(files / "rep-mem"), "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert d["records"] == 2400 and d["partitions"] == 4
    # every verdict of a Dask measure: same statistic, same value (counts exact, risks to 1e-12)
    mem = {(v["scenario"], v["measure"]): v for v in m["verdicts"]}
    measures = {v["measure"] for v in d["verdicts"]}
    assert {"5-anonymity", "individual risk", "global risk", "3-diversity (dx)", "3-diversity (income)",
            "t-closeness (dx, equal)", "t-closeness (income, ordered)"} <= measures
    for v in d["verdicts"]:
        w = mem[(v["scenario"], v["measure"])]
        assert v["statistic"] == w["statistic"] and v["verdict"] == w["verdict"]
        assert v["value"] == pytest.approx(w["value"], rel=RTOL, abs=0)
    assert "household risk" not in measures and "SUDA2" not in measures  # never another number
    ds, ms = d["scenarios"][0], m["scenarios"][0]
    assert ds["name"] == ms["name"] == "all keys" and ds["keys"] == ms["keys"]
    for f in ("n_records", "n_classes", "n_unique", "n_k_lt_threshold", "n_k_le_threshold", "n_higher_risk"):
        assert ds["risk"][f] == ms["risk"][f], f
    for f in ("expected_reidentifications", "global_risk", "max_risk", "global_threshold"):
        assert ds["risk"][f] == pytest.approx(ms["risk"][f], rel=RTOL), f
    for s in ("dx", "income"):
        a, b = ds["ldiversity"]["by_sensitive"][s], ms["ldiversity"]["by_sensitive"][s]
        assert a.keys() == b.keys()
        for k in a:
            assert a[k] == pytest.approx(b[k], rel=RTOL) if isinstance(a[k], float) else a[k] == b[k], k
        a, b = ds["tcloseness"][s], ms["tcloseness"][s]
        assert (a["n_records_above_t"], a["n_classes_above_t"]) == (b["n_records_above_t"], b["n_classes_above_t"])
        assert a["max_t"] == pytest.approx(b["max_t"], rel=RTOL)
    for row_d, row_m in zip(ds["snapshots"], ms["snapshots"]):
        assert row_d["keys"] == row_m["keys"] and row_d["n_unique"] == row_m["n_unique"]
        assert row_d["expected_reidentifications"] == pytest.approx(row_m["expected_reidentifications"], rel=RTOL)

    # the report (every format asked for; no per-record files): one line per configured measure
    # not run on Dask, with its declaration's reason; modRisk is not configured, so not listed
    assert sorted(p.name for p in out.iterdir()) == [".sdc-report", "report.html", "report.json", "report.md",
                                                     "report.xlsx", "summary.txt", "verdicts.csv"]
    md = (out / "report.md").read_text()
    for label in ("SUDA2", "household risk"):
        lines = [ln for ln in md.splitlines() if ln.startswith(f"{label}: not run on Dask: ")]
        assert len(lines) == 1, label
    assert "modRisk" not in md and "log-linear model risk" not in d["not_run"]
    assert set(d["not_run"]) >= {"SUDA2", "household risk"}
    assert all(why.startswith("not run on Dask: ") for why in d["not_run"].values())
    assert json.loads((out / "report.json").read_text())["verdicts"] == d["verdicts"]


def test_assess_engine_dask_text_and_errors(client, files, capsys) -> None:
    out = files / "rep-text"
    assert main(["assess", str(files / "part-*.csv"), *ARGS, "--engine", "dask", "--scheduler",
                 client.scheduler.address, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "on Dask" in text and "Not run on Dask: household risk; SUDA2" in text and (out / "report.md").exists()
    # quantile bins depend on the whole file: one line, exit 2, nothing written
    bad = files / "rep-bad"
    args = [a if a != "age=0,30,50,65,inf" else "age=quantiles:4" for a in ARGS]
    assert main(["assess", str(files / "part-*.csv"), *args, "--engine", "dask", "--scheduler",
                 client.scheduler.address, "--out", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "explicit edges" in err[0] and not bad.exists()
    assert main(["assess", str(files / "all.csv"), *ARGS, "--scheduler", "tcp://x:1", "--out", str(bad)]) == 2
    assert "--engine dask" in capsys.readouterr().err
