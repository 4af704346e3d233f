"""ARX's attribute weights in the multi-dimensional metrics (sdc.identify.metrics): hand-computed
values, equal weights giving the unweighted values byte for byte, ARX's published weighted Loss
values (TestUtilityMetricsLoss.java), brute force from the definitions over every node, and bad
weights refused in one line."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.identify._search_args import attribute_weights
from sdc.identify.criteria import class_checks
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.lattice import Problem
from sdc.identify.metrics import METRICS, MetricTables
from sdc.identify.search import generalisation_search
from tests import scale
from tests.identify.test_search import NO_OCC, _h, adult, needs_adult  # noqa: F401 (the fixture)
from tests.search_brute import metric as brute_metric, node_classes

WEIGHTED = ("nue", "nue_monotonic", "loss", "precision", "precision_monotonic", "height", "nue_normalised")


def _small() -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    """Four records; a: 1, 2 -> "1-2", 3, 4 -> "3-4" -> "*"; b: x, y -> "*"."""
    data = pd.DataFrame({"a": ["1", "2", "3", "4"], "b": ["x", "x", "y", "y"], "y": ["p", "q", "p", "p"]})
    ha = Hierarchy(np.array([[v, "1-2" if v in "12" else "3-4", "*"] for v in "1234"], dtype=object), name="a")
    hb = Hierarchy(np.array([["x", "*"], ["y", "*"]], dtype=object), name="b")
    return data, {"a": ha, "b": hb}


def _lattice_loss(metric: str, weights: dict | None, **kw: object) -> pd.Series:
    data, hs = _small()
    kw = {"response": "y", **kw} if metric == "classification" else kw  # y: the classification's response
    r = generalisation_search(data, hs, k=2, suppression_limit=1.0, metric=metric, attribute_weights=weights,
                              exhaustive=True, **kw)
    return r.lattice.set_index(["a", "b"])["loss"]


@pytest.mark.parametrize("metric, want_10, want_00", [
    # node (1, 0): classes {1-2, x} and {3-4, y} of 2, none suppressed; (0, 0): all four suppressed.
    # weights a = 2, b = 1 -> normalised 1 and 0.5; H_a = 2, H_b = 1
    ("height", 1 * 1.0 + 0 * 0.5, 0.0),
    ("precision_monotonic", 0.5 / 2 * 1.0 + 0.0 / 2 * 0.5, 0.0),
    ("precision", 0.5 / 2 * 1.0 + 0.0 / 2 * 0.5, 1 / 2 * 1.0 + 1 / 2 * 0.5),  # a suppressed record costs 1
    # a: four values of 1 record in labels of 2 -> 4 log2(2) = 4; b at level 0 -> 0
    ("nue_monotonic", 4.0 * 1.0 + 0.0 * 0.5, 0.0),
    # suppressed: per column sum_g c_g log2(S / c_g) over the original labels: a 4 log2(4), b 2 * 2 log2(2)
    ("nue", 4.0, 8.0 * 1.0 + 4.0 * 0.5),
    # a: 4 / (4 log2 4) = 0.5; b: 0
    ("nue_normalised", 0.5 * 1.0, 1.0 * 1.0 + 1.0 * 0.5),
    # a: L = 4 * 2/4 = 2, (2 - 1) / (4 - 1) = 1/3 rounded down to 10 decimals; b: 0; all suppressed: 1 and 1
    ("loss", math.sqrt(0.3333333333 * 1.0 + 1) * math.sqrt(0 * 0.5 + 1) - 1,
     math.sqrt(1 * 1.0 + 1) * math.sqrt(1 * 0.5 + 1) - 1),
])
def test_hand_values(metric: str, want_10: float, want_00: float) -> None:
    loss = _lattice_loss(metric, {"a": 2, "b": 1})
    assert loss[(1, 0)] == pytest.approx(want_10, rel=1e-12, abs=1e-15)
    assert loss[(0, 0)] == pytest.approx(want_00, rel=1e-12, abs=1e-15)


def test_an_unnamed_quasi_identifier_weighs_arx_default() -> None:
    # b unnamed weighs 0.5, a 2: normalised 1 and 0.25 (ARX's getAttributeWeight default 0.5)
    assert attribute_weights({"a": 2}, ("a", "b")) == (1.0, 0.25)
    assert attribute_weights({"a": 0.25}, ("a", "b")) == (0.5, 1.0)
    assert attribute_weights({"a": 0, "b": 0}, ("a", "b")) is None  # all 0: every weight 1, as ARX
    assert attribute_weights({}, ("a", "b")) is None and attribute_weights({"a": 7, "b": 7}, ("a", "b")) is None
    assert _lattice_loss("height", {"a": 2})[(1, 1)] == 1.25


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("weights", [{}, {"a": 3, "b": 3}, {"a": 0, "b": 0}, {"a": 0.5}])
def test_equal_weights_are_the_unweighted_metric(metric: str, weights: dict) -> None:
    """Equal weights (or none named) normalise to 1 each: the unweighted numbers, byte for byte."""
    data, hs = _small()
    kw = {"response": "y"} if metric == "classification" else {}
    base = generalisation_search(data, hs, k=2, suppression_limit=0.5, metric=metric, exhaustive=True, **kw)
    r = generalisation_search(data, hs, k=2, suppression_limit=0.5, metric=metric, exhaustive=True,
                              attribute_weights=weights, **kw)
    assert r.loss == base.loss and r.levels == base.levels and r.attribute_weights is None
    assert r.lattice["loss"].equals(base.lattice["loss"])


@pytest.mark.parametrize("metric", [m for m in METRICS if m not in WEIGHTED])
def test_single_dimensional_metrics_ignore_weights(metric: str) -> None:
    assert _lattice_loss(metric, {"a": 1, "b": 0.1}).equals(_lattice_loss(metric, None))


@pytest.mark.parametrize("value, error, words", [
    ({"a": -1}, ValueError, "`attribute_weights['a']` must lie in [0, inf]; got -1."),
    ({"a": "heavy"}, TypeError, "`attribute_weights['a']` must be a number; got 'heavy'."),
    ({"a": True}, TypeError, "`attribute_weights['a']` must be a number; got True."),
    ({"a": math.nan}, ValueError, "`attribute_weights['a']` must lie in [0, inf]; got nan."),
    ({"a": math.inf}, ValueError, "`attribute_weights['a']` must lie in [0, inf]; got inf."),
    ({"aa": 1}, ValueError, "`attribute_weights` names 'aa', which is not a quasi-identifier (one of 'a', 'b')"),
    ([1, 2], TypeError, "`attribute_weights` must be a mapping of quasi-identifier -> weight"),
])
def test_bad_weights_are_refused_in_one_line(value: object, error: type, words: str) -> None:
    data, hs = _small()
    with pytest.raises(error) as e:
        generalisation_search(data, hs, k=2, attribute_weights=value)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_unknown_name_suggests_the_closest() -> None:
    data = pd.DataFrame({"age": ["1", "2"], "sex": ["x", "y"]})
    hs = {"age": Hierarchy(np.array([["1", "*"], ["2", "*"]], dtype=object)),
          "sex": Hierarchy(np.array([["x", "*"], ["y", "*"]], dtype=object))}
    with pytest.raises(ValueError, match=r"\(did you mean 'age'\?\)"):
        generalisation_search(data, hs, k=1, attribute_weights={"agee": 1})


def test_weights_are_reported() -> None:
    data, hs = _small()
    r = generalisation_search(data, hs, k=2, metric="height", attribute_weights={"a": 4, "b": 1})
    assert r.attribute_weights == {"a": 1.0, "b": 0.25}
    s = r.summary().set_index("statistic")
    assert s.loc["attribute_weights", "value"] == {"a": 1.0, "b": 0.25}


@settings(max_examples=scale.examples(30), deadline=None)
@given(st.data())
def test_weighted_metrics_are_their_definitions_on_every_node(d: st.DataObject) -> None:
    """Brute force: on random frames and weights, every node's weighted value is ARX's aggregate of
    the per quasi-identifier values computed from the definitions (tests/search_brute.py), the
    lower bounds never exceed it, and the pruned search finds the exhaustive optimum."""
    n = d.draw(st.integers(3, 12))
    a = np.array(d.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    b = np.array(d.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    data = pd.DataFrame({"a": a.astype(str), "b": b.astype(str)})
    ha = Hierarchy(np.array([[str(v), str(v // 2), str(v // 4), "*"] for v in range(6)], dtype=object), name="a")
    hb = Hierarchy(np.array([[str(v), "*"] for v in range(3)], dtype=object), name="b")
    raw = {"a": d.draw(st.floats(0, 5)), "b": d.draw(st.floats(0, 5))}
    w = attribute_weights(raw, ("a", "b"))
    p = Problem.encode(data, {"a": ha, "b": hb}, [])
    p = Problem(qis=p.qis, sensitive=p.sensitive, base=p.base, record_group=p.record_group, n=p.n, weights=w)
    tabs, lat = MetricTables(p), p.lattice()
    raw_tabs = {"a": ha.table, "b": hb.table}
    rng = np.random.default_rng(d.draw(st.integers(0, 99)))
    for metric in ("nue", "nue_monotonic", "loss", "precision", "precision_monotonic", "height"):
        lb = tabs.lower_bounds(metric, lat)
        for i in range(lat.size):
            node = lat.node(i)
            t, ids = p.table_at(node)
            kept = rng.random(t.n_groups) < 0.6
            got = tabs.value(metric, node, t, kept)
            classes = node_classes(data, raw_tabs, tuple(node))
            # the brute force's classes in the order of t's: by each class's first record
            order = {int(ids[p.record_group[c[0]]]): c for c in classes}
            want = brute_metric(data, raw_tabs, tuple(node), [order[g] for g in range(t.n_groups)], list(kept),
                                metric, list(w) if w is not None else None)
            # rel and abs 1e-9: ARX rounds loss and nue down to 10 decimals per column, and a value
            # on a multiple of 1e-10 may floor either way in another order of operations
            assert got == pytest.approx(want, rel=1e-9, abs=1e-9), (metric, node, w)
            assert lb[i] <= got + 1e-9, (metric, node, w)
    for metric in WEIGHTED:
        pr = generalisation_search(data, {"a": ha, "b": hb}, k=2, suppression_limit=0.25, metric=metric,
                                   attribute_weights=raw, exhaustive=False)
        ex = generalisation_search(data, {"a": ha, "b": hb}, k=2, suppression_limit=0.25, metric=metric,
                                   attribute_weights=raw, exhaustive=True)
        assert pr.loss == pytest.approx(ex.loss, rel=1e-12, abs=1e-15), metric


# ARX's TestUtilityMetricsLoss.java (master aacd487), lines 106-115: Loss with gs-factor 0.5 and the
# RANK aggregate, each attribute weighted by its column number in adult.csv (sex 1 ... salary-class
# 9; occupation, 8, is sensitive): the optimum's weighted per quasi-identifier losses w_j L_j,
# sorted descending. (limit, models, ARX's optimal transformation, ARX's vector); duplicates dropped.
ARX_WEIGHTED_LOSS = [
    (1.0, "kt", (1, 4, 1, 2, 2, 1, 0, 0), [0.4444444444444444, 0.3789536502, 0.3663848550666667, 0.33608022844444446,
                                          0.3333333333333333, 0.2947417279333333, 0.2222222222222222, 0.1111111111111111]),
    (1.0, "k", (1, 3, 0, 0, 0, 0, 0, 0), [0.1485312645, 0.11552431683333335, 0.1111111111111111, 0.099020843,
                                         0.08251736916666667, 0.06932099024444444, 0.06601389533333334, 0.0495104215]),
    (1.0, "t", (1, 4, 1, 2, 2, 1, 0, 0), [0.4444444444444444, 0.3789536502, 0.3663848550666667, 0.33608022844444446,
                                         0.3333333333333333, 0.2947417279333333, 0.2222222222222222, 0.1111111111111111]),
    (1.0, "l", (1, 4, 0, 0, 1, 0, 0, 0), [0.2222222222222222, 0.19350814244444445, 0.1844373715, 0.14345128894444445,
                                         0.12295824766666666, 0.1111111111111111, 0.0819721651111111, 0.06147912383333333]),
    (0.05, "kt", (1, 4, 1, 1, 2, 1, 2, 1), [1.0, 0.7777777777777778, 0.3333333333333333, 0.2222222222222222,
                                           0.22178016483333335, 0.20600362977777778, 0.2052615874, 0.1111111111111111]),
    (0.05, "l", (1, 4, 0, 1, 2, 1, 1, 0), [0.24683008046666668, 0.2222222222222222, 0.21898169633333336,
                                          0.20640884897777778, 0.20387905306666665, 0.1111111111111111, 0.0442941449,
                                          0.014764714966666665]),
    (0.05, "t", (1, 4, 1, 1, 2, 1, 2, 1), [1.0, 0.7777777777777778, 0.3333333333333333, 0.2222222222222222,
                                          0.22178016483333335, 0.20600362977777778, 0.2052615874, 0.1111111111111111]),
]


@needs_adult
@pytest.mark.parametrize("limit, models, node, want", ARX_WEIGHTED_LOSS)
def test_arx_weighted_loss_on_its_test_transformations(adult: pd.DataFrame, limit: float, models: str,  # noqa: F811
                                                       node: tuple, want: list) -> None:
    """ARX's weighted per quasi-identifier Loss at its optimum (the classes failing the models
    suppressed), to 1e-12 relative: the weights normalised by the largest quasi-identifier weight
    (salary-class's 9), each multiplying its column's rounded, normalised Loss."""
    from sdc.identify._search_args import resolve

    kw = dict(t_distance="hierarchical") if "t" in models else {}
    args = resolve(adult, _h(NO_OCC, kw), "occupation" if models != "k" else None, 5 if "k" in models else None,
                   {"occupation": 5} if "l" in models else None, "recursive", 4.0,
                   {"occupation": 0.2} if "t" in models else None, kw.get("t_distance", "equal"), None, "basic", None)
    columns = list(adult.columns)
    w = attribute_weights({q: columns.index(q) + 1 for q in args.hierarchies}, tuple(args.hierarchies))
    assert w is not None and max(w) == 1.0
    p = Problem.encode(adult, args.hierarchies, args.sensitive, args.sensitive_hierarchies)
    tables = MetricTables(p)
    t, _ = p.table_at(node)
    kept = class_checks(t, args.models, {s.name: i for i, s in enumerate(p.sensitive)},
                        {s.name: s.q for s in p.sensitive}, p.trees)
    assert int(t.counts[~kept].sum()) <= math.floor(limit * p.n)
    got = sorted((x * wj for x, wj in zip(tables.loss_columns(node, t, kept), w)), reverse=True)
    assert got == pytest.approx(want, rel=1e-12)


# ARX (master aacd487, built from its sources) run on adult by validation/arx/ArxQuality.java:
# k = 5, the eight quasi-identifiers but occupation (insensitive), each weighted by its column number
# as in TestUtilityMetricsLoss.java; (metric, suppression limit, ARX's optimum, its loss).
ARX_WEIGHTED_OPTIMA = [
    ("nue", 0.0, (1, 4, 1, 2, 0, 2, 2, 0), 122903.46956778626),
    ("nue", 0.04, (0, 4, 1, 0, 0, 2, 0, 0), 69225.02181364494),
    ("nue_monotonic", 0.0, (1, 4, 1, 2, 0, 2, 2, 0), 122903.46956778626),
    ("nue_monotonic", 0.04, (0, 4, 1, 0, 0, 2, 0, 0), 62351.33703343816),
    ("loss", 0.0, (1, 4, 1, 1, 3, 2, 0, 0), 0.24023964661489328),
    ("loss", 0.04, (0, 4, 0, 0, 2, 1, 0, 0), 0.0894864179870225),
    ("precision", 0.0, (1, 4, 1, 1, 3, 2, 0, 0), 0.2638888888888889),
    ("precision", 0.04, (1, 4, 0, 0, 1, 1, 0, 0), 0.12255517735094686),
    ("precision_monotonic", 0.0, (1, 4, 1, 1, 3, 2, 0, 0), 0.2638888888888889),
    ("precision_monotonic", 0.04, (1, 4, 0, 0, 1, 1, 0, 0), 0.10648148148148148),
    ("height", 0.0, (1, 4, 1, 1, 3, 2, 0, 0), 4.777777777777778),
    ("height", 0.04, (1, 4, 0, 0, 1, 1, 0, 0), 2.2222222222222223),
    ("nue_normalised", 0.0, (1, 4, 1, 1, 3, 2, 0, 0), 2.089866182584666),
    ("nue_normalised", 0.04, (1, 4, 0, 1, 2, 0, 0, 0), 1.1671487292706058),
]


@needs_adult
@pytest.mark.parametrize("metric, limit, node, loss", ARX_WEIGHTED_OPTIMA)
def test_arx_weighted_optima(adult: pd.DataFrame, metric: str, limit: float, node: tuple,  # noqa: F811
                             loss: float) -> None:
    """The weighted search finds ARX's optimum and ARX's loss (bit for bit but the normalised NUE's
    last digits: 2e-15 relative)."""
    columns = list(adult.columns)
    r = generalisation_search(adult, _h(NO_OCC), k=5, suppression_limit=limit, metric=metric,
                              attribute_weights={q: columns.index(q) + 1 for q in NO_OCC})
    assert tuple(r.levels[q] for q in NO_OCC) == node
    assert r.loss == pytest.approx(loss, rel=1e-12)
