"""A search's transformation as a value-to-value mapping, and the mapping applied to new data
(sdc.protect.transformation): the mapping re-applied to the searched file gives the search's
release (suppressed records aside), the JSON form round-trips, values the mapping lacks are
refused in one line, and the input is untouched."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.identify.hierarchy import Hierarchy, interval_hierarchy
from sdc.protect.transformation import mapping_from_dict, mapping_to_dict
from tests import scale

AGES = [21, 22, 23, 24, 31, 32, 33, 39]
SEXES = ["M", "M", "F", "F", "M", "M", "F", "F"]


def _hand() -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    data = pd.DataFrame({"age": AGES, "sex": SEXES, "dx": list("abababbc")})
    age = Hierarchy(np.array([[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", "*"] for a in AGES], dtype=object),
                    name="age")
    sex = Hierarchy(np.array([["M", "*"], ["F", "*"]], dtype=object), name="sex")
    return data, {"age": age, "sex": sex}


def test_the_mapping_is_the_hierarchy_at_the_chosen_levels() -> None:
    data, hs = _hand()
    r = sdc.generalisation_search(data, hs, k=2, suppression_limit=0, metric="discernibility")
    assert r.levels == {"age": 1, "sex": 0}
    m = r.mapping
    assert list(m.columns) == ["variable", "level", "value", "released"]
    age = m[m["variable"] == "age"]
    assert dict(zip(age["value"], age["released"])) == {str(a): f"{a // 10 * 10}-{a // 10 * 10 + 9}" for a in AGES}
    assert set(age["level"]) == {1}
    sex = m[m["variable"] == "sex"]
    assert dict(zip(sex["value"], sex["released"])) == {"M": "M", "F": "F"} and set(sex["level"]) == {0}


def test_applied_to_new_data_of_the_same_shape() -> None:
    data, hs = _hand()
    r = sdc.generalisation_search(data, hs, k=2, suppression_limit=0, metric="discernibility")
    new = pd.DataFrame({"age": [39, 21, None], "sex": ["F", "M", "M"], "other": [1, 2, 3]}, index=[7, 8, 9])
    before = new.copy()
    out = sdc.apply_transformation(new, mapping=r.mapping)
    pd.testing.assert_frame_equal(new, before)  # the input is untouched
    assert out.data["age"].tolist() == ["30-39", "20-29", None]
    assert out.data["sex"].tolist() == ["F", "M", "M"] and out.data["other"].tolist() == [1, 2, 3]
    assert out.data.index.tolist() == [7, 8, 9]
    assert out.changed.to_dict() == {"age": 2, "sex": 0}
    assert out.details == {"age": {"level": 1}, "sex": {"level": 0}}
    # the JSON form gives the same, and one variable may be applied alone
    same = sdc.apply_transformation(new, mapping=mapping_to_dict(r.mapping))
    pd.testing.assert_frame_equal(same.data, out.data)
    assert sdc.apply_transformation(new, "age", mapping=r.mapping).data["sex"].tolist() == ["F", "M", "M"]


def test_a_value_without_a_row_is_refused_in_one_line() -> None:
    data, hs = _hand()
    r = sdc.generalisation_search(data, hs, k=2, suppression_limit=0)
    with pytest.raises(ValueError) as info:
        sdc.apply_transformation(pd.DataFrame({"age": [21, 55], "sex": ["M", "F"]}), mapping=r.mapping)
    assert "\n" not in str(info.value) and "'55'" in str(info.value) and "'age'" in str(info.value)
    with pytest.raises(ValueError, match="'sex'") as info:
        sdc.apply_transformation(pd.DataFrame({"age": [21]}), mapping=r.mapping)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="lacks the column"):
        sdc.apply_transformation(data, mapping=r.mapping.drop(columns="released"))
    with pytest.raises(ValueError, match="must hold a 'values' table"):
        sdc.apply_transformation(data, mapping={"age": {}})
    with pytest.raises(ValueError, match="'dx' has no rows in `mapping`"):
        sdc.apply_transformation(data, ["dx"], mapping=r.mapping)


def test_the_json_form_round_trips() -> None:
    data, hs = _hand()
    r = sdc.generalisation_search(data, hs, k=3, suppression_limit=0)
    doc = mapping_to_dict(r.mapping)
    assert doc["age"]["level"] == r.levels["age"] and doc["age"]["values"]["21"] == r.data["age"].iloc[0]
    pd.testing.assert_frame_equal(mapping_from_dict(doc), r.mapping)
    with pytest.raises(ValueError, match="must hold a 'values' table"):
        mapping_from_dict({"age": {"level": 1}})


@settings(max_examples=scale.examples(40), deadline=None)
@given(ages=st.lists(st.integers(0, 99), min_size=4, max_size=60), k=st.integers(2, 4),
       limit=st.sampled_from([0.0, 0.2]))
def test_reapplied_to_the_searched_file_it_gives_the_release(ages: list[int], k: int, limit: float) -> None:
    # Brute force: the mapping applied to the searched file equals the search's release on
    # every record the search kept (suppression is not part of the mapping).
    data = pd.DataFrame({"age": ages, "sex": (["M", "F"] * 40)[:len(ages)]})
    hs = {"age": interval_hierarchy(data["age"], widths=[5, 20]),
          "sex": Hierarchy(np.array([["M", "*"], ["F", "*"]], dtype=object), name="sex")}
    try:
        r = sdc.generalisation_search(data, hs, k=k, suppression_limit=limit)
    except ValueError as e:
        assert "no transformation meets" in str(e)
        return
    again = sdc.apply_transformation(data, mapping=r.mapping).data
    kept = r.data["sex"].notna()
    for q in ("age", "sex"):
        assert again.loc[kept, q].astype(str).tolist() == r.data.loc[kept, q].astype(str).tolist()
