"""Reading delimited text and Excel workbooks (the readers of :mod:`sdc._formats`' ``text``
and ``excel`` formats), and what a read did (:class:`ReadDetails`): the delimiter detected or
given, the missing-value markers, codes with leading zeros kept as text, the refusals of
malformed text (see :mod:`sdc.io`).
"""

from __future__ import annotations

import csv
import io
import lzma
import re
import warnings
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._excel import check_sheet
from sdc._stages import stage
from sdc._structure import WHITESPACE, check_structure, first_undecodable_line, not_utf8, open_binary
from sdc.exceptions import DataFileError, SdcWarning

__all__ = ["ReadDetails", "detect_delimiter", "delimiter", "DELIMITERS", "DEFAULT_NA_VALUES", "COMMON_NA_MARKERS",
           "COMPRESSIONS", "is_code"]

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
    format : {"text", "excel", "stata", "sas", "spss", "parquet", "r", "jsonl"}
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
    labels : sdc._labelled.Labels or None
        The variable and value labels and user-missing values of a labelled file (SPSS, SAS
        transport v8, R, Stata's variable labels).
    """

    path: str
    format: str
    na_values: tuple[str, ...] = DEFAULT_NA_VALUES
    missing: dict[str, int] = field(default_factory=dict)
    text_codes: tuple[str, ...] = ()
    text_columns: tuple[str, ...] = ()
    marker_values: dict[str, dict[str, int]] = field(default_factory=dict)
    labels: Any = None  # sdc._labelled.Labels of SPSS, SAS transport, R files (None: none)
    markers_read: bool = False  # the reader applied na_values (text and Excel: the formats that take them)

    def notes(self) -> list[str]:
        """Sentences for the report: the missing-value rule, codes read as text, markers kept."""
        out = []
        if self.markers_read:
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
        if self.labels:
            out.extend(self.labels.notes())
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


def _size(p: Path) -> str:
    n = float(p.stat().st_size)
    for unit in ("bytes", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return ""


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
    stage(f"reading {p.name} ({_size(p)})")
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
    return df, ReadDetails(str(p), "text", na, markers_read=True, text_codes=tuple(codes),
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
    check_sheet(p, which, df)  # title rows refused; merged cells and formulas without values said
    if not all_text:
        df = df.infer_objects()
        for c in named:
            df[c] = df[c].map(lambda v: v if v is None or (isinstance(v, float) and v != v) else str(v))
    return df, ReadDetails(str(p), "excel", na, markers_read=True, text_columns=tuple(map(str, df.columns)) if all_text else named)


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


_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe", "UTF-16LE"),
         (b"\xfe\xff", "UTF-16BE"))


def _utf16_or_32(head: bytes) -> str | None:
    """The UTF-16/32 encoding of text that starts with its byte-order mark, or whose zero bytes
    all fall on the high bytes of ASCII characters (UTF-16 without a mark); else None."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    even, odd = head[0::2], head[1::2]
    n = min(len(even), len(odd))
    if n >= 2:
        if odd[:n].count(0) >= 0.9 * n and even[:n].count(0) == 0:
            return "UTF-16LE"
        if even[:n].count(0) >= 0.9 * n and odd[:n].count(0) == 0:
            return "UTF-16BE"
    return None


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
        utf = _utf16_or_32(raw[:4096])
        if utf is not None:
            raise DataFileError(f"cannot read data file '{p}': it is {utf} text; sdc reads UTF-8: convert it "
                                f"(e.g. iconv -f {utf} -t UTF-8 '{p.name}' > {p.stem}-utf8{p.suffix}, or save it "
                                "as 'CSV UTF-8').")
        raise DataFileError(f"cannot read data file '{p}': it looks binary, not delimited text.")
    text = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="replace", newline="").read()
    return text[1:] if text.startswith("\ufeff") else text

