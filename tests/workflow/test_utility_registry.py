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
    "discernibility", "discernibility and average class size (ARX)",
    lambda ctx: sdc.discernibility(ctx.original, ctx.released, list(ctx.keys)), function=sdc.discernibility,
    figures=(Figure("discernibility_utility_retained", "discernibility: utility retained", SHARE, better="higher",
                    sweep="dm_utility_retained", value=lambda d, cfg: float(d.discernibility_utility_retained)),
             Figure("aecs_utility_retained", "average class size: utility retained", SHARE, better="higher",
                    sweep="aecs_utility_retained", value=lambda d, cfg: float(d.aecs_utility_retained))))


def _data(n: int = 300, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"sex": rng.choice(["f", "m"], n), "region": rng.choice(list("abcd"), n),
                         "age": rng.integers(20, 80, n)})


def test_a_registered_utility_measure_is_in_compare_and_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(utility_registry, "UTILITY_MEASURES", (*utility_registry.UTILITY_MEASURES, DISCERNIBILITY))
    assert utility_registry.UTILITY_AXES["dm_utility_retained"] is True  # higher is better: a utility axis
    original = _data()
    released = original.assign(age=(original["age"] // 20) * 20)
    c = sdc.compare(original, released, {"variables": {"categorical_keys": ["sex", "region", "age"]}})
    rows = c.utility_table.set_index("measure")["value"]
    direct = sdc.discernibility(original, released, ["sex", "region", "age"])
    assert rows["discernibility_utility_retained"] == pytest.approx(direct.discernibility_utility_retained)
    assert rows["aecs_utility_retained"] == pytest.approx(direct.aecs_utility_retained)
    plan = plan_from_mapping({"sweep": {"keys": ["sex", "region", "age"], "utility_axis": "dm_utility_retained"},
                              "plan": {"seed": 1},
                              "steps": [{"method": "global_recode", "variables": ["age"], "grid": {"width": [10, 30]}}]},
                             source="test", sweep=True)
    res = sweep(original, plan)
    assert {"dm_utility_retained", "aecs_utility_retained"} <= set(res.table.columns)
    assert res.table.loc[0, "dm_utility_retained"] == pytest.approx(1.0)  # the original keeps all its utility
    assert res.higher_is_better and res.table["non_dominated"].any()


def test_the_built_in_figures_are_the_sweep_row_and_the_comparison_rows() -> None:
    names = [f.name for m in utility_registry.UTILITY_MEASURES for f in m.figures]
    assert names == ["il1_overall", "eigen_similarity_pct", "nue", "nue_normalised", "nue_utility_retained",
                     "records_retained", "pct_records_retained", "cells_suppressed", "il_variables", "il_correl",
                     "robust_eigen", "ai_score", "sse_sst", "info_loss_absd", "info_loss_relabsd", "info_loss_abssqrtd",
                     "info_loss_false_zero"]
    assert [m.name for m in utility_registry.UTILITY_MEASURES if m.optional] == ["analysis_validity", "info_loss"]
    assert [m.per_variable.name for m in utility_registry.UTILITY_MEASURES if m.per_variable] == ["il1", "ci_overlap"]
    assert dict(utility_registry.UTILITY_AXES) == {
        "il1_overall": False, "eigen_similarity_pct": True, "nue_normalised": False, "nue_utility_retained": True,
        "pct_records_retained": True, "cells_suppressed": False, "il_variables": False, "il_correl": False,
        "robust_eigen": False, "ai_score": False, "sse_sst": True}


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
