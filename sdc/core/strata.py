"""Sorted levels of one column and strata over several: the grouping the protection methods need.

Owned by the protection methods (``sdc/protect``), kept in core because only core
factorises or groups columns. Two primitives:

* :func:`sorted_levels` -- a column's distinct values in sdcMicro's factor order (a
  categorical keeps its categories; numbers sort numerically, strings as strings) and each
  record's level code (-1 for missing). PRAM's transition matrix and the recoding of rare
  categories are per level.
* :func:`strata_ids` -- one dense stratum id per record from one or more columns, missing
  being a value of its own (as sdcMicro's ``pram`` pastes the strata values, ``NA``
  included), strata numbered in the sorted order of their values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc.core._factorize import factorize
from sdc.core.keys import combine_codes, first_occurrence

__all__ = ["Levels", "sorted_levels", "distinct_values", "Strata", "strata_ids"]


@dataclass(frozen=True, slots=True)
class Levels:
    """A column's levels and each record's level code."""

    levels: tuple = field(repr=False)   # the distinct values (categories), in order
    codes: np.ndarray = field(repr=False)  # int64 per record, -1 for missing

    @property
    def n_levels(self) -> int:
        return len(self.levels)

    def counts(self) -> np.ndarray:
        """Records per level (missing values not counted)."""
        c = self.codes
        return np.bincount(c[c >= 0], minlength=self.n_levels)


def _sort_key(v: object) -> tuple:
    # Numbers before strings, each in their natural order: mixed object columns still sort.
    if isinstance(v, (bool, np.bool_)):
        return (0, float(v), "")
    if isinstance(v, (int, float, np.integer, np.floating)):
        return (0, float(v), "")
    return (1, 0.0, str(v))


def _factorize(s: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize`` (codes, uniques as a numpy array), exact for text with NUL
    characters (:func:`sdc.core._factorize.factorize`)."""
    codes, uniques = factorize(s.to_numpy(dtype=object) if s.dtype == object else s)
    return np.asarray(codes, dtype=np.int64), np.asarray(uniques, dtype=object) if not isinstance(
        uniques, np.ndarray) else uniques


def sorted_levels(s: pd.Series) -> Levels:
    """Levels of `s` in order and the per-record codes (see the module docstring)."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        return Levels(tuple(s.cat.categories), s.cat.codes.to_numpy().astype(np.int64))
    codes, uniques = _factorize(s)
    uniques = np.asarray(uniques, dtype=object) if not isinstance(uniques, np.ndarray) else uniques
    try:
        order = np.argsort(uniques, kind="stable") if uniques.dtype != object else None
    except TypeError:  # pragma: no cover - numpy refuses to order
        order = None
    if order is None:
        keys = [_sort_key(v) for v in uniques]
        order = np.array(sorted(range(len(uniques)), key=keys.__getitem__), dtype=np.int64)
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[order] = np.arange(len(uniques), dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    if not uniques.size:
        out = np.full(codes.size, -1, dtype=np.int64)
    elif codes.size and codes.min() >= 0:
        out = rank[codes]
    else:
        out = np.where(codes >= 0, rank[np.maximum(codes, 0)], -1)
    levels = tuple(v.item() if isinstance(v, np.generic) else v for v in uniques[order])
    return Levels(levels, out)


def distinct_values(s: pd.Series) -> Levels:
    """Like :func:`sorted_levels` without the sort: levels in order of first appearance (a
    categorical keeps its categories). For methods where order does not matter (hashing)."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        return Levels(tuple(s.cat.categories), s.cat.codes.to_numpy().astype(np.int64))
    codes, uniques = _factorize(s)
    return Levels(tuple(uniques.tolist()), codes)


@dataclass(frozen=True, slots=True)
class Strata:
    """Dense stratum ids (0 .. n_strata-1) and one readable label per stratum."""

    ids: np.ndarray = field(repr=False)
    labels: tuple[str, ...]

    @property
    def n_strata(self) -> int:
        return len(self.labels)


def strata_ids(data: pd.DataFrame, columns: tuple[str, ...] | list[str]) -> Strata:
    """Strata of `data` by `columns` (none: one stratum of every record).

    Labels join the values with ``_`` (missing written ``NA``), as sdcMicro's ``pram``
    names its strata.
    """
    n = len(data)
    if not columns:
        return Strata(np.zeros(n, dtype=np.int64), ("all",))
    lv = [sorted_levels(data[c]) for c in columns]
    # Shift so missing (-1) sorts first and packs as 0: ids follow the sorted value order.
    packed, size = combine_codes([x.codes for x in lv], [x.n_levels for x in lv], n)
    uniq, inverse = np.unique(packed, return_inverse=True)
    inverse = inverse.astype(np.int64).ravel()
    first = first_occurrence(inverse, len(uniq))
    labels = []
    for pos in first:
        parts = []
        for x in lv:
            c = x.codes[pos]
            parts.append("NA" if c < 0 else str(x.levels[c]))
        labels.append("_".join(parts))
    return Strata(inverse, tuple(labels))
