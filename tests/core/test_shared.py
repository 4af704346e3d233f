"""Column codes computed once per run (sdc.core.shared): the same codes, computed fewer times."""

from __future__ import annotations

import contextlib

import numpy as np
import pandas as pd

from sdc.core.classes import encode_sensitive
from sdc.core.keys import grouping_codes
from sdc.core.shared import shared_codes


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 500
    return pd.DataFrame({"a": rng.choice(["x", "y", None], n), "b": rng.choice(["p", "q"], n),
                         "c": rng.integers(0, 5, n), "s": rng.normal(size=n).round(1)})


def test_inside_the_block_a_column_is_encoded_once():
    df = _frame()
    with shared_codes():
        first = grouping_codes(df["a"])
        assert grouping_codes(df["c"]) is grouping_codes(df["c"])  # the same column: the same result
        if getattr(df["a"].array, "_ndarray", None) is not None or isinstance(df["a"].dtype, np.dtype):
            assert grouping_codes(df["a"]) is first  # text backed by an ndarray (not Arrow): also shared
        assert grouping_codes(df["b"]) is not first
        assert encode_sensitive(df, "s") is encode_sensitive(df, "s")
        binned = df.copy(deep=False)
        binned["a"] = df["a"].fillna("z")  # a replaced column is a new array: encoded anew
        assert grouping_codes(binned["a"]) is not first
        np.testing.assert_array_equal(grouping_codes(binned["b"])[0], grouping_codes(df["b"])[0])
    again = grouping_codes(df["a"])
    assert again is not first  # outside the block nothing is kept
    np.testing.assert_array_equal(again[0], first[0])
    assert again[1:] == first[1:]


def test_an_assessment_gives_the_same_results_with_and_without_shared_codes(monkeypatch):
    import sdc.workflow.assess as wa
    from sdc.datasets import example_config_path
    from sdc.report.records import record_tables
    from sdc.workflow.config import load_config

    cfg = load_config(example_config_path())
    shared = wa.assess(cfg)
    monkeypatch.setattr(wa, "shared_codes", contextlib.nullcontext)
    alone = wa.assess(cfg)
    assert shared.verdicts == alone.verdicts
    a, b = record_tables(shared).files, record_tables(alone).files
    assert a.keys() == b.keys()
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])
    for r, s in zip(shared.scenarios, alone.scenarios):
        pd.testing.assert_frame_equal(r.ldiversity.records, s.ldiversity.records)
        for k in r.tcloseness:
            pd.testing.assert_series_equal(r.tcloseness[k].records, s.tcloseness[k].records)
    for k in shared.inference:
        pd.testing.assert_frame_equal(shared.inference[k].findings, alone.inference[k].findings)
