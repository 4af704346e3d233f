"""Partitioned inputs on Dask read as one file would be: a column's type settled across the
files (text "10" and the number 10 are one value; a file where a column is empty takes the
first file's type), one-line refusals where it cannot be settled file by file, PRAM refusing
categoricals with unknown categories, and released file names checked before any work."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

import sdc

from tests.dask_support import require_dask

require_dask()

import dask
import dask.dataframe as dd

from sdc.core._dask_protect import read_partitions


@pytest.fixture(autouse=True)
def _sync():
    with dask.config.set(scheduler="sync"):
        yield


def _write(d, texts: dict[str, str]) -> str:
    d.mkdir()
    for name, text in texts.items():
        (d / name).write_text(text)
    return str(d / "*.csv")


def test_text_in_one_file_numbers_in_another_are_one_column(tmp_path) -> None:
    pattern = _write(tmp_path / "d", {"p1.csv": "region,sex\n01,f\n10,m\n10,f\n",
                                      "p2.csv": "region,sex\n10,m\n11,f\n10,m\n"})
    ddf, _ = read_partitions(pattern)
    got = ddf.compute()
    assert got["region"].tolist() == ["01", "10", "10", "10", "11", "10"]
    whole = pd.DataFrame({"region": ["01", "10", "10", "10", "11", "10"], "sex": list("fmfmfm")})
    p_d = sdc.k_anonymity(ddf, ["region", "sex"], k=2)
    p_m = sdc.k_anonymity(whole, ["region", "sex"], k=2)
    assert (p_d.n_classes, p_d.n_unique) == (p_m.n_classes, p_m.n_unique) == (4, 3)


def test_an_empty_column_takes_the_first_files_type(tmp_path) -> None:
    pattern = _write(tmp_path / "d", {"p1.csv": "dx,sex\na,f\nb,m\na,f\n", "p2.csv": "dx,sex\n,m\n,f\n,m\n"})
    ddf, _ = read_partitions(pattern)
    parts = [ddf.get_partition(i).compute() for i in range(2)]
    assert parts[1]["dx"].dtype == parts[0]["dx"].dtype
    r = sdc.l_diversity(ddf, ["sex"], "dx", l=2)
    m = sdc.l_diversity(ddf.compute(), ["sex"], "dx", l=2)
    pd.testing.assert_frame_equal(r.records.compute().reset_index(drop=True), m.records.reset_index(drop=True),
                                  check_dtype=False)


def test_whole_numbers_and_decimals_stay_numbers(tmp_path) -> None:
    pattern = _write(tmp_path / "d", {"p1.csv": "age,sex\n1.5,f\n2,m\n", "p2.csv": "age,sex\n3,m\n4,f\n"})
    ddf, _ = read_partitions(pattern)
    got = ddf.compute()
    assert got["age"].dtype == np.float64 and got["age"].tolist() == [1.5, 2.0, 3.0, 4.0]


def test_numbers_first_then_text_is_one_clear_error(tmp_path) -> None:
    pattern = _write(tmp_path / "d", {"p1.csv": "region,sex\n10,f\n11,m\n", "p2.csv": "region,sex\nab,m\n10,f\n"})
    ddf, _ = read_partitions(pattern)
    with pytest.raises(ValueError, match=r"column 'region' is read as text in 'p2.csv' but as int64 in 'p1.csv'.*"
                                         r"text_columns"):
        ddf.compute()
    ddf, _ = read_partitions(pattern, text_columns=["region"])  # the remedy the message gives
    assert ddf.compute()["region"].tolist() == ["10", "11", "ab", "10"]


def test_pram_refuses_unknown_categories() -> None:
    df = pd.DataFrame({"x": list("abcabcabca") * 10})
    ddf = dd.from_pandas(df, npartitions=3)
    ddf["x"] = ddf["x"].astype("category")
    assert not ddf["x"].cat.known
    with pytest.raises(ValueError, match="unknown categories; make them known first"):
        sdc.pram(ddf, "x", seed=1, pd=0.5)
    known = ddf.categorize(columns=["x"])
    r = sdc.pram(known, "x", seed=1, flip=0.0)  # the identity: nothing changes
    assert r.data.compute()["x"].astype(str).tolist() == df["x"].tolist()


def test_released_names_checked_before_any_work(tmp_path) -> None:
    from sdc.report.protection_dask import _stem

    assert _stem("/a/2024.01.csv") == "2024.01" and _stem("x.csv.gz") == "x" and _stem("part-3.tsv") == "part-3"
    from sdc.report.protection_dask import write_protection_dask

    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"two input files would give the same released file name \('part'\)"):
        write_protection_dask(None, out, files=[str(tmp_path / "a" / "part.csv"), str(tmp_path / "b" / "part.csv")])
    assert not out.exists() and os.listdir(tmp_path) == []


def test_an_empty_frame_is_one_line_as_in_memory() -> None:
    df = pd.DataFrame({"a": pd.Series([], dtype=object), "s": pd.Series([], dtype=object)})
    ddf = dd.from_pandas(df, npartitions=1)
    for call in (lambda d: sdc.l_diversity(d, ["a"], "s"), lambda d: sdc.t_closeness(d, ["a"], "s"),
                 lambda d: sdc.k_anonymity(d, ["a"]), lambda d: sdc.individual_risk(d, ["a"])):
        with pytest.raises(ValueError, match=r"^`data` is empty: it has no records\.$"):
            call(df)
        with pytest.raises(ValueError, match=r"^`data` is empty: it has no records\.$"):
            call(ddf)
