"""The option schema (sdc/_schema.py), the missing-value rule (sdc/core/missing.py), the
provenance record (sdc/_provenance.py) and the numeric-column predicate: the shared pieces
every reader of an option, measure and method uses."""

from __future__ import annotations

import hashlib
import math
from datetime import datetime, timezone

import numpy as np
import pandas as pd
import pytest

from sdc._provenance import provenance, sha256_bytes, sha256_file, sha256_files, versions
from sdc._schema import (
    COUNT, GROUP_SIZE, POSITIVE, PROBABILITY, REQUIRED, Choice, Each, Edges, Either, Flag, Name, Names, Option,
    Options, Real, Text, Whole, toml_key, toml_value,
)
from sdc._validation import is_numeric_column, numeric_values
from sdc.core.missing import MissingRule, missing_rule


@pytest.mark.parametrize("rule, good, bad", [
    (GROUP_SIZE, [2, 3, np.int64(5)], [1, 0, -3, True, 2.0, "3", None]),
    (COUNT, [1, 10], [0, 1.5]),
    (Whole(min=0, max=4), [0, 4], [-1, 5]),
    (PROBABILITY, [0, 0.0, 0.5, 1, 1.0], [-1e-12, 1.0000001, math.nan, math.inf, True, "0.5"]),
    (POSITIVE, [1e-300, 5], [0, -1, math.inf, math.nan]),
    (Real(0, 1, low_open=True), [1, 0.5], [0]),
    (Real(finite=False), [math.inf, -math.inf, 1], [math.nan, "x"]),
    (Choice(("wildcard", "category")), ["wildcard", "category"], ["Wildcard", 1, None, ["wildcard"]]),
    (Choice((1, 2)), [1, 2], [True, 3]),
    (Names(), ["a", ["a", "b"], ()], [[""], [1], {"a": 1}, b"a", ["a", "a"]]),
    (Names(min_count=1), ["a", ["a"]], [[]]),
    (Name(), ["a"], ["", 1, None]),
    (Flag(), [True, False], [0, 1, "true"]),
    (Text(), ["x"], ["", 3]),
    (Edges(), [[0, 1], [0, 5, "inf"], (-math.inf, 0, math.inf)], [[0], [1, 1], [2, 1], "0,1", [0, "x"],
                                                                   [0, math.nan], {"a": 1}]),
    (Each(PROBABILITY, mappings=True), [0.5, [0.1, 0.2], {"sex": 0.3}], [[], [0.5, 2], {"sex": 2}, 2]),
    (Either((PROBABILITY, Names())), [0.5, ["a"]], [2, [1]]),
])
def test_rules_allow_and_refuse(rule, good, bad) -> None:
    for v in good:
        assert rule.problem(v) is None, v
    for v in bad:
        found = rule.problem(v)
        assert found is not None, v
        kind, phrase = found
        assert kind in (TypeError, ValueError) and phrase.startswith("must be "), (v, found)


def test_the_boundaries_are_exact() -> None:
    """k = 2 is a group size, 1 is not; a probability includes both ends."""
    assert GROUP_SIZE.problem(2) is None and GROUP_SIZE.problem(1) is not None
    assert PROBABILITY.problem(0) is None and PROBABILITY.problem(1) is None
    assert Real(0, 1, high_open=True).problem(1) is not None


def test_check_words_every_place_alike() -> None:
    k = Option("k", GROUP_SIZE, 3)
    with pytest.raises(ValueError, match=r"^`k` must be a whole number >= 2; got 1\.$"):
        k.check(1)
    with pytest.raises(TypeError, match=r"^`k` must be a whole number >= 2; got 'x'\.$"):
        k.check("x")
    with pytest.raises(KeyError):  # the caller's error class, whatever the rule's
        k.check(np.int64(1), "plan step 3 (local_suppression): parameter `k`", KeyError)
    try:
        k.check(np.int64(1), "plan step 3 (local_suppression): parameter `k`")
    except ValueError as exc:  # a numpy scalar is shown as the number it is
        assert str(exc) == "plan step 3 (local_suppression): parameter `k` must be a whole number >= 2; got 1."
    assert k.check(np.int64(4)) == 4 and type(k.check(np.int64(4))) is int
    assert Option("v", Names()).check("age") == ("age",)
    assert Option("e", Edges()).check([0, "inf"]) == [0.0, math.inf]


def test_option_places_and_flags() -> None:
    o = Option("max_global_risk", PROBABILITY, 0.01, section="thresholds", label="maximum global risk")
    assert o.place == "[thresholds].max_global_risk" and o.flag_name == "--max-global-risk"
    assert Option("risk", PROBABILITY, section="thresholds", flag="--risk-threshold").flag_name == "--risk-threshold"
    assert Option("x", flag="").flag_name == ""
    assert Option("x", default=REQUIRED).required and not o.required
    assert o.describe() == "a number in [0, 1]; default 0.01"


def test_options_collection() -> None:
    opts = Options([Option("k", GROUP_SIZE, 3, section="thresholds"), Option("pd", PROBABILITY, 0.8)])
    assert opts["k"].default == 3 and opts[1].name == "pd" and "k" in opts and "z" not in opts
    assert opts.names == ("k", "pd") and opts.defaults() == {"k": 3, "pd": 0.8}
    assert opts.in_section("thresholds").names == ("k",)
    assert opts.check_all({"k": np.int64(4), "pd": None, "other": "x"}) == {"k": 4, "pd": None, "other": "x"}
    with pytest.raises(ValueError, match="declared twice"):
        Options([Option("k"), Option("k")])


def test_toml_values() -> None:
    assert toml_value(True) == "true" and toml_value(np.int64(3)) == "3" and toml_value(math.inf) == "inf"
    assert toml_value(0.1) == "0.1" and toml_value('a"b') == '"a\\"b"'
    assert toml_value({"a b": [1, -math.inf]}) == '{ "a b" = [1, -inf] }'
    assert toml_key("ok_key-1") == "ok_key-1" and toml_key("a.b") == '"a.b"'


def test_missing_rule_is_checked_once_when_made() -> None:
    r = MissingRule()
    assert (r.kind, r.alpha, r.wildcard) == ("wildcard", 1.0, True) and str(r) == "wildcard (alpha = 1)"
    assert str(MissingRule("category")) == "category" and not MissingRule("category").wildcard
    assert missing_rule(r) is r and missing_rule("wildcard", 0.5) == MissingRule("wildcard", 0.5)
    with pytest.raises(ValueError, match=r"^`missing` must be one of 'wildcard', 'category'; got 'none'\.$"):
        MissingRule("none")
    with pytest.raises(ValueError, match=r"^`alpha` must be a number in \[0, 1\]; got 1\.5\.$"):
        missing_rule("wildcard", 1.5)
    with pytest.raises(TypeError, match="`alpha`"):
        MissingRule("wildcard", "1")
    assert MissingRule("wildcard", 0).alpha == 0.0  # the boundary is allowed


def test_provenance_and_digests(tmp_path) -> None:
    f = tmp_path / "x.csv"
    f.write_bytes(b"a,b\r\n1,2\r\n")
    digest = hashlib.sha256(b"a,b\r\n1,2\r\n").hexdigest()
    assert sha256_file(f) == digest == sha256_bytes(f.read_bytes()) and sha256_files([f]) == {str(f): digest}
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    prov = provenance(when, command="sdc x", sdc="1.0")
    assert list(prov) == ["generated_utc", "command", "sdc"] and prov["generated_utc"] == "2026-01-02 03:04:05 UTC"
    assert {"sdc", "python", "numpy", "pandas"} <= set(versions())


def test_one_numeric_predicate() -> None:
    """Booleans are categories and complex numbers are not real: neither is numeric anywhere."""
    assert is_numeric_column(pd.Series([1, 2])) and is_numeric_column(pd.Series([1.5, None]))
    assert is_numeric_column(pd.Series([1, None], dtype="Int64"))
    for s in (pd.Series([True, False]), pd.Series([1j]), pd.Series(["1"]), pd.Series(["a"], dtype="category"),
              pd.Series(pd.to_datetime(["2020-01-01"]))):
        assert not is_numeric_column(s), s.dtype
    assert numeric_values(pd.Series([1, None], dtype="Int64"), "x").tolist()[0] == 1.0
    with pytest.raises(ValueError, match=r"^microaggregation needs numeric columns; column 'sex' is text\.$"):
        numeric_values(pd.Series(["f"], name="sex"), "microaggregation")
    with pytest.raises(ValueError, match="non-finite value inf at index 7"):
        numeric_values(pd.Series([np.inf], index=[7], name="x"), "m")


def test_one_dispatch_point_for_engines() -> None:
    """sdc/core/engine.py: a declared variant runs on its engine, a refusal is one line, and the
    declaration is readable."""
    import dask.dataframe as dd

    from sdc.core.engine import EngineError, dispatch, engine_of, engines_of

    def on_dask(data, n=1):  # noqa: ANN001, ANN202
        return ("dask", n)

    @dispatch(dask=on_dask)
    def measure(data, n=1):  # noqa: ANN001, ANN202
        return ("pandas", n)

    @dispatch(dask=None, why="it ranks the whole file")
    def whole(data):  # noqa: ANN001, ANN202
        return "pandas"

    def plain(data):  # noqa: ANN001, ANN202
        return "pandas"

    df = pd.DataFrame({"a": [1, 2]})
    ddf = dd.from_pandas(df, npartitions=1)
    assert engine_of(df) == "pandas" and engine_of(ddf) == "dask"
    assert measure(df, n=2) == ("pandas", 2) and measure(ddf, n=3) == ("dask", 3) and measure(data=ddf) == ("dask", 1)
    assert whole(df) == "pandas" and measure.__name__ == "measure"
    with pytest.raises(EngineError, match=r"^whole\(\) cannot run on a Dask DataFrame exactly \(it ranks the whole "
                                          r"file\); compute it"):
        whole(ddf)
    assert engines_of(measure) == {"pandas": None, "dask": None, "chunks": "it has no chunks variant"}
    assert engines_of(whole) == {"pandas": None, "dask": "it ranks the whole file", "chunks": "it ranks the whole file"}
    assert engines_of(plain)["dask"] == "it has no Dask variant"
    with pytest.raises(ValueError, match="unknown engine 'spark'"):
        dispatch(spark=on_dask)


def test_a_refused_value_is_shown_short_and_on_one_line() -> None:
    from sdc._validation import shown_value

    opt = Option("risk", Names(), None)
    with pytest.raises(TypeError) as e:
        opt.check([0.5] * 4000)  # a table of risks given as a list: not 4,000 numbers in the message
    assert str(e.value).endswith("got [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, ...].") and len(str(e.value)) < 200
    assert shown_value(["age", "sex"]) == "['age', 'sex']" and shown_value(np.int64(3)) == "3"
    frame = shown_value(pd.DataFrame({"a": range(50)}))
    assert "\n" not in frame and len(frame) <= 160
