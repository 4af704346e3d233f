"""Hypothesis strategies: small microdata frames with ties, singletons and missing keys."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import strategies as st

WORDS = ["a", "b", "c", "d"]


@st.composite
def microdata(draw, *, min_keys: int = 1, max_keys: int = 4, max_rows: int = 25, weights: bool | None = None,
              missing: bool = True):
    """(frame, keys, weights-or-None): keys of int, float, str, bool or categorical dtype."""
    n = draw(st.integers(1, max_rows))
    n_keys = draw(st.integers(min_keys, max_keys))
    cols = {}
    for j in range(n_keys):
        card = draw(st.integers(1, 4))
        codes = draw(st.lists(st.integers(0, card - 1), min_size=n, max_size=n))
        miss = draw(st.lists(st.booleans(), min_size=n, max_size=n)) if missing else [False] * n
        if all(miss):
            miss[0] = False
        kind = draw(st.sampled_from(["int", "float", "str", "cat", "bool"]))
        if kind == "int":
            s = pd.Series([None if m else c for c, m in zip(codes, miss)], dtype="float64")
            if not any(miss):
                s = s.astype("int64")
        elif kind == "float":
            s = pd.Series([np.nan if m else c / 4 for c, m in zip(codes, miss)], dtype="float64")
        elif kind == "str":
            s = pd.Series([None if m else WORDS[c] for c, m in zip(codes, miss)], dtype=object)
        elif kind == "cat":
            s = pd.Series(pd.Categorical([None if m else WORDS[c] for c, m in zip(codes, miss)], categories=WORDS))
        else:
            s = pd.Series([None if m else bool(c % 2) for c, m in zip(codes, miss)], dtype="boolean")
        cols[f"k{j}"] = s
    df = pd.DataFrame(cols)
    keys = list(cols)
    use_w = draw(st.booleans()) if weights is None else weights
    w = None
    if use_w:
        df["w"] = draw(st.lists(st.floats(1.0, 50.0, allow_nan=False).map(lambda x: round(x, 2)),
                                min_size=n, max_size=n))
        w = "w"
    index = draw(st.sampled_from(["range", "shifted", "strings"]))
    if index == "shifted":
        df.index = pd.RangeIndex(100, 100 + n)
    elif index == "strings":
        df.index = [f"r{i}" for i in range(n)]
    return df, keys, w
