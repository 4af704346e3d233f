"""Every deliberate difference from sdcMicro, shown (see docs/sdcmicro-differences.md).

Each test states what sdcMicro does, what sdc does, and why; where R is available the
sdcMicro side is run live.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.risk.individual import pattern_risk

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


# 1. Character keys: freqCalc coerces them to numbers (all NA, so all wildcards); sdc keeps them.
def test_character_keys_are_categories():
    df = pd.DataFrame({"a": ["x", "x", "y", "z"], "b": ["1", "1", "2", "2"]})
    assert sdc.frequencies(df, ["a", "b"]).sample_frequency.tolist() == [2, 2, 1, 1]


@pytest.mark.sdcmicro
def test_character_keys_in_sdcmicro_freqcalc_become_wildcards():
    import rpy2.robjects as ro

    r = ro.r('suppressWarnings(sdcMicro::freqCalc(data.frame(a = c("x","x","y","z"), b = c("1","1","2","2")), c("a","b"))$fk)')
    assert list(r) == [2, 2, 2, 2]  # as.numeric("x") is NA: every key a wildcard


# 2. A key missing in every record: sdcMicro uses it (and it changes fk, issue #353); sdc refuses.
def test_all_missing_key_is_refused():
    df = pd.DataFrame({"A": [2, 3, np.nan, 2, 3, 3, 1, 2], "B": [3, 3, np.nan, 3, 3, 3, 4, 3], "C": [np.nan] * 8})
    with pytest.raises(ValueError, match="key variable 'C' is missing in every record"):
        sdc.frequencies(df, ["A", "B", "C"])


@pytest.mark.sdcmicro
def test_all_missing_key_in_sdcmicro_changes_fk():
    import r_bridge

    df = pd.DataFrame({"A": [2, 3, np.nan, 2, 3, 3, 1, 2], "B": [3, 3, np.nan, 3, 3, 3, 4, 3], "C": [np.nan] * 8})
    with_c = r_bridge.freq_calc(df, ["A", "B", "C"]).fk.tolist()
    without_c = r_bridge.freq_calc(df, ["A", "B"]).fk.tolist()
    assert with_c == [4, 4, 8, 4, 4, 4, 2, 4]  # golden D3 of test_freqCalc.R
    assert without_c != with_c
    assert sdc.frequencies(df, ["A", "B"]).sample_frequency.tolist() == without_c


# 3. Weights below 1 (and missing weights): sdcMicro computes p_k > 1 risks; sdc refuses.
def test_weights_below_one_are_refused_but_the_kernel_matches_sdcmicro():
    df = pd.DataFrame({"a": [1, 1], "w": [0.5, 0.5]})
    with pytest.raises(ValueError, match="must be >= 1"):
        sdc.individual_risk(df, ["a"], weights="w")
    # fk = 2, Fk = 1: sdcMicro gives 0.772588722239781 (reference section 2.1)
    assert pattern_risk(np.array([2.0]), np.array([1.0]), weighted=True)[0] == pytest.approx(0.772588722239781, rel=1e-13)


# 4. method="exact" for large classes: sdcMicro's closed form overflows; sdc's series does not.
def test_exact_risk_is_finite_for_large_classes():
    r = pattern_risk(np.array([160.0]), np.array([16000.0]), weighted=True, method="exact")[0]
    assert 0 < r < 1 and r == pytest.approx(1 / 16000, rel=0.02)


@pytest.mark.sdcmicro
def test_sdcmicro_exact_risk_overflows_for_large_classes():
    import r_bridge

    df = pd.DataFrame({"a": [1] * 160, "w": [100.0] * 160})
    rk = r_bridge.indiv_risk(df, ["a"], w="w", method="exact")["rk"]
    assert not np.isfinite(rk).any()
    ours = sdc.individual_risk(df, ["a"], weights="w", method="exact").risk
    assert np.isfinite(ours).all()


# 5. Float keys: sdcMicro's missing-value matching compares a pattern's values printed to 15
#    significant digits with the others' exact values, so 0.1 + 0.2 ("0.3") matches 0.3 but
#    not the other way round; sdc compares values exactly, and symmetrically, everywhere.
def test_float_keys_compare_exactly():
    df = pd.DataFrame({"a": [0.1 + 0.2, 0.3, 5.0], "b": [np.nan, np.nan, 5.0]})
    assert sdc.frequencies(df, ["a", "b"]).sample_frequency.tolist() == [1, 1, 1]


@pytest.mark.sdcmicro
def test_sdcmicro_matches_floats_by_their_printed_form():
    import r_bridge

    df = pd.DataFrame({"a": [0.1 + 0.2, 0.3, 5.0], "b": [np.nan, np.nan, 5.0]})
    assert r_bridge.freq_calc(df, ["a", "b"]).fk.tolist() == [2, 1, 1]


# 6. Reproduced on purpose (default mode), with a warning: fractional fk in (1, 2) gets risk 0.
def test_fractional_fk_risk_zero_is_reproduced_with_a_warning():
    df = pd.DataFrame({"a": [1, 1, np.nan, 5], "b": [1, np.nan, 7, 5], "w": [10.0, 20, 30, 40]})
    with pytest.warns(sdc.SdcWarning, match="risk 0, as sdcMicro does"):
        r = sdc.individual_risk(df, ["a", "b"], weights="w", alpha=0.5)
    assert r.risk.iloc[0] == 0.0 and r.sample_frequency.iloc[0] == 1.5


# 7. The "higher risk" count: print.measure_risk uses median + 3 MAD, print(sdcObj) 2 MAD.
def test_higher_risk_count_has_both_conventions():
    # classes of 1, 2, 5, 5, 8 records: risks 1, 0.5 (x2), 0.2 (x10), 0.125 (x8);
    # median 0.2, MAD 1.4826 * 0.075: 3 MAD -> 0.533 (1 record), 2 MAD -> 0.422 (3 records)
    df = pd.DataFrame({"k": np.repeat(np.arange(5), [1, 2, 5, 5, 8])})
    r = sdc.individual_risk(df, ["k"])
    assert r.n_higher_risk(3.0) == 1 and r.n_higher_risk(2.0) == 3


# 8. alpha with the data-frame API: sdcMicro's measure_risk(df, alpha=) fails; sdc takes alpha.
def test_alpha_is_an_argument():
    df = pd.DataFrame({"a": [1, 1, np.nan], "b": [1, np.nan, 2]})
    assert not math.isnan(sdc.individual_risk(df, ["a", "b"], alpha=0.5).global_risk)


# 9. Mixed-type object keys: 1 and "1" are different values in sdc; the bridge passes the
#    column to R as a factor of strings, where both become level "1".
def test_mixed_type_values_stay_distinct():
    df = pd.DataFrame({"k": [1, "1", 2]})
    assert sdc.frequencies(df, ["k"]).sample_frequency.tolist() == [1, 1, 1]


@pytest.mark.sdcmicro
def test_bridge_makes_mixed_type_values_one_level():
    import r_bridge

    df = pd.DataFrame({"k": [1, "1", 2]})
    assert r_bridge.freq_calc(df, ["k"]).fk.tolist() == [2, 2, 1]


# 15. l-diversity keys: sdcMicro puts numeric keys within 1e-9 of each other in one class.
def test_ldiversity_keys_are_compared_exactly():
    df = pd.DataFrame({"k": [1.0, 1.0 + 1e-12], "s": ["a", "b"]})
    assert sdc.l_diversity(df, ["k"], "s").n_classes == 2


@pytest.mark.sdcmicro
def test_sdcmicro_ldiversity_merges_keys_within_tolerance():
    import r_bridge

    df = pd.DataFrame({"k": [1.0, 1.0 + 1e-12], "s": ["a", "b"]})
    assert r_bridge.ldiversity(df, ["k"], "s")["s_Distinct_Ldiversity"].tolist() == [2, 2]


# 16. The order of l-diversity classes, which only a class without observed values (all its
#     sensitive values sdcMicro's missing code) sees: in sdcmicro mode it takes the recursive
#     value of the class processed before it (row 12). sdcMicro's ldiversity turns a character
#     key into factor codes (as.factor: levels in the locale's collation) and processes the
#     classes in that order; sdc sorts string keys by code point, whatever the locale.
STALE = pd.DataFrame({"k": ["B"] * 4 + ["a"] * 3 + ["c"] * 2, "s": [1, 1, 1, 2, 1, 2, 3, -999, -999]})


def test_stale_recursive_value_follows_code_point_order():
    r = sdc.l_diversity(STALE, ["k"], "s", mode="sdcmicro").records["s_Recursive_Ldiversity"]
    # recursive (2, l): class B (counts 3, 1) has 1, class a (1, 1, 1) has 3; "B" < "a" < "c"
    # by code point, so class c follows a and takes 3
    assert r.tolist() == [1, 1, 1, 1, 3, 3, 3, 3, 3]


@pytest.mark.sdcmicro
def test_sdcmicro_stale_recursive_value_follows_the_locale_collation():
    import rpy2.robjects as ro

    import r_bridge

    r = list(ro.r('local({df <- data.frame(k = c(rep("B", 4), rep("a", 3), rep("c", 2)), '
                  's = c(1, 1, 1, 2, 1, 2, 3, -999, -999), stringsAsFactors = FALSE); '
                  'as.numeric(unclass(sdcMicro::ldiversity(df, keyVars = "k", ldiv_index = "s"))'
                  '[, "s_Recursive_Ldiversity"])})'))
    collated = list(ro.r('sort(c("a", "B", "c"))'))  # R's collation (ICU or the locale's)
    before_c = collated[collated.index("c") - 1]
    assert r[:7] == [1, 1, 1, 1, 3, 3, 3]
    assert r[7:] == [{"B": 1, "a": 3}[before_c]] * 2  # "a" < "B" < "c" outside the C locale: 1
    # the bridge passes factors with levels in code-point order, as sdc sorts, so the
    # cross-validation agrees with sdc
    assert r_bridge.ldiversity(STALE, ["k"], "s")["s_Recursive_Ldiversity"].tolist() == [1, 1, 1, 1, 3, 3, 3, 3, 3]


# 23. modRisk with a missing weight: sdcMicro accepts it (NA in the cell sums) and returns
#     figures (method CE stops in its glm); sdc refuses, as every weight check does (row 3).
def _modrisk_data() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"a": rng.choice(list("xyzu"), 30), "b": rng.choice(list("pqr"), 30),
                       "w": rng.uniform(5, 50, 30).round(1)})
    df.loc[16, "w"] = np.nan  # a sample unique's weight
    return df


def test_modrisk_missing_weights_are_refused():
    with pytest.raises(ValueError, match=r"weight column 'w' has 1 missing value\(s\), first at index 16"):
        sdc.model_risk(_modrisk_data(), ["a", "b"], weights="w")


@pytest.mark.sdcmicro
def test_sdcmicro_modrisk_accepts_missing_weights():
    import r_bridge

    df = _modrisk_data()
    for method in ("default", "PML", "weightedLLM", "IPF"):
        r = r_bridge.mod_risk(df, "~ a + b", weights="w", method=method)
        assert np.isfinite(r["gr1"]) and np.isfinite(r["gr2"]) and r["gr1"] > 0, method
    with pytest.raises(r_bridge.RBridgeError, match="NA/NaN/Inf in 'y'"):
        r_bridge.mod_risk(df, "~ a + b", weights="w", method="CE")
