"""Time and memory of ``sdc protect`` with its comparison (the release assessed beside the original).

    .venv/bin/python -m validation.bench_protect_compare --data-dir /tmp/data --sizes 1e6,1e7 [--tree DIR] [--no-assess]

For each size the survey file of :mod:`validation.make_assess_data` (made when absent, seeded) is
protected with ``validation/protect_compare_plan.toml`` (age in 10-year bands, PRAM on marital
status, local suppression to k = 3; the bundled example's two scenarios), population size 60 x
records, in a fresh process. Its CPU time (user + system) and peak resident memory come from the
operating system (``os.wait4``); ``--tree`` runs another checkout's ``sdc`` on the same files
(e.g. ``git worktree add /tmp/old <rev>``) for a before/after; ``--no-assess`` times the release
alone (no comparison). One run per size: at 10^7 a run
takes minutes and most of the memory of a 24 GB machine. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAN = HERE / "protect_compare_plan.toml"


def _survey(data_dir: Path, n: int) -> Path:
    path = data_dir / f"survey-{n:.0e}.csv".replace("+", "")
    if not path.exists():
        subprocess.run([sys.executable, "-m", "validation.make_assess_data", "--records", str(n), "--out", str(path)],
                       cwd=HERE.parent, check=True)
    return path


def run(tree: Path, data: Path, n: int, out: Path, no_assess: bool = False) -> dict[str, float]:
    """One ``sdc protect`` run from `tree`: CPU seconds (user, system), wall seconds, peak GB."""
    cmd = [sys.executable, "-m", "sdc", "protect", str(data), "--plan", str(PLAN), "--out", str(out),
           "--population-size", str(60 * n)] + (["--no-assess"] if no_assess else [])
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if status != 0:
        raise SystemExit(f"sdc protect failed on {data} (status {status}): {err.strip()[-300:]}")
    return {"user": usage.ru_utime, "system": usage.ru_stime, "wall": wall, "peak_gb": usage.ru_maxrss / 2**20}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--sizes", default="1e6,1e7")
    ap.add_argument("--tree", type=Path, help="another checkout whose sdc to time on the same files")
    ap.add_argument("--no-assess", action="store_true", help="time the release alone (no comparison)")
    a = ap.parse_args(argv)
    a.data_dir.mkdir(parents=True, exist_ok=True)
    trees = [("this tree", HERE.parent)] + ([("--tree", a.tree.resolve())] if a.tree else [])
    print("| records | sdc | CPU s (user + system) | wall s | peak GB |\n|---:|---|---:|---:|---:|")
    for n in (int(float(s)) for s in a.sizes.split(",")):
        data = _survey(a.data_dir, n)
        for label, tree in trees:
            with tempfile.TemporaryDirectory() as tmp:
                r = run(tree, data, n, Path(tmp) / "out", a.no_assess)
            print(f"| {n:.0e} | {label} | {r['user'] + r['system']:.1f} ({r['user']:.1f} + {r['system']:.1f}) "
                  f"| {r['wall']:.1f} | {r['peak_gb']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
