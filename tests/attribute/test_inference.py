"""Inference of a sensitive variable from released ones; class homogeneity."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from tests import scale


@pytest.fixture
def trial():
    # a clinical-trial file: the arm determines the treatment flag exactly
    return pd.DataFrame({
        "arm": ["A", "A", "A", "B", "B", "B", "C", "C"],
        "treated": [1, 1, 1, 0, 0, 0, 1, 1],
        "sex": ["f", "m", "f", "m", "f", "m", "f", "m"],
        "site": [1, 1, 2, 2, 1, 1, 2, 2],
        "id": range(8),
    })


def test_deterministic_variable_is_flagged_first(trial):
    r = sdc.inference_risk(trial, "treated", max_levels=5)
    top = r.findings.iloc[0]
    assert top.variables == ("arm",) and top.deterministic
    assert (top.max_posterior, top.conditional_entropy, top.pct_records_revealed) == (1.0, 0.0, 100.0)
    assert top.uncertainty_coefficient == pytest.approx(1.0)
    assert r.skipped == ("id",)  # 8 levels > max_levels: identifier-like
    # pairs containing arm are redundant and not reported
    assert not any("arm" in v and len(v) == 2 for v in r.findings["variables"])
    assert list(r.deterministic["variables"]) == [("arm",)]


def test_measures_by_hand(trial):
    r = sdc.inference_risk(trial, "treated", candidates=["sex"], pairs=False, min_posterior=0.7)
    f = r.findings.iloc[0]
    # sex f: treated 1,1,0,1 (3/4); m: 1,0,0,1 (1/2)
    h = -(4 / 8) * (0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)) + (4 / 8) * 1.0  # H(S|f) and H(S|m) = 1 bit
    assert f.conditional_entropy == pytest.approx(h)
    assert f.max_posterior == 0.75 and not f.deterministic
    assert f.n_records_revealed == 3  # the three treated women (posterior 3/4 >= 0.7)
    q = 5 / 8
    hs = -(q * math.log2(q) + (1 - q) * math.log2(1 - q))
    assert r.entropy == pytest.approx(hs) and f.uncertainty_coefficient == pytest.approx((hs - h) / hs)


def test_levels_below_min_count_are_ignored():
    df = pd.DataFrame({"z": ["a", "a", "b", "c"], "s": [1, 1, 0, 1]})
    r = sdc.inference_risk(df, "s", pairs=False)
    f = r.findings.iloc[0]
    assert f.n_levels == 1 and f.deterministic and f.n_records_revealed == 2
    assert sdc.inference_risk(df, "s", pairs=False, min_count=1).findings.iloc[0].n_levels == 3


def test_missing_sensitive_values_are_left_out_and_missing_z_is_a_level():
    df = pd.DataFrame({"z": ["a", "a", None, None, "b"], "s": [1, 1, 0, 0, np.nan]})
    r = sdc.inference_risk(df, "s", pairs=False)
    assert r.n_records == 4 and r.findings.iloc[0].deterministic


def test_errors(trial):
    with pytest.raises(ValueError, match="may not include the sensitive variable"):
        sdc.inference_risk(trial, "treated", candidates=["arm", "treated"])
    with pytest.raises(ValueError, match=r"`min_posterior` must lie in \(0, 1\]"):
        sdc.inference_risk(trial, "treated", min_posterior=0)
    with pytest.raises(ValueError, match="did you mean 'arm'"):
        sdc.inference_risk(trial, "treated", candidates=["arn"])


@settings(max_examples=scale.examples(80))
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=40))
def test_conditional_entropy_matches_definition(pairs):
    df = pd.DataFrame(pairs, columns=["z", "s"])
    r = sdc.inference_risk(df, "s", pairs=False, min_count=1)
    f = r.findings.iloc[0]
    n = len(df)
    h = 0.0
    for _, g in df.groupby("z"):
        for _, cnt in g["s"].value_counts().items():
            h -= cnt / n * math.log2(cnt / len(g))
    assert f.conditional_entropy == pytest.approx(h, abs=1e-12)
    assert f.deterministic == (df.groupby("z")["s"].nunique() == 1).all()
    assert 0 <= f.conditional_entropy <= r.entropy + 1e-12


def test_homogeneity_lift():
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 2, 2, 2], "dx": ["hiv", "hiv", "hiv", "flu", "flu", "hiv", "cold", "flu"]})
    h = sdc.homogeneity(df, ["k"], "dx")
    top = h.classes.iloc[0]
    assert (top.k, top.dominant, top.share) == (1, "hiv", 1.0)
    assert top.lift == pytest.approx(1.0 / (4 / 8))
    assert h.homogeneous()["k"].tolist() == [1]
    second = h.classes.iloc[1]
    assert (second.dominant, second.share) == ("flu", 0.6) and second.lift == pytest.approx(0.6 / (3 / 8))


def test_progress_counts_the_pairs_and_changes_nothing() -> None:
    # The pairs are the long part on a large file: sdc app shows their count (docs/app.md, 10^6).
    from sdc._stages import listening

    df = sdc.load_example()
    heard: list[tuple[str, int | None, int | None]] = []
    with listening(lambda message, done, total: heard.append((message, done, total))):
        shown = sdc.inference_risk(df, "diagnosis", progress=True)
    n = len([c for c in df.columns if c != "diagnosis" and df[c].nunique(dropna=False) <= 100])
    pairs = n * (n - 1) // 2  # every pair is counted, also those skipped for a deterministic single
    assert heard[0] == ("inference of diagnosis (pairs of variables)", 0, pairs) and heard[-1][1:] == (pairs, pairs)
    pd.testing.assert_frame_equal(shown.findings, sdc.inference_risk(df, "diagnosis").findings)
