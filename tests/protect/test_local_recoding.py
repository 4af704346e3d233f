"""local_recoding (sdcMicro's LocalRecProg): hand-computed cases, the least pairing by brute force,
purity, bad arguments, a plan step."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.protect.recode_local import pair_records, record_distances


def _hand() -> pd.DataFrame:
    # a b | b2 (ancestor of b) | x: records 0,1 differ in b only (d = 1), 2,3 are equal in a, b and
    # differ in x (d = 6/6 = 1)... see the distances below
    return pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 3, 3], "b2": [10, 10, 20, 20], "x": [0.0, 0.0, 6.0, 0.0]})


def test_hand_computed_pairs_and_cells():
    df = _hand()
    # d(0,1) = [b] = 1; d(2,3) = |6-0|/6 = 1; d(0,2) = 2 + 1 = 3; d(0,3) = 2; d(1,2) = 3; d(1,3) = 2
    D = record_distances(np.array([[0, 0], [0, 1], [1, 2], [1, 2]]), df[["x"]].to_numpy(), np.ones(3))
    assert D.tolist() == [[0, 1, 3, 2], [1, 0, 3, 2], [3, 3, 0, 1], [2, 2, 1, 0]]
    r = sdc.local_recoding(df, ["a", "b"], numerical="x", ancestors={"b": ["b2"]})
    assert r.data["b"].tolist() == [10, 10, 3, 3]          # the pair's common ancestor
    assert r.data["x"].tolist() == [0.0, 0.0, -6.0, -6.0]  # sdcMicro: min - max
    assert r.details["total_distance"] == 2.0 and r.details["unpaired"] is None
    c = sdc.local_recoding(df, ["a", "b"], numerical="x", mode="correct", missing_value=-9)
    assert c.data["b"].tolist() == [-9, -9, 3, 3] and c.data["x"].tolist() == [0.0, 0.0, 3.0, 3.0]
    assert r.changed.to_dict() == {"a": 0, "b": 2, "x": 2}


def test_odd_records_sdcmicro_zeros_the_unpaired_correct_keeps_it():
    df = pd.DataFrame({"a": [1, 1, 5], "x": [1.0, 2.0, 9.0]})
    s = sdc.local_recoding(df, "a", numerical="x")
    assert s.data["a"].tolist() == [1, 1, 0] and s.data["x"].tolist() == [-1.0, -1.0, 0.0]
    assert s.details["unpaired"] == 2
    c = sdc.local_recoding(df, "a", numerical="x", mode="correct")
    assert c.data["a"].tolist() == [1, 1, 5] and c.data["x"].tolist() == [1.5, 1.5, 9.0]


def test_missing_value_zero_is_minus_one_in_sdcmicro_mode():
    df = pd.DataFrame({"a": [1, 2, 3, 3], "b": [1, 1, 1, 1]})
    assert sdc.local_recoding(df, ["a", "b"], missing_value=0).data["a"].tolist() == [-1, -1, 3, 3]
    assert sdc.local_recoding(df, ["a", "b"], missing_value=0, mode="correct").data["a"].tolist() == [0, 0, 3, 3]


@pytest.mark.parametrize("seed", range(40))
def test_pairing_is_least_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    codes = rng.integers(0, 3, (n, 3))
    X = rng.normal(size=(n, 1)).round(1)
    D = record_distances(codes, X, rng.integers(0, 3, 4).astype(float))
    p, q = pair_records(D)
    assert p.size == n // 2 and len(set(p) | set(q)) == 2 * (n // 2)

    def best(rest):
        if len(rest) < 2:
            return 0.0
        if len(rest) % 2:   # one record left alone
            return min(best(rest[:i] + rest[i + 1:]) for i in range(len(rest)))
        a = rest[0]
        return min(D[a, b] + best([r for r in rest[1:] if r != b]) for b in rest[1:])

    assert float(D[p, q].astype(np.float64).sum()) == pytest.approx(float(best(list(range(n)))), abs=1e-5)


def test_pure_and_text_keys():
    df = pd.DataFrame({"a": ["x", "y", "x", "z"], "g": ["u", "u", "u", "v"]})
    before = df.copy()
    r = sdc.local_recoding(df, ["a"], ancestors={"a": "g"}, missing_value="*")
    pd.testing.assert_frame_equal(df, before)
    assert sorted(r.data["a"].tolist()) == ["*", "*", "x", "x"]
    assert r.to_frame()["cells_changed"].tolist() == [2]
    assert "records" in r.summary()["statistic"].tolist()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"keys": "nope"}, "nope"),
    ({"keys": "a", "numerical": "a"}, "a key too"),
    ({"keys": "a", "numerical": "zz"}, "not a column"),
    ({"keys": "a", "numerical": "t"}, "not numeric"),
    ({"keys": "a", "k": 4}, "below their number"),
    ({"keys": "a", "k": 0}, "k"),
    ({"keys": "a", "ancestors": {"b": ["x"]}}, "not one of the keys"),
    ({"keys": "a", "ancestors": {"a": ["nope"]}}, "no column 'nope'"),
    ({"keys": "a", "ancestors": ["x"]}, "table of key"),
    ({"keys": ["a", "b"], "weight": [1]}, "one number per key"),
    ({"keys": ["a", "b"], "weight": [1, -1]}, ">= 0"),
    ({"keys": ["a"], "weight": {"q": 1}}, "neither a key"),
    ({"keys": "a", "mode": "exact"}, "mode"),
    ({"keys": "a", "numerical": "m"}, "missing values"),
])
def test_bad_arguments_one_line(kwargs, message):
    df = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1, 1, 2, 2], "x": [1.0, 2, 3, 4], "t": list("abcd"),
                       "m": [1.0, np.nan, 2, 3]})
    keys = kwargs.pop("keys")
    with pytest.raises((ValueError, TypeError), match=message) as err:
        sdc.local_recoding(df, keys, **kwargs)
    assert "\n" not in str(err.value)


def test_plan_step_runs():
    df = sdc.load_example().head(60)
    run = sdc.protect_data(df, [{"method": "local_recoding", "keys": ["sex", "region"], "k": 2}])
    assert run.released.shape == df.shape
    assert [s.step.method for s in run.steps] == ["local_recoding"]


def test_too_many_distinct_records_refused_in_one_line(monkeypatch):
    import sdc.protect.recode_local as m

    monkeypatch.setattr(m, "MAX_DISTINCT", 5)
    df = pd.DataFrame({"a": range(8), "b": [1, 1, 1, 1, 2, 2, 2, 2]})
    with pytest.raises(ValueError, match="at most 5 records") as err:
        sdc.local_recoding(df, ["a", "b"])
    assert "\n" not in str(err.value)
    same = pd.DataFrame({"a": [1] * 8 + [2, 3], "b": 1})   # 8 records at distance 0 need no program
    assert sdc.local_recoding(same, ["a", "b"]).details["pairs"] == 5


def test_larger_file_matches_the_complete_integer_program():
    # the priced LP + integer program on a candidate graph equals the integer program on every pair
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    rng = np.random.default_rng(3)
    n = 60
    D = record_distances(rng.integers(0, 3, (n, 4)), rng.normal(size=(n, 1)), np.ones(5)).astype(np.float64)
    i, j = np.triu_indices(n, 1)
    m = i.size
    inc = sparse.csr_array((np.ones(2 * m), (np.r_[i, j], np.r_[np.arange(m), np.arange(m)])), shape=(n, m))
    full = milp(D[i, j], constraints=[LinearConstraint(inc, 1, 1)], integrality=np.ones(m), bounds=Bounds(0, 1),
                options={"mip_rel_gap": 0.0})
    p, q = pair_records(D.astype(np.float32))
    assert float(D[p, q].sum()) == pytest.approx(float(full.fun), abs=1e-6)
