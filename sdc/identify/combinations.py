"""Which combinations of columns identify: ARX's distinction and separation of every
combination of the candidate quasi-identifiers (ARX's ``RiskModelAttributes``).

For a set A of columns, group the n records by their values on A (a missing value is a value
of its own, as ARX reads it); with classes E:

* **distinction** = |classes| / n: the share of records a combination tells apart as classes
  (1 when every record is unique on A);
* **separation** = 1 - sum_E |E| (|E| - 1) / (n (n - 1)): the share of the n (n - 1) / 2
  pairs of records that differ on at least one column of A.

Both are Motwani and Xu's (2007, "Efficient algorithms for masking and finding
quasi-identifiers", VLDB/SDM workshop) alpha-distinct and alpha-separation measures, as ARX
computes them (``QuasiIdentifierRisk``: 0 where undefined, n = 1). Both are exact here and
cost one grouping per combination (the columns are encoded once, :mod:`sdc.core.keys`); the
budget is the number of combinations, 2^m - 1 for m columns: `max_width` caps the combination
size and `max_combinations` the count, and the result says how many were left out. Rows are
ordered as ARX orders them: by width, then distinction, then separation, then the column
names as ARX writes them ("[a, b]", columns in data order).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_frame, check_int, check_keys
from sdc.core.keys import encode_keys

__all__ = ["CombinationResult", "quasi_identifier_risks", "MAX_COMBINATIONS"]

#: The most combinations examined unless told otherwise (2^16 - 1: every combination of 16 columns).
MAX_COMBINATIONS = 65_535


@dataclass(frozen=True)
class CombinationResult:
    """Distinction and separation of each combination examined (:func:`quasi_identifier_risks`)."""

    keys: tuple[str, ...]
    n_records: int
    table: pd.DataFrame = field(repr=False)
    max_width: int
    examined: int
    left_out: int

    def to_frame(self) -> pd.DataFrame:
        """One row per combination: columns (as "[a, b]"), width, classes, distinction, separation."""
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """Headline figures: the smallest combination that identifies every record, the
        combinations examined and left out."""
        full = self.table[self.table["distinction"] >= 1.0]
        first = full.iloc[0]["columns"] if len(full) else None
        return summary_frame([
            ("keys", list(self.keys), "the candidate quasi-identifiers"),
            ("records", self.n_records, "records of the data"),
            ("examined", self.examined, "combinations examined"),
            ("left_out", self.left_out, "combinations left out by max_width or max_combinations"),
            ("max_width", self.max_width, "the largest combination examined"),
            ("first_unique", first, "the first combination (ARX's order) on which every record is unique"),
        ])


def _combinations(n_keys: int, max_width: int, cap: int) -> list[tuple[int, ...]]:
    """The combinations of up to `max_width` of `n_keys` columns, smallest first, at most `cap`."""
    every = itertools.chain.from_iterable(itertools.combinations(range(n_keys), w) for w in range(1, max_width + 1))
    return list(itertools.islice(every, cap))


def quasi_identifier_risks(data: pd.DataFrame, keys: Sequence[str], *, max_width: int | None = None,
                           max_combinations: int = MAX_COMBINATIONS) -> CombinationResult:
    """ARX's distinction and separation of every combination of `keys` (module notes).

    Parameters
    ----------
    data : pandas.DataFrame
        The microdata (only read).
    keys : sequence of str
        The candidate quasi-identifiers; combinations keep their order in `data`.
    max_width : int, optional
        The largest combination examined (default: all of `keys`).
    max_combinations : int, default 65,535
        The most combinations examined, smallest first.

    Returns
    -------
    CombinationResult

    Notes
    -----
    distinction = classes / n; separation = 1 - sum |E| (|E| - 1) / (n (n - 1)) (Motwani and
    Xu 2007; ARX's ``RiskModelAttributes``).

    Examples
    --------
    ARX's ``TestRiskQuasiIdentifiers``: on five records, sex (Female x 3, Male x 2) has 2
    classes, distinction 2/5 = 0.4, and 10 - 3 - 1 = 6 of its 10 pairs separated, 0.6.

    >>> d = pd.DataFrame({"age": ["20", "30", "40", "20", "40"], "sex": ["F", "F", "F", "M", "M"]})
    >>> row = quasi_identifier_risks(d, ["age", "sex"]).to_frame().iloc[0]
    >>> row["columns"], float(row["distinction"]), float(row["separation"])
    ('[sex]', 0.4, 0.6)
    """
    check_frame(data)
    ks = check_keys(data, keys)
    ordered = tuple(c for c in data.columns if c in ks)  # ARX sorts a combination by column index
    width = len(ordered) if max_width is None else check_int(max_width, "max_width", min_value=1)
    width = min(width, len(ordered))
    cap = check_int(max_combinations, "max_combinations", min_value=1)
    enc = encode_keys(data, ordered)
    n = enc.n_records
    pairs = n * (n - 1)
    combos = _combinations(len(ordered), width, cap)
    left_out = 2 ** len(ordered) - 1 - len(combos)
    rows = []
    for combo in combos:
        counts = enc.subset(combo).pattern_counts()
        counts = counts[counts > 0]
        within = int((counts * (counts - 1)).sum())
        rows.append((f"[{', '.join(ordered[i] for i in combo)}]", len(combo), int(counts.size),
                     counts.size / n if n else 0.0, (pairs - within) / pairs if pairs else 0.0))
    table = pd.DataFrame(rows, columns=["columns", "width", "classes", "distinction", "separation"])
    table = table.sort_values(["width", "distinction", "separation", "columns"], kind="stable").reset_index(drop=True)
    return CombinationResult(keys=ordered, n_records=n, table=table, max_width=width, examined=len(combos),
                            left_out=int(left_out))
