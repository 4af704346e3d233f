"""Non-uniform entropy, discernibility, average class size, privacy gain, suppression counts."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdc._stats import summary_values
import sdc

# ---------------------------------------------------------------------------------------------
# Non-uniform entropy.
# ---------------------------------------------------------------------------------------------


def test_nue_of_a_generalisation_hand_values():
    # ages 21, 22, 23, 31 -> 20s, 20s, 20s, 30s: Pr(21 | 20s) = 1/3 (three records), Pr(31 | 30s) = 1
    orig = pd.DataFrame({"age": [21, 22, 23, 31]})
    rel = pd.DataFrame({"age": ["20s", "20s", "20s", "30s"]})
    r = sdc.non_uniform_entropy(orig, rel, "age")
    assert r.entropy == pytest.approx(3 * math.log2(3))
    assert r.maximum == pytest.approx(4 * math.log2(4))
    assert r.normalised == pytest.approx(3 * math.log2(3) / 8)
    assert r.utility_retained == pytest.approx(1 - 3 * math.log2(3) / 8)


def test_nue_is_gionis_tassa_for_a_generalisation_with_repeated_values():
    # Pr(x | x') = n(x) / n(values generalised to x'): 1,1,2 -> "low" gives 2/3 and 1/3.
    orig = pd.DataFrame({"v": [1, 1, 2, 5, 5]})
    rel = pd.DataFrame({"v": ["low", "low", "low", "high", "high"]})
    r = sdc.non_uniform_entropy(orig, rel, "v")
    assert r.entropy == pytest.approx(-2 * math.log2(2 / 3) - math.log2(1 / 3))
    assert r.maximum == pytest.approx(-2 * math.log2(2 / 5) - math.log2(1 / 5) - 2 * math.log2(2 / 5))


def test_nue_suppression_is_the_value_star():
    orig = pd.DataFrame({"s": ["a", "b", "c", "c"]})
    rel = pd.DataFrame({"s": ["a", None, None, "c"]})
    r = sdc.non_uniform_entropy(orig, rel, "s")
    # the two suppressed cells: Pr(b | *) = Pr(c | *) = 1/2; the others are certain
    assert r.entropy == pytest.approx(2.0)
    everything = sdc.non_uniform_entropy(orig, pd.DataFrame({"s": [None] * 4}, dtype=object), "s")
    assert everything.entropy == pytest.approx(everything.maximum)
    assert everything.normalised == pytest.approx(1.0) and everything.utility_retained == pytest.approx(0.0)


def test_nue_of_pram_is_n_times_the_conditional_entropy():
    rng = np.random.default_rng(1)
    x = rng.choice(["a", "b", "c"], size=500, p=[0.5, 0.3, 0.2])
    flip = rng.random(500) < 0.2
    y = np.where(flip, rng.choice(["a", "b", "c"], size=500), x)
    r = sdc.non_uniform_entropy(pd.DataFrame({"v": x}), pd.DataFrame({"v": y}), "v")
    joint = Counter(zip(x, y))
    ny = Counter(y)
    h = -sum(c / 500 * math.log2(c / ny[b]) for (_, b), c in joint.items())
    assert r.entropy == pytest.approx(500 * h, rel=1e-12)


def test_nue_identity_and_relabelling_lose_nothing():
    orig = pd.DataFrame({"a": [1, 2, 2, 3], "b": ["x", "y", "x", "x"]})
    assert sdc.non_uniform_entropy(orig, orig.copy(), ["a", "b"]).entropy == 0.0
    rel = pd.DataFrame({"a": [10, 20, 20, 30], "b": ["X", "Y", "X", "X"]})
    r = sdc.non_uniform_entropy(orig, rel, ["a", "b"])
    assert r.entropy == 0.0 and r.utility_retained == 1.0
    assert r.per_variable["maximum"].tolist() == pytest.approx(
        [-(math.log2(1 / 4) * 2 + math.log2(2 / 4) * 2), -(math.log2(3 / 4) * 3 + math.log2(1 / 4))])


def test_nue_pools_variables_for_the_normalised_value():
    orig = pd.DataFrame({"a": [1, 2, 3, 4], "b": ["x", "x", "y", "y"]})
    rel = pd.DataFrame({"a": [1, 1, 3, 3], "b": ["x", "x", "y", "y"]})
    r = sdc.non_uniform_entropy(orig, rel, ["a", "b"])
    assert r.entropy == pytest.approx(4.0)
    assert r.maximum == pytest.approx(8.0 + 4.0)
    assert r.normalised == pytest.approx(4 / 12)
    assert r.per_variable.loc["b", "normalised"] == 0.0
    assert set(r.summary()["statistic"]) == {"nue", "nue_max", "nue_normalised", "nue_utility_retained", "n_records"}


@given(st.lists(st.tuples(st.sampled_from([1, 2, 3, None]), st.sampled_from(["p", "q", None])), min_size=1,
                max_size=25))
def test_nue_matches_a_loop(pairs):
    x = [p[0] for p in pairs]
    y = [p[1] for p in pairs]
    n = len(pairs)
    key = [(a if a is not None else "NA", b if b is not None else "NA") for a, b in zip(x, y)]
    joint = Counter(key)
    ny = Counter(k[1] for k in key)
    nx = Counter(k[0] for k in key)
    want = -sum(math.log2(joint[k] / ny[k[1]]) for k in key)
    want_max = -sum(math.log2(nx[k[0]] / n) for k in key)
    r = sdc.non_uniform_entropy(pd.DataFrame({"v": pd.Series(x, dtype="float64")}),
                                pd.DataFrame({"v": pd.Series(y, dtype=object)}), "v")
    assert r.entropy == pytest.approx(want, abs=1e-12)
    assert r.maximum == pytest.approx(want_max, abs=1e-12)
    assert 0.0 <= r.normalised <= 1.0 + 1e-12


# ---------------------------------------------------------------------------------------------
# Discernibility, average class size, privacy gain.
# ---------------------------------------------------------------------------------------------


def test_discernibility_hand_values_with_a_withheld_record():
    orig = pd.DataFrame({"age": [21, 22, 23, 31, 32, 33], "sex": list("mmmfff")})
    rel = pd.DataFrame({"age": ["20s", "20s", "20s", "30s", "30s", None],
                        "sex": ["m", "m", "m", "f", "f", None]})
    r = sdc.discernibility(orig, rel, ["age", "sex"])
    assert (r.discernibility_before, r.discernibility_after) == (6.0, 9.0 + 4.0 + 6.0)
    assert (r.n_classes_before, r.n_classes_after) == (6, 2)
    assert (r.average_class_size_before, r.average_class_size_after) == (1.0, 2.5)
    assert (r.records_suppressed_before, r.records_suppressed_after) == (0, 1)
    assert (r.k_before, r.k_after, r.privacy_gain) == (1.0, 2.0, 1.0)
    # ARX's normalisation: 1 - (19 - 6) / (36 - 6) and 1 - (2.5 - 1) / (6 - 1)
    assert r.discernibility_utility_retained == pytest.approx(1 - 13 / 30)
    assert r.aecs_utility_retained == pytest.approx(1 - 1.5 / 5)
    tab = r.to_frame()
    assert tab["statistic"].tolist() == ["discernibility", "n_classes", "average_class_size", "records_suppressed", "k"]


def test_discernibility_of_an_unchanged_file_retains_everything():
    orig = pd.DataFrame({"a": [1, 1, 2, 2, 3], "b": list("xxyyz")})
    r = sdc.discernibility(orig, orig.copy(), ["a", "b"])
    assert r.discernibility_before == r.discernibility_after == 9.0
    assert r.discernibility_utility_retained == 1.0 and r.aecs_utility_retained == 1.0
    assert r.privacy_gain == 0.0


def test_everything_withheld_is_the_maximum():
    orig = pd.DataFrame({"a": [1, 2, 3], "b": list("xyz")})
    rel = pd.DataFrame({"a": [np.nan] * 3, "b": [None] * 3})
    r = sdc.discernibility(orig, rel, ["a", "b"])
    assert r.discernibility_after == 9.0 and r.discernibility_utility_retained == 0.0
    assert r.n_classes_after == 0 and r.average_class_size_after == 3.0
    assert math.isnan(r.k_after) and math.isnan(r.privacy_gain)


def test_k_follows_the_missing_value_rule():
    # local suppression: one cell missing; sdcMicro's wildcard lets it match both 'x' records
    orig = pd.DataFrame({"a": [1, 1, 1, 2], "b": list("xxyy")})
    rel = pd.DataFrame({"a": [1, 1, np.nan, 2], "b": list("xxyy")})
    wild = sdc.discernibility(orig, rel, ["a", "b"])
    cat = sdc.discernibility(orig, rel, ["a", "b"], missing="category")
    assert wild.k_after == 2.0 and cat.k_after == 1.0
    assert wild.k_before == cat.k_before == 1.0
    assert wild.n_classes_after == 3  # classes always count a missing value as a value


@given(st.lists(st.tuples(st.sampled_from([1, 2, None]), st.sampled_from(["p", "q", None])), min_size=1, max_size=20))
def test_discernibility_matches_a_loop(rows):
    df = pd.DataFrame({"a": pd.Series([r[0] for r in rows], dtype="float64"),
                       "b": pd.Series([r[1] for r in rows], dtype=object)})
    n = len(rows)
    kept = [(("NA" if a is None else a), ("NA" if b is None else b)) for a, b in rows if not (a is None and b is None)]
    withheld = n - len(kept)
    sizes = Counter(kept).values()
    r = sdc.discernibility(df, df.copy(), ["a", "b"])
    assert r.discernibility_after == sum(s * s for s in sizes) + n * withheld
    assert r.records_suppressed_after == withheld
    if kept:
        assert r.average_class_size_after == pytest.approx(len(kept) / len(sizes))


# ---------------------------------------------------------------------------------------------
# Suppression.
# ---------------------------------------------------------------------------------------------


def test_suppression_counts_cells_and_withheld_records():
    orig = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0], "b": ["x", "y", "z", None]})
    rel = pd.DataFrame({"a": [np.nan, 2.0, np.nan, np.nan], "b": ["x", None, None, None]})
    r = sdc.suppression(orig, rel)
    assert r.cells_suppressed.to_dict() == {"a": 2, "b": 2}
    # record 2 had only b (suppressed) -> withheld; record 3 had only a -> withheld; record 1 lost b only
    assert r.records_suppressed == 2 and r.records_retained == 2 and r.pct_records_retained == 50.0
    assert r.records_with_suppression == 4
    assert r.total_cells_suppressed == 4
    assert r.to_frame()["pct_suppressed"].tolist() == [50.0, 50.0]
    s = summary_values(r.summary())
    assert s["cells_suppressed_per_variable"] == {"a": 2, "b": 2}


def test_records_missing_before_are_not_suppressed():
    orig = pd.DataFrame({"a": [np.nan, 1.0]})
    r = sdc.suppression(orig, orig.copy())
    assert r.records_suppressed == 0 and r.records_retained == 2
