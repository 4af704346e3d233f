"""`sdc risk --chunks` (sdc.risk.streamed.risk_from_file) against read_data + the in-memory
measures: cases found by a randomized differential check where the figures differ.

Every case here failed when written (see the reasons on each test); the in-memory figures
are the reference (the module's promise: "the figures are those of reading the whole file").
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import sdc
import sdc.io as sio
from sdc.risk.streamed import risk_from_file


def _same_as_in_memory(path, keys, chunk_rows):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = sio.read_data(path)
        ref = sdc.k_anonymity(data, keys)
        ref_risk = sdc.individual_risk(data, keys)
        prof, risk = risk_from_file(path, keys, chunk_rows=chunk_rows)
    assert (prof.n_classes, prof.n_unique, prof.min_k, prof.median_k) == \
           (ref.n_classes, ref.n_unique, ref.min_k, ref.median_k)
    pd.testing.assert_frame_equal(prof.class_sizes, ref.class_sizes)
    assert risk.expected_reidentifications == pytest.approx(ref_risk.expected_reidentifications, rel=1e-12)
    a, b = ref.riskiest_classes, prof.riskiest_classes
    assert a[keys].astype(str).values.tolist() == b[keys].astype(str).values.tolist()


def _same_or_refused(path, keys, chunk_rows):
    try:
        risk_from_file(path, keys, chunk_rows=chunk_rows)
    except ValueError as exc:
        assert any(repr(k) in str(exc) for k in keys), str(exc)  # a clear refusal naming the key
        return
    _same_as_in_memory(path, keys, chunk_rows)


@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_codes_with_leading_zeros_stay_text_in_chunks(tmp_path, chunk_rows):
    """read_data reads a column of digit codes with a leading zero as text ("010" and "10"
    are two classes); the chunked read found the column's zero fields (ColumnFile's plan)
    but read it as numbers, so 010 and 10 became one class."""
    path = tmp_path / "zero.csv"
    path.write_text("a,b\n010,1\n10,1\n7,2\n", encoding="utf-8")
    _same_as_in_memory(path, ["a", "b"], chunk_rows)


@pytest.mark.parametrize("values", [
    [2 ** 53, 2 ** 53 + 1, 2 ** 53 + 3],             # int64 beyond float64's exact integers
    [2 ** 63, 2 ** 63 + 1, 2 ** 63 + 1],             # uint64
    [-2 ** 63, -2 ** 63 + 1, -2 ** 63 + 1],          # int64 at its minimum
])
@pytest.mark.parametrize("chunk_rows", [1, 100])
def test_whole_numbers_of_2_53_or_more_are_not_merged(tmp_path, values, chunk_rows):
    """Whole numbers within a small span are offset-coded (KeyDomain); the offsets were
    taken in float64, so integers of 2^53 or more that differ became one code (and uint64
    values were shown as -2^63 in the riskiest classes). Either the figures of the whole
    file, or a refusal naming the column; never other figures."""
    path = tmp_path / "big.csv"
    path.write_text("a\n" + "".join(f"{v}\n" for v in values), encoding="utf-8")
    _same_or_refused(path, ["a"], chunk_rows)


@pytest.mark.parametrize("value", ["inf", "-inf"])
def test_non_finite_key_refused_in_chunks_too(tmp_path, value):
    """The in-memory measures refuse a key with an infinite value (one line naming the key);
    the chunked read counted it as a value."""
    path = tmp_path / "inf.csv"
    path.write_text(f"a\n{value}\n1\n1\n", encoding="utf-8")
    data = sio.read_data(path)
    with pytest.raises(ValueError, match="non-finite"):
        sdc.k_anonymity(data, ["a"])
    with pytest.raises(ValueError, match="non-finite"):
        risk_from_file(path, ["a"], chunk_rows=2)


def test_chunks_of_signed_and_unsigned_integers_read_as_the_whole_file(tmp_path):
    """A column of uint64 (2^63 + 1) and negative or signed values is text when the whole
    file is read ("-0" and "0" two values); chunks of one record each were typed uint64 and
    int64 on their own, taken as numbers (the kinds "i" and "u" both numeric in KeyDomain),
    and "-0" and "0" became one class (read_columns reads such a column whole: _join)."""
    path = tmp_path / "signed.csv"
    path.write_text(f"a\n{2 ** 63 + 1}\n-0\n0\n5\n", encoding="utf-8")
    assert not pd.api.types.is_numeric_dtype(sio.read_data(path)["a"])  # the reference reads text
    _same_or_refused(path, ["a"], 1)


@pytest.mark.parametrize("value", ["inf", "-inf", str(2 ** 53 + 1), str(2 ** 63 + 1)])
def test_text_column_whose_chunk_looks_numeric_is_not_refused(tmp_path, value):
    """The whole file reads the column as text ("inf" or a big number is a value like "b");
    a chunk holding only that value is typed float64/uint64 on its own. A per-chunk refusal
    (non-finite, 2^53 or more) before the column is known to be text refuses a file that
    the in-memory measures take."""
    path = tmp_path / "text.csv"
    path.write_text(f"a\n{value}\nb\nb\n", encoding="utf-8")
    assert not pd.api.types.is_numeric_dtype(sio.read_data(path)["a"])  # text (object, or str in pandas 3)
    _same_as_in_memory(path, ["a"], 1)


@pytest.mark.parametrize("opts", [{}, {"text_columns": ["a"]}])
def test_key_missing_in_every_record_refused_as_in_memory(tmp_path, opts):
    """The in-memory measures refuse a key missing in every record (one line naming it); the
    chunked read failed with a Python TypeError (numbers: KeyDomain.code subtracts lo=None)
    or, for a text column, gave figures."""
    path = tmp_path / "allmiss.csv"
    path.write_text("a,b\n,1\n,2\n,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missing in every record"):
        sdc.k_anonymity(sio.read_data(path, **opts), ["a", "b"])
    for chunk_rows in (1, 100):
        with pytest.raises(ValueError, match="'a'.*missing in every record"):
            risk_from_file(path, ["a", "b"], chunk_rows=chunk_rows, **opts)


@pytest.mark.parametrize("chunk_rows", [1, 100])
def test_missing_text_key_shown_as_in_memory(tmp_path, chunk_rows):
    """A missing text value in the riskiest classes was None when read in chunks and NaN when
    read whole (the comparison above goes through str, where 'None' != 'nan')."""
    path = tmp_path / "text-na.csv"
    path.write_text("a,b\nx,1\n,1\ny,\nx,2\n", encoding="utf-8")
    ref = sdc.k_anonymity(sio.read_data(path), ["a", "b"]).riskiest_classes
    got = risk_from_file(path, ["a", "b"], chunk_rows=chunk_rows)[0].riskiest_classes
    assert got[["a", "b"]].astype(str).values.tolist() == ref[["a", "b"]].astype(str).values.tolist()
    assert got["a"].isna().tolist() == ref["a"].isna().tolist() == [False, False, False, True]
