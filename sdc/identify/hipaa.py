"""HIPAA Safe Harbor: the 18 identifier categories, found by column name and by value patterns.

The Safe Harbor method of de-identification (45 CFR 164.514(b)(2)) requires removing 18
categories of identifiers of the individual and of relatives, employers and household
members (A-R below). This module looks for each category in every column, best effort, in
two ways:

- by **column name**: the name is normalised (``PatientID`` -> ``patient_id``) and matched
  word by word against the category's vocabulary (``ssn``, ``zip``, ``dob``, ``email``, ...);
- by **values**: a sample of the column's distinct values (the first 5,000 in file order) is
  matched against the category's patterns (e-mail addresses, URLs, IPv4/IPv6 addresses,
  dashed social security numbers, telephone numbers, ZIP+4 codes, street addresses, dates,
  MAC addresses, VINs, IBANs, card numbers passing the Luhn check, image file names); the
  category is found when at least `value_share` (80 %) of the sampled values match.

Two rules get numbers: **ZIP codes** -- Safe Harbor allows the first three digits only where
the three-digit area holds more than 20,000 people; the others must become ``000``. The
restricted prefixes are those published by HHS (Office for Civil Rights, "Guidance Regarding
Methods for De-identification of Protected Health Information", 26 Nov 2012, from the 2000
Census ZIP Code Tabulation Areas): 036, 059, 063, 102, 203, 556, 692, 790, 821, 823, 830,
831, 878, 879, 884, 890, 893. Pass ``restricted_zip3`` for a newer list. **Ages** -- ages over
89 (and dates of birth implying them, against `reference_year`) must be aggregated into one
"90 or older" category; a column whose ages above 89 all hold one value passes.

Nothing here prints or stores a data value: findings carry counts and shares only.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame, check_int
from sdc.identify._facts import ColumnFacts, column_facts, normalise_name
from sdc.identify.hipaa_rules import NAME_RULES, PERSON, VALUE_RULES, full_match
from sdc.identify.hipaa_text import is_free_text, neutral_findings, text_findings
from sdc.identify.weights import age_unit

__all__ = ["Category", "CATEGORIES", "Finding", "SafeHarborChecklist", "safe_harbor", "RESTRICTED_ZIP3",
           "ZIP3_SOURCE", "EXPERT_DETERMINATION", "VALUE_SHARE", "SAMPLE_VALUES", "MIN_RECORDS_UNIQUE"]

#: Share of sampled distinct values that must match a category's pattern.
VALUE_SHARE = 0.8
#: Distinct values sampled per column for the value patterns (the first ones in file order).
SAMPLE_VALUES = 5000
#: A text column with one value per record counts as an identifying code only from this many records.
MIN_RECORDS_UNIQUE = 10
#: Whole numbers or codes with a different value in at least this share of the records (of at
#: least RECORD_NUMBER_MIN_RECORDS) are record numbers (a patient, case or record number).
RECORD_NUMBER_SHARE = 0.99
RECORD_NUMBER_MIN_RECORDS = 50

#: Three-digit ZIP prefixes whose areas held 20,000 or fewer people (2000 Census), as published by HHS.
RESTRICTED_ZIP3: tuple[str, ...] = ("036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830",
                                    "831", "878", "879", "884", "890", "893")
ZIP3_SOURCE = ("HHS Office for Civil Rights, Guidance Regarding Methods for De-identification of Protected "
               "Health Information (26 Nov 2012), from 2000 Census ZIP Code Tabulation Areas")

EXPERT_DETERMINATION = (
    "Safe Harbor (45 CFR 164.514(b)(2)) needs all 18 categories removed, for the individual and for relatives, "
    "employers and household members, and no actual knowledge that what remains could identify anyone; this check "
    "is best effort (column names and value patterns) and can confirm neither. The other route, expert "
    "determination (45 CFR 164.514(b)(1)), asks a qualified expert to show that the risk of re-identification is "
    "very small: that is what sdc's risk measures support (k-anonymity, individual and global risk, SUDA, "
    "population uniqueness, l-diversity, t-closeness: run `sdc assess` with the starter configuration).")


@dataclass(frozen=True, slots=True)
class Category:
    """One Safe Harbor category: its letter in 164.514(b)(2)(i), number 1-18, title, the action
    Safe Harbor requires, the role sdc suggests for a column holding it, and a short name."""

    code: str
    number: int
    title: str
    action: str
    role: str
    short: str = ""


_DIRECT, _QI = "direct identifier", "quasi-identifier"
_REMOVE = "remove the column"
CATEGORIES: tuple[Category, ...] = (
    Category("A", 1, "Names", _REMOVE, _DIRECT, "names"),
    Category("B", 2, "Geographic subdivisions smaller than a state (street address, city, county, precinct, "
                     "ZIP code, geocodes)",
             "remove; of a ZIP code keep at most the first 3 digits, and 000 for the restricted prefixes", _QI,
             "geographic units smaller than a state"),
    Category("C", 3, "Dates (except year) related to an individual, and ages over 89",
             "keep only the year; aggregate ages over 89 (and dates implying them) into one '90 or older' category",
             _QI, "dates (except year) and ages over 89"),
    Category("D", 4, "Telephone numbers", _REMOVE, _DIRECT, "telephone numbers"),
    Category("E", 5, "Fax numbers", _REMOVE, _DIRECT, "fax numbers"),
    Category("F", 6, "Electronic mail addresses", _REMOVE, _DIRECT, "e-mail addresses"),
    Category("G", 7, "Social security numbers", _REMOVE, _DIRECT, "social security numbers"),
    Category("H", 8, "Medical record numbers", _REMOVE, _DIRECT, "medical record numbers"),
    Category("I", 9, "Health plan beneficiary numbers", _REMOVE, _DIRECT,
             "health plan beneficiary numbers"),
    Category("J", 10, "Account numbers", _REMOVE, _DIRECT, "account numbers"),
    Category("K", 11, "Certificate/license numbers", _REMOVE, _DIRECT, "certificate/licence numbers"),
    Category("L", 12, "Vehicle identifiers and serial numbers, including license plates", _REMOVE, _DIRECT,
             "vehicle identifiers and licence plates"),
    Category("M", 13, "Device identifiers and serial numbers", _REMOVE, _DIRECT,
             "device identifiers and serial numbers"),
    Category("N", 14, "Web Universal Resource Locators (URLs)", _REMOVE, _DIRECT, "URLs"),
    Category("O", 15, "Internet Protocol (IP) addresses", _REMOVE, _DIRECT, "IP addresses"),
    Category("P", 16, "Biometric identifiers, including finger and voice prints", _REMOVE, _DIRECT,
             "biometric identifiers"),
    Category("Q", 17, "Full-face photographs and comparable images", _REMOVE, _DIRECT,
             "full-face photographs and images"),
    Category("R", 18, "Any other unique identifying number, characteristic or code",
             "remove, or replace with a code as permitted by 164.514(c) (not derived from the person's "
             "information; the key not disclosed)", _DIRECT, "other identifying codes and numbers"),
)
CATEGORY = {c.code: c for c in CATEGORIES}


@dataclass(frozen=True, slots=True)
class Finding:
    """A category found in a column.

    ``evidence`` is ``"name"``, ``"values"``, ``"name and values"`` or ``"free text"`` (found
    inside the text of a free-text column, :mod:`sdc.identify.hipaa_text`); ``detail`` says what
    was seen (counts and shares only, never a value); ``share`` is the share of sampled
    distinct values that matched (None for a name match alone); ``records`` counts the records
    concerned where a rule counts them (restricted ZIP prefixes, ages over 89); ``allowed`` is
    True when the column already meets Safe Harbor's exception (3-digit ZIP codes with no
    restricted prefix, ages with none over 89, years only).
    """

    column: str
    code: str
    evidence: str
    detail: str
    share: float | None = None
    records: int | None = None
    allowed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SafeHarborChecklist:
    """Result of :func:`safe_harbor`: the 18 categories and where each was found.

    Attributes
    ----------
    n_records : int
    variables : tuple of str
        Columns checked.
    findings : tuple of Finding
        Every category found in every column (allowed ones included, flagged).
    restricted_zip3 : tuple of str
        The restricted 3-digit ZIP prefixes used.
    reference_year : int
        Year against which years of birth are checked for ages over 89.
    """

    n_records: int
    variables: tuple[str, ...]
    findings: tuple[Finding, ...]
    restricted_zip3: tuple[str, ...] = field(repr=False)
    reference_year: int

    @property
    def found(self) -> tuple[str, ...]:
        """Codes of the categories found (excluding findings Safe Harbor already allows), A to R."""
        codes = {f.code for f in self.findings if not f.allowed}
        return tuple(c.code for c in CATEGORIES if c.code in codes)

    @property
    def expert_determination(self) -> str:
        return EXPERT_DETERMINATION

    def columns_of(self, code: str) -> tuple[str, ...]:
        """Columns in which category `code` was found (allowed ones included)."""
        return tuple(dict.fromkeys(f.column for f in self.findings if f.code == code))

    def of_column(self, column: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.column == column)

    def to_frame(self) -> pd.DataFrame:
        """One row per category: ``number``, ``code``, ``category``, ``found``, ``columns``,
        ``allowed_columns`` (found, but already within Safe Harbor's exception), ``action``."""
        rows = []
        for c in CATEGORIES:
            fs = [f for f in self.findings if f.code == c.code]
            bad = list(dict.fromkeys(f.column for f in fs if not f.allowed))
            ok = [col for col in dict.fromkeys(f.column for f in fs if f.allowed) if col not in bad]
            rows.append([c.number, c.code, c.title, bool(bad), bad, ok, c.action])
        return pd.DataFrame(rows, columns=["number", "code", "category", "found", "columns", "allowed_columns",
                                           "action"])

    def findings_frame(self) -> pd.DataFrame:
        return pd.DataFrame([[f.column, f.code, CATEGORY[f.code].title, f.evidence, f.detail, f.share, f.records,
                              f.allowed] for f in self.findings],
                            columns=["column", "code", "category", "evidence", "detail", "share", "records",
                                     "allowed"])

    def summary(self) -> pd.DataFrame:
        """The checklist's outcome as rows of (statistic, value, description)."""
        found = {c: list(dict.fromkeys(f.column for f in self.findings if f.code == c and not f.allowed))
                 for c in self.found}
        return summary_frame([
            ("n_records", self.n_records, "records"),
            ("n_categories_found", len(self.found), "Safe Harbor identifier categories found"),
            ("found", found, "the columns found per category"),
            ("safe_harbor_met", None if not self.found else False,
             "False when a category was found; None: none found, which is not a finding that it is met"),
            ("expert_determination", EXPERT_DETERMINATION, "the other way to de-identify under HIPAA"),
        ])


def safe_harbor(data: pd.DataFrame, variables: Sequence[str] | None = None, *,
                restricted_zip3: Sequence[str] = RESTRICTED_ZIP3, reference_year: int | None = None,
                value_share: float = VALUE_SHARE, sample: int = SAMPLE_VALUES) -> SafeHarborChecklist:
    """Look for the 18 Safe Harbor identifier categories in each column.

    Parameters
    ----------
    data : pandas.DataFrame
        Read codes as text (``sdc.io.read_data(path, text_columns=True)``) so that ZIP codes
        keep their leading zeros; a numeric ZIP column is zero-padded to 5 digits.
    variables : sequence of str, optional
        Columns to check (default: all).
    restricted_zip3 : sequence of str
        Three-digit ZIP prefixes of areas with 20,000 or fewer people (default: HHS's list,
        2000 Census).
    reference_year : int, optional
        The year against which years of birth are checked for ages over 89 (default: this year).
    value_share : float, default 0.8
        Share of sampled distinct values that must match a value pattern.
    sample : int, default 5000
        Distinct values sampled per column (the first ones in file order).

    Returns
    -------
    SafeHarborChecklist

    Notes
    -----
    Detection is best effort: a category not found may still be present (free text, unusual
    names or formats), and "found" is a prompt to look, not a legal finding. ``summary()``
    says ``safe_harbor_met: None`` when nothing was found: only a review can say it is met.

    Examples
    --------
    >>> df = pd.DataFrame({"email": ["a@b.org", "c@d.com"], "zip": ["03601", "10001"]})
    >>> safe_harbor(df).found
    ('B', 'F')
    """
    data = check_frame(data)
    cols = list(data.columns) if variables is None else list(check_columns(data, variables, role="variables"))
    restricted = _check_zip3(restricted_zip3)
    year = _dt.date.today().year if reference_year is None else check_int(reference_year, "reference_year",
                                                                           min_value=1, max_value=9999)
    value_share = check_fraction(value_share, "value_share", closed="right")
    sample = check_int(sample, "sample", min_value=1)
    facts = [column_facts(data[c]) for c in cols]
    return safe_harbor_from_facts(facts, len(data), restricted_zip3=restricted, reference_year=year,
                                  value_share=value_share, sample=sample)


def _check_zip3(prefixes: object) -> tuple[str, ...]:
    if isinstance(prefixes, str) or not isinstance(prefixes, Sequence):
        raise TypeError(f"`restricted_zip3` must be a sequence of 3-digit strings; got {prefixes!r}.")
    out = []
    for p in prefixes:
        if not isinstance(p, str) or not re.fullmatch(r"\d{3}", p):
            raise ValueError(f"`restricted_zip3` must hold 3-digit strings such as '036'; got {p!r}.")
        out.append(p)
    return tuple(out)


def safe_harbor_from_facts(facts: Sequence[ColumnFacts], n_records: int, *, restricted_zip3: tuple[str, ...],
                           reference_year: int, value_share: float, sample: int) -> SafeHarborChecklist:
    """The checklist from precomputed column facts (options already validated)."""
    findings: list[Finding] = []
    for f in facts:
        findings.extend(_check_column(f, restricted_zip3, reference_year, value_share, sample))
    return SafeHarborChecklist(n_records=int(n_records), variables=tuple(f.name for f in facts),
                               findings=tuple(findings), restricted_zip3=restricted_zip3,
                               reference_year=int(reference_year))


# ---------------------------------------------------------------------------------------------

def _check_column(f: ColumnFacts, restricted: tuple[str, ...], year: int, value_share: float,
                  sample: int) -> list[Finding]:
    if f.n_present == 0:
        return []  # an empty column holds no identifier (it is dropped as missing anyway)
    name = normalise_name(f.name)
    col = f.name
    by_code: dict[str, dict[str, Any]] = {}

    def note(code: str, evidence: str, what: str, share: float | None = None) -> None:
        d = by_code.setdefault(code, {"evidence": set(), "what": [], "share": None})
        d["evidence"].add(evidence)
        if what not in d["what"]:
            d["what"].append(what)
        if share is not None:
            d["share"] = share if d["share"] is None else max(d["share"], share)

    few_values = f.n_distinct <= 2 < f.n_present  # a flag, not an identifying number
    for rule in NAME_RULES:
        if rule.pattern.search(name) and not (rule.veto is not None and rule.veto.search(name)):
            if rule.number and few_values:
                continue
            note(rule.code, "name", rule.what)
    if "E" in by_code:
        by_code.pop("D", None)  # a fax column looks like a telephone column: Safe Harbor lists fax apart

    if f.kind == "date":
        note("C", "values", "values are dates (a date type)", 1.0)
    free = is_free_text(f)
    texts = f.text.iloc[:sample] if f.kind == "text" and not free else None
    if texts is not None and len(texts):
        texts = texts[texts.str.len() > 0]
    if texts is not None and len(texts):
        for code, what, test in VALUE_RULES:
            if code == "D" and "E" in by_code:
                code = "E"
            share = float(test(texts).mean())
            if share >= value_share:
                note(code, "values", f"values look like {what}", share)
                if code in ("F", "N", "O", "G", "M", "J", "D", "E"):
                    break  # a specific format found: the looser ones after it would only repeat it
        if set(by_code) <= {"A"} and f.n_distinct >= 3 and f.n_distinct >= 0.5 * f.n_present:
            share = float(full_match(PERSON, 0)(texts).mean())
            if share >= value_share:
                note("A", "values", "values look like personal names (capitalised words, mostly distinct)", share)
    if not by_code and not free:  # a neutral name: what the values hold
        for code, what, share in neutral_findings(f, value_share):
            note(code, "values", what, share)

    out: list[Finding] = []
    for code, d in by_code.items():
        ev = " and ".join(e for e in ("name", "values") if e in d["evidence"])
        detail = "; ".join(d["what"]) if ev == "values" else (
            "the name suggests " + d["what"][0] + ("; " + "; ".join(d["what"][1:]) if len(d["what"]) > 1 else ""))
        if d["share"] is not None and "values" in ev:
            detail += f" ({100 * d['share']:.0f}% of sampled distinct values)"
        records, allowed = None, False
        if code == "B" and any("ZIP" in w for w in d["what"]):
            extra, records, allowed = _zip_rule(f, name, restricted)
            detail += "; " + extra
        elif code == "C":
            extra, records, allowed = _date_age_rule(f, name, d["what"], year)
            if extra:
                detail += "; " + extra
        out.append(Finding(column=col, code=code, evidence=ev, detail=detail, share=d["share"], records=records,
                           allowed=allowed))

    if free:
        out += [Finding(column=col, code=code, evidence="free text", detail=what, share=share, records=n)
                for code, what, share, n in text_findings(f)]
    elif not out:
        r = _unique_code(f, name)
        if r is not None:
            out.append(r)
    order = {c.code: c.number for c in CATEGORIES}
    return sorted(out, key=lambda x: order[x.code])


def _zip_rule(f: ColumnFacts, name: str, restricted: tuple[str, ...]) -> tuple[str, int | None, bool]:
    """Prefixes of ZIP codes: records in restricted 3-digit areas; 3-digit columns may pass."""
    if f.numbers is not None and f.kind == "integer":
        width = 3 if re.search(r"(?:^|_)zip3(?:_|$)", name) or (len(f.numbers) and np.nanmax(f.numbers) < 1000) else 5
        codes = pd.Series([str(int(x)).zfill(width) for x in f.numbers], dtype=object)
    else:
        codes = f.text
    digits = codes.str.extract(r"^(\d{3,5})(?:-\d{4})?$", expand=False)
    ok = digits.notna().to_numpy()
    if not ok.any():
        return ("the values are not US ZIP codes, so the 3-digit rule does not apply: remove the column or "
                "generalise it to areas of more than 20,000 people"), None, False
    three = bool((digits[ok].str.len() == 3).all())
    prefix = digits.str[:3]
    hit = prefix.isin(restricted).to_numpy() & ok
    n_hit = int(f.counts[hit].sum())
    found = sorted(set(prefix[hit]))
    restricted_txt = (f"{n_hit:,} record(s) in 3-digit areas of 20,000 or fewer people ({', '.join(found)}): "
                      "Safe Harbor requires 000 there" if n_hit else "no record in a restricted 3-digit area")
    if three:
        return "3-digit ZIP codes, which Safe Harbor allows outside the restricted areas; " + restricted_txt, \
            n_hit, n_hit == 0
    return "Safe Harbor keeps at most the first 3 digits; " + restricted_txt, n_hit, False


def _date_age_rule(f: ColumnFacts, name: str, what: list[str], year: int) -> tuple[str, int | None, bool]:
    """Ages over 89 (unless already one category) and dates: only a year may stay."""
    if "an age" in what and not any("date" in w for w in what):
        ages = _leading_numbers(f)
        if ages is None:
            return "", None, False
        unit, factor = age_unit(name)
        if factor != 1.0:  # months, weeks or days: completed years
            ages = np.where(ages >= 0, np.floor(ages / factor), ages)
        over = ages > 89
        n_over = int(f.counts[over].sum())
        in_unit = "" if factor == 1.0 else f" (ages in {unit}, read as completed years)"
        if not n_over:
            return "no age over 89" + in_unit, 0, True
        if np.array_equal(np.unique(ages[over]), [90.0]):
            return (f"{n_over:,} record(s) over 89, all with the value 90 (read as the one category '90 or older', "
                    "which Safe Harbor allows)"), n_over, True
        return (f"{n_over:,} record(s) aged over 89{in_unit}: aggregate them into one '90 or older' category",
                n_over, False)
    years = _years_only(f)
    if years is None:
        return "", None, False
    birth = re.search(r"(?:^|_)(?:yob|birth|birthyear|born|dob)", name) is not None
    if birth:
        old = (year - years) > 89
        n_old = int(f.counts[old].sum())
        if n_old and len(np.unique(years[old])) == 1:  # pooled: one year stands for '90 or older'
            return (f"years only; the {n_old:,} record(s) born more than 89 years before {year} all hold one "
                    "year (one '90 or older' category, as a top code), which Safe Harbor allows"), n_old, True
        if n_old:
            return (f"years only, but {n_old:,} record(s) born more than 89 years before {year}: "
                    "aggregate them into one '90 or older' category"), n_old, False
    return "years only, which Safe Harbor allows", 0, True


def _leading_numbers(f: ColumnFacts) -> np.ndarray | None:
    if f.numbers is not None:
        return f.numbers
    if f.kind != "text" or not len(f.text):
        return None
    lead = pd.to_numeric(f.text.str.extract(r"^\s*(\d{1,3})", expand=False), errors="coerce")
    x = lead.to_numpy(dtype="float64", na_value=np.nan)
    return None if np.isnan(x).all() else np.nan_to_num(x, nan=-1.0)


def _years_only(f: ColumnFacts) -> np.ndarray | None:
    """The values as years when every value is a plain year (1000-2999), else None."""
    if f.numbers is not None:
        x = f.numbers
    elif f.kind == "text" and len(f.text) and bool(f.text.str.fullmatch(r"[12]\d{3}").all()):
        x = pd.to_numeric(f.text).to_numpy(dtype="float64")
    else:
        return None
    if not len(x) or not np.all((x >= 1000) & (x <= 2999) & (x == np.round(x))):
        return None
    return x


_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-./:#]{0,39}")


def _unique_code(f: ColumnFacts, name: str) -> Finding | None:
    """Category R from values: one text value per record, a running record number (1..n or
    0..n-1), or whole numbers or codes (letters and digits without spaces, with a digit)
    with a different value in nearly every record (at least RECORD_NUMBER_SHARE of at least
    RECORD_NUMBER_MIN_RECORDS records): a record number, whatever its order or range. Numbers
    with decimals (measurements such as a BMI) are never one."""
    if f.n_present < MIN_RECORDS_UNIQUE:
        return None
    share = f.n_distinct / f.n_present
    if f.n_distinct == f.n_present and f.kind == "text":
        return Finding(column=f.name, code="R", evidence="values",
                       detail="one text value per record (an identifying code or free text)")
    if f.n_distinct == f.n_present and f.kind == "integer" and f.numbers is not None:
        x = f.numbers
        if float(x.min()) in (0.0, 1.0) and float(x.max() - x.min()) == f.n_distinct - 1:
            return Finding(column=f.name, code="R", evidence="values",
                           detail="a running record number: whole numbers 0 or 1 to n, one per record")
    if f.n_present < RECORD_NUMBER_MIN_RECORDS or share < RECORD_NUMBER_SHARE:
        return None
    if f.kind == "integer":
        what = "whole numbers"
    elif f.kind == "text" and bool(f.text.str.fullmatch(_CODE).all()) and bool(f.text.str.contains(r"\d").all()):
        what = "codes"
    else:
        return None
    return Finding(column=f.name, code="R", evidence="values",
                   detail=f"{what} with a different value in {100 * share:.1f}% of records: a record number "
                          "(a patient, case or record number)", share=share)
