"""The measure registry: what one entry gives an assessment (runs, verdicts, report, JSON).

modRisk entered ``sdc assess`` through one entry in sdc/workflow/registry.py alone: these
tests show it runs when named in ``[options].measures``, gets a verdict, a report section
with its table, and its JSON, with no other file knowing about it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sdc
from sdc.datasets import example_config_path
from sdc.report import write_report
from sdc.workflow.config import ConfigError, load_config
from sdc.workflow.options import MEASURES, OPTIONAL_MEASURES
from sdc.workflow.registry import CORE_MEASURES, SCENARIO_MEASURES, measure_named


def test_every_entry_is_a_measure_the_config_accepts() -> None:
    names = {m.name for m in SCENARIO_MEASURES}
    assert names <= set(MEASURES) | set(OPTIONAL_MEASURES)
    assert OPTIONAL_MEASURES == ("modrisk", "betalikeness", "proxies")  # registered, not run unless asked for
    # The config lists the optional names itself (the registry imports the config): they are
    # the registry's, each registered, and none is a default measure too.
    from sdc.workflow import registry

    assert OPTIONAL_MEASURES == registry.OPTIONAL_MEASURES
    file_wide = {m.name for m in registry.FILE_MEASURES}  # proxies: a measure of the whole file
    assert set(OPTIONAL_MEASURES) <= names | file_wide and not set(OPTIONAL_MEASURES) & set(MEASURES)
    assert {m.name for m in CORE_MEASURES} <= set(MEASURES) | {"intervals"}
    assert [m.field for m in measure_named("uniqueness")] == ["attacker", "uniqueness"]


def test_section_and_table_keys_are_unique() -> None:
    keys = [m.key for m in SCENARIO_MEASURES if m.title]
    assert len(keys) == len(set(keys))
    tables = [t.key for m in SCENARIO_MEASURES for t in m.tables]
    assert len(tables) == len(set(tables))


def test_a_registered_measure_runs_and_is_reported(tmp_path: Path) -> None:
    cfg = load_config(example_config_path(), {"options": {"measures": ["k_anonymity", "risk", "modrisk"]}})
    a = sdc.assess(cfg)
    direct = sdc.model_risk(a.assessed, list(cfg.all_scenarios[1].keys), weights=cfg.weights)
    r = a.scenarios[1]
    assert r.extra["modrisk"].gr1 == pytest.approx(direct.gr1, rel=1e-12)
    v = [x for x in a.verdicts if x.measure == "log-linear model risk"]
    assert [x.scenario for x in v] == [s.name for s in cfg.all_scenarios]
    assert v[1].value == pytest.approx(direct.gr1) and v[1].verdict == "info"
    write_report(a, tmp_path / "rep", formats=("json", "md"))
    out = tmp_path / "rep"
    doc = json.loads((out / "report.json").read_text())
    assert doc["scenarios"][1]["modrisk"]["gr1"] == pytest.approx(direct.gr1)
    md = (out / "report.md").read_text()
    assert "Log-linear model risk — scenario 'demographics + marital status'" in md
    assert "s2 modrisk" in doc["tables"]


def test_an_unregistered_measure_name_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"\[options\]\.measures.*modrisk"):
        load_config(example_config_path(), {"options": {"measures": ["nonsense"]}})
