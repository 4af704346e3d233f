"""The ``sdc`` script and ``python -m sdc``: the command line, started light.

``sdc`` alone (the workflow) and ``sdc --version`` / ``-V`` answer here without importing
pandas, numpy or the rest of the package (the package face loads on first use,
``sdc/__init__.py``); everything else goes to :func:`sdc.cli.main.main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sdc._overview import OVERVIEW

__all__ = ["main"]

_OUTPUT_FLAGS = ("-q", "--quiet", "-v", "--verbose")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sdc`` with `argv` (default: the process's arguments); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    rest = [a for a in args if a not in _OUTPUT_FLAGS]
    if not rest:
        print(OVERVIEW, end="")
        return 0
    if rest in (["-V"], ["--version"]):
        from sdc._version import __version__

        print(f"sdc {__version__}")
        return 0
    from sdc.cli.main import main as run

    return run(args)


if __name__ == "__main__":  # Dask's worker processes import the main module: run only as a script
    raise SystemExit(main())
