"""rank_swap: rank window, top/bottom groups (sdcMicro's single precision), P, seeds, errors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sdc
from sdc.protect._result import changed_cells
from sdc.protect.swap import _windows, rank_swap_parameters


def _rank_distance(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    ranks = {v: i for i, v in enumerate(np.sort(x)[::-1])}
    return np.array([abs(ranks[a] - ranks[b]) for a, b in zip(x, y)])


def test_swaps_within_p_percent():
    x = np.arange(1000, dtype=float) * 1.5
    df = pd.DataFrame({"v": x}, index=np.arange(1000) + 7)
    r = sdc.rank_swap(df, "v", p=5, top_percent=0, bottom_percent=0, seed=1)
    y = r.data["v"].to_numpy()
    assert sorted(y) == sorted(x)                          # values only move between records
    d = _rank_distance(x, y)
    assert d.max() < 50 and d.max() >= 45                  # rank distance < 5% of 1000
    det = r.details["v"]
    assert det["window"] == 50 and det["P"] == pytest.approx(0.05, rel=1e-7)
    assert det["swapped_pairs"] == (y != x).sum() // 2 and det["swapped_pairs"] >= 490
    assert r.changed["v"] == (y != x).sum() == changed_cells(df, r.data, ["v"])["v"]
    assert r.data.index.equals(df.index)


def test_top_and_bottom_groups_as_sdcmicro_counts_them():
    # 5% of 100 in single precision: 100 * (5f * 0.01f) = 4.9999997 -> 4 records (sdcMicro's count).
    df = pd.DataFrame({"v": np.arange(1, 101, dtype=float)})
    r = sdc.rank_swap(df, "v", p=10, seed=2)
    det = r.details["v"]
    assert det["top_coded"] == 4 and det["bottom_coded"] == 4
    assert det["top_value"] == pytest.approx((100 + 99 + 98 + 97) / 4)
    assert det["bottom_value"] == pytest.approx((1 + 2 + 3 + 4) / 4)
    y = r.data["v"].to_numpy()
    assert (y[96:] == 98.5).all() and (y[:4] == 2.5).all()
    assert sorted(y[4:96]) == list(range(5, 97))           # the middle is swapped among itself
    r = sdc.rank_swap(pd.DataFrame({"v": np.arange(1, 201, dtype=float)}), "v", p=10, top_percent=10,
                      bottom_percent=0, seed=2)
    # 200 * (10f * 0.01f) = 19.999998 -> 19; one empty group is fine here (sdcMicro's C++ crashes on it).
    assert r.details["v"]["top_coded"] == 19 and r.details["v"]["bottom_coded"] == 0


def test_p_from_r0_and_k0_by_hand():
    mid = np.array([10.0, 8.0, 5.0, 2.0])
    avr, var = mid.mean(), np.float32((mid**2).mean() - mid.mean() ** 2)
    # r0: P = sqrt(2 V (1 - r0)) / |bottom edge - top edge|, in single precision
    p_r0 = rank_swap_parameters(mid, 12.0, 1.0, p=None, r0=0.9, k0=None)
    assert p_r0 == pytest.approx(math.sqrt(2 * float(var) * 0.1) / 11.0, rel=1e-6)
    assert p_r0 == float(np.float32(p_r0))
    # k0: P = sqrt(8/3) k0 |A| / D
    assert rank_swap_parameters(mid, 12.0, 1.0, p=None, r0=None, k0=0.2) == pytest.approx(
        math.sqrt(8 / 3) * 0.2 * avr / 11.0, rel=1e-6)
    assert rank_swap_parameters(mid, 3.0, 3.0, p=None, r0=0.9, k0=None) == 0.0
    assert rank_swap_parameters(mid, 12.0, 1.0, p=5, r0=None, k0=None) == pytest.approx(0.05, rel=1e-7)
    # windows: min(m, int(j + m P)) in single precision
    assert _windows(10, 0.25).tolist() == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10]


def test_default_is_r0_095_and_missing_values_stay():
    rng = np.random.default_rng(4)
    x = rng.normal(100, 20, 300)
    x[::7] = np.nan
    df = pd.DataFrame({"v": x, "i": np.arange(300)})
    r = sdc.rank_swap(df, "v", seed=5)
    assert r.parameters == {"variables": ["v"], "top_percent": 5.0, "bottom_percent": 5.0, "r0": 0.95}
    assert r.data["v"].isna().equals(df["v"].isna())
    pd.testing.assert_frame_equal(sdc.rank_swap(df, "v", seed=5).data, r.data)
    assert not r.data.equals(sdc.rank_swap(df, "v", seed=6).data)


def test_integer_column_stays_integer_without_averaging():
    df = pd.DataFrame({"n": np.arange(50)})
    r = sdc.rank_swap(df, "n", p=20, top_percent=0, bottom_percent=0, seed=1)
    assert r.data["n"].dtype == np.int64 and sorted(r.data["n"]) == list(range(50))


@pytest.mark.parametrize("kwargs, message", [
    ({"p": 5, "r0": 0.9}, r"takes one of p, r0, k0; got p, r0"),
    ({"p": 101}, r"`p` must be a number in \[0, 100\]; got 101"),
    ({"r0": 1.2}, r"`r0` must be a number in \[0, 1\]; got 1.2"),
    ({"k0": -1}, r"`k0` must be a number >= 0; got -1"),
    ({"top_percent": 60, "bottom_percent": 50}, r"must not exceed 100; got 60 \+ 50"),
])
def test_errors(kwargs, message):
    df = pd.DataFrame({"v": np.arange(10.0), "s": list("abcdefghij")})
    with pytest.raises(ValueError, match=message):
        sdc.rank_swap(df, "v", **kwargs)
    with pytest.raises(ValueError, match="rank_swap needs numeric columns; column 's'"):
        sdc.rank_swap(df, "s")


@given(values=st.lists(st.one_of(st.none(), st.integers(-100, 100)), min_size=1, max_size=60),
       p=st.sampled_from([1, 5, 10, 50, 100]), seed=st.integers(0, 2**32 - 1))
def test_properties(values, p, seed):
    x = np.array([np.nan if v is None else v for v in values], dtype=float)
    df = pd.DataFrame({"v": x, "k": range(len(values))}, index=pd.RangeIndex(3, 3 + len(values)))
    before = df.copy()
    r = sdc.rank_swap(df, "v", p=p, top_percent=0, bottom_percent=0, seed=seed)
    pd.testing.assert_frame_equal(df, before)
    y = r.data["v"].to_numpy(dtype=float)
    assert np.array_equal(np.isnan(y), np.isnan(x))
    assert sorted(y[~np.isnan(y)]) == sorted(x[~np.isnan(x)])
    assert r.changed["v"] == changed_cells(df, r.data, ["v"])["v"]
    pd.testing.assert_frame_equal(sdc.rank_swap(df, "v", p=p, top_percent=0, bottom_percent=0, seed=seed).data,
                                  r.data)
