"""sdcMicro's combined utility score (sdc.ai_utility_score): by hand, by brute force, bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc


def test_by_hand():
    o = pd.DataFrame({"a": ["x", "y", "z", "z"], "c": ["p", "q", "q", "r"], "b": [1.0, 2.0, 3.0, 5.0]})
    r = pd.DataFrame({"a": ["x", None, "z", "z"], "c": ["p", "q", "q", "q"], "b": [1.0, 2.0, 4.0, 5.0]})
    s = sdc.ai_utility_score(o, r, ["a", "c"], ["b"])
    assert s.suppression_rate == pytest.approx(1 / 8)
    # a: on the 3 kept rows 2 levels before, 2 after -> 0; c: 3 levels -> 2 -> 1/3
    assert s.category_loss == pytest.approx((0 + 1 / 3) / 2)
    sd = np.std([1.0, 2.0, 3.0, 5.0], ddof=1)
    assert s.il1 == pytest.approx(1 / (np.sqrt(2) * sd) / 4)
    assert s.total == pytest.approx((s.suppression_rate + s.category_loss + s.il1) / 3, rel=1e-14)
    w = sdc.ai_utility_score(o, r, ["a", "c"], ["b"], weights=(2, 0, 0))
    assert w.weights == (1.0, 0.0, 0.0) and w.total == pytest.approx(1 / 8)
    assert list(s.to_frame()["variable"]) == ["a", "c"] and set(s.summary()["statistic"]) >= {"total", "il1"}


def test_identical_files_score_zero_and_input_untouched():
    df = sdc.load_example().head(200)
    before = df.copy()
    s = sdc.ai_utility_score(df, df.copy(), ["sex", "region"], ["bmi"])
    assert s.total == 0.0
    pd.testing.assert_frame_equal(df, before)


def test_recoded_numeric_adds_nothing_to_il1_but_counts_in_p():
    o = pd.DataFrame({"k": ["a", "b"], "x": [1.0, 2.0], "y": [1.0, 3.0]})
    r = o.assign(x=["low", "high"], y=[1.0, 4.0])
    s = sdc.ai_utility_score(o, r, ["k"], ["x", "y"])
    assert s.il1 == pytest.approx(1 / (np.sqrt(2) * np.std([1.0, 3.0], ddof=1)) / (2 * 2))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(2, 30))
def test_brute_force(seed, n):
    rng = np.random.default_rng(seed)
    o = pd.DataFrame({"a": rng.integers(0, 4, n).astype(str), "b": rng.integers(0, 3, n).astype(float)})
    r = o.copy()
    r.loc[rng.random(n) < 0.3, "a"] = None
    r["b"] = np.where(rng.random(n) < 0.3, 0.0, o["b"])
    s = sdc.ai_utility_score(o, r, ["a", "b"], mode="sdcmicro")
    bounded = sdc.ai_utility_score(o, r, ["a", "b"])
    cells = 2 * n
    new = sum(1 for i in range(n) for v in "ab" if pd.isna(r[v][i]) and not pd.isna(o[v][i]))
    losses = []
    for v in "ab":
        rows = [i for i in range(n) if not pd.isna(r[v][i])]
        lb, la = len({o[v][i] for i in rows}), len({r[v][i] for i in rows})
        losses.append(1 - la / lb if lb else 0.0)
    assert s.suppression_rate == pytest.approx(new / cells, abs=1e-15)
    assert s.category_loss == pytest.approx(sum(losses) / 2, abs=1e-15)
    assert bounded.category_loss == pytest.approx(sum(max(0.0, x) for x in losses) / 2, abs=1e-15)
    assert bounded.suppression_rate == s.suppression_rate and bounded.il1 == s.il1


def test_a_key_that_gains_values_loses_nothing_in_the_correct_mode_and_scores_below_0_in_sdcmicro_s():
    # microaggregation's group means: 2 ages become 3 distinct values
    o = pd.DataFrame({"age": [20.0, 20.0, 40.0, 40.0]})
    r = pd.DataFrame({"age": [20.0, 30.0, 30.0, 40.0]})
    sdcm = sdc.ai_utility_score(o, r, ["age"], mode="sdcmicro")
    ok = sdc.ai_utility_score(o, r, ["age"])
    assert sdcm.category_loss == pytest.approx(1 - 3 / 2) and sdcm.total < 0
    assert ok.category_loss == 0.0 and ok.total == 0.0 and ok.mode == "correct"
    with pytest.raises(ValueError, match="^`mode` must be one of"):
        sdc.ai_utility_score(o, r, ["age"], mode="bounded")


@pytest.mark.parametrize("kwargs, message", [
    ({"keys": []}, "`keys` must name"),
    ({"keys": ["nope"]}, "^`keys` names columns not in `original`: 'nope'"),
    ({"keys": ["a"], "numeric": ["nope"]}, "^`numeric` names columns not in `original`: 'nope'"),
    ({"keys": 3}, "^`keys` must be a column name"),
    ({"keys": ["a"], "numeric": 3}, "^`numeric` must be a column name"),
    ({"keys": ["a"], "numeric": ["a"]}, "`numeric` must name numeric"),
    ({"keys": ["a"], "weights": (1, 1)}, "`weights` must be three"),
    ({"keys": ["a"], "weights": (0, 0, 0)}, "`weights` must not all be 0"),
])
def test_bad_input_one_line(kwargs, message):
    o = pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]})
    with pytest.raises((ValueError, TypeError), match=message) as e:
        sdc.ai_utility_score(o, o.copy(), **kwargs)
    assert "\n" not in str(e.value)
