"""Speed and results of the generalisation search on the adult extract, against ARX's published figures.

    .venv/bin/python -m validation.bench_search [--repeat 3] [--quick]

Data: ``SDC_ARX_ADULT`` or ``/work/shared/data/arx-adult/adult.csv`` (30,162 records) with
ARX's hierarchies beside it. ARX cannot be run here (no Java), so its side is what ARX
publishes:

* the column-scaling benchmark of arx-deidentifier/uniqueness-benchmark
  (``results/scalability.csv``, ARX 3.4.1, ``BenchmarkExperimentScalability.java``): the first
  c = 3..9 columns of adult as quasi-identifiers, 5-anonymity, 100 % suppression allowed, the
  Loss metric (gs-factor 0.5, geometric mean); time = mean of 5 runs after a warm-up, utility
  = 1 - loss of ARX's optimum. We time the same configuration and compare the time (ratio =
  ARX time / sdc time) and the utility found;
* the row-scaling part of the same file (9 columns, 10 % .. 100 % of the rows);
* ARX's regression tests (arx master ``TestAnonymization*.java``): optimal loss and
  transformation (no times published); we time them and check the optimum;
* the issue's configuration, discernibility with 5-anonymity and 4 % suppression (ARX
  publishes no time or optimum for it): our time, pruned vs exhaustive.

sdc is warm (one untimed call first); min and median of ``--repeat`` runs; the data and the
hierarchies are read before timing (as in ARX's benchmark), the encoding of the data is timed
(as ARX's ``anonymize`` does it too); ARX's hardware is unknown (2016), ours is a shared
2-core machine. Writes ``validation/results/benchmark-search.md``
and ``.csv``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import sdc

HERE = Path(__file__).resolve().parent
ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
ALL = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation", "salary-class"]

#: uniqueness-benchmark results/scalability.csv, 5-anonymity columns: (time ms, utility).
ARX_COLUMNS = {3: (5.8, 0.9859094225), 4: (7.0, 0.9746166564999741), 5: (15.6, 0.9197842558157301),
               6: (34.4, 0.872186523851008), 7: (133.2, 0.8432555224129377), 8: (1096.4, 0.7786155401270047),
               9: (2362.8, 0.778713255440429)}
ARX_ROWS = {3016: (1049.4, 0.6603759662062956), 6032: (1400.0, 0.6986946128493645),
            9048: (1620.8, 0.7204076275531692), 12064: (1869.0, 0.7288254334205866),
            15080: (1967.0, 0.7453561332265664), 18096: (2070.0, 0.7538286748977991),
            21112: (2088.2, 0.7636364162337952), 24128: (2166.0, 0.7690909476606915),
            27144: (2303.0, 0.7733770879935864), 30162: (2329.6, 0.778713255440429)}
NO_OCC = [c for c in ALL if c != "occupation"]
#: ARX's regression tests (name, quasi-identifiers, arguments, loss, transformation).
ARX_TESTS = [
    ("k=5, 4%, NUE (monotonic)", ALL, dict(k=5, suppression_limit=0.04, metric="nue_monotonic"),
     255559.85455731067, [1, 0, 1, 1, 3, 2, 2, 0, 1]),
    ("k=100, 0%, NUE (monotonic)", ALL, dict(k=100, suppression_limit=0.0, metric="nue_monotonic"),
     453196.8932458743, [0, 4, 1, 1, 3, 2, 2, 1, 1]),
    ("entropy 5-diversity, 4%, NUE", NO_OCC, dict(l={"occupation": 5}, l_variant="entropy", suppression_limit=0.04,
                                                 metric="nue"), 228878.2039109517, [1, 0, 1, 1, 2, 2, 2, 1]),
    ("recursive (4,5)-diversity, 5%, NUE", NO_OCC, dict(l={"occupation": 5}, l_variant="recursive", c=4,
                                                        suppression_limit=0.05, metric="nue"),
     209764.96161974416, [1, 0, 1, 1, 2, 2, 2, 0]),
    ("k=5 + 0.2-closeness (equal), 4%, DM*", NO_OCC, dict(k=5, t={"occupation": 0.2}, suppression_limit=0.04,
                                                        metric="dm_star"), 3.11880088e8, [1, 4, 1, 0, 3, 2, 2, 1]),
    ("k=5 + 0.2-closeness (ordered), 4%, DM*", NO_OCC, dict(k=5, t={"occupation": 0.2}, t_distance="ordered",
                                                          suppression_limit=0.04, metric="dm_star"),
     2712340.0, [0, 0, 1, 1, 2, 2, 2, 0]),
    ("basic 1-likeness, 100%, Loss", NO_OCC, dict(beta={"occupation": 1}, suppression_limit=1.0, metric="loss"),
     0.6081345989904172, [1, 4, 0, 1, 3, 0, 2, 0]),
]


_HIERARCHIES: dict[str, sdc.Hierarchy] = {}


def _h(cols: list[str]) -> dict[str, sdc.Hierarchy]:
    """The hierarchies, read once: ARX's benchmark also loads them outside the timed loop."""
    for c in cols:
        if c not in _HIERARCHIES:
            _HIERARCHIES[c] = sdc.read_hierarchy(ADULT.parent / f"adult_hierarchy_{c}.csv")
    return {c: _HIERARCHIES[c] for c in cols}


def _time(fn, repeat: int):  # noqa: ANN001, ANN202
    res = fn()  # warm
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        res = fn()
        ts.append(time.perf_counter() - t)
    return float(np.min(ts)), float(np.median(ts)), res


_LOAD0 = "n/a"


def bench(repeat: int, quick: bool) -> list[dict[str, object]]:
    global _LOAD0
    _LOAD0 = f"{os.getloadavg()[0]:.1f}"
    data = pd.read_csv(ADULT, sep=";", dtype=str)
    rows: list[dict[str, object]] = []

    def add(**kw: object) -> None:
        rows.append(kw)
        print({k: v for k, v in kw.items() if k != "note"}, flush=True)

    for c in (sorted(ARX_COLUMNS) if not quick else [3, 5, 7, 9]):
        mn, md, r = _time(lambda: sdc.generalisation_search(data, _h(ALL[:c]), k=5, suppression_limit=1.0,
                                                           metric="loss"), repeat)
        arx_ms, arx_u = ARX_COLUMNS[c]
        add(part="columns", case=f"{c} columns x 30,162 rows", sdc_min_s=mn, sdc_median_s=md, arx_s=arx_ms / 1000,
            ratio=arx_ms / 1000 / mn, sdc_utility=1 - r.loss, arx_utility=arx_u, evaluated=r.n_evaluated,
            nodes=r.n_nodes, note="")
    for n in (sorted(ARX_ROWS) if not quick else [3016, 15080]):
        sub = data.iloc[:n]
        mn, md, r = _time(lambda: sdc.generalisation_search(sub, _h(ALL), k=5, suppression_limit=1.0, metric="loss"),
                          repeat)
        arx_ms, arx_u = ARX_ROWS[n]
        add(part="rows", case=f"9 columns x {n:,} rows", sdc_min_s=mn, sdc_median_s=md, arx_s=arx_ms / 1000,
            ratio=arx_ms / 1000 / mn, sdc_utility=1 - r.loss, arx_utility=arx_u, evaluated=r.n_evaluated,
            nodes=r.n_nodes, note="")
    for name, qis, kw, loss, levels in (ARX_TESTS if not quick else ARX_TESTS[:3]):
        mn, md, r = _time(lambda: sdc.generalisation_search(data, _h(qis), **kw), repeat)
        got = [r.levels[q] for q in qis]
        same = abs(r.loss - loss) <= 1e-9 * max(1.0, abs(loss)) and got == levels
        add(part="ARX tests", case=name, sdc_min_s=mn, sdc_median_s=md, arx_s=None, ratio=None,
            sdc_loss=r.loss, arx_loss=loss, same_optimum=same, evaluated=r.n_evaluated, nodes=r.n_nodes,
            note=f"levels {got}")
    mn, md, r = _time(lambda: sdc.generalisation_search(data, _h(ALL), k=5, suppression_limit=0.04,
                                                       metric="discernibility"), repeat)
    t = time.perf_counter()
    full = sdc.generalisation_search(data, _h(ALL), k=5, suppression_limit=0.04, metric="discernibility",
                                     exhaustive=True)
    t_full = time.perf_counter() - t
    add(part="issue", case="discernibility, 5-anonymity, 4% suppression", sdc_min_s=mn, sdc_median_s=md, arx_s=None,
        ratio=None, sdc_loss=r.loss, exhaustive_loss=full.loss, same_optimum=full.levels == r.levels,
        exhaustive_s=t_full, evaluated=r.n_evaluated, nodes=r.n_nodes,
        note="levels " + ", ".join(f"{q}={v}" for q, v in r.levels.items()) + f"; {r.suppressed} suppressed")
    return rows


def _fmt(v: object, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:.{digits}f}" if abs(v) < 1e6 else f"{v:.6g}"
    return str(v)


def write(rows: list[dict[str, object]], repeat: int) -> None:
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    df = pd.DataFrame(rows)
    df.to_csv(out / "benchmark-search.csv", index=False, lineterminator="\n")
    lines = [
        "# Generalisation search on the adult extract vs ARX's published figures",
        "",
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `validation/bench_search.py` on {platform.machine()}, "
        f"{os.cpu_count()} cores (shared with other jobs). Versions: sdc {sdc.__version__}, Python "
        f"{platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}. sdc warm, min and median of "
        f"{repeat} runs; load average at the start {_LOAD0}, at the end {os.getloadavg()[0]:.1f} (2 cores: above 2 "
        "means the times are inflated by other jobs). ARX's times are as published (ARX 3.4.1, mean of 5 runs after a warm-up, unknown 2016 "
        "hardware); ratio = ARX time / sdc min time (> 1: sdc faster).",
        "",
        "## 5-anonymity, 100 % suppression, Loss metric (uniqueness-benchmark `results/scalability.csv`)",
        "",
        "| case | sdc min (s) | sdc median (s) | ARX (s) | ratio | sdc utility | ARX utility | nodes evaluated |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["part"] in ("columns", "rows"):
            lines.append(f"| {r['case']} | {_fmt(r['sdc_min_s'])} | {_fmt(r['sdc_median_s'])} | {_fmt(r['arx_s'])} | "
                         f"{_fmt(r['ratio'], 2)} | {_fmt(r['sdc_utility'], 6)} | {_fmt(r['arx_utility'], 6)} | "
                         f"{r['evaluated']:,} / {r['nodes']:,} |")
    lines += [
        "",
        "Utility = 1 - Loss of the optimum. Up to 7 columns sdc finds ARX's utility to the last digit. With 8 and 9",
        "columns, and on the row subsets, the exact search finds transformations with a *lower* loss than ARX 3.4.1",
        "published (for 8 columns: 0.77995 vs 0.77862); the loss of sdc's optimum was recomputed from the",
        "definition by an independent implementation (`tests/search_brute.py`, test",
        "`test_arx_benchmark_8_columns_we_find_lower_loss`), and ARX's current regression values below are",
        "matched exactly, so we read ARX 3.4.1's benchmark result as not optimal for this non-monotonic",
        "configuration (the benchmark ran a modified Flash, `FLASHAlgorithmImpl` with `USE_LOWER_BOUND`).",
        "",
        "## ARX's regression tests (arx master, `src/test/.../TestAnonymization*.java`)",
        "",
        "| case | sdc min (s) | sdc median (s) | sdc loss | ARX loss | same optimum | nodes evaluated |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["part"] == "ARX tests":
            lines.append(f"| {r['case']} | {_fmt(r['sdc_min_s'])} | {_fmt(r['sdc_median_s'])} | "
                         f"{r['sdc_loss']!r} | {r['arx_loss']!r} | {_fmt(r['same_optimum'])} | "
                         f"{r['evaluated']:,} / {r['nodes']:,} |")
    lines += ["", "## The issue's case: discernibility, 5-anonymity, 4 % suppression, 9 quasi-identifiers", ""]
    for r in rows:
        if r["part"] == "issue":
            lines += [f"sdc: {_fmt(r['sdc_min_s'])} s (median {_fmt(r['sdc_median_s'])} s), {r['evaluated']:,} of "
                      f"{r['nodes']:,} transformations evaluated; optimum {r['note']}; discernibility "
                      f"{r['sdc_loss']:,.0f}. Exhaustive search: {_fmt(r['exhaustive_s'])} s, same optimum: "
                      f"{_fmt(r['same_optimum'])}. ARX publishes no figure for this configuration; its nearest "
                      "published run (5-anonymity, Loss, 100 % suppression, 9 columns) took 2.33 s."]
    (out / "benchmark-search.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer cases")
    args = ap.parse_args(argv)
    if not ADULT.exists():
        print(f"the adult extract is not at {ADULT}; set SDC_ARX_ADULT")
        return 2
    rows = bench(args.repeat, args.quick)
    write(rows, args.repeat)
    print(f"wrote {HERE / 'results' / 'benchmark-search.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
