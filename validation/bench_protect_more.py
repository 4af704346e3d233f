"""Speed of every issue-29 method against sdcMicro on the same data, both warm.

    .venv/bin/python -m validation.bench_protect_more [--repeat 3] [--big 100000] [--only NAME ...]

In the style of :mod:`validation.bench_protect_microaggr`: sdcMicro is embedded by rpy2 in this
process; the data are on both sides before any timing (converted to R once); each side makes one
untimed warm call, then ``--repeat`` timed runs in CPU seconds — Python's ``time.process_time``
around sdc's call, R's ``system.time`` (user + system) inside R around sdcMicro's call — reported
as min / median; the ratio is sdcMicro's median over sdc's.

Data: sdcMicro's ``testdata`` (4,580 records); ``big``, testdata resampled with replacement to
``--big`` records (seed 29) with its continuous variables (expend, income, savings) multiplied by
lognormal noise (sd 0.1) so they have no ties — used for the methods that are not quadratic;
``romm``, the first 2,000 records of testdata (ROMM builds an N x N matrix); ``createDat(n)``,
sdcMicro's census file for recordSwap. The released file of the utility measures is sdc's
``microaggregation(method="simple", k=3)`` of the same file (the same frame on both sides).

Writes ``validation/results/benchmark-protect-more.csv`` and puts its table in the section
``## Every issue-29 method against sdcMicro`` of ``benchmark-protect.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

import sdc
from validation.bench_protect_microaggr import _f, put_section

HERE = Path(__file__).resolve().parent
SECTION = "## Every issue-29 method against sdcMicro"
NUM = ["expend", "income", "savings"]
KEYS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]
PRED = ["age", "urbrur", "water", "electcon", "sex"]
GEO = ["nuts1", "nuts2", "nuts3"]
R_LIMIT = 600  # seconds (elapsed) for sdcMicro's warm call and timed runs together; beyond: the row says so
R_NUM = 'c("expend", "income", "savings")'
R_KEYS = 'c("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")'

R_TIMER = """
function(D, M, setup, code, repeats, limit) {
  env <- new.env()
  # numeric columns arrive as 1-d arrays (class "array"), which IL_variables refuses: plain vectors
  plain <- function(df) { if (is.data.frame(df)) for (k in seq_along(df)) if (!is.factor(df[[k]])) dim(df[[k]]) <- NULL; df }
  env$D <- plain(D)
  env$M <- plain(M)
  out <- tryCatch({
    setTimeLimit(elapsed = limit, transient = TRUE)
    on.exit(setTimeLimit())
    eval(parse(text = setup), envir = env)
    f <- eval(parse(text = paste0("function() {", code, "}")), envir = env)
    set.seed(1)
    suppressWarnings(suppressMessages(f()))
    t <- vapply(seq_len(repeats), function(i) {
      set.seed(1)
      sum(system.time(suppressWarnings(suppressMessages(f())))[c("user.self", "sys.self")])
    }, numeric(1))
    list(t = t, err = "")
  }, error = function(e) list(t = rep(NA_real_, repeats), err = conditionMessage(e)))
  out
}
"""


@dataclass(frozen=True)
class Case:
    """One row: a method on one data set, sdc's call and sdcMicro's (R code on ``D``, ``M``)."""

    name: str
    data: str
    method: str
    ours: Callable[[pd.DataFrame, pd.DataFrame | None], Any]
    r_call: str
    r_code: str
    r_setup: str = ""


def _micro(method: str, **kw: Any) -> Callable[[pd.DataFrame, Any], Any]:
    return lambda d, m: sdc.microaggregation(d, NUM, k=3, method=method, **kw)


def _r_micro(method: str, extra: str = "") -> str:
    return (f'sdcMicro::microaggregation(obj = D, variables = {R_NUM}, aggr = 3, method = "{method}"{extra})')


def _micro_cases(data: str, methods: tuple[str, ...]) -> list[Case]:
    out = []
    for m in methods:
        code = _r_micro(m)
        out.append(Case(f"micro_{m}_{data}", data, f"microaggregation {m} (k = 3; expend, income, savings)",
                        _micro(m), f'`microaggregation(df, variables, aggr = 3, method = "{m}")`', code))
    return out


def _measure_cases(data: str) -> list[Case]:
    out = []
    for ms, extra in (("median", ""), ("trim", ", trim = 0.2"), ("onestep", "")):
        kw = {"measure": ms, **({"trim": 0.2} if ms == "trim" else {})}
        out.append(Case(f"micro_single_{ms}_{data}", data, f"microaggregation single, measure {ms}"
                        + (" (trim 0.2)" if ms == "trim" else ""), _micro("single", **kw),
                        f'`microaggregation(df, variables, aggr = 3, method = "single", measure = "{ms}"{extra})`',
                        _r_micro("single", f', measure = "{ms}"{extra}')))
    return out


def _protect_cases(data: str) -> list[Case]:
    td_keys = "sdcMicro::createSdcObj(D, keyVars = %s, weightVar = \"sampling_weight\")" % R_KEYS
    return [
        Case(f"restr_{data}", data, "add_noise restr (noise 150)",
             lambda d, m: sdc.add_noise(d, NUM, method="restr", noise=150),
             '`addNoise(df, variables, noise = 150, method = "restr")`',
             f'sdcMicro::addNoise(D, variables = {R_NUM}, noise = 150, method = "restr")'),
        Case(f"outdect_{data}", data, "add_noise outdect (noise 150)",
             lambda d, m: sdc.add_noise(d, NUM, method="outdect", noise=150, seed=1),
             '`addNoise(df, variables, noise = 150, method = "outdect")`',
             f'sdcMicro::addNoise(D, variables = {R_NUM}, noise = 150, method = "outdect")'),
        Case(f"shuffle_{data}", data, "shuffle ds (expend, income, savings ~ age, urbrur, water, electcon, sex)",
             lambda d, m: sdc.shuffle(d, NUM, predictors=PRED, method="ds", seed=1),
             '`shuffle(df, form = expend + income + savings ~ age + urbrur + water + electcon + sex)`',
             'sdcMicro::shuffle(D, form = expend + income + savings ~ age + urbrur + water + electcon + sex, '
             'method = "ds")'),
        Case(f"mvtop_{data}", data, "mv_top_code (alpha 0.025; expend, income, savings; its own MCD)",
             lambda d, m: sdc.mv_top_code(d, NUM, alpha=0.025, seed=1),
             "`mvTopCoding(df[variables], alpha = 0.025)`",
             f"sdcMicro::mvTopCoding(D[{R_NUM}], alpha = 0.025)"),
        Case(f"localsupp_{data}", data, "local_suppression_by_risk (7 keys, weights, urbrur at 0.02)",
             lambda d, m: sdc.local_suppression_by_risk(d, KEYS, variable="urbrur", threshold=0.02,
                                                        weights="sampling_weight"),
             "`localSupp(createSdcObj(df, keyVars, weightVar), threshold = 0.02, keyVar = \"urbrur\")` "
             "(createSdcObj's risk timed too: sdc computes it in the call)",
             f'sdcMicro::localSupp({td_keys}, threshold = 0.02, keyVar = "urbrur")'),
        Case(f"ghost_{data}", data, "add_ghost_vars (hhcivil, expend linked to roof, roof 5 % missing)",
             lambda d, m: sdc.add_ghost_vars(m, ["hhcivil", "expend"], key_var="roof"),
             "`addGhostVars(sdcObj, keyVar = \"roof\", ghostVars = c(\"hhcivil\", \"expend\"))` "
             "(the object built untimed from the same suppressed file)",
             'sdcMicro::addGhostVars(obj, keyVar = "roof", ghostVars = c("hhcivil", "expend"))',
             r_setup=f"obj <- sdcMicro::createSdcObj(M, keyVars = {R_KEYS})"),
        Case(f"risky_{data}", data, "risky_cells (5 keys, max_dim 4, thresholds 50/25/10/5)",
             lambda d, m: sdc.risky_cells(d, KEYS[:5], threshold=[50, 25, 10, 5], max_dim=4),
             "`riskyCells(df, keyVars, threshold = c(50, 25, 10, 5), useIdentificationLevel = FALSE, maxDim = 4)`",
             'sdcMicro::riskyCells(D, keyVars = c("urbrur", "roof", "walls", "water", "electcon"), '
             'threshold = c(50, 25, 10, 5), useIdentificationLevel = FALSE, maxDim = 4)'),
        Case(f"robeigen_{data}", data, "robust_eigen_loss (expend, income, savings vs their simple k = 3)",
             lambda d, m: sdc.robust_eigen_loss(d, m, NUM, seed=1),
             "`dUtility(obj = x, xm = xm, method = \"robeigen\")`",
             f'sdcMicro::dUtility(obj = D[{R_NUM}], xm = M[{R_NUM}], method = "robeigen")'),
        Case(f"ilcorrel_{data}", data, "il_correl (expend, income, savings vs their simple k = 3)",
             lambda d, m: sdc.il_correl(d, m, NUM), "`IL_correl(x, xm)`",
             f"sdcMicro::IL_correl(x = D[{R_NUM}], xm = M[{R_NUM}])"),
        Case(f"ilvars_{data}", data, "il_variables (expend, income, savings vs their simple k = 3)",
             lambda d, m: sdc.il_variables(d, m, NUM), "`IL_variables(x, xm)`",
             f"sdcMicro::IL_variables(x = D[{R_NUM}], xm = M[{R_NUM}])"),
    ]


def _swap_case(data: str) -> Case:
    return Case(f"swap_{data}", data, "record_swap (nuts1 > nuts2 > nuts3, similar hsize, rate 0.05, k 3, "
                "risk ageGroup, national)",
                lambda d, m: sdc.record_swap(d, GEO, hid="hid", similar=["hsize"], swaprate=0.05, k_anonymity=3,
                                             risk_variables=["ageGroup", "national"], seed=1),
                "`recordSwap(df, hid, hierarchy, similar = list(\"hsize\"), swaprate = 0.05, k_anonymity = 3, "
                "risk_variables)`",
                'sdcMicro::recordSwap(D, hid = "hid", hierarchy = c("nuts1", "nuts2", "nuts3"), similar = list("hsize"), '
                'swaprate = 0.05, k_anonymity = 3, risk_variables = c("ageGroup", "national"), seed = 1L, '
                'log_file_name = tempfile())')


MICRO_ALL = ("simple", "single", "pca", "mcdpca", "pppca", "rmd", "clustpca", "clustpppca", "clustmcdpca",
             "influence", "mafast")
MICRO_BIG = ("simple", "single", "pca", "mcdpca", "clustpca", "mafast")  # pppca: sdcMicro 14.6 s at 4,580 already


def cases() -> list[Case]:
    """Every row, in the table's order."""
    out = _micro_cases("testdata", MICRO_ALL) + _measure_cases("testdata")
    out.append(Case("romm", "romm", "add_noise ROMM (p 0.001)",
                    lambda d, m: sdc.add_noise(d, NUM, method="ROMM", p=0.001, seed=1),
                    '`addNoise(df, variables, method = "ROMM", p = 0.001)`',
                    f'sdcMicro::addNoise(D, variables = {R_NUM}, method = "ROMM", p = 0.001)'))
    out += _protect_cases("testdata")
    out += [_swap_case("createDat(2000)"), _swap_case("createDat(20000)")]
    out += _micro_cases("big", MICRO_BIG) + _measure_cases("big")[:1] + _protect_cases("big")
    return out


def datasets(big: int) -> dict[str, pd.DataFrame]:
    """The data sets by name (see the module's docstring)."""
    import r_bridge as rb
    import r_bridge.protection as rp

    td = rb.load_dataset("testdata")
    td[NUM] = td[NUM].astype(float)
    rng = np.random.default_rng(29)
    b = td.iloc[rng.integers(0, len(td), big)].reset_index(drop=True)
    b[NUM] = b[NUM] * rng.lognormal(0, 0.1, (big, len(NUM)))
    return {"testdata": td, "big": b, "romm": td.iloc[:2000].reset_index(drop=True),
            "createDat(2000)": rp.create_dat(2000, 1), "createDat(20000)": rp.create_dat(20000, 1)}


def released(d: pd.DataFrame) -> pd.DataFrame:
    """The second file of a case: the utility measures' release (simple k = 3 of NUM) with 5 % of
    roof missing (the suppressed key the ghost variables follow)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = sdc.microaggregation(d, NUM, k=3, method="simple").data
    rng = np.random.default_rng(5)
    return m.assign(roof=m["roof"].astype(float).mask(rng.random(len(m)) < 0.05))


def _time_ours(fn: Callable[[], Any], repeat: int) -> tuple[list[float], str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
            out = []
            for _ in range(repeat):
                t = time.process_time()
                fn()
                out.append(time.process_time() - t)
        return out, ""
    except Exception as e:  # noqa: BLE001 - the row says so
        return [float("nan")] * repeat, f"{type(e).__name__}: {e}"


def measure(repeat: int, big: int, only: list[str] | None = None, partial: Path | None = None) -> pd.DataFrame:
    """One row per case: sdc's and sdcMicro's CPU seconds (min, median), the ratio, errors."""
    import rpy2.robjects as ro

    from r_bridge.convert import to_r_frame

    data = datasets(big)
    rel = {k: released(v) for k, v in data.items() if k in ("testdata", "big")}
    r_data = {k: to_r_frame(v) for k, v in data.items()}
    r_rel = {k: to_r_frame(v) for k, v in rel.items()}
    timer = ro.r(R_TIMER)
    rows = []
    for c in cases():
        if only and not any(o in c.name for o in only):
            continue
        d, m = data[c.data], rel.get(c.data)
        mine, err = _time_ours(lambda: c.ours(d, m), repeat)
        res = timer(r_data[c.data], r_rel.get(c.data, ro.NULL), c.r_setup, c.r_code, repeat, R_LIMIT)
        theirs, r_err = [float(x) for x in res.rx2("t")], str(res.rx2("err")[0])
        rows.append({"case": c.name, "n": len(d), "data": c.data, "method": c.method, "sdc_min": min(mine),
                     "sdc_median": statistics.median(mine), "sdcmicro": c.r_call, "sdcmicro_min": min(theirs),
                     "sdcmicro_median": statistics.median(theirs), "sdc_error": err, "sdcmicro_error": r_err})
        print(rows[-1]["case"], rows[-1]["sdc_median"], rows[-1]["sdcmicro_median"], err, r_err, flush=True)
        if partial is not None:
            pd.DataFrame(rows).to_csv(partial, index=False, lineterminator="\n")
    table = pd.DataFrame(rows)
    table["ratio_median"] = table["sdcmicro_median"] / table["sdc_median"]
    return table


def _cell(x: float) -> str:
    return "—" if not np.isfinite(x) else _f(x)


def section(table: pd.DataFrame, repeat: int, big: int, argv: list[str]) -> list[str]:
    """The markdown section of benchmark-protect.md."""
    import r_bridge as rb

    v = rb.versions()
    cmd = " ".join(["python -m validation.bench_protect_more", *argv])
    lines = [SECTION, "",
             f"Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `{cmd}`; R "
             f"{v['R'].removeprefix('R version ')}, sdcMicro {v['sdcMicro']} (embedded by rpy2 in the same process). "
             "Data on both sides before timing, one untimed warm call each, then "
             f"{repeat} timed runs in CPU seconds (min / median): Python's `time.process_time` around sdc's call, R's "
             "`system.time` (user + system) around sdcMicro's call inside R. Data: sdcMicro's testdata (4,580 "
             f"records); *big*: testdata resampled to {big:,} records (seed 29, expend/income/savings times lognormal "
             "noise, sd 0.1) for the methods that are not quadratic; *romm*: testdata's first 2,000 records; "
             "createDat(n) with set.seed(1) for recordSwap. The utility measures compare the file with sdc's "
             "`microaggregation(method=\"simple\", k=3)` of it. sdc's times include building the result.", "",
             "| records | method | sdc (s) | sdcMicro call | sdcMicro (s) | sdcMicro / sdc (median) |",
             "|---:|---|---:|---|---:|---:|"]
    for r in table.itertuples(index=False):
        ratio = f"{r.ratio_median:.1f}x" if np.isfinite(r.ratio_median) else "—"
        call = r.sdcmicro + (f" — **sdcMicro fails**: {r.sdcmicro_error}" if r.sdcmicro_error else "")
        method = r.method + (f" — **sdc fails**: {r.sdc_error}" if r.sdc_error else "")
        lines.append(f"| {r.n:,} | {method} | {_cell(r.sdc_min)} / {_cell(r.sdc_median)} | {call} | "
                     f"{_cell(r.sdcmicro_min)} / {_cell(r.sdcmicro_median)} | {ratio} |")
    return lines + ["", "R's `system.time` counts CPU time in steps of 1 ms; figures of a few milliseconds vary from "
                    "run to run on the shared machine.", ""]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big", type=int, default=100_000)
    ap.add_argument("--only", nargs="*", help="cases whose name contains one of these (no files written)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--from-csv", action="store_true", help="only rewrite the section from the CSV")
    ap.add_argument("--csv", type=Path, help="with --only: write its rows here (to merge into the CSV by case)")
    ap.add_argument("--merge", nargs="*", type=Path, help="CSVs of --only runs to merge into the CSV (then the section)")
    args = ap.parse_args(argv)
    csv = args.out / "benchmark-protect-more.csv"
    if args.merge:  # rows of several --only runs, the last of a case kept, in the table's order
        parts = pd.concat([pd.read_csv(f, keep_default_na=False, na_values=[""]) for f in args.merge])
        parts = parts.drop_duplicates("case", keep="last").set_index("case")
        parts.reindex([c.name for c in cases() if c.name in parts.index]).reset_index().to_csv(
            csv, index=False, lineterminator="\n")
        args.from_csv = True
    if args.from_csv:
        table = pd.read_csv(csv, keep_default_na=False, na_values=[""])
        table[["sdc_error", "sdcmicro_error"]] = table[["sdc_error", "sdcmicro_error"]].fillna("")
        table["ratio_median"] = table["sdcmicro_median"] / table["sdc_median"]
    else:
        table = measure(args.repeat, args.big, args.only, args.csv if args.only else csv)
    print(table.drop(columns=["sdcmicro", "method"]).to_string(index=False))
    if args.only:
        return 0
    if not args.from_csv:
        table.to_csv(csv, index=False, lineterminator="\n")
        argv_doc = argv
    else:
        argv_doc = ["--repeat", str(args.repeat), "--big", str(args.big), "(in parts: --only CASES --csv PART, then "
                    "--merge PART ...)"]
    md = args.out / "benchmark-protect.md"
    md.write_text(put_section(md.read_text(encoding="utf-8") if md.exists() else "",
                              section(table, args.repeat, args.big, argv_doc), SECTION), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
