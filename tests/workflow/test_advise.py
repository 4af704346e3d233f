"""sdc.advise: the candidate rules, every kept plan meeting the thresholds, the ranking by the
combined score, determinism under a seed, plan_1.toml rerunning to the same release, bad input."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.workflow.advise import _nice_width, advise, candidate_plans
from sdc.workflow.plan import load_plan
from sdc.workflow.protect import protect_data

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
CONFIG = {"variables": {"categorical_keys": ["sex", "region"], "continuous_keys": ["age"]},
          "thresholds": {"k": 3, "risk": 0.34, "max_global_risk": 0.2},
          "options": {"measures": ["k_anonymity", "risk"]}, "output": {"formats": ["json"]}}


@pytest.fixture(scope="session")
def small() -> pd.DataFrame:
    return sdc.load_example().head(250)


@pytest.fixture(scope="session")
def advice(small):
    before = small.copy()
    res = advise(small, CONFIG, seed=5, now=NOW)
    pd.testing.assert_frame_equal(small, before)  # the input untouched
    return res


def test_round_widths_by_hand():
    assert _nice_width(84.0, 10) == 10.0 and _nice_width(84.0, 20) == 5.0 and _nice_width(84.0, 5) == 20.0
    assert _nice_width(0.37, 5) == pytest.approx(0.1) and _nice_width(3.0, 20) == pytest.approx(0.2)


def test_the_rules_and_the_cap(small):
    cands, proposed = candidate_plans(small, CONFIG, seed=1)
    rules = [c.rule for c in cands]
    assert rules[:5] == ["bands"] * 5 and "suppression" in rules and "pram" in rules and "combination" in rules
    # age (about 80 values for 250 records / 3) is not microaggregated: its group means would be more values
    assert "microaggregation" not in rules and proposed == len(cands)
    # followed by local suppression it is a candidate (age has more than k values): issue 29
    last = cands[-1]
    assert last.rule == "combination" and [s.method for s in last.plan.steps] == ["microaggregation", "local_suppression"]
    assert list(last.plan.steps[0].parameters["variables"]) == ["age"] and last.plan.steps[0].parameters["k"] == 3
    supp = next(c for c in cands if c.rule == "suppression").plan.steps[0]
    assert supp.parameters["k"] == 3 and list(supp.parameters["keys"]) == ["sex", "region", "age"]
    w10 = cands[1].plan.steps[0].parameters
    assert w10["width"] == 10.0 and w10["origin"] == 0.0 and all(c.plan.seed == 1 for c in cands)
    few, n = candidate_plans(small, CONFIG, max_candidates=3)
    assert len(few) == 3 and n == proposed


def test_every_kept_plan_meets_the_thresholds(small, advice):
    assert advice.runs and advice.table["meets"].sum() == len(advice.runs)
    keys = ["sex", "region", "age"]
    for run in advice.runs:  # checked directly: k-anonymity, the individual and the global risk
        assert sdc.k_anonymity(run.released, keys, k=3).n_k_lt_threshold == 0
        risk = sdc.individual_risk(run.released, keys)
        assert risk.max_risk <= 0.34 and risk.global_risk <= 0.2
    # and as sdc protect's reassessment sees the best
    assert (advice.best.comparison.verdicts["verdict after"] != "fail").all()
    lost = advice.table[~advice.table["meets"]]
    assert len(lost) and (lost["n_failing"].dropna() > 0).all()


def test_ranked_by_the_combined_score(small, advice):
    t = advice.table
    kept = t[t["meets"]]
    assert list(kept["rank"]) == list(range(1, len(kept) + 1))
    assert kept["score"].is_monotonic_increasing and t.loc[~t["meets"], "rank"].isna().all()
    for run, score in zip(advice.runs, kept["score"]):
        direct = sdc.ai_utility_score(small, run.released, ["sex", "region", "age"], ["age"])
        assert direct.total == pytest.approx(score, rel=1e-12)
    # the best's comparison shows the same score (the utility registry's figure)
    rows = advice.best.comparison.utility_table.set_index("measure")["value"]
    assert rows["ai_score"] == pytest.approx(kept["score"].iloc[0], rel=1e-12)
    assert set(advice.summary()["statistic"]) >= {"candidates", "kept", "best", "best_score", "seed"}


def test_deterministic_under_a_seed(small, advice):
    again = advise(small, CONFIG, seed=5, now=NOW, compare_best=False)
    pd.testing.assert_frame_equal(again.table, advice.table)
    assert again.plans_toml() == advice.plans_toml()
    other = advise(small, CONFIG, seed=6, now=NOW, compare_best=False, max_candidates=7)
    pram = other.candidates[-1]
    assert pram.rule == "pram"
    mine = next(c for c in advice.candidates if c.rule == "pram")
    a = protect_data(small, mine.plan, reassess=False).released["region"]
    b = protect_data(small, pram.plan, reassess=False).released["region"]
    assert not a.equals(b)  # another seed, other draws


def test_plan_1_reruns_to_the_same_release(small, advice, tmp_path):
    path = tmp_path / "plan_1.toml"
    path.write_text(advice.plans_toml()[0], encoding="utf-8")
    rerun = protect_data(small, load_plan(path), now=NOW)
    pd.testing.assert_frame_equal(rerun.released, advice.best.released)
    assert rerun.config.keys == advice.config.keys  # the plan carries the configuration


@pytest.mark.parametrize("config, kwargs, message", [
    ({"thresholds": {"k": 3}}, {}, "needs key variables"),
    ({"variables": {"categorical_keys": ["nope"]}}, {}, "nope"),
    (CONFIG, {"max_candidates": 0}, "`max_candidates`"),
    (CONFIG, {"seed": -1}, "`seed`"),
    (CONFIG, {"weights": (1, 2)}, "`weights` must be three"),
])
def test_bad_input_one_line(small, config, kwargs, message):
    with pytest.raises(ValueError, match=message) as e:
        advise(small, config, **kwargs)
    assert "\n" not in str(e.value)


def test_none_kept_is_said_not_raised(small):
    strict = {**CONFIG, "thresholds": {"k": 3, "risk": 0.01}}
    res = advise(small, strict, max_candidates=2, now=NOW)
    assert res.runs == () and res.best is None and res.plans_toml() == []
    assert res.table["rank"].isna().all() and (res.table["n_failing"] > 0).all()
    assert res.summary().set_index("statistic").loc["kept", "value"] == 0


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_kept_plans_meet_the_thresholds_on_random_data(seed):
    rng = np.random.default_rng(seed)
    n = 80
    df = pd.DataFrame({"a": rng.choice(list("pqrstu"), n, p=[0.4, 0.3, 0.15, 0.1, 0.03, 0.02]),
                       "b": rng.choice(list("xy"), n), "x": rng.integers(18, 90, n)})
    cfg = {"variables": {"categorical_keys": ["a", "b"], "continuous_keys": ["x"]},
           "thresholds": {"k": 2, "risk": 0.5, "max_global_risk": 0.5}, "options": {"measures": ["k_anonymity", "risk"]}}
    res = advise(df, cfg, seed=seed, now=NOW, compare_best=False)
    assert res.runs  # local suppression at k always reaches k-anonymity here
    for run in res.runs:
        assert sdc.k_anonymity(run.released, ["a", "b", "x"], k=2).n_k_lt_threshold == 0
        assert sdc.individual_risk(run.released, ["a", "b", "x"]).max_risk <= 0.5
    assert list(res.table.loc[res.table["meets"], "score"]) == sorted(res.table.loc[res.table["meets"], "score"])


@pytest.mark.parametrize("value, message", [
    (np.inf, "^key variable 'age' has a non-finite value inf at index 0"),  # was an OverflowError in the bands
    (np.nan, "^key variable 'age' is missing in every record"),
])
def test_a_key_sdc_assess_refuses_is_refused_before_any_plan(small, value, message):
    data = small.assign(age=small["age"].astype(float))
    data.loc[data.index[0] if np.isinf(value) else data.index, "age"] = value
    before = data.copy()
    with pytest.raises(ValueError, match=message) as e:
        advise(data, CONFIG, max_candidates=1, compare_best=False)
    assert "\n" not in str(e.value)
    pd.testing.assert_frame_equal(data, before)


def test_k_larger_than_the_file_is_refused_in_one_line(small):
    # every candidate failed or could not run, one by one, where no plan can reach k
    cfg = {**CONFIG, "thresholds": {"k": 10}}
    with pytest.raises(ValueError, match=r"^config \[thresholds\].k = 10 is more than the 5 records") as e:
        advise(small.head(5), cfg, compare_best=False)
    assert "\n" not in str(e.value)
