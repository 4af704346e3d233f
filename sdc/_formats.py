"""The data file formats, declared once each: how a file is recognised (its suffix, or its
first bytes where a suffix says nothing), how it is read, which reading options apply to it,
and (in :mod:`sdc.report.released`) how a release in the same format is written.

:data:`FORMATS` is the registry: :func:`sdc.io.read_data`, :func:`sdc.io.read_header`, the
command line's reading options and help, :func:`sdc.report.released.released_file` and the
Dask reader (which reads every part with :func:`sdc.io.read_data`) all look a file's format up
here (:func:`format_of`), so that adding a format is one :class:`Format` here (its reader) and,
if its releases are written in it, one writer in :mod:`sdc.report.released`.

The reading options (``sep``, ``na_values``, ``text_columns``, ``sheet``) are declared here
too (:data:`READ_OPTIONS`, :class:`sdc._schema.Option`), with the rules that check them, so
that ``read_data(sep="ab")``, ``[data].sep = "ab"`` and ``--sep ab`` are refused in the same
words.
"""

from __future__ import annotations

import csv
import io
import lzma
import re
import warnings
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._schema import Either, Flag, Names, Option, Options, Rule, Whole
from sdc._structure import WHITESPACE, check_structure, first_undecodable_line, not_utf8, open_binary
from sdc.exceptions import DataFileError, SdcWarning

__all__ = ["Format", "FORMATS", "format_of", "format_named", "takes", "data_help", "READ_OPTIONS", "SEP",
           "NA_VALUES", "TEXT_COLUMNS", "SHEET", "ReadDetails", "Request", "detect_delimiter", "delimiter",
           "DELIMITERS", "DEFAULT_NA_VALUES", "COMMON_NA_MARKERS", "COMPRESSIONS", "is_code"]

#: Candidate delimiters, in order of preference; "whitespace" means runs of blanks.
DELIMITERS = {",": ",", ";": ";", "\t": "\t", "|": "|"}
_SNIFF_BYTES = 1 << 16
#: What is read as missing when no `na_values` are given: the empty field only.
DEFAULT_NA_VALUES: tuple[str, ...] = ("",)
#: Markers that other tools read as missing (pandas' default list, R's NA). sdc reads them as
#: values unless named in `na_values`; the report counts them where they occur.
COMMON_NA_MARKERS = frozenset({
    "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA",
    "NULL", "NaN", "None", "n/a", "nan", "null",
})
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zip")
_CODE = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class ReadDetails:
    """What :func:`read_data_details` did to read a file (stated in the report).

    Attributes
    ----------
    path : str
    format : {"text", "excel", "stata", "sas"}
    na_values : tuple of str
        The markers read as missing (text and Excel files; Stata and SAS carry their own).
    missing : dict
        Per column, the number of values read as missing.
    text_codes : tuple of str
        Columns read as text because they hold codes with leading zeros.
    text_columns : tuple of str
        Columns read as text because the caller asked for it.
    marker_values : dict
        Per column, the common missing-value markers (``NA``, ``null``, ...) found and read as
        values, with their counts.
    """

    path: str
    format: str
    na_values: tuple[str, ...] = DEFAULT_NA_VALUES
    missing: dict[str, int] = field(default_factory=dict)
    text_codes: tuple[str, ...] = ()
    text_columns: tuple[str, ...] = ()
    marker_values: dict[str, dict[str, int]] = field(default_factory=dict)

    def notes(self) -> list[str]:
        """Sentences for the report: the missing-value rule, codes read as text, markers kept."""
        out = []
        if format_named(self.format).takes("na_values"):
            shown = [repr(v) for v in self.na_values if v != ""]
            out.append("Missing values: empty fields" + (f" and {', '.join(shown)}" if shown else " only")
                       + " were read as missing" + ("" if shown else " (the default; other markers are given with "
                                                    "na_values / --na-values)") + ".")
        if self.text_codes:
            out.append(f"Read as text (codes with leading zeros): {', '.join(self.text_codes)}.")
        for col, found in self.marker_values.items():
            vals = ", ".join(f"{v!r} ({n:,})" for v, n in found.items())
            out.append(f"Column {col!r} holds {vals}, read as value(s), not as missing; if they mean missing, "
                       f"give na_values (--na-values).")
        return out


def detect_delimiter(sample: str) -> str:
    """The delimiter of a CSV sample: the candidate that splits every line into the same,
    largest number of fields (quotes respected); else runs of whitespace; else comma."""
    lines = [ln for ln in sample.splitlines() if ln.strip()][:50]
    if len(lines) > 1 and not sample.endswith("\n"):
        lines = lines[:-1]  # the sample may cut the last line short
    if not lines:
        return ","
    best, best_fields = None, 1
    for cand in DELIMITERS:
        counts = {len(row) for row in csv.reader(lines, delimiter=cand)}
        if len(counts) == 1:
            (fields,) = counts
            if fields > best_fields:
                best, best_fields = cand, fields
    if best is not None:
        return best
    ws = {len(ln.split()) for ln in lines}
    if len(ws) == 1 and next(iter(ws)) > 1:
        return WHITESPACE
    return ","



# ---------------------------------------------------------------------------------------------
# The reading options, declared once (read_data's arguments, [data]'s keys, the flags)

@dataclass(frozen=True)
class Delimiter(Rule):
    """A delimiter: one character other than a quote or a line break, or ``"tab"`` / ``"\\t"``,
    or ``"whitespace"`` (runs of blanks)."""

    what: str = "one character other than a quote or a line break, 'tab' or 'whitespace'"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if value in ("whitespace", WHITESPACE, "\\t", "tab"):
            return None
        if not isinstance(value, str) or len(value) != 1 or value in ('"', "\n", "\r"):
            return ValueError, f"must be {self.what}"
        return None


@dataclass(frozen=True)
class Markers(Rule):
    """Missing-value markers: one string or a list of strings (the empty field always is one)."""

    what: str = "a list of markers (text) read as missing"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, Sequence) or not all(isinstance(v, str) for v in items):
            return TypeError, f"must be {self.what}"
        return None

    def convert(self, value: Any) -> tuple[str, ...]:
        items = [value] if isinstance(value, str) else value
        return tuple(v for v in dict.fromkeys(items) if v != "")


@dataclass(frozen=True)
class Sheet(Rule):
    """An Excel sheet: its name, or its 0-based number."""

    what: str = "a sheet name or a 0-based sheet number"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if isinstance(value, str) and value:
            return None
        return Whole(min=0).problem(value) and (TypeError, f"must be {self.what}")


#: ``sep``: the delimiter of a text file (default: detected).
SEP = Option("sep", Delimiter(), None, section="data", label="delimiter",
             help="CSV delimiter (default: detected); 'tab' or 'whitespace' allowed")
#: ``na_values``: markers read as missing besides the empty field.
NA_VALUES = Option("na_values", Markers(), (), section="data", label="read as missing", metavar="M1,M2",
                   help="markers read as missing besides empty fields, e.g. NA,. (default: only empty fields)")
#: ``text_columns``: columns read as text (True: every column; False: no code detection).
TEXT_COLUMNS = Option("text_columns", Either((Flag(), Names())), None, section="data", flag="--text",
                      metavar="COLS", label="read as text",
                      help="columns read as text (codes with leading zeros are, by default)")
#: ``sheet``: the sheet of a workbook.
SHEET = Option("sheet", Sheet(), None, section="data", label="sheet",
               help="Excel input: the sheet, by name or 0-based number (default: the first)")
#: The reading options, in the order of read_data's arguments and of a config's [data].
READ_OPTIONS = Options([SEP, NA_VALUES, TEXT_COLUMNS, SHEET])


@dataclass(frozen=True)
class Request:
    """What a reader is asked: the delimiter (as read, or None: detected), the columns read as
    text, the missing-value markers (the empty field first) and the sheet."""

    sep: str | None = None
    text_columns: bool | Sequence[str] | None = None
    na: tuple[str, ...] = DEFAULT_NA_VALUES
    sheet: str | int | None = None


# ---------------------------------------------------------------------------------------------
# Formats

@dataclass(frozen=True)
class Format:
    """One data file format, declared once.

    Attributes
    ----------
    name : str
        The name a read's details carry (:attr:`ReadDetails.format`) and the writers of
        :mod:`sdc.report.released` are keyed by.
    label : str
        Its name for a reader of messages (``"Excel"``).
    suffixes : tuple of str
        The file suffixes (lower case) that say a file is in this format.
    read : callable or None
        ``read(path, request) -> (DataFrame, ReadDetails)``; None: a format that is refused
        (`refusal` says why and what to do).
    options : tuple of str
        The reading options (:data:`READ_OPTIONS`) that apply. ``sheet`` given for a format
        that does not take it is refused; the others are ignored by formats that carry their
        own types and missing values (Stata, SAS).
    help : str
        The words of the command line's help for a data file (``"Stata .dta"``).
    magic : callable, optional
        ``magic(first_bytes) -> bool``: recognises a file by its content when its suffix is
        not one of any format's.
    header : callable, optional
        ``header(path, sep, sheet) -> list of names or None``: the column names without
        reading the records.
    binary : bool
        A truncated file fails deep inside pandas' reader: such errors are reported as a
        truncated or corrupt file.
    refusal : str
        Why a format that is recognised is not read.
    """

    name: str
    label: str
    suffixes: tuple[str, ...]
    read: Callable[[Path, Request], tuple[pd.DataFrame, ReadDetails]] | None
    options: tuple[str, ...] = ()
    help: str = ""
    magic: Callable[[bytes], bool] | None = None
    header: Callable[[Path, str | None, Any], list[str] | None] | None = None
    binary: bool = True
    refusal: str = ""

    def takes(self, option: str) -> bool:
        return option in self.options


def _read_stata(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    return pd.read_stata(p), ReadDetails(str(p), "stata", ())


def _read_sas(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    df = pd.read_sas(p, format="xport" if p.suffix.lower() == ".xpt" else "sas7bdat", encoding="utf-8")
    return df, ReadDetails(str(p), "sas", ())


def _text_file(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    return _read_text(p, request.sep, request.text_columns, request.na)


def _excel_file(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    return _read_excel(p, request.sheet, request.text_columns, request.na)


def _text_header(p: Path, sep: str | None, sheet: Any = None) -> list[str] | None:
    """The column names of a delimited text file's header, or None when it cannot be read."""
    try:
        _, sep = _sample_and_delimiter(p, sep)
        engine = "python" if sep == WHITESPACE else "c"
        return [str(c) for c in pd.read_csv(p, sep=sep, nrows=0, engine=engine).columns]
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError):
        return None


def _excel_header(p: Path, sep: str | None, sheet: Any = None) -> list[str] | None:
    import zipfile

    try:
        head = pd.read_excel(p, sheet_name=0 if sheet is None else sheet, header=None, nrows=1, engine="openpyxl")
    except (ValueError, OSError, ImportError, KeyError, zipfile.BadZipFile):
        return None
    return [str(v) for v in head.iloc[0].tolist()] if len(head) else None


def _read_jsonl(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    """JSON Lines: one object per line; values as typed in the file (a code written as a string
    stays text, ``null`` is missing), columns in the order of their first appearance."""
    df = pd.read_json(p, lines=True, dtype=False, convert_dates=False, encoding="utf-8")
    return df, ReadDetails(str(p), "jsonl", ())


def _jsonl_header(p: Path, sep: str | None, sheet: Any = None) -> list[str] | None:
    """The names of the first record's fields."""
    import json

    try:
        with open(p, encoding="utf-8") as fh:
            first = next((ln for ln in fh if ln.strip()), "")
        row = json.loads(first)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return [str(k) for k in row] if isinstance(row, dict) else None


_SAS7BDAT_MAGIC = bytes(12) + bytes.fromhex("c2ea8160b31411cfbd92080009c7318c181f1011")


def _stata_magic(head: bytes) -> bool:
    """Stata 13+ (``<stata_dta>``), or the fixed header of the older releases (format 104-115)."""
    return head.startswith(b"<stata_dta>") or (len(head) >= 4 and 104 <= head[0] <= 115 and head[1] in (1, 2)
                                               and head[2] == 1 and head[3] == 0)


def _excel_magic(head: bytes) -> bool:
    """A zip archive holding a workbook's parts (their names are in the first entries' headers)."""
    return head.startswith(b"PK\x03\x04") and (b"xl/" in head or b"[Content_Types].xml" in head)


#: The formats, the fallback (delimited text, for any other file) last.
FORMATS: tuple[Format, ...] = (
    Format("excel", "Excel", (".xlsx", ".xlsm"), _excel_file, ("na_values", "text_columns", "sheet"),
           help="Excel .xlsx", magic=_excel_magic, header=_excel_header),
    Format("excel-old", "old Excel", (".xls",), None,
           refusal="the old Excel format (.xls) is not supported; save it as .xlsx"),
    Format("stata", "Stata", (".dta",), _read_stata, help="Stata .dta", magic=_stata_magic),
    Format("sas", "SAS", (".sas7bdat", ".xpt"), _read_sas, help="SAS .sas7bdat/.xpt",
           magic=lambda head: head.startswith(_SAS7BDAT_MAGIC) or head.startswith(b"HEADER RECORD*******LIBRARY")),
    Format("jsonl", "JSON Lines", (".jsonl", ".ndjson"), _read_jsonl, help="JSON Lines .jsonl", header=_jsonl_header,
           binary=False),
    Format("text", "delimited text", (".csv", ".tsv", ".tab", ".txt", ".dat"), _text_file,
           ("sep", "na_values", "text_columns"), help="CSV (delimiter detected)", header=_text_header,
           binary=False),
)
_FALLBACK = FORMATS[-1]
#: Options refused (not ignored) for a format that does not take them.
_STRICT = ("sheet",)


def format_named(name: str) -> Format:
    """The format of a name (:attr:`ReadDetails.format`)."""
    return next(f for f in FORMATS if f.name == name)


def format_of(path: str | Path) -> Format:
    """The format of a file: by its suffix (a compressed text file's inner suffix does not
    matter), else by its first bytes, else delimited text."""
    p = Path(path)
    suffix = p.suffix.lower()
    for f in FORMATS:
        if suffix in f.suffixes:
            return f
    if suffix not in COMPRESSIONS and p.is_file():
        try:
            with open(p, "rb") as fh:
                head = fh.read(4096)
        except OSError:
            return _FALLBACK
        for f in FORMATS:
            if f.magic is not None and f.magic(head):
                return f
    return _FALLBACK


def takes(path_or_format: str | Path | Format, option: str) -> bool:
    """Whether the reading option applies to a file (or a format)."""
    f = path_or_format if isinstance(path_or_format, Format) else format_of(path_or_format)
    return f.takes(option)


def option_refusal(p: Path, fmt: Format, given: dict[str, Any]) -> str | None:
    """The one-line refusal of a strict option given for a file whose format does not take it
    (``"`sheet` is for Excel files (.xlsx, .xlsm); 'x.csv' is not one."``), or None."""
    for name in _STRICT:
        if given.get(name) is not None and not fmt.takes(name):
            return f"`{name}` is for {option_formats(name)}; '{p}' is not one."
    return None


def option_formats(option: str) -> str:
    """``"Excel files (.xlsx, .xlsm)"``: the formats an option is for, for messages."""
    fs = [f for f in FORMATS if f.takes(option)]
    return " or ".join(f"{f.label} files ({', '.join(f.suffixes)})" for f in fs)


def data_help() -> str:
    """The command line's help for a data file: ``"CSV (delimiter detected), Excel .xlsx, ... file"``."""
    helps = [f.help for f in (_FALLBACK, *FORMATS[:-1]) if f.help]
    return (", ".join(helps[:-1]) + " or " + helps[-1] if len(helps) > 1 else helps[0]) + " file"


def read_file(p: Path, fmt: Format, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    """`p` read by its format's reader (a refused format raises its refusal)."""
    if fmt.read is None:
        raise DataFileError(f"cannot read data file '{p}': {fmt.refusal}.")
    return fmt.read(p, request)


def _na_values(na_values: str | Sequence[str] | None) -> tuple[str, ...]:
    if na_values is None:
        return DEFAULT_NA_VALUES
    if isinstance(na_values, str):
        na_values = [na_values]
    if not all(isinstance(v, str) for v in na_values):
        raise TypeError(f"`na_values` must be a string or a list of strings; got {list(na_values)!r}.")
    return tuple(dict.fromkeys(["", *na_values]))


def _text_request(text_columns: bool | Sequence[str] | None) -> tuple[bool, tuple[str, ...], bool]:
    """(every column as text, the named ones, detect codes)."""
    if text_columns is None:
        return False, (), True
    if isinstance(text_columns, bool):
        return text_columns, (), False
    if isinstance(text_columns, str):
        text_columns = [text_columns]
    cols = tuple(text_columns)
    if not all(isinstance(c, str) for c in cols):
        raise TypeError(f"`text_columns` must be True, False or a list of column names; got {list(cols)!r}.")
    return False, cols, True


def _check_text_columns(p: Path, header: Sequence[str], cols: Sequence[str]) -> None:
    unknown = [c for c in cols if c not in header]
    if unknown:
        raise DataFileError(f"cannot read data file '{p}': `text_columns` names columns not in its header: "
                            f"{', '.join(map(repr, unknown))}.")


def _check_header(p: Path, header: Sequence[object]) -> None:
    seen: dict[str, int] = {}
    for i, name in enumerate(header, 1):
        key = str(name)
        if key in seen:
            raise DataFileError(f"cannot read data file '{p}': the header names column {key!r} twice (columns "
                                f"{seen[key]} and {i}); rename one so that no column is renamed or lost.")
        seen[key] = i

def _reason(p: Path, exc: BaseException) -> str:
    """The first line of a reading error; for text that is not UTF-8, the file's line."""
    if isinstance(exc, UnicodeDecodeError) or "codec can't decode" in str(exc):
        line = first_undecodable_line(p)
        if line is not None:
            return not_utf8(line)
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def is_code(values: pd.Series) -> pd.Series:
    """Whether each text value is a whole number written in digits (a code such as 0123)."""
    return values.str.fullmatch(_CODE.pattern).fillna(False).astype(bool)


def delimiter(sep: str) -> str:
    """A delimiter as given (one character, ``"tab"`` or ``\\t``, ``"whitespace"``) as read:
    the character, or the pattern of runs of blanks. Anything else is refused, naming `sep`."""
    if sep == "whitespace" or sep == WHITESPACE:
        return WHITESPACE
    if sep in ("\\t", "tab"):
        return "\t"
    if not isinstance(sep, str) or len(sep) != 1 or sep in ('"', "\n", "\r"):
        raise ValueError(f"`sep` must be one character other than a quote or a line break, 'tab' or "
                         f"'whitespace'; got {sep!r}.")
    return sep


def _read_text(p: Path, sep: str | None, text_columns: bool | Sequence[str] | None, na: tuple[str, ...]
               ) -> tuple[pd.DataFrame, ReadDetails]:
    sample, sep = _sample_and_delimiter(p, sep)
    all_text, named, detect = _text_request(text_columns)
    scan = check_structure(p, sep, sample)
    if scan is not None:
        _check_header(p, scan.header)
        if named:
            _check_text_columns(p, scan.header, named)
    dtype: object = str if all_text else ({c: str for c in named} or None)
    kw = {"keep_default_na": False, "na_values": list(na), "dtype": dtype}
    try:
        if sep == WHITESPACE:
            df = pd.read_csv(p, sep=WHITESPACE, engine="python", **kw)
        else:
            df = pd.read_csv(p, sep=sep, low_memory=False, float_precision=_FLOATS, **kw)
    except pd.errors.EmptyDataError:
        raise DataFileError(f"data file '{p}' is empty.") from None
    codes: list[str] = []
    if detect and not all_text and scan is not None and scan.zero_fields:
        # Columns with a value such as 0123 that pandas read as numbers: read them again as text,
        # and keep the text when every value is a whole number written in digits (a code).
        cand = [str(df.columns[i]) for i in sorted(scan.zero_fields)
                if i < df.shape[1] and str(df.columns[i]) not in named
                and pd.api.types.is_numeric_dtype(df.dtypes.iloc[i]) and not pd.api.types.is_bool_dtype(df.dtypes.iloc[i])]
        if cand:
            raw_kw = {**kw, "dtype": str}
            if sep == WHITESPACE:
                raw = pd.read_csv(p, sep=WHITESPACE, engine="python", usecols=cand, **raw_kw)
            else:
                raw = pd.read_csv(p, sep=sep, low_memory=False, usecols=cand, **raw_kw)
            for c in cand:
                values = raw[c].dropna()
                if len(values) and is_code(values).all():
                    df[c] = raw[c].to_numpy(dtype=object)
                    codes.append(c)
    return df, ReadDetails(str(p), "text", na, text_codes=tuple(codes),
                           text_columns=tuple(map(str, df.columns)) if all_text else named)


def _read_excel(p: Path, sheet: str | int | None, text_columns: bool | Sequence[str] | None, na: tuple[str, ...]
                ) -> tuple[pd.DataFrame, ReadDetails]:
    try:
        import openpyxl  # noqa: F401  (pandas' engine for .xlsx)
    except ImportError:
        raise DataFileError(f"cannot read data file '{p}': reading Excel files needs the 'openpyxl' package.") from None
    all_text, named, _ = _text_request(text_columns)
    which = 0 if sheet is None else sheet
    try:
        head = pd.read_excel(p, sheet_name=which, header=None, nrows=1, engine="openpyxl")
    except ValueError as exc:  # an unknown sheet
        raise DataFileError(f"cannot read data file '{p}': {str(exc).strip()}") from None
    header = [v for v in head.iloc[0].tolist()] if len(head) else []
    _check_header(p, header)
    if named:
        _check_text_columns(p, [str(h) for h in header], named)
    # Cells are read as they are typed in the workbook (pandas would turn the text cell "02134"
    # into the number 2134); a column of number cells becomes numbers, one with text cells stays text.
    df = pd.read_excel(p, sheet_name=which, engine="openpyxl", keep_default_na=False, na_values=list(na),
                       dtype=str if all_text else object)
    if not all_text:
        df = df.infer_objects()
        for c in named:
            df[c] = df[c].map(lambda v: v if v is None or (isinstance(v, float) and v != v) else str(v))
    return df, ReadDetails(str(p), "excel", na, text_columns=tuple(map(str, df.columns)) if all_text else named)


def _marker_values(df: pd.DataFrame, na: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """Per text column, the common missing markers it holds as values (not in `na`)."""
    markers = sorted(COMMON_NA_MARKERS - set(na))
    out: dict[str, dict[str, int]] = {}
    for col in df.columns:
        s = df[col]
        if not (pd.api.types.is_object_dtype(s.dtype) or pd.api.types.is_string_dtype(s.dtype)):
            continue
        hit = s.isin(markers)
        if hit.any():
            counts = s[hit].value_counts(sort=False)
            out[str(col)] = {str(v): int(counts[v]) for v in sorted(counts.index, key=str)}
    return out


def _warn_numbers_with_markers(df: pd.DataFrame, details: ReadDetails) -> None:
    """A column of numbers but for markers such as NA is text now: say so, and how to declare them."""
    for col, found in details.marker_values.items():
        s = df[col]
        rest = s[~s.isin(list(found)) & s.notna()]
        if len(rest) and pd.to_numeric(rest, errors="coerce").notna().all():
            vals = ", ".join(repr(v) for v in found)
            warnings.warn(f"column {col!r} holds numbers and {vals}, which is read as a value, not as missing, so "
                          f"the column is text; if {vals} means missing, give na_values=[{vals}] (--na-values).",
                          SdcWarning, stacklevel=4)


def _sample_and_delimiter(p: Path, sep: str | None) -> tuple[str, str]:
    """The file's first bytes as text, and its delimiter: `sep` as read (:func:`delimiter`),
    or detected from those bytes when None."""
    sample = _sample(p)
    return sample, detect_delimiter(sample) if sep is None else delimiter(sep)


# pandas' C parser's default float conversion is not exact: it gave another double for 14 % of
# numbers written in Python's shortest form (0.9412864224039919 read as 0.941286422403992), so a
# released file changed columns no step touched. "round_trip" parses as Python does: exact (and
# not slower on the survey files).
_FLOATS = "round_trip"

# What a corrupt compressed file raises, besides OSError (gzip, bz2): lzma's and zlib's own.
_DECOMPRESSION_ERRORS = (EOFError, lzma.LZMAError, zlib.error)


def _sample(p: Path) -> str:
    """The first bytes of a text file, decompressed if needed, as text."""
    try:
        with open_binary(p) as fh:
            raw = fh.read(_SNIFF_BYTES)
    except DataFileError:
        raise
    except (OSError, *_DECOMPRESSION_ERRORS) as exc:
        suffix = p.suffix.lower()
        if suffix not in (".gz", ".bz2", ".xz", ".zip"):
            raise
        raise DataFileError(f"cannot read data file '{p}': not a valid {suffix} file, or a truncated one "
                            f"({exc}).") from None
    if b"\x00" in raw[:4096]:
        raise DataFileError(f"cannot read data file '{p}': it looks binary, not delimited text.")
    text = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="replace", newline="").read()
    return text[1:] if text.startswith("\ufeff") else text
