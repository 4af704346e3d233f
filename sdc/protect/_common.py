"""Helpers shared by the protection methods: seeds, numeric columns, changed-cell counts."""

from __future__ import annotations

import numbers
import secrets

import numpy as np
import pandas as pd

from sdc._validation import check_columns, check_frame, check_int, is_numeric_column, numeric_values

__all__ = ["resolve_seed", "numeric_values", "check_variables", "count_changed", "is_numeric", "output_frame"]


def resolve_seed(seed: object) -> tuple[int, np.random.Generator]:
    """The seed to record and the Generator it starts.

    ``None`` draws a fresh 32-bit seed from the operating system, so every run is recorded
    with a seed that reproduces it.
    """
    if seed is None:
        seed = secrets.randbits(32)
    s = check_int(seed, "seed", min_value=0)
    return s, np.random.default_rng(s)


def check_variables(data: object, variables: object, *, role: str = "variables") -> tuple[pd.DataFrame, tuple[str, ...]]:
    frame = check_frame(data)
    return frame, check_columns(frame, variables, role=role)


# One numeric predicate and converter for the package (sdc._validation).
is_numeric = is_numeric_column


def _copy_on_write() -> bool:
    """Whether pandas copies on write (always from pandas 3; an option in 1.5 to 2.x)."""
    if int(pd.__version__.split(".")[0]) >= 3:
        return True
    try:
        return pd.get_option("mode.copy_on_write") is True
    except (KeyError, AttributeError):  # pragma: no cover - pandas without the option (OptionError is both)
        return False


def output_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame a method fills in: a deep copy of the input, or under copy-on-write a
    shallow one (writing to either side then copies first, so the input stays untouched)."""
    return frame.copy(deep=not _copy_on_write())


def count_changed(before: np.ndarray, after: np.ndarray) -> int:
    """Cells that differ (float arrays; missing on both sides is unchanged), as changed_cells counts."""
    nb, na = np.isnan(before), np.isnan(after)
    return int(((before != after) & ~(nb & na)).sum())


def check_number_or_none(value: object, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a number; got {value!r}.")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"`{name}` must be a finite number; got {value!r}.")
    return v


def integer_like(s: pd.Series) -> bool:
    """An integer dtype (numpy or nullable)."""
    return bool(pd.api.types.is_integer_dtype(s.dtype))


def restore_numeric(values: np.ndarray, like: pd.Series) -> pd.Series:
    """float64 results as a Series like `like`: an integer dtype is kept when every value is whole
    (nullable ``Int64`` where the input was nullable or a value is missing), float64 otherwise."""
    idx, name = like.index, like.name
    if integer_like(like):
        miss = np.isnan(values)
        fin = values[~miss]
        if fin.size == 0 or (np.all(fin == np.round(fin)) and np.abs(fin).max() < 2**53):
            if miss.any() or isinstance(like.dtype, pd.api.extensions.ExtensionDtype):
                arr = pd.array(np.where(miss, 0, values).astype(np.int64), dtype="Int64")
                arr[miss] = pd.NA
                return pd.Series(arr, index=idx, name=name)
            return pd.Series(values.astype(np.int64), index=idx, name=name)
    return pd.Series(values, index=idx, name=name)
