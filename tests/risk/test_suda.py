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
from tests import brute, scale

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


@settings(max_examples=scale.examples(150), deadline=None)
@given(suda_frames(), st.booleans())
def test_scores_and_contributions_match_the_msu_definition(df, original):
    keys = list(df.columns)
    r = sdc.suda(df, keys, mode="correct", original_scores=original)
    score, share = brute.suda_scores(df, keys, original)
    assert_allclose(r.score.to_numpy(), score, rtol=1e-12)
    assert_allclose(r.contributions.to_numpy(), share, rtol=1e-12, atol=1e-15)
    counts = [[len([S for S in f if len(S) == s]) for s in range(1, len(keys) + 1)] for f in brute.msus(df, keys)]
    assert r.msu_counts.to_numpy().tolist() == counts


@settings(max_examples=scale.examples(60), deadline=None)
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


# --- bounded search (issue 27 item 10) ---------------------------------------------------------

def _three_valued(n_keys: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({f"k{i}": rng.integers(1, 4, n) for i in range(n_keys)})


def test_many_keys_are_refused_at_once_in_one_line():
    """60 keys of 3 values over 5,000 records: the MSUs cannot be listed (numpy's
    _ArrayMemoryError under 8 GB before); the estimate refuses before any work."""
    import time

    from sdc.exceptions import SearchTooLargeError

    df = _three_valued(60, 5000)
    t0 = time.perf_counter()
    with pytest.raises(SearchTooLargeError) as info:
        sdc.suda(df, list(df.columns))
    assert time.perf_counter() - t0 < 60  # a bound for a loaded machine: it takes about a second
    msg = str(info.value)
    assert "\n" not in msg and "over 60 keys" in msg and "nothing was searched" in msg
    assert f"`max_size` {info.value.searched}" in msg and info.value.searched >= 3
    # the suggestion fits: MSUs of up to that many keys are computed
    r = sdc.suda(df, list(df.columns), max_size=info.value.searched)
    assert r.max_size == info.value.searched  # (no record is unique on 3 keys of 3 values: 27 patterns)


def test_the_estimate_is_skipped_exactly_when_no_estimate_could_refuse(monkeypatch):
    """The hopeless-search estimate runs only when every subset counting every record (sum over
    sizes of C(K, s) (n + SUBSET_COST)) could pass 1.5 x max_work; at that ceiling it is skipped."""
    import sdc.core.msu as msu

    calls = []
    real = msu.estimate_work
    monkeypatch.setattr(msu, "estimate_work", lambda *a: calls.append(1) or real(*a))
    df = _three_valued(4, 50)
    cols = [df[c].to_numpy() - 1 for c in df.columns]
    ceiling = (4 + 6 + 4 + 1) * (50 + msu.SUBSET_COST)  # 15 subsets of 4 keys
    codes = [np.asarray(c, dtype=np.int64) for c in cols]
    assert ceiling == 30_750 and msu._HOPELESS == 1.5
    for max_work, estimated in ((20_500, False), (20_499, True)):  # 1.5 x 20,500 = the ceiling exactly
        calls.clear()
        msu._refuse_hopeless(codes, [3] * 4, 4, max_work)  # neither refuses (3 values, 50 records)
        assert bool(calls) is estimated


def test_the_work_limit_stops_before_a_size_and_keeps_the_sizes_before():
    from sdc.core.msu import SUBSET_COST, SearchLimits, estimate_work, minimal_uniques
    from sdc.exceptions import SearchTooLargeError

    df = _three_valued(5, 60)
    cols = [df[c].to_numpy() - 1 for c in df.columns]
    full = list(minimal_uniques(cols, [3] * 5, 5, limits=SearchLimits(max_work=None)))
    per_size = estimate_work(cols, [3] * 5, 5, float("inf"))  # exact: C(5, s) <= 16 subsets are all counted
    assert len(per_size) >= 3 and all(w >= SUBSET_COST for w in per_size)
    # a limit between the work of two sizes: the first sizes are yielded, then the refusal
    limit = int(sum(per_size[:2]))
    got = []
    with pytest.raises(SearchTooLargeError) as info:
        for S, rows in minimal_uniques(cols, [3] * 5, 5, limits=SearchLimits(max_work=limit)):
            got.append((S, rows.tolist()))
    assert info.value.searched == 2 and info.value.size == 3 and "subsets of 3 keys" in str(info.value)
    assert got == [(S, rows.tolist()) for S, rows in full if len(S) <= 2]
    # exactly at the limit it passes
    n_msus = len(list(minimal_uniques(cols, [3] * 5, 5, limits=SearchLimits(max_work=int(sum(per_size))))))
    assert n_msus == len(full)


def test_the_memory_limit_bounds_a_level_of_record_sets():
    from sdc.core.msu import SearchLimits, minimal_uniques
    from sdc.exceptions import SearchTooLargeError

    df = _three_valued(8, 4000)
    cols = [df[c].to_numpy() - 1 for c in df.columns]
    nb = (4000 + 7) // 8
    with pytest.raises(SearchTooLargeError, match="memory limit") as info:
        # 8 singletons fit; the 28 pairs' sets (28 x 500 bytes) do not
        list(minimal_uniques(cols, [3] * 8, 8, limits=SearchLimits(max_work=None, max_bytes=10 * nb)))
    assert info.value.searched == 1 and info.value.size == 2


def test_many_key_search_matches_the_definition_beyond_64_keys():
    """Subsets are bit masks of several 64-bit words from 65 keys on."""
    from sdc.core.msu import minimal_uniques
    from tests.core.test_fast_paths import _brute_msus

    rng = np.random.default_rng(7)
    cols = [rng.integers(-1, 4, 12) for _ in range(70)]
    cards = [int(max(c.max(), 0)) + 1 for c in cols]
    got = {S: rows.tolist() for S, rows in minimal_uniques(cols, cards, 2)}
    assert got == _brute_msus(cols, 2) and any(len(S) == 2 and S[1] >= 64 for S in got)


def test_assess_with_60_keys_writes_its_report_under_8_gb(tmp_path):
    """`sdc assess` with 60 keys of 3 values on 5,000 records under `ulimit -v 8000000`: the
    report is written, SUDA2 listed as not computed with the reason (a MemoryError and no
    report before)."""
    import json
    import resource
    import subprocess
    import sys

    df = _three_valued(60, 5000)
    data = tmp_path / "wide.csv"
    df.to_csv(data, index=False)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (8_000_000 * 1024, 8_000_000 * 1024))

    out = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "sdc", "assess", str(data), "--keys", ",".join(df.columns),
                           "--out", str(out)], capture_output=True, text=True, preexec_fn=limit, timeout=600)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    text = json.dumps(doc)
    assert "SUDA2" in text and "minimal sample uniques over 60 keys" in text
    assert "SUDA2 (the search of minimal sample uniques over 60 keys" in proc.stdout
    assert (out / "report.html").is_file()
