"""The fast paths of recoding, top coding and pseudonymisation give what the plain ones give.

Each fast path is checked against the simple computation it replaces: band codes by one
comparison per edge against ``searchsorted``; top/bottom-coded change counts against a cell by
cell comparison; distinct values by Python's hash against pandas' factorisation, and the
pseudonyms they lead to (byte for byte, with a pinned value).
"""

from __future__ import annotations

import hashlib
import hmac

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.core.distinct import hashed_codes
from sdc.core.strata import distinct_values
from sdc.protect import _bands, pseudonym
from sdc.protect._common import count_changed

KEY = b"k3y-for-tests-0123456789abcdef"


@pytest.fixture()
def key_file(tmp_path):
    p = tmp_path / "key"
    p.write_bytes(KEY)
    p.chmod(0o600)
    return str(p)


# --------------------------------------------------------------------------- band codes

def _searchsorted_codes(x, edges, right, include_lowest):
    nb = edges.size
    side = "left" if right else "right"
    codes = np.searchsorted(edges, x, side=side) - 1
    if include_lowest:
        codes = np.where(x == (edges[0] if right else edges[-1]), 0 if right else nb - 2, codes)
    return np.where(np.isnan(x) | (codes < 0) | (codes > nb - 2), -1, codes)


@pytest.mark.parametrize("right", [True, False])
@pytest.mark.parametrize("include_lowest", [True, False])
@pytest.mark.parametrize("n_edges", [2, 3, 11, 64, 65, 300])
def test_cut_codes_by_comparison_equal_searchsorted(right, include_lowest, n_edges):
    rng = np.random.default_rng(n_edges)
    edges = np.unique(np.round(rng.uniform(-50, 50, n_edges), 1))
    while edges.size < n_edges:
        edges = np.unique(np.concatenate([edges, np.round(rng.uniform(-50, 50, n_edges), 1)]))
    edges = edges[:n_edges]
    # Values on every edge, between, outside both ends, missing, -0.0.
    x = np.concatenate([edges, rng.uniform(-60, 60, 2000), [np.nan, -0.0, 0.0, edges[0] - 1, edges[-1] + 1]])
    rng.shuffle(x)
    got = _bands._cut_codes(x, edges, right, include_lowest)
    assert np.array_equal(got.astype(np.int64), _searchsorted_codes(x, edges, right, include_lowest))


def test_cut_codes_infinite_edges():
    x = np.array([-1e300, -5.0, 0.0, 5.0, 1e300, np.nan])
    e = np.array([-np.inf, 0.0, np.inf])
    for right in (True, False):
        got = _bands._cut_codes(x, e, right, False)
        assert np.array_equal(got.astype(np.int64), _searchsorted_codes(x, e, right, False))


def test_recode_result_same_with_either_code_path(monkeypatch):
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"age": np.where(rng.random(500) < 0.05, np.nan, rng.integers(0, 100, 500).astype(float))})
    edges = [-1, 9, 19, 29, 39, 49, 59, 69, 79, 89, 100]
    a = sdc.global_recode(df, "age", edges=edges)
    monkeypatch.setattr(_bands, "_COMPARE_EDGES", 0)
    b = sdc.global_recode(df, "age", edges=edges)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert a.changed.equals(b.changed) and a.details == b.details


# --------------------------------------------------------------------------- top/bottom coding

@pytest.mark.parametrize("top,top_value,bottom,bottom_value", [
    (10.0, None, None, None), (10.0, 12.0, None, None), (10.0, 8.0, -3.0, -5.0),
    (None, None, 0.0, None), (None, None, 0.0, -2.0), (5.0, 20.0, 5.0, -20.0), (1e9, None, -1e9, None),
])
def test_top_bottom_changed_counts_cell_by_cell(top, top_value, bottom, bottom_value):
    rng = np.random.default_rng(7)
    x = np.round(rng.uniform(-10, 25, 400))
    x[::17] = np.nan
    x[::23] = 12.0
    x[::29] = -5.0
    x[::31] = -0.0
    df = pd.DataFrame({"v": x, "w": x.copy()})
    before = df.copy()
    r = sdc.top_bottom_code(df, "v", top=top, top_value=top_value, bottom=bottom, bottom_value=bottom_value)
    pd.testing.assert_frame_equal(df, before)  # input untouched
    y = r.data["v"].to_numpy()
    assert r.changed["v"] == count_changed(x, y)
    expect = x.copy()
    if top is not None:
        expect[x > top] = top if top_value is None else top_value
    if bottom is not None:
        expect[x < bottom] = bottom if bottom_value is None else bottom_value
    np.testing.assert_array_equal(y, expect)
    assert r.data["v"].dtype == np.float64
    # Writing into the result never reaches the input (pandas 3's copy-on-write may share an
    # unchanged column's buffer lazily, so the test is behavioural, not np.shares_memory).
    out = r.data
    out.loc[out.index[0], "w"] = 1e6
    out.loc[out.index[0], "v"] = -1e6
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize("dtype", ["int32", "int64", "Int64", "float32", "Float64"])
def test_top_bottom_keeps_dtypes(dtype):
    df = pd.DataFrame({"v": pd.array([1, 5, 9, 3], dtype=dtype)})
    r = sdc.top_bottom_code(df, "v", top=6)
    assert r.data["v"].tolist() == [1, 5, 6, 3]
    none = sdc.top_bottom_code(df, "v", top=100)
    assert none.changed["v"] == 0 and none.data["v"].tolist() == [1, 5, 9, 3]


def test_top_bottom_no_hit_result_is_a_copy():
    df = pd.DataFrame({"v": [1.0, 2.0, 3.0]})
    r = sdc.top_bottom_code(df, "v", top=10)
    r.data.loc[0, "v"] = 99.0
    assert df["v"].tolist() == [1.0, 2.0, 3.0]


# --------------------------------------------------------------------------- distinct values by hash

def test_hashed_codes_equal_factorisation():
    vals = np.array(["b", "a\x00x", "a\x00y", "a", None, "b", np.nan, "a\x00x", "", pd.NA, "a"], dtype=object)
    codes, uniques = hashed_codes(vals)
    lv = distinct_values(pd.Series(vals))
    assert np.array_equal(codes, lv.codes)
    assert list(uniques) == list(lv.levels)
    assert codes.tolist() == [0, 1, 2, 3, -1, 0, -1, 1, 4, -1, 3]


class _Clash:
    """Unequal values with one hash: the check must refuse to merge them."""

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return 1

    def __eq__(self, other):
        return isinstance(other, _Clash) and other.v == self.v


def test_hashed_codes_detects_a_hash_clash():
    assert hashed_codes(np.array([_Clash(1), _Clash(2)], dtype=object)) is None
    codes, _ = hashed_codes(np.array([_Clash(1), _Clash(1)], dtype=object))
    assert codes.tolist() == [0, 0]
    assert hashed_codes(np.array([[1], [2]] + [None], dtype=object)[:2]) is None  # unhashable lists


@pytest.mark.parametrize("values", [
    ["S-001", "S-002", "S-001", None, "a\x00b", "a\x00c", "a", "", "é-ünï", "S-002"],
    [1, 2.0, 3, np.nan, 2, 1.5, -0.0],
    ["x", 1, 1.0, None, "1", True],
])
def test_pseudonyms_identical_through_the_hashed_path(values, key_file, monkeypatch):
    df = pd.DataFrame({"id": pd.Series(values, dtype=object)})
    a = sdc.pseudonymise(df, "id", key_file=key_file, prefix="P-", context="dm")
    monkeypatch.setattr(pseudonym, "_HASHED_FROM", 0)
    b = sdc.pseudonymise(df, "id", key_file=key_file, prefix="P-", context="dm")
    pd.testing.assert_frame_equal(a.data, b.data)
    assert a.details == b.details and a.changed.equals(b.changed)


def test_pseudonym_pinned_value_both_paths(key_file, monkeypatch):
    """HMAC-SHA-256(KEY, 'S-001'), first 16 hex digits, pinned (and recomputed by hmac)."""
    pinned = "5768272b641adda3"
    assert hmac.new(KEY, b"S-001", hashlib.sha256).hexdigest()[:16] == pinned
    df = pd.DataFrame({"id": ["S-001", "S-002", "S-001"]})
    for threshold in (pseudonym._HASHED_FROM, 0):
        monkeypatch.setattr(pseudonym, "_HASHED_FROM", threshold)
        r = sdc.pseudonymise(df, "id", key_file=key_file)
        assert r.data["id"].tolist()[0] == pinned and r.data["id"].tolist()[2] == pinned
    s = pd.DataFrame({"id": pd.array(["S-001", None, "S-001"], dtype="string")})
    for threshold in (10**9, 0):
        monkeypatch.setattr(pseudonym, "_HASHED_FROM", threshold)
        r = sdc.pseudonymise(s, "id", key_file=key_file)
        assert r.data["id"][0] == r.data["id"][2] == pinned and pd.isna(r.data["id"][1])


def test_hashed_codes_all_distinct_and_empty():
    codes, uniques = hashed_codes(np.array(["c", "a", None, "b"], dtype=object))
    assert codes.tolist() == [0, 1, -1, 2] and list(uniques) == ["c", "a", "b"]
    codes, uniques = hashed_codes(np.array([None, np.nan], dtype=object))
    assert codes.tolist() == [-1, -1] and len(uniques) == 0


@pytest.mark.parametrize("closed", ["right", "left"])
@pytest.mark.parametrize("width,origin", [(10, 0.0), (0.1, 0.0), (2.5, -1.0), (0.3, 0.05), (7, 3.0)])
@pytest.mark.parametrize("labels", ["interval", "lower", "midpoint"])
def test_width_bands_same_with_either_code_path(closed, width, origin, labels, monkeypatch):
    rng = np.random.default_rng(11)
    x = np.round(rng.uniform(-3, 3, 600), 2)
    x = np.concatenate([x, origin + width * np.arange(-4, 5), [np.nan, -0.0]])  # values on the edges
    df = pd.DataFrame({"x": x})
    a = sdc.global_recode(df, "x", width=width, origin=origin, closed=closed, labels=labels)
    monkeypatch.setattr(_bands, "_COMPARE_EDGES", 0)
    b = sdc.global_recode(df, "x", width=width, origin=origin, closed=closed, labels=labels)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert a.changed.equals(b.changed) and a.details == b.details


def test_copy_on_write_output_leaves_the_input_untouched(key_file):
    df = pd.DataFrame({"age": [3.0, 17.0, 64.0, np.nan], "income": [10.0, 250.0, 90.0, 1000.0],
                       "id": ["a", "b", "a", None]})
    before = df.copy()
    with pd.option_context("mode.copy_on_write", True):
        r1 = sdc.global_recode(df, "age", edges=[0, 17, 64])
        r2 = sdc.top_bottom_code(df, "income", top=200)
        r3 = sdc.pseudonymise(df, "id", key_file=key_file)
        for r in (r1, r2, r3):
            r.data.iloc[0, 1] = -1.0  # writing to the result copies first
    pd.testing.assert_frame_equal(df, before)
    assert r1.data["age"].astype(str).tolist()[:3] == ["(0,17]", "(0,17]", "(17,64]"]
    assert r2.data["income"].tolist()[1:] == [200.0, 90.0, 200.0]
    assert r3.data["id"][0] == r3.data["id"][2] != "a"
