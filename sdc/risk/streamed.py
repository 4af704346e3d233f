"""Re-identification risk of a file larger than memory: two chunked passes to the pattern table.

f_k and F_k are sums over the records of a key pattern, so a file can be read in chunks and
only its *distinct patterns* kept, with each pattern's record count, weight sum and first
record. Two passes over the key columns (:class:`sdc.io.ColumnFile`, the file checked once):

1. the values each key takes (its smallest and largest whole number, or its distinct
   values), so that every chunk codes a value the same way;
2. each chunk's keys coded and packed into one integer per record, counted per pattern
   (:func:`sdc.core.stream.PatternCounter`), the chunks' counts added.

The pattern table then goes through the in-memory code (:func:`sdc.core.frequencies.table_frequencies`,
which applies sdcMicro's wildcard rule per pattern; :func:`~sdc.risk.individual.risk_from_frequencies`;
:func:`~sdc.risk.kanonymity.profile_from_frequencies`), so the figures are those of reading
the whole file. Memory holds the key columns of one chunk and the distinct patterns; the
per-record values (risk, f_k of each record) are not kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_fraction, check_int, check_number, check_option
from sdc.core.frequencies import table_frequencies
from sdc.core.frequencies import MISSING_RULES, warn_if_degenerate
from sdc.core.stream import KeyDomain, PatternCounter
from sdc.io import CHUNK_ROWS, ColumnFile, MixedPieces, is_code
from sdc.risk.individual import RISK_METHODS, IndividualRiskResult, risk_from_frequencies
from sdc.risk.kanonymity import KAnonymityResult, profile_from_frequencies

__all__ = ["risk_from_file", "NoRecords"]

#: Records parsed at a time (at most `chunk_rows`).
READ_ROWS = 1 << 19


class NoRecords:
    """Stands for the per-record values a chunked read does not keep: the number of records,
    and a clear error if a per-record Series is asked for."""

    __slots__ = ("n_records",)

    def __init__(self, n_records: int):
        self.n_records = n_records

    def series(self, name: str) -> pd.Series:
        raise ValueError(f"per-record values ({name!r}) are not kept when the file is read in chunks; "
                         "read it whole (without chunks) to get them.")


def risk_from_file(path: str | Path, keys: Sequence[str], *, weights: str | None = None, k: int = 3, top: int = 10,
                   method: str = "approx", missing: str = "wildcard", alpha: float = 1.0,
                   max_global_risk: float = 0.01, chunk_rows: int = CHUNK_ROWS, sep: str | None = None,
                   text_columns: Any = None, na_values: Any = None) -> tuple[KAnonymityResult, IndividualRiskResult]:
    """The k-anonymity profile and the individual/global risk of a delimited text file, read
    in chunks of at most `chunk_rows` records (parsed :data:`READ_ROWS` at a time; see the
    module notes).

    The arguments are those of :func:`sdc.k_anonymity` and :func:`sdc.individual_risk`; the
    results are theirs, without per-record Series (``risk``, ``sample_frequency``, ...).
    """
    keys = tuple(keys)
    if not keys:
        raise ValueError("`keys` must name at least one column.")
    k = check_int(k, "k", min_value=1)
    top = check_int(top, "top", min_value=0)
    method = check_option(method, "method", RISK_METHODS)
    missing = check_option(missing, "missing", MISSING_RULES)
    alpha = check_fraction(alpha, "alpha")
    g = check_number(max_global_risk, "max_global_risk", low=0, high=1, low_open=True, high_open=True)
    chunk_rows = check_int(chunk_rows, "chunk_rows", min_value=1)
    cols = list(dict.fromkeys([*keys, *([weights] if weights else [])]))
    opts = dict(sep=sep, text_columns=text_columns, na_values=na_values)

    source = ColumnFile(path, cols, **opts)  # the file's structure is checked once, for every pass
    # Pieces of at most READ_ROWS records parse faster (and the memory is reused); a file
    # whose low-memory pieces pandas types differently is read again whole-chunk.
    rows = min(chunk_rows, READ_ROWS)
    try:
        table = _pattern_table(source, keys, weights, rows, pieces=True)
    except MixedPieces:
        table = _pattern_table(source, keys, weights, rows, pieces=False)
    if len(table) == 0:
        raise ValueError(f"data file '{path}' has no records.")
    n = int(table["_n"].sum())

    enc, pf = table_frequencies(table, keys, missing=missing, alpha=alpha)
    warn_if_degenerate(pf, stacklevel=3)
    prof = profile_from_frequencies(table[list(keys)], enc, pf, k=k, weights=weights, missing=missing, alpha=alpha,
                                    method=method, top=top)
    prof = _replace(prof, _records=NoRecords(n))
    risk = risk_from_frequencies(pf, index=table.index, keys=keys, weights=weights, method=method, missing=missing,
                                 alpha=alpha, max_global_risk=g, stacklevel=3)
    risk = _replace(risk, global_risk=risk.expected_reidentifications / n, _records=NoRecords(n))
    return prof, risk


def _pattern_table(source: ColumnFile, keys: tuple[str, ...], weights: str | None, chunk_rows: int, *,
                   pieces: bool) -> pd.DataFrame:
    """The passes over the file (see the module notes): its distinct key patterns."""
    # Codes such as 0123 are text when every value of the column is digits (read_data's rule).
    codes = _code_columns(source, [c for c in source.code_candidates if c in keys], chunk_rows, pieces)
    # Pass 1: the values of each key.
    domains = {c: KeyDomain(c) for c in keys}
    for chunk in source.chunks(chunk_rows=chunk_rows, dtypes={c: str for c in codes}, pieces=pieces):
        for c in keys:
            domains[c].update(chunk[c])
    for d in domains.values():
        d.check()
    dtypes = {c: str for c, d in domains.items() if d.as_text or c in codes}
    wide = [c for c in keys if domains[c].needs_values]
    if wide:  # text somewhere, or numbers without small offsets: their distinct values
        for c in wide:
            domains[c].uniques = []
        for chunk in source.chunks(wide, chunk_rows=chunk_rows, dtypes={c: dtypes[c] for c in wide if c in dtypes},
                                   pieces=pieces):
            for c in wide:
                domains[c].collect(chunk[c])
    for d in domains.values():
        d.finish()

    # Pass 2: code, pack and count the patterns, chunk by chunk.
    counter = PatternCounter([domains[c] for c in keys], weighted=weights is not None)
    for chunk in source.chunks(chunk_rows=chunk_rows, dtypes=dtypes, pieces=pieces):
        counter.add(chunk, keys, weights)
    return counter.table()


def _code_columns(source: ColumnFile, candidates: list[str], chunk_rows: int, pieces: bool) -> set[str]:
    """The candidates (columns with a value such as 0123) whose every value is digits: text."""
    codes = set(candidates)
    if codes:
        for chunk in source.chunks(sorted(codes), chunk_rows=chunk_rows, dtypes={c: str for c in codes},
                                   pieces=pieces):
            codes -= {c for c in codes if not is_code(chunk[c].dropna()).all()}
            if not codes:
                break
    return codes


def _replace(res: Any, **changes: Any) -> Any:
    import dataclasses

    return dataclasses.replace(res, **changes)
