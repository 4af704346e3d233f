"""Cramér's V and correlations before and after; marginal distributions, means, sds, quantiles."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from sdc._stats import summary_values
import sdc
from sdc.utility.association import cramers_v

# ---------------------------------------------------------------------------------------------
# Cramér's V and correlations.
# ---------------------------------------------------------------------------------------------


def test_cramers_v_hand_values():
    a = pd.Series(list("xxyy"))
    assert cramers_v(a, pd.Series(list("ppqq"))) == 1.0
    assert cramers_v(a, pd.Series(list("pqpq"))) == 0.0
    # 2x2 table [[3, 1], [1, 3]]: chi2 = 2, n = 8 -> V = 0.5
    assert cramers_v(pd.Series(list("xxxxyyyy")), pd.Series(list("pppqpqqq"))) == pytest.approx(0.5)


def test_cramers_v_is_undefined_with_one_category_and_ignores_missing_pairs():
    assert math.isnan(cramers_v(pd.Series(list("xxx")), pd.Series(list("pqp"))))
    a = pd.Series(["x", "x", "y", "y", None])
    b = pd.Series(["p", "p", "q", "q", "q"])
    assert cramers_v(a, b) == 1.0


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("pqrs")), min_size=2, max_size=40))
def test_cramers_v_matches_scipy(pairs):
    a = pd.Series([p[0] for p in pairs])
    b = pd.Series([p[1] for p in pairs])
    table = pd.crosstab(a, b).to_numpy()
    if min(table.shape) < 2:
        assert math.isnan(cramers_v(a, b))
        return
    chi2 = chi2_contingency(table, correction=False)[0]
    want = math.sqrt(chi2 / (len(pairs) * (min(table.shape) - 1)))
    assert cramers_v(a, b) == pytest.approx(want, abs=1e-12)
    assert cramers_v(b, a) == pytest.approx(want, abs=1e-12)  # symmetric


def test_association_change_reports_pairs_and_largest_changes():
    orig = pd.DataFrame({"a": list("xxyy"), "b": list("ppqq"), "c": list("pqpq"),
                         "u": [1.0, 2.0, 3.0, 4.0], "v": [1.0, 2.0, 3.0, 5.0]})
    rel = orig.assign(b=list("pqpq"), v=[4.0, 3.0, 2.0, 1.0])
    r = sdc.association_change(orig, rel)
    assert r.categorical == ("a", "b", "c") and r.numeric == ("u", "v")
    cv = r.cramers_v.set_index(["variable_1", "variable_2"])
    assert cv.loc[("a", "b"), ["before", "after", "change"]].tolist() == [1.0, 0.0, -1.0]
    assert r.max_cramers_v_change == 1.0
    corr = np.corrcoef([1, 2, 3, 4], [1, 2, 3, 5])[0, 1]
    assert r.correlation_before.loc["u", "v"] == pytest.approx(corr)
    assert r.correlation_after.loc["u", "v"] == pytest.approx(-1.0)
    assert r.max_correlation_change == pytest.approx(1 + corr)
    assert r.correlation_difference.loc["u", "v"] == pytest.approx(-1 - corr)
    long = r.to_frame()
    assert long["measure"].tolist() == ["cramers_v"] * 3 + ["pearson"]
    assert summary_values(r.summary())["max_cramers_v_change"] == 1.0


def test_association_change_spearman_and_categorical_override():
    orig = pd.DataFrame({"u": [1, 2, 3, 4], "v": [1, 4, 9, 16], "k": [1, 1, 2, 2]})
    r = sdc.association_change(orig, orig.copy(), ["u", "v", "k"], categorical="k", method="spearman")
    assert r.numeric == ("u", "v") and r.categorical == ("k",)
    assert r.correlation_before.loc["u", "v"] == pytest.approx(1.0)
    assert r.max_correlation_change == 0.0
    assert math.isnan(r.max_cramers_v_change)  # no categorical pair


# ---------------------------------------------------------------------------------------------
# Marginals.
# ---------------------------------------------------------------------------------------------


def test_categorical_marginals_with_missing_as_a_category():
    orig = pd.DataFrame({"sex": ["m", "m", "f", "f"]})
    rel = pd.DataFrame({"sex": ["m", None, "f", "x"]})
    r = sdc.marginal_change(orig, rel, "sex")
    d = r.distributions
    assert d["value"].tolist()[:3] == ["m", "f", "x"] and bool(d["is_missing"].iloc[-1])
    assert d["count_before"].tolist() == [2, 2, 0, 0]
    assert d["count_after"].tolist() == [1, 1, 1, 1]
    assert d["difference_pp"].tolist() == [-25.0, -25.0, 25.0, 25.0]
    assert r.max_deviation_pp["sex"] == 25.0 and r.max_deviation == 25.0


def test_numeric_statistics_before_and_after():
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    orig = pd.DataFrame({"x": x})
    rel = pd.DataFrame({"x": [1.0, 2.0, np.nan, 4.0, 12.0]})
    r = sdc.marginal_change(orig, rel, "x", quantiles=(0.5, 0.9))
    st_ = r.statistics.set_index("statistic")
    assert st_["before"].tolist() == pytest.approx([5, x.mean(), x.std(ddof=1), 3.0, np.quantile(x, 0.9)])
    after = np.array([1.0, 2.0, 4.0, 12.0])
    assert st_["after"].tolist() == pytest.approx([4, after.mean(), after.std(ddof=1), 3.0, np.quantile(after, 0.9)])
    assert st_.loc["mean", "relative_change"] == pytest.approx((after.mean() - x.mean()) / x.mean())
    row = r.to_frame().iloc[0]
    assert row["kind"] == "numeric" and row["mean_after"] == pytest.approx(after.mean())


def test_quantiles_are_r_type_7():
    # R: quantile(c(1, 2, 3, 4, 10), c(0.05, 0.95)) = 1.2, 8.8
    orig = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 10.0]})
    st_ = sdc.marginal_change(orig, orig + 0.0, "x").statistics.set_index("statistic")
    assert st_.loc["q0.05", "before"] == pytest.approx(1.2)
    assert st_.loc["q0.95", "before"] == pytest.approx(8.8)


def test_marginals_bad_quantiles():
    orig = pd.DataFrame({"x": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"`quantiles` must lie in \[0, 1\]"):
        sdc.marginal_change(orig, orig, "x", quantiles=(50,))


@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.sampled_from(["a", "b", "c", None])),
                min_size=1, max_size=30))
def test_marginal_shares_sum_to_100_and_identity_has_no_deviation(pairs):
    orig = pd.DataFrame({"v": pd.Series([p[0] for p in pairs], dtype=object)})
    rel = pd.DataFrame({"v": pd.Series([p[1] for p in pairs], dtype=object)})
    r = sdc.marginal_change(orig, rel, "v")
    assert r.distributions["pct_before"].sum() == pytest.approx(100.0)
    assert r.distributions["pct_after"].sum() == pytest.approx(100.0)
    assert r.max_deviation <= 100.0
    same = sdc.marginal_change(orig, orig.copy(), "v")
    assert same.max_deviation == 0.0


def test_cramers_v_counts_only_the_values_that_occur():
    """min(r, c) counts the values present where both are (issue 33: counted, not sorted): a
    categorical's unused categories, and values seen only beside a missing partner, are not rows."""
    from sdc.utility.association import cramers_v

    a = ["x", "x", "y", "y", "z", "x"]
    b = ["p", "q", "q", "p", "q", None]
    cat = pd.Series(pd.Categorical(a, categories=["w", "x", "y", "z", "unused"]))
    want = cramers_v(pd.Series(a), pd.Series(b))
    assert cramers_v(cat, pd.Series(b)) == want
    # the five complete records: a table of 3 rows (x, y, z) by 2 columns, min(3, 2) - 1 = 1
    table = pd.crosstab(pd.Series(a[:5]), pd.Series(b[:5])).to_numpy()
    chi2 = chi2_contingency(table, correction=False)[0]
    assert want == pytest.approx(math.sqrt(chi2 / 5))
