"""Speed of the attacks: exact linkage at 10^6 x 10^6, nearest-neighbour linkage at 10^5 x 10^5,
and sdcMicro's distance measures, sdc and R on the same data in the same run.

    .venv/bin/python -m validation.bench_attacks [--repeat 3] [--quick]

* exact linkage (``sdc.linkage_attack``, a join): released and external files of 10^5 and 10^6
  records, 3 quasi-identifiers (ZIP-like 1,000 values, age 90, sex 2), with no missing value and
  with 5% missing per QI in the released file (the wildcard rule: one join per pair of
  missing-value patterns); as a reference, the same match counts with R's data.table (a keyed
  join of the external file to the released file's counts: no wildcard, so the no-missing case);
* nearest-neighbour linkage (``method="nearest"``): 3 standardised numeric QIs and a categorical
  block, 10^4 and 10^5 records per file (sdcMicro has no nearest-neighbour linkage);
* ``dRisk`` (10^5 and 10^6 records, 3 variables) and ``dRiskRMD`` (5,000 records; sdc's FAST-MCD
  vs robustbase's ``covMcd``): sdc vs sdcMicro;
* ``recordLinkage`` (the Hungarian global linkage, O(n^3)): n = 500 and 1,000, sdc
  (scipy ``linear_sum_assignment``) vs sdcMicro (``cluster::daisy`` + ``clue::solve_LSAP``).

sdc and R are both warm (one untimed call first); R is timed inside R (``proc.time``), so
conversion to R is not counted. min and median of ``--repeat`` runs. Writes
``validation/results/benchmark-attacks.{md,csv}``.
"""

from __future__ import annotations

import argparse
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import sdc

HERE = Path(__file__).resolve().parent

_R_TIMERS = r"""
function(kind, x, xm, vars, reps) {
  run <- switch(kind,
    join = function() {
      dt_r <- data.table::as.data.table(xm)
      dt_e <- data.table::as.data.table(x)
      cnt <- dt_r[, .N, by = vars]
      res <- cnt[dt_e, on = vars]
      res$N[is.na(res$N)] <- 0L
      res$N
    },
    drisk = function() sdcMicro::dRisk(x, xm = xm),
    drmd = function() { set.seed(1); sdcMicro::dRiskRMD(x, xm = xm) },
    rl = function() sdcMicro::recordLinkage(x, xm, vars = vars, distance = "euclidean"))
  invisible(run())  # warm
  out <- numeric(reps)
  for (i in seq_len(reps)) { t0 <- proc.time()[["elapsed"]]; invisible(run()); out[i] <- proc.time()[["elapsed"]] - t0 }
  out
}
"""


def _time(fn, repeat: int) -> tuple[float, float, object]:
    res = fn()  # warm
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        res = fn()
        ts.append(time.perf_counter() - t)
    return float(np.min(ts)), float(np.median(ts)), res


def _r_time(kind: str, x: pd.DataFrame, xm: pd.DataFrame, variables: list[str], repeat: int) -> tuple[float, float]:
    import rpy2.robjects as ro

    import r_bridge
    from r_bridge.convert import py_vector, r_str, to_r_frame

    r_bridge.versions()  # starts R
    fn = ro.r(_R_TIMERS)
    ts = py_vector(fn(kind, to_r_frame(x), to_r_frame(xm), r_str(variables), int(repeat)))
    return float(ts.min()), float(np.median(ts))


def _exact_files(n: int, seed: int, missing: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rel = pd.DataFrame({"zip": rng.integers(0, 1000, n), "age": rng.integers(0, 90, n),
                        "sex": rng.integers(0, 2, n)})
    ext = rel.sample(frac=1.0, random_state=seed).reset_index(drop=False).rename(columns={"index": "id"})
    if missing:
        rel = rel.astype(float)
        for c in ("zip", "age", "sex"):
            rel.loc[rng.random(n) < 0.05, c] = np.nan
    return rel, ext


def bench(repeat: int, quick: bool) -> list[dict[str, object]]:
    import r_bridge

    has_r = r_bridge.is_available()
    rows: list[dict[str, object]] = []

    def add(task: str, n: str, sdc_t: tuple[float, float], r_t: tuple[float, float] | None, note: str) -> None:
        rows.append({"task": task, "records": n, "sdc_min_s": sdc_t[0], "sdc_median_s": sdc_t[1],
                     "r_min_s": None if r_t is None else r_t[0], "r_median_s": None if r_t is None else r_t[1],
                     "ratio": None if r_t is None else r_t[0] / sdc_t[0], "note": note})
        print(rows[-1], flush=True)

    on = ["zip", "age", "sex"]
    for n in ((10**5,) if quick else (10**5, 10**6)):
        for missing in (False, True):
            rel, ext = _exact_files(n, 1, missing)
            mn, md, res = _time(lambda: sdc.linkage_attack(rel, ext, on, truth="id"), repeat)
            r_t = _r_time("join", ext[on], rel, on, repeat) if has_r and not missing else None
            add("exact linkage" + (" (5% missing, wildcard)" if missing else ""), f"{n:,} x {n:,}", (mn, md), r_t,
                f"precision at 1 {res.precision_at_1:.4f}; R: data.table join of counts" if r_t else
                f"precision at 1 {res.precision_at_1:.4f}")
    for n in ((10**4,) if quick else (10**4, 10**5)):
        rng = np.random.default_rng(2)
        rel = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"]).assign(g=rng.integers(0, 20, n))
        ext = rel + rng.normal(scale=0.02, size=rel.shape)
        ext["g"] = rel["g"]
        ext["id"] = np.arange(n)
        mn, md, res = _time(lambda: sdc.linkage_attack(rel, ext, ["a", "b", "c", "g"], truth="id", method="nearest",
                                                       numeric=["a", "b", "c"]), repeat)
        add("nearest-neighbour linkage (3 numeric QIs, 20 blocks)", f"{n:,} x {n:,}", (mn, md), None,
            f"precision at 1 {res.precision_at_1:.4f}; sdcMicro has no NN linkage")
    for n in ((10**5,) if quick else (10**5, 10**6)):
        rng = np.random.default_rng(3)
        x = pd.DataFrame(rng.lognormal(5, 1, size=(n, 3)), columns=["a", "b", "c"])
        xm = x * (1 + rng.normal(scale=0.02, size=x.shape))
        mn, md, res = _time(lambda: sdc.distance_risk(x, xm, ["a", "b", "c"]), repeat)
        r_t = _r_time("drisk", x, xm, ["a", "b", "c"], repeat) if has_r else None
        add("dRisk", f"{n:,}", (mn, md), r_t, f"risk {res.risk:.5f}")
    n = 5000  # sdcMicro's dRiskRMD builds the n x n stats::dist matrix: 10^4 records take 800 MB and 30 s
    rng = np.random.default_rng(4)
    x = pd.DataFrame(rng.lognormal(5, 1, size=(n, 3)), columns=["a", "b", "c"])
    xm = x * (1 + rng.normal(scale=0.02, size=x.shape))
    mn, md, res = _time(lambda: sdc.distance_risk_rmd(x, xm, ["a", "b", "c"], seed=1), repeat)
    r_t = _r_time("drmd", x, xm, ["a", "b", "c"], repeat) if has_r else None
    add("dRiskRMD (MCD, 500 starts)", f"{n:,}", (mn, md), r_t,
        f"risk1 {res.risk1:.5f}; sdcMicro computes all n^2 distances")
    for n in ((500,) if quick else (500, 1000)):
        rng = np.random.default_rng(5)
        x = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
        xm = x + rng.normal(scale=0.3, size=x.shape)
        mn, md, res = _time(lambda: sdc.record_linkage(x, xm, ["a", "b", "c"], distance="euclidean"), repeat)
        r_t = _r_time("rl", x, xm, ["a", "b", "c"], repeat) if has_r else None
        add("recordLinkage (euclidean, Hungarian)", f"{n:,} x {n:,}", (mn, md), r_t,
            f"correct {res.correct_matches}")
    return rows


def markdown(rows: list[dict[str, object]], repeat: int) -> str:
    import os

    try:
        import r_bridge

        v = r_bridge.versions()
        rv = f", R {v['R'].removeprefix('R version ').split(' ')[0]}, sdcMicro {v['sdcMicro']}"
    except Exception:  # noqa: BLE001 - R optional
        rv = ""
    head = ("| task | records | sdc min (s) | sdc median (s) | R min (s) | R median (s) | R / sdc | note |\n"
            "|---|---:|---:|---:|---:|---:|---:|---|\n")

    def f(x: object) -> str:
        return "-" if x is None else f"{float(x):.3f}"

    body = "".join(f"| {r['task']} | {r['records']} | {f(r['sdc_min_s'])} | {f(r['sdc_median_s'])} | "
                   f"{f(r['r_min_s'])} | {f(r['r_median_s'])} | "
                   f"{'-' if r['ratio'] is None else format(float(r['ratio']), '.1f')} | {r['note']} |\n"
                   for r in rows)
    return "\n".join([
        "# Benchmark: attacks",
        "",
        f"Run by `python -m validation.bench_attacks` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; "
        f"{platform.machine()}, {os.cpu_count()} cores (shared).",
        f"Versions: sdc {sdc.__version__}, Python {platform.python_version()}, pandas {pd.__version__}, "
        f"numpy {np.__version__}{rv}.",
        "",
        f"Both sides warm (one untimed call), min and median of {repeat} runs; R timed inside R. Exact linkage: "
        "3 QIs (1,000 x 90 x 2 values), the external file a permutation of the released file; with missing "
        "values, 5% per QI of the released file (wildcard matching). R's reference for the exact join is "
        "data.table (counts of the released file joined to the external file), which has no wildcard rule. "
        "Nearest neighbour: 3 standard normal QIs plus a 20-value block, noise sd 0.02. dRisk/dRiskRMD: "
        "lognormal data with 2% multiplicative noise. recordLinkage: normal data, noise sd 0.3.",
        "",
        head + body,
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="the small sizes only")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args(argv)
    rows = bench(args.repeat, args.quick)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out / "benchmark-attacks.csv", index=False)
    (out / "benchmark-attacks.md").write_text(markdown(rows, args.repeat), encoding="utf-8")
    print(f"written to {out / 'benchmark-attacks.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
