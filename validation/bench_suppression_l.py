"""Benchmark: k and l together by local suppression on a seeded 150k public-health file.

    .venv/bin/python -m validation.bench_suppression_l [--records 150000] [--k 3] [--l 3]
        [--l-variant distinct] [--baseline] [--search] [--out validation/results]

The file is :func:`validation.make_health_data.health_data` (7 keys, a sensitive diagnosis
with 10 skewed values). Runs ``sdc.local_suppression(k, sensitive="diagnosis", l)`` in cell
mode (the l-aware suppression) and record mode (whole classes dropped), and prints for each:
records kept (and their share), cells suppressed, CPU and wall seconds, and whether the
release meets k under the conservative reading and the wildcard rule and l (checked with
``sdc.k_anonymity`` and ``sdc.l_diversity``, not with the suppression's own bookkeeping).

``--baseline`` adds the simple greedy of issue 32 (every record of a failing class loses its
least important key still observed, all at once, until every class passes; then the classes
still failing are dropped), written here with pandas, independent of sdc. ``--search`` adds
``sdc.generalisation_search`` with suppression-only hierarchies (each key: its value or
``*``) and a suppression limit of 5 %. ``--out`` writes ``benchmark-suppression-l.md``.

``--optimum N`` instead compares the cell mode with the exact optimum on N tiny random files
(3-6 records, 2 keys of 3 values, a sensitive variable of 3 values, k = l = 2), found by
trying every choice per record (each subset of its keys suppressed, or the record dropped):
the fewest records dropped, then the fewest cells, under the conservative reading.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd

import sdc
from validation.make_health_data import KEYS, SENSITIVE, health_data


def _check(release: pd.DataFrame, k: int, l: int, variant: str) -> tuple[bool, bool, bool]:
    """k under the conservative reading, under the wildcard rule, and l (sdc's own measures;
    a key missing in every record, generalised away, is left out)."""
    keys = [c for c in KEYS if release[c].notna().any()]
    cons = sdc.k_anonymity(release, keys, k=k, missing="category").n_below(k) == 0
    wild = sdc.k_anonymity(release, keys, k=k).n_below(k) == 0
    ld = sdc.l_diversity(release, keys, SENSITIVE, l=l)
    col = {"distinct": "n_records_below_l", "entropy": "n_records_below_entropy_l",
           "recursive": "n_records_below_recursive_l"}[variant]
    bys = ld.by_sensitive
    ok_l = int(bys[col].iloc[0]) == 0 if col in bys.columns else None
    return cons, wild, ok_l


def baseline_greedy(df: pd.DataFrame, k: int, l: int) -> tuple[pd.DataFrame, int]:
    """Issue 32's simple greedy (distinct l): the release and its suppressed cells."""
    keys = list(KEYS)
    imp = sdc.protect.suppression.default_importance(df, keys)
    order = sorted(keys, key=lambda c: -imp[c])           # least important first
    d = df[keys + [SENSITIVE]].astype(object).copy()
    cells = 0
    while True:
        g = d.groupby(keys, dropna=False)[SENSITIVE]
        bad = (g.transform("size") < k) | (g.transform("nunique") < l)
        if not bad.any():
            break
        moved = False
        for c in order:                                    # first observed key, in order
            m = bad & d[c].notna()
            if m.any():
                d.loc[m, c] = None
                cells += int(m.sum())
                bad &= ~m
                moved = True
        if not moved:
            break
    g = d.groupby(keys, dropna=False)[SENSITIVE]
    bad = (g.transform("size") < k) | (g.transform("nunique") < l)
    return d.loc[~bad], cells


def _search(df: pd.DataFrame, k: int, l: int, variant: str) -> tuple[pd.DataFrame, int]:
    """The search's release (a generalised ``*`` read as a suppressed cell; the records it
    suppresses, every key missing, left out) and its suppressed cells."""
    hs = {c: pd.DataFrame({"value": sorted(df[c].unique()), "top": "*"}) for c in KEYS}
    res = sdc.generalisation_search(df, hs, k=k, l=l, l_variant=variant, sensitive=SENSITIVE,
                                    suppression_limit=0.05)
    rel = res.data.copy()
    for c in KEYS:
        rel[c] = rel[c].where(rel[c].astype(str) != "*")
    kept = rel[list(KEYS)].notna().any(axis=1)
    return rel.loc[kept], int(rel.loc[kept, list(KEYS)].isna().to_numpy().sum())


def _timed(fn):
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - t0


def run(records: int, k: int, l: int, variant: str, baseline: bool, search: bool) -> pd.DataFrame:
    df = health_data(records)
    keys = list(KEYS)
    rows = []
    for unit in ("cell", "record"):
        res, cpu, wall = _timed(lambda u=unit: sdc.local_suppression(df, keys, k=k, sensitive=SENSITIVE, l=l,
                                                                     l_variant=variant, unit=u))
        rows.append((f"local_suppression unit={unit}", len(res.data), res.n_changed, cpu, wall,
                     *_check(res.data, k, l, variant)))
    if baseline and variant == "distinct":
        (rel, cells), cpu, wall = _timed(lambda: baseline_greedy(df, k, l))
        rows.append(("issue 32's simple greedy", len(rel), cells, cpu, wall, *_check(rel, k, l, variant)))
    if search:
        (rel, cells), cpu, wall = _timed(lambda: _search(df, k, l, variant))
        rows.append(("generalisation_search (value or *)", len(rel), cells, cpu, wall, *_check(rel, k, l, variant)))
    out = pd.DataFrame(rows, columns=["method", "records kept", "cells suppressed", "CPU s", "wall s",
                                      "k (conservative)", "k (wildcard)", "l"])
    out.insert(2, "kept %", 100.0 * out["records kept"] / len(df))
    return out


def _exact(X: np.ndarray, S: np.ndarray, k: int, l: int) -> tuple[int, int]:
    """(records dropped, cells suppressed) of the best release of a tiny file, by trying all."""
    import itertools

    n, K = X.shape
    opts = list(itertools.product([0, 1], repeat=K)) + [None]
    best = None
    for choice in itertools.product(range(len(opts)), repeat=n):
        classes: dict[tuple, list] = {}
        drop = cells = 0
        for i, c in enumerate(choice):
            o = opts[c]
            if o is None:
                drop += 1
                continue
            classes.setdefault(tuple(-1 if m else int(X[i, j]) for j, m in enumerate(o)), []).append(S[i])
            cells += sum(o)
        if all(len(v) >= k and len(set(v)) >= l for v in classes.values()) and (best is None or (drop, cells) < best):
            best = (drop, cells)
    return best


def optimum(cases: int, seed: int = 1) -> str:
    """How often the cell mode's release is the exact optimum on tiny random files."""
    rng = np.random.default_rng(seed)
    same_records = optimal = extra = 0
    for _ in range(cases):
        n = int(rng.integers(3, 7))
        X, S = rng.integers(0, 3, (n, 2)), rng.choice(list("abc"), n)
        best = _exact(X, S, 2, 2)
        r = sdc.local_suppression(pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "s": S}), ["a", "b"], k=2,
                                  sensitive="s", l=2)
        got = (r.details["records_dropped"], r.n_changed)
        same_records += got[0] == best[0]
        optimal += got == best
        extra += (got[1] - best[1]) if got[0] == best[0] else 0
    return (f"{cases} tiny files: the fewest records dropped on {same_records}, the exact optimum (records, then "
            f"cells) on {optimal}; {extra} cells above the optimum in all where the records are optimal")


def _markdown(table: pd.DataFrame) -> str:
    def cell(v: object) -> str:
        if isinstance(v, (bool, np.bool_)) or v is None:
            return {True: "yes", False: "no", None: "-"}[None if v is None else bool(v)]
        if isinstance(v, (float, np.floating)):
            return f"{v:,.2f}"
        if isinstance(v, (int, np.integer)):
            return f"{v:,}"
        return str(v)
    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=float, default=150_000)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--l", type=int, default=3)
    ap.add_argument("--l-variant", default="distinct", choices=("distinct", "entropy", "recursive"))
    ap.add_argument("--baseline", action="store_true")
    ap.add_argument("--search", action="store_true")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--optimum", type=int, metavar="N")
    a = ap.parse_args(argv)
    if a.optimum:
        print(optimum(a.optimum))
        return 0
    table = run(int(a.records), a.k, a.l, a.l_variant, a.baseline, a.search)
    head = (f"k = {a.k}, {a.l_variant} l = {a.l} on validation.make_health_data ({int(a.records):,} records, "
            f"7 keys); Python {platform.python_version()}, numpy {np.__version__}, sdc {sdc.__version__}")
    text = _markdown(table)
    print(head)
    print(text)
    if a.out:
        a.out.mkdir(parents=True, exist_ok=True)
        (a.out / "benchmark-suppression-l.md").write_text(f"{head}\n\n{text}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
