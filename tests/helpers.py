"""Helpers shared by the tests: the repository's root, its test data, the command-line runner."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from sdc.cli import main

ROOT = Path(__file__).resolve().parents[1]  # tests import this, wherever their file sits
TEST_DATA = ROOT / "tests" / "data"


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    """Run ``sdc ARGV`` in-process: exit status (argparse's usage errors included), stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors exit from inside the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def sigint_default() -> None:
    """`preexec_fn` of a child that a test interrupts: Ctrl-C at its default, so that Python
    installs its handler even when the test runner was started with SIGINT ignored (a shell's
    background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
