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
    itself (validation/arx/ArxRisk.java; tests/test_arx_live.py reruns ARX when built)."""
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
