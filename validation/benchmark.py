"""Speed and memory: native ``sdc.individual_risk`` vs sdcMicro's ``measure_risk``, same data, one run.

    .venv/bin/python -m validation.benchmark [--sizes 1e4,1e5,1e6,1e7] [--keys 3,5,8]

For every size, number of keys, with and without weights and with and without missing
values (5% per key), it times:

* native: ``sdc.individual_risk`` (frequencies, risk, global risk, threshold), best of
  ``--repeat`` runs, from a DataFrame already in memory;
* sdcMicro: ``measure_risk`` inside R (``system.time``), in an ``Rscript`` subprocess that
  reads the same columns from binary files and is stopped at ``--r-budget`` seconds;
* a bare baseline (keys without missing values): ``pandas.factorize`` per key, mixed-radix
  packing, ``pandas.factorize`` of the packed keys and ``numpy.bincount`` for f_k and F_k.

Peak memory of the native call is measured with ``tracemalloc`` (a separate run) and
reported against the size of the key and weight columns. ``--weights no|yes`` and ``--na
no|yes`` restrict the risk suite to some of the four combinations (for a long sdcMicro budget
on one case, e.g. ``--sizes 1e7 --keys 8 --weights no --na yes --r-budget 600``).

``--suite ldiversity`` times ``sdc.l_diversity(mode="sdcmicro")`` against sdcMicro's
``ldiversity`` (one sensitive variable with ``--categories`` values), ``--suite
tcloseness`` times ``sdc.t_closeness`` (ordered EMD) per million records, and ``--suite
suda|household|modrisk`` time ``sdc.suda``, ``sdc.household_risk`` and ``sdc.model_risk``
against sdcMicro's ``suda2``, ``measure_risk(hid =)`` and ``modRisk``. Results go to
``validation/results/benchmark[-suite].{csv,md}``.
"""

from __future__ import annotations

import argparse
import math
import platform
import shutil
import subprocess
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import sdc
from sdc.exceptions import SdcWarning

HERE = Path(__file__).resolve().parent
CARDS = (2, 9, 20, 5, 50, 100, 10, 30)  # key cardinalities, in order (sex, region, age band, ...)
NA_RATE = 0.05


@dataclass
class Row:
    n: int
    keys: int
    weights: bool
    missing: bool
    native_s: float
    baseline_s: float          # NaN with missing values
    sdcmicro_s: float          # NaN if not run; inf if stopped at the budget
    sdcmicro_note: str
    speedup: float             # sdcMicro / native (a lower bound when sdcMicro was stopped)
    vs_baseline: float         # native / baseline
    native_peak_mb: float
    input_mb: float
    memory_ratio: float        # native peak / input columns
    sdcmicro_peak_mb: float
    er_rel_diff: float         # |ER native - ER sdcMicro| / ER


def make_data(n: int, k: int, weighted: bool, missing: bool, seed: int) -> pd.DataFrame:
    """Keys drawn from skewed (Dirichlet) distributions over CARDS; weights in [1, 100)."""
    rng = np.random.default_rng(seed)
    cols = {}
    for j in range(k):
        card = CARDS[j]
        p = rng.dirichlet(np.ones(card))
        codes = rng.choice(card, size=n, p=p).astype(np.int64) + 1
        if missing:
            col = codes.astype(np.float64)
            col[rng.random(n) < NA_RATE] = np.nan
            cols[f"k{j + 1}"] = col
        else:
            cols[f"k{j + 1}"] = codes
    df = pd.DataFrame(cols)
    if weighted:
        df["w"] = rng.uniform(1.0, 100.0, size=n)
    return df


def baseline(df: pd.DataFrame, keys: list[str], weights: str | None) -> np.ndarray:
    """The bare computation of f_k (and F_k): factorize, pack, factorize, bincount."""
    packed = None
    for k in keys:
        codes, uniq = pd.factorize(df[k])
        packed = codes.astype(np.int64) if packed is None else packed * (len(uniq) + 1) + codes
    ids, _ = pd.factorize(packed)
    fk = np.bincount(ids)[ids]
    if weights is not None:
        np.bincount(ids, weights=df[weights].to_numpy())[ids]
    return fk


def best_of(fn, repeat: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def native_peak_mb(fn) -> float:  # noqa: ANN001
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _int32_file(col: pd.Series, path: Path) -> None:
    """A column as R integers (NA as NA_integer_) in a binary file."""
    v = col.to_numpy(dtype=np.float64)
    np.where(np.isnan(v), np.iinfo(np.int32).min, v).astype(np.int32).tofile(path)


def run_r(script: str, df: pd.DataFrame, keys: list[str], extra: dict[str, str], args: list[str],
          budget: float) -> tuple[float, float, float, str]:
    """(elapsed s, checksum, peak MB, note) from an Rscript subprocess stopped at `budget` s.

    Keys (and the integer columns in `extra`, name -> file stem) go to int32 files; a
    weight column ``w``, if in `args`, to a double file.
    """
    with tempfile.TemporaryDirectory(prefix="sdc-bench-") as tmp:
        for j, k in enumerate(keys, 1):
            _int32_file(df[k], Path(tmp) / f"k{j}.bin")
        for col, stem in extra.items():
            if col == "w":
                df["w"].to_numpy(dtype=np.float64).tofile(Path(tmp) / f"{stem}.bin")
            else:
                _int32_file(df[col], Path(tmp) / f"{stem}.bin")
        cmd = ["timeout", str(int(budget)), "Rscript", str(HERE / script), tmp, str(len(df)), str(len(keys)), *args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode == 124:
            return math.inf, math.nan, math.nan, f"stopped at {budget:g} s"
        if proc.returncode != 0:
            return math.nan, math.nan, math.nan, "failed: " + proc.stderr.strip().splitlines()[-1][:120]
        out = proc.stdout.split()
        return float(out[0]), float(out[1]), float(out[-1]), ""


def run_sdcmicro(df: pd.DataFrame, keys: list[str], weighted: bool, budget: float) -> tuple[float, float, float, str]:
    """sdcMicro's measure_risk: (elapsed s, global_risk_ER, peak MB, note)."""
    return run_r("bench_measure_risk.R", df, keys, {"w": "w"} if weighted else {}, ["1" if weighted else "0"], budget)


def run(sizes: list[int], key_counts: list[int], repeat: int, budget: float, with_r: bool,
        weight_options: tuple[bool, ...] = (False, True), missing_options: tuple[bool, ...] = (False, True)) -> list[Row]:
    rows = []
    skip_r: set[tuple] = set()  # (keys, weighted, missing) that already hit the budget at a smaller n
    for n in sizes:
        for k in key_counts:
            for weighted in weight_options:
                for missing in missing_options:
                    df = make_data(n, k, weighted, missing, seed=n + 10 * k + 2 * weighted + missing)
                    keys = [f"k{j + 1}" for j in range(k)]
                    w = "w" if weighted else None
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", SdcWarning)

                        def call():  # noqa: ANN202
                            return sdc.individual_risk(df, keys, weights=w)

                        res = call()
                        t_native = best_of(call, repeat)
                        peak = native_peak_mb(call)
                    t_base = math.nan if missing else best_of(lambda: baseline(df, keys, w), repeat)
                    input_mb = df[keys + ([w] if w else [])].memory_usage(index=False).sum() / 2**20
                    t_r, er_r, mem_r, note = math.nan, math.nan, math.nan, "not run"
                    if with_r:
                        if (k, weighted, missing) in skip_r:
                            t_r, note = math.inf, f"not run: stopped at {budget:g} s at a smaller size"
                        else:
                            t_r, er_r, mem_r, note = run_sdcmicro(df, keys, weighted, budget)
                            if math.isinf(t_r):
                                skip_r.add((k, weighted, missing))
                    er = res.expected_reidentifications
                    row = Row(
                        n=n, keys=k, weights=weighted, missing=missing, native_s=t_native, baseline_s=t_base,
                        sdcmicro_s=t_r, sdcmicro_note=note,
                        speedup=(budget if math.isinf(t_r) else t_r) / t_native if not math.isnan(t_r) else math.nan,
                        vs_baseline=t_native / t_base if not math.isnan(t_base) else math.nan,
                        native_peak_mb=peak, input_mb=input_mb, memory_ratio=peak / input_mb,
                        sdcmicro_peak_mb=mem_r,
                        er_rel_diff=abs(er - er_r) / er if not math.isnan(er_r) else math.nan,
                    )
                    rows.append(row)
                    print(_line(row), flush=True)
    return rows


def _line(r: Row) -> str:
    sm = ("stopped" if math.isinf(r.sdcmicro_s) else f"{r.sdcmicro_s:8.3f}s") if not math.isnan(r.sdcmicro_s) else "   -    "
    return (f"n={r.n:>9,} K={r.keys} w={int(r.weights)} NA={int(r.missing)}  native {r.native_s:8.3f}s  "
            f"sdcMicro {sm}  x{r.speedup:8.1f}  vs bare {r.vs_baseline:5.2f}  mem {r.memory_ratio:4.2f}x")


def markdown(rows: list[Row], meta: dict[str, str], budget: float) -> str:
    def s(x: float) -> str:
        return "-" if math.isnan(x) else (f"> {budget:g}" if math.isinf(x) else f"{x:.3f}")

    def ratio(x: float, lower: bool = False) -> str:
        return "-" if math.isnan(x) else (">= " if lower else "") + (f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x < 10 else f"{x:.1f}")

    lines = [
        "| records | keys | weights | 5% NA | native (s) | sdcMicro (s) | speed-up | bare (s) | native / bare | native peak (MB) | input (MB) | peak / input | ER rel. diff |",
        "|---:|---:|:---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.n:,} | {r.keys} | {'yes' if r.weights else 'no'} | {'yes' if r.missing else 'no'} | "
            f"{r.native_s:.3f} | {s(r.sdcmicro_s)} | {ratio(r.speedup, math.isinf(r.sdcmicro_s))} | {s(r.baseline_s)} | "
            f"{ratio(r.vs_baseline)} | {r.native_peak_mb:,.1f} | {r.input_mb:,.1f} | {r.memory_ratio:.2f} | "
            f"{'-' if math.isnan(r.er_rel_diff) else f'{r.er_rel_diff:.1e}'} |")
    head = [
        "# Benchmark: native vs sdcMicro measure_risk",
        "",
        f"Run by `python -m validation.benchmark` on {meta['date']}; {meta['machine']}.",
        "Versions: " + meta["versions"] + ".",
        "",
        "Native: `sdc.individual_risk` (f_k, F_k, risk, global risk, threshold) from a DataFrame, best of "
        f"{meta['repeat']}. sdcMicro: `measure_risk` timed inside R (`system.time`), stopped at {budget:g} s; "
        "a stopped run's speed-up is a lower bound (budget / native). Bare: `pandas.factorize` per key, packing, "
        "`pandas.factorize`, `numpy.bincount` (keys without missing values only). Peak: `tracemalloc` peak of the "
        "native call; input: the key and weight columns. Keys have cardinalities "
        f"{', '.join(map(str, CARDS))} (first K), skewed; 5% NA means 5% missing in every key.",
        "",
    ]
    return "\n".join(head + lines) + "\n"


@dataclass
class AttrRow:
    suite: str
    n: int
    keys: int
    categories: int
    classes: int
    native_s: float
    sdcmicro_s: float
    sdcmicro_note: str
    speedup: float
    native_s_per_million: float
    native_peak_mb: float
    agree: str


def _sensitive(df: pd.DataFrame, categories: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(categories))
    return df.assign(s=rng.choice(categories, size=len(df), p=p).astype(np.int64) + 1)


def _suite_call(suite: str, df: pd.DataFrame, keys: list[str]):  # noqa: ANN202
    """(native call, R script, extra columns, R args, checksum of the native result, classes)."""
    if suite == "ldiversity":
        return (lambda: sdc.l_diversity(df, keys, "s", mode="sdcmicro"), "bench_ldiversity.R", {"s": "s"}, [],
                lambda r: r.records["s_Distinct_Ldiversity"].sum(), lambda r: r.n_classes)
    if suite == "tcloseness":
        return (lambda: sdc.t_closeness(df, keys, "s", distance="ordered"), None, {}, [], None, lambda r: r.n_classes)
    if suite == "suda":
        return (lambda: sdc.suda(df, keys), "bench_toolbox.R", {}, ["suda2"], lambda r: r.score_sum,
                lambda r: r.n_records_with_msu)
    if suite == "household":
        return (lambda: sdc.household_risk(df, keys, "hh", weights="w"), "bench_toolbox.R",
                {"w": "w", "hh": "hh"}, ["household"], lambda r: r.expected_reidentifications,
                lambda r: r.n_households)
    return (lambda: sdc.model_risk(df, keys, weights="w"), "bench_toolbox.R", {"w": "w"}, ["modrisk"],
            lambda r: r.gr1, lambda r: len(r.cells))


def run_attribute(suite: str, sizes: list[int], key_counts: list[int], categories: int, repeat: int,
                  budget: float, with_r: bool) -> list[AttrRow]:
    """One of the suites beyond the risk measures, native vs sdcMicro on the same data."""
    rows = []
    skip_r: set[int] = set()
    for n in sizes:
        for k in key_counts:
            df = make_data(n, k, suite in ("household", "modrisk"), False, seed=n + 10 * k)
            if suite in ("ldiversity", "tcloseness"):
                df = _sensitive(df, categories, seed=n + k)
            if suite == "household":
                df["hh"] = np.repeat(np.arange(n), 3)[:n] // 1  # households of 3 consecutive records
            keys = [f"k{j + 1}" for j in range(k)]
            call, script, extra, r_args, checksum, classes = _suite_call(suite, df, keys)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SdcWarning)
                res = call()
                t_native = best_of(call, repeat)
                peak = native_peak_mb(call)
            t_r, check, note, agree = math.nan, math.nan, "not run", "-"
            if script is not None and with_r:
                if k in skip_r:
                    t_r, note = math.inf, f"not run: stopped at {budget:g} s at a smaller size"
                else:
                    t_r, check, _mem, note = run_r(script, df, keys, extra, r_args, budget)
                    if math.isinf(t_r):
                        skip_r.add(k)
                if not math.isnan(check):
                    mine = float(checksum(res))
                    agree = "yes" if abs(mine - check) <= 1e-6 * max(1.0, abs(check)) else f"NO ({mine} vs {check})"
                elif not math.isnan(t_r) and not math.isinf(t_r):
                    agree = "sdcMicro gave NaN"  # modRisk: see docs/sdcmicro-differences.md #25
            row = AttrRow(
                suite=suite, n=n, keys=k, categories=categories, classes=int(classes(res)), native_s=t_native,
                sdcmicro_s=t_r, sdcmicro_note=note,
                speedup=(budget if math.isinf(t_r) else t_r) / t_native if not math.isnan(t_r) else math.nan,
                native_s_per_million=t_native / (n / 1e6), native_peak_mb=peak, agree=agree)
            rows.append(row)
            print(f"{suite} n={n:>10,} K={k} classes={row.classes:>9,} native {t_native:8.3f}s "
                  f"({row.native_s_per_million:.3f} s/M) sdcMicro {t_r:8.3f}s x{row.speedup:7.1f} agree {agree}",
                  flush=True)
    return rows


def attribute_markdown(rows: list[AttrRow], meta: dict[str, str], budget: float) -> str:
    suite = rows[0].suite
    what = {
        "ldiversity": "`sdc.l_diversity(mode=\"sdcmicro\")` vs sdcMicro's `ldiversity` (one sensitive variable); "
                      "'agree': the sums of the distinct l-diversity column are equal; 'classes': equivalence classes",
        "tcloseness": "`sdc.t_closeness(distance=\"ordered\")` (sdcMicro has no t-closeness); 'classes': equivalence classes",
        "suda": "`sdc.suda()` vs sdcMicro's `suda2()`; 'agree': equal sums of SUDA scores; 'classes': records with an MSU",
        "household": "`sdc.household_risk()` vs sdcMicro's `measure_risk(hid =)` (weights, households of 3); "
                     "'agree': household expected re-identifications to 1e-6; 'classes': households",
        "modrisk": "`sdc.model_risk()` vs sdcMicro's `modRisk(method = \"default\")`, main effects; 'agree': gr1 to "
                   "1e-6; 'classes': cells of the model's table",
    }[suite]
    lines = [
        f"# Benchmark: {suite}", "",
        f"Run by `python -m validation.benchmark --suite {suite}` on {meta['date']}; {meta['machine']}.",
        "Versions: " + meta["versions"] + ".", "",
        f"{what}. Native: best of {meta['repeat']}; sdcMicro timed inside R, stopped at {budget:g} s. "
        + (f"Sensitive variable with {rows[0].categories} categories (skewed); " if suite in ("ldiversity", "tcloseness") else "")
        + "keys as in the risk benchmark.", "",
        "| records | keys | classes | native (s) | native s per 10^6 records | sdcMicro (s) | speed-up | native peak (MB) | agree |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in rows:
        sm = "-" if math.isnan(r.sdcmicro_s) else (f"> {budget:g}" if math.isinf(r.sdcmicro_s) else f"{r.sdcmicro_s:.3f}")
        sp = "-" if math.isnan(r.speedup) else (">= " if math.isinf(r.sdcmicro_s) else "") + f"{r.speedup:.1f}"
        lines.append(f"| {r.n:,} | {r.keys} | {r.classes:,} | {r.native_s:.3f} | {r.native_s_per_million:.3f} | "
                     f"{sm} | {sp} | {r.native_peak_mb:,.1f} | {r.agree} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", choices=("risk", "ldiversity", "tcloseness", "suda", "household", "modrisk"),
                    default="risk")
    ap.add_argument("--sizes", default="1e4,1e5,1e6,1e7")
    ap.add_argument("--keys", default="3,5,8")
    ap.add_argument("--categories", type=int, default=50, help="sensitive categories (ldiversity, tcloseness)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--r-budget", type=float, default=600.0, help="seconds before sdcMicro is stopped")
    ap.add_argument("--no-r", action="store_true", help="native and baseline only")
    ap.add_argument("--weights", choices=("both", "no", "yes"), default="both", help="risk suite: weighted runs")
    ap.add_argument("--na", choices=("both", "no", "yes"), default="both", help="risk suite: runs with missing keys")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args(argv)
    sizes = [int(float(x)) for x in args.sizes.split(",")]
    key_counts = [int(x) for x in args.keys.split(",")]
    with_r = not args.no_r and shutil.which("Rscript") is not None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    r_version = subprocess.run(["Rscript", "-e", 'cat(R.version$major, R.version$minor, as.character(packageVersion("sdcMicro")))'],
                               capture_output=True, text=True).stdout.split() if with_r else []
    meta = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {_cores()} cores, {_mem_gb():.0f} GiB",
        "versions": f"sdc {sdc.__version__}, Python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}"
                    + (f", R {r_version[0]}.{r_version[1]}, sdcMicro {r_version[2]}" if len(r_version) == 3 else ""),
        "repeat": str(args.repeat),
    }
    if args.suite == "risk":
        pick = {"both": (False, True), "no": (False,), "yes": (True,)}
        rows = run(sizes, key_counts, args.repeat, args.r_budget, with_r, pick[args.weights], pick[args.na])
        stem, md = "benchmark", markdown(rows, meta, args.r_budget)
    else:
        rows = run_attribute(args.suite, sizes, key_counts, args.categories, args.repeat, args.r_budget, with_r)
        stem, md = f"benchmark-{args.suite}", attribute_markdown(rows, meta, args.r_budget)
    pd.DataFrame([asdict(r) for r in rows]).to_csv(out / f"{stem}.csv", index=False)
    (out / f"{stem}.md").write_text(md, encoding="utf-8")
    print(f"written to {out / (stem + '.md')}")
    return 0


def _cores() -> int:
    import os

    return os.cpu_count() or 1


def _mem_gb() -> float:
    try:
        with open("/proc/meminfo") as fh:
            return int(fh.readline().split()[1]) / 2**20
    except OSError:
        return float("nan")


if __name__ == "__main__":
    raise SystemExit(main())
