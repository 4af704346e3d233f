"""Whether two report folders hold the same files, byte for byte, apart from the time they were
made and the output folder named in the command line: the check that a change made the run
faster without changing any number or output byte (issue 33).

    python -m validation.same_report BEFORE AFTER

Text files are compared after the generation time (``2026-12-04 19:26:15 UTC``) and each
folder's own path are blanked; ``.gz`` files after decompression; workbooks (``.xlsx``)
member by member, their document properties (which hold the time) left out; every other file
byte for byte. Prints each differing file and exits 1 when there is one, else prints ``same``.
"""

from __future__ import annotations

import gzip
import re
import sys
import zipfile
from pathlib import Path

_TIME = re.compile(rb"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?: ?UTC|Z|[+-]\d{2}:?\d{2})?")


def _text(data: bytes, folder: Path) -> bytes:
    return _TIME.sub(b"<time>", data.replace(str(folder).encode(), b"<out>"))


def _content(path: Path, folder: Path) -> object:
    data = path.read_bytes()
    if path.suffix == ".gz":
        return gzip.decompress(data)
    if path.suffix == ".xlsx":
        with zipfile.ZipFile(path) as z:
            return {n: _text(z.read(n), folder) for n in z.namelist() if not n.startswith("docProps/")}
    if path.suffix in (".png", ".csv"):
        return data
    return _text(data, folder)


def differences(before: Path, after: Path) -> list[str]:
    """The relative names of the files that differ (or are in one folder only)."""
    names = {str(p.relative_to(f)) for f in (before, after) for p in f.rglob("*") if p.is_file()}
    out = []
    for name in sorted(names - {".sdc-report"}):
        a, b = before / name, after / name
        if not (a.is_file() and b.is_file()) or _content(a, before) != _content(b, after):
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        raise SystemExit("usage: python -m validation.same_report BEFORE AFTER")
    diff = differences(Path(args[0]).resolve(), Path(args[1]).resolve())
    print("\n".join(f"differs: {d}" for d in diff) if diff else "same")
    raise SystemExit(1 if diff else 0)


if __name__ == "__main__":
    main()
