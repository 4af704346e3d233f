"""Binning continuous variables into labelled intervals."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sdc.core.binning import apply_binning, bin_column


def test_edges_are_left_closed_and_the_last_bin_is_closed():
    s = pd.Series([0, 5.9, 6, 11.9, 12, np.nan], name="age")
    out, rec = bin_column(s, [0, 6, 12])
    assert out.astype(object).where(out.notna(), None).tolist() == ["0--6", "0--6", "6--12", "6--12", "6--12", None]
    assert rec.labels == ("0--6", "6--12") and rec.method == "edges" and out.cat.ordered


def test_infinite_edges_and_labels():
    out, rec = bin_column(pd.Series([1, 70, 120], name="age"), [0, 18, 65, math.inf])
    assert rec.labels == ("0--18", "18--65", "65--inf")
    assert out.tolist() == ["0--18", "65--inf", "65--inf"]


def test_quantile_bins():
    s = pd.Series(np.arange(100.0), name="x")
    out, rec = bin_column(s, {"quantiles": 4})
    assert rec.method == "quantiles=4" and len(rec.labels) == 4
    assert out.value_counts().tolist() == [25, 25, 25, 25]


@pytest.mark.parametrize(("spec", "message"), [
    ([0, 10], "outside the bin edges"),
    ([5, 1], "at least two increasing numbers"),
    (["a", "b"], "must be numbers"),
    ({"deciles": 10}, "must be a list of edges"),
])
def test_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        bin_column(pd.Series([1, 20], name="age"), spec)


def test_non_numeric_and_input_unchanged():
    with pytest.raises(ValueError, match="must be numeric to be binned"):
        bin_column(pd.Series(["a"], name="sex"), [0, 1])
    df = pd.DataFrame({"age": [1, 50]})
    out, recs = apply_binning(df, {"age": [0, 18, 99]})
    assert df["age"].tolist() == [1, 50] and out["age"].tolist() == ["0--18", "18--99"]
    assert recs[0].to_dict() == {"column": "age", "method": "edges", "edges": [0.0, 18.0, 99.0],
                                 "labels": ["0--18", "18--99"]}


# --- issue 26, item 6: bins as written (closed = "left"|"right", outside = "error"|"missing"|"extend")

_BMI = pd.Series([0.0, 18.5, 25.0, 40.0, 42.5, -1.0, np.nan], name="BMI")


def test_closed_right_puts_each_edge_in_the_band_below():
    out, rec = bin_column(_BMI.iloc[:4], {"edges": [0, 18.5, 25, 40], "closed": "right"})
    assert list(out.astype(object)) == ["0--18.5", "0--18.5", "18.5--25", "25--40"]
    assert rec.closed == "right"
    left, _ = bin_column(_BMI.iloc[:4], [0, 18.5, 25, 40])
    assert list(left.astype(object)) == ["0--18.5", "18.5--25", "25--40", "25--40"]


def test_outside_missing_and_extend():
    with pytest.raises(ValueError, match=r"42.5 outside the bin edges \[0, 40\].*outside"):
        bin_column(_BMI, [0, 18.5, 25, 40])
    miss, rec = bin_column(_BMI, {"edges": [0, 18.5, 25, 40], "outside": "missing"})
    assert miss.isna().tolist() == [False, False, False, False, True, True, True]
    assert rec.made_missing == 2 and rec.extended == 0
    ext, rec = bin_column(_BMI, {"edges": [0, 18.5, 25, 40], "outside": "extend"})
    assert list(ext.astype(object))[4:6] == ["25--40", "0--18.5"] and ext.isna().sum() == 1
    assert rec.extended == 2 and rec.to_dict()["outside"] == "extend"


def test_bad_modifiers_refused():
    with pytest.raises(ValueError, match="closed must be one of"):
        bin_column(_BMI, {"edges": [0, 50], "closed": "both"})
    with pytest.raises(ValueError, match="outside must be one of"):
        bin_column(_BMI, {"edges": [0, 50], "outside": "clip"})


def test_config_and_cli_take_closed_and_outside():
    from sdc.cli._args import bins
    from sdc.workflow.config import ConfigError, _toml_module, from_mapping, to_toml

    spec = {"edges": [0, 18.5, 25, 40], "closed": "right", "outside": "extend"}
    assert bins("BMI=0,18.5,25,40,closed=right,outside=extend") == ("BMI", spec)
    assert bins("age=width:10,outside=missing") == ("age", {"width": 10.0, "outside": "missing"})
    cfg = from_mapping({"data": {"path": "d.csv"}, "variables": {"continuous_keys": ["BMI"], "sensitive": ["crp"]},
                        "bins": {"BMI": spec}, "sensitive_bins": {"crp": {"edges": [0, 5], "outside": "missing"}}})
    assert cfg.bins["BMI"] == spec and cfg.sensitive_bins["crp"]["outside"] == "missing"
    assert from_mapping(_toml_module().loads(to_toml(cfg))) == cfg
    with pytest.raises(ConfigError, match=r"\[bins\].BMI.outside"):
        from_mapping({"data": {"path": "d.csv"}, "variables": {"continuous_keys": ["BMI"]},
                      "bins": {"BMI": {"edges": [0, 40], "outside": "clip"}}})


def test_assess_cli_bins_as_written(tmp_path, capsys):
    from sdc.cli.main import main

    data = tmp_path / "d.csv"
    pd.DataFrame({"BMI": [17.0, 22.0, 42.5, 30.0] * 5, "sex": [0, 1] * 10}).to_csv(data, index=False)
    assert main(["risk", str(data), "--keys", "sex,BMI", "--bins", "BMI=0,18.5,25,30,40", "--json"]) == 2
    assert "outside the bin edges" in capsys.readouterr().err
    assert main(["risk", str(data), "--keys", "sex,BMI", "--bins", "BMI=0,18.5,25,30,40,closed=right,outside=extend",
                 "--json"]) == 0
