"""The structure of a delimited text file, checked before pandas reads it, and opening a
data file (plain or compressed) as bytes or text.

pandas pads a truncated row with missing values and splits a record at a stray carriage
return without a word; :func:`check_structure` refuses both, naming the line, and finds the
fields holding a code such as 0123 (which a number would lose). One pass over the bytes,
vectorised per chunk of 4 MB (:func:`_scan_bytes`); chunks without quotes or CRs take a
cheaper count (:func:`_plain_lines`). Whitespace-separated files are checked line by line.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from sdc.exceptions import DataFileError

__all__ = ["Scan", "check_structure", "first_undecodable_line", "not_utf8", "open_binary", "open_text", "WHITESPACE"]

#: The separator pattern of whitespace-separated files (runs of blanks).
WHITESPACE = r"\s+"
_CHUNK = 1 << 22  # bytes per step of the structure check


@dataclass
class Scan:
    header: list[str]
    zero_fields: set[int]


def check_structure(p: Path, sep: str, sample: str) -> Scan | None:
    """Refuse rows with the wrong number of fields and stray carriage returns; find the fields
    holding a value that starts with a 0 followed by a digit. None: not checked (a separator of
    several characters or a regular expression)."""
    if sep == WHITESPACE:
        return _check_whitespace(p)
    if len(sep) != 1 or len(sep.encode("utf-8")) != 1 or sep in "\"\r\n":
        return None
    header = next(csv.reader(io.StringIO(sample, newline=""), delimiter=sep), [])
    cr_only = "\n" not in sample and "\r" in sample
    with open_binary(p) as fh:
        problem, zeros = _scan_bytes(_chunks(fh), ord(sep), 13 if cr_only else 10)
    if problem is not None and problem[0] == "quotes":
        # The fast scan assumes RFC 4180 quoting; a quote inside an unquoted field (5'10")
        # confuses it, so let Python's csv reader (which pandas agrees with) decide.
        problem = _csv_problem(p, sep, cr_only)
    if problem is not None:
        raise DataFileError(f"cannot read data file '{p}': {problem[1]}")
    return Scan(header=header, zero_fields=zeros)


def _check_whitespace(p: Path) -> Scan:
    header: list[str] | None = None
    zeros: set[int] = set()
    first_bad, bad_fields, n_bad = 0, 0, 0
    with open_text(p, newline=None) as fh:
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
    return Scan(header=header or [], zero_fields=zeros)


def _fields_message(line: int, fields: int, header: int, n_bad: int) -> str:
    what = " (a truncated row?)" if fields < header else ""
    more = f"; {n_bad:,} lines differ in all" if n_bad > 1 else ""
    return (f"line {line:,} has {fields} field(s) where the header has {header}{what}{more}. Fix the file "
            f"(or quote fields that hold the delimiter); sdc does not pad or cut rows.")


def _cr_message(line: int) -> str:
    return (f"line {line:,} holds a carriage return (CR) outside quotes, which would split its record in two; "
            "fix the line ends (e.g. with dos2unix) or quote the field.")


def _positions(a: np.ndarray, outside: np.ndarray | None, sep: int, newline: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Positions of the physical line ends, the record ends and the separators (outside
    quotes) of a chunk, and the separators before each record end. `outside` None: no quotes
    (every byte is outside), one pass finds both."""
    if outside is None:
        hits = np.flatnonzero((a == newline) | (a == sep))
        at_nl = a[hits] == newline
        j = np.flatnonzero(at_nl)
        nl = hits[j]
        return nl, nl, hits[~at_nl], j - np.arange(j.size)  # the hits before the j-th line end that are separators
    is_nl = a == newline
    nl = np.flatnonzero(is_nl & outside)
    sep_at = np.flatnonzero((a == sep) & outside)
    return np.flatnonzero(is_nl), nl, sep_at, np.searchsorted(sep_at, nl, side="right")


def _zero_fields(a: np.ndarray, sep_at: np.ndarray, nl: np.ndarray, before_start: np.ndarray, carry_seps: int,
                 outside: np.ndarray | None, has_quote: bool, before: tuple[int, int], sep: int) -> set[int]:
    """The fields of a chunk with a leading-zero value: a '0' followed by a digit at the start
    of a field (or after its opening quote). Candidates: the first two bytes of the chunk, and
    each field's first byte (after a separator or a line end) and, after an opening quote, its
    second. `before`: the two bytes before the chunk. The separators up to and including byte
    i are a binary search in `sep_at` (cheaper than a running count over every byte)."""
    z = np.concatenate([np.arange(min(2, a.size)), sep_at + 1, nl + 1])
    if has_quote:
        q = z[z < a.size]
        z = np.concatenate([z, q[a[q] == 34] + 1])
    z = z[z < a.size - 1]
    z = z[(a[z] == 48) & ((a[z + 1] - np.uint8(48)) <= 9)]  # uint8: below '0' wraps above 9
    if not z.size:
        return set()
    ext = np.concatenate([np.array(before, dtype=np.uint8), a])
    b1, b2 = ext[z + 1], ext[z]  # a[z - 1], a[z - 2]
    ends_field = (b1 == sep) | (b1 == 10) | (b1 == 13)
    opener = (b1 == 34) & ((b2 == sep) | (b2 == 10) | (b2 == 13))
    keep = z[(ends_field if outside is None else ends_field & outside[z]) | opener]
    if not keep.size:
        return set()
    seg = np.searchsorted(nl, keep)
    col = np.searchsorted(sep_at, keep, side="right") - before_start[seg] + np.where(seg == 0, carry_seps, 0)
    return {int(c) for c in np.unique(col)}


def _bare_cr(a: np.ndarray, outside: np.ndarray | None, phys: np.ndarray, lines_before: int) -> int:
    """The line of the first CR outside quotes not followed by an LF in a chunk, or 0."""
    cr = np.flatnonzero(a == 13 if outside is None else (a == 13) & outside)
    if not cr.size:
        return 0
    bare = cr[a[cr + 1] != 10]  # never the last byte: held back, or the final newline follows
    return lines_before + 1 + int(np.searchsorted(phys, bare[0])) if bare.size else 0


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
        phys, nl, sep_at, seps_to_nl = _positions(a, outside, sep, newline)
        if newline == 10 and not bare_cr and buf.find(b"\r") >= 0:
            bare_cr = _bare_cr(a, outside, phys, lines_before)
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
        zeros.update(_zero_fields(a, sep_at, nl, before_start, carry_seps, outside, has_quote, (prev2, prev), sep))
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
    with open_text(p, newline="\r" if cr_only else "\n") as fh:
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


def not_utf8(line: int) -> str:
    """The reason given for a file whose line `line` (from 1) is not UTF-8 text."""
    return f"line {line} is not UTF-8 text; save the file as UTF-8."


class _NotUtf8(Exception):
    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def _utf8_blocks(blocks: Iterator[bytes]) -> Iterator[bytes]:
    """The blocks, each decoded first; raises _NotUtf8 with the line (from 1) of the first
    byte that is not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines = 0
    for block in blocks:
        try:
            decoder.decode(block, final=not block)
        except UnicodeDecodeError as exc:
            # exc.object: the bytes the decoder held from the previous block (part of one
            # character, never a line end), then this block
            raise _NotUtf8(lines + exc.object[:exc.start].count(b"\n") + 1) from None
        lines += block.count(b"\n")
        yield block


def first_undecodable_line(p: Path) -> int | None:
    """The line (from 1) of a file's first byte that is not UTF-8 (decompressed if needed), or
    None: all UTF-8, or unreadable (the caller's own error then stands)."""
    import lzma
    import zipfile
    import zlib

    try:
        with open_binary(p) as fh:
            for _ in _utf8_blocks(_chunks(fh)):
                pass
    except _NotUtf8 as exc:
        return exc.line
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, DataFileError):
        return None
    return None


def _chunks(fh: BinaryIO) -> Iterator[bytes]:
    while True:
        block = fh.read(_CHUNK)
        yield block
        if not block:
            return


def open_binary(p: Path) -> BinaryIO:
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
        try:
            z = zipfile.ZipFile(p)
        except zipfile.BadZipFile:
            raise DataFileError(f"cannot read data file '{p}': not a zip archive, or a truncated one.") from None
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


def open_text(p: Path, newline: str | None) -> io.TextIOWrapper:
    return io.TextIOWrapper(open_binary(p), encoding="utf-8", errors="replace", newline=newline)
