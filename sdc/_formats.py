"""The data file formats, declared once each: how a file is recognised (its suffix, or its
first bytes where a suffix says nothing), how it is read, which reading options apply to it,
and (in :mod:`sdc.report.released`) how a release in the same format is written.

:data:`FORMATS` is the registry: :func:`sdc.io.read_data`, :func:`sdc.io.read_header`, the
command line's reading options and help, :func:`sdc.report.released.released_file` and the
Dask reader (which reads every part with :func:`sdc.io.read_data`) all look a file's format up
here (:func:`format_of`), so that adding a format is one :class:`Format` here (its reader) and,
if its releases are written in it, one writer in :mod:`sdc.report.released`. The readers of
delimited text and Excel, which carry the refusals of malformed text, are in :mod:`sdc._readers`.

The reading options (``sep``, ``na_values``, ``text_columns``, ``sheet``) are declared here
too (:data:`READ_OPTIONS`, :class:`sdc._schema.Option`), with the rules that check them, so
that ``read_data(sep="ab")``, ``[data].sep = "ab"`` and ``--sep ab`` are refused in the same
words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._readers import (
    COMMON_NA_MARKERS, COMPRESSIONS, DEFAULT_NA_VALUES, DELIMITERS, ReadDetails, _excel_header, _read_excel, _read_text,
    _text_header, delimiter, detect_delimiter, is_code,
)
from sdc._schema import Either, Flag, Names, Option, Options, Rule, Whole
from sdc._structure import WHITESPACE
from sdc.exceptions import DataFileError

__all__ = ["Format", "FORMATS", "format_of", "format_named", "takes", "data_help", "READ_OPTIONS", "SEP",
           "NA_VALUES", "TEXT_COLUMNS", "SHEET", "ReadDetails", "Request", "detect_delimiter", "delimiter",
           "DELIMITERS", "DEFAULT_NA_VALUES", "COMMON_NA_MARKERS", "COMPRESSIONS", "is_code"]

#: Candidate delimiters, in order of preference; "whitespace" means runs of blanks.
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
    """sas7bdat and transport v5 through pandas; transport v8 (which pandas cannot read)
    through pyreadstat or R's haven."""
    from sdc._labelled import xpt_version

    with open(p, "rb") as fh:
        version = xpt_version(fh.read(128))
    if version == 8:
        df, labels = _spss_or_xpt8(p, "xpt", "SAS transport v8")
        return df, ReadDetails(str(p), "sas", (), labels=labels)
    df = pd.read_sas(p, format="xport" if version == 5 else "sas7bdat", encoding="utf-8")
    return df, ReadDetails(str(p), "sas", ())


def _spss_or_xpt8(p: Path, kind: str, what: str) -> tuple[pd.DataFrame, Any]:
    """pyreadstat where installed, else R's haven, else the one-line refusal naming the extra."""
    from sdc._labelled import has_module, missing_extra, pyreadstat_read

    if has_module("pyreadstat"):
        return pyreadstat_read(p, kind)
    from sdc._formats_r import r_route, read_with_r

    why = r_route("haven")
    if why is not None:
        raise missing_extra(p, what, "spss", "pyreadstat", f" or R with haven ({why})")
    return read_with_r(p, kind)


def _read_spss(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    df, labels = _spss_or_xpt8(p, "sav", "SPSS")
    return df, ReadDetails(str(p), "spss", (), labels=labels)


def _read_parquet(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    from sdc._labelled import has_module, missing_extra

    if has_module("pyarrow"):
        return pd.read_parquet(p, engine="pyarrow"), ReadDetails(str(p), "parquet", ())
    from sdc._formats_r import r_route, read_with_r

    why = r_route("arrow")
    if why is not None:
        raise missing_extra(p, "Parquet", "parquet", "pyarrow", f" or R with arrow ({why})")
    df, labels = read_with_r(p, "parquet")
    return df, ReadDetails(str(p), "parquet", (), labels=labels)


def _read_r(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    from sdc._formats_r import r_route, read_with_r
    from sdc._labelled import r_magic

    why = r_route("haven")
    if why is not None:
        raise DataFileError(f"cannot read data file '{p}': R's .rds/.RData files are read through R (pip install "
                            f"'sdc-microdata[r]', with R and its haven package); {why}.")
    with open(p, "rb") as fh:
        kind = r_magic(fh.read(4096)) or ("rdata" if p.suffix.lower() in (".rdata", ".rda") else "rds")
    df, labels = read_with_r(p, kind)
    return df, ReadDetails(str(p), "r", (), labels=labels)


def _text_file(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    return _read_text(p, request.sep, request.text_columns, request.na)


def _excel_file(p: Path, request: Request) -> tuple[pd.DataFrame, ReadDetails]:
    return _read_excel(p, request.sheet, request.text_columns, request.na)


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


def _xpt(head: bytes) -> bool:
    from sdc._labelled import xpt_version

    return xpt_version(head) is not None


def _spss(head: bytes) -> bool:
    from sdc._labelled import spss_magic

    return spss_magic(head)


def _parquet(head: bytes) -> bool:
    from sdc._labelled import parquet_magic

    return parquet_magic(head)


def _r_file(head: bytes) -> bool:
    from sdc._labelled import r_magic

    return r_magic(head) is not None


#: The formats, the fallback (delimited text, for any other file) last.
FORMATS: tuple[Format, ...] = (
    Format("excel", "Excel", (".xlsx", ".xlsm"), _excel_file, ("na_values", "text_columns", "sheet"),
           help="Excel .xlsx", magic=_excel_magic, header=_excel_header),
    Format("excel-old", "old Excel", (".xls",), None,
           refusal="the old Excel format (.xls) is not supported; save it as .xlsx"),
    Format("stata", "Stata", (".dta",), _read_stata, help="Stata .dta", magic=_stata_magic),
    Format("sas", "SAS", (".sas7bdat", ".xpt"), _read_sas, help="SAS .sas7bdat/.xpt",
           magic=lambda head: head.startswith(_SAS7BDAT_MAGIC) or _xpt(head)),
    Format("spss", "SPSS", (".sav", ".zsav"), _read_spss, help="SPSS .sav/.zsav", magic=_spss),
    Format("parquet", "Parquet", (".parquet", ".parq"), _read_parquet, help="Parquet", magic=_parquet),
    Format("r", "R", (".rds", ".rdata", ".rda"), _read_r, help="R .rds/.RData", magic=_r_file),
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
    """The format of a file: by its content (the first bytes of a binary format: a Parquet
    file named ``.csv`` is Parquet), else by its suffix (a compressed text file's inner suffix
    does not matter), else delimited text."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in COMPRESSIONS and p.is_file():
        try:
            with open(p, "rb") as fh:
                head = fh.read(4096)
        except OSError:
            head = b""
        for f in FORMATS:
            if f.magic is not None and f.magic(head):
                return f
    for f in FORMATS:
        if suffix in f.suffixes:
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


