"""A seeded, vectorised generator of survey data shaped like the bundled example, at any size.

The `sdc assess` benchmark runs the bundled example's configuration (two scenarios, weights,
households, two sensitive variables, every default measure) on this data::

    .venv/bin/python -m validation.make_assess_data --records 1000000 --out /tmp/survey-1e6.csv

Columns as in ``sdc/data/health_survey.csv``: subject_id, household_id, region, age, sex,
marital_status (about 2 % missing), weight (by region, not integers), diagnosis (8 values,
depending on age), cholesterol (numeric, about 3 % missing). Households have 1 to 6 members.
The weights sum to about 6.28 times the records (the same sampling fraction at every size).
The same seed and size give the same file, byte for byte.

``--keys 8`` adds four key variables after these columns (:data:`EXTRA_KEYS`: education,
employment, smoking, tenure), drawn from a seed of their own so that the first nine columns
are the 4-key file's: with age, sex, region and marital status, the eight keys of the scale
benchmark (``validation/bench_scale.py``, configuration ``validation/scale_assess.toml``)::

    .venv/bin/python -m validation.make_assess_data --records 1e7 --keys 8 --out /tmp/survey-1e7x8.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20261123
REGIONS = np.array(["North East", "North West", "Yorkshire", "East Midlands", "West Midlands", "East", "London",
                    "South East", "South West"])
REGION_P = np.array([0.07, 0.13, 0.11, 0.10, 0.11, 0.11, 0.16, 0.14, 0.07])
MARITAL = np.array(["single", "married", "divorced", "widowed", "civil partnership"])
#: The keys ``--keys 8`` adds, with their values and probabilities.
EXTRA_KEYS = {
    "education": (["none", "primary", "secondary", "vocational", "tertiary", "postgraduate"],
                  [0.04, 0.14, 0.38, 0.16, 0.22, 0.06]),
    "employment": (["employed", "self-employed", "unemployed", "retired", "student", "carer", "other"],
                   [0.48, 0.10, 0.05, 0.22, 0.07, 0.04, 0.04]),
    "smoking": (["never", "former", "current"], [0.55, 0.28, 0.17]),
    "tenure": (["owner", "mortgage", "social rent", "private rent", "other"], [0.33, 0.30, 0.17, 0.18, 0.02]),
}
DIAGNOSES = np.array(["none", "hypertension", "type 2 diabetes", "asthma", "depression", "COPD", "cancer", "HIV"])


def make(records: int, seed: int = SEED, keys: int = 4) -> pd.DataFrame:
    """`records` survey records in households (the last household may be cut short); with
    ``keys=8`` the four :data:`EXTRA_KEYS` columns too."""
    if keys not in (4, 8):
        raise ValueError(f"`keys` must be 4 or 8; got {keys!r}.")
    rng = np.random.default_rng(seed)
    sizes = rng.choice(np.arange(1, 7), size=records // 2 + 10, p=[0.28, 0.34, 0.16, 0.14, 0.06, 0.02])
    hh = np.repeat(np.arange(sizes.size), sizes)[:records]
    n_hh = int(hh[-1]) + 1
    region_hh = rng.choice(REGIONS.size, size=n_hh, p=REGION_P)
    region = region_hh[hh]
    first = np.r_[True, hh[1:] != hh[:-1]]
    age = np.where(first, np.clip(rng.normal(48, 16, records), 18, 95), rng.integers(0, 90, records)).astype(np.int64)
    sex = rng.choice(np.array(["female", "male"]), size=records)
    marital = MARITAL[np.where(age < 18, 0, rng.choice(MARITAL.size, size=records, p=[0.3, 0.45, 0.12, 0.08, 0.05]))]
    marital = marital.astype(object)
    marital[rng.random(records) < 0.02] = None
    # Weights for a sampling fraction of about 1/6.3 at every size (a population of about 6.28
    # million per million records): dividing by `records` instead gave weights below 1 (a
    # population smaller than the sample) from 6.3 million records on. The same file at 10^6.
    base_w = (np.array([2650, 7420, 5480, 4880, 5950, 6330, 8800, 9280, 5700]) * 1000.0 / 1e6 / REGION_P) / 9
    weight = np.round(base_w[region] * rng.uniform(0.8, 1.2, records), 3)
    risk = np.clip((age - 20) / 80, 0, 1)
    p_none = 0.75 - 0.45 * risk
    u = rng.random(records)
    diag = np.where(u < p_none, 0, rng.integers(1, DIAGNOSES.size, records))
    chol = np.round(rng.normal(4.8 + 1.2 * risk, 0.9), 1)
    chol[rng.random(records) < 0.03] = np.nan
    out = pd.DataFrame({
        "subject_id": np.arange(1, records + 1), "household_id": hh + 1, "region": REGIONS[region], "age": age,
        "sex": sex, "marital_status": marital, "weight": weight, "diagnosis": DIAGNOSES[diag], "cholesterol": chol,
    })
    if keys == 8:
        extra = np.random.default_rng(seed + 1)
        for name, (values, p) in EXTRA_KEYS.items():
            out[name] = np.array(values)[extra.choice(len(values), size=records, p=p)]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=float, default=1e6, help="number of records (default 1e6)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--keys", type=int, choices=(4, 8), default=4, help="key variables (default 4; 8 adds EXTRA_KEYS)")
    ap.add_argument("--out", type=Path, required=True, help="CSV file to write")
    args = ap.parse_args(argv)
    make(int(args.records), args.seed, args.keys).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
