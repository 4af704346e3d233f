"""``sdc assess --cross-check``: the report's measures recomputed by sdcMicro agree, and say so."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

import r_bridge
from sdc.workflow.assess import assess
from sdc.cli import main
from sdc.workflow.config import load_config
from sdc.datasets import example_config_path
from sdc.report import write_report


@pytest.mark.sdcmicro
def test_cross_check_of_the_example_agrees(tmp_path: Path) -> None:
    a = assess(load_config(example_config_path()), cross_check=True, now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    t = a.cross_check
    assert set(t["scenario"]) == {"demographics", "demographics + marital status"}
    measures = set(t["measure"])
    assert {"measure_risk: risk", "freqCalc: Fk", "measure_risk(hid): hier_risk", "ldiversity: Distinct_Ldiversity",
            "suda2: score"} <= measures
    assert bool(t["agree"].all()), t[~t["agree"]]
    assert {"R", "sdcMicro"} <= set(a.provenance["r_versions"])
    write_report(a, tmp_path / "r")
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    assert "cross-check" in doc["tables"] and "sdcMicro version (cross-check)" in (tmp_path / "r" / "summary.txt"
                                                                                     ).read_text()
    assert "All agree." in (tmp_path / "r" / "report.md").read_text()


@pytest.mark.sdcmicro
def test_cross_check_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["assess", "--cross-check", "--formats", "json", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "Cross-check with sdcMicro:" in out and "measures, all agree." in out


def test_cross_check_without_r_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(r_bridge, "is_available", lambda: False)
    monkeypatch.setattr(r_bridge, "unavailable_reason", lambda: "R is not installed")
    assert main(["assess", "--cross-check", "--formats", "json", "--out", str(tmp_path / "r")]) == 2
    assert "sdc: error: --cross-check needs R and sdcMicro: R is not installed" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.sdcmicro
def test_cross_check_with_missing_as_a_category() -> None:
    # sdcMicro has no such option: the cross-check recodes missing key values to a level,
    # so that both sides count the same classes as the report
    from dataclasses import replace

    cfg = replace(load_config(example_config_path()), missing="category",
                  measures=("k_anonymity", "risk", "household"))
    a = assess(cfg, cross_check=True)
    assert bool(a.cross_check["agree"].all()), a.cross_check[~a.cross_check["agree"]]
    wild = assess(replace(cfg, missing="wildcard"))
    marital = a.scenarios[1]
    assert marital.profile.n_unique != wild.scenarios[1].profile.n_unique  # the rule matters here


def test_cross_check_says_which_figures_it_did_not_compare() -> None:
    """The report said 'All agree.' while its l-diversity table (mode "correct", the default)
    held figures the cross-check never compared (it compares sdcMicro's mode): a note says so."""
    from dataclasses import replace

    from sdc.workflow.crosscheck import compared_as

    cfg = load_config(example_config_path())
    notes = compared_as(cfg)
    assert cfg.ldiversity_mode == "correct" and any("ldiversity_mode = \"correct\"" in n for n in notes), notes
    same = replace(cfg, ldiversity_mode="sdcmicro", suda_mode="sdcmicro", alpha=1.0)
    assert compared_as(same) == []
    assert any("alpha = 0.5" in n for n in compared_as(replace(same, alpha=0.5)))


@pytest.mark.sdcmicro
def test_cross_check_uses_the_configured_c_and_notes_the_mode(tmp_path: Path) -> None:
    from dataclasses import replace

    cfg = load_config(example_config_path())
    cfg = replace(cfg, thresholds=replace(cfg.thresholds, c=3.0))
    a = assess(cfg, cross_check=True, now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    assert bool(a.cross_check["agree"].all())
    write_report(a, tmp_path / "r")
    text = (tmp_path / "r" / "report.md").read_text()
    assert "All agree. Note: l-diversity is compared as sdcMicro computes it" in text
