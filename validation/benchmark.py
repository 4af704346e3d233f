"""Speed and memory against sdcMicro, measured fairly: same typed files, both sides warm.

    .venv/bin/python -m validation.benchmark --suite risk --sizes 1e6,1e7 --keys 5,8
    .venv/bin/python -m validation.benchmark --suite all        # every suite, default sizes

How every figure is taken (the same for both sides):

* **Data.** Seeded generators: :func:`make_data` for the function benchmarks (keys with the
  cardinalities :data:`CARDS`, skewed; "NA" puts 5 % missing values in every key of the same
  records, so data with and without NA differ only by the NAs), :mod:`validation.make_risk_data`
  and :mod:`validation.make_assess_data` for the command-line runs. The columns are written
  once to typed little-endian binary files (int32 keys with R's NA, float64 weights); sdc and
  R both read *those files* (reading is not timed).
* **Warm and cold.** In one R session (`validation/bench_sdcmicro.R`) and one Python process,
  the function is called once (the *cold* figure, reported apart), then ``--repeat`` more
  times (the *warm* figures). R's first call is much slower than its later ones.
* **CPU and wall.** CPU time is user + system time of the process (R: ``system.time``'s
  ``user.self + sys.self``; Python: ``time.process_time``), the figure compared on a machine
  shared with other work; wall time is reported beside it. Minimum and median of the warm
  runs; speed-ups are sdcMicro's minimum CPU over sdc's minimum CPU.
* **Agreement.** Every timed pair is compared (expected re-identifications, l-diversity
  sums, SUDA score sums, ...), so no wrong answer is timed.
* **Floor.** The least any exact implementation must do for f_k: integer keys offset and
  packed into one int64, counted once (``bincount`` when the packed space is at most
  n + 1024, else ``numpy.unique``), f_k per record.

Suites: ``risk`` (individual_risk vs measure_risk, and the floor), ``wildcard`` (sdcMicro's
missing-value rule against the same data without NA and with NA as a category), ``ldiversity``,
``tcloseness``, ``suda``, ``household``, ``modrisk``, ``cli`` (``sdc risk FILE`` against
reading the key columns plus the floor, as processes, with peak memory), ``assess`` (``sdc
assess`` on the bundled example's configuration at 10^6 records, report included) and
``big`` (``sdc risk`` on a 10^8-record file read in chunks). Results go to
``validation/results/benchmark-<suite>.{csv,md}`` (``benchmark.{csv,md}`` for ``risk``);
``python -m validation.benchmark_doc`` builds docs/benchmark.md from them.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CARDS = (2, 9, 20, 5, 50, 100, 10, 30, 4, 7)  # key cardinalities, in order (the first K keys)
NA_RATE = 0.05
NA_INT32 = np.iinfo(np.int32).min  # R's NA_integer_


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------
def make_data(n: int, k: int, weighted: bool, missing: bool, seed: int) -> pd.DataFrame:
    """Keys drawn from skewed (Dirichlet) distributions over CARDS; weights in [1, 100).

    With `missing`, the same keys (same seed) get 5 % missing values in every key, drawn from
    a second stream: the data differ from ``missing=False`` by the NAs only."""
    rng = np.random.default_rng(seed)
    cols: dict[str, np.ndarray] = {}
    for j in range(k):
        p = rng.dirichlet(np.ones(CARDS[j]))
        cols[f"k{j + 1}"] = rng.choice(CARDS[j], size=n, p=p).astype(np.int64) + 1
    w = rng.uniform(1.0, 100.0, size=n) if weighted else None
    if missing:
        holes = np.random.default_rng(seed + 7919)
        for name in list(cols):
            col = cols[name].astype(np.float64)
            col[holes.random(n) < NA_RATE] = np.nan
            cols[name] = col
    df = pd.DataFrame(cols)
    if w is not None:
        df["w"] = w
    return df


def _sensitive(df: pd.DataFrame, categories: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(categories))
    return df.assign(s=rng.choice(categories, size=len(df), p=p).astype(np.int64) + 1)


def _int32_file(col: pd.Series, path: Path) -> None:
    """A column as R integers (NA as NA_integer_) in a little-endian binary file."""
    v = col.to_numpy(dtype=np.float64)
    np.where(np.isnan(v), NA_INT32, v).astype("<i4").tofile(path)


def write_typed(df: pd.DataFrame, keys: list[str], directory: Path) -> None:
    """The keys (k1..kK) and the extra columns (w, s, hh) as typed binary files."""
    for j, k in enumerate(keys, 1):
        _int32_file(df[k], directory / f"k{j}.bin")
    if "w" in df:
        df["w"].to_numpy(dtype="<f8").tofile(directory / "w.bin")
    for c in ("s", "hh"):
        if c in df:
            _int32_file(df[c], directory / f"{c}.bin")


def read_typed(directory: Path, n: int, k: int) -> pd.DataFrame:
    """The files of :func:`write_typed`, as sdc gets them: int32 keys, float64 where NA."""
    cols: dict[str, np.ndarray] = {}
    for j in range(1, k + 1):
        v = np.fromfile(directory / f"k{j}.bin", dtype="<i4", count=n)
        na = v == NA_INT32
        cols[f"k{j}"] = np.where(na, np.nan, v) if na.any() else v.astype(np.int32)
    for c in ("s", "hh"):
        if (directory / f"{c}.bin").exists():
            cols[c] = np.fromfile(directory / f"{c}.bin", dtype="<i4", count=n).astype(np.int64)
    if (directory / "w.bin").exists():
        cols["w"] = np.fromfile(directory / "w.bin", dtype="<f8", count=n)
    return pd.DataFrame(cols)


# --------------------------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------------------------
@dataclass
class Timing:
    """Cold (first call) and warm (later calls) CPU and wall seconds."""

    cold_cpu: float = math.nan
    cold_wall: float = math.nan
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def cpu_min(self) -> float:
        return min(self.cpu) if self.cpu else math.nan

    @property
    def cpu_med(self) -> float:
        return statistics.median(self.cpu) if self.cpu else math.nan

    @property
    def wall_min(self) -> float:
        return min(self.wall) if self.wall else math.nan

    @property
    def wall_med(self) -> float:
        return statistics.median(self.wall) if self.wall else math.nan

    def flat(self, prefix: str) -> dict[str, Any]:
        return {f"{prefix}_cpu_min": self.cpu_min, f"{prefix}_cpu_med": self.cpu_med,
                f"{prefix}_wall_min": self.wall_min, f"{prefix}_wall_med": self.wall_med,
                f"{prefix}_cold_cpu": self.cold_cpu, f"{prefix}_cold_wall": self.cold_wall,
                f"{prefix}_runs": len(self.cpu), f"{prefix}_note": self.note}


def time_py(fn: Callable[[], Any], repeat: int) -> tuple[Timing, Any]:
    """The first call (cold), then `repeat` calls (warm): CPU and wall of each."""
    t = Timing()
    result = None
    for i in range(repeat + 1):
        gc.collect()
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        c1, w1 = time.process_time(), time.perf_counter()
        if i == 0:
            t.cold_cpu, t.cold_wall = c1 - c0, w1 - w0
        else:
            t.cpu.append(c1 - c0)
            t.wall.append(w1 - w0)
    return t, result


def peak_mb(fn: Callable[[], Any]) -> float:
    """tracemalloc peak of one call (numpy and pandas allocations), in MB."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def time_r(what: str, directory: Path, n: int, k: int, repeat: int, budget: float) -> tuple[Timing, float, float]:
    """sdcMicro in one R session: (timing, checksum, R peak MB). Stopped at `budget` seconds
    (then the runs so far are kept; a stop before the first call gives cpu = inf)."""
    t = Timing()
    if shutil.which("Rscript") is None:
        t.note = "R not available"
        return t, math.nan, math.nan
    cmd = ["timeout", str(int(budget)), "Rscript", str(HERE / "bench_sdcmicro.R"), what, str(directory), str(n), str(k),
           str(repeat)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    check, mem = math.nan, math.nan
    for line in proc.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["cold"]:
            t.cold_wall, t.cold_cpu = float(parts[1]), float(parts[2])
        elif parts[:1] == ["warm"]:
            t.wall.append(float(parts[1]))
            t.cpu.append(float(parts[2]))
        elif parts[:1] == ["check"]:
            check, mem = float(parts[1]) if parts[1] != "NA" else math.nan, float(parts[2])
    if proc.returncode == 124:
        t.note = f"stopped at {budget:g} s" + ("" if t.cpu else (" (no warm run)" if not math.isnan(t.cold_cpu) else
                                                                   " (no run)"))
        if math.isnan(t.cold_cpu):
            t.cold_cpu = t.cold_wall = math.inf
    elif proc.returncode != 0:
        t.note = "failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:120]
    return t, check, mem


def _warm_r_cpu(t: Timing) -> float:
    """sdcMicro's warm CPU minimum; the cold one when no warm run finished; inf if none."""
    if t.cpu:
        return t.cpu_min
    return t.cold_cpu


def _ratio(a: float, b: float) -> float:
    return a / b if b and not math.isnan(a) and not math.isnan(b) else math.nan


# --------------------------------------------------------------------------------------------
# The floor
# --------------------------------------------------------------------------------------------
def floor(df: pd.DataFrame, keys: list[str], weights: str | None) -> np.ndarray:
    """f_k (and F_k) per record by the least work: offset-packed keys counted once."""
    packed = None
    radix = 1
    for k in keys:
        v = df[k].to_numpy()
        lo = v.min()
        card = int(v.max() - lo) + 1
        c = (v - lo).astype(np.int64)
        packed = c if packed is None else packed * card + c
        radix *= card
    n = len(df)
    if radix <= n + 1024:
        ids, size = packed, radix
        counts = np.bincount(ids, minlength=size)
    else:
        _, ids, counts = np.unique(packed, return_inverse=True, return_counts=True)
        size = counts.size
    fk = counts[ids]
    if weights is not None:
        np.bincount(ids, weights=df[weights].to_numpy(), minlength=size)[ids]
    return fk


# --------------------------------------------------------------------------------------------
# Suites
# --------------------------------------------------------------------------------------------
def _quiet() -> Any:
    import sdc  # noqa: F401  (imported before timing)
    from sdc.exceptions import SdcWarning

    warnings.simplefilter("ignore", SdcWarning)
    return sdc


def suite_risk(a: argparse.Namespace) -> list[dict]:
    sdc = _quiet()
    rows = []
    skip_r: set[tuple] = set()
    for n in a.sizes:
        for k in a.keys:
            for weighted in a.weight_options:
                for missing in a.na_options:
                    seed = n + 10 * k + 2 * weighted
                    keys = [f"k{j + 1}" for j in range(k)]
                    w = "w" if weighted else None
                    with tempfile.TemporaryDirectory(prefix="sdc-bench-") as tmp:
                        write_typed(make_data(n, k, weighted, missing, seed), keys, Path(tmp))
                        df = read_typed(Path(tmp), n, k)

                        def call():  # noqa: ANN202
                            res = sdc.individual_risk(df, keys, weights=w)
                            _ = res.risk  # the per-record risk, as measure_risk's Res holds it
                            return res

                        t_sdc, res = time_py(call, a.repeat)
                        peak = peak_mb(call)
                        t_floor = Timing() if missing else time_py(lambda: floor(df, keys, w), a.repeat)[0]
                        key = (k, weighted, missing)
                        if a.no_r:
                            t_r, er_r = Timing(note="not run"), math.nan
                        elif key in skip_r:
                            t_r, er_r = Timing(note="not run: stopped at a smaller size"), math.nan
                        else:
                            t_r, er_r, _ = time_r("measure_risk", Path(tmp), n, k, a.repeat, a.r_budget)
                            if "stopped" in t_r.note and not t_r.cpu:
                                skip_r.add(key)
                    er = res.expected_reidentifications
                    row = {"n": n, "keys": k, "weights": weighted, "missing": missing,
                           **t_sdc.flat("sdc"), **t_r.flat("r"), **t_floor.flat("floor"),
                           "speedup": _ratio(_warm_r_cpu(t_r), t_sdc.cpu_min),
                           "speedup_cold": _ratio(t_r.cold_cpu, t_sdc.cold_cpu),
                           "sdc_over_floor": _ratio(t_sdc.cpu_min, t_floor.cpu_min),
                           "sdc_peak_mb": peak, "input_mb": df.memory_usage(index=False).sum() / 2**20,
                           "er": er, "er_rel_diff": abs(er - er_r) / er if not math.isnan(er_r) else math.nan}
                    rows.append(row)
                    _progress("risk", row)
    return rows


def suite_wildcard(a: argparse.Namespace) -> list[dict]:
    """sdcMicro's wildcard rule against the same data without NA, and NA as a category."""
    sdc = _quiet()
    rows = []
    for n in a.sizes:
        for k in a.keys:
            seed = n + 10 * k
            keys = [f"k{j + 1}" for j in range(k)]
            clean = make_data(n, k, False, False, seed)
            holes = make_data(n, k, False, True, seed)  # the same records, 5 % NA per key
            t0, _ = time_py(lambda: sdc.individual_risk(clean, keys).risk, a.repeat)
            t1, r1 = time_py(lambda: sdc.individual_risk(holes, keys), a.repeat)
            t2, _ = time_py(lambda: sdc.individual_risk(holes, keys, missing="category").risk, a.repeat)
            row = {"n": n, "keys": k, **t0.flat("clean"), **t1.flat("wildcard"), **t2.flat("category"),
                   "wildcard_over_clean": _ratio(t1.cpu_min, t0.cpu_min),
                   "wildcard_over_category": _ratio(t1.cpu_min, t2.cpu_min),
                   "er": r1.expected_reidentifications}
            rows.append(row)
            _progress("wildcard", row)
    return rows


def _attribute_rows(suite: str, a: argparse.Namespace) -> list[dict]:
    sdc = _quiet()
    from sdc.core.scenario import key_classes

    rows = []
    skip_r: set[int] = set()
    for n in a.sizes:
        for k in a.keys:
            if suite == "suda" and n * 2**k > 5e8:
                continue  # sdcMicro's suda2 would take tens of minutes (all 2^K - 1 subsets)
            seed = n + 10 * k
            keys = [f"k{j + 1}" for j in range(k)]
            df = make_data(n, k, suite in ("household", "modrisk"), False, seed)
            r_what = {"ldiversity": "ldiversity", "suda": "suda2", "household": "household", "modrisk": "modrisk",
                      "tcloseness": None}[suite]
            if suite in ("ldiversity", "tcloseness"):
                df = _sensitive(df, a.categories, seed=n + k)
                r_what = "ldiversity"  # t-closeness has no sdcMicro function: l-diversity's time for scale
            if suite == "household":
                df["hh"] = np.arange(n) // 3  # households of 3 consecutive records
            with tempfile.TemporaryDirectory(prefix="sdc-bench-") as tmp:
                write_typed(df, keys, Path(tmp))
                df = read_typed(Path(tmp), n, k)
                kc = key_classes(df, keys)
                call, shared, check = {
                    "ldiversity": (lambda: sdc.l_diversity(df, keys, "s", mode="sdcmicro"),
                                   lambda: sdc.l_diversity(df, kc, "s", mode="sdcmicro"),
                                   lambda r: r.records["s_Distinct_Ldiversity"].sum()),
                    "tcloseness": (lambda: sdc.t_closeness(df, keys, "s", distance="ordered"),
                                   lambda: sdc.t_closeness(df, kc, "s", distance="ordered"), None),
                    "suda": (lambda: sdc.suda(df, keys), lambda: sdc.suda(df, kc), lambda r: r.score_sum),
                    "household": (lambda: sdc.household_risk(df, keys, "hh", weights="w"), None,
                                  lambda r: r.expected_reidentifications),
                    "modrisk": (lambda: sdc.model_risk(df, keys, weights="w"), None, lambda r: r.gr1),
                }[suite]
                t_sdc, res = time_py(call, a.repeat)
                t_shared = time_py(shared, a.repeat)[0] if shared is not None else Timing()
                peak = peak_mb(call)
                if a.no_r:
                    t_r, r_check = Timing(note="not run"), math.nan
                elif k in skip_r:
                    t_r, r_check = Timing(note="not run: stopped at a smaller size"), math.nan
                else:
                    t_r, r_check, _ = time_r(r_what, Path(tmp), n, k, a.repeat, a.r_budget)
                    if "stopped" in t_r.note and not t_r.cpu:
                        skip_r.add(k)
            agree = "-"
            if check is not None and suite != "tcloseness" and not math.isnan(r_check):
                mine = float(check(res))
                agree = "yes" if abs(mine - r_check) <= 1e-6 * max(1.0, abs(r_check)) else f"NO ({mine} vs {r_check})"
            elif check is not None and suite == "modrisk" and t_r.cpu:
                agree = "sdcMicro gave NaN"
            classes = {"ldiversity": lambda r: r.n_classes, "tcloseness": lambda r: r.n_classes,
                       "suda": lambda r: r.n_records_with_msu, "household": lambda r: r.n_households,
                       "modrisk": lambda r: len(r.cells)}[suite](res)
            row = {"suite": suite, "n": n, "keys": k, "classes": int(classes), **t_sdc.flat("sdc"),
                   **t_shared.flat("shared"), **t_r.flat("r"),
                   "speedup": _ratio(_warm_r_cpu(t_r), t_sdc.cpu_min),
                   "speedup_shared": _ratio(_warm_r_cpu(t_r), t_shared.cpu_min),
                   "speedup_cold": _ratio(t_r.cold_cpu, t_sdc.cold_cpu), "sdc_peak_mb": peak, "agree": agree}
            rows.append(row)
            _progress(suite, row)
    return rows


def _run_process(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, float, int]:
    """(CPU s, wall s, peak RSS MB, exit status) of one child process (its own rusage)."""
    w0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - w0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode(errors="replace").strip().splitlines() if proc.stderr else []
        raise RuntimeError(f"{' '.join(cmd)} failed: {err[-1] if err else proc.returncode}")
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024, proc.returncode


def _processes(cmd: list[str], repeat: int) -> Timing:
    t = Timing()
    peaks = []
    for i in range(repeat + 1):
        cpu, wall, peak, _ = _run_process(cmd)
        peaks.append(peak)
        if i == 0:
            t.cold_cpu, t.cold_wall = cpu, wall
        else:
            t.cpu.append(cpu)
            t.wall.append(wall)
    t.note = f"peak {max(peaks):.0f} MB"
    return t


def _peak(t: Timing) -> float:
    return float(t.note.split()[1]) if t.note.startswith("peak") else math.nan


def suite_cli(a: argparse.Namespace) -> list[dict]:
    """``sdc risk FILE`` against reading the key columns plus the floor, as processes."""
    rows = []
    py = sys.executable
    for n in a.sizes:
        for k in a.keys:
            path = a.data_dir / f"risk-{n:.0e}x{k}.csv".replace("+", "")
            if not path.exists():
                subprocess.run([py, "-m", "validation.make_risk_data", "--records", str(n), "--keys", str(k),
                                "--out", str(path)], cwd=ROOT, check=True)
            keys = ",".join(f"k{j + 1}" for j in range(k))
            t_sdc = _processes([py, "-m", "sdc", "risk", str(path), "--keys", keys, "--json"], a.repeat)
            t_chunk = _processes([py, "-m", "sdc", "risk", str(path), "--keys", keys, "--json", "--chunks",
                                  "1000000"], a.repeat)
            t_floor = _processes([py, str(HERE / "floor_risk.py"), str(path), keys], a.repeat)
            row = {"n": n, "keys": k, "file_mb": path.stat().st_size / 2**20, **t_sdc.flat("sdc"),
                   **t_chunk.flat("chunked"), **t_floor.flat("floor"),
                   "sdc_peak_mb": _peak(t_sdc), "chunked_peak_mb": _peak(t_chunk), "floor_peak_mb": _peak(t_floor),
                   "sdc_over_floor": _ratio(t_sdc.cpu_min, t_floor.cpu_min),
                   "peak_over_floor": _ratio(_peak(t_sdc), _peak(t_floor))}
            rows.append(row)
            _progress("cli", row)
    return rows


def suite_big(a: argparse.Namespace) -> list[dict]:
    """``sdc risk`` on a file of ``--sizes`` records (default 10^8), read in chunks: once."""
    rows = []
    py = sys.executable
    for n in a.sizes:
        k = a.keys[0]
        path = a.data_dir / f"risk-{n:.0e}x{k}.csv".replace("+", "")
        if not path.exists():
            subprocess.run([py, "-m", "validation.make_risk_data", "--records", str(n), "--keys", str(k),
                            "--out", str(path)], cwd=ROOT, check=True)
        keys = ",".join(f"k{j + 1}" for j in range(k))
        cpu, wall, peak, _ = _run_process([py, "-m", "sdc", "risk", str(path), "--keys", keys, "--json", "--chunks",
                                           "2000000"])
        row = {"n": n, "keys": k, "file_gb": path.stat().st_size / 2**30, "cpu_s": cpu, "wall_s": wall,
               "peak_gb": peak / 1024}
        rows.append(row)
        _progress("big", row)
    return rows


def suite_assess(a: argparse.Namespace) -> list[dict]:
    """``sdc assess`` with the bundled example's configuration on generated data, report included."""
    rows = []
    py = sys.executable
    from sdc.datasets import example_config_path

    for n in a.sizes:
        path = a.data_dir / f"survey-{n:.0e}.csv".replace("+", "")
        if not path.exists():
            subprocess.run([py, "-m", "validation.make_assess_data", "--records", str(n), "--out", str(path)],
                           cwd=ROOT, check=True)
        pop = int(round(pd.read_csv(path, usecols=["weight"])["weight"].sum()))
        with tempfile.TemporaryDirectory(prefix="sdc-assess-") as tmp:
            out = Path(tmp) / "report"
            cmd = [py, "-m", "sdc", "assess", str(path), "--config", str(example_config_path()),
                   "--population-size", str(pop), "--out", str(out)]
            t = Timing()
            peaks = []
            for i in range(a.repeat + 1):
                if out.exists():
                    shutil.rmtree(out)
                cpu, wall, peak, _ = _run_process(cmd)
                peaks.append(peak)
                if i == 0:
                    t.cold_cpu, t.cold_wall = cpu, wall
                else:
                    t.cpu.append(cpu)
                    t.wall.append(wall)
            size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 2**20
        row = {"n": n, **t.flat("assess"), "peak_mb": max(peaks), "report_mb": size}
        rows.append(row)
        _progress("assess", row)
    return rows


SUITES: dict[str, tuple[Callable[[argparse.Namespace], list[dict]], str, str]] = {
    # suite: (runner, default sizes, default keys)
    "risk": (suite_risk, "1e5,1e6,1e7", "3,5,8"),
    "wildcard": (suite_wildcard, "1e6,1e7", "5,8"),
    "ldiversity": (lambda a: _attribute_rows("ldiversity", a), "1e5,1e6", "3,5,8"),
    "tcloseness": (lambda a: _attribute_rows("tcloseness", a), "1e5,1e6", "3,5,8"),
    "suda": (lambda a: _attribute_rows("suda", a), "1e5,1e6", "5,8,10"),
    "household": (lambda a: _attribute_rows("household", a), "1e5,1e6", "3,5,8"),
    "modrisk": (lambda a: _attribute_rows("modrisk", a), "1e5,1e6", "3,5"),
    "cli": (suite_cli, "1e7", "8"),
    "assess": (suite_assess, "1e6", "0"),
    "big": (suite_big, "1e8", "8"),
}


def _progress(suite: str, row: dict) -> None:
    keep = {k: (f"{v:.3g}" if isinstance(v, float) else v) for k, v in row.items()
            if not k.endswith(("_note", "_runs", "_med", "_wall_min", "_cold_wall"))}
    print(suite, keep, flush=True)


def _meta(a: argparse.Namespace) -> dict[str, str]:
    import sdc

    r = []
    if shutil.which("Rscript"):
        r = subprocess.run(["Rscript", "-e", 'cat(R.version$major, R.version$minor, as.character(packageVersion("sdcMicro")))'],
                           capture_output=True, text=True).stdout.split()
    cores = os.cpu_count() or 1
    try:
        with open("/proc/meminfo") as fh:
            mem = int(fh.readline().split()[1]) / 2**20
    except OSError:
        mem = math.nan
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {cores} cores (shared), {mem:.0f} GiB",
        "versions": f"sdc {sdc.__version__}, Python {platform.python_version()}, pandas {pd.__version__}, "
                    f"numpy {np.__version__}" + (f", R {r[0]}.{r[1]}, sdcMicro {r[2]}" if len(r) == 3 else ""),
        "repeat": str(a.repeat), "command": "python -m validation.benchmark " + " ".join(a.argv),
    }


def write(suite: str, rows: list[dict], meta: dict[str, str], out: Path) -> Path:
    stem = "benchmark" if suite == "risk" else f"benchmark-{suite}"
    frame = pd.DataFrame(rows)
    frame.to_csv(out / f"{stem}.csv", index=False)
    lines = [f"# Benchmark: {suite}", "", f"Command: `{meta['command']}` ({meta['date']}; {meta['machine']}).",
             f"Versions: {meta['versions']}. Warm figures: minimum (median) of {meta['repeat']} runs after one "
             "cold run; CPU = user + system seconds. See validation/benchmark.py for the method.", ""]
    cols = [c for c in frame.columns if not c.endswith(("_runs", "_cold_wall"))]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "---|" * len(cols))
    for _, r in frame.iterrows():
        lines.append("| " + " | ".join(_fmt(r[c]) for c in cols) + " |")
    path = out / f"{stem}.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / f"{stem}.meta").write_text("\n".join(f"{k}: {v}" for k, v in meta.items()) + "\n", encoding="utf-8")
    return path


def _fmt(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (float, np.floating)):
        if math.isnan(v):
            return "-"
        if math.isinf(v):
            return "inf"
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.3g}"
    return str(v)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", choices=(*SUITES, "all"), default="risk")
    ap.add_argument("--sizes", help="records, comma-separated (default per suite)")
    ap.add_argument("--keys", help="numbers of keys, comma-separated (default per suite)")
    ap.add_argument("--categories", type=int, default=50, help="sensitive categories (ldiversity, tcloseness)")
    ap.add_argument("--repeat", type=int, default=3, help="warm runs after the cold one (default 3)")
    ap.add_argument("--r-budget", type=float, default=600.0, help="seconds before an R session is stopped")
    ap.add_argument("--no-r", action="store_true", help="sdc only")
    ap.add_argument("--weights", choices=("both", "no", "yes"), default="both", help="risk suite: weighted runs")
    ap.add_argument("--na", choices=("both", "no", "yes"), default="both", help="risk suite: runs with missing keys")
    ap.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "sdc-bench-data",
                    help="where generated files are kept (cli, assess, big)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    a = ap.parse_args(argv)
    a.argv = argv
    pick = {"both": (False, True), "no": (False,), "yes": (True,)}
    a.weight_options, a.na_options = pick[a.weights], pick[a.na]
    a.out.mkdir(parents=True, exist_ok=True)
    a.data_dir.mkdir(parents=True, exist_ok=True)
    meta = _meta(a)
    suites = [s for s in SUITES if s != "big"] if a.suite == "all" else [a.suite]
    sizes_arg, keys_arg = a.sizes, a.keys
    for suite in suites:
        runner, sizes, keys = SUITES[suite]
        a.sizes = [int(float(x)) for x in (sizes_arg or sizes).split(",")]
        a.keys = [int(x) for x in (keys_arg or keys).split(",")]
        rows = runner(a)
        print("written to", write(suite, rows, meta, a.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
