"""The command line's process setting (sdc/_process.py): large freed arrays kept for reuse."""

import importlib
import sys

import pytest

import sdc._process as proc
from sdc.cli.main import main

cli_main = importlib.import_module("sdc.cli.main")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mallopt is glibc's (Linux)")
def test_keep_freed_memory_on_glibc(monkeypatch):
    for v in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"):
        monkeypatch.delenv(v, raising=False)
    assert proc.keep_freed_memory() is True


def test_the_users_own_malloc_settings_win(monkeypatch):
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    assert proc.keep_freed_memory() is False


def test_the_command_line_asks_for_it(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(cli_main, "keep_freed_memory", lambda: calls.append(1) or True)
    assert main(["risk", "--keys", "a", "/nonexistent.csv"]) == 2
    assert calls == [1]
    assert "no such file" in capsys.readouterr().err
