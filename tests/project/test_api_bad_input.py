"""Regressions from an adversarial review of the Python API's handling of bad input.

Each case was a silently wrong result or a cryptic error before; now it is a right result or
one clear line naming the argument, column or value. Inputs are never modified.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sdc


@pytest.fixture
def df():
    return pd.DataFrame({
        "age": [30, 30, 40, 40, 50, 50],
        "sex": ["f", "m", "f", "m", "f", "m"],
        "income": [100.0, 200.0, 300.0, 400.0, 500.0, 600.0],
        "w": [2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
    })


def _unchanged(before: pd.DataFrame, after: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(after, before)
    assert after.index.equals(before.index)


# ---------------------------------------------------------------- complex numbers
# Converting complex values to float64 drops the imaginary part: every method read only the
# real part and returned a confident (wrong) result.
COMPLEX_CALLS = {
    "add_noise": lambda d: sdc.add_noise(d, "income", seed=1),
    "rank_swap": lambda d: sdc.rank_swap(d, "income", p=10, seed=1),
    "top_bottom_code": lambda d: sdc.top_bottom_code(d, "income", top=3.0),
    "global_recode": lambda d: sdc.global_recode(d, "income", width=2),
    "microaggregation": lambda d: sdc.microaggregation(d, "income", k=3),
    "il1s": lambda d: sdc.il1s(d, d, "income"),
    "distance_risk": lambda d: sdc.distance_risk(d, d, "income"),
    "eigen_similarity": lambda d: sdc.eigen_similarity(d, d, ["income", "w"]),
    "record_linkage": lambda d: sdc.record_linkage(d, d, "income"),
}


@pytest.mark.parametrize("name", sorted(COMPLEX_CALLS))
def test_complex_numeric_column_is_refused(df, name):
    d = df.assign(income=np.arange(6) + 1j)
    before = d.copy(deep=True)
    with pytest.raises((TypeError, ValueError), match=r"'income'.*complex128"):
        COMPLEX_CALLS[name](d)
    _unchanged(before, d)


def test_complex_weights_are_refused(df):
    d = df.assign(w=np.arange(6) + 2 + 1j)
    with pytest.raises(ValueError, match=r"weight column 'w' must be numeric; got dtype complex128 with value \(2\+1j\)"):
        sdc.individual_risk(d, ["age"], weights="w")


def test_is_real_numeric():
    from sdc._validation import is_real_numeric

    assert is_real_numeric(np.dtype("float64")) and is_real_numeric(pd.Int64Dtype())
    assert not is_real_numeric(np.dtype("complex128"))
    assert not is_real_numeric(np.dtype("bool"))
    assert not is_real_numeric(np.dtype("O"))


# ---------------------------------------------------------------- dates as sensitive values
def _dated(df):
    return df.assign(visit=pd.to_datetime(["2020-01-01", "2020-01-01", "2020-01-03",
                                           "2020-01-01", "2020-01-03", "2020-01-03"]))


def test_homogeneity_with_a_date_sensitive_variable(df):
    # Was KeyError: 1577836800000000000 (numpy turned the dominant date into nanoseconds).
    d = _dated(df)
    before = d.copy(deep=True)
    r = sdc.homogeneity(d, ["sex"], "visit").to_frame().set_index("sex")
    assert r.loc["f", "dominant"] == pd.Timestamp("2020-01-03")
    assert r.loc["f", "share"] == pytest.approx(2 / 3)
    assert r.loc["f", "file_share"] == pytest.approx(0.5)
    _unchanged(before, d)


def test_homogeneity_with_a_duration_sensitive_variable(df):
    d = _dated(df)
    d["visit"] = d["visit"] - pd.Timestamp("2020-01-01")
    r = sdc.homogeneity(d, ["sex"], "visit").to_frame().set_index("sex")
    assert r.loc["m", "dominant"] == pd.Timedelta(days=0)


def test_skewness_attack_reports_dates_not_nanoseconds(df):
    r = sdc.skewness_attack(_dated(df), ["sex"], "visit").to_frame()
    assert all(isinstance(v, pd.Timestamp) for v in r["max_lift_value"])


# ---------------------------------------------------------------- infinite values in distances
@pytest.mark.parametrize("fn", [
    lambda o, r: sdc.distance_risk(o, r, "income"),
    lambda o, r: sdc.record_linkage(o, r, "income"),
])
@pytest.mark.parametrize("side", ["original", "released"])
def test_infinite_value_in_a_distance_variable(df, fn, side):
    # distance_risk returned risk 1.0 (an infinite sd makes every interval hold everything).
    bad = df.assign(income=[100.0, np.inf, 300.0, 400.0, 500.0, 600.0])
    o, r = (bad, df) if side == "original" else (df, bad)
    with pytest.raises(ValueError, match=rf"variable 'income' has a non-finite value inf at index 1 in `{side}`"):
        fn(o, r)


def test_gower_false_false_message(df):
    d = pd.DataFrame({"b": [True, False, True, True]})
    with pytest.raises(ValueError, match="logical variable False in both records does not count"):
        sdc.record_linkage(d, d, "b")


# ---------------------------------------------------------------- out-of-range numbers
@pytest.mark.parametrize("weights", ["3", 3, ["a"], [True]])
def test_record_linkage_weights_must_be_numbers(df, weights):
    with pytest.raises(TypeError, match="`weights` must be a sequence of numbers, one per variable"):
        sdc.record_linkage(df, df, "income", weights=weights)


def test_population_size_too_large(df):
    # Was "loop of ufunc does not support argument 0 of type int" (10**30), NaN estimates from 1e12.
    with pytest.raises(ValueError, match=r"`population_size` must be an integer <= 10000000000; got 10{30}"):
        sdc.population_uniqueness(df, ["age"], population_size=10**30)
    with pytest.raises(ValueError, match="`sampling_fraction` gives a population of"):
        sdc.population_uniqueness(df, ["age"], sampling_fraction=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = sdc.population_uniqueness(df, ["age"], population_size=10**10)
    assert r.population_size == 10**10


def test_global_recode_too_many_bins(df):
    # Was "Maximum allowed size exceeded" (or a MemoryError for 2**40).
    with pytest.raises(ValueError, match=r"`bins` must be a whole number from 1 to 1000000; got 1099511627776"):
        sdc.global_recode(df, "income", bins=2**40)


# ---------------------------------------------------------------- issue 27: silent acceptances
@pytest.mark.parametrize("fn", [sdc.individual_risk, sdc.k_anonymity, sdc.frequencies, sdc.key_subset_snapshots])
def test_a_weight_column_may_not_be_a_key(df, fn):
    before = df.copy(deep=True)
    with pytest.raises(ValueError, match=r"`weights` column 'w' is also one of the `keys`"):
        fn(df, ["sex", "w"], weights="w")
    _unchanged(before, df)


@pytest.mark.parametrize("values, expected", [
    (["01/02/2020", "13/01/2020"], ["2020-02", "2020-01"]),        # day first for both (was month first for one)
    (["2020-01-02", None, "2020-12-31"], ["2020-01", None, "2020-12"]),
    (["2020-01-02T10:00:00Z", "2020-03-02T23:30:00+01:00"], ["2020-01", "2020-03"]),
])
def test_text_dates_are_read_one_way_per_column(values, expected):
    d = pd.DataFrame({"dt": values})
    got = sdc.global_recode(d, "dt", date="month").data["dt"].tolist()
    assert [None if pd.isna(v) else v for v in got] == expected


@pytest.mark.parametrize("values, message", [
    (["01/02/2020", "02/03/2020"], r"reads? in two formats, %d/%m/%Y and %m/%d/%Y \('01/02/2020' is 2020-02-01 or "
                                   r"2020-01-02\)"),
    (["2020-01-02", "13/01/2020"], r"'13/01/2020' at index 1, which is not a date in the format of the column's other"),
    (["2020-01-02", "soon"], r"'soon' at index 1, which is not a date"),
])
def test_ambiguous_or_mixed_dates_are_refused(values, message):
    d = pd.DataFrame({"dt": values})
    before = d.copy()
    with pytest.raises(ValueError, match=message):
        sdc.global_recode(d, "dt", date="month")
    _unchanged(before, d)


@pytest.mark.skipif(__import__("os").name != "posix", reason="file modes and /dev/zero are POSIX")
@pytest.mark.parametrize("what", ["world-readable", "group-readable", "folder", "device", "missing"])
def test_a_key_file_must_be_a_private_regular_file(tmp_path, what):
    """An 0644 key was accepted without a word (ssh-style tools refuse); a folder or /dev/zero was
    'does not exist or is not a file'."""
    import os

    key = tmp_path / "study.key"
    key.write_text("0123456789abcdef" * 2 + "\n", encoding="utf-8")
    target, message = {
        "world-readable": (key, r"can be read or written by other users \(mode 0644\)"),
        "group-readable": (key, r"mode 0640"),
        "folder": (tmp_path, r"is a folder, not a key file"),
        "device": ("/dev/zero", r"'/dev/zero' is a device, not a key file"),
        "missing": (tmp_path / "nokey", r"does not exist\."),
    }[what]
    os.chmod(key, 0o640 if what == "group-readable" else 0o644)
    with pytest.raises(ValueError, match=message):
        sdc.pseudonymise(pd.DataFrame({"id": ["a", "b"]}), "id", key_file=target)
    os.chmod(key, 0o600)
    assert sdc.pseudonymise(pd.DataFrame({"id": ["a", "b"]}), "id", key_file=key).data["id"].nunique() == 2


def test_skewness_bins_band_a_numeric_sensitive_variable():
    from sdc.exceptions import DegenerateDataWarning

    rng = np.random.default_rng(1)
    d = pd.DataFrame({"k": rng.integers(0, 8, 500), "inc": rng.normal(50, 10, 500).round(3)})
    with pytest.warns(DegenerateDataWarning, match=r"numeric with \d+ distinct values in 500 records and no bands"):
        raw = sdc.skewness_attack(d, ["k"], "inc")
    assert (raw.records["max_lift"] >= 2).mean() == 1.0          # values nearly unique: the lift of rarity
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        banded = sdc.skewness_attack(d, ["k"], "inc", bins={"quantiles": 4})
    assert banded.records["max_lift_value"].nunique() <= 4  # the four bands (sdc.core.binning labels)
    assert banded.max_lift < 2
    with pytest.raises(ValueError, match="`bins` and `categories` group the sensitive values two ways"):
        sdc.skewness_attack(d, ["k"], "inc", bins=[0, 50, 100], categories={1: "a"})
