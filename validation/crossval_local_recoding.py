"""local_recoding against sdcMicro's LocalRecProg, cell for cell: francdat (keys alone, keys and
numbers, ancestors, weights) and seeded random files varying every argument (k_level, FindLowestK,
weight, lowMemory, missingValue with coded missing numbers, ancestors, odd numbers of records).

sdcMicro's Edmonds matching does not always find the least total distance (docs/sdcmicro-differences.md,
row 32): every case compares sdc's total with the least total of a pairing within the groups of identical
rows of sdcMicro's release (a lower bound of sdcMicro's own pairing's), which sdc's must not exceed; where
the two totals are equal and the least pairing is unique, the recoded cells are compared exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc.protect.recode_local import local_recoding, pair_records
from sdc.workflow.crosscheck import Diff, compare_values

__all__ = ["LocalCase", "local_recoding_diffs", "francdat_cases", "random_cases", "unique_pairing", "run_case", "theirs"]


@dataclass(frozen=True)
class LocalCase:
    name: str
    dataset: str
    data: pd.DataFrame = field(repr=False)
    keys: tuple[str, ...]
    numerical: tuple[str, ...] = ()
    ancestors: dict[str, list[str]] = field(default_factory=dict)
    args: dict[str, Any] = field(default_factory=dict)   # k, find_lowest_k, weight, low_memory, missing_value


def francdat_cases() -> list[LocalCase]:
    from r_bridge.sdcmicro import load_dataset

    f = load_dataset("francdat")
    keys, num = ("Key1", "Key2", "Key3", "Key4"), ("Num1", "Num2", "Num3")
    g = f.assign(Key2a=(f["Key2"] > 2).astype(float), Key4a=(f["Key4"] > 3).astype(float), Key4b=1.0)
    return [LocalCase("keys", "francdat", f, keys), LocalCase("keys+numbers", "francdat", f, keys, num),
            LocalCase("weights", "francdat", f, keys, num, args={"weight": [2, 1, 1, 0.5, 3, 1, 1]}),
            LocalCase("ancestors", "francdat", g, keys, num, {"Key2": ["Key2a"], "Key4": ["Key4a", "Key4b"]},
                      {"missing_value": -99}),
            LocalCase("k_level=7, FindLowestK=FALSE, lowMemory", "francdat", f, keys, num,
                      args={"k": 7, "find_lowest_k": False, "low_memory": True})]


def _random_case(i: int, rng: np.random.Generator) -> LocalCase:
    n = int(rng.integers(4, 31))
    p, q = int(rng.integers(1, 5)), int(rng.integers(0, 3))
    p = max(p, 2 - q)   # sdcMicro fails on one variable alone (docs/sdcmicro-differences.md)
    df = pd.DataFrame({f"k{j}": rng.integers(1, int(rng.integers(2, 6)), n).astype(float) for j in range(p)})
    for j in range(q):
        df[f"x{j}"] = rng.normal(50, 20, n).round(int(rng.integers(0, 4)))
    keys, num = tuple(df.columns[:p]), tuple(df.columns[p:])
    args: dict[str, Any] = {}
    anc: dict[str, list[str]] = {}
    if rng.random() < 0.3:
        args["k"] = int(rng.integers(1, n))
    if rng.random() < 0.3:
        args["find_lowest_k"] = False
    if rng.random() < 0.3:
        args["low_memory"] = True
    if rng.random() < 0.3:
        args["weight"] = [float(w) for w in rng.integers(1, 9, p + q) / 4]
    if rng.random() < 0.4:
        mv = float(rng.choice([-99.0, 0.0, 99.0]))
        args["missing_value"] = mv
        for j in range(q):
            if rng.random() < 0.5:
                df.loc[rng.random(n) < 0.2, f"x{j}"] = -1.0 if mv == 0 else mv   # sdcMicro's 0 is -1
    if p >= 2 and rng.random() < 0.4:
        for key in keys[:2]:   # sdcMicro reads the ancestors of exactly two keys (docs/sdcmicro-differences.md)
            names = []
            for a in range(int(rng.integers(1, 3))):
                name = f"{key}_a{a}"
                df[name] = np.floor(df[key] / (2 + a))
                names.append(name)
            anc[key] = names
    return LocalCase(f"random/{i}", "random", df, keys, num, anc, args)


def random_cases(n_cases: int, seed: int = 20261206) -> list[LocalCase]:
    rng = np.random.default_rng(seed)
    return [_random_case(i, rng) for i in range(n_cases)]


def run_case(case: LocalCase, mode: str = "sdcmicro") -> Any:
    return local_recoding(case.data, list(case.keys), numerical=list(case.numerical) or None,
                          ancestors=case.ancestors or None, mode=mode, **case.args)


def theirs(case: LocalCase, reps: int = 0) -> tuple[pd.DataFrame, float]:
    from r_bridge.protection import local_rec_prog

    a = case.args
    order = [k for k in case.keys if k in case.ancestors]
    return local_rec_prog(case.data, list(case.keys), numerical=list(case.numerical) or None,
                          ancestors=[c for k in order for c in case.ancestors[k]] or None,
                          ancestor_setting=[k for k in order for _ in case.ancestors[k]] or None,
                          k_level=a.get("k", 2), FindLowestK=a.get("find_lowest_k", True), weight=a.get("weight"),
                          lowMemory=a.get("low_memory", False), missingValue=a.get("missing_value"), reps=reps)


def unique_pairing(D: np.ndarray, p: np.ndarray, q: np.ndarray) -> bool:
    """Whether the least-distance pairing (p, q) is the only one: forbidding any of its pairs costs more."""
    best = float(D[p, q].astype(np.float64).sum())
    for i, j in zip(p, q):
        E = D.astype(np.float64).copy()
        E[i, j] = E[j, i] = 1e6
        a, b = pair_records(E)
        if float(E[a, b].sum()) <= best + 1e-6 * max(1.0, best):
            return False
    return True


def _implied_total(D: np.ndarray, release: pd.DataFrame) -> float:
    """The least total distance of a pairing within the groups of identical rows of sdcMicro's release
    (an odd group, as the unpaired record's, leaves one record alone)."""
    rows = release.fillna(-1e300).round(9).astype(str).agg("|".join, axis=1).to_numpy()
    total = 0.0
    for g in np.unique(rows):
        idx = np.flatnonzero(rows == g)
        if idx.size > 1:
            a, b = pair_records(D[np.ix_(idx, idx)])
            total += float(D[idx[a], idx[b]].astype(np.float64).sum())
    return total


def case_diffs(case: LocalCase) -> list[Diff]:
    from sdc.core.keys import factorize_column
    from sdc.protect.recode_local import record_distances

    ours = run_case(case)
    rel, _ = theirs(case)
    names = [*case.keys, *case.numerical]
    codes = np.column_stack([factorize_column(case.data[v])[0] for v in case.keys])
    X = case.data[list(case.numerical)].to_numpy(dtype=np.float64) if case.numerical else np.zeros((len(case.data), 0))
    mv = case.args.get("missing_value")
    D = record_distances(codes, X, np.asarray(ours.details["weights"]), -1.0 if mv == 0 else mv)
    pairing = ours.details["pairing"]
    p, q = pairing["first"].to_numpy(), pairing["second"].to_numpy()
    total = ours.details["total_distance"]
    implied = _implied_total(D, rel[names])
    # sdc's pairing is never longer than the least one sdcMicro's release allows (a lower bound of its own)
    rows = [Diff("LocalRecProg: total distance, sdc <= sdcMicro", case.name, case.dataset, 1,
                 max(0.0, total - implied), max(0.0, total - implied) / max(implied, 1e-300),
                 bool(total <= implied + 1e-6 * max(1.0, implied)), False, 1e-6)]
    if abs(total - implied) <= 1e-6 * max(1.0, implied) and unique_pairing(D, p, q):
        mine = ours.data[names].to_numpy(dtype=np.float64)
        rows.append(compare_values("LocalRecProg: recoded cells (same least pairing)", case.name, case.dataset,
                                   mine.ravel(), rel[names].to_numpy(dtype=np.float64).ravel(), rtol=None))
    return rows


def local_recoding_diffs(n_random: int = 100) -> list[Diff]:
    out: list[Diff] = []
    for case in [*francdat_cases(), *random_cases(n_random)]:
        out.extend(case_diffs(case))
    return out
