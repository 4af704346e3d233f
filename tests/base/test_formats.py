"""The format registry (sdc/_formats.py): one declaration per data file format, read by
read_data, read_header, the command line's reading options and help, the released file's
writer (sdc/report/released.py) and the Dask reader (which reads each part with read_data)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sdc._formats import FORMATS, READ_OPTIONS, data_help, format_named, format_of, option_formats
from sdc.exceptions import DataFileError
from sdc.io import read_data, read_data_details, read_header
from sdc.report.released import WRITERS, released_file

FRAME = pd.DataFrame({"zip": ["02134", "10001", None], "age": [31, 45, 52], "w": [1.5, 2.0, 2.5]})


def test_every_format_is_declared_once_with_its_options() -> None:
    names = [f.name for f in FORMATS]
    assert len(names) == len(set(names))
    suffixes = [s for f in FORMATS for s in f.suffixes]
    assert len(suffixes) == len(set(suffixes))
    for f in FORMATS:
        assert set(f.options) <= set(READ_OPTIONS.names), f.name
        assert (f.read is None) == bool(f.refusal), f.name
    assert FORMATS[-1].name == "text"  # the fallback: anything else is delimited text
    assert option_formats("sheet") == "Excel files (.xlsx, .xlsm)"
    assert data_help() == ("CSV (delimiter detected), Excel .xlsx, Stata .dta, SAS .sas7bdat/.xpt, SPSS .sav/.zsav, "
                           "Parquet, R .rds/.RData or JSON Lines .jsonl file")


@pytest.mark.parametrize("name, fmt", [("a.csv", "text"), ("a.tsv.gz", "text"), ("a.XLSX", "excel"),
                                       ("a.dta", "stata"), ("a.xpt", "sas"), ("a.jsonl", "jsonl"),
                                       ("a.whatever", "text"), ("a.xls", "excel-old")])
def test_a_file_is_looked_up_by_its_suffix(name: str, fmt: str) -> None:
    assert format_of(name).name == fmt


def test_a_file_is_recognised_by_its_content_when_its_suffix_says_nothing(tmp_path: Path) -> None:
    stata = tmp_path / "export.bin"
    FRAME.drop(columns="zip").to_stata(stata, write_index=False)
    assert format_of(stata).name == "stata"
    df, details = read_data_details(stata)
    assert details.format == "stata" and df["age"].tolist() == [31, 45, 52]
    book = tmp_path / "export.data"
    FRAME.to_excel(tmp_path / "x.xlsx", index=False)
    (tmp_path / "x.xlsx").rename(book)
    assert format_of(book).name == "excel" and read_header(book) == ["zip", "age", "w"]
    text = tmp_path / "export.data2"
    text.write_text("a,b\n1,2\n", encoding="utf-8")
    assert format_of(text).name == "text"


def test_json_lines_reads_and_releases_alike(tmp_path: Path) -> None:
    """The format added by the two-file recipe (docs/design.md): a reader here, a writer in
    released.py; codes written as strings stay text, null is missing."""
    p = tmp_path / "d.jsonl"
    FRAME.to_json(p, orient="records", lines=True)
    df, details = read_data_details(p)
    assert details.format == "jsonl" and details.notes() == []  # no markers: the file types its values
    assert df["zip"].tolist()[:2] == ["02134", "10001"] and pd.isna(df["zip"].iloc[2])
    assert read_header(p) == ["zip", "age", "w"]
    rel = released_file(df, input_path=p)
    assert rel.name == "released.jsonl" and rel.format == "jsonl"
    out = tmp_path / rel.name
    out.write_bytes(rel.data)
    pd.testing.assert_frame_equal(read_data(out), df)
    with pytest.raises(ValueError, match=r"`sheet` is for Excel files \(\.xlsx, \.xlsm\); '.*d\.jsonl' is not one"):
        read_data(p, sheet=0)


def test_a_format_without_a_writer_is_released_as_csv(tmp_path: Path) -> None:
    assert "sas" not in WRITERS and format_named("sas").label == "SAS"
    rel = released_file(FRAME, input_path=tmp_path / "in.sas7bdat")
    assert rel.name == "released.csv" and rel.note == ("The input is a SAS file, which pandas cannot write: the "
                                                       "release is CSV.")


def test_a_refused_format_says_why(tmp_path: Path) -> None:
    p = tmp_path / "old.xls"
    p.write_bytes(b"\xd0\xcf\x11\xe0" + bytes(60))
    with pytest.raises(DataFileError, match=r"the old Excel format \(\.xls\) is not supported; save it as \.xlsx\."):
        read_data(p)


@pytest.mark.parametrize("value, said", [
    ("ab", "`sep` must be one character other than a quote or a line break, 'tab' or 'whitespace'; got 'ab'."),
    (-1, "`sheet` must be a sheet name or a 0-based sheet number; got -1."),
    ([1], "`na_values` must be a list of markers (text) read as missing; got [1]."),
])
def test_the_reading_options_are_declared_with_their_rules(value: object, said: str) -> None:
    name = said.split("`")[1]
    with pytest.raises((TypeError, ValueError)) as info:
        READ_OPTIONS[name].check(value)
    assert str(info.value) == said


def test_the_readers_that_apply_missing_value_markers_are_the_formats_that_take_them(tmp_path) -> None:
    """The report's note on missing-value markers follows the reader (no circle back to the
    format table): text and Excel apply na_values; JSON Lines does not take them."""
    import pandas as pd

    from sdc._formats import format_named
    from sdc.io import read_data_details

    df = pd.DataFrame({"a": ["x", "NA"], "b": [1, 2]})
    files = {"text": tmp_path / "d.csv", "excel": tmp_path / "d.xlsx", "jsonl": tmp_path / "d.jsonl"}
    df.to_csv(files["text"], index=False)
    df.to_excel(files["excel"], index=False)
    df.to_json(files["jsonl"], orient="records", lines=True)
    for name, path in files.items():
        _, details = read_data_details(path)
        assert details.format == name
        assert details.markers_read == format_named(name).takes("na_values"), name
        assert any(n.startswith("Missing values:") for n in details.notes()) == details.markers_read, name
