"""Sampling weights told from body weights, and ages in months or days told from years.

A column is used as the **sampling weights** only when it behaves like them:

1. its name is a weight's (``weight``, ``wgt``, ``perwt``, ``sampling_weight``, ...);
2. every record has one (a sampled record always carries its weight) and every value is
   positive;
3. their sum is plausible as a population: at least the number of records (a mean weight of
   1 or more; a weight is the number of people a record stands for);
4. it is not a body measurement: the name does not carry a unit or body word (``kg``, ``lb``,
   ``body``, ``birth_weight``, ...; :data:`sdc.identify.vocabulary.BODY_WORDS`), and where
   the file has a BMI and a height column, BMI = weight / height² does not hold (in kg and
   cm or m, or 703 x lb / in²) for 90 % of the records having all three.

The names ``weight``, ``weights``, ``wt`` and ``w`` are ambiguous and need all four; the
specific ones (``pweight``, ``perwt``, ``sampling_weight``, ...) skip the body checks.

An **age unit** is read from the name: ``AgeMonths``, ``age_in_days``, ``age_weeks`` hold
ages in months, days or weeks, converted to completed years before Safe Harbor's "over 89"
rule (a value of 959 months is 79 years, not 959).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from sdc.identify._facts import ColumnFacts, normalise_name
from sdc.identify.vocabulary import Vocabulary

__all__ = ["WEIGHT_NAMES", "AMBIGUOUS_WEIGHT_NAMES", "weight_verdict", "age_unit", "AGE_UNITS"]

WEIGHT_NAMES = frozenset({
    "weight", "weights", "wgt", "wght", "wt", "pweight", "pw", "sampling_weight", "sample_weight", "survey_weight",
    "design_weight", "final_weight", "finalweight", "fweight", "perwt", "hhwt", "wtfinl", "expansion_factor",
    "raising_factor", "grossing_factor", "w", "sweight", "sampweight", "wtint2yr", "wtmec2yr", "wtint", "wtmec"})
#: Names that may as well be a body weight: they need the behaviour checks.
AMBIGUOUS_WEIGHT_NAMES = frozenset({"weight", "weights", "wt", "w", "wght", "wgt"})
#: Age units by name word: the factor to completed years.
AGE_UNITS: dict[str, tuple[str, float]] = {
    "months": ("months", 12.0), "month": ("months", 12.0), "mos": ("months", 12.0), "mo": ("months", 12.0),
    "days": ("days", 365.25), "day": ("days", 365.25), "weeks": ("weeks", 365.25 / 7), "week": ("weeks", 365.25 / 7),
    "wks": ("weeks", 365.25 / 7), "wk": ("weeks", 365.25 / 7)}
_BMI_SHARE = 0.9


def age_unit(name: str) -> tuple[str, float]:
    """("years", 1.0) or the unit the normalised `name` of an age column says, and its factor."""
    for tok in name.split("_"):
        if tok in AGE_UNITS:
            return AGE_UNITS[tok]
    return "years", 1.0


def _numbers(s: pd.Series) -> np.ndarray:
    return pd.to_numeric(s, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)


def _bmi_share(data: pd.DataFrame, column: object, names: Mapping[object, str]) -> float | None:
    """Share of records (with all three present) where BMI = weight / height² in a usual unit."""
    bmi = [c for c, n in names.items() if re.search(r"(?:^|_)bmi(?:_|$)", n) and c != column]
    ht = [c for c, n in names.items() if re.search(r"(?:^|_)(?:height|ht)(?:_cm|_m|_in)?(?:_|$)", n) and c != column]
    if not bmi or not ht:
        return None
    w, b, h = _numbers(data[column]), _numbers(data[bmi[0]]), _numbers(data[ht[0]])
    ok = np.isfinite(w) & np.isfinite(b) & np.isfinite(h) & (h > 0) & (b > 0)
    if not ok.any():
        return None
    w, b, h = w[ok], b[ok], h[ok]
    best = 0.0
    for est in (w / (h / 100) ** 2, w / h ** 2, 703 * w / h ** 2):
        best = max(best, float(np.mean(np.abs(est - b) <= 0.02 * b + 0.05)))
    return best


def weight_verdict(f: ColumnFacts, data: pd.DataFrame, names: Mapping[object, str],
                   vocabulary: Vocabulary) -> tuple[bool, str] | None:
    """None when the name is not a weight's; else (used as the sampling weights, the reason)."""
    name = normalise_name(f.name)
    if name not in WEIGHT_NAMES and not (vocabulary.is_body(name) and re.search(r"(?:^|_)(?:weight|wt)(?:_|$)", name)):
        return None
    x = f.numbers
    if name not in WEIGHT_NAMES or vocabulary.is_body(name):
        return False, ("a body weight (the name carries a unit or body word), not a sampling weight: a health "
                       "measurement")
    if x is None or not len(x):
        return False, "named like a weight, but the values are not numbers: not used as the sampling weights"
    why_not = []
    if f.n_missing:
        why_not.append(f"missing in {100 * f.n_missing / f.n_records:.2f}% of records (a sampled record always "
                       "carries its weight)")
    if float(np.nanmin(x)) <= 0:
        why_not.append("some values are zero or negative")
    total = float(np.dot(x, f.counts))
    if total < f.n_present:
        why_not.append(f"the values sum to {total:,.0f}, fewer than the {f.n_present:,} records (a weight is the "
                       "number of people a record stands for)")
    if name in AMBIGUOUS_WEIGHT_NAMES:
        share = _bmi_share(data, f.name, names)
        if share is not None and share >= _BMI_SHARE:
            why_not.append(f"BMI = weight / height² holds in {100 * share:.1f}% of records: a body weight")
    if why_not:
        return False, ("named like a weight but not used as the sampling weights: " + "; ".join(why_not)
                       + "; a body measurement is a health measurement")
    return True, (f"a sampling weight by name and behaviour: every record has a positive value and they sum to "
                  f"{total:,.0f} (the population the {f.n_present:,} records stand for); used as the weights")
