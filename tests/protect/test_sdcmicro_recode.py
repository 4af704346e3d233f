"""globalRecode, groupAndRename and topBotCoding vs sdcMicro, cell for cell (marker ``sdcmicro``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import r_bridge as rb
import sdc
from validation.crossval_protect import recode_diffs

pytestmark = pytest.mark.sdcmicro


def _agree(diffs):
    bad = [d.explain() for d in diffs if not d.agree]
    assert diffs and not bad, "\n".join(bad[:20])


def test_datasets_and_100_random_cases():
    diffs = recode_diffs(100)
    _agree(diffs)
    cases = {d.case for d in diffs if d.dataset == "random"}
    assert len(cases) == 100
    assert {d.dataset for d in diffs} == {"testdata", "free1", "CASCrefmicrodata", "random"}


def test_testdata_age_golden_counts():
    td = rb.load_dataset("testdata")
    ours = sdc.global_recode(td, "age", edges=[0, 10, 20, 50, 100], outside="missing").data["age"]
    counts = ours.value_counts(dropna=False)
    # sdcMicro: table(globalRecode(testdata$age, breaks = c(0, 10, 20, 50, 100)), useNA = "always")
    assert counts.to_dict() == {"(20,50]": 1667, "(0,10]": 1279, "(10,20]": 1047, "(50,100]": 489, np.nan: 98}
    theirs = rb.global_recode(td["age"], [0, 10, 20, 50, 100])
    assert theirs.isna().sum() == 98


def test_difference_values_outside_the_edges_raise_by_default():
    # sdcMicro (R's cut) silently turns age 0 into NA with breaks starting at 0; sdc raises unless
    # outside="missing" (docs/protection.md, "Differences from sdcMicro").
    td = rb.load_dataset("testdata")
    assert rb.global_recode(td["age"], [0, 50, 100]).isna().sum() == 98
    with pytest.raises(ValueError, match="lies outside the bands"):
        sdc.global_recode(td, "age", edges=[0, 50, 100])


def test_difference_equal_amount_duplicates_dropped_not_jittered():
    # Type-7 quantiles of x at 0, 1/4, 1/2, 3/4, 1 are 1, 1, 1, 2.25, 4. sdcMicro jitters the
    # duplicates at random (two calls, two sets of bands); sdc drops them (docs/protection.md).
    x = pd.Series([1.0, 1, 1, 1, 1, 2, 3, 4])
    r = sdc.global_recode(pd.DataFrame({"x": x}), "x", bins=4, bin_method="equalAmount")
    assert r.details["x"]["edges"] == [1.0, 2.25, 4.0]
    assert r.data["x"].tolist() == ["[1,2.25]"] * 6 + ["(2.25,4]"] * 2
    first = rb.global_recode(x, 4, method="equalAmount")
    second = rb.global_recode(x, 4, method="equalAmount")
    assert list(first.cat.categories) != list(second.cat.categories)
