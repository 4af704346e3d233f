"""Snapshots over key subsets."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings

import sdc
from sdc.risk.snapshots import SNAPSHOT_COLUMNS
from tests.strategies import microdata
from tests import scale

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


def test_every_subset_in_order(toy):
    s = sdc.key_subset_snapshots(toy, ["age", "sex", "region"], threshold=2)
    assert len(s.table) == 7
    assert list(s.table.columns) == list(SNAPSHOT_COLUMNS)
    assert [tuple(k) for k in s.table["keys"]] == [
        ("age",), ("sex",), ("region",), ("age", "sex"), ("age", "region"), ("sex", "region"),
        ("age", "sex", "region")]
    full = s.table.iloc[-1]
    assert (full.n_classes, full.n_unique, full.expected_reidentifications) == (5, 2, 5.0)
    assert s.to_frame()["keys"].iloc[-1] == "age + sex + region"


def test_given_subsets(toy):
    s = sdc.key_subset_snapshots(toy, ["age", "sex", "region"], subsets=[["sex", "age"], ["region"]])
    assert [tuple(k) for k in s.table["keys"]] == [("sex", "age"), ("region",)]
    with pytest.raises(ValueError, match="not in `keys`"):
        sdc.key_subset_snapshots(toy, ["age", "sex"], subsets=[["region"]])
    with pytest.raises(ValueError, match="did you mean 'age'"):
        sdc.key_subset_snapshots(toy, ["age", "sex"], subsets=[["agee"]])


@settings(max_examples=scale.examples(40))
@given(microdata(max_keys=3))
def test_rows_equal_the_single_measures(case):
    df, keys, w = case
    s = sdc.key_subset_snapshots(df, keys, weights=w, threshold=2)
    for row in s.table.itertuples(index=False):
        p = sdc.k_anonymity(df, list(row.keys), k=2, weights=w)
        r = sdc.individual_risk(df, list(row.keys), weights=w)
        assert (row.n_classes, row.n_unique, row.n_k_le_threshold) == (p.n_classes, p.n_unique, p.n_k_le_threshold)
        assert row.median_k == p.median_k and row.min_k == p.min_k
        assert row.expected_reidentifications == pytest.approx(r.expected_reidentifications, rel=1e-12)
