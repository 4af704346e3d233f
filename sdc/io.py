"""Reading microdata files: CSV (delimiter detected or given), Excel, Stata and SAS.

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

import csv
import io
import re
import struct
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pandas as pd

from sdc.exceptions import DataFileError, SdcWarning

__all__ = ["read_data", "read_data_details", "ReadDetails", "detect_delimiter", "DELIMITERS", "DEFAULT_NA_VALUES",
           "COMMON_NA_MARKERS", "EXCEL_SUFFIXES", "read_columns", "iter_columns", "CHUNK_ROWS"]

#: Candidate delimiters, in order of preference; "whitespace" means runs of blanks.
DELIMITERS = {",": ",", ";": ";", "\t": "\t", "|": "|"}
_WHITESPACE = r"\s+"
_SNIFF_BYTES = 1 << 16
_CHUNK = 1 << 22  # bytes per step of the structure check

#: What is read as missing when no `na_values` are given: the empty field only.
DEFAULT_NA_VALUES: tuple[str, ...] = ("",)
#: Markers that other tools read as missing (pandas' default list, R's NA). sdc reads them as
#: values unless named in `na_values`; the report counts them where they occur.
COMMON_NA_MARKERS = frozenset({
    "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA",
    "NULL", "NaN", "None", "n/a", "nan", "null",
})
EXCEL_SUFFIXES = (".xlsx", ".xlsm")
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
        if self.format in ("text", "excel"):
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
        return _WHITESPACE
    return ","


def read_data(path: str | Path, *, sep: str | None = None, text_columns: bool | Sequence[str] | None = None,
              na_values: str | Sequence[str] | None = None, sheet: str | int | None = None) -> pd.DataFrame:
    """Read a microdata file into a DataFrame.

    Parameters
    ----------
    path : str or Path
        ``.xlsx``/``.xlsm`` (Excel), ``.dta`` (Stata), ``.sas7bdat`` / ``.xpt`` (SAS), anything
        else as delimited text (optionally ``.gz``/``.bz2``/``.zip``/``.xz`` compressed).
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
    if not p.exists():
        raise DataFileError(f"cannot read data file '{p}': no such file.")
    if p.is_dir():
        raise DataFileError(f"cannot read data file '{p}': it is a directory.")
    na = _na_values(na_values)
    suffix = p.suffix.lower()
    try:
        if suffix == ".dta":
            df, details = pd.read_stata(p), ReadDetails(str(p), "stata", ())
        elif suffix in (".sas7bdat", ".xpt"):
            df = pd.read_sas(p, format="sas7bdat" if suffix == ".sas7bdat" else "xport", encoding="utf-8")
            details = ReadDetails(str(p), "sas", ())
        elif suffix == ".xls":
            raise DataFileError(f"cannot read data file '{p}': the old Excel format (.xls) is not supported; "
                                "save it as .xlsx.")
        elif suffix in EXCEL_SUFFIXES:
            df, details = _read_excel(p, sheet, text_columns, na)
        else:
            df, details = _read_text(p, sep, text_columns, na)
    except DataFileError:
        raise
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError, EOFError, KeyError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataFileError(f"cannot read data file '{p}': {msg}") from None
    except (struct.error, TypeError, StopIteration, IndexError) as exc:
        # A truncated or corrupt binary file fails deep inside pandas' readers (struct.error,
        # ord() of an empty read, a header iterator running out), which pandas releases differ on.
        if suffix not in (".dta", ".sas7bdat", ".xpt", *EXCEL_SUFFIXES):
            raise
        raise DataFileError(f"cannot read data file '{p}': the file is truncated or corrupt "
                            f"({type(exc).__name__}: {exc}).") from None
    if df.shape[1] == 0 or len(df) == 0:
        raise DataFileError(f"data file '{p}' has no records.")
    missing = {str(c): int(n) for c, n in df.isna().sum().items()}
    details = ReadDetails(details.path, details.format, details.na_values, missing, details.text_codes,
                          details.text_columns, _marker_values(df, na) if details.format in ("text", "excel") else {})
    _warn_numbers_with_markers(df, details)
    return df, details


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


def _read_text(p: Path, sep: str | None, text_columns: bool | Sequence[str] | None, na: tuple[str, ...]
               ) -> tuple[pd.DataFrame, ReadDetails]:
    sample = _sample(p)
    if sep is None:
        sep = detect_delimiter(sample)
    elif sep == "whitespace":
        sep = _WHITESPACE
    elif sep in ("\\t", "tab"):
        sep = "\t"
    all_text, named, detect = _text_request(text_columns)
    scan = _check_structure(p, sep, sample)
    if scan is not None:
        _check_header(p, scan.header)
        if named:
            _check_text_columns(p, scan.header, named)
    dtype: object = str if all_text else ({c: str for c in named} or None)
    kw = {"keep_default_na": False, "na_values": list(na), "dtype": dtype}
    try:
        if sep == _WHITESPACE:
            df = pd.read_csv(p, sep=_WHITESPACE, engine="python", **kw)
        else:
            df = pd.read_csv(p, sep=sep, low_memory=False, **kw)
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
            if sep == _WHITESPACE:
                raw = pd.read_csv(p, sep=_WHITESPACE, engine="python", usecols=cand, **raw_kw)
            else:
                raw = pd.read_csv(p, sep=sep, low_memory=False, usecols=cand, **raw_kw)
            for c in cand:
                values = raw[c].dropna()
                if len(values) and values.map(lambda v: _CODE.fullmatch(v) is not None).all():
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


# ----------------------------------------------------------------------------------------
# The structure of a delimited text file, checked before pandas reads it
# ----------------------------------------------------------------------------------------
@dataclass
class _Scan:
    header: list[str]
    zero_fields: set[int]


def _check_structure(p: Path, sep: str, sample: str) -> _Scan | None:
    """Refuse rows with the wrong number of fields and stray carriage returns; find the fields
    holding a value that starts with a 0 followed by a digit. None: not checked (a separator of
    several characters or a regular expression)."""
    if sep == _WHITESPACE:
        return _check_whitespace(p)
    if len(sep) != 1 or len(sep.encode("utf-8")) != 1 or sep in "\"\r\n":
        return None
    header = next(csv.reader(io.StringIO(sample, newline=""), delimiter=sep), [])
    cr_only = "\n" not in sample and "\r" in sample
    with _open_binary(p) as fh:
        problem, zeros = _scan_bytes(_chunks(fh), ord(sep), 13 if cr_only else 10)
    if problem is not None and problem[0] == "quotes":
        # The fast scan assumes RFC 4180 quoting; a quote inside an unquoted field (5'10")
        # confuses it, so let Python's csv reader (which pandas agrees with) decide.
        problem = _csv_problem(p, sep, cr_only)
    if problem is not None:
        raise DataFileError(f"cannot read data file '{p}': {problem[1]}")
    return _Scan(header=header, zero_fields=zeros)


def _check_whitespace(p: Path) -> _Scan:
    header: list[str] | None = None
    zeros: set[int] = set()
    first_bad, bad_fields, n_bad = 0, 0, 0
    with _open_text(p, newline=None) as fh:
        for lineno, line in enumerate(fh, 1):
            fields = line.split()
            if not fields:
                continue
            if header is None:
                header = fields
                continue
            if len(fields) != len(header):
                n_bad += 1
                if not first_bad:
                    first_bad, bad_fields = lineno, len(fields)
            zeros.update(i for i, f in enumerate(fields) if len(f) > 1 and f[0] == "0" and f[1].isdigit())
    if n_bad:
        raise DataFileError(f"cannot read data file '{p}': {_fields_message(first_bad, bad_fields, len(header or []), n_bad)}")
    return _Scan(header=header or [], zero_fields=zeros)


def _fields_message(line: int, fields: int, header: int, n_bad: int) -> str:
    what = " (a truncated row?)" if fields < header else ""
    more = f"; {n_bad:,} lines differ in all" if n_bad > 1 else ""
    return (f"line {line:,} has {fields} field(s) where the header has {header}{what}{more}. Fix the file "
            f"(or quote fields that hold the delimiter); sdc does not pad or cut rows.")


def _cr_message(line: int) -> str:
    return (f"line {line:,} holds a carriage return (CR) outside quotes, which would split its record in two; "
            "fix the line ends (e.g. with dos2unix) or quote the field.")


def _scan_bytes(chunks: Iterator[bytes], sep: int, newline: int) -> tuple[tuple[str, str] | None, set[int]]:
    """One pass over the bytes, vectorised per chunk: (problem or None, fields with a leading-zero value).

    The problem is ("fields" | "cr" | "quotes", message); "quotes" means the file has quotes and
    the quote-parity view (RFC 4180) found a problem, to be confirmed by the csv module.
    Field indices are 0-based; a field of the header may be among them (the caller checks the
    values).
    """
    parity = 0             # inside a quoted field at the end of the previous chunk
    lines_before = 0       # physical line ends before this chunk
    carry_seps = 0         # separators so far on the current, unfinished line
    carry_content = False  # the unfinished line has content
    carry_start = 1        # physical line number where the unfinished line started
    prev3, prev2, prev = newline, newline, newline  # the bytes before this chunk (a line start at the beginning)
    header_fields = -1
    first_bad, bad_fields, n_bad = 0, 0, 0
    bare_cr = 0
    quotes = False
    zeros: set[int] = set()
    pending = b""
    for raw in chunks:
        final = raw == b""
        buf = pending + raw
        if final:
            buf += bytes([newline])  # ends the last line, whether or not the file does
            pending = b""
        elif buf.endswith(b"\r"):
            buf, pending = buf[:-1], b"\r"  # is the CR followed by an LF? the next chunk tells
        else:
            pending = b""
        if not buf:
            continue
        a = np.frombuffer(buf, dtype=np.uint8)
        # The previous chunk's last byte, a '0' starting a field, with its next byte here a digit.
        if prev == 48 and 0 <= int(a[0]) - 48 <= 9 and (
                (parity == 0 and prev2 in (sep, 10, 13)) or (prev2 == 34 and prev3 in (sep, 10, 13))):
            zeros.add(carry_seps)
        # A byte search (memchr) first: most files hold no quote and no CR at all.
        has_quote = buf.find(b'"') >= 0
        if (not has_quote and parity == 0 and header_fields > 0 and newline == 10 and prev != 34
                and buf.find(b"\r") < 0):
            plain = _plain_lines(a, sep, header_fields - 1, carry_seps, carry_content, prev)
            if plain is not None:  # every line of the chunk is right and holds no leading zero
                n_nl, carry_seps, carry_content = plain
                lines_before += n_nl
                carry_start = lines_before + 1
                prev3, prev2, prev = ([prev3, prev2, prev] + [int(b) for b in a[-3:]])[-3:]
                continue
        isq = a == 34 if has_quote else None
        plain = parity == 0 and not has_quote  # no quote: every byte is outside quotes
        if not plain and has_quote:
            quotes = True
            par = (np.cumsum(isq, dtype=np.int64) + parity) & 1
            outside = par == 0
            parity = int(par[-1])
        elif not plain:
            outside = np.full(a.size, parity == 0)
        else:
            outside = None  # all True: the masks below skip it
        # Positions of the line ends and separators (outside quotes); csep(i), the separators
        # up to and including byte i, is a binary search in them (cheaper than a running count
        # over every byte).
        if outside is None:  # one pass finds both
            hits = np.flatnonzero((a == newline) | (a == sep))
            at_nl = a[hits] == newline
            j = np.flatnonzero(at_nl)
            nl = phys = hits[j]
            sep_at = hits[~at_nl]
            seps_to_nl = j - np.arange(j.size)  # the hits before the j-th line end that are separators
        else:
            is_nl = a == newline
            phys = np.flatnonzero(is_nl)
            nl = np.flatnonzero(is_nl & outside)
            sep_at = np.flatnonzero((a == sep) & outside)
            seps_to_nl = np.searchsorted(sep_at, nl, side="right")

        def csep(i: np.ndarray) -> np.ndarray:
            return np.searchsorted(sep_at, i, side="right")

        if newline == 10 and not bare_cr and buf.find(b"\r") >= 0:
            cr = np.flatnonzero(a == 13 if outside is None else (a == 13) & outside)
            if cr.size:
                bare = cr[a[cr + 1] != 10]  # never the last byte: held back, or the final newline follows
                if bare.size:
                    bare_cr = lines_before + 1 + int(np.searchsorted(phys, bare[0]))
        # Segment j of this chunk runs from starts[j] to ends[j] (exclusive): the first continues
        # the unfinished line, the last is unfinished (after the final newline: empty).
        starts = np.r_[0, nl + 1]
        ends = np.r_[nl, a.size]
        before_start = np.r_[0, seps_to_nl]  # separators before each segment (a newline is none)
        seps = (np.r_[before_start[1:], sep_at.size] - before_start).astype(np.int64)
        seps[0] += carry_seps
        length = ends - starts
        content = (length > 1) | ((length == 1) & (a[np.minimum(starts, a.size - 1)] != 13))
        content[0] |= carry_content
        if outside is None:  # every line end is a record end: segment j starts after j line ends
            line_no = lines_before + 1 + np.arange(starts.size, dtype=np.int64)
        else:
            line_no = lines_before + 1 + np.searchsorted(phys, starts)
        line_no[0] = carry_start
        done = starts.size - 1
        idx = np.flatnonzero(content[:done])
        if idx.size and header_fields < 0:
            header_fields = int(seps[idx[0]]) + 1
            idx = idx[1:]
        wrong = idx[seps[idx] + 1 != header_fields]
        if wrong.size:
            if not first_bad:
                first_bad, bad_fields = int(line_no[wrong[0]]), int(seps[wrong[0]]) + 1
            n_bad += int(wrong.size)
        # Leading zeros: a '0' followed by a digit at the start of a field (or after its opening quote).
        # Candidates: the first two bytes of the chunk, and each field's first byte (after a
        # separator or a line end) and, after an opening quote, its second.
        z = np.concatenate([np.arange(min(2, a.size)), sep_at + 1, nl + 1])
        if has_quote:
            q = z[z < a.size]
            z = np.concatenate([z, q[a[q] == 34] + 1])
        z = z[z < a.size - 1]
        z = z[(a[z] == 48) & ((a[z + 1] - np.uint8(48)) <= 9)]  # uint8: below '0' wraps above 9
        if z.size:
            ext = np.concatenate([np.array([prev2, prev], dtype=np.uint8), a])
            b1, b2 = ext[z + 1], ext[z]  # a[z - 1], a[z - 2]
            ends_field = (b1 == sep) | (b1 == 10) | (b1 == 13)
            opener = (b1 == 34) & ((b2 == sep) | (b2 == 10) | (b2 == 13))
            keep = z[(ends_field if outside is None else ends_field & outside[z]) | opener]
            if keep.size:
                seg = np.searchsorted(nl, keep)
                col = csep(keep) - before_start[seg] + np.where(seg == 0, carry_seps, 0)
                zeros.update(int(c) for c in np.unique(col))
        carry_seps, carry_content, carry_start = int(seps[-1]), bool(content[-1]), int(line_no[-1])
        lines_before += int(phys.size)
        prev3, prev2, prev = ([prev3, prev2, prev] + [int(b) for b in a[-3:]])[-3:]
    if parity:  # a quote left open: not RFC 4180 quoting (5'10"), so the view above may be wrong
        return ("quotes", "unbalanced quotes"), zeros
    if bare_cr:
        return (("quotes" if quotes else "cr"), _cr_message(bare_cr)), zeros
    if n_bad:
        return (("quotes" if quotes else "fields"), _fields_message(first_bad, bad_fields, header_fields, n_bad)), zeros
    return None, zeros


def _plain_lines(a: np.ndarray, sep: int, seps: int, carry_seps: int, carry_content: bool, prev: int
                 ) -> tuple[int, int, bool] | None:
    """The cheap check of a chunk without quotes or CRs, the header known: (line ends, separators
    and content of the unfinished last line), or None when the chunk needs the full scan (a line
    with the wrong number of fields, a value that may start with 0 and a digit, no line end).

    A line is right when it holds `seps` separators. Counting them per line in uint8 (uint16)
    can only be fooled by a line with 256 (65,536) more, and the exact total of the chunk's
    lines rules that out: a line cannot hold fewer than none.
    """
    nl = np.flatnonzero(a == 10)
    if nl.size == 0:
        return None
    if a.size > 1 and a[0] == 48 and prev in (sep, 10, 13) and int(a[1]) - 48 in range(10):
        return None
    # a '0' starting a field (after a separator or a line end) followed by a digit: a byte pair
    # search, at even and then odd offsets, on the bytes viewed as uint16 (little-endian)
    for off in (0, 1):
        m = (a.size - off) // 2
        pairs = a[off: off + 2 * m].view("<u2")
        z = np.flatnonzero((pairs == sep | 48 << 8) | (pairs == 10 | 48 << 8)) * 2 + off + 1
        z = z[z < a.size - 1]
        if z.size and ((a[z + 1] - np.uint8(48)) <= 9).any():
            return None
    is_sep = a == sep
    if carry_content or nl[0] > 0:
        if carry_seps + int(np.count_nonzero(is_sep[:nl[0]])) != seps:
            return None
    if nl.size > 1:
        width = np.uint8 if seps < 255 else np.uint16 if seps < 65535 else None
        if width is None:
            return None
        per_line = np.add.reduceat(is_sep[:nl[-1]], nl[:-1], dtype=width)  # line i + 1's separators
        content = np.diff(nl) > 1
        if (per_line[content] != seps).any():
            return None
        if int(np.count_nonzero(is_sep[nl[0]:nl[-1]])) != seps * int(np.count_nonzero(content)):
            return None
    return int(nl.size), int(np.count_nonzero(is_sep[nl[-1] + 1:])), bool(a.size > nl[-1] + 1)


def _csv_problem(p: Path, sep: str, cr_only: bool) -> tuple[str, str] | None:
    """The exact check with Python's csv module (quotes as pandas reads them)."""
    csv.field_size_limit(1 << 30)
    header = -1
    first_bad, bad_fields, n_bad = 0, 0, 0
    with _open_text(p, newline="\r" if cr_only else "\n") as fh:
        reader = csv.reader(fh, delimiter=sep)
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                if "new-line character" in str(exc):
                    return "cr", _cr_message(reader.line_num)
                return "fields", f"line {reader.line_num:,}: {exc}."
            if not row:
                continue
            if header < 0:
                header = len(row)
            elif len(row) != header:
                n_bad += 1
                if not first_bad:
                    first_bad, bad_fields = start, len(row)
    if n_bad:
        return "fields", _fields_message(first_bad, bad_fields, header, n_bad)
    return None


def _chunks(fh: BinaryIO) -> Iterator[bytes]:
    while True:
        block = fh.read(_CHUNK)
        yield block
        if not block:
            return


def _open_binary(p: Path) -> BinaryIO:
    import bz2
    import gzip
    import lzma
    import zipfile

    suffix = p.suffix.lower()
    if suffix == ".gz":
        return gzip.open(p, "rb")  # type: ignore[return-value]
    if suffix == ".bz2":
        return bz2.open(p, "rb")  # type: ignore[return-value]
    if suffix == ".xz":
        return lzma.open(p, "rb")  # type: ignore[return-value]
    if suffix == ".zip":
        z = zipfile.ZipFile(p)
        names = z.namelist()
        if not names:
            z.close()
            raise DataFileError(f"cannot read data file '{p}': the zip archive is empty.")
        return _ZipMember(z, z.open(names[0]))  # type: ignore[return-value]
    return open(p, "rb")


class _ZipMember(io.RawIOBase):
    """The first member of a zip archive; closing it closes the archive too."""

    def __init__(self, archive, member) -> None:  # noqa: ANN001
        super().__init__()
        self._archive, self._member = archive, member

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self._member.read(size)

    def readinto(self, b) -> int:  # noqa: ANN001
        data = self._member.read(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._member.close()
            self._archive.close()
        super().close()


def _open_text(p: Path, newline: str | None) -> io.TextIOWrapper:
    return io.TextIOWrapper(_open_binary(p), encoding="utf-8", errors="replace", newline=newline)


def _sample(p: Path) -> str:
    """The first bytes of a text file, decompressed if needed, as text."""
    with _open_binary(p) as fh:
        raw = fh.read(_SNIFF_BYTES)
    if b"\x00" in raw[:4096]:
        raise DataFileError(f"cannot read data file '{p}': it looks binary, not delimited text.")
    text = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="replace", newline="").read()
    return text[1:] if text.startswith("\ufeff") else text


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
    if p.suffix.lower() in (".dta", ".sas7bdat", ".xpt", ".xls", *EXCEL_SUFFIXES):
        return None
    na = _na_values(na_values)
    sample = _sample(p)
    if sep is None:
        sep = detect_delimiter(sample)
    elif sep == "whitespace":
        sep = _WHITESPACE
    elif sep in ("\\t", "tab"):
        sep = "\t"
    all_text, named, detect = _text_request(text_columns)
    if sep == _WHITESPACE or all_text:
        return None
    scan = _check_structure(p, sep, sample)  # the same refusals as read_data, on the whole file
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
    plan = _plan(path, columns, sep, text_columns, na_values)
    if plan is None:
        raise DataFileError(f"cannot read columns of '{path}' in chunks: it is not a delimited text file with "
                            f"columns {', '.join(map(repr, columns))}.")
    yield from _chunks_of(plan, chunk_rows, dtypes)


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
            reader = pd.read_csv(plan.path, chunksize=chunk_rows, dtype=dtype or None, low_memory=low_memory,
                                 **plan.kw)
            with reader:
                for part in reader:
                    yield part
    except pd.errors.EmptyDataError:
        raise DataFileError(f"data file '{plan.path}' is empty.") from None
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataFileError(f"cannot read data file '{plan.path}': {msg}") from None


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
    opts = dict(sep=sep, text_columns=text_columns, na_values=na_values)
    try:
        plan = _plan(path, columns, sep, text_columns, na_values)
    except DataFileError:
        raise
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataFileError(f"cannot read data file '{path}': {msg}") from None
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
    details = ReadDetails(str(plan.path), "text", tuple(plan.kw["na_values"]),
                          marker_values=_marker_values(df, tuple(plan.kw["na_values"])))
    _warn_numbers_with_markers(df, details)
    return df


def _mixed(s: pd.Series) -> bool:
    """An object column whose pieces pandas typed differently (numbers in one piece, text in
    another): only a read of the whole column types it as :func:`read_data` does."""
    return s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) not in ("string", "empty")


def _join(parts: list[pd.Series]) -> pd.Series | None:
    """The chunks of one column as one Series, or None when they are of kinds that only a
    read of the whole column settles (text in some chunks and numbers in others, ...)."""
    kinds = {p.dtype.kind for p in parts}
    if len(kinds) > 1 and not kinds <= set("iuf"):
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
        if len(values) and values.map(lambda v: _CODE.fullmatch(v) is not None).all():
            df[c] = raw[c].to_numpy(dtype=object)
