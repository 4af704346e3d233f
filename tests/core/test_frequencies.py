"""Sample and population frequencies: hand-computed values, rules, dtypes, properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import sdc
from tests import brute, scale
from tests.strategies import microdata

NAN = np.nan
# Tiny random frames are often all-unique or all-identical; that warning is tested elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


def test_complete_keys_count_identical_patterns(toy):
    f = sdc.frequencies(toy, ["age", "sex", "region"], weights="w")
    # classes: (30,f,n) x2, (30,m,n), (40,m,s) x2, (50,f,s) x2, (60,f,n)
    assert f.sample_frequency.tolist() == [2, 2, 1, 2, 2, 2, 2, 1]
    assert f.population_frequency.tolist() == [30.0, 30.0, 5.0, 20.0, 20.0, 60.0, 60.0, 4.0]
    assert (f.n1, f.n2, f.n_patterns) == (2, 6, 5)
    assert list(f.sample_frequency.index) == list(toy.index)
    assert f.sample_frequency.dtype == np.int64


def test_unweighted_population_frequency_equals_sample_frequency(toy):
    f = sdc.frequencies(toy, ["age", "sex"])
    assert_array_equal(f.population_frequency.to_numpy(), f.sample_frequency.to_numpy())


def test_wildcard_rule_worked_example():
    # Reference section 1.3: rows (a,b) with weights 1..8 (x10 here).
    df = pd.DataFrame({"a": [1, 1, 2, NAN, NAN, 1, 2, NAN], "b": [1, 2, 1, 1, NAN, NAN, 2, NAN],
                       "w": np.arange(1, 9) * 10.0})
    f = sdc.frequencies(df, ["a", "b"], weights="w")
    assert f.sample_frequency.tolist() == [3, 2, 2, 6, 8, 6, 1, 8]
    assert (f.population_frequency / 10).tolist() == [11, 8, 7, 27, 36, 26, 7, 36]
    h = sdc.frequencies(df, ["a", "b"], weights="w", alpha=0.5)
    assert h.sample_frequency.tolist() == [2, 1.5, 1.5, 4.5, 8, 4.5, 1, 8]
    assert (h.population_frequency / 10).tolist() == [6, 5, 5, 17.5, 36, 17.5, 7, 36]
    assert h.sample_frequency.dtype == np.float64


def test_single_key_counts_missing_towards_every_value():
    # Reference section 1.3, single key a = (1,1,2,NA,NA,3), w = 1..6.
    df = pd.DataFrame({"a": [1, 1, 2, NAN, NAN, 3], "w": [1.0, 2, 3, 4, 5, 6]})
    f = sdc.frequencies(df, ["a"], weights="w")
    assert f.sample_frequency.tolist() == [4, 4, 3, 6, 6, 3]
    assert f.population_frequency.tolist() == [12, 12, 12, 21, 21, 15]
    h = sdc.frequencies(df, ["a"], weights="w", alpha=0.5)
    assert h.sample_frequency.tolist() == [3, 3, 2, 6, 6, 2]
    assert h.population_frequency.tolist() == [7.5, 7.5, 7.5, 21, 21, 10.5]


def test_issue_353_asymmetry_with_alpha_zero():
    # sdcMicro issue #353: with alpha = 0, adding an all-missing variable changes fk.
    df = pd.DataFrame({"A": [1, 1, 1, NAN], "B": [1, 1, 1, 1], "C": [NAN, NAN, 7, NAN]})
    assert sdc.frequencies(df, ["A"], alpha=0).sample_frequency.tolist() == [3, 3, 3, 4]
    assert sdc.frequencies(df, ["A", "B"], alpha=0).sample_frequency.tolist() == [3, 3, 3, 4]
    assert sdc.frequencies(df, ["A", "B"], alpha=1).sample_frequency.tolist() == [4, 4, 4, 4]


def test_missing_as_category_counts_missing_as_a_value():
    df = pd.DataFrame({"a": [1, 1, NAN, NAN, 2], "b": ["x", "x", "x", "x", None]})
    f = sdc.frequencies(df, ["a", "b"], missing="category")
    assert f.sample_frequency.tolist() == [2, 2, 2, 2, 1]
    # wildcard: (1,x) = 2 own + 2 (NA,x); (NA,x) = 2 own + 2 complete (1,x) + 1 (2,NA), whose
    # observed keys do not overlap; (2,NA) = 1 own + 2 (NA,x) (no complete pattern has a = 2).
    g = sdc.frequencies(df, ["a", "b"])
    assert g.sample_frequency.tolist() == [4, 4, 5, 5, 3]


def test_all_missing_record_gets_n():
    df = pd.DataFrame({"a": [1, 2, NAN, 3], "b": [1, 2, NAN, 3], "w": [2.0, 3, 4, 5]})
    f = sdc.frequencies(df, ["a", "b"], weights="w")
    assert f.sample_frequency.tolist() == [1, 1, 4, 1]  # complete patterns ignore the all-missing one
    assert f.population_frequency.tolist() == [2, 3, 14, 5]


def test_alpha_dtype_rule():
    df = pd.DataFrame({"a": [1, 1, 2], "b": [1, 1, 2]})
    assert sdc.frequencies(df, ["a", "b"]).sample_frequency.dtype == np.int64
    assert sdc.frequencies(df, ["a", "b"], alpha=0).sample_frequency.dtype == np.int64
    assert sdc.frequencies(df, ["a", "b"], alpha=0.5).sample_frequency.dtype == np.float64
    assert sdc.frequencies(df, ["a", "b"], alpha=0.5, missing="category").sample_frequency.dtype == np.int64


@pytest.mark.parametrize("dtype", ["int64", "float64", "object", "category", "boolean", "Int64", "string"])
def test_any_key_dtype(dtype):
    raw = [1, 1, 0, 0, 0, 1]
    s = pd.Series(raw)
    if dtype in ("object", "string"):
        s = s.map({0: "no", 1: "yes"}).astype(dtype)
    elif dtype == "category":
        s = s.map({0: "no", 1: "yes"}).astype("category")
    elif dtype == "boolean":
        s = s.astype(bool).astype("boolean")
    else:
        s = s.astype(dtype)
    df = pd.DataFrame({"k": s, "other": [5, 5, 5, 6, 6, 6]})
    assert sdc.frequencies(df, ["k", "other"]).sample_frequency.tolist() == [2, 2, 1, 2, 2, 1]


def test_strings_are_not_coerced_to_numbers():
    df = pd.DataFrame({"k": ["1", 1, "1.0", 1.0]})
    # "1" and 1 are different values; 1 and 1.0 are equal (Python equality), as in pandas.
    assert sdc.frequencies(df, ["k"]).sample_frequency.tolist() == [1, 2, 1, 2]


def test_many_high_cardinality_keys_do_not_overflow():
    rng = np.random.default_rng(1)
    n = 2000
    df = pd.DataFrame({f"k{i}": rng.integers(0, 10**6, size=n) for i in range(6)})
    df.iloc[1] = df.iloc[0]
    f = sdc.frequencies(df, list(df.columns))
    assert f.sample_frequency.iloc[0] == 2 and f.sample_frequency.iloc[1] == 2
    assert f.n1 == n - 2


def test_input_not_mutated_and_index_kept(toy):
    before = toy.copy(deep=True)
    toy.loc[toy.index[0], "age"] = np.nan
    snapshot = toy.copy(deep=True)
    sdc.frequencies(toy, ["age", "sex"], weights="w", alpha=0.5)
    pd.testing.assert_frame_equal(toy, snapshot)
    assert not toy.equals(before)  # the fixture really had a missing value to handle


@settings(max_examples=scale.examples(150))
@given(microdata(), st.sampled_from([1.0, 0.5, 0.25, 0.0]))
def test_wildcard_matches_brute_force(case, alpha):
    df, keys, w = case
    f = sdc.frequencies(df, keys, weights=w, alpha=alpha)
    fk, Fk = brute.frequencies(df, keys, w, alpha)
    assert_allclose(f.sample_frequency.to_numpy(dtype=float), fk, rtol=0, atol=1e-9)
    assert_allclose(f.population_frequency.to_numpy(), Fk, rtol=1e-12)
    assert list(f.sample_frequency.index) == list(df.index)


@settings(max_examples=scale.examples(100))
@given(microdata())
def test_category_rule_matches_brute_force(case):
    df, keys, w = case
    f = sdc.frequencies(df, keys, weights=w, missing="category")
    fk, Fk = brute.frequencies(df, keys, w, missing="category")
    assert_array_equal(f.sample_frequency.to_numpy(), fk)
    assert_allclose(f.population_frequency.to_numpy(), Fk, rtol=1e-12)


@settings(max_examples=scale.examples(60))
@given(microdata(), st.randoms(use_true_random=False))
def test_invariant_to_row_order_and_relabelling(case, rnd):
    df, keys, w = case
    f = sdc.frequencies(df, keys, weights=w)
    perm = list(range(len(df)))
    rnd.shuffle(perm)
    shuffled = df.iloc[perm]
    g = sdc.frequencies(shuffled, keys, weights=w)
    assert_allclose(g.sample_frequency.loc[df.index].to_numpy(dtype=float), f.sample_frequency.to_numpy(dtype=float))
    # relabel every key's categories: counts depend only on equality
    relabelled = df.copy()
    for k in keys:
        relabelled[k] = df[k].map(lambda v: None if pd.isna(v) else f"label-{v}").astype(object)
    h = sdc.frequencies(relabelled, keys, weights=w)
    assert_allclose(h.sample_frequency.to_numpy(dtype=float), f.sample_frequency.to_numpy(dtype=float))


@settings(max_examples=scale.examples(60))
@given(microdata(missing=False, min_keys=2))
def test_dropping_a_key_never_lowers_fk(case):
    df, keys, w = case
    full = sdc.frequencies(df, keys).sample_frequency
    fewer = sdc.frequencies(df, keys[:-1]).sample_frequency
    assert (fewer >= full).all()
