"""The byte-level structure scan of delimited files (sdc._structure._scan_bytes) against a plain
line-by-line reading, on random files cut into random chunks (a CR-LF pair may be split)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from sdc import _structure as io
from tests import scale


def _brute(text: bytes, sep: int) -> tuple[tuple[str, int, int] | None, set[int]]:
    """(("fields", first bad line, its fields) or None, fields with a leading-zero value)."""
    header = -1
    first = None
    zeros: set[int] = set()
    for no, line in enumerate(text.replace(b"\r\n", b"\n").split(b"\n"), 1):
        if not line:
            continue
        fields = line.split(bytes([sep]))
        zeros.update(i for i, f in enumerate(fields) if f.lstrip(b'"')[:1] == b"0" and f.lstrip(b'"')[1:2].isdigit()
                     and f[:2] != b'""')
        if header < 0:
            header = len(fields)
        elif len(fields) != header and first is None:
            first = ("quotes" if b'"' in text else "fields", no, len(fields))
    return first, zeros


def _chunks(text: bytes, cuts: list[int]):
    pos = 0
    for c in sorted(set(cuts)):
        if pos < c < len(text):
            yield text[pos:c]
            pos = c
    yield text[pos:]
    yield b""


@settings(max_examples=scale.examples(300), deadline=None)
@given(rows=st.lists(st.lists(st.sampled_from(["", "0", "00", "01", "10", "7", "0.5", "abc", "x0", "09", '"01"', '"0"', '"x"']),
                              min_size=1, max_size=4), min_size=1, max_size=12),
       crlf=st.booleans(), blank=st.booleans(), cuts=st.lists(st.integers(0, 200), max_size=6),
       sep=st.sampled_from([",", ";", "\t"]))
def test_scan_matches_line_by_line(rows, crlf, blank, cuts, sep):
    end = "\r\n" if crlf else "\n"
    lines = [sep.join(r) for r in rows]
    if blank:
        lines.insert(len(lines) // 2 + 1, "")
    text = (end.join(lines) + end).encode()
    problem, zeros = io._scan_bytes(_chunks(text, cuts), ord(sep), 10)
    want, want_zeros = _brute(text, ord(sep))
    assert zeros == want_zeros
    if want is None:
        assert problem is None
    else:
        assert problem is not None and problem[0] == want[0]
        assert f"line {want[1]:,} has {want[2]} field(s)" in problem[1]


def test_scan_counts_every_bad_line():
    text = b"a,b\n1,2\n3\n4,5,6\n7,8\n"
    problem, _ = io._scan_bytes(iter([text[:9], text[9:], b""]), ord(","), 10)
    assert problem[0] == "fields"
    assert "line 3 has 1 field(s) where the header has 2" in problem[1] and "2 lines differ" in problem[1]


@settings(max_examples=scale.examples(300), deadline=None)
@given(rows=st.lists(st.lists(st.sampled_from(["", "0", "00", "01", "10", "7", "0.5", "abc", "x0", "09", "0,0"]),
                              min_size=1, max_size=4), min_size=1, max_size=12),
       blank=st.booleans(), cuts=st.lists(st.integers(0, 120), max_size=6), sep=st.sampled_from([",", ";"]))
def test_scan_of_plain_chunks_matches_line_by_line(rows, blank, cuts, sep):
    """No quotes and no CRs: after the header's chunk, chunks take the cheap per-line count."""
    lines = [sep.join(r) for r in rows]
    if blank:
        lines.insert(len(lines) // 2 + 1, "")
    text = ("\n".join(lines) + "\n").encode()
    problem, zeros = io._scan_bytes(_chunks(text, [3, *cuts]), ord(sep), 10)
    want, want_zeros = _brute(text, ord(sep))
    assert zeros == want_zeros
    assert (problem is None) == (want is None)
    if want is not None:
        assert f"line {want[1]:,} has {want[2]} field(s)" in problem[1]


def test_plain_chunk_counts_lines_exactly():
    """A per-line count in uint8 wraps at 256: a line with 256 separators too many is still found,
    and wide headers (300 fields) are counted in uint16."""
    for fields in (2, 300):
        row = ",".join(["1"] * fields)
        good = ("\n".join([row] * 5) + "\n").encode()
        chunks = [good[:len(row) + 1], good[len(row) + 1:], b""]
        assert io._scan_bytes(iter(chunks), ord(","), 10) == (None, set())
        long = ",".join(["1"] * (fields + 256))
        bad = ("\n".join([row, row, long, row]) + "\n").encode()
        problem, _ = io._scan_bytes(iter([bad[:len(row) + 1], bad[len(row) + 1:], b""]), ord(","), 10)
        assert problem is not None and f"line 3 has {fields + 256} field(s)" in problem[1]
    # the fast check's verdict on one chunk, directly
    a = np.frombuffer(b"1,2\n3,4\n5,6\n", dtype=np.uint8)
    assert io._plain_lines(a, ord(","), 1, 0, False, 10) == (3, 0, False)
    assert io._plain_lines(np.frombuffer(b"1,2\n3\n5,6\n", dtype=np.uint8), ord(","), 1, 0, False, 10) is None
    assert io._plain_lines(np.frombuffer(b"1,2\n3,04\n", dtype=np.uint8), ord(","), 1, 0, False, 10) is None
