"""sdc.core.stream: a file read in chunks gives the pattern table (and the figures) of reading
it whole, on the ``chunks`` engine of the measures."""

from __future__ import annotations

import pandas as pd
import pytest

import sdc
import sdc.io as sio


@pytest.mark.parametrize("text", ["a,b\nTRUE,x\nTRUE,x\nFALSE,y\n,y\nFALSE,x\n",   # a missing value
                                  "a,b\nTRUE,x\nTRUE,x\nFALSE,y\nTRUE,y\nFALSE,x\n",  # none
                                  "a,b\n,x\n,x\nFALSE,y\nTRUE,y\nFALSE,x\n"])         # a chunk without a value
@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_true_false_keys_stay_truth_values(tmp_path, text, chunk_rows) -> None:
    """read_data reads TRUE/FALSE as truth values (objects beside a missing value); a chunk
    holding a missing value was typed "O", so the file was read as text and the riskiest
    classes showed 'TRUE' and 'FALSE' (and a chunk without a value was typed float)."""
    path = tmp_path / "tf.csv"
    path.write_text(text, encoding="utf-8")
    ref = sdc.k_anonymity(sio.read_data(path), ["a", "b"]).riskiest_classes
    got = sdc.k_anonymity(sdc.read_chunks(path, chunk_rows=chunk_rows), ["a", "b"]).riskiest_classes
    pd.testing.assert_frame_equal(got, ref)
    assert all(isinstance(v, bool) for v in got["a"].dropna())


def test_a_chunked_file_reads_its_patterns_once_for_the_measures_of_its_keys(tmp_path, monkeypatch) -> None:
    """k_anonymity and individual_risk of the same keys share one pattern table (two passes),
    as sdc risk --chunks always did; other keys make another."""
    import sdc.core.stream as stream

    path = tmp_path / "d.csv"
    pd.DataFrame({"a": [1, 1, 2, 3], "b": list("xxyz"), "w": [1.0, 2.0, 3.0, 4.0]}).to_csv(path, index=False)
    made = []
    real = stream._file_patterns
    monkeypatch.setattr(stream, "_file_patterns", lambda *a, **kw: made.append(a[1]) or real(*a, **kw))
    f = sdc.read_chunks(path, chunk_rows=2)
    assert list(f.columns) == ["a", "b", "w"] and f.engine == "chunks"
    p, r = sdc.k_anonymity(f, ["a", "b"], weights="w"), sdc.individual_risk(f, ["a", "b"], weights="w")
    assert made == [("a", "b")] and (p.n_classes, r.n_records) == (3, 4)
    assert sdc.key_subset_snapshots(f, ["a"]).table["n_classes"].tolist() == [3] and made == [("a", "b"), ("a",)]
    with pytest.raises(ValueError, match="not kept when the file is read in chunks"):
        _ = r.risk
    with pytest.raises(ValueError, match=r"^household_risk\(\) cannot run on a file read in chunks \(it needs each "
                                         r"household's records together\); read the file whole"):
        sdc.household_risk(f, ["a"], "b")
    with pytest.raises(ValueError, match=r"`key_bins` cannot run on a file read in chunks \(bin the keys in the file"):
        sdc.k_anonymity(f, ["a"], key_bins={"a": [0, 2, 5]})
    with pytest.raises(TypeError, match="`keys` on a chunked file must be a column name"):
        sdc.k_anonymity(f, sdc.key_classes(sio.read_data(path), ["a"]))
