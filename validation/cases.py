"""The datasets the cross-validation runs on: sdcMicro's own, the golden ones, random ones.

A :class:`Case` is one dataset plus the roles to assess it with. The same cases feed the
tests (``tests/*/test_sdcmicro_*.py``) and the published table (``cross_validate.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from sdc.workflow.crosscheck import Case

__all__ = [
    "Case", "golden_cases", "sdcmicro_case", "sdcmicro_cases", "SDCMICRO_CASE_NAMES", "random_cases", "random_case",
    "random_ldiversity_case", "random_ldiversity_cases", "random_suda_case", "random_suda_cases",
    "random_modrisk_case", "random_modrisk_cases", "random_household_case", "random_household_cases",
]




# --------------------------------------------------------------------------------------
# Golden datasets: the data of sdcMicro's own tests (reference section 9), as literals.
# --------------------------------------------------------------------------------------
_W8 = [18, 45.5, 39, 17, 92, 8, 123.5, 51]
_NAN = np.nan


def golden_cases() -> list[Case]:
    """sdcMicro's test datasets (test_freqCalc.R, test_indivRisk.R, test_calcRisks.R, alpha)."""
    d1 = pd.DataFrame({"A": [2, 3, 2, 2, 3, 3, 1, 2], "B": [3, 3, 3, 3, 3, 3, 4, 3],
                       "C": [1, 3, 1, 2, 1, 1, 1, 1], "w": _W8})
    d2 = d1.assign(C=[1, 3, _NAN, 2, 1, 1, _NAN, 1])
    d4 = pd.DataFrame({"A": [2, 3, _NAN, 2, 1, _NAN, 1, 2], "w": _W8})
    d5 = pd.DataFrame(np.array([2, 3, _NAN, 2, 3, 3, 1, _NAN, 3, 3, _NAN, 3, 3, 2, 2, 3,
                                _NAN, _NAN, 1, 2, _NAN, _NAN, 4, 4]).reshape(8, 3).T,
                      columns=[f"V{i}" for i in range(1, 9)])
    d5["w"] = [18, 45.5, 122]
    d6 = d1.assign(A=[2, 3, 2, 2, 3, 3, 1, _NAN], C=[1, 3, _NAN, 2, 1, 1, _NAN, 1])
    s1 = pd.DataFrame([(2, 2, 1), (2, 5, 1), (2, 2, 3), (2, 4, 3), (2, 3, 3), (2, 2, 3), (4, 1, 2),
                       (2, 2, 1), (3, 3, 1), (2, 5, 2)], columns=["Var4", "Var5", "Var6"])
    s2 = pd.DataFrame([(_NAN, 2, 4, _NAN, 5, 1), (1, _NAN, 5, 2, _NAN, 2), (_NAN,) * 6, (_NAN, 4, 3, 2, 2, 2)],
                      columns=[f"Var{i}" for i in range(6, 12)])
    alpha = pd.DataFrame({"a": [1, 1, _NAN, 2, 2, 3], "b": [1, _NAN, 1, 2, 2, 3], "w": [10, 20, 30, 40, 50, 60]})
    out = []
    for name, df, keys in [("D1", d1, ("A", "B", "C")), ("D2", d2, ("A", "B", "C")), ("D4", d4, ("A",)),
                           ("D5", d5, tuple(f"V{i}" for i in range(1, 9))), ("D6", d6, ("A", "B", "C"))]:
        out.append(Case(f"golden/{name}/w", "golden", df, keys, "w"))
        out.append(Case(f"golden/{name}", "golden", df, keys))
    out.append(Case("golden/S1", "golden", s1, ("Var4", "Var5", "Var6")))
    out.append(Case("golden/S2", "golden", s2, tuple(s2.columns)))
    for a in (1.0, 0.5, 0.0):
        out.append(Case(f"golden/alpha={a:g}/w", "golden", alpha, ("a", "b"), "w", alpha=a))
    return out


# --------------------------------------------------------------------------------------
# sdcMicro's bundled datasets with their conventional roles (reference section 8).
# --------------------------------------------------------------------------------------
TESTDATA_KEYS5 = ("urbrur", "roof", "walls", "water", "sex")
TESTDATA_KEYS7 = ("urbrur", "roof", "walls", "water", "electcon", "relat", "sex")


# (name, dataset, keys, weights, household, alpha); "testdata+NA" is testdata with 5% of
# each key's values set missing (seeded), as in the reference's timing note.
SDCMICRO_SPECS: tuple[tuple[str, str, tuple[str, ...], str | None, str | None, float], ...] = (
    ("testdata/5 keys", "testdata", TESTDATA_KEYS5, None, None, 1.0),
    ("testdata/5 keys/w", "testdata", TESTDATA_KEYS5, "sampling_weight", None, 1.0),
    ("testdata/5 keys/w/hid", "testdata", TESTDATA_KEYS5, "sampling_weight", "ori_hid", 1.0),
    ("testdata/7 keys", "testdata", TESTDATA_KEYS7, None, None, 1.0),
    ("testdata/7 keys/w", "testdata", TESTDATA_KEYS7, "sampling_weight", "ori_hid", 1.0),
    ("testdata/7 keys/household_weights", "testdata", TESTDATA_KEYS7, "household_weights", None, 1.0),
    ("testdata/7 keys/5% NA/w", "testdata+NA", TESTDATA_KEYS7, "sampling_weight", None, 1.0),
    ("testdata/7 keys/5% NA/household_weights/alpha=0.5", "testdata+NA", TESTDATA_KEYS7, "household_weights", None, 0.5),
    ("testdata2/7 keys/w", "testdata2", TESTDATA_KEYS7, "sampling_weight", None, 1.0),
    ("francdat/4 keys/w", "francdat", ("Key1", "Key2", "Key3", "Key4"), "w", None, 1.0),
    ("francdat/4 keys", "francdat", ("Key1", "Key2", "Key3", "Key4"), None, None, 1.0),
    ("free1/3 keys/w", "free1", ("REGION", "SEX", "AGE"), "WEIGHT", None, 1.0),
    ("free1/5 keys/w", "free1", ("REGION", "SEX", "AGE", "MARSTAT", "KINDPERS"), "WEIGHT", None, 1.0),
)
SDCMICRO_CASE_NAMES = tuple(s[0] for s in SDCMICRO_SPECS)


@lru_cache(maxsize=None)
def _dataset(name: str) -> pd.DataFrame:
    from r_bridge import load_dataset

    if name == "testdata+NA":
        td = load_dataset("testdata").copy()
        rng = np.random.default_rng(5)
        for k in TESTDATA_KEYS7:
            td[k] = td[k].astype("float64").mask(rng.random(len(td)) < 0.05)
        return td
    return load_dataset(name)


def sdcmicro_case(name: str) -> Case:
    """One case on an sdcMicro dataset (loaded through the bridge, once per dataset)."""
    spec = {s[0]: s for s in SDCMICRO_SPECS}[name]
    _, dataset, keys, w, hid, alpha = spec
    return Case(name, dataset.removesuffix("+NA"), _dataset(dataset), keys, w, hid, alpha)


def sdcmicro_cases() -> list[Case]:
    """testdata, testdata2, francdat and free1 through the bridge, with their usual keys."""
    return [sdcmicro_case(n) for n in SDCMICRO_CASE_NAMES]


# --------------------------------------------------------------------------------------
# Random datasets.
# --------------------------------------------------------------------------------------
_WORDS = np.array(["north", "south", "east", "west", "centre", "islands", "coast"], dtype=object)


def random_case(seed: int) -> Case:
    """A small random dataset built to hit the edge cases.

    Ties and singletons (few records over small alphabets), missing key values (including
    all-missing records), a single key, integer, float and string keys, and no, integer
    or non-integer weights. Every key keeps at least one observed value (an all-missing
    key is refused by sdc; see docs/sdcmicro-differences.md).
    """
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, rng.integers(4, 15), rng.integers(15, 80)]))
    n_keys = int(rng.choice([1, 2, 3, 4], p=[0.2, 0.3, 0.3, 0.2]))
    na_rate = float(rng.choice([0.0, 0.0, 0.1, 0.25, 0.5]))
    cols: dict[str, object] = {}
    for j in range(n_keys):
        card = int(rng.integers(1, 6))
        codes = rng.integers(0, card, size=n)
        kind = rng.choice(["int", "float", "str"])
        if kind == "int":
            vals = pd.array(codes + 1, dtype="float64")
        elif kind == "float":
            vals = pd.array(codes * 0.5 + 1.25, dtype="float64")
        else:
            vals = pd.array(_WORDS[codes], dtype=object)
        s = pd.Series(vals)
        miss = rng.random(n) < na_rate
        if miss.all():
            miss[rng.integers(0, n)] = False
        s[miss] = None if kind == "str" else np.nan
        cols[f"k{j + 1}"] = s
    df = pd.DataFrame(cols)
    if na_rate > 0 and n > 3 and n_keys > 1 and rng.random() < 0.5:
        row = int(rng.integers(0, n))  # an all-missing record (fk = n under the wildcard rule)
        observed_elsewhere = all(df[c].drop(index=row).notna().any() for c in df.columns)
        if observed_elsewhere:
            for c in df.columns:
                df.loc[row, c] = None if df[c].dtype == object else np.nan
    wkind = rng.choice(["none", "int", "frac"])
    weights = None
    if wkind == "int":
        df["w"] = rng.integers(1, 50, size=n).astype("float64")
        weights = "w"
    elif wkind == "frac":
        df["w"] = np.round(rng.uniform(1.0, 80.0, size=n), 3)
        weights = "w"
    alpha = float(rng.choice([1.0, 1.0, 0.5, 0.25, 0.0]))
    keys = tuple(c for c in df.columns if c.startswith("k"))
    return Case(f"random/{seed}", "random", df, keys, weights, alpha=alpha)


def random_cases(n: int = 300, seed: int = 2026) -> list[Case]:
    """`n` random cases with seeds ``seed .. seed + n - 1``."""
    return [random_case(seed + i) for i in range(n)]


def random_ldiversity_case(seed: int) -> Case:
    """A random case with one or two sensitive variables for l-diversity.

    Keys as in :func:`random_case` (missing values are a category in l-diversity); the
    sensitive variables are integers, floats or strings with missing values (NA), and
    numeric ones sometimes carry sdcMicro's missing code -999.
    """
    base = random_case(seed)
    rng = np.random.default_rng(10_000 + seed)
    df = base.data.drop(columns=[c for c in base.data.columns if not c.startswith("k")]).copy()
    n = len(df)
    sens = []
    for j in range(int(rng.choice([1, 1, 2]))):
        card = int(rng.integers(1, 6))
        codes = rng.integers(0, card, size=n)
        kind = rng.choice(["int", "float", "str"])
        if kind == "str":
            col = pd.Series(_WORDS[codes], dtype=object)
        else:
            col = pd.Series(codes + (1 if kind == "int" else 0.5), dtype="float64")
            if rng.random() < 0.3:
                col[rng.random(n) < 0.2] = -999.0  # sdcMicro's missing code
        miss = rng.random(n) < float(rng.choice([0.0, 0.1, 0.3]))
        col[miss] = None if kind == "str" else np.nan
        df[f"s{j + 1}"] = col
        sens.append(f"s{j + 1}")
    return Case(f"random-ldiv/{seed}", "random", df, base.keys, sensitive=tuple(sens))


def random_suda_case(seed: int) -> Case:
    """A small random dataset for SUDA2: 2 to 5 keys, 2 to 40 records, integer or string
    keys over small alphabets (ties and uniques), missing values in a third of the cases.

    (sdcMicro's suda2 fails on one record or one key; those cases are tested on their own.)"""
    rng = np.random.default_rng(20_000 + seed)
    n = int(rng.choice([2, rng.integers(3, 12), rng.integers(12, 41), rng.integers(12, 41)]))
    k = int(rng.choice([2, 3, 3, 4, 5]))
    na = float(rng.choice([0.0, 0.0, 0.15]))
    cols = {}
    for j in range(k):
        card = int(rng.integers(1, 5))
        codes = rng.integers(0, card, size=n)
        if rng.random() < 0.3:
            col = pd.Series(_WORDS[codes], dtype=object)
            col[rng.random(n) < na] = None
        else:
            col = pd.Series(codes + 1, dtype="float64")
            col[rng.random(n) < na] = np.nan
        cols[f"v{j + 1}"] = col
    df = pd.DataFrame(cols)
    for c in df.columns:  # keep every key observed somewhere
        if df[c].isna().all():
            df.loc[0, c] = 1.0 if df[c].dtype != object else "north"
    return Case(f"random-suda/{seed}", "random", df, tuple(df.columns))


def random_suda_cases(n: int = 200, seed: int = 7000) -> list[Case]:
    return [random_suda_case(seed + i) for i in range(n)]


def random_modrisk_case(seed: int, *, saturated: bool = False) -> Case:
    """A random dataset for modRisk: 2 or 3 keys (strings, categoricals or integers, so
    that both factor and linear terms occur), 8 to 80 records, missing key values in a
    fifth of the cases, non-integer weights >= 1.

    ``saturated=True``: the same data with every key a factor and the saturated formula
    ``~ m1 * m2 (* m3)``, whose fit reproduces the response; cells with response 0 then get
    tiny fitted values (statsmodels < 0.14 stops there with a perfect-separation error)."""
    rng = np.random.default_rng(30_000 + seed)
    n = int(rng.integers(8, 81))
    k = int(rng.choice([2, 3]))
    cols = {}
    for j in range(k):
        card = int(rng.integers(2, 5))
        codes = rng.integers(0, card, size=n)
        kind = rng.choice(["str", "cat", "int"])
        if kind == "int":
            col = pd.Series(codes + 1, dtype="float64")
        else:
            col = pd.Series(_WORDS[codes], dtype=object)
            if kind == "cat":
                col = col.astype("category")
        cols[f"m{j + 1}"] = col
    df = pd.DataFrame(cols)
    if rng.random() < 0.2:
        c = f"m{int(rng.integers(1, k + 1))}"
        rows = rng.random(n) < 0.1
        rows[0] = False
        df.loc[rows, c] = np.nan if df[c].dtype != object else None
    df["w"] = np.round(rng.uniform(1.0, 120.0, size=n), 2)
    if saturated:
        for c in cols:
            if df[c].dtype == np.float64:
                df[c] = df[c].astype("category")
        return Case(f"random-modrisk-saturated/{seed}", "random", df, tuple(cols), "w",
                    formula="~ " + " * ".join(cols))
    return Case(f"random-modrisk/{seed}", "random", df, tuple(cols), "w")


def random_household_case(seed: int) -> Case:
    """:func:`random_case` with a household id (numeric ids, households of 1 to 6 records).

    At least two records: sdcMicro's measure_risk fails with a household id on a single
    record (documented, and tested on its own)."""
    offset = 40_000
    base = random_case(offset + seed)
    while len(base.data) < 2:
        offset += 1_000
        base = random_case(offset + seed)
    rng = np.random.default_rng(50_000 + seed)
    df = base.data.copy()
    n = len(df)
    sizes = []
    while sum(sizes) < n:
        sizes.append(int(rng.integers(1, 7)))
    hh = np.repeat(np.arange(len(sizes)), sizes)[:n]
    df["hh"] = rng.permutation(hh).astype(np.int64) * 7 + 3  # ids that are not 0..k-1
    return Case(f"random-household/{seed}", "random", df, base.keys, base.weights, household="hh")


def random_household_cases(n: int = 200, seed: int = 0) -> list[Case]:
    return [random_household_case(seed + i) for i in range(n)]


def random_modrisk_cases(n: int = 200, seed: int = 9000) -> list[Case]:
    """`n` main-effects cases, then `n` // 4 saturated ones (from the first seeds' data)."""
    return ([random_modrisk_case(seed + i) for i in range(n)]
            + [random_modrisk_case(seed + i, saturated=True) for i in range(n // 4)])


def random_ldiversity_cases(n: int = 300, seed: int = 4052) -> list[Case]:
    return [random_ldiversity_case(seed + i) for i in range(n)]
