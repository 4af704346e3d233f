"""What every identification check needs to know about one column, computed once.

Each column is factorised once (through :func:`sdc.core.keys.factorize_column`, the one place
that hashes values); the distinct values, their counts and a typed view of them are kept, so
that the profile, the g-distinct rates and the Safe Harbor checks work on the distinct values
(at most n of them, usually far fewer) rather than on every record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc.core.keys import factorize_column, first_occurrence

__all__ = ["ColumnFacts", "column_facts", "normalise_name", "KINDS"]

#: Kinds of column: whole numbers, other numbers, true/false, dates (datetime dtype) and text
#: (anything else, including digit strings with leading zeros such as ZIP codes).
KINDS = ("integer", "number", "boolean", "date", "text")

_LEADING_ZERO = re.compile(r"^[+-]?0\d")


@dataclass(frozen=True, slots=True, kw_only=True)
class ColumnFacts:
    """One column's distinct values and counts.

    ``values`` holds the distinct non-missing values in order of first appearance, ``counts``
    how many records hold each, ``text`` the same values as stripped strings and ``numbers``
    their numeric reading (NaN where a value is not a number; None when the column is not
    numeric-like).
    """

    name: object
    n_records: int
    n_missing: int
    counts: np.ndarray = field(repr=False)
    values: pd.Series = field(repr=False)
    text: pd.Series = field(repr=False)
    numbers: np.ndarray | None = field(repr=False)
    kind: str
    leading_zeros: bool

    @property
    def n_distinct(self) -> int:
        return int(self.counts.shape[0])

    @property
    def n_present(self) -> int:
        return self.n_records - self.n_missing

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for t in normalise_name(self.name).split("_") if t)


def normalise_name(name: object) -> str:
    """A column name as lower-case words joined by ``_``: ``PatientID`` -> ``patient_id``,
    ``e-mail`` -> ``e_mail``, ``IPAddress`` -> ``ip_address``."""
    s = str(name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return re.sub(r"[^0-9a-zA-Z]+", "_", s).strip("_").lower()


def column_facts(s: pd.Series) -> ColumnFacts:
    """The distinct values of `s`, their counts and kind (see :class:`ColumnFacts`)."""
    codes, n_codes = factorize_column(s)
    codes = np.asarray(codes)
    present = codes >= 0
    pos = np.flatnonzero(present)
    sub = codes[present].astype(np.int64, copy=False)
    counts = np.bincount(sub, minlength=n_codes)
    first = first_occurrence(sub, n_codes)
    used = counts > 0  # categoricals may have unused categories
    order = np.argsort(first[used], kind="stable")
    counts = counts[used][order]
    positions = pos[first[used][order]] if len(pos) else np.zeros(0, dtype=np.int64)
    values = pd.Series(s.to_numpy(dtype=object)[positions], dtype=object)
    plain = not (pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype)
                 or pd.api.types.is_datetime64_any_dtype(s.dtype))
    text = values.map(str).str.strip() if plain and len(values) else None
    kind, numbers, leading = _kind(s, values, text)
    if kind == "date":
        text = pd.Series([v.isoformat() if hasattr(v, "isoformat") else str(v) for v in values], dtype=object)
    elif kind == "integer" and not plain:
        text = pd.Series([str(int(x)) for x in numbers], dtype=object)  # 12.0 -> "12"
    elif text is None:
        text = values.map(str).str.strip() if len(values) else pd.Series([], dtype=object)
    return ColumnFacts(name=s.name, n_records=int(len(s)), n_missing=int((~present).sum()), counts=counts,
                       values=values, text=text.reset_index(drop=True), numbers=numbers, kind=kind,
                       leading_zeros=leading)


def _kind(s: pd.Series, values: pd.Series, txt: pd.Series | None) -> tuple[str, np.ndarray | None, bool]:
    dt = s.dtype
    if pd.api.types.is_bool_dtype(dt):
        return "boolean", None, False
    if pd.api.types.is_datetime64_any_dtype(dt):
        return "date", None, False
    if txt is None:  # a numeric dtype
        x = pd.to_numeric(values, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)
        return _numeric_kind(x), x, False
    if not len(values):
        return "text", None, False
    if pd.api.types.infer_dtype(values, skipna=True) == "boolean":
        return "boolean", None, False
    # A quick look at the first values settles most text columns without parsing them all.
    if pd.to_numeric(txt.iloc[:256], errors="coerce").isna().any():
        return "text", None, False
    x = pd.to_numeric(txt, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)
    if np.isnan(x).any() or not np.isfinite(x).all():
        return "text", None, False
    if bool(txt.str.match(_LEADING_ZERO).any()):
        # Codes with leading zeros (ZIP codes, identifiers) stay text: they are labels, not amounts.
        return "text", None, True
    return _numeric_kind(x), x, False


def _numeric_kind(x: np.ndarray) -> str:
    ok = len(x) and bool(np.isfinite(x).all()) and bool(np.all(x == np.round(x)))
    return "integer" if ok else "number"
