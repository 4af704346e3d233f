"""add_ghost_vars (sdcMicro's addGhostVars): hand-computed cases, properties (hypothesis), a plan
step after a suppression, the command line, Dask (row-wise), and sdcMicro (marker ``sdcmicro``):
the ghost variables' missing cells after localSuppression / localSupp on an sdcMicroObj with the
link, cell for cell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.workflow.protect import protect_data
from tests import scale


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"region": ["n", None, "s", None, "e"], "code": [1, 2, 3, None, 5],
                         "name": ["N", "?", "S", "?", "E"], "flag": [True, False, True, True, False]})


def test_hand_computed_the_linked_cells_follow_the_key() -> None:
    df = _frame()
    before = df.copy()
    r = sdc.add_ghost_vars(df, ["code", "name", "flag"], key_var="region")
    assert r.data["name"].isna().tolist() == [False, True, False, True, False]
    assert r.data["code"].isna().tolist() == [False, True, False, True, False]
    assert r.data["flag"].dtype == "boolean" and r.data["flag"].isna().sum() == 2
    assert r.changed.to_dict() == {"code": 1, "name": 2, "flag": 2}      # an already missing cell is not counted
    assert r.details == {"key_missing": 2} and r.data["region"].equals(df["region"]) and df.equals(before)
    assert r.seed is None


def test_integer_variables_become_nullable_whether_or_not_hit() -> None:
    df = pd.DataFrame({"key": ["a", "b"], "n": [1, 2]})
    r = sdc.add_ghost_vars(df, "n", key_var="key")
    assert str(r.data["n"].dtype) == "Int64" and r.data["n"].tolist() == [1, 2] and r.changed["n"] == 0


@pytest.mark.parametrize("kwargs, said", [
    ({"variables": ["code"], "key_var": "nope"}, "'nope'"),
    ({"variables": ["region"], "key_var": "region"}, "`key_var` 'region' is also one of the `variables`"),
    ({"variables": ["zzz"], "key_var": "region"}, "'zzz'"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, said) -> None:
    with pytest.raises((ValueError, TypeError)) as err:
        sdc.add_ghost_vars(_frame(), kwargs.pop("variables"), **kwargs)
    assert said in str(err.value) and "\n" not in str(err.value)


@settings(max_examples=scale.examples(80), deadline=None)
@given(st.data())
def test_properties_missing_exactly_where_the_key_or_the_variable_was(data) -> None:
    n = data.draw(st.integers(1, 30))
    key = data.draw(st.lists(st.sampled_from(["a", "b", None]), min_size=n, max_size=n))
    val = data.draw(st.lists(st.one_of(st.none(), st.floats(-5, 5)), min_size=n, max_size=n))
    df = pd.DataFrame({"k": pd.Series(key, dtype=object), "v": pd.Series(val, dtype=float)})
    r = sdc.add_ghost_vars(df, ["v"], key_var="k")
    expect = df["k"].isna() | df["v"].isna()
    assert r.data["v"].isna().equals(expect)
    assert r.data["v"][~expect].equals(df["v"][~expect])
    assert int(r.changed["v"]) == int((df["k"].isna() & df["v"].notna()).sum())


def test_a_plan_step_after_a_suppression_and_the_cli(tmp_path, monkeypatch) -> None:
    from sdc.cli import main

    df = sdc.load_example()
    keys = ["age", "sex", "region"]
    plan = [{"method": "local_suppression_by_risk", "keys": keys, "variable": "region", "threshold": 0.2},
            {"method": "add_ghost_vars", "variables": ["household_id"], "key_var": "region"}]
    run = protect_data(df, plan, reassess=False)
    supp = run.steps[0].result.data
    assert run.released["household_id"].isna().equals(supp["region"].isna()) and run.steps[1].result.n_changed > 0
    monkeypatch.chdir(tmp_path)
    df.to_csv("data.csv", index=False)
    Path("plan.toml").write_text('[[steps]]\nmethod = "local_suppression_by_risk"\nkeys = ["age", "sex", "region"]\n'
                                 'variable = "region"\nthreshold = 0.2\n[[steps]]\nmethod = "add_ghost_vars"\n'
                                 'variables = ["household_id"]\nkey_var = "region"\n')
    assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "out", "--no-assess"]) == 0
    released = pd.read_csv("out/released.csv")
    assert released["household_id"].isna().tolist() == run.released["household_id"].isna().tolist()


# --- sdcMicro -------------------------------------------------------------------------------

@pytest.mark.sdcmicro
def test_sdcmicro_ghost_variables_cell_for_cell() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    keys = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]
    cases = [(td, keys, "urbrur", ["hhcivil", "expend"], {"threshold": 0.02}, False),
             (td, keys, "roof", ["hhcivil"], {"threshold": 0.02}, True),
             (td, keys, "relat", ["hhcivil", "income"], {"k": 5}, False)]
    rng = np.random.default_rng(20261202)
    for i in range(scale.cases(100)):
        n = int(rng.integers(20, 300))
        df = pd.DataFrame({f"k{j}": rng.integers(0, int(rng.integers(2, 6)), n).astype(float) for j in range(3)})
        df = df.mask(rng.random(df.shape) < 0.05)
        df["g1"] = rng.normal(size=n).round(2)
        df["g2"] = pd.Series(rng.choice(["x", "y", None], n), dtype=object)
        opts = {"threshold": float(rng.choice([0.05, 0.1, 0.3]))} if i % 2 else {"k": int(rng.choice([2, 3, 5]))}
        cases.append((df, ["k0", "k1", "k2"], "k1", ["g1", "g2"], opts, bool(i % 3 == 0)))
    agree = cells = 0
    for i, (df, ks, key, ghosts, opts, via_add) in enumerate(cases):
        key_na, ghost_na = rb.ghost_vars(df, ks, key, ghosts, via_add=via_add, **opts)
        suppressed = df.assign(**{key: df[key].mask(key_na)})          # sdcMicro's suppression of the key
        ours = sdc.add_ghost_vars(suppressed, ghosts, key_var=key)
        for g in ghosts:
            assert ours.data[g].isna().equals(ghost_na[g] | df[g].isna()), (i, g)
        agree, cells = agree + 1, cells + int(key_na.sum())
    assert agree == 3 + scale.cases(100) and cells > 5 * scale.cases(100)
    print(f"addGhostVars: {agree} of {len(cases)} cases, ghost cells the same; {cells} key cells missing")
