"""Equivalence classes and the class-by-sensitive-value table shared by the attribute-disclosure measures.

Attribute disclosure asks what a record's class reveals about its sensitive value, so it
needs a *partition* of the records: classes are the distinct key patterns with a missing
key value counted as a value of its own (sdcMicro's ``ldiversity`` does the same; the
wildcard rule of :mod:`sdc.core.frequencies` does not partition records).

The table is kept sparse: one cell per (class, sensitive value) that occurs, sorted by
class and then by value, so that every measure is a few vectorised passes over cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._validation import is_real_numeric
from sdc.core._factorize import factorize
from sdc.core.shared import memoized
from sdc.core.keys import EncodedKeys, combine_codes, encode_keys, factorize_column, first_occurrence

__all__ = [
    "Classes", "equivalence_classes", "key_order", "refine_classes", "Sensitive", "encode_sensitive", "sensitive_kind", "Cells", "cells", "dominant_values",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Classes:
    """A partition of the records into equivalence classes.

    ``ids`` is the dense class id (0..n_classes-1) of each record, numbered in order of
    first appearance; ``sizes`` the records per class; ``first`` the position of each
    class's first record (to show its key values).
    """

    keys: tuple[str, ...]
    ids: np.ndarray = field(repr=False)
    n_classes: int
    sizes: np.ndarray = field(repr=False)
    first: np.ndarray = field(repr=False)

    def key_values(self, data: pd.DataFrame, classes: np.ndarray | None = None) -> pd.DataFrame:
        """Key values of the given classes (all by default), one row each."""
        rows = self.first if classes is None else self.first[classes]
        return data[list(self.keys)].iloc[rows].reset_index(drop=True)


def key_order(data: pd.DataFrame, classes: Classes) -> np.ndarray:
    """Classes in sdcMicro's processing order: sorted by key values, missing last (R's
    ``order(..., na.last = TRUE)``). Strings sort by code point here; R sorts factor levels
    in its locale's collation, so the order can differ for string keys."""
    kv = classes.key_values(data)
    if not classes.keys:
        return np.arange(classes.n_classes)
    # One order-preserving integer per class (mixed radix, first key most significant), sorted
    # once: much faster than a lexsort over K columns. When the radix would overflow, the
    # packed prefix is replaced by its dense rank, which keeps the order.
    packed = np.zeros(classes.n_classes, dtype=np.int64)
    radix = 1
    for k in classes.keys:
        codes, uniq = factorize(kv[k], sort=True)
        base = len(uniq) + 1
        if radix * base >= 1 << 62:
            uniq_packed, packed = np.unique(packed, return_inverse=True)
            packed = packed.astype(np.int64)
            radix = len(uniq_packed)
        packed = packed * base + np.where(codes < 0, len(uniq), codes)  # missing sorts last
        radix *= base
    return np.argsort(packed, kind="stable")


def equivalence_classes(data: pd.DataFrame, keys: tuple[str, ...], enc: EncodedKeys | None = None) -> Classes:
    """Classes of identical key values (missing = its own value), ids by first appearance."""
    enc = encode_keys(data, keys) if enc is None else enc
    first_all = first_occurrence(enc.pattern, enc.n_ids)
    counts = np.bincount(enc.pattern, minlength=enc.n_ids)
    if counts.size and counts.all() and bool((first_all[1:] > first_all[:-1]).all()):
        # Ids already dense and numbered by first appearance (hashed patterns): keep them.
        return Classes(keys=tuple(keys), ids=enc.pattern, n_classes=int(enc.n_ids), sizes=counts, first=first_all)
    occupied = np.flatnonzero(counts != 0)
    n = enc.pattern.shape[0]
    if occupied.size > n // 16:
        # number classes by first appearance: first rows are distinct rows, so marking each
        # class at its first row and reading the rows in order sorts them in O(n)
        mark = np.full(n, -1, dtype=np.int64)
        mark[first_all[occupied]] = occupied
        kept = mark[mark >= 0]
    else:
        kept = occupied[np.argsort(first_all[occupied], kind="stable")]
    remap = np.empty(enc.n_ids, dtype=np.int64)
    remap[kept] = np.arange(occupied.size)
    ids = remap[enc.pattern]
    return Classes(
        keys=tuple(keys), ids=ids, n_classes=int(occupied.size), sizes=counts[kept], first=first_all[kept],
    )


def refine_classes(classes: Classes, extra: Sequence[tuple[str, np.ndarray, int]]) -> Classes:
    """The classes split further by more columns, given as ``(name, codes, n_values)`` with
    code -1 for missing (a value of its own): the same partition, numbered the same way, as
    :func:`equivalence_classes` over the keys and those columns, without encoding the keys
    again."""
    n = classes.ids.shape[0]
    codes = [classes.ids] + [c for _, c, _ in extra]
    cards = [classes.n_classes] + [m for _, _, m in extra]
    pattern, n_ids = combine_codes(codes, cards, n)
    names = classes.keys + tuple(name for name, _, _ in extra)
    enc = EncodedKeys(keys=names, codes=tuple(codes), cardinalities=tuple(cards), pattern=pattern, n_ids=n_ids,
                      index=pd.RangeIndex(n))
    return equivalence_classes(None, names, enc)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True, kw_only=True)
class Sensitive:
    """A sensitive variable as integer codes.

    ``codes`` are -1 for a missing value, else an index into ``values``, which are sorted
    (numbers numerically, strings as strings, categoricals in category order) so that code
    order is value order. ``numeric`` tells whether the values are numbers (Wasserstein
    distances need them); ``ordered`` whether an order is meaningful (numbers and ordered
    categoricals).
    """

    name: str
    codes: np.ndarray = field(repr=False)
    values: np.ndarray = field(repr=False)
    numeric: bool
    ordered: bool

    @property
    def n_values(self) -> int:
        return int(self.values.size)


def sensitive_kind(s: pd.Series) -> tuple[bool, bool]:
    """``(numeric, ordered)`` of a sensitive column: numbers (not booleans) are ordered; a
    categorical is numeric when its categories are, and ordered when it says so."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        return is_real_numeric(s.cat.categories.dtype), bool(s.cat.ordered)
    numeric = is_real_numeric(s.dtype)
    return numeric, numeric


def encode_sensitive(data: pd.DataFrame, name: str) -> Sensitive:
    """Codes of a sensitive column, in value order (computed once inside
    :func:`sdc.core.shared.shared_codes`; the result is only read)."""
    s = data[name]
    return memoized(("sensitive", name), s, lambda: _encode_sensitive(s, name))


def _value_array(uniques: object) -> np.ndarray:
    """The distinct values as an array whose items are the values themselves: dates and
    durations as pandas Timestamps/Timedeltas, since numpy turns a datetime64[ns] item copied
    into an object array (a class's dominant value) into an integer count of nanoseconds."""
    arr = np.asarray(uniques)
    if arr.dtype.kind in "mM":
        return pd.Index(uniques).to_numpy(dtype=object)
    return arr


def _encode_sensitive(s: pd.Series, name: str) -> Sensitive:
    numeric, ordered = sensitive_kind(s)
    if isinstance(s.dtype, pd.CategoricalDtype):
        codes, _ = factorize_column(s)
        return Sensitive(name=name, codes=codes.astype(np.int64), values=_value_array(s.cat.categories),
                         numeric=numeric, ordered=ordered)
    try:
        codes, uniq = factorize(s, sort=True)
    except TypeError:  # mixed types cannot be sorted: order them by their text
        text = s.astype(object).where(s.notna(), None).map(lambda v: None if v is None else str(v))
        codes, uniq = factorize(text, sort=True)
    return Sensitive(name=name, codes=codes.astype(np.int64), values=_value_array(uniq), numeric=numeric,
                     ordered=ordered)


@dataclass(frozen=True, slots=True, kw_only=True)
class Cells:
    """Sparse class x value counts: one entry per occurring (class, code), sorted by class
    then code; missing sensitive values (code -1) come first within their class."""

    cls: np.ndarray = field(repr=False)
    code: np.ndarray = field(repr=False)
    count: np.ndarray = field(repr=False)
    n_classes: int
    n_values: int

    def starts(self) -> np.ndarray:
        """Index of each class's first cell (length n_classes + 1, CSR style)."""
        return np.searchsorted(self.cls, np.arange(self.n_classes + 1))


def cells(classes: Classes, sens: Sensitive, counts: np.ndarray | None = None) -> Cells:
    """Count records per (class, sensitive value), missing values included as code -1.

    With `counts`, each row stands for that many records (a table of (class, value) cells
    counted elsewhere, e.g. per partition of a Dask DataFrame): the counts are added."""
    width = sens.n_values + 1
    combined = classes.ids * width + (sens.codes + 1)
    space = classes.n_classes * width
    if counts is not None:
        # Rows may repeat a (class, value) cell (a grouping finer than the encoding): summed.
        nz, inverse = np.unique(combined, return_inverse=True)
        cnt = np.rint(np.bincount(inverse, weights=np.asarray(counts, dtype=np.float64), minlength=nz.size))
    elif space <= 4 * combined.size + 1024:  # direct addressing: counts come out sorted
        counts = np.bincount(combined, minlength=space)
        nz = np.flatnonzero(counts != 0)  # bool: 4x faster than on int64
        cnt = counts[nz]
    else:
        nz, cnt = np.unique(combined, return_counts=True)
    cls, code = np.divmod(nz, width)
    return Cells(cls=cls, code=code - 1, count=cnt.astype(np.int64),
                 n_classes=classes.n_classes, n_values=sens.n_values)


def dominant_values(cl: Cells, s: Sensitive, miss_code: int = -2) -> tuple[np.ndarray, np.ndarray]:
    """The most frequent observed value of each class (ties: the smallest value) and its share
    of the class's observed values; code `miss_code` counts as missing. None/NaN without values."""
    obs = (cl.code >= 0) & (cl.code != miss_code)
    cls, code, cnt = cl.cls[obs], cl.code[obs], cl.count[obs]
    dom = np.full(cl.n_classes, None, dtype=object)
    share = np.full(cl.n_classes, np.nan)
    if cls.size == 0:
        return dom, share
    # Cells are sorted by class, then value: the first cell of a class holding the class's
    # largest count is the dominant value (ties go to the smallest value), with no sort.
    starts = np.flatnonzero(np.r_[True, cls[1:] != cls[:-1]])
    top = np.maximum.reduceat(cnt, starts)
    g = cls[starts]
    best = np.zeros(cl.n_classes, dtype=cnt.dtype)
    best[g] = top
    hit = np.flatnonzero(cnt == best[cls])
    first = hit[np.r_[True, cls[hit][1:] != cls[hit][:-1]]]
    total = np.bincount(cls, weights=cnt, minlength=cl.n_classes)
    dom[g] = s.values[code[first]]
    share[g] = cnt[first] / total[g]
    return dom, share


def key_rows(table: pd.DataFrame, keys: Sequence[str], class_ids: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """The distinct key rows of a (class, value) table (one per key pattern as grouped) and
    their class ids: what the records are matched with to show per-class values per record
    (the table's other rows repeat a class once per value, and would repeat records)."""
    first = ~table.duplicated(subset=list(keys)).to_numpy()
    return table.loc[first, list(keys)].reset_index(drop=True), np.asarray(class_ids)[first]
