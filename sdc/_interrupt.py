"""Ctrl-C before the command line's main loop: while ``sdc`` (the script, or ``python -m sdc``)
imports the package, a SIGINT exits 130 with one line, ``sdc: interrupted``, not a traceback
through the imports (issue 26). Imported first by ``sdc/__init__.py``; standard library only.

A library user's ``import sdc`` is left alone: the handler is installed only when the process
was started as the command line (:func:`launched_as_cli`), and :func:`sdc.cli.main.main`
replaces it with its own once it runs.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

__all__ = ["launched_as_cli", "quiet_interrupt_while_importing", "INTERRUPTED_LINE", "INTERRUPTED_STATUS"]

INTERRUPTED_LINE = "sdc: interrupted"
#: What a shell reports for a process ended by SIGINT (128 + 2).
INTERRUPTED_STATUS = 130


def launched_as_cli() -> bool:
    """Whether this process is the ``sdc`` command line: the ``sdc`` script, or ``python -m sdc``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if name in ("sdc", "sdc.exe", "sdc-script.py"):
        return True
    orig = list(getattr(sys, "orig_argv", ()))
    return "-msdc" in orig or any(a == "-m" and b == "sdc" for a, b in zip(orig, orig[1:]))


def _exit_interrupted(signum: int, frame: Any) -> None:
    print(INTERRUPTED_LINE, file=sys.stderr, flush=True)
    raise SystemExit(INTERRUPTED_STATUS)


def quiet_interrupt_while_importing() -> None:
    """When the process is the command line and Python's own SIGINT handler is in force, make
    Ctrl-C exit 130 with one line until :func:`sdc.cli.main.main` installs its handler."""
    if not launched_as_cli():
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _exit_interrupted)
    except (ValueError, OSError):  # not the main thread
        pass
