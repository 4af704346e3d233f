"""SUDA2: golden examples, the MSU definition (brute force), DIS-SUDA, modes."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import sdc
from sdc.exceptions import SdcWarning
from tests import brute

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")


def test_issue_275_example():
    # sdcMicro issue #275 data; golden: score 2, 4, 2; contributions 50 / 37.5 / 37.5
    df = pd.DataFrame({"a": [2, 1, 1], "b": [0, 3, 0], "c": [0, 6, 0]})
    r = sdc.suda(df, ["a", "b", "c"])
    assert r.score.tolist() == [2, 4, 2]
    assert r.attribute_contributions["contribution"].tolist() == [50, 37.5, 37.5]
    lv = r.attribute_level_contributions
    assert_allclose(lv["contribution"], [50, 50, 100 / 3, 200 / 3, 100 / 3, 200 / 3])
    assert r.dis_score.tolist() == [1, 1, 1]  # no pairs: DIS = 1 for every positive score
    for order in (["a", "c", "b"], ["c", "a", "b"], ["c", "b", "a"]):
        got = sdc.suda(df, order).attribute_contributions.set_index("variable")["contribution"]
        assert got.to_dict() == {"a": 50, "b": 37.5, "c": 37.5}


BOOK = pd.DataFrame({"age": ["20s"] * 7 + ["60s"], "gender": ["male"] * 4 + ["female"] * 3 + ["male"],
                     "income": ["50k+", "50k+"] + ["50k-"] * 6,
                     "education": ["highschool"] * 4 + ["university", "highschool", "middleschool", "university"]})


def test_book_example():
    r = sdc.suda(BOOK, list(BOOK.columns))
    assert r.score.tolist() == [0, 0, 0, 0, 4, 2, 6, 8]
    assert_allclose(r.dis_score[4:], [0.01085909520911012, 0.00475586040600303, 0.01754517038502656,
                                      0.02460105708028310], rtol=1e-12)
    ihsn = sdc.suda(BOOK, list(BOOK.columns), original_scores=False)
    assert_allclose(ihsn.score, [0, 0, 0, 0, 1, 0.5, 1.75, 2.25], rtol=1e-15)


def test_ihsn_guideline_example():
    df = pd.DataFrame({
        "Residence": ["Urban"] * 4 + ["Rural"] + ["Urban"] * 5,
        "Gender": ["Female", "Female", "Female", "Male", "Female", "Male", "Female", "Male", "Female", "Female"],
        "Education": ["Secondary incomplete", "Secondary incomplete", "Primary incomplete", "Secondary complete",
                      "Secondary complete", "Secondary complete", "Primary complete", "Post-secondary",
                      "Secondary incomplete", "Secondary incomplete"],
        "Labor": ["Employed", "Employed", "Non-LF", "Employed", "Unemployed", "Employed", "Non-LF", "Unemployed",
                  "Non-LF", "Non-LF"]})
    r = sdc.suda(df, list(df.columns))
    assert r.score.tolist() == [0, 0, 6, 0, 12, 0, 6, 10, 0, 0]
    assert_allclose(r.dis_score.iloc[[2, 4, 7]], [0.00498679766114321, 0.01138300651423607, 0.00916667886916247],
                    rtol=1e-12)
    assert_allclose(r.attribute_contributions["contribution"], [23.52941, 17.64706, 64.70588, 23.52941], atol=1e-5)
    ihsn = sdc.suda(df, list(df.columns), original_scores=False)
    assert_allclose(ihsn.score, [0, 0, 1.75, 0, 3.25, 0, 1.75, 2.75, 0, 0], rtol=1e-15)


def test_calcrisks_style_example():
    # keys Var4..Var6 of test_calcRisks.R (reference 9.3 / 4.5): score 0 1 0 2 2 0 4 0 3 2
    df = pd.DataFrame([(2, 2, 1), (2, 5, 1), (2, 2, 3), (2, 4, 3), (2, 3, 3), (2, 2, 3), (4, 1, 2),
                       (2, 2, 1), (3, 3, 1), (2, 5, 2)], columns=["Var4", "Var5", "Var6"])
    r = sdc.suda(df, list(df.columns))
    assert r.score.tolist() == [0, 1, 0, 2, 2, 0, 4, 0, 3, 2]
    assert_allclose(r.contributions["Var4_contribution"], [0, 0, 0, 0, 0.5, 0, 0.5, 0, 2 / 3, 0.5], rtol=1e-12)


def test_missing_values_never_form_an_msu():
    df = pd.DataFrame({"a": [1, 1, np.nan, 2], "b": [1, 2, 3, 3], "c": [5, 5, 5, 6]})
    r = sdc.suda(df, ["a", "b", "c"], mode="correct")
    found = brute.msus(df, ["a", "b", "c"])
    assert all(0 not in S for S in found[2])  # record 3 is missing on a: no MSU contains a
    score, _ = brute.suda_scores(df, ["a", "b", "c"])
    assert_allclose(r.score, score)


def test_dummies_truncation_and_modes():
    df = pd.DataFrame({"a": [1.2, 1.7, 2.0, 2.0], "b": [1, 1, 2, 3]})
    with pytest.warns(SdcWarning, match="truncates them to integers"):
        s = sdc.suda(df, ["a", "b"])
    assert s.n_variables == 3  # one dummy, as sdcMicro adds for two keys
    c = sdc.suda(df, ["a", "b"], mode="correct")
    assert c.n_variables == 2
    # b = 1, 1, 2, 3 makes records 3 and 4 unique on b in both modes; sdcmicro mode merges
    # a = 1.2 and 1.7 (both 1), so records 1 and 2 are unique on a only in correct mode
    assert s.msu_counts["msu_1"].tolist() == [0, 0, 1, 1] and c.msu_counts["msu_1"].tolist() == [1, 1, 1, 1]


def test_dis_without_uniques_is_nan_in_sdcmicro_mode_only():
    # Every full pattern occurs twice except... none: U = 0 with positive scores is impossible
    # on the full pattern, but sdcMicro's hash-bucket U can be 0 while scores are positive.
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.integers(0, 3, 40), "b": rng.integers(0, 3, 40), "c": rng.integers(0, 3, 40)})
    c = sdc.suda(df, ["a", "b", "c"], mode="correct")
    assert np.isfinite(c.dis_score).all()


def test_dis_table_and_summary():
    r = sdc.suda(BOOK, list(BOOK.columns))
    t = r.dis_table()
    assert t["interval"].tolist()[0] == "== 0" and t["n_records"].sum() == 8 and t["n_records"].iloc[0] == 4
    assert (r.score_sum, r.score_max, r.n_records_with_msu) == (20, 8, 4)
    assert list(r.to_frame().columns)[-2:] == ["suda_score", "dis_suda_score"]


def test_max_size_limits_the_search():
    r = sdc.suda(BOOK, list(BOOK.columns), max_size=1, mode="correct")
    assert list(r.msu_counts.columns) == ["msu_1"]
    with pytest.raises(ValueError, match="`max_size` must be an integer <= 4"):
        sdc.suda(BOOK, list(BOOK.columns), max_size=5)


@st.composite
def suda_frames(draw):
    n = draw(st.integers(2, 14))
    k = draw(st.integers(3, 4))
    cols = {}
    for j in range(k):
        vals = draw(st.lists(st.sampled_from([1, 2, 3, None]), min_size=n, max_size=n))
        if all(v is None for v in vals):
            vals[0] = 1
        cols[f"v{j}"] = pd.Series(vals, dtype="float64")
    return pd.DataFrame(cols)


@settings(max_examples=150, deadline=None)
@given(suda_frames(), st.booleans())
def test_scores_and_contributions_match_the_msu_definition(df, original):
    keys = list(df.columns)
    r = sdc.suda(df, keys, mode="correct", original_scores=original)
    score, share = brute.suda_scores(df, keys, original)
    assert_allclose(r.score.to_numpy(), score, rtol=1e-12)
    assert_allclose(r.contributions.to_numpy(), share, rtol=1e-12, atol=1e-15)
    counts = [[len([S for S in f if len(S) == s]) for s in range(1, len(keys) + 1)] for f in brute.msus(df, keys)]
    assert r.msu_counts.to_numpy().tolist() == counts


@settings(max_examples=60, deadline=None)
@given(suda_frames(), st.randoms(use_true_random=False))
def test_invariant_to_row_order(df, rnd):
    keys = list(df.columns)
    r = sdc.suda(df, keys)
    perm = list(range(len(df)))
    rnd.shuffle(perm)
    p = sdc.suda(df.iloc[perm], keys)
    assert_allclose(p.score.loc[df.index], r.score)
    assert_allclose(p.dis_score.loc[df.index], r.dis_score, rtol=1e-5)  # the hash-bucket U depends on the data only


def test_errors():
    with pytest.raises(ValueError, match="`mode` must be one of 'sdcmicro', 'correct'"):
        sdc.suda(BOOK, ["age"], mode="x")
    with pytest.raises(ValueError, match=r"`dis_fraction` must lie in \[0, 1\)"):
        sdc.suda(BOOK, ["age"], dis_fraction=1)
    with pytest.raises(TypeError, match="`original_scores` must be True or False"):
        sdc.suda(BOOK, ["age"], original_scores="yes")
