"""recordSwap and infoLoss vs sdcMicro (marker ``sdcmicro``), on sdcMicro's createDat(2000)
census file (set.seed(1); 2,000 households, 7,015 persons): the invariants of
test_record_swap.py hold for sdcMicro's output, the swap counts agree (exactly where the rule is
deterministic), and info_loss equals infoLoss on sdcMicro's swapped file to 1e-12."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import r_bridge.protection as rp
import sdc
from tests.protect.test_record_swap import swap_invariants

pytestmark = pytest.mark.sdcmicro

GEO = ["nuts1", "nuts2", "nuts3"]
RISK = ["ageGroup", "national"]


@pytest.fixture(scope="module")
def census() -> pd.DataFrame:
    return rp.create_dat(2000, 1)


def _theirs(d: pd.DataFrame, rate: float, k: int, seed: int) -> pd.DataFrame:
    return rp.record_swap(d, hid="hid", hierarchy=GEO, similar=[["hsize"]], swaprate=rate, k_anonymity=k,
                          risk_variables=RISK, return_swapped_id=True, seed=seed)


def _ours(d: pd.DataFrame, rate: float, k: int, seed: int) -> sdc.ProtectionResult:
    return sdc.record_swap(d, GEO, hid="hid", similar=["hsize"], swaprate=rate, k_anonymity=k, risk_variables=RISK,
                           return_swapped_id=True, seed=seed)


@pytest.mark.parametrize("rate, counts", [(0.1, {200}), (0.05, {100}), (0.0333, {66, 68})])
def test_the_rule_gives_the_same_counts(census: pd.DataFrame, rate: float, counts: set[int]) -> None:
    # without the k-anonymity rule S = ceil or floor(2000 rate / 2) swaps: exact when it is an integer
    for seed in (1, 2):
        theirs = _theirs(census, rate, 0, seed)
        n = swap_invariants(census, theirs, hid="hid", hierarchy=GEO, similar=["hsize"])
        assert n in counts, (rate, seed, n)
        ours = _ours(census, rate, 0, seed)
        assert swap_invariants(census, ours.data, hid="hid", hierarchy=GEO, similar=["hsize"]) in counts


def test_the_k_anonymity_rule(census: pd.DataFrame) -> None:
    # every household at risk (a count of its risk variables and geography below k = 3) is swapped:
    # sdcMicro's count and ours agree in distribution (the same rule, other draws)
    theirs = [swap_invariants(census, _theirs(census, 0.05, 3, s), hid="hid", hierarchy=GEO, similar=["hsize"])
              for s in (1, 2, 3)]
    ours = [_ours(census, 0.05, 3, s) for s in (1, 2, 3)]
    mine = [swap_invariants(census, r.data, hid="hid", hierarchy=GEO, similar=["hsize"]) for r in ours]
    assert min(theirs) > 100 and min(mine) > 100  # more than the swap rate alone
    assert abs(np.mean(theirs) - np.mean(mine)) < 0.1 * np.mean(theirs), (theirs, mine)


@pytest.mark.parametrize("tv, hid", [(["nuts1", "nuts2", "gender"], None), (["nuts2", "hsize"], "hid"),
                                     (["nuts3", "ageGroup"], None)])
def test_info_loss_equals_sdcmicro(census: pd.DataFrame, tv: list[str], hid: str | None) -> None:
    swapped = _theirs(census, 0.1, 3, 7)
    theirs = rp.info_loss(census, swapped, tv, hid=hid)
    ours = sdc.info_loss(census, swapped, tv, hid=hid)
    assert len(ours.cells) == theirs["cells"]
    assert ours.false_zero == theirs["false_zero"] and ours.false_nonzero == theirs["false_nonzero"]
    assert list(ours.measures.index) == list(theirs["measures"].index)
    diff = (ours.measures - theirs["measures"]).abs().to_numpy().max()
    assert diff <= 1e-12
