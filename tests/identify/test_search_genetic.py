"""The genetic search (sdc/identify/genetic.py, after ARX's GeneticAlgorithm) through
generalisation_search: never better than the proven optimum, its node's figures those of the
exact search's lattice, the optimum on small lattices, deterministic under its seed, its budget
respected, a lattice above MAX_NODES searched, and through `sdc search`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdc.cli.main import main
from sdc.identify.hierarchy import interval_hierarchy
from sdc.identify.lattice import MAX_NODES
from sdc.identify.search import generalisation_search
from tests import scale


def _frame(seed: int, n: int = 300, keys: int = 3) -> tuple[pd.DataFrame, dict]:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"q{j}": rng.integers(0, 16, n) for j in range(keys)})
    return df, {c: interval_hierarchy(range(16), [2, 4, 8]) for c in df.columns}


@given(seed=st.integers(0, 10 ** 6), k=st.integers(2, 8), metric=st.sampled_from(["discernibility", "loss", "nue"]))
@settings(max_examples=scale.examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_never_better_than_the_optimum_and_its_node_is_the_exact_search_s(seed: int, k: int, metric: str) -> None:
    df, hs = _frame(seed)
    kw = dict(k=k, suppression_limit=0.05, metric=metric)
    exact = generalisation_search(df, hs, **kw, exhaustive=True)
    gen = generalisation_search(df, hs, **kw, algorithm="genetic", seed=seed % 7)
    assert gen.algorithm == "genetic" and gen.optimal is False and gen.stopped == "generations"
    assert gen.loss >= exact.loss * (1 - 1e-12)
    lat = exact.lattice.set_index(list(hs))
    row = lat.loc[tuple(gen.levels[q] for q in hs)]
    assert row["status"] == "anonymous" and row["loss"] == pytest.approx(gen.loss, rel=1e-12)
    assert int(row["suppressed"]) == gen.suppressed and gen.seed == seed % 7
    # 5^3 = 125 transformations, of which it checks nearly all (118 to 121 in trials): where it
    # checked the optimum's node, that is its result
    checked = {tuple(int(v) for v in r) for r in gen.lattice[list(hs)].to_numpy()}
    assert len(checked) >= 100
    if tuple(exact.levels[q] for q in hs) in checked:
        assert gen.loss == pytest.approx(exact.loss, rel=1e-12)


def test_deterministic_under_its_seed_and_recorded() -> None:
    df, hs = _frame(3, n=2_000, keys=6)
    kw = dict(k=5, suppression_limit=0.02, metric="loss", algorithm="genetic")
    a, b = generalisation_search(df, hs, **kw, seed=11), generalisation_search(df, hs, **kw, seed=11)
    assert a.levels == b.levels and a.loss == b.loss and a.lattice.equals(b.lattice)
    assert a.n_evaluated < a.n_nodes == 5 ** 6
    summary = a.summary().set_index("statistic")
    assert summary.loc["stopped", "description"] == "every generation was run"
    assert a.algorithm_title.startswith("the genetic search")


def test_the_node_limit_stops_it_and_a_lattice_above_max_nodes() -> None:
    df, hs = _frame(5, n=3_000, keys=12)  # 5^12 = 244 million transformations
    r = generalisation_search(df, hs, k=5, suppression_limit=0.04, algorithm="genetic", node_limit=300, seed=2)
    assert r.n_nodes > MAX_NODES and r.stopped == "nodes" and r.n_evaluated <= 300 == len(r.lattice)
    assert r.achieved["k"] >= 5 and r.suppressed <= int(0.04 * len(df))


def test_nothing_found_within_the_budget_is_one_line() -> None:
    df, hs = _frame(5, n=3_000, keys=12)
    with pytest.raises(ValueError, match=r"the genetic search checked 1 of .*the node limit was reached") as err:
        generalisation_search(df, hs, k=500, suppression_limit=0.0, algorithm="genetic", node_limit=1)
    assert "\n" not in str(err.value)


def test_sdc_search_with_the_genetic_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    df, _ = _frame(8, n=500, keys=4)
    df.to_csv(tmp_path / "d.csv", index=False)
    keys = "\n".join(f'{c} = {{ intervals = [2, 4, 8], start = 0 }}' for c in df.columns)
    (tmp_path / "s.toml").write_text(f"[keys]\n{keys}\n[models]\nk = 3\n[search]\nalgorithm = \"genetic\"\nseed = 4\n")
    assert main(["search", str(tmp_path / "d.csv"), "--config", str(tmp_path / "s.toml"), "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "The genetic search (ARX's GeneticAlgorithm) stopped: generations" in out and "seed 4" in out
    page = (tmp_path / "o" / "search.md").read_text()
    assert "## Best found, not proven optimal" in page and "The genetic search (ARX's GeneticAlgorithm) checked" in page
    doc = json.loads((tmp_path / "o" / "search.json").read_text())
    assert "genetic" in json.dumps(doc)
    assert main(["search", str(tmp_path / "d.csv"), "--config", str(tmp_path / "s.toml"), "--seed", "-1"]) == 2
    assert "seed" in capsys.readouterr().err
