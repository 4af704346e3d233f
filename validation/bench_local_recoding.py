"""local_recoding against sdcMicro's LocalRecProg, warm on both sides, on the same random files
(keys with 2-5 values, a numerical variable or none): CPU seconds per call (Python's process_time,
R's user + system; the machine is shared) and the ratio sdc / sdcMicro.

    .venv/bin/python -m validation.bench_local_recoding [--sizes 100 200 500] [--reps 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from validation.crossval_local_recoding import LocalCase, run_case, theirs


def _file(n: int, numeric: bool, seed: int = 1) -> LocalCase:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"k{j}": rng.integers(1, 2 + j % 4, n).astype(float) for j in range(5)})
    num: tuple[str, ...] = ()
    if numeric:
        df["x"] = rng.normal(50, 20, n).round(2)
        num = ("x",)
    return LocalCase(f"n={n}", "random", df, tuple(f"k{j}" for j in range(5)), num)


def bench(n: int, numeric: bool, reps: int) -> dict[str, float]:
    case = _file(n, numeric)
    run_case(case)   # warm
    t = time.process_time()
    for _ in range(reps):
        run_case(case)
    ours = (time.process_time() - t) / reps
    _, their = theirs(case, reps=reps)   # one untimed call first, then reps timed (R's elapsed time)
    return {"n": n, "numerical": numeric, "sdc_s": ours, "sdcmicro_s": their, "ratio": ours / their}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500])
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    rows = [bench(n, numeric, a.reps) for n in a.sizes for numeric in (False, True)]
    print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:.3g}"))


if __name__ == "__main__":
    main()
