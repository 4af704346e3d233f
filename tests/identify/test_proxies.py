"""Proxies (issue 32 item 2): a released column that determines a key or sensitive variable,
d(X -> Y) = sum_x max_y n(x, y) / records rated, against a brute force over the records; flagged
in identify and by `sdc assess --measures proxies`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

import sdc
from sdc.identify.proxies import _codes, _determination, find_proxies
from tests import scale


def _brute(x: list, y: list) -> tuple[float, int, int] | None:
    pairs = [(a, b) for a, b in zip(x, y) if a is not None and b is not None]
    nx = Counter(a for a, _ in pairs)
    rated = [(a, b) for a, b in pairs if nx[a] >= 2]
    if len(rated) < 0.5 * len(pairs) or len(pairs) < 3 * len(nx) or len(pairs) < 2:
        return None
    best = sum(max(Counter(b for a2, b in rated if a2 == a).values()) for a in {a for a, _ in rated})
    pc = Counter(pairs)
    return best / len(rated), len(rated), sum(1 for p in pairs if pc[p] == 1)


@settings(max_examples=scale.examples(150), deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.one_of(st.none(), st.integers(0, 2))),
                min_size=2, max_size=40))
def test_determination_is_the_brute_force(rows) -> None:
    x, y = [r[0] for r in rows], [r[1] for r in rows]
    df = pd.DataFrame({"x": pd.Series(x, dtype="float64"), "y": pd.Series(y, dtype="float64")})
    cx, nx = _codes(df["x"])
    cy, ny = _codes(df["y"])
    got = _determination(cx, nx, cy, ny) if (cy >= 0).sum() and ((cx >= 0) & (cy >= 0)).sum() >= 0.4 * (cy >= 0).sum() \
        else None
    want = _brute(x, y)
    if got is None or want is None:
        return
    assert np.isclose(got[0], want[0]) and got[1] == want[1] and got[2] == want[2]


def test_hand_computed_example() -> None:
    # x = a: y 1,1,2 (best 2); b: 3,3,3 (3); c: 4,4,4 (3): d = 8/9.
    df = pd.DataFrame({"x": list("aaabbbccc"), "y": [1, 1, 2, 3, 3, 3, 4, 4, 4]})
    r = find_proxies(df, {"y": "key"}, ["x"], threshold=0.8)
    assert [(p.column, p.target) for p in r.proxies] == [("x", "y")] and np.isclose(r.proxies[0].determination, 8 / 9)
    assert find_proxies(df, {"y": "key"}, ["x"]).proxies == ()  # below 0.99
    # a: 1,1,1,2 (3); b: 3,3,3,3 (4); c once: not rated; d: 5,5,6 (2): d = 9/11; pairs seen once: 3.
    df = pd.DataFrame({"x": list("aaaabbbbcddd"), "y": [1, 1, 1, 2, 3, 3, 3, 3, 4, 5, 5, 6]})
    d, rated, unique, one = _determination(*_codes(df["x"]), *_codes(df["y"]))
    assert (d, rated, unique, one) == (9 / 11, 11, 3, False)


def test_identify_and_assess_flag_a_proxy_of_a_key(tmp_path: Path, capsys) -> None:
    from tests.helpers import run_cli

    rng = np.random.default_rng(5)
    n = 600
    income = rng.choice(["<20k", "20-50k", "50-100k", ">100k"], n)
    mid = pd.Series(income).map({"<20k": 10000, "20-50k": 35000, "50-100k": 75000, ">100k": 150000})
    df = pd.DataFrame({"sex": rng.choice(["f", "m"], n), "income": income, "income_mid": mid,
                       "region": rng.choice(["n", "s", "e", "w"], n)})
    r = sdc.identify(df)
    p = r.proxies.of_target("income")
    assert [x.column for x in p] == ["income_mid"] and p[0].one_to_one and p[0].determination == 1.0
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    code, out, _ = run_cli(capsys, "assess", str(src), "--keys", "sex,income,region", "--measures",
                           "k_anonymity,proxies", "--out", str(tmp_path / "rep"), "--formats", "txt,json")
    assert "proxies" in out and "fail" in out
    import json

    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert [(d["column"], d["target"]) for d in doc["proxies"]] == [("income_mid", "income")]


def test_compare_shows_the_proxies_of_both_files(tmp_path: Path, capsys) -> None:
    from tests.helpers import run_cli

    rng = np.random.default_rng(6)
    n = 400
    income = rng.choice(["low", "mid", "high"], n)
    df = pd.DataFrame({"sex": rng.choice(["f", "m"], n), "income": income,
                       "income_mid": pd.Series(income).map({"low": 1, "mid": 2, "high": 3})})
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    df.to_csv(a, index=False)
    df.drop(columns=["income_mid"]).to_csv(b, index=False)
    code, _, err = run_cli(capsys, "compare", str(a), str(b), "--keys", "sex,income", "--measures",
                           "k_anonymity,proxies", "--out", str(tmp_path / "cmp"), "--formats", "md")
    assert code == 0, err
    row = [ln for ln in (tmp_path / "cmp" / "report.md").read_text().splitlines() if "| proxies |" in ln][0]
    assert "| 1 | fail | 0 | pass |" in row
