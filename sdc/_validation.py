"""Input validation shared by every public function.

Each helper takes ``(value, name)``, returns the standardised value, or raises with one
sentence template: "`name` must ...; got ...". ``TypeError`` for the wrong kind of thing,
``ValueError`` for a wrong value. No helper modifies its input.
"""

from __future__ import annotations

import difflib
import math
import numbers
import re
import reprlib
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "did_you_mean",
    "check_frame",
    "check_columns",
    "check_weights",
    "check_weights_not_key",
    "is_big_integer",
    "check_int",
    "check_fraction",
    "check_option",
    "check_keys",
    "plain",
    "dtype_name",
    "is_real_numeric",
    "is_numeric_column",
    "numeric_values",
]


def plain(value: object) -> object:
    """`value` with a numpy scalar turned into the Python one, for messages.

    numpy 2 writes ``np.float64(0.5)`` and ``np.int64(3)`` where a reader expects ``0.5``
    and ``3``; format ``{plain(v)!r}`` reads the same on every numpy.
    """
    return value.item() if isinstance(value, np.generic) else value


_SHOWN = reprlib.Repr()
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxset = _SHOWN.maxdict = 8
_SHOWN.maxstring = _SHOWN.maxother = 100
_SHOWN_CHARS = 160


def shown_value(value: object) -> str:
    """`value`'s repr for a one-line message: long sequences cut (``[0.5, 0.5, ...]``), a multi-line
    repr (a DataFrame) on one line, at most 160 characters."""
    text = " ".join(_SHOWN.repr(plain(value)).split())
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 3] + "..."


def dtype_name(dtype: object) -> str:
    """A column's kind for messages, the same on every pandas: ``"text"`` for strings (pandas < 3
    stores them as ``object``, pandas 3 as ``str``), else ``"dtype <name>"``."""
    if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
        return "text"
    return f"dtype {dtype}"


def is_real_numeric(dtype: object) -> bool:
    """Whether a column of dtype `dtype` holds real numbers: numeric, not boolean (booleans are
    categories) and not complex (converting to float64 would silently drop the imaginary part)."""
    return (
        bool(pd.api.types.is_numeric_dtype(dtype))
        and not pd.api.types.is_bool_dtype(dtype)
        and not pd.api.types.is_complex_dtype(dtype)
    )


def is_numeric_column(s: pd.Series) -> bool:
    """Whether a column holds real numbers (:func:`is_real_numeric` of its dtype): the one
    predicate every measure and method asks ("needs numeric columns")."""
    return is_real_numeric(s.dtype)


def numeric_values(s: pd.Series, what: str, *, copy: bool = True, where: str = "") -> np.ndarray:
    """float64 values of a real-numeric column (NaN for missing), or a ``ValueError`` naming the
    column and `what` needs numbers (``"microaggregation needs numeric columns; column 'sex'
    is text."``); an infinite value is refused naming its index label. `where` names the
    frame the column is of, where a call has two (``"column 'age' of `released`"``).

    ``copy=False`` lets a float64 column's own array through, for callers that only read it.
    """
    col = f"column {str(s.name)!r}" + (f" of `{where}`" if where else "")
    if not is_numeric_column(s):
        raise ValueError(f"{what} needs numeric columns; {col} is {dtype_name(s.dtype)}.")
    v = s.to_numpy() if (not copy and s.dtype == np.float64) else s.to_numpy(dtype="float64", na_value=np.nan)
    bad = np.isinf(v)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{col} has the non-finite value {float(v[i])!r} at index {plain(s.index[i])!r}; set it "
                         "to missing.")
    return v


def check_frame(data: object, name: str = "data") -> pd.DataFrame:
    """Return `data` if it is a non-empty DataFrame with unique column names."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"`{name}` must be a pandas DataFrame; got {type(data).__name__}.")
    if len(data) == 0:
        raise ValueError(f"`{name}` is empty: it has no records.")
    if not data.columns.is_unique:
        dup = sorted({str(c) for c in data.columns[data.columns.duplicated()]})
        raise ValueError(f"`{name}` has duplicated column names: {', '.join(map(repr, dup))}.")
    return data


def did_you_mean(name: object, choices: Iterable[object]) -> str:
    """`` (did you mean 'x'?)`` for the closest of `choices` to `name`, or ``""``."""
    close = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_columns(
    data: pd.DataFrame, columns: object, *, role: str, allow_empty: bool = False, where: str = "the data"
) -> tuple[str, ...]:
    """Standardise a column list (a name or a sequence of names) for the role `role`; `where`
    names `data` in the message (``"the external file"`` where two files are read).

    Raises for: a non-string entry, an empty list, duplicates, and names not in `data`
    (each with a close-match suggestion).
    """
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, Iterable):
        raise TypeError(
            f"`{role}` must be a column name or a sequence of column names; "
            f"got {type(columns).__name__}."
        )
    cols = list(columns)
    for c in cols:
        if not isinstance(c, str):
            raise TypeError(f"`{role}` must contain column names (str); got {c!r}.")
    if not cols and not allow_empty:
        raise ValueError(f"`{role}` must name at least one column; got none.")
    seen: set[str] = set()
    dups = [c for c in cols if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
    if dups:
        raise ValueError(f"`{role}` names a column more than once: {', '.join(map(repr, dups))}.")
    unknown = [c for c in cols if c not in data.columns]
    if unknown:
        parts = [f"{c!r}{did_you_mean(c, data.columns)}" for c in unknown]
        raise ValueError(f"`{role}` names columns not in {where}: {', '.join(parts)}.{_one_column_hint(data, unknown)}"
                         f"{_columns_read(data, cols, unknown)}")
    return tuple(cols)


def _columns_read(data: pd.DataFrame, cols: list[str], unknown: list[str]) -> str:
    """When none of several names is in the data (a header on another row, another sheet), the
    columns that were read."""
    if len(cols) < 2 or len(unknown) != len(cols) or data.shape[1] <= 1 \
            or any(did_you_mean(c, data.columns) for c in unknown):
        return ""
    names = [repr(str(c)) for c in data.columns[:8]]
    more = f" and {data.shape[1] - 8} more" if data.shape[1] > 8 else ""
    return f" The columns read are {', '.join(names)}{more}."


def _one_column_hint(data: pd.DataFrame, unknown: list[str]) -> str:
    """A file read with the wrong delimiter has one column, named by the whole header line."""
    if data.shape[1] != 1:
        return ""
    header = str(data.columns[0])
    if not any(c in header for c in unknown) or not any(d in header for d in ",;\t|"):
        return ""
    shown = header if len(header) <= 60 else header[:57] + "..."
    return (f" The data have one column, {shown!r}: was the file read with the wrong delimiter? "
            "(give it: --sep, [data] sep or read_data(sep=...))")


def check_keys(data: pd.DataFrame, keys: object) -> tuple[str, ...]:
    """Key variables: known, distinct columns, none entirely missing, no infinite values."""
    cols = check_columns(data, keys, role="keys")
    check_key_values(data, cols)
    return cols


def check_key_values(data: pd.DataFrame, cols: Sequence[str], *, at_index: bool = True) -> None:
    """Refuse a key missing in every record or holding an infinite value (naming the first
    one's index label when `at_index`; a table of distinct patterns has no record index)."""
    for c in cols:
        s = data[c]
        if s.isna().all():
            raise ValueError(f"key variable {c!r} is missing in every record; drop it from `keys`.")
        if pd.api.types.is_float_dtype(s.dtype):
            v = s.to_numpy(dtype="float64", na_value=np.nan)
            bad = np.isinf(v)
            if bad.any():
                i = int(np.argmax(bad))
                where = f" at index {plain(s.index[i])!r}" if at_index else ""
                raise ValueError(f"key variable {c!r} has a non-finite value {plain(v[i])!r}{where}; "
                                 "recode it or set it to missing.")


def check_weights_not_key(weights: object, keys: Iterable[object]) -> None:
    """A sampling-weight column may not also be a key (each record's weight would split its
    class, and the weight would count as something an intruder knows)."""
    if isinstance(weights, str) and weights in set(keys):
        raise ValueError(f"`weights` column {weights!r} is also one of the `keys`: a sampling weight is not a key "
                         "variable (every record's weight would split its class); leave it out of the keys.")


def check_weights(data: pd.DataFrame, weights: str | None, *, min_value: float = 1.0) -> np.ndarray | None:
    """Return the weight column as float64, or None when `weights` is None.

    Sampling weights are design weights (inverse inclusion probabilities), so every
    weight must be numeric, finite and >= `min_value` (1 by default: a weight below 1
    would make the population frequency smaller than the sample frequency).
    """
    if weights is None:
        return None
    if not isinstance(weights, str):
        raise TypeError(f"`weights` must be a column name (str) or None; got {plain(weights)!r}.")
    (col,) = check_columns(data, [weights], role="weights")
    s = data[col]
    if not is_real_numeric(s.dtype):
        bad = _first_non_numeric(s)
        if is_big_integer(bad):
            raise ValueError(f"weight column {col!r} holds whole numbers beyond the 64-bit range, read as text "
                             f"(e.g. {plain(bad)!r}): no sampling weight is that large.")
        raise ValueError(
            f"weight column {col!r} must be numeric; got {dtype_name(s.dtype)}"
            + (f" with value {plain(bad)!r}" if bad is not None else "")
            + "."
        )
    w = s.to_numpy(dtype="float64", na_value=np.nan)
    _check_finite_positive(w, s, col, min_value)
    return w


_INTEGER_TEXT = re.compile(r"\s*[+-]?\d+\s*")


def is_big_integer(value: object) -> bool:
    """Whether `value` is a whole number (as text or a Python int) outside the 64-bit integer
    types' range (below -2^63 or from 2^64 on), which readers keep as text or objects."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        v = int(value)  # pandas 3 reads such a column as objects holding Python ints
    elif isinstance(value, str) and _INTEGER_TEXT.fullmatch(value) is not None:
        v = int(value)
    else:
        return False
    return v < -(2**63) or v >= 2**64


def _first_non_numeric(s: pd.Series) -> object:
    """The first value that is not a number, nor text reading as one: in a column read as text
    because of one bad cell, that cell ('n/a'), not the first cell ('12.29')."""
    values = s[s.notna()]
    if not len(values):
        return None
    parsed = pd.to_numeric(values.map(lambda v: v if isinstance(v, str) else np.nan), errors="coerce")
    bad = ~values.map(lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool)) & parsed.isna()
    if bad.any():
        return values[bad].iloc[0]
    return values.iloc[0]  # every value reads as a number: text that is numeric ('12.29')


def _check_finite_positive(w: np.ndarray, s: pd.Series, col: str, min_value: float) -> None:
    bad = np.isnan(w)
    if bad.any():
        raise ValueError(
            f"weight column {col!r} has {int(bad.sum())} missing value(s), first at index "
            f"{plain(s.index[np.argmax(bad)])!r}; every record needs a weight."
        )
    bad = ~np.isfinite(w)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"weight column {col!r} has a non-finite value {plain(w[i])!r} at index {plain(s.index[i])!r}.")
    bad = w <= 0
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"weight column {col!r} must be positive; got {plain(w[i])!r} at index {plain(s.index[i])!r}."
        )
    bad = w < min_value
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"weight column {col!r} must be >= {min_value:g} (a sampling weight is an inverse "
            f"inclusion probability); got {plain(w[i])!r} at index {plain(s.index[i])!r}."
        )


def check_int(value: object, name: str, *, min_value: int | None = None, max_value: int | None = None) -> int:
    """An integer (bool refused) within optional bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {plain(value)!r}.")
    v = int(value)
    if min_value is not None and v < min_value:
        raise ValueError(f"`{name}` must be an integer >= {min_value}; got {v}.")
    if max_value is not None and v > max_value:
        raise ValueError(f"`{name}` must be an integer <= {max_value}; got {v}.")
    return v


def check_number(
    value: object, name: str, *, low: float, high: float, low_open: bool = False, high_open: bool = False,
    finite: bool = True,
) -> float:
    """A real number in the interval between `low` and `high` (finite unless `finite=False`)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a number; got {plain(value)!r}.")
    v = float(value)
    lo_ok = v > low if low_open else v >= low
    hi_ok = v < high if high_open else v <= high
    if math.isnan(v) or (finite and math.isinf(v)) or not (lo_ok and hi_ok):
        interval = ("(" if low_open else "[") + f"{low:g}, {high:g}" + (")" if high_open else "]")
        raise ValueError(f"`{name}` must lie in {interval}; got {plain(value)!r}.")
    return v


def check_fraction(value: object, name: str, *, closed: str = "both") -> float:
    """A number in [0, 1]; `closed` in {"both", "left", "right", "neither"} picks the ends."""
    return check_number(
        value, name, low=0.0, high=1.0,
        low_open=closed in ("right", "neither"), high_open=closed in ("left", "neither"),
    )


def check_option(value: object, name: str, options: Sequence[str]) -> str:
    """One of a fixed set of strings."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"`{name}` must be one of {', '.join(map(repr, options))}; got {plain(value)!r}.")
    return value


def subset_rows(data: pd.DataFrame, research_subset: object, name: str = "research_subset") -> np.ndarray:
    """The research subset as sorted 0-based row positions of `data`: a boolean mask (one
    value per record; a Series is aligned on the index), a pandas Index of labels, or row
    numbers (as ARX's ``DataSubset.create(data, rows)``). Empty, out of range, repeated or
    non-integer rows are refused in one line."""
    n = len(data)
    if isinstance(research_subset, (str, bytes)) or not hasattr(research_subset, "__len__"):
        raise TypeError(f"`{name}` must be a boolean mask of the records, an Index of their labels or "
                        f"a list of 0-based row numbers; got {type(research_subset).__name__}.")
    if isinstance(research_subset, pd.Index):
        pos = data.index.get_indexer(research_subset)
        if (pos < 0).any():
            bad = research_subset[int(np.argmax(pos < 0))]
            raise ValueError(f"`{name}` names the label {bad!r}, which is not in the data's index.")
        rows = pos.astype(np.int64)
    else:
        if isinstance(research_subset, pd.Series) and research_subset.dtype == bool:
            research_subset = research_subset.reindex(data.index).fillna(False).to_numpy(dtype=bool)
        arr = np.asarray(research_subset)
        if arr.dtype == bool:
            if arr.shape != (n,):
                raise ValueError(f"`{name}` as a boolean mask needs one value per record ({n}); got {arr.size}.")
            rows = np.flatnonzero(arr)
        else:
            if arr.size and not np.issubdtype(arr.dtype, np.integer):
                raise TypeError(f"`{name}` row numbers must be whole numbers; got {arr.ravel()[0]!r}.")
            rows = arr.astype(np.int64).ravel()
            out = rows[(rows < 0) | (rows >= n)]
            if out.size:
                raise ValueError(f"`{name}` row {int(out[0])} is out of range: the data has {n} records "
                                 f"(rows 0 to {n - 1}).")
    if rows.size == 0:
        raise ValueError(f"`{name}` is empty: it must select at least one record.")
    uniq = np.unique(rows)
    if uniq.size != rows.size:
        dup = np.flatnonzero(np.bincount(rows) > 1)[0]
        raise ValueError(f"`{name}` lists row {int(dup)} more than once.")
    return uniq
