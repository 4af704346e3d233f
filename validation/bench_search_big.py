"""A 15-attribute lattice at 10^6 records (issue 30: "a 15-attribute lattice, e.g. ARX's IHIS-like
10^6 records, finishes within a stated budget"): the heuristics' budget, what they found, and
what it cost.

    .venv/bin/python -m validation.bench_search_big [--records 1e6] [--genetic 60,120] [--lightning-nodes 1000]

Data: 15 seeded keys of 16 values each (``numpy.random.default_rng(30)``), each with ARX-style
interval levels of 2, 4 and 8 values and the suppressed level (5 levels: 5^15 = 3.05e10
transformations, far beyond the exact search's 2,000,000); 5-anonymity, 4 % suppression, DM.
Each case runs in a process of its own (CPU = user + system of the process, peak = its maximum
resident set). Writes ``validation/results/benchmark-search-big.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "results" / "benchmark-search-big.md"


def make(n: int) -> pd.DataFrame:
    """The seeded file: 15 keys of 16 values."""
    rng = np.random.default_rng(30)
    return pd.DataFrame({f"q{j}": rng.integers(0, 16, n) for j in range(15)})


def one(n: int, algorithm: str, time_limit: float | None, node_limit: int | None) -> dict[str, object]:
    """Run one search in this process; its figures."""
    from sdc.identify.hierarchy import interval_hierarchy
    from sdc.identify.search import generalisation_search

    df = make(n)
    hs = {c: interval_hierarchy(range(16), [2, 4, 8]) for c in df.columns}
    t0, c0 = time.perf_counter(), time.process_time()
    row: dict[str, object] = {"records": n, "algorithm": algorithm, "time_limit": time_limit, "node_limit": node_limit}
    try:
        r = generalisation_search(df, hs, k=5, suppression_limit=0.04, algorithm=algorithm, time_limit=time_limit,
                                  node_limit=node_limit, seed=0)
        row.update(nodes=r.n_evaluated, lattice=r.n_nodes, stopped=r.stopped, loss=float(r.loss),
                   levels=",".join(str(v) for v in r.levels.values()), suppressed=int(r.suppressed),
                   k=int(r.achieved.get("k", 0)), found=True)
    except ValueError as exc:
        row.update(found=False, error=str(exc).split(";")[0])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    row.update(wall=time.perf_counter() - t0, cpu=time.process_time() - c0, peak_mb=usage.ru_maxrss / 1024)
    return row


def _child(n: int, algorithm: str, time_limit: float | None, node_limit: int | None) -> dict[str, object]:
    args = [sys.executable, "-m", "validation.bench_search_big", "--one", algorithm, "--records", str(n)]
    args += ["--time-limit", str(time_limit)] if time_limit else []
    args += ["--node-limit", str(node_limit)] if node_limit else []
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def write(rows: list[dict[str, object]], command: str) -> None:
    lines = ["# A 15-attribute lattice at 10^6 records", "",
             f"Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `{command}`; {platform.machine()}, "
             f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}; 2 shared cores "
             "(wall time counts other processes' load, CPU does not).", "",
             "15 keys of 16 values (seeded), levels of 2, 4, 8 values and suppressed (5^15 = 3.05e10 "
             "transformations), 5-anonymity, 4 % suppression, discernibility.", "",
             "| records | search | budget | nodes checked | stopped | CPU (s) | wall (s) | peak (MB) | DM | levels | "
             "suppressed | k |", "|---:|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        budget = f"time_limit={r['time_limit']:g} s" if r.get("time_limit") else f"node_limit={r['node_limit']}"
        if r.get("found"):
            lines.append(f"| {r['records']:,} | {r['algorithm']} | {budget} | {r['nodes']:,} | {r['stopped']} | "
                         f"{r['cpu']:.1f} | {r['wall']:.1f} | {r['peak_mb']:,.0f} | {r['loss']:,.0f} | {r['levels']} | "
                         f"{r['suppressed']:,} | {r['k']} |")
        else:
            lines.append(f"| {r['records']:,} | {r['algorithm']} | {budget} | - | {r['error']} | {r['cpu']:.1f} | "
                         f"{r['wall']:.1f} | {r['peak_mb']:,.0f} | - | - | - | - |")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(OUT.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=float, default=1e6)
    p.add_argument("--genetic", default="60,120", help="the genetic search's time limits (s), comma-separated")
    p.add_argument("--lightning-nodes", default="1000", help="Lightning's node limits, comma-separated")
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--time-limit", type=float, help=argparse.SUPPRESS)
    p.add_argument("--node-limit", type=int, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    n = int(a.records)
    if a.one:
        print(json.dumps(one(n, a.one, a.time_limit, a.node_limit)))
        return 0
    rows = [_child(n, "genetic", float(t), None) for t in a.genetic.split(",") if t]
    rows += [_child(n, "lightning", None, int(k)) for k in a.lightning_nodes.split(",") if k]
    write(rows, "python -m validation.bench_search_big " + " ".join(argv if argv is not None else sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
