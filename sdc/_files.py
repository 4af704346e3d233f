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
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import pandas as pd

__all__ = ["atomic_write", "default_mode", "output_modes", "terminate_cleanly", "csv_text"]


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
