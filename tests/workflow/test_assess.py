"""The assessment run: every configured measure on a hand-computed toy, verdicts, roles, scenarios.

The toy (10 records; keys age banded at 40, sex, region; sensitive diag):

=====  =====================  ==============  ===  =====  ====================
class  key values             records          fk  diag   equal-distance EMD
=====  =====================  ==============  ===  =====  ====================
0      0--40, f, n            1, 2, 3           3  A A B  0.2
1      40--inf, m, s          4, 5, 6           3  A A A  0.4
2      40--inf, f, s          7                 1  C      0.8
3      0--40, m, n            8, 9              2  B C    0.6
4      40--inf, f, n          10                1  A      0.4
=====  =====================  ==============  ===  =====  ====================

File distribution of diag: A 0.6, B 0.2, C 0.2. Without weights risk = 1/fk, so expected
re-identifications = 1 + 1 + 1 + 1 + 1 = 5 and global risk 0.5.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sdc.workflow.assess import assess
from sdc.workflow.config import ConfigError, from_mapping

TOY = pd.DataFrame({
    "sid": [f"p{i}" for i in range(1, 11)],
    "age": [30, 35, 38, 45, 50, 60, 70, 25, 33, 41],
    "sex": list("fffmmmfmmf"),
    "region": list("nnnsssnnnn"),
    "hh": [1, 1, 2, 3, 3, 4, 5, 6, 6, 7],
    "diag": list("AABAAACBCA"),
})
TOY.loc[6, "region"] = "s"  # record 7 lives in the south


def toy_config(**thresholds: float) -> object:
    return from_mapping({
        "data": {"path": "toy.csv", "id": "sid"},
        "variables": {"categorical_keys": ["sex", "region"], "continuous_keys": ["age"], "household": "hh",
                      "sensitive": ["diag"]},
        "bins": {"age": [0, 40, "inf"]},
        "thresholds": {"k": 3, "l": 2, "t": 0.5, "risk": 0.4, "small_count": 5, **thresholds},
        "options": {"measures": ["k_anonymity", "risk", "snapshots", "household", "ldiversity", "tcloseness",
                                 "inference", "suda"]},
    })


@pytest.fixture(scope="module")
def toy_result():
    return assess(toy_config(), TOY.copy())


def test_hand_computed_measures(toy_result) -> None:
    r = toy_result.primary
    assert r.scenario.keys == ("sex", "region", "age")
    assert r.profile.sample_frequency.tolist() == [3, 3, 3, 3, 3, 3, 1, 2, 2, 1]
    assert r.profile.n_k_lt_threshold == 4
    assert r.risk.expected_reidentifications == pytest.approx(5.0)
    assert r.risk.global_risk == pytest.approx(0.5)
    ld = r.ldiversity.records["diag_Distinct_Ldiversity"].tolist()
    assert ld == [2, 2, 2, 1, 1, 1, 1, 2, 2, 1]
    t = r.tcloseness["diag"]
    assert t.distance == "equal"  # diag is unordered text
    np.testing.assert_allclose(t.records.to_numpy(), [0.2, 0.2, 0.2, 0.4, 0.4, 0.4, 0.8, 0.6, 0.6, 0.4])


def test_verdicts(toy_result) -> None:
    # the statistics are sentences a reader understands (issue 11, item 15: no code names)
    v = {(x.measure, x.statistic): (x.value, x.verdict) for x in toy_result.verdicts}
    assert v[("3-anonymity", "records in classes of fewer than 3 records (fk < 3)")] == (4, "fail")
    assert v[("individual risk", "records with a re-identification risk above 0.4")] == (4, "fail")
    assert v[("global risk", "expected re-identifications as a share of the records")] == (pytest.approx(0.5), "fail")
    assert v[("2-diversity (diag)", "records in classes with fewer than 2 distinct values of diag")] == (5, "fail")
    assert v[("t-closeness (diag, equal)", "records in classes whose diag distribution is farther than t = 0.5 from "
              "the file's (equal distance)")] == (3, "fail")
    shares = {x.measure: x.share for x in toy_result.verdicts}
    assert shares["3-anonymity"] == pytest.approx(0.4) and shares["2-diversity (diag)"] == pytest.approx(0.5)


def test_passing_thresholds_pass() -> None:
    res = assess(toy_config(k=1, l=1, t=0.9, risk=1.0, max_global_risk=0.7), TOY.copy())
    failing = [x for x in res.verdicts if x.verdict == "fail"]
    assert failing == [], failing
    # household risk 1 - prod(1 - r_i) per household, averaged over records: 0.639 <= 0.7
    hh = next(x for x in res.verdicts if x.measure == "household risk")
    assert hh.value == pytest.approx((2 * 5 / 9 + 1 / 3 + 2 * 5 / 9 + 1 / 3 + 1 + 2 * 3 / 4 + 1) / 10)


def test_small_count_levels(toy_result) -> None:
    # below 5 records: region s (4); sex and the age bands hold 5 each
    got = toy_result.small_counts
    assert got.to_dict("list") == {"variable": ["region"], "level": ["s"], "n_records": [4]}


def test_the_input_is_not_changed() -> None:
    before = TOY.copy()
    assess(toy_config(), TOY)
    pd.testing.assert_frame_equal(TOY, before)


def test_scenarios_each_get_their_measures() -> None:
    cfg = from_mapping({
        "data": {"path": "toy.csv"}, "variables": {"categorical_keys": ["sex", "region"]},
        "scenarios": [{"name": "sex only", "keys": ["sex"]}, {"name": "both", "keys": ["sex", "region"]}],
        "options": {"measures": ["k_anonymity", "risk"]},
    })
    res = assess(cfg, TOY.copy())
    assert [r.scenario.name for r in res.scenarios] == ["sex only", "both"]
    assert res.scenarios[0].profile.n_classes == 2 and res.scenarios[1].profile.n_classes == 4
    assert {x.scenario for x in res.verdicts} == {"sex only", "both"}
    assert all(r.snapshots is None and r.suda is None for r in res.scenarios)  # not configured


def test_provenance_and_notes() -> None:
    cfg = from_mapping({"data": {"path": "toy.csv"}, "variables": {"categorical_keys": ["sex"],
                                                                   "continuous_keys": ["age"]},
                        "options": {"measures": ["k_anonymity", "risk"]}})
    res = assess(cfg, TOY.copy(), command="sdc assess toy.csv")
    assert res.provenance["command"] == "sdc assess toy.csv"
    assert {"sdc", "numpy", "pandas", "scipy", "python"} <= set(res.provenance["versions"])
    assert any("age assessed on their raw values" in n for n in res.notes)
    # a continuous key released as text bands is counted by its bands: no note about raw values
    banded = TOY.assign(age=pd.cut(TOY["age"], [0, 40, 120]).astype(str))
    assert not any("raw values" in n for n in assess(cfg, banded).notes)


@pytest.mark.parametrize("variables, message", [
    ({"categorical_keys": ["sex", "regoin"]}, r"regoin.*region"),
    ({"categorical_keys": ["sex"], "weights": "wt"}, r"wt"),
    ({"categorical_keys": ["sex"], "sensitive": ["sex"]}, r"`sensitive` variables may not also be keys: 'sex'"),
])
def test_role_errors_name_the_column(variables: dict, message: str) -> None:
    cfg = from_mapping({"data": {"path": "toy.csv"}, "variables": variables})
    with pytest.raises(ValueError, match=message):
        assess(cfg, TOY.copy())


def test_config_errors_are_value_errors() -> None:
    assert issubclass(ConfigError, ValueError)  # so the CLI reports them as one-line errors
