"""Contract of every utility measure on random microdata: inputs unchanged, records matched by
index (a shuffled release gives the same figures), identical files lose nothing."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdc._stats import summary_values
import sdc
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")

# name -> (call, headline figures)
MEASURES = {
    "information_loss": (lambda o, r, v: sdc.information_loss(o, r, v, suppressed="max"),
                         lambda x: (x.overall, *x.il1.tolist())),
    "non_uniform_entropy": (lambda o, r, v: sdc.non_uniform_entropy(o, r, v), lambda x: (x.entropy, x.maximum)),
    "discernibility": (lambda o, r, v: sdc.discernibility(o, r, v),
                       lambda x: (x.discernibility_after, x.average_class_size_after, x.k_after)),
    "suppression": (lambda o, r, v: sdc.suppression(o, r, v),
                    lambda x: (x.records_retained, *x.cells_suppressed.tolist())),
    "association_change": (lambda o, r, v: sdc.association_change(o, r, v), lambda x: (x.max_cramers_v_change,)),
    "marginal_change": (lambda o, r, v: sdc.marginal_change(o, r, v), lambda x: (x.max_deviation,)),
    "utility_summary": (lambda o, r, v: sdc.utility_summary(o, r, v, keys=v),
                        lambda x: tuple(summary_values(x.summary()).values())),
}


def _same(a: tuple, b: tuple) -> bool:
    return all((isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
               or x == pytest.approx(y, rel=1e-12, abs=1e-12) for x, y in zip(a, b)) and len(a) == len(b)


@st.composite
def release(draw, case):
    """The original and a release: some cells replaced by another value of the column or suppressed."""
    df, keys, _ = case
    rel = df.copy()
    n = len(df)
    for k in keys:
        change = draw(st.lists(st.sampled_from(["keep", "swap", "suppress"]), min_size=n, max_size=n))
        col = rel[k].copy()
        values = df[k].dropna().unique()
        for i, c in enumerate(change):
            if c == "swap" and len(values):
                col.iloc[i] = values[draw(st.integers(0, len(values) - 1))]
            elif c == "suppress":
                col.iloc[i] = None
        rel[k] = col
    return df, rel, keys


@pytest.mark.parametrize("name", MEASURES)
@settings(max_examples=25, suppress_health_check=[HealthCheck.data_too_large, HealthCheck.too_slow])
@given(case=microdata(max_keys=3, weights=False), data=st.data())
def test_contract(name, case, data):
    call, figures = MEASURES[name]
    orig, rel, keys = data.draw(release(case))
    o0, r0 = orig.copy(deep=True), rel.copy(deep=True)
    res = call(orig, rel, keys)
    pd.testing.assert_frame_equal(orig, o0)
    pd.testing.assert_frame_equal(rel, r0)
    assert isinstance(res.to_frame(), pd.DataFrame)
    s = res.summary()
    assert isinstance(s, pd.DataFrame) and list(s.columns) == ["statistic", "value", "description"]
    # a release with its rows in another order is matched by index
    perm = np.random.default_rng(len(orig)).permutation(len(orig))
    assert _same(figures(call(orig, rel.iloc[perm], keys)), figures(res))
    # both files shuffled alike: nothing changes
    assert _same(figures(call(orig.iloc[perm], rel.iloc[perm], keys)), figures(res))


@settings(max_examples=40, suppress_health_check=[HealthCheck.data_too_large, HealthCheck.too_slow])
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
