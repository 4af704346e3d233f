"""The arguments every key-based measure shares, made ready once: bins for continuous keys,
and weights given as a column name or as a Series.

Each measure of re-identification risk accepts ``key_bins`` (bin continuous keys before
counting, as :func:`sdc.l_diversity` always did) and ``weights`` as the name of a column or
as a pandas Series aligned with the data (a notebook's ``df["w"] * 1.1``). :func:`prepare`
turns both into what the measure's code expects: a frame with the keys binned and the
weights as one of its columns, named in the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sdc._validation import check_columns, check_frame, check_weights_not_key
from sdc.core.binning import BinSpec, apply_binning

__all__ = ["prepare", "attach_weights"]


def attach_weights(data: pd.DataFrame, weights: Any) -> tuple[pd.DataFrame, str | None]:
    """`weights` as a column name: a Series (same index as `data`) is added to a copy of the
    data under its own name (or ``"weights"``), never over a column of another content."""
    if weights is None or isinstance(weights, str):
        return data, weights
    if not isinstance(weights, pd.Series):
        raise TypeError(f"`weights` must be a column name (str), a pandas Series or None; got {type(weights).__name__}.")
    if len(weights) != len(data) or not weights.index.equals(data.index):
        raise ValueError(f"`weights` as a Series must have the data's index ({len(data)} records); got "
                         f"{len(weights)} values with another index.")
    name = str(weights.name) if weights.name is not None else "weights"
    base, i = name, 2
    while name in data.columns and not data[name].equals(weights):
        name, i = f"{base} ({i})", i + 1
    if name in data.columns:
        return data, name  # the Series is that column
    return data.assign(**{name: weights.to_numpy()}), name


def prepare(data: pd.DataFrame, keys: Any, *, key_bins: Mapping[str, BinSpec] | None = None,
            weights: Any = None) -> tuple[pd.DataFrame, Any, str | None]:
    """(data with the keys binned and the weights attached, keys, weight column name).

    `keys` are returned as given (names or precomputed :class:`~sdc.core.scenario.KeyClasses`,
    which cannot be binned again). The input frame is never modified.
    """
    check_frame(data)
    data, wname = attach_weights(data, weights)
    if wname is not None:
        names = [keys] if isinstance(keys, str) else keys if isinstance(keys, Sequence) else getattr(keys, "keys", ())
        check_weights_not_key(wname, names)
    if key_bins:
        if not isinstance(key_bins, Mapping):
            raise TypeError(f"`key_bins` must map key columns to bins; got {type(key_bins).__name__}.")
        if not isinstance(keys, (str, Sequence)):
            raise ValueError("`key_bins` cannot be used with precomputed key classes: bin the data first, then "
                             "make the key classes (sdc.key_classes).")
        names = check_columns(data, keys, role="keys")
        extra = [b for b in key_bins if b not in names]
        if extra:
            raise ValueError(f"`key_bins` names columns that are not keys: {', '.join(map(repr, extra))}.")
        data, _ = apply_binning(data, key_bins)
    return data, keys, wname
