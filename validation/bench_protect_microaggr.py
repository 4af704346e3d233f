"""Speed of ``microaggregation_gower`` and ``microaggregation(method="clustpca",
clustermethod="clara")`` against sdcMicro on sdcMicro's testdata (4,580 records), one run.

    .venv/bin/python -m validation.bench_protect_microaggr [--repeat 3]

Both sides run in this process on the same data (testdata as sdcMicro ships it, read through
r_bridge; R is embedded by rpy2), each warmed by one untimed call, then timed ``--repeat`` times
(min and median) in CPU seconds: ``time.process_time`` around sdc's call, R's ``system.time``
(user + system) around sdcMicro's call inside R (data already in R), so neither side counts the
conversion between them.

* gower: ``sdc.microaggregation_gower(k=3, dist_var=[age, sex, income, savings],
  strata=[urbrur, roof])`` on relat, age, expend vs ``microaggrGower(data.frame, variables,
  aggr = 3, dist_var, by)`` (the factors as in ``tests/protect/test_sdcmicro_microaggregation_gower.py``);
* clustpca, clara: ``sdc.microaggregation(method="clustpca", clustermethod="clara", nc=8, k=3)``
  on expend, income, savings vs ``microaggregation(data.frame, variables, aggr = 3,
  method = "clustpca", nc = 8, clustermethod = "clara", transf = "log")``.

Writes ``validation/results/benchmark-protect-microaggr.csv`` and puts its table in the section
``## Microaggregation on sdcMicro's testdata`` of ``benchmark-protect.md`` (replacing that
section, keeping the rest of the page).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import sdc
from validation.bench_protect import timed

HERE = Path(__file__).resolve().parent
SECTION = "## Microaggregation on sdcMicro's testdata"
FACTORS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]
GOWER = {"variables": ["relat", "age", "expend"], "dist_var": ["age", "sex", "income", "savings"],
         "by": ["urbrur", "roof"]}
CLUST = ["expend", "income", "savings"]
R_TIMER = """
function(repeats, what) {
  e <- new.env()
  utils::data("testdata", package = "sdcMicro", envir = e)
  td <- e$testdata
  for (v in c(%s)) td[[v]] <- factor(as.character(td[[v]]))
  f <- if (what == "gower") function() suppressWarnings(sdcMicro::microaggrGower(td,
           variables = c("relat", "age", "expend"), aggr = 3, dist_var = c("age", "sex", "income", "savings"),
           by = c("urbrur", "roof")))
       else function() sdcMicro::microaggregation(obj = td, variables = c("expend", "income", "savings"),
           aggr = 3, method = "clustpca", nc = 8, clustermethod = "clara", transf = "log")
  set.seed(1)
  f()
  vapply(seq_len(repeats), function(i) sum(system.time(f())[c("user.self", "sys.self")]), numeric(1))
}
""" % ", ".join(f'"{v}"' for v in FACTORS)
ROWS = [("gower", "microaggregation_gower (k = 3, 4 distance variables, strata urbrur x roof)",
         "`microaggrGower(data.frame, variables, aggr = 3, dist_var, by)`"),
        ("clust", "microaggregation clustpca, clara (nc = 8, k = 3; expend, income, savings)",
         "`microaggregation(data.frame, variables, aggr = 3, method = \"clustpca\", nc = 8, clustermethod = \"clara\")`")]


def measure(repeat: int) -> pd.DataFrame:
    """One row per method: sdc's and sdcMicro's CPU seconds (min, median) and the ratio."""
    import rpy2.robjects as ro

    import r_bridge as rb

    td = rb.load_dataset("testdata")
    for v in FACTORS:
        td[v] = td[v].astype(str).astype("category")
    ours = {"gower": lambda: sdc.microaggregation_gower(td, GOWER["variables"], k=3, dist_var=GOWER["dist_var"],
                                                        strata=GOWER["by"], seed=1),
            "clust": lambda: sdc.microaggregation(td, CLUST, k=3, method="clustpca", nc=8, clustermethod="clara")}
    timer = ro.r(R_TIMER)
    rows = []
    for key, method, call in ROWS:
        mine = timed(ours[key], repeat)
        theirs = [float(x) for x in timer(repeat, key)]
        rows.append({"n": len(td), "method": method, "sdc_min": min(mine), "sdc_median": statistics.median(mine),
                     "sdcmicro": call, "sdcmicro_min": min(theirs), "sdcmicro_median": statistics.median(theirs)})
    table = pd.DataFrame(rows)
    table["ratio_median"] = table["sdcmicro_median"] / table["sdc_median"]
    return table


def _f(x: float) -> str:
    return f"{x:.4f}" if x < 0.1 else f"{x:.3f}" if x < 100 else f"{x:.1f}"


def section(table: pd.DataFrame, repeat: int) -> list[str]:
    """The markdown section of benchmark-protect.md."""
    import r_bridge as rb

    v = rb.versions()
    lines = [SECTION, "",
             f"Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `validation/bench_protect_microaggr.py "
             f"--repeat {repeat}`; R {v['R'].removeprefix('R version ')}, sdcMicro {v['sdcMicro']} (embedded by rpy2 "
             "in the same process). sdcMicro's testdata (4,580 records) on both sides, each warm (one untimed call), "
             f"then {repeat} timed runs in CPU seconds (min / median): Python's `time.process_time` around sdc's call, "
             "R's `system.time` (user + system) around sdcMicro's call inside R, data already on each side. sdc's "
             "times include building the result (the whole frame copied, details).", "",
             "| records | method | sdc (s) | sdcMicro call | sdcMicro (s) | sdcMicro / sdc (median) |",
             "|---:|---|---:|---|---:|---:|"]
    for r in table.itertuples(index=False):
        lines.append(f"| {r.n:,} | {r.method} | {_f(r.sdc_min)} / {_f(r.sdc_median)} | {r.sdcmicro} | "
                     f"{_f(r.sdcmicro_min)} / {_f(r.sdcmicro_median)} | {r.ratio_median:.1f}x |")
    return lines + ["", "R's `system.time` counts CPU time in steps of 1 ms, and on the shared machine figures of tens "
                    "of milliseconds vary from run to run: the clustpca ratio is the coarse one.", ""]


def put_section(page: str, lines: list[str], title: str = SECTION) -> str:
    """`page` with its section titled `title` replaced by `lines` (appended if absent)."""
    old = page.splitlines()
    start = next((i for i, ln in enumerate(old) if ln == title), None)
    if start is None:
        head, tail = old, []
    else:
        end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
        head, tail = old[:start], old[end:]
    while head and not head[-1]:
        head.pop()
    return "\n".join(head + [""] + lines + tail) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    table = measure(args.repeat)
    table.to_csv(args.out / "benchmark-protect-microaggr.csv", index=False, lineterminator="\n")
    md = args.out / "benchmark-protect.md"
    md.write_text(put_section(md.read_text(encoding="utf-8") if md.exists() else "", section(table, args.repeat)),
                  encoding="utf-8")
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
