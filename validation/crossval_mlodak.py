"""sdc's il_correl, il_variables and robust_eigen_loss vs sdcMicro's IL_correl, IL_variables and
dUtility(method = "robeigen"), through :func:`r_bridge.mlodak_batch` (one R call per batch).

Cases: sdcMicro's testdata (numeric expend, income, savings as doubles; keys as text, age
bands as an ordered factor) with seeded noise, and seeded random datasets (three numeric
variables, an ordered and a nominal categorical; noise, recoded categories; every third with
missing values on both sides, every third (no missing value) with robeigen).

    python -m validation.crossval_mlodak   # prints the figures of the rows in cross_validation.md
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

import r_bridge
import sdc
from sdc.utility.eigen import eigen_loss

NUMERIC = ("a", "b", "c")
LEVELS = ["lo", "mid", "hi"]


def random_case(seed: int) -> r_bridge.MlodakCase:
    """A seeded random pair (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(25, 60))
    x = pd.DataFrame(rng.normal(size=(n, 3)) @ (np.eye(3) + 0.5 * rng.normal(size=(3, 3))), columns=list(NUMERIC))
    x["o"] = pd.Categorical(rng.choice(LEVELS, n), categories=LEVELS, ordered=True)
    x["s"] = rng.choice(["u", "v", "w"], n).astype(object)
    xm = x.copy()
    xm[list(NUMERIC)] = x[list(NUMERIC)] + rng.normal(scale=rng.uniform(0.05, 1.5), size=(n, 3))
    for col, values in (("o", LEVELS), ("s", ["u", "v", "w"])):
        ch = rng.random(n) < 0.2
        xm.loc[ch, col] = rng.choice(values, int(ch.sum()))
    if seed % 3 == 0:
        for col in ("a", "o", "s"):
            xm.loc[rng.random(n) < 0.1, col] = np.nan if col == "a" else None
            x.loc[rng.random(n) < 0.05, col] = np.nan if col == "a" else None
    return r_bridge.MlodakCase(x, xm, robeigen=seed % 3 == 1, numeric=NUMERIC, seed=seed)


def testdata_case(seed: int = 1, robeigen: bool = True) -> r_bridge.MlodakCase:
    """sdcMicro's testdata: numeric variables with 10% noise, two keys recoded (`robeigen`: 4,580
    records, four covMcd runs in R)."""
    t = r_bridge.load_dataset("testdata")
    rng = np.random.default_rng(seed)
    x = pd.DataFrame({c: t[c].astype(np.float64) for c in ("expend", "income", "savings")})
    x["roof"] = t["roof"].astype(str).astype(object)
    x["sex"] = t["sex"].astype(str).astype(object)
    bands = ["0-19", "20-39", "40-59", "60+"]
    x["ageband"] = pd.Categorical(pd.cut(t["age"], [-1, 19, 39, 59, 200], labels=bands).astype(str),
                                  categories=bands, ordered=True)
    xm = x.copy()
    for c in ("expend", "income", "savings"):
        xm[c] = x[c] + rng.normal(scale=0.1 * x[c].std(), size=len(x))
    xm.loc[rng.random(len(x)) < 0.1, "roof"] = "9"
    xm.loc[rng.random(len(x)) < 0.1, "ageband"] = "60+"
    return r_bridge.MlodakCase(x, xm, robeigen=robeigen, numeric=("expend", "income", "savings"), seed=seed)


@dataclass(frozen=True)
class MlodakDiffs:
    """Largest differences over the cases: IL_correl and IL_variables (absolute), robeigen from
    sdcMicro's own covariances (relative), and sdc's own MCD: relative differences per case."""

    il_correl: float
    il_variables: float
    robeigen_formula: float
    own_mcd: tuple[float, ...]
    n_cases: int
    n_robeigen: int


def compare(cases: list[r_bridge.MlodakCase], own_mcd: int = 0) -> MlodakDiffs:
    """Every case in one R call; sdc's own MCD on the first `own_mcd` robeigen cases."""
    outs = r_bridge.mlodak_batch(cases)
    dc = dv = de = 0.0
    own: list[float] = []
    nrob = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c, o in zip(cases, outs):
            dc = max(dc, abs(sdc.il_correl(c.original, c.released).value - o.il_correl))
            r = sdc.il_variables(c.original, c.released)
            dv = max(dv, abs(r.value - o.il_variables), float(np.max(np.abs(r.loss.to_numpy() - o.indiv))))
            if c.robeigen:
                nrob += 1
                de = max(de, abs(eigen_loss(o.cov_before, o.cov_after) - o.robeigen) / o.robeigen)
                if len(own) < own_mcd:
                    mine = sdc.robust_eigen_loss(c.original, c.released, list(c.numeric)).value
                    own.append(abs(mine - o.robeigen) / o.robeigen)
    return MlodakDiffs(dc, dv, de, tuple(own), len(cases), nrob)


if __name__ == "__main__":  # pragma: no cover
    import time

    t = time.time()
    print("random:", compare([random_case(21_000 + s) for s in range(120)], own_mcd=40), f"{time.time() - t:.1f} s")
    t = time.time()
    print("testdata:", compare([testdata_case()], own_mcd=1), f"{time.time() - t:.1f} s")
