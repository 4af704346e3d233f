"""Key patterns of data read in chunks: value domains, one code per value, counts per pattern.

:class:`ChunkedFile` (``sdc.read_chunks(path)``) is a delimited text file larger than memory
as the frequency measures read it on the ``chunks`` engine (:mod:`sdc.core.engine`): its
pattern table, made in two chunked passes and kept, and no per-record values
(:class:`NoRecords`). A first pass gives each key
its *domain* (:class:`KeyDomain`: the smallest and largest whole number, or the distinct
values), so that a second pass codes every chunk's values the same way; the codes of a
record are packed into one integer (mixed radix, one slot per key for a missing value) and
counted per pattern (:class:`PatternCounter`), with the weight sum and the first record of
each pattern. Only the distinct patterns are kept.

Equality is that of :func:`sdc.core.keys.grouping_codes`: whole numbers by value, other
values exactly, missing values a code of their own (how they match is decided later, by
the missing-value rule applied to the pattern table).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from sdc.core.engine import not_on_engine
from sdc.core.keys import first_occurrence

__all__ = ["KeyDomain", "PatternCounter", "ChunkedFile", "NoRecords", "NotKept", "READ_ROWS"]

# Offset codes for whole numbers spread over at most this many values.
_MAX_SPAN = 1 << 24
# Pattern spaces up to this size are counted in dense arrays.
_DENSE = 1 << 25
# Merge the chunks' pattern lists once they hold this many entries.
_MERGE_AT = 1 << 25
_UNSEEN = np.iinfo(np.int64).max
# Numbers from this size on are refused (float64 no longer holds every whole number).
_EXACT = 2.0 ** 53


class KeyDomain:
    """The values one key takes over all chunks, and their codes (0 .. card - 1; -1 = missing).

    :meth:`update` sees every chunk (first pass); when the key is text in some chunks and
    numbers in others, or numbers that are not whole or spread too wide for offsets
    (:attr:`needs_values`), :meth:`collect` must then see every chunk again (as text for
    the former) before :meth:`finish`."""

    def __init__(self, name: str):
        self.name = name
        self.kinds: set[str] = set()
        self.lo: float | None = None
        self.hi: float | None = None
        self.whole = True
        self.uniques: list[np.ndarray] = []
        self.has_missing = False
        self.seen = False                     # a value that is not missing
        self.refusal: str | None = None       # why the key cannot be coded, if it is numbers throughout
        self.levels: pd.Index | None = None   # distinct values, when not offset-coded
        self.card = 0

    @property
    def as_text(self) -> bool:
        """Read as text in some chunk and as numbers (or booleans) in another: the whole file
        reads it as text."""
        return len(self.kinds) > 1 and not self.kinds <= set("iuf")

    @property
    def needs_values(self) -> bool:
        numeric = self.kinds <= set("iuf")
        wide = self.lo is not None and (not self.whole or self.hi - self.lo > _MAX_SPAN)
        return self.as_text or (numeric and wide)

    def update(self, s: pd.Series) -> None:
        kind = s.dtype.kind
        miss = s.isna().to_numpy()
        if miss.any():
            self.has_missing = True
        if kind in "iuf":
            v = s.to_numpy()[~miss] if miss.any() else s.to_numpy()
            if v.size == 0:
                return  # a chunk without a value of this key says nothing of its type
            self.kinds.add(kind)
            self.seen = True
            lo, hi = float(v.min()), float(v.max())
            if self.refusal is None and not (math.isfinite(lo) and math.isfinite(hi)):
                bad = lo if not math.isfinite(lo) else hi
                self.refusal = (f"key variable {self.name!r} has a non-finite value {bad!r}; recode it or set it "
                                "to missing.")
            elif self.refusal is None and max(abs(lo), abs(hi)) >= _EXACT:
                # Codes come from float64 offsets and values: whole numbers this large would merge
                # (2^53 + 1 with 2^53), and chunks of int64 and uint64 are not typed as the whole file.
                big = v.max() if abs(hi) >= abs(lo) else v.min()
                shown = int(big) if kind in "iu" else float(big)
                self.refusal = (f"key variable {self.name!r} holds numbers of 2^53 or more ({shown!r}), which a "
                                "chunked read cannot code exactly; read the file whole (without --chunks) or the "
                                "column as text (--text).")
                return
            if self.refusal is not None:
                return
            if kind == "f" and self.whole and not bool(np.all(v == np.rint(v))):
                self.whole = False
            self.lo = lo if self.lo is None else min(self.lo, lo)
            self.hi = hi if self.hi is None else max(self.hi, hi)
        else:
            values = pd.unique(s[~miss].to_numpy(dtype=object))
            if kind == "O" and values.size and all(isinstance(v, (bool, np.bool_)) for v in values):
                # TRUE/FALSE with a missing value: pandas reads truth values (and NaN) as objects
                self.kinds.add("b")
            else:
                self.kinds.add(kind)
            self.seen = self.seen or values.size > 0
            self.uniques.append(values)

    def check(self) -> None:
        """After the first pass: refuse what the in-memory measures refuse (a key missing in
        every record; an infinite number, or one of 2^53 or more, in a key of numbers)."""
        if not self.seen:
            raise ValueError(f"key variable {self.name!r} is missing in every record; drop it from `keys`.")
        if self.refusal is not None and self.kinds <= set("iuf"):
            raise ValueError(self.refusal)

    def collect(self, s: pd.Series) -> None:
        """A chunk's distinct values, for a key that :attr:`needs_values`."""
        v = s.dropna()
        self.uniques.append(pd.unique(v.to_numpy(dtype=object)) if self.as_text else np.unique(v.to_numpy()))

    def finish(self) -> None:
        """Fix the codes: offsets for whole numbers in a small range, else the sorted (numbers)
        or first-seen (text) distinct values."""
        numeric = self.kinds <= set("iuf")
        if numeric and not self.needs_values:
            self.levels = None
            self.card = int(self.hi - self.lo) + 1 if self.lo is not None else 0
        elif numeric:
            vals = np.unique(np.concatenate(self.uniques)) if self.uniques else np.empty(0)
            self.levels = pd.Index(vals)
            self.card = len(vals)
        else:
            seen = pd.unique(np.concatenate(self.uniques)) if self.uniques else np.empty(0, dtype=object)
            self.levels = pd.Index(seen, dtype=object)
            self.card = len(seen)
        self.uniques = []

    def code(self, s: pd.Series) -> np.ndarray:
        """Codes of a chunk's values (int64; -1 = missing)."""
        miss = s.isna().to_numpy()
        if self.levels is None:
            v = s.to_numpy(dtype=np.float64, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                out = np.where(miss, -1, np.nan_to_num(v - self.lo)).astype(np.int64)
        else:
            vals = s.to_numpy() if self.levels.dtype.kind in "iuf" else s.to_numpy(dtype=object)
            out = self.levels.get_indexer(vals).astype(np.int64)
            out[miss] = -1
        return out

    def values(self, codes: np.ndarray) -> np.ndarray:
        """The values of codes (missing: NaN, as pandas reads an empty field, for text too)."""
        miss = codes < 0
        if self.levels is None:
            if not miss.any() and self.kinds <= set("iu"):
                v = codes + int(self.lo)
                for dt in (np.int8, np.int16, np.int32):  # the smallest type: the same values, less memory
                    if np.iinfo(dt).min <= int(self.lo) and int(self.hi) <= np.iinfo(dt).max:
                        return v.astype(dt)
                return v.astype(np.int64)
            return np.where(miss, np.nan, codes + (self.lo or 0.0))
        lv = self.levels.to_numpy()
        if not len(lv):
            return np.full(codes.size, np.nan)
        out = lv[np.maximum(codes, 0)]
        if self.kinds == {"b"} and not miss.any():
            return out.astype(bool)  # truth values, as the whole file reads them
        if miss.any():
            if out.dtype.kind in "iuf":
                out = out.astype(np.float64)
                out[miss] = np.nan
            else:
                out = out.astype(object)
                out[miss] = np.nan
        return out


class PatternCounter:
    """Record counts, weight sums and first records of the key patterns of successive chunks."""

    def __init__(self, domains: list[KeyDomain], *, weighted: bool):
        self.domains = domains
        self.radix = [d.card + 1 for d in domains]  # one more slot: missing
        space = 1
        for r in self.radix:
            space *= r
            if space >= 1 << 62:
                raise ValueError("the keys take too many value combinations to be counted in chunks "
                                 "(more than 2^62); bin or recode some of them.")
        self.space = space
        self.weighted = weighted
        self.n = 0
        self.dense = space <= _DENSE
        # A sparse table's patterns are packed in bit fields when they fit (shifts and masks
        # decode them far faster than divisions), else in mixed radix.
        bits = [(r - 1).bit_length() for r in self.radix]
        self.bits = bits if not self.dense and sum(bits) <= 62 else None
        if self.dense:
            self.counts = np.zeros(space, dtype=np.int64)
            self.wsum = np.zeros(space)
            self.first = np.full(space, _UNSEEN, dtype=np.int64)
        else:
            self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
            self.held = 0
            self.merged = 0

    def add(self, chunk: pd.DataFrame, keys: tuple[str, ...], weights: str | None) -> None:
        packed = np.zeros(len(chunk), dtype=np.int64)
        for j, (d, k) in enumerate(zip(self.domains, keys)):
            if self.bits is None:
                packed *= self.radix[j]
            else:
                packed <<= self.bits[j]
            packed += d.code(chunk[k]) + 1
        w = None
        if weights is not None:
            from sdc._validation import check_weights

            w = check_weights(chunk, weights)
        offset = self.n
        self.n += len(chunk)
        # Hashed in first-appearance order: a chunk's patterns, then the chunks in file order,
        # so the merged list is in order of each pattern's first record.
        ids, uniq = pd.factorize(packed)
        cnt = np.bincount(ids, minlength=uniq.size)
        ws = np.bincount(ids, weights=w, minlength=uniq.size) if w is not None else cnt.astype(np.float64)
        first = first_occurrence(ids, uniq.size) + offset
        if self.dense:
            seen = self.first[uniq] == _UNSEEN
            self.counts[uniq] += cnt
            self.wsum[uniq] += ws
            self.first[uniq[seen]] = first[seen]
            return
        self.parts.append((uniq, cnt.astype(np.int64), ws, first))
        self.held += uniq.size
        # Merged when the new entries are as many as the merged ones: each entry is merged
        # O(log) times, not once per chunk.
        if self.held - self.merged >= max(_MERGE_AT, self.merged) and len(self.parts) > 1:
            self.parts = [_merge(self.parts)]
            self.held = self.merged = self.parts[0][0].size

    def table(self) -> pd.DataFrame:
        """The distinct patterns: key values, ``_n``, ``_w``, ``_first``; by first appearance."""
        if self.dense:
            keys_ = np.flatnonzero(self.counts != 0)
            cnt, ws, first = self.counts[keys_], self.wsum[keys_], self.first[keys_]
            if not self.weighted:
                ws = cnt.astype(np.float64)
            order = np.argsort(first, kind="stable")
            keys_, cnt, ws, first = keys_[order], cnt[order], ws[order], first[order]
        elif self.parts:
            keys_, cnt, ws, first = _merge(self.parts)  # already by first appearance
            self.parts = []
        else:
            keys_ = cnt = first = np.empty(0, dtype=np.int64)
            ws = np.empty(0)
        cols: dict[str, np.ndarray] = {}
        rest = keys_
        digits = []
        for j in reversed(range(len(self.radix))):
            if self.bits is None:
                rest, d = np.divmod(rest, self.radix[j])
            else:
                d = rest & ((1 << self.bits[j]) - 1)
                rest = rest >> self.bits[j]
            digits.append(d - 1)
        for d, codes in zip(self.domains, reversed(digits)):
            cols[d.name] = d.values(codes)
        out = pd.DataFrame(cols)
        out["_n"] = cnt
        out["_w"] = ws
        out["_first"] = first
        return out


def _merge(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pattern lists (in file order, each by first appearance) added into one, by first
    appearance: equal keys summed in file order, first records the earliest."""
    ids, keys_ = pd.factorize(np.concatenate([p[0] for p in parts]))
    m = keys_.size
    # Counts summed as floats are exact (far below 2^53); weights are summed in file order.
    cnt = np.bincount(ids, weights=np.concatenate([p[1] for p in parts]), minlength=m).astype(np.int64)
    ws = np.bincount(ids, weights=np.concatenate([p[2] for p in parts]), minlength=m)
    first = np.concatenate([p[3] for p in parts])[first_occurrence(ids, m)]
    return keys_, cnt, ws, first


# --- a file read in chunks, as the measures read it -------------------------------------------

#: Records parsed at a time (at most the file's `chunk_rows`).
READ_ROWS = 1 << 19


class NotKept:
    """Per-record values a chunked read does not keep, where a result holds them: a column of it
    is the same stand-in; anything else read of it raises the error of :class:`NoRecords`."""

    __slots__ = ("_name",)

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def __getitem__(self, name: str) -> NotKept:
        return NotKept(name)

    def __getattr__(self, attr: str) -> Any:
        NoRecords(0).series(object.__getattribute__(self, "_name"))

    def __repr__(self) -> str:
        return f"<per-record values ({self._name!r}) not kept when the file is read in chunks>"


class NoRecords:
    """Stands for the per-record values a chunked read does not keep: the number of records,
    and a clear error if a per-record Series is asked for."""

    __slots__ = ("n_records",)

    def __init__(self, n_records: int):
        self.n_records = n_records

    def series(self, name: str) -> pd.Series:
        raise ValueError(f"per-record values ({name!r}) are not kept when the file is read in chunks; "
                         "read it whole (without chunks) to get them.")

    def frame(self, names: list[str]) -> NotKept:
        """The stand-in of a result's per-record frame (l-diversity's ``records``): made without
        error, as the result is, and raising the same error when read."""
        return NotKept(names[0] if names else "records")

    def concat(self, series: list[Any]) -> pd.DataFrame:
        return self.series("records")


class ChunkedFile:
    """A delimited text file read in chunks of at most `chunk_rows` records, keeping only the
    distinct key patterns: the ``chunks`` engine of the frequency measures
    (``sdc.k_anonymity(sdc.read_chunks("big.csv"), keys)``; :mod:`sdc.core.engine`).

    :meth:`pattern_table` makes a pattern table in two passes over the key columns
    (:class:`sdc.io.ColumnFile`, the file checked once; the values of each key, then the
    patterns counted chunk by chunk, :class:`PatternCounter`) and keeps the last one, so the
    measures of one set of keys read the file once. Reading is as :func:`sdc.io.read_data`'s:
    `sep`, `text_columns`, `na_values`, codes with leading zeros kept as text.
    """

    sdc_engine = "chunks"
    engine = "chunks"

    def __init__(self, path: Any, *, chunk_rows: int | None = None, sep: str | None = None,
                 text_columns: Any = None, na_values: Any = None):
        from sdc._validation import check_int
        from sdc.io import CHUNK_ROWS

        self.path = str(path)
        self.chunk_rows = check_int(CHUNK_ROWS if chunk_rows is None else chunk_rows, "chunk_rows", min_value=1)
        self.options = {"sep": sep, "text_columns": text_columns, "na_values": na_values}
        self._tables: dict[tuple[Any, ...], pd.DataFrame] = {}
        self._columns: list[str] | None = None

    def __repr__(self) -> str:
        return f"ChunkedFile({self.path!r}, chunk_rows={self.chunk_rows:,})"

    @property
    def columns(self) -> pd.Index:
        """The file's columns (its header)."""
        if self._columns is None:
            from sdc.exceptions import DataFileError
            from sdc.io import read_header

            header = read_header(self.path, sep=self.options["sep"])
            if header is None:
                raise DataFileError(f"cannot read '{self.path}' in chunks: it is not a delimited text file.")
            self._columns = [str(c) for c in header]
        return pd.Index(self._columns)

    @property
    def meta(self) -> pd.DataFrame:
        """An empty frame of the file's columns (their types are settled chunk by chunk)."""
        return pd.DataFrame(columns=self.columns)

    def pattern_table(self, keys: tuple[str, ...], weights: str | None = None, *,
                      extra: tuple[str, ...] = ()) -> pd.DataFrame:
        """The distinct key patterns: the key columns, ``_n`` (records), ``_w`` (weight sums),
        ``_first`` (first record), by first appearance (as a Dask DataFrame's)."""
        if extra:
            raise not_on_engine("a table of key patterns with other columns", "chunks", "only key patterns are "
                                "counted in chunks")
        return self._patterns(tuple(keys), weights)

    def _patterns(self, keys: tuple[str, ...], weights: str | None) -> pd.DataFrame:
        """:meth:`pattern_table`, the last two kept (a scenario's key table and a class table)."""
        from sdc.io import ColumnFile, MixedPieces

        want = (tuple(keys), weights)
        if want in self._tables:
            return self._tables[want]
        cols = list(dict.fromkeys([*keys, *([weights] if weights else [])]))
        source = ColumnFile(self.path, cols, **self.options)  # checked once, for every pass
        # Pieces of at most READ_ROWS records parse faster (and the memory is reused); a file
        # whose low-memory pieces pandas types differently is read again whole-chunk.
        rows = min(self.chunk_rows, READ_ROWS)
        try:
            table = _file_patterns(source, tuple(keys), weights, rows, pieces=True)
        except MixedPieces:
            table = _file_patterns(source, tuple(keys), weights, rows, pieces=False)
        if len(table) == 0:
            raise ValueError(f"data file '{self.path}' has no records.")
        self._tables = {**dict(list(self._tables.items())[-1:]), want: table}
        return table

    def distinct(self, name: str) -> pd.Series:
        """The distinct values of column `name`, typed as the whole file reads it (what a
        measure asks of a column's type, such as whether a sensitive variable is ordered):
        the values of a one-column pattern table."""
        return self._patterns((name,), None)[name]

    @property
    def meta_nonempty(self) -> pd.DataFrame:
        """The frame the measures check their column arguments against (names, roles): the
        file's columns, one placeholder record of zeros. The values are checked in the tables
        (a key missing in every record, infinite numbers: :meth:`KeyDomain.check`)."""
        return pd.DataFrame({c: [0] for c in self.columns})

    def class_table(self, keys: tuple[str, ...], extra: tuple[str, ...]) -> tuple[pd.DataFrame, Any]:
        """The (key pattern, `extra` values) cells with their record counts (``_n``), in two
        chunked passes (:meth:`pattern_table` of the keys and `extra` together: a cell is a
        pattern of both), and the equivalence classes of its rows, as
        :func:`sdc.core._dask.class_table` gives them on Dask: classes numbered by first
        appearance (the table is by its cells' first records), ``sizes`` record counts,
        ``ids`` and ``first`` referring to the table's rows. l-diversity and t-closeness read
        only these counts, so their numbers are the in-memory ones."""
        import dataclasses

        from sdc.core.classes import equivalence_classes

        table = self._patterns((*keys, *[e for e in extra if e not in keys]), None)
        cl = equivalence_classes(table, list(keys))
        sizes = np.bincount(cl.ids, weights=table["_n"].to_numpy(np.float64), minlength=cl.n_classes)
        return table, dataclasses.replace(cl, sizes=np.rint(sizes).astype(np.int64))

    def per_record(self, keys: tuple[str, ...], table: pd.DataFrame, ids: np.ndarray, n_records: int,
                   **arrays: np.ndarray) -> NoRecords:
        return NoRecords(n_records)

    def binned(self, bins: Any, argument: str = "key_bins", role: str = "continuous key"
               ) -> tuple[ChunkedFile, tuple[Any, ...]]:
        if bins:
            raise not_on_engine(f"`{argument}`", "chunks", "bin the keys in the file first")
        return self, ()


def _file_patterns(source: Any, keys: tuple[str, ...], weights: str | None, chunk_rows: int, *,
                   pieces: bool) -> pd.DataFrame:
    """The passes over the file (see :class:`ChunkedFile`): its distinct key patterns."""
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


def _code_columns(source: Any, candidates: list[str], chunk_rows: int, pieces: bool) -> set[str]:
    """The candidates (columns with a value such as 0123) whose every value is digits: text."""
    from sdc.io import is_code

    codes = set(candidates)
    if codes:
        for chunk in source.chunks(sorted(codes), chunk_rows=chunk_rows, dtypes={c: str for c in codes},
                                   pieces=pieces):
            codes -= {c for c in codes if not is_code(chunk[c].dropna()).all()}
            if not codes:
                break
    return codes
