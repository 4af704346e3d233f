"""sdc/workflow/compare_release.py: the levels the release's marginals are compared on."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.workflow.compare_release import _as_text
from tests import scale

_VALUES = st.one_of(st.none(), st.integers(-3, 3), st.floats(allow_infinity=False), st.just(float("nan")), st.sampled_from(["a", "b", "(missing)"]),
                    st.booleans())


@given(st.lists(_VALUES, max_size=30))
@settings(max_examples=scale.examples(150))
def test_each_value_as_its_text_and_missing_as_a_word(values) -> None:
    s = pd.Series(values, dtype=object, index=np.arange(len(values)) * 2)
    want = s.astype(object).where(s.notna(), "(missing)").astype(str)  # value by value
    pd.testing.assert_series_equal(_as_text(s), want, check_dtype=False)


def test_typed_columns_read_as_their_values_do() -> None:
    cases = [pd.Series([1.0, np.nan, 2.5]), pd.Series([3, 4, 3]), pd.Series(pd.array([1, None, 2], dtype="Int64")),
             pd.Series(pd.to_datetime(["2020-01-01", None])), pd.Series(pd.Categorical(["x", None, "y"])),
             pd.cut(pd.Series([1.0, 5.0, np.nan]), [0, 2, 10], right=False)]
    for s in cases:
        want = s.astype(object).where(s.notna(), "(missing)").astype(str)
        assert _as_text(s).tolist() == want.tolist(), s
