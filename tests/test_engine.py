"""sdc.core.engine: the one dispatch point of the engines, read by everything that asks where a
measure runs; and the rule it makes true: only the dispatch point names Dask.

The rule, checked on the source: outside ``sdc/core/engine.py`` and Dask's home
(``sdc/core/_dask*.py``) no module tests ``is_dask``; outside those and the workflow's back ends
(``sdc/workflow/engine.py``) none imports dask, distributed or Dask's home. The protection
method's modules are the protect engineer's (issue 25) and are left out here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sdc
from sdc.core.engine import ENGINE_NAMES, EngineError, dispatch, engines_of, not_on_engine

ROOT = Path(__file__).resolve().parents[1]
#: Where Dask may be named, and the modules another change converts (issue 25's protect part).
DISPATCH = {"sdc/core/engine.py", "sdc/core/engine_base.py", "sdc/core/_dask.py", "sdc/core/_dask_protect.py"}
BACK_ENDS = {"sdc/workflow/engine.py"}
NOT_YET = ("sdc/protect/", "sdc/workflow/protect.py", "sdc/workflow/plan.py", "sdc/report/protection",
           "sdc/cli/protect.py")


def _uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "is_dask" or isinstance(node, ast.Attribute) and \
                node.attr == "is_dask":
            found.append(f"{node.lineno}: is_dask")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names]
            mods = names if isinstance(node, ast.Import) else [node.module or ""] + [f"{node.module}.{n}" for n in names]
            if "is_dask" in names:
                found.append(f"{node.lineno}: imports is_dask")
            for m in mods:
                if m.split(".")[0] in ("dask", "distributed") or m.startswith(("sdc.core._dask", "sdc.core.engine._")):
                    found.append(f"{node.lineno}: imports {m}")
    return found


def test_only_the_dispatch_point_names_dask() -> None:
    bad = []
    for p in sorted((ROOT / "sdc").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if rel in DISPATCH or rel.startswith(NOT_YET):
            continue
        for use in _uses(p):
            if rel in BACK_ENDS and "is_dask" not in use:
                continue  # the workflow's back ends start the cluster and read the partitions
            bad.append(f"{rel}:{use}")
    assert not bad, "only the dispatch point (sdc/core/engine.py) names Dask:\n" + "\n".join(bad)


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
