"""Issue 33's benchmark pieces: the 8-key survey generator (seeded; its first nine columns are the
4-key file's) and the floor (the packed-key count equals a group-by of the same keys)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from validation import floor_assess, make_assess_data


def test_eight_keys_extend_the_four_key_file():
    four, eight = make_assess_data.make(3000), make_assess_data.make(3000, keys=8)
    assert list(eight.columns) == list(four.columns) + list(make_assess_data.EXTRA_KEYS)
    pd.testing.assert_frame_equal(eight[four.columns], four)
    pd.testing.assert_frame_equal(make_assess_data.make(3000, keys=8), eight)  # seeded
    for name, (values, _) in make_assess_data.EXTRA_KEYS.items():
        assert set(eight[name]) <= set(values)


def test_the_floor_counts_the_patterns(tmp_path):
    path = tmp_path / "s.csv"
    df = make_assess_data.make(5000, keys=8)
    df.to_csv(path, index=False)
    back = pd.read_csv(path, keep_default_na=False, na_values=[""])
    back["age"] = pd.cut(back["age"], floor_assess.AGE_EDGES, right=False)
    for keys in (floor_assess.KEYS, ["age", "sex", "region"]):
        expected = back.groupby(keys, dropna=False, observed=True).size().max()
        assert floor_assess.floor(str(path), keys) == expected
    assert np.isfinite(floor_assess.floor(str(path), ["sex"]))
