"""Issue 33's benchmark pieces: the 8-key survey generator (seeded; its first nine columns are the
4-key file's), the floor (the packed-key count equals a group-by of the same keys) and the
comparison of two report folders (the same apart from the time and the folder's name)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from validation import floor_assess, make_assess_data, same_report


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


def test_two_report_folders_are_the_same_apart_from_time_and_name(tmp_path):
    import gzip

    import datetime

    from sdc.datasets import example_config_path
    from sdc.report import write_report
    from sdc.workflow.assess import assess
    from sdc.workflow.config import load_config

    cfg = load_config(example_config_path())
    first, second = tmp_path / "first", tmp_path / "second"
    write_report(assess(cfg, now=datetime.datetime(2026, 1, 2, 3, 4, 5)), first)
    write_report(assess(cfg, now=datetime.datetime(2030, 6, 7, 8, 9, 10)), second)
    assert (first / "report.md").read_bytes() != (second / "report.md").read_bytes()  # the time differs
    assert same_report.differences(first, second) == []
    (second / "records.csv.gz").write_bytes(gzip.compress((first / "records.csv").read_bytes()))
    (second / "records.csv").unlink()
    assert same_report.differences(first, second) == ["records.csv", "records.csv.gz"]
    (second / "report.md").write_text((first / "report.md").read_text(encoding="utf-8") + "x", encoding="utf-8")
    assert "report.md" in same_report.differences(first, second)
