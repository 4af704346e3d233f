"""Stage lines: one line on stderr per step of a long command ("reading big.csv (80.9 MB)"),
so a run over millions of records is never silent. Off unless the command line turns them on
(:func:`enable`); the API stays quiet.

A caller may also listen (:func:`listening`): within its block, on its own thread, every stage
line and every progress bar's count (:func:`sdc.core.progress.progress_bar`) is passed to its
callback as ``(message, done, total)``, whether or not the lines are printed. ``sdc app`` shows
them in the page while a long action runs."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["enable", "stage", "listening", "listener", "Listener"]

#: A stage's listener: ``(message, done, total)``; `done` and `total` are None for a stage line.
Listener = Callable[[str, "int | None", "int | None"], None]
_LISTENER: ContextVar[Listener | None] = ContextVar("sdc_stage_listener", default=None)

_ON: list[float | None] = []  # empty: off; else the start time when lines carry timings


def enable(on: bool = True, *, timings: bool = False) -> None:
    """Turn stage lines on (the CLI, when progress is shown) or off; with `timings` each line
    says the seconds since this call (``sdc --verbose``)."""
    _ON.clear()
    if on:
        _ON.append(time.perf_counter() if timings else None)


def stage(message: str) -> None:
    """Print ``sdc: <message>`` on stderr when stage lines are on (``sdc: 1.25 s  <message>``
    with timings); tell the listener, if any (:func:`listening`)."""
    heard = _LISTENER.get()
    if heard is not None:
        heard(message, None, None)
    if _ON:
        t0 = _ON[0]
        when = "" if t0 is None else f"{time.perf_counter() - t0:6.2f} s  "
        print(f"sdc: {when}{message}", file=sys.stderr, flush=True)


def listener() -> Listener | None:
    """The listener of the current thread's block of :func:`listening`, or None."""
    return _LISTENER.get()


@contextmanager
def listening(callback: Listener) -> Iterator[None]:
    """Within the block (on this thread), pass every stage line and progress count to
    `callback(message, done, total)`."""
    token = _LISTENER.set(callback)
    try:
        yield
    finally:
        _LISTENER.reset(token)
