"""Where a result came from: the run's time, the command, the versions, the input files and
their SHA-256, built in one place for every run (assess, protect, compare, sweep, search).

The record is a plain ``dict`` (JSON-ready): :func:`provenance` makes it, with the run time
first and the caller's fields in the caller's order (each output keeps its layout);
:func:`versions` and :func:`platform_text` are the environment, :func:`sha256_file` the one
digest of a file the package computes, :func:`sha256_files` several by path.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Iterable
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from sdc._version import __version__

__all__ = ["provenance", "run_time", "utc_text", "sha256_file", "sha256_bytes", "sha256_files", "versions",
           "platform_text", "TIME_FORMAT"]

#: How a run's time is written in every provenance record and report.
TIME_FORMAT = "%Y-%m-%d %H:%M:%S UTC"


def sha256_file(path: str | Path) -> str:
    """The SHA-256 of a file's bytes (hex), read in 1 MiB pieces."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_bytes(data: bytes) -> str:
    """The SHA-256 of `data` (hex)."""
    return hashlib.sha256(data).hexdigest()


def sha256_files(paths: Iterable[str | Path]) -> dict[str, str]:
    """path (as given) -> SHA-256, for each file."""
    return {str(p): sha256_file(p) for p in paths}


def run_time(now: datetime | None = None) -> datetime:
    """The run's time: `now`, or the current UTC time."""
    return now if now is not None else datetime.now(timezone.utc)


def utc_text(when: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS UTC``."""
    return when.strftime(TIME_FORMAT)


def versions() -> dict[str, str]:
    """The versions of sdc, Python and the numerical libraries a result depends on."""
    import numpy as np
    import pandas as pd

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return {"sdc": __version__, "python": platform.python_version(), "numpy": np.__version__,
            "pandas": pd.__version__, "scipy": installed("scipy"), "statsmodels": installed("statsmodels"),
            "matplotlib": installed("matplotlib")}


def platform_text() -> str:
    """``"Linux x86_64"``."""
    return f"{platform.system()} {platform.machine()}"


def provenance(now: datetime | None = None, **fields: Any) -> dict[str, Any]:
    """A run's provenance record: ``generated_utc`` (from `now`, default the current UTC time),
    then `fields` in the order given."""
    return {"generated_utc": utc_text(run_time(now)), **fields}
