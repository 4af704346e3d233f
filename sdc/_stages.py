"""Stage lines: one line on stderr per step of a long command ("reading big.csv (80.9 MB)"),
so a run over millions of records is never silent. Off unless the command line turns them on
(:func:`enable`); the API stays quiet."""

from __future__ import annotations

import sys

__all__ = ["enable", "stage"]

_ON: list[bool] = []


def enable(on: bool = True) -> None:
    """Turn stage lines on (the CLI, when progress is shown) or off."""
    _ON.clear()
    if on:
        _ON.append(True)


def stage(message: str) -> None:
    """Print ``sdc: <message>`` on stderr when stage lines are on."""
    if _ON:
        print(f"sdc: {message}", file=sys.stderr, flush=True)
