"""The Dask engine against the pandas path: cases found by a randomized differential check
(random small CSV data sets cut into part files, each figure of ``sdc risk``/``snapshots``/
``assess``/``protect --engine dask`` and of the Dask API compared with the in-memory run on
one file holding the same records) where the figures differed or Dask failed.

Every case here failed when written (see the reasons on each test); the in-memory figures
are the reference (docs/dask.md: "the same numbers as in memory"). The synchronous scheduler
(no cluster): the commands' cluster is replaced by a no-op session. Without dask the module
skips with the reason, unless SDC_REQUIRE_DASK=1 (then it fails).
"""

from __future__ import annotations

import contextlib
import json

import pandas as pd
import pytest

import sdc
import sdc.io as sio

from tests.dask_support import require_dask

require_dask()

import dask

from sdc.core._dask_protect import read_partitions


@pytest.fixture(autouse=True)
def _sync(monkeypatch):
    """The synchronous scheduler, and the commands' cluster a no-op (no worker processes)."""
    import sdc.core._dask as _d
    import sdc.core._dask_protect as _dp

    monkeypatch.setattr(_d, "client_for", lambda *a, **k: contextlib.nullcontext())
    monkeypatch.setattr(_dp, "session", lambda *a, **k: contextlib.nullcontext())
    with dask.config.set(scheduler="sync"):
        yield


def _parts(d, texts: list[str]) -> tuple[str, str]:
    """Part files (part-0.csv, ...) and all.csv holding their records under one header."""
    d.mkdir()
    for i, t in enumerate(texts):
        (d / f"part-{i}.csv").write_text(t, encoding="utf-8")
    header = texts[0].split("\n", 1)[0]
    body = "".join(t.split("\n", 1)[1] for t in texts)
    (d / "all.csv").write_text(header + "\n" + body, encoding="utf-8")
    return str(d / "part-*.csv"), str(d / "all.csv")


def _json(capsys, argv: list[str]) -> dict:
    from sdc.cli.main import main

    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _same_profile(ddf, whole: pd.DataFrame, keys: list[str]) -> None:
    a, b = sdc.k_anonymity(ddf, keys), sdc.k_anonymity(whole, keys)
    assert (a.n_classes, a.n_unique) == (b.n_classes, b.n_unique)
    pd.testing.assert_frame_equal(a.class_sizes, b.class_sizes)
    ra, rb = sdc.individual_risk(ddf, keys), sdc.individual_risk(whole, keys)
    assert ra.expected_reidentifications == pytest.approx(rb.expected_reidentifications, rel=1e-12)
    assert a.riskiest_classes[keys].astype(str).values.tolist() == b.riskiest_classes[keys].astype(str).values.tolist()


@pytest.mark.parametrize("cmd", ["risk", "snapshots"])
def test_risk_engine_dask_reads_values_as_in_memory(tmp_path, capsys, cmd) -> None:
    """``sdc risk/snapshots --engine dask`` read with dask.dataframe.read_csv and pandas'
    defaults, not as the in-memory reader: "0123" and "123" became one class (123.0), and
    the text "NA" was missing (in memory only empty fields are, without --na-values)."""
    pattern, whole = _parts(tmp_path / "d", ["a,b\n0123,NA\n123,NA\n", "a,b\n123,x\n7,NA\n"])
    args = ["--keys", "a,b", "--json", "--missing", "category"]
    ref = _json(capsys, [cmd, whole, *args])
    assert _json(capsys, [cmd, whole, *args, "--engine", "dask"]) == ref   # one file: 0123 was 123.0, NA missing
    assert _json(capsys, [cmd, pattern, *args, "--engine", "dask"]) == ref  # parts: failed (mismatched dtypes)
    args += ["--na-values", "NA"]
    assert _json(capsys, [cmd, pattern, *args, "--engine", "dask"]) == _json(capsys, [cmd, whole, *args])


def test_risk_engine_dask_numbers_then_text_is_one_line(tmp_path, capsys) -> None:
    """A column of numbers in one file and text in another failed with dask's multi-line
    "Mismatched dtypes" table; now the one line of the partitioned reader, naming the column."""
    from sdc.cli.main import main

    pattern, _ = _parts(tmp_path / "d", ["a,c\n1,1\n2,2\n", "a,c\n1,a\n2,b\n"])
    assert main(["risk", pattern, "--keys", "a,c", "--engine", "dask"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "column 'c'" in err[0] and "text_columns" in err[0], err


def test_key_missing_in_every_record_refused_as_in_memory(tmp_path) -> None:
    """The in-memory measures refuse a key missing in every record (and an infinite key
    value) in one line naming it; on Dask they gave figures."""
    pattern, whole = _parts(tmp_path / "d", ["a,b\n,1\n,2\n", "a,b\n,1\n"])
    ddf, _ = read_partitions(pattern)
    for fn in (sdc.k_anonymity, sdc.individual_risk, sdc.key_subset_snapshots):
        with pytest.raises(ValueError, match="key variable 'a' is missing in every record"):
            fn(sio.read_data(whole), ["a", "b"])
        with pytest.raises(ValueError, match="key variable 'a' is missing in every record"):
            fn(ddf, ["a", "b"])
    pattern, _ = _parts(tmp_path / "e", ["a,b\ninf,1\n1,2\n", "a,b\n2,1\n"])
    with pytest.raises(ValueError, match="key variable 'a' has a non-finite value inf"):
        sdc.k_anonymity(read_partitions(pattern)[0], ["a", "b"])


def test_header_only_part_is_an_empty_partition(tmp_path) -> None:
    """A part file with a header and no records (the first one, or a later one) was refused
    ("data file ... has no records"), though one file holding every record is read; the
    row-wise protection methods then refused the empty partition ("`data` is empty")."""
    pattern, whole = _parts(tmp_path / "d", ["a,b,w\n", "a,b,w\n0123,x,1\n7,,2\n", "a,b,w\n", "a,b,w\n7,y,3\n"])
    ddf, files = read_partitions(pattern)
    assert ddf.npartitions == len(files) == 4
    ref = sio.read_data(whole)
    got = ddf.compute()
    assert got["a"].tolist() == ["0123", "7", "7"]
    _same_profile(ddf, ref, ["a", "b"])
    rec, mem = sdc.top_bottom_code(ddf, "w", top=2), sdc.top_bottom_code(ref, "w", top=2)
    pd.testing.assert_frame_equal(rec.data.compute().reset_index(drop=True), mem.data, check_dtype=False)
    assert int(rec.changed.compute().sum()) == int(mem.changed.sum()) == 1
    _parts(tmp_path / "e", ["a,b\n", "a,b\n"])
    with pytest.raises(ValueError, match="no data file of .* has records"):
        read_partitions(str(tmp_path / "e" / "part-*.csv"))


def test_first_files_empty_column_takes_a_later_files_type(tmp_path) -> None:
    """A column with no value in the first file (read as float64) and text in a later one
    was refused as "numbers in the first file, text in a later one"; one file holding every
    record reads it as text. The message named the first file even when its type came from
    another (a header-only first file)."""
    pattern, whole = _parts(tmp_path / "d", ["k,s\n1,\n2,\n", "k,s\n1,x\n2,y\n", "k,s\n1,10\n"])
    ddf, _ = read_partitions(pattern)
    ref = sio.read_data(whole)
    assert ddf.compute()["s"].tolist()[2:] == ref["s"].tolist()[2:] == ["x", "y", "10"]
    a, b = sdc.l_diversity(ddf, ["k"], "s", l=2), sdc.l_diversity(ref, ["k"], "s", l=2)
    pd.testing.assert_frame_equal(a.by_sensitive, b.by_sensitive)
    pattern, _ = _parts(tmp_path / "e", ["k,s\n", "k,s\n1,2\n", "k,s\n1,x\n"])
    with pytest.raises(ValueError, match=r"column 's' is read as text in 'part-2.csv' but as int64 in 'part-1.csv'"):
        read_partitions(pattern)[0].compute()


def test_truth_values_with_missing_ones_in_another_file(tmp_path) -> None:
    """TRUE/FALSE with a missing value are read as Python bools in a text column; a file
    without missing values reads them as bool. That file was read again as text, so False
    (first file) and "FALSE" (this file) became two classes; in memory they are one."""
    pattern, whole = _parts(tmp_path / "d", ["a,b\nTRUE,1\n,2\nFALSE,1\n", "a,b\nFALSE,1\nTRUE,2\n"])
    ddf, _ = read_partitions(pattern)
    ref = sio.read_data(whole)
    assert ddf.compute()["a"].tolist()[3:] == ref["a"].tolist()[3:] == [False, True]
    _same_profile(ddf, ref, ["a", "b"])
    # bool first, missing values later: Python bools too
    pattern, whole = _parts(tmp_path / "e", ["a,b\nTRUE,1\nFALSE,2\n", "a,b\n,1\nTRUE,2\n"])
    _same_profile(read_partitions(pattern)[0], sio.read_data(whole), ["a", "b"])


def test_truth_values_first_then_other_text_is_one_clear_error(tmp_path) -> None:
    """TRUE/FALSE in the first file and other text in a later one: one file holding both
    reads them as the text "TRUE"; the first file's bools were kept (True and "TRUE" two
    classes, silently). It cannot be settled file by file: one line naming the column."""
    pattern, _ = _parts(tmp_path / "d", ["a,b\nTRUE,1\n,2\n", "a,b\nx,1\nTRUE,2\n"])
    with pytest.raises(ValueError, match=r"column 'a' holds TRUE/FALSE in 'part-0.csv' and other text in "
                                         r"'part-1.csv'.*text_columns"):
        read_partitions(pattern)[0].compute()
    ddf, _ = read_partitions(pattern, text_columns=["a"])  # the remedy the message gives
    assert ddf.compute()["a"].tolist() == ["TRUE", None, "x", "TRUE"] or \
        ddf.compute()["a"].fillna("<NA>").tolist() == ["TRUE", "<NA>", "x", "TRUE"]


def test_unknown_weight_column_named_as_weights(tmp_path, capsys) -> None:
    """An unknown weight column was reported as "`keys` names columns not in the data" on
    Dask (in memory: `weights`, and --weights on the command line)."""
    from sdc.cli.main import main

    pattern, whole = _parts(tmp_path / "d", ["a,w\n1,2\n2,3\n", "a,w\n1,2\n"])
    ddf = read_partitions(pattern)[0]
    for fn in (sdc.k_anonymity, sdc.individual_risk, sdc.key_subset_snapshots):
        with pytest.raises(ValueError, match="^`weights` names columns not in the data: 'nope'"):
            fn(ddf, ["a"], weights="nope")
    for path, extra in ((whole, []), (pattern, ["--engine", "dask"])):
        assert main(["risk", path, "--keys", "a", "--weights", "nope", *extra]) == 2
        assert capsys.readouterr().err.strip() == "sdc: error: --weights names columns not in the data: 'nope'."


@pytest.mark.parametrize("kw", [dict(width=2), dict(log_base=10), dict(edges=[0, 5, 10, 20])])
def test_global_recode_bands_as_on_the_whole_file(kw):
    """Banding by width gave each partition the bands of its own range: computing the result
    failed with pandas' 'to union ordered Categoricals, all categories must be the same'."""
    import dask.dataframe as dd
    import numpy as np

    df = pd.DataFrame({"w": [1.0, 2.0, 3.0, 9.0, np.nan, 15.0], "k": [1, 2, 3, 4, 5, 6]})
    ddf = dd.from_pandas(df, npartitions=3)
    got = sdc.global_recode(ddf, ["w", "k"], **kw).data.compute()
    pd.testing.assert_frame_equal(got, sdc.global_recode(df, ["w", "k"], **kw).data)
