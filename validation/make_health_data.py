"""A seeded public-health file like seed 004's release, for the k + l suppression benchmark.

    .venv/bin/python -m validation.make_health_data --records 150000 --out /tmp/health-150k.csv

Columns: ``id`` (1..n); seven categorical keys, each drawn with skewed published-survey-like
shares: ``age_group`` (16 five-year bands 15-19 .. 90+, younger bands more frequent),
``sex`` (2), ``region`` (9, skewed), ``ethnicity`` (6, one large group), ``education``
(5, depending on the age group), ``employment`` (4, depending on the age group), ``marital_status`` (5, depending on the age
group); and the
sensitive ``diagnosis`` (10 values, skewed: "none" about half of the records, the others
rarer, their shares moved by age group and sex so that small classes often hold one or two
diagnoses only). The same arguments always give the same bytes (numpy's default_rng(seed)).
:func:`health_data` returns the frame.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20261202
AGE_GROUPS = tuple(f"{a}-{a + 4}" for a in range(15, 90, 5)) + ("90+",)
SEXES = ("female", "male")
REGIONS = ("North East", "North West", "Yorkshire", "East Midlands", "West Midlands", "East", "London",
           "South East", "South West")
ETHNICITIES = ("White", "Asian", "Black", "Mixed", "Arab", "Other")
EDUCATION = ("none", "secondary", "vocational", "bachelor", "postgraduate")
EMPLOYMENT = ("employed", "unemployed", "student", "retired")
MARITAL = ("married", "single", "divorced", "widowed", "partnered")
DIAGNOSES = ("none", "hypertension", "diabetes", "asthma", "depression", "copd", "heart disease", "cancer",
             "hiv", "hepatitis")
KEYS = ("age_group", "sex", "region", "ethnicity", "education", "employment", "marital_status")
SENSITIVE = "diagnosis"


def _pick(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    """One category per row of `probs` (rows sum to 1), vectorised by inverse CDF."""
    cum = np.cumsum(probs, axis=1)
    u = rng.random(probs.shape[0])[:, None]
    return np.minimum((u > cum).sum(axis=1), probs.shape[1] - 1)


def _normed(p: np.ndarray) -> np.ndarray:
    return p / p.sum(axis=-1, keepdims=True)


def health_data(records: int = 150_000, seed: int = SEED) -> pd.DataFrame:
    """The file: ``records`` rows drawn with ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    n = int(records)
    ages = np.arange(len(AGE_GROUPS))
    age = rng.choice(ages.size, size=n, p=_normed(np.exp(-ages / 7.0)))
    sex = rng.choice(2, size=n, p=[0.52, 0.48])
    region = rng.choice(len(REGIONS), size=n, p=_normed(np.array([4, 11, 8, 7, 9, 10, 14, 16, 9.0])))
    eth = rng.choice(len(ETHNICITIES), size=n, p=[0.80, 0.09, 0.04, 0.03, 0.01, 0.03])
    old = (ages / ages.max())[age][:, None]
    edu_p = _normed(np.array([0.05, 0.40, 0.25, 0.22, 0.08]) * (1 + old * np.array([3, 0.5, 0, -0.5, -0.5])))
    edu = _pick(rng, edu_p)
    young = (age <= 1)[:, None].astype(float)
    retired = (age >= 10)[:, None].astype(float)
    emp_p = _normed(np.array([0.70, 0.08, 0.12, 0.10]) * (1 - young - retired)
                    + young * np.array([0.25, 0.10, 0.65, 0.0]) + retired * np.array([0.10, 0.02, 0.0, 0.88]))
    emp = _pick(rng, emp_p)
    mar_p = _normed(np.array([0.45, 0.30, 0.10, 0.10, 0.05]) * (1 + old * np.array([0.5, -0.8, 0.5, 3.0, -0.5])))
    mar = _pick(rng, mar_p)
    base = np.array([0.50, 0.14, 0.08, 0.08, 0.07, 0.04, 0.04, 0.03, 0.01, 0.01])
    trend = np.array([-1.0, 2.0, 1.5, -0.5, -0.3, 2.0, 2.5, 2.0, -0.5, 0.0])
    sex_shift = np.array([0.0, 0.1, 0.1, 0.2, 0.4, 0.0, -0.2, 0.0, -0.3, 0.0])
    diag_p = _normed(base * np.exp(trend * old + sex_shift * (sex[:, None] == 0)))
    diag = _pick(rng, diag_p)
    frame = pd.DataFrame({"id": np.arange(1, n + 1)})
    for name, labels, codes in (("age_group", AGE_GROUPS, age), ("sex", SEXES, sex), ("region", REGIONS, region),
                                ("ethnicity", ETHNICITIES, eth), ("education", EDUCATION, edu),
                                ("employment", EMPLOYMENT, emp),
                                ("marital_status", MARITAL, mar), (SENSITIVE, DIAGNOSES, diag)):
        frame[name] = np.asarray(labels, dtype=object)[codes]
    return frame


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=float, default=150_000)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    health_data(int(a.records), a.seed).to_csv(a.out, index=False)
    print(f"wrote {a.out} ({int(a.records):,} records)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
