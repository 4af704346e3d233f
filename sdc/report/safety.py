"""Spreadsheet safety: text that a spreadsheet would run as a formula is neutralised.

A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return can be taken as a
formula by Excel or LibreOffice ("CSV injection", OWASP). In every CSV the report writes,
such a *text* cell gets a leading apostrophe, which spreadsheets show as text (the XLSX files
use the cell's quote prefix instead: :mod:`sdc.report.xlsx`). Numbers are left alone: ``-0.5``
stored as a number is a value, not a formula. Control characters a terminal acts on (``cat
records.csv``: an escape sequence from the data would recolour or retitle it) are written as
escapes (``\x1b``), as in the text reports; tab, line feed and carriage return stay (CSV
quotes them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.report.formatting import CONTROL_BUT_CR, visible

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


def _cleaned(value: object) -> object:
    """`value` with control characters escaped, then neutralised (text only)."""
    return neutralise(visible(value, keep_cr=True)) if isinstance(value, str) else value


def _any_dangerous(values: object) -> bool:
    """Whether a text value starts with a dangerous character or holds a control character:
    all values at once (pandas' string methods), not a Python loop over the values."""
    try:
        text = pd.Series(np.asarray(values, dtype=object)).str  # NaN for values that are not text
        first = text[:1]
    except AttributeError:  # no text at all (truth values and missing ones, say): nothing to neutralise
        return False
    return bool(first.isin(DANGEROUS_PREFIXES).any() or text.contains(CONTROL_BUT_CR.pattern, regex=True).any())


def safe_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of `df` with every text cell and column name neutralised (numbers untouched)."""
    out = df.copy(deep=False)  # changed columns are replaced, never written into: the data is not copied
    for col in out.columns:
        s = out[col]
        if s.dtype == object or isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(s.dtype):
            # Neutralise the distinct values, not every cell: hashing is fast, Python per cell is not.
            codes, uniques = pd.factorize(s, use_na_sentinel=True)
            if _any_dangerous(uniques):
                fixed = np.array([_cleaned(u) for u in uniques], dtype=object)
                values = fixed[np.maximum(codes, 0)]
                values[codes < 0] = s.to_numpy(dtype=object)[codes < 0]  # missing stays as it was
                out[col] = pd.Series(values, index=s.index, name=s.name)
    out.columns = [_cleaned(str(c)) for c in out.columns]
    return out
