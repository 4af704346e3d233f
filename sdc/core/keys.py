"""Encoding of key variables (quasi-identifiers) to integer codes.

Every measure starts here: each key column is factorised once to integer codes (missing
values get code -1), and the per-record codes are combined into one *pattern id* per
record. A pattern is a distinct combination of key values, with a missing value treated
as a value of its own at this stage; how missing values then *match* other values (as
sdcMicro's wildcard, or as their own category) is decided in :mod:`sdc.core.frequencies`.

Equality is exact equality of values: two doubles are the same category only when they
are equal, and strings are compared as strings (no coercion between ``1`` and ``"1"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc.core._factorize import factorize
from sdc.core.shared import memoized

__all__ = ["EncodedKeys", "encode_keys", "text_categorical", "factorize_column", "grouping_codes", "pack_codes", "first_occurrence", "column_levels", "dense_ids",
           "truncated_codes", "r_integer_codes", "sparse_counts", "levels_from_codes"]

# Mixed-radix products above this bound could overflow int64; we then re-factorise.
_MAX_RADIX = np.iinfo(np.int64).max // 4
#: From this many records, the measures' packed key patterns are hashed bucket by bucket
#: (:func:`factorize_in_buckets`) and their ids are no longer numbered by first appearance.
BUCKETS_FROM = 1 << 21


def _compact(codes: np.ndarray, n_values: int) -> np.ndarray:
    """Store codes (-1..n_values-1) in the smallest signed integer type that holds them."""
    for dt in (np.int8, np.int16, np.int32):
        if n_values < np.iinfo(dt).max:
            return codes.astype(dt, copy=False)
    return codes.astype(np.int64, copy=False)


def factorize_column(s: pd.Series) -> tuple[np.ndarray, int]:
    """Integer codes of one column (-1 for missing) and the number of distinct values.

    Categoricals use their existing codes (unused categories are harmless: counts only
    depend on which codes occur). Everything else goes through ``pandas.factorize``,
    which hashes values in one pass; ``NaN``, ``None``, ``pd.NA`` and ``NaT`` become -1.
    """
    if isinstance(s.dtype, pd.CategoricalDtype):
        return s.cat.codes.to_numpy(), len(s.cat.categories)
    codes, uniques = factorize(s)
    return _compact(codes, len(uniques)), len(uniques)


def _integer_span(lo: float, hi: float, n_records: int) -> int | None:
    """Number of slots ``hi - lo + 1`` when offset codes are worth it (no more slots than
    records, plus a little), else None."""
    span = int(hi) - int(lo) + 1
    return span if span <= n_records + 1024 else None


def grouping_codes(s: pd.Series) -> tuple[np.ndarray, int, bool]:
    """Codes of one key for grouping (equality only): ``(codes, n_slots, has_missing)``.

    Inside :func:`sdc.core.shared.shared_codes` a column's codes are computed once (the
    returned arrays are then shared: they are only read).

    Integer columns, and float columns whose values are all whole numbers, are coded by
    offset, ``value - min``, with no hashing: equal values get equal codes, distinct values
    distinct ones, and some of the ``max - min + 1`` slots may go unused (harmless for
    counting). This is used only when the span is no larger than the number of records.
    Everything else (text, categoricals, booleans, fractional or widely spread numbers)
    goes through :func:`factorize_column`. Missing values (NaN) get code -1.

    Unlike :func:`factorize_column`, codes are not numbered by first appearance; callers
    that show or order values must not rely on them.
    """
    return memoized("grouping", s, lambda: _grouping_codes(s))


def _grouping_codes(s: pd.Series) -> tuple[np.ndarray, int, bool]:
    n = len(s)
    dt = s.dtype
    if n and isinstance(dt, np.dtype) and dt.kind in "iu":
        v = s.to_numpy()
        lo, hi = v.min(), v.max()
        span = _integer_span(lo, hi, n)
        if span is not None:
            return _compact(v - lo, span), span, False
    elif n and isinstance(dt, np.dtype) and dt.kind == "f":
        v = s.to_numpy()
        with np.errstate(invalid="ignore"):
            lo, hi = np.fmin.reduce(v), np.fmax.reduce(v)  # NaN ignored; NaN only if all are
            if not np.isnan(lo) and abs(lo) < 2.0**52 and abs(hi) < 2.0**52:
                span = _integer_span(lo, hi, n)
                if span is not None:
                    shifted = v - lo
                    codes = _compact(shifted, span)  # NaN casts to an arbitrary integer, fixed below
                    miss = np.isnan(shifted)
                    # Whole numbers only: a fraction would be truncated onto another value's code.
                    if np.count_nonzero(codes != shifted) == np.count_nonzero(miss):
                        has_missing = bool(miss.any())
                        if has_missing:
                            codes[miss] = -1
                        return codes, span, has_missing
    codes, card = factorize_column(s)
    return codes, card, bool((codes < 0).any())


def column_levels(s: pd.Series | np.ndarray, *, sort: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a column (-1 = missing, int64) and its distinct values (sorted by default)."""
    codes, levels = factorize(s, sort=sort)
    return codes.astype(np.int64, copy=False), np.asarray(levels)


def levels_from_codes(s: pd.Series, codes: np.ndarray, *, as_text: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """:func:`column_levels` of `s` (``sort=True``), or of `s` as text (``as_text``: strings
    sorted as strings), from codes the column already has (any coding with one code per
    distinct value, -1 for missing): only the distinct values are sorted, no value is hashed
    again. Returns the sorted-level codes (int64, -1 = missing) and the sorted levels."""
    codes = np.asarray(codes)
    size = int(codes.max()) + 1 if codes.size else 0
    first = first_occurrence(np.where(codes < 0, size, codes), size + 1)[:size]
    used = np.flatnonzero(first < codes.shape[0])
    vals = s.iloc[first[used]]
    if as_text:
        vals = vals.astype(str)
    rank, levels = factorize(vals.to_numpy(dtype=object) if as_text else vals, sort=True)
    remap = np.full(size + 1, -1, dtype=np.int64)
    remap[used] = rank
    return remap[np.where(codes < 0, size, codes)], np.asarray(levels)


def dense_ids(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Ids 0..m-1 of an array's values, numbered by first appearance, and m."""
    ids, uniq = pd.factorize(values, sort=False)
    return ids.astype(np.int64, copy=False), len(uniq)


def sparse_counts(ids: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of non-negative `ids` (sorted) below `space`, with their counts:
    one ``bincount`` when the space is small, a sort otherwise."""
    if space <= 4 * ids.size + 1024:
        counts = np.bincount(ids, minlength=space)
        nz = np.flatnonzero(counts != 0)
        return nz, counts[nz]
    return np.unique(ids, return_counts=True)


def truncated_codes(s: pd.Series, *, missing_value: float | None = None, truncate: bool = False
                    ) -> tuple[np.ndarray, bool]:
    """Codes of a key (-1 = missing) with an extra missing code and optional truncation.

    Numbers equal to `missing_value` count as missing (sdcMicro's ``-999`` convention);
    with `truncate` numbers are cut to integers first, as sdcMicro's C code reads keys.
    Returns the codes and whether truncation merged distinct values.
    """
    if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        v = s.to_numpy(dtype="float64", na_value=np.nan)
        miss = np.isnan(v) | (v == missing_value if missing_value is not None else False)
        merged = False
        if truncate:
            t = np.trunc(np.where(miss, 0, v))
            merged = bool((t != np.where(miss, 0, v)).any())
            v = t
        codes, _ = pd.factorize(np.where(miss, np.nan, v), use_na_sentinel=True)
        return codes.astype(np.int64), merged
    codes, _ = factorize(s)
    return codes.astype(np.int64), False


def r_integer_codes(s: pd.Series, missing_code: int) -> np.ndarray:
    """A key's values as R's integer view of it: factor codes (1-based; strings as sorted
    factor levels), booleans 0/1, numbers truncated to integers; missing -> `missing_code`."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        v = s.cat.codes.to_numpy().astype(np.int64) + 1
        v[s.isna().to_numpy()] = missing_code
        return v
    if pd.api.types.is_bool_dtype(s.dtype):
        return np.where(s.isna(), missing_code, s.fillna(False).astype(int)).astype(np.int64)
    if pd.api.types.is_numeric_dtype(s.dtype):
        x = s.to_numpy(dtype="float64", na_value=np.nan)
        return np.where(np.isnan(x), missing_code, np.trunc(np.nan_to_num(x))).astype(np.int64)
    na = s.isna().to_numpy()
    sub, _ = factorize(pd.Series(s.to_numpy(dtype=object)[~na]).astype(str), sort=True)
    v = np.full(len(s), missing_code, dtype=np.int64)
    v[~na] = sub + 1
    return v


def combine_codes(columns: list[np.ndarray], cardinalities: list[int], n_records: int,
                  missing: Sequence[bool] | None = None) -> tuple[np.ndarray, int]:
    """Combine per-column codes (-1 = missing) into one id per record.

    Codes are shifted by one (missing -> 0) and packed in mixed radix; a column flagged as
    having no missing value in `missing` is packed unshifted (radix = its cardinality), which
    keeps the space small. When the packed space is no larger than the number of records
    (plus a little), the packed value itself is the id, which lets callers count with one
    ``bincount`` and no hashing. Otherwise the packed values are hashed once to dense ids
    0..P-1 (numbered by first appearance: callers such as strata number their groups in
    that order). If the radix product would overflow int64, the
    columns packed so far are re-factorised first, which bounds the radix by n.

    Returns the ids and the size of the id space (ids lie in ``0 .. size - 1``; with the
    packed shortcut some ids may be unused).
    """
    ids, size, _ = pack_codes(columns, cardinalities, n_records, missing)
    return ids, size


def pack_codes(columns: list[np.ndarray], cardinalities: list[int], n_records: int,
               missing: Sequence[bool] | None = None, *, any_order: bool = False) -> tuple[np.ndarray, int, bool]:
    """:func:`combine_codes`, and whether the ids are dense and numbered by the first appearance
    of each pattern in the records.

    With `any_order` (the measures' key patterns, :func:`encode_keys`, whose results do not
    depend on the numbering) and from :data:`BUCKETS_FROM` records, hashed ids are made bucket
    by bucket (:func:`factorize_in_buckets`), dense but in no particular order."""
    shift = [True] * len(columns) if missing is None else [bool(m) for m in missing]
    packed = columns[0].astype(np.int64)
    if shift[0]:
        packed += 1
    radix = cardinalities[0] + shift[0]
    for codes, card, sh in zip(columns[1:], cardinalities[1:], shift[1:]):
        base = card + sh
        if radix * base > _MAX_RADIX:
            packed, uniq = pd.factorize(packed, sort=False)
            radix = len(uniq)
        packed *= base
        packed += codes
        if sh:
            packed += 1
        radix *= base
    if radix <= n_records + 1024:
        return packed, int(max(radix, 1)), False
    if any_order and packed.shape[0] >= BUCKETS_FROM:
        ids, n_ids = factorize_in_buckets(packed)
        return ids, n_ids, False
    ids, uniq = pd.factorize(packed, sort=False)
    return ids.astype(np.int64, copy=False), len(uniq), True


def factorize_in_buckets(packed: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense ids ``0 .. P-1`` of the distinct values of a non-negative int64 array, in no
    particular order (not by first appearance), and P.

    One hash table over 10^7 values misses the cache at almost every probe. The values are
    first split by a multiplicative hash of their bits into buckets of about 32k records
    (a stable radix sort of 16-bit bucket numbers), then each bucket is hashed on its own in a
    table that stays in cache: the same partition, about twice as fast at 10^7 records.
    """
    n = packed.shape[0]
    bits = min(12, max(1, (n >> 15).bit_length()))
    # Fibonacci hashing: the top bits of value * 2^64/phi (mod 2^64) spread any pattern of values
    bucket = ((packed.view(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits)).astype(np.uint16)
    order = np.argsort(bucket, kind="stable")
    ends = np.searchsorted(bucket[order], np.arange(1, (1 << bits) + 1))
    values = packed[order]
    local = np.empty(n, dtype=np.int64)
    lo, n_ids = 0, 0
    for hi in ends.tolist():
        if hi > lo:
            codes, uniq = pd.factorize(values[lo:hi], sort=False)
            np.add(codes, n_ids, out=local[lo:hi])
            n_ids += len(uniq)
            lo = hi
    ids = np.empty(n, dtype=np.int64)
    ids[order] = local
    return ids, n_ids


def first_occurrence(ids: np.ndarray, n_ids: int) -> np.ndarray:
    """Position of the first record of each id (n_records where an id never occurs)."""
    n = ids.shape[0]
    first = np.full(n_ids, n, dtype=np.int64)
    # Writing positions in reverse leaves the smallest position for each id.
    first[ids[::-1]] = np.arange(n - 1, -1, -1, dtype=np.int64)
    return first


def text_categorical(s: pd.Series) -> pd.Categorical | None:
    """A text column as a categorical of the same values (None when `s` is not all text).

    The column is factorised once (:func:`sdc.core._factorize.factorize`: text holding NUL
    characters kept apart) and its distinct texts become the categories, in order of first
    appearance; a missing value (None, NaN) is a missing code. The values are those of `s`
    (``cat.astype(object)`` gives them back, missing as NaN), so a writer that formats each
    distinct value once reads the codes instead of hashing every record's text again. Only
    string columns and ``object`` columns whose present values are all ``str`` are taken: equal
    values of other types (``1``, ``1.0``, ``True``) would be merged into one category.

    >>> text_categorical(pd.Series(["b", None, "a", "b"])).tolist()
    ['b', nan, 'a', 'b']
    >>> text_categorical(pd.Series([1, "a"], dtype=object)) is None
    True
    """
    if isinstance(s.dtype, pd.StringDtype):  # pandas 3 reads text as "str"; "string" on request
        values = s.to_numpy(dtype=object, na_value=None)
    elif s.dtype == object:
        values = s.to_numpy()
    else:
        return None
    codes, uniques = factorize(values)
    if pd.api.types.infer_dtype(uniques, skipna=True) != "string":
        return None
    return pd.Categorical.from_codes(codes, categories=pd.Index(uniques, dtype=object))


@dataclass(frozen=True, slots=True, kw_only=True)
class EncodedKeys:
    """Key variables encoded to integer codes.

    Attributes
    ----------
    keys : tuple of str
        Names of the key variables, in the order given.
    codes : tuple of numpy.ndarray
        Per-record code of each key (one array per key, compact integer dtype); -1 marks
        a missing value.
    cardinalities : tuple of int
        Number of code slots of each key (codes lie in ``0 .. cardinality - 1``): its number
        of distinct non-missing values, or the span of an offset-coded integer key, in which
        case some codes may be unused.
    pattern : numpy.ndarray of int64, shape (n_records,)
        Id of each record's key pattern (missing treated as a value), in ``0 .. n_ids-1``.
    n_ids : int
        Size of the id space; not every id need occur (see :func:`combine_codes`).
    index : pandas.Index
        Index of the encoded data, for aligning per-record results.
    missing : tuple of bool or None
        Whether each key has a missing value (None: not recorded; found from the codes).
    first_order : bool
        True when the ids are dense and numbered by the first appearance of each pattern
        (hashed patterns): then id order is the order of first records.
    """

    keys: tuple[str, ...]
    codes: tuple[np.ndarray, ...] = field(repr=False)
    cardinalities: tuple[int, ...]
    pattern: np.ndarray = field(repr=False)
    n_ids: int
    index: pd.Index = field(repr=False)
    missing: tuple[bool, ...] | None = field(default=None, repr=False)
    first_order: bool = field(default=False, repr=False)

    @property
    def n_records(self) -> int:
        return int(self.pattern.shape[0])

    def missing_mask(self) -> np.ndarray:
        """Boolean (n_records, n_keys): where a key value is missing."""
        return np.column_stack([c < 0 for c in self.codes])

    @property
    def has_missing(self) -> bool:
        if self.missing is not None:
            return any(self.missing)
        return any(bool((c < 0).any()) for c in self.codes)

    def subset(self, positions: tuple[int, ...]) -> "EncodedKeys":
        """The encoding of a subset of the keys (by position), reusing the column codes."""
        codes = [self.codes[i] for i in positions]
        cards = [self.cardinalities[i] for i in positions]
        missing = None if self.missing is None else tuple(self.missing[i] for i in positions)
        pattern, n_ids = combine_codes(codes, cards, self.n_records, missing)
        return EncodedKeys(
            keys=tuple(self.keys[i] for i in positions), codes=tuple(codes), cardinalities=tuple(cards),
            pattern=pattern, n_ids=n_ids, index=self.index, missing=missing,
        )

    def pattern_counts(self) -> np.ndarray:
        """Number of records with each id (length n_ids, zero for unused ids)."""
        return np.bincount(self.pattern, minlength=self.n_ids)


def encode_keys(data: pd.DataFrame, keys: tuple[str, ...]) -> EncodedKeys:
    """Factorise each key column and combine them into pattern ids.

    `keys` must already be validated (see :func:`sdc._validation.check_keys`). The input
    frame is only read.
    """
    cols: list[np.ndarray] = []
    cards: list[int] = []
    missing: list[bool] = []
    for k in keys:
        c, card, miss = grouping_codes(data[k])
        cols.append(c)
        cards.append(card)
        missing.append(miss)
    pattern, n_ids, hashed = pack_codes(cols, cards, len(data), missing, any_order=True)
    return EncodedKeys(
        keys=tuple(keys), codes=tuple(cols), cardinalities=tuple(cards),
        pattern=pattern, n_ids=n_ids, index=data.index, missing=tuple(missing), first_order=hashed,
    )
