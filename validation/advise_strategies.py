"""`sdc advise` against hand-written strategies on sdcMicro's testdata and ACTG 175 (issue 29).

One command (R with sdcMicro and speff2trial, through r_bridge)::

    python -m validation.advise_strategies            # writes validation/results/advise-strategies.md

For each file: a configuration (its quasi-identifiers, k = 3, risk thresholds loose enough that
k = 3 decides: an unweighted file meeting k = 3 has individual risks at most 1/3), ``sdc.advise``
on it, and a documented set of hand-written strategies of the kind an SDC specialist writes,
each run by the same protect loop and scored by the same ``sdc.ai_utility_score`` (advise's own
scoring of a candidate, ``sdc.workflow.advise._try``, so both sides are measured alike). The best
advised plan is then written as ``plan_1.toml`` and ``sdc protect DATA --plan plan_1.toml`` is run
twice with the CLI; the two ``released.csv`` must be byte-identical and equal to advise's release.

The keys:

* testdata (sdcMicro's household survey, 4,580 records): urbrur, roof, walls, water, electcon,
  relat, sex (categorical codes, read as text) and age (numeric) -- sdcMicro's own example keys
  for this file (``?testdata``, ``createSdcObj`` examples).
* ACTG 175 (2,139 trial patients): age and weight (wtkg, numeric), race, gender, hemophilia
  (hemo), homosexual activity (homo), intravenous drug use (drugs) and the Karnofsky score
  (karnof). These are what an intruder can know of a patient from outside the trial
  (demographics, visible or reported traits, functional status in other records). The treatment
  arm (arms) is randomised and unknown outside the trial, and str2 (prior antiretroviral use) is a
  clinical history, so both are left as non-identifying.
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

import sdc
from sdc.io import read_data
from sdc.workflow.advise import Candidate, _try
from sdc.workflow.config import as_config
from sdc.workflow.plan import method_table, plan_from_mapping

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "validation" / "results" / "advise-strategies.md"
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = 0
K = 3

FILES = {
    "testdata": {"categorical": ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"],
                 "numeric": ["age"], "keep": None},
    "ACTG 175": {"categorical": ["race", "gender", "hemo", "homo", "drugs", "karnof"],
                 "numeric": ["age", "wtkg"], "keep": ["pidnum", "age", "wtkg", "race", "gender", "hemo", "homo",
                                                     "drugs", "karnof", "str2", "arms", "days", "cens"]},
}


def load(name: str) -> pd.DataFrame:
    """The file from R (r_bridge), with only the columns kept."""
    if name == "testdata":
        from r_bridge.sdcmicro import load_dataset

        return load_dataset("testdata")
    from r_bridge.models import actg175

    return actg175()[FILES[name]["keep"]]


def config(name: str) -> dict:
    spec = FILES[name]
    return {"data": {"text_columns": spec["categorical"]},
            "variables": {"categorical_keys": spec["categorical"], "continuous_keys": spec["numeric"]},
            "thresholds": {"k": K, "risk": 0.5, "max_global_risk": 0.5},
            "options": {"measures": ["k_anonymity", "risk"]}, "output": {"formats": ["json"]}}


def _supp(keys: list[str]) -> dict:
    return {"method": "local_suppression", "keys": keys, "k": K}


def _bands(num: list[str], widths: dict[str, float]) -> list[dict]:
    return [{"method": "global_recode", "variables": [v], "width": widths[v], "origin": 0.0, "closed": "left"}
            for v in num]


def _topcoded(df: pd.DataFrame, num: list[str]) -> list[dict]:
    """10-unit bands between the 5th and 95th percentiles (rounded out to 10), the tails one band each."""
    steps = []
    for v in num:
        x = df[v].dropna()
        lo, hi = float(x.quantile(0.05) // 10 * 10), float(-(-x.quantile(0.95) // 10) * 10)
        inner = [e for e in range(int(lo), int(hi) + 1, 10) if x.min() < e < x.max()]
        steps.append({"method": "global_recode", "variables": [v],
                      "edges": [float(x.min()), *map(float, inner), float(x.max())], "include_lowest": True})
    return steps


def strategies(df: pd.DataFrame, name: str) -> list[tuple[str, list[dict]]]:
    """The hand-written strategies (label, steps): what a specialist tries first."""
    spec = FILES[name]
    cat, num = spec["categorical"], spec["numeric"]
    keys = [*cat, *num]
    rare = max(2, round(0.02 * len(df)))
    merge = {"method": "global_recode", "variables": cat, "rare": rare}
    return [
        ("H1 10-unit bands + local suppression", [*_bands(num, {v: 10.0 for v in num}), _supp(keys)]),
        ("H2 5-unit bands + local suppression", [*_bands(num, {v: 5.0 for v in num}), _supp(keys)]),
        ("H3 10-unit bands, tails top/bottom-coded at the 5th/95th percentile + local suppression",
         [*_topcoded(df, num), _supp(keys)]),
        (f"H4 merge categories under 2 % (< {rare} records) + 10-unit bands + local suppression",
         [merge, *_bands(num, {v: 10.0 for v in num}), _supp(keys)]),
        (f"H5 microaggregation of the numeric keys (MDAV, k = {K}) + local suppression",
         [{"method": "microaggregation", "variables": num, "k": K}, _supp(keys)]),
    ]


def score_strategies(df: pd.DataFrame, name: str) -> pd.DataFrame:
    cfg, table, rows = as_config(config(name)), method_table(), []
    for i, (label, steps) in enumerate(strategies(df, name), start=1):
        plan = plan_from_mapping({"plan": {"seed": SEED}, "steps": steps}, source=label, methods=table)
        row, _ = _try(df, Candidate(number=i, label=label, rule="hand-written", plan=plan), cfg,
                      (1 / 3, 1 / 3, 1 / 3), NOW)
        rows.append(row)
    return pd.DataFrame(rows)


def rerun(csv: Path, plan_toml: str, best_release: pd.DataFrame, work: Path) -> tuple[bool, bool]:
    """`sdc protect csv --plan plan_1.toml` twice: byte-identical released.csv, equal to advise's release."""
    plan = work / "plan_1.toml"
    plan.write_text(plan_toml)
    sdc_cli = Path(sys.executable).with_name("sdc")
    outs = []
    for j in (1, 2):
        out = work / f"run{j}"
        subprocess.run([str(sdc_cli), "protect", str(csv), "--plan", str(plan), "--out", str(out), "--quiet"],
                       check=True, capture_output=True, text=True)
        outs.append(out / "released.csv")
    same_bytes = filecmp.cmp(outs[0], outs[1], shallow=False)
    released = read_data(outs[0], text_columns=True)
    expect = best_release.astype("string").fillna("")
    got = released.astype("string").fillna("")
    return same_bytes, bool(got.reset_index(drop=True).equals(expect.reset_index(drop=True)))


def one_file(name: str, work: Path) -> dict:
    raw = load(name)
    csv = work / f"{name.replace(' ', '_')}.csv"
    raw.to_csv(csv, index=False)
    df = read_data(csv, text_columns=FILES[name]["categorical"])  # what sdc protect reads
    t0 = time.perf_counter()
    res = sdc.advise(df, config(name), seed=SEED, now=NOW, compare_best=False)
    t_adv = time.perf_counter() - t0
    hand = score_strategies(df, name)
    d = work / name.replace(" ", "_")
    d.mkdir()
    same, equal = rerun(csv, res.plans_toml()[0], res.runs[0].released, d) if res.runs else (False, False)
    return {"name": name, "n": len(df), "advice": res.table, "hand": hand, "seconds": t_adv,
            "same_bytes": same, "equal": equal}


def _fmt(x: object) -> str:
    return "" if x is None or (isinstance(x, float) and pd.isna(x)) else (f"{x:.4f}" if isinstance(x, float) else str(x))


def report(results: list[dict]) -> str:
    lines = ["# `sdc advise` against hand-written strategies", "",
             "Written by `python -m validation.advise_strategies` (R, sdcMicro and speff2trial through r_bridge). "
             f"k = {K}, risk thresholds 0.5 (k decides), seed {SEED}; the score is sdcMicro's `ai_utility_score` "
             "in its correct mode (each key's category loss at least 0; equal weights; lower is better). Keys and strategies: the script's docstring and docs/advise.md.", "",
             "| file | records | advise's best | its score | best hand-written | its score | advise no worse | "
             "plan_1 rerun byte-identical | equals advise's release | advise time (s) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        a = r["advice"]
        best = a.iloc[0]
        h = r["hand"][r["hand"]["meets"]].sort_values("score", kind="mergesort")
        hb = h.iloc[0] if len(h) else None
        ok = hb is None or (bool(best["meets"]) and float(best["score"]) <= float(hb["score"]) + 1e-12)
        lines.append(f"| {r['name']} | {r['n']} | {best['label']} | {_fmt(float(best['score']))} | "
                     f"{'' if hb is None else hb['label'].split(' ')[0]} | {'' if hb is None else _fmt(float(hb['score']))}"
                     f" | {'yes' if ok else 'NO'} | {'yes' if r['same_bytes'] else 'NO'} | "
                     f"{'yes' if r['equal'] else 'NO'} | {r['seconds']:.1f} |")
    cols = ["label", "meets", "score", "suppression_rate", "category_loss", "il1"]
    for r in results:
        for title, t in ((f"{r['name']}: hand-written strategies", r["hand"]),
                         (f"{r['name']}: advise's candidates (ranked)", r["advice"])):
            lines += ["", f"## {title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            lines += ["| " + " | ".join(_fmt(row[c]) if c != "meets" else ("yes" if row[c] else "no")
                                        for c in cols) + " |" for _, row in t.iterrows()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--only", choices=list(FILES), help="one file")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        results = [one_file(n, Path(tmp)) for n in FILES if args.only in (None, n)]
    text = report(results)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
