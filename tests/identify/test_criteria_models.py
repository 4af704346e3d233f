"""The privacy models that ARX has and the search gained in issue 30: Grassberger entropy
l-diversity, t-closeness with hierarchical ground distance, delta-disclosure in ARX's definition,
and ARX's practical monotonicity (sdc.identify.criteria, sdc.identify.search). Hand-computed
values; the brute force of tests/identify/test_search.py covers them on random data too."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.attribute._diversity import grassberger_entropy, grassberger_g
from sdc.identify.criteria import Models, pop_suppression, population_uniqueness_met
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.search import generalisation_search
from sdc.risk.uniqueness import class_size_histogram, zayatz
from tests.search_brute import grassberger_g as brute_g
from tests.search_brute import hierarchical_emd

EULER = 0.5772156649015329


def _two_classes(a: list, b: list) -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    """Quasi-identifier g (A, B; level 1 merges them) and sensitive dx: class A holds `a`, B `b`."""
    data = pd.DataFrame({"g": ["A"] * len(a) + ["B"] * len(b), "dx": a + b})
    return data, {"g": Hierarchy(np.array([["A", "*"], ["B", "*"]], dtype=object), name="g")}


# ----------------------------------------------------------------------------- Grassberger


def test_grassberger_g_from_its_definition() -> None:
    # G(1) = psi(1) - (psi(1) - psi(1/2)) / 2 = -gamma - ln 2; G(2) = psi(2) + (psi(3/2) - psi(1)) / 2
    # = 1 - gamma + (2 - 2 ln 2) / 2; G(2m + 1) = G(2m); G(n) -> ln n
    g = grassberger_g(np.array([1, 2, 3, 4, 5, 1000, 1001]))
    assert g[0] == pytest.approx(-EULER - math.log(2), abs=1e-15)
    assert g[1] == pytest.approx(1 - EULER + 1 - math.log(2), abs=1e-15) and g[2] == g[1]
    assert g[3] == pytest.approx(g[1] + 2 / 3, abs=1e-15) and g[4] == g[3]  # G(4) = G(2) + 2/3
    assert g[5] == pytest.approx(math.log(1000), abs=1e-6) and g[6] == g[5]
    # the series above 100 against the exact sum
    for n in (101, 102, 150, 999, 30162):
        assert grassberger_g(np.array([n]))[0] == pytest.approx(brute_g(n), abs=2e-14)


def test_grassberger_entropy_is_not_monotone() -> None:
    # two classes {a, b}: H_G = G(2) - G(1) = 2, l = e^2; merged {a, a, b, b}: G(4) - G(2) = 2/3
    h = grassberger_entropy(np.array([0, 0, 1, 1, 2, 2]), np.array([1, 1, 1, 1, 2, 2]), 3)
    assert h == pytest.approx([2.0, 2.0, 2 / 3], abs=1e-14)
    data, hs = _two_classes(["a", "b"], ["a", "b"])
    r = sdc.l_diversity(data, ["g"], "dx")
    assert r.classes["dx_grassberger"].tolist() == pytest.approx([math.exp(2)] * 2)
    # the search: both classes meet l = 2, their merge does not; the pruned search must not tag
    # the generalisation as passing (Grassberger's estimator is not monotone)
    res = generalisation_search(data, hs, l={"dx": 2}, l_variant="grassberger", suppression_limit=0,
                                exhaustive=False)
    assert res.levels == {"g": 0} and res.achieved["l"]["dx"] == pytest.approx(math.exp(2))
    lat = res.lattice.set_index("g")
    assert lat.loc[1, "status"] == "not anonymous"
    with pytest.raises(ValueError, match=r"no transformation meets .*entropy 2 \(Grassberger\)"):
        generalisation_search(data, hs, l={"dx": 2}, l_variant="grassberger", k=3, suppression_limit=0)


def test_grassberger_needs_ceil_l_distinct_values() -> None:
    # {a, b}: exp(H_G) = 7.39 >= 2.5, but only 2 distinct values < ceil(2.5): fails (as in ARX)
    data, hs = _two_classes(["a", "b"], ["a", "b", "c"])
    r = generalisation_search(data, hs, l={"dx": 2.5}, l_variant="grassberger", suppression_limit=0.5)
    assert r.levels == {"g": 0} and r.suppressed == 2
    below = sdc.l_diversity(data, ["g"], "dx", l=3).classes_below("dx", measure="grassberger")
    assert below["g"].tolist() == ["A"]


# ----------------------------------------------------------------------------- hierarchical t-closeness

DX_TREE = np.array([["x", "xy", "*"], ["y", "xy", "*"], ["z", "z", "*"]], dtype=object)


def test_hierarchical_emd_by_hand() -> None:
    # q = (1/3, 1/3, 1/3). Class {x, x}: extras (2/3, -1/3, -1/3); node xy (level 1 of 2): min(2/3,
    # 1/3) / 2 = 1/6, extra 1/3; root: min(1/3, 1/3) = 1/3: EMD 1/2 (move 1/3 to y at distance
    # 1/2, 1/3 to z at distance 1). Class {y, y, z, z}: 1/12 + 1/6 = 1/4.
    q = {"x": 1 / 3, "y": 1 / 3, "z": 1 / 3}
    assert hierarchical_emd({"x": 1.0}, q, DX_TREE) == pytest.approx(0.5)
    assert hierarchical_emd({"y": 0.5, "z": 0.5}, q, DX_TREE) == pytest.approx(0.25)
    data, hs = _two_classes(["x", "x"], ["y", "y", "z", "z"])
    hs["dx"] = Hierarchy(DX_TREE, name="dx")
    r = generalisation_search(data, hs, t={"dx": 0.5}, t_distance="hierarchical", suppression_limit=0)
    assert r.levels == {"g": 0} and r.achieved["t"]["dx"] == pytest.approx(0.5)  # on the bound: meets it
    r = generalisation_search(data, hs, t={"dx": 0.4}, t_distance="hierarchical", suppression_limit=0)
    assert r.levels == {"g": 1} and r.achieved["t"]["dx"] == 0.0
    r = generalisation_search(data, hs, t={"dx": 0.4}, t_distance="hierarchical", suppression_limit=0.34)
    assert r.levels == {"g": 0} and r.suppressed == 2 and r.models["t_distance"] == "hierarchical"
    # a flat hierarchy (values -> *) is the equal distance
    hs["dx"] = Hierarchy(np.array([["x", "*"], ["y", "*"], ["z", "*"]], dtype=object), name="dx")
    flat = generalisation_search(data, hs, t={"dx": 0.7}, t_distance="hierarchical", suppression_limit=0)
    eq = generalisation_search(data, {"g": hs["g"]}, t={"dx": 0.7}, suppression_limit=0)
    assert flat.levels == eq.levels == {"g": 0}
    assert flat.achieved["t"]["dx"] == pytest.approx(eq.achieved["t"]["dx"]) == pytest.approx(2 / 3)


def test_hierarchical_distance_argument_errors() -> None:
    data, hs = _two_classes(["x", "x"], ["y", "z"])
    with pytest.raises(ValueError, match=r"needs the hierarchy of sensitive variable 'dx'"):
        generalisation_search(data, hs, t={"dx": 0.2}, t_distance="hierarchical")
    hs["dx"] = Hierarchy(np.array([["x", "*"], ["y", "*"]], dtype=object), name="dx")
    with pytest.raises(ValueError, match=r"sensitive variable 'dx' has values missing from its hierarchy.*'z'"):
        generalisation_search(data, hs, t={"dx": 0.2}, t_distance="hierarchical")
    with pytest.raises(ValueError, match="'dx' is both a quasi-identifier and a sensitive variable"):
        generalisation_search(data, hs, t={"dx": 0.2}, t_distance="equal")
    with pytest.raises(ValueError, match="`t_distance` must be one of"):
        generalisation_search(data, {"g": hs["g"]}, t={"dx": 0.2}, t_distance="tree")


# ----------------------------------------------------------------------------- delta-disclosure


def test_delta_disclosure_as_arx_defines_it() -> None:
    # q(x) = q(y) = 1/2; class A {x, x, y}: |log2(4/3)| = 0.415, |log2(2/3)| = 0.585 -> 0.585;
    # with the natural log 0.405. The top node (one class, p = q) has delta 0.
    data, hs = _two_classes(["x", "x", "y"], ["y", "y", "x"])
    r = generalisation_search(data, hs, delta={"dx": 0.6}, suppression_limit=0)
    assert r.levels == {"g": 0} and r.achieved["delta"]["dx"] == pytest.approx(math.log2(1.5))
    r = generalisation_search(data, hs, delta={"dx": 0.5}, suppression_limit=0)
    assert r.levels == {"g": 1} and r.achieved["delta"]["dx"] == 0.0
    r = generalisation_search(data, hs, delta={"dx": 0.5}, delta_variant="present", suppression_limit=0)
    assert r.levels == {"g": 0} and r.achieved["delta"]["dx"] == pytest.approx(math.log(1.5))
    # strict, as ARX and Brickell and Shmatikov: a class on the bound fails
    r = generalisation_search(data, hs, delta={"dx": math.log2(1.5)}, suppression_limit=0)
    assert r.levels == {"g": 1}
    # the measure agrees (ARX's variant)
    m = sdc.delta_disclosure(data, ["g"], "dx", delta=0.6, variant="arx")
    assert m.max_delta == pytest.approx(math.log2(1.5))
    assert "0.6-disclosure privacy of dx (arx)" in generalisation_search(
        data, hs, delta=0.6, sensitive="dx", suppression_limit=0).models["described"]


@pytest.mark.parametrize("kwargs, match", [
    ({"delta": 0, "sensitive": "dx"}, r"`delta` must lie in \(0, inf\]"),
    ({"delta": 1, "sensitive": "dx", "delta_variant": "ln"}, "`delta_variant` must be one of"),
    ({"delta": 1}, "`delta` needs `sensitive`"),
    ({"k": 2, "practical_monotonicity": "yes"}, "`practical_monotonicity` must be True or False"),
])
def test_argument_errors(kwargs: dict, match: str) -> None:
    data, hs = _two_classes(["x", "x", "y"], ["y", "y", "x"])
    with pytest.raises((ValueError, TypeError), match=match):
        generalisation_search(data, hs, **kwargs)


def test_practical_monotonicity_is_recorded_and_small_lattices_stay_exact() -> None:
    data, hs = _two_classes(["a", "b"], ["a", "b"])
    r = generalisation_search(data, hs, l={"dx": 2}, l_variant="grassberger", suppression_limit=0,
                              practical_monotonicity=True, exhaustive=True)
    assert r.models["practical_monotonicity"] is True and r.exhaustive and r.levels == {"g": 0}


def test_hierarchical_t_closeness_measure() -> None:
    """sdc.hierarchical_t_closeness: the same EMD per class as the search's criterion."""
    data, hs = _two_classes(["x", "x"], ["y", "y", "z", "z"])
    r = sdc.hierarchical_t_closeness(data, ["g"], "dx", Hierarchy(DX_TREE, name="dx"), t=0.3)
    assert r.distance == "hierarchical"
    assert r.classes["distance"].tolist() == pytest.approx([0.5, 0.25])
    assert r.max_t == pytest.approx(0.5) and r.n_classes_above_t == 1 and r.n_records_above_t == 2
    assert r.records.tolist() == pytest.approx([0.5] * 2 + [0.25] * 4)
    # a table works as well as a Hierarchy; a value missing from it is one line
    r2 = sdc.hierarchical_t_closeness(data, "g", "dx", pd.DataFrame(DX_TREE))
    assert r2.classes["distance"].tolist() == pytest.approx([0.5, 0.25])
    with pytest.raises(ValueError, match=r"sensitive variable 'dx' has values missing from its hierarchy.*'z'"):
        sdc.hierarchical_t_closeness(data, "g", "dx", DX_TREE[:2])
    with pytest.raises(TypeError, match="`hierarchy` must be"):
        sdc.hierarchical_t_closeness(data, "g", "dx", "not a table")


def test_hierarchical_measure_matches_the_brute_force_on_random_classes() -> None:
    rng = np.random.default_rng(3)
    tree = np.array([[v, v[0], "*"] for v in ["a1", "a2", "a3", "b1", "b2", "c1"]], dtype=object)
    for _ in range(20):
        n = int(rng.integers(5, 60))
        data = pd.DataFrame({"g": rng.integers(0, 5, n), "dx": rng.choice(tree[:, 0], n)})
        r = sdc.hierarchical_t_closeness(data, "g", "dx", tree)
        q = data["dx"].value_counts(normalize=True).to_dict()
        for g, cls in data.groupby("g"):
            want = hierarchical_emd(cls["dx"].value_counts(normalize=True).to_dict(), q, tree)
            got = r.classes.loc[r.classes["g"] == g, "distance"].item()
            assert got == pytest.approx(want, abs=1e-12)


def test_alpha_k_anonymity_by_hand() -> None:
    # class A {x, x, y}: x has 2/3; B {y, y, x}: y has 2/3; merged: 1/2
    data, hs = _two_classes(["x", "x", "y"], ["y", "y", "x"])
    r = generalisation_search(data, hs, k=3, alpha={"dx": 2 / 3}, suppression_limit=0)
    assert r.levels == {"g": 0} and r.achieved["alpha"]["dx"] == pytest.approx(2 / 3)  # on the bound
    r = generalisation_search(data, hs, k=3, alpha=0.6, sensitive="dx", suppression_limit=0)
    assert r.levels == {"g": 1} and r.achieved["alpha"]["dx"] == 0.5
    assert "alpha 0.6 of dx (largest share of a value in a class)" in r.models["described"]
    with pytest.raises(ValueError, match=r"`alpha` must lie in \(0, 1\]"):
        generalisation_search(data, hs, alpha=1.5, sensitive="dx")


def test_average_risk_limit_by_hand() -> None:
    # classes A (1 record), B (2), C (3): 3 classes / 6 records = 0.5. Limit 0.4: suppress the
    # smallest, A: 2 / 5 = 0.4 meets it (on the bound); with no suppression allowed only the top
    # node (one class) does.
    data = pd.DataFrame({"g": ["A", "B", "B", "C", "C", "C"], "dx": list("xyxyxy")})
    hs = {"g": Hierarchy(np.array([["A", "*"], ["B", "*"], ["C", "*"]], dtype=object), name="g")}
    r = generalisation_search(data, hs, avg_risk=0.4, suppression_limit=1 / 6)
    assert r.levels == {"g": 0} and r.suppressed == 1 and r.data["g"].isna().tolist() == [True] + [False] * 5
    assert "average re-identification risk <= 0.4" in r.models["described"] and r.models["avg_risk"] == 0.4
    r = generalisation_search(data, hs, avg_risk=0.4, suppression_limit=0)
    assert r.levels == {"g": 1} and r.suppressed == 0
    # ties go to the class whose first record comes first: B and D both have 2 records
    data = pd.DataFrame({"g": ["D", "B", "B", "D", "C", "C", "C"]})
    hs = {"g": Hierarchy(np.array([["B", "*"], ["C", "*"], ["D", "*"]], dtype=object), name="g")}
    r = generalisation_search(data, hs, avg_risk=0.4, suppression_limit=0.3)
    assert r.data["g"].isna().tolist() == [True, False, False, True, False, False, False]  # D: rows 0 and 3
    with pytest.raises(ValueError, match=r"`avg_risk` must lie in \(0, 1\]"):
        generalisation_search(data, hs, avg_risk=0)


def test_sample_uniqueness_limit_by_hand() -> None:
    # classes A, D (1 record each), B (2), C (3): 2 uniques of 7 records. Limit 0.2: suppress
    # one unique, the first (A, row 0): 1 / 6 <= 0.2; limit 0: both.
    data = pd.DataFrame({"g": ["A", "B", "B", "C", "C", "C", "D"]})
    hs = {"g": Hierarchy(np.array([["A", "*"], ["B", "*"], ["C", "*"], ["D", "*"]], dtype=object), name="g")}
    r = generalisation_search(data, hs, sample_uniques=0.2, suppression_limit=0.3)
    assert r.levels == {"g": 0} and r.data["g"].isna().tolist() == [True] + [False] * 6
    assert "share of sample uniques <= 0.2" in r.models["described"]
    r = generalisation_search(data, hs, sample_uniques=0.0, suppression_limit=0.3)
    assert r.suppressed == 2 and r.data["g"].isna().tolist() == [True] + [False] * 5 + [True]
    r = generalisation_search(data, hs, sample_uniques=0.0, suppression_limit=0.1)
    assert r.levels == {"g": 1}
    with pytest.raises(ValueError, match=r"`sample_uniques` must lie in \[0, 1\]"):
        generalisation_search(data, hs, sample_uniques=2)


def test_population_uniqueness_suppression_by_hand() -> None:
    """ARX's binary search on ten classes, three of them unique, limit 0 (no population unique
    allowed): 5 suppressed meets it, 2 do not, 3 do, and the final check of 2 adds the third; the
    three uniques go, nothing else. Nothing released, or no unique, meets it."""
    counts = np.array([5, 1, 5, 1, 5, 5, 1, 5, 5, 5])
    ok = np.ones(10, dtype=bool)
    order = np.argsort(counts, kind="stable")
    m = Models(pop_uniques=0.0, pop_model="zayatz", population_size=1000)
    kept = pop_suppression(counts, ok, order, m, limit=100)
    assert (~kept).nonzero()[0].tolist() == [1, 3, 6]
    assert population_uniqueness_met(np.array([], dtype=np.int64), 0.0, "zayatz", 1000)
    assert population_uniqueness_met(np.array([2, 5]), 0.0, "pitman", 1000)
    assert not population_uniqueness_met(np.array([1, 5, 5]), 0.0, "zayatz", 1000)
    # Zayatz's estimate of [1, 5, 5] with n = 11, N = 1000 against a threshold around it
    i, c = class_size_histogram(np.array([1, 5, 5]))
    frac = zayatz(i, c, 11, 1000) / 1000
    assert population_uniqueness_met(np.array([1, 5, 5]), frac, "zayatz", 1000)
    assert not population_uniqueness_met(np.array([1, 5, 5]), frac * 0.999, "zayatz", 1000)
    # an early stop: more than `limit` records suppressed in a failing state leaves it failing
    assert (~pop_suppression(counts, ok, order, m, limit=0)).sum() >= 1
