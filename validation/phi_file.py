"""A seeded synthetic file of protected health information: 3,000 records x 40 columns holding
every one of the 18 HIPAA Safe Harbor categories, under telling and under neutral column names
and inside free text (issue 32). Every value is made up from the seed; the names come from
sdc's bundled name lists.

``python -m validation.phi_file OUT.csv [--rows 3000] [--seed 32]`` writes it;
``phi_frame(n, seed)`` returns it (all columns as text, as ``sdc identify`` reads a file).

What it holds (share of records where not every record):

- A names: ``patient_name``, ``first_name``, ``last_name``; ``field_a`` (names, neutral name);
- B geography: ``street_address``, ``city``, ``county``, ``zip`` (5 digits, some in restricted
  3-digit areas 036, 059, 102), ``code_b`` (ZIP codes, neutral name), ``latitude``, ``longitude``;
- C dates and ages: ``dob``, ``admission_date``, ``discharge_date`` (ISO dates), ``age`` (2 % over 89);
- D-R: ``phone``, ``fax``, ``email``, ``ssn``, ``mrn``, ``health_plan_id``, ``account_number``,
  ``license_number``, ``vin``, ``device_serial``, ``website``, ``ip_address``, ``fingerprint``,
  ``photo_file``, ``ref`` (a record number, neutral name);
- free text ``notes``: an e-mail address in 19 %, an SSN in 19 %, a telephone number in 10 %,
  a clinician's name in 10 %, a date in 10 %, an MRN in 5 %, a URL in 5 %, a ZIP code in 5 %,
  an IP address in 3 %;
- the rest: ``sex``, ``race``, ``marital_status``, ``state``, ``diagnosis``, ``bmi``,
  ``cholesterol``, ``income``, ``smoker``.
"""

from __future__ import annotations

import argparse
import string
from pathlib import Path

import numpy as np
import pandas as pd

from sdc.protect.text_patterns import FIRST_NAMES, SURNAMES

__all__ = ["phi_frame", "NOTE_SHARES"]

NOTE_SHARES = {"email": 0.19, "ssn": 0.19, "phone": 0.10, "name": 0.10, "date": 0.10, "mrn": 0.05, "url": 0.05,
               "zip": 0.05, "ip": 0.03}
_ZIP3 = ["021", "100", "606", "941", "303", "036", "059", "102", "770", "981"]


def _digits(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    return np.array(["".join(r) for r in rng.choice(list(string.digits), (n, k))], dtype=object)


def _dates(rng: np.random.Generator, n: int, start: str, end: str) -> np.ndarray:
    lo, hi = pd.Timestamp(start).value // 86_400_000_000_000, pd.Timestamp(end).value // 86_400_000_000_000
    days = rng.integers(lo, hi, n)
    return pd.to_datetime(days, unit="D").strftime("%Y-%m-%d").to_numpy(dtype=object)


def _people(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    first = rng.choice(sorted(FIRST_NAMES), n)
    last = rng.choice(sorted(SURNAMES), n)
    zips = np.char.add(rng.choice(_ZIP3, n, p=[.2, .2, .15, .15, .1, .04, .04, .04, .04, .04]).astype(str),
                       np.char.zfill(rng.integers(0, 100, n).astype(str), 2)).astype(object)
    code_b = np.char.add(rng.choice(_ZIP3, n).astype(str), np.char.zfill(rng.integers(0, 100, n).astype(str), 2))
    return {
        "patient_name": np.char.add(np.char.add(first.astype(str), " "), last.astype(str)).astype(object),
        "first_name": first, "last_name": last,
        "field_a": np.char.add(np.char.add(rng.choice(sorted(FIRST_NAMES), n).astype(str), " "),
                               rng.choice(sorted(SURNAMES), n).astype(str)).astype(object),
        "street_address": np.char.add(rng.integers(1, 9999, n).astype(str),
                                      rng.choice([" Main St", " Oak Avenue", " Park Rd", " Elm Street"], n)),
        "city": rng.choice(["Boston", "Springfield", "Fairview", "Riverton", "Lakeside"], n),
        "county": rng.choice(["Suffolk", "Hampden", "Norfolk", "Essex"], n),
        "zip": zips, "code_b": code_b.astype(object),
        "latitude": np.round(rng.uniform(25, 48, n), 5).astype(str), "longitude": np.round(rng.uniform(-124, -67, n),
                                                                                           5).astype(str),
    }


def _numbers(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    area = rng.integers(100, 665, n).astype(str)
    return {
        "phone": np.char.add(np.char.add("(617) 555-", _digits(rng, n, 4).astype(str)), ""),
        "fax": np.char.add("617-555-", _digits(rng, n, 4).astype(str)),
        "email": np.char.add(np.char.add(rng.choice(["pat", "jo", "sam", "lee"], n), _digits(rng, n, 5).astype(str)),
                             "@example.org"),
        "ssn": np.char.add(np.char.add(area, "-"), np.char.add(np.char.add(
            rng.integers(10, 99, n).astype(str), "-"), rng.integers(1000, 9999, n).astype(str))),
        "mrn": np.char.add("MR", _digits(rng, n, 7).astype(str)),
        "health_plan_id": np.char.add("HP", _digits(rng, n, 9).astype(str)),
        "account_number": _digits(rng, n, 10), "license_number": np.char.add("D", _digits(rng, n, 7).astype(str)),
        "vin": np.array(["".join(r) for r in rng.choice(list("ABCDEFGHJKLMNPRSTUVWXYZ0123456789"), (n, 17))]),
        "device_serial": np.char.add("SN-", _digits(rng, n, 8).astype(str)),
        "website": np.char.add("https://www.example.org/~u", _digits(rng, n, 6).astype(str)),
        "ip_address": np.char.add("10.0.", np.char.add(np.char.add(rng.integers(0, 255, n).astype(str), "."),
                                                       rng.integers(1, 255, n).astype(str))),
        "fingerprint": np.array(["".join(r) for r in rng.choice(list("0123456789abcdef"), (n, 32))]),
        "photo_file": np.char.add(np.char.add("photo_", _digits(rng, n, 6).astype(str)), ".jpg"),
        "ref": (rng.permutation(n) + 500_000).astype(str),
    }


def _notes(rng: np.random.Generator, n: int, cols: dict[str, np.ndarray]) -> np.ndarray:
    base = rng.choice(["Patient reports mild symptoms and was advised to rest",
                       "Follow up visit scheduled after the lab results come back",
                       "No change since the last visit and medication continued as before",
                       "Discussed diet and exercise with the patient at some length"], n).astype(object)
    extra = {
        "email": "write to " + cols["email"].astype(object), "ssn": "SSN " + cols["ssn"].astype(object) + " on file",
        "phone": "call back on " + cols["phone"].astype(object),
        "name": "seen by Dr. " + rng.choice(sorted(SURNAMES), n).astype(object),
        "date": "next visit " + _dates(rng, n, "2023-01-01", "2024-12-31"),
        "mrn": "MRN: " + _digits(rng, n, 7), "url": "see " + cols["website"].astype(object),
        "zip": "moved to MA " + np.char.zfill(rng.integers(1000, 2799, n).astype(str), 5).astype(object),
        "ip": "portal login from " + cols["ip_address"].astype(object)}
    out = base.copy()
    for kind, share in NOTE_SHARES.items():
        pick = rng.permutation(n)[: int(round(share * n))]
        out[pick] = out[pick] + "; " + extra[kind][pick]
    return out + "."


def phi_frame(n: int = 3000, seed: int = 32) -> pd.DataFrame:
    """The synthetic PHI file (every column text, as ``sdc identify`` reads a file)."""
    rng = np.random.default_rng(seed)
    cols: dict[str, np.ndarray] = {**_people(rng, n), **_numbers(rng, n)}
    age = rng.integers(18, 90, n)
    old = rng.permutation(n)[: n // 50]
    age[old] = rng.integers(90, 104, old.size)
    cols.update({
        "dob": _dates(rng, n, "1920-01-01", "2006-12-31"), "admission_date": _dates(rng, n, "2022-01-01", "2024-06-30"),
        "discharge_date": _dates(rng, n, "2022-01-05", "2024-07-30"), "age": age.astype(str)})
    cols["notes"] = _notes(rng, n, cols)
    cols.update({
        "sex": rng.choice(["F", "M"], n), "race": rng.choice(["White", "Black", "Asian", "Other"], n),
        "marital_status": rng.choice(["married", "single", "divorced", "widowed"], n),
        "state": rng.choice(["MA", "NY", "CA", "TX"], n),
        "diagnosis": rng.choice(["diabetes", "asthma", "hypertension", "none"], n),
        "bmi": np.round(rng.normal(27, 5, n), 1).astype(str),
        "cholesterol": rng.integers(120, 300, n).astype(str),
        "income": (rng.integers(10, 200, n) * 1000).astype(str), "smoker": rng.choice(["yes", "no"], n)})
    return pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in cols.items()})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--rows", type=int, default=3000)
    p.add_argument("--seed", type=int, default=32)
    a = p.parse_args(argv)
    phi_frame(a.rows, a.seed).to_csv(Path(a.out), index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
