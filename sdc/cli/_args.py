"""Argument types and the parser class shared by every subcommand of the command line."""

from __future__ import annotations

import argparse

__all__ = ["Parser", "bins", "csv_list", "one_line"]


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
    """``col=0,18,65,inf`` (edges) or ``col=quantiles:4``."""
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=EDGES or COLUMN=quantiles:Q, got {text!r}")
    spec = spec.strip()
    if spec.startswith("quantiles:"):
        try:
            return name.strip(), {"quantiles": int(spec.split(":", 1)[1])}
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected quantiles:<integer>, got {spec!r}") from None
    try:
        return name.strip(), [float(x) for x in spec.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bin edges must be numbers (inf allowed), got {spec!r}") from None


def one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())
