"""Text dates read one way for a whole column.

pandas' element-wise parsing reads ``01/02/2020`` month first and ``13/01/2020`` day first in
the same column. Here a column is read in the one format of :data:`DATE_FORMATS` that reads all
its distinct values (ISO 8601 with times or time zones too); a column that two formats read to
different dates (``01/02/2020``: 1 February or 2 January), or that no format reads whole, is
refused in one line naming the column and the value.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from sdc._validation import plain

__all__ = ["DATE_FORMATS", "parse_text_dates"]

#: The date formats text dates are read in. A column is read in the one format that reads all its
#: values; none, or two giving different dates (01/02/2020: 1 February or 2 January), is refused.
DATE_FORMATS = ("%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y/%m/%d", "%Y%m%d",
                "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y", "%m-%d-%Y", "%d/%m/%y", "%m/%d/%y",
                "%d %b %Y", "%d %B %Y", "%b %d %Y", "%B %d %Y")


def _naive(parsed: pd.Series) -> pd.Series:
    """Dates without a time zone (wall time kept), whatever the parse returned."""
    if parsed.dtype == object:
        parsed = pd.to_datetime(parsed, errors="coerce", utc=True)
    if getattr(parsed.dt, "tz", None) is not None:
        parsed = parsed.dt.tz_localize(None)
    return parsed


def parse_text_dates(s: pd.Series, name: str) -> pd.Series:
    """Text dates read in one format for the whole column (:data:`DATE_FORMATS`); the distinct
    values are parsed, once per format."""
    text = s.astype("string").str.strip()
    present = text.notna() & (text != "")
    values = pd.Series(pd.unique(text[present]), dtype=object)
    readings: dict[str, pd.Series] = {}
    best, best_n = None, -1
    for fmt in DATE_FORMATS:
        parsed = _naive(pd.to_datetime(values, format=fmt, errors="coerce"))
        n_ok = int(parsed.notna().sum())
        if n_ok == len(values):
            if not any(parsed.equals(r) for r in readings.values()):
                readings[fmt] = parsed
        elif n_ok > best_n:
            best, best_n = fmt, n_ok
    if len(readings) > 1:
        (f1, r1), (f2, r2) = list(readings.items())[:2]
        i = int(np.argmax((r1 != r2).to_numpy()))
        raise ValueError(f"column {name!r} holds dates that read in two formats, {f1} and {f2} ({values.iloc[i]!r} "
                         f"is {r1.iloc[i].date().isoformat()} or {r2.iloc[i].date().isoformat()}): convert the column "
                         "to dates first (YYYY-MM-DD, or a datetime column), so that its reading is stated.")
    if not readings and bool(values.astype(str).str.match(r"\d{4}-\d{2}-\d{2}[T ]").all()):
        with warnings.catch_warnings():  # ISO 8601 with fractions or time zones: one reading only
            warnings.simplefilter("ignore")
            parsed = _naive(pd.to_datetime(values, errors="coerce", utc=True))
        if bool(parsed.notna().all()):
            readings["ISO 8601"] = parsed
    if not readings:
        if best is not None and best_n > 0:
            parsed = pd.to_datetime(values, format=best, errors="coerce")
            v = values[parsed.isna().to_numpy()].iloc[0]
            where = int(np.argmax((text == v).fillna(False).to_numpy()))
            raise ValueError(f"column {name!r} has the value {v!r} at index {plain(s.index[where])!r}, which is not a "
                             f"date in the format of the column's other dates ({best}); dates in mixed formats need "
                             "converting first (YYYY-MM-DD).")
        where = int(np.argmax(present.to_numpy()))
        raise ValueError(f"column {name!r} has the value {plain(s.iloc[where])!r} at index "
                         f"{plain(s.index[where])!r}, which is not a date.")
    parsed = next(iter(readings.values()))
    lookup = pd.Series(pd.DatetimeIndex(parsed), index=values.to_numpy())
    keys = text.where(present, None).to_numpy(dtype=object)
    return pd.Series(pd.DatetimeIndex(lookup.reindex(keys).to_numpy()), index=s.index, name=s.name)


