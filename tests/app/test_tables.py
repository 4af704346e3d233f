"""The tables the page receives: a comparison's figures by their descriptions, pairs in two columns."""

import math

import pandas as pd

from sdc.app.tables import MAX_ROWS, before_after_json, frame_json


def _summary() -> pd.DataFrame:
    return pd.DataFrame({
        "statistic": ["records_original", "pct_unique", "eigen_similarity_pct", "variables_changed", "robust"],
        "value": [10, (20.0, 5.0), math.nan, ["age", "bmi"], None],
        "description": ["records in the original", "sample uniques (%), before and after",
                        "eigenvalue similarity (%)", "variables with a changed cell", "robust figure"]})


def test_a_comparison_shows_descriptions_and_pairs_in_two_columns():
    d = before_after_json(_summary())
    assert d["columns"] == ["measure", "value", "before", "after"]
    assert d["rows"] == [["records in the original", 10, None, None],
                         ["sample uniques (%)", None, 20.0, 5.0],
                         ["variables with a changed cell", "age, bmi", None, None]]
    assert not any("pct" in str(c) for row in d["rows"] for c in row)  # no statistic names on the page


def test_a_table_is_capped_and_says_its_size():
    d = frame_json(pd.DataFrame({"a": range(MAX_ROWS + 3)}))
    assert len(d["rows"]) == MAX_ROWS and d["total"] == MAX_ROWS + 3
