"""Bad input: one clear error naming the argument, column or value; warnings for degenerate data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.exceptions import DegenerateDataWarning

MEASURES = [sdc.frequencies, sdc.individual_risk, sdc.k_anonymity, sdc.key_subset_snapshots]


@pytest.fixture
def df():
    return pd.DataFrame({"age": [30, 30, 40, 41], "sex": ["f", "f", "m", "m"], "w": [2.0, 3.0, 4.0, 5.0],
                         "empty": [np.nan] * 4, "label": ["a", "b", "c", "d"]})


@pytest.mark.parametrize("fn", MEASURES)
def test_unknown_key_suggests_a_close_match(fn, df):
    with pytest.raises(ValueError, match=r"`keys` names columns not in the data: 'agee' \(did you mean 'age'\?\)"):
        fn(df, ["agee", "sex"])


@pytest.mark.parametrize("fn", MEASURES)
def test_unknown_weight_column(fn, df):
    with pytest.raises(ValueError, match=r"`weights` names columns not in the data: 'ww' \(did you mean 'w'\?\)"):
        fn(df, ["age"], weights="ww")


@pytest.mark.parametrize(("data", "message", "exc"), [
    (pd.DataFrame({"a": []}), "`data` is empty", ValueError),
    ([1, 2], "`data` must be a pandas DataFrame; got list", TypeError),
])
def test_bad_data(data, message, exc):
    with pytest.raises(exc, match=message):
        sdc.individual_risk(data, ["a"])


def test_no_keys_and_duplicated_keys(df):
    with pytest.raises(ValueError, match="`keys` must name at least one column; got none"):
        sdc.frequencies(df, [])
    with pytest.raises(ValueError, match="`keys` names a column more than once: 'age'"):
        sdc.frequencies(df, ["age", "sex", "age"])
    with pytest.raises(TypeError, match="`keys` must contain column names"):
        sdc.frequencies(df, ["age", 3])


def test_duplicated_column_names():
    bad = pd.DataFrame([[1, 2]], columns=["a", "a"])
    with pytest.raises(ValueError, match="duplicated column names: 'a'"):
        sdc.frequencies(bad, ["a"])


def test_all_missing_key(df):
    with pytest.raises(ValueError, match="key variable 'empty' is missing in every record"):
        sdc.frequencies(df, ["age", "empty"])


def test_infinite_key_value(df):
    bad = df.assign(age=[30.0, np.inf, 40.0, 41.0])
    with pytest.raises(ValueError, match="key variable 'age' has a non-finite value inf at index 1"):
        sdc.frequencies(bad, ["age"])


@pytest.mark.parametrize(("weights", "message"), [
    ([2.0, np.nan, 4.0, 5.0], "weight column 'w' has 1 missing value"),
    ([2.0, 0.0, 4.0, 5.0], "weight column 'w' must be positive; got 0.0 at index 1"),
    ([2.0, -3.0, 4.0, 5.0], "must be positive; got -3.0"),
    ([2.0, 0.5, 4.0, 5.0], r"must be >= 1 \(a sampling weight is an inverse inclusion probability\); got 0.5"),
    ([2.0, np.inf, 4.0, 5.0], "non-finite value inf at index 1"),
    (["2", "x", "4", "5"], "weight column 'w' must be numeric; got text with value 'x'"),
])
def test_bad_weights(df, weights, message):
    with pytest.raises(ValueError, match=message):
        sdc.individual_risk(df.assign(w=weights), ["age"], weights="w")


def test_weights_name_must_be_a_string(df):
    with pytest.raises(TypeError, match="`weights` must be a column name"):
        sdc.individual_risk(df, ["age"], weights=["w"])


@pytest.mark.parametrize("alpha", [-0.1, 1.5, float("nan")])
def test_alpha_out_of_range(df, alpha):
    with pytest.raises(ValueError, match=r"`alpha` must be a number in \[0, 1\]; got "):
        sdc.frequencies(df, ["age"], alpha=alpha)


@pytest.mark.parametrize("g", [0, 1, 1.2, -0.1])
def test_max_global_risk_out_of_range(df, g):
    with pytest.raises(ValueError, match=r"`max_global_risk` must lie in \(0, 1\)"):
        sdc.individual_risk(df, ["age"], max_global_risk=g)


def test_unknown_options(df):
    with pytest.raises(ValueError, match="`method` must be one of 'approx', 'exact'; got 'exactt'"):
        sdc.individual_risk(df, ["age"], method="exactt")
    with pytest.raises(ValueError, match="`missing` must be one of 'wildcard', 'category'; got 'drop'"):
        sdc.frequencies(df, ["age"], missing="drop")
    with pytest.raises(ValueError, match="`threshold` must be an integer >= 1; got 0"):
        sdc.key_subset_snapshots(df, ["age"], threshold=0)


def test_degenerate_warnings(df):
    with pytest.warns(DegenerateDataWarning, match="all 4 records are sample uniques"):
        sdc.individual_risk(df, ["label"])
    with pytest.warns(DegenerateDataWarning, match="all 4 records have the same key pattern"):
        sdc.k_anonymity(df.assign(c=1), ["c"])


def test_error_leaves_input_unchanged(df):
    before = df.copy(deep=True)
    with pytest.raises(ValueError):
        sdc.individual_risk(df.assign(w=[1.0, 0.0, 1.0, 1.0]), ["age"], weights="w")
    pd.testing.assert_frame_equal(df, before)
