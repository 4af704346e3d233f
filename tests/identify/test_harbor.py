"""The Safe Harbor preset (issue 32 item 4): sdc protect --safe-harbor on a seeded 3,000 x 40
PHI file (validation/phi_file.py) gives a release that safe_harbor() accepts and in which
sdc identify finds none of the 18 categories, free text included."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import sdc
from sdc.identify.hipaa import CATEGORIES
from sdc.io import read_data
from tests.helpers import run_cli
from validation.phi_file import NOTE_SHARES, phi_frame

YEAR = 2025


@pytest.fixture(scope="module")
def phi() -> pd.DataFrame:
    return phi_frame(3000, seed=32)


def test_the_generator_holds_all_18_categories(phi) -> None:
    assert phi.shape == (3000, 40)
    sh = sdc.safe_harbor(phi, reference_year=YEAR)
    assert sh.found == tuple(c.code for c in CATEGORIES)
    notes = {f.code: f.records for f in sh.of_column("notes")}
    assert notes["F"] == round(NOTE_SHARES["email"] * 3000) and notes["G"] == round(NOTE_SHARES["ssn"] * 3000)
    assert {"field_a", "code_b", "ref"} <= {f.column for f in sh.findings if f.evidence == "values"}


def test_the_release_is_accepted_and_found_clean(phi) -> None:
    r = sdc.safe_harbor_release(phi, reference_year=YEAR)
    assert r.details["found_before"] == [c.code for c in CATEGORIES] and r.details["found_after"] == []
    out = r.data
    assert sdc.safe_harbor(out, reference_year=YEAR).found == ()
    assert sdc.identify(out, reference_year=YEAR).safe_harbor.found == ()
    assert set(out["zip"].dropna()) <= {"000", "021", "100", "606", "941", "303", "770", "981"}
    assert out["age"].astype(int).max() == 90 and out["dob"].astype(float).min() == YEAR - 90
    assert not out["notes"].str.contains("@").any() and out["notes"].str.contains(r"\[SSN\]").sum() == 570
    # its own output: nothing left to do
    again = sdc.safe_harbor_release(out, reference_year=YEAR)
    assert again.details["actions"] == {} and again.data.equals(out)


def test_a_pooled_birth_year_and_a_top_coded_age_are_accepted() -> None:
    df = pd.DataFrame({"yob": [1935, 1935, 1935, 1980, 1990] * 4, "age": [90, 90, 40, 30, 20] * 4})
    sh = sdc.safe_harbor(df, reference_year=YEAR)
    assert sh.found == () and all(f.allowed for f in sh.findings)
    df["yob"] = [1930, 1931, 1935, 1980, 1990] * 4  # two years before 1936: not one category
    assert sdc.safe_harbor(df, reference_year=YEAR).found == ("C",)


def test_ages_in_months_are_pooled_in_months() -> None:
    df = pd.DataFrame({"age_months": [1200, 1085, 500, 20] * 5})
    r = sdc.safe_harbor_release(df, reference_year=YEAR)
    assert r.data["age_months"].tolist() == [1080, 1080, 500, 20] * 5
    assert sdc.safe_harbor(r.data).found == ()


def test_a_plan_step_and_the_command_line(phi, tmp_path: Path, capsys) -> None:
    src = tmp_path / "phi.csv"
    phi.to_csv(src, index=False)
    code, out, err = run_cli(capsys, "protect", str(src), "--safe-harbor", "--no-assess", "--out",
                             str(tmp_path / "rel"))
    assert code == 0, err
    assert "Safe Harbor checklist of the release: 0 of 18 categories found" in out
    released = read_data(tmp_path / "rel" / "released.csv", text_columns=True)
    assert released["zip"].str.len().eq(3).all()  # leading zeros kept: read as text
    assert sdc.safe_harbor(released).found == ()
    code, out, _ = run_cli(capsys, "identify", str(tmp_path / "rel" / "released.csv"))
    assert code == 0 and "0 of 18 categories found" in out
    assert "checklist" in (tmp_path / "rel" / "protection.md").read_text()
    assert "reference_year = " in (tmp_path / "rel" / "plan.toml").read_text()  # the rerun reads ages alike
    plan = tmp_path / "plan.toml"
    plan.write_text('[[steps]]\nmethod = "safe_harbor_release"\nreference_year = 2025\n\n'
                    '[[steps]]\nmethod = "top_bottom_code"\nvariables = ["dob"]\nbottom = 1940\n', encoding="utf-8")
    run = sdc.protect_data(phi, plan, reassess=False)
    assert run.released["dob"].min() == 1940 and "email" not in run.released.columns
