"""local_recoding vs sdcMicro's LocalRecProg, live (marker ``sdcmicro``): francdat cell for cell, and
seeded random files varying every argument (validation/crossval_local_recoding.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from tests.scale import cases
from validation import crossval_local_recoding as cv

pytestmark = pytest.mark.sdcmicro


def test_francdat_cell_for_cell():
    for case in cv.francdat_cases():
        rows = cv.case_diffs(case)
        assert [r.measure for r in rows][-1] == "LocalRecProg: recoded cells (same least pairing)", case.name
        assert all(r.agree for r in rows), [r.explain() for r in rows]


def test_random_cases_every_argument():
    n = cases(100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        rows = [r for c in cv.random_cases(n) for r in cv.case_diffs(c)]
    bad = [r.explain() for r in rows if not r.agree]
    assert not bad, "\n".join(bad[:10])
    assert len({r.case for r in rows}) == n
    exact = [r for r in rows if r.measure.startswith("LocalRecProg: recoded cells")]
    assert len(exact) >= n // 4   # 39 of the 100 at full scale


def test_difference_sdcmicro_pairing_is_not_always_least():
    # five records: sdcMicro pairs (0, 4) and (1, 3), total 1.786; the least is (0, 1) and (2, 4), 1.214
    df = pd.DataFrame({"k0": [1.0] * 5, "k1": [3.0, 3, 2, 3, 3], "k2": [4.0, 4, 1, 4, 1],
                       "x0": [52.55, 60.665, 28.824, -1.0, 47.962]})
    case = cv.LocalCase("five", "hand", df, ("k0", "k1", "k2"), ("x0",),
                        args={"weight": [1.5, 1.0, 1.5, 0.25], "missing_value": 0.0})
    theirs, _ = cv.theirs(case)
    assert theirs["x0"].tolist() == pytest.approx([-4.588, 60.665, 0.0, 60.665, -4.588])
    ours = cv.run_case(case)
    assert ours.details["total_distance"] == pytest.approx(1.2139772, abs=1e-6)
    assert ours.data["x0"].tolist() == pytest.approx([-8.115, -8.115, -19.138, 0.0, -19.138])


def test_difference_one_variable_fails_in_sdcmicro():
    df = pd.DataFrame({"a": [1.0, 1, 2, 2]})
    with pytest.raises(Exception, match="subscript out of bounds"):
        cv.theirs(cv.LocalCase("one", "hand", df, ("a",)))
    assert sdc.local_recoding(df, "a").data["a"].tolist() == [1, 1, 2, 2]


def test_warm_timing_is_positive():
    case = cv.francdat_cases()[1]
    _, secs = cv.theirs(case, reps=2)
    assert np.isfinite(secs) and secs >= 0


def test_difference_ancestors_of_one_key_fail_and_of_a_third_key_are_ignored_in_sdcmicro():
    df = pd.DataFrame({"a": [1.0, 1, 3, 3, 5, 5], "b": [1.0, 1, 2, 2, 1, 1], "c": [1.0, 2, 3, 4, 5, 6],
                       "a2": [1.0, 1, 2, 2, 3, 3], "b2": [1.0] * 6, "c2": [1.0, 1, 2, 2, 3, 3]})
    one = cv.LocalCase("one", "hand", df, ("a", "b"), ancestors={"a": ["a2"]})
    with pytest.raises(Exception, match="colnames"):
        cv.theirs(one)
    three = cv.LocalCase("three", "hand", df, ("a", "b", "c"), ancestors={"a": ["a2"], "b": ["b2"], "c": ["c2"]})
    theirs, _ = cv.theirs(three)
    assert theirs["c"].isna().all()                      # c's ancestor c2 is not read
    ours = cv.run_case(three)
    assert ours.data["c"].tolist() == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert ours.data[["a", "b"]].equals(theirs[["a", "b"]])
