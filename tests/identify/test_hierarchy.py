"""Generalisation hierarchies: ARX's CSV layout and the builders (sdc.identify.hierarchy)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sdc.identify.hierarchy import (
    Hierarchy, as_hierarchy, column_text, date_hierarchy, interval_hierarchy, mapping_hierarchy, prefix_hierarchy,
    read_hierarchy, value_text,
)

ADULT_DIR = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv")).parent


def test_read_arx_layout(tmp_path: Path) -> None:
    p = tmp_path / "h.csv"
    p.write_text("\ufeff39;35-39;30-39;*\n\n38;35-39;30-39;*\n\"4;2\";0-4;0-9;*\n", encoding="utf-8")
    h = read_hierarchy(p)
    assert h.n_levels == 4 and h.n_values == 3
    assert h.values == ("39", "38", "4;2")  # BOM dropped, blank line skipped, quoted separator kept
    assert h.labels(1) == ("35-39", "0-4")
    assert h.mapping(2) == {"39": "30-39", "38": "30-39", "4;2": "0-9"}
    # round trip through the same layout
    q = tmp_path / "again.csv"
    h.to_csv(q)
    assert read_hierarchy(q) == h
    assert h.to_frame().columns.tolist() == ["level_0", "level_1", "level_2", "level_3"]


def test_read_errors(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("a;x;*\nb;y\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2 has 2 fields; the first row has 3"):
        read_hierarchy(p)
    with pytest.raises(ValueError, match="no such file"):
        read_hierarchy(tmp_path / "none.csv")
    p.write_text("a;x;*\nb;x;y\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"not a tree: level-1 label 'x' generalises to several level-2 labels"):
        read_hierarchy(p)
    p.write_text("a;x\na;y\n", encoding="utf-8")
    with pytest.raises(ValueError, match="lists the original value 'a' more than once"):
        read_hierarchy(p)
    p.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="has no rows"):
        read_hierarchy(p)


@pytest.mark.skipif(not (ADULT_DIR / "adult_hierarchy_age.csv").exists(), reason="ARX's adult hierarchies are absent")
def test_reads_arx_adult_hierarchies() -> None:
    levels = {"sex": 2, "age": 5, "race": 2, "marital-status": 3, "education": 4, "native-country": 3,
              "workclass": 3, "occupation": 3, "salary-class": 2}
    for name, n in levels.items():
        h = read_hierarchy(ADULT_DIR / f"adult_hierarchy_{name}.csv")
        assert h.n_levels == n, name
        assert h.labels(n - 1) == ("*",)
    age = read_hierarchy(ADULT_DIR / "adult_hierarchy_age.csv")
    assert age.mapping(1)["39"] == "35-39" and age.mapping(3)["39"] == "20-39"


def test_as_hierarchy_accepts_frames_paths_and_objects(tmp_path: Path) -> None:
    df = pd.DataFrame([["M", "*"], ["F", "*"]])
    h = as_hierarchy(df, name="sex")
    assert h.values == ("M", "F") and as_hierarchy(h) is h
    (tmp_path / "sex.csv").write_text(h.to_csv(), encoding="utf-8")
    assert as_hierarchy("sex.csv", base=tmp_path) == h
    with pytest.raises(TypeError, match="must be a file path, a DataFrame"):
        as_hierarchy(42, name="x")
    with pytest.raises(ValueError, match="missing cells"):
        as_hierarchy(pd.DataFrame([["M", None]]), name="x")


def test_value_text_and_column_text() -> None:
    assert value_text(39.0) == "39" and value_text(39.5) == "39.5" and value_text(np.int64(7)) == "7"
    assert value_text(True) == "True" and value_text("07") == "07"
    codes, texts = column_text(pd.Series([3.0, None, 3.0, 4.5]))
    assert codes.tolist() == [0, -1, 0, 1] and texts == ["3", "4.5"]
    codes, texts = column_text(pd.Series(pd.Categorical(["b", "a"], categories=["a", "b", "c"])))
    assert texts == ["a", "b", "c"] and codes.tolist() == [1, 0]


def test_interval_hierarchy() -> None:
    h = interval_hierarchy([17, 23, 39, 40, 90], [5, 10, 20])
    assert h.n_levels == 5
    m1, m2, m3, m4 = (h.mapping(i) for i in range(1, 5))
    assert m1["17"] == "[15, 20[" and m2["17"] == "[10, 20[" and m3["17"] == "[0, 20[" and m4["17"] == "*"
    assert m1["40"] == "[40, 45[" and m3["39"] == "[20, 40["
    h = interval_hierarchy(pd.Series([1.5, 2.5, None]), [1], start=0.5, top=False)
    assert h.n_levels == 2 and h.mapping(1) == {"1.5": "[1.5, 2.5[", "2.5": "[2.5, 3.5["}
    with pytest.raises(ValueError, match="multiple of the previous"):
        interval_hierarchy([1, 2], [5, 12])
    with pytest.raises(ValueError, match="positive numbers"):
        interval_hierarchy([1, 2], [0])
    with pytest.raises(ValueError, match="numeric values"):
        interval_hierarchy(["a"], [1])


def test_prefix_hierarchy() -> None:
    h = prefix_hierarchy(["12345", "12399", "93000"])
    assert h.n_levels == 6  # 4, 3, 2, 1 characters kept, then *
    assert h.mapping(1) == {"12345": "1234*", "12399": "1239*", "93000": "9300*"}
    assert h.mapping(2)["12399"] == "123**" and h.mapping(4)["93000"] == "9****" and h.labels(5) == ("*",)
    # when the last kept level is already one value, no * level is added
    assert prefix_hierarchy(["12345", "13000"]).labels(4) == ("1****",)
    h = prefix_hierarchy(["02134", "02139", "94110"], keep=[3])
    assert h.mapping(1) == {"02134": "021**", "02139": "021**", "94110": "941**"} and h.n_levels == 3
    with pytest.raises(ValueError, match="decreasing"):
        prefix_hierarchy(["123"], keep=[1, 2])


def test_date_hierarchy() -> None:
    h = date_hierarchy(["2020-03-15", "2020-11-01", "2013-01-09"], ["month", "quarter", "year", "decade"])
    assert h.mapping(1)["2020-03-15"] == "2020-03"
    assert h.mapping(2)["2020-11-01"] == "2020-Q4"
    assert h.mapping(3)["2013-01-09"] == "2013"
    assert h.mapping(4)["2013-01-09"] == "2010-2019" and h.labels(5) == ("*",)
    with pytest.raises(ValueError, match="from fine to coarse"):
        date_hierarchy(["2020-01-01"], ["year", "month"])
    with pytest.raises(ValueError, match="could not parse"):
        date_hierarchy(["not a date"], ["year"])


def test_mapping_hierarchy() -> None:
    h = mapping_hierarchy([{"GP": "primary", "nurse": "primary", "surgeon": "hospital"}, {"primary": "care",
                                                                                          "hospital": "care"}])
    assert h.n_levels == 3  # the last level is already one value: no extra *
    assert h.mapping(1) == {"GP": "primary", "nurse": "primary", "surgeon": "hospital"}
    with pytest.raises(ValueError, match="no entry for 'dentist'"):
        mapping_hierarchy([{"GP": "primary"}], values=["GP", "dentist"])
    with pytest.raises(ValueError, match="not a tree"):
        Hierarchy(np.array([["a", "x", "1"], ["b", "x", "2"]], dtype=object))
