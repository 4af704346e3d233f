"""Stage lines: one line on stderr per step of a long command ("reading big.csv (80.9 MB)"),
so a run over millions of records is never silent. Off unless the command line turns them on
(:func:`enable`); the API stays quiet."""

from __future__ import annotations

import sys
import time

__all__ = ["enable", "stage"]

_ON: list[float | None] = []  # empty: off; else the start time when lines carry timings


def enable(on: bool = True, *, timings: bool = False) -> None:
    """Turn stage lines on (the CLI, when progress is shown) or off; with `timings` each line
    says the seconds since this call (``sdc --verbose``)."""
    _ON.clear()
    if on:
        _ON.append(time.perf_counter() if timings else None)


def stage(message: str) -> None:
    """Print ``sdc: <message>`` on stderr when stage lines are on (``sdc: 1.25 s  <message>``
    with timings)."""
    if _ON:
        t0 = _ON[0]
        when = "" if t0 is None else f"{time.perf_counter() - t0:6.2f} s  "
        print(f"sdc: {when}{message}", file=sys.stderr, flush=True)
