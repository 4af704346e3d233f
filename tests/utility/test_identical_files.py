"""Identical files lose nothing, for every utility measure, on random microdata.

The other common checks of the utility measures (inputs unchanged, records matched by index,
results frozen, bad arguments refused in one line) run over the registry's entries in
tests/workflow/test_measure_checks.py."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sdc
from tests.strategies import microdata
from tests import scale

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")

@settings(max_examples=scale.examples(40), suppress_health_check=[HealthCheck.data_too_large, HealthCheck.too_slow])
@given(case=microdata(max_keys=3, weights=False))
def test_identical_files_lose_nothing(case):
    df, keys, _ = case
    same = df.copy()
    il1 = sdc.information_loss(df, same, keys)
    assert il1.overall == 0.0 and all(v == 0.0 for v in il1.il1)
    nue = sdc.non_uniform_entropy(df, same, keys)
    assert nue.entropy == 0.0 and nue.utility_retained == 1.0
    d = sdc.discernibility(df, same, keys)
    assert d.discernibility_utility_retained == 1.0 and d.aecs_utility_retained == 1.0
    assert d.privacy_gain == 0.0
    s = sdc.suppression(df, same, keys)
    assert s.records_retained == len(df) and s.total_cells_suppressed == 0
    m = sdc.marginal_change(df, same, keys)
    if m.categorical:
        assert m.max_deviation == 0.0
    ch = m.statistics["change"].to_numpy(dtype=float)
    assert np.all((ch == 0) | np.isnan(ch))


@settings(max_examples=40, suppress_health_check=[HealthCheck.data_too_large, HealthCheck.too_slow])
@given(case=microdata(max_keys=3, weights=False))
def test_identical_files_lose_nothing_in_mlodaks_measures(case):
    df, keys, _ = case
    same = df.copy()
    v = sdc.il_variables(df, same)
    assert v.value == 0.0 and all(x == 0.0 for x in v.loss)
    num = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]
    if len(num) >= 2:
        c = sdc.il_correl(df, same, num)
        assert c.value == 0.0 or np.isnan(c.value)


@settings(max_examples=3, deadline=None)  # two MCD searches each
@given(seed=st.integers(0, 10_000), p=st.integers(2, 4))
def test_identical_files_lose_nothing_in_robust_eigen(seed, p):
    x = pd.DataFrame(np.random.default_rng(seed).normal(size=(30, p)), columns=[f"v{j}" for j in range(p)])
    assert sdc.robust_eigen_loss(x, x.copy()).value == 0.0
