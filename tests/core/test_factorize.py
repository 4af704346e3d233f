"""Text holding NUL characters is told apart when keys are coded (pandas' string hash table
reads C strings and would merge "a\\x00b" with "a": classes too large, risk understated)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

import sdc
from sdc.core._factorize import factorize

_TEXT = st.text(alphabet=st.sampled_from(["a", "b", "\x00", "\\", "0"]), max_size=4)


def _by_dict(values: list) -> tuple[np.ndarray, list]:
    table: dict = {}
    codes = [-1 if v is None else table.setdefault(v, len(table)) for v in values]
    return np.array(codes), list(table)


@given(st.lists(st.one_of(_TEXT, st.none()), min_size=1, max_size=30), st.booleans())
def test_factorize_equals_a_python_dict(values: list, sort: bool) -> None:
    codes, uniques = factorize(np.array(values, dtype=object), sort=sort)
    expected_codes, expected_uniques = _by_dict(values)
    if sort:
        order = sorted(range(len(expected_uniques)), key=lambda i: expected_uniques[i])
        rank = {old: new for new, old in enumerate(order)}
        expected_codes = np.array([-1 if c < 0 else rank[c] for c in expected_codes])
        expected_uniques = [expected_uniques[i] for i in order]
    assert codes.tolist() == expected_codes.tolist()
    assert list(uniques) == expected_uniques


def test_without_nul_it_is_pandas_factorize() -> None:
    s = pd.Series(["b", "a", None, "b", "c"])
    for sort in (False, True):
        codes, uniques = factorize(s, sort=sort)
        pc, pu = pd.factorize(s, sort=sort, use_na_sentinel=True)
        assert codes.tolist() == pc.tolist() and list(uniques) == list(pu)


def test_keys_differing_after_a_nul_are_different_classes() -> None:
    df = pd.DataFrame({"a": ["x\x00y", "x\x00z", "x", "x\x00y"], "b": [1, 1, 1, 1]})
    assert sdc.individual_risk(df, ["a", "b"]).sample_frequency.tolist() == [2, 1, 1, 2]
    assert sdc.k_anonymity(df, ["a", "b"]).n_classes == 3
    div = sdc.l_diversity(pd.DataFrame({"a": ["x"] * 3, "s": ["p\x00q", "p\x00r", "p"]}), ["a"], "s")
    assert div.to_frame().iloc[0, 0] == 3
