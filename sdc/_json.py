"""JSON-ready values: numpy and pandas scalars as Python numbers, NaN and infinities as null,
no -0.0; the one conversion every JSON document of sdc goes through."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["jsonable", "dumps", "frame_records"]


def jsonable(x: Any) -> Any:
    """Convert numpy/pandas scalars and containers to JSON-ready Python objects."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        return None if math.isnan(v) or math.isinf(v) else v + 0.0  # + 0.0: no -0.0 in a document
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, (int, str)):
        return x
    return str(x)


def dumps(obj: Any) -> str:
    """`obj` as an indented JSON document (no ASCII escapes, no NaN)."""
    return json.dumps(jsonable(obj), indent=2, ensure_ascii=False, allow_nan=False)


def frame_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A DataFrame as a list of row objects (missing values as null)."""
    return [jsonable(dict(zip(df.columns, row))) for row in df.itertuples(index=False, name=None)]
