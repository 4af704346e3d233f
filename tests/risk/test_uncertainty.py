"""Intervals: the Poisson-binomial re-identification count and the delete-a-group jackknife."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from tests import brute, scale

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")


@settings(max_examples=scale.examples(60))
@given(st.lists(st.sampled_from([1, 2, 3, 4, 5, 6]), min_size=2, max_size=40))
def test_exact_interval_matches_the_poisson_binomial(codes):
    df = pd.DataFrame({"k": codes})
    r = sdc.individual_risk(df, ["k"])
    iv = sdc.reidentification_interval(r, level=0.9)
    cdf = np.cumsum(brute.poisson_binomial_pmf(r.risk.to_numpy()))
    assert iv.lower == np.searchsorted(cdf, 0.05 - 1e-12) and iv.upper == np.searchsorted(cdf, 0.95 - 1e-12)
    assert iv.lower <= iv.estimate <= iv.upper and iv.method == "exact Poisson-binomial"


def test_normal_approximation_for_many_risks():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"a": rng.integers(0, 300, 30000), "b": rng.integers(0, 9, 30000), "w": rng.uniform(1, 50, 30000)})
    r = sdc.individual_risk(df, ["a", "b"], weights="w")
    iv = sdc.reidentification_interval(r)
    assert iv.method.startswith("normal")
    sd = np.sqrt((r.risk * (1 - r.risk)).sum())
    assert iv.upper - iv.lower == pytest.approx(2 * 1.96 * sd, abs=3)


def test_jackknife_is_reproducible_and_sensible():
    df = sdc.load_example()
    keys = ["age", "sex", "region"]
    a = sdc.jackknife_interval(df, keys, weights="weight", household="household_id", groups=20, rng=3)
    b = sdc.jackknife_interval(df, keys, weights="weight", household="household_id", groups=20, rng=3)
    assert (a.lower, a.upper) == (b.lower, b.upper) and a.replicates.size == 20
    assert a.lower < a.estimate < a.upper and a.standard_error > 0
    g = sdc.jackknife_interval(df, keys, weights="weight", statistic="global_risk", groups=20, rng=3)
    assert g.estimate == pytest.approx(a.estimate / len(df))
    none = sdc.jackknife_interval(df, keys)
    assert none.standard_error == 0 and none.lower == none.upper == none.estimate


def test_jackknife_errors():
    df = sdc.load_example()
    with pytest.raises(ValueError, match="needs `population_size`"):
        sdc.jackknife_interval(df, ["age"], statistic="population_uniques")
    with pytest.raises(ValueError, match="must not exceed the number of sampling units"):
        sdc.jackknife_interval(df.head(5), ["age"], groups=10)
