"""The released file's bytes, in the input's format: the same delimiter, line ends and
compression for delimited text, Stata for Stata; the same data and plan give the same bytes.

SAS files cannot be written by pandas: a SAS input gives a CSV release (said in the log). An
Excel input gives an Excel workbook (``.xlsx``; a macro-enabled ``.xlsm`` loses its macros,
said in the log), its text cells written as text: a value such as ``=SUM(A1)`` read from a
text cell stays text, not a live formula.
Integer columns that a step left with missing values (local suppression) are written as
integers, not as ``31.0``.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd

from sdc._files import csv_bytes
from sdc._formats import COMPRESSIONS, Format, format_named, format_of

__all__ = ["ReleasedFile", "released_file", "COMPRESSIONS", "WRITERS"]

_FIXED_TIME = datetime(2000, 1, 1)


@dataclass(frozen=True)
class ReleasedFile:
    """The released file: its name in the output folder, bytes, and how it was written."""

    name: str
    data: bytes
    format: str          # "csv", "stata", "excel"
    delimiter: str | None
    note: str = ""


def _delimiter(path: Path | None, sep: str | None) -> tuple[str, str]:
    """(delimiter, line terminator) of the input."""
    from sdc._readers import _sample
    from sdc.io import detect_delimiter

    if sep in ("tab", "\\t"):
        sep = "\t"
    sample = ""
    if path is not None and path.exists():
        sample = _sample(path)
    if sep is None:
        sep = detect_delimiter(sample) if sample else ","
    if sep in ("whitespace", r"\s+"):
        sep = " "
    newline = "\r\n" if "\r\n" in sample else "\n"
    return sep, newline


def _restore_integers(data: pd.DataFrame, original: pd.DataFrame | None) -> pd.DataFrame:
    """Integer input columns that became float only through missing values, as nullable integers."""
    if original is None:
        return data
    out = data
    for c in data.columns:
        if c not in original.columns or not pd.api.types.is_integer_dtype(original[c].dtype):
            continue
        s = data[c]
        if pd.api.types.is_float_dtype(s.dtype):
            v = s.to_numpy(dtype=float, na_value=np.nan)
            ok = ~np.isnan(v)
            if np.all(np.floor(v[ok]) == v[ok]) and (not ok.any() or np.abs(v[ok]).max() < 2 ** 53):
                if out is data:
                    out = data.copy()
                out[c] = s.astype("Int64")
    return out


def _compress(name: str, body: bytes, suffix: str) -> bytes:
    """Compressed bytes that depend on the content alone (no time stamp, no file name)."""
    if suffix == ".gz":
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0) as fh:
            fh.write(body)
        return buf.getvalue()
    if suffix == ".bz2":
        return bz2.compress(body)
    if suffix == ".xz":
        return lzma.compress(body)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o600 << 16
        z.writestr(info, body)
    return buf.getvalue()


def _stata(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str) -> ReleasedFile:
    buf = io.BytesIO()
    data.to_stata(buf, write_index=False, time_stamp=_FIXED_TIME, version=118)
    return ReleasedFile(f"{stem}.dta", buf.getvalue(), "stata", None)


def _excel(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str) -> ReleasedFile:
    from sdc.report.xlsx import data_workbook

    note = ("The input is a macro-enabled workbook (.xlsm): the release is .xlsx, without macros."
            if path is not None and path.suffix.lower() == ".xlsm" else "")
    return ReleasedFile(f"{stem}.xlsx", data_workbook(data, sheet="released", when=_FIXED_TIME), "excel", None, note)


def _text(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str, note: str = "") -> ReleasedFile:
    """Delimited text like the input: its delimiter, line ends, inner suffix and compression."""
    text = format_named("text")
    suffixes = [s.lower() for s in path.suffixes] if path is not None else []
    compression = suffixes[-1] if suffixes and suffixes[-1] in COMPRESSIONS else None
    inner = [s for s in suffixes if s not in COMPRESSIONS][-1:] or [".csv"]
    if inner[0] not in text.suffixes:
        inner = [".csv"] if path is None else inner
    delim, newline = _delimiter(path, sep)
    # to_csv's bytes, assembled column by column for large frames (no text copy of the file)
    body = csv_bytes(data, sep=delim, lineterminator=newline)
    name = f"{stem}{inner[0]}"
    if compression:
        body = _compress(name, body, compression)
        name += compression
    return ReleasedFile(name, body, "csv", delim, note)


def _jsonl(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str) -> ReleasedFile:
    """JSON Lines: one object per record, missing values as null, text as UTF-8."""
    body = data.to_json(orient="records", lines=True, force_ascii=False, date_format="iso")
    return ReleasedFile(f"{stem}.jsonl", body.encode("utf-8"), "jsonl", None)


#: How a release is written in its input's format (:mod:`sdc._formats`' names). A format
#: without a writer here is released as CSV, with a note.
WRITERS: dict[str, Callable[[pd.DataFrame, Path | None, str | None, str], ReleasedFile]] = {
    "text": _text, "stata": _stata, "excel": _excel, "jsonl": _jsonl,
}


def released_file(data: pd.DataFrame, *, input_path: str | Path | None = None, sep: str | None = None,
                  original: pd.DataFrame | None = None, stem: str = "released") -> ReleasedFile:
    """The released data as a file like the input (`input_path`; CSV without one).

    Parameters
    ----------
    data : pandas.DataFrame
        The released records (its index is not written).
    input_path : path, optional
        The input file: its format (:func:`sdc._formats.format_of`) gives the release's
        (:data:`WRITERS`; ``.dta`` Stata; ``.xlsx``/``.xlsm`` Excel; ``.gz``/``.bz2``/``.xz``/
        ``.zip`` compression of delimited text; anything else delimited text) and its first
        bytes the delimiter and line ends.
    sep : str, optional
        The input's delimiter when it was given rather than detected.
    original : pandas.DataFrame, optional
        The input data: integer columns of it stay integers in the release.
    """
    path = Path(input_path) if input_path is not None else None
    data = _restore_integers(data, original)
    fmt: Format = format_of(path) if path is not None else format_named("text")
    writer = WRITERS.get(fmt.name)
    if writer is None:
        return _text(data, None, sep, stem, f"The input is a {fmt.label} file, which pandas cannot write: the "
                                            "release is CSV.")
    return writer(data, path, sep, stem)
