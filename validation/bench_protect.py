"""Speed of the protection methods: sdc vs sdcMicro on the same data, one run.

    .venv/bin/python -m validation.bench_protect [--sizes 1e6] [--native-sizes 1e7] [--repeat 3]

For each size in ``--sizes`` both sides run on the same columns (written to binary files that
an ``Rscript`` subprocess reads, ``validation/bench_protect.R``); each side is warmed by one
untimed call in the same session, then timed ``--repeat`` times (min and median reported), in
CPU seconds of the process (``time.process_time`` here, user + system of ``system.time`` in R):
the machine is shared, and elapsed time would count the other processes' load:

* recoding: ``sdc.global_recode(edges=...)`` vs ``globalRecode(x, breaks)`` (10 age bands), and vs
  the ``sdcMicroObj`` method a sdcMicro workflow calls (which re-measures the risk);
* top coding: ``sdc.top_bottom_code(top=...)`` vs ``topBotCoding(x, value, replacement, "top")``,
  and vs its ``sdcMicroObj`` method (which re-measures risk and utility);
* PRAM: ``sdc.pram`` vs ``pram(factor, pd = 0.8, alpha = 0.5)`` (5 levels);
* pseudonymisation: ``sdc.pseudonymise`` (HMAC-SHA-256, 10 records per identifier) vs
  sdcMicro's ``createNewID(withinVar =)`` (random new ids, its only identifier method) and R's
  ``openssl::sha256(x, key =)`` (the same HMAC in R).

``--native-sizes`` are timed on the sdc side only (and also with every identifier distinct,
the worst case of pseudonymisation). Results: ``validation/results/benchmark-protect.{md,csv}``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import sdc

HERE = Path(__file__).resolve().parent
EDGES = [-1, 9, 19, 29, 39, 49, 59, 69, 79, 89, 100]
KEY = b"benchmark-key-0123456789abcdef"
#: (sdc method, R timing) pairs, and what each R timing runs.
PAIRS = [("recode", "recode"), ("recode, one-column frame", "recode"), ("recode", "recode_obj"),
         ("topcode", "topcode"), ("topcode, one-column frame", "topcode"), ("topcode", "topcode_obj"),
         ("pram", "pram"),
         ("pseudonymise", "newid"), ("pseudonymise", "hmac")]
R_CALLS = {
    "recode": "`globalRecode(x, breaks)`",
    "recode_obj": "`globalRecode(sdcObj, column, breaks)` (re-measures risk)",
    "topcode": "`topBotCoding(x, value, replacement)`",
    "topcode_obj": "`topBotCoding(sdcObj, value, replacement, column)` (re-measures risk, utility)",
    "pram": "`pram(factor, pd, alpha)`",
    "newid": "`createNewID(sdcObj, withinVar)` (random ids)",
    "hmac": "`openssl::sha256(x, key)` (R, not sdcMicro)",
}


def make_data(n: int, seed: int = 1, ids_per: int = 10) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n_ids = max(1, n // ids_per)
    # ids_per=1: every id distinct (a permutation), the worst case of pseudonymisation.
    draws = rng.permutation(n) if ids_per == 1 else rng.integers(0, n_ids, n)
    ids = np.char.add("SUBJ-", np.char.zfill(draws.astype(str), 8)).astype(object)
    return pd.DataFrame({
        "age": rng.integers(0, 100, n).astype(np.float64),
        "income": np.round(rng.lognormal(10, 1, n), 2),
        "roof": rng.choice(np.array([2, 4, 5, 6, 9], dtype=np.int32), n, p=[0.5, 0.3, 0.1, 0.06, 0.04]),
        "id": ids,
    })


def timed(fn, repeat: int) -> list[float]:  # noqa: ANN001
    fn()  # warm
    out = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
    return out


def native_calls(df: pd.DataFrame, key_file: str) -> dict[str, object]:
    # The one-column frames hold what sdcMicro's vector calls get: the copy of the other
    # columns (above all the text identifiers: one reference count each) is left out.
    age, income = df[["age"]].copy(), df[["income"]].copy()
    return {
        "recode": lambda: sdc.global_recode(df, "age", edges=EDGES),
        "recode, one-column frame": lambda: sdc.global_recode(age, "age", edges=EDGES),
        "topcode": lambda: sdc.top_bottom_code(df, "income", top=2e5),
        "topcode, one-column frame": lambda: sdc.top_bottom_code(income, "income", top=2e5),
        "pram": lambda: sdc.pram(df, "roof", seed=1),
        "pseudonymise": lambda: sdc.pseudonymise(df, "id", key_file=key_file),
    }


def run_r(df: pd.DataFrame, repeat: int, budget: float) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        df["age"].to_numpy(np.float64).tofile(os.path.join(tmp, "age.f64"))
        df["income"].to_numpy(np.float64).tofile(os.path.join(tmp, "income.f64"))
        df["roof"].to_numpy(np.int32).tofile(os.path.join(tmp, "roof.i32"))
        Path(tmp, "id.txt").write_text("\n".join(df["id"]) + "\n", encoding="utf-8")
        cmd = ["timeout", str(int(budget)), "Rscript", str(HERE / "bench_protect.R"), tmp, str(len(df)), str(repeat)]
        res = subprocess.run(cmd, capture_output=True, text=True)
    out: dict[str, list[float]] = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out[parts[0]] = [float(x) for x in parts[1:]]
    if res.returncode != 0 and not out:
        raise RuntimeError(f"Rscript failed ({res.returncode}): {res.stderr.strip()[-500:]}")
    return out


def _f(x: float) -> str:
    """Seconds with 3 significant digits at least (4 decimals below 0.1 s)."""
    return f"{x:.4f}" if x < 0.1 else f"{x:.3f}" if x < 100 else f"{x:.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e6")
    ap.add_argument("--native-sizes", default="1e7")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--r-budget", type=float, default=900)
    ap.add_argument("--no-r", action="store_true")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",") if s]
    native_sizes = [int(float(s)) for s in args.native_sizes.split(",") if s]
    with_r = not args.no_r and shutil.which("Rscript") is not None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        key_file = os.path.join(tmp, "key")
        Path(key_file).write_bytes(KEY)
        os.chmod(key_file, 0o600)  # a key file must be private
        for n in sizes:
            df = make_data(n)
            mine = {k: timed(f, args.repeat) for k, f in native_calls(df, key_file).items()}
            theirs = run_r(df, args.repeat, args.r_budget) if with_r else {}
            for k, r_name in PAIRS:
                ts, rt = mine[k], theirs.get(r_name)
                if rt is None and with_r:
                    continue
                rows.append({"n": n, "method": k, "sdc_min": min(ts), "sdc_median": statistics.median(ts),
                             "sdcmicro": R_CALLS[r_name] if rt else "", "sdcmicro_min": min(rt) if rt else np.nan,
                             "sdcmicro_median": statistics.median(rt) if rt else np.nan})
            del df
        for n in native_sizes:
            df = make_data(n)
            for k, f in native_calls(df, key_file).items():
                ts = timed(f, args.repeat)
                rows.append({"n": n, "method": k, "sdc_min": min(ts), "sdc_median": statistics.median(ts),
                             "sdcmicro": "", "sdcmicro_min": np.nan, "sdcmicro_median": np.nan})
            df = make_data(n, ids_per=1)
            ts = timed(lambda: sdc.pseudonymise(df, "id", key_file=key_file), args.repeat)
            rows.append({"n": n, "method": "pseudonymise (all ids distinct)", "sdc_min": min(ts),
                         "sdc_median": statistics.median(ts), "sdcmicro": "", "sdcmicro_min": np.nan,
                         "sdcmicro_median": np.nan})
            del df
    table = pd.DataFrame(rows)
    table["ratio_median"] = table["sdcmicro_median"] / table["sdc_median"]
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "benchmark-protect.csv", index=False, lineterminator="\n")
    r_ver = ""
    if with_r:
        r_ver = subprocess.run(["Rscript", "-e", 'cat(R.version$major, R.version$minor, as.character(packageVersion("sdcMicro")))'],
                               capture_output=True, text=True).stdout.split()
        r_ver = f"R {r_ver[0]}.{r_ver[1]}, sdcMicro {r_ver[2]}" if len(r_ver) == 3 else ""
    lines = [
        "# Benchmark: protection methods, sdc vs sdcMicro",
        "",
        f"Generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} by `validation/bench_protect.py "
        f"--sizes {args.sizes} --native-sizes {args.native_sizes} --repeat {args.repeat}`; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores (shared), Python {platform.python_version()}, pandas {pd.__version__}, "
        f"numpy {np.__version__}; {r_ver}.",
        "",
        "Same data on both sides (ages 0-99 in 10 bands, log-normal incomes top-coded at 200,000, a 5-level "
        "variable pramed with pd = 0.8 and alpha = 0.5, text identifiers with 10 records each). Both sides "
        f"warm (one untimed call in the same session), then {args.repeat} timed runs: CPU seconds of the "
        "process (Python's `time.process_time`, R's `system.time` user + system; the machine's cores are "
        "shared, so elapsed time would count other processes' load) as min / median. sdc times include "
        "building the result (a copy of the whole 4-column frame, changed-cell counts, details); sdcMicro's "
        "are the bare calls inside R (data already in R). The one-column rows give sdc a frame of the treated "
        "column only, what sdcMicro's vector calls get.",
        "",
        "| records | method | sdc (s) | sdcMicro call | sdcMicro (s) | sdcMicro / sdc (median) |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for r in table.itertuples(index=False):
        ratio = "" if np.isnan(r.ratio_median) else f"{r.ratio_median:.1f}x"
        theirs = "" if np.isnan(r.sdcmicro_min) else f"{_f(r.sdcmicro_min)} / {_f(r.sdcmicro_median)}"
        lines.append(f"| {r.n:,} | {r.method} | {_f(r.sdc_min)} / {_f(r.sdc_median)} | {r.sdcmicro} | {theirs} | {ratio} |")
    lines += ["", "sdcMicro has no keyed pseudonyms: `createNewID(withinVar =)` draws new random ids (one per old "
              "id); `openssl::sha256(x, key =)` is the same HMAC-SHA-256 computed in R. R's `system.time` counts "
              "CPU time in steps of 1 ms, so its figures under 0.01 s are coarse.", ""]
    page = args.out / "benchmark-protect.md"
    # Sections other generators add (validation/bench_protect_microaggr.py) are kept.
    prev = page.read_text(encoding="utf-8").splitlines() if page.exists() else []
    kept = next((prev[i:] for i, ln in enumerate(prev) if ln.startswith("## ")), [])
    page.write_text("\n".join(lines + kept) + ("\n" if kept else ""), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
