"""risky_cells (sdcMicro's riskyCells): hand-computed cells, the inclusive boundary, brute force
on random data, and sdcMicro's tables (marker ``sdcmicro``)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from tests import scale


def test_hand_computed_cells_not_records() -> None:
    df = pd.DataFrame({"sex": list("mmmff"), "region": list("aabac")})
    r = sdc.risky_cells(df, ["sex", "region"], threshold=1, max_dim=2)
    # sex: m 3, f 2 -> none <= 1; region: a 3, b 1, c 1 -> 2 cells; sex x region: (m,a) 2, (m,b), (f,a), (f,c) -> 3
    assert r.table[["dim1", "dim2"]].values.tolist() == [["sex", None], ["region", None], ["sex", "region"]]
    assert r.table["unsafe_cells"].tolist() == [0, 2, 3]
    assert r.table["records_in_unsafe_cells"].tolist() == [0, 2, 3]
    # the boundary is inclusive: n <= threshold, so the (m, a) cell of 2 is unsafe at 2
    r2 = sdc.risky_cells(df, ["sex", "region"], threshold=[2, 2], max_dim=2)
    assert r2.table["unsafe_cells"].tolist() == [1, 2, 4]
    assert r2.total_unsafe_cells == 7 and r2.summary().set_index("statistic").loc["unsafe_cells", "value"] == 7


def test_a_missing_value_is_a_cell_of_its_own() -> None:
    df = pd.DataFrame({"a": ["x", None, None, "x"]})
    assert sdc.risky_cells(df, ["a"], threshold=1, max_dim=1).table["unsafe_cells"].tolist() == [0]
    assert sdc.risky_cells(df, ["a"], threshold=2, max_dim=1).table["unsafe_cells"].tolist() == [2]


@pytest.mark.parametrize("kwargs, said", [
    ({"threshold": 1}, "give `max_dim`"),
    ({"threshold": 1, "max_dim": 2, "level": [1, 2]}, "not both"),
    ({"threshold": 1, "max_dim": 3}, "max_dim"),
    ({"threshold": [1, 2, 3], "max_dim": 2}, "one per dimension"),
    ({"threshold": [1, 2], "level": [1, 2]}, "one number with `level`"),
    ({"threshold": 1, "level": [1]}, "one identification level per key"),
    ({"threshold": 0, "max_dim": 1}, "threshold"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    df = pd.DataFrame({"a": [1, 2], "b": [1, 1]})
    with pytest.raises((ValueError, TypeError)) as err:
        sdc.risky_cells(df, ["a", "b"], **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


@settings(max_examples=scale.examples(60))
@given(st.data())
def test_brute_force(data) -> None:
    n = data.draw(st.integers(1, 30))
    cols = {c: data.draw(st.lists(st.sampled_from([0, 1, 2, None]), min_size=n, max_size=n)) for c in "abc"}
    df = pd.DataFrame(cols)
    df.iloc[0] = 0  # a key missing in every record is refused (sdc.check_keys)
    t = data.draw(st.integers(1, 4))
    got = sdc.risky_cells(df, list("abc"), threshold=t, max_dim=3).table["unsafe_cells"].tolist()
    want = []
    for d in (1, 2, 3):
        for combo in combinations("abc", d):
            cells = df[list(combo)].apply(lambda s: s.map(lambda v: "<missing>" if pd.isna(v) else str(v)))
            counts = cells.value_counts()   # a missing value is a cell value of its own
            want.append(int((counts <= t).sum()))
    assert got == want


@pytest.mark.sdcmicro
def test_sdcmicro_testdata2_and_random_cases() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata2")
    cases = [(["urbrur", "roof", "walls", "water", "electcon"], {"threshold": [50, 25, 10, 5], "max_dim": 4}),
             (["urbrur", "roof", "walls", "water", "electcon"], {"threshold": 10, "max_dim": 3}),
             (["urbrur", "roof", "walls", "water", "electcon", "relat"], {"threshold": 20, "level": [1, 1, 2, 3, 3, 5]}),
             (["urbrur", "walls", "water", "relat"], {"threshold": 10, "level": [1, 2, 2, 4]})]
    for keys, kw in cases:   # sdcMicro's own examples (its help page)
        theirs = rb.risky_cells(td, keys, **kw)
        ours = sdc.risky_cells(td, keys, **kw).table
        pd.testing.assert_frame_equal(ours[theirs.columns], theirs, check_dtype=False, obj=str(kw))
    rng = np.random.default_rng(20261202)
    for case in range(scale.cases(100)):
        n = int(rng.integers(5, 200))
        df = pd.DataFrame({f"k{j}": rng.integers(0, int(rng.integers(2, 6)), n).astype(float) for j in range(4)})
        df = df.mask(rng.random(df.shape) < 0.05)
        kw = {"threshold": int(rng.integers(1, 6)), "max_dim": int(rng.integers(1, 5))}
        theirs = rb.risky_cells(df, list(df.columns), **kw)
        ours = sdc.risky_cells(df, list(df.columns), **kw).table
        assert ours["unsafe_cells"].tolist() == theirs["unsafe_cells"].tolist(), (case, kw)
