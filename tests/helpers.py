"""Helpers shared by the command-line tests."""

from __future__ import annotations

import pytest

from sdc.cli import main


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    """Run ``sdc ARGV`` in-process: exit status (argparse's usage errors included), stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors exit from inside the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
