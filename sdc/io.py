"""Reading microdata files: CSV (delimiter detected or given), Excel, Stata, SAS, SPSS, Parquet,
R's files and JSON Lines (the formats of :mod:`sdc._formats`, one declaration each, recognised
by their content).

Every failure is a :class:`sdc.exceptions.DataFileError` with one sentence naming the file
and the problem, so the CLI can print it as one line.

What is read, and what is not guessed (docs/getting-started.md, "Reading data"):

* **Missing values are explicit.** In text and Excel files only an empty field is missing by
  default; the text ``NA`` (a postcode prefix, a country code) is a value like any other.
  Other markers are given with ``na_values`` (``--na-values`` on the command line).
  pandas' own default list (``NA``, ``null``, ``NaN``, ...) is *not* used: it silently turned
  real codes into wildcards. A column that would be numeric but for such markers is read
  as text, with a warning that says how to declare them.
* **Codes keep their leading zeros.** A column whose every value is a whole number written
  with digits only, and at least one of them with a leading zero (``02134``, ``007``), is
  read as text (postcodes, ZIP codes, area codes): read as numbers, ``02134`` and ``2134``
  would become one code. ``text_columns`` forces text for named columns (or all).
* **Malformed text is refused, never repaired silently**: a row with more or fewer fields
  than the header (a truncated row would otherwise get missing values, which match every
  key value), a carriage return (CR) outside quotes in a file with LF line ends (it would
  split a record in two), and a header that names a column twice (pandas would rename it
  ``a.1``) are errors naming the line.

:func:`read_data_details` also returns what was done (:class:`ReadDetails`), for the report.
"""

from __future__ import annotations

import struct
import warnings
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from sdc._formats import READ_OPTIONS, Request, format_named, format_of, option_refusal, read_file
from sdc._readers import (
    COMMON_NA_MARKERS, DEFAULT_NA_VALUES, DELIMITERS, ReadDetails, _DECOMPRESSION_ERRORS, _FLOATS, _check_header,
    _check_text_columns, _marker_values, _na_values, _reason, _sample_and_delimiter, _text_header, _text_request,
    _warn_numbers_with_markers, delimiter, detect_delimiter, is_code,
)
from sdc._structure import WHITESPACE, check_structure
from sdc.exceptions import DataFileError

__all__ = ["read_data", "read_data_details", "ReadDetails", "detect_delimiter", "DELIMITERS", "DEFAULT_NA_VALUES",
           "COMMON_NA_MARKERS", "EXCEL_SUFFIXES", "read_columns", "iter_columns", "ColumnFile", "CHUNK_ROWS",
           "delimiter", "read_header", "is_code", "READ_OPTIONS"]

#: The suffixes of Excel workbooks (the ``excel`` format's).
EXCEL_SUFFIXES = format_named("excel").suffixes


def read_data(path: str | Path, *, sep: str | None = None, text_columns: bool | Sequence[str] | None = None,
              na_values: str | Sequence[str] | None = None, sheet: str | int | None = None) -> pd.DataFrame:
    """Read a microdata file into a DataFrame.

    Parameters
    ----------
    path : str or Path
        ``.xlsx``/``.xlsm`` (Excel), ``.dta`` (Stata), ``.sas7bdat`` / ``.xpt`` (SAS, transport
        v5 and v8), ``.sav``/``.zsav`` (SPSS), ``.parquet``, ``.rds``/``.RData`` (R), ``.jsonl``;
        a file in one of the binary formats is recognised by its first bytes whatever its name;
        anything else as delimited text (optionally ``.gz``/``.bz2``/``.zip``/``.xz``
        compressed). Labelled files are read as their codes, user-missing values as missing
        (:mod:`sdc._labelled`).
    sep : str, optional
        Delimiter for text files; ``"whitespace"`` for runs of blanks. Detected when None
        (comma, semicolon, tab, pipe or whitespace).
    text_columns : bool or sequence of str, optional
        Text and Excel files: columns to read as text. By default (None) a column of
        whole-number codes with a leading zero is read as text (``"02134"``, not ``2134``);
        True reads every column as text; a list reads those columns as text (and still
        detects codes in the others); False turns the detection off.
    na_values : str or sequence of str, optional
        Text and Excel files: markers to read as missing besides the empty field (the
        default: only empty fields are missing; ``"NA"`` is a value).
    sheet : str or int, optional
        Excel files: the sheet (default: the first).

    Raises
    ------
    DataFileError
        The file is missing, unreadable, empty, or malformed (see the module notes).
    """
    return read_data_details(path, sep=sep, text_columns=text_columns, na_values=na_values, sheet=sheet)[0]



def read_data_details(path: str | Path, *, sep: str | None = None, text_columns: bool | Sequence[str] | None = None,
                      na_values: str | Sequence[str] | None = None, sheet: str | int | None = None
                      ) -> tuple[pd.DataFrame, ReadDetails]:
    """:func:`read_data`, with what was done to read the file (:class:`ReadDetails`)."""
    p = Path(path)
    sep = None if sep is None else delimiter(sep)
    _check_file(p, empty=True)  # before the header checks, which would miss every column
    na = _na_values(na_values)
    fmt = format_of(p)
    _check_sheet(p, sheet)
    try:
        df, details = read_file(p, fmt, Request(sep, text_columns, na, sheet))
    except DataFileError:
        raise
    except zipfile.BadZipFile:
        # An .xlsx workbook is a zip archive, as is a .zip-compressed text file: this file is
        # another kind of file, or truncated.
        what = ("not an Excel workbook (an .xlsx file is a zip archive; this one is not, or is truncated)"
                if fmt.name == "excel" else "not a zip archive, or a truncated one")
        raise DataFileError(f"cannot read data file '{p}': {what}.") from None
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError, KeyError, *_DECOMPRESSION_ERRORS) as exc:
        raise DataFileError(f"cannot read data file '{p}': {_reason(p, exc)}") from None
    except (struct.error, TypeError, StopIteration, IndexError) as exc:
        # A truncated or corrupt binary file fails deep inside pandas' readers (struct.error,
        # ord() of an empty read, a header iterator running out), which pandas releases differ on.
        if not fmt.binary:
            raise
        raise DataFileError(f"cannot read data file '{p}': the file is truncated or corrupt "
                            f"({type(exc).__name__}: {exc}).") from None
    if df.shape[1] == 0 or len(df) == 0:
        raise DataFileError(f"data file '{p}' has no records.")
    missing = {str(c): int(n) for c, n in df.isna().sum().items()}
    details = replace(details, missing=missing,
                      marker_values=_marker_values(df, na) if details.markers_read else {})
    _warn_numbers_with_markers(df, details)
    return df, details


def _check_file(p: Path, *, empty: bool = False) -> None:
    """Refuse a path that is no file to read: missing, a directory, or (with `empty`) empty."""
    if not p.exists():
        raise DataFileError(f"cannot read data file '{p}': no such file.")
    if p.is_dir():
        raise DataFileError(f"cannot read data file '{p}': it is a directory.")
    if empty and p.stat().st_size == 0:
        raise DataFileError(f"data file '{p}' is empty.")




def read_header(path: str | Path, *, sep: str | None = None, sheet: str | int | None = None) -> list[str] | None:
    """The column names of a delimited text file's header, or of an Excel sheet's first row
    (`sheet`, default the first), as text (not the values), so that a caller can check the
    columns it will name before reading; None for other files (Stata, SAS: read them with
    :func:`read_data`) or a header that cannot be read (``read_data`` then says why)."""
    p = Path(path)
    if not p.is_file():
        return None
    fmt = format_of(p)
    return None if fmt.header is None else fmt.header(p, sep, sheet)


def _header(p: Path, sep: str | None) -> list[str] | None:
    """The column names of a delimited text file's header, or None when it cannot be read."""
    return _text_header(p, sep)


def _check_sheet(p: Path, sheet: str | int | None) -> None:
    refusal = option_refusal(p, format_of(p), {"sheet": sheet})
    if refusal:
        raise ValueError(refusal)



# ----------------------------------------------------------------------------------------
# Some columns only, typed from the file (the key columns of the risk commands), in chunks
# ----------------------------------------------------------------------------------------
#: Records per chunk when reading columns of a delimited text file.
CHUNK_ROWS = 1_000_000


@dataclass(frozen=True)
class _Plan:
    """How to read some columns of a delimited text file: found once, used for every chunk."""

    path: Path
    sep: str
    kw: dict
    columns: tuple[str, ...]
    zero_fields: tuple[str, ...]   # columns with a value such as 0123 (codes, if all digits)
    named_text: tuple[str, ...]


def _plan(path: str | Path, columns: Sequence[str], sep: str | None, text_columns, na_values) -> _Plan | None:  # noqa: ANN001
    """The plan for reading `columns`, or None when :func:`read_data` must read the file
    (not delimited text, separators pandas' C parser cannot take, every column as text, or a
    column the header does not name: then the caller's checks see every column)."""
    p = Path(path)
    if not p.exists() or p.is_dir():
        return None
    if format_of(p).name != "text":
        return None
    na = _na_values(na_values)
    sample, sep = _sample_and_delimiter(p, sep)
    all_text, named, detect = _text_request(text_columns)
    if sep == WHITESPACE or all_text:
        return None
    scan = check_structure(p, sep, sample)  # the same refusals as read_data, on the whole file
    if scan is None:
        return None
    _check_header(p, scan.header)
    if named:
        _check_text_columns(p, scan.header, named)
    cols = tuple(str(c) for c in columns)
    header = [str(h) for h in scan.header]
    if any(c not in header for c in cols) or len(set(cols)) != len(cols):
        return None
    zero = tuple(header[i] for i in sorted(scan.zero_fields) if i < len(header) and header[i] in cols
                 and header[i] not in named) if detect else ()
    kw = {"keep_default_na": False, "na_values": list(na), "sep": sep, "usecols": list(cols)}
    return _Plan(p, sep, kw, cols, zero, tuple(c for c in named if c in cols))


def iter_columns(path: str | Path, columns: Sequence[str], *, chunk_rows: int = CHUNK_ROWS, sep: str | None = None,
                 text_columns: bool | Sequence[str] | None = None, na_values: str | Sequence[str] | None = None,
                 dtypes: dict[str, object] | None = None) -> Iterator[pd.DataFrame]:
    """`columns` of a delimited text file, `chunk_rows` records at a time (the other columns
    are split but not parsed). Each chunk's types are inferred on its own unless `dtypes`
    fixes them (e.g. ``str`` for a column that is text somewhere in the file). The file is
    checked first as :func:`read_data` checks it.

    Raises DataFileError when the file is not delimited text or lacks one of the columns.
    """
    source = ColumnFile(path, columns, sep=sep, text_columns=text_columns, na_values=na_values)
    yield from source.chunks(chunk_rows=chunk_rows, dtypes=dtypes)


class ColumnFile:
    """Columns of a delimited text file, checked once (structure, header, leading zeros, as
    :func:`read_data` checks it) and read in chunks as often as needed: the passes of a file
    larger than memory (:mod:`sdc.risk.streamed`) do not scan the file again each.

    Raises DataFileError when the file is not delimited text or lacks one of the columns.
    """

    def __init__(self, path: str | Path, columns: Sequence[str], *, sep: str | None = None,
                 text_columns: bool | Sequence[str] | None = None, na_values: str | Sequence[str] | None = None):
        plan = _plan(path, columns, sep, text_columns, na_values)
        if plan is None:
            _check_file(Path(path), empty=True)
            header = _header(Path(path), sep)
            missing = [c for c in columns if header is not None and str(c) not in header]
            if missing:
                raise DataFileError(f"data file '{path}' has no column {', '.join(map(repr, missing))}.")
            raise DataFileError(f"cannot read columns of '{path}' in chunks: it is not a delimited text file with "
                                f"columns {', '.join(map(repr, columns))}.")
        self._plan = plan

    @property
    def code_candidates(self) -> tuple[str, ...]:
        """Columns with a value such as 0123: :func:`read_data` reads them as text when every
        value is a whole number written in digits (:func:`is_code`), else as it finds them."""
        return self._plan.zero_fields

    def chunks(self, columns: Sequence[str] | None = None, *, chunk_rows: int = CHUNK_ROWS,
               dtypes: dict[str, object] | None = None, pieces: bool = False) -> Iterator[pd.DataFrame]:
        """The chunks of `columns` (some of the columns given when made; default all).

        With `pieces`, pandas parses each chunk in its smaller low-memory pieces (faster), each
        typed on its own; a chunk whose pieces a whole-chunk read would type otherwise (text
        and numbers, integers of 2^53 or more made floats: :func:`_mixed`) raises
        :class:`MixedPieces`, and the caller reads again without `pieces`.
        """
        plan = self._plan
        if columns is not None:
            cols = tuple(str(c) for c in columns)
            if not set(cols) <= set(plan.columns):
                raise ValueError(f"columns {sorted(set(cols) - set(plan.columns))} were not checked in '{plan.path}'.")
            plan = _Plan(plan.path, plan.sep, {**plan.kw, "usecols": list(cols)}, cols,
                         tuple(c for c in plan.zero_fields if c in cols), tuple(c for c in plan.named_text if c in cols))
        if not pieces:
            return _chunks_of(plan, chunk_rows, dtypes)
        as_text = set(plan.named_text) | {c for c, t in (dtypes or {}).items() if t is str}
        return _checked_pieces(_chunks_of(plan, chunk_rows, dtypes, low_memory=True),
                               [c for c in plan.columns if c not in as_text])


class MixedPieces(Exception):
    """A chunk read in low-memory pieces that pandas typed differently (see :meth:`ColumnFile.chunks`)."""


def _checked_pieces(chunks: Iterator[pd.DataFrame], columns: list[str]) -> Iterator[pd.DataFrame]:
    for chunk in chunks:
        if any(_mixed(chunk[c]) for c in columns):
            raise MixedPieces
        yield chunk


def _chunks_of(plan: _Plan, chunk_rows: int, dtypes: dict[str, object] | None, *, low_memory: bool = False
               ) -> Iterator[pd.DataFrame]:
    """The chunks of the plan's columns. With `low_memory` pandas parses each chunk in smaller
    pieces (faster, less memory), each typed on its own: the caller must check object columns
    for mixed types (:func:`_mixed`); pandas' warning about them is silenced here."""
    dtype = {c: str for c in plan.named_text}
    dtype.update(dtypes or {})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.DtypeWarning)
            floats = {} if plan.sep == WHITESPACE else {"float_precision": _FLOATS}  # the python engine is exact
            reader = pd.read_csv(plan.path, chunksize=chunk_rows, dtype=dtype or None, low_memory=low_memory,
                                 **floats, **plan.kw)
            with reader:
                for part in reader:
                    yield part
    except pd.errors.EmptyDataError:
        raise DataFileError(f"data file '{plan.path}' is empty.") from None
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError, *_DECOMPRESSION_ERRORS) as exc:
        raise DataFileError(f"cannot read data file '{plan.path}': {_reason(plan.path, exc)}") from None


def read_columns(path: str | Path, columns: Sequence[str], *, sep: str | None = None,
                 text_columns: bool | Sequence[str] | None = None, na_values: str | Sequence[str] | None = None,
                 sheet: str | int | None = None, compact: bool = False) -> pd.DataFrame:
    """Only the named columns of a data file: the same values, types and refusals as
    ``read_data(path)[columns]``, without parsing the other columns of a text file.

    A delimited text file is read in chunks of :data:`CHUNK_ROWS` records, each column with
    the type pandas finds in it; a column whose chunks disagree is made what reading the
    whole file gives (whole numbers with and without gaps: floats; numbers and text: text).
    Codes with leading zeros and markers such as ``NA`` are handled as by :func:`read_data`.
    Other files, and a text file whose header lacks one of the columns, go through
    :func:`read_data` (then every column is returned, so that the caller's checks see them).

    Parameters
    ----------
    compact : bool, default False
        Store whole-number columns in the smallest integer type that holds them (same
        values, less memory: for grouping, as the risk commands do).
    """
    sep = None if sep is None else delimiter(sep)
    opts = dict(sep=sep, text_columns=text_columns, na_values=na_values)
    _check_sheet(Path(path), sheet)
    try:
        plan = _plan(path, columns, sep, text_columns, na_values)
    except DataFileError:
        raise
    except (ValueError, OSError, UnicodeDecodeError, *_DECOMPRESSION_ERRORS) as exc:
        raise DataFileError(f"cannot read data file '{path}': {_reason(Path(path), exc)}") from None
    if plan is None:
        df = read_data(path, sheet=sheet, **opts)
        if all(c in df.columns for c in columns):
            df = df[list(columns)]
        return _compact(df) if compact else df
    parts: dict[str, list[pd.Series]] = {c: [] for c in plan.columns}
    mixed: set[str] = set()
    n = 0
    for chunk in _chunks_of(plan, CHUNK_ROWS, None, low_memory=True):
        n += len(chunk)
        for c in plan.columns:
            s = chunk[c]
            if c not in mixed and _mixed(s):
                mixed.add(c)
            parts[c].append(_compact_series(s) if compact else s)
    if n == 0:
        raise DataFileError(f"data file '{plan.path}' has no records.")
    out: dict[str, pd.Series] = {}
    for c in plan.columns:
        col = None if c in mixed else _join(parts[c])
        del parts[c]
        if col is None:  # chunks of different kinds: read this column whole, as read_data would
            col = next(_chunks_of(_Plan(plan.path, plan.sep, {**plan.kw, "usecols": [c]}, (c,), (), plan.named_text),
                                  1 << 62, None))[c]
            col = _compact_series(col) if compact else col
        out[c] = col
    df = pd.DataFrame(out)
    df.index = pd.RangeIndex(len(df))
    _keep_codes(plan, df)
    details = ReadDetails(str(plan.path), "text", tuple(plan.kw["na_values"]), markers_read=True,
                          marker_values=_marker_values(df, tuple(plan.kw["na_values"])))
    _warn_numbers_with_markers(df, details)
    return df


def _mixed(s: pd.Series) -> bool:
    """A column whose pieces pandas may have typed differently, which only a read of the
    whole column types as :func:`read_data` does: an object column of numbers and text (10
    and "10"), or a float column holding a number of 2^53 or more (pieces of int64 and uint64
    or float64 are joined as float64, and an integer made float is not always the float
    pandas parses from the same text)."""
    if s.dtype == object:
        return pd.api.types.infer_dtype(s, skipna=True) not in ("string", "empty")
    return s.dtype.kind == "f" and bool((np.abs(s.to_numpy()) >= 2.0 ** 53).any())


def _join(parts: list[pd.Series]) -> pd.Series | None:
    """The chunks of one column as one Series, or None when they are of kinds that only a
    read of the whole column settles (text in some chunks and numbers in others; signed and
    unsigned integers; integers of 2^53 or more with floats: numpy's common type would round)."""
    kinds = {p.dtype.kind for p in parts}
    if len(kinds) > 1 and not kinds <= set("iuf"):
        return None
    if len(kinds) > 1 and ("u" in kinds or any(
            bool(((p >= 2 ** 53) | (p <= -2 ** 53)).any()) for p in parts if p.dtype.kind == "i")):
        return None
    values = np.concatenate([p.to_numpy() for p in parts])  # numpy's common type: int with float is float
    return pd.Series(values, name=parts[0].name)


def _compact_series(s: pd.Series) -> pd.Series:
    if s.dtype.kind == "i" and len(s):
        lo, hi = int(s.min()), int(s.max())
        for dt in (np.int8, np.int16, np.int32):
            if np.iinfo(dt).min <= lo and hi <= np.iinfo(dt).max:
                return s.astype(dt)
    return s


def _compact(df: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({c: _compact_series(df[c]) for c in df.columns}, index=df.index)


def _keep_codes(plan: _Plan, df: pd.DataFrame) -> None:
    """Columns read as numbers that hold a value such as 0123: text, when every value is a
    whole number in digits (as :func:`read_data` does)."""
    cand = [c for c in plan.zero_fields if pd.api.types.is_numeric_dtype(df[c].dtype)
            and not pd.api.types.is_bool_dtype(df[c].dtype)]
    if not cand:
        return
    raw = next(_chunks_of(_Plan(plan.path, plan.sep, {**plan.kw, "usecols": cand}, tuple(cand), (), ()), 1 << 62,
                          {c: str for c in cand}))
    for c in cand:
        values = raw[c].dropna()
        if len(values) and is_code(values).all():
            df[c] = raw[c].to_numpy(dtype=object)

