"""g-distinct classification (Mansour et al. 2021, as used by Khan et al. 2025): published
values, hand-computed rates, exact threshold boundaries and brute force on random frames."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from sdc._stats import summary_values
from sdc import g_distinct
from sdc.identify.gdistinct import classify_rate


@pytest.mark.parametrize("n, expected_pct", [(500, 0.40), (1000, 0.20)])
def test_binary_attribute_published_values(n: int, expected_pct: float) -> None:
    # Khan et al.: a binary attribute scores 0.40 % in 500 records and 0.20 % in 1,000.
    df = pd.DataFrame({"sex": ["f", "m"] * (n // 2)})
    for average in ("records", "values"):
        r = g_distinct(df, average=average)
        assert r.table.loc[0, "rate_pct"] == pytest.approx(expected_pct, abs=1e-12)


def test_records_average_is_distinct_over_n_for_any_binary_split() -> None:
    df = pd.DataFrame({"flag": [1] * 450 + [0] * 50})
    assert g_distinct(df).rates["flag"] == pytest.approx(2 / 500)            # 0.40 %, whatever the split
    assert g_distinct(df, average="values").rates["flag"] == pytest.approx((1 / 450 + 1 / 50) / 2)


def test_hand_computed_rates_and_classes() -> None:
    # 10 records: id unique (10 values), ward 3 values (5, 3, 2), const one value, miss: a, a, NaN x8.
    df = pd.DataFrame({
        "id": range(10),
        "ward": list("AAAAABBBCC"),
        "const": ["x"] * 10,
        "miss": ["a", "a"] + [None] * 8,
    })
    r = g_distinct(df, alpha=0.25, beta=0.15)
    assert r.rates == pytest.approx({"id": 1.0, "ward": 0.3, "const": 0.1, "miss": 0.2})
    assert r.classes == {"id": "sensitive", "ward": "sensitive", "const": "non-sensitive", "miss": "quasi-identifier"}
    v = g_distinct(df, average="values", alpha=0.25, beta=0.15)
    assert v.rates["ward"] == pytest.approx((1 / 5 + 1 / 3 + 1 / 2) / 3)
    assert v.rates["miss"] == pytest.approx((1 / 2 + 1 / 8) / 2)  # missing is a value of its own
    assert v.rates["const"] == pytest.approx(0.1)
    assert list(r.table["n_values"]) == [10, 3, 1, 2]


def test_khan_thresholds_on_500_records() -> None:
    # alpha = 25 %, beta = 1 % (Khan et al., 500 rows): 125 values -> QI (on alpha), 126 -> sensitive,
    # 5 values -> QI (on beta), 4 -> non-sensitive.
    n = 500
    cols = {f"d{d}": np.arange(n) % d for d in (4, 5, 125, 126)}
    r = g_distinct(pd.DataFrame(cols), alpha=0.25, beta=0.01)
    assert r.classes == {"d4": "non-sensitive", "d5": "quasi-identifier", "d125": "quasi-identifier",
                         "d126": "sensitive"}
    assert summary_values(r.summary())["quasi_identifiers"] == ["d5", "d125"]


def test_classify_rate_bounds_are_inclusive() -> None:
    assert classify_rate(0.1, 0.1, 0.01) == "quasi-identifier"
    assert classify_rate(0.1 + 1e-9, 0.1, 0.01) == "sensitive"
    assert classify_rate(0.01, 0.1, 0.01) == "quasi-identifier"
    assert classify_rate(0.01 - 1e-9, 0.1, 0.01) == "non-sensitive"
    assert classify_rate(0.3 * 3 / 9, 0.1, 0.01) == "quasi-identifier"  # 0.09999999999999999 lands on 0.1's side


@pytest.mark.parametrize("kwargs, exc, fragment", [
    (dict(alpha=0.01, beta=0.1), ValueError, "`beta` must not exceed `alpha`"),
    (dict(alpha=1.5), ValueError, "`alpha` must lie in [0, 1]"),
    (dict(beta="x"), TypeError, "`beta` must be a number"),
    (dict(average="rows"), ValueError, "`average` must be one of"),
    (dict(variables=["nope"]), ValueError, "not in the data"),
])
def test_bad_options(kwargs: dict, exc: type, fragment: str) -> None:
    with pytest.raises(exc, match=None) as info:
        g_distinct(pd.DataFrame({"a": [1, 2]}), **kwargs)
    assert fragment in str(info.value)


def test_rows_without_columns_refused() -> None:
    # As variables=[] is: nothing to classify is an error, not an empty result.
    with pytest.raises(ValueError, match="`data` has no columns to classify"):
        g_distinct(pd.DataFrame(index=range(3)))


def test_result_is_frozen_and_input_untouched() -> None:
    df = pd.DataFrame({"a": [1, 2, 2], "b": ["x", None, "x"]})
    before = df.copy()
    r = g_distinct(df)
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(AttributeError):
        r.alpha = 0.5  # type: ignore[misc]


@st.composite
def _frames(draw):
    n = draw(st.integers(1, 40))
    cols = {}
    for j in range(draw(st.integers(1, 4))):
        card = draw(st.integers(1, 6))
        vals = draw(st.lists(st.one_of(st.none(), st.integers(0, card - 1)), min_size=n, max_size=n))
        cols[f"c{j}"] = pd.Series(vals, dtype="Int64")
    return pd.DataFrame(cols)


@given(_frames(), st.floats(0, 1), st.floats(0, 1))
def test_brute_force(df: pd.DataFrame, a: float, b: float) -> None:
    alpha, beta = max(a, b), min(a, b)
    n = len(df)
    rec = g_distinct(df, alpha=alpha, beta=beta)
    val = g_distinct(df, alpha=alpha, beta=beta, average="values")
    for c in df.columns:
        cells = ["<NA>" if pd.isna(v) else int(v) for v in df[c]]
        freq = Counter(cells)
        by_record = sum(1 / freq[v] for v in cells) / n          # mean over records of 1/g
        by_value = sum(1 / f for f in freq.values()) / len(freq)  # mean over distinct values of 1/f
        assert rec.rates[c] == pytest.approx(by_record)
        assert rec.rates[c] == pytest.approx(len(freq) / n)
        assert val.rates[c] == pytest.approx(by_value)
        assert 1 / n - 1e-12 <= rec.rates[c] <= 1 + 1e-12
        expected = ("sensitive" if by_record > alpha + 1e-12 else "non-sensitive" if by_record < beta - 1e-12
                    else "quasi-identifier")
        assert rec.classes[c] == expected


@given(_frames(), st.randoms(use_true_random=False))
def test_rates_do_not_depend_on_record_order(df: pd.DataFrame, rnd) -> None:
    order = list(range(len(df)))
    rnd.shuffle(order)
    a, b = g_distinct(df, average="values"), g_distinct(df.iloc[order], average="values")
    assert a.rates == pytest.approx(b.rates)
