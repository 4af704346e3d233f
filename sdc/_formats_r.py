"""The formats read and written through R (haven, arrow) by sdc's bridge, where R is the
only route on a machine (:mod:`sdc._labelled` has the Python routes)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sdc._labelled import Labels
from sdc.exceptions import DataFileError

__all__ = ["r_route", "read_with_r", "write_with_r"]


def r_route(package: str = "haven") -> str | None:
    """Why R cannot serve (None: it can): no rpy2 or R, or R without `package`."""
    try:
        from sdc._rbridge import bridge

        b = bridge()
    except ImportError as exc:
        return f"sdc's R bridge is not installed ({exc})"
    if not b.is_available():
        return b.unavailable_reason()
    from importlib import import_module

    haven = import_module(f"{b.__name__}.haven")
    return None if haven.has_r_package(package) else f"R has no '{package}' package"


def _haven():  # noqa: ANN202
    from importlib import import_module

    from sdc._rbridge import bridge

    return import_module(f"{bridge().__name__}.haven")


def read_with_r(p: Path, kind: str) -> tuple[pd.DataFrame, Labels]:
    """The file read by R (user-missing values as missing, codes kept) and its labels."""
    haven = _haven()
    try:
        df, meta = haven.read_labelled(str(p), kind)
    except Exception as exc:  # RBridgeError: R's message, one line
        msg = " ".join(str(getattr(exc, "r_message", exc)).split())
        raise DataFileError(f"cannot read data file '{p}': R could not read it ({msg}).") from None
    return df, Labels.from_meta(meta)


def write_with_r(data: pd.DataFrame, path: Path, kind: str, labels: Labels) -> None:
    """`data` written by R as `kind` with `labels`."""
    _haven().write_labelled(data, str(path), kind, labels.to_meta())
