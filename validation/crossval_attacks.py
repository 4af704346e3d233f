"""Cross-validation of the distance-based attacks with sdcMicro: dRisk, dRiskRMD, recordLinkage.

    .venv/bin/python -m validation.crossval_attacks [--random 100] [--out validation/results]

Writes ``crossval-attacks.md`` and ``crossval-attacks.csv`` (one row per measure and dataset
group, the :class:`sdc.workflow.crosscheck.Diff` summary) and exits non-zero on a disagreement.
The ``compare_*`` functions are also what ``tests/attacks/test_sdcmicro.py`` runs.

Cases: sdcMicro's datasets (free1's INCOME, MONEY, ASSETS, DEBTS with the golden perturbation
of the reference notes and with noise; Tarragona; testdata2's expend, income, savings; testdata's
categorical keys for Gower linkage) and seeded random ones (ties, integer data, missing values,
every distance, weights, ordered and logical variables).

dRiskRMD's covariance comes from robustbase's random FAST-MCD search; the formula is compared
exactly by giving sdc the covariance robustbase found (same seed). Our own MCD is reported
alongside with a loose tolerance: it can settle on another local optimum, as robustbase does
for another seed.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from sdc.attacks.distance import distance_risk, distance_risk_rmd, record_linkage
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["AttackCase", "compare_d_risk", "compare_d_risk_rmd", "compare_record_linkage", "own_mcd_row", "dataset_cases",
           "random_distance_case", "random_linkage_case", "random_continuous_linkage_case", "with_missing", "run",
           "RTOL"]

RTOL = 1e-9


@dataclass(frozen=True)
class AttackCase:
    name: str
    dataset: str
    x: pd.DataFrame = field(repr=False)
    xm: pd.DataFrame = field(repr=False)
    variables: tuple[str, ...]
    k: float = 0.05
    distance: str = "gower"
    weights: tuple[float, ...] | None = None
    continuous: bool = True  # no tied optimal assignments expected: compare the assignment itself


def _r():  # noqa: ANN202
    from r_bridge import attacks

    return attacks


def _diff(measure: str, case: AttackCase, ours: object, theirs: object, *, rtol: float | None) -> Diff:
    return compare_values(measure, case.name, case.dataset, ours, theirs, rtol=rtol)


# ---------------------------------------------------------------- comparisons
def compare_d_risk(case: AttackCase) -> list[Diff]:
    theirs = _r().d_risk(case.x, case.xm, case.variables, k=case.k)
    ours = distance_risk(case.x, case.xm, case.variables, k=case.k)
    n = len(case.x)
    return [_diff("dRisk: risk", case, ours.risk, theirs, rtol=RTOL),
            _diff("dRisk: records at risk", case, ours.n_at_risk, round(theirs * n), rtol=None)]


def compare_d_risk_rmd(case: AttackCase, *, seed: int = 1, k: float = 0.01, k2: float = 0.05) -> list[Diff]:
    """dRiskRMD(k, k2) with robustbase's covariance (same seed) given to sdc: every figure."""
    r = _r().d_risk_rmd(case.x, case.xm, case.variables, k=k, k2=k2, seed=seed)
    given = distance_risk_rmd(case.x, case.xm, case.variables, k=k, k2=k2, covariance=r["cov"])
    out = [
        _diff("dRiskRMD: risk1, risk2", case, [given.risk1, given.risk2], [r["risk1"], r["risk2"]], rtol=RTOL),
        _diff("dRiskRMD: wrisk1, wrisk2", case, [given.wrisk1, given.wrisk2], [r["wrisk1"], r["wrisk2"]], rtol=RTOL),
        _diff("dRiskRMD: unsafe records (indexRisk1)", case, np.flatnonzero(given.records["unsafe"]), r["indexRisk1"],
              rtol=None),
        _diff("dRiskRMD: isolated records (indexRisk2)", case, np.flatnonzero(given.records["isolated"]),
              r["indexRisk2"], rtol=None),
        _diff("dRiskRMD: riskvec1, riskvec2", case,
              np.r_[given.records["riskvec1"], given.records["riskvec2"]], np.r_[r["riskvec1"], r["riskvec2"]],
              rtol=RTOL),
    ]
    return out


def own_mcd_row(case: AttackCase, *, seed: int = 1) -> dict[str, object]:
    """sdc's own MCD against robustbase's (informational: two random searches, and robustbase's
    small-sample correction factors, which sdc does not apply)."""
    r = _r().d_risk_rmd(case.x, case.xm, case.variables, seed=seed)
    own = distance_risk_rmd(case.x, case.xm, case.variables, seed=seed)
    n = len(case.x)
    cov_rel = float(np.max(np.abs(own.covariance - r["cov"])) / np.max(np.abs(r["cov"])))
    return {"case": case.name, "dataset": case.dataset, "records": n, "variables": len(case.variables),
            "cov_max_rel_diff": cov_rel, "unsafe_sdc": own.n_unsafe, "unsafe_sdcmicro": int(round(r["risk1"] * n)),
            "isolated_sdc": own.n_isolated, "isolated_sdcmicro": int(round(r["risk2"] * n))}


def compare_record_linkage(case: AttackCase) -> list[Diff]:
    r = _r().record_linkage(case.x, case.xm, case.variables, distance=case.distance, weights=case.weights)
    ours = record_linkage(case.x, case.xm, case.variables, distance=case.distance, weights=case.weights,
                          return_matrix=True)
    out = [
        _diff(f"recordLinkage ({case.distance}): distance matrix", case, ours.distance_matrix, r["distance_matrix"],
              rtol=RTOL),
        _diff(f"recordLinkage ({case.distance}): total distance", case, ours.total_distance, r["total_distance"],
              rtol=RTOL),
        _diff(f"recordLinkage ({case.distance}): n_best", case, ours.matches["n_best"], r["n_best"], rtol=None),
    ]
    if case.continuous:
        out.append(_diff(f"recordLinkage ({case.distance}): assignment and correct matches", case,
                         np.r_[ours.matches["y_row"], ours.correct_matches], np.r_[r["y_row"], r["correct_matches"]],
                         rtol=None))
    return out


# ---------------------------------------------------------------- cases
FREE1_NUM = ("INCOME", "MONEY", "ASSETS", "DEBTS")
TARRAGONA_NUM = ("PAID.UP.CAPITAL", "SHORT.TERM.DEBT", "SALES")
TESTDATA2_NUM = ("expend", "income", "savings")


def _noise(x: pd.DataFrame, scale: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return x + rng.normal(size=x.shape) * (x.std().to_numpy() * scale)


def dataset_cases() -> dict[str, list[AttackCase]]:
    """Cases on sdcMicro's datasets, by comparison: ``distance`` (dRisk and dRiskRMD) and ``linkage``."""
    import r_bridge

    free1 = r_bridge.load_dataset("free1")
    fx = free1[list(FREE1_NUM)].astype(float)
    golden = fx.assign(INCOME=np.round(fx["INCOME"], -2), ASSETS=fx["ASSETS"] * 1.05)
    tar = r_bridge.load_dataset("Tarragona")[list(TARRAGONA_NUM)].astype(float)
    td2 = r_bridge.load_dataset("testdata2")[list(TESTDATA2_NUM)].astype(float)
    distance = [
        AttackCase("free1/INCOME rounded, ASSETS x 1.05", "free1", fx, golden, FREE1_NUM),
        AttackCase("free1/noise 1%", "free1", fx, _noise(fx, 0.01, 1), FREE1_NUM),
        AttackCase("free1/noise 1%/k=0.2", "free1", fx, _noise(fx, 0.01, 1), FREE1_NUM, k=0.2),
        AttackCase("Tarragona/noise 10%", "Tarragona", tar, _noise(tar, 0.1, 2), TARRAGONA_NUM),
        AttackCase("Tarragona/noise 1%", "Tarragona", tar, _noise(tar, 0.01, 3), TARRAGONA_NUM),
        AttackCase("testdata2/noise 5%", "testdata2", td2, _noise(td2, 0.05, 4), TESTDATA2_NUM),
    ]
    td = r_bridge.load_dataset("testdata")
    rng = np.random.default_rng(5)
    sub = td.iloc[rng.choice(len(td), 150, replace=False)].reset_index(drop=True)
    cat_vars = ("urbrur", "roof", "walls", "sex", "age")
    sub_m = sub.copy()
    sub_m["age"] = sub_m["age"] + rng.integers(-2, 3, len(sub))
    linkage = [
        AttackCase("Tarragona/200 rows/noise 10%", "Tarragona", tar.iloc[:200].reset_index(drop=True),
                   _noise(tar.iloc[:200].reset_index(drop=True), 0.1, 6), TARRAGONA_NUM, distance="euclidean",
                   continuous=False),
        AttackCase("Tarragona/200 rows/noise 10%", "Tarragona", tar.iloc[:200].reset_index(drop=True),
                   _noise(tar.iloc[:200].reset_index(drop=True), 0.1, 6), TARRAGONA_NUM, distance="manhattan",
                   continuous=False),
        AttackCase("Tarragona/200 rows/noise 10%", "Tarragona", tar.iloc[:200].reset_index(drop=True),
                   _noise(tar.iloc[:200].reset_index(drop=True), 0.1, 6), TARRAGONA_NUM, distance="gower",
                   continuous=False),
        AttackCase("testdata2/noise 5%", "testdata2", td2, _noise(td2, 0.05, 7), TESTDATA2_NUM, distance="gower",
                   weights=(1.0, 2.0, 0.5)),
        AttackCase("testdata/150 rows/age +-2", "testdata", sub, sub_m, cat_vars, distance="gower", continuous=False),
    ]
    return {"distance": distance, "linkage": linkage}


def random_distance_case(seed: int) -> AttackCase:
    """Random numeric data and a perturbation: noise, rounding, integers (ties on the bounds), missing values."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    p = int(rng.integers(1, 5))
    kind = rng.choice(["normal", "integer", "lognormal"])
    if kind == "normal":
        x = rng.normal(size=(n, p)) * rng.uniform(0.1, 100, p)
    elif kind == "integer":
        x = rng.integers(0, 20, size=(n, p)).astype(float)
    else:
        x = rng.lognormal(5, 1, size=(n, p))
    xm = x + rng.normal(size=(n, p)) * x.std(0) * rng.choice([0.0, 0.01, 0.1])
    if rng.random() < 0.3:
        xm = np.round(xm, int(rng.integers(-1, 2)))
    cols = [f"v{j}" for j in range(p)]
    xd, xmd = pd.DataFrame(x, columns=cols), pd.DataFrame(xm, columns=cols)
    return AttackCase(f"random/{seed}", "random", xd, xmd, tuple(cols), k=float(rng.choice([0.05, 0.2, 1.0])))


def with_missing(case: AttackCase, seed: int) -> AttackCase:
    """The case with a few missing values on both sides (dRisk only: dRiskRMD needs complete data)."""
    rng = np.random.default_rng(seed)
    x, xm = case.x.copy(), case.xm.copy()
    x = x.mask(rng.random(x.shape) < 0.05)
    xm = xm.mask(rng.random(xm.shape) < 0.05)
    return AttackCase(case.name + "/NA", case.dataset, x, xm, case.variables, k=case.k)


def random_continuous_linkage_case(seed: int) -> AttackCase:
    """Distinct continuous values and noise: a single optimal assignment, compared as such."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    p = int(rng.integers(1, 4))
    x = pd.DataFrame(rng.normal(size=(n, p)) * rng.uniform(1, 50, p), columns=[f"v{j}" for j in range(p)])
    xm = x + rng.normal(size=x.shape) * x.std(ddof=0).fillna(1).to_numpy() * float(rng.choice([0.05, 0.3, 1.0]))
    distance = str(rng.choice(["gower", "euclidean", "manhattan"]))
    # L1-type costs (Manhattan, Gower, and any distance on one variable) tie whole families of
    # assignments (a1 < a2 < b1 < b2 costs the same either way): only compare the assignment
    # of Euclidean costs on two or more variables.
    return AttackCase(f"random continuous/{seed}", "random continuous", x, xm, tuple(x.columns),
                      distance=distance, continuous=distance == "euclidean" and p >= 2)


def random_linkage_case(seed: int) -> AttackCase:
    """Random mixed data for recordLinkage: numeric, nominal, ordered, logical; missing values; weights."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    distance = str(rng.choice(["gower", "gower", "euclidean", "manhattan"]))
    x = pd.DataFrame({"num": rng.normal(50, 10, n).round(int(rng.integers(0, 3))), "int": rng.integers(0, 6, n) * 1.0})
    if distance == "gower":
        x["nom"] = rng.choice(["a", "b", "c"], n)
        x["ord"] = pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"], ordered=True)
        x["flag"] = rng.choice([True, False], n)
    else:
        x["flag"] = rng.choice([True, False], n)
    xm = x.sample(frac=1.0, random_state=seed).reset_index(drop=True) if rng.random() < 0.3 else x.copy()
    xm["num"] = xm["num"] + rng.normal(0, 2, n)
    xm["int"] = xm["int"] + rng.integers(-1, 2, n)
    if rng.random() < 0.5:  # a few missing values, never a whole record
        for col in ("num", "int"):
            xm.loc[rng.random(n) < 0.1, col] = np.nan
        if "nom" in xm:
            xm.loc[rng.random(n) < 0.1, "nom"] = None
    variables = tuple(x.columns)
    weights = tuple(float(w) for w in rng.uniform(0.2, 3, len(variables))) if distance == "gower" and rng.random() < 0.4 \
        else None
    return AttackCase(f"random/{seed}", "random", x, xm, variables, distance=distance, weights=weights,
                      continuous=False)


# ---------------------------------------------------------------- run and publish
def run(n_random: int) -> tuple[list[Diff], dict[str, float], list[dict[str, object]]]:
    diffs: list[Diff] = []
    timing: dict[str, float] = {}
    mcd_rows: list[dict[str, object]] = []
    cases = dataset_cases()
    t = time.perf_counter()
    for case in cases["distance"]:
        diffs += compare_d_risk(case) + compare_d_risk_rmd(case)
        mcd_rows.append(own_mcd_row(case))
    for seed in range(n_random):
        case = random_distance_case(9000 + seed)
        diffs += compare_d_risk(case) + compare_d_risk(with_missing(case, seed))
        if case.x.shape[0] > 3 * case.x.shape[1] + 2 and (case.x.std() > 0).all() and (case.xm.std() > 0).all():
            diffs += compare_d_risk_rmd(case)
            mcd_rows.append(own_mcd_row(case))
    timing["dRisk/dRiskRMD"] = time.perf_counter() - t
    t = time.perf_counter()
    for case in cases["linkage"]:
        diffs += compare_record_linkage(case)
    for seed in range(n_random):
        case = random_linkage_case(9500 + seed)
        try:
            diffs += compare_record_linkage(case)
        except ValueError:  # a pair with no variable observed in both: both sides refuse
            continue
        diffs += compare_record_linkage(random_continuous_linkage_case(9700 + seed))
    timing["recordLinkage"] = time.perf_counter() - t
    return diffs, timing, mcd_rows


def versions() -> dict[str, str]:
    import r_bridge
    import sdc

    v = r_bridge.versions()
    return {"sdc": sdc.__version__, "R": v["R"].removeprefix("R version "), "sdcMicro": v["sdcMicro"],
            "rpy2": v["rpy2"], "Python": platform.python_version(), "pandas": pd.__version__, "numpy": np.__version__}


def _mcd_markdown(rows: list[dict[str, object]]) -> list[str]:
    df = pd.DataFrame(rows)
    named = df[df["dataset"] != "random"]
    rnd = df[df["dataset"] == "random"]
    head = ("| case | records | cov. max rel. diff | unsafe (sdc / sdcMicro) | isolated (sdc / sdcMicro) |\n"
            "|---|---:|---:|---:|---:|\n")
    body = "".join(f"| {r.case} | {r.records:,} | {r.cov_max_rel_diff:.3g} | {r.unsafe_sdc} / {r.unsafe_sdcmicro} | "
                   f"{r.isolated_sdc} / {r.isolated_sdcmicro} |\n" for r in named.itertuples())
    same = int((rnd["unsafe_sdc"] == rnd["unsafe_sdcmicro"]).sum()) if len(rnd) else 0
    big = rnd[rnd["records"] >= 100]
    return [
        "### sdc's own MCD (informational)",
        "",
        "`distance_risk_rmd(covariance=\"mcd\")` runs sdc's FAST-MCD instead of robustbase's. Two random "
        "searches can stop in different local optima, and robustbase multiplies by small-sample correction "
        "factors (Pison et al. 2002) that sdc does not apply, so this is not an agreement check:",
        "",
        head + body,
        f"Random cases: {len(rnd)} (5 to 300 records, 1 to 4 variables); the number of unsafe records is the same "
        f"in {same}; with 100 records or more ({len(big)} cases) the covariance differs by at most "
        f"{(big['cov_max_rel_diff'].max() if len(big) else float('nan')):.3g} relative and the unsafe count by at most "
        f"{(int((big['unsafe_sdc'] - big['unsafe_sdcmicro']).abs().max()) if len(big) else 0)} records.",
        "",
    ]


def markdown(table: pd.DataFrame, vers: dict[str, str], n_random: int,
             mcd_rows: list[dict[str, object]] | None = None) -> str:
    fmt = table.copy()
    fmt["max_abs_diff"] = fmt["max_abs_diff"].map(lambda x: f"{x:.3g}")
    fmt["max_rel_diff"] = fmt["max_rel_diff"].map(lambda x: f"{x:.3g}")
    fmt["agree"] = fmt["agree"].map({True: "yes", False: "**NO**"})
    head = "| " + " | ".join(fmt.columns) + " |\n|" + "---|" * len(fmt.columns) + "\n"
    body = "".join("| " + " | ".join(str(v) for v in row) + " |\n" for row in fmt.itertuples(index=False))
    return "\n".join([
        "# Cross-validation of the distance-based attacks: sdc vs sdcMicro",
        "",
        f"Generated by `python -m validation.crossval_attacks` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()) + ".",
        "",
        "`dRisk` and `dRiskRMD` (sdc: `distance_risk`, `distance_risk_rmd`): sdcMicro's free1 (with the reference "
        "notes' golden perturbation, dRisk 0.19275, and with noise), Tarragona and testdata2, and "
        f"{n_random} seeded random cases (normal, lognormal and integer data; noise, rounding; k in "
        "{0.05, 0.2, 1}; dRisk also with 5% missing values on each side). dRiskRMD is compared with the "
        "covariance robustbase's `covMcd` found (same seed) given to sdc; sdc's own MCD is listed apart "
        "below. "
        "`recordLinkage` (sdc: `record_linkage`): Tarragona, testdata2 (Gower with weights), testdata "
        f"(categorical keys, ties) and {n_random} random mixed cases (numeric, nominal, ordered, logical, "
        "missing values, weights, every distance) plus as many with distinct continuous values "
        "(`random continuous`). The assignment itself is compared where no tie is "
        "expected: Euclidean costs on two or more continuous variables and testdata2 (Manhattan and Gower "
        "costs are L1 sums, under which whole families of assignments cost the same, and scipy and clue "
        f"may pick different optimal assignments among ties). Risks to {RTOL:g} "
        "relative, counts and records exactly.",
        "",
        head + body,
    ] + (_mcd_markdown(mcd_rows) if mcd_rows else []))


def main(argv: list[str] | None = None) -> int:
    import r_bridge

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100, help="random cases per comparison (default 100)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = ap.parse_args(argv)
    if not r_bridge.is_available():
        print(f"crossval_attacks: {r_bridge.unavailable_reason()}", file=sys.stderr)
        return 2
    diffs, timing, mcd_rows = run(args.random)
    table = summarise(diffs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "crossval-attacks.csv", index=False)
    (out / "crossval-attacks.md").write_text(markdown(table, versions(), args.random, mcd_rows), encoding="utf-8")
    bad = [d for d in diffs if not d.agree]
    print(f"{len(diffs)} comparisons, {len(bad)} disagreements; "
          + ", ".join(f"{k} {v:.1f}s" for k, v in timing.items()) + f"; written to {out}")
    for d in bad[:20]:
        print("DISAGREE:", d.explain())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
