"""sdc.identify: suggested roles with reasons, overrides, and the starter config for sdc assess
(read back with sdc.workflow.config.load_config)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from sdc._stats import summary_values
import sdc
from sdc.datasets import EXAMPLE_ROLES, example_path
from tests.helpers import ROOT
from sdc.identify.roles import ROLES, parse_role
from sdc.io import read_data
from sdc.workflow.config import load_config
from tests import scale


@pytest.fixture(scope="module")
def example() -> sdc.IdentificationResult:
    return sdc.identify(read_data(example_path(), text_columns=True))


def mixed(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({
        "patient_id": [f"P{i:04d}" for i in range(n)],
        "full_name": [f"Name {i}" for i in range(n)],
        "zip": rng.choice(["03601", "10001", "94110"], n),
        "age": rng.integers(20, 95, n),
        "sex": rng.choice(["f", "m"], n),
        "diagnosis": rng.choice(["flu", "none", "asthma"], n),
        "lab_value": rng.normal(5, 1, n).round(3),
        "site": ["A"] * n,
        "notes_2": [None] * (n - 2) + ["x", "y"],
        "colour": rng.choice(["red", "blue", "green", "teal"], n),
        "wgt": rng.uniform(1, 50, n).round(2),
    })


def test_example_roles_agree_with_the_stewards(example) -> None:
    r = example
    assert set(EXAMPLE_ROLES["keys"]) <= set(r.quasi_identifiers)
    assert set(EXAMPLE_ROLES["sensitive"]) <= set(r.sensitive)
    assert r.used_as("id") == EXAMPLE_ROLES["id"] and r.role_of("subject_id").role == "direct identifier"
    assert r.used_as("weights") == EXAMPLE_ROLES["weights"]
    assert r.used_as("household") == EXAMPLE_ROLES["household"]
    assert r.role_of("age").continuous and r.role_of("age").hipaa == ("C",)
    assert set(r.roles) == set(read_data(example_path()).columns)


def test_mixed_frame_roles_and_reasons() -> None:
    r = sdc.identify(mixed(), average="records")  # colour: 4 values / 40 records, on alpha
    assert r.roles == {
        "patient_id": "direct identifier", "full_name": "direct identifier", "zip": "quasi-identifier",
        "age": "quasi-identifier", "sex": "quasi-identifier", "diagnosis": "sensitive", "lab_value": "sensitive",
        "site": "other", "notes_2": "other", "colour": "quasi-identifier", "wgt": "other",
    }
    why = {c.column: c.reasons for c in r.columns}
    assert why["full_name"][0].startswith("HIPAA Safe Harbor (A)")
    assert why["zip"][0].startswith("HIPAA Safe Harbor (B)") and "036" in why["zip"][0]
    assert why["site"][0].startswith("constant")
    assert why["notes_2"][0].startswith("missing in 95.00% of records (> 85.00%): dropped")
    assert why["colour"][0].startswith("g-distinct rate 10.00% (between beta")   # 4 values / 40 records: on alpha
    assert r.role_of("notes_2").dropped and np.isnan(r.role_of("notes_2").gdistinct_rate)
    assert r.used_as("weights") == "wgt" and r.used_as("id") == "patient_id"
    assert r.safe_harbor.found == ("A", "B", "C", "R")
    frame = r.to_frame()
    assert list(frame["column"]) == list(mixed().columns) and set(frame["role"]) <= set(ROLES)
    s = summary_values(r.summary())
    assert s["direct_identifiers"] == ["patient_id", "full_name"] and s["dropped"] == ["notes_2"]


def test_gdistinct_decides_when_nothing_else_does() -> None:
    n = 100
    df = pd.DataFrame({"c_low": np.arange(n) % 2, "c_mid": np.arange(n) % 5, "c_high": (np.arange(n) % 50) + 0.5})
    r = sdc.identify(df, alpha=0.1, beta=0.03)
    assert r.roles == {"c_low": "other", "c_mid": "quasi-identifier", "c_high": "sensitive"}
    assert sdc.identify(df, alpha=0.6, beta=0.01).roles["c_high"] == "quasi-identifier"


def test_overrides_win_and_are_marked() -> None:
    r = sdc.identify(mixed(), roles={"colour": "sensitive", "lab_value": "other", "patient_id": "other",
                                     "wgt": "other", "sex": "Sensitive"})
    assert r.roles["colour"] == "sensitive" and r.role_of("colour").overridden
    assert r.roles["patient_id"] == "other" and r.used_as("id") is None
    assert r.role_of("lab_value").reasons[0] == "set by the user (suggested: sensitive)"
    assert r.used_as("weights") == "wgt"  # 'other' keeps a detected weights use
    assert r.roles["sex"] == "sensitive"
    assert not r.role_of("age").overridden


def test_override_uses_are_unique() -> None:
    r = sdc.identify(mixed(), roles={"age": "weights"})
    assert r.used_as("weights") == "age" and r.role_of("wgt").use is None
    with pytest.raises(ValueError, match="sets 'id' on more than one column"):
        sdc.identify(mixed(), roles={"patient_id": "id", "full_name": "id"})


@pytest.mark.parametrize("roles, exc, fragment", [
    ({"nope": "qi"}, ValueError, "`roles` names columns not examined: 'nope'"),
    ({"sex": "secret"}, ValueError, "unknown role 'secret' for column 'sex'"),
    ({"sex": 3}, TypeError, "a role for column 'sex' must be a string"),
    (["sex"], TypeError, "`roles` must be a mapping"),
])
def test_bad_overrides(roles, exc, fragment) -> None:
    with pytest.raises(exc) as info:
        sdc.identify(mixed(), roles=roles)
    assert fragment in str(info.value)


def test_parse_role_aliases() -> None:
    assert parse_role("QI") == ("quasi-identifier", None)
    assert parse_role("quasi_identifier") == ("quasi-identifier", None)
    assert parse_role("Direct Identifier") == ("direct identifier", None)
    assert parse_role("id") == ("direct identifier", "id")
    assert parse_role("household") == ("other", "household")


def test_input_untouched_and_result_frozen() -> None:
    df = mixed()
    before = df.copy()
    r = sdc.identify(df)
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(AttributeError):
        r.n_records = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.columns[0].role = "other"  # type: ignore[misc]


# --- the starter config ---------------------------------------------------------------------------

def test_starter_config_loads_and_matches_the_roles(tmp_path: Path, example) -> None:
    path = tmp_path / "run.toml"
    path.write_text(example.starter_config(example_path(), source="example"), encoding="utf-8")
    cfg = load_config(path)
    qi = example.quasi_identifiers
    assert set(cfg.keys) == set(qi)
    assert set(cfg.continuous_keys) == {c for c in qi if example.role_of(c).continuous} == {"age"}
    assert cfg.sensitive == example.sensitive
    assert (cfg.id, cfg.weights, cfg.household) == ("subject_id", "weight", "household_id")
    assert cfg.bins == {"age": {"quantiles": 5}}
    assert set(cfg.sensitive_bins) == {c for c in example.sensitive if example.role_of(c).continuous}
    assert cfg.data_path == example_path()
    text = path.read_text()
    assert "# Direct identifiers" in text and "subject_id: HIPAA Safe Harbor (R)" in text


def test_starter_config_runs_an_assessment(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    mixed().to_csv(data, index=False)
    r = sdc.identify(read_data(data, text_columns=True))
    cfg_path = tmp_path / "cfg.toml"
    cfg_path.write_text(r.starter_config("d.csv", sep=","), encoding="utf-8")
    cfg = load_config(cfg_path, {"options": {"measures": ["k_anonymity"]}, "output": {"formats": ["json"]}})
    assert cfg.data_path == str(tmp_path / "d.csv") and cfg.sep == ","
    res = sdc.assess(cfg)
    assert res.scenarios[0].scenario.keys == cfg.keys


def test_starter_config_escapes_awkward_names(tmp_path: Path) -> None:
    n = 30
    df = pd.DataFrame({'a "quoted"\tname': np.arange(n) % 5, "age\nbreak": np.arange(n) + 20.5,
                       "del\x7fchar": ["x", "y", "z"] * 10})
    r = sdc.identify(df, roles={c: "qi" for c in df.columns})
    p = tmp_path / "c.toml"
    p.write_text(r.starter_config("x.csv"), encoding="utf-8")
    cfg = load_config(p)
    assert set(cfg.keys) == set(df.columns)
    assert "age\nbreak" in cfg.bins


def test_rows_without_columns_refused() -> None:
    with pytest.raises(ValueError, match="`data` has no columns to classify"):
        sdc.identify(pd.DataFrame(index=range(3)))


def test_starter_config_needs_a_key() -> None:
    r = sdc.identify(pd.DataFrame({"email": ["a@b.org", "c@d.org"]}))
    with pytest.raises(ValueError, match="no column is a quasi-identifier"):
        r.starter_config("x.csv")
    r = sdc.identify(pd.DataFrame({0: ["a", "b"], "sex": ["f", "m"]}))
    with pytest.raises(TypeError, match="column names must be strings"):
        r.starter_config("x.csv")


_names = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)


@settings(max_examples=scale.examples(40))
@given(st.lists(_names, min_size=1, max_size=5, unique=True), st.integers(2, 30), st.data())
def test_roles_cover_every_column_and_the_config_loads(names, n, data) -> None:
    cols = {name: data.draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n))
            for name in names}
    df = pd.DataFrame(cols)
    forced = data.draw(st.sampled_from(names))
    r = sdc.identify(df, roles={forced: "qi"})
    assert list(r.roles) == names and set(r.roles.values()) <= set(ROLES)
    assert r.roles[forced] == "quasi-identifier"
    for c in r.columns:
        assert c.reasons and all(isinstance(x, str) and x for x in c.reasons)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "c.toml"
        p.write_text(r.starter_config("x.csv"), encoding="utf-8")
        cfg = load_config(p)
    assert set(cfg.keys) == set(r.quasi_identifiers)
    assert set(cfg.sensitive) == set(r.sensitive)


def test_identifier_columns_outrank_missingness_and_empty_ones_hold_nothing() -> None:
    n = 20
    df = pd.DataFrame({"ssn": ["123-45-6789", "234-56-7890"] + [None] * (n - 2),   # 90 % missing, still SSNs
                       "email": [None] * n,                                          # empty: nothing to find
                       "sex": ["f", "m"] * (n // 2)})
    r = sdc.identify(df)
    assert r.roles["ssn"] == "direct identifier" and r.role_of("ssn").dropped
    assert r.roles["email"] == "other" and r.role_of("email").hipaa == ()
    assert r.role_of("email").reasons[0].startswith("missing in 100.00% of records")


def test_no_data_value_in_the_reasons_or_the_config() -> None:
    secrets = [f"person{i}@example.org" for i in range(12)]
    df = pd.DataFrame({"contact": secrets, "zip": ["03601"] * 6 + ["10001"] * 6, "sex": ["f", "m"] * 6})
    r = sdc.identify(df)
    text = repr(r) + r.to_frame().to_string() + repr(r.summary()) + r.starter_config("x.csv")
    assert r.roles["contact"] == "direct identifier"
    assert not any(s in text for s in secrets) and "03601" not in text and "10001" not in text


ADULT = Path(os.environ.get("SDC_ARX_ADULT") or ROOT.parent / "shared" / "data" / "arx-adult" / "adult.csv")


@pytest.mark.skipif(not ADULT.exists(), reason="the ARX adult extract is not at SDC_ARX_ADULT (nor ../shared/data/arx-adult/)")
def test_adult_extract_roles_match_arx_convention() -> None:
    # ARX's adult example: eight quasi-identifiers and salary-class as the sensitive attribute.
    r = sdc.identify(read_data(ADULT, text_columns=True))
    assert set(r.quasi_identifiers) == {"sex", "age", "race", "marital-status", "education", "native-country",
                                        "workclass", "occupation"}
    assert r.sensitive == ("salary-class",) and r.direct_identifiers == ()
    age = next(f for f in r.safe_harbor.findings if f.column == "age")
    assert age.allowed and age.records == 35  # top-coded at 90: one '90 or older' category


# --- record numbers are direct identifiers (issue 27 item 1) ---------------------------------------

def test_a_record_number_beside_names_and_ssns_is_a_direct_identifier() -> None:
    """A unique permuted integer was 'sensitive' (g-distinct 100 % > alpha)."""
    rng = np.random.default_rng(0)
    n = 300
    df = pd.DataFrame({
        "name": [f"Person {i}" for i in range(n)],
        "ssn": [f"{rng.integers(100, 999)}-{rng.integers(10, 99)}-{rng.integers(1000, 9999)}" for _ in range(n)],
        "rec_no": rng.choice(np.arange(10**5, 10**6), n, replace=False),
        "bmi": rng.normal(27, 4, n).round(1),
        "weight_kg": rng.normal(75, 12, n).round(1),
    })
    r = sdc.identify(df)
    assert r.roles["rec_no"] == "direct identifier" and r.used_as("id") == "rec_no"
    assert r.role_of("rec_no").hipaa == ("R",) and "record number" in r.role_of("rec_no").reasons[0]
    assert r.roles["weight_kg"] != "direct identifier"  # a measurement, many distinct values


def _actg175(tmp_path: Path) -> Path:
    """ACTG 175 (R package speff2trial's ACTG175), written to CSV through R."""
    import shutil
    import subprocess

    if shutil.which("Rscript") is None:
        pytest.skip("R is not installed: ACTG 175 comes from R's speff2trial package")
    out = tmp_path / "actg175.csv"
    code = ("if (!requireNamespace('speff2trial', quietly = TRUE)) quit(status = 3); "
            f"data(ACTG175, package = 'speff2trial'); write.csv(ACTG175, '{out}', row.names = FALSE)")
    proc = subprocess.run(["Rscript", "-e", code], capture_output=True, text=True, timeout=300)
    if proc.returncode == 3:
        pytest.skip("R package speff2trial is not installed (install.packages('speff2trial'))")
    assert proc.returncode == 0, proc.stderr
    return out


def test_actg175_patient_number_is_a_direct_identifier(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """ACTG 175's pidnum (one integer per record, 10056 to 990077) was classed sensitive and
    0 of 18 HIPAA categories found."""
    from tests.helpers import run_cli

    path = _actg175(tmp_path)
    r = sdc.identify(read_data(path, text_columns=True, na_values=["NA"]))
    assert r.roles["pidnum"] == "direct identifier" and r.used_as("id") == "pidnum"
    assert r.safe_harbor.found == ("R",) and r.safe_harbor.columns_of("R") == ("pidnum",)
    for measured in ("wtkg", "cd80", "days", "preanti"):  # measurements with many distinct values
        assert r.roles[measured] != "direct identifier", measured
    status, out, _ = run_cli(capsys, "identify", str(path), "--na-values", "NA")
    assert status == 0 and "1 of 18 categories found" in out
    assert [ln for ln in out.splitlines() if ln.strip().startswith("pidnum")][0].split()[1:3] == ["direct", "identifier"]
