"""The attacks of the comparison before and after (sdc compare / sdc protect): singling out,
linkability, inference and skewness on hand-made files whose outcome is known, the report's
tables and report.json keys, reproducibility with the seed, and the notes of skipped attacks."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.report.compare import comparison_files
from sdc.workflow.compare import compare
from sdc.workflow.compare_attacks import ATTACKS, MIN_RECORDS, attacker_view
from sdc.workflow.config import from_mapping


def _cfg(keys: list[str], sensitive: list[str] | None = None, **variables: object) -> sdc.RunConfig:
    raw = {"data": {"path": "x.csv", "id": "id"},
           "variables": {"categorical_keys": keys, **({"sensitive": sensitive} if sensitive else {}), **variables},
           "options": {"measures": ["k_anonymity", "risk"]}, "thresholds": {"k": 3}}
    return from_mapping(raw)


def _people(n: int = 200, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "id": [f"p{i:04d}" for i in range(n)],
        "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(list("abcde"), n),
        "age": rng.integers(18, 90, n).astype(str),
        "dx": rng.choice([f"d{i}" for i in range(10)], n),
    })


def _fig(c: sdc.Comparison, attack: str, variant: str, figure: str) -> tuple[float, float]:
    t = c.attack_figures.table
    row = t[(t["attack"] == attack) & (t["variant"] == variant) & (t["figure"] == figure)]
    assert len(row) >= 1, (attack, variant, figure)
    return float(row["before"].iloc[0]), float(row["after"].iloc[0])


@pytest.fixture(scope="module")
def unchanged() -> sdc.Comparison:
    df = _people()
    return compare(df, df.copy(), _cfg(["sex", "region", "age"], ["dx"]), n_attacks=100)


def test_an_unchanged_release_gives_after_equal_to_before(unchanged: sdc.Comparison) -> None:
    t = unchanged.attack_figures.table
    assert set(t["attack"]) == set(ATTACKS)
    both = t["before"].notna()
    assert (t.loc[both, "before"] == t.loc[both, "after"]).all()
    assert (t.loc[both, "change"] == 0).all()
    assert t.loc[~both, "after"].isna().all()
    # the original attacked with itself: almost every record is unique on (sex, region, age),
    # so multivariate queries single out an original record far more often than a control one
    b, _ = _fig(unchanged, "singling_out", "multivariate", "risk")
    assert b > 0.5


def test_every_key_suppressed_leaves_nothing_to_single_out() -> None:
    df = _people()
    # every key cell suppressed, except one value per key (a key missing in every record is refused)
    rel = df.assign(sex=np.nan, region=np.nan, age=np.nan).astype(object)
    for i, k in enumerate(("sex", "region", "age")):
        rel.loc[i, k] = df.loc[i, k]
    c = compare(df, rel, _cfg(["sex", "region", "age"], ["dx"]), n_attacks=100)
    for mode in ("univariate", "multivariate"):
        assert _fig(c, "singling_out", mode, "risk")[1] == pytest.approx(0.0)
        assert _fig(c, "singling_out", mode, "risk 95% CI low")[1] == 0.0
        # the queries that single out a released record select no original record, or many
        assert _fig(c, "singling_out", mode, "attack success rate")[1] == pytest.approx(
            _fig(c, "singling_out", mode, "control success rate")[1])
    assert _fig(c, "singling_out", "multivariate", "risk")[0] > 0.5
    # the linkage attack of the same comparison agrees: nobody re-identified after
    link = c.attacks.set_index(["scenario", "figure"])
    assert link.loc[(c.config.all_scenarios[0].name, "re-identified (unique and correct match)"), "after"] == 0


def test_inference_before_and_after_a_shuffled_secret() -> None:
    # a numeric key that identifies everyone: before, the nearest record is the target itself
    n = 200
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"id": [f"r{i}" for i in range(n)], "x": np.arange(n, dtype=float),
                       "g": rng.choice(["u", "v"], n), "dx": rng.choice([f"d{i}" for i in range(10)], n)})
    rel = df.assign(dx=rng.permutation(df["dx"].to_numpy()))
    cfg = from_mapping({"data": {"path": "x.csv", "id": "id"},
                        "variables": {"categorical_keys": ["g"], "continuous_keys": ["x"], "sensitive": ["dx"]},
                        "bins": {"x": [0, 100, 200]}, "options": {"measures": ["k_anonymity"]}})
    c = compare(df, rel, cfg, n_attacks=100)
    b_main, a_main = _fig(c, "inference", "dx", "attack success rate")
    assert b_main > 0.95  # every guess right (Wilson centre just below 1)
    b, a = _fig(c, "inference", "dx", "risk")
    assert b > 0.8 and a < 0.25
    lo, hi = _fig(c, "inference", "dx", "risk 95% CI low"), _fig(c, "inference", "dx", "risk 95% CI high")
    assert lo[0] <= b <= hi[0] and lo[1] <= a <= hi[1]
    assert _fig(c, "inference", "dx", "attacks") == (100, 100)


def test_skewness_figures_are_the_hand_computed_lifts() -> None:
    # zip 1: flu, flu; zip 2: flu, ulcer -> lifts 4/3 (flu in 1), 2/3 (flu in 2), 2 (ulcer in 2)
    df = pd.DataFrame({"id": list("abcd"), "zip": ["1", "1", "2", "2"], "dx": ["flu", "flu", "flu", "ulcer"]})
    rel = df.assign(zip="*")
    c = compare(df, rel, _cfg(["zip"], ["dx"]))
    assert _fig(c, "skewness", "dx", "largest lift") == pytest.approx((2.0, 1.0))
    assert _fig(c, "skewness", "dx", "records in classes with lift >= 2") == (2, 0)
    own = (4 / 3 + 4 / 3 + 2 / 3 + 2) / 4
    assert _fig(c, "skewness", "dx", "mean lift of a record's own value") == pytest.approx((own, 1.0))
    # four records: no control split, so the anonymeter attacks are left out with a note
    assert set(c.attack_figures.table["attack"]) == {"skewness"}
    assert any(f"too few for a control split (at least {MIN_RECORDS})" in n for n in c.notes)


def test_no_sensitive_variable_skips_inference_and_skewness_with_a_note() -> None:
    df = _people(60)
    c = compare(df, df.assign(region="x"), _cfg(["sex", "region", "age"]), n_attacks=50)
    attacks = set(c.attack_figures.table["attack"])
    assert attacks == {"singling_out", "linkability"}
    assert any("names no sensitive variable" in n for n in c.attack_figures.notes)
    assert any("names no sensitive variable" in n for n in c.notes)


def test_linkability_splits_the_keys_in_two_halves_and_needs_two_keys() -> None:
    df = _people(60)
    c = compare(df, df.copy(), _cfg(["sex", "region", "age"], ["dx"]), n_attacks=50)
    variants = set(c.attack_figures.rows("linkability")["variant"])
    assert variants == {"A: sex, region; B: age"}
    one = compare(df, df.copy(), _cfg(["sex"], ["dx"]), n_attacks=50)
    assert "linkability" not in set(one.attack_figures.table["attack"])
    assert any("linkability attack needs two" in n for n in one.notes)


def test_reproducible_with_the_seed() -> None:
    df = _people(120)
    rng = np.random.default_rng(7)
    rel = df.assign(region=np.where(rng.random(len(df)) < 0.3, "z", df["region"]))
    cfg = _cfg(["sex", "region", "age"], ["dx"])
    a = compare(df, rel, cfg, n_attacks=80).attack_figures.table
    b = compare(df, rel, cfg, n_attacks=80).attack_figures.table
    pd.testing.assert_frame_equal(a, b)


def test_attacker_view_codes_the_original_like_the_release() -> None:
    orig = pd.DataFrame({"age": [31, 38, 45, 52, 33, 31]})
    rel = pd.DataFrame({"age": ["30s", "30s", "40s", None, None, "30s"]})
    view = attacker_view(orig, rel, ["age"])
    # 33 is suppressed but 31/38 show the mapping only for the values seen; 52 was never released
    assert view["age"].tolist()[:3] == ["30s", "30s", "40s"]
    assert pd.isna(view["age"].iloc[3]) and pd.isna(view["age"].iloc[4])
    assert view["age"].iloc[5] == "30s"  # suppressed elsewhere, known from its other record
    assert orig["age"].tolist() == [31, 38, 45, 52, 33, 31]  # not modified


def test_report_json_and_markdown_hold_the_attacks(unchanged: sdc.Comparison) -> None:
    files = comparison_files(unchanged, formats=["md", "json", "html"])
    doc = json.loads(files["report.json"])
    att = doc["attacks"]
    assert {"linkage", "singling_out", "linkability", "inference", "skewness", "settings", "notes"} <= set(att)
    assert att["linkage"] and all(att[a] for a in ATTACKS)
    assert {"scenario", "variant", "figure", "before", "after", "change"} == set(att["singling_out"][0])
    assert att["settings"]["seed"] == 0 and att["settings"]["n_attacks"] == 100
    assert "singling out attack" in doc["tables"] and "skewness attack" in doc["tables"]
    md = files["report.md"]
    for title in ("## Attacks before and after", "### Linkage attack per scenario",
                  "### Singling-out attack per scenario", "### Linkability attack per scenario",
                  "### Inference attack per scenario", "### Skewness attack per scenario"):
        assert title in md
    assert "| risk 95% CI low |" in md
    assert "Singling-out attack per scenario" in files["report.html"]


def test_markup_in_a_scenario_name_is_escaped() -> None:
    df = _people(60)
    raw = {"data": {"path": "x.csv", "id": "id"},
           "variables": {"categorical_keys": ["sex", "region"], "sensitive": ["dx"]},
           "scenarios": [{"name": "<b>x|y</b>", "keys": ["sex", "region"]}],
           "options": {"measures": ["k_anonymity"]}}
    c = compare(df, df.copy(), from_mapping(raw), n_attacks=30)
    files = comparison_files(c, formats=["md", "html"])
    assert "<b>x" not in files["report.html"] and "&lt;b&gt;x|y&lt;/b&gt;" in files["report.html"]
    # Markdown: the markup and the cell separator are backslash-escaped, like every other table
    assert "| \\<b>x\\|y\\</b> | univariate | risk |" in files["report.md"]


def test_bad_number_of_attacks_is_one_clear_error() -> None:
    df = _people(30)
    with pytest.raises(ValueError, match="n_attacks"):
        compare(df, df.copy(), _cfg(["sex"]), n_attacks=0)


def test_recoded_secret_judged_against_true_value() -> None:
    # income banded in two: the released band is not the secret. Declaring the recoding must
    # not turn the band into the truth the inference is judged against.
    df = _people(400)
    df["inc"] = np.random.default_rng(9).integers(1000, 100000, len(df)).astype(float)
    rel = df.assign(inc=np.where(df["inc"] < 50000, 25000.0, 75000.0))
    cfg = _cfg(["sex", "region", "age"], ["inc"])
    declared = compare(df, rel, cfg, n_attacks=200, recoded=["inc"])
    plain = compare(df, rel, cfg, n_attacks=200)
    for fig in ("risk", "attack success rate", "control success rate"):
        assert _fig(declared, "inference", "inc", fig) == _fig(plain, "inference", "inc", fig)
    b, a = _fig(declared, "inference", "inc", "risk")
    assert a < 0.2 < b


def test_attack_notes_appear_once_in_the_report(tmp_path) -> None:
    df = _people(MIN_RECORDS - 1)
    c = compare(df, df.copy(), _cfg(["sex", "region", "age"], ["dx"]), n_attacks=20)
    md = comparison_files(c)["report.md"]
    assert md.count("too few for a control split") == 1


def test_a_column_replaced_whole_is_no_coding_note() -> None:
    """The comparison codes the attacker's file as the release is: a key replaced by a constant
    is protection, and the attacks' CodingWarning is not turned into notes (four per scenario)."""
    df = _people(60)
    c = compare(df, df.assign(region="*"), _cfg(["sex", "region", "age"]), n_attacks=30)
    assert not any("recoded there" in n for n in c.notes + c.attack_figures.notes)


def test_attacks_say_they_match_continuous_keys_on_their_values() -> None:
    """The risk sections band a continuous key ([bins]); the attacks match raw values: 57
    re-identified before next to 0 sample uniques, unexplained."""
    df = _people(60).assign(age=lambda d: d["age"].astype(int))
    cfg = from_mapping({"data": {"path": "x.csv", "id": "id"},
                        "variables": {"categorical_keys": ["sex", "region"], "continuous_keys": ["age"]},
                        "bins": {"age": {"width": 10}}, "options": {"measures": ["k_anonymity"]}})
    c = compare(df, df, cfg, n_attacks=20)
    assert any("continuous key(s) age are matched on the values the files hold" in n for n in c.notes)


def test_an_attack_of_few_guesses_carries_a_warning() -> None:
    """Issue 26: a singling-out risk from 6 queries was shown with no word of how little it says."""
    import numpy as np
    import pandas as pd

    import sdc
    from sdc.attacks.anonymeter import MIN_ATTACKS

    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.integers(0, 5, 300).astype(str), "b": rng.integers(0, 4, 300).astype(str),
                       "s": rng.integers(0, 3, 300).astype(str)})
    few = sdc.inference_attack(df, df, ["a", "b"], "s", n_attacks=6, seed=1)
    assert few.summary().set_index("statistic").loc["n_attacks", "value"] == 6
    assert any(n.startswith("warning: only 6 targets") and str(MIN_ATTACKS) in n for n in few.notes)
    many = sdc.inference_attack(df, df, ["a", "b"], "s", n_attacks=MIN_ATTACKS, seed=1)
    assert not any(n.startswith("warning: only") for n in many.notes)
