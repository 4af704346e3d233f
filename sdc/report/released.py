"""The released file's bytes, in the input's format: the same delimiter, line ends and
compression for delimited text, Stata for Stata; the same data and plan give the same bytes.

SPSS (``.sav``/``.zsav``) and Stata releases carry the input's labels (variable labels,
value labels and SPSS's user-missing declarations, on the columns that still hold codes);
Parquet gives Parquet. SAS and R files are not written: such an input gives a CSV release
(said in the log), as does an SPSS or Parquet input where no library can write one. An
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
from sdc._formats import COMPRESSIONS, Format, Request, format_named, format_of

__all__ = ["ReleasedFile", "released_file", "COMPRESSIONS", "WRITERS"]

_FIXED_TIME = datetime(2000, 1, 1)
_REQUEST = Request()


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
    """Stata 118 with the input's labels: a column read as a categorical of value labels goes
    back to its codes with the same label set; variable labels and the data label kept."""
    value_labels: dict[str, dict] = {}
    var_labels: dict[str, str] = {}
    file_label = None
    if path is not None and path.is_file():
        from sdc._labelled import stata_labels

        labels, sets = stata_labels(path)
        file_label = labels.file_label
        var_labels = {n: c.label for n, c in labels.columns.items() if n in data.columns and c.label}
        data = data.copy()
        for name, codes in sets.items():
            if name in data.columns and isinstance(data[name].dtype, pd.CategoricalDtype):
                back = {v: k for k, v in codes.items()}
                s = data[name].astype(object)
                mapped = s.map(lambda v: back.get(v, v) if isinstance(v, str) else v)
                if pd.to_numeric(mapped.dropna(), errors="coerce").notna().all():
                    data[name] = pd.to_numeric(mapped)
                    value_labels[name] = codes
    buf = io.BytesIO()
    data.to_stata(buf, write_index=False, time_stamp=_FIXED_TIME, version=118, variable_labels=var_labels or None,
                  data_label=file_label, **({"value_labels": value_labels} if value_labels else {}))
    return ReleasedFile(f"{stem}.dta", buf.getvalue(), "stata", None)


def _fixed_sav_time(body: bytes) -> bytes:
    """An SPSS file's creation date and time (header bytes 92-108, after the record type, the
    product name, five 4-byte fields and the 8-byte bias) fixed, so that the same data and plan
    give the same bytes."""
    if body[:4] not in (b"$FL2", b"$FL3") or len(body) < 109:
        return body
    return body[:92] + b"01 Jan 00" + b"00:00:00" + body[109:]


def _written(write: Callable[[Path], None], name: str) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="sdc-release-") as tmp:
        target = Path(tmp) / name
        write(target)
        return target.read_bytes()


def _spss(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str) -> ReleasedFile:
    """SPSS like the input (.zsav compressed if it was) with its labels, through pyreadstat
    or R's haven; without either, CSV with a note."""
    from sdc._formats import format_named
    from sdc._labelled import has_module, pyreadstat_write

    with open(path, "rb") as fh:  # type: ignore[arg-type]
        compress = fh.read(4) == b"$FL3"
    labels = format_named("spss").read(path, _REQUEST)[1].labels  # type: ignore[arg-type, misc]
    suffix = ".zsav" if compress else ".sav"
    if has_module("pyreadstat"):
        body = _written(lambda t: pyreadstat_write(data, t, labels, compress=compress), f"{stem}{suffix}")
    else:
        from sdc._formats_r import r_route, write_with_r

        if r_route("haven") is not None:
            return _text(data, None, sep, stem, "The input is an SPSS file; neither pyreadstat nor R's haven is "
                                                "installed to write one: the release is CSV.")
        body = _written(lambda t: write_with_r(data, t, suffix[1:], labels), f"{stem}{suffix}")
    return ReleasedFile(f"{stem}{suffix}", _fixed_sav_time(body), "spss", None)


def _parquet(data: pd.DataFrame, path: Path | None, sep: str | None, stem: str) -> ReleasedFile:
    """Parquet through pyarrow (or R's arrow); without either, CSV with a note."""
    from sdc._labelled import has_module

    if has_module("pyarrow"):
        buf = io.BytesIO()
        data.to_parquet(buf, engine="pyarrow", index=False)
        return ReleasedFile(f"{stem}.parquet", buf.getvalue(), "parquet", None)
    from sdc._formats_r import r_route, write_with_r
    from sdc._labelled import Labels

    if r_route("arrow") is not None:
        return _text(data, None, sep, stem, "The input is a Parquet file; neither pyarrow nor R's arrow is "
                                            "installed to write one: the release is CSV.")
    body = _written(lambda t: write_with_r(data, t, "parquet", Labels()), f"{stem}.parquet")
    return ReleasedFile(f"{stem}.parquet", body, "parquet", None)


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
    "text": _text, "stata": _stata, "excel": _excel, "jsonl": _jsonl, "spss": _spss, "parquet": _parquet,
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
