"""Spreadsheet safety: text that a spreadsheet would run as a formula is neutralised.

A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return can be taken as a
formula by Excel or LibreOffice ("CSV injection", OWASP). In every CSV and XLSX the report
writes, such a *text* cell gets a leading apostrophe, which spreadsheets show as text.
Numbers are left alone: ``-0.5`` stored as a number is a value, not a formula.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["DANGEROUS_PREFIXES", "neutralise", "safe_frame"]

DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> object:
    """`value` with an apostrophe in front when it is text starting with a dangerous character.

    >>> neutralise("=HYPERLINK(1)"), neutralise("-12 mg"), neutralise(-12), neutralise("ok")
    ("'=HYPERLINK(1)", "'-12 mg", -12, 'ok')
    """
    if isinstance(value, str) and value.startswith(DANGEROUS_PREFIXES):
        return "'" + value
    return value


def _any_dangerous(values: object) -> bool:
    """Whether a text value starts with a dangerous character: the first characters of all
    values at once (pandas' string methods), not a Python loop over the values."""
    try:
        first = pd.Series(np.asarray(values, dtype=object)).str[:1]  # NaN for values that are not text
    except AttributeError:  # no text at all (truth values and missing ones, say): nothing to neutralise
        return False
    return bool(first.isin(DANGEROUS_PREFIXES).any())


def safe_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of `df` with every text cell and column name neutralised (numbers untouched)."""
    out = df.copy(deep=False)  # changed columns are replaced, never written into: the data is not copied
    for col in out.columns:
        s = out[col]
        if s.dtype == object or isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(s.dtype):
            # Neutralise the distinct values, not every cell: hashing is fast, Python per cell is not.
            codes, uniques = pd.factorize(s, use_na_sentinel=True)
            if _any_dangerous(uniques):
                fixed = np.array([neutralise(u) for u in uniques], dtype=object)
                values = fixed[np.maximum(codes, 0)]
                values[codes < 0] = s.to_numpy(dtype=object)[codes < 0]  # missing stays as it was
                out[col] = pd.Series(values, index=s.index, name=s.name)
    out.columns = [neutralise(str(c)) for c in out.columns]
    return out
