"""What every utility measure shares: matching the two files, choosing the variables, typing them.

Records are matched by index: the released file must hold exactly the records of the
original (the same index labels, unique; the order may differ, and the released records
are then taken in the original's order). Anything else is a clear error, never a silent
truncation (sdcMicro's ``dUtility`` means to cut the longer file to the shorter
one, and in 5.8.2 fails with "object 'obj' not found" instead).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from sdc._validation import check_columns, check_frame, is_numeric_column, plain
from sdc._validation import numeric_values as _numeric_values

__all__ = [
    "align", "resolve_variables", "numeric_variables", "check_categorical", "is_numeric", "variable_kind", "changed_variables",
    "interval_bounds", "numeric_values", "KINDS",
]

#: How a variable is compared (see :func:`variable_kind`).
KINDS = ("numeric", "generalised", "categorical")


def _label(x: object) -> str:
    return repr(plain(x)) if not isinstance(x, (float, np.floating)) else f"{float(x):g}"  # plain: numpy 2 reprs


def align(original: object, released: object) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Validate both frames and return them with the released records in the original's order.

    Raises ``ValueError`` when the frames do not hold the same records (different lengths,
    a duplicated index label, or labels in one frame that are not in the other).
    """
    orig = check_frame(original, "original")
    rel = check_frame(released, "released")
    if len(orig) != len(rel):
        raise ValueError(
            f"`released` has {len(rel)} records and `original` {len(orig)}; the records are matched by index, "
            "so both files must hold the same records (remove deleted records from `original` too)."
        )
    for frame, name in ((orig, "original"), (rel, "released")):
        if not frame.index.is_unique:
            dup = frame.index[frame.index.duplicated()][0]
            raise ValueError(
                f"`{name}` has a duplicated index label {_label(dup)}; records are matched by index, "
                "so every label must be unique (reset the index of both files, or set an id column as index)."
            )
    if orig.index.equals(rel.index):
        return orig, rel
    missing = orig.index.difference(rel.index, sort=False)
    if len(missing):
        raise ValueError(
            f"record {_label(missing[0])} of `original` is not in `released` ({len(missing)} index labels differ); "
            "records are matched by index, so both files must use the same labels."
        )
    # The same labels in another order: compare record with record.
    return orig, rel.reindex(orig.index)


def resolve_variables(
    original: pd.DataFrame, released: pd.DataFrame, variables: object, *, role: str = "variables",
    default_changed: bool = True,
) -> tuple[str, ...]:
    """The variables to compare: named columns present in both frames.

    ``None`` means every column of `original` that is also in `released` and whose values
    differ somewhere (the transformed variables) when `default_changed`, else every
    common column.
    """
    if variables is None:
        common = [c for c in original.columns if c in released.columns and isinstance(c, str)]
        if not default_changed:
            return tuple(common)
        return tuple(changed_variables(original, released, common))
    cols = check_columns(original, variables, role=role)
    absent = [c for c in cols if c not in released.columns]
    if absent:
        raise ValueError(f"`{role}` names columns not in `released`: {', '.join(map(repr, absent))}.")
    return cols


def numeric_variables(original: pd.DataFrame, released: pd.DataFrame, variables: object) -> tuple[str, ...]:
    """The numeric variables to compare: the named ones (:func:`resolve_variables`), or by
    default every column numeric in both frames (refused in one line when there is none)."""
    if variables is not None:
        return resolve_variables(original, released, variables)
    cols = tuple(c for c in original.columns if isinstance(c, str) and c in released.columns
                 and is_numeric(original[c]) and is_numeric(released[c]))
    if not cols:
        raise ValueError("`original` and `released` share no numeric column; name the `variables`.")
    return cols


def check_categorical(categorical: object, variables: tuple[str, ...]) -> frozenset[str]:
    """The variables to treat as categorical whatever their dtype (must be among `variables`)."""
    if categorical is None:
        return frozenset()
    if isinstance(categorical, str):
        categorical = [categorical]
    if not isinstance(categorical, Iterable):
        raise TypeError(f"`categorical` must be a column name or a sequence of names; got {type(categorical).__name__}.")
    cats = list(categorical)
    for c in cats:
        if not isinstance(c, str):
            raise TypeError(f"`categorical` must contain column names (str); got {c!r}.")
        if c not in variables:
            raise ValueError(f"`categorical` names {c!r}, which is not among the variables compared.")
    return frozenset(cats)


# One numeric predicate for the package (sdc._validation): real numbers, not booleans nor complex.
is_numeric = is_numeric_column


def changed_variables(original: pd.DataFrame, released: pd.DataFrame, columns: Iterable[str]) -> list[str]:
    """Columns whose values differ in at least one record (missing on both sides = equal)."""
    from sdc.core.values import encode_pair

    out = []
    for c in columns:
        a, b, _ = encode_pair(original[c], released[c])
        if bool((a != b).any()):
            out.append(c)
    return out


# Interval labels: sdc's own bins ("20--30", "65--inf"), pandas' ("[20, 30)", "(20.0, 30.0]"),
# and the common "20-29" (a hyphen between two numbers, the second not negative).
_NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|Inf|INF)"
_PATTERNS = (
    re.compile(rf"^\s*[\[(]\s*({_NUM})\s*,\s*({_NUM})\s*[\])]\s*$"),
    re.compile(rf"^\s*({_NUM})\s*--\s*({_NUM})\s*$"),
    re.compile(rf"^\s*({_NUM})\s*-\s*(\d+\.?\d*|inf|Inf)\s*$"),
)


def _bounds(value: object) -> tuple[float, float] | None:
    """(low, high) of an interval value or label, (v, v) for a plain number, None otherwise."""
    if isinstance(value, pd.Interval):
        return float(value.left), float(value.right)
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        v = float(value)
        return None if math.isnan(v) else (v, v)
    if not isinstance(value, str):
        return None
    for pat in _PATTERNS:
        m = pat.match(value)
        if m:
            lo, hi = float(m.group(1)), float(m.group(2))
            return (lo, hi) if lo <= hi else None
    try:
        v = float(value)
    except ValueError:
        return None
    return None if math.isnan(v) else (v, v)


def interval_bounds(s: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per record: the low and high end of a released interval, and whether it parsed.

    Missing values and labels that are not intervals or numbers give NaN bounds and
    ``parsed = False``. Each distinct value is parsed once.
    """
    from sdc.core.values import encode_values

    codes, uniques = encode_values(s)
    parsed = [_bounds(u) for u in uniques]
    lo_u = np.array([p[0] if p else np.nan for p in parsed] + [np.nan], dtype=np.float64)
    hi_u = np.array([p[1] if p else np.nan for p in parsed] + [np.nan], dtype=np.float64)
    idx = np.where(codes < 0, len(parsed), codes)
    lo, hi = lo_u[idx], hi_u[idx]
    return lo, hi, ~np.isnan(lo)


def variable_kind(before: pd.Series, after: pd.Series, categorical: frozenset[str]) -> str:
    """``numeric`` (numeric on both sides), ``generalised`` (a numeric variable released as
    intervals: at least one released value is an interval label), else ``categorical``."""
    name = str(before.name)
    if name in categorical:
        return "categorical"
    if is_numeric(before) and is_numeric(after):
        return "numeric"
    if is_numeric(before) and not pd.api.types.is_bool_dtype(after.dtype):
        lo, hi, ok = interval_bounds(after)
        if bool((ok & (hi > lo)).any()):
            return "generalised"
    return "categorical"


def numeric_values(s: pd.Series, frame: str) -> np.ndarray:
    """float64 values of a numeric column of `frame` (NaN for missing): sdc._validation's."""
    return _numeric_values(s, "a utility measure", where=frame)
