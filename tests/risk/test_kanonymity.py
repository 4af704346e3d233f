"""k-anonymity profile: counts, class sizes, riskiest classes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from tests import brute, scale
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


def test_hand_computed_profile(toy):
    # classes on (age, sex, region): sizes 2, 1, 2, 2, 1 over 8 records
    p = sdc.k_anonymity(toy, ["age", "sex", "region"], k=2, weights="w")
    assert (p.n_records, p.n_classes, p.n_unique) == (8, 5, 2)
    assert (p.n_k_lt_threshold, p.n_k_le_threshold) == (2, 8)
    assert p.pct_unique == 25.0 and p.pct_k_lt_threshold == 25.0 and p.pct_k_le_threshold == 100.0
    assert (p.min_k, p.median_k) == (1.0, 2.0)
    assert p.class_sizes.to_dict("list") == {"fk": [1, 2], "n_classes": [2, 3], "n_records": [2, 6]}
    assert p.violates.tolist() == [False, False, True, False, False, False, False, True]
    assert p.violates.index.equals(toy.index)
    assert p.n_below(3) == 8


def test_riskiest_classes_are_sorted_and_carry_key_values(toy):
    p = sdc.k_anonymity(toy, ["age", "sex", "region"], weights="w", top=3)
    rc = p.riskiest_classes
    assert list(rc.columns) == ["age", "sex", "region", "fk", "Fk", "risk", "n_records"]
    # uniques (60,f,n) with Fk 4 and (30,m,n) with Fk 5: the smaller Fk is the riskier
    assert rc[["age", "sex", "region"]].iloc[0].tolist() == [60, "f", "n"]
    assert rc[["age", "sex", "region"]].iloc[1].tolist() == [30, "m", "n"]
    assert rc["risk"].is_monotonic_decreasing
    assert len(rc) == 3


def test_fractional_fk_profile_with_alpha():
    df = pd.DataFrame({"a": [1, 1, np.nan, 5], "b": [1, np.nan, 7, 5]})
    p = sdc.k_anonymity(df, ["a", "b"], alpha=0.5, k=2)
    # (1,1): 1 + 0.5 (1,NA);  (1,NA): 1 + 1 (1,1 complete, full) + 0.5 (NA,7: no common key);
    # (NA,7): 1 + 0.5 (1,NA);  (5,5): 1.  n_unique counts fk == 1 exactly.
    assert p.sample_frequency.tolist() == [1.5, 2.5, 1.5, 1.0]
    assert p.n_unique == 1 and p.n_k_lt_threshold == 3 and p.min_k == 1.0


def test_summary_rows(toy):
    s = sdc.k_anonymity(toy, ["age", "sex"], k=2).summary()
    assert s["statistic"].tolist()[:3] == ["n_records", "n_classes", "n_unique"]


@pytest.mark.parametrize("k", [0, -1])
def test_k_must_be_positive(toy, k):
    with pytest.raises(ValueError, match="`k` must be an integer >= 1"):
        sdc.k_anonymity(toy, ["age"], k=k)


def test_k_must_be_integer(toy):
    with pytest.raises(TypeError, match="`k` must be an integer"):
        sdc.k_anonymity(toy, ["age"], k=2.5)


@settings(max_examples=scale.examples(80))
@given(microdata(), st.integers(1, 6))
def test_counts_match_brute_force(case, k):
    df, keys, w = case
    p = sdc.k_anonymity(df, keys, k=k, weights=w)
    fk, _ = brute.frequencies(df, keys, w)
    assert p.n_unique == int((fk == 1).sum())
    assert p.n_k_lt_threshold == int((fk < k).sum())
    assert p.n_k_le_threshold == int((fk <= k).sum())
    assert p.min_k == fk.min()
    assert p.median_k == np.median(fk)
    assert p.class_sizes["n_records"].sum() == len(df)
    assert p.n_classes == len(df[keys].drop_duplicates())
