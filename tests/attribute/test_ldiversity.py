"""l-diversity: golden values, both modes, missing values, multi-attribute, properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import sdc
from tests import brute, scale
from tests.strategies import microdata

NAN = np.nan


def _rec(res, s):
    r = res.records
    return r[[f"{s}_Distinct_Ldiversity", f"{s}_Entropy_Ldiversity", f"{s}_Recursive_Ldiversity"]].to_numpy()


@pytest.mark.parametrize("mode", ["correct", "sdcmicro"])
@pytest.mark.parametrize(("c", "recursive"), [(2, 2), (0.5, 1), (5, 3)])
def test_golden_single_group(mode, c, recursive):
    # reference 3.3: one group with s = (1,1,1,1,1,2,2,2,3,4)
    df = pd.DataFrame({"k": [1] * 10, "s": [1, 1, 1, 1, 1, 2, 2, 2, 3, 4]})
    r = sdc.l_diversity(df, ["k"], "s", c=c, mode=mode)
    assert_allclose(_rec(r, "s")[0], [4, 3.21646345532414, recursive], rtol=1e-13)


def test_golden_two_sensitive_variables():
    df = pd.DataFrame({"k": [1, 1, 1], "s1": ["A", "B", "A"], "s2": ["X", "Y", "Z"]})
    r = sdc.l_diversity(df, ["k"], ["s1", "s2"], mode="sdcmicro")
    assert_allclose(r.records.iloc[0], [2, 1.88988157484231, 1, 3, 3, 3, 0, 0], rtol=1e-13)
    assert list(r.records.columns) == [
        "s1_Distinct_Ldiversity", "s1_Entropy_Ldiversity", "s1_Recursive_Ldiversity", "s2_Distinct_Ldiversity",
        "s2_Entropy_Ldiversity", "s2_Recursive_Ldiversity", "MultiEntropy_Ldiversity", "MultiRecursive_Ldiversity"]
    # correct mode computes multi-attribute diversity: every s1 value is pinned by s2 -> 1
    m = sdc.l_diversity(df, ["k"], ["s1", "s2"]).records
    assert m["MultiEntropy_Ldiversity"].tolist() == [1, 1, 1] and m["MultiRecursive_Ldiversity"].tolist() == [1, 1, 1]


def test_golden_test_ldiversity_data():
    # test_ldiversity.R: keys sex/occupation/ethnicity with NA occupation in rows 1-3
    df = pd.DataFrame({"sex": [1, 1, 1, 2, 2, 2, 2], "occ": [NAN, NAN, NAN, 1, 1, 1, 1],
                       "eth": [1, 1, 1, 2, 2, 2, 2], "sens": [1, 0, 2, 1, 0, 0, 1]})
    for mode in ("correct", "sdcmicro"):
        r = sdc.l_diversity(df, ["sex", "occ", "eth"], "sens", mode=mode)
        assert _rec(r, "sens")[:, 0].tolist() == [3, 3, 3, 2, 2, 2, 2]
        assert_allclose(_rec(r, "sens")[:, 1], [3, 3, 3, 2, 2, 2, 2], rtol=1e-12)
        assert _rec(r, "sens")[:, 2].tolist() == [3, 3, 3, 2, 2, 2, 2]


def test_missing_sensitive_values_by_mode():
    df = pd.DataFrame({"k": [1, 1, 1, 1], "s": [1, NAN, NAN, 2]})
    # sdcMicro: every NA is a category of its own -> 4, 4, 4 (issue #300)
    assert _rec(sdc.l_diversity(df, ["k"], "s", mode="sdcmicro"), "s")[0].tolist() == [4, 4, 4]
    # correct: the two observed values only
    assert _rec(sdc.l_diversity(df, ["k"], "s"), "s")[0].tolist() == [2, 2, 2]


def test_missing_code_is_pooled_in_sdcmicro_mode_and_missing_in_correct_mode():
    df = pd.DataFrame({"k": [1, 1, 1, 1, 2, 2], "s": [1, 1, -999, -999, -999, -999]})
    s = sdc.l_diversity(df, ["k"], "s", mode="sdcmicro")
    # class 1: value 1 and the pooled missing category -> distinct 2, entropy 2
    assert_allclose(_rec(s, "s")[0], [2, 2, 1], rtol=1e-12)
    # class 2: only the missing code: distinct 0, entropy 1 (exp 0), recursive carried from class 1
    assert _rec(s, "s")[4].tolist() == [0, 1, 1]
    c = sdc.l_diversity(df, ["k"], "s")
    assert _rec(c, "s")[0].tolist() == [1, 1, 1]
    assert np.isnan(_rec(c, "s")[4]).all()
    row = c.by_sensitive.iloc[0]
    assert row.n_records_unobserved == 2 and row.n_records_below_l == 4  # class 1 (1 value) is below l = 2


def test_keys_with_missing_values_are_their_own_category():
    df = pd.DataFrame({"a": [1, 1, NAN, NAN, 2], "b": [1, 1, 1, 1, NAN], "s": ["x", "y", "x", "x", "z"]})
    r = sdc.l_diversity(df, ["a", "b"], "s")
    assert r.n_classes == 3
    assert r.records["s_Distinct_Ldiversity"].tolist() == [2, 2, 1, 1, 1]


def test_summary_and_classes_below():
    df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "dx": ["a", "b", "a", "c", "c", "d"]})
    r = sdc.l_diversity(df, ["age"], "dx", l=2)
    row = r.by_sensitive.iloc[0]
    assert (row.n_records_below_l, row.n_classes_below_l, row.min_distinct) == (3, 2, 1)
    assert row.pct_records_below_l == 50.0
    assert row.mean_distinct_per_record == pytest.approx((2 * 3 + 1 * 2 + 1) / 6)
    below = r.classes_below()
    assert below["age"].tolist() == [40, 50] or below["age"].tolist() == [50, 40]
    assert set(below["dx_dominant"]) == {"c", "d"} and (below["dx_dominant_share"] == 1).all()


def test_binning_is_applied_and_recorded():
    df = pd.DataFrame({"age": [1, 5, 7, 11, 30, 33], "chol": [4.1, 4.2, 6.5, 7.0, 4.0, 4.1]})
    r = sdc.l_diversity(df, ["age"], "chol", key_bins={"age": [0, 6, 12, 40]}, sensitive_bins={"chol": [0, 5, 10]})
    assert [b.column for b in r.binning] == ["age", "chol"]
    assert r.binning[0].labels == ("0--6", "6--12", "12--40")
    assert r.classes["age"].tolist() == [1, 7, 30]  # key values shown are the original ones
    assert r.records["chol_Distinct_Ldiversity"].tolist() == [1, 1, 1, 1, 1, 1]


def test_errors():
    df = pd.DataFrame({"a": [1, 2], "s": [1, 2]})
    with pytest.raises(ValueError, match="may not also be keys: 'a'"):
        sdc.l_diversity(df, ["a"], ["a"])
    with pytest.raises(ValueError, match="`mode` must be one of 'correct', 'sdcmicro'"):
        sdc.l_diversity(df, ["a"], "s", mode="r")
    with pytest.raises(ValueError, match="at most 5 sensitive variables"):
        wide = pd.DataFrame({c: [1, 2] for c in "abcdefg"})
        sdc.l_diversity(wide, ["a"], list("bcdefg"), mode="sdcmicro")
    with pytest.raises(ValueError, match="`c` must lie in"):
        sdc.l_diversity(df, ["a"], "s", c=0)
    with pytest.raises(ValueError, match="did you mean 's'"):
        sdc.l_diversity(df, ["a"], "ss")


def _with_sensitive(draw, df):
    n = len(df)
    kind = draw(st.sampled_from(["int", "str"]))
    vals = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    miss = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    col = [None if m else (v if kind == "int" else "abcd"[v]) for v, m in zip(vals, miss)]
    return df.assign(s=pd.Series(col, index=df.index, dtype="float64" if kind == "int" else object))


@st.composite
def ldiv_case(draw):
    df, keys, _ = draw(microdata(weights=False))
    return _with_sensitive(draw, df), keys


@settings(max_examples=scale.examples(120))
@given(ldiv_case(), st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_correct_mode_matches_brute_force(case, c):
    df, keys = case
    r = sdc.l_diversity(df, keys, "s", c=c)
    assert_allclose(_rec(r, "s"), brute.l_diversity_correct(df, keys, "s", c=c), rtol=1e-12)


@settings(max_examples=scale.examples(60))
@given(ldiv_case(), st.randoms(use_true_random=False))
def test_invariant_to_row_order_and_relabelling(case, rnd):
    df, keys = case
    r = sdc.l_diversity(df, keys, "s")
    perm = list(range(len(df)))
    rnd.shuffle(perm)
    p = sdc.l_diversity(df.iloc[perm], keys, "s")
    assert_allclose(p.records.loc[df.index].to_numpy(), r.records.to_numpy(), rtol=1e-12)
    relab = df.assign(s=df["s"].map(lambda v: None if pd.isna(v) else f"v{v}"))
    q = sdc.l_diversity(relab, keys, "s")
    assert_allclose(q.records.to_numpy(), r.records.to_numpy(), rtol=1e-12)


@settings(max_examples=scale.examples(40))
@given(microdata(weights=False, missing=False))
def test_constant_sensitive_gives_l_one(case):
    df, keys, _ = case
    r = sdc.l_diversity(df.assign(s="same"), keys, "s")
    assert (_rec(r, "s") == 1).all()
    assert r.by_sensitive.iloc[0].n_records_below_l == len(df)


@settings(max_examples=scale.examples(40))
@given(ldiv_case())
def test_modes_agree_without_missing_sensitive_values(case):
    df, keys = case
    df = df[df["s"].notna()]
    assume(len(df) > 0 and not df[keys].isna().all().any())
    a = sdc.l_diversity(df, keys, "s")
    b = sdc.l_diversity(df, keys, "s", mode="sdcmicro")
    assert_allclose(_rec(a, "s"), _rec(b, "s"), rtol=1e-12)


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([1, 2, 3, 5, -999, NAN])), min_size=1, max_size=40))
def test_dominant_value_matches_a_brute_force(rows):
    # per class: the most frequent observed value (not NaN, not -999), ties to the smallest,
    # and its share of the class's observed values
    df = pd.DataFrame(rows, columns=["k", "s"])
    r = sdc.l_diversity(df, ["k"], "s")
    got = r.classes.set_index("k")[["s_dominant", "s_dominant_share"]]
    for k, grp in df.groupby("k"):
        obs = grp["s"][grp["s"].notna() & (grp["s"] != -999)]
        dom, share = got.loc[k]
        if obs.empty:
            assert dom is None and np.isnan(share)
            continue
        counts = obs.value_counts()
        want = min(v for v, n in counts.items() if n == counts.max())
        assert dom == want and share == pytest.approx(counts.max() / len(obs))
