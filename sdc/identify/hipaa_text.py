"""Safe Harbor identifiers found by their values where the column name says nothing: inside free
text, and in columns with neutral names (``field_3`` holding names or ZIP codes).

- **Free text**: a text column whose sampled values hold 4 words or more in the median (notes,
  comments). Every value is searched for the patterns of :mod:`sdc.protect.text_patterns`
  (the ones :func:`sdc.protect.redact.redact` replaces); a category is found when at least one
  record's text holds it, with the records counted. A free-text column is never taken for an
  identifying code because its values differ: what matters is what the text holds.
- **Names**: at least 80 % of the sampled values hold a word of the bundled name lists
  (:data:`~sdc.protect.text_patterns.FIRST_NAMES`, :data:`~sdc.protect.text_patterns.SURNAMES`)
  in one or two words.
- **ZIP codes**: every value is five digits, some with a leading zero (a code, not an amount:
  ``12345, 23456`` alone is a score), at least 3 values and fewer than 90 % of the records
  distinct, and fewer than half the values multiples of 100.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.identify._facts import ColumnFacts
from sdc.protect.text_patterns import TEXT_PATTERNS, name_words

__all__ = ["is_free_text", "text_findings", "neutral_findings", "FREE_TEXT_WORDS"]

#: A text column whose sampled values hold this many words in the median is free text.
FREE_TEXT_WORDS = 4
_SAMPLE = 5000


def is_free_text(f: ColumnFacts) -> bool:
    if f.kind != "text" or not len(f.text):
        return False
    words = f.text.iloc[:_SAMPLE].str.count(r"\S+")
    return float(np.median(words.to_numpy())) >= FREE_TEXT_WORDS


def text_findings(f: ColumnFacts) -> list[tuple[str, str, float, int]]:
    """(category, what was seen, share of records, records) per category found in the text."""
    out = []
    present = max(f.n_present, 1)
    for p in TEXT_PATTERNS:
        hit = f.text.str.contains(p.regex).to_numpy(dtype=bool, na_value=False)
        n = int(f.counts[hit].sum())
        if n:
            out.append((p.code, f"free text: {n:,} record(s) ({100 * n / present:.1f}%) hold {p.what} in the text; "
                                f"redact it (redact step: {p.placeholder})", n / present, n))
    return out


def _name_share(t: pd.Series) -> float:
    words = t.str.split(r"[\s,]+", n=2, regex=True)
    names = name_words()
    short = words.str.len().to_numpy() <= 2
    first = words.str[0].isin(names).to_numpy()
    second = words.str[1].isin(names).to_numpy(dtype=bool, na_value=False) if len(t) else np.zeros(0, bool)
    return float(np.mean(short & (first | second))) if len(t) else 0.0


def neutral_findings(f: ColumnFacts, value_share: float) -> list[tuple[str, str, float]]:
    """(category, what, share) found by the values of a column whose name said nothing."""
    out = []
    t = f.text.iloc[:_SAMPLE]
    if f.kind == "text" and len(t) >= 3:
        share = _name_share(t)
        if share >= value_share:
            out.append(("A", "values hold personal names (words of the bundled name lists)", share))
    zips = _five_digits(f)
    if zips is not None:
        out.append(("B", "values look like 5-digit ZIP codes", zips))
    return out


def _five_digits(f: ColumnFacts) -> float | None:
    if f.n_distinct < 3 or f.n_distinct >= 0.9 * f.n_present:
        return None
    if f.kind != "text" or not f.leading_zeros:
        return None
    ok = f.text.str.fullmatch(r"\d{5}").to_numpy(dtype=bool, na_value=False)
    x = pd.to_numeric(f.text.where(ok), errors="coerce").to_numpy(dtype="float64", na_value=np.nan)
    if not ok.all():
        return None
    round_share = float(np.mean(x[ok] % 100 == 0))
    return None if round_share >= 0.5 else 1.0
