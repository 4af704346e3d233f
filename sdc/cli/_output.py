"""``--quiet`` and ``--verbose``, for every command.

``--quiet``: errors, and the command's one-line result (what :func:`final` is given; a
command that gives none: the last line it printed), nothing else — no tables, notes,
warnings, stage lines or progress bars. ``--json`` output is the result and is printed whole,
as is a script (``sdc completion``). ``--verbose``: the stage lines (``sdc: reading ...``)
whether or not stderr is a terminal, each with the seconds since the start, and a last line
with the wall-clock and CPU time. Neither: stage lines and progress bars on a terminal only.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["add_flags", "output", "final", "show_progress", "quiet"]

#: Lines that reach stderr under --quiet.
_ERRORS = ("sdc: error", "sdc: interrupted")

_STATE: dict[str, Any] = {"quiet": False, "verbose": False, "result": None}


def add_flags(p: Any, *, top: bool = False) -> None:
    """-q/--quiet and -v/--verbose. On a subcommand they default to nothing, so that the flags
    given before the command (``sdc -q assess``) are not undone by the subcommand's default."""
    group = p.add_mutually_exclusive_group()
    default = False if top else argparse.SUPPRESS
    group.add_argument("-q", "--quiet", action="store_true", default=default,
                       help="print only errors and the one-line result")
    group.add_argument("-v", "--verbose", action="store_true", default=default,
                       help="print each stage with its time, and the time the command took")


def quiet() -> bool:
    return bool(_STATE["quiet"])


def show_progress(args: argparse.Namespace) -> bool:
    """Progress bars: on a terminal, not with --json or --quiet."""
    return not getattr(args, "json", False) and not quiet() and sys.stderr.isatty()


def final(text: str) -> None:
    """The command's one-line result, what --quiet prints alone at the end (without --quiet
    the command's full output says it already)."""
    _STATE["result"] = text


class _ErrorsOnly(io.TextIOBase):
    """stderr under --quiet: whole lines that are errors pass, the rest is dropped."""

    def __init__(self, stream: Any) -> None:
        self._stream, self._line = stream, ""

    def write(self, text: str) -> int:
        self._line += text
        *lines, self._line = self._line.split("\n")
        for line in lines:
            if line.startswith(_ERRORS):
                self._stream.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return False


@contextmanager
def output(args: argparse.Namespace) -> Iterator[None]:
    """Run a command with the output its flags ask for (see the module notes)."""
    from sdc._stages import enable

    verbose, whole = bool(getattr(args, "verbose", False)), getattr(args, "json", False) or getattr(args, "whole", False)
    _STATE.update(quiet=bool(getattr(args, "quiet", False)), verbose=verbose, result=None)
    on_terminal = not getattr(args, "json", False) and sys.stderr.isatty()
    enable(verbose or (not _STATE["quiet"] and (on_terminal or bool(os.environ.get("SDC_STAGES")))), timings=verbose)
    t0, c0 = time.perf_counter(), time.process_time()
    stdout, stderr = sys.stdout, sys.stderr
    captured = io.StringIO()
    if _STATE["quiet"]:
        sys.stderr = _ErrorsOnly(stderr)  # type: ignore[assignment]
        if not whole:
            sys.stdout = captured  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        if _STATE["quiet"] and not whole:
            lines = [x for x in captured.getvalue().splitlines() if x.strip()]
            line = _STATE["result"] or (lines[-1] if lines else None)
            if line:
                print(line)
        if verbose:
            print(f"sdc: done in {time.perf_counter() - t0:.2f} s (CPU {time.process_time() - c0:.2f} s)",
                  file=sys.stderr)
        _STATE.update(quiet=False, verbose=False, result=None)
        enable(False)
