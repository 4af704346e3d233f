"""Issue 11, the measures: exact boundaries, clear messages instead of silent passes or
tracebacks, per-variable thresholds, bounded snapshots, and the notebook API.

Each test names the item of issue 11 it pins; each failed on the tree before the fix.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from sdc._stats import summary_values
import sdc
from sdc.exceptions import SdcWarning


# ---- item 1: entropy l-diversity at its exact boundaries ---------------------------------------

@pytest.mark.parametrize(("counts", "l"), [
    ([4, 2, 1, 1, 1, 1], 5),  # exp(H) = 5 exactly: p = .4, .2, .1 x 4
    *[([1] * m, m) for m in (3, 6, 7, 8, 10, 14)],  # m equally frequent values: exp(H) = m
    ([2, 2, 2], 3), ([5, 5], 2),
])
@pytest.mark.parametrize("mode", ["correct", "sdcmicro"])
def test_entropy_l_diversity_on_the_boundary_is_not_below(counts: list[int], l: int, mode: str) -> None:
    values = [f"v{i}" for i, n in enumerate(counts) for _ in range(n)]
    df = pd.DataFrame({"k": 1, "s": values})
    r = sdc.l_diversity(df, ["k"], "s", l=l, mode=mode)
    assert r.classes["s_entropy"].iloc[0] == pytest.approx(l, rel=1e-12)
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == 0
    assert r.classes_below("s", "entropy").empty
    # one step above the boundary is below: l + 1 is not reached
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)  # l + 1 may exceed the number of values (tested below)
        r = sdc.l_diversity(df, ["k"], "s", l=l + 1, mode=mode)
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == len(df)


def test_entropy_just_below_l_is_below() -> None:
    # counts [3, 1, 1]: exp(H) = 3.80...; l = 4 is not reached
    df = pd.DataFrame({"k": 1, "s": list("aaabc")})
    with pytest.warns(SdcWarning, match="takes only 3 distinct"):
        r = sdc.l_diversity(df, ["k"], "s", l=4)
    assert r.classes["s_entropy"].iloc[0] == pytest.approx(math.exp(-(0.6 * math.log(0.6) + 0.4 * math.log(0.2))))
    assert r.by_sensitive["n_records_entropy_below_l"].iloc[0] == 5


# ---- item 5: l-diversity without silent passes ----------------------------------------------------

def test_l_diversity_of_an_all_missing_sensitive_variable_is_not_a_silent_pass() -> None:
    df = pd.DataFrame({"k": [1, 1, 2, 2], "s": [np.nan] * 4, "t": list("abab")})
    with pytest.warns(SdcWarning, match="sensitive variable 's' is missing in every record: .*nothing was assessed"):
        r = sdc.l_diversity(df, ["k"], "s")
    assert r.by_sensitive["n_records_unobserved"].iloc[0] == 4
    # the assessment refuses it: a verdict "pass" would be a silent pass
    with pytest.raises(ValueError, match="sensitive variable 's' is missing in every record"):
        sdc.assess(df, keys=["k"], sensitive=["s"], measures=["k_anonymity", "risk", "ldiversity"])


def test_l_above_the_number_of_values_warns() -> None:
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 2], "s": list("abcabc")})
    with pytest.warns(SdcWarning, match=r"l = 4 but 's' takes only 3 distinct value\(s\) in the whole file"):
        r = sdc.l_diversity(df, ["k"], "s", l=4)
    assert r.by_sensitive["n_records_below_l"].iloc[0] == 6 and r.by_sensitive["n_values"].iloc[0] == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", SdcWarning)
        sdc.l_diversity(df, ["k"], "s", l=3)  # reachable: no warning


# ---- item 6: a threshold per sensitive variable ---------------------------------------------------

def test_l_per_sensitive_variable() -> None:
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 2], "a": list("abcaab"), "b": list("xyzxyz")})
    r = sdc.l_diversity(df, ["k"], ["a", "b"], l={"a": 3, "b": 2})
    rows = r.by_sensitive.set_index("sensitive")
    assert rows.loc["a", "l"] == 3 and rows.loc["a", "n_records_below_l"] == 3  # class 2 has a, a, b
    assert rows.loc["b", "l"] == 2 and rows.loc["b", "n_records_below_l"] == 0
    assert r.l_of("a") == 3 and len(r.classes_below("a")) == 1
    with pytest.raises(ValueError, match="missing: 'b'"):
        sdc.l_diversity(df, ["k"], ["a", "b"], l={"a": 3})


def _records(n: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "age": rng.integers(20, 80, n), "sex": rng.choice(["f", "m"], n), "region": rng.choice(list("abc"), n),
        "diag": rng.choice(["flu", "cold", "hiv"], n), "chol": np.round(rng.uniform(3, 9, n), 2),
        "w": rng.uniform(1, 50, n),
    })


def test_assess_thresholds_per_sensitive_variable() -> None:
    # item 6: chol gets a Wasserstein t in mmol/l, diag an equal-distance t in [0, 1] and its own l
    df = _records()
    a = sdc.assess(df, keys=["sex", "region"], sensitive=["diag", "chol"],
                   sensitive_thresholds={"chol": {"t": 0.8, "distance": "wasserstein"}, "diag": {"t": 0.3, "l": 3}},
                   measures=["k_anonymity", "risk", "ldiversity", "tcloseness"])
    tc = a.primary.tcloseness
    assert (tc["chol"].distance, tc["chol"].t) == ("wasserstein", 0.8)
    assert (tc["diag"].distance, tc["diag"].t) == ("equal", 0.3)
    ld = a.primary.ldiversity.by_sensitive.set_index("sensitive")
    assert ld.loc["diag", "l"] == 3 and ld.loc["chol", "l"] == 2
    measures = {v.measure for v in a.verdicts}
    assert {"3-diversity (diag)", "2-diversity (chol)", "t-closeness (chol, wasserstein)",
            "t-closeness (diag, equal)"} <= measures
    # the same with keyword arguments per variable
    b = sdc.assess(df, keys=["sex", "region"], sensitive=["diag", "chol"], t={"diag": 0.3, "chol": 0.8}, l={"diag": 3},
                   distance="wasserstein", measures=["k_anonymity", "risk", "ldiversity", "tcloseness"])
    assert b.to_frame().equals(a.to_frame())


def test_a_t_the_distance_can_never_exceed_is_refused() -> None:
    # item 6: a Wasserstein-sized t of 30 on a variable measured with the equal distance always passes
    df = _records()
    with pytest.raises(ValueError, match=r"t = 30 for 'diag' can never fail: 'diag' is measured with the equal "
                                         r"distance, which lies in \[0, 1\]"):
        sdc.assess(df, keys=["sex"], sensitive=["diag", "chol"], t=30, distance="wasserstein",
                   measures=["k_anonymity", "risk", "tcloseness"])
    with pytest.raises(sdc.ConfigError, match=r"\[thresholds\]\.t: t = 1 for 'diag' can never fail") as info:
        sdc.assess(df, keys=["sex"], sensitive=["diag"], t=1.0)
    # Before the data are read the variable's type is unknown: Wasserstein is offered for a
    # numeric one only (it was offered for text, as "a bound in 'diag''s units").
    assert "the ordered and equal distances lie in [0, 1]" in str(info.value)
    assert "if 'diag' is numeric, distance = \"wasserstein\"" in str(info.value) and "''s" not in str(info.value)


def test_inference_honours_the_sensitive_bins() -> None:
    # item 5: banded chol is revealed by (age band, sex) although every raw value differs
    rng = np.random.default_rng(1)
    n = 60
    age = rng.choice(["20s", "30s", "40s"], n)
    sex = rng.choice(["f", "m"], n)
    band_low = {"20s": 4.0, "30s": 5.0, "40s": 6.0}
    chol = np.array([band_low[x] for x in age]) + rng.uniform(0.01, 0.99, n)  # chol's band is age's
    df = pd.DataFrame({"age": age, "sex": sex, "chol": chol, "other": rng.choice(list("xyz"), n)})
    a = sdc.assess(df, keys=["sex"], sensitive=["chol"], sensitive_bins={"chol": [0, 4, 5, 6, 7, 10]},
                   measures=["k_anonymity", "risk", "inference"])
    inf = a.inference["chol"]
    assert ("age",) in set(inf.deterministic["variables"])
    v = next(x for x in a.verdicts if x.measure == "inference (chol)")
    assert v.value >= 1 and v.verdict == "fail"
    raw = sdc.inference_risk(df, "chol")
    assert raw.deterministic.empty  # raw values: each record unique, nothing revealed
    banded = sdc.inference_risk(df, "chol", bins={"chol": [0, 4, 5, 6, 7, 10]})
    assert ("age",) in set(banded.deterministic["variables"])


def test_assess_notes_l_above_the_number_of_values() -> None:
    df = _records()
    a = sdc.assess(df, keys=["sex"], sensitive=["diag"], l=4, measures=["k_anonymity", "risk", "ldiversity"])
    assert any("l = 4 but 'diag' takes only 3 distinct value(s)" in n for n in a.notes)


# ---- item 7: snapshots over many keys ----------------------------------------------------------------

def test_snapshots_refuse_too_many_subsets_with_a_clear_message() -> None:
    df = pd.DataFrame({f"k{i}": np.arange(20) % (i + 2) for i in range(30)})
    with pytest.raises(ValueError, match=r"every subset of 30 keys would be 1,073,741,823 subsets, more than "
                                         r"the limit of 100,000 \(`max_subsets`\); give `max_size` \(e\.g\. 4\)"):
        sdc.key_subset_snapshots(df, list(df.columns))
    r = sdc.key_subset_snapshots(df, list(df.columns), max_size=2)
    assert len(r.table) == 30 + 435
    assert r.table["n_keys"].max() == 2


def test_snapshots_are_generated_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    import sdc.risk.snapshots as snap

    seen = []
    real = snap._snapshot_row

    def row(pf, keys, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(len(keys))
        return real(pf, keys, *args, **kwargs)

    monkeypatch.setattr(snap, "_snapshot_row", row)
    df = pd.DataFrame({f"k{i}": np.arange(12) % (i + 2) for i in range(6)})
    res = sdc.key_subset_snapshots(df, list(df.columns), max_size=3)
    assert seen == sorted(seen) and len(seen) == 6 + 15 + 20 == len(res.table)


def test_standard_subsets_for_many_keys() -> None:
    from sdc.risk.snapshots import standard_subsets

    subs, why = standard_subsets([f"k{i}" for i in range(30)])
    assert len(subs) == 30 + 435 + 30 + 1 and len(subs) <= 1023
    assert "of the 1,073,741,823 subsets of the 30 keys" in why and "each key left out" in why
    assert len(set(subs)) == len(subs)
    subs, why = standard_subsets(list("abcd"))
    assert len(subs) == 15 and why == "every non-empty subset of the 4 keys"


def test_assess_with_many_keys_runs_bounded_snapshots() -> None:
    # 30 keys x 200 records: the default assessment used to build 2^30 - 1 subsets
    rng = np.random.default_rng(3)
    df = pd.DataFrame({f"k{i}": rng.integers(0, 3, 200) for i in range(30)})
    a = sdc.assess(df, keys=list(df.columns), measures=["k_anonymity", "risk", "snapshots"])
    assert len(a.primary.snapshots.table) == 496


# ---- item 10: clear errors instead of tracebacks ----------------------------------------------------

def test_modrisk_on_an_all_missing_key_names_it() -> None:
    df = pd.DataFrame({"a": [1, 2, 1, 2], "b": [np.nan] * 4})
    with pytest.raises(ValueError, match="key variable 'b' is missing in every record"):
        sdc.model_risk(df, ["a", "b"])


def test_jackknife_on_small_data_uses_fewer_groups() -> None:
    df = _records(12)
    a = sdc.assess(df, keys=["sex", "region"], weights="w", measures=["k_anonymity", "risk"])
    iv = a.primary.intervals["expected_reidentifications"]
    assert "G = 12" in iv.method
    assert any("uses 12 jackknife groups (the data hold only 12 records)" in n for n in a.notes)
    one = sdc.assess(df.head(1), keys=["sex"], weights="w", measures=["k_anonymity", "risk"])
    assert "expected_reidentifications" not in one.primary.intervals
    assert any("No sampling interval" in n for n in one.notes)


# ---- item 18: the notebook API ------------------------------------------------------------------------

def test_assess_takes_the_data_first_and_a_dict_or_keywords() -> None:
    df = _records()
    cfg = {"variables": {"categorical_keys": ["sex", "region"], "sensitive": ["diag"]},
           "thresholds": {"k": 4}, "options": {"measures": ["k_anonymity", "risk", "ldiversity"]}}
    a = sdc.assess(df, cfg)
    b = sdc.assess(df, keys=["sex", "region"], sensitive=["diag"], k=4, measures=["k_anonymity", "risk", "ldiversity"])
    c = sdc.assess(df, {"keys": ["sex", "region"], "sensitive": ["diag"], "k": 4},
                   measures=["k_anonymity", "risk", "ldiversity"])
    d = sdc.assess(sdc.workflow.config.from_mapping(cfg, data_given=True), df)  # the earlier order still works
    for x in (b, c, d):
        pd.testing.assert_frame_equal(x.to_frame(), a.to_frame())
    assert a.config.thresholds.k == 4 and a.config.source == "arguments"
    with pytest.raises(sdc.ConfigError, match=r"option 'kk' is not known \(did you mean 'k'\?\)"):
        sdc.assess(df, keys=["sex"], kk=3)
    with pytest.raises(TypeError, match="takes the data"):
        sdc.assess(42)


def test_assessment_to_frame_and_summary() -> None:
    a = sdc.assess(_records(), keys=["sex", "region"], measures=["k_anonymity", "risk"], k=30)
    f = a.to_frame()
    assert f.columns.tolist() == ["scenario", "measure", "statistic", "value", "threshold", "verdict", "share",
                                   "unit"]
    assert f["measure"].tolist() == ["30-anonymity", "individual risk", "global risk"]
    s = summary_values(a.summary())
    assert s["records"] == 40 and s["all keys: fail"] == int((f["verdict"] == "fail").sum())
    assert isinstance(s["all keys: records_below_k"], int)


def test_weights_as_a_series() -> None:
    df = _records()
    w = df.pop("w") * 2
    by_name = sdc.individual_risk(df.assign(w=w), ["sex", "region"], weights="w")
    by_series = sdc.individual_risk(df, ["sex", "region"], weights=w)
    np.testing.assert_allclose(by_series.risk, by_name.risk)
    a = sdc.assess(df, keys=["sex", "region"], weights=w.rename("design"), measures=["k_anonymity", "risk"])
    assert a.config.weights == "design" and a.primary.risk.weights == "design"
    assert "design" not in df.columns  # the caller's frame is untouched
    with pytest.raises(ValueError, match="`weights` as a Series must have the data's index"):
        sdc.k_anonymity(df, ["sex"], weights=w.iloc[:-1])


@pytest.mark.parametrize("fn, kw", [
    (sdc.frequencies, {}), (sdc.k_anonymity, {}), (sdc.individual_risk, {}),
    (sdc.key_subset_snapshots, {}), (sdc.suda, {}), (sdc.attacker_risk, {}),
    (sdc.population_uniqueness, {"population_size": 1000}), (sdc.model_risk, {"weights": "w"}),
    (sdc.l_diversity, {"sensitive": "diag"}), (sdc.t_closeness, {"sensitive": "diag", "distance": "equal"}),
])
def test_key_bins_in_every_measure(fn, kw) -> None:
    df = _records(60)
    banded = df.assign(age=pd.cut(df["age"], [0, 40, 60, 100], right=False).astype(str))
    got = fn(df, ["age", "sex"], key_bins={"age": [0, 40, 60, 100]}, **kw)
    want = fn(banded, ["age", "sex"], **kw)
    g, w = got.to_frame(), want.to_frame()
    pd.testing.assert_frame_equal(g.reset_index(drop=True).select_dtypes("number"),
                                  w.reset_index(drop=True).select_dtypes("number"), check_names=False)


def test_key_bins_width_and_household_jackknife() -> None:
    df = _records(60).assign(hh=np.arange(60) // 2)
    a = sdc.household_risk(df, ["age", "sex"], "hh", key_bins={"age": {"width": 20}})
    b = sdc.household_risk(df.assign(age=(df["age"] // 20) * 20), ["age", "sex"], "hh")
    np.testing.assert_allclose(a.risk, b.risk)
    iv = sdc.jackknife_interval(df, ["age", "sex"], weights="w", key_bins={"age": {"width": 20}}, groups=5)
    jv = sdc.jackknife_interval(df.assign(age=(df["age"] // 20) * 20), ["age", "sex"], weights="w", groups=5)
    assert iv.estimate == pytest.approx(jv.estimate) and iv.standard_error == pytest.approx(jv.standard_error)


def test_no_negative_zero() -> None:
    df = pd.DataFrame({"z": list("aabb"), "s": ["x"] * 4})  # one sensitive value: entropy 0
    inf = sdc.inference_risk(df, "s")
    assert math.copysign(1.0, inf.entropy) == 1.0
    assert all(math.copysign(1.0, v) == 1.0 for v in inf.findings["conditional_entropy"])
    summary = sdc.k_anonymity(df, ["z"]).summary()
    assert all(not (isinstance(v, float) and v == 0 and math.copysign(1, v) < 0) for v in summary["value"])


def test_counts_in_summaries_are_integers() -> None:
    s = sdc.k_anonymity(_records(), ["sex", "region"], k=3).summary().set_index("statistic")["value"]
    assert isinstance(s["n_records"], int) and isinstance(s["n_k_lt_threshold"], int)
    assert isinstance(s["pct_unique"], float)


def test_results_show_as_html_in_a_notebook() -> None:
    df = _records().assign(region=lambda d: d["region"].replace({"a": "<b>a</b>"}))
    html = sdc.k_anonymity(df, ["sex", "region"], k=3)._repr_html_()
    assert "<b>KAnonymityResult</b>" in html and "records assessed" in html and '<td class="n">40</td>' in html
    a = sdc.assess(df, keys=["sex", "region"], measures=["k_anonymity", "risk"], k=5)
    page = a._repr_html_()
    assert "<b>Assessment</b>: 40 records, 1 scenario(s)" in page and '<td class="fail">fail</td>' in page
    assert "<b>a</b>" not in sdc.frequencies(df, ["region"])._repr_html_()  # data never become markup
    for cls in (sdc.IndividualRiskResult, sdc.LDiversityResult, sdc.TClosenessResult, sdc.SnapshotResult,
                sdc.SudaResult, sdc.Interval, sdc.Assessment):
        assert callable(getattr(cls, "_repr_html_", None)), cls
