"""Writing files so that a reader never sees a half-written one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd

__all__ = ["atomic_write", "default_mode", "csv_text"]


def default_mode(directory: bool = False) -> int:
    """The permissions a plain ``open``/``mkdir`` would give under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, default_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def csv_text(df: pd.DataFrame) -> str:
    r"""`df` as RFC 4180 CSV: CRLF line ends, and quotes around any field holding a comma, a quote,
    a carriage return or a line feed.

    The CRLF terminator is what makes Python's csv writer quote a field containing a lone
    carriage return; with a plain LF terminator such a field would break the row.

    >>> csv_text(pd.DataFrame({"a": ["x\ry", "z"]}))
    'a\r\n"x\ry"\r\nz\r\n'
    """
    return df.to_csv(index=False, lineterminator="\r\n")
