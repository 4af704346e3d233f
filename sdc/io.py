"""Reading microdata files: CSV (delimiter detected or given), Stata and SAS.

Every failure is a :class:`sdc.exceptions.DataFileError` with one sentence naming the file
and the problem, so the CLI can print it as one line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd

from sdc.exceptions import DataFileError

__all__ = ["read_data", "detect_delimiter", "DELIMITERS"]

#: Candidate delimiters, in order of preference; "whitespace" means runs of blanks.
DELIMITERS = {",": ",", ";": ";", "\t": "\t", "|": "|"}
_WHITESPACE = r"\s+"
_SNIFF_BYTES = 1 << 16


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


def read_data(path: str | Path, *, sep: str | None = None) -> pd.DataFrame:
    """Read a microdata file into a DataFrame.

    Parameters
    ----------
    path : str or Path
        ``.dta`` (Stata), ``.sas7bdat`` / ``.xpt`` (SAS), anything else as delimited text
        (optionally ``.gz``/``.bz2``/``.zip``/``.xz`` compressed).
    sep : str, optional
        Delimiter for text files; ``"whitespace"`` for runs of blanks. Detected when None
        (comma, semicolon, tab, pipe or whitespace).

    Notes
    -----
    Empty cells and pandas' usual markers (``NA``, ``NaN``, ``null``, ...) are missing values.
    """
    p = Path(path)
    if not p.exists():
        raise DataFileError(f"cannot read data file '{p}': no such file.")
    if p.is_dir():
        raise DataFileError(f"cannot read data file '{p}': it is a directory.")
    suffix = p.suffix.lower()
    try:
        if suffix == ".dta":
            df = pd.read_stata(p)
        elif suffix in (".sas7bdat", ".xpt"):
            df = pd.read_sas(p, format="sas7bdat" if suffix == ".sas7bdat" else "xport", encoding="utf-8")
        else:
            df = _read_text(p, sep)
    except DataFileError:
        raise
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError, EOFError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataFileError(f"cannot read data file '{p}': {msg}") from None
    if df.shape[1] == 0 or len(df) == 0:
        raise DataFileError(f"data file '{p}' has no records.")
    return df


def _read_text(p: Path, sep: str | None) -> pd.DataFrame:
    if sep is None:
        sep = detect_delimiter(_sample(p))
    elif sep == "whitespace":
        sep = _WHITESPACE
    elif sep in ("\\t", "tab"):
        sep = "\t"
    try:
        if sep == _WHITESPACE:
            return pd.read_csv(p, sep=_WHITESPACE, engine="python")
        return pd.read_csv(p, sep=sep, low_memory=False)
    except pd.errors.EmptyDataError:
        raise DataFileError(f"data file '{p}' is empty.") from None


def _sample(p: Path) -> str:
    """The first bytes of a text file, decompressed if needed, as text."""
    import bz2
    import gzip
    import lzma
    import zipfile

    suffix = p.suffix.lower()
    if suffix == ".gz":
        raw = gzip.open(p).read(_SNIFF_BYTES)
    elif suffix == ".bz2":
        raw = bz2.open(p).read(_SNIFF_BYTES)
    elif suffix == ".xz":
        raw = lzma.open(p).read(_SNIFF_BYTES)
    elif suffix == ".zip":
        with zipfile.ZipFile(p) as z:
            raw = z.open(z.namelist()[0]).read(_SNIFF_BYTES)
    else:
        with open(p, "rb") as fh:
            raw = fh.read(_SNIFF_BYTES)
    if b"\x00" in raw[:4096]:
        raise DataFileError(f"cannot read data file '{p}': it looks binary, not delimited text.")
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="replace").read()
