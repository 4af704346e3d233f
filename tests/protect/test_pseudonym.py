"""pseudonymise: RFC 4231 values, keys from files and the environment, secrecy, collisions, drops."""

from __future__ import annotations

import hashlib
import hmac

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sdc
from sdc.protect._result import changed_cells

KEY = b"k3y-for-tests-0123456789abcdef"


@pytest.fixture
def key_file(tmp_path):
    p = tmp_path / "pseudonym.key"
    p.write_bytes(KEY + b"\n")           # a line ending, as an editor or `echo` writes it
    p.chmod(0o600)                        # private, as a key must be
    return p


def _hmac(key: bytes, text: str, n: int = 16) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()[:n]


def test_rfc4231_test_case_1(tmp_path):
    p = tmp_path / "k"
    p.write_bytes(b"\x0b" * 20)
    p.chmod(0o600)
    r = sdc.pseudonymise(pd.DataFrame({"id": ["Hi There"]}), "id", key_file=p, length=64)
    assert r.data["id"][0] == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"


def test_values_and_canonical_text(key_file):
    df = pd.DataFrame({"USUBJID": ["S-001", "S-002", "S-001", None], "n": [1042, 7, 1042, 7],
                       "f": [1042.0, np.nan, 7.0, 1.5]}, index=[5, 6, 7, 8])
    before = df.copy()
    r = sdc.pseudonymise(df, ["USUBJID", "n", "f"], key_file=key_file)
    pd.testing.assert_frame_equal(df, before)
    assert r.data["USUBJID"].tolist()[:3] == [_hmac(KEY, "S-001"), _hmac(KEY, "S-002"), _hmac(KEY, "S-001")]
    assert pd.isna(r.data["USUBJID"][8])
    # 1042, 1042.0 and "1042" are the same identifier: the same pseudonym, so files still join.
    assert r.data["n"][5] == r.data["f"][5] == _hmac(KEY, "1042")
    assert r.data["f"][8] == _hmac(KEY, "1.5")
    assert r.data.index.equals(df.index)
    assert r.changed.tolist() == [3, 4, 3] == changed_cells(df, r.data, ["USUBJID", "n", "f"]).tolist()
    assert r.details["USUBJID"] == {"distinct_values": 2} and r.details["key_source"] == "file"
    assert r.details["key_fingerprint"] == _hmac(KEY, "sdc key fingerprint", 8)


def test_same_key_same_pseudonyms_across_files(key_file, monkeypatch):
    dm = pd.DataFrame({"USUBJID": ["A-1", "A-2", "A-3"], "AGE": [34, 51, 29]})
    ae = pd.DataFrame({"USUBJID": ["A-2", "A-2", "A-3"], "AETERM": ["rash", "fever", "cough"]})
    monkeypatch.setenv("SDC_TEST_KEY", KEY.decode())
    d1 = sdc.pseudonymise(dm, "USUBJID", key_file=key_file).data
    d2 = sdc.pseudonymise(ae, "USUBJID", key_env="SDC_TEST_KEY").data
    joined = d2.merge(d1, on="USUBJID")
    assert joined["AGE"].tolist() == [51, 51, 29]
    other = sdc.pseudonymise(ae, "USUBJID", key_file=key_file, context="study-2").data
    assert not set(other["USUBJID"]) & set(d1["USUBJID"])       # another context: unrelated


def test_random_key_is_discarded():
    df = pd.DataFrame({"id": ["a", "b", "a"]})
    r1 = sdc.pseudonymise(df, "id", random_key=True)
    r2 = sdc.pseudonymise(df, "id", random_key=True)
    assert r1.data["id"][0] == r1.data["id"][2] != r2.data["id"][0]
    assert r1.parameters == {"variables": ["id"], "length": 16, "random_key": True}
    assert r1.details["key_source"] == "random" and "key_fingerprint" not in r1.details


def test_the_key_is_never_in_the_result(key_file, monkeypatch):
    df = pd.DataFrame({"id": ["x", "y"], "name": ["Ann", "Bo"]})
    monkeypatch.setenv("SDC_TEST_KEY", KEY.decode())
    for kw in ({"key_file": key_file}, {"key_env": "SDC_TEST_KEY"}):
        r = sdc.pseudonymise(df, "id", drop="name", **kw)
        text = " ".join([repr(r), str(r.parameters), str(r.details), str(r.summary()), r.to_frame().to_string(),
                         r.data.to_string()])
        assert KEY.decode() not in text and KEY.hex() not in text
    assert r.parameters == {"variables": ["id"], "length": 16, "key_env": "SDC_TEST_KEY", "drop": ["name"]}


def test_key_errors_do_not_show_the_key(tmp_path, monkeypatch):
    df = pd.DataFrame({"id": ["x"]})
    empty = tmp_path / "empty.key"
    empty.write_bytes(b"\n")
    short = tmp_path / "short.key"
    short.write_bytes(b"secret-123\n")
    empty.chmod(0o600)
    short.chmod(0o600)
    cases = [
        ({"key_file": tmp_path / "missing.key"}, r"`key_file` '.*missing.key' does not exist\."),
        ({"key_file": empty}, r"`key_file` '.*empty.key' is empty: the key must not be empty"),
        ({"key_file": short}, r"holds a key shorter than 16 bytes"),
        ({"key_file": tmp_path}, r"is a folder, not a key file"),  # was "does not exist or is not a file"
        ({"key_env": "SDC_NOT_SET_ANYWHERE"}, r"the environment variable 'SDC_NOT_SET_ANYWHERE' is not set"),
        ({}, r"needs exactly one of `key_file`, `key_env` or `random_key=True`"),
        ({"key_file": short, "random_key": True}, r"needs exactly one of"),
    ]
    monkeypatch.setenv("SDC_EMPTY_KEY", "")
    cases.append(({"key_env": "SDC_EMPTY_KEY"}, r"`key_env` variable 'SDC_EMPTY_KEY' is empty"))
    for kw, message in cases:
        with pytest.raises(ValueError, match=message) as exc:
            sdc.pseudonymise(df, "id", **kw)
        assert "secret-123" not in str(exc.value)


def test_collision_check(tmp_path):
    p = tmp_path / "k"
    p.write_bytes(KEY)
    p.chmod(0o600)
    df = pd.DataFrame({"id": np.arange(300_000)})
    # 300,000 values in 8 hex digits (32 bits): about 10 collisions are expected.
    with pytest.raises(ValueError, match=r"pseudonyms of column 'id' collide at `length` 8 \(\d+ distinct value"):
        sdc.pseudonymise(df, "id", key_file=p, length=8)
    r = sdc.pseudonymise(df.iloc[:1000], "id", key_file=p, length=8, prefix="P-")
    assert r.data["id"].str.match(r"^P-[0-9a-f]{8}$").all() and r.data["id"].nunique() == 1000


def test_dropping_direct_identifiers():
    df = pd.DataFrame({"id": ["x", "y"], "name": ["Ann", "Bo"], "phone": ["1", "2"], "age": [3, 4]})
    r = sdc.pseudonymise(df, [], drop=["name", "phone"])
    assert list(r.data.columns) == ["id", "age"] and r.details["dropped"] == ["name", "phone"]
    assert r.n_changed == 0 and "key_source" not in r.details
    with pytest.raises(ValueError, match="both pseudonymised and dropped: 'name'"):
        sdc.pseudonymise(df, "name", drop="name", random_key=True)
    with pytest.raises(ValueError, match=r"`drop` names columns not in the data: 'nam'"):
        sdc.pseudonymise(df, "id", drop="nam", random_key=True)
    with pytest.raises(ValueError, match="`length` must be a whole number from 8 to 64; got 4"):
        sdc.pseudonymise(df, "id", random_key=True, length=4)


@given(values=st.lists(st.one_of(st.none(), st.text(max_size=8), st.integers(-5, 5)), min_size=1, max_size=30))
def test_properties(values):
    df = pd.DataFrame({"id": pd.Series(values, dtype=object).to_numpy(), "k": range(len(values))},
                      index=pd.RangeIndex(2, 2 + len(values)))
    before = df.copy()
    key = b"0123456789abcdef0123"
    import os

    os.environ["SDC_PROPERTY_KEY"] = key.decode()
    r = sdc.pseudonymise(df, "id", key_env="SDC_PROPERTY_KEY")
    pd.testing.assert_frame_equal(df, before)
    assert r.data.index.equals(df.index) and r.data["k"].equals(df["k"])
    assert r.data["id"].isna().equals(df["id"].isna())
    for v, p in zip(df["id"], r.data["id"]):
        if not pd.isna(v):   # pandas 3 reads the text column as str, None as NaN
            assert p == _hmac(key, str(v))
