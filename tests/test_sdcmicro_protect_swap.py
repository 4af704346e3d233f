"""rankSwap vs sdcMicro: top/bottom means and the values exactly (as a multiset), the rank window,
and the swaps by a test (marker ``sdcmicro``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import r_bridge as rb
import sdc
from validation.crossval_protect import swap_diffs

pytestmark = pytest.mark.sdcmicro


def test_datasets_and_100_random_cases():
    diffs = swap_diffs(100)
    bad = [d.explain() for d in diffs if not d.agree]
    assert not bad, "\n".join(bad[:20])
    assert len({d.case for d in diffs if d.case.startswith("random/")}) == 100


def test_difference_p_is_a_fraction_in_sdcmicro():
    # sdcMicro's documentation calls P a percentage; its C++ uses it as a fraction. sdc's `p` is a
    # percentage: p=5 here is P=0.05 there (docs/protection.md).
    df = pd.DataFrame({"v": np.arange(1.0, 201.0)})
    their_5 = rb.rank_swap(df, ["v"], TopPercent=0, BottomPercent=0, P=0.05, seed=3)["v"].to_numpy()
    their_500 = rb.rank_swap(df, ["v"], TopPercent=0, BottomPercent=0, P=5, seed=3)["v"].to_numpy()
    ours = sdc.rank_swap(df, "v", p=5, top_percent=0, bottom_percent=0, seed=3).data["v"].to_numpy()
    x = df["v"].to_numpy()
    assert np.abs(their_5 - x).max() < 10 and np.abs(ours - x).max() < 10
    assert np.abs(their_500 - x).max() > 100


def test_difference_one_empty_group_crashes_sdcmicro_not_sdc():
    df = pd.DataFrame({"v": np.arange(1.0, 31.0)})   # 30 values: 10% is 2 records, 2.5% is none
    with pytest.raises(ValueError, match="sdcMicro's rankSwap crashes R"):
        rb.rank_swap(df, ["v"], TopPercent=10, BottomPercent=2.5, R0=0.95, seed=1)
    r = sdc.rank_swap(df, "v", top_percent=10, bottom_percent=2.5, seed=1)
    assert r.details["v"]["top_coded"] == 2 and r.details["v"]["bottom_coded"] == 0
