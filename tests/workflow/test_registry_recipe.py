"""The 2-file recipe of a risk measure, shown by doing it: beta-likeness entered ``sdc assess``,
``sdc compare``, ``sdc sweep`` and the report through one entry in sdc/workflow/registry.py
(the measure itself was already in sdc/attribute/closeness.py). These tests show each place
it reaches with no other file knowing about it: the configuration accepts its name, the
assessment runs it and judges it, the report has its section and table, report.json its object,
the comparison its figures before and after, the sweep its columns and its risk axis, and the
engine declaration says where it runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.core.engine import engines_of
from sdc.report import write_report
from sdc.workflow.options import OPTIONAL_MEASURES
from sdc.workflow.plan import plan_from_mapping
from sdc.workflow.registry import BETA, measure_named
from sdc.workflow.sweep import sweep

from tests.helpers import run_cli


def _data(n: int = 300, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"id": np.arange(n), "sex": rng.choice(["f", "m"], n), "region": rng.choice(list("abcd"), n),
                         "age": rng.integers(20, 80, n), "dx": rng.choice(["flu", "cold", "hiv"], n, p=[.6, .3, .1])})


CONFIG = {"keys": ["sex", "region"], "continuous_keys": ["age"], "key_bins": {"age": {"width": 20}},
          "sensitive": ["dx"], "measures": ["k_anonymity", "risk", "betalikeness"], "id": "id", "k": 2}


@pytest.fixture(scope="module")
def assessed() -> sdc.Assessment:
    return sdc.assess(_data(), **CONFIG)


def test_the_name_is_accepted_and_the_measure_runs_only_when_named(assessed: sdc.Assessment) -> None:
    assert "betalikeness" in OPTIONAL_MEASURES
    b = assessed.primary.extra["betalikeness"]["dx"]
    direct = sdc.beta_likeness(assessed.assessed, assessed.primary.key_classes, "dx", beta=BETA)
    assert b.n_records_above_beta == direct.n_records_above_beta and b.max_beta == direct.max_beta
    default = sdc.assess(_data(), **{**CONFIG, "measures": ["k_anonymity", "risk"]})
    assert "betalikeness" not in default.primary.extra


def test_it_is_judged_by_its_rule(assessed: sdc.Assessment) -> None:
    v = [x for x in assessed.verdicts if x.measure == "beta-likeness (dx)"]
    b = assessed.primary.extra["betalikeness"]["dx"]
    assert len(v) == 1 and v[0].value == b.n_records_above_beta and v[0].threshold == "0"
    assert v[0].verdict == ("pass" if b.n_records_above_beta == 0 else "fail")
    assert v[0].share == pytest.approx(b.n_records_above_beta / 300)


def test_the_report_has_its_section_table_and_json(assessed: sdc.Assessment, tmp_path: Path) -> None:
    write_report(assessed, tmp_path / "rep", formats=("json", "md"))
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    b = assessed.primary.extra["betalikeness"]["dx"]
    assert doc["scenarios"][0]["betalikeness"]["dx"]["max_beta"] == pytest.approx(b.max_beta)
    assert doc["tables"]["s1 beta"]["rows"][0]["n_records_above_beta"] == b.n_records_above_beta
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## beta-likeness — scenario 'all keys'" in md and "### beta-likeness by sensitive variable" in md


def test_compare_shows_its_figures_before_and_after(assessed: sdc.Assessment) -> None:
    original = _data()
    released = original.assign(age=(original["age"] // 20) * 20)
    c = sdc.compare(original, released, assessed.config)
    rows = c.risk.set_index("measure")
    label = f"records in classes with beta > {BETA:g} (dx)"
    before = c.before.primary.extra["betalikeness"]["dx"]
    assert rows.loc[label, "before"] == before.n_records_above_beta
    assert rows.loc["largest beta (dx)", "after"] == c.after.primary.extra["betalikeness"]["dx"].max_beta


def test_sweep_tabulates_it_and_may_put_it_on_the_risk_axis() -> None:
    data = _data()
    plan = plan_from_mapping({
        "sweep": {"keys": ["sex", "region", "age"], "measures": ["betalikeness"], "sensitive": ["dx"],
                  "risk_axis": "records_above_beta[dx]"},
        "plan": {"seed": 1},
        "steps": [{"method": "global_recode", "variables": ["age"], "grid": {"width": [10, 30]}}]},
        source="test", sweep=True)
    res = sweep(data, plan)
    t = res.table
    assert {"records_above_beta[dx]", "max_beta[dx]", "pct_unique", "il1_overall"} <= set(t.columns)
    direct = sdc.beta_likeness(data, ["sex", "region", "age"], "dx", beta=BETA)
    assert t.loc[0, "records_above_beta[dx]"] == direct.n_records_above_beta
    assert t["non_dominated"].any() and res.risk_axis == "records_above_beta[dx]"


def test_the_command_line_runs_it(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    p = tmp_path / "d.csv"
    _data().to_csv(p, index=False)
    code, out, err = run_cli(capsys, "assess", str(p), "--keys", "sex,region", "--sensitive", "dx", "--measures",
                             "k_anonymity,risk,betalikeness", "--out", str(tmp_path / "r"), "--id", "id")
    assert code == 0, err
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    assert "betalikeness" in doc["scenarios"][0]


def test_it_declares_where_it_runs() -> None:
    (entry,) = measure_named("betalikeness")
    engines = engines_of(entry.function)
    assert engines["pandas"] is None and engines["dask"]  # not on Dask, and says why
