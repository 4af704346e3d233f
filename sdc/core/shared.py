"""Column codes computed once per run: :func:`shared_codes`.

An assessment encodes the same columns many times over: each scenario's keys (``age`` and
``sex`` in every scenario), the sensitive variables for l-diversity and again for t-closeness,
the candidates of the inference measure. Within a :func:`shared_codes` block, the codes of a
column are computed the first time they are asked for and reused after, so each is hashed once.

A column is recognised by its array: the same memory (address, length, strides) and dtype.
That is only sound while nothing writes into a column, which is why the memo exists only
inside the block and only for a run that reads its frames (``sdc assess``); the arrays are
held until the block ends, so their memory cannot be reused by another column meanwhile.
Outside a block nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import numpy as np
import pandas as pd

__all__ = ["shared_codes", "memoized"]

T = TypeVar("T")

_MEMO: ContextVar[dict[Hashable, tuple[np.ndarray, Any]] | None] = ContextVar("sdc_shared_codes", default=None)


@contextmanager
def shared_codes() -> Iterator[None]:
    """Within the block, each column's codes are computed once (see the module notes).

    Nothing may write into a column of the frames read inside the block.
    """
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def memoized(kind: Hashable, s: pd.Series, compute: Callable[[], T]) -> T:
    """``compute()``, or inside :func:`shared_codes` its earlier result for the same `kind`
    and the same column array (numpy-backed columns only; others are computed every time)."""
    memo = _MEMO.get()
    if memo is None:
        return compute()
    if isinstance(s.dtype, np.dtype):
        v = s.to_numpy()  # the column's own array (a view), not a copy
    else:
        # pandas' numpy-backed extension arrays (pandas 3's python-backed text columns) keep
        # their values in an ndarray; others (Arrow, nullable masks) are computed every time.
        v = getattr(s.array, "_ndarray", None)
        if not isinstance(v, np.ndarray):
            return compute()
    key = (kind, v.__array_interface__["data"][0], v.shape, v.strides, v.dtype.str, str(s.dtype))
    hit = memo.get(key)
    if hit is not None:
        return hit[1]
    out = compute()
    memo[key] = (v, out)  # `v` held: its memory stays this column's until the block ends
    return out
