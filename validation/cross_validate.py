"""Run the whole native-vs-sdcMicro comparison and publish the table.

    .venv/bin/python -m validation.cross_validate [--random 300] [--out validation/results]

Writes ``cross_validation.md`` and ``cross_validation.csv`` (measure, dataset, cases,
values, max abs diff, max rel diff, agree, tolerance) with the R, sdcMicro, Python, pandas
and numpy versions, and exits non-zero if anything disagrees.

    .venv/bin/python -m validation.cross_validate --refresh record_swap   # or gower, clust, shuffle, more, local_recoding, utility_more

re-runs only one group of rows (:data:`REFRESH`) and puts them in place of that group's rows
of the published table, keeping the others (and saying when each part was generated).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import r_bridge
from sdc import __version__
from validation.cases import (
    golden_cases, random_cases, random_household_cases, random_ldiversity_cases, random_modrisk_cases, random_suda_cases,
    sdcmicro_case, sdcmicro_cases,
)
from validation.compare import RTOL, RTOL_SUMS, Diff, compare_case, compare_ldiversity, summarise

ALL = ("freqCalc", "measure_risk", "createSdcObj", "indivRisk_exact")


def run(n_random: int, n_suda: int = 200, n_methods: int = 100) -> tuple[list[Diff], dict[str, float]]:
    diffs: list[Diff] = []
    timing: dict[str, float] = {}
    groups = [("golden", golden_cases(), ALL), ("sdcMicro datasets", sdcmicro_cases(), ALL),
              ("random", random_cases(n_random), ALL)]
    for label, cases, which in groups:
        t = time.perf_counter()
        for case in cases:
            diffs.extend(compare_case(case, which))
        timing[label] = time.perf_counter() - t
    t = time.perf_counter()
    # l-diversity: testdata with electcon / electcon + relat at c = 1, 2, 3, and random datasets.
    td = sdcmicro_case("testdata/5 keys")
    for sens in (("electcon",), ("electcon", "relat")):
        for c in (1.0, 2.0, 3.0):
            diffs.extend(compare_ldiversity(replace(td, name=f"testdata/{'+'.join(sens)}/c={c:g}", sensitive=sens), c=c))
    for case in random_ldiversity_cases(n_random):
        diffs.extend(compare_ldiversity(case))
    timing["ldiversity"] = time.perf_counter() - t
    t = time.perf_counter()
    # SUDA2 (both weightings), household risk and modRisk.
    for case in [replace(sdcmicro_case("testdata/7 keys"), dataset="testdata"),
                 replace(sdcmicro_case("free1/5 keys/w"), dataset="free1"),
                 replace(sdcmicro_case("testdata2/7 keys/w"), dataset="testdata2")] + random_suda_cases(n_suda):
        diffs.extend(compare_case(case, ("suda2", "suda2_ihsn")))
    timing["suda2"] = time.perf_counter() - t
    t = time.perf_counter()
    for case in [sdcmicro_case("testdata/5 keys/w/hid"), sdcmicro_case("testdata/7 keys/w")] + random_household_cases(n_suda):
        diffs.extend(compare_case(case, ("household",)))
    timing["household"] = time.perf_counter() - t
    t = time.perf_counter()
    td2 = sdcmicro_case("testdata2/7 keys/w")
    for case in [replace(td2, name="testdata2/sex+water+roof", keys=("sex", "water", "roof"))] + random_modrisk_cases(n_suda):
        diffs.extend(compare_case(case, ("modRisk",)))
    timing["modRisk"] = time.perf_counter() - t
    t = time.perf_counter()
    # Snapshots: every subset of testdata's 5 keys, each checked against measure_risk.
    for case in (sdcmicro_case("testdata/5 keys"), sdcmicro_case("testdata/5 keys/w")):
        diffs.extend(compare_case(case, ("snapshots",)))
    timing["snapshots"] = time.perf_counter() - t
    if n_methods:
        diffs.extend(_methods(n_methods, timing))
    return diffs, timing


def _methods(n_random: int, timing: dict[str, float]) -> list[Diff]:
    """The protection methods, the utility measures and the attack measures: each module
    also publishes its own detailed table; their rows join the one table here."""
    from validation import crossval_attacks, crossval_protect, crossval_suppression, crossval_utility

    diffs: list[Diff] = []
    t = time.perf_counter()
    diffs.extend(crossval_protect.protect_diffs(n_random))
    timing["protection (recode, PRAM, noise, swap, pseudonyms)"] = time.perf_counter() - t
    t = time.perf_counter()
    diffs.extend(crossval_suppression.run(n_random)[0])
    timing["localSuppression, microaggregation"] = time.perf_counter() - t
    t = time.perf_counter()
    diffs.extend(crossval_utility.run(n_random)[0])
    timing["dUtility"] = time.perf_counter() - t
    t = time.perf_counter()
    diffs.extend(crossval_attacks.run(n_random)[0])
    timing["dRisk, dRiskRMD, record linkage"] = time.perf_counter() - t
    for make, _, label in REFRESH.values():  # the groups --refresh can also re-run alone
        t = time.perf_counter()
        diffs.extend(make(n_random))
        timing[label] = time.perf_counter() - t
    return diffs


def _record_swap(n_random: int) -> list[Diff]:
    """recordSwap and infoLoss on createDat(2000) and a few seeded createDat files (each file costs
    sdcMicro about 10 s: 4 files for the default 100 random cases)."""
    from validation import crossval_record_swap

    return crossval_record_swap.record_swap_diffs(max(1, n_random // 25))


def _gower(n_random: int) -> list[Diff]:
    """microaggrGower on testdata, testdata2 and `n_random` small random mixed files (one R call)."""
    from validation import crossval_microaggr

    return crossval_microaggr.gower_diffs(n_random)


def _clust(n_random: int) -> list[Diff]:
    """The clustering microaggregation methods (pam, clara) and mafast on n_random / 10 random files each."""
    from validation import crossval_microaggr

    return crossval_microaggr.clust_diffs(n_random)


def _shuffle(n_random: int) -> list[Diff]:
    """shuffle: ds (spearman, pearson; mcd where the h-subsets agree) with R's draw replayed,
    mlm against R's lm, mvn by its invariants (testdata and `n_random` random files)."""
    from validation import crossval_shuffle

    return crossval_shuffle.shuffle_diffs(n_random)


def _more(n_random: int) -> list[Diff]:
    """localSupp, riskyCells, addNoise's additive0, restr, ROMM and outdect, mvTopCoding, addGhostVars,
    microaggregation's simple, single, pca, rmd and mcdpca (sdcMicro's datasets and `n_random` random
    files each)."""
    from validation import crossval_protect_more

    return crossval_protect_more.more_diffs(n_random)


def _local_recoding(n_random: int) -> list[Diff]:
    """LocalRecProg: francdat's five settings and `n_random` random files varying every argument
    (validation/crossval_local_recoding.py)."""
    from validation import crossval_local_recoding

    return crossval_local_recoding.local_recoding_diffs(n_random)


def _utility_more(n_random: int) -> list[Diff]:
    """ai_utility_score against sdcMicro's, analysis_validity's Poisson and Cox fits against R's glm
    and coxph (the example's releases, random and ACTG 175-shaped files)."""
    from validation import crossval_utility_more

    return crossval_utility_more.utility_more_diffs(n_random)


#: Row groups that ``--refresh`` re-runs alone: (rows, the measures' prefixes they replace, the
#: label of their time in the full run).
REFRESH = {"record_swap": (_record_swap, ("recordSwap:", "infoLoss:"), "recordSwap, infoLoss"),
           "gower": (_gower, ("microaggrGower:",), "microaggrGower"),
           "clust": (_clust, ("microaggregation(clust)", "mafast"), "microaggregation (clustering), mafast"),
           "shuffle": (_shuffle, ("shuffle",), "shuffle"),
           "more": (_more, ("localSupp:", "riskyCells:", "addNoise(additive0)", "addNoise(restr)", "addNoise(ROMM)",
                            "addNoise(outdect)", "mvTopCoding:", "addGhostVars:", "microaggregation simple",
                            "microaggregation single", "microaggregation pca", "microaggregation rmd",
                            "microaggregation mcdpca"),
                    "localSupp, riskyCells, addNoise additive0, restr, ROMM, outdect, mvTopCoding, addGhostVars, "
                    "microaggregation simple, single, pca, rmd, mcdpca"),
           "local_recoding": (_local_recoding, ("LocalRecProg:",), "LocalRecProg"),
           "utility_more": (_utility_more, ("ai_utility_score:", "analysis_validity("),
                            "ai_utility_score, analysis_validity (poisson, cox)")}


def versions() -> dict[str, str]:
    v = r_bridge.versions()
    return {"sdc": __version__, "R": v["R"].removeprefix("R version "), "sdcMicro": v["sdcMicro"], "data.table": v["data.table"],
            "rpy2": v["rpy2"], "Python": platform.python_version(), "pandas": pd.__version__, "numpy": np.__version__}


def markdown(table: pd.DataFrame, vers: dict[str, str], n_random: int, refreshed: str = "") -> str:
    fmt = table.copy()
    fmt["max_abs_diff"] = fmt["max_abs_diff"].map(lambda x: f"{x:.3g}")
    fmt["max_rel_diff"] = fmt["max_rel_diff"].map(lambda x: f"{x:.3g}")
    fmt["agree"] = fmt["agree"].map({True: "yes", False: "**NO**"})
    head = "| " + " | ".join(fmt.columns) + " |\n|" + "---|" * len(fmt.columns) + "\n"
    body = "".join("| " + " | ".join(str(v) for v in row) + " |\n" for row in fmt.itertuples(index=False))
    lines = [
        "# Cross-validation: sdc vs sdcMicro",
        "",
        refreshed or f"Generated by `python -m validation.cross_validate` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()) + ".",
        "",
        "Each row compares one sdcMicro output with sdc's on every case of a dataset group: "
        "`golden` (the data of sdcMicro's own tests), the sdcMicro datasets testdata, testdata2, "
        f"francdat and free1 with their conventional keys, and {n_random} seeded random datasets "
        "(ties, singletons, missing key values including all-missing records, a single key, "
        "string keys, integer and non-integer weights, alpha in {0, 0.25, 0.5, 1}). l-diversity: testdata "
        f"(electcon, relat; c = 1, 2, 3) and {n_random} random datasets with one or two sensitive variables "
        "holding NA and sdcMicro's -999 code, compared with `l_diversity(mode=\"sdcmicro\")`. "
        f"Counts must agree exactly; risks to {RTOL:g} relative; weighted sums to {RTOL_SUMS:g}; "
        "l-diversity entropy to 1e-12. SUDA2 (Elliot and IHSN weights), household risk (`measure_risk(hid=)`) "
        "and modRisk (all five methods): sdcMicro's datasets and 200 random datasets each; SUDA scores exactly, "
        "DIS and contributions to 1e-12, modRisk to 1e-6 (iterative fits). "
        "Protection methods (globalRecode, topBotCoding, groupAndRename, pram, addNoise, rankSwap, "
        "localSuppression, microaggregation), utility (dUtility) and attack measures (dRisk, dRiskRMD, record "
        "linkage): sdcMicro's datasets and random datasets per method, deterministic outputs cell for cell, "
        "random methods by their deterministic part (transition matrices, noise scales) and a statistical test "
        "with fixed seeds; the detailed tables are validation/results/cross_validation_protect.md, "
        "crossval-suppression.md, crossval_utility.md and crossval-attacks.md. recordSwap and infoLoss "
        "(validation/crossval_record_swap.py): createDat(2000) and seeded createDat files; the invariants of "
        "both sides' swapped files, the swap counts without the risk rule (rates 1/8 and 1/4: exactly on "
        "createDat(2000), the mean over 4 seeds to 5 % or one swap on the smaller files), with k_anonymity = 3 by a Welch t test over seeds (each side "
        "draws its own households), and infoLoss on sdcMicro's swapped file (cells and false (non-)zeros "
        "exactly, measures to 1e-12). microaggrGower (validation/crossval_microaggr.py): testdata's first 1,000 "
        "records, testdata2 and random mixed files; each record's k nearest records exactly, numeric aggregates "
        "to 1e-12, every released category one of the neighbours' (the unique mode for cat = \"mode\"). The "
        "clustering microaggregation methods (clustpca, clustpppca, influence with pam and clara; testdata's first 300 "
        "records and random files) and mafast (random files): cell for cell to 1e-12. shuffle "
        "(validation/crossval_shuffle.py): method ds with covmethod spearman and pearson on testdata and random files, "
        "and mcd on contaminated random files where sdc's and robustbase's searches find the same h-subset, with "
        "sdcMicro's one normal draw replayed (perturbed values and MCD correlations to 1e-9, shuffled values cell for "
        "cell); mlm's prediction against R's lm to 1e-10 (sdcMicro 5.8.2 stops before using it); mvn (each side its "
        "own draws, 30 seeds) by its invariants: both sides' shuffled columns permutations of the originals, and the "
        "mean rank correlations with the predictors and the originals within 4 standard errors. localSupp, "
        "riskyCells and addNoise's additive0, restr, ROMM and outdect (validation/crossval_protect_more.py): "
        "testdata (localSupp: 7 keys, four thresholds), testdata2 (riskyCells: its help page's four calls) and "
        "random files with missing keys; suppressed cells and unsafe cells exactly; additive0 with R's draws, "
        "restr one variable at a time, ROMM with R's N x N matrix and outdect with R's MCD and draws replayed, "
        "to 1e-12 relative (ROMM 1e-10); mvTopCoding with sdcMicro's MCD center and covariance (values to 1e-10, "
        "records pulled back exactly), addGhostVars after sdcMicro's suppression (missing cells exactly), and "
        "microaggregation's simple and single with every measure, pca, rmd and mcdpca with sdcMicro's MCD fit "
        "(CASCrefmicrodata, testdata and random files; values to 1e-12). ai_utility_score (mode sdcmicro) "
        "against sdcMicro's on the example's releases (its four figures to 1e-12) and analysis_validity's Poisson "
        "and Cox fits against R's glm(family = poisson) and survival::coxph(ties = \"breslow\") "
        "(validation/crossval_utility_more.py; coefficients, standard errors and interval overlaps to 1e-6).",
        "",
        head + body,
        "Deliberate differences (not compared; see `docs/sdcmicro-differences.md`): keys that are "
        "missing in every record and weights below 1 are refused by sdc; sdcMicro's exact risk "
        "formula is compared only where f_k <= 10; sdcMicro's stale recursive l-diversity of a "
        "first class whose values are all the missing code is not compared; SUDA2 contributions are not "
        "compared where two items of different variables cover the same records (SUDA2 credits one of them); "
        "sdcMicro's suda2 fails on one key or one record, and measure_risk(hid=) on one record.",
        "",
    ]
    return "\n".join(lines)


def _refresh(group: str, n_methods: int, out: Path, vers: dict[str, str], n_random: int) -> tuple[list[Diff], dict[str, float]]:
    """Re-run one group of rows and put them in place of that group's rows (appended last) in
    both published files, keeping every other row as published (the markdown also holds rows
    added by hand from other harnesses); the header says when each part was generated."""
    import re

    make, prefixes, _ = REFRESH[group]
    t = time.perf_counter()
    diffs = make(n_methods)
    timing = {group: time.perf_counter() - t}
    new = summarise(diffs)
    old = pd.read_csv(out / "cross_validation.csv", keep_default_na=False, float_precision="round_trip")
    old = old[~old["measure"].astype(str).str.startswith(prefixes)]
    pd.concat([old, new], ignore_index=True).to_csv(out / "cross_validation.csv", index=False)
    lines = (out / "cross_validation.md").read_text(encoding="utf-8").splitlines()
    when = next((m.group(1) for m in map(re.compile(r"on (\d{4}-\d\d-\d\d \d\d:\d\d) UTC").search, lines) if m),
                "an earlier date")
    # Earlier refreshes of other groups keep their notes; this group's note is replaced.
    gen = next((ln for ln in lines if ln.startswith("Generated by")), "").rstrip(".")
    kept = [seg for seg in gen.split("; ")[1:] if seg.startswith("the rows of ") and f"`--refresh {group}`" not in seg]
    note = "; ".join([f"Generated by `python -m validation.cross_validate` on {when} UTC", *kept,
                      f"the rows of {', '.join(p.rstrip(':') for p in prefixes)} by `--refresh {group}` on "
                      f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC (took {timing[group]:.0f} s)"]) + "."
    fresh = markdown(new, vers, n_random, note).splitlines()
    head = fresh[:8]  # title, generated, versions, the description, each with its blank line
    rows = [ln for ln in lines if ln.startswith("| ") and not ln.startswith(tuple("| " + p for p in prefixes))]
    table_start = next(i for i, ln in enumerate(lines) if ln.startswith("| measure"))
    table_end = max(i for i, ln in enumerate(lines) if ln.startswith("| "))
    new_rows = [ln for ln in fresh if ln.startswith("| ") and ln.startswith(tuple("| " + p for p in prefixes))]
    body = [lines[table_start], lines[table_start + 1]] + rows[1:] + new_rows
    (out / "cross_validation.md").write_text("\n".join(head + body + lines[table_end + 1:]) + "\n", encoding="utf-8")
    return diffs, timing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=300, help="random datasets (default 300)")
    ap.add_argument("--methods", type=int, default=100,
                    help="random datasets per protection method, utility and attack measure (default 100; 0: none)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results"))
    ap.add_argument("--refresh", choices=sorted(REFRESH),
                    help="re-run only this group of rows and keep the rest of the published table")
    args = ap.parse_args(argv)
    if not r_bridge.is_available():
        print(f"cross_validate: {r_bridge.unavailable_reason()}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    vers = versions()
    if args.refresh:
        diffs, timing = _refresh(args.refresh, args.methods, out, vers, args.random)
    else:
        diffs, timing = run(args.random, n_methods=args.methods)
        table = summarise(diffs)
        table.to_csv(out / "cross_validation.csv", index=False)
        (out / "cross_validation.md").write_text(markdown(table, vers, args.random), encoding="utf-8")
    bad = [d for d in diffs if not d.agree]
    print(f"{len(diffs)} comparisons, {len(bad)} disagreements; "
          + ", ".join(f"{k} {v:.1f}s" for k, v in timing.items()) + f"; written to {out}")
    for d in bad[:20]:
        print("DISAGREE:", d.explain())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
