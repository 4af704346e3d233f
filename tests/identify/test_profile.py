"""Column profile: one value per record, constant, near-constant, missing above the threshold
(exact boundaries, and brute force on random frames)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from sdc._stats import summary_values
from sdc.identify.profile import profile_columns


def flags(df: pd.DataFrame, **kw) -> dict[str, dict]:
    return profile_columns(df, **kw).table.set_index("column").to_dict("index")


def test_missing_threshold_is_strictly_above_85_percent() -> None:
    n = 20
    df = pd.DataFrame({"m17": [None] * 17 + [1.0, 2.0, 3.0],   # 85 % missing: kept
                       "m18": [None] * 18 + [1.0, 2.0]})      # 90 % missing: dropped
    f = flags(df)
    assert f["m17"]["missing_share"] == pytest.approx(0.85) and not f["m17"]["dropped"]
    assert f["m18"]["dropped"]
    assert profile_columns(df).dropped == ("m18",)
    assert not flags(df, missing_threshold=0.9)["m18"]["dropped"]
    assert flags(df, missing_threshold=0.5)["m17"]["dropped"]
    assert len(df) == n


def test_near_constant_at_95_percent() -> None:
    df = pd.DataFrame({"nc19": ["a"] * 19 + ["b"], "nc18": ["a"] * 18 + ["b", "c"]})
    f = flags(df)
    assert f["nc19"]["near_constant"] and f["nc19"]["top_share"] == pytest.approx(0.95)
    assert not f["nc18"]["near_constant"]
    assert flags(df, near_constant=0.9)["nc18"]["near_constant"]


def test_constant_one_per_record_and_missing_as_a_value() -> None:
    df = pd.DataFrame({
        "const": ["x"] * 4,
        "x_or_missing": ["x", None, "x", None],   # presence/absence carries information
        "all_missing": [None] * 4,
        "uid": ["a", "b", "c", "d"],
        "uid_gaps": ["a", None, "c", "d"],         # all present values distinct
        "ints": [1, 2, 2, 3],
    })
    f = flags(df)
    assert f["const"]["constant"] and not f["const"]["near_constant"]
    assert not f["x_or_missing"]["constant"]
    assert f["all_missing"]["constant"] and f["all_missing"]["dropped"]
    assert f["uid"]["one_per_record"] and f["uid_gaps"]["one_per_record"]
    assert not f["ints"]["one_per_record"]
    p = profile_columns(df)
    assert p.constant == ("const", "all_missing") and p.one_per_record == ("uid", "uid_gaps")
    assert summary_values(p.summary())["dropped"] == ["all_missing"]


def test_kinds() -> None:
    df = pd.DataFrame({
        "i": [1, 2, 3], "f": [1.5, 2.0, None], "b": [True, False, True], "d": pd.to_datetime(["2001-01-01"] * 3),
        "t": ["a", "b", "c"], "zip": ["02134", "10001", "94110"], "num_text": ["1", "2.5", "3"],
        "int_text": ["10", "20", "30"], "fl_int": [1.0, 2.0, None],
    })
    k = profile_columns(df).table.set_index("column")["kind"].to_dict()
    assert k == {"i": "integer", "f": "number", "b": "boolean", "d": "date", "t": "text", "zip": "text",
                 "num_text": "number", "int_text": "integer", "fl_int": "integer"}


@given(st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=1, max_size=40),
       st.floats(0, 1), st.floats(0.01, 1))
def test_brute_force(values: list, miss_thr: float, nc_thr: float) -> None:
    df = pd.DataFrame({"c": pd.Series(values, dtype="Int64")})
    f = flags(df, missing_threshold=miss_thr, near_constant=nc_thr)["c"]
    n = len(values)
    present = [v for v in values if v is not None]
    n_miss = n - len(present)
    cells = ["NA" if v is None else v for v in values]
    top = max(cells.count(v) for v in set(cells)) / n
    assert f["n_missing"] == n_miss and f["n_distinct"] == len(set(present))
    assert f["dropped"] == (n_miss / n > miss_thr + 1e-12)
    assert f["constant"] == (len(set(cells)) == 1)
    assert f["near_constant"] == (len(set(cells)) > 1 and top >= nc_thr - 1e-12)
    assert f["one_per_record"] == (len(present) >= 2 and len(set(present)) == len(present))
    assert np.isclose(f["top_share"], top)


def test_bad_thresholds() -> None:
    df = pd.DataFrame({"a": [1]})
    with pytest.raises(ValueError, match="missing_threshold"):
        profile_columns(df, missing_threshold=1.2)
    with pytest.raises(ValueError, match="near_constant"):
        profile_columns(df, near_constant=0)
