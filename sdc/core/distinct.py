"""Distinct values of a large text column by Python's own hash, checked exactly.

Owned by the protection methods (``sdc/protect/pseudonym.py``): pseudonymisation hashes each
distinct identifier once, so a column of 10^7 identifiers is first reduced to its distinct
values. pandas' string hash table does that at about 0.3 us a value (and reads text only up to
a NUL character, see :mod:`sdc.core._factorize`). Here each value's Python hash (computed in C,
cached on the string) is factorised as an integer, and every value is then compared with the
first value of its hash: equal hashes of unequal values (about n^2 / 2^65 for n distinct
values) are detected, never merged, and the caller falls back to the exact factorisation.
Equality is Python's (NUL characters included), as pandas' object hash table uses.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.core.keys import first_occurrence

__all__ = ["hashed_codes"]


def hashed_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(codes, uniques) of an object array: codes int64 in order of first appearance, -1 for
    missing (None, NaN, NA); uniques the first value of each code (an object array).

    Returns None when a value cannot be hashed or two unequal values share a hash: the
    caller then uses the exact factorisation (:func:`sdc.core._factorize.factorize`).
    """
    arr = np.asarray(values, dtype=object)
    n = arr.shape[0]
    miss = pd.isna(arr)
    any_miss = bool(miss.any())
    present = arr[~miss] if any_miss else arr
    m = present.shape[0]
    try:
        h = np.fromiter(map(hash, present), dtype=np.int64, count=m)
    except TypeError:  # an unhashable value (a list, ...)
        return None
    hc, _ = pd.factorize(h, sort=False, use_na_sentinel=True)
    hc = np.asarray(hc, dtype=np.int64)
    k = int(hc.max()) + 1 if m else 0
    if k == m:  # every hash distinct, so every value is (equal values hash equally)
        uniques = present
    else:
        uniques = present[first_occurrence(hc, k)]
        # Exact: each value equals the first value of its hash (elementwise ==, NUL-safe).
        same = present == uniques[hc]
        if not isinstance(same, np.ndarray) or not bool(same.all()):
            return None
    if not any_miss:
        return hc, uniques
    codes = np.full(n, -1, dtype=np.int64)
    codes[~miss] = hc
    return codes, uniques
