"""The ``sdc app`` command: the whole workflow in the browser (see :mod:`sdc.app`).

``sdc app [DATA] [--port N] [--no-browser] [--export DIR] [--max-upload MB]`` starts the local
server on 127.0.0.1, prints its URL with the session's access token, opens the browser unless
told not to, and stops on Ctrl-C (its temporary files removed).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["add_parsers", "run_app"]


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port lies in 0..65535 (0: any free port); got {port}")
    return port


def _megabytes(text: str) -> int:
    try:
        mb = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size in megabytes, got {text!r}") from None
    if not mb > 0:
        raise argparse.ArgumentTypeError(f"the upload limit must be positive; got {text}")
    return int(mb * 2**20)


def add_parsers(sub: Any) -> None:
    """Add ``app`` to the ``sdc`` subcommands."""
    p = sub.add_parser(
        "app", help="the whole workflow in the browser: open, identify, assess, protect (with undo), compare, export",
        description="Start sdc's local web application on 127.0.0.1 (a random access token in the printed URL) "
                    "and open it in the browser: the bundled example or DATA, roles, the assessment, a "
                    "protection plan built step by step with undo and a preview of each step, the comparison, "
                    "and an export (release, reports, plan.toml, Python and R scripts) that `sdc protect` reruns "
                    "to the same release. Ctrl-C stops it.")
    p.add_argument("data", metavar="DATA", nargs="?", help="a data file the app may open (any format sdc reads)")
    p.add_argument("--port", type=_port, default=0, metavar="N", help="the port (default: any free port)")
    p.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    p.add_argument("--export", default="sdc-app-export", metavar="DIR",
                   help="where exports are written, a new sub-folder each time (default: sdc-app-export)")
    p.add_argument("--max-upload", type=_megabytes, default=None, metavar="MB",
                   help="the largest file the page may upload, in megabytes (default 512)")
    p.set_defaults(run=run_app)


def run_app(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from pathlib import Path

    from sdc.app.server import MAX_UPLOAD, serve

    if args.data is not None and not Path(args.data).is_file():
        raise ValueError(f"DATA {args.data!r} is not a file.")
    return serve(args.data, port=args.port, open_browser=not args.no_browser, export_dir=args.export,
                 max_upload=args.max_upload or MAX_UPLOAD)
