"""Benchmark: the risk measures in memory (pandas) vs on Dask, and sdc protect on Dask (issue 14).

For each size N (``--sizes 1e6,1e7``), N records x K keys (``--keys 5``; about 1% missing in
every other key) and a weight are generated as partitioned CSV files (``--rows-per-file``,
default 10^6), reproducibly: file i is drawn from ``SeedSequence(seed).spawn(files)[i]``, one
file at a time, so generation fits in memory at any N and the same options give the same
bytes. Files are kept in ``--data-dir`` (reused when its manifest matches) or a temporary
folder. Then, reading included:

* **in memory** (N <= ``--in-memory-max``, default 2e7; beyond, pandas does not fit on this
  machine): a fresh child process reads every file with pandas, concatenates, and runs
  ``k_anonymity`` + ``individual_risk`` (wildcard rule, weights); its peak RSS is its own;
* **Dask**: a LocalCluster of 1 and of 2 worker processes (1 thread each) reads the glob
  (``dask.dataframe.read_csv``) and runs the same measures; every worker's resident memory
  is sampled during the run (``client.run`` every 0.25 s) and the maximum per worker
  reported, with the client's own peak;
* **sdc protect on Dask** (2 workers, once per size; ``--no-protect`` to skip): recoding,
  top coding and PRAM (per partition seeds) with the release written partitioned.

Both engines must give the same class counts and ER (to 1e-9 relative). Writes
``validation/results/benchmark-dask.md`` (or ``--out``). Usage::

    python -m validation.bench_dask --sizes 1e6,1e7 --keys 5
    python -m validation.bench_dask --sizes 1e8 --keys 5 --data-dir /tmp/dask-data --repeats 1
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
#: Candidate keys: (name, number of levels); ``--keys K`` uses the first K.
KEY_LEVELS = [("age", 90), ("sex", 2), ("region", 40), ("edu", 8), ("occ", 30), ("marital", 6), ("nat", 20),
              ("hh_size", 9)]
SEED = 2024


# --- data -------------------------------------------------------------------------------------

def _file_frame(n: int, keys: int, seq: np.random.SeedSequence) -> pd.DataFrame:
    rng = np.random.default_rng(seq)
    cols = {}
    for j, (name, levels) in enumerate(KEY_LEVELS[:keys]):
        x = rng.integers(0, levels, n).astype(np.float64)
        if j % 2 == 0:
            x[rng.random(n) < 0.01] = np.nan
        cols[name] = x
    df = pd.DataFrame(cols)
    df["w"] = rng.uniform(1, 100, n).round(2)
    return df


def generate(directory: str, n: int, keys: int, rows_per_file: int, seed: int = SEED) -> tuple[list[str], bool]:
    """The partitioned files of `n` records, and whether they were reused (the folder's
    manifest matches: same records, keys, rows per file and seed)."""
    os.makedirs(directory, exist_ok=True)
    manifest = {"records": n, "keys": keys, "rows_per_file": rows_per_file, "seed": seed, "version": 1}
    mpath = os.path.join(directory, "manifest.json")
    files_n = -(-n // rows_per_file)
    names = [os.path.join(directory, f"part-{i:05d}.csv") for i in range(files_n)]
    if os.path.exists(mpath) and json.load(open(mpath)) == manifest and all(os.path.exists(f) for f in names):
        return names, True
    for f in glob.glob(os.path.join(directory, "part-*.csv")):
        os.remove(f)
    if os.path.exists(mpath):
        os.remove(mpath)
    seqs = np.random.SeedSequence(seed).spawn(files_n)
    for i, (name, seq) in enumerate(zip(names, seqs)):
        m = min(rows_per_file, n - i * rows_per_file)
        df = _file_frame(m, keys, seq)
        tmp = name + ".tmp"
        df.to_csv(tmp, index=False, float_format="%.15g", lineterminator="\n")
        os.replace(tmp, name)
    with open(mpath, "w") as fh:
        json.dump(manifest, fh)
    return names, False


# --- runs -------------------------------------------------------------------------------------

def measures(data, keys: list[str]) -> dict:  # noqa: ANN001
    import sdc

    prof = sdc.k_anonymity(data, keys, weights="w", k=3)
    risk = sdc.individual_risk(data, keys, weights="w")
    return {"er": float(risk.expected_reidentifications), "n_classes": int(prof.n_classes),
            "n_unique": int(prof.n_unique), "n_records": int(prof.n_records)}


def in_memory(pattern: str, keys: list[str]) -> dict:
    t = time.perf_counter()
    data = pd.concat([pd.read_csv(f) for f in sorted(glob.glob(pattern))], ignore_index=True)
    t_read = time.perf_counter() - t
    out = measures(data, keys)
    out.update(seconds=time.perf_counter() - t, read_seconds=t_read,
               peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def _rss() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


class Sampler:
    """Every worker's resident memory, sampled every `every` seconds; the maximum per worker."""

    def __init__(self, client, every: float = 0.25):  # noqa: ANN001
        self.client, self.every, self.peak = client, every, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                for w, mb in self.client.run(_rss).items():
                    self.peak[w] = max(self.peak.get(w, 0.0), mb)
            except Exception:  # noqa: BLE001 - a sample lost while a worker is busy is skipped
                pass
            self._stop.wait(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def on_dask(pattern: str, keys: list[str], workers: int, *, protect_out: str | None = None) -> dict:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      memory_limit=0) as cluster, Client(cluster) as client:
        client.run(lambda: None)
        base = client.run(_rss)
        with Sampler(client) as s:
            t = time.perf_counter()
            out = measures(dd.read_csv(pattern, assume_missing=True), keys)
            out["seconds"] = time.perf_counter() - t
        out["worker_peak_mb"] = sorted(s.peak.values())
        out["worker_start_mb"] = sorted(base.values())
        out["client_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if protect_out is not None:
            with Sampler(client) as s:
                t = time.perf_counter()
                protect_dask(pattern, keys, protect_out)
                out["protect_seconds"] = time.perf_counter() - t
            out["protect_worker_peak_mb"] = sorted(s.peak.values())
    return out


def protect_dask(pattern: str, keys: list[str], out: str) -> None:
    """sdc protect on Dask: recode age in bands of 10, top-code the weight, PRAM the region,
    the release written partitioned (no re-assessment: the measures are timed above)."""
    from sdc.report.protection_dask import write_protection_dask
    from sdc.workflow.plan import plan_from_mapping
    from sdc.workflow.protect import protect_data, read_dask_partitions

    plan = plan_from_mapping({"plan": {"seed": 1}, "steps": [
        {"method": "global_recode", "variables": [keys[0]], "width": 10},
        {"method": "top_bottom_code", "variables": ["w"], "top": 90},
        {"method": "pram", "variables": [keys[2] if len(keys) > 2 else keys[-1]]}]})
    ddf, files = read_dask_partitions(pattern)
    run = protect_data(ddf, plan, reassess=False, input_file=pattern)
    write_protection_dask(run, out, files=files)


# --- the report -------------------------------------------------------------------------------

def _fmt_s(runs: list[dict], key: str = "seconds") -> tuple[str, str]:
    s = [r[key] for r in runs]
    return f"{min(s):.1f}", f"{float(np.median(s)):.1f}"


def report(results: dict, args: argparse.Namespace) -> str:
    lines = ["# Benchmark: risk measures in memory vs on Dask, and sdc protect on Dask", "",
             f"`python -m validation.bench_dask` on this machine ({os.cpu_count()} cores, "
             f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GB RAM, shared with other "
             f"jobs). {args.keys} keys (about 1% missing in every other key) + a weight, in CSV files "
             "(one partition each; seeded, `generate`). Measures: `k_anonymity` + `individual_risk` "
             "(wildcard rule, weights), reading included. Seconds min / median over the runs. Worker memory: "
             "resident set sampled every 0.25 s during the run (`client.run`), the maximum per worker (at the "
             "start: an idle worker's).", ""]
    for n, res in results.items():
        ref = res["dask"][1][0]
        lines += [f"## {n:,} records", "", f"`{res.get('command', '')}`", "",
                  ("Generation: files reused" if res["reused"] else f"Generation: {res['gen_seconds']:.0f} s")
                  + f", {res['disk_mb']:,.0f} MB of CSV in {res['files']} files "
                  f"of {res['rows_per_file']:,} records. "
                  f"Result: {ref['n_classes']:,} classes, {ref['n_unique']:,} sample uniques, "
                  f"ER = {ref['er']:.6f}" + (" (in memory and Dask: equal counts, ER within 1e-9 relative)."
                                             if res["memory"] else " (Dask 1 and 2 workers agree)."), "",
                  "| engine | runs | min s | median s | peak memory (MB) |", "|---|---|---|---|---|"]
        if res["memory"]:
            mn, md = _fmt_s(res["memory"])
            lines.append(f"| pandas in memory (1 process) | {len(res['memory'])} | {mn} | {md} | "
                         f"{max(r['peak_mb'] for r in res['memory']):,.0f} |")
        else:
            lines.append(f"| pandas in memory | - | - | - | not run (above --in-memory-max {args.in_memory_max:g}) |")
        for w, runs in res["dask"].items():
            mn, md = _fmt_s(runs)
            peaks = [max(p) for p in zip(*[r["worker_peak_mb"] for r in runs])]
            each = ", ".join(f"{p:,.0f}" for p in peaks)
            lines.append(f"| Dask LocalCluster, {w} worker(s) x 1 thread | {len(runs)} | {mn} | {md} | "
                         f"per worker {each} (idle {runs[0]['worker_start_mb'][0]:,.0f}); client "
                         f"{max(r['client_peak_mb'] for r in runs):,.0f} |")
        s1 = float(np.median([r["seconds"] for r in res["dask"][1]]))
        s2 = float(np.median([r["seconds"] for r in res["dask"][2]]))
        line = f"Scaling 1 -> 2 workers: {s1 / s2:.2f}x (median)."
        if res["memory"]:
            sm = float(np.median([r["seconds"] for r in res["memory"]]))
            line += (f" Dask 2 workers vs in memory: {sm / s2:.2f}x (in memory includes "
                     f"{float(np.median([r['read_seconds'] for r in res['memory']])):.1f} s of pandas reading).")
        lines += ["", line]
        if "protect_seconds" in res["dask"][2][0]:
            r = res["dask"][2][0]
            lines += ["", f"`sdc protect --engine dask` (2 workers; recode, top code, PRAM, release written as "
                      f"{res['files']} files): {r['protect_seconds']:.1f} s, worker peaks "
                      + ", ".join(f"{p:,.0f}" for p in r["protect_worker_peak_mb"]) + " MB."]
        lines.append("")
    lines += ["Reading the figures: the worker that does the final reduction peaks highest (it holds the "
              "table of distinct key patterns, 1.8 million at 10^7 records; with 2 workers either may, so "
              "both maxima over the runs are high); otherwise a worker holds one partition and its groupby. The client holds the pattern table too and computes the risks on it. On 2 shared "
              "cores, pandas in memory is faster where it fits; Dask's gain is memory (no process holds the "
              "data) and reaching a cluster with the same command.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1e6,1e7", help="record counts, comma-separated (1e6,1e7)")
    ap.add_argument("--keys", type=int, default=5, help=f"number of keys (1-{len(KEY_LEVELS)})")
    ap.add_argument("--rows-per-file", type=lambda s: int(float(s)),
                    help="records per file (default: N/10, at most 10^6: at least 10 partitions)")
    ap.add_argument("--data-dir", help="keep the generated files here (a subfolder per size); default: temporary")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--in-memory-max", type=float, default=2e7, help="largest size run in memory with pandas")
    ap.add_argument("--no-protect", action="store_true", help="do not time sdc protect on Dask")
    ap.add_argument("--out", default=str(ROOT / "validation" / "results" / "benchmark-dask.md"))
    args = ap.parse_args(argv)
    if not 1 <= args.keys <= len(KEY_LEVELS):
        ap.error(f"--keys must be 1 to {len(KEY_LEVELS)}")
    keys = [k for k, _ in KEY_LEVELS[:args.keys]]
    sizes = [int(float(x)) for x in args.sizes.split(",")]
    tmp_root = None if args.data_dir else tempfile.mkdtemp(prefix="sdc-bench-dask-")
    root = args.data_dir or tmp_root
    results: dict[int, dict] = {}
    try:
        for n in sizes:
            rows = args.rows_per_file or min(1_000_000, -(-n // 10))
            d = os.path.join(root, f"n{n}-k{args.keys}-r{rows}")
            t = time.perf_counter()
            files, reused = generate(d, n, args.keys, rows)
            gen = time.perf_counter() - t
            disk = sum(os.path.getsize(f) for f in files) / 2**20
            print(f"{n:,} records: {len(files)} files, {disk:,.0f} MB, {gen:.0f} s", flush=True)
            pattern = os.path.join(d, "part-*.csv")
            res: dict = {"command": " ".join(["python -m validation.bench_dask", *sys.argv[1:]]),
                         "gen_seconds": gen, "reused": reused, "disk_mb": disk, "files": len(files), "rows_per_file": rows,
                         "memory": [], "dask": {}}
            if n <= args.in_memory_max:
                for _ in range(args.repeats):  # a child process each: its peak memory is the measures' alone
                    p = subprocess.run([sys.executable, "-m", "validation.bench_dask", "--in-memory", pattern,
                                        ",".join(keys)], capture_output=True, text=True, check=True, cwd=ROOT)
                    res["memory"].append(json.loads(p.stdout.strip().splitlines()[-1]))
                    print("in memory", res["memory"][-1], flush=True)
            for w in (1, 2):
                res["dask"][w] = []
                for i in range(args.repeats):
                    prot = None
                    if w == 2 and i == 0 and not args.no_protect:
                        prot = tempfile.mkdtemp(prefix="sdc-bench-protect-", dir=root)
                        os.rmdir(prot)
                    try:
                        res["dask"][w].append(on_dask(pattern, keys, w, protect_out=prot))
                    finally:
                        if prot:
                            shutil.rmtree(prot, ignore_errors=True)
                    print(f"dask {w} worker(s)", res["dask"][w][-1], flush=True)
            ref = res["dask"][1][0]
            for r in [*res["memory"], *res["dask"][1], *res["dask"][2]]:
                assert (r["n_classes"], r["n_unique"], r["n_records"]) == (ref["n_classes"], ref["n_unique"], n), r
                assert abs(r["er"] - ref["er"]) <= 1e-9 * abs(ref["er"]), (r, ref)
            results[n] = res
    finally:
        if tmp_root:
            shutil.rmtree(tmp_root, ignore_errors=True)
    # Sizes not run now keep their recorded results (the 10^8 run adds to the 10^6 and 10^7 ones).
    jpath = Path(args.out).with_suffix(".json")
    if jpath.exists():
        try:
            old = {int(k): v for k, v in json.loads(jpath.read_text(encoding="utf-8")).items()}
        except (ValueError, AttributeError):
            old = {}
        for n, res in old.items():
            if n not in results and isinstance(res, dict) and "dask" in res:
                res["dask"] = {int(w): r for w, r in res["dask"].items()}
                results[n] = res
    results = dict(sorted(results.items()))
    text = report(results, args)
    Path(args.out).write_text(text, encoding="utf-8")
    jpath.write_text(json.dumps({str(k): v for k, v in results.items()}, indent=1,
                                                              default=str), encoding="utf-8")
    print(text)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--in-memory":
        print(json.dumps(in_memory(sys.argv[2], sys.argv[3].split(","))))
    else:
        main()
