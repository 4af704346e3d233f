"""identify/criteria.py: the search's per-class models reuse attribute/'s l-diversity and its
one tolerance (a value within 1e-9 x max(bound, 1) of its bound is on it)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.core.generalise import Cells
from sdc.identify import criteria
from tests import scale


def _cells(classes: list[list[int]]) -> Cells:
    g = np.array([i for i, cl in enumerate(classes) for _ in cl], dtype=np.int64)
    code = np.array([j for cl in classes for j in range(len(cl))], dtype=np.int64)
    cnt = np.array([v for cl in classes for v in cl], dtype=np.int64)
    return Cells(group=g, code=code, count=cnt, n_values=max((len(c) for c in classes), default=1))


@pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")
@settings(max_examples=scale.examples(60), deadline=None)
@given(st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=5), min_size=1, max_size=6),
       st.sampled_from([1.0, 1.5, 2.0, 3.0, 0.7]))
def test_recursive_values_are_sdc_l_diversitys(classes: list[list[int]], c: float) -> None:
    """The search's recursive (c, l) value of a class is sdc.l_diversity's for the same class."""
    import sdc

    rows = [(i, f"v{j}") for i, cl in enumerate(classes) for j, n in enumerate(cl) for _ in range(n)]
    df = pd.DataFrame(rows, columns=["key", "s"])
    ref = sdc.l_diversity(df, ["key"], "s", l=2, c=c).records
    want = ref.groupby(df["key"]).first()["s_Recursive_Ldiversity"].to_numpy()
    got = criteria.l_values(_cells(classes), len(classes), "recursive", c)
    np.testing.assert_array_equal(got, want)


def test_a_t_on_its_bound_up_to_rounding_meets_it() -> None:
    """A distance 1e-10 above t (rounding of a sum of shares) met a t-closeness bound only
    within 1e-12 before: the search and attribute/ now share the tolerance of 1e-9."""
    d = np.array([0.3 + 1e-10, 0.3 + 1e-6, 0.3, np.nan])
    assert criteria._above(d, 0.3).tolist() == [False, True, False, False]
    assert criteria._above(np.array([1e-10, 2e-9]), 0.0).tolist() == [False, True]


def test_entropy_bound_is_attribute_entropy_below() -> None:
    from sdc.attribute.ldiversity import entropy_below

    vals = criteria.l_values(_cells([[2, 2, 2], [4, 1, 1], [3]]), 3, "entropy")
    assert vals[0] < 3 or vals[0] == 3  # three equal shares: exp(H) = 3 up to rounding
    assert (~entropy_below(vals, 3)).tolist() == [True, False, False]
