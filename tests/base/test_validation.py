"""sdc/_validation.py: the one numeric predicate and converter every module uses."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sdc._validation import is_numeric_column, numeric_values


def test_every_numeric_predicate_is_the_one() -> None:
    """Five private copies disagreed on complex columns (three took them for numbers)."""
    from sdc.attacks import _common as attacks_common
    from sdc.protect import _common as protect_common
    from sdc.report import compare_plots
    from sdc.utility import _common as utility_common
    from sdc.workflow import compare_records

    for f in (protect_common.is_numeric, utility_common.is_numeric, attacks_common.is_numeric_column,
              compare_records._numeric, compare_plots._numeric):
        assert f is is_numeric_column
    for s, numeric in [(pd.Series([1, 2]), True), (pd.Series([1.5, None]), True), (pd.Series([True, False]), False),
                       (pd.Series([1 + 2j]), False), (pd.Series(["1"]), False),
                       (pd.Series([1, 2], dtype="category"), False)]:
        assert is_numeric_column(s) is numeric, s.dtype


def test_one_converter_names_the_column_and_the_frame() -> None:
    from sdc.protect._common import numeric_values as protect_values
    from sdc.utility._common import numeric_values as utility_values

    assert protect_values is numeric_values
    with pytest.raises(ValueError, match=r"^rank_swap needs numeric columns; column 's' is text\.$"):
        numeric_values(pd.Series(["a"], name="s"), "rank_swap")
    with pytest.raises(ValueError, match=r"^a utility measure needs numeric columns; column 's' of `released` is "):
        utility_values(pd.Series([1 + 1j], name="s"), "released")
    with pytest.raises(ValueError, match=r"^column 'x' of `original` has the non-finite value inf at index 1; "):
        utility_values(pd.Series([1.0, np.inf], name="x"), "original")
