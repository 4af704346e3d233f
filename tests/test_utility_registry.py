"""The registry of utility measures: what one entry gives compare and sweep.

The 2-file recipe of a utility measure, shown by doing it: ARX's discernibility and average
class size (already in sdc/utility/discernibility.py) entered the comparison's utility table
and the sweep's columns and utility axes through one entry in sdc/workflow/utility_registry.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.workflow.plan import plan_from_mapping
from sdc.workflow.sweep import sweep
from sdc.workflow.utility_registry import UTILITY_AXES, UTILITY_MEASURES


def _data(n: int = 300, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"sex": rng.choice(["f", "m"], n), "region": rng.choice(list("abcd"), n),
                         "age": rng.integers(20, 80, n)})


def test_a_registered_utility_measure_is_in_compare_and_sweep() -> None:
    assert "discernibility" in [m.name for m in UTILITY_MEASURES]
    assert UTILITY_AXES["dm_utility_retained"] is True  # higher is better: it may be the utility axis
    original = _data()
    released = original.assign(age=(original["age"] // 20) * 20)
    c = sdc.compare(original, released, {"variables": {"categorical_keys": ["sex", "region", "age"]}})
    rows = c.utility_table.set_index("measure")["value"]
    direct = sdc.discernibility(original, released, ["sex", "region", "age"])
    assert rows["discernibility_utility_retained"] == pytest.approx(direct.discernibility_utility_retained)
    plan = plan_from_mapping({"sweep": {"keys": ["sex", "region", "age"], "utility_axis": "dm_utility_retained"},
                              "plan": {"seed": 1},
                              "steps": [{"method": "global_recode", "variables": ["age"], "grid": {"width": [10, 30]}}]},
                             source="test", sweep=True)
    t = sweep(original, plan).table
    assert {"dm_utility_retained", "aecs_utility_retained"} <= set(t.columns)
    assert t.loc[0, "dm_utility_retained"] == pytest.approx(1.0)  # the original keeps all its utility
