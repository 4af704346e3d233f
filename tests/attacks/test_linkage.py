"""Record-linkage attack: hand-made files with known matches, brute force on small random files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc._stats import summary_values
import sdc
from sdc.attacks.linkage import TARGET_COLUMN, draw_external, linkage_attack, simulate_linkage_attack
from sdc.core.matching import encode_joint, match_counts, records_agree
from tests import scale


# ---------------------------------------------------------------- hand-made
@pytest.fixture
def voter_medical():
    """Six released records, four voters; the truth is the person id."""
    released = pd.DataFrame({
        "zip": ["02138", "02138", "02139", "02139", "02140", None],
        "birth": [1945, 1945, 1960, 1960, 1971, 1980],
        "sex": ["f", "f", "m", "f", "m", "f"],
        "dx": ["a", "b", "c", "d", "e", "f"],
    }, index=pd.Index([101, 102, 103, 104, 105, 106], name="pid"))
    voters = pd.DataFrame({
        "name": ["Ann", "Bob", "Cat", "Dan"],
        "zip": ["02138", "02139", "02140", "02141"],
        "birth": [1945, 1960, 1971, 1980],
        "sex": ["f", "m", "m", "f"],
        "pid": [101, 103, 105, 106],
    })
    return released, voters


def test_hand_made_voter_roll(voter_medical):
    released, voters = voter_medical
    r = linkage_attack(released, voters, ["zip", "birth", "sex"], truth="pid")
    rec = r.records
    # Ann matches 101 and 102 (same zip, birth, sex); Bob only 103; Cat 105 and nothing else;
    # Dan (zip 02141) matches the record whose zip was suppressed (wildcard).
    assert rec["match_size"].tolist() == [2, 1, 1, 1]
    assert rec["matched_id"].tolist() == [None, 103, 105, 106]
    assert rec["correct"].tolist() == [True, True, True, True]
    assert rec["p_correct"].tolist() == [0.5, 1.0, 1.0, 1.0]
    assert r.n_unique == 3 and r.n_unique_correct == 3 and r.n_targets == 4
    assert r.precision_at_1 == pytest.approx(3.5 / 4)
    assert r.recall == pytest.approx(3.5 / 4)
    assert r.unique_precision == 1.0 and r.unique_recall == 0.75
    # Missing as a category: Dan finds nothing.
    r2 = linkage_attack(released, voters, ["zip", "birth", "sex"], truth="pid", missing="category")
    assert r2.records["match_size"].tolist() == [2, 1, 1, 0]
    assert r2.n_matched == 3 and r2.precision_at_1 == pytest.approx(2.5 / 3) and r2.recall == pytest.approx(2.5 / 4)


def test_truth_column_in_both_files_and_absent_targets(voter_medical):
    released, voters = voter_medical
    rel = released.reset_index()  # pid becomes a column of the released file
    ext = voters.copy()
    ext.loc[3, "pid"] = 999  # Dan is not in the release
    r = linkage_attack(rel, ext, ["zip", "birth", "sex"], truth="pid")
    assert r.records["target_released"].tolist() == [True, True, True, False]
    assert r.records["correct"].tolist() == [True, True, True, False]
    assert r.n_targets == 3 and r.recall == pytest.approx(2.5 / 3)
    assert r.precision_at_1 == pytest.approx(2.5 / 4)  # Dan still gets a (wrong) match


def test_wrong_unique_match_counts_against_precision():
    released = pd.DataFrame({"a": [1, 2]}, index=["x", "y"])
    ext = pd.DataFrame({"a": [1], "id": ["y"]})
    r = linkage_attack(released, ext, ["a"], truth="id")
    assert r.records["matched_id"].tolist() == ["x"] and not r.records["correct"].iloc[0]
    assert r.precision_at_1 == 0.0 and r.unique_precision == 0.0


def test_without_truth_only_sizes(voter_medical):
    released, voters = voter_medical
    r = linkage_attack(released, voters, ["zip", "birth", "sex"])
    assert "correct" not in r.records and np.isnan(r.precision_at_1) and r.n_targets is None
    s = summary_values(r.summary())
    assert s["n_unique"] == 3 and s["precision_at_1"] != s["precision_at_1"]  # NaN
    d = r.to_dict()
    assert d["precision_at_1"] is None and d["match_sizes"][1] == {"match_size": "1", "n_records": 3, "share": 0.75}


def test_match_size_table_bands():
    released = pd.DataFrame({"a": [1] * 12 + [2] * 3 + [3]})
    ext = pd.DataFrame({"a": [1, 2, 3, 4], "id": [0, 12, 15, 99]})
    r = linkage_attack(released, ext, "a", truth="id")
    t = r.match_size_table().set_index("match_size")
    assert t.loc["0", "n_records"] == 1 and t.loc["1", "n_records"] == 1
    assert t.loc["3-5", "n_records"] == 1 and t.loc["11-100", "n_records"] == 1
    assert t.loc["11-100", "expected_reidentified"] == pytest.approx(1 / 12)
    assert t["n_records"].sum() == 4


def test_inputs_untouched_and_index_kept(voter_medical):
    released, voters = voter_medical
    before_r, before_v = released.copy(), voters.copy()
    r = linkage_attack(released, voters, ["zip", "birth", "sex"], truth="pid")
    pd.testing.assert_frame_equal(released, before_r)
    pd.testing.assert_frame_equal(voters, before_v)
    assert r.records.index.equals(voters.index)


def test_string_and_number_never_match():
    released = pd.DataFrame({"a": ["1", "2"]})
    ext = pd.DataFrame({"a": [1, 2]})
    assert linkage_attack(released, ext, "a").records["match_size"].tolist() == [0, 0]
    ext_f = pd.DataFrame({"a": [1.0, 2.0]})
    assert linkage_attack(pd.DataFrame({"a": [1, 2]}), ext_f, "a").records["match_size"].tolist() == [1, 1]


def test_categoricals_with_different_categories_compare_by_value():
    released = pd.DataFrame({"a": pd.Categorical(["x", "y"], categories=["y", "x"])})
    ext = pd.DataFrame({"a": pd.Categorical(["x", "z"], categories=["x", "z"])})
    assert linkage_attack(released, ext, "a").records["match_size"].tolist() == [1, 0]


# ---------------------------------------------------------------- brute force (exact)
def _brute_exact(released, external, on, truth, missing):
    rel = released[on].to_numpy(dtype=object)
    ext = external[on].to_numpy(dtype=object)
    ids = list(released.index)
    out = []
    for i in range(len(ext)):
        members = []
        for j in range(len(rel)):
            ok = True
            for a, b in zip(ext[i], rel[j]):
                na, nb = pd.isna(a), pd.isna(b)
                if missing == "wildcard" and (na or nb):
                    continue
                if na and nb:
                    continue
                if na != nb or a != b:
                    ok = False
                    break
            if ok:
                members.append(ids[j])
        t = external[truth].iloc[i]
        out.append((len(members), members[0] if len(members) == 1 else None, t in members))
    return out


def _random_pair(seed, n_rel, n_ext, k, card, p_missing):
    rng = np.random.default_rng(seed)
    rel = pd.DataFrame({f"q{j}": rng.integers(0, card, n_rel).astype(float) for j in range(k)},
                       index=rng.permutation(n_rel) + 1000)
    for j in range(k):
        rel.loc[rng.random(n_rel) < p_missing, f"q{j}"] = np.nan
    src = rng.choice(n_rel, size=n_ext, replace=True)
    ext = rel.iloc[src].reset_index(drop=False).rename(columns={"index": "id"})
    # The attacker's values: mostly right, sometimes changed or unknown.
    for j in range(k):
        flip = rng.random(n_ext) < 0.2
        ext.loc[flip, f"q{j}"] = rng.integers(0, card, int(flip.sum())).astype(float)
        ext.loc[rng.random(n_ext) < p_missing, f"q{j}"] = np.nan
    ext.loc[rng.random(n_ext) < 0.1, "id"] = -1  # not in the release
    return rel, ext


@pytest.mark.parametrize("missing", ["wildcard", "category"])
@pytest.mark.parametrize("seed", range(25))
def test_exact_matches_brute_force(seed, missing):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 4))
    rel, ext = _random_pair(seed, int(rng.integers(1, 40)), int(rng.integers(1, 30)), k, int(rng.integers(1, 4)),
                            float(rng.choice([0.0, 0.15, 0.4])))
    on = [f"q{j}" for j in range(k)]
    r = linkage_attack(rel, ext, on, truth="id", missing=missing)
    brute = _brute_exact(rel, ext, on, "id", missing)
    assert r.records["match_size"].tolist() == [b[0] for b in brute]
    assert r.records["matched_id"].tolist() == [b[1] for b in brute]
    assert r.records["correct"].tolist() == [b[2] for b in brute]
    p = np.array([(1 / b[0]) if b[2] else 0.0 for b in brute])
    assert r.expected_reidentified == pytest.approx(p.sum())


@settings(max_examples=scale.examples(60), deadline=None)
@given(st.data())
def test_exact_matches_hypothesis(data):
    k = data.draw(st.integers(1, 3))
    vals = st.one_of(st.none(), st.sampled_from(["a", "b", "c"]))
    n_rel = data.draw(st.integers(1, 12))
    n_ext = data.draw(st.integers(1, 8))
    rel = pd.DataFrame({f"q{j}": data.draw(st.lists(vals, min_size=n_rel, max_size=n_rel)) for j in range(k)})
    ext = pd.DataFrame({f"q{j}": data.draw(st.lists(vals, min_size=n_ext, max_size=n_ext)) for j in range(k)})
    ext["id"] = data.draw(st.lists(st.integers(-1, n_rel - 1), min_size=n_ext, max_size=n_ext))
    on = [f"q{j}" for j in range(k)]
    for missing in ("wildcard", "category"):
        r = linkage_attack(rel, ext, on, truth="id", missing=missing)
        brute = _brute_exact(rel, ext, on, "id", missing)
        assert r.records["match_size"].tolist() == [b[0] for b in brute]
        assert r.records["correct"].tolist() == [b[2] for b in brute]


def test_core_match_counts_many_keys_uses_row_masks():
    # More than 62 keys: the missing-value patterns are compared as boolean rows.
    rng = np.random.default_rng(4)
    cols = [f"k{i}" for i in range(64)]
    rel = pd.DataFrame(rng.integers(0, 2, (20, 64)), columns=cols).astype(float)
    rel.iloc[0, 5] = np.nan
    ext = rel.iloc[[0, 1, 2]].copy()
    joint = encode_joint(ext, rel, tuple(cols))
    mc = match_counts(joint, sdc.MissingRule("wildcard"))
    brute = _brute_exact(rel, ext.assign(id=[0, 1, 2]), cols, "id", "wildcard")
    assert mc.size.tolist() == [b[0] for b in brute]
    assert records_agree(joint, np.arange(3), np.arange(3)).all()


# ---------------------------------------------------------------- nearest neighbour
def _brute_nearest(released, external, num, cat, truth, tol=1e-9):
    xr = released[num].to_numpy(float)
    xe = external[num].to_numpy(float)
    mu, sd = xr.mean(0), xr.std(0, ddof=1)
    sd = np.where(sd > 0, sd, 1.0)
    xr, xe = (xr - mu) / sd, (xe - mu) / sd
    ids = list(released.index)
    out = []
    for i in range(len(xe)):
        same = np.ones(len(xr), bool)
        for c in cat:
            same &= released[c].to_numpy() == external[c].iloc[i]
        if not same.any():
            out.append((0, False, np.nan))
            continue
        d = np.sqrt(((xr - xe[i]) ** 2).sum(1))
        d = np.where(same, d, np.inf)
        dmin = d.min()
        members = [ids[j] for j in np.flatnonzero(d <= dmin * (1 + 1e-12) + tol)]
        out.append((len(members), external[truth].iloc[i] in members, dmin))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_nearest_brute_force(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 60))
    rel = pd.DataFrame({"x": rng.normal(size=n).round(int(rng.integers(0, 3))), "y": rng.integers(0, 5, n) * 1.0,
                        "g": rng.choice(["a", "b", "c"], n)}, index=np.arange(n) * 3)
    m = int(rng.integers(1, 30))
    src = rng.choice(n, size=m)
    ext = rel.iloc[src].reset_index().rename(columns={"index": "id"})
    ext["x"] += rng.normal(scale=0.3, size=m).round(1)
    ext.loc[rng.random(m) < 0.2, "g"] = "z"
    r = linkage_attack(rel, ext, ["x", "y", "g"], truth="id", method="nearest")
    assert r.numeric == ("x", "y")
    brute = _brute_nearest(rel, ext, ["x", "y"], ["g"], "id")
    assert r.records["match_size"].tolist() == [b[0] for b in brute]
    assert r.records["correct"].tolist() == [b[1] for b in brute]
    np.testing.assert_allclose(r.records["distance"].to_numpy(), [b[2] for b in brute], rtol=1e-9, atol=1e-12)


def test_nearest_ties_and_exact_copies():
    rel = pd.DataFrame({"x": [1.0, 1.0, 2.0, 5.0]}, index=["a", "b", "c", "d"])
    ext = pd.DataFrame({"x": [1.0, 2.0, 3.5], "id": ["b", "c", "d"]})
    r = linkage_attack(rel, ext, ["x"], truth="id", method="nearest")
    # 3.5 is halfway between 2 and 5: a tie of two records.
    assert r.records["match_size"].tolist() == [2, 1, 2]
    assert r.records["p_correct"].tolist() == [0.5, 1.0, 0.5]


def test_nearest_unscaled_and_explicit_numeric():
    rel = pd.DataFrame({"x": [0.0, 10.0], "y": [0.0, 1.0]})
    ext = pd.DataFrame({"x": [6.0], "y": [0.0]})
    # Unscaled, x dominates: nearest is record 1; standardised, both count.
    assert linkage_attack(rel, ext, ["x", "y"], method="nearest", scale=False).records["matched_id"].tolist() == [1]
    r = linkage_attack(rel, ext, ["x", "y"], method="nearest", numeric=["x"])
    # y is now an exact block: only record 0 has y = 0, however far its x.
    assert r.numeric == ("x",) and r.records["matched_id"].tolist() == [0]
    r = linkage_attack(rel.assign(y=[0.0, 0.0]), ext, ["x", "y"], method="nearest", numeric=["x"])
    assert r.records["matched_id"].tolist() == [1]


def test_nearest_speed_100k():
    import time

    rng = np.random.default_rng(0)
    n = 100_000
    rel = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    ext = rel + rng.normal(scale=0.01, size=(n, 3))
    ext["id"] = np.arange(n)
    t = time.perf_counter()
    r = linkage_attack(rel, ext, ["a", "b", "c"], truth="id", method="nearest")
    assert time.perf_counter() - t < 60
    assert r.precision_at_1 > 0.9


# ---------------------------------------------------------------- drawing the attacker's file
def test_draw_external_is_seeded():
    df = sdc.load_example()
    a = draw_external(df, ["age", "sex"], share=0.1, seed=3)
    b = draw_external(df, ["age", "sex"], share=0.1, seed=3)
    c = draw_external(df, ["age", "sex"], share=0.1, seed=4)
    pd.testing.assert_frame_equal(a, b)
    assert not a.index.equals(c.index)
    assert len(a) == round(0.1 * len(df)) and list(a.columns) == ["age", "sex", TARGET_COLUMN]
    assert (a[TARGET_COLUMN].to_numpy() == a.index.to_numpy()).all()
    assert a.index.is_monotonic_increasing
    d = draw_external(df, ["age"], share=0.001, seed=0, truth="subject_id")
    assert list(d.columns) == ["age", "subject_id"] and len(d) == 4
    assert len(draw_external(df.head(3), ["age"], share=0.01)) == 1


def test_simulated_before_after_generalisation():
    df = sdc.load_example()
    known = ["age", "sex", "region"]
    before = simulate_linkage_attack(df, df, known, share=0.25, seed=7)
    protected = df.copy()
    protected["age"] = (protected["age"] // 20) * 20
    after = simulate_linkage_attack(df, protected, known, share=0.25, seed=7)
    assert before.n_external == after.n_external
    assert after.precision_at_1 < before.precision_at_1 / 3
    # Before: every target is in its own match set, so precision = recall = mean(1 / fk).
    assert before.n_correct == before.n_external and before.precision_at_1 == pytest.approx(before.recall)
    # After, the attacker's raw ages rarely equal a band's lower edge: most find no match.
    assert after.n_matched < before.n_matched
    assert before.parameters["seed"] == 7 and before.parameters["share"] == 0.25


def test_linkage_errors(voter_medical):
    released, voters = voter_medical
    with pytest.raises(ValueError, match="`on` names columns not in the released file: 'zipp'"):
        linkage_attack(released, voters, ["zipp"])
    # the file that lacks the column is named
    with pytest.raises(ValueError, match="`on` names columns not in the external file: 'zip'"):
        linkage_attack(released, voters.drop(columns="zip"), ["zip"])
    with pytest.raises(ValueError, match="also a quasi-identifier"):
        linkage_attack(released.assign(pid=released.index), voters, ["zip", "pid"], truth="pid")
    with pytest.raises(ValueError, match="`method` must be one of"):
        linkage_attack(released, voters, ["zip"], method="fuzzy")
    dup = released.reset_index()
    dup.loc[1, "pid"] = 101
    with pytest.raises(ValueError, match="must be unique; 101 occurs more than once"):
        linkage_attack(dup, voters, ["zip"], truth="pid")
    # Without truth the index names the matched record: a repeated label would be ambiguous.
    twice = released.set_axis([7, 7] + list(released.index[2:]))
    with pytest.raises(ValueError, match=r"the index of `released`\) must be unique; 7 occurs"):
        linkage_attack(twice, voters, ["zip"])
    with pytest.raises(ValueError, match="missing or infinite value in `released`"):
        linkage_attack(released.assign(birth=[1.0, np.nan, 3, 4, 5, 6]), voters, ["birth"], method="nearest")
    with pytest.raises(ValueError, match="none of `on` is numeric"):
        linkage_attack(released, voters, ["sex"], method="nearest")
    with pytest.raises(TypeError, match="`released` must be a pandas DataFrame"):
        linkage_attack(None, voters, ["zip"])
    with pytest.raises(ValueError, match="`share` must lie in"):
        draw_external(released, ["zip"], share=0.0)
    with pytest.raises(TypeError, match="`seed` must be a non-negative integer"):
        draw_external(released, ["zip"], seed=-1)


def test_a_column_coded_otherwise_in_the_release_is_warned_about() -> None:
    """Raw ages against released bands never match: the attack then measured the coding (only
    suppressed cells matched), so each attack says which column has no value in common."""
    import warnings

    from sdc.exceptions import CodingWarning

    orig = pd.DataFrame({"age": [23, 35, 47, 51] * 10, "sex": list("fm") * 20, "dx": list("abcd") * 10,
                         "bmi": np.linspace(18, 30, 40)})
    rel = orig.assign(age=pd.cut(orig["age"], [0, 30, 60]).astype(str))
    for run in (lambda: sdc.linkage_attack(rel, orig.iloc[:8], ["age", "sex"]),
                lambda: sdc.linkage_attack(rel, orig.iloc[:8], ["age", "bmi"], method="nearest"),
                lambda: sdc.singling_out_attack(orig, rel, columns=["age", "sex"], n_attacks=5, n_cols=2),
                lambda: sdc.inference_attack(orig, rel, aux_cols=["age", "sex"], secret="dx", n_attacks=5)):
        with pytest.warns(CodingWarning, match=r"column 'age': no value of the (external file|original) occurs"):
            run()
    # coded alike: no word
    with warnings.catch_warnings():
        warnings.simplefilter("error", CodingWarning)
        sdc.linkage_attack(orig, orig.iloc[:8], ["age", "sex"])
        sdc.inference_attack(orig, orig, aux_cols=["age", "sex"], secret="dx", n_attacks=5)
