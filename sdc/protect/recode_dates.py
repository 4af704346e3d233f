"""Dates in :func:`sdc.global_recode`: ``date="year"`` (the year, a number), ``date="month"``
(``"YYYY-MM"`` text), ``age_at=reference`` (a date of birth as the age in completed years at
the reference date; a birthday on 29 February counts on 1 March in other years). Years and
ages may then be banded like any number (:mod:`sdc.protect.recode_numbers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import numpy as np
import pandas as pd

from sdc._dates import parse_text_dates
from sdc._validation import check_option, plain

__all__ = ["DateRecode", "date_recode"]


def _to_datetime(s: pd.Series) -> pd.Series:
    name = str(s.name)
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        out = s
    elif pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        raise TypeError(f"`date`/`age_at` need a date column; column {name!r} has dtype {s.dtype}.")
    else:
        out = parse_text_dates(s, name)  # one format per column (sdc._dates)
    if getattr(out.dt, "tz", None) is not None:
        out = out.dt.tz_localize(None)
    return out


def _reference_date(value: object) -> pd.Timestamp:
    if isinstance(value, (str, date, datetime, pd.Timestamp, np.datetime64)):
        try:
            ts = pd.Timestamp(value)
        except (ValueError, TypeError):
            ts = pd.NaT
        if ts is not pd.NaT and not pd.isna(ts):
            return ts.tz_localize(None) if ts.tzinfo is not None else ts
    raise ValueError(f"`age_at` must be a date such as '2024-01-01'; got {value!r}.")


def _ages(dt: pd.Series, ref: pd.Timestamp) -> np.ndarray:
    """Completed years at `ref` (a birthday on 29 February counts on 1 March in other years)."""
    y = dt.dt.year.to_numpy(dtype="float64", na_value=np.nan)
    md = (dt.dt.month * 100 + dt.dt.day).to_numpy(dtype="float64", na_value=np.nan)
    age = ref.year - y - ((ref.month * 100 + ref.day) < md)
    bad = age < 0
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"column {str(dt.name)!r} has a date of birth after `age_at` ({ref.date().isoformat()}) at index {plain(dt.index[i])!r}."
        )
    return age


@dataclass(frozen=True)
class DateRecode:
    """How the dates of a column become years, ages or months."""

    date: str | None
    ref: pd.Timestamp | None

    @property
    def label(self) -> str:
        return f"date={self.date}" if self.date is not None else f"age_at={self.ref.date().isoformat()}"

    def months(self, s: pd.Series) -> tuple[pd.Series, int]:
        """``date="month"``: the ``"YYYY-MM"`` text of each date, and the dates recoded."""
        dt = _to_datetime(s)
        out = pd.Series(dt.dt.strftime("%Y-%m").to_numpy(dtype=object), index=s.index, name=s.name)
        return out.where(dt.notna(), np.nan), int(dt.notna().sum())

    def numbers(self, s: pd.Series) -> tuple[np.ndarray, int]:
        """The years (``date="year"``) or ages (``age_at``) as float64, and the dates recoded."""
        dt = _to_datetime(s)
        x = dt.dt.year.to_numpy(dtype="float64", na_value=np.nan) if self.date == "year" else _ages(dt, self.ref)
        return x, int(dt.notna().sum())


def date_recode(date: object, age_at: object) -> DateRecode | None:
    """The checked date recoding of `date` and `age_at` (None with neither)."""
    if date is not None and age_at is not None:
        raise ValueError("`date` and `age_at` cannot be combined; give one.")
    if date is None and age_at is None:
        return None
    d = check_option(date, "date", ("year", "month")) if date is not None else None
    return DateRecode(d, _reference_date(age_at) if age_at is not None else None)
