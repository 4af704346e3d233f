"""Issue 11, the measures: exact boundaries, clear messages instead of silent passes or
tracebacks, per-variable thresholds, bounded snapshots, and the notebook API.

Each test names the item of issue 11 it pins; each failed on the tree before the fix.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.exceptions import SdcWarning


# ---- item 1: entropy l-diversity at its exact boundaries ---------------------------------------

@pytest.mark.parametrize(("counts", "l"), [
    ([4, 2, 1, 1, 1, 1], 5),  # exp(H) = 5 exactly: p = .4, .2, .1 x 4
    *[([1] * m, m) for m in (3, 6, 7, 8, 10, 14)],  # m equally frequent values: exp(H) = m
    ([2, 2, 2], 3), ([5, 5], 2),
])
@pytest.mark.parametrize("mode", ["correct", "sdcmicro"])
def test_entropy_l_diversity_on_the_boundary_is_not_below(counts: list[int], l: int, mode: str) -> None:
    values = [f"v{i}" for i, n in enumerate(counts) for _ in range(n)]
    df = pd.DataFrame({"k": 1, "s": values})
    r = sdc.l_diversity(df, ["k"], "s", l=l, mode=mode)
    assert r.classes["s_entropy"].iloc[0] == pytest.approx(l, rel=1e-12)
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == 0
    assert r.classes_below("s", "entropy").empty
    # one step above the boundary is below: l + 1 is not reached
    r = sdc.l_diversity(df, ["k"], "s", l=l + 1, mode=mode)
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == len(df)


def test_entropy_just_below_l_is_below() -> None:
    # counts [3, 1, 1]: exp(H) = 3.80...; l = 4 is not reached
    df = pd.DataFrame({"k": 1, "s": list("aaabc")})
    r = sdc.l_diversity(df, ["k"], "s", l=4)
    assert r.classes["s_entropy"].iloc[0] == pytest.approx(math.exp(-(0.6 * math.log(0.6) + 0.4 * math.log(0.2))))
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == 5


# ---- item 5: l-diversity without silent passes ----------------------------------------------------

def test_l_diversity_of_an_all_missing_sensitive_variable_is_an_error() -> None:
    df = pd.DataFrame({"k": [1, 1, 2, 2], "s": [np.nan] * 4})
    with pytest.raises(ValueError, match="sensitive variable 's' is missing in every record"):
        sdc.l_diversity(df, ["k"], "s")
    sdc.l_diversity(df, ["k"], "s", mode="sdcmicro")  # sdcMicro counts each NA as a category


def test_l_above_the_number_of_values_warns() -> None:
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 2], "s": list("abcabc")})
    with pytest.warns(SdcWarning, match=r"l = 4 but 's' takes only 3 distinct value\(s\) in the whole file"):
        r = sdc.l_diversity(df, ["k"], "s", l=4)
    assert r.by_sensitive["n_records_below_l"].iloc[0] == 6 and r.by_sensitive["n_values"].iloc[0] == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", SdcWarning)
        sdc.l_diversity(df, ["k"], "s", l=3)  # reachable: no warning


# ---- item 6: a threshold per sensitive variable ---------------------------------------------------

def test_l_per_sensitive_variable() -> None:
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 2], "a": list("abcaab"), "b": list("xyzxyz")})
    r = sdc.l_diversity(df, ["k"], ["a", "b"], l={"a": 3, "b": 2})
    rows = r.by_sensitive.set_index("sensitive")
    assert rows.loc["a", "l"] == 3 and rows.loc["a", "n_records_below_l"] == 3  # class 2 has a, a, b
    assert rows.loc["b", "l"] == 2 and rows.loc["b", "n_records_below_l"] == 0
    assert r.l_of("a") == 3 and len(r.classes_below("a")) == 1
    with pytest.raises(ValueError, match="missing: 'b'"):
        sdc.l_diversity(df, ["k"], ["a", "b"], l={"a": 3})
