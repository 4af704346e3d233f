"""Benchmark: the risk measures in memory (pandas) vs on Dask (issue 14).

Generates N records x 5 keys (with missing values) and a weight as P partitioned CSV files
(seeded), then times ``k_anonymity`` + ``individual_risk`` (wildcard rule, weights):

* in memory: read every file with pandas, concatenate, compute (in a child process, so its
  peak memory is its own);
* Dask: ``dask.dataframe.read_csv`` of the glob on a LocalCluster with 1 and with 2 worker
  processes (one thread each), the same measures; peak memory of every worker (ru_maxrss).

Checks that both give the same expected re-identifications and class counts. Writes
``validation/results/benchmark-dask.md``. Usage::

    python validation/bench_dask.py [N] [P] [REPEATS]     # default 10_000_000 16 2
"""

from __future__ import annotations

import glob
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

KEYS = ["age", "sex", "region", "edu", "occ"]
ROOT = Path(__file__).resolve().parents[1]


def generate(directory: str, n: int, parts: int, seed: int = 2024) -> None:
    rng = np.random.default_rng(seed)
    per = -(-n // parts)
    for i in range(parts):
        m = min(per, n - i * per)
        df = pd.DataFrame({
            "age": rng.integers(0, 90, m).astype(float), "sex": rng.integers(1, 3, m).astype(float),
            "region": rng.integers(0, 40, m).astype(float), "edu": rng.integers(0, 8, m).astype(float),
            "occ": rng.integers(0, 30, m).astype(float), "w": rng.uniform(1, 100, m).round(3)})
        for k in KEYS[::2]:
            df.loc[rng.random(m) < 0.01, k] = np.nan
        df.to_csv(os.path.join(directory, f"part-{i:04d}.csv"), index=False)


def measures(data) -> dict:  # noqa: ANN001
    import sdc

    prof = sdc.k_anonymity(data, KEYS, weights="w", k=3)
    risk = sdc.individual_risk(data, KEYS, weights="w")
    return {"er": risk.expected_reidentifications, "n_classes": prof.n_classes, "n_unique": prof.n_unique,
            "threshold": risk.global_threshold}


def in_memory(pattern: str) -> dict:
    t = time.perf_counter()
    data = pd.concat([pd.read_csv(f) for f in sorted(glob.glob(pattern))], ignore_index=True)
    t_read = time.perf_counter() - t
    out = measures(data)
    out.update(seconds=time.perf_counter() - t, read_seconds=t_read,
               peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def _peak(_dask_worker=None) -> float:  # noqa: ANN001
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def on_dask(pattern: str, workers: int) -> dict:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      memory_limit="6GB") as cluster, Client(cluster) as client:
        client.run(lambda: None)
        t = time.perf_counter()
        data = dd.read_csv(pattern, assume_missing=True)
        out = measures(data)
        out["seconds"] = time.perf_counter() - t
        out["worker_peak_mb"] = sorted(client.run(_peak).values())
        out["client_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    parts = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    with tempfile.TemporaryDirectory(prefix="sdc-bench-dask-") as d:
        t = time.perf_counter()
        generate(d, n, parts)
        print(f"generated {n:,} records in {parts} files in {time.perf_counter() - t:.0f} s", flush=True)
        pattern = os.path.join(d, "part-*.csv")
        rows = []
        mem_runs = []
        for _ in range(repeats):  # a child process each, so the peak memory is the measure's alone
            res = subprocess.run([sys.executable, __file__, "--in-memory", pattern], capture_output=True, text=True,
                                 check=True, cwd=ROOT)
            mem_runs.append(json.loads(res.stdout.strip().splitlines()[-1]))
            print("in memory", mem_runs[-1], flush=True)
        dask_runs = {w: [] for w in (1, 2)}
        for w in (1, 2):
            for _ in range(repeats):
                dask_runs[w].append(on_dask(pattern, w))
                print(f"dask {w} worker(s)", dask_runs[w][-1], flush=True)
    ref = mem_runs[0]
    for w, runs in dask_runs.items():
        for r in runs:
            assert r["n_classes"] == ref["n_classes"] and r["n_unique"] == ref["n_unique"], (r, ref)
            assert abs(r["er"] - ref["er"]) <= 1e-9 * abs(ref["er"]), (r, ref)

    def line(name: str, runs: list[dict], mem: str) -> str:
        s = [r["seconds"] for r in runs]
        return f"| {name} | {min(s):.1f} | {float(np.median(s)):.1f} | {mem} |"

    lines = [
        "# Benchmark: risk measures in memory vs on Dask",
        "",
        f"`python validation/bench_dask.py {n} {parts} {repeats}` on this machine ({os.cpu_count()} cores, shared). "
        f"{n:,} records x 5 keys (about 1% missing in 3 keys) + a weight, in {parts} CSV files; "
        "`k_anonymity` + `individual_risk` (wildcard rule, weights), reading included. "
        f"Runs: {repeats} each; seconds min / median.",
        "",
        f"Same results: {ref['n_classes']:,} classes, {ref['n_unique']:,} sample uniques, ER = {ref['er']:.6f} "
        "(Dask within 1e-9 relative: weight sums added in another order).",
        "",
        "| engine | min s | median s | peak memory (MB) |",
        "|---|---|---|---|",
        line("pandas in memory (1 process)", mem_runs, f"{max(r['peak_mb'] for r in mem_runs):.0f}"),
    ]
    for w, runs in dask_runs.items():
        peaks = [max(r["worker_peak_mb"]) for r in runs]
        each = ", ".join(f"{p:.0f}" for p in runs[-1]["worker_peak_mb"])
        lines.append(line(f"Dask LocalCluster, {w} worker(s) x 1 thread", runs,
                          f"per worker {each} (max {max(peaks):.0f}); client {runs[-1]['client_peak_mb']:.0f}"))
    s1 = float(np.median([r["seconds"] for r in dask_runs[1]]))
    s2 = float(np.median([r["seconds"] for r in dask_runs[2]]))
    sm = float(np.median([r["seconds"] for r in mem_runs]))
    lines += ["", f"Scaling 1 -> 2 workers: {s1 / s2:.2f}x (median). Dask 2 workers vs in memory: {sm / s2:.2f}x.",
              "In-memory time includes {:.1f} s of pandas reading.".format(ref["read_seconds"]), ""]
    out = ROOT / "validation" / "results" / "benchmark-dask.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--in-memory":
        print(json.dumps(in_memory(sys.argv[2])))
    else:
        main()
