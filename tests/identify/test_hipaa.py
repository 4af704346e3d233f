"""HIPAA Safe Harbor checklist: each of the 18 categories found by name and by values (positive
cases), look-alikes that must not be found (negative cases), the 3-digit ZIP rule with HHS's
restricted prefixes, ages over 89, and the promise that no data value is ever repeated."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, strategies as st

from sdc._stats import summary_values
from sdc import safe_harbor
from sdc.identify.hipaa import CATEGORIES, RESTRICTED_ZIP3

N = 12  # records in the hand-built frames


def codes(df: pd.DataFrame, **kw) -> dict[str, set[str]]:
    """Column -> categories found in it (allowed ones included)."""
    out: dict[str, set[str]] = {}
    for f in safe_harbor(df, **kw).findings:
        out.setdefault(f.column, set()).add(f.code)
    return out


def finding(df: pd.DataFrame, column: str, code: str, **kw):
    return next(f for f in safe_harbor(df, **kw).findings if f.column == column and f.code == code)


def col(values: list, n: int = N) -> list:
    return (values * (n // len(values) + 1))[:n]


def test_eighteen_categories_in_order() -> None:
    assert [c.code for c in CATEGORIES] == list("ABCDEFGHIJKLMNOPQR")
    assert [c.number for c in CATEGORIES] == list(range(1, 19))


def test_hhs_restricted_zip3_list() -> None:
    # HHS OCR de-identification guidance (2012), 2000 Census: 17 three-digit areas of <= 20,000 people.
    assert RESTRICTED_ZIP3 == ("036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830", "831",
                               "878", "879", "884", "890", "893")


# --- positive cases: by name (values that say nothing) ------------------------------------------

BY_NAME = [
    ("patient_name", "A"), ("LastName", "A"), ("surname", "A"), ("street_address", "B"), ("city", "B"),
    ("county", "B"), ("zip_code", "B"), ("latitude", "B"), ("admission_date", "C"), ("DOB", "C"),
    ("home_phone", "D"), ("fax", "E"), ("fax_number", "E"), ("email", "F"), ("e-mail", "F"), ("SSN", "G"),
    ("MRN", "H"), ("medical_record_number", "H"), ("insurance_id", "I"), ("member_id", "I"),
    ("account_number", "J"), ("iban", "J"), ("license_number", "K"), ("passport", "K"), ("vin", "L"),
    ("license_plate", "L"), ("device_id", "M"), ("serial_number", "M"), ("imei", "M"), ("url", "N"),
    ("website", "N"), ("ip_address", "O"), ("IPAddress", "O"), ("fingerprint", "P"), ("voice_print", "P"),
    ("photo", "Q"), ("image_path", "Q"), ("patient_id", "R"), ("USUBJID", "R"), ("national_id", "R"),
]


@pytest.mark.parametrize("name, code", BY_NAME)
def test_found_by_name(name: str, code: str) -> None:
    df = pd.DataFrame({name: [f"v{i % 6}" for i in range(N)]})
    found = codes(df)
    assert code in found.get(name, set()), found
    assert finding(df, name, code).evidence == "name"


# --- positive cases: by values (a name that says nothing) ---------------------------------------

BY_VALUES = [
    ("F", ["ann@example.org", "bob.smith@mail.co.uk", "c+tag@x.io"]),
    ("N", ["https://example.org/p/1", "http://x.org", "www.site.com/a"]),
    ("O", ["192.168.0.1", "10.0.0.255", "2001:db8::1", "fe80::1ff:fe23:4567:890a"]),
    ("G", ["123-45-6789", "234-56-7890", "345 67 8901"]),
    ("M", ["00:1A:2B:3C:4D:5E", "aa-bb-cc-dd-ee-ff"]),
    ("J", ["GB82 WEST 1234 5698 7654 32", "DE89370400440532013000"]),
    ("J", ["4111 1111 1111 1111", "5500-0000-0000-0004", "4012888888881881"]),
    ("L", ["1HGCM82633A004352", "JH4KA7561PC008269"]),
    ("Q", ["scan_001.jpg", "faces/p2.PNG", "data:image/png;base64,iVBOR"]),
    ("B", ["02134-1234", "90210-0001"]),
    ("B", ["12 Main Street", "4 Elm Ave.", "PO Box 77", "221B Baker St"]),
    ("D", ["(555) 123-4567", "+44 20 7946 0958", "555.987.6543"]),
    ("C", ["2001-03-12", "12/03/2001", "3 Mar 2001", "2019-11-30T08:15:00"]),
    ("A", ["Ann Lee", "John Smith", "Mary-Jane O'Neil", "Smith, John", "Ann B. Lee", "Tom Hardy"]),
]


@pytest.mark.parametrize("code, values", BY_VALUES)
def test_found_by_values(code: str, values: list[str]) -> None:
    df = pd.DataFrame({"c1": col(values, len(values))})
    found = codes(df)
    assert code in found.get("c1", set()), found
    f = finding(df, "c1", code)
    assert f.evidence == "values" and f.share >= 0.8


def test_name_and_values_together() -> None:
    df = pd.DataFrame({"email": ["a@b.org", "c@d.com"]})
    f = finding(df, "email", "F")
    assert f.evidence == "name and values" and f.share == 1.0


def test_datetime_dtype_is_a_date() -> None:
    df = pd.DataFrame({"x": pd.to_datetime(["2001-03-12", "2002-04-01"])})
    assert codes(df) == {"x": {"C"}}


def test_fax_values_under_a_fax_name_are_fax_not_phone() -> None:
    df = pd.DataFrame({"fax_no": ["(555) 123-4567", "(555) 765-4321"]})
    assert codes(df) == {"fax_no": {"E"}}


def test_unique_codes_and_running_numbers_are_category_r() -> None:
    df = pd.DataFrame({"c1": [f"X{i:05d}" for i in range(N)], "c2": list(range(1, N + 1)),
                       "c3": list(range(0, N))})
    assert codes(df) == {"c1": {"R"}, "c2": {"R"}, "c3": {"R"}}


# --- negative cases ------------------------------------------------------------------------------

NEGATIVE = {
    "drug_name": col(["aspirin", "ibuprofen"]),          # a name of a drug, not of a person
    "hospital_name": col(["St Mary", "Royal Free"]),
    "insurance_type": col(["private", "public"]),         # a type, not a number
    "has_passport": col(["yes", "no"]),                   # a flag: two values
    "stage": col([1, 2, 3, 4]),                           # 'age' inside another word
    "age_group": col(["18-39", "40-64", "65+"]),           # age bands under 90 are fine
    "birth_weight": col([3.1, 3.4, 2.9]),                 # not a date
    "region": col(["North", "South"]),                    # larger than a state's subdivisions? not B
    "state": col(["CA", "NY"]),
    "counts": list(range(100, 100 + N)),                  # unique numbers that are not a running number
    "amount": [f"{i}.5" for i in range(N)],
    "year_range": col(["2001-2003", "2004-2006"]),
    "clock": col(["12:30:00", "13:45:10"]),               # not IPv6, not a phone
    "mac": col(["x", "y", "z"]),                          # 'mac' alone says nothing
    "icd10": col(["E11", "I10"]),
    "score": col([12345, 23456, 34567]),                  # five digits without a ZIP name
    "device_type": col(["pump", "monitor"]),
    "x_ray_count": col([0, 1, 2]),
    "sex": col(["f", "m"]),
    "city_size": col(["small", "large"]),
    "n_visits": col([1, 2, 3]),
}


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_look_alikes_are_not_found(name: str) -> None:
    df = pd.DataFrame({name: NEGATIVE[name]})
    assert codes(df) == {}, (name, safe_harbor(df).findings)


def test_few_records_do_not_make_a_unique_code() -> None:
    df = pd.DataFrame({"c1": ["a", "b", "c"]})   # unique, but fewer than 10 records
    assert codes(df) == {}


# --- ZIP codes -----------------------------------------------------------------------------------

def test_zip_restricted_prefixes_counted_with_leading_zeros() -> None:
    df = pd.DataFrame({"zip": ["03601", "03602", "05901", "10001", "10002", "89301"]})
    f = finding(df, "zip", "B")
    assert f.records == 4 and not f.allowed
    assert "036, 059, 893" in f.detail and "000" in f.detail


def test_numeric_zip_is_zero_padded() -> None:
    # Read as numbers, 03601 became 3601: padding restores the prefix 036.
    df = pd.DataFrame({"zipcode": [3601, 10001, 10002]})
    assert finding(df, "zipcode", "B").records == 1


def test_three_digit_zip_without_restricted_prefix_is_allowed() -> None:
    df = pd.DataFrame({"zip3": ["100", "945", "021"]})
    f = finding(df, "zip3", "B")
    assert f.allowed and f.records == 0
    assert safe_harbor(df).found == ()
    df.loc[0, "zip3"] = "036"
    f = finding(df, "zip3", "B")
    assert not f.allowed and f.records == 1 and safe_harbor(df).found == ("B",)


def test_custom_restricted_list() -> None:
    df = pd.DataFrame({"zip": ["10001", "10002", "20001"]})
    assert finding(df, "zip", "B").records == 0
    assert finding(df, "zip", "B", restricted_zip3=["100"]).records == 2
    with pytest.raises(ValueError, match="3-digit strings"):
        safe_harbor(df, restricted_zip3=["10"])


# --- ages and years ------------------------------------------------------------------------------

def test_ages_over_89() -> None:
    df = pd.DataFrame({"age": [30, 45, 91, 95, 95]})
    f = finding(df, "age", "C")
    assert f.records == 3 and not f.allowed
    df = pd.DataFrame({"age": [30, 45, 89]})
    f = finding(df, "age", "C")
    assert f.records == 0 and f.allowed           # 89 is not over 89
    df = pd.DataFrame({"age": [30, 45, 90, 90]})  # one top-coded category '90 or older'
    assert finding(df, "age", "C").allowed
    df = pd.DataFrame({"age": ["30", "45", "90+", "90+"]})
    assert finding(df, "age", "C").allowed


def test_years_of_birth() -> None:
    df = pd.DataFrame({"birth_year": [1950, 1980, 2001]})
    f = finding(df, "birth_year", "C", reference_year=2025)
    assert f.allowed and "years only" in f.detail
    df = pd.DataFrame({"yob": [1930, 1935, 1980]})
    f = finding(df, "yob", "C", reference_year=2025)   # 2025 - 1930 = 95 > 89
    assert not f.allowed and f.records == 2


# --- results and safety --------------------------------------------------------------------------

def test_checklist_frame_and_summary() -> None:
    df = pd.DataFrame({"email": ["a@b.org", "c@d.com"], "zip": ["03601", "10001"], "age": [30, 40]})
    sh = safe_harbor(df)
    t = sh.to_frame()
    assert len(t) == 18 and list(t["code"]) == list("ABCDEFGHIJKLMNOPQR")
    assert t.set_index("code").loc["F", "columns"] == ["email"]
    assert t.set_index("code").loc["C", "allowed_columns"] == ["age"]
    assert sh.found == ("B", "F")
    s = summary_values(sh.summary())
    assert s["found"] == {"B": ["zip"], "F": ["email"]} and s["safe_harbor_met"] is False
    assert "expert determination" in s["expert_determination"]
    assert summary_values(safe_harbor(pd.DataFrame({"sex": ["f", "m"]})).summary())["safe_harbor_met"] is None


SECRETS = ["ann@example.org", "123-45-6789", "(555) 123-4567", "Ann Lee", "12 Main Street", "03601",
           "1HGCM82633A004352", "192.168.0.1"]


def test_no_data_value_in_any_finding() -> None:
    df = pd.DataFrame({"email": [SECRETS[0]] * 2, "ssn": [SECRETS[1]] * 2, "phone": [SECRETS[2]] * 2,
                       "name": [SECRETS[3]] * 2, "address": [SECRETS[4]] * 2, "zip": [SECRETS[5]] * 2,
                       "vin": [SECRETS[6]] * 2, "ip": [SECRETS[7]] * 2})
    sh = safe_harbor(df)
    text = repr(sh) + sh.findings_frame().to_string() + sh.to_frame().to_string() + repr(sh.summary())
    assert len(sh.found) >= 7
    for s in SECRETS[:5] + SECRETS[6:]:
        assert s not in text
    assert "03601" not in text


@given(st.lists(st.text(max_size=12), min_size=1, max_size=30))
def test_any_text_column_is_checked_without_error(values: list[str]) -> None:
    sh = safe_harbor(pd.DataFrame({"c": values}))
    assert set(sh.found) <= set("ABCDEFGHIJKLMNOPQR")
    assert len(sh.to_frame()) == 18


# --- record numbers of any order and range (issue 27 item 1) -------------------------------------

def test_record_numbers_of_any_order_and_range_are_category_r() -> None:
    """A whole number or code with a different value in (nearly) every record is a record
    number (R) whatever its order or range; measurements with decimals are not."""
    import numpy as np

    rng = np.random.default_rng(4)
    n = 500
    near = rng.choice(10**6, n, replace=False)
    near[:3] = near[3:6]  # 497 distinct of 500: 99.4 %
    df = pd.DataFrame({
        "rec_no": rng.choice(np.arange(10**5, 10**6), n, replace=False),   # 6 digits, permuted
        "near": near,
        "ref": [f"AB-{v:05d}" for v in rng.choice(10**5, n, replace=False)],
        "bmi": (rng.choice(np.arange(150, 700), n, replace=False) / 10).round(1),  # one decimal, all distinct
        "lab": rng.integers(0, 800, n),                                    # about 47 % distinct
        "remarks": [f"seen on day {v}" for v in rng.integers(0, 460, n)],  # text with spaces, not all distinct
    })
    found = codes(df)
    assert found == {"rec_no": {"R"}, "near": {"R"}, "ref": {"R"}}, safe_harbor(df).findings
    assert "99.4% of records" in finding(df, "near", "R").detail
    # few records: unique numbers may be chance (as `counts` among the negative cases)
    assert codes(df.head(40)[["rec_no"]]) == {}
