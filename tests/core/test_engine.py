"""sdc.core.engine: the one dispatch point of the engines, read by everything that asks where a
measure runs. The rule it makes true, only the dispatch point names Dask, is checked on the
source in tests/project/test_layering.py (test_only_the_dispatch_point_names_dask), in one place.
"""

from __future__ import annotations

import pytest

import sdc
from sdc.core.engine import ENGINE_NAMES, EngineError, dispatch, engines_of, not_on_engine


def test_the_measures_declare_where_they_run() -> None:
    """Read from the declarations beside the functions (no table of names)."""
    runs = {f.__name__: engines_of(f) for f in (sdc.frequencies, sdc.k_anonymity, sdc.individual_risk,
                                                  sdc.key_subset_snapshots, sdc.l_diversity, sdc.t_closeness,
                                                  sdc.household_risk, sdc.suda, sdc.model_risk)}
    on = {name: [e for e in ENGINE_NAMES if engines[e] is None] for name, engines in runs.items()}
    assert on == {"frequencies": ["pandas", "dask"], "k_anonymity": ["pandas", "dask", "chunks"],
                  "individual_risk": ["pandas", "dask", "chunks"], "key_subset_snapshots": ["pandas", "dask", "chunks"],
                  "l_diversity": ["pandas", "dask", "chunks"], "t_closeness": ["pandas", "dask", "chunks"],
                  "household_risk": ["pandas"],
                  "suda": ["pandas"], "model_risk": ["pandas"]}
    assert runs["household_risk"]["chunks"] == runs["household_risk"]["dask"] == ("it needs each household's records "
                                                                                  "together")
    assert runs["frequencies"]["chunks"].startswith("its result is the frequency of every record")
    assert sdc.k_anonymity.__wrapped__.__name__ == "k_anonymity"  # the pandas body, documented as before


def test_a_refusal_speaks_the_api_and_the_command_line() -> None:
    e = not_on_engine("suda()", "dask", "it needs every record")
    assert isinstance(e, ValueError) and isinstance(e, EngineError)
    assert str(e) == ("suda() cannot run on a Dask DataFrame exactly (it needs every record); compute it on a pandas "
                      "DataFrame (ddf.compute()) when the data fit in memory.")
    assert e.command_line == ("suda() cannot run on Dask exactly (it needs every record); use --engine pandas when "
                              "the data fit in memory.")
    e = not_on_engine("suda()", "chunks", "it needs every record")
    assert "read the file whole (sdc.read_data)" in str(e) and "drop --chunks" in e.command_line


def test_dispatch_on_a_chunked_file_and_by_keyword(tmp_path) -> None:
    calls = []

    @dispatch(chunks=lambda data, n=1: calls.append(("chunks", n)) or "chunks", why="it ranks the records")
    def measure(data, n=1):  # noqa: ANN001, ANN202
        return "pandas"

    path = tmp_path / "a.csv"
    path.write_text("a\n1\n", encoding="utf-8")
    f = sdc.read_chunks(path)
    assert measure(f, n=2) == "chunks" and measure(data=f) == "chunks" and calls == [("chunks", 2), ("chunks", 1)]
    assert engines_of(measure) == {"pandas": None, "dask": "it ranks the records", "chunks": None}
    with pytest.raises(ValueError, match="unknown engine 'spark'; engines: dask, chunks"):
        dispatch(spark=None)


def test_missing_rule_is_one_argument_of_every_frequency_measure() -> None:
    """A MissingRule passed as `missing` is the pair (missing, alpha); made and checked once."""
    import pandas as pd

    df = pd.DataFrame({"a": [1, 1, None, 2, 2, 2], "b": list("xxyyxy")})
    rule = sdc.MissingRule("wildcard", 0.5)
    for fn in (sdc.frequencies, sdc.k_anonymity, sdc.individual_risk, sdc.key_subset_snapshots):
        by_rule, by_pair = fn(df, ["a", "b"], missing=rule), fn(df, ["a", "b"], missing="wildcard", alpha=0.5)
        assert (by_rule.missing, by_rule.alpha) == (by_pair.missing, by_pair.alpha) == ("wildcard", 0.5)
        assert by_rule.summary().equals(by_pair.summary()), fn.__name__
    assert sdc.discernibility(df, df, ["a", "b"], missing=sdc.MissingRule("category")).missing == "category"
    with pytest.raises(ValueError, match=r"^`missing` must be one of 'wildcard', 'category'; got 'nope'\."):
        sdc.individual_risk(df, ["a"], missing="nope")
    with pytest.raises(ValueError, match=r"^`alpha` must be a number in \[0, 1\]; got 2"):
        sdc.k_anonymity(df, ["a"], alpha=2)
