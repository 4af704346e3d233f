"""ARX's further quality models (sdc.identify.metrics_arx): hand-computed values on the
hand-built lattice of test_search, and the lower bounds used for pruning never above the value
(hypothesis brute force over every node)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.identify.criteria import class_checks
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.lattice import Problem
from sdc.identify.metrics import MetricTables
from sdc.identify.metrics_arx import ARX_EXTRA
from sdc.identify.search import generalisation_search
from tests.identify.test_search import _hand
from tests import scale


def _tables() -> tuple[Problem, MetricTables]:
    data, hs = _hand()
    p = Problem.encode(data, hs, [])
    return p, MetricTables(p)


@pytest.mark.parametrize("metric, want", [
    # classes {20s,*} and {30s,*} of 4 records; r(age decade) = 4 of 8 rows, r(sex *) = 2 of 2
    ("ambiguity", 4 * 4 * 2 + 4 * 4 * 2),
    # every tuple distinct (f = 1/8), q = (4/8) / (4 * 2) = 1/16: 8 * 1/8 * log2(2)
    ("kl_divergence", 1.0),
    # IL = 1 + log10(1/2 * 1) / log10(8 * 2) = 0.75 per record
    ("entropy_loss", 8 * 0.75),
    # payout per record 1200 * 0.25 - 300 / 4 (adversary's 300/4 - 4 > 0): lost 1200 - 225 each
    ("publisher_payout", 8 * (1200 - (1200 * 0.25 - 300 / 4))),
    # nue: age 8 log2(4) = 16 of its bound 8 log2(8) = 24; sex 8 log2(2) = 8 of 8
    ("nue_normalised", 16 / 24 + 1.0),
])
def test_hand_values(metric: str, want: float) -> None:
    p, tabs = _tables()
    t, _ = p.table_at((1, 1))
    assert tabs.value(metric, (1, 1), t, np.ones(t.n_groups, dtype=bool)) == pytest.approx(want, rel=1e-12)


def test_suppressed_records_cost_the_most() -> None:
    p, tabs = _tables()
    t, _ = p.table_at((0, 0))
    none = np.zeros(t.n_groups, dtype=bool)
    assert tabs.value("ambiguity", (0, 0), t, none) == 8 * 8 * 2
    assert tabs.value("entropy_loss", (0, 0), t, none) == 8.0
    assert tabs.value("publisher_payout", (0, 0), t, none) == 8 * 1200.0


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.data())
def test_bounds_never_exceed_values(d: st.DataObject) -> None:
    n = d.draw(st.integers(3, 14))
    a = np.array(d.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    b = np.array(d.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    data = pd.DataFrame({"a": a.astype(str), "b": b.astype(str)})
    ha = Hierarchy(np.array([[str(v), str(v // 2), str(v // 4), "*"] for v in range(6)], dtype=object), name="a")
    hb = Hierarchy(np.array([[str(v), "*"] for v in range(3)], dtype=object), name="b")
    p = Problem.encode(data, {"a": ha, "b": hb}, [])
    tabs = MetricTables(p)
    lat = p.lattice()
    rng = np.random.default_rng(d.draw(st.integers(0, 99)))
    for metric in (m for m in ARX_EXTRA if m != "classification"):  # it needs a response: its own tests
        lb = tabs.lower_bounds(metric, lat)
        for i in range(lat.size):
            node = lat.node(i)
            t, _ = p.table_at(node)
            for kept in (np.ones(t.n_groups, dtype=bool), rng.random(t.n_groups) < 0.5):
                assert lb[i] <= tabs.value(metric, node, t, kept) + 1e-9, (metric, node)
            if metric != "kl_divergence":  # without suppression the value grows under generalisation
                for j in np.flatnonzero(lat.up_set(i)):
                    u = lat.node(j)
                    tu, _ = p.table_at(u)
                    assert tabs.value(metric, u, tu, np.ones(tu.n_groups, dtype=bool)) >= \
                        tabs.value(metric, node, t, np.ones(t.n_groups, dtype=bool)) - 1e-9, (metric, node, u)


@pytest.mark.parametrize("metric", ARX_EXTRA)
def test_pruned_search_equals_exhaustive(metric: str) -> None:
    data, hs = _hand()
    kw = {"response": "dx"} if metric == "classification" else {}
    r = generalisation_search(data, hs, k=2, suppression_limit=0.25, metric=metric, exhaustive=False, **kw)
    e = generalisation_search(data, hs, k=2, suppression_limit=0.25, metric=metric, exhaustive=True, **kw)
    assert r.loss == pytest.approx(e.loss, rel=1e-12) and r.levels == e.levels
