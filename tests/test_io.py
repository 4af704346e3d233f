"""Reading data files: delimiters, Stata, SAS, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sdc.exceptions import DataFileError
from sdc.io import detect_delimiter, read_data

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("text", "sep"), [
    ("a,b,c\n1,2,3\n4,5,6\n", ","),
    ("a;b;c\n1,5;2;3\n4;5;6\n", ";"),
    ("a\tb\tc\n1\t2\t3\n", "\t"),
    ("a|b\n1|2\n", "|"),
    ("a  b   c\n1 2  3\n4   5 6\n", r"\s+"),
    ('name,town\n"Smith; J",Leeds\n"Brown; K",York\n', ","),
    ("single\n1\n2\n", ","),
])
def test_detect_delimiter(text, sep):
    assert detect_delimiter(text) == sep


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_read_csv_with_detected_delimiter(tmp_path, sep):
    df = pd.DataFrame({"age": [30, 40, np.nan], "sex": ["f", "m", "f"], "w": [1.5, 2.0, 3.0]})
    p = tmp_path / "d.csv"
    df.to_csv(p, sep=sep, index=False)
    got = read_data(p)
    pd.testing.assert_frame_equal(got, df)


def test_read_whitespace_and_explicit_sep(tmp_path):
    p = tmp_path / "d.txt"
    p.write_text("age sex\n30 f\n40 m\n")
    assert read_data(p).columns.tolist() == ["age", "sex"]
    q = tmp_path / "e.csv"
    q.write_text("a:b\n1:2\n")
    assert read_data(q, sep=":").columns.tolist() == ["a", "b"]


def test_read_gzip(tmp_path):
    p = tmp_path / "d.csv.gz"
    pd.DataFrame({"a": [1, 2], "b": [3, 4]}).to_csv(p, sep=";", index=False)
    assert read_data(p).shape == (2, 2)


def test_read_stata(tmp_path):
    df = pd.DataFrame({"age": [30.0, 41.0], "sex": ["f", "m"]})
    p = tmp_path / "d.dta"
    df.to_stata(p, write_index=False)
    got = read_data(p)
    assert got["sex"].tolist() == ["f", "m"] and got["age"].tolist() == [30.0, 41.0]


def test_read_sas_xport():
    got = read_data(DATA / "small.xpt")
    assert got.columns.tolist() == ["age", "sex", "w"] and got["age"].isna().sum() == 1


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.csv", None, "no such file"),
    ("empty.csv", "", "is empty"),
    ("header_only.csv", "a,b\n", "has no records"),
    ("bad.dta", "not stata", "cannot read data file"),
    ("bad.sas7bdat", "not sas", "cannot read data file"),
    ("binary.csv", b"\x00\x01\x02", "looks binary"),
])
def test_bad_files_give_data_file_errors(tmp_path, name, content, message):
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif content is not None:
        p.write_text(content)
    with pytest.raises(DataFileError, match=message) as info:
        read_data(p)
    assert "\n" not in str(info.value)


def test_directory_is_refused(tmp_path):
    with pytest.raises(DataFileError, match="is a directory"):
        read_data(tmp_path)
