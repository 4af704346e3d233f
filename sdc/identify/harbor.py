"""The Safe Harbor preset: the 18 rules of 45 CFR 164.514(b)(2) applied to the columns the
checklist finds (:func:`sdc.identify.hipaa.safe_harbor`).

:func:`safe_harbor_release` reads the checklist of the data, then, column by column:

========================================  ===========================================================
found                                     done
========================================  ===========================================================
identifiers inside free text              :func:`sdc.redact` (typed placeholders)
A, D-R (names, numbers, codes, URLs, ...)  the column dropped (``identifiers="drop"``); an
                                          identifying code (R) may instead be replaced by a
                                          pseudonym of a random key, discarded
                                          (``identifiers="pseudonymise"``)
B: a ZIP code                             its first 3 digits (a number zero-padded to 5 digits
                                          first); ``000`` for the restricted prefixes present
B: street, city, county, coordinates      the column dropped
C: dates                                  the year (``global_recode(date="year")``); for a date
                                          of birth, the years more than 89 years before
                                          `reference_year` pooled into one
C: ages over 89                           pooled into 90 (in the column's unit: 1080 months)
C: years of birth over 89 years back      pooled into one year
========================================  ===========================================================

Findings Safe Harbor already allows (3-digit ZIP codes outside the restricted areas, ages with
none over 89, years only) are left as they are. The result's details hold what was done per
column and the checklist of the release (``checklist``): :func:`~sdc.identify.hipaa.safe_harbor`
accepts the release (a pooled birth year and an age top-coded at 90 are allowed). The checklist
is best effort, as Safe Harbor's "no actual knowledge" clause is the steward's: the preset
removes what the checklist finds, not what it cannot see.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Anything, Choice, Whole
from sdc.identify._facts import normalise_name
from sdc.identify.hipaa import CATEGORY, RESTRICTED_ZIP3, _check_zip3, safe_harbor
from sdc.identify.weights import age_unit
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._result import ProtectionResult, changed_cells
from sdc.protect.pseudonym import pseudonymise
from sdc.protect.recode import global_recode, top_bottom_code
from sdc.protect.redact import redact

__all__ = ["safe_harbor_release"]

_BIRTH = re.compile(r"(?:^|_)(?:yob|birth|birthyear|born|dob)")


def _numeric(s: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(s.dtype)) and not pd.api.types.is_bool_dtype(s.dtype)


def _zip3(s: pd.Series, restricted: tuple[str, ...]) -> tuple[pd.Series, str]:
    """First 3 digits; 000 for the restricted prefixes present."""
    if _numeric(s):
        x = s.to_numpy(dtype="float64", na_value=np.nan)
        txt = np.array([f"{int(v):05d}" if np.isfinite(v) else None for v in x], dtype=object)
        s = pd.Series(txt, index=s.index, name=s.name, dtype=object)
    present = sorted(set(s.dropna().astype(str).str.strip().str[:3]) & set(restricted))
    r = global_recode(pd.DataFrame({s.name: s}), [s.name], truncate=3,
                      mapping={p: "000" for p in present} or None)
    return r.data[s.name], (f"first 3 digits of the ZIP code; 000 for the restricted prefixes present "
                            f"({', '.join(present) or 'none'})")


def _pool_text(s: pd.Series, over: np.ndarray, value: str) -> pd.Series:
    levels = pd.Series(s.dropna().unique())
    keys = levels[over(levels)]
    if not len(keys):
        return s
    return global_recode(pd.DataFrame({s.name: s}), [s.name], mapping={k: value for k in keys}).data[s.name]


def _leading(levels: pd.Series) -> np.ndarray:
    return pd.to_numeric(levels.astype(str).str.extract(r"^\s*(\d+(?:\.\d+)?)", expand=False),
                         errors="coerce").to_numpy(dtype="float64", na_value=np.nan)


def _ages(s: pd.Series, name: str) -> tuple[pd.Series, str]:
    unit, factor = age_unit(name)
    top_value = math.ceil(90 * factor)
    if _numeric(s):
        out = top_bottom_code(pd.DataFrame({s.name: s}), [s.name], top=top_value - 1, top_value=top_value).data[s.name]
    else:
        out = _pool_text(s, lambda lv: np.floor(_leading(lv) / factor) > 89, str(top_value))
    return out, f"ages over 89 pooled into {top_value} ({unit})"


def _birth_years(s: pd.Series, year: int) -> tuple[pd.Series, str]:
    low = year - 89  # born before it: more than 89 years before the reference year
    if _numeric(s):
        out = top_bottom_code(pd.DataFrame({s.name: s}), [s.name], bottom=low, bottom_value=low - 1).data[s.name]
    else:
        out = _pool_text(s, lambda lv: _leading(lv) < low, str(low - 1))
    return out, f"years of birth before {low} pooled into {low - 1} (one '90 or older' category)"


def _dates(s: pd.Series, name: str, year: int) -> tuple[pd.Series, str]:
    out = global_recode(pd.DataFrame({s.name: s}), [s.name], date="year").data[s.name]
    if _BIRTH.search(name):
        out, how = _birth_years(out, year)
        return out, "the year only; " + how
    return out, "the year only"


def _action(findings: Sequence[Any]) -> str:
    """What a column's findings ask for: redact, drop, zip, dates, ages, years or keep."""
    bad = [f for f in findings if not f.allowed]
    if not bad:
        return "keep"
    if any(f.evidence == "free text" for f in bad):
        return "redact"
    codes = {f.code for f in bad}
    if codes - {"B", "C"}:
        return "identifier"
    if "B" in codes:
        return "zip" if any("ZIP" in f.detail for f in bad if f.code == "B") and codes == {"B"} else "drop"
    detail = " ".join(f.detail for f in bad)
    if "an age" in detail and "date" not in detail:
        return "ages"
    return "years" if "years only" in detail else "dates"


def _apply(out: pd.DataFrame, col: str, action: str, year: int, restricted: tuple[str, ...]) -> str:
    s, name = out[col], normalise_name(col)
    if action == "redact":
        out[col] = redact(out, [col]).data[col]
        return "free text redacted (typed placeholders)"
    if action == "zip":
        out[col], how = _zip3(s, restricted)
    elif action == "ages":
        out[col], how = _ages(s, name)
    elif action == "years":
        out[col], how = _birth_years(s, year)
    else:
        out[col], how = _dates(s, name, year)
    return how


@protection_method(
    "safe_harbor_release", sdcmicro=not_in_sdcmicro("sdcMicro has no HIPAA Safe Harbor preset"),
    summary="HIPAA Safe Harbor's 18 rules on the columns the checklist finds (dates to years, ages over 89 "
            "pooled, ZIP3 with 000, identifiers dropped, free text redacted)",
    changes_categories=True, repeatable=True, produces=lambda parameters: "unknown",
    dask=None, why="it reads the whole file to find the identifiers (the checklist)",
    example={"variables": ["subject_id", "age", "region"]},
    options={"identifiers": param(Choice(("drop", "pseudonymise")), "direct identifiers dropped, or identifying "
                                  "codes replaced by pseudonyms of a discarded random key"),
             "reference_year": param(Whole(1, 9999), "the year against which ages over 89 are read"),
             "restricted_zip3": param(Anything(), "the restricted 3-digit ZIP prefixes (default: HHS's 17)")})
def safe_harbor_release(data: pd.DataFrame, variables: Sequence[str] | str | None = None, *,
                        identifiers: str = "drop", reference_year: int | None = None,
                        restricted_zip3: Sequence[str] | None = None) -> ProtectionResult:
    """Apply HIPAA Safe Harbor to the columns the checklist finds (see the module docstring).

    Parameters
    ----------
    data : pandas.DataFrame
        Codes read as text keep their leading zeros (``sdc.io.read_data(path, text_columns=True)``;
        ``sdc protect --safe-harbor`` reads so).
    variables : list of str, optional
        Columns to examine (default: all).
    identifiers : {"drop", "pseudonymise"}
    reference_year : int, optional
        Default: this year.
    restricted_zip3 : list of str, optional
        Default: HHS's 17 prefixes (2000 Census).

    Returns
    -------
    ProtectionResult
        ``method="safe_harbor_release"``; ``details["actions"]``: column -> what was done;
        ``details["checklist"]``: the release's checklist (one row per category).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"email": ["a@b.org", "c@d.com"] * 10, "zip": ["03601", "10001"] * 10,
    ...                    "age": [95, 40] * 10})
    >>> r = sdc.safe_harbor_release(df)
    >>> list(r.data.columns), r.data["zip"].iloc[0], int(r.data["age"].max())
    (['zip', 'age'], '000', 90)
    """
    frame, cols = (check_variables(data, variables) if variables is not None else
                   check_variables(data, list(data.columns)))
    year = _dt.date.today().year if reference_year is None else int(reference_year)
    restricted = RESTRICTED_ZIP3 if restricted_zip3 is None else _check_zip3(restricted_zip3)
    before = safe_harbor(frame, list(cols), restricted_zip3=restricted, reference_year=year)
    out = output_frame(frame)
    actions: dict[str, str] = {}
    drop: list[str] = []
    codes: list[str] = []
    for col in cols:
        act = _action(before.of_column(col))
        if act == "keep":
            continue
        found = sorted({f.code for f in before.of_column(col) if not f.allowed})
        what = ", ".join(f"({c}) {CATEGORY[c].short}" for c in found)
        if act in ("identifier", "drop"):
            if act == "identifier" and identifiers == "pseudonymise" and found == ["R"]:
                codes.append(col)
                actions[col] = f"{what}: replaced by pseudonyms of a discarded random key"
            else:
                drop.append(col)
                actions[col] = f"{what}: dropped"
            continue
        actions[col] = f"{what}: " + _apply(out, col, act, year, restricted)
    if codes:
        out[codes] = pseudonymise(out, codes, random_key=True).data[codes]
    out = out.drop(columns=drop)
    kept = [c for c in cols if c not in drop]
    after = safe_harbor(out, kept, restricted_zip3=restricted, reference_year=year)
    changed = changed_cells(frame, out, [c for c in actions if c in out.columns]).to_dict()
    changed.update({c: int(frame[c].notna().sum()) for c in drop})
    params: dict[str, Any] = {"variables": list(cols), "identifiers": identifiers, "reference_year": year}
    if restricted_zip3 is not None:
        params["restricted_zip3"] = list(restricted)
    table = after.to_frame()[["number", "code", "category", "found", "columns"]]
    table["columns"] = table["columns"].map(", ".join)
    details = {"actions": actions, "dropped": drop, "found_before": list(before.found),
               "found_after": list(after.found), "checklist": table}
    return ProtectionResult(method="safe_harbor_release", data=out, variables=tuple(actions), parameters=params,
                            seed=None, changed=pd.Series(changed, dtype=np.int64, name="cells_changed"),
                            details=details)
