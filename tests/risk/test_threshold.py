"""The mu-Argus global-risk threshold, against sdcMicro's loop replayed record by record."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.risk.threshold import global_threshold
from tests import brute, scale


def _t(risks, g, seed=0):
    """Threshold through the pattern-level API: distinct values in shuffled order with counts."""
    values, counts = np.unique(np.asarray(risks, dtype=float), return_counts=True)
    perm = np.random.default_rng(seed).permutation(values.size)
    return global_threshold(values[perm], counts[perm], g)


def test_safe_file_gives_nan():
    assert math.isnan(_t([0.001] * 100, 0.01))  # sum 0.1 < 0.01 * 100


def test_threshold_is_the_first_level_that_brings_the_sum_below_target():
    risks = [1.0] * 2 + [0.5] * 4 + [0.1] * 10 + [0.01] * 84
    # target 0.05 * 100 = 5; at level 0.5: S = 2 + 1 + 0.84 = 3.84, + 0.5 * 2 = 4.84 < 5 -> 0.5
    assert _t(risks, 0.05) == 0.5
    assert _t(risks, 0.05) == brute.threshold(risks, 0.05)


def test_no_level_qualifies_gives_zero():
    assert _t([1.0, 1.0, 0.5], 0.01) == 0.0
    # A zero-risk level always qualifies (its remaining sum is 0), so the answer is 0 too.
    assert _t([1.0, 1.0, 0.0], 0.01) == 0.0 == brute.threshold([1.0, 1.0, 0.0], 0.01)
    # All risks zero: the file is already safe.
    assert math.isnan(_t([0.0, 0.0], 0.01))


def test_golden_francdat_thresholds():
    # francdat (keys 2,4,5,6; w = 8): reference section 2.3.
    rk = [0.0171442615962852, 0.0220423261832562, 0.0220423261832562, 0.1770758340035135, 0.0116544801460120,
          0.2970630773828337, 0.4023594781085251, 0.0171442615962852]
    want = {0.001: 0.0, 0.01: 0.0, 0.05: 0.0220423261832562, 0.1: 0.177075834003514, 0.2: math.nan, 0.5: math.nan}
    for g, t in want.items():
        got = _t(rk, g)
        assert (math.isnan(t) and math.isnan(got)) or got == pytest.approx(t, rel=1e-12), g


def test_near_ties_are_decided_in_sdcmicro_order():
    # Sums that equal the target in exact arithmetic: aggregated and sequential sums may
    # round apart, so the level walk falls back to replaying the record loop.
    risks = [1 / 3] * 3 + [1 / 7] * 7 + [0.1] * 10
    for g in (0.1, 0.15, 0.2, 0.25):
        got, want = _t(risks, g), brute.threshold(risks, g)
        assert (math.isnan(got) and math.isnan(want)) or got == want


@settings(max_examples=scale.examples(300))
@given(st.lists(st.sampled_from([1.0, 0.5, 1 / 3, 0.25, 0.2, 0.1, 1 / 7, 0.05, 0.0]), min_size=1, max_size=60),
       st.sampled_from([0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.9]))
def test_matches_record_loop_with_ties(risks, g):
    got, want = _t(risks, g), brute.threshold(risks, g)
    assert (math.isnan(got) and math.isnan(want)) or got == want


@settings(max_examples=scale.examples(200))
@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=80), st.floats(0.001, 0.99))
def test_matches_record_loop_on_arbitrary_risks(risks, g):
    got, want = _t(risks, g), brute.threshold(risks, g)
    assert (math.isnan(got) and math.isnan(want)) or got == want


def test_duplicated_values_across_patterns_are_one_level():
    # Two patterns with the same risk must act as one level (sdcMicro sees records only).
    risk = np.array([0.5, 0.1, 0.5, 0.05, 0.1])
    count = np.array([1, 3, 2, 10, 4])
    records = np.repeat(risk, count)
    for g in (0.01, 0.05, 0.1, 0.2):
        got, want = global_threshold(risk, count, g), brute.threshold(records, g)
        assert (math.isnan(got) and math.isnan(want)) or got == want


@settings(max_examples=scale.examples(200))
@given(st.lists(st.sampled_from([1.0, 0.5, 1 / 3, 0.25, 0.2, 0.1, 1 / 7, 0.05, 0.0, 0.013, 0.0007]), min_size=1,
                max_size=60), st.sampled_from([0.001, 0.01, 0.05, 0.1, 0.2, 0.5]), st.integers(0, 3))
def test_histogram_path_matches_record_loop(risks, g, seed):
    import sdc.risk.threshold as th

    old = th._HISTOGRAM_FROM
    th._HISTOGRAM_FROM = 0
    try:
        got, want = _t(risks, g, seed), brute.threshold(risks, g)
    finally:
        th._HISTOGRAM_FROM = old
    assert (math.isnan(got) and math.isnan(want)) or got == want


@pytest.mark.parametrize("g", [0.001, 0.01, 0.05, 0.2])
def test_many_patterns(g):
    # 200,000 patterns (the histogram path), risks of weighted uniques and small classes.
    rng = np.random.default_rng(7)
    risk = np.round(rng.beta(0.5, 8, size=200_000), 6)
    count = rng.integers(1, 4, size=risk.size)
    got = global_threshold(risk, count, g)
    want = brute.threshold(np.repeat(risk, count), g)
    assert (math.isnan(got) and math.isnan(want)) or got == want
