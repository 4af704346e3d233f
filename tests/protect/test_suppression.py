"""Local suppression: hand-computed cases, brute force, and properties (hypothesis).

k-anonymity of every result is checked with the brute-force wildcard counter of
``tests/brute.py`` (written from sdcMicro's rule, sharing no code with sdc).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.protect.suppression import default_importance, local_suppression
from tests import brute, scale
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")


def _row(summary, statistic):
    """A value of a summary() table (statistic, value, description)."""
    return summary.set_index("statistic").loc[statistic, "value"]


def _k_anonymous(df: pd.DataFrame, keys, k, alpha=1.0) -> bool:
    if len(df) == 0:
        return True
    fk, _ = brute.frequencies(df, keys, alpha=alpha)
    return bool((fk >= k - 1e-9).all())


def _na_cells(res, keys) -> int:
    return int(res.data[list(keys)].isna().to_numpy().sum())


# --------------------------------------------------------------------------------------
# Hand-computed
# --------------------------------------------------------------------------------------
@pytest.fixture
def six() -> pd.DataFrame:
    # (30,m) x2, (30,f), (40,f) x2, (50,f): records 2 and 5 are unique.
    return pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": ["m", "m", "f", "f", "f", "f"],
                         "other": [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]}, index=[10, 11, 12, 13, 14, 15])


def test_hand_sdcmicro(six):
    # Importance: sex (2 values) = 1, age (3 values) = 2, so age is tried first.
    # Record 12 (30,f): every other pattern is at distance 1, and age differs from a nearest
    # one -> age suppressed: (NA,f). Record 15 (50,f), still on the pass's list: nearest is
    # (40,f) (distance 1; (NA,f) is at 0) -> age suppressed. sdcMicro suppresses both.
    res = local_suppression(six, ["age", "sex"], k=2, mode="sdcmicro")
    assert res.changed.to_dict() == {"age": 2, "sex": 0}
    assert res.data["age"].isna().tolist() == [False, False, True, False, False, True]
    assert res.details["importance"] == {"age": 2, "sex": 1}


def test_hand_minimal(six):
    # After record 12 becomes (NA,f), record 15 (50,f) has f = 1 + 1 (the partial (NA,f)) = 2:
    # minimal skips it. Putting record 12's age back would make it unique again.
    res = local_suppression(six, ["age", "sex"], k=2)
    assert res.changed.to_dict() == {"age": 1, "sex": 0}
    assert res.data["age"].isna().tolist() == [False, False, True, False, False, False]
    assert res.details["sdcmicro_suppressions"] == 2
    assert res.details["k_anonymous"]


def test_hand_importance_changes_the_key(six):
    # sex made the least important: record 12 (30,f) loses sex (it differs from (30,m)).
    res = local_suppression(six, ["age", "sex"], k=2, importance={"age": 1, "sex": 2}, mode="sdcmicro")
    assert pd.isna(res.data.loc[12, "sex"]) and res.data.loc[12, "age"] == 30


def test_hand_alpha_zero_special_case():
    # alpha = 0: record 0 (1,1) agrees with every other record on its observed keys, but the
    # partial records count 0 -> f = 1. sdcMicro then suppresses the least important observed
    # key of the record itself.
    df = pd.DataFrame({"a": [1, np.nan, np.nan, 2, 2], "b": [1, 1, np.nan, 2, 2]})
    res = local_suppression(df, ["a", "b"], k=2, alpha=0.0, mode="sdcmicro")
    assert res.data.isna().to_numpy().sum() > df.isna().to_numpy().sum()
    assert _k_anonymous(res.data, ["a", "b"], 2, alpha=0.0)


def test_sdcmicro_stops_where_sdcmicro_stops():
    # alpha = 1, K >= 2: (1,1) is compatible with everything, but all-missing records do not
    # count for complete ones (f = 1): sdcMicro stops with an error; minimal suppresses one cell.
    df = pd.DataFrame({"a": [1, np.nan, np.nan], "b": [1, np.nan, np.nan]})
    with pytest.raises(ValueError, match="sdcMicro's localSuppression stops here"):
        local_suppression(df, ["a", "b"], k=2, mode="sdcmicro")
    res = local_suppression(df, ["a", "b"], k=2)
    assert res.n_changed == 1 and res.details["sdcmicro_suppressions"] is None
    assert _k_anonymous(res.data, ["a", "b"], 2)


def test_default_importance_ties_go_to_the_earlier_key():
    df = pd.DataFrame({"a": [1, 2, 3], "b": [1, 1, 2], "c": [5, 6, 7], "d": [1, 1, 1]})
    assert default_importance(df, ["a", "b", "c", "d"]) == {"a": 3, "b": 2, "c": 4, "d": 1}


def test_docstring_example_and_flat_api(six):
    res = sdc.local_suppression(six, ["age", "sex"], k=2)
    assert isinstance(res, sdc.ProtectionResult)
    assert res.method == "local_suppression" and res.seed is None
    assert _row(res.summary(), "cells_changed") == 1
    assert list(res.to_frame()["variable"]) == ["age", "sex"]


def test_combs_and_k_per_subset():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({c: rng.integers(0, 4, 60) for c in "abcd"})
    res = local_suppression(df, list("abcd"), k=[4, 8], combs=[3, 2])
    assert res.details["k_anonymous"]
    for keys in itertools.combinations("abcd", 3):
        assert _k_anonymous(res.data, list(keys), 4)
    for keys in itertools.combinations("abcd", 2):
        assert _k_anonymous(res.data, list(keys), 8)
    assert len(res.details["subsets"]) == 4 + 6


def test_strata_each_stratum_k_anonymous():
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"a": rng.integers(0, 3, 80), "b": rng.integers(0, 4, 80), "s": rng.choice(["x", "y"], 80)})
    for mode in ("sdcmicro", "minimal"):
        res = local_suppression(df, ["a", "b"], k=3, strata="s", mode=mode)
        for _, part in res.data.groupby("s"):
            assert _k_anonymous(part, ["a", "b"], 3)
        assert res.details["suppressions_by_stratum"].sum().to_dict() == res.changed.to_dict()


def test_unit_record_drops_whole_classes():
    df = pd.DataFrame({"a": [1, 1, 1, 2, 2, 3], "b": [1, 1, 1, 1, 1, 2]})
    res = local_suppression(df, ["a", "b"], k=3, unit="record")
    assert res.details["kept"].tolist() == [True, True, True, False, False, False]
    assert res.details["records_dropped"] == 3 and res.n_changed == 0
    assert list(res.data.index) == [0, 1, 2]


def test_k_and_l_together():
    rng = np.random.default_rng(7)
    n = 200
    df = pd.DataFrame({"a": rng.integers(0, 4, n), "b": rng.integers(0, 3, n),
                       "disease": rng.choice(["flu", "cold", "none"], n, p=[0.1, 0.1, 0.8])})
    res = local_suppression(df, ["a", "b"], k=3, sensitive="disease", l=2)
    kept = res.data
    assert res.details["records_dropped"] == int((~res.details["kept"]).sum()) > 0
    assert _k_anonymous(kept, ["a", "b"], 3)
    # every class of the kept records (missing key = its own value) holds >= 2 diseases
    for _, cls in kept.groupby(["a", "b"], dropna=False):
        assert cls["disease"].nunique() >= 2
    lres = sdc.l_diversity(kept, ["a", "b"], "disease", l=2)
    assert int(lres.by_sensitive["n_records_below_l"].iloc[0]) == 0


def test_dtypes_after_suppression():
    df = pd.DataFrame({"i": [1, 1, 2, 3], "s": ["x", "x", "y", "y"],
                       "c": pd.Categorical(["u", "u", "v", "w"]), "b": [True, True, False, True]})
    res = local_suppression(df, ["i", "s", "c", "b"], k=2)
    out = res.data
    assert res.n_changed > 0
    for col in ("i", "s", "c", "b"):
        changed = out[col].isna() & df[col].notna()
        if changed.any():
            assert str(out[col].dtype) in ("Int64", "object", "category", "boolean")
    assert str(out["i"].dtype) in ("Int64", "int64")


# --------------------------------------------------------------------------------------
# Bad input: one clear line naming the argument
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, match", [
    (dict(k=1), "`k` must be a whole number >= 2, or a list of them; got 1"),
    (dict(k=2.5), "`k` must be a whole number >= 2, or a list of them; got 2.5"),
    (dict(mode="fast"), "`mode` must be one of"),
    (dict(unit="class"), "`unit` must be one of"),
    (dict(alpha=1.5), r"`alpha` must be a number in \[0, 1\]; got 1.5"),
    (dict(importance=[1, 2, 3]), "one value per key"),
    (dict(importance=[1, 5]), "`importance` must be an integer <= 2"),
    (dict(importance={"age": 1}), "no value for key"),
    (dict(combs=[3]), "`combs` must be an integer <= 2"),
    (dict(combs=[2, 1], k=[2, 3, 4]), "one per entry of `combs`"),
    (dict(strata="age"), "must not repeat key"),
    (dict(l=2), "go together"),
    (dict(sensitive="other", l=1), "`l` must be a whole number >= 2; got 1"),
    (dict(k=7), "has 6 record"),
])
def test_bad_input(six, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        local_suppression(six, ["age", "sex"], **kwargs)


def test_unknown_key(six):
    with pytest.raises(ValueError, match="did you mean 'age'"):
        local_suppression(six, ["agee", "sex"])


# --------------------------------------------------------------------------------------
# Brute force: the fewest cells that make tiny data k-anonymous
# --------------------------------------------------------------------------------------
def _optimum(df: pd.DataFrame, keys, k: int, alpha: float) -> int:
    cells = [(i, c) for i in range(len(df)) for c in keys if pd.notna(df[c].iloc[i])]
    for size in range(len(cells) + 1):
        for sub in itertools.combinations(cells, size):
            d = df.astype(object).copy()
            for i, c in sub:
                d.iat[i, d.columns.get_loc(c)] = None
            if _k_anonymous(d, keys, k, alpha):
                return size
    raise AssertionError("unreachable")  # all missing is always k-anonymous (n >= k)


@settings(max_examples=scale.examples(60), deadline=None)
@given(data=st.data())
def test_brute_force_bounds(data):
    n = data.draw(st.integers(2, 6))
    K = data.draw(st.integers(1, 2))
    k = data.draw(st.integers(2, min(3, n)))
    alpha = data.draw(st.sampled_from([1.0, 0.5]))
    df = pd.DataFrame({f"k{j}": data.draw(st.lists(st.sampled_from([1, 2, 3, None]), min_size=n, max_size=n))
                       for j in range(K)}, dtype="float64")
    for c in df:
        if df[c].isna().all():
            df.loc[0, c] = 1.0
    keys = list(df.columns)
    opt = _optimum(df, keys, k, alpha)
    mini = local_suppression(df, keys, k=k, alpha=alpha)
    assert _k_anonymous(mini.data, keys, k, alpha)
    assert mini.n_changed >= opt
    try:
        sdcm = local_suppression(df, keys, k=k, alpha=alpha, mode="sdcmicro")
    except ValueError:
        return
    assert _k_anonymous(sdcm.data, keys, k, alpha)
    assert mini.n_changed <= sdcm.n_changed


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------
@settings(max_examples=scale.examples(80), deadline=None)
@given(case=microdata(min_keys=1, max_keys=3, max_rows=30, weights=False),
       k=st.integers(2, 4), alpha=st.sampled_from([1.0, 1.0, 0.5, 0.0]), mode=st.sampled_from(["minimal", "sdcmicro"]))
def test_properties(case, k, alpha, mode):
    df, keys, _ = case
    df = df.assign(extra=np.arange(len(df)))
    if len(df) < k:
        with pytest.raises(ValueError, match="fewer than k"):
            local_suppression(df, keys, k=k, alpha=alpha, mode=mode)
        return
    before = df.copy(deep=True)
    try:
        res = local_suppression(df, keys, k=k, alpha=alpha, mode=mode)
    except ValueError as e:
        assert mode == "sdcmicro" and "stops here" in str(e)
        return
    pd.testing.assert_frame_equal(df, before)                       # input untouched
    assert res.data.index.equals(df.index)                           # aligned
    assert list(res.data.columns) == list(df.columns)
    pd.testing.assert_series_equal(res.data["extra"], df["extra"])   # other columns as they were
    assert _k_anonymous(res.data, keys, k, alpha)                     # the goal
    for c in keys:                                                   # only value -> missing
        was, now = df[c], res.data[c]
        assert not (was.isna() & now.notna()).any()
        same = now.notna()
        assert (now[same].astype(object) == was[same].astype(object)).all()
        assert res.changed[c] == int((now.isna() & was.notna()).sum())
    if mode == "minimal" and res.details["sdcmicro_suppressions"] is not None:
        assert res.n_changed <= res.details["sdcmicro_suppressions"]


# --------------------------------------------------------------------------------------
# Deliberate differences from sdcMicro (docs/protection.md, rows S1-S6)
# --------------------------------------------------------------------------------------
def test_difference_default_k_is_3():
    # S1: sdcMicro's default is k = 2; sdc's is 3, as sdc.k_anonymity's.
    df = pd.DataFrame({"a": [1, 1, 2, 2, 2, 3, 3, 3]})
    res = local_suppression(df, ["a"])
    assert res.parameters["k"] == 3 and _k_anonymous(res.data, ["a"], 3)
    assert res.n_changed == 2


def test_difference_string_keys_are_categories():
    # S4: sdcMicro's data.frame method turns character keys into NA (as.numeric) and reports
    # 2-anonymity with no suppression; sdc treats strings as categories (sdcMicro does so for
    # factors, which createSdcObj makes; the bridge passes factors).
    df = pd.DataFrame({"a": ["x", "x", "y", "z", "z"], "b": ["1", "1", "2", "2", "2"]})
    res = local_suppression(df, ["a", "b"], k=2, mode="sdcmicro")
    assert res.n_changed == 1 and pd.isna(res.data.loc[2, "a"])
    assert _k_anonymous(res.data, ["a", "b"], 2)


def test_difference_importance_counts_observed_values():
    # S5: sdcMicro counts length(table(x)), which for a factor includes unused levels.
    df = pd.DataFrame({"a": pd.Categorical(["u", "v", "u"], categories=list("uvwxyz")), "b": [1, 2, 3]})
    assert default_importance(df, ["a", "b"]) == {"a": 1, "b": 2}


def test_difference_combs_with_alpha_below_one_end_k_anonymous():
    # S3: with combs and alpha < 1 a later subset's suppressions can lower an earlier subset's
    # frequencies; sdcMicro does not look again, so its result is not k-anonymous. The minimal
    # mode goes on until every subset is (here with one cell more than sdcMicro's 9).
    from validation.crossval_suppression import random_suppression_case

    case = random_suppression_case(131)
    assert case.combs == (2, 1) and case.alpha == 0.25
    kw = dict(k=case.k, importance=list(case.importance), combs=list(case.combs), alpha=case.alpha)
    sdcm = local_suppression(case.data, list(case.keys), mode="sdcmicro", **kw)
    mini = local_suppression(case.data, list(case.keys), **kw)
    assert not sdcm.details["k_anonymous"] and sdcm.n_changed == 9
    assert mini.details["k_anonymous"] and mini.n_changed == 10
    for sub in mini.details["subsets"]:
        assert _k_anonymous(mini.data, sub, case.k, case.alpha)
