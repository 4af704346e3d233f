"""ARX's distinction and separation of every combination of the quasi-identifiers
(sdc/identify/combinations.py): ARX's published test values and order, brute force over
record pairs, the budget, bad arguments, and `sdc identify --combinations`."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.cli.main import main
from sdc.identify.combinations import quasi_identifier_risks
from tests import scale


def test_arx_published_values_and_order() -> None:
    """ARX's TestRiskQuasiIdentifiers.testWithDefinedDataSet ("calculated by hand"): the same
    combinations, in the same order, with the same doubles (ARX compares with ==)."""
    d = pd.DataFrame({"age": ["20", "30", "40", "20", "40"], "sex": ["Female"] * 3 + ["Male"] * 2,
                      "state": ["CA", "CA", "TX", "NY", "CA"]})
    before = d.copy()
    r = sdc.quasi_identifier_risks(d, ["age", "sex", "state"])
    expected = [("[sex]", 0.4, 0.6), ("[state]", 0.6, 0.7), ("[age]", 0.6, 0.8), ("[sex, state]", 0.8, 0.9),
                ("[age, sex]", 1.0, 1.0), ("[age, state]", 1.0, 1.0), ("[age, sex, state]", 1.0, 1.0)]
    got = list(r.to_frame()[["columns", "distinction", "separation"]].itertuples(index=False, name=None))
    assert got == expected
    assert d.equals(before) and r.examined == 7 and r.left_out == 0
    s = r.summary().set_index("statistic")["value"]
    assert s["first_unique"] == "[age, sex]" and isinstance(r.summary(), pd.DataFrame)
    with pytest.raises(Exception):
        r.examined = 0  # frozen


@given(seed=st.integers(0, 10 ** 6), n=st.integers(1, 40), with_missing=st.booleans())
@settings(max_examples=scale.examples(60), deadline=None)
def test_brute_force_over_record_pairs(seed: int, n: int, with_missing: bool) -> None:
    rng = np.random.default_rng(seed)
    d = pd.DataFrame({"a": rng.integers(0, 3, n), "b": rng.choice(["x", "y"], n), "c": rng.integers(0, 4, n)})
    if with_missing and n > 1:
        d["b"] = d["b"].where(rng.random(n) > 0.3)  # a missing value is a value of its own
        d.loc[0, "b"] = "x"  # never missing in every record
    r = quasi_identifier_risks(d, ["a", "b", "c"]).to_frame().set_index("columns")
    rows = [tuple("<NA>" if pd.isna(v) else str(v) for v in row) for row in d.itertuples(index=False)]
    for w in (1, 2, 3):
        for combo in itertools.combinations(range(3), w):
            name = "[" + ", ".join("abc"[i] for i in combo) + "]"
            keys = [tuple(row[i] for i in combo) for row in rows]
            pairs = [(x, y) for x, y in itertools.combinations(keys, 2)]
            sep = sum(x != y for x, y in pairs) / len(pairs) if pairs else 0.0
            assert r.loc[name, "distinction"] == pytest.approx(len(set(keys)) / n, rel=1e-12)
            assert r.loc[name, "separation"] == pytest.approx(sep, rel=1e-12, abs=1e-15)
            assert r.loc[name, "classes"] == len(set(keys))


def test_the_budget_and_data_order() -> None:
    rng = np.random.default_rng(1)
    d = pd.DataFrame({c: rng.integers(0, 5, 200) for c in "pqrstu"})
    r = quasi_identifier_risks(d, ["u", "p", "r"], max_width=2)  # combinations keep the data's column order
    assert r.keys == ("p", "r", "u") and r.examined == 6 and r.left_out == 1 and r.max_width == 2
    assert "[p, r]" in set(r.to_frame()["columns"]) and r.to_frame()["width"].max() == 2
    r = quasi_identifier_risks(d, list("pqrstu"), max_combinations=10)
    assert r.examined == 10 and r.left_out == 63 - 10 and set(r.to_frame()["width"]) == {1, 2}


@pytest.mark.parametrize("kwargs, match", [
    (dict(keys=["nope"]), "not in the data"),
    (dict(keys=["a"], max_width=0), "`max_width` must be an integer >= 1"),
    (dict(keys=["a"], max_combinations=0), "`max_combinations` must be an integer >= 1"),
    (dict(keys=["a"], max_width=1.5), "`max_width`"),
])
def test_bad_arguments_are_one_line(kwargs: dict, match: str) -> None:
    d = pd.DataFrame({"a": [1, 2, 2]})
    with pytest.raises((ValueError, TypeError), match=match) as err:
        quasi_identifier_risks(d, **kwargs)
    assert "\n" not in str(err.value)


def test_sdc_identify_combinations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = pd.DataFrame({"age": [20, 30, 40, 20, 40] * 20, "sex": ["F", "F", "F", "M", "M"] * 20,
                      "region": ["N", "S", "S", "E", "N"] * 20, "score": np.arange(100) % 7})
    path = tmp_path / "d.csv"
    d.to_csv(path, index=False)
    roles = ["--role", "age=qi", "--role", "sex=qi", "--role", "region=qi", "--role", "score=other"]
    assert main(["identify", str(path), *roles, "--combinations"]) == 0
    out = capsys.readouterr().out
    assert "Combinations of the 3 quasi-identifiers (7 examined)" in out and "[age, sex, region]" in out
    assert main(["identify", str(path), *roles, "--combinations", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["combinations"]["examined"] == 3 and doc["combinations"]["left_out"] == 4
    assert [r["columns"] for r in doc["combinations"]["rows"]] == ["[sex]", "[age]", "[region]"]
    for bad in ("-1", "0", "two"):
        with pytest.raises(SystemExit) as exit_:  # a usage error: argparse's one line, status 2
            main(["identify", str(path), *roles, "--combinations", bad])
        assert exit_.value.code == 2
        assert "argument --combinations: must be a number of columns >= 1" in capsys.readouterr().err
