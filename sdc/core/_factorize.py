"""``pandas.factorize`` for values that may be text, safe for text holding NUL characters.

pandas' string hash table (used when every value of an object array is a ``str``) reads each
string as a C string, up to its first NUL character: ``"a\\x00b"``, ``"a\\x00c"`` and ``"a"``
get one code (seen with pandas 1.5). Merged key values would make classes larger than they
are, and the risk smaller: a silent understatement. :func:`factorize` checks for a NUL
character once (one C-level join and search) and, only when there is one, factorises an
injective escape of the text instead, keeping the original values as the uniques.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["factorize"]


def _has_nul(values: np.ndarray) -> bool:
    """Whether some value is a ``str`` holding a NUL character."""
    try:
        return "\x00" in "".join(values)
    except TypeError:
        pass
    present = values[~pd.isna(values)]  # missing values (NaN, None, pd.NA) are never merged
    try:
        return "\x00" in "".join(present)
    except TypeError:  # mixed types (rare): look at the strings only
        return "\x00" in "".join(v for v in present if isinstance(v, str))


def _escape(v: object) -> object:
    # Injective on strings: a backslash is doubled before NUL becomes "\\0".
    return v.replace("\\", "\\\\").replace("\x00", "\\0") if isinstance(v, str) else v


def factorize(values: pd.Series | np.ndarray, *, sort: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(values, sort=sort, use_na_sentinel=True)``, with text holding NUL
    characters told apart (see the module's note). Codes are -1 for missing values; uniques
    are the original values (sorted as Python sorts them when `sort`)."""
    if isinstance(values, pd.Series) and values.dtype == object:
        # The array, not the Series: pandas 1.5 makes a Series' uniques an Index, which warns
        # (FutureWarning) when the objects are numbers. The codes and uniques are the same.
        values = values.to_numpy()
    codes, uniques = pd.factorize(values, sort=sort, use_na_sentinel=True)
    # Only text can be merged: numbers, and text mixed with other types, are hashed as objects.
    if not len(uniques) or not isinstance(uniques[0], str):
        return codes, np.asarray(uniques)
    arr = values.to_numpy(dtype=object) if isinstance(values, pd.Series) else np.asarray(values, dtype=object)
    if not _has_nul(arr[codes >= 0] if (codes < 0).any() else arr):
        return codes, np.asarray(uniques)
    escaped = np.array([_escape(v) for v in arr], dtype=object)  # rare path: text with NUL
    codes, _ = pd.factorize(escaped, sort=False, use_na_sentinel=True)
    n = int(codes.max()) + 1 if codes.size else 0
    first = np.full(n, arr.shape[0], dtype=np.int64)
    ok = codes >= 0
    np.minimum.at(first, codes[ok], np.flatnonzero(ok))
    uniques = arr[first]
    if sort and n:
        order = np.array(sorted(range(n), key=lambda i: uniques[i]), dtype=np.int64)
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        codes = np.where(codes >= 0, rank[np.maximum(codes, 0)], -1)
        uniques = uniques[order]
    return codes, uniques
