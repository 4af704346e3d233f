"""The hierarchy editor of ``sdc app`` (sdc/app/hierarchies.py): each builder's table, the
records per value, the CSV in ARX's layout read back unchanged, a level taken as an undoable
recode step that ``sdc protect`` runs, and every bad request refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

import sdc
from sdc.app import hierarchies as H
from sdc.app.session import AppError, AppSession


@pytest.fixture()
def session(tmp_path: Path) -> AppSession:
    s = AppSession(None, tmp_path / "exports", tmp_path)
    s.open("example")
    return s


def test_intervals_nest_with_the_records_of_every_value(session: AppSession, tmp_path: Path) -> None:
    d = H.build_hierarchy(session, "age", "intervals", "5, 10, 20")
    cols, rows = d["table"]["columns"], d["table"]["rows"]
    assert cols == ["level_0", "level_1", "level_2", "level_3", "level_4", "records"]
    for v, l1, l2, l3, top, _ in rows:  # by hand: [lo, lo + w[ with lo = floor(v / w) * w
        a = int(v)
        assert (l1, l2, l3, top) == (f"[{a // 5 * 5}, {a // 5 * 5 + 5}[", f"[{a // 10 * 10}, {a // 10 * 10 + 10}[",
                                     f"[{a // 20 * 20}, {a // 20 * 20 + 20}[", "*")
    age = sdc.load_example()["age"]
    assert sum(r[-1] for r in rows) == age.notna().sum()
    assert dict((r[0], r[-1]) for r in rows)["31"] == int((age == 31).sum())
    assert [lv["labels"] for lv in d["levels"]] == [len({r[i] for r in rows}) for i in (1, 2, 3, 4)]
    path = tmp_path / "age.csv"
    path.write_text(d["csv"], encoding="utf-8")
    back = sdc.read_hierarchy(path)
    assert back.to_frame().values.tolist() == [r[:-1] for r in rows]


def test_groups_prefixes_and_dates(session: AppSession) -> None:
    values = H.hierarchy_values(session, "region")
    assert values["total"] == 9 and set(values["values"]) == set(sdc.load_example()["region"].dropna())
    lines = "\n".join(f"{v} = {'north' if v.startswith('North') else 'rest'}" for v in values["values"])
    d = H.build_hierarchy(session, "region", "groups", lines + "\n\n")
    assert {(r[0], r[1]) for r in d["table"]["rows"]} >= {("North East", "north"), ("London", "rest")}
    assert [lv["labels"] for lv in d["levels"]] == [2, 1]
    codes = H.build_hierarchy(session, "region", "prefix", "3, 1")
    assert ["London", "Lon***", "L*****", "*"] in [r[:-1] for r in codes["table"]["rows"]]


def test_a_level_becomes_an_undoable_recode_step(session: AppSession) -> None:
    state = H.recode_to_level(session, "age", "intervals", "5, 10", 2)
    step = state["steps"][-1]
    assert step["method"] == "global_recode" and step["variables"] == ["age"] and step["mapping"]["31"] == "[30, 40["
    released = sdc.protect_data(session.data, {"plan": {"seed": 1}, "steps": state["steps"]}, reassess=False).released
    assert released.loc[session.data["age"] == 31, "age"].unique().tolist() == ["[30, 40["]
    assert session.undo()["steps"] == []


@pytest.mark.parametrize("args, says", [
    (("nope", "intervals", "5"), "hierarchy: no column 'nope' in the data."),
    (("age", "x", "5"), "hierarchy: kind must be one of intervals, prefix, dates, groups; got 'x'."),
    (("age", "intervals", ""), "hierarchy: give the interval widths per level"),
    (("age", "intervals", "5, seven"), "interval widths must be numbers separated by commas"),
    (("age", "intervals", "5, 7"), "each a multiple of the previous"),
    (("region", "intervals", "5"), "interval_hierarchy needs numeric values; column 'region' holds text"),
    (("region", "prefix", "2.5"), "prefix lengths must be whole numbers"),
    (("region", "groups", "North East = north"), "mapping for level 1 has no entry for"),
    (("region", "groups", "a line"), "hierarchy groups, line 1: write `value = group`"),
    (("region", "groups", " = x"), "hierarchy groups, line 1: both the value and its group are needed"),
    (("age", "dates", "week"), "`levels` must be a non-empty list of 'month'"),
])
def test_bad_requests_are_refused_in_one_line(session: AppSession, args: tuple, says: str) -> None:
    with pytest.raises(AppError) as e:
        H.build_hierarchy(session, *args)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_level_out_of_range_is_refused(session: AppSession) -> None:
    with pytest.raises(AppError, match=r"hierarchy: level must be 1 to 3; got 9\."):
        H.recode_to_level(session, "age", "intervals", "5, 10", 9)
    with pytest.raises(AppError, match="level must be 1 to 3; got True"):
        H.recode_to_level(session, "age", "intervals", "5, 10", True)
    assert session.state.steps == []
