"""Issue 33: ``sdc assess --chunks ROWS``. The additive measures (k-anonymity, the risks, the
snapshots, l-diversity and t-closeness from the (class, value) cell table) of a file read in
chunks give the in-memory numbers, for chunks of one record, of a few, and larger than the file;
the measures that cannot stream are listed as not run, with the reason."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.core.stream import NotKept
from tests.helpers import run_cli


@pytest.fixture(scope="module")
def survey(tmp_path_factory):
    """Keys with missing values (text and numbers), a text and a numeric sensitive variable
    (with missing values), weights."""
    rng = np.random.default_rng(33)
    n = 150  # small: the one-record chunks read the file 150 times per pass
    df = pd.DataFrame({
        "id": np.arange(1, n + 1), "a": rng.integers(0, 4, n), "b": rng.choice(list("xyz"), n),
        "c": rng.choice(["p", None, "q"], n), "s": rng.choice(["u", "v", "w", None], n),
        "x": np.round(rng.normal(5, 1, n), 1), "w": np.round(rng.uniform(1, 3, n), 3)})
    df.loc[rng.random(n) < 0.05, "x"] = np.nan
    df.loc[rng.random(n) < 0.05, "a"] = np.nan
    path = tmp_path_factory.mktemp("cells") / "survey.csv"
    df.to_csv(path, index=False)
    return path


CHUNKS = (1, 7, 10_000)  # one record, a few, more than the file holds


@pytest.mark.parametrize("rows", CHUNKS)
def test_l_diversity_t_closeness_attacker_in_chunks_are_the_in_memory_numbers(survey, rows):
    d = sdc.io.read_data(survey)
    f = sdc.read_chunks(survey, chunk_rows=rows)
    for sens in (["s"], ["s", "x"]):
        a, b = sdc.l_diversity(d, ["a", "b", "c"], sens), sdc.l_diversity(f, ["a", "b", "c"], sens)
        pd.testing.assert_frame_equal(a.by_sensitive, b.by_sensitive)
        pd.testing.assert_frame_equal(a.classes.reset_index(drop=True), b.classes.reset_index(drop=True),
                                      check_dtype=False)
        assert isinstance(b.records, NotKept)
    for s, dist in (("x", "ordered"), ("x", "equal"), ("s", "equal"), ("s", "tvd")):
        a, b = sdc.t_closeness(d, ["a", "b"], s, distance=dist), sdc.t_closeness(f, ["a", "b"], s, distance=dist)
        pd.testing.assert_frame_equal(a.summary(), b.summary())
    with pytest.raises(ValueError, match="not kept when the file is read in chunks"):
        b.records.to_numpy()
    for w in (None, "w"):  # the attacker risks, from the pattern table (no population file)
        a, b = sdc.attacker_risk(d, ["a", "b", "c"], weights=w), sdc.attacker_risk(f, ["a", "b", "c"], weights=w)
        pd.testing.assert_frame_equal(a.summary(), b.summary(), check_exact=False, rtol=1e-12)


def _values(folder):
    doc = json.loads((folder / "report.json").read_text())
    return doc


@pytest.mark.parametrize("rows", CHUNKS)
def test_assess_chunks_gives_the_in_memory_verdicts(survey, tmp_path, capsys, rows):
    """sdc assess --chunks ROWS: every verdict of the additive measures as in memory (values
    equal up to the rounding of weight sums); SUDA2 and the others listed as not run."""
    common = ["--keys", "a,b,c", "--sensitive", "s,x", "--weights", "w", "--id", "id", "--formats", "json",
              "--measures", "k_anonymity,risk,snapshots,ldiversity,tcloseness,suda"]
    code, _, err = run_cli(capsys, "assess", str(survey), *common, "--out", str(tmp_path / "mem"))
    assert code == 0, err
    code, out, err = run_cli(capsys, "assess", str(survey), *common, "--chunks", str(rows),
                             "--out", str(tmp_path / "chunks"))
    assert code == 0, err
    assert f"in chunks of up to {rows:,} records" in out and "Not run in chunks: SUDA2" in out
    mem = sdc.assess(str(survey), keys=["a", "b", "c"], sensitive=["s", "x"], weights="w", id="id",
                     measures=["k_anonymity", "risk", "snapshots", "ldiversity", "tcloseness"])
    ch = sdc.assess(str(survey), keys=["a", "b", "c"], sensitive=["s", "x"], weights="w", id="id",
                    measures=["k_anonymity", "risk", "snapshots", "ldiversity", "tcloseness"], engine="chunks",
                    chunk_rows=rows)
    a, b = mem.to_frame(), ch.to_frame()
    assert len(a) == len(b) == 7  # fk < k, risk, global risk, l-diversity x 2, t-closeness x 2
    assert a[["scenario", "measure", "verdict"]].equals(b[["scenario", "measure", "verdict"]])
    np.testing.assert_allclose(a["value"].astype(float), b["value"].astype(float), rtol=1e-12)
    assert dict(ch.not_run) == {} and ch.provenance["chunk_rows"] == rows


def test_assess_chunks_refusals(survey, tmp_path, capsys):
    code, _, err = run_cli(capsys, "assess", str(survey), "--keys", "a", "--chunks", "0", "--out", str(tmp_path / "o"))
    assert code != 0 and "--chunks must be a number of records >= 1; got 0." in err
    code, _, err = run_cli(capsys, "assess", str(survey), "--keys", "a", "--chunks", "5", "--engine", "dask",
                           "--out", str(tmp_path / "o"))
    assert code != 0 and "drop one of them" in err
    code, _, err = run_cli(capsys, "assess", str(survey), "--keys", "b", "--continuous-keys", "a", "--bins",
                           "a=0,2,5", "--chunks", "5", "--out", str(tmp_path / "o"))
    assert code != 0 and "--bins cannot be used with --chunks" in err
