"""Key encoding: codes, missing values, packing and subsets."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.core.keys import combine_codes, encode_keys, factorize_column, first_occurrence


def test_factorize_marks_every_kind_of_missing():
    for s in [pd.Series([1.0, np.nan, 1.0]), pd.Series(["a", None, "a"]), pd.Series(["a", pd.NA, "a"], dtype="string"),
              pd.Series(pd.Categorical(["a", None, "a"])), pd.Series([True, None, True], dtype="boolean"),
              pd.Series([1, None, 1], dtype="Int64")]:
        codes, card = factorize_column(s)
        assert codes.tolist() == [0, -1, 0] and card == 1, s.dtype


def test_pattern_ids_equal_for_equal_rows_only():
    df = pd.DataFrame({"a": [1, 1, 2, np.nan, np.nan], "b": ["x", "x", "x", "y", "y"]})
    enc = encode_keys(df, ("a", "b"))
    p = enc.pattern
    assert p[0] == p[1] and p[3] == p[4] and len({p[0], p[2], p[3]}) == 3
    assert enc.has_missing and enc.missing_mask()[:, 0].tolist() == [False, False, False, True, True]


def test_packing_falls_back_to_factorizing_when_the_radix_is_large():
    rng = np.random.default_rng(0)
    cols = [rng.integers(0, 1000, size=50) for _ in range(8)]
    ids, n_ids = combine_codes(cols, [1000] * 8, 50)
    assert n_ids <= 50 and ids.max() < n_ids
    rows = list(zip(*cols))
    for i in range(50):
        for j in range(50):
            assert (ids[i] == ids[j]) == (rows[i] == rows[j])


def test_subset_reuses_codes():
    df = pd.DataFrame({"a": [1, 1, 2], "b": [1, 2, 2], "c": [5, 5, 5]})
    enc = encode_keys(df, ("a", "b", "c"))
    sub = enc.subset((0, 2))
    assert sub.keys == ("a", "c")
    assert sub.pattern[0] == sub.pattern[1] != sub.pattern[2]


def test_first_occurrence():
    assert first_occurrence(np.array([2, 0, 2, 1, 0]), 4).tolist() == [1, 3, 0, 5]
