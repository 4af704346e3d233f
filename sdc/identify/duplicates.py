"""Repeated records and repeated ids, and what they do to the risk.

A file where one person appears several times (NHANES, as CRAN's package ships it, holds 6,779
ids in 10,000 rows) understates the risk: three copies of one person make a class of three that
passes k = 3, though it holds one person. :func:`duplicate_report` counts

- ``n_duplicate_records``: records identical to an earlier one in every column examined;
- for the id column (a column named like an identifier, Safe Harbor category R, or the one
  the user set as the id): the distinct ids and the records repeating an earlier id;

and the effect on the risk: the share of records unique on the suggested categorical keys
(missing a value of its own), in the file as it is and with one record per id (the first; or
per distinct record without an id). A large gap says: deduplicate before assessing
(``sdc identify DATA --dedupe DEDUPED.csv --out run.toml`` writes the file with one record per
id, or per distinct record, identifies that file and points the starter configuration at it;
:func:`deduplicate` in Python).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.patterns import code_matrix, pattern_table

__all__ = ["DuplicateReport", "duplicate_report", "deduplicate"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DuplicateReport:
    """Result of :func:`duplicate_report` (see the module docstring)."""

    n_records: int
    n_duplicate_records: int
    id_column: str | None
    n_ids: int | None
    n_repeated_ids: int
    keys: tuple[str, ...]
    unique_share: float | None
    unique_share_deduplicated: float | None
    n_records_deduplicated: int

    @property
    def found(self) -> bool:
        return bool(self.n_duplicate_records or self.n_repeated_ids)

    def text(self) -> str:
        """One sentence (empty when nothing repeats)."""
        if not self.found:
            return ""
        parts = []
        if self.n_repeated_ids and self.id_column is not None:
            parts.append(f"the id {self.id_column!r} repeats: {self.n_ids:,} ids in {self.n_records:,} records "
                         f"({self.n_repeated_ids:,} records repeat an earlier id)")
        if self.n_duplicate_records:
            parts.append(f"{self.n_duplicate_records:,} records are exact copies of an earlier one")
        out = "; ".join(parts)
        if self.unique_share is not None and self.unique_share_deduplicated is not None:
            out += (f". On the categorical keys ({', '.join(self.keys)}) {100 * self.unique_share:.1f}% of records "
                    f"are unique as the file is, {100 * self.unique_share_deduplicated:.1f}% with one record per "
                    f"{'id' if self.id_column and self.n_repeated_ids else 'distinct record'} "
                    f"({self.n_records_deduplicated:,} records): copies make classes look larger than the people "
                    "in them")
        return out + ". Deduplicate before assessing: sdc identify DATA --dedupe DEDUPED.csv --out run.toml."

    def summary(self) -> pd.DataFrame:
        return summary_frame([
            ("n_records", self.n_records, "records"),
            ("n_duplicate_records", self.n_duplicate_records, "records identical to an earlier one"),
            ("id_column", self.id_column, "the id column checked"),
            ("n_ids", self.n_ids, "distinct ids"),
            ("n_repeated_ids", self.n_repeated_ids, "records repeating an earlier id"),
            ("keys", list(self.keys), "the categorical keys of the unique shares"),
            ("unique_share", self.unique_share, "share of records unique on the keys, as the file is"),
            ("unique_share_deduplicated", self.unique_share_deduplicated,
             "share of records unique on the keys, one record per id (or per distinct record)"),
        ])


def _unique_share(data: pd.DataFrame, keys: tuple[str, ...]) -> float | None:
    if not keys or not len(data):
        return None
    codes, _ = code_matrix(data, keys)
    ids, _, counts = pattern_table(codes)
    return float(np.mean(counts[ids] == 1))


def _first_rows(data: pd.DataFrame, columns: Sequence[object]) -> np.ndarray:
    """Mask of the first record of each distinct combination of `columns`."""
    if not len(data):
        return np.zeros(0, dtype=bool)
    codes, _ = code_matrix(data, tuple(columns))
    ids, _, _ = pattern_table(codes)
    first = np.zeros(len(data), dtype=bool)
    seen = np.full(int(ids.max()) + 1, -1, dtype=np.int64)
    order = np.arange(len(ids))[::-1]
    seen[ids[order]] = order  # the last write per id is its first record
    first[seen[seen >= 0]] = True
    return first


def duplicate_report(data: pd.DataFrame, id_column: str | None, keys: Sequence[str]) -> DuplicateReport:
    """Repeated records and ids of `data` and the unique share on `keys` with and without them."""
    n = len(data)
    cols = list(data.columns)
    distinct = _first_rows(data, cols) if cols else np.ones(n, dtype=bool)
    n_dup = int(n - distinct.sum())
    n_ids, n_rep = None, 0
    keep = distinct
    if id_column is not None:
        present = data[id_column].notna().to_numpy()
        by_id = _first_rows(data, [id_column])
        n_ids = int((by_id & present).sum())
        n_rep = int(present.sum() - n_ids)
        if n_rep:
            keep = by_id | ~present
    keys = tuple(keys)
    before = _unique_share(data, keys)
    after = _unique_share(data.loc[keep], keys) if (n_dup or n_rep) else before
    return DuplicateReport(n_records=n, n_duplicate_records=n_dup, id_column=id_column, n_ids=n_ids,
                           n_repeated_ids=n_rep, keys=keys, unique_share=before, unique_share_deduplicated=after,
                           n_records_deduplicated=int(keep.sum()))


def deduplicate(data: pd.DataFrame, id_column: str | None = None) -> pd.DataFrame:
    """`data` with one record per id of `id_column` (the first; records without an id kept), or
    without `id_column` one record per distinct record (the first copy)."""
    if id_column is None:
        return data.loc[_first_rows(data, list(data.columns))] if data.shape[1] else data
    if id_column not in data.columns:
        raise ValueError(f"`id_column` {id_column!r} is not a column of the data.")
    keep = _first_rows(data, [id_column]) | data[id_column].isna().to_numpy()
    return data.loc[keep]
