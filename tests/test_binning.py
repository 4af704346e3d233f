"""Binning continuous variables into labelled intervals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sdc.core.binning import apply_binning, bin_column


def test_edges_are_left_closed_and_the_last_bin_is_closed():
    s = pd.Series([0, 5.9, 6, 11.9, 12, np.nan], name="age")
    out, rec = bin_column(s, [0, 6, 12])
    assert out.astype(object).where(out.notna(), None).tolist() == ["0--6", "0--6", "6--12", "6--12", "6--12", None]
    assert rec.labels == ("0--6", "6--12") and rec.method == "edges" and out.cat.ordered


def test_infinite_edges_and_labels():
    out, rec = bin_column(pd.Series([1, 70, 120], name="age"), [0, 18, 65, math.inf])
    assert rec.labels == ("0--18", "18--65", "65--inf")
    assert out.tolist() == ["0--18", "65--inf", "65--inf"]


def test_quantile_bins():
    s = pd.Series(np.arange(100.0), name="x")
    out, rec = bin_column(s, {"quantiles": 4})
    assert rec.method == "quantiles=4" and len(rec.labels) == 4
    assert out.value_counts().tolist() == [25, 25, 25, 25]


@pytest.mark.parametrize(("spec", "message"), [
    ([0, 10], "outside the bin edges"),
    ([5, 1], "at least two increasing numbers"),
    (["a", "b"], "must be numbers"),
    ({"deciles": 10}, "must be a list of edges"),
])
def test_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        bin_column(pd.Series([1, 20], name="age"), spec)


def test_non_numeric_and_input_unchanged():
    with pytest.raises(ValueError, match="must be numeric to be binned"):
        bin_column(pd.Series(["a"], name="sex"), [0, 1])
    df = pd.DataFrame({"age": [1, 50]})
    out, recs = apply_binning(df, {"age": [0, 18, 99]})
    assert df["age"].tolist() == [1, 50] and out["age"].tolist() == ["0--18", "18--99"]
    assert recs[0].to_dict() == {"column": "age", "method": "edges", "edges": [0.0, 18.0, 99.0],
                                 "labels": ["0--18", "18--99"]}
