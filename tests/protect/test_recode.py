"""global_recode and top_bottom_code: hand values, boundaries, errors and properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sdc
from sdc.protect._result import changed_cells
from sdc.protect.recode import cut_labels, sdcmicro_breaks

AGES = pd.DataFrame({"age": [3, 17, 25, 64, 90]}, index=[10, 11, 12, 13, 14])


def _vals(res, col):
    return [None if pd.isna(v) else v for v in res.data[col].tolist()]


# --------------------------------------------------------------------------- bands by edges

def test_edges_right_closed_is_the_default():
    r = sdc.global_recode(AGES, "age", edges=[0, 17, 64, 120])
    assert r.data["age"].tolist() == ["(0,17]", "(0,17]", "(17,64]", "(17,64]", "(64,120]"]
    assert list(r.data["age"].cat.categories) == ["(0,17]", "(17,64]", "(64,120]"]
    assert r.data["age"].cat.ordered
    assert r.data.index.tolist() == [10, 11, 12, 13, 14]
    assert r.changed["age"] == 5 and r.seed is None and r.method == "global_recode"


def test_edges_left_closed():
    r = sdc.global_recode(AGES, "age", edges=[0, 17, 64, 120], closed="left")
    assert r.data["age"].tolist() == ["[0,17)", "[17,64)", "[17,64)", "[64,120)", "[64,120)"]


def test_edges_boundaries_and_include_lowest():
    df = pd.DataFrame({"x": [0, 10, 20]})
    with pytest.raises(ValueError, match=r"column 'x': the value 0 at index 0 lies outside the bands \(0, 20\]"):
        sdc.global_recode(df, "x", edges=[0, 10, 20])
    r = sdc.global_recode(df, "x", edges=[0, 10, 20], outside="missing")  # sdcMicro's behaviour
    assert _vals(r, "x") == [None, "(0,10]", "(10,20]"]
    assert r.details["x"]["records_outside"] == 1
    r = sdc.global_recode(df, "x", edges=[0, 10, 20], include_lowest=True)
    assert r.data["x"].tolist() == ["[0,10]", "[0,10]", "(10,20]"]
    r = sdc.global_recode(df, "x", edges=[0, 10, 20], closed="left", include_lowest=True)
    assert r.data["x"].tolist() == ["[0,10)", "[10,20]", "[10,20]"]
    with pytest.raises(ValueError, match=r"outside the bands \[0, 20\)"):
        sdc.global_recode(df, "x", edges=[0, 10, 20], closed="left")


def test_edges_infinite_and_custom_labels():
    df = pd.DataFrame({"x": [-5.0, 0.0, 1e9, np.nan]})
    r = sdc.global_recode(df, "x", edges=[-np.inf, 0, np.inf])
    assert _vals(r, "x") == ["(-Inf,0]", "(-Inf,0]", "(0,Inf]", None]
    r = sdc.global_recode(df, "x", edges=[-np.inf, 0, np.inf], labels=["low", "high"])
    assert _vals(r, "x") == ["low", "low", "high", None]
    assert r.changed["x"] == 3  # the missing value stays missing
    with pytest.raises(ValueError, match="one label per band"):
        sdc.global_recode(df, "x", edges=[-np.inf, 0, np.inf], labels=["a"])
    with pytest.raises(ValueError, match="midpoint' needs finite band edges"):
        sdc.global_recode(df, "x", edges=[-np.inf, 0, np.inf], labels="midpoint")


def test_cut_labels_as_r_writes_them():
    assert cut_labels([0, 17, 64.5, 1e9]) == ["(0,17]", "(17,64.5]", "(64.5,1e+09]"]
    assert cut_labels([0, 1, 2], right=False, include_lowest=True) == ["[0,1)", "[1,2]"]
    # 8 significant digits would print 1 twice: R raises the digits until the labels differ.
    assert cut_labels([1, 1.000000001, 2]) == ["(1,1.000000001]", "(1.000000001,2]"]
    assert cut_labels([0.1 + 0.2, 1]) == ["(0.3,1]"]


def test_lower_and_midpoint_by_edges():
    r = sdc.global_recode(AGES, "age", edges=[0, 20, 100], labels="lower")
    assert r.data["age"].tolist() == [0, 0, 20, 20, 20] and r.data["age"].dtype == np.int64
    assert r.changed["age"] == 5
    r = sdc.global_recode(AGES, "age", edges=[0, 20, 100], labels="midpoint")
    assert r.data["age"].tolist() == [10, 10, 60, 60, 60]


# --------------------------------------------------------------------------- bands by width

def test_width_midpoint_formula_left_closed():
    df = pd.DataFrame({"x": [0.0, 4.9, 5.0, 12.0, -0.1]})
    r = sdc.global_recode(df, "x", width=5, closed="left", labels="midpoint")
    # floor(x / w) * w + w / 2
    assert r.data["x"].tolist() == [2.5, 2.5, 7.5, 12.5, -2.5]
    r = sdc.global_recode(df, "x", width=5, closed="left")
    assert r.data["x"].tolist() == ["[0,5)", "[0,5)", "[5,10)", "[10,15)", "[-5,0)"]
    assert list(r.data["x"].cat.categories) == ["[-5,0)", "[0,5)", "[5,10)", "[10,15)"]


def test_width_right_closed_and_origin():
    df = pd.DataFrame({"x": [0, 5, 6, 10]})
    r = sdc.global_recode(df, "x", width=5)
    assert r.data["x"].tolist() == ["(-5,0]", "(0,5]", "(5,10]", "(5,10]"]
    r = sdc.global_recode(df, "x", width=5, origin=1, closed="left", labels="lower")
    assert r.data["x"].tolist() == [-4, 1, 6, 6]


def test_width_decimal_edges_land_on_the_decimal():
    # 0.3 / 0.1 = 2.9999999999999996 in binary; the band must still be [0.3, 0.4).
    df = pd.DataFrame({"x": [0.3, 0.7, 1.0, 0.1]})
    r = sdc.global_recode(df, "x", width=0.1, closed="left")
    assert r.data["x"].tolist() == ["[0.3,0.4)", "[0.7,0.8)", "[1,1.1)", "[0.1,0.2)"]
    r = sdc.global_recode(df, "x", width=0.1)
    assert r.data["x"].tolist() == ["(0.2,0.3]", "(0.6,0.7]", "(0.9,1]", "(0,0.1]"]


# --------------------------------------------------------------------------- bins, log tiers, rounding

def test_bins_equidistant_as_sdcmicro():
    # seq(2, 91, length.out = 4) = 2, 31.67, 61.33, 91, rounded: no duplicate, so rounded edges.
    r = sdc.global_recode(AGES, "age", bins=3)
    assert r.data["age"].tolist() == ["[2,32]", "[2,32]", "[2,32]", "(61,91]", "(61,91]"]
    assert r.details["age"]["edges"] == [2, 32, 61, 91]
    # seq(-0.9, 1.3, length.out = 5) rounds to -1, 0, 0, 1, 1: duplicates, so the edges stay unrounded.
    edges, incl = sdcmicro_breaks(np.array([0.1, 0.2, 0.3]), 4)
    assert incl and np.allclose(edges, [-0.9, -0.35, 0.2, 0.75, 1.3], rtol=0, atol=1e-15)
    edges, incl = sdcmicro_breaks(np.array([3.0, 90.0]), 1)
    assert edges.tolist() == [2, 91] and not incl


def test_bins_equal_amount_drops_duplicated_quantiles():
    x = np.array([1, 1, 1, 1, 2, 3], dtype=float)
    # type-7 quantiles at 0, 1/3, 2/3, 1: 1, 1, 4/3, 3 -- the duplicated 1 is dropped (sdcMicro jitters).
    edges, _ = sdcmicro_breaks(x, 3, "equalAmount")
    assert edges.tolist() == pytest.approx([1.0, 4 / 3, 3.0], rel=1e-15)
    with pytest.raises(ValueError, match="logEqui' needs positive values"):
        sdcmicro_breaks(np.array([0.0, 1.0]), 2, "logEqui")


def test_log_tiers():
    df = pd.DataFrame({"x": [0, 1, 9, 10, 99, 100, 5000]})
    r = sdc.global_recode(df, "x", log_base=10, closed="left")
    assert r.data["x"].tolist() == ["0", "[1,10)", "[1,10)", "[10,100)", "[10,100)", "[100,1000)", "[1000,10000)"]
    r = sdc.global_recode(df, "x", log_base=10)
    assert r.data["x"].tolist() == ["0", "(0.1,1]", "(1,10]", "(1,10]", "(10,100]", "(10,100]", "(1000,10000]"]
    r = sdc.global_recode(df, "x", log_base=10, closed="left", labels="lower")
    assert r.data["x"].tolist() == [0, 1, 1, 10, 10, 100, 1000]
    with pytest.raises(ValueError, match="values >= 0"):
        sdc.global_recode(pd.DataFrame({"x": [-1, 2]}), "x", log_base=10)


def test_round_to_base():
    df = pd.DataFrame({"x": [12.5, -12.5, 12.4, 0.15, 7.0]})
    r = sdc.global_recode(df, "x", round_to=5)
    assert r.data["x"].tolist() == [15, -15, 10, 0, 5]
    r = sdc.global_recode(df, "x", round_to=0.1)
    assert r.data["x"].tolist() == [12.5, -12.5, 12.4, 0.2, 7.0]
    r = sdc.global_recode(pd.DataFrame({"n": [1234, 1250, 99]}), "n", round_to=100)
    assert r.data["n"].tolist() == [1200, 1300, 100] and r.data["n"].dtype == np.int64
    assert r.changed["n"] == 3


# --------------------------------------------------------------------------- dates

DATES = pd.DataFrame({"dob": ["1980-02-29", "2000-01-01", "1999-12-31", None, "2024-02-28"]})


def test_dates_to_year_month_and_bands():
    r = sdc.global_recode(DATES, "dob", date="year")
    assert _vals(r, "dob") == [1980, 2000, 1999, None, 2024]
    r = sdc.global_recode(DATES, "dob", date="month")
    assert _vals(r, "dob") == ["1980-02", "2000-01", "1999-12", None, "2024-02"]
    r = sdc.global_recode(DATES, "dob", date="year", width=5, closed="left")
    assert _vals(r, "dob") == ["[1980,1985)", "[2000,2005)", "[1995,2000)", None, "[2020,2025)"]
    assert r.changed["dob"] == 4
    dt = DATES.assign(dob=pd.to_datetime(DATES["dob"]))
    assert _vals(sdc.global_recode(dt, "dob", date="year"), "dob") == [1980, 2000, 1999, None, 2024]


def test_date_of_birth_to_age():
    r = sdc.global_recode(DATES, "dob", age_at="2024-02-28")
    # 29 February: the birthday has not come on 28 February of a common year.
    assert _vals(r, "dob") == [43, 24, 24, None, 0]
    r = sdc.global_recode(DATES, "dob", age_at="2024-03-01", width=10, closed="left")
    assert _vals(r, "dob") == ["[40,50)", "[20,30)", "[20,30)", None, "[0,10)"]
    assert r.parameters["age_at"] == "2024-03-01"
    with pytest.raises(ValueError, match="date of birth after `age_at`"):
        sdc.global_recode(DATES, "dob", age_at="2020-01-01")
    with pytest.raises(ValueError, match="`age_at` must be a date"):
        sdc.global_recode(DATES, "dob", age_at="soon")
    with pytest.raises(ValueError, match="'x' at index 1, which is not a date"):
        sdc.global_recode(pd.DataFrame({"d": ["2020-01-01", "x"]}), "d", date="year")


# --------------------------------------------------------------------------- categories

def test_mapping_as_group_and_rename():
    s = pd.Categorical(["b", "a", "c", None, "d"], categories=["a", "b", "c", "d"])
    r = sdc.global_recode(pd.DataFrame({"v": s}), "v", mapping={"b": "a", "d": "x"})
    assert _vals(r, "v") == ["a", "a", "c", None, "x"]
    # R's `levels<-`: a merged label keeps the place of its first level.
    assert list(r.data["v"].cat.categories) == ["a", "c", "x"]
    assert r.changed["v"] == 2 and r.details["v"]["levels_after"] == 3
    obj = pd.DataFrame({"v": ["b", "a", None]})
    assert _vals(sdc.global_recode(obj, "v", mapping={"b": "a"}), "v") == ["a", "a", None]


def test_mapping_keys_and_numeric_columns():
    df = pd.DataFrame({"water": [1, 2, 3, 9]})
    r = sdc.global_recode(df, "water", mapping={"1": 1, "2": 1})  # TOML keys are text
    assert r.data["water"].tolist() == [1, 1, 3, 9] and r.data["water"].dtype == np.int64
    r = sdc.global_recode(df, "water", mapping={9: "unknown"})
    assert r.data["water"].tolist() == [1, 2, 3, "unknown"]
    r = sdc.global_recode(df, "water", mapping={7: 1, 9: 3})  # a key no record holds: accepted, listed
    assert r.data["water"].tolist() == [1, 2, 3, 3] and r.details["water"]["mapping_absent"] == ["7"]


def test_truncate_before_mapping_and_a_code_list_mapping():
    """issue 32: the mapping names the truncated codes; all 17 restricted ZIP3 prefixes on a file
    holding two of them."""
    from sdc.identify.hipaa import RESTRICTED_ZIP3

    df = pd.DataFrame({"zip": ["03601", "03655", "10001", "59012", None]})
    r = sdc.global_recode(df, "zip", truncate=3, mapping={"036": "000"})
    assert _vals(r, "zip") == ["000", "000", "100", "590", None]
    r = sdc.global_recode(df, "zip", truncate=3, mapping={p: "000" for p in RESTRICTED_ZIP3})
    assert _vals(r, "zip") == ["000", "000", "100", "590", None]
    assert len(r.details["zip"]["mapping_absent"]) == 16 and "036" not in r.details["zip"]["mapping_absent"]


def test_rare_categories_pooled():
    df = pd.DataFrame({"c": ["a"] * 5 + ["b"] * 2 + ["c", "d", None]})
    r = sdc.global_recode(df, "c", rare=3)
    assert _vals(r, "c") == ["a"] * 5 + ["other"] * 4 + [None]
    assert r.details["c"]["pooled"] == ["b", "c", "d"] and r.details["c"]["pooled_records"] == 4
    r = sdc.global_recode(df, "c", rare=2, rare_label="a")  # pooled into an existing label
    assert _vals(r, "c") == ["a"] * 5 + ["b", "b", "a", "a", None]
    cat = pd.DataFrame({"c": pd.Categorical(df["c"], categories=["d", "c", "b", "a", "z"])})
    r = sdc.global_recode(cat, "c", rare=3)
    assert list(r.data["c"].cat.categories) == ["a", "z", "other"]
    with pytest.raises(ValueError, match="`rare` must be a whole number >= 2; got 1"):
        sdc.global_recode(df, "c", rare=1)


def test_truncate_codes():
    df = pd.DataFrame({"pc": ["75013", "75001", "13008", None], "n": [12345, 12399, 99, 7]})
    r = sdc.global_recode(df, ["pc", "n"], truncate=3)
    assert _vals(r, "pc") == ["750", "750", "130", None]
    assert _vals(r, "n") == ["123", "123", "99", "7"]
    r = sdc.global_recode(df, "pc", truncate=2, rare=2)  # truncate, then pool the rare prefixes
    assert _vals(r, "pc") == ["75", "75", "other", None]


# --------------------------------------------------------------------------- errors

@pytest.mark.parametrize("kwargs, message", [
    ({"edges": [0, 10, 5]}, r"`edges` must be a list of at least two numbers \(inf allowed\), strictly increasing; "
                            r"got \[0, 10, 5\]"),
    ({"edges": [1]}, r"`edges` must be a list of at least two numbers .*; got \[1\]"),
    ({"width": 0}, r"`width` must be a positive number; got 0"),
    ({"width": -2}, r"`width` must be a positive number; got -2"),
    ({"bins": 0}, r"`bins` must be a whole number from 1 to 1000000; got 0"),
    ({"log_base": 1}, r"`log_base` must be a number > 1; got 1"),
    ({"round_to": 0}, r"`round_to` must be a positive number; got 0"),
    ({"width": 5, "edges": [0, 1]}, r"takes one of width, edges, bins, log_base, round_to; got width, edges"),
    ({}, r"needs one of width"),
    ({"width": 5, "mapping": {1: 2}}, r"`mapping` recodes categories and cannot be combined with `width`"),
    ({"width": 5, "closed": "both"}, r"`closed` must be one of 'right', 'left'; got 'both'"),
    ({"width": 5, "labels": "upper"}, r"`labels` must be one of 'interval', 'lower', 'midpoint' or a list of labels; got 'upper'"),
    ({"width": 5, "labels": ["a"]}, r"a list of `labels` needs `edges` or `bins`"),
    ({"date": "week"}, r"`date` must be one of 'year', 'month'; got 'week'"),
])
def test_bad_parameters_name_the_parameter(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        sdc.global_recode(AGES, "age", **kwargs)


def test_numeric_method_on_text_and_unknown_variable():
    df = pd.DataFrame({"sex": ["m", "f"], "age": [1, 2]})
    with pytest.raises(ValueError, match=r"global_recode needs numeric columns; column 'sex' is text"):
        sdc.global_recode(df, "sex", width=5)
    with pytest.raises(ValueError, match=r"`variables` names columns not in the data: 'agee' \(did you mean 'age'\?\)"):
        sdc.global_recode(df, "agee", width=5)
    with pytest.raises(TypeError, match="need a date column"):
        sdc.global_recode(df, "age", date="year")


# --------------------------------------------------------------------------- top/bottom coding

def test_top_bottom_code_hand_values():
    df = pd.DataFrame({"inc": [10, 250, 90, 1000, 200], "x": [1.5, np.nan, -3.0, 7.0, 2.0]})
    r = sdc.top_bottom_code(df, "inc", top=200)
    assert r.data["inc"].tolist() == [10, 200, 90, 200, 200] and r.data["inc"].dtype == np.int64
    assert r.changed["inc"] == 2 and r.details["inc"] == {"top_coded": 2, "bottom_coded": 0}  # strict: 200 stays
    r = sdc.top_bottom_code(df, "inc", top=200, top_value=999.5, bottom=50, bottom_value=0)
    assert r.data["inc"].tolist() == [0, 999.5, 90, 999.5, 200]
    r = sdc.top_bottom_code(df, "x", bottom=0)
    assert _vals(r, "x") == [1.5, None, 0.0, 7.0, 2.0]
    assert r.parameters == {"variables": ["x"], "bottom": 0.0, "bottom_value": 0.0}


def test_top_bottom_code_errors():
    df = pd.DataFrame({"inc": [1, 2], "s": ["a", "b"]})
    with pytest.raises(ValueError, match=r"`top` \(5\) must not lie below `bottom` \(10\)"):
        sdc.top_bottom_code(df, "inc", top=5, bottom=10)
    with pytest.raises(ValueError, match="top_bottom_code needs numeric columns; column 's'"):
        sdc.top_bottom_code(df, "s", top=1)
    with pytest.raises(ValueError, match="needs `top`, `bottom` or both"):
        sdc.top_bottom_code(df, "inc")
    with pytest.raises(ValueError, match="`top_value` needs `top`"):
        sdc.top_bottom_code(df, "inc", bottom=0, top_value=3)
    with pytest.raises(TypeError, match="`top` must be a number; got 'high'"):
        sdc.top_bottom_code(df, "inc", top="high")


# --------------------------------------------------------------------------- properties

numbers = st.lists(st.one_of(st.none(), st.integers(-50, 150), st.floats(-50, 150, allow_nan=False).map(
    lambda v: round(v, 2))), min_size=1, max_size=30)


@given(values=numbers, width=st.sampled_from([1, 2.5, 5, 10, 0.1]), closed=st.sampled_from(["left", "right"]),
       labels=st.sampled_from(["interval", "lower", "midpoint"]))
def test_width_bands_contain_their_values(values, width, closed, labels):
    df = pd.DataFrame({"x": np.array(values, dtype="float64"), "other": range(len(values))},
                      index=pd.RangeIndex(100, 100 + len(values)))
    before = df.copy()
    r = sdc.global_recode(df, "x", width=width, closed=closed, labels=labels)
    pd.testing.assert_frame_equal(df, before)                   # input untouched
    assert r.data.index.equals(df.index) and list(r.data.columns) == ["x", "other"]
    assert r.changed["x"] == changed_cells(df, r.data, ["x"])["x"]
    lo = sdc.global_recode(df, "x", width=width, closed=closed, labels="lower").data["x"].to_numpy(float)
    x = df["x"].to_numpy(float)
    ok = ~np.isnan(x)
    assert np.array_equal(np.isnan(lo), ~ok)
    eps = 1e-9 * max(1.0, np.nanmax(np.abs(x)) if ok.any() else 1.0)
    if closed == "left":
        assert (lo[ok] <= x[ok] + eps).all() and (x[ok] < lo[ok] + width + eps).all()
    else:
        assert (lo[ok] < x[ok] + eps).all() and (x[ok] <= lo[ok] + width + eps).all()


@given(values=numbers, top=st.integers(-20, 120), gap=st.integers(0, 50))
def test_top_bottom_bounds_hold(values, top, gap):
    df = pd.DataFrame({"x": pd.Series(values, dtype="float64")})
    before = df.copy()
    r = sdc.top_bottom_code(df, "x", top=top, bottom=top - gap)
    pd.testing.assert_frame_equal(df, before)
    y = r.data["x"].to_numpy(float)
    ok = ~np.isnan(y)
    assert (y[ok] <= top).all() and (y[ok] >= top - gap).all()
    assert r.changed["x"] == changed_cells(df, r.data, ["x"])["x"]


@given(values=st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "dd", "e"])), min_size=1, max_size=30),
       rare=st.integers(2, 5))
def test_rare_pooling_leaves_no_rare_level(values, rare):
    df = pd.DataFrame({"c": pd.Series(values, dtype=object)})
    r = sdc.global_recode(df, "c", rare=rare)
    counts = r.data["c"].value_counts()
    small = counts[(counts < rare) & (counts.index != "other")]
    assert small.empty
    assert r.changed["c"] == changed_cells(df, r.data, ["c"])["c"]
    assert r.data["c"].isna().equals(df["c"].isna())


def test_numeric_labels_stay_numeric_unless_text_is_asked_for() -> None:
    """Issue 26: numeric labels made a categorical column and IL1 switched formula (0.789 vs 0.0206)."""
    import pandas as pd

    import sdc

    df = pd.DataFrame({"age": [21, 35, 47, 52, 68]})
    num = sdc.global_recode(df, "age", edges=[0, 30, 50, 100], labels=[1, 2, 3]).data["age"]
    assert num.dtype.kind in "iuf" and num.tolist() == [1, 2, 2, 3, 3]
    text = sdc.global_recode(df, "age", edges=[0, 30, 50, 100], labels=["1", "2", "3"]).data["age"]
    assert isinstance(text.dtype, pd.CategoricalDtype)
