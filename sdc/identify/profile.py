"""Column profile: one value per record, constant, near-constant and mostly-missing columns.

These are the first checks of an identification step (Khan et al. 2025, stage 1): a column
with a different value in every record is an identifier candidate; a constant column carries
no information; a near-constant one carries little, but its rare values can single records
out; a column missing in more than a threshold share of records (85 % in Khan et al.'s
pipeline) is dropped from the identification with a note.

Definitions (n records, missing counted as a value of its own where said):

- ``missing_share`` = missing records / n; ``dropped`` when ``missing_share > missing_threshold``
  (strictly above, as in the pipeline's ``> 85``).
- ``n_distinct``: distinct non-missing values.
- ``one_per_record``: at least two non-missing values and all of them distinct.
- ``constant``: one distinct value counting missing as a value (every record the same).
- ``top_share``: records holding the most frequent value (missing counted as a value) / n;
  ``near_constant`` when not constant and ``top_share >= near_constant``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame
from sdc.identify._facts import ColumnFacts, column_facts

__all__ = ["ProfileResult", "profile_columns", "MISSING_THRESHOLD", "NEAR_CONSTANT"]

#: Khan et al.'s pipeline drops a column missing in more than 85 % of records.
MISSING_THRESHOLD = 0.85
#: A column whose most frequent value covers at least this share of records is near-constant.
NEAR_CONSTANT = 0.95
_EPS = 1e-12  # shares are ratios of counts: compare bounds with this slack

_COLUMNS = ["column", "kind", "n_missing", "missing_share", "n_distinct", "top_share", "one_per_record",
            "constant", "near_constant", "dropped"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileResult:
    """Result of :func:`profile_columns`.

    Attributes
    ----------
    n_records : int
    missing_threshold, near_constant : float
        The thresholds used.
    table : pandas.DataFrame
        One row per column: ``column``, ``kind`` (integer, number, boolean, date, text),
        ``n_missing``, ``missing_share``, ``n_distinct``, ``top_share``, and the flags
        ``one_per_record``, ``constant``, ``near_constant``, ``dropped``.
    """

    n_records: int
    missing_threshold: float
    near_constant: float
    table: pd.DataFrame = field(repr=False)

    def _flagged(self, flag: str) -> tuple[str, ...]:
        return tuple(self.table.loc[self.table[flag].to_numpy(dtype=bool), "column"])

    @property
    def dropped(self) -> tuple[str, ...]:
        """Columns missing in more than ``missing_threshold`` of the records."""
        return self._flagged("dropped")

    @property
    def constant(self) -> tuple[str, ...]:
        return self._flagged("constant")

    @property
    def near_constant_columns(self) -> tuple[str, ...]:
        return self._flagged("near_constant")

    @property
    def one_per_record(self) -> tuple[str, ...]:
        return self._flagged("one_per_record")

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """The flagged columns as rows of (statistic, value, description)."""
        return summary_frame([
            ("n_records", self.n_records, "records"),
            ("n_columns", int(len(self.table)), "columns profiled"),
            ("one_per_record", list(self.one_per_record), "columns with a different value in every record"),
            ("constant", list(self.constant), "constant columns"),
            ("near_constant", list(self.near_constant_columns),
             "columns whose most frequent value covers at least the near-constant share"),
            ("dropped", list(self.dropped), "columns missing in more than the missing threshold"),
            ("missing_threshold", self.missing_threshold, "share of missing values above which a column is dropped"),
            ("near_constant_threshold", self.near_constant, "share of the most frequent value for near-constant"),
        ])


def profile_columns(data: pd.DataFrame, variables: Sequence[str] | None = None, *,
                    missing_threshold: float = MISSING_THRESHOLD,
                    near_constant: float = NEAR_CONSTANT) -> ProfileResult:
    """Profile each column: kind, missing share, distinct values and the flags above.

    Parameters
    ----------
    data : pandas.DataFrame
    variables : sequence of str, optional
        Columns to profile (default: all).
    missing_threshold : float, default 0.85
        A column is ``dropped`` when its missing share is strictly above this.
    near_constant : float, default 0.95
        A non-constant column is ``near_constant`` when its most frequent value (missing
        counted as a value) covers at least this share of records.

    Returns
    -------
    ProfileResult

    Examples
    --------
    >>> df = pd.DataFrame({"id": [1, 2, 3, 4], "c": ["x"] * 4, "m": [None, None, None, 1.0]})
    >>> profile_columns(df).table[["column", "one_per_record", "constant", "dropped"]].to_dict("list")
    {'column': ['id', 'c', 'm'], 'one_per_record': [True, False, False], 'constant': [False, True, False], \
'dropped': [False, False, False]}
    """
    data = check_frame(data)
    cols = list(data.columns) if variables is None else list(check_columns(data, variables, role="variables"))
    missing_threshold = check_fraction(missing_threshold, "missing_threshold")
    near_constant = check_fraction(near_constant, "near_constant", closed="right")
    facts = [column_facts(data[c]) for c in cols]
    return profile_from_facts(facts, len(data), missing_threshold=missing_threshold, near_constant=near_constant)


def profile_from_facts(facts: Sequence[ColumnFacts], n_records: int, *, missing_threshold: float,
                       near_constant: float) -> ProfileResult:
    """The profile from precomputed column facts (thresholds already validated)."""
    rows = [_row(f, missing_threshold, near_constant) for f in facts]
    table = pd.DataFrame(rows, columns=_COLUMNS)
    return ProfileResult(n_records=int(n_records), missing_threshold=float(missing_threshold),
                         near_constant=float(near_constant), table=table)


def _row(f: ColumnFacts, missing_threshold: float, near_constant: float) -> list[object]:
    n = f.n_records
    miss = f.n_missing / n
    top = max(int(f.counts.max()) if f.n_distinct else 0, f.n_missing) / n
    n_values = f.n_distinct + (1 if f.n_missing else 0)  # missing counted as a value
    constant = n_values <= 1
    return [f.name, f.kind, f.n_missing, float(miss), f.n_distinct, float(top),
            bool(f.n_present >= 2 and f.n_distinct == f.n_present), bool(constant),
            bool(not constant and top >= near_constant - _EPS), bool(miss > missing_threshold + _EPS)]
