"""Seeded generators of the two files issue 26 checks the release-decision pages on (besides ACTG
175, which R's speff2trial ships): a CDISC-like study in domains and a public-health release.

* :func:`study` -- ``dm.csv`` (USUBJID, SITEID, AGE, SEX, RACE, COUNTRY, ARM), ``vs.csv`` (long:
  VSTESTCD BMI and WEIGHT at the visits SCREENING, BASELINE and WEEK 4; a few BMI above 40, as a
  real study has), ``mh.csv`` (one medical-history term per subject: the sensitive variable)
  and ``study.toml``, an ``sdc assess`` configuration joining them at the BASELINE visit
  (``[data].visit``) with BMI bins closed on the right and values outside taken by the end bands.
* :func:`public_health` -- the survey of :mod:`validation.make_assess_data` at 150,000 records
  with a raw date key (``visit_date``, about 1,100 distinct days) and a numeric column holding a
  literal ``NA`` (``bmi``), as files are written.

::

    .venv/bin/python -m validation.make_decision_data --out /tmp/decision

The same seed gives the same files, byte for byte.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from validation.make_assess_data import make

SEED = 20261202
VISITS = ("SCREENING", "BASELINE", "WEEK 4")
TERMS = np.array(["HYPERTENSION", "DIABETES MELLITUS", "ASTHMA", "DEPRESSION", "HIV INFECTION", "NONE"])

STUDY_TOML = """[data]
domains = { DM = "dm.csv", VS = "vs.csv", MH = "mh.csv" }
subject_id = "USUBJID"
long = { VS = "VSTESTCD" }
value_column = "VSSTRESN"
visit = { VS = "BASELINE" }

[variables]
categorical_keys = ["DM__SEX", "DM__RACE", "DM__COUNTRY", "DM__ARM"]
continuous_keys = ["DM__AGE", "VS__BMI"]
sensitive = ["MH__MHDECOD"]

[bins]
DM__AGE = [18, 30, 45, 60, 75, inf]
VS__BMI = { edges = [0, 18.5, 25, 30, 40], closed = "right", outside = "extend" }

[thresholds]
k = 3
l = 3
"""


def study(subjects: int = 600, seed: int = SEED) -> dict[str, pd.DataFrame]:
    """The domains of a CDISC-like study (see the module docstring)."""
    rng = np.random.default_rng(seed)
    ids = [f"STUDY1-{i:04d}" for i in range(1, subjects + 1)]
    dm = pd.DataFrame({
        "USUBJID": ids, "SITEID": rng.choice([f"S{i:02d}" for i in range(1, 13)], subjects),
        "AGE": np.clip(rng.normal(52, 13, subjects), 18, 89).astype(np.int64),
        "SEX": rng.choice(["F", "M"], subjects),
        "RACE": rng.choice(["WHITE", "BLACK OR AFRICAN AMERICAN", "ASIAN", "OTHER"], subjects, p=[0.7, 0.15, 0.1, 0.05]),
        "COUNTRY": rng.choice(["USA", "CAN", "GBR", "DEU", "FRA"], subjects, p=[0.5, 0.1, 0.15, 0.15, 0.1]),
        "ARM": rng.choice(["PLACEBO", "DRUG 10 MG", "DRUG 20 MG"], subjects)})
    bmi0 = np.round(rng.normal(28, 5, subjects), 1)
    high = rng.random(subjects) < 0.03  # BMI above 40: outside bins [0, 40] as a study writes them
    bmi0[high] = np.round(rng.uniform(40.5, 48, int(high.sum())), 1)
    rows = []
    for v, visit in enumerate(VISITS):
        bmi = np.round(bmi0 + rng.normal(0, 0.4 * v, subjects), 1)
        weight = np.round(bmi * rng.uniform(2.6, 3.2, subjects), 1)
        for test, values in (("BMI", bmi), ("WEIGHT", weight)):
            rows.append(pd.DataFrame({"USUBJID": ids, "VISIT": visit, "VISITNUM": v + 1, "VSTESTCD": test,
                                      "VSSTRESN": values}))
    vs = pd.concat(rows, ignore_index=True)
    mh = pd.DataFrame({"USUBJID": ids, "MHDECOD": rng.choice(TERMS, subjects, p=[0.3, 0.15, 0.1, 0.1, 0.05, 0.3])})
    return {"dm": dm, "vs": vs, "mh": mh}


def public_health(records: int = 150_000, seed: int = SEED) -> pd.DataFrame:
    """The public-health release (see the module docstring)."""
    df = make(records, seed=seed)
    rng = np.random.default_rng(seed + 1)
    days = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 1100, records), unit="D")
    df["visit_date"] = days.strftime("%Y-%m-%d")
    bmi = np.round(rng.normal(27, 4.5, records), 1).astype(object)
    bmi[rng.random(records) < 0.01] = "NA"  # a literal NA in a numeric column, as files hold
    df["bmi"] = bmi
    return df


def write(out: str | Path) -> list[Path]:
    """Both data sets into `out` (study domains, study.toml, public_health.csv)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in study().items():
        frame.to_csv(out / f"{name}.csv", index=False)
        written.append(out / f"{name}.csv")
    (out / "study.toml").write_text(STUDY_TOML, encoding="utf-8")
    public_health().to_csv(out / "public_health.csv", index=False)
    return [*written, out / "study.toml", out / "public_health.csv"]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m validation.make_decision_data", description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="folder for the files")
    for path in write(p.parse_args(argv).out):
        print(path)


if __name__ == "__main__":
    main()
