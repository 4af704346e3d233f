"""sdcMicro's table-based infoLoss in the comparison and the sweep of a record swap: over the
tables of the swap's geography and risk variables (MethodInfo.tables_of), equal to sdc.info_loss on
the same two files (itself equal to sdcMicro's infoLoss on the same swapped file: tests/protect/test_sdcmicro_record_swap.py),
and absent from a release no step swapped."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import sdc
from sdc.protect import method_infos
from sdc.workflow.compare import compare, swapped_tables
from sdc.workflow.config import from_mapping
from sdc.workflow.sweep import load_sweep, sweep

from tests.protect.test_record_swap import households

FIGURES = ["info_loss_absd", "info_loss_relabsd", "info_loss_abssqrtd", "info_loss_false_zero"]
CONFIG = {"data": {"path": "x.csv"}, "variables": {"categorical_keys": ["region", "district", "age", "sex"]},
          "options": {"measures": ["k_anonymity"]}}
SWAP = {"hierarchy": ["region", "district"], "hid": "hid", "similar": ["hsize"], "risk_variables": ["age", "sex"],
        "swaprate": 0.2, "seed": 4}


def test_only_record_swapping_declares_tables() -> None:
    assert {n for n, i in method_infos().items() if i.tables_of} == {"record_swap"}
    assert method_infos()["record_swap"].tables_of == ("hierarchy", "risk_variables")


def test_the_comparison_of_a_swap_has_its_info_loss() -> None:
    data = households(300, 2)
    run = sdc.protect_data(data, sdc.workflow.plan.plan_from_mapping(
        {"steps": [{"method": "record_swap", **SWAP}]}), reassess=False)
    log = run.log()
    assert swapped_tables(log) == ["region", "district", "age", "sex"]
    c = compare(data, run.released, from_mapping(CONFIG), protection=log)
    rows = c.utility_table.set_index("measure")["value"]
    direct = sdc.info_loss(data, run.released, ["region", "district", "age", "sex"])
    for fig, metric in zip(FIGURES, ["absD", "relabsD", "abssqrtD"]):
        assert rows[fig] == pytest.approx(float(direct.measures.loc["Mean", metric]), rel=1e-12)
    assert rows["info_loss_false_zero"] == direct.false_zero
    assert rows["info_loss_absd"] > 0
    plain = compare(data, data.assign(age=data["age"].clip(upper=4)), from_mapping(CONFIG))
    assert not set(FIGURES) & set(plain.utility_table["measure"])  # no swap: no row, not NaN


SWEEP = """
[sweep]
keys = ["region", "district", "age", "sex"]
[plan]
seed = 2
[[steps]]
method = "record_swap"
hierarchy = ["region", "district"]
hid = "hid"
similar = ["hsize"]
risk_variables = ["age", "sex"]
grid = { swaprate = [0.0, 0.1, 0.3] }
"""


def test_the_sweep_tabulates_it_per_setting(tmp_path: Path) -> None:
    (tmp_path / "sweep.toml").write_text(SWEEP, encoding="utf-8")
    res = sweep(households(300, 2), load_sweep(tmp_path / "sweep.toml"))
    t = res.table
    assert set(FIGURES) <= set(t.columns)
    assert t["info_loss_absd"].iloc[0] == 0.0                            # the baseline: nothing swapped
    assert t["info_loss_absd"].iloc[-1] > t["info_loss_absd"].iloc[2] > 0  # more swapped, more lost
