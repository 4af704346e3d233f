"""Integer codes for the values of one variable, alone or across two versions of it.

The utility measures compare a variable before and after protection: they need the values
of one column as codes together with the values themselves (to parse an interval label,
to show a category), and codes that are *common* to the original and the released
column (so that "the same value" means the same code on both sides). Missing values
(``NaN``, ``None``, ``pd.NA``, ``NaT``) get code -1, as in :mod:`sdc.core.keys`.

Equality is exact, as everywhere in :mod:`sdc`: ``1`` and ``1.0`` are one value (Python and
pandas equality), ``1`` and ``"1"`` are two.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sdc.core._factorize import factorize
from sdc.core.keys import combine_codes, factorize_column, first_occurrence

__all__ = ["encode_values", "encode_pair", "pair_counts", "value_text", "refuse_values_without_rows", "column_text",
           "distinct_values"]


def value_text(v: object) -> str:
    """The text a value is matched by in a hierarchy: whole floats without ``.0``, everything
    else ``str`` (so a numeric column matches a hierarchy read from a file)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isfinite(f) and f.is_integer():
            return str(int(f))
        return repr(f)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return str(v)


def refuse_values_without_rows(role: str, name: str, hierarchy: str, unknown: list[str]) -> None:
    """One error line when values of a column have no row in its hierarchy (the first three
    named): the search's quasi-identifiers and the hierarchical t-closeness share it."""
    if unknown:
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise ValueError(
            f"{role} {name!r} has values missing from its hierarchy {hierarchy}: "
            f"{', '.join(map(repr, unknown[:3]))}{more}; every value needs a row (level 0 = the value)."
        )


def encode_values(s: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Codes of one column (-1 for missing) and the distinct values, in code order.

    Categoricals keep their categories (unused ones included), so ``uniques[code]`` is the
    value of every record with that code.
    """
    if isinstance(s.dtype, pd.CategoricalDtype):
        return s.cat.codes.to_numpy().astype(np.int64), pd.Index(s.cat.categories)
    codes, uniques = factorize(s)
    # The array's dtype kept: pandas 1.5 would infer numbers from objects (with a
    # FutureWarning), pandas 2 and later keep the objects; now every version keeps them.
    return codes.astype(np.int64, copy=False), pd.Index(uniques, dtype=uniques.dtype)


def _as_objects(s: pd.Series) -> pd.Series:
    # Categoricals with different categories cannot be concatenated as categoricals.
    return s.astype(object) if isinstance(s.dtype, pd.CategoricalDtype) else s


def encode_pair(before: pd.Series, after: pd.Series) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """Common codes for two versions of a variable (aligned record by record).

    Returns the codes of `before`, the codes of `after` and the distinct values (the
    values of `before` first, in order of appearance, then the new ones of `after`).
    """
    n = len(before)
    both = pd.concat([_as_objects(before), _as_objects(after)], ignore_index=True)
    if both.dtype == object:
        # Keep the dtype pandas would infer for the values themselves (ints stay ints).
        both = both.infer_objects()
    codes, uniques = encode_values(both)
    return codes[:n], codes[n:], uniques


def pair_counts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per record: the count of its (a, b) combination, of its a value and of its b value.

    `a` and `b` are codes from :func:`encode_values` or :func:`encode_pair` (-1 = missing,
    counted as a value of its own).
    """
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    n = a.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    card_a, card_b = int(a.max()) + 1, int(b.max()) + 1
    ids, n_ids = combine_codes([a, b], [max(card_a, 0), max(card_b, 0)], n)
    joint = np.bincount(ids, minlength=n_ids)[ids]
    count_a = np.bincount(a + 1)[a + 1]
    count_b = np.bincount(b + 1)[b + 1]
    return joint, count_a, count_b


def distinct_values(s: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """Codes of a column (-1 missing) and its distinct values in code order, as a Series of
    the column's own dtype (a categorical's categories), so that a caller converts each
    distinct value once, as pandas converts the column."""
    codes, n = factorize_column(s)
    if isinstance(s.dtype, pd.CategoricalDtype):
        return np.asarray(codes, dtype=np.int64), pd.Series(s.cat.categories)
    pos = np.flatnonzero(codes >= 0)
    first = pos[first_occurrence(np.asarray(codes[pos], dtype=np.int64), n)]
    return np.asarray(codes, dtype=np.int64), s.iloc[first].reset_index(drop=True)


def column_text(s: pd.Series) -> tuple[np.ndarray, list[str | None]]:
    """Codes of a column (-1 missing) and the text of each distinct value, in code order.

    Each distinct value is converted once, so a large column costs one hashing pass.
    """
    codes, n = factorize_column(s)
    if isinstance(s.dtype, pd.CategoricalDtype):
        uniques = list(s.cat.categories)
    else:
        # factorize_column numbers values by first appearance: read each value at its first row.
        pos = np.flatnonzero(codes >= 0)
        first = pos[first_occurrence(np.asarray(codes[pos], dtype=np.int64), n)]
        vals = s.to_numpy(dtype=object)
        uniques = [vals[i] for i in first]
    return np.asarray(codes, dtype=np.int64), [value_text(u) for u in uniques]
