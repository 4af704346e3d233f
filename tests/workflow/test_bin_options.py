"""The bins' closed/outside modifiers declared once (issue 26 h): sdc.workflow.options.BIN_MODIFIERS
is what the configuration checks, the --bins flag accepts, the written TOML keeps and the
report's binning table labels."""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.cli._args import bins
from sdc.core.binning import CLOSED, OUTSIDE
from sdc.workflow.config import ConfigError, from_mapping, to_toml, _toml_module
from sdc.workflow.options import BIN_MODIFIERS


def test_the_declaration() -> None:
    assert BIN_MODIFIERS.names == ("closed", "outside")
    assert BIN_MODIFIERS["closed"].rule.values == CLOSED and BIN_MODIFIERS["closed"].default == "left"
    assert BIN_MODIFIERS["outside"].rule.values == OUTSIDE and BIN_MODIFIERS["outside"].default == "error"


def test_config_flags_and_toml_read_the_declaration() -> None:
    base = {"data": {"path": "d.csv"}, "variables": {"continuous_keys": ["bmi"]}}
    with pytest.raises(ConfigError, match=r"\[bins\]\.bmi\.closed must be one of 'left', 'right'; got 'both'"):
        from_mapping({**base, "bins": {"bmi": {"edges": [0, 40], "closed": "both"}}})
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"expected closed=left\|right or outside=error\|missing\|extend after the bins, "
                             r"got outside='drop'"):
        bins("bmi=0,18.5,40,outside=drop")
    assert bins("bmi=0,18.5,40,closed=right,outside=extend") == \
        ("bmi", {"edges": [0.0, 18.5, 40.0], "closed": "right", "outside": "extend"})
    cfg = from_mapping({**base, "bins": {"bmi": {"edges": [0, 18.5, 40], "closed": "right", "outside": "extend"}}})
    back = from_mapping(_toml_module().loads(to_toml(cfg)))
    assert back.bins == cfg.bins and back.bins["bmi"]["outside"] == "extend"


def test_the_report_s_binning_table_takes_the_labels() -> None:
    from sdc.report.content import _setup_section

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"sex": rng.choice(["m", "f"], 120), "bmi": rng.uniform(15, 45, 120).round(1)})
    a = sdc.assess(df, {"variables": {"categorical_keys": ["sex"], "continuous_keys": ["bmi"]},
                        "bins": {"bmi": {"edges": [0, 18.5, 25, 30, 40], "outside": "extend"}},
                        "options": {"measures": ["k_anonymity", "risk"]}})
    t = next(t for t in _setup_section(a).tables if t.key == "binning").frame
    assert [BIN_MODIFIERS["closed"].label, BIN_MODIFIERS["outside"].label] == list(t.columns[-2:])
    assert t.iloc[0, -1].endswith("taken by the first/last band")
