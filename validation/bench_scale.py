"""The whole runs at scale, each beside its floor in the same loop: ``sdc assess``, ``sdc protect``
with its comparison, ``sdc compare`` (and ``sdc assess --chunks``) on 8-key survey files.

    .venv/bin/python -m validation.bench_scale --data-dir /tmp/scale --sizes 1e6,1e7 [--runs assess,protect,compare]

For each size the file of ``python -m validation.make_assess_data --keys 8`` (seeded; made when
absent) is read by each run in a fresh process, one after the other: first the floor
(``validation/floor_assess.py``: the same file read typed with pandas, then the packed-key
frequency count of the eight keys), then the sdc command, so that both see the same load on a
shared machine and their ratio is the figure to quote. CPU time (user + system) and peak
resident memory come from the operating system (``os.wait4``). The runs:

* ``assess``: ``sdc assess FILE --config validation/scale_assess.toml`` (the bundled example's
  variables and measures, a second scenario of all eight keys), report in every format;
* ``protect``: ``sdc protect FILE --plan validation/scale_protect_plan.toml`` (age banded, PRAM,
  local suppression; the same configuration), with its comparison; its release is kept for
* ``compare``: ``sdc compare FILE released.csv --config ... --protection protection.json``;
* ``chunks``: ``sdc assess FILE --config validation/scale_chunks.toml --chunks 1000000`` (the
  additive measures, read a million records at a time).

Writes ``validation/results/benchmark-scale.{csv,md,meta}`` (the date, the machine and its load
average before and after each run); ``python -m validation.benchmark_doc`` puts the table in
docs/benchmark.md.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
CONFIG = HERE / "scale_assess.toml"
CHUNKS_CONFIG = HERE / "scale_chunks.toml"
PLAN = HERE / "scale_protect_plan.toml"
RUNS = ("assess", "protect", "compare", "chunks")


def survey(data_dir: Path, n: int) -> Path:
    """The 8-key survey file of `n` records in `data_dir` (made when absent, seeded)."""
    path = data_dir / f"survey8-{n:.0e}.csv".replace("+", "")
    if not path.exists():
        subprocess.run([sys.executable, "-m", "validation.make_assess_data", "--records", str(n), "--keys", "8",
                        "--out", str(path)], cwd=ROOT, check=True)
    return path


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return next(int(x.split()[1]) for x in fh if x.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def measure(cmd: list[str], max_mb: float = float("inf")) -> dict[str, float]:
    """One process: CPU seconds (user + system), wall seconds, peak resident MB, load before;
    a process passing `max_mb` resident is stopped (``stopped`` 1: its figures are those until then)."""
    import threading

    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stopped = []

    def watch() -> None:
        while proc.poll() is None:
            if _rss_mb(proc.pid) > max_mb:
                stopped.append(1)
                proc.kill()
                return
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0 and not stopped:
        raise SystemExit(f"{' '.join(cmd[:4])} ... failed (status {status}): {err.strip()[-400:]}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "peak_mb": usage.ru_maxrss / 1024, "load": load,
            "stopped": float(bool(stopped))}


def commands(run: str, data: Path, n: int, out: Path) -> list[str]:
    """The sdc command line of `run` on `data`, writing into `out`."""
    py = [sys.executable, "-m", "sdc"]
    pop = ["--population-size", str(int(6.28 * n))]
    if run == "assess":
        return [*py, "assess", str(data), "--config", str(CONFIG), *pop, "--out", str(out / "assess")]
    if run == "chunks":
        return [*py, "assess", str(data), "--config", str(CHUNKS_CONFIG), "--chunks", "1000000",
                "--out", str(out / "chunks")]
    if run == "protect":
        return [*py, "protect", str(data), "--plan", str(PLAN), *pop, "--out", str(out / "protect")]
    return [*py, "compare", str(data), str(out / "protect" / "released.csv"), "--config", str(CONFIG), *pop,
            "--protection", str(out / "protect" / "protection.json"), "--out", str(out / "compare")]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--sizes", default="1e6,1e7")
    ap.add_argument("--runs", default="assess,protect,compare", help=f"comma-separated, of {', '.join(RUNS)}")
    ap.add_argument("--keep", action="store_true", help="keep the output folders (in DATA_DIR/out-N)")
    ap.add_argument("--max-gb", type=float, default=8.5,
                    help="stop a run whose resident memory passes this (default 8.5; reported as stopped)")
    a = ap.parse_args(argv)
    runs = [r for r in a.runs.split(",") if r]
    bad = [r for r in runs if r not in RUNS]
    if bad:
        raise SystemExit(f"--runs: unknown run {bad[0]!r}; allowed: {', '.join(RUNS)}.")
    if "compare" in runs and "protect" not in runs:
        raise SystemExit("--runs: compare compares the release of protect; run protect too.")
    a.data_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in (int(float(s)) for s in a.sizes.split(",")):
        data = survey(a.data_dir, n)
        out = a.data_dir / f"out-{n:.0e}".replace("+", "")
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        for run in [r for r in RUNS if r in runs]:
            fl = measure([sys.executable, "-m", "validation.floor_assess", str(data)])
            sd = measure(commands(run, data, n, out), a.max_gb * 1024)
            row = {"run": run, "n": n, "keys": 8, "file_mb": data.stat().st_size / 2**20,
                   **{f"sdc_{k}": v for k, v in sd.items()}, **{f"floor_{k}": v for k, v in fl.items()},
                   "load_after": os.getloadavg()[0]}
            row["cpu_ratio"] = row["sdc_cpu"] / row["floor_cpu"]
            rows.append(row)
            print(run, n, {k: round(v, 2) for k, v in row.items() if isinstance(v, float)}, flush=True)
        if not a.keep:
            shutil.rmtree(out, ignore_errors=True)
    write(rows, " ".join(["python -m validation.bench_scale", *(argv if argv is not None else sys.argv[1:])]))


def write(rows: list[dict], command: str) -> None:
    """The results, their metadata (date, machine, load) and a Markdown table."""
    RESULTS.mkdir(exist_ok=True)
    df = pd.DataFrame(rows)
    old = RESULTS / "benchmark-scale.csv"
    if old.exists() and len(df):  # the rows of other runs and sizes are kept (one size at a time fits memory)
        prev = pd.read_csv(old)
        keep = ~prev.set_index(["run", "n"]).index.isin(df.set_index(["run", "n"]).index)
        df = pd.concat([prev[keep], df], ignore_index=True)
        df["order"] = df.run.map({r: i for i, r in enumerate(RUNS)})
        df = df.sort_values(["n", "order"]).drop(columns="order").reset_index(drop=True)
    df.to_csv(RESULTS / "benchmark-scale.csv", index=False)
    import numpy as np

    prev_meta = RESULTS / "benchmark-scale.meta"
    if prev_meta.exists():  # the commands of the rows kept from earlier runs, then this one
        earlier = [line.partition(": ")[2] for line in prev_meta.read_text(encoding="utf-8").splitlines()
                   if line.startswith("command: ")]
        command = "; ".join(dict.fromkeys([*(c for e in earlier for c in e.split("; ")), command]))
    meta = {"command": command, "date": _dt.date.today().isoformat(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), "
                       f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB",
            "load": f"{df[['sdc_load', 'floor_load', 'load_after']].to_numpy().min():.1f} to "
                    f"{df[['sdc_load', 'floor_load', 'load_after']].to_numpy().max():.1f}" if len(df) else "–",
            "versions": f"Python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}"}
    (RESULTS / "benchmark-scale.meta").write_text("".join(f"{k}: {v}\n" for k, v in meta.items()), encoding="utf-8")
    from validation.benchmark_doc import scale_table

    (RESULTS / "benchmark-scale.md").write_text("\n".join(["# Benchmark: scale", "", *scale_table(df, meta)]) + "\n",
                                                encoding="utf-8")


if __name__ == "__main__":
    main()
