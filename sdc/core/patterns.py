"""Distinct key patterns of a code matrix, ranks within patterns, positions per group.

Owned by local suppression and microaggregation (:mod:`sdc.protect.suppression`,
:mod:`sdc.protect.microaggregation`), kept in core because only core groups key columns.
The inputs are integer code matrices as :mod:`sdc.core.keys` makes them (one column per key,
-1 for a missing value, a missing value being a value of its own here), so nothing in this
module looks at the data's values:

* :func:`code_matrix` -- the keys of a frame as an ``(n, K)`` int32 code matrix;
* :func:`pattern_table` -- one id per record, the distinct rows and their counts;
* :func:`distinct_rows` -- the same for value arrays (numbers or codes), e.g. to compute a
  distance once per distinct candidate row (the attacks' nearest neighbours);
* :func:`rank_in_group` -- each record's position among the records of its group, in
  record order (0 for the first), e.g. to keep the first k records of every pattern;
* :func:`group_positions` -- the record positions of each group, in record order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.core.keys import combine_codes, encode_keys, first_occurrence

__all__ = ["code_matrix", "pattern_table", "distinct_rows", "rank_in_group", "group_positions"]


def code_matrix(data: pd.DataFrame, keys: tuple[str, ...]) -> tuple[np.ndarray, tuple[int, ...]]:
    """Codes of `keys` as an ``(n, K)`` C-ordered int32 matrix (-1 = missing) and each key's
    number of distinct values. `keys` must already be validated."""
    enc = encode_keys(data, keys)
    n = enc.n_records
    out = np.empty((n, len(keys)), dtype=np.int32)
    for j, c in enumerate(enc.codes):
        out[:, j] = c
    return out, tuple(int(c) for c in enc.cardinalities)


def pattern_table(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of an ``(n, K)`` code matrix.

    Returns ``(ids, rows, counts)``: a dense pattern id per record (0 .. U-1, numbered in the
    order of first occurrence), the ``(U, K)`` distinct rows, and the records per pattern.
    """
    ids, first, counts = _first_order_ids(codes)
    return ids, np.ascontiguousarray(codes[first]), counts


def _first_order_ids(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ids numbered by first occurrence, each id's first record, records per id) of the rows
    of an ``(n, K)`` code matrix."""
    n, K = codes.shape
    if n == 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    cards = [int(codes[:, j].max()) + 1 for j in range(K)]
    packed, size = combine_codes([codes[:, j] for j in range(K)], [max(c, 0) for c in cards], n)
    first = first_occurrence(packed, size)
    used = np.flatnonzero(first < n)
    # Dense ids in order of first occurrence.
    order = used[np.argsort(first[used], kind="stable")]
    remap = np.full(size, -1, dtype=np.int64)
    remap[order] = np.arange(order.size, dtype=np.int64)
    ids = remap[packed]
    counts = np.bincount(ids, minlength=order.size).astype(np.int64)
    return ids, first[order], counts


def distinct_rows(columns: list[np.ndarray], n: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of equal-length value arrays (numbers, NaN a value of its own; integer
    codes with -1 missing are used as they are); `n` records when there is no column (one row).

    Returns ``(ids, first, counts)``: a dense row id per record (numbered in the order of first
    occurrence), the position of each distinct row's first record, and the records per row.
    """
    if not columns:
        m = n or 0
        return np.zeros(m, dtype=np.int64), np.zeros(min(m, 1), dtype=np.int64), np.full(min(m, 1), m, dtype=np.int64)
    n = int(columns[0].shape[0])
    codes = np.empty((n, len(columns)), dtype=np.int64)
    for j, col in enumerate(columns):
        # Missing (NaN or -1) is one more value: code 0, the observed values 1.. (shifted so
        # that every code is >= 0). Integers in -1 .. n are codes already; other values (floats,
        # wider integers, which would make the packed space too large) are factorised.
        if np.issubdtype(col.dtype, np.integer) and (n == 0 or (int(col.min()) >= -1 and int(col.max()) <= n)):
            codes[:, j] = col.astype(np.int64) + 1
        else:
            c, _ = pd.factorize(col, use_na_sentinel=True)
            codes[:, j] = c + 1
    return _first_order_ids(codes)


def rank_in_group(ids: np.ndarray, n_ids: int) -> np.ndarray:
    """Position of every record among the records of its group, in record order (0-based)."""
    n = ids.shape[0]
    order = np.argsort(ids, kind="stable")
    counts = np.bincount(ids, minlength=n_ids)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64) - starts[ids[order]]
    return rank


def group_positions(ids: np.ndarray, n_ids: int) -> list[np.ndarray]:
    """Record positions of each group 0 .. n_ids-1, each in record order (empty groups too)."""
    order = np.argsort(ids, kind="stable")
    counts = np.bincount(ids, minlength=n_ids)
    return np.split(order, np.cumsum(counts)[:-1])
