"""The registry of utility measures: what one entry gives compare and sweep.

The 2-file recipe of a utility measure, shown by doing it (commit e380de5, removed again in the
next: it would change every comparison's and sweep's outputs): ARX's discernibility and average
class size (already in sdc/utility/discernibility.py) entered the comparison's utility table and
the sweep's columns and utility axes through one entry in sdc/workflow/utility_registry.py. The
test below registers the same entry for its duration and shows each place it reaches.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.workflow import utility_registry
from sdc.workflow.measure import SHARE, Figure, UtilityMeasure
from sdc.workflow.plan import plan_from_mapping
from sdc.workflow.sweep import sweep

DISCERNIBILITY = UtilityMeasure(
    "example_discernibility", "discernibility and average class size (ARX), wildcard rule",
    lambda ctx: sdc.discernibility(ctx.original, ctx.released, list(ctx.keys)), function=sdc.discernibility,
    figures=(Figure("example_dm_retained", "discernibility: utility retained", SHARE, better="higher",
                    sweep="example_dm_retained", value=lambda d, cfg: float(d.discernibility_utility_retained)),
             Figure("example_aecs_retained", "average class size: utility retained", SHARE, better="higher",
                    sweep="example_aecs_retained", value=lambda d, cfg: float(d.aecs_utility_retained))))


def _data(n: int = 300, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"sex": rng.choice(["f", "m"], n), "region": rng.choice(list("abcd"), n),
                         "age": rng.integers(20, 80, n)})


def test_a_registered_utility_measure_is_in_compare_and_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(utility_registry, "UTILITY_MEASURES", (*utility_registry.UTILITY_MEASURES, DISCERNIBILITY))
    assert utility_registry.UTILITY_AXES["example_dm_retained"] is True  # higher is better: a utility axis
    original = _data()
    released = original.assign(age=(original["age"] // 20) * 20)
    c = sdc.compare(original, released, {"variables": {"categorical_keys": ["sex", "region", "age"]}})
    rows = c.utility_table.set_index("measure")["value"]
    direct = sdc.discernibility(original, released, ["sex", "region", "age"])
    assert rows["example_dm_retained"] == pytest.approx(direct.discernibility_utility_retained)
    assert rows["example_aecs_retained"] == pytest.approx(direct.aecs_utility_retained)
    plan = plan_from_mapping({"sweep": {"keys": ["sex", "region", "age"], "utility_axis": "example_dm_retained"},
                              "plan": {"seed": 1},
                              "steps": [{"method": "global_recode", "variables": ["age"], "grid": {"width": [10, 30]}}]},
                             source="test", sweep=True)
    res = sweep(original, plan)
    assert {"example_dm_retained", "example_aecs_retained"} <= set(res.table.columns)
    assert res.table.loc[0, "example_dm_retained"] == pytest.approx(1.0)  # the original keeps all its utility
    assert res.higher_is_better and res.table["non_dominated"].any()


def test_the_built_in_figures_are_the_sweep_row_and_the_comparison_rows() -> None:
    names = [f.name for m in utility_registry.UTILITY_MEASURES for f in m.figures]
    assert names == ["il1_overall", "eigen_similarity_pct", "nue", "nue_normalised", "nue_utility_retained",
                     "records_retained", "pct_records_retained", "cells_suppressed", "il_variables", "il_correl",
                     "robust_eigen", "ai_score", "sse_sst", "discernibility", "dm_utility_retained",
                     "average_class_size", "info_loss_absd", "info_loss_relabsd", "info_loss_abssqrtd",
                     "info_loss_false_zero"]
    assert [m.name for m in utility_registry.UTILITY_MEASURES if m.optional] == ["analysis_validity", "info_loss"]
    assert [m.per_variable.name for m in utility_registry.UTILITY_MEASURES if m.per_variable] == ["il1", "ci_overlap"]
    assert dict(utility_registry.UTILITY_AXES) == {
        "il1_overall": False, "eigen_similarity_pct": True, "nue_normalised": False, "nue_utility_retained": True,
        "pct_records_retained": True, "cells_suppressed": False, "il_variables": False, "il_correl": False,
        "robust_eigen": False, "ai_score": False, "sse_sst": True, "dm_utility_retained": True}


def test_mlodaks_measures_and_robeigen_reach_compare_as_declared():
    rng = np.random.default_rng(9)
    original = _data(120).assign(inc=rng.normal(1000, 100, 120), rent=rng.normal(400, 50, 120))
    released = original.assign(inc=original["inc"] + rng.normal(0, 30, 120), rent=original["rent"].round(-1),
                               age=(original["age"] // 20) * 20)
    c = sdc.compare(original, released, {"variables": {"categorical_keys": ["sex", "region", "age"]}})
    rows = c.utility_table.set_index("measure")["value"]
    changed = ["age", "inc", "rent"]
    assert rows["il_variables"] == pytest.approx(sdc.il_variables(original, released, changed).value, rel=1e-12)
    assert rows["il_correl"] == pytest.approx(sdc.il_correl(original, released, changed).value, rel=1e-12, abs=1e-15)
    assert rows["robust_eigen"] == pytest.approx(sdc.robust_eigen_loss(original, released, changed).value, rel=1e-12)
    keys = ["sex", "region", "age"]
    assert rows["ai_score"] == pytest.approx(sdc.ai_utility_score(original, released, keys, ["age", "inc", "rent"]).total,
                                             rel=1e-12)
    # with one numeric variable changed, the two correlation-based figures are NaN, not an error
    one = sdc.compare(original, original.assign(inc=original["inc"] + 1.0),
                      {"variables": {"categorical_keys": ["sex", "region"]}}).utility_table.set_index("measure")["value"]
    assert np.isnan(one["il_correl"]) and np.isnan(one["robust_eigen"]) and one["il_variables"] > 0


def test_sse_sst_reaches_compare_and_sweep_as_declared():
    """ARX's SSE/SST of the keys: the comparison's row is sdc.sse_sst (text keys by their ranks),
    higher is better, and it can be a sweep's utility axis."""
    original = _data()
    released = original.assign(age=(original["age"] // 20) * 20)
    keys = ["sex", "region", "age"]
    c = sdc.compare(original, released, {"variables": {"categorical_keys": keys}})
    rows = c.utility_table.set_index("measure")["value"]
    assert rows["sse_sst"] == pytest.approx(sdc.sse_sst(original, released, keys).value, rel=1e-12)
    assert 0 < rows["sse_sst"] < 1
    plan = plan_from_mapping({"sweep": {"keys": keys, "utility_axis": "sse_sst"}, "plan": {"seed": 1},
                              "steps": [{"method": "global_recode", "variables": ["age"], "grid": {"width": [10, 30]}}]},
                             source="test", sweep=True)
    res = sweep(original, plan)
    assert res.table.loc[0, "sse_sst"] == 1.0 and res.higher_is_better  # the original loses nothing


def test_arxs_discernibility_reaches_compare_and_sweep_as_declared():
    """ARX's DM and AECS of the keys: the comparison's rows are sdc.discernibility with a missing
    key value counted as a value (ARX's "*")."""
    original = _data(150)
    released = original.assign(age=(original["age"] // 20) * 20)
    released.loc[released.index[:7], "sex"] = np.nan
    keys = ["sex", "region", "age"]
    rows = sdc.compare(original, released, {"variables": {"categorical_keys": keys}}).utility_table.set_index(
        "measure")["value"]
    direct = sdc.discernibility(original, released, keys, missing="category")
    assert rows["discernibility"] == direct.discernibility_after
    assert rows["dm_utility_retained"] == pytest.approx(direct.discernibility_utility_retained, rel=1e-12)
    assert rows["average_class_size"] == pytest.approx(direct.average_class_size_after, rel=1e-12)
    # by hand: the classes of the release (missing sex a value of its own), sum of squared sizes
    sizes = released[keys].fillna("<missing>").astype(str).value_counts()  # (pandas 3's astype(str) keeps NaN)
    assert rows["discernibility"] == float((sizes ** 2).sum())
    assert rows["average_class_size"] == pytest.approx(len(released) / len(sizes))
