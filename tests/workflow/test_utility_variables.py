"""One name for the utility variables (issue 26 g): `utility_variables` in compare, protect and
the sweep plan; the old `variables` of compare and of [sweep] still work and warn."""

from __future__ import annotations

import pytest

import sdc
from sdc.exceptions import SdcWarning
from sdc.workflow.plan import plan_from_mapping
from sdc.workflow.sweep import _check_sweep_section, sweep, sweep_plan_toml

PLAN = {"plan": {"seed": 1}, "sweep": {"keys": ["age", "sex"], "utility_variables": ["age", "bmi"]},
        "steps": [{"method": "pram", "variables": ["sex"], "grid": {"flip": [0.05]}}]}


def _plan(sw: dict):
    plan = plan_from_mapping({**PLAN, "sweep": sw}, sweep=True)
    _check_sweep_section(plan)
    return plan


def test_the_sweep_plan_names_them_utility_variables() -> None:
    data = sdc.load_example()
    r = sweep(data, _plan(PLAN["sweep"]))
    assert r.variables == ("age", "bmi")
    assert 'utility_variables = ["age", "bmi"]' in sweep_plan_toml(r)
    with pytest.warns(SdcWarning, match=r"\[sweep\].variables is deprecated: name it utility_variables"):
        old = _plan({"keys": ["age", "sex"], "variables": ["age", "bmi"]})
    assert sweep(data, old).variables == ("age", "bmi")
    with pytest.raises(Exception, match="give utility_variables only"):
        _plan({"keys": ["age", "sex"], "variables": ["age"], "utility_variables": ["bmi"]})
