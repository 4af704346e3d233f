"""Skewness and similarity attacks: hand-computed lifts, entropy and purity; brute force with pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sdc._stats import summary_values
import sdc
from sdc.attacks.skewness import skewness_attack


def test_hand_computed_lifts():
    df = pd.DataFrame({"zip": [1, 1, 1, 2, 2, 2, 2, 3],
                       "dx": ["hiv", "flu", "flu", "flu", "flu", "flu", "ulcer", None]})
    r = skewness_attack(df, "zip", "dx")
    # File shares over the 7 observed values: hiv 1/7, flu 5/7, ulcer 1/7.
    # Class 1: hiv 1/3 -> lift 7/3; flu 2/3 -> 14/15. Class 2: flu 3/4 -> 21/20; ulcer 1/4 -> 7/4.
    own = r.records["own_lift"].tolist()
    assert own[:7] == pytest.approx([7 / 3, 14 / 15, 14 / 15, 21 / 20, 21 / 20, 21 / 20, 7 / 4])
    assert np.isnan(own[7])
    c = r.classes.set_index("zip")
    assert c.loc[1, "max_lift"] == pytest.approx(7 / 3) and c.loc[1, "max_lift_value"] == "hiv"
    assert c.loc[2, "max_lift_value"] == "ulcer" and c.loc[2, "max_lift_share"] == pytest.approx(0.25)
    assert c.loc[2, "file_share"] == pytest.approx(1 / 7)
    assert np.isnan(c.loc[3, "max_lift"]) and c.loc[3, "n_observed"] == 0
    assert r.records["max_lift"].iloc[:3].tolist() == pytest.approx([7 / 3] * 3)
    assert r.n_records_skewed == 3 and r.n_classes_skewed == 1 and r.max_lift == pytest.approx(7 / 3)


def test_similarity_categories():
    df = pd.DataFrame({"zip": [1, 1, 1, 2, 2, 2],
                       "dx": ["gastritis", "ulcer", "stomach cancer", "flu", "ulcer", "bronchitis"]})
    cats = {"gastritis": "stomach", "ulcer": "stomach", "stomach cancer": "stomach", "flu": "lungs",
            "bronchitis": "lungs"}
    r = skewness_attack(df, ["zip"], "dx", categories=cats)
    c = r.classes.set_index("zip")
    # Class 1 has three distinct values (3-diverse) but one category: purity 1, entropy 0.
    assert c.loc[1, "purity"] == 1.0 and c.loc[1, "entropy"] == 0.0 and c.loc[1, "dominant_category"] == "stomach"
    assert c.loc[2, "purity"] == pytest.approx(2 / 3)
    assert c.loc[2, "entropy"] == pytest.approx(-(2 / 3 * np.log(2 / 3) + 1 / 3 * np.log(1 / 3)))
    # Category lift: stomach is 4/6 of the file and 1 of class 1 -> 1.5; lungs 2/3 of class 2 over 1/3 -> 2.
    assert c.loc[1, "max_category_lift"] == pytest.approx(1.5) and c.loc[2, "max_category_lift"] == pytest.approx(2.0)
    assert r.n_records_pure == 3 and r.n_classes_pure == 1
    assert r.records["category"].tolist() == ["stomach", "stomach", "stomach", "lungs", "stomach", "lungs"]
    s = summary_values(r.summary())
    assert s["pct_records_pure"] == 50.0 and s["mean_entropy"] == pytest.approx(c.loc[2, "entropy"] / 2)
    with pytest.raises(ValueError, match="no category for 1 sensitive value"):
        skewness_attack(df, ["zip"], "dx", categories={k: v for k, v in cats.items() if k != "flu"})


@pytest.mark.parametrize("seed", range(15))
def test_lifts_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 200))
    df = pd.DataFrame({"a": rng.integers(0, 4, n), "b": rng.choice(["x", "y", None], n),
                       "s": rng.choice(["p", "q", "r", "t", None], n, p=[0.5, 0.2, 0.15, 0.1, 0.05])})
    cats = {"p": "A", "q": "A", "r": "B", "t": "C"}
    r = skewness_attack(df, ["a", "b"], "s", categories=cats)
    obs = df.dropna(subset=["s"])
    if obs.empty:
        assert r.records["own_lift"].isna().all()
        return
    from collections import Counter

    key = [f"{a}|{'NA' if pd.isna(b) else b}" for a, b in zip(df["a"], df["b"])]
    sv = df["s"].tolist()
    pairs = [(k, v) for k, v in zip(key, sv) if not pd.isna(v)]  # pandas 3 holds missing strings as NaN
    n_obs = len(pairs)
    n_v = Counter(v for _, v in pairs)
    n_c = Counter(k for k, _ in pairs)
    n_cv = Counter(pairs)
    lift = {(k, v): (c / n_c[k]) / (n_v[v] / n_obs) for (k, v), c in n_cv.items()}
    own = [lift[(k, v)] if not pd.isna(v) else np.nan for k, v in zip(key, sv)]
    np.testing.assert_allclose(r.records["own_lift"].to_numpy(), own, rtol=1e-12)
    maxl = {k: max(val for (kk, _), val in lift.items() if kk == k) for k in n_c}
    np.testing.assert_allclose(r.records["max_lift"].to_numpy(), [maxl.get(k, np.nan) for k in key], rtol=1e-12)
    n_cg = Counter((k, cats[v]) for k, v in pairs)
    ent = {k: -sum((c / n_c[k]) * np.log(c / n_c[k]) for (kk, _), c in n_cg.items() if kk == k) for k in n_c}
    pur = {k: max(c / n_c[k] for (kk, _), c in n_cg.items() if kk == k) for k in n_c}
    np.testing.assert_allclose(r.records["entropy"].to_numpy(), [ent.get(k, np.nan) for k in key], atol=1e-12)
    np.testing.assert_allclose(r.records["purity"].to_numpy(), [pur.get(k, np.nan) for k in key], rtol=1e-12)


def test_example_and_dict():
    df = sdc.load_example()
    r = sdc.skewness_attack(df, ["age", "sex", "region"], "diagnosis")
    d = r.to_dict(top=3)
    assert len(d["top_classes"]) == 3 and d["top_classes"][0]["max_lift"] == r.max_lift
    assert r.to_frame() is r.classes and len(r.records) == len(df)
    with pytest.raises(ValueError, match="also a key variable"):
        skewness_attack(df, ["age", "diagnosis"], "diagnosis")
    with pytest.raises(ValueError, match="`lift_threshold` must lie in"):
        skewness_attack(df, ["age"], "diagnosis", lift_threshold=0)
