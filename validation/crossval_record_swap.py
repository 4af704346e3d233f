"""Cross-validation of ``record_swap`` and ``info_loss`` against sdcMicro's ``recordSwap`` and
``infoLoss``, in the table's style (rows of :class:`sdc.workflow.crosscheck.Diff`).

    .venv/bin/python -m validation.crossval_record_swap [--random 4]

Files: sdcMicro's ``createDat(2000)`` census (``set.seed(1)``: 2,000 households) and
``n_random`` more ``createDat(H)`` files (H a multiple of 16 between 160 and 960, seeded).
Hierarchy nuts1 > nuts2 > nuts3, similar hsize, risk variables ageGroup and national.

* **invariants**: sdcMicro's and sdc's swapped files both keep households whole, one donor
  each, pairs exchanging their geography, the donor's similar profile, another stratum, the
  other households untouched (``tests/protect/test_record_swap.py::swap_invariants``);
  the value is the number of broken files (exact: 0);
* **the swap count without the risk rule** (k_anonymity = 0) at swap rates 1/8 and 1/4
  (binary-exact): on createDat(2000), where every stratum's share of S = H * rate / 2 comes out
  whole, the rule's count 2S on both sides, exactly (seeds 1, 2); on the smaller files, where
  the strata's rounded shares vary with the draws (both sides swap 2S or a few fewer), the
  mean count over seeds 1-4 to 5 % relative or within one swap (2 households);
* **the swap count with k_anonymity = 3** (seeds 1-3 on each side): a Welch t-test of the
  two samples of counts (a ``(... test)`` row: ``max_abs_diff`` the statistic, ``max_rel_diff``
  1 - p, agreeing when p >= 1e-4); the two sides draw other households (numpy vs std::mt19937);
* **info_loss vs infoLoss** on sdcMicro's own swapped file: cells, false zeros and false
  non-zeros exactly, every measure (quantiles and mean of absD, relabsD, abssqrtD) to 1e-12.
"""

from __future__ import annotations

import argparse
import sys
import warnings

import numpy as np
import pandas as pd
from scipy import stats

import r_bridge.protection as rp
import sdc
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["record_swap_diffs", "census_files", "GEO", "RISK"]

GEO = ["nuts1", "nuts2", "nuts3"]
RISK = ["ageGroup", "national"]
ALPHA = 1e-4
RTOL_MEAN = 0.05  # mean swap counts on the small files: the strata's rounded shares vary with the draws,
ATOL_MEAN = 2.0   # (or within one swap, two households)
TABLES = ((["nuts1", "nuts2", "gender"], None), (["nuts2", "hsize"], "hid"), (["nuts3", "ageGroup"], None))


def census_files(n_random: int, seed: int = 9600) -> list[tuple[str, str, pd.DataFrame]]:
    """(case, dataset, file): createDat(2000) with set.seed(1), then `n_random` seeded smaller ones."""
    out = [("createDat(2000)/seed 1", "createDat(2000)", rp.create_dat(2000, 1))]
    rng = np.random.default_rng(seed)
    for i in range(n_random):
        h = 16 * int(rng.integers(10, 61))
        out.append((f"createDat({h})/seed {seed + i}", "createDat random", rp.create_dat(h, seed + i)))
    return out


def _theirs(d: pd.DataFrame, rate: float, k: int, seed: int) -> pd.DataFrame:
    return rp.record_swap(d, hid="hid", hierarchy=GEO, similar=[["hsize"]], swaprate=rate, k_anonymity=k,
                          risk_variables=RISK, return_swapped_id=True, seed=seed)


def _ours(d: pd.DataFrame, rate: float, k: int, seed: int) -> pd.DataFrame:
    return sdc.record_swap(d, GEO, hid="hid", similar=["hsize"], swaprate=rate, k_anonymity=k, risk_variables=RISK,
                           return_swapped_id=True, seed=seed).data


def _count(orig: pd.DataFrame, swapped: pd.DataFrame) -> tuple[int, bool]:
    """(swapped households, whether every invariant holds)."""
    from tests.protect.test_record_swap import swap_invariants

    try:
        return swap_invariants(orig, swapped, hid="hid", hierarchy=GEO, similar=["hsize"]), True
    except AssertionError:
        first = swapped.groupby("hid")["hid_swapped"].first()
        return int((first.to_numpy() != first.index.to_numpy()).sum()), False


def _file_diffs(case: str, dataset: str, d: pd.DataFrame, exact: bool) -> list[Diff]:
    out: list[Diff] = []
    broken = {"sdc": 0, "sdcMicro": 0}
    for rate in (0.125, 0.25):
        counts: dict[str, list[int]] = {"sdc": [], "sdcMicro": []}
        for s in (1, 2) if exact else (1, 2, 3, 4):
            for side, swapped in (("sdc", _ours(d, rate, 0, s)), ("sdcMicro", _theirs(d, rate, 0, s))):
                n, ok = _count(d, swapped)
                counts[side].append(n)
                broken[side] += not ok
        if exact:
            out.append(compare_values("recordSwap: swapped households, k_anonymity = 0 (the rule's count)",
                                      f"{case}/rate {rate}", dataset, counts["sdc"], counts["sdcMicro"], rtol=None))
        else:
            out.append(compare_values("recordSwap: mean swapped households over 4 seeds, k_anonymity = 0",
                                      f"{case}/rate {rate}", dataset, np.mean(counts["sdc"]),
                                      np.mean(counts["sdcMicro"]), rtol=RTOL_MEAN, atol=ATOL_MEAN))
    ours, theirs = [], []
    for s in (1, 2, 3):
        n, ok = _count(d, _ours(d, 0.05, 3, s))
        ours.append(n)
        broken["sdc"] += not ok
        swapped = _theirs(d, 0.05, 3, s)
        n, ok = _count(d, swapped)
        theirs.append(n)
        broken["sdcMicro"] += not ok
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # equal samples: no variance, p is NaN (taken as 1)
        t = stats.ttest_ind(ours, theirs, equal_var=False)
    p = 1.0 if not np.isfinite(t.pvalue) else float(t.pvalue)
    if np.std(ours) == 0 and np.std(theirs) == 0:  # no spread on either side: within one swap, or not
        p = 1.0 if abs(np.mean(ours) - np.mean(theirs)) <= ATOL_MEAN else 0.0
    stat = 0.0 if not np.isfinite(t.statistic) else abs(float(t.statistic))
    out.append(Diff("recordSwap: swapped households, k_anonymity = 3, rate 0.05 (Welch t test)", case, dataset, 6,
                    stat, 1 - p, p >= ALPHA, False, 1 - ALPHA))
    for side, n in broken.items():
        out.append(compare_values(f"recordSwap: {side}'s swapped files breaking an invariant", case, dataset,
                                  n, 0, rtol=None))
    for tv, hid in TABLES:
        name = f"{case}/{'+'.join(tv)}" + ("/hid" if hid else "")
        theirs_il = rp.info_loss(d, swapped, tv, hid=hid)
        ours_il = sdc.info_loss(d, swapped, tv, hid=hid)
        out.append(compare_values("infoLoss: cells, false_zero, false_nonzero", name, dataset,
                                  [len(ours_il.cells), ours_il.false_zero, ours_il.false_nonzero],
                                  [theirs_il["cells"], theirs_il["false_zero"], theirs_il["false_nonzero"]],
                                  rtol=None))
        m = theirs_il["measures"]
        same = list(ours_il.measures.index) == list(m.index) and list(ours_il.measures.columns) == list(m.columns)
        out.append(compare_values("infoLoss: measures (quantiles, mean)", name, dataset,
                                  ours_il.measures.to_numpy(dtype=float) if same else [np.nan],
                                  m.to_numpy(dtype=float), rtol=1e-12, atol=1e-12))
    return out


def record_swap_diffs(n_random: int = 4, seed: int = 9600) -> list[Diff]:
    """Every row on createDat(2000) and `n_random` seeded createDat files."""
    out: list[Diff] = []
    for i, (case, dataset, d) in enumerate(census_files(n_random, seed)):
        out += _file_diffs(case, dataset, d, exact=i == 0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=4)
    args = ap.parse_args(argv)
    table = summarise(record_swap_diffs(args.random))
    print(table.to_string(index=False))
    return 0 if bool(table["agree"].all()) else 1


if __name__ == "__main__":
    sys.exit(main())
