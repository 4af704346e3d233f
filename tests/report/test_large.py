"""The report's paths for large files give what the plain ones gave: the per-record table built
without copying its columns, and the cumulative-risk figure drawn from the corners of its step
line only."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdc._files import csv_bytes
from sdc.report.plots import _step_corners
from sdc.report.records import record_tables
from sdc.report.safety import safe_frame
from sdc.workflow.assess import assess

from tests.workflow.test_assess import TOY, toy_config


def _concatenated(df: pd.DataFrame) -> pd.DataFrame:
    """The table as the report built it before: one column frame per column, concatenated."""
    return pd.concat([pd.Series(df[c].array, name=c).to_frame() for c in df.columns], axis=1)


def _as_objects(df: pd.DataFrame) -> pd.DataFrame:
    """`df` with its categorical columns as the object columns of their values (how the
    per-record tables held text before they held it as categoricals)."""
    return df.astype({c: object for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)})


def test_joined_table_is_the_same_file_without_copies() -> None:
    a = assess(toy_config(), TOY.copy())
    rec = record_tables(a).files["records.csv"]
    assert np.shares_memory(rec["individual_risk"].to_numpy(), a.scenarios[0].risk.risk.to_numpy())  # not a copy
    assert csv_bytes(safe_frame(rec)) == csv_bytes(safe_frame(_concatenated(rec)))
    assert list(map(str, rec.dtypes)) == list(map(str, _concatenated(rec).dtypes))


def test_text_columns_are_categoricals_written_as_their_texts() -> None:
    # Every per-record file: the text keys and sensitive values are categoricals (hashed once per
    # run), and the file's bytes are those of the same table with object columns.
    a = assess(toy_config(), TOY.copy())
    files = record_tables(a).files
    assert isinstance(files["records.csv"]["sex"].dtype, pd.CategoricalDtype)
    for frame in files.values():
        assert csv_bytes(safe_frame(frame)) == csv_bytes(safe_frame(_as_objects(frame)))


@pytest.mark.parametrize("rows", [40, 25_000])  # to_csv, and csv_bytes' column assembly (20,000 rows and more)
def test_a_categorical_of_texts_writes_the_bytes_of_the_texts(rows: int) -> None:
    # Texts a spreadsheet would run, quotes, commas, line ends, a control character, missing
    # values (None and NaN) and a NUL character: the categorical of core.keys.text_categorical
    # writes what the object column writes.
    from sdc.core.keys import text_categorical

    texts = ["plain", "=cmd()", "-12 mg", "@x", 'say "hi"', "a,b", "line\nend", "\x1b[31m", "", None, np.nan,
             "a\x00b", "a"]
    rng = np.random.default_rng(0)
    col = pd.Series(np.array(texts, dtype=object)[rng.integers(0, len(texts), rows)])
    cat = text_categorical(col)
    assert cat is not None and list(pd.Series(cat).astype(object).isna()) == list(col.isna())
    plain = pd.DataFrame({"n": np.arange(rows), "t": col})
    as_cat = pd.DataFrame({"n": np.arange(rows), "t": cat})
    assert csv_bytes(safe_frame(as_cat)) == csv_bytes(safe_frame(plain))


def test_text_categorical_takes_only_text() -> None:
    from sdc.core.keys import text_categorical

    assert text_categorical(pd.Series([1, 1.0, True], dtype=object)) is None  # equal values of other types
    assert text_categorical(pd.Series([1, 2])) is None
    assert text_categorical(pd.Series([None, None], dtype=object)) is None
    cat = text_categorical(pd.Series(["b", "a", "b", None]))
    assert list(cat.categories) == ["b", "a"] and cat.codes.tolist() == [0, 1, 0, -1]
    cat = text_categorical(pd.Series(["b", "a", "b", None], dtype="string"))  # pandas 3's text is a string dtype
    assert list(cat.categories) == ["b", "a"] and cat.codes.tolist() == [0, 1, 0, -1]


def test_joined_table_with_a_repeated_name_still_renames_it() -> None:
    # keys named class_id and class_id_sdc: the computed class_id becomes class_id_sdc, a key's name too
    data = TOY.copy().rename(columns={"sex": "class_id_sdc", "region": "class_id"})
    a = assess(data, keys=["class_id_sdc", "class_id"], measures=["k_anonymity", "risk"], k=2)
    cols = list(record_tables(a).files["records.csv"].columns)
    assert "class_id_sdc" in cols and "class_id_sdc_2" in cols and len(set(cols)) == len(cols)


def _expand(x: np.ndarray, y: np.ndarray) -> list[tuple[float, float]]:
    """The corners of the post-step line through (x, y), collinear points dropped."""
    pts = [(x[0], y[0])]
    for i in range(1, len(x)):
        pts += [(x[i], y[i - 1]), (x[i], y[i])]
    out: list[tuple[float, float]] = []
    for p in pts:
        if out and p == out[-1]:
            continue
        if len(out) >= 2 and (out[-2][0] == out[-1][0] == p[0] or out[-2][1] == out[-1][1] == p[1]):
            out[-1] = p  # the same vertical or horizontal run goes on
        else:
            out.append(p)
    return out


@given(st.lists(st.sampled_from([0.0, 0.01, 0.1, 0.25, 0.5, 1.0]), min_size=1, max_size=60))
def test_step_corners_draw_the_same_line(values: list[float]) -> None:
    risk = np.sort(np.array(values))
    n = risk.size
    x, share = _step_corners(risk)
    full = np.arange(1, n + 1) / n
    assert _expand(x, share) == _expand(risk, full)
    assert (x[0], share[0], x[-1], share[-1]) == (risk[0], full[0], risk[-1], full[-1])  # the same axis limits
    assert x.size <= min(n, 2 * np.unique(risk).size)


def test_step_corners_keep_distinct_risks_whole() -> None:
    risk = np.array([0.1, 0.2, 0.3, 0.4])
    x, share = _step_corners(risk)
    assert x.tolist() == risk.tolist() and share.tolist() == (np.arange(1, 5) / 4).tolist()
    x, share = _step_corners(np.array([0.2, 0.2, 0.2, 0.2, 0.5]))
    assert x.tolist() == [0.2, 0.2, 0.5] and share.tolist() == [0.2, 0.8, 1.0]
