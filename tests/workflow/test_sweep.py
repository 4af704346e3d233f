"""Risk-utility sweeps (sdc sweep): the settings, each row against a direct computation, the
non-dominated settings, the outputs, bad sweep plans."""


from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sdc._stats import summary_values
import sdc
from sdc.protect.suppression import local_suppression
from sdc.workflow.plan import PlanError, method_table, plan_from_mapping, plan_to_toml, step_seed
from sdc.workflow.sweep import _check_sweep_section, load_sweep, non_dominated, sweep, sweep_plan_toml
from sdc.report.sweep import column_label
from tests.helpers import complete_example, method_steps, other_value, plan_step, run_cli
from sdc.exceptions import SdcWarning

SWEEP = """
[sweep]
keys = ["age", "sex", "region"]
k = 3
weights = "weight"

[plan]
seed = 11

[[steps]]
method = "global_recode"
variables = ["age"]
labels = "midpoint"
closed = "left"
grid = { width = [5, 10, 15] }

[[steps]]
method = "pram"
variables = ["sex"]
grid = { flip = [0.01, 0.05, 0.1] }

[[steps]]
method = "local_suppression"
keys = ["age", "sex", "region"]
grid = { k = [2, 3] }
"""


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    return sdc.load_example()


@pytest.fixture(scope="module")
def result(data: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory):
    p = tmp_path_factory.mktemp("sweep") / "sweep.toml"
    p.write_text(SWEEP, encoding="utf-8")
    return sweep(data, load_sweep(p))


def _plan(text: str):
    from sdc.workflow.config import _toml_module

    plan = plan_from_mapping(_toml_module().loads(text), sweep=True)
    _check_sweep_section(plan)
    return plan


def test_one_row_per_setting_and_the_baseline(result) -> None:
    t = result.table
    assert len(t) == 1 + 3 + 3 + 2
    assert list(t["setting"]) == list(range(len(t)))
    assert t.loc[0, "label"].startswith("baseline") and t.loc[0, "il1_overall"] == 0
    assert list(t.loc[1:3, "value"]) == ["5", "10", "15"] and set(t.loc[1:3, "parameter"]) == {"width"}
    # issue 26: a setting's label names the variables its step treats ("pram sex flip=0.01")
    assert list(t.loc[4:6, "label"]) == ["pram sex flip=0.01", "pram sex flip=0.05", "pram sex flip=0.1"]
    for col in ("pct_unique", "pct_fk_le_k", "expected_reidentifications", "global_risk", "il1_overall",
                "il1[age]", "il1[sex]", "eigen_similarity_pct", "nue", "nue_utility_retained", "records_retained",
                "pct_records_retained", "non_dominated"):
        assert col in t.columns, col


def test_each_row_equals_the_direct_computation(result, data: pd.DataFrame) -> None:
    keys = ["age", "sex", "region"]

    def check(row: pd.Series, released: pd.DataFrame) -> None:
        prof = sdc.k_anonymity(released, keys, k=3, weights="weight")
        risk = sdc.individual_risk(released, keys, weights="weight")
        assert row["pct_unique"] == pytest.approx(prof.pct_unique, rel=1e-12)
        assert row["pct_fk_le_k"] == pytest.approx(prof.pct_k_le_threshold, rel=1e-12)
        # issue 26: k-anonymity's count is assess's, fk < k (pct_fk_le_k is the other, named as such)
        assert row["pct_fk_lt_k"] == pytest.approx(prof.pct_k_lt_threshold, rel=1e-12)
        assert row["expected_reidentifications"] == pytest.approx(risk.expected_reidentifications, rel=1e-12)
        assert row["global_risk"] == pytest.approx(risk.global_risk, rel=1e-12)
        u = sdc.utility_summary(data.loc[released.index], released, ["age", "sex", "region"], keys=keys,
                                suppressed="max")
        assert row["il1_overall"] == pytest.approx(u.il1_overall, rel=1e-12, abs=1e-15)
        assert row["nue"] == pytest.approx(u.nue, rel=1e-12, abs=1e-12)

    t = result.table
    check(t.loc[0], data)
    check(t.loc[2], sdc.global_recode(data, ["age"], width=10, labels="midpoint", closed="left").data)
    # the PRAM settings share the step's seed (common random numbers)
    check(t.loc[5], sdc.pram(data, ["sex"], flip=0.05, seed=step_seed(11, 2)).data)
    check(t.loc[8], local_suppression(data, keys, k=3).data)


def test_a_setting_that_suppresses_a_key_everywhere_is_measured_without_it() -> None:
    """A key suppressed in every record matches every record (wildcard) or is one value
    (category): the setting's risk is that of the other keys, not a refusal of the whole sweep."""
    data = sdc.load_example().head(300)
    plan = plan_from_mapping({"plan": {"seed": 1}, "sweep": {"keys": ["age", "sex", "region"], "k": 3}, "steps": [
        {"method": "local_suppression_by_risk", "keys": ["age", "sex", "region"], "variable": "region",
         "grid": {"threshold": [0.0001, 0.2]}}]}, sweep=True)
    rows = sweep(data, plan).to_frame()
    released = sdc.local_suppression_by_risk(data, ["age", "sex", "region"], variable="region", threshold=0.2).data
    assert released["region"].isna().all()
    fk = released.groupby(["age", "sex"], dropna=False)["age"].transform("size")
    row = rows[rows["value"].astype(str) == "0.2"].iloc[0]
    assert row["pct_unique"] == pytest.approx(100 * float((fk == 1).mean()), rel=1e-12)
    assert row["pct_fk_lt_k"] == pytest.approx(100 * float((fk < 3).mean()), rel=1e-12)


def test_the_product_mode_combines_every_grid(data: pd.DataFrame) -> None:
    plan = _plan(SWEEP.replace('k = 3\nweights', 'k = 3\nmode = "product"\nweights'))
    res = sweep(data, plan)
    assert len(res.table) == 1 + 3 * 3 * 2
    assert res.table.loc[1, "label"] == "global_recode age width=5; pram sex flip=0.01; local_suppression k=2"
    row = res.table.loc[18]
    d = sdc.global_recode(data, ["age"], width=15, labels="midpoint", closed="left").data
    d = sdc.pram(d, ["sex"], flip=0.1, seed=step_seed(11, 2)).data
    d = local_suppression(d, ["age", "sex", "region"], k=3).data
    assert row["global_risk"] == pytest.approx(sdc.individual_risk(d, ["age", "sex", "region"],
                                                                   weights="weight").global_risk, rel=1e-12)


def test_fixed_steps_apply_to_every_setting(data: pd.DataFrame) -> None:
    plan = _plan('[sweep]\nkeys = ["age", "sex"]\n[plan]\nseed = 1\n[[steps]]\nmethod = "global_recode"\n'
                 'variables = ["age"]\nwidth = 20\nclosed = "left"\n[[steps]]\nmethod = "local_suppression"\n'
                 'keys = ["age", "sex", "region"]\ngrid = { k = [2, 4] }\n')
    res = sweep(data, plan)
    d = sdc.global_recode(data, ["age"], width=20, closed="left").data
    d = local_suppression(d, ["age", "sex", "region"], k=4).data
    assert res.table.loc[2, "pct_unique"] == pytest.approx(sdc.k_anonymity(d, ["age", "sex"]).pct_unique)
    assert res.table.loc[0, "il1[age]"] == 0  # the baseline is the original, without the fixed steps


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=25))
def test_non_dominated_matches_brute_force(points: list[tuple[int, int]]) -> None:
    r = [p[0] for p in points]
    u = [p[1] for p in points]
    got = non_dominated(r, u)
    for i, (ri, ui) in enumerate(points):
        beaten = any(rj <= ri and uj <= ui and (rj < ri or uj < ui) for rj, uj in points)
        assert got[i] == (not beaten)


def test_non_dominated_leaves_out_nan() -> None:
    assert non_dominated([1.0, np.nan, 2.0], [1.0, 0.0, 0.5]).tolist() == [True, False, True]


def test_higher_is_better_axes_flip(data: pd.DataFrame) -> None:
    plan = _plan(SWEEP.replace("k = 3\n", 'k = 3\nutility_axis = "nue_utility_retained"\n'))
    res = sweep(data, plan)
    t = res.table
    for i in t.index[t["non_dominated"]]:
        assert not ((t["global_risk"] <= t.loc[i, "global_risk"]) & (t["nue_utility_retained"] >= t.loc[i,
                    "nue_utility_retained"]) & ((t["global_risk"] < t.loc[i, "global_risk"])
                                               | (t["nue_utility_retained"] > t.loc[i, "nue_utility_retained"]))).any()


BAD = {
    "no grid": ('[sweep]\nkeys = ["sex"]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\nflip = 0.1\n',
                "no step has"),
    "unknown sweep key": ('[sweep]\nkeyz = ["sex"]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\n'
                          'grid = { flip = [0.1] }\n', r"\[sweep\]\.keyz"),
    "bad axis": ('[sweep]\nrisk_axis = "vibes"\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\n'
                 'grid = { flip = [0.1] }\n', "risk_axis"),
    "bad grid value": ('[sweep]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\ngrid = { flip = [0.1, 1.5] }\n',
                       r"step 1 \(pram\): parameter `flip`.*1.5"),
    "empty grid": ('[sweep]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\ngrid = { flip = [] }\n',
                   "non-empty list"),
    "grid and value": ('[sweep]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\nflip = 0.1\n'
                       'grid = { flip = [0.2] }\n', "both as a value and in `grid`"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_sweep_plans(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text, pattern = BAD[case]
    (tmp_path / "s.toml").write_text(text, encoding="utf-8")
    sdc.load_example().to_csv(tmp_path / "d.csv", index=False)
    code, out, err = run_cli(capsys, "sweep", str(tmp_path / "d.csv"), "--plan", str(tmp_path / "s.toml"), "--out",
                             str(tmp_path / "o"))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    import re

    assert re.search(pattern, err), err
    assert not (tmp_path / "o").exists()


def test_cli_outputs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "s.toml").write_text(SWEEP, encoding="utf-8")
    sdc.load_example().to_csv(tmp_path / "d.csv", index=False)
    args = ("sweep", str(tmp_path / "d.csv"), "--plan", str(tmp_path / "s.toml"))
    code, out, err = run_cli(capsys, *args, "--out", str(tmp_path / "a"))
    assert code == 0, err
    assert "Sweep of 8 settings" in out and "baseline" in out
    assert "\r" not in err  # no progress bar off a terminal
    names = {str(p.relative_to(tmp_path / "a")) for p in (tmp_path / "a").rglob("*") if p.is_file()}
    assert {"sweep.csv", "sweep.md", "sweep.json", "sweep.xlsx", "sweep.html", "plan.toml",
            "plots/risk_by_parameter.png", "plots/utility_by_parameter.png", "plots/risk_utility.png"} <= names
    csv = pd.read_csv(tmp_path / "a" / "sweep.csv")
    assert len(csv) == 9 and csv["non_dominated"].dtype == bool
    doc = json.loads((tmp_path / "a" / "sweep.json").read_text(encoding="utf-8"))
    assert len(doc["settings"]) == 9 and doc["plan"]["seed"] == 11
    html = (tmp_path / "a" / "sweep.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 3
    with zipfile.ZipFile(io.BytesIO((tmp_path / "a" / "sweep.xlsx").read_bytes())) as z:
        assert any(n.startswith("xl/worksheets/") for n in z.namelist())
    # the resolved plan reruns the same table
    code, _, err = run_cli(capsys, "sweep", str(tmp_path / "d.csv"), "--plan", str(tmp_path / "a" / "plan.toml"),
                           "--out", str(tmp_path / "b"))
    assert code == 0, err
    assert (tmp_path / "b" / "sweep.csv").read_bytes() == (tmp_path / "a" / "sweep.csv").read_bytes()


def test_the_sweep_needs_keys(data: pd.DataFrame) -> None:
    plan = _plan('[sweep]\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\ngrid = { flip = [0.1] }\n')
    with pytest.raises(PlanError, match=r"\[sweep\]\.keys"):
        sweep(data, plan)


def test_the_bundled_example_sweep_runs(tmp_path: Path) -> None:
    from importlib import resources

    path = resources.files("sdc").joinpath("data", "example_sweep.toml")
    res = sweep(sdc.load_example(), load_sweep(str(path)))
    assert len(res.table) > 5 and res.table["non_dominated"].any()
    assert summary_values(res.summary())["non_dominated"]


def test_a_grid_over_the_variables(data: pd.DataFrame) -> None:
    # "PRAM on sex or on region, flip 1, 5 and 10 %": the variables argument is a grid axis too
    plan = _plan('[sweep]\nkeys = ["age", "sex", "region"]\n[plan]\nseed = 2\n[[steps]]\nmethod = "pram"\n'
                 'grid = { variables = [["sex"], ["region"]], flip = [0.01, 0.05, 0.1] }\n')
    res = sweep(data, plan)
    assert len(res.table) == 7 and res.variables == ("sex", "region")
    assert res.table.loc[4, "label"] == "pram variables=[region], flip=0.01"
    d = sdc.pram(data, ["region"], flip=0.01, seed=step_seed(2, 1)).data
    assert res.table.loc[4, "global_risk"] == pytest.approx(sdc.individual_risk(d, ["age", "sex", "region"])
                                                            .global_risk, rel=1e-12)
    bad = _plan('[sweep]\nkeys = ["sex"]\n[[steps]]\nmethod = "pram"\n'
                'grid = { variables = [["sex"], ["regoin"]], flip = [0.1] }\n')
    with pytest.raises(PlanError, match=r"step 1 \(pram\).*'regoin'"):
        sweep(data, bad)


def test_dropped_records_are_withheld_records_in_the_utility_figures() -> None:
    """A setting that dropped 77 % of the records showed 100 % retained and IL1 0, and won the
    utility axis: a dropped record now counts as a record withheld, every cell suppressed."""
    import warnings

    from sdc.workflow.plan import plan_from_mapping

    keys = ["age", "sex", "region", "marital_status"]
    plan = plan_from_mapping({"sweep": {"keys": keys, "k": 3}, "steps": [
        {"method": "local_suppression", "keys": keys, "unit": "record", "grid": {"k": [5]}}]}, sweep=True)
    df = sdc.load_example()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        row = sdc.sweep(df, plan).table.iloc[1]
    kept = int(row["n_records"])
    assert row["records_dropped"] == len(df) - kept > 0
    assert row["pct_records_retained"] == pytest.approx(100.0 * kept / len(df))
    assert row["il1_overall"] >= (len(df) - kept) / len(df)  # every cell of a dropped record lost
    # and the comparison says the same of the same release
    rel = sdc.local_suppression(df, keys, k=5, unit="record").data
    c = sdc.compare(df, rel, sdc.workflow.config.from_mapping({"data": {"path": "x"}, "variables": {
        "categorical_keys": keys}, "options": {"measures": ["k_anonymity"]}}), match="index")
    assert c.utility.pct_records_retained == pytest.approx(100.0 * len(rel) / len(df))


# One name for the utility variables (issue 26 g): `utility_variables` in compare, protect and
# the sweep plan; the old `variables` of compare and of [sweep] still work and warn.
UV_PLAN = {"plan": {"seed": 1}, "sweep": {"keys": ["age", "sex"], "utility_variables": ["age", "bmi"]},
        "steps": [{"method": "pram", "variables": ["sex"], "grid": {"flip": [0.05]}}]}


def _uv_plan(sw: dict):
    plan = plan_from_mapping({**UV_PLAN, "sweep": sw}, sweep=True)
    _check_sweep_section(plan)
    return plan


def test_the_sweep_plan_names_them_utility_variables() -> None:
    data = sdc.load_example()
    r = sweep(data, _uv_plan(UV_PLAN["sweep"]))
    assert r.variables == ("age", "bmi")
    assert 'utility_variables = ["age", "bmi"]' in sweep_plan_toml(r)
    with pytest.warns(SdcWarning, match=r"\[sweep\].variables is deprecated: name it utility_variables"):
        old = _uv_plan({"keys": ["age", "sex"], "variables": ["age", "bmi"]})
    assert sweep(data, old).variables == ("age", "bmi")
    with pytest.raises(Exception, match="give utility_variables only"):
        _uv_plan({"keys": ["age", "sex"], "variables": ["age"], "utility_variables": ["bmi"]})


def test_a_utility_axis_outside_the_usual_columns_is_shown(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # utility_axis = "ai_score": the non-dominated settings were chosen by a figure neither the
    # printed table nor the report's "Utility by setting" table showed
    (tmp_path / "s.toml").write_text('[sweep]\nkeys = ["age", "sex"]\nk = 3\nutility_axis = "ai_score"\n[plan]\n'
                                     'seed = 1\n[[steps]]\nmethod = "local_suppression"\nkeys = ["age", "sex"]\n'
                                     'grid = { k = [2, 3] }\n', encoding="utf-8")
    sdc.load_example().head(300).to_csv(tmp_path / "d.csv", index=False)
    code, out, err = run_cli(capsys, "sweep", str(tmp_path / "d.csv"), "--plan", str(tmp_path / "s.toml"),
                             "--out", str(tmp_path / "a"), "--no-png")
    assert code == 0, err
    label = column_label("ai_score")
    header = out.splitlines()[1]
    assert label in header and header.index(label) < header.index("non-dominated")
    md = (tmp_path / "a" / "sweep.md").read_text(encoding="utf-8")
    utility = md.split("### Utility by setting", 1)[1].split("###", 1)[0]
    assert label in utility


# --- every declared method, and each variant, in a two-point sweep ----------------------------

STEPS = method_steps()


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    p = tmp_path_factory.mktemp("key") / "key.txt"
    p.write_text("0123456789abcdef-a-key-for-the-sweep\n", encoding="utf-8")
    p.chmod(0o600)
    return str(p)


@pytest.mark.parametrize(("method", "parameters"), [s[1:] for s in STEPS], ids=[s[0] for s in STEPS])
def test_every_method_and_variant_runs_in_a_two_point_sweep(method: str, parameters: dict, key_file: str,
                                                            tmp_path: Path) -> None:
    # The declared example (and each value of its `method` / `measure`) with a two-point grid over one
    # of its parameters (tests.helpers.other_value), written as a TOML sweep plan, read back and run:
    # the baseline and two settings, each setting's release the API call's at that grid point. The
    # risk keys leave out region, which the 300 records' local_suppression_by_risk blanks whole.
    info = method_table()[method]
    data = complete_example()
    params = {**parameters, **({"key_file": key_file} if "key_file" in parameters else {})}
    name, values = other_value(info, params)
    step = plan_step(method, {k: v for k, v in params.items() if k != name}, grid={name: values})
    extra = {"utility_variables": ["bmi"]} if info.replaces_identifiers else {}  # pseudonyms carry no utility
    text = plan_to_toml(plan_from_mapping({"plan": {"seed": 1}, "sweep": {"keys": ["age", "sex"], **extra},
                                           "steps": [step]}, sweep=True))
    (tmp_path / "sweep.toml").write_text(text, encoding="utf-8")
    res = sweep(data, load_sweep(tmp_path / "sweep.toml"))
    assert len(res.table) == 3
    args = {**params, name: values[1]}
    released = info.function(data, args.pop(info.variables_param), **args).data
    risk = sdc.individual_risk(released, ["age", "sex"]).global_risk
    assert res.table["global_risk"].iloc[-1] == pytest.approx(risk, rel=1e-12)


def test_a_sweep_of_identifiers_only_asks_for_its_utility_variables(key_file: str) -> None:
    # pseudonymise replaces identifiers one for one: the sweep has no variable to measure by default
    plan = _plan(f'[sweep]\nkeys = ["age", "sex"]\n[[steps]]\nmethod = "pseudonymise"\nvariables = ["subject_id"]\n'
                 f'key_file = "{key_file}"\ngrid = {{ length = [8, 12] }}\n')
    with pytest.raises(PlanError, match=r"^plan \[sweep\]\.utility_variables: the steps only replace identifiers"):
        sweep(complete_example(), plan)
