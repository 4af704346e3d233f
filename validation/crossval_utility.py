"""sdc's utility measures vs sdcMicro's ``dUtility``, live through r_bridge.

    .venv/bin/python -m validation.crossval_utility [--random 150] [--out validation/results]

Compares, case by case, sdcMicro's ``dUtility(x, xm, method = m)`` for m in IL1, IL1old,
IL1s and eigen with :func:`sdc.il1s` (``relative_total``, ``mean``, ``total``) and
:func:`sdc.eigen_similarity` (``sdcmicro_eigen``), and the ``utility`` slot of an sdcMicro
object after ``addNoise``/``microaggregation`` (il1, il1s, eigen) with sdc's figures on the
data sdcMicro released. Cases: sdcMicro's datasets (free1, Tarragona, testdata,
CASCrefmicrodata, EIA) protected in this script with seeded noise, rounding or a
one-dimensional microaggregation, the golden values of the reference notes, and seeded
random datasets with missing values, zeros, ties and constant columns. Writes
``crossval_utility.md`` and ``crossval_utility.csv`` and exits non-zero on a disagreement.

The rows are :class:`sdc.workflow.crosscheck.Diff` rows, so they can join the main table.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import r_bridge
import sdc
from sdc.exceptions import SdcWarning
from sdc.workflow.crosscheck import Diff, summarise

__all__ = ["UtilityCase", "dataset_cases", "random_cases", "random_case", "sdc_obj_cases", "compare_utility",
           "compare_sdc_obj", "run", "TOLERANCES"]

#: (relative, absolute) tolerance per compared figure. Sums of the same terms in another order
#: agree to ~1e-15 relative; eigenvalue differences lose digits when the spectra are close
#: (sdcMicro's eigen of an almost unchanged file is rounding noise, ~1e-16), hence the absolute part.
TOLERANCES = {"IL1": (1e-12, 0.0), "IL1old": (1e-12, 0.0), "IL1s": (1e-12, 0.0), "eigen": (1e-7, 1e-12)}


@dataclass(frozen=True)
class UtilityCase:
    """An original file, a released one, and the numeric variables to compare."""

    name: str
    dataset: str
    original: pd.DataFrame = field(repr=False)
    released: pd.DataFrame = field(repr=False)
    variables: tuple[str, ...]


def _diff(measure: str, case_name: str, dataset: str, ours: float, theirs: float, rtol: float, atol: float) -> Diff:
    a, b = float(ours), float(theirs)
    if (math.isnan(a) and math.isnan(b)) or a == b:  # NaN == NaN (NA), inf == inf
        return Diff(measure, case_name, dataset, 1, 0.0, 0.0, True, False, rtol)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return Diff(measure, case_name, dataset, 1, math.inf, math.inf, False, False, rtol)
    absd = abs(a - b)
    reld = absd / max(abs(a), abs(b))
    return Diff(measure, case_name, dataset, 1, absd, reld, absd <= atol + rtol * abs(b), False, rtol)


# ----------------------------------------------------------------------------------------------
# Protection in this script (simple, seeded): noise, rounding, one-dimensional microaggregation.
# ----------------------------------------------------------------------------------------------

def add_noise(x: pd.DataFrame, pct: float, seed: int) -> pd.DataFrame:
    """Uncorrelated noise with sd = pct % of each column's sd (sdcMicro's addNoise "additive")."""
    rng = np.random.default_rng(seed)
    out = x.astype("float64")
    for c in out.columns:
        out[c] = out[c] + rng.normal(scale=pct / 100 * float(out[c].std()), size=len(out))
    return out


def microaggregate(x: pd.DataFrame, k: int = 3) -> pd.DataFrame:
    """Each column on its own: sorted values in groups of k (the last group takes the rest), group means."""
    out = x.astype("float64")
    n = len(out)
    for c in out.columns:
        v = out[c].to_numpy()
        order = np.argsort(v, kind="stable")
        groups = np.minimum(np.arange(n) // k, max(n // k - 1, 0))
        means = np.bincount(groups, weights=v[order]) / np.bincount(groups)
        res = np.empty(n)
        res[order] = means[groups]
        out[c] = res
    return out


def dataset_cases() -> list[UtilityCase]:
    from r_bridge import load_dataset

    cases: list[UtilityCase] = []
    free1 = load_dataset("free1")
    f = free1[["INCOME", "MONEY", "ASSETS", "DEBTS"]]
    golden = f.assign(INCOME=np.round(f["INCOME"], -2), ASSETS=f["ASSETS"] * 1.05)
    cases.append(UtilityCase("free1/golden: INCOME rounded, ASSETS x1.05", "free1", f, golden, tuple(f.columns)))
    tar = load_dataset("Tarragona")
    t3 = tar.iloc[:, 4:7]
    tg = t3.copy()
    tg.iloc[:, 0] = tg.iloc[:, 0] + 10
    tg.iloc[:, 1] = np.round(tg.iloc[:, 1], -3)
    cases.append(UtilityCase("Tarragona[,5:7]/golden: +10, rounded", "Tarragona", t3, tg, tuple(t3.columns)))
    td = load_dataset("testdata")
    # PTOTVAL = POTHVAL + PEARNVAL: with all 13 variables the correlation matrix is singular and
    # sdcMicro's eigen divides by a zero eigenvalue (rounding noise on both sides; sdc warns).
    casc = load_dataset("CASCrefmicrodata").drop(columns="PTOTVAL")
    eia = load_dataset("EIA")
    sets = [
        ("free1", f), ("Tarragona", tar), ("testdata", td[["expend", "income", "savings"]]),
        ("CASCrefmicrodata", casc), ("EIA", eia[["RESREVENUE", "RESSALES", "COMREVENUE", "COMSALES", "TOTREVENUE"]]),
    ]
    for name, x in sets:
        for pct, seed in ((5, 1), (50, 2), (150, 3)):
            cases.append(UtilityCase(f"{name}/noise {pct}%", name, x, add_noise(x, pct, seed), tuple(x.columns)))
        for k in (3, 10):
            cases.append(UtilityCase(f"{name}/microaggregation k={k}", name, x, microaggregate(x, k), tuple(x.columns)))
    return cases


def random_case(seed: int) -> UtilityCase:
    """Small data built to hit the edge cases: missing values on either side, zeros (IL1 skips
    them), ties, integer columns, a constant column now and then, one variable."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 60))
    p = int(rng.integers(1, 6))
    cols = {}
    rel = {}
    for j in range(p):
        kind = rng.choice(["int", "float", "zeros", "const"], p=[0.35, 0.45, 0.15, 0.05])
        if kind == "int":
            v = rng.integers(-3, 8, n).astype(float)
        elif kind == "float":
            v = rng.normal(loc=float(rng.normal(0, 50)), scale=float(rng.uniform(0.5, 20)), size=n).round(2)
        elif kind == "zeros":
            v = np.where(rng.random(n) < 0.4, 0.0, rng.integers(1, 5, n).astype(float))
        else:
            v = np.full(n, 3.0)
        w = v + np.where(rng.random(n) < 0.6, rng.normal(scale=float(rng.uniform(0.01, 3)), size=n), 0.0)
        if rng.random() < 0.2:
            w = np.round(w)
        if rng.random() < 0.5:
            v = np.where(rng.random(n) < 0.1, np.nan, v)
        if rng.random() < 0.5:
            w = np.where(rng.random(n) < 0.1, np.nan, w)
        cols[f"v{j}"] = v
        rel[f"v{j}"] = w
    x, y = pd.DataFrame(cols), pd.DataFrame(rel)
    # integer columns reach R as integers when they are whole and complete
    for c in x.columns:
        if x[c].notna().all() and (x[c] == np.round(x[c])).all() and rng.random() < 0.5:
            x[c] = x[c].astype(np.int64)
    return UtilityCase(f"random/{seed}", "random", x, y, tuple(x.columns))


def random_cases(n: int = 150, seed: int = 11_000) -> list[UtilityCase]:
    return [random_case(seed + i) for i in range(n)]


def compare_utility(case: UtilityCase) -> list[Diff]:
    """``dUtility(method = IL1, IL1old, IL1s, eigen)`` vs :func:`sdc.il1s` and :func:`sdc.eigen_similarity`."""
    theirs = r_bridge.d_utility_all(case.original, case.released, case.variables, ("IL1", "IL1old", "IL1s", "eigen"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        il = sdc.il1s(case.original, case.released, case.variables)
        ev = sdc.eigen_similarity(case.original, case.released, case.variables)
    ours = {"IL1": il.relative_total, "IL1old": il.mean, "IL1s": il.total, "eigen": ev.sdcmicro_eigen}
    return [_diff(f"dUtility: {m}", case.name, case.dataset, ours[m], theirs[m], *TOLERANCES[m]) for m in ours]


def sdc_obj_cases() -> list[tuple[str, str, pd.DataFrame, tuple[str, ...], tuple[str, ...], dict]]:
    """(name, dataset, data, keys, numVars, protection) for sdcMicro-object cases."""
    from r_bridge import load_dataset

    td = load_dataset("testdata")
    casc = load_dataset("CASCrefmicrodata")
    tar = load_dataset("Tarragona")
    casc = casc.assign(key=np.arange(len(casc)) % 3)
    tar = tar.assign(key=np.arange(len(tar)) % 4)
    keys_td = ("urbrur", "roof", "walls", "water", "sex")
    return [
        ("testdata/addNoise 150", "testdata", td, keys_td, ("expend", "income", "savings"),
         {"method": "addNoise", "noise": 150.0, "seed": 1}),
        ("testdata/microaggregation mdav 3", "testdata", td, keys_td, ("expend", "income", "savings"),
         {"method": "microaggregation", "aggr": 3, "aggr_method": "mdav", "seed": 1}),
        ("CASCrefmicrodata/microaggregation mdav 5", "CASCrefmicrodata", casc, ("key",),
         ("AFNLWGT", "AGI", "EMCONTRB", "FEDTAX", "PTOTVAL", "STATETAX", "TAXINC"),
         {"method": "microaggregation", "aggr": 5, "aggr_method": "mdav", "seed": 2}),
        ("Tarragona/addNoise 50", "Tarragona", tar, ("key",), tuple(c for c in tar.columns if c != "key"),
         {"method": "addNoise", "noise": 50.0, "seed": 3}),
    ]


def compare_sdc_obj(name: str, dataset: str, data: pd.DataFrame, keys: tuple[str, ...], num_vars: tuple[str, ...],
                    protection: dict) -> list[Diff]:
    """``sdc@utility`` after protection in sdcMicro vs sdc's figures on the data sdcMicro released."""
    u = r_bridge.sdc_obj_utility(data, keys, num_vars, **protection)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        il = sdc.il1s(data, u.manipulated, num_vars)
        ev = sdc.eigen_similarity(data, u.manipulated, num_vars)
    return [
        _diff("createSdcObj utility: il1", name, dataset, il.relative_total, u.il1, *TOLERANCES["IL1"]),
        _diff("createSdcObj utility: il1s", name, dataset, il.total, u.il1s, *TOLERANCES["IL1s"]),
        _diff("createSdcObj utility: eigen", name, dataset, ev.sdcmicro_eigen, u.eigen, *TOLERANCES["eigen"]),
    ]


def run(n_random: int = 150) -> tuple[list[Diff], dict[str, float]]:
    diffs: list[Diff] = []
    timing: dict[str, float] = {}
    t = time.perf_counter()
    for case in dataset_cases():
        diffs.extend(compare_utility(case))
    timing["datasets"] = time.perf_counter() - t
    t = time.perf_counter()
    for case in random_cases(n_random):
        diffs.extend(compare_utility(case))
    timing["random"] = time.perf_counter() - t
    t = time.perf_counter()
    for spec in sdc_obj_cases():
        diffs.extend(compare_sdc_obj(*spec))
    timing["sdcMicro objects"] = time.perf_counter() - t
    return diffs, timing


def markdown(table: pd.DataFrame, vers: dict[str, str], n_random: int) -> str:
    fmt = table.copy()
    fmt["max_abs_diff"] = fmt["max_abs_diff"].map(lambda x: f"{x:.3g}")
    fmt["max_rel_diff"] = fmt["max_rel_diff"].map(lambda x: f"{x:.3g}")
    fmt["agree"] = fmt["agree"].map({True: "yes", False: "**NO**"})
    head = "| " + " | ".join(fmt.columns) + " |\n|" + "---|" * len(fmt.columns) + "\n"
    body = "".join("| " + " | ".join(str(v) for v in row) + " |\n" for row in fmt.itertuples(index=False))
    tol = "; ".join(f"{m}: rel {r:g}" + (f" + abs {a:g}" if a else "") for m, (r, a) in TOLERANCES.items())
    return "\n".join([
        "# Cross-validation of the utility measures: sdc vs sdcMicro's dUtility",
        "",
        f"Generated by `python -m validation.crossval_utility` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()) + ".",
        "",
        "`dUtility` rows: sdcMicro's `dUtility(x, xm, method = m)` against `sdc.il1s` (IL1 = `relative_total`, "
        "IL1old = `mean`, IL1s = `total`) and `sdc.eigen_similarity` (eigen = `sdcmicro_eigen`) on sdcMicro's "
        "datasets free1 (INCOME, MONEY, ASSETS, DEBTS), Tarragona (13 variables), testdata (expend, income, "
        "savings), CASCrefmicrodata (12: without PTOTVAL, the sum of two others, which makes the correlation "
        "matrix singular and sdcMicro's eigen rounding noise) and EIA (5 revenue/sales variables), each protected here with seeded "
        "noise (5, 50, 150 % of the sd) and a one-dimensional microaggregation (k = 3, 10), plus the two golden "
        f"cases of the reference notes; and {n_random} seeded random datasets (1 to 5 variables, 4 to 59 "
        "records, missing values on either side, zeros, ties, integer columns, constant columns). "
        "`createSdcObj utility` rows: the `utility` slot of an sdcMicro object after sdcMicro's own `addNoise` or "
        "`microaggregation` (mdav) against sdc on the data sdcMicro released. "
        f"Agreement: |ours - theirs| <= abs + rel * |theirs| ({tol}); NA and NaN agree with each other, "
        "infinite values only with the same infinity.",
        "",
        head + body,
        "Deliberate differences (see docs/utility.md): sdc refuses files with different records with a clear "
        "error (sdcMicro 5.8.2's dUtility means to truncate the release but fails with \"object 'obj' not "
        "found\"); sdc's `eigen_similarity.percent` uses pairwise Pearson correlations where sdcMicro's eigen "
        "matrix scales by whole-column sds (they coincide without missing values).",
        "",
    ])


def versions() -> dict[str, str]:
    v = r_bridge.versions()
    return {"sdc": sdc.__version__, "R": v["R"].removeprefix("R version "), "sdcMicro": v["sdcMicro"],
            "rpy2": v["rpy2"], "Python": platform.python_version(), "pandas": pd.__version__, "numpy": np.__version__}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=150, help="random datasets (default 150)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args(argv)
    if not r_bridge.is_available():
        print(f"crossval_utility: {r_bridge.unavailable_reason()}", file=sys.stderr)
        return 2
    diffs, timing = run(args.random)
    table = summarise(diffs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "crossval_utility.csv", index=False)
    (out / "crossval_utility.md").write_text(markdown(table, versions(), args.random), encoding="utf-8")
    bad = [d for d in diffs if not d.agree]
    print(f"{len(diffs)} comparisons, {len(bad)} disagreements; "
          + ", ".join(f"{k} {v:.1f}s" for k, v in timing.items()) + f"; written to {out}")
    for d in bad[:20]:
        print("DISAGREE:", d.explain())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
