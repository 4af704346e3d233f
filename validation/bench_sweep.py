"""Time ``sdc sweep``: 50 settings on 10^5 records (issue 10: "within a minute").

The data: the bundled example resampled to 10^5 records (seeded; ages jittered by up to 3
years so that the keys are not all repeated). The sweep: age bands of 10 widths, PRAM on sex
(10 flip probabilities) and on region (10 values of pd), additive noise on two clinical
variables (10 noise levels), PRAM on marital status (6) and local suppression with k = 2..5
(4): 50 settings plus the baseline. sdcMicro has no sweep, so there is no R side here; the
protection methods themselves are benchmarked against sdcMicro in validation/benchmark.py.

Run: ``.venv/bin/python -m validation.bench_sweep`` (writes validation/results/sweep-benchmark.md).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PLAN = """
[sweep]
keys = ["age", "sex", "region", "marital_status"]
k = 3
weights = "weight"
variables = ["age", "sex", "region", "marital_status", "bmi", "cholesterol"]

[plan]
seed = 1

[[steps]]
method = "global_recode"
variables = ["age"]
labels = "midpoint"
closed = "left"
grid = { width = [2, 3, 4, 5, 6, 8, 10, 12, 15, 20] }

[[steps]]
method = "pram"
variables = ["sex"]
grid = { flip = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10] }

[[steps]]
method = "pram"
variables = ["region"]
grid = { pd = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95] }

[[steps]]
method = "add_noise"
variables = ["bmi", "cholesterol"]
grid = { noise = [5, 10, 15, 20, 30, 40, 50, 75, 100, 150] }

[[steps]]
method = "pram"
variables = ["marital_status"]
grid = { pd = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95] }

[[steps]]
method = "local_suppression"
keys = ["age", "sex", "region", "marital_status"]
grid = { k = [2, 3, 4, 5] }
"""


def main(n: int = 100_000, repeats: int = 3) -> int:
    import sdc
    from sdc.workflow.plan import plan_from_mapping
    from sdc.workflow.config import _toml_module
    from sdc.workflow.sweep import _check_sweep_section, sweep

    df = sdc.load_example()
    rng = np.random.default_rng(1)
    big = df.sample(n, replace=True, random_state=1).reset_index(drop=True)
    big["age"] = np.clip(big["age"] + rng.integers(-3, 4, n), 0, 99)
    plan = plan_from_mapping(_toml_module().loads(PLAN), source="validation/bench_sweep.py", sweep=True)
    _check_sweep_section(plan)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = sweep(big, plan)
        times.append(time.perf_counter() - t0)
    settings = len(res.table) - 1
    lines = [
        "# sdc sweep: 50 settings on 10^5 records",
        "",
        f"Data: the bundled example resampled to {n:,} records (seeded); {settings} settings plus the baseline "
        "(validation/bench_sweep.py has the plan). Each setting applies its protection step and computes the risk "
        "(k-anonymity, Benedetti-Franconi individual risk with weights) and the utility (utility_summary: IL1, "
        "eigenvalue similarity, non-uniform entropy, records retained).",
        "",
        "| runs | min (s) | median (s) | per setting, median (s) | target |",
        "|---:|---:|---:|---:|---|",
        f"| {repeats} | {min(times):.1f} | {statistics.median(times):.1f} | "
        f"{statistics.median(times) / (settings + 1):.2f} | < 60 s |",
        "",
        f"Machine: {sys.platform}, 2 shared cores; Python {sys.version.split()[0]}, numpy {np.__version__}.",
        "",
    ]
    out = ROOT / "validation" / "results" / "sweep-benchmark.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
