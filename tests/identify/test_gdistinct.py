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
    assert g_distinct(df, average="records").rates["flag"] == pytest.approx(2 / 500)  # 0.40 %, whatever the split
    assert g_distinct(df).rates["flag"] == pytest.approx((1 / 450 + 1 / 50) / 2)     # the default: over the values


def test_hand_computed_rates_and_classes() -> None:
    # 10 records: id unique (10 values), ward 3 values (5, 3, 2), const one value, miss: a, a, NaN x8.
    df = pd.DataFrame({
        "id": range(10),
        "ward": list("AAAAABBBCC"),
        "const": ["x"] * 10,
        "miss": ["a", "a"] + [None] * 8,
    })
    r = g_distinct(df, alpha=0.25, beta=0.15, average="records")
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
    rec = g_distinct(df, alpha=alpha, beta=beta, average="records")
    val = g_distinct(df, alpha=alpha, beta=beta)
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
        assert val.table.set_index("variable").loc[c, "rate_records"] == pytest.approx(by_record)


@given(_frames(), st.randoms(use_true_random=False))
def test_rates_do_not_depend_on_record_order(df: pd.DataFrame, rnd) -> None:
    order = list(range(len(df)))
    rnd.shuffle(order)
    a, b = g_distinct(df, average="values"), g_distinct(df.iloc[order], average="values")
    assert a.rates == pytest.approx(b.rates)


# --- Khan et al.'s published rates (issue 27 item 3) -------------------------------------------
# The two mock files of Khan, Menten and Peeters' pipeline (github.com/LoreMenten/Attribute-
# Identification-And-Utility-Metrics-Pipeline, commit d3bddda: df_500_rows/stage_1_df_mock_500.csv
# and df_1000_rows/stage_1_df_mock_1000.csv), reduced to what a g-distinct rate reads: per
# column, how many distinct values occur f times ({f: number of values}); `secret_name`, the
# direct identifier, is left out as the pipeline asks. covid19_self_isolation is missing in 440
# of 500 and 918 of 1,000 records (dropped by the 85 % rule).
KHAN_500 = {
    "report_source": {227: 1, 273: 1}, "sex": {239: 1, 261: 1},
    "age": {11: 1, 13: 3, 15: 3, 17: 2, 18: 2, 19: 1, 20: 3, 21: 3, 22: 1, 23: 2, 24: 1, 25: 3, 26: 1},
    "edss": {1: 3, 2: 6, 3: 4, 4: 11, 5: 11, 6: 12, 7: 11, 8: 8, 9: 6, 10: 1, 11: 4, 12: 1, 13: 1, 14: 2},
    "bmi": {1: 13, 2: 37, 3: 42, 4: 27, 5: 15, 6: 11, 7: 2, 8: 3},
    "covid19_admission_hospital": {240: 1, 260: 1}, "covid19_confirmed_case": {140: 1, 360: 1},
    "covid19_diagnosis": {234: 1, 266: 1},
    "covid19_symptoms": {23: 3, 24: 1, 28: 1, 29: 1, 53: 1, 66: 1, 231: 1},
    "covid19_icu_stay": {127: 1, 373: 1}, "covid19_outcome_recovered": {140: 1, 178: 1, 182: 1},
    "covid19_self_isolation": {29: 1, 31: 1}, "covid19_ventilation": {68: 1, 89: 1, 343: 1},
    "comorbidities": {17: 1, 20: 1, 21: 1, 25: 2, 27: 1, 29: 1, 30: 1, 58: 1, 248: 1},
    "ms_type": {46: 1, 53: 1, 81: 1, 108: 1, 212: 1},
    "ms_diagnosis_date": {1: 7, 2: 3, 3: 5, 4: 7, 5: 3, 6: 2, 7: 5, 8: 3, 9: 1, 10: 1, 11: 3, 13: 1, 15: 1, 16: 3,
                          17: 2, 19: 1, 20: 1, 21: 1, 24: 1, 26: 1, 27: 1, 29: 1, 30: 1},
}
KHAN_1000 = {
    "report_source": {495: 1, 505: 1}, "sex": {492: 1, 508: 1},
    "age": {28: 1, 29: 1, 31: 2, 33: 2, 34: 2, 36: 2, 37: 3, 38: 1, 40: 2, 41: 3, 42: 1, 44: 2, 47: 2, 48: 1, 51: 1},
    "edss": {1: 1, 4: 2, 6: 1, 7: 4, 8: 1, 9: 7, 10: 11, 11: 10, 12: 6, 13: 8, 14: 8, 15: 6, 16: 6, 17: 1, 18: 4,
             19: 1, 20: 1, 21: 2, 22: 1},
    "bmi": {1: 3, 2: 12, 3: 9, 4: 19, 5: 24, 6: 19, 7: 20, 8: 25, 9: 10, 10: 9, 11: 6, 12: 2, 13: 2},
    "covid19_admission_hospital": {482: 1, 518: 1}, "covid19_confirmed_case": {263: 1, 737: 1},
    "covid19_diagnosis": {499: 1, 501: 1},
    "covid19_symptoms": {43: 1, 50: 1, 53: 1, 55: 1, 56: 2, 85: 1, 113: 1, 489: 1},
    "covid19_icu_stay": {261: 1, 739: 1}, "covid19_outcome_recovered": {263: 1, 367: 1, 370: 1},
    "covid19_self_isolation": {37: 1, 45: 1}, "covid19_ventilation": {152: 1, 156: 1, 174: 1, 518: 1},
    "comorbidities": {41: 1, 42: 1, 44: 1, 45: 1, 49: 1, 51: 1, 52: 1, 63: 1, 98: 1, 515: 1},
    "ms_type": {83: 1, 107: 1, 187: 1, 231: 1, 392: 1},
    "ms_diagnosis_date": {1: 2, 2: 1, 3: 2, 4: 5, 5: 2, 6: 2, 7: 2, 8: 1, 11: 2, 12: 2, 13: 2, 14: 3, 16: 2, 17: 1,
                          18: 3, 20: 1, 21: 3, 22: 2, 23: 1, 29: 2, 31: 1, 34: 1, 37: 3, 40: 1, 41: 1, 44: 1, 45: 1,
                          48: 1, 52: 1, 55: 1},
}
# The rates (%) as published: the 1,000-row table is the example output in the pipeline's
# README; the 500-row one is what its stage_1_identification.py prints for the 500-row file
# (bmi 38.5, as in Khan et al. 2025). Both at 2 decimals, as printed.
KHAN_RATES = {
    500: {"bmi": 38.5, "ms_diagnosis_date": 27.65, "edss": 22.58, "age": 5.49, "comorbidities": 3.63,
          "covid19_symptoms": 3.12, "ms_type": 1.34, "covid19_ventilation": 0.96, "covid19_outcome_recovered": 0.61,
          "covid19_icu_stay": 0.53, "covid19_confirmed_case": 0.5, "report_source": 0.4, "sex": 0.4,
          "covid19_admission_hospital": 0.4, "covid19_diagnosis": 0.4},
    1000: {"bmi": 20.98, "ms_diagnosis_date": 13.81, "edss": 10.04, "age": 2.66, "comorbidities": 1.8,
           "covid19_symptoms": 1.54, "ms_type": 0.67, "covid19_ventilation": 0.52, "covid19_outcome_recovered": 0.31,
           "covid19_confirmed_case": 0.26, "covid19_icu_stay": 0.26, "report_source": 0.2, "sex": 0.2,
           "covid19_admission_hospital": 0.2, "covid19_diagnosis": 0.2},
}
# Khan et al.'s classes: alpha/beta 25 %/1 % (500 rows) and 10 %/1 % (1,000 rows).
KHAN_SENSITIVE = {500: {"bmi", "ms_diagnosis_date"}, 1000: {"bmi", "ms_diagnosis_date", "edss"}}
KHAN_QI = {500: {"edss", "age", "comorbidities", "covid19_symptoms", "ms_type"},
           1000: {"age", "comorbidities", "covid19_symptoms"}}
KHAN_THRESHOLDS = {500: (0.25, 0.01), 1000: (0.10, 0.01)}


def _khan_frame(profile: dict, n: int) -> pd.DataFrame:
    cols = {}
    for col, freqs in profile.items():
        values = [f"{col}_{i}_{j}" for i, (f, count) in enumerate(freqs.items()) for j in range(count) for _ in range(f)]
        values += [None] * (n - len(values))  # the self-isolation column's missing values
        cols[col] = np.random.default_rng(len(col)).permutation(np.array(values, dtype=object))
    return pd.DataFrame(cols)


@pytest.mark.parametrize("n, profile", [(500, KHAN_500), (1000, KHAN_1000)])
def test_khan_et_al_published_rates_are_the_default(n: int, profile: dict) -> None:
    """All 30 published rates, from the default: the mean of 1/f over the distinct values
    (`average="values"`). `average="records"` (|V| / n) gives bmi 30.0 % where 38.50 % is
    published (it was the default before)."""
    import sdc

    df = _khan_frame(profile, n)
    alpha, beta = KHAN_THRESHOLDS[n]
    r = sdc.identify(df, alpha=alpha, beta=beta)
    assert r.dropped == ("covid19_self_isolation",)
    got = {v: round(100 * rate, 2) for v, rate in r.gdistinct.rates.items()}
    assert got == KHAN_RATES[n]
    assert set(r.gdistinct.of_class("sensitive")) == KHAN_SENSITIVE[n]
    assert set(r.gdistinct.of_class("quasi-identifier")) == KHAN_QI[n]
    # the other definition, named and shown beside it
    records = g_distinct(df.drop(columns="covid19_self_isolation"), average="records")
    assert records.average == "records" and round(100 * records.rates["bmi"], 2) == {500: 30.0, 1000: 16.0}[n]
    table = g_distinct(df.drop(columns="covid19_self_isolation")).table.set_index("variable")
    assert table.loc["bmi", "rate_values"] == pytest.approx(KHAN_RATES[n]["bmi"] / 100, abs=5e-5)
    assert table.loc["bmi", "rate_records"] == pytest.approx({500: 0.30, 1000: 0.16}[n])
