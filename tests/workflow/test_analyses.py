"""The analyst's models of a configuration ([[analyses]]): read and written back, refused in one
line, and fitted by sdc compare, sdc protect's comparison and sdc sweep exactly as
sdc.analysis_validity fits them on the same two files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.workflow.analyses import ANALYSIS_OPTIONS, Analysis
from sdc.workflow.compare import compare
from sdc.workflow.config import ConfigError, _toml_module, from_mapping, to_toml
from sdc.workflow.plan import PlanError
from sdc.workflow.sweep import load_sweep, sweep

from tests.helpers import run_cli

ANALYSES = [
    {"name": "cost", "formula": "cost ~ age + C(sex)"},
    {"name": "visits", "formula": "visits ~ age + C(arm)", "model": "poisson", "exposure": "years"},
    {"name": "survival", "formula": "days ~ age + C(arm)", "model": "cox", "event": "died", "level": 0.9},
]


def _data(n: int = 400, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 80, n)
    sex = rng.choice(["f", "m"], n)
    arm = rng.choice(["a", "b", "c"], n)
    years = rng.uniform(0.5, 3.0, n)
    return pd.DataFrame({
        "id": [f"p{i}" for i in range(n)], "age": age, "sex": sex, "arm": arm, "region": rng.choice(list("wxyz"), n),
        "cost": 100 + 2.0 * age + 15 * (sex == "m") + rng.normal(0, 20, n), "years": years,
        "visits": rng.poisson(years * np.exp(0.01 * age - 0.3 * (arm == "b"))),
        "days": np.round(rng.exponential(500 * np.exp(-0.01 * age)) + 1), "died": rng.integers(0, 2, n),
    })


def _raw(**extra) -> dict:  # noqa: ANN003
    return {"data": {"path": "x.csv", "id": "id"}, "variables": {"categorical_keys": ["sex", "region"]},
            "options": {"measures": ["k_anonymity"]}, "analyses": ANALYSES, **extra}


def _released(data: pd.DataFrame) -> pd.DataFrame:
    rng = np.random.default_rng(9)
    rel = data.copy()
    rel["age"] = rel["age"] + rng.integers(-3, 4, len(rel))
    rel.loc[rel.index[:25], "sex"] = np.nan
    return rel


def test_the_config_reads_analyses_and_writes_them_back() -> None:
    cfg = from_mapping(_raw())
    assert cfg.analyses == (Analysis("cost", "cost ~ age + C(sex)"),
                            Analysis("visits", "visits ~ age + C(arm)", model="poisson", exposure="years"),
                            Analysis("survival", "days ~ age + C(arm)", model="cox", event="died", level=0.9))
    assert from_mapping(_toml_module().loads(to_toml(cfg))) == cfg
    unnamed = from_mapping(_raw(analyses=[{"formula": "cost ~ age"}, {"formula": "cost ~ sex"}]))
    assert [a.name for a in unnamed.analyses] == ["analysis 1", "analysis 2"]
    assert from_mapping(_raw(analyses=[])).analyses == ()
    assert [o.name for o in ANALYSIS_OPTIONS] == ["name", "formula", "model", "level", "event", "exposure", "offset"]


@pytest.mark.parametrize("analyses, message", [
    ({"formula": "y ~ x"}, r"config \[\[analyses\]\]: must be a list of tables"),
    ([{"model": "ols"}], r"config \[\[analyses\]\] #1.formula: must be a model formula"),
    ([{"formula": "y"}], r"#1.formula: must be a model formula such as 'y ~ x1 \+ x2'; got 'y'"),
    ([{"formula": "y ~ x", "model": "probit"}], r"#1.model must be one of 'ols', 'logit', 'poisson', 'cox'"),
    ([{"formula": "y ~ x", "level": 1.0}], r"#1.level must be"),
    ([{"formula": "t ~ x", "model": "cox"}], r"#1.event: a cox model needs its event column"),
    ([{"formula": "y ~ x", "event": "d"}], r"#1.event: only a cox model has an event column; this one is ols"),
    ([{"formula": "y ~ x", "model": "logit", "exposure": "e"}], r"#1: exposure and offset belong to a poisson"),
    ([{"formula": "y ~ x", "weights": "w"}], r"#1.weights: is not a known key; allowed: name, formula"),
    ([{"formula": "y ~ x", "name": "a"}, {"formula": "y ~ z", "name": "a"}], r"\.name: must be unique; 'a' repeats"),
    (["y ~ x"], r"#1: must be a table with `formula`"),
])
def test_config_errors_name_the_analysis_and_key(analyses: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_mapping(_raw(analyses=analyses))


def test_compare_fits_each_analysis_as_the_api_does() -> None:
    data = _data()
    rel = _released(data)
    before = data.copy()
    c = compare(data, rel, from_mapping(_raw()))
    pd.testing.assert_frame_equal(data, before)  # the input untouched
    rows = c.utility_table[c.utility_table["measure"] == "ci_overlap"].set_index("variable")["value"]
    assert list(rows.index) == ["cost", "visits", "survival"]
    for spec in ANALYSES:
        extra = {k: v for k, v in spec.items() if k not in ("name", "formula")}
        direct = sdc.analysis_validity(data, rel, spec["formula"], **extra)
        assert rows[spec["name"]] == pytest.approx(direct.mean_overlap, rel=1e-12)
        got = c.analyses[c.analyses["analysis"] == spec["name"]].set_index("term")
        want = direct.coefficients
        assert list(got.index) == list(want.index)
        np.testing.assert_allclose(got["ci_overlap"].to_numpy(float), want["ci_overlap"].to_numpy(float), rtol=1e-12)
        assert set(got["n_after"]) == {direct.n_after}
    assert c.analyses.loc[c.analyses["analysis"] == "survival", "model"].eq("cox").all()
    # without analyses: no row, no table
    plain = compare(data, rel, from_mapping(_raw(analyses=[])))
    assert "ci_overlap" not in set(plain.utility_table["measure"]) and plain.analyses.empty


def test_cli_writes_the_analyses_and_refuses_an_absent_column_first(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    data = _data(300)
    data.to_csv(tmp_path / "orig.csv", index=False)
    _released(data).to_csv(tmp_path / "rel.csv", index=False)
    body = ('[data]\nid = "id"\n[variables]\ncategorical_keys = ["sex", "region"]\n[options]\nmeasures = ["k_anonymity"]\n'
            '[output]\nformats = ["md", "json", "csv"]\n'
            '[[analyses]]\nname = "survival"\nformula = "days ~ age + C(arm)"\nmodel = "cox"\nevent = "died"\n')
    (tmp_path / "run.toml").write_text(body, encoding="utf-8")
    code, out, err = run_cli(capsys, "compare", str(tmp_path / "orig.csv"), str(tmp_path / "rel.csv"), "--config",
                             str(tmp_path / "run.toml"), "--out", str(tmp_path / "cmp"))
    assert code == 0, err
    table = pd.read_csv(tmp_path / "cmp" / "analyses.csv")
    assert set(table["analysis"]) == {"survival"} and list(table["term"][:2]) == ["C(arm)[T.b]", "C(arm)[T.c]"]
    md = (tmp_path / "cmp" / "report.md").read_text(encoding="utf-8")
    assert "Analysis validity: the configured models fitted to both files" in md
    doc = json.loads((tmp_path / "cmp" / "report.json").read_text(encoding="utf-8"))
    assert "analyses.csv" in json.dumps(doc)
    (tmp_path / "bad.toml").write_text(body.replace('event = "died"', 'event = "dead"'), encoding="utf-8")
    code, out, err = run_cli(capsys, "compare", str(tmp_path / "orig.csv"), str(tmp_path / "rel.csv"), "--config",
                             str(tmp_path / "bad.toml"), "--out", str(tmp_path / "cmp2"))
    assert code == 2 and err.strip().count("\n") == 0
    assert "analysis 'survival': its event column 'dead' is not in `original`." in err
    assert not (tmp_path / "cmp2").exists()


def test_protect_compares_the_analyses_of_its_plan(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    data = _data(300)
    data.to_csv(tmp_path / "orig.csv", index=False)
    (tmp_path / "plan.toml").write_text(
        '[plan]\nseed = 4\n[variables]\ncategorical_keys = ["sex", "region"]\n[options]\nmeasures = ["k_anonymity"]\n'
        '[output]\nformats = ["md", "csv"]\n'
        '[[analyses]]\nname = "cost"\nformula = "cost ~ age + C(sex)"\n'
        '[[steps]]\nmethod = "add_noise"\nvariables = ["age"]\nnoise = 30\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "protect", str(tmp_path / "orig.csv"), "--plan", str(tmp_path / "plan.toml"),
                             "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert "[[analyses]]\nname = \"cost\"\nformula = \"cost ~ age + C(sex)\"" in (tmp_path / "out" / "plan.toml").read_text()
    table = pd.read_csv(tmp_path / "out" / "comparison" / "analyses.csv")
    rel = pd.read_csv(tmp_path / "out" / "released.csv")
    direct = sdc.analysis_validity(pd.read_csv(tmp_path / "orig.csv"), rel, "cost ~ age + C(sex)")
    np.testing.assert_allclose(table["ci_overlap"].to_numpy(float), direct.coefficients["ci_overlap"].to_numpy(float),
                               rtol=1e-9)


SWEEP = """
[sweep]
keys = ["sex", "region"]
k = 3
[plan]
seed = 1
[[steps]]
method = "pram"
variables = ["sex"]
grid = { flip = [0.0, 0.2] }
[[analyses]]
name = "cost"
formula = "cost ~ age + C(sex)"
[[analyses]]
name = "visits"
formula = "visits ~ age"
model = "poisson"
exposure = "years"
"""


def test_sweep_tabulates_each_analysis(tmp_path: Path) -> None:
    (tmp_path / "sweep.toml").write_text(SWEEP, encoding="utf-8")
    res = sweep(_data(), load_sweep(tmp_path / "sweep.toml"))
    t = res.table.set_index("label")
    assert {"ci_overlap[cost]", "ci_overlap[visits]"} <= set(t.columns)
    assert t["ci_overlap[cost]"].iloc[0] == pytest.approx(1.0) and t["ci_overlap[visits]"].iloc[0] == pytest.approx(1.0)
    assert t["ci_overlap[visits]"].eq(1.0).all()  # PRAM on sex leaves a model without sex as it was
    assert t["ci_overlap[cost]"].iloc[-1] < 0.99   # flipping a fifth of sex moves its coefficient
    (tmp_path / "bad.toml").write_text(SWEEP.replace('model = "poisson"', 'model = "gamma"'), encoding="utf-8")
    with pytest.raises(PlanError, match=r"plan \[\[analyses\]\] #2.model must be one of"):
        load_sweep(tmp_path / "bad.toml")
