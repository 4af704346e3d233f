"""Argument types and the parser class shared by every subcommand of the command line."""

from __future__ import annotations

import argparse
import re

__all__ = ["Parser", "bins", "csv_list", "one_line", "flag_names"]


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (no usage dump)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def csv_list(text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"expected comma-separated column names, got {text!r}")
    return items


def bins(text: str) -> tuple[str, object]:
    """``col=0,18,65,inf`` (edges), ``col=quantiles:4`` or ``col=width:10`` (``width:10@5``: from 5)."""
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=EDGES, COLUMN=quantiles:Q or COLUMN=width:W, got {text!r}")
    spec = spec.strip()
    if spec.startswith("width:"):
        width, _, origin = spec.split(":", 1)[1].partition("@")
        try:
            out: dict[str, float] = {"width": float(width)}
            if origin:
                out["origin"] = float(origin)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected width:<number> (or width:<number>@<origin>), got {spec!r}") from None
        if not out["width"] > 0 or out["width"] == float("inf"):
            raise argparse.ArgumentTypeError(f"a bin width must be a positive number, got {spec!r}")
        return name.strip(), out
    if spec.startswith("quantiles:"):
        try:
            return name.strip(), {"quantiles": int(spec.split(":", 1)[1])}
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected quantiles:<integer>, got {spec!r}") from None
    try:
        return name.strip(), [float(x) for x in spec.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bin edges must be numbers (inf allowed), got {spec!r}") from None


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def one_line(exc: BaseException) -> str:
    """A message on one line, its control characters shown escaped (a column name holding a
    terminal escape code is printed, never run)."""
    text = str(exc).strip() or type(exc).__name__
    text = " ".join(text.split())
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def flag_names(parser: argparse.ArgumentParser, args: argparse.Namespace, text: str) -> str:
    """A library message in the command line's words: each backticked argument name that the
    command has as an option becomes that option (`cross_check` -> --cross-check)."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    command = sub.choices.get(getattr(args, "command", None) or "") if sub is not None else None
    options = {}
    for action in (command or parser)._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs:
            options[action.dest] = longs[0]
    return re.sub(r"`([A-Za-z_][A-Za-z0-9_]*)`", lambda m: options.get(m.group(1), m.group(0)), text)
