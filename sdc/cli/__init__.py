"""The command line: ``sdc COMMAND ...``. It parses arguments, calls the library and prints;
it computes nothing itself."""

from sdc.cli.main import main

__all__ = ["main"]
