"""Prosecutor, journalist and marketer risk."""

from __future__ import annotations

import pandas as pd
import pytest

import sdc


def test_hand_computed_without_population():
    df = pd.DataFrame({"k": [1, 1, 2, 3, 3, 3]})
    r = sdc.attacker_risk(df, ["k"], threshold=0.4)
    # classes 2, 1, 3: prosecutor risks 1/2, 1, 1/3
    assert r.prosecutor_records_at_risk == pytest.approx(3 / 6)
    assert (r.prosecutor_highest_risk, r.prosecutor_lowest_risk) == (1.0, pytest.approx(1 / 3))
    assert r.prosecutor_average_risk == 3 / 6
    assert r.population_source == "sample" and r.marketer_risk == pytest.approx(3 / 6)  # sum over classes of f/F, / n
    assert r.journalist_records_at_risk == r.prosecutor_records_at_risk


def test_population_table_and_weights():
    sample = pd.DataFrame({"k": [1, 1, 2], "w": [5.0, 5.0, 2.0]})
    pop = pd.DataFrame({"k": [1] * 10 + [2] * 2 + [3] * 7})
    r = sdc.attacker_risk(sample, ["k"], population=pop)
    assert r.population_source == "population table"
    assert (r.journalist_highest_risk, r.journalist_lowest_risk) == (0.5, 0.1)
    assert r.marketer_risk == pytest.approx((2 / 10 + 1 / 2) / 3)
    assert r.journalist_average_risk == pytest.approx(max(2 / 12, (2 / 10 + 1 / 2) / 3))
    assert r.journalist_records_at_risk == pytest.approx(1 / 3)  # class 2: 1/2 > 0.2
    w = sdc.attacker_risk(sample, ["k"], weights="w")
    assert w.population_source == "weights" and w.journalist_highest_risk == 0.5
    with pytest.raises(ValueError, match="the population must contain the sample"):
        sdc.attacker_risk(sample, ["k"], population=pd.DataFrame({"k": [1, 2]}))
    assert list(r.to_frame().columns) == ["prosecutor_risk", "journalist_risk"]


def test_arx_values_on_adult():
    """ARX on its adult extract, 9 keys: the prosecutor success rate is published in ARX's
    TestRiskMetrics.testAverageRisk2 (master aacd487); the other figures were recorded from ARX
    itself (validation/arx/ArxRisk.java; tests/risk/test_arx_live.py reruns ARX when built)."""
    import os
    from pathlib import Path
    path = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))
    if not path.exists():
        pytest.skip(f"ARX's adult.csv is not at {path} (set SDC_ARX_ADULT)")
    df = pd.read_csv(path, sep=";", dtype=str)
    r = sdc.attacker_risk(df, list(df.columns), threshold=0.2)
    assert r.prosecutor_average_risk == pytest.approx(0.6465751607983555, rel=1e-15)
    assert r.prosecutor_records_at_risk == pytest.approx(0.7781314236456468, rel=1e-15)
    assert (r.prosecutor_highest_risk, r.prosecutor_lowest_risk) == (1.0, pytest.approx(0.022222222222222223))
    assert r.marketer_risk == pytest.approx(0.6465751607983555, rel=1e-15)  # no population: F = f


def test_on_dask_the_in_memory_figures():
    """The Dask variant declared beside attacker_risk (docs/design.md, "Engines": the 2-file
    recipe): each class's size and weight sum from one pass to the pattern table; the same
    figures, missing key values a value of their own, records per record on the partitions."""
    dd = pytest.importorskip("dask.dataframe")
    import numpy as np

    rng = np.random.default_rng(5)
    df = pd.DataFrame({"a": rng.integers(0, 4, 300).astype(float), "b": rng.choice(["x", "y", "z"], 300),
                       "w": rng.uniform(1, 30, 300)})
    df.loc[rng.random(300) < 0.1, "a"] = np.nan
    ddf = dd.from_pandas(df, npartitions=4)
    for w in (None, "w"):
        m, d = sdc.attacker_risk(df, ["a", "b"], weights=w), sdc.attacker_risk(ddf, ["a", "b"], weights=w)
        pd.testing.assert_frame_equal(d.summary(), m.summary(), check_exact=False, rtol=1e-12)
        assert (d.n_records, d.n_classes, d.population_source) == (m.n_records, m.n_classes, m.population_source)
        pd.testing.assert_frame_equal(d.to_frame().compute(), m.to_frame(), check_exact=False, rtol=1e-12)
    with pytest.raises(ValueError, match=r"^attacker_risk\(population=...\) cannot run on a Dask DataFrame exactly"):
        sdc.attacker_risk(ddf, ["a"], population=df)
    assert sdc.core.engine.engines_of(sdc.attacker_risk)["dask"] is None
