"""Conversion of pandas data to R and back, explicit and column by column.

To R (``to_r_frame``):

* strings, objects and categoricals become **factors** (sdcMicro's ``freqCalc`` turns
  character columns into NA through ``as.numeric``; factors keep every category). Levels
  are the sorted distinct values (a categorical keeps its own categories and order);
* floats stay doubles, with NaN turned into R's NA (data.table groups NaN apart from NA);
* integers become R integers when they fit (else doubles); nullable integers keep NA;
* booleans become logicals;
* column names are kept exactly (no ``check.names``).

Numeric columns cross as whole buffers (rpy2's numpy converter), so 10^7 rows take
seconds, not minutes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._session import session

__all__ = ["to_r_frame", "from_r_frame", "r_vector", "py_vector", "r_str", "r_null", "to_r"]

_R_NA_INT = np.iinfo(np.int32).min  # R's NA_integer_


def _ro() -> Any:
    import rpy2.robjects as ro

    return ro


def r_vector(arr: np.ndarray) -> Any:
    """A 1-D numpy array (float64, int32 or bool) as an R vector, copied as one buffer."""
    from rpy2.robjects import numpy2ri
    from rpy2.robjects.conversion import localconverter

    ro = _ro()
    with localconverter(ro.default_converter + numpy2ri.converter) as cv:
        return cv.py2rpy(np.ascontiguousarray(arr))


def r_str(values: list[str] | tuple[str, ...] | str) -> Any:
    """A character vector."""
    ro = _ro()
    return ro.StrVector([values] if isinstance(values, str) else list(values))


def r_null() -> Any:
    return _ro().NULL


def _factor(s: pd.Series) -> Any:
    env = session()
    if isinstance(s.dtype, pd.CategoricalDtype):
        codes = s.cat.codes.to_numpy().astype(np.int32)
        levels = [str(c) for c in s.cat.categories]
        ordered = bool(s.cat.ordered)
    else:
        # Levels are the sorted distinct values, compared as strings (as R's as.factor would).
        na = s.isna().to_numpy()
        codes = np.full(len(s), -1, dtype=np.int32)
        sub, uniq = pd.factorize(pd.Series(s.to_numpy(dtype=object)[~na]).astype(str), sort=True)
        codes[~na] = sub
        levels, ordered = [str(u) for u in uniq], False
    codes = np.where(codes < 0, _R_NA_INT, codes + 1).astype(np.int32)
    return env["make_factor"](r_vector(codes), r_str(levels), ordered)


def _column(s: pd.Series) -> Any:
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype) or dt == object or pd.api.types.is_string_dtype(dt):
        return _factor(s)
    if pd.api.types.is_bool_dtype(dt):
        if s.isna().any():  # nullable boolean: R logical NA is NA_integer_ in the buffer
            arr = np.where(s.isna(), _R_NA_INT, s.fillna(False).astype(int)).astype(np.int32)
            return _ro().r("as.logical")(r_vector(arr))
        return r_vector(s.to_numpy(dtype=bool))
    if pd.api.types.is_integer_dtype(dt):
        na = s.isna().to_numpy()
        vals = s.to_numpy(dtype="float64", na_value=np.nan)
        fin = vals[~na]
        if fin.size == 0 or (fin.min() > _R_NA_INT and fin.max() <= np.iinfo(np.int32).max):
            arr = np.where(na, _R_NA_INT, np.nan_to_num(vals)).astype(np.int32)
            return r_vector(arr)
        return r_vector(vals)
    if pd.api.types.is_float_dtype(dt):
        return r_vector(s.to_numpy(dtype="float64", na_value=np.nan))
    raise TypeError(f"column {s.name!r} has dtype {dt}, which the bridge cannot pass to R.")


def to_r_frame(data: pd.DataFrame, columns: list[str] | tuple[str, ...] | None = None) -> Any:
    """An R data.frame holding `columns` of `data` (all columns by default)."""
    env = session()
    cols = list(data.columns if columns is None else columns)
    unknown = [c for c in cols if c not in data.columns]
    if unknown:
        raise ValueError(f"columns not in the data: {', '.join(map(repr, unknown))}.")
    ro = _ro()
    parts = ro.ListVector.from_length(len(cols)) if cols else ro.r("list()")
    for i, c in enumerate(cols):
        parts[i] = _column(data[c])
    return env["make_df"](parts, r_str([str(c) for c in cols]), len(data))


def py_vector(x: Any) -> np.ndarray:
    """An R numeric vector as float64 (NA -> NaN); NULL -> empty array."""
    if x is None or type(x).__name__ == "NULLType":
        return np.empty(0)
    return np.asarray(x, dtype=np.float64)


def _py_column(part: Any, n: int) -> pd.Series | pd.Categorical | np.ndarray:
    kind = str(part.rx2("kind")[0])
    values = part.rx2("values")
    if kind == "factor":
        codes = np.asarray(values, dtype=np.int64)
        codes = np.where(codes == _R_NA_INT, -1, codes - 1)
        levels = [str(v) for v in part.rx2("levels")]
        return pd.Categorical.from_codes(codes, categories=levels, ordered=bool(part.rx2("ordered")[0]))
    if kind in ("integer", "logical"):
        arr = np.asarray(values, dtype=np.int64)
        na = arr == _R_NA_INT
        if kind == "logical":
            return pd.array([None if m else bool(v) for v, m in zip(arr, na)], dtype="boolean") if na.any() else arr.astype(bool)
        if na.any():
            out = pd.array(np.where(na, 0, arr), dtype="Int64")
            out[na] = pd.NA
            return out
        return arr
    if kind == "double":
        # R's NA_real_ is a NaN with a payload (0x7ff00000000007a2): made the plain NaN, which
        # every pandas and numpy path treats alike.
        arr = np.array(values, dtype=np.float64)
        arr[np.isnan(arr)] = np.nan
        return arr
    import rpy2.rinterface as ri

    return np.array([None if v is ri.NA_Character else str(v) for v in values], dtype=object)


def from_r_frame(parts: Any) -> pd.DataFrame:
    """A pandas DataFrame from ``frame_parts()`` output (see ``_helpers.R``)."""
    names = [str(v) for v in parts.rx2("names")]
    n = int(parts.rx2("nrow")[0])
    cols = parts.rx2("columns")
    return pd.DataFrame({name: _py_column(cols[i], n) for i, name in enumerate(names)}, index=pd.RangeIndex(n))


def to_r(obj: Any) -> Any:
    """An R data frame of a pandas DataFrame, or of anything with ``to_frame()`` (every sdc
    result: ``sdc.k_anonymity(...)``, a protection run's table, ...). Strings and categoricals
    become factors (see the module notes)."""
    frame = obj.to_frame() if hasattr(obj, "to_frame") and not isinstance(obj, pd.DataFrame) else obj
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"to_r takes a DataFrame or a result with to_frame(); got {type(obj).__name__}.")
    flat = frame.reset_index() if not isinstance(frame.index, pd.RangeIndex) else frame
    # Integers beyond 2^53 (seeds) as text: R has no 64-bit integer, and a double would round them.
    big = [c for c in flat.columns if pd.api.types.is_integer_dtype(flat[c].dtype)
           and flat[c].notna().any() and flat[c].abs().max() > 2 ** 53]
    if big:
        flat = flat.assign(**{c: flat[c].astype(object).where(flat[c].notna(), None).map(
            lambda v: None if v is None else str(int(v))) for c in big})
    return to_r_frame(flat)
