"""Reading data files: delimiters, Stata, SAS, and one-line errors."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sdc.exceptions import DataFileError, SdcWarning
from sdc.io import detect_delimiter, read_data, read_data_details, read_header

DATA = Path(__file__).parents[1] / "data"


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


# ---- issue 11: explicit missing-value markers, codes as text, malformed files, Excel ----------------

def test_na_is_a_value_unless_declared(tmp_path):
    # issue 11, item 2: a postcode prefix "NA" is a value, not a wildcard; only empty fields are missing
    p = tmp_path / "pc.csv"
    p.write_text("pc,age,note\nNA,30,null\nNA,,x\nAB,40,N/A\n")
    df, details = read_data_details(p)
    assert df["pc"].tolist() == ["NA", "NA", "AB"] and df["note"].tolist() == ["null", "x", "N/A"]
    assert df["age"].isna().tolist() == [False, True, False]
    assert details.na_values == ("",) and details.missing == {"pc": 0, "age": 1, "note": 0}
    assert details.marker_values == {"pc": {"NA": 2}, "note": {"N/A": 1, "null": 1}}
    assert any("empty fields only" in n for n in details.notes())
    df = read_data(p, na_values=["NA", "null"])
    assert df["pc"].isna().tolist() == [True, True, False] and df["note"].isna().tolist() == [True, False, False]


def test_numbers_with_a_marker_warn(tmp_path):
    p = tmp_path / "age.csv"
    p.write_text("age,sex\n30,f\nNA,m\n41,f\n")
    with pytest.warns(SdcWarning, match=r"column 'age' holds numbers and 'NA'.*na_values"):
        df = read_data(p)
    assert df["age"].tolist() == ["30", "NA", "41"]
    assert read_data(p, na_values="NA")["age"].tolist()[::2] == [30, 41]


def test_codes_with_leading_zeros_are_text(tmp_path):
    # issue 11, item 3: 02134 and 2134 are different codes; a measurement with decimals stays numeric
    p = tmp_path / "zip.csv"
    p.write_text("zip,area,x,n\n02134,007,0.5,1\n2134,12,01.5,2\n,3,2,3\n")
    df, details = read_data_details(p)
    assert df["zip"].tolist()[:2] == ["02134", "2134"] and pd.isna(df.loc[2, "zip"])
    assert df["area"].tolist() == ["007", "12", "3"]
    assert df["x"].tolist() == [0.5, 1.5, 2.0] and df["n"].tolist() == [1, 2, 3]
    assert details.text_codes == ("zip", "area")
    assert read_data(p, text_columns=False)["zip"].tolist()[:2] == [2134, 2134]
    assert read_data(p, text_columns=["n"])["n"].tolist() == ["1", "2", "3"]
    with pytest.raises(DataFileError, match="`text_columns` names columns not in its header: 'nn'"):
        read_data(p, text_columns=["nn"])


def test_leading_zeros_found_beyond_the_first_chunk(tmp_path, monkeypatch):
    import sdc._structure as structure

    monkeypatch.setattr(structure, "_CHUNK", 7)  # many chunk boundaries, inside fields and lines
    p = tmp_path / "z.csv"
    p.write_text("a,zip\n" + "".join(f"{i},{10000 + i}\n" for i in range(50)) + '7,"00123"\r\n8,9\n')
    df = read_data(p)
    assert df["zip"].iloc[-2] == "00123" and df["zip"].iloc[0] == "10000" and df["a"].iloc[-1] == 8


@pytest.mark.parametrize(("content", "message"), [
    ("a,b,c\n1,2,3\n4,5\n6,7,8\n", r"line 3 has 2 field\(s\) where the header has 3 \(a truncated row\?\)"),
    ("a,b\n1,2\n3,4,5\n6,7,8\n", r"line 3 has 3 field\(s\) where the header has 2; 2 lines differ in all"),
    ("a,b\n1,2,\n3,4,\n", r"line 2 has 3 field\(s\)"),  # pandas would make a silent index of column a
    ("a,b,c\n1,2,3\r4,5,6\n7,8,9\n", r"line 2 holds a carriage return \(CR\) outside quotes"),
    ("a,b\n1,x\ry\n", r"line 2 holds a carriage return"),
    ("a,b,a\n1,2,3\n", r"the header names column 'a' twice \(columns 1 and 3\)"),
    ('a,b\n"x\ny",1\n2\n', r"line 4 has 1 field\(s\)"),  # physical lines: the quoted field spans two
    ("h,x\n5'10\",1\n6\n", r"line 3 has 1 field\(s\)"),  # a quote inside a field, not RFC 4180
])
def test_malformed_text_is_an_error_naming_the_line(tmp_path, content, message):
    # issue 11, item 4
    p = tmp_path / "bad.csv"
    p.write_bytes(content.encode())
    with pytest.raises(DataFileError, match=message) as info:
        read_data(p)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("content", [
    'a,b\r\n"x\r\ny",1\r\n2,3\r\n',   # CR LF line ends; a CR inside quotes
    "a,b\r1,2\r3,4\r",                # old Mac line ends (CR only)
    "a,b\n1,2\n\n3,4",                # a blank line, no final line end
    "h,x\n5'10\",1\n6,2\n",           # a quote inside a field
])
def test_well_formed_text_reads(tmp_path, content):
    p = tmp_path / "ok.csv"
    p.write_bytes(content.encode())
    assert read_data(p).shape == (2, 2)


def test_whitespace_file_with_a_short_row(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("age sex zip\n30 f 01234\n40 m\n")
    with pytest.raises(DataFileError, match="line 3 has 2 field"):
        read_data(p, sep="whitespace")
    p.write_text("age sex zip\n30 f 01234\n40 m 1234\n")
    assert read_data(p)["zip"].tolist() == ["01234", "1234"]


def test_read_excel(tmp_path):
    # issue 11, item 19
    df = pd.DataFrame({"zip": ["02134", "2134", "NA"], "age": [30, None, 41], "sex": ["f", "m", "f"]})
    warnings.simplefilter("ignore", SdcWarning)  # zip: digits and "NA" (tested above)
    p = tmp_path / "d.xlsx"
    df.to_excel(p, index=False, sheet_name="survey")
    got, details = read_data_details(p)
    assert got["zip"].tolist() == ["02134", "2134", "NA"] and got["age"].isna().tolist() == [False, True, False]
    assert details.format == "excel" and details.missing["age"] == 1
    assert read_data(p, sheet="survey", na_values=["NA"])["zip"].isna().tolist() == [False, False, True]
    with pytest.raises(DataFileError, match="survey2"):
        read_data(p, sheet="survey2")
    (tmp_path / "old.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    with pytest.raises(DataFileError, match=r"\.xls\) is not supported; save it as \.xlsx"):
        read_data(tmp_path / "old.xls")


def test_a_file_named_xlsx_that_is_no_workbook_is_one_error(tmp_path, capsys):
    """A text file renamed .xlsx, or a truncated workbook, was a zipfile.BadZipFile traceback."""
    from sdc.cli.main import main

    good = tmp_path / "good.xlsx"
    pd.DataFrame({"a": [1, 2, 3] * 10, "b": list("xyz") * 10}).to_excel(good, index=False)
    (tmp_path / "text.xlsx").write_text("a,b\n1,2\n", encoding="utf-8")
    (tmp_path / "cut.xlsx").write_bytes(good.read_bytes()[:2000])
    for name in ("text.xlsx", "cut.xlsx"):
        with pytest.raises(DataFileError, match=r"not an Excel workbook \(an \.xlsx file is a zip archive"):
            read_data(tmp_path / name)
        assert read_header(tmp_path / name) is None  # read_data says why
        assert main(["risk", str(tmp_path / name), "--keys", "a"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sdc: error: cannot read data file '{tmp_path / name}': not an Excel workbook")
        assert err.count("\n") == 1


def test_excel_duplicated_header(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.append(["a", "b", "a"])
    wb.active.append([1, 2, 3])
    wb.save(tmp_path / "d.xlsx")
    with pytest.raises(DataFileError, match="names column 'a' twice"):
        read_data(tmp_path / "d.xlsx")


def test_read_header_reads_names_only(tmp_path):
    p = tmp_path / "h.csv"
    p.write_text("a;b c;d\n1;2;x\n", encoding="utf-8")
    assert read_header(p) == ["a", "b c", "d"]
    assert read_header(p, sep=";") == ["a", "b c", "d"]
    assert read_header(tmp_path / "none.csv") is None
    assert read_header(tmp_path / "book.xlsx") is None  # other formats: read_data reads them


def test_a_file_read_with_the_wrong_delimiter_is_named_as_such(tmp_path, capsys):
    from sdc.cli.main import main

    p = tmp_path / "d.csv"
    p.write_text("age,sex,region\n30,f,a\n41,m,b\n", encoding="utf-8")
    assert main(["risk", str(p), "--keys", "age,sex", "--sep", ";"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--keys names columns not in the data: 'age', 'sex'." in err
    assert "The data have one column, 'age,sex,region': was the file read with the wrong delimiter?" in err
    assert main(["risk", str(p), "--keys", "agee"]) == 2  # a typo among several columns: no such hint
    assert "one column" not in capsys.readouterr().err


def test_an_empty_file_is_said_empty_whatever_is_asked_of_it(tmp_path):
    """With text columns named, an empty file was reported as lacking those columns."""
    for name in ("e.csv", "e.xlsx", "e.dta"):
        (tmp_path / name).write_bytes(b"")
        with pytest.raises(DataFileError, match=f"^data file '.*{name}' is empty.$"):
            read_data(tmp_path / name, text_columns=["sex"])


@pytest.mark.parametrize("suffix", [".zip", ".gz", ".xz", ".bz2"])
def test_a_corrupt_compressed_file_is_one_error(tmp_path, capsys, suffix):
    """A .xz that is not one was an LZMAError traceback, a .zip one a BadZipFile traceback."""
    import bz2
    import gzip
    import lzma

    from sdc.cli.main import main
    from sdc.io import read_columns

    fake = tmp_path / f"fake.csv{suffix}"
    fake.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=rf"not a (valid \{suffix} file|zip archive), or a truncated one"):
        read_data(fake)
    for argv in (["risk", str(fake), "--keys", "a"], ["identify", str(fake)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sdc: error: cannot read data file '{fake}'") and err.count("\n") == 1
    if suffix == ".zip":
        return
    # cut after a good start: the first bytes read, the rest fails while parsing
    text = "a,b\n" + "".join(f"{i},{i % 7}\n" for i in range(200_000))
    packed = {".gz": gzip.compress, ".xz": lzma.compress, ".bz2": bz2.compress}[suffix](text.encode())
    cut = tmp_path / f"cut.csv{suffix}"
    cut.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(DataFileError, match="cannot read data file"):
        read_data(cut)
    with pytest.raises(DataFileError, match="cannot read data file"):
        read_columns(cut, ["a"])
