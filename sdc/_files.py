"""Writing files so that a reader never sees a half-written one, nobody sees more than the
input allowed, and an interruption leaves nothing behind.

* :func:`atomic_write` writes beside the target and renames over it when complete.
* :func:`output_modes` gives outputs no permission an input lacks: a report made from a file
  only its owner may read (0600) is readable by its owner only, whatever the umask.
* :func:`terminate_cleanly` turns SIGTERM (what ``kill``, systemd and schedulers send) into an
  exception while files are written, so the clean-up that follows any failure also runs
  then; by default SIGTERM ends Python at once and leaves temporary files and folders.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["atomic_write", "default_mode", "output_modes", "terminate_cleanly", "csv_text", "csv_bytes"]


def default_mode(directory: bool = False) -> int:
    """The permissions a plain ``open``/``mkdir`` would give under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def output_modes(inputs: Iterable[str | Path | None] = ()) -> tuple[int, int]:
    """(file mode, folder mode) for outputs derived from `inputs`: what the umask gives, but
    no permission bit for group or others that an input lacks (a file readable by its owner
    alone gives outputs readable by their owner alone). The owner can always read and write.

    Inputs that cannot be examined (gone, or not files: a DataFrame) restrict nothing.
    """
    fmode, dmode = default_mode(), default_mode(directory=True)
    for p in inputs:
        if p is None:
            continue
        try:
            m = stat.S_IMODE(os.stat(p).st_mode)
        except (OSError, TypeError, ValueError):
            continue
        fmode &= (m & 0o666) | 0o600
        dmode &= (m & 0o666) | ((m & 0o444) >> 2) | 0o700
    return fmode | 0o600, dmode | 0o700


class Terminated(SystemExit):
    """SIGTERM arrived while files were written (exit status 143, as the signal's default)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


@contextlib.contextmanager
def terminate_cleanly() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (a SystemExit) instead of ending
    the process on the spot, so ``except BaseException``/``finally`` clean-ups run. Only the
    main thread can install a handler; elsewhere the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):  # noqa: ANN001, ANN202
        raise Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):  # not allowed here (an embedded interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def atomic_write(path: str | Path, data: str | bytes, *, inputs: Iterable[str | Path | None] = ()) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    The file's mode is :func:`output_modes` of `inputs` (what the umask gives when none).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = output_modes(inputs)[0]
    with terminate_cleanly():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.chmod(tmp, mode)
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


#: Frames with at least this many rows are written by :func:`csv_bytes`' column assembly.
_FAST_CSV_ROWS = 20_000
_CSV_CHUNK_ROWS = 100_000


def csv_bytes(df: pd.DataFrame) -> bytes:
    r"""``csv_text(df).encode("utf-8")``, the same bytes, made faster for large frames.

    Every column's *distinct* values are formatted once, by pandas itself (so each field is
    exactly what ``to_csv`` writes: numbers as numpy formats them, missing as an empty field,
    text quoted where it holds a comma, a quote, a CR or an LF), then gathered per row and the
    rows assembled with numpy's byte-string concatenation, a block of rows at a time. Small
    frames, and frames this cannot take exactly (one column, duplicated names, a NUL byte in
    a value), go through :func:`csv_text`.

    >>> csv_bytes(pd.DataFrame({"a": ["x,y", None], "b": [1.5, float("nan")]}))
    b'a,b\r\n"x,y",1.5\r\n,\r\n'
    """
    if len(df) < _FAST_CSV_ROWS or df.shape[1] < 2 or not df.columns.is_unique:
        return csv_text(df).encode("utf-8")
    columns = []
    for j in range(df.shape[1]):
        col = _csv_column(df.iloc[:, j])
        if col is None:
            return csv_text(df).encode("utf-8")
        columns.append(col)
    out = [csv_text(df.iloc[:0]).encode("utf-8")]
    n = len(df)
    width = sum(u.dtype.itemsize for _, u in columns) + len(columns) + 1
    step = max(1, min(_CSV_CHUNK_ROWS, (1 << 27) // width))
    comma = np.full((step, 1), ord(","), dtype=np.uint8)
    crlf = np.tile(np.array([13, 10], dtype=np.uint8), (step, 1))
    for a in range(0, n, step):
        b = min(n, a + step)
        parts = []
        for codes, uniq in columns:
            f = uniq[codes[a:b]] if codes is not None else uniq[a:b]
            parts.append(f.view(np.uint8).reshape(b - a, f.dtype.itemsize))
            parts.append(comma[: b - a])
        parts[-1] = crlf[: b - a]
        # Each row: its fields side by side, padded with NUL bytes to the column's width; the
        # NULs dropped (no value holds one), row after row, the CSV's bytes remain.
        block = np.concatenate(parts, axis=1)
        out.append(block[block != 0].tobytes())
    return b"".join(out)


def _csv_column(s: pd.Series) -> tuple[np.ndarray | None, np.ndarray] | None:
    """(codes or None, byte strings): the column's fields as ``to_csv`` writes them, as the
    distinct values' fields and each row's code, or (None, every row's field) for numbers
    formatted directly. None when a field holds a NUL byte (numpy's byte strings drop them)."""
    dt = s.dtype
    if isinstance(dt, np.dtype) and dt.kind in "iu":  # whole numbers: no quoting, no missing
        return None, s.to_numpy().astype("S")
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    if isinstance(dt, np.dtype) and dt.kind == "f" and len(uniques) > len(s) // 4:
        v = s.to_numpy()
        text = v.astype("S")  # what pandas does for floats: numpy's formatting
        text[np.isnan(v)] = b""
        return None, text
    # The distinct values through pandas' own writer (one column; read back with the csv module).
    one = pd.DataFrame({"v": pd.Series(uniques, dtype=dt if not isinstance(dt, pd.CategoricalDtype) else None)})
    if isinstance(dt, pd.CategoricalDtype):
        one = pd.DataFrame({"v": pd.Categorical(uniques, categories=dt.categories, ordered=dt.ordered)})
    rows = list(csv.reader(io.StringIO(one.to_csv(index=False, header=False, lineterminator="\r\n"), newline="")))
    if len(rows) != len(uniques):
        return None
    values = pd.Series([r[0] if r else "" for r in rows], dtype=object)
    if values.str.contains("\x00", regex=False).any():
        return None
    quote = values.str.contains('[,"\r\n]', regex=True).to_numpy(dtype=bool)  # QUOTE_MINIMAL's fields
    if quote.any():
        values[quote] = '"' + values[quote].str.replace('"', '""', regex=False) + '"'
    fields = [v.encode("utf-8") for v in values]
    return codes, np.array(fields, dtype="S") if fields else np.array([b""], dtype="S")
