"""info_loss (sdcMicro's infoLoss): hand-computed cells and measures, brute force over random
files (hypothesis); sdcMicro's own values in tests/protect/test_sdcmicro_record_swap.py."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc

A = pd.DataFrame({"a": ["x", "x", "y"], "b": [1, 2, 1], "h": [1, 2, 3]})
B = pd.DataFrame({"a": ["x", "y", "y"], "b": [1, 2, 1], "h": [1, 2, 3]})


def test_hand_computed() -> None:
    r = sdc.info_loss(A, B, ["a", "b"])
    # cells: a=x 2->1, a=y 1->2, b=1 2->2, b=2 1->1, (x,1) 1->1, (x,2) 1->0, (y,1) 1->1, (y,2) 0->1
    assert len(r.cells) == 8 and r.false_zero == 1 and r.false_nonzero == 1
    m = r.measures.loc["Mean"]
    assert m["absD"] == pytest.approx(0.5, abs=1e-15)
    assert m["relabsD"] == pytest.approx((0.5 + 1 + 1) / 8, abs=1e-15)
    assert m["abssqrtD"] == pytest.approx(math.sqrt(2) / 4, abs=1e-15)
    assert r.measures.loc["Max", "absD"] == 1 and r.measures.loc["Min", "absD"] == 0
    assert list(r.measures.index[:6]) == ["Min", "10%", "20%", "30%", "40%", "Mean"]
    assert r.measures.index[6] == "Median" and r.measures.index[-1] == "Max"
    s = r.summary().set_index("statistic")["value"]
    assert s["cells"] == 8 and s["false_zero"] == 1
    assert list(r.to_frame().columns) == ["what", "absD", "relabsD", "abssqrtD"]


def test_inner_cells_households_and_zeros() -> None:
    r = sdc.info_loss(A, B, ["a", "b"], only_inner_cells=True)
    assert len(r.cells) == 4
    r = sdc.info_loss(A, B, ["a", "b"], exclude_zeros=True)
    assert len(r.cells) == 7 and r.false_zero == 0
    two = pd.concat([A, A.iloc[[0]]]), pd.concat([B, B.iloc[[0]]])
    assert sdc.info_loss(*two, ["a", "b"], hid="h").measures.equals(sdc.info_loss(A, B, ["a", "b"]).measures)


def test_identical_files_lose_nothing() -> None:
    r = sdc.info_loss(A, A.copy(), ["a", "b"])
    assert (r.measures.to_numpy() == 0).all() and r.false_zero == r.false_nonzero == 0


@pytest.mark.parametrize("kw, message", [({"table_vars": ["zz"]}, "zz"), ({"metric": ["nope"]}, "metric"), ({"metric": "bad"}, "got 'bad'."),
                                         ({"probs": [2.0]}, "probs")])
def test_bad_input(kw: dict, message: str) -> None:
    args = {"table_vars": ["a"], **kw}
    with pytest.raises((ValueError, KeyError, TypeError)) as e:
        sdc.info_loss(A, B, **args)
    assert message in str(e.value)


def _brute(o: pd.DataFrame, s: pd.DataFrame, tv: list[str]) -> pd.DataFrame:
    rows = []
    for r in range(1, len(tv) + 1):
        for sub in combinations(tv, r):
            co = o.groupby(list(sub)).size()
            cs = s.groupby(list(sub)).size()
            both = pd.concat([co.rename("o"), cs.rename("s")], axis=1).fillna(0)
            rows.append(both)
    t = pd.concat(rows, ignore_index=True)
    return t


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 30), seed=st.integers(0, 10_000), k=st.integers(1, 3))
def test_brute_force(n: int, seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    tv = ["u", "v", "w"][:k]
    o = pd.DataFrame({c: rng.integers(0, 3, n) for c in tv})
    s = pd.DataFrame({c: rng.integers(0, 3, n) for c in tv})
    r = sdc.info_loss(o, s, tv)
    t = _brute(o, s, tv)
    oo, ss = t["o"].to_numpy(), t["s"].to_numpy()
    assert len(r.cells) == len(t)
    probs = sorted([i / 10 for i in range(11)] + [0.95, 0.99])
    rel = np.where(oo == 0, 0.0, np.abs(oo - ss) / np.where(oo == 0, 1, oo))
    for name, x in (("absD", np.abs(oo - ss)), ("relabsD", rel), ("abssqrtD", np.abs(np.sqrt(oo) - np.sqrt(ss)))):
        assert r.measures.loc["Mean", name] == pytest.approx(x.mean(), rel=1e-12, abs=1e-15)
        assert r.measures.loc["Max", name] == pytest.approx(x.max(), rel=1e-12, abs=1e-15)
        assert r.measures.loc["90%", name] == pytest.approx(np.quantile(x, 0.9), rel=1e-12, abs=1e-15)
    assert r.false_zero == int(((oo > 0) & (ss == 0)).sum())
    assert len(probs) + 1 == len(r.measures)


def test_missing_value_is_its_own_category() -> None:
    o = pd.DataFrame({"a": ["x", None], "b": [1, 1]})
    r = sdc.info_loss(o, o.assign(a=["x", "x"]), ["a", "b"])
    # a: x 1->2, missing 1->0; b: 1 2->2; (x,1) 1->2; (missing,1) 1->0 -- five cells, the margin apart
    assert len(r.cells) == 5 and r.false_zero == 2
    assert r.measures.loc["Mean", "absD"] == pytest.approx(4 / 5)
