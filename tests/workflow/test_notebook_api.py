"""The notebook API (issue 28 item 5): plans as dicts and lists, seeds kept exact in every table,
a run replayed from its table, HTML views and short reprs, plotting functions returning Axes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.workflow.plan import step_seed

PLAN = {"plan": {"seed": 20240611},
        "steps": [{"method": "global_recode", "variables": ["age"], "width": 10},
                  {"method": "pram", "variables": ["marital_status"], "pd": 0.8},
                  {"method": "add_noise", "variables": ["bmi"], "noise": 20}]}


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    return sdc.load_example()


def test_protect_data_takes_a_dict_plan_and_a_list_of_steps(data: pd.DataFrame) -> None:
    run = sdc.protect_data(data, PLAN, reassess=False)
    assert [r.step.method for r in run.steps] == ["global_recode", "pram", "add_noise"]
    listed = sdc.protect_data(data, [{"method": "global_recode", "variables": ["age"], "width": 10}], reassess=False)
    assert listed.released["age"].equals(run.steps[0].result.data["age"])


def test_protect_data_refuses_another_kind_of_plan_in_one_line(data: pd.DataFrame) -> None:
    with pytest.raises(TypeError, match=r"`plan` must be a Plan, a plan file, a dict of sections or a list of steps; "
                                        r"got int"):
        sdc.protect_data(data, 3, reassess=False)


def test_seeds_in_the_run_table_are_exact_integers(data: pd.DataFrame) -> None:
    run = sdc.protect_data(data, PLAN, reassess=False)
    table = run.to_frame()
    assert str(table["seed"].dtype) == "Int64"
    want = {r.step.number: r.seed for r in run.steps}
    assert want[2] == step_seed(20240611, 2) and want[2] > 2 ** 53  # beyond float64's exact integers
    got = {int(s): (None if pd.isna(v) else int(v)) for s, v in zip(table["step"], table["seed"])}
    assert got == want
    # Written as CSV, the file holds the exact digits (read them as text: pandas 1.5 parses an
    # Int64 column through float64).
    text = table.to_csv(index=False)
    assert str(want[2]) in text and f"{want[2]}.0" not in text


def test_a_run_replays_from_its_table(data: pd.DataFrame) -> None:
    """Each step given the seed its table row holds gives the same release (float64 seeds gave
    another PRAM draw: 3145203387029785293 read back as 3145203387029785088)."""
    run = sdc.protect_data(data, PLAN, reassess=False)
    table = run.to_frame().drop_duplicates("step")
    steps = []
    for step, seed in zip(PLAN["steps"], table["seed"]):
        steps.append({**step, **({} if pd.isna(seed) else {"seed": int(seed)})})
    replay = sdc.protect_data(data, {"steps": steps}, reassess=False)
    pd.testing.assert_frame_equal(replay.released, run.released)


def test_a_float64_seed_is_another_seed() -> None:
    """Why the table must not hold float64: the example's seeds do not survive it."""
    seed = 3145203387029785293
    assert int(np.float64(seed)) == 3145203387029785088 != seed
