"""Household (hierarchical) risk."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import sdc
from tests import brute, scale
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


def test_hand_computed():
    df = pd.DataFrame({"age": [30, 30, 40, 50, 50], "hh": ["a", "a", "b", "c", "c"]})
    h = sdc.household_risk(df, ["age"], "hh")
    # risks 1/2, 1/2, 1, 1/2, 1/2 -> household a: 1 - 1/4, b: 1, c: 1 - 1/4
    assert h.risk.tolist() == [0.75, 0.75, 1.0, 0.75, 0.75]
    assert h.expected_reidentifications == 4.0 and h.global_risk == 0.8 and h.global_risk_pct == 80.0
    assert h.n_households == 3 and h.risk.index.equals(df.index)
    assert list(h.to_frame().columns) == ["risk", "fk", "Fk", "hier_risk"]


@settings(max_examples=scale.examples(80))
@given(microdata(), st.data())
def test_matches_brute_force(case, data):
    df, keys, w = case
    hh = data.draw(st.lists(st.integers(0, 4), min_size=len(df), max_size=len(df)))
    df = df.assign(hh=hh)
    h = sdc.household_risk(df, keys, "hh", weights=w)
    r = sdc.individual_risk(df, keys, weights=w).risk.to_numpy()
    assert_allclose(h.risk.to_numpy(), brute.household(r, hh), rtol=1e-12, atol=1e-15)
    assert (h.risk.to_numpy() >= r - 1e-15).all()


@pytest.mark.parametrize(("hh", "message"), [
    ([1, None, 2], "household id column 'hh' has 1 missing value"),
    ([1, "1", 2], "mixes types"),
])
def test_bad_household_ids(hh, message):
    df = pd.DataFrame({"k": [1, 2, 3], "hh": pd.Series(hh, dtype=object)})
    with pytest.raises(ValueError, match=message):
        sdc.household_risk(df, ["k"], "hh")


def test_string_ids_are_fine():
    df = pd.DataFrame({"k": [1, 1], "hh": ["x", "y"]})
    assert sdc.household_risk(df, ["k"], "hh").risk.tolist() == [0.5, 0.5]
