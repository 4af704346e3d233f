#!/usr/bin/env python3
"""Generate the bundled example: a synthetic household health survey (seeded, reproducible).

Writes ``sdc/data/health_survey.csv`` (or ``--out PATH``). Run from the repository root:
``.venv/bin/python scripts/make_example_data.py``. The file is committed; this script is
how it was made, so anyone can check that it contains no real person.

Design: 1,700 households drawn in 9 regions with unequal sampling fractions (so weights
differ by region and are not integers), 1-6 members per household with ages and sexes that
fit a household (adults, then children), and health variables that depend on age and sex.
A few values are missing, as in real surveys (marital status, education, cholesterol).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20261121
N_HOUSEHOLDS = 1700
OUT = Path(__file__).resolve().parents[1] / "sdc" / "data" / "health_survey.csv"

# region: (population in thousands, share of sampled households)
REGIONS = {
    "North East": (2650, 0.07), "North West": (7420, 0.13), "Yorkshire": (5480, 0.11),
    "East Midlands": (4880, 0.10), "West Midlands": (5950, 0.11), "East": (6330, 0.11),
    "London": (8800, 0.16), "South East": (9280, 0.14), "South West": (5700, 0.07),
}
DIAGNOSES = ["none", "hypertension", "type 2 diabetes", "asthma", "depression", "COPD", "cancer", "HIV"]


def household_members(rng: np.random.Generator) -> list[tuple[int, str, str]]:
    """(age, sex, relation) of each member: one or two adults, then children."""
    size = int(rng.choice([1, 2, 3, 4, 5, 6], p=[0.28, 0.34, 0.16, 0.14, 0.06, 0.02]))
    head_age = int(np.clip(rng.normal(48, 16), 18, 95))
    head_sex = str(rng.choice(["female", "male"]))
    members = [(head_age, head_sex, "head")]
    if size >= 2:
        partner_age = int(np.clip(head_age + rng.normal(0, 4), 18, 95))
        partner_sex = "male" if head_sex == "female" and rng.random() < 0.95 else "female"
        members.append((partner_age, partner_sex, "partner"))
    for _ in range(size - len(members)):
        child_age = int(np.clip(head_age - rng.normal(30, 5), 0, 40))
        members.append((child_age, str(rng.choice(["female", "male"])), "child"))
    return members


def health(rng: np.random.Generator, age: int, sex: str) -> tuple[float, float, int, str, str]:
    """BMI, cholesterol (mmol/L), systolic blood pressure, smoking status and diagnosis."""
    adult = age >= 18
    bmi = rng.normal(27 if adult else 19, 4.5 if adult else 3)
    bmi = round(float(np.clip(bmi + (0.04 * (age - 45) if adult else 0), 13, 55)), 1)
    chol = round(float(np.clip(rng.normal(4.2 + 0.02 * age + (0.2 if sex == "female" else 0), 0.9), 2.2, 9.5)), 1)
    sbp = int(np.clip(rng.normal(105 + 0.5 * age + 0.6 * (bmi - 25), 12), 85, 210))
    smoke = str(rng.choice(["never", "former", "current"], p=[0.58, 0.25, 0.17])) if adult else "never"
    # Diagnosis probabilities rise with age; the rare ones (cancer, HIV) carry the most risk.
    a = min(age, 90) / 90
    p = np.array([0.62 - 0.35 * a, 0.05 + 0.25 * a, 0.03 + 0.10 * a, 0.09, 0.08,
                  0.01 + 0.05 * a, 0.005 + 0.04 * a, 0.004])
    p = np.clip(p, 0.001, None)
    diagnosis = str(rng.choice(DIAGNOSES, p=p / p.sum()))
    return bmi, chol, sbp, smoke, diagnosis


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Generate the bundled example dataset.")
    ap.add_argument("--out", type=Path, default=OUT, help=f"output CSV (default {OUT})")
    out = ap.parse_args(argv).out
    rng = np.random.default_rng(SEED)
    names = list(REGIONS)
    shares = np.array([REGIONS[r][1] for r in names])
    hh_region = rng.choice(len(names), size=N_HOUSEHOLDS, p=shares / shares.sum())
    rows = []
    for hid in range(N_HOUSEHOLDS):
        region = names[hh_region[hid]]
        members = household_members(rng)
        couple = len(members) >= 2
        for age, sex, relation in members:
            if relation in ("head", "partner") and couple:
                marital = "married"
            elif age < 16:
                marital = "single"
            else:
                marital = str(rng.choice(["single", "married", "divorced", "widowed"],
                                         p=[0.45, 0.05, 0.30, 0.20] if age < 70 else [0.10, 0.05, 0.25, 0.60]))
            if age < 5:
                education = "none"
            elif age < 12:
                education = "primary"
            elif age < 18:
                education = "secondary"
            else:
                education = str(rng.choice(["primary", "secondary", "tertiary"], p=[0.15, 0.50, 0.35]))
            bmi, chol, sbp, smoke, dx = health(rng, age, sex)
            rows.append((hid + 1, region, age, sex, relation, marital, education, bmi, chol, sbp, smoke, dx))
    df = pd.DataFrame(rows, columns=[
        "household_id", "region", "age", "sex", "relation", "marital_status", "education",
        "bmi", "cholesterol", "systolic_bp", "smoking", "diagnosis"])
    # Design weight: region population / sampled persons in the region, with a small
    # household-level non-response adjustment, so weights vary within regions too. Populations
    # are scaled by 1/1000: the survey represents about 56,400 people, a 7% sample.
    persons = df.groupby("region")["age"].transform("size")
    pop = df["region"].map({r: v[0] * 1000 for r, v in REGIONS.items()})
    adj = rng.uniform(0.9, 1.1, size=N_HOUSEHOLDS)[df["household_id"].to_numpy() - 1]
    df["weight"] = (pop / persons * adj / 1000).round(2)
    # Item non-response.
    for col, rate in [("marital_status", 0.02), ("education", 0.03), ("cholesterol", 0.05)]:
        df.loc[rng.random(len(df)) < rate, col] = np.nan
    df.insert(0, "subject_id", [f"S{i:05d}" for i in range(1, len(df) + 1)])
    df.to_csv(out, index=False)
    print(f"wrote {out} ({len(df)} records, {df['household_id'].nunique()} households)")


if __name__ == "__main__":
    main()
