"""Helpers shared by the attacks: JSON-ready values, numeric columns, seeded sampling."""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import is_numeric_column  # the one numeric predicate
from sdc.core.matching import JointKeys
from sdc.exceptions import CodingWarning

__all__ = ["plain", "is_numeric_column", "rng_from", "check_seed", "frame_rows", "warn_disjoint"]


def plain(x: Any) -> Any:
    """A JSON-ready copy of `x`: numpy scalars to Python numbers, NaN/inf to None, tuples to lists."""
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return [plain(v) for v in x.tolist()]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (numbers.Integral, np.integer)):
        return int(x)
    if isinstance(x, (numbers.Real, np.floating)):
        v = float(x)
        return None if math.isnan(v) or math.isinf(v) else v
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, str):
        return x
    return str(x)


def frame_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A DataFrame as JSON-ready row objects."""
    return [plain(dict(zip(map(str, df.columns), row))) for row in df.itertuples(index=False, name=None)]


def check_seed(seed: object) -> int:
    """A seed: a non-negative integer (recorded in every result)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise TypeError(f"`seed` must be a non-negative integer; got {plain(seed)!r}.")
    return int(seed)


def rng_from(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def warn_disjoint(joint: JointKeys, attacker: str) -> None:
    """Say so when a column's values in the attacker's file (`attacker`: "the external file",
    "the original") and the released file (``joint``'s left and right side) have none in
    common: the release coded it otherwise (bands, say), records then agree on it only where
    a value is missing, and the attack measures the coding, not the protection."""
    for k in joint.disjoint_keys():
        warnings.warn(f"column {k!r}: no value of {attacker} occurs in the released file (recoded there?); "
                      f"records agree on it only where a value is missing. Code {attacker} as the release is "
                      "coded.", CodingWarning, stacklevel=3)
