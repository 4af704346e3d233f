"""sdc identify on a real public survey file: CRAN's NHANES (10,000 rows, 76 columns), written to
CSV by R at test time. Regression test of the roles that issue 32 found wrong: body weight taken
for the sampling weight, ages in months read as years, sexual behaviour taken for demographics,
Race1 left out of the keys, the repeated ids unsaid, the proxies of keys unflagged."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import sdc
from sdc.io import read_data
from sdc.workflow.config import load_config
from tests.helpers import run_cli

pytestmark = pytest.mark.needs_r


@pytest.fixture(scope="module")
def nhanes_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("Rscript") is None:
        pytest.skip("needs R (Rscript) to write CRAN's NHANES data to CSV")
    path = tmp_path_factory.mktemp("nhanes") / "nhanes.csv"
    code = (f'if (!requireNamespace("NHANES", quietly = TRUE)) quit(status = 3); '
            f'write.csv(NHANES::NHANES, "{path.as_posix()}", row.names = FALSE, na = "")')
    run = subprocess.run(["Rscript", "-e", code], capture_output=True, text=True, timeout=300)
    if run.returncode == 3:
        pytest.skip("needs the CRAN package NHANES: Rscript -e 'install.packages(\"NHANES\", "
                    "repos=\"https://cloud.r-project.org\")'")
    assert run.returncode == 0, run.stderr
    return path


@pytest.fixture(scope="module")
def nhanes(nhanes_csv: Path) -> sdc.IdentificationResult:
    return sdc.identify(read_data(nhanes_csv, text_columns=True))


def test_no_body_measurement_is_the_weight(nhanes) -> None:
    assert nhanes.used_as("weights") is None
    w = nhanes.role_of("Weight")
    assert w.role == "sensitive" and w.use is None
    assert "BMI = weight / height" in w.reasons[0] and "missing in 0.78%" in w.reasons[0]


def test_ages_in_months_are_not_ages_over_89(nhanes) -> None:
    finding = [f for f in nhanes.safe_harbor.of_column("AgeMonths") if f.code == "C"][0]
    assert finding.allowed and finding.records == 0 and "months" in finding.detail
    assert "C" not in nhanes.safe_harbor.found


def test_sensitive_and_demographic_by_the_vocabulary(nhanes) -> None:
    roles = nhanes.roles
    for col in ("SexNumPartnLife", "SexNumPartYear", "SameSex", "SexEver", "SexOrientation", "TotChol",
                "DirectChol", "UrineVol1", "UrineFlow1", "HHIncome", "Testosterone"):
        assert roles[col] == "sensitive", col
    for col in ("Sex", "Gender", "Race1", "Race3", "Education", "MaritalStatus", "Age", "AgeDecade"):
        assert roles[col] == "quasi-identifier", col
    assert "'race1'" in nhanes.role_of("Race1").reasons[0]
    assert all(c.reasons for c in nhanes.columns)  # every suggestion with its reason


def test_the_vocabulary_is_extendable(nhanes_csv: Path) -> None:
    data = read_data(nhanes_csv, text_columns=True)
    r = sdc.identify(data, variables=["SleepHrsNight", "Sex", "HomeRooms"],
                     vocabulary={"sensitive": ["sleep*"], "demographic": ["rooms"]})
    assert r.roles["SleepHrsNight"] == "sensitive" and "'sleep_hrs_night'" in r.role_of("SleepHrsNight").reasons[0]
    with pytest.raises(ValueError, match="unknown list 'keys'"):
        sdc.identify(data, variables=["Sex"], vocabulary={"keys": ["x"]})


def test_repeated_ids_and_their_effect_on_the_risk(nhanes) -> None:
    d = nhanes.duplicates
    assert (d.id_column, d.n_ids, d.n_repeated_ids, d.n_duplicate_records) == ("ID", 6779, 3221, 2168)
    assert d.unique_share_deduplicated > 1.5 * d.unique_share  # copies hide unique persons
    assert "--dedupe DEDUPED.csv" in d.text()
    assert "repeats: 6,779 ids in 10,000 records" in nhanes.role_of("ID").reasons


def test_proxies_of_keys_and_sensitive_variables(nhanes) -> None:
    pairs = {(p.column, p.target): p for p in nhanes.proxies.proxies}
    assert pairs[("HHIncomeMid", "HHIncome")].one_to_one
    assert ("Age", "AgeDecade") in pairs and ("Gender", "Sex") in pairs
    assert not any(p.column == "Testosterone" for p in nhanes.proxies.proxies)  # a near-identifier is not rated
    assert any("proxy: 'HHIncomeMid'" in r for r in nhanes.role_of("HHIncomeMid").reasons)


def test_the_starter_config_loads_and_assess_runs(nhanes_csv: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "run.toml"
    code, text, _ = run_cli(capsys, "identify", str(nhanes_csv), "--out", str(out))
    assert code == 0 and "Repeated records: the id 'ID' repeats" in text and "Proxies" in text
    cfg = load_config(out)
    assert cfg.weights is None and "Weight" in cfg.sensitive and "Race1" in cfg.keys
    cfg_text = out.read_text()
    assert "# Repeated records:" in cfg_text and "# Proxies" in cfg_text
    small = tmp_path / "small.toml"  # assess with the starter's roles on a few keys (the whole run takes minutes)
    small.write_text(f'[data]\npath = "{nhanes_csv.as_posix()}"\n[variables]\n'
                     'categorical_keys = ["Sex", "AgeDecade", "Race1"]\nsensitive = ["Diabetes"]\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "assess", "--config", str(small), "--out", str(tmp_path / "rep"))
    assert code in (0, 2), err


def test_dedupe_writes_one_record_per_id_and_the_config_names_it(nhanes_csv: Path, tmp_path: Path, capsys) -> None:
    ded, out = tmp_path / "dedup.csv", tmp_path / "run.toml"
    code, text, _ = run_cli(capsys, "identify", str(nhanes_csv), "--dedupe", str(ded), "--out", str(out))
    assert code == 0 and "6,779 of 10,000 records (one per id 'ID')" in text
    data = read_data(ded, text_columns=True)
    assert len(data) == 6779 and data["ID"].is_unique
    assert "Repeated records" not in text.split("identifying it.")[1]
    assert load_config(out).data_path == str(ded) and load_config(out).id == "ID"
