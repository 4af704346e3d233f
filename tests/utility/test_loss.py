"""IL1 as a share of the range (information_loss) and sdcMicro's IL1s / IL1 (il1s): hand values,
brute force on random data, properties, matching of records, input untouched."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdc._stats import summary_values
import sdc
from sdc.exceptions import DegenerateDataWarning

# ---------------------------------------------------------------------------------------------
# Hand-computed values.
# ---------------------------------------------------------------------------------------------


def test_numeric_il1_is_the_mean_share_of_the_range():
    orig = pd.DataFrame({"x": [0.0, 10.0, 20.0, 40.0]})
    rel = pd.DataFrame({"x": [4.0, 10.0, 16.0, 40.0]})
    r = sdc.information_loss(orig, rel, "x")
    # range 40; |diffs| 4, 0, 4, 0 -> (0.1 + 0 + 0.1 + 0) / 4
    assert r.il1["x"] == pytest.approx(0.05, abs=1e-15)
    assert r.overall == pytest.approx(0.05, abs=1e-15)
    row = r.per_variable.loc["x"]
    assert (row["kind"], row["n_compared"], row["n_changed"], row["n_suppressed"], row["range"]) == \
        ("numeric", 4, 2, 0, 40.0)


def test_categorical_il1_is_the_share_of_changed_values():
    orig = pd.DataFrame({"sex": ["m", "f", "f", "m", "f"]})
    rel = pd.DataFrame({"sex": ["m", "m", "f", "f", "f"]})
    r = sdc.information_loss(orig, rel, ["sex"])
    assert r.il1["sex"] == pytest.approx(2 / 5)
    assert r.per_variable.loc["sex", "kind"] == "categorical"
    assert math.isnan(r.per_variable.loc["sex", "range"])


def test_overall_is_the_mean_over_variables():
    orig = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0], "c": list("aabb")})
    rel = pd.DataFrame({"x": [0.0, 1.0, 2.0, 0.0], "c": list("abbb")})
    r = sdc.information_loss(orig, rel, ["x", "c"])
    assert r.il1.tolist() == pytest.approx([0.25, 0.25])  # 3/3/4 and 1/4
    assert r.overall == pytest.approx(0.25)


def test_integer_coded_keys_can_be_compared_as_categories():
    orig = pd.DataFrame({"roof": [1, 2, 3, 4]})
    rel = pd.DataFrame({"roof": [1, 2, 3, 1]})
    assert sdc.information_loss(orig, rel, "roof").il1["roof"] == pytest.approx(3 / 3 / 4)
    assert sdc.information_loss(orig, rel, "roof", categorical="roof").il1["roof"] == pytest.approx(1 / 4)


def test_generalised_numeric_variable_uses_the_interval_width():
    orig = pd.DataFrame({"age": [20, 25, 39, 60, 80]})  # range 60
    rel = pd.DataFrame({"age": ["20--30", "20--30", "30--40", "60--inf", "[60, 100)"]})
    r = sdc.information_loss(orig, rel, "age")
    assert r.per_variable.loc["age", "kind"] == "generalised"
    # widths 10, 10, 10 over range 60; an open band counts 1; [60, 100) is 40/60
    assert r.il1["age"] == pytest.approx((1 / 6 * 3 + 1 + 40 / 60) / 5)


def test_generalised_value_outside_its_interval_counts_the_far_end_and_non_intervals_count_1():
    orig = pd.DataFrame({"age": [0.0, 10.0, 100.0]})
    rel = pd.DataFrame({"age": ["20--30", "*", "pd"]})
    r = sdc.information_loss(orig, rel, "age")
    # 0 outside [20, 30]: far end 30 -> 0.3; "*" and "pd" are no interval -> 1
    assert r.per_variable.loc["age", "kind"] == "generalised"
    assert r.il1["age"] == pytest.approx((0.3 + 1 + 1) / 3)


def test_pandas_intervals_are_generalisations():
    orig = pd.DataFrame({"x": [1.0, 2.0, 9.0, 11.0]})  # range 10
    rel = pd.DataFrame({"x": pd.cut(orig["x"], [0, 5, 12])})
    r = sdc.information_loss(orig, rel, "x")
    assert r.per_variable.loc["x", "kind"] == "generalised"
    assert r.il1["x"] == pytest.approx((0.5 + 0.5 + 0.7 + 0.7) / 4)


def test_relabelled_numeric_variable_without_intervals_is_categorical():
    orig = pd.DataFrame({"age": [20, 70]})
    rel = pd.DataFrame({"age": ["young", "old"]})
    r = sdc.information_loss(orig, rel, "age")
    assert r.per_variable.loc["age", "kind"] == "categorical"
    assert r.il1["age"] == 1.0


def test_suppressed_cells_are_ignored_or_count_as_maximal_loss():
    orig = pd.DataFrame({"x": [0.0, 10.0, 20.0, np.nan], "c": ["a", "b", "b", "a"]})
    rel = pd.DataFrame({"x": [2.0, np.nan, 20.0, 5.0], "c": ["a", None, "a", "a"]})
    ign = sdc.information_loss(orig, rel, ["x", "c"], suppressed="ignore")
    # x: pairs (0,2), (20,20) -> (0.1 + 0) / 2; the record missing in the original is never counted
    assert ign.il1["x"] == pytest.approx(0.05)
    assert ign.il1["c"] == pytest.approx(1 / 3)
    assert ign.per_variable["n_suppressed"].tolist() == [1, 1]
    mx = sdc.information_loss(orig, rel, ["x", "c"], suppressed="max")
    assert mx.il1["x"] == pytest.approx((0.1 + 0 + 1) / 3)
    assert mx.il1["c"] == pytest.approx((1 + 1) / 4)
    assert mx.per_variable["n_compared"].tolist() == [3, 4]


def test_constant_original_variable_gives_nan_with_a_warning_unless_unchanged():
    orig = pd.DataFrame({"x": [5.0, 5.0, 5.0], "y": [1.0, 2.0, 3.0]})
    rel = pd.DataFrame({"x": [5.0, 6.0, 5.0], "y": [1.0, 2.0, 5.0]})
    with pytest.warns(DegenerateDataWarning, match="'x' is constant"):
        r = sdc.information_loss(orig, rel, ["x", "y"])
    assert math.isnan(r.il1["x"])
    assert r.overall == pytest.approx(r.il1["y"])  # NaN variables are left out of the mean
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sdc.information_loss(orig, orig.copy(), ["x"]).il1["x"] == 0.0


def test_default_variables_are_the_transformed_ones():
    orig = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"], "c": [1.0, np.nan, 3.0]})
    rel = orig.copy()
    rel["b"] = ["x", "x", "z"]
    r = sdc.information_loss(orig, rel)
    assert r.variables == ("b",)
    none = sdc.information_loss(orig, orig.copy())
    assert none.variables == () and none.overall == 0.0


def test_noise_beyond_the_range_can_exceed_one():
    orig = pd.DataFrame({"x": [0.0, 1.0]})
    rel = pd.DataFrame({"x": [3.0, 1.0]})
    assert sdc.information_loss(orig, rel, "x").il1["x"] == pytest.approx(1.5)


def test_il1s_golden_values_from_sdcmicro_notes():
    # sdcMicro reference notes, section 6.1: x = (0, 1, 2, 0), xm = (0, 2, 2, 1) gives IL1 = 100.
    x = pd.DataFrame({"v": [0.0, 1.0, 2.0, 0.0]})
    xm = pd.DataFrame({"v": [0.0, 2.0, 2.0, 1.0]})
    r = sdc.il1s(x, xm)
    assert r.relative_total == 100.0
    sd = np.std([0, 1, 2, 0], ddof=1)
    assert r.total == pytest.approx(2 / (sd * math.sqrt(2)), rel=1e-15)
    assert r.mean == pytest.approx(r.total / 4, rel=1e-15)
    assert r.per_variable.loc["v", "n_compared"] == 4


def test_il1s_sums_over_variables_and_skips_missing_cells():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0, np.nan], "b": [10.0, 20.0, 30.0, 40.0]})
    xm = pd.DataFrame({"a": [1.5, np.nan, 3.0, 1.0], "b": [10.0, 25.0, 30.0, 30.0]})
    r = sdc.il1s(x, xm, ["a", "b"])
    sa, sb = np.std([1, 2, 3], ddof=1), np.std([10, 20, 30, 40], ddof=1)
    ea = 0.5 / (sa * math.sqrt(2))
    eb = (5 + 10) / (sb * math.sqrt(2))
    assert r.per_variable["il1s"].tolist() == pytest.approx([ea, eb], rel=1e-15)
    assert r.total == pytest.approx(ea + eb, rel=1e-15)
    assert r.mean == pytest.approx((ea + eb) / 8, rel=1e-15)
    assert r.relative_total == pytest.approx(100 * 0.5 / 1 + 100 * 5 / 20 + 100 * 10 / 40)


def test_il1s_degenerate_variables_follow_sdcmicro():
    x = pd.DataFrame({"const": [2.0, 2.0, 2.0], "one": [np.nan, np.nan, 1.0], "ok": [1.0, 2.0, 4.0]})
    xm = pd.DataFrame({"const": [2.0, 3.0, 2.0], "one": [1.0, 1.0, 3.0], "ok": [1.0, 2.0, 4.0]})
    with pytest.warns(DegenerateDataWarning, match="'const' is constant"):
        r = sdc.il1s(x, xm)
    assert r.per_variable.loc["const", "il1s"] == math.inf
    assert math.isnan(r.per_variable.loc["one", "il1s"])  # no sd; adds nothing to the total (sdcMicro: 0)
    assert r.total == math.inf
    ok = sdc.il1s(x, xm, ["one", "ok"])
    assert ok.total == 0.0


def test_il1s_refuses_non_numeric_variables():
    x = pd.DataFrame({"a": [1.0, 2.0]})
    xm = pd.DataFrame({"a": ["1", "2"]})
    with pytest.raises(ValueError, match="needs numeric columns; column 'a' of `released` is "):
        sdc.il1s(x, xm, "a")


# ---------------------------------------------------------------------------------------------
# Matching of records; input untouched.
# ---------------------------------------------------------------------------------------------


def test_records_are_matched_by_index_not_by_position():
    orig = pd.DataFrame({"x": [0.0, 10.0, 20.0]}, index=[7, 8, 9])
    rel = pd.DataFrame({"x": [20.0, 0.0, 10.0]}, index=[9, 7, 8])
    assert sdc.information_loss(orig, rel, "x").overall == 0.0
    assert sdc.il1s(orig, rel).total == 0.0


@pytest.mark.parametrize("fn", [sdc.information_loss, sdc.il1s, sdc.eigen_similarity, sdc.non_uniform_entropy,
                                sdc.suppression, sdc.association_change, sdc.marginal_change])
def test_mismatched_records_are_a_clear_error(fn):
    orig = pd.DataFrame({"x": [0.0, 10.0, 20.0], "y": [1.0, 0.0, 2.0]})
    with pytest.raises(ValueError, match="`released` has 2 records and `original` 3"):
        fn(orig, orig.iloc[:2], ["x", "y"])
    other = orig.set_axis([0, 1, 5])
    with pytest.raises(ValueError, match="record 2 of `original` is not in `released`"):
        fn(orig, other, ["x", "y"])
    dup = orig.set_axis([0, 0, 1])
    with pytest.raises(ValueError, match="`original` has a duplicated index label 0"):
        fn(dup, dup.copy(), ["x", "y"])


def test_bad_arguments_are_one_line_errors():
    orig = pd.DataFrame({"x": [0.0, 1.0]})
    with pytest.raises(TypeError, match="`original` must be a pandas DataFrame"):
        sdc.information_loss([1, 2], orig, "x")
    with pytest.raises(ValueError, match="`variables` names columns not in the data: 'z'"):
        sdc.information_loss(orig, orig, "z")
    with pytest.raises(ValueError, match="`variables` names columns not in `released`: 'x'"):
        sdc.information_loss(orig, orig.rename(columns={"x": "w"}), "x")
    with pytest.raises(ValueError, match="`suppressed` must be one of 'ignore', 'max'"):
        sdc.information_loss(orig, orig, "x", suppressed="drop")
    with pytest.raises(ValueError, match="`categorical` names 'q'"):
        sdc.information_loss(orig, orig, "x", categorical="q")
    inf = pd.DataFrame({"x": [0.0, np.inf]})
    with pytest.raises(ValueError, match="column 'x' of `released` has the non-finite value inf at index 1; set it to missing"):
        sdc.information_loss(orig, inf, "x")


def test_inputs_are_not_modified():
    orig = pd.DataFrame({"x": [0.0, 10.0, np.nan], "c": pd.Categorical(["a", "b", "a"])}, index=[3, 1, 2])
    rel = pd.DataFrame({"x": [1.0, np.nan, 2.0], "c": pd.Categorical(["b", "b", None])}, index=[2, 3, 1])
    o0, r0 = orig.copy(deep=True), rel.copy(deep=True)
    sdc.information_loss(orig, rel, ["x", "c"], suppressed="max")
    sdc.il1s(orig, rel, "x")
    sdc.utility_summary(orig, rel, ["x", "c"])
    pd.testing.assert_frame_equal(orig, o0)
    pd.testing.assert_frame_equal(rel, r0)


def test_results_are_frozen_and_tabulate():
    orig = pd.DataFrame({"x": [0.0, 10.0, 20.0]})
    r = sdc.information_loss(orig, orig + 1, "x")
    with pytest.raises(AttributeError):
        r.overall = 0.0  # type: ignore[misc]
    assert list(r.to_frame().columns) == ["variable", "kind", "n_compared", "n_changed", "n_suppressed", "range", "il1"]
    assert summary_values(r.summary())["il1_overall"] == pytest.approx(0.05)
    s = sdc.il1s(orig, orig + 1)
    assert set(s.summary()["statistic"]) >= {"il1s", "il1s_mean", "il1"}
    assert list(s.to_frame().columns) == ["variable", "sd", "n_compared", "il1s", "il1_relative"]


# ---------------------------------------------------------------------------------------------
# Properties and brute force.
# ---------------------------------------------------------------------------------------------

values = st.one_of(st.none(), st.integers(-5, 5).map(float))


@st.composite
def numeric_pair(draw, max_rows: int = 20):
    n = draw(st.integers(2, max_rows))
    x = draw(st.lists(values, min_size=n, max_size=n))
    y = draw(st.lists(values, min_size=n, max_size=n))
    x[0], x[1] = -5.0, 5.0  # a non-zero range
    return pd.DataFrame({"v": pd.Series(x, dtype="float64")}), pd.DataFrame({"v": pd.Series(y, dtype="float64")})


@given(numeric_pair())
def test_il1_identical_data_is_zero(pair):
    orig, _ = pair
    r = sdc.information_loss(orig, orig.copy(), "v")
    assert r.overall == 0.0
    assert sdc.il1s(orig, orig.copy()).total == 0.0


@given(numeric_pair(), st.sampled_from(["ignore", "max"]))
def test_il1_matches_a_loop(pair, rule):
    orig, rel = pair
    x, y = orig["v"].tolist(), rel["v"].tolist()
    obs = [a for a in x if not math.isnan(a)]
    rng = max(obs) - min(obs)
    cells = []
    for a, b in zip(x, y):
        if math.isnan(a):
            continue
        if math.isnan(b):
            if rule == "max":
                cells.append(1.0)
            continue
        cells.append(abs(b - a) / rng)
    want = sum(cells) / len(cells) if cells else math.nan
    got = sdc.information_loss(orig, rel, "v", suppressed=rule).il1["v"]
    assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want, rel=1e-12, abs=1e-15)


@given(numeric_pair())
def test_il1s_matches_a_loop(pair):
    orig, rel = pair
    x, y = orig["v"].tolist(), rel["v"].tolist()
    sd = float(np.std([a for a in x if not math.isnan(a)], ddof=1))
    s = sum(abs(b - a) / (sd * math.sqrt(2)) for a, b in zip(x, y) if not (math.isnan(a) or math.isnan(b)))
    rel_ = sum(100 * abs(b - a) / abs(a) for a, b in zip(x, y)
               if not (math.isnan(a) or math.isnan(b)) and a != 0)
    r = sdc.il1s(orig, rel)
    assert r.total == pytest.approx(s, rel=1e-12, abs=1e-15)
    assert r.relative_total == pytest.approx(rel_, rel=1e-12, abs=1e-12)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", None]), st.sampled_from(["a", "b", "c", None])),
                min_size=1, max_size=20))
def test_categorical_il1_is_symmetric_and_matches_a_loop(pairs):
    a = pd.DataFrame({"c": pd.Series([p[0] for p in pairs], dtype=object)})
    b = pd.DataFrame({"c": pd.Series([p[1] for p in pairs], dtype=object)})
    both = [(p, q) for p, q in pairs if p is not None and q is not None]
    want = sum(p != q for p, q in both) / len(both) if both else math.nan
    ab = sdc.information_loss(a, b, "c", categorical="c", suppressed="ignore").il1["c"]
    ba = sdc.information_loss(b, a, "c", categorical="c", suppressed="ignore").il1["c"]
    if math.isnan(want):
        assert math.isnan(ab) and math.isnan(ba)
    else:
        assert ab == pytest.approx(want) and ba == pytest.approx(want)


def test_the_api_counts_suppressed_cells_as_the_cli_does():
    """Issue 26: the API's IL1 ignored suppressed cells by default (0.0 after local suppression)
    while sdc compare and sdc sweep count each as a loss of 1."""
    orig = pd.DataFrame({"k": ["a", "b", "c", "d"]})
    rel = pd.DataFrame({"k": ["a", None, "c", None]})
    r = sdc.information_loss(orig, rel, ["k"])
    assert r.suppressed == "max" and r.overall == pytest.approx(0.5)
    assert sdc.utility_summary(orig, rel, ["k"]).il1_overall == pytest.approx(0.5)
