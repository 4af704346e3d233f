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
import functools
import io
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["atomic_write", "check_file_target", "check_parent", "default_mode", "output_modes", "terminate_cleanly",
           "csv_text", "csv_bytes", "csv_chunks", "gzip_pieces", "make_parents", "remove_made"]


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


def check_parent(path: str | Path, name: str) -> None:
    """Refuse a target whose nearest existing ancestor is a file (``out.csv/x``): ``mkdir``
    would fail there with a bare ``[Errno 17]`` naming the ancestor, not the argument."""
    for parent in Path(path).parents:
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(f"{name}: '{parent}' is a file, not a folder.")
            return


def check_file_target(path: str | Path, inputs: Iterable[str | Path | None] = (), *, flag: str | None = None,
                      replace: bool = True) -> None:
    """Refuse to write the file `path` where it would destroy something: an existing folder,
    below a file, or over one of the run's `inputs` (the same file by any name: a link, a
    relative path); with ``replace=False`` (the command line's output files) over any
    existing file, which sdc did not make in this run. `flag` names the argument in the
    message (``--out``)."""
    p = Path(path)
    name = f"{flag} '{path}'" if flag else f"output file '{path}'"
    if p.is_dir():
        raise IsADirectoryError(f"{name} is a folder; give the name of a file.")
    check_parent(p, name)
    if p.exists():
        for i in inputs:
            if i is not None and Path(i).exists() and os.path.samefile(p, i):
                raise FileExistsError(f"{name} is an input of this run ('{i}'): sdc never writes over its input; "
                                      "choose another file.")
        if not replace:
            raise FileExistsError(f"{name} exists; sdc does not write over a file it did not make in this run: "
                                  "remove it first, or choose another name.")


def atomic_write(path: str | Path, data: str | bytes, *, inputs: Iterable[str | Path | None] = (),
                 flag: str | None = None, replace: bool = True) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    The file's mode is :func:`output_modes` of `inputs` (what the umask gives when none);
    `path` is checked with :func:`check_file_target` (never a folder, never an input, and with
    ``replace=False`` never an existing file), and `flag` names it in messages.
    """
    path = Path(path)
    inputs = list(inputs)
    check_file_target(path, inputs, flag=flag, replace=replace)
    mode = output_modes(inputs)[0]
    name = f"{flag} '{path}'" if flag else f"'{path}'"
    with terminate_cleanly():
        made: list[Path] = []
        try:
            made = make_parents(path)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        except OSError as exc:  # the message would name the temporary file, not the target
            remove_made(made)
            raise OSError(f"cannot write {name}: {exc.strerror or exc}.") from None
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            remove_made(made)
            raise


def make_parents(path: str | Path) -> list[Path]:
    """Make the missing folders above `path`; the ones made, outermost first (for
    :func:`remove_made` when the write fails: a refused run leaves nothing behind)."""
    made = [p for p in reversed(Path(path).parents) if not p.exists()]
    made_now: list[Path] = []
    try:
        for p in made:
            p.mkdir()
            made_now.append(p)
    except OSError:
        remove_made(made_now)
        raise
    return made_now


def remove_made(made: list[Path]) -> None:
    """Remove the folders :func:`make_parents` made, innermost first, while they are empty."""
    for p in reversed(made):
        try:
            p.rmdir()
        except OSError:
            break


def csv_text(df: pd.DataFrame, *, sep: str = ",", lineterminator: str = "\r\n") -> str:
    r"""`df` as RFC 4180 CSV by default: CRLF line ends, and quotes around any field holding a
    comma, a quote, a carriage return or a line feed (``to_csv`` with `sep` and `lineterminator`
    otherwise: a released file keeps its input's delimiter and line ends).

    The CRLF terminator is what makes Python's csv writer quote a field containing a lone
    carriage return; with a plain LF terminator such a field would break the row.

    >>> csv_text(pd.DataFrame({"a": ["x\ry", "z"]}))
    'a\r\n"x\ry"\r\nz\r\n'
    """
    return df.to_csv(index=False, sep=sep, lineterminator=lineterminator)


#: Frames with at least this many rows are written by :func:`csv_bytes`' column assembly.
_FAST_CSV_ROWS = 20_000
_CSV_CHUNK_ROWS = 100_000


def csv_bytes(df: pd.DataFrame, *, sep: str = ",", lineterminator: str = "\r\n") -> bytes:
    r"""``csv_text(df).encode("utf-8")``, the same bytes, made faster for large frames.

    The pieces of :func:`csv_chunks`, copied and joined; a writer should rather write each
    piece as it comes (no copy of the whole file in memory).

    >>> csv_bytes(pd.DataFrame({"a": ["x,y", None], "b": [1.5, float("nan")]}))
    b'a,b\r\n"x,y",1.5\r\n,\r\n'
    """
    return b"".join(bytes(piece) for piece in csv_chunks(df, sep=sep, lineterminator=lineterminator))


#: Delimiters and line ends the column assembly writes; others go through ``to_csv``.
_FAST_SEPS = (",", ";", "\t", "|")
_FAST_ENDS = ("\r\n", "\n")


@functools.lru_cache(maxsize=None)
def _quoted_by(sep: str, lineterminator: str) -> re.Pattern[str]:
    """The characters that make Python's csv writer, as ``to_csv`` calls it (minimal quoting,
    quotes doubled), quote a field: asked of the csv module itself, as its rule is its own."""
    chars = []
    for ch in sorted({sep, '"', "\r", "\n"}):
        buf = io.StringIO()
        csv.writer(buf, delimiter=sep, lineterminator=lineterminator, quotechar='"', doublequote=True,
                   quoting=csv.QUOTE_MINIMAL).writerow([f"a{ch}b", "x"])
        if buf.getvalue().startswith('"'):
            chars.append(ch)
    return re.compile("[" + re.escape("".join(chars)) + "]")


def csv_chunks(df: pd.DataFrame, *, sep: str = ",", lineterminator: str = "\r\n") -> Iterator[bytes | memoryview]:
    r"""The bytes of ``csv_text(df, sep=sep, lineterminator=lineterminator).encode("utf-8")``, in
    pieces of a block of rows each.

    Every column's *distinct* values are formatted once, by pandas itself (so each field is
    exactly what ``to_csv`` writes: numbers as numpy formats them, missing as an empty field,
    text quoted where it holds a comma, a quote, a CR or an LF), then gathered per row and the
    rows assembled with numpy's byte-string concatenation, a block of rows at a time. Whole
    numbers are written digit by digit with numpy (what ``str`` gives). Small frames, and
    frames this cannot take exactly (one column, duplicated names, a NUL byte in a value), go
    through :func:`csv_text`, in one piece. The rows' pieces share one buffer: each is valid until
    the next is asked for (write it, or copy it with ``bytes``), so no memory is taken per piece.

    >>> [bytes(c) for c in csv_chunks(pd.DataFrame({"a": ["x,y", None], "b": [1.5, float("nan")]}))]
    [b'a,b\r\n"x,y",1.5\r\n,\r\n']
    """
    def whole() -> bytes:
        return csv_text(df, sep=sep, lineterminator=lineterminator).encode("utf-8")

    if (len(df) < _FAST_CSV_ROWS or df.shape[1] < 2 or not df.columns.is_unique or sep not in _FAST_SEPS
            or lineterminator not in _FAST_ENDS):
        yield whole()
        return
    quoted = _quoted_by(sep, lineterminator)
    columns = []
    for j in range(df.shape[1]):
        col = _csv_column(df.iloc[:, j], quoted)
        if col is None:
            yield whole()
            return
        columns.append(col)
    yield csv_text(df.iloc[:0], sep=sep, lineterminator=lineterminator).encode("utf-8")
    n = len(df)
    tables = [u.view(np.uint8).reshape(len(u), u.dtype.itemsize) for _, u in columns]
    end = lineterminator.encode("ascii")
    # Each field is followed by the delimiter; the last one's (and one more byte for CRLF) by the line end.
    width = sum(t.shape[1] for t in tables) + len(columns) - 1 + len(end)
    # Blocks of about 2 MB: small enough to stay in the processor's cache while each is filled,
    # compacted and written (blocks of 16 MB made the writing slower).
    step = max(1, min(_CSV_CHUNK_ROWS, (1 << 21) // width))
    # One block of rows, reused: the commas and line ends, and the fields of a column with a
    # single value, are written once; each block fills in the other fields.
    block = np.zeros((step, width), dtype=np.uint8)
    spans, at = [], 0
    for (codes, uniq), t in zip(columns, tables):
        w = t.shape[1]
        if codes is not None and len(uniq) == 1:
            block[:, at: at + w] = t[0]
        else:
            spans.append((codes, t, at, w))
        block[:, at + w] = ord(sep)
        at += w + 1
    block[:, -len(end):] = np.frombuffer(end, dtype=np.uint8)
    keep = np.empty((step, width), dtype=bool)
    piece = np.empty(step * width, dtype=np.uint8)
    for a in range(0, n, step):
        b = min(n, a + step)
        rows = block[: b - a]
        for codes, t, at, w in spans:
            if codes is None:
                rows[:, at: at + w] = t[a:b]
            else:  # gathered straight into the block (no temporary); the codes are all in range
                np.take(t, codes[a:b], axis=0, out=rows[:, at: at + w], mode="clip")
        # Each row: its fields side by side, padded with NUL bytes to the column's width; the
        # NULs dropped (no value holds one), row after row, the CSV's bytes remain.
        mask = np.not_equal(rows, 0, out=keep[: b - a]).ravel()
        k = int(np.count_nonzero(mask))
        yield memoryview(np.compress(mask, rows.ravel(), out=piece[:k]))


def gzip_pieces(pieces: Iterable[bytes | memoryview], *, level: int = 1) -> Iterator[bytes]:
    """The gzip file of the concatenated `pieces`, compressed as they come (never whole in
    memory): one deflate stream in a gzip wrapper with no time stamp, so the same pieces give
    the same bytes (``gzip.decompress`` reads it). Level 1 by default: on 100 MB of an
    assessment's records.csv it took 0.82 s against 2.29 s at zlib's usual 6, for 27.9 MB
    instead of 22.4 MB (about 6 s of CPU saved per 10^6 records; issue 33's profile,
    ``validation/profile_scale.py``).

    >>> import gzip
    >>> gzip.decompress(b"".join(gzip_pieces([b"a,b\\r\\n", memoryview(b"1,2\\r\\n")])))
    b'a,b\\r\\n1,2\\r\\n'
    """
    import zlib

    z = zlib.compressobj(level, zlib.DEFLATED, 31)  # wbits 16 + 15: a gzip header and trailer, mtime 0
    for piece in pieces:
        out = z.compress(piece)
        if out:
            yield out
    yield z.flush()


def _int_fields(v: np.ndarray) -> np.ndarray | None:
    """Whole numbers as ``str`` writes them, as an (n, width) array of ASCII bytes with NUL
    padding in front (None beyond int64's range): digit by digit, not a Python call per value."""
    if v.size == 0 or (v.dtype.kind == "u" and v.dtype.itemsize == 8 and int(v.max()) > np.iinfo(np.int64).max):
        return None
    v = v.astype(np.int64, copy=False)
    if int(v.min()) == np.iinfo(np.int64).min:
        return None
    neg = v < 0
    q = np.abs(v)
    digits = len(str(int(q.max())))
    width = digits + bool(neg.any())
    out = np.zeros((len(v), width), dtype=np.uint8)
    nd = np.ones(len(v), dtype=np.int64)  # digits of each number
    for d in range(digits):
        col = (q % 10).astype(np.uint8)
        col += 48
        if d:
            some = q > 0  # no leading zeros: past its first digit a number's quotient is 0
            col[~some] = 0
            nd += some
        out[:, width - 1 - d] = col
        q //= 10
    if width > digits:
        r = np.flatnonzero(neg)
        out[r, width - 1 - nd[r]] = ord("-")
    return out


def _merged_texts(s: pd.Series, uniques: object) -> bool:
    """Whether factorising may have merged values ``to_csv`` writes differently: values of an
    object column that are equal but not text (``1``, ``1.0``, ``True``; ``Decimal("1.0")`` and
    ``1``), or -0.0 with 0.0 (nullable floats, complex numbers). Equal strings are one text."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype):
        return False  # categories are distinct values, each written as its own text
    if dt == object:
        return (pd.api.types.infer_dtype(uniques, skipna=True) not in ("string", "empty")
                and not bool(pd.isna(uniques).all()))  # only missing values: all written empty
    if getattr(dt, "kind", "O") in ("f", "c"):
        v = s.to_numpy(dtype=np.complex128 if dt.kind == "c" else np.float64, na_value=np.nan)
        return any(bool(np.signbit(p[p == 0]).any()) for p in ((v.real, v.imag) if dt.kind == "c" else (v,)))
    return False


def _csv_column(s: pd.Series, quoted: re.Pattern[str]) -> tuple[np.ndarray | None, np.ndarray] | None:
    """(codes or None, byte strings): the column's fields as ``to_csv`` writes them, as the
    distinct values' fields and each row's code, or (None, every row's field) for numbers
    formatted directly. None when a field holds a NUL byte (numpy's byte strings drop them)."""
    dt = s.dtype
    if isinstance(dt, np.dtype) and dt.kind in "iu":  # whole numbers: no quoting, no missing
        v = s.to_numpy()
        f = _int_fields(v)
        if f is None:
            return None, v.astype("S")
        return None, f.view(f"S{f.shape[1]}").reshape(len(v))
    if isinstance(dt, np.dtype) and dt.kind == "b":  # pandas writes True and False
        v = s.to_numpy()
        if v.all() or not v.any():  # one value: written once (see csv_chunks)
            return np.zeros(len(v), dtype=np.int8), np.array([b"True" if v.all() else b"False"])
        return v.view(np.uint8), np.array([b"False", b"True"])
    if isinstance(dt, np.dtype) and dt.kind == "f":
        # pandas writes a float as numpy formats it (``astype(str)``), a missing one as empty.
        v = s.to_numpy()
        zero = v == 0
        if zero.any() and np.signbit(v[zero]).any() != np.signbit(v[zero]).all():
            # factorising takes -0.0 for 0.0; both must keep their own text
            text = v.astype("S")
            text[np.isnan(v)] = b""
            return None, text
        codes, uniques = pd.factorize(v, use_na_sentinel=False)
        u = np.asarray(uniques, dtype=dt)
        text = u.astype("S")  # S32 for float64: narrowed to the longest field, as the rows are that wide
        text[np.isnan(u)] = b""
        if not len(text):
            return codes, np.array([b""], dtype="S")
        return codes, text.astype(f"S{max(1, int(np.char.str_len(text).max()))}")
    if isinstance(dt, pd.SparseDtype):
        return None
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    if _merged_texts(s, uniques):
        return None
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
    quote = values.str.contains(quoted.pattern, regex=True).to_numpy(dtype=bool)  # QUOTE_MINIMAL's fields
    if quote.any():
        values[quote] = '"' + values[quote].str.replace('"', '""', regex=False) + '"'
    fields = [v.encode("utf-8") for v in values]
    return codes, np.array(fields, dtype="S") if fields else np.array([b""], dtype="S")
