"""The survey formats' labels, and their readers and writers through Python's libraries.

SPSS (``.sav``, ``.zsav``), SAS transport v8, Parquet and R's files carry more than values:
a label per variable, labels per value (``1 = "male"``), user-missing codes (``99 =
"refused"``, missing in every analysis). sdc reads the **codes** (the values as stored; a
value label does not replace its code, as pyreadstat and haven read them), **user-missing
values as missing** (as SPSS counts them: the same figures as the same data in a CSV file with
those cells empty), and keeps the labels as :class:`Labels`, which the release's writer puts
back on the columns that still hold codes (:mod:`sdc.report.released`).

Each format is read through a well-kept library where one is installed: pyreadstat (extra
``spss``) for SPSS and SAS transport v8, pyarrow (extra ``parquet``) for Parquet; else through
R (haven, arrow) by sdc's bridge (:mod:`sdc._formats_r`); else refused in one line naming the
extra. R's own ``.rds``/``.RData`` are read through R alone.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc.exceptions import DataFileError

__all__ = ["ColumnLabels", "Labels", "has_module", "missing_extra", "user_missing_to_na", "spss_magic",
           "parquet_magic", "xpt_version", "r_magic", "pyreadstat_read", "pyreadstat_write", "stata_labels"]


@dataclass(frozen=True)
class ColumnLabels:
    """One column's labels: the variable label, the value labels (code -> label), the
    user-missing codes and range (SPSS)."""

    label: str | None = None
    values: Mapping[Any, str] = field(default_factory=dict)
    missing: tuple[Any, ...] = ()
    missing_range: tuple[float, float] | None = None

    def is_missing(self, s: pd.Series) -> pd.Series:
        """Which values are user-missing."""
        hit = s.isin(list(self.missing)) if self.missing else pd.Series(False, index=s.index)
        if self.missing_range is not None and pd.api.types.is_numeric_dtype(s.dtype):
            lo, hi = self.missing_range
            hit |= (s >= lo) & (s <= hi)
        return hit


@dataclass(frozen=True)
class Labels:
    """A file's labels: per column (:class:`ColumnLabels`), and the file's own label."""

    columns: Mapping[str, ColumnLabels] = field(default_factory=dict)
    file_label: str | None = None

    def __bool__(self) -> bool:
        return bool(self.file_label) or any(c.label or c.values or c.missing or c.missing_range
                                            for c in self.columns.values())

    def to_meta(self) -> dict[str, Any]:
        """As JSON-ready metadata (the R bridge's form)."""
        cols = {}
        for name, c in self.columns.items():
            cols[name] = {"label": c.label, "codes": list(c.values) or None, "names": list(c.values.values()) or None,
                          "na_values": list(c.missing) or None,
                          "na_range": list(c.missing_range) if c.missing_range else None}
        return {"columns": cols, "file_label": self.file_label}

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> Labels:
        """From the R bridge's metadata (:func:`r_bridge.haven.read_labelled`)."""
        cols = {}
        for name, m in (meta.get("columns") or {}).items():
            codes = _listed(m.get("codes"))
            names = _listed(m.get("names"))
            rng = _listed(m.get("na_range"))
            cols[str(name)] = ColumnLabels(label=m.get("label") or None, values=dict(zip(codes, map(str, names))),
                                           missing=tuple(_listed(m.get("na_values"))),
                                           missing_range=(float(rng[0]), float(rng[1])) if len(rng) == 2 else None)
        label = meta.get("file_label")
        return cls(cols, label if isinstance(label, str) and label else None)

    def notes(self) -> list[str]:
        """Sentences for the report: what the labels say and what was read as missing."""
        out = []
        labelled = [n for n, c in self.columns.items() if c.values]
        if labelled:
            out.append(f"Value labels kept for {len(labelled)} column(s) ({', '.join(labelled[:8])}"
                       f"{', ...' if len(labelled) > 8 else ''}): the values read are the codes.")
        for n, c in self.columns.items():
            parts = [repr(v) for v in c.missing] + ([f"{c.missing_range[0]:g} to {c.missing_range[1]:g}"]
                                                     if c.missing_range else [])
            if parts:
                out.append(f"Column {n!r}: user-missing {', '.join(parts)} read as missing (as SPSS counts them).")
        return out


def _listed(v: Any) -> list[Any]:
    if v is None:
        return []
    return [_plain(x) for x in (v if isinstance(v, list) else [v])]


def _plain(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def user_missing_to_na(df: pd.DataFrame, labels: Labels) -> pd.DataFrame:
    """The user-missing values of each column as missing (a new frame when any is)."""
    out = df
    for name, c in labels.columns.items():
        if name in df.columns and (c.missing or c.missing_range):
            hit = c.is_missing(df[name])
            if hit.any():
                if out is df:
                    out = df.copy()
                out[name] = df[name].mask(hit)
    return out


def has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def missing_extra(p: Path, what: str, extra: str, module: str, r_route: str) -> DataFileError:
    """The one-line refusal when no route reads (or writes) a format here."""
    return DataFileError(f"cannot read data file '{p}': {what} files need {module} (pip install "
                         f"'sdc-microdata[{extra}]'){r_route}; neither is installed.")


# ---------------------------------------------------------------------------------------------
# Recognising the files by their first bytes

def spss_magic(head: bytes) -> bool:
    """SPSS system files: ``$FL2`` (.sav) or ``$FL3`` (.zsav, zlib-compressed)."""
    return head[:4] in (b"$FL2", b"$FL3")


def parquet_magic(head: bytes) -> bool:
    return head[:4] == b"PAR1"


def xpt_version(head: bytes) -> int | None:
    """SAS transport: 5 (``LIBRARY``) or 8 (``LIBV8``); None for anything else."""
    if head.startswith(b"HEADER RECORD*******LIBRARY HEADER RECORD!!!!!!!"):
        return 5
    if head.startswith(b"HEADER RECORD*******LIBV8   HEADER RECORD!!!!!!!"):
        return 8
    return None


def _inflated(head: bytes) -> bytes:
    """The first bytes of a gzip, bzip2 or xz stream, inflated (R compresses its files)."""
    try:
        if head[:2] == b"\x1f\x8b":
            return gzip.GzipFile(fileobj=io.BytesIO(head)).read(8)
        if head[:3] == b"BZh":
            return bz2.BZ2Decompressor().decompress(head)[:8]
        if head[:6] == b"\xfd7zXZ\x00":
            return lzma.LZMADecompressor().decompress(head)[:8]
    except (OSError, EOFError, ValueError, lzma.LZMAError):
        return b""
    return head[:8]


def r_magic(head: bytes) -> str | None:
    """``"rdata"`` (``RDX2``/``RDX3``), ``"rds"`` (serialised: ``X\\n``, ``A\\n``, ``B\\n`` then
    version 2 or 3), or None."""
    inner = _inflated(head)
    if inner[:5] in (b"RDX2\n", b"RDX3\n", b"RDA2\n", b"RDA3\n"):
        return "rdata"
    if inner[:2] in (b"X\n", b"A\n", b"B\n") and len(inner) >= 6 and (inner[2:6] in (b"\x00\x00\x00\x02",
                                                                                    b"\x00\x00\x00\x03")
                                                                      or inner[2:4] in (b"2\n", b"3\n")):
        return "rds"
    return None


# ---------------------------------------------------------------------------------------------
# pyreadstat (extra "spss")

def pyreadstat_read(p: Path, kind: str) -> tuple[pd.DataFrame, Labels]:
    """SPSS (``sav``) or SAS transport (``xpt``) through pyreadstat: codes, user-missing
    values as missing, the labels."""
    import pyreadstat

    if kind == "xpt":
        df, meta = pyreadstat.read_xport(str(p))
    else:
        df, meta = pyreadstat.read_sav(str(p), user_missing=True)
    names = list(meta.column_names)
    col_labels = dict(zip(names, meta.column_labels or [None] * len(names)))
    value_labels = getattr(meta, "variable_value_labels", {}) or {}
    ranges = getattr(meta, "missing_ranges", {}) or {}
    cols = {}
    for n in names:
        discrete, rng = [], None
        for r in ranges.get(n, []):
            lo, hi = r.get("lo"), r.get("hi")
            if lo == hi:
                discrete.append(_plain(lo))
            else:
                rng = (float(lo), float(hi))
        cols[n] = ColumnLabels(label=col_labels.get(n) or None,
                               values={_plain(k): str(v) for k, v in value_labels.get(n, {}).items()},
                               missing=tuple(discrete), missing_range=rng)
    labels = Labels(cols, getattr(meta, "file_label", None) or None)
    return user_missing_to_na(df, labels), labels


def pyreadstat_write(data: pd.DataFrame, path: Path, labels: Labels, *, compress: bool) -> None:
    """`data` as SPSS (``compress``: .zsav) with the labels of the columns that still hold codes."""
    import pyreadstat

    column_labels = {n: c.label for n, c in labels.columns.items() if n in data.columns and c.label}
    value_labels, missing = {}, {}
    for n, c in labels.columns.items():
        if n not in data.columns or not pd.api.types.is_numeric_dtype(data[n].dtype):
            continue
        if c.values and all(isinstance(k, (int, float)) for k in c.values):
            value_labels[n] = dict(c.values)
        ranges = [{"lo": v, "hi": v} for v in c.missing]
        if c.missing_range:
            ranges.append({"lo": c.missing_range[0], "hi": c.missing_range[1]})
        if ranges:
            missing[n] = ranges
    frame = data.copy()
    for n in frame.columns:
        if isinstance(frame[n].dtype, pd.CategoricalDtype) or pd.api.types.is_extension_array_dtype(frame[n].dtype):
            s = frame[n]
            frame[n] = s.astype(object).where(s.notna(), None) if not pd.api.types.is_numeric_dtype(s.dtype) \
                else s.astype("float64")
    pyreadstat.write_sav(frame, str(path), file_label=labels.file_label or "",
                         column_labels=[column_labels.get(n) for n in frame.columns],
                         variable_value_labels=value_labels or None, missing_ranges=missing or None,
                         compress=compress)


# ---------------------------------------------------------------------------------------------
# Stata's labels (pandas)

def stata_labels(p: Path) -> tuple[Labels, dict[str, dict[Any, str]]]:
    """A Stata file's variable labels and, per column read as a categorical, its value labels
    (code -> label), from pandas' reader."""
    with pd.io.stata.StataReader(str(p)) as reader:
        read = reader.read()
        sets = reader.value_labels()
        var_labels = reader.variable_labels()
        file_label = reader.data_label
    per_column: dict[str, dict[Any, str]] = {}
    for name in read.columns:
        if not isinstance(read[name].dtype, pd.CategoricalDtype):
            continue
        cats = {c for c in read[name].cat.categories if isinstance(c, str)}
        # The label set named after the column (pandas' and many writers' habit), else the
        # first one holding every label the column shows.
        found = sets.get(name) or next((s for s in sets.values() if cats and cats <= set(s.values())), None)
        if found:
            per_column[str(name)] = {_plain(k): str(v) for k, v in found.items()}
    cols = {str(n): ColumnLabels(label=var_labels.get(n) or None, values=per_column.get(str(n), {}))
            for n in read.columns}
    return Labels(cols, file_label or None), per_column
