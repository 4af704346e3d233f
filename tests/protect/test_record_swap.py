"""record_swap (sdcMicro's recordSwap, reimplemented): the invariants of targeted record
swapping, on hand-made and random household files (hypothesis). The same invariants are
checked on sdcMicro's own output in test_sdcmicro_record_swap.py (``swap_invariants`` below)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.protect import info_of, method_infos


def households(n_hh: int, seed: int, *, regions: int = 3, districts: int = 3) -> pd.DataFrame:
    """A small census-like file: households of 1-4 members, region > district, a household size,
    age group and sex per member."""
    rng = np.random.default_rng(seed)
    size = rng.integers(1, 5, n_hh)
    hid = np.repeat(np.arange(1, n_hh + 1), size)
    region = np.repeat(rng.integers(1, regions + 1, n_hh), size)
    district = region * 10 + np.repeat(rng.integers(1, districts + 1, n_hh), size)
    n = hid.size
    df = pd.DataFrame({"hid": hid, "region": region, "district": district, "hsize": np.repeat(size, size),
                       "age": rng.integers(1, 6, n), "sex": rng.integers(1, 3, n), "income": rng.normal(size=n)})
    return df.sample(frac=1.0, random_state=seed)  # records not in household order


def swap_invariants(orig: pd.DataFrame, out: pd.DataFrame, *, hid: str, hierarchy: list[str], similar: list[str],
                    carry: list[str] = ()) -> int:
    """Check the invariants on a file swapped with ``return_swapped_id``; the number of swapped
    households. `orig` and `out` are matched by `hid` and the order of the records in each household."""
    a = orig.sort_values(hid, kind="stable").reset_index(drop=True)
    b = out.sort_values(hid, kind="stable").reset_index(drop=True)
    src = f"{hid}_swapped"
    moved = [*hierarchy, *carry, src]
    assert len(a) == len(b) and (a[hid].to_numpy() == b[hid].to_numpy()).all()
    rest = [c for c in a.columns if c not in moved]
    pd.testing.assert_frame_equal(a[rest], b[rest], check_dtype=False)
    # households kept whole: one donor per household, every member the donor's geography
    per = b.groupby(hid)[moved].nunique()
    assert (per <= 1).all().all()
    first_a = a.groupby(hid).first()
    first_b = b.groupby(hid).first()
    donor = first_b[src]
    swapped = donor.index[donor.to_numpy() != donor.index.to_numpy()]
    d = donor.loc[swapped]
    # pairs: h took d's geography, d took h's
    assert (donor.loc[d.to_numpy()].to_numpy() == d.index.to_numpy()).all()
    for c in [*hierarchy, *carry]:
        assert (first_b.loc[swapped, c].to_numpy() == first_a.loc[d.to_numpy(), c].to_numpy()).all(), c
    # the donor shares the similar profile and lies in another stratum
    for c in similar:
        assert (first_a.loc[swapped, c].to_numpy() == first_a.loc[d.to_numpy(), c].to_numpy()).all(), c
    geo_h = first_a.loc[swapped, hierarchy].to_numpy()
    geo_d = first_a.loc[d.to_numpy(), hierarchy].to_numpy()
    assert (geo_h != geo_d).any(axis=1).all()
    # unswapped households untouched
    keep = b[hid].isin(donor.index[donor.to_numpy() == donor.index.to_numpy()]).to_numpy()
    pd.testing.assert_frame_equal(a.loc[keep, hierarchy], b.loc[keep, hierarchy], check_dtype=False)
    return int(len(swapped))


@pytest.fixture(scope="module")
def census() -> pd.DataFrame:
    return households(400, 1)


def _swap(df: pd.DataFrame, **kw):
    args = dict(hid="hid", similar=["hsize"], risk_variables=["age", "sex"], return_swapped_id=True, seed=3)
    args.update(kw)
    return sdc.record_swap(df, ["region", "district"], **args)


def test_invariants_and_the_swap_count_of_the_rule(census: pd.DataFrame) -> None:
    r = _swap(census, swaprate=0.1, k_anonymity=0)
    n = swap_invariants(census, r.data, hid="hid", hierarchy=["region", "district"], similar=["hsize"])
    assert n == r.details["swapped_households"] == 40  # 400 * 0.1 / 2 = 20 swaps, an integer: both roundings agree
    assert r.details["swaps_planned"] == 20 and r.details["households"] == 400
    assert r.details["swapped_records"] == int(r.data["hid"].isin(
        r.data.loc[r.data["hid"] != r.data["hid_swapped"], "hid"]).sum())


@pytest.mark.parametrize("rate", [0.05, 0.13, 0.3])
def test_the_count_is_twice_the_floor_or_ceiling(census: pd.DataFrame, rate: float) -> None:
    seen = set()
    for seed in range(6):
        r = _swap(census, swaprate=rate, k_anonymity=0, seed=seed)
        seen.add(r.details["swapped_households"])
    assert seen <= {2 * math.floor(400 * rate / 2), 2 * math.ceil(400 * rate / 2)}


def test_risky_households_are_swapped_first(census: pd.DataFrame) -> None:
    r = _swap(census, swaprate=0.0, k_anonymity=3)
    n = swap_invariants(census, r.data, hid="hid", hierarchy=["region", "district"], similar=["hsize"])
    first = census.sort_values("hid", kind="stable")
    # risk at the highest level: 1 / records sharing (age, sex, region); households above 1/3
    cnt = first.groupby(["age", "sex", "region"])["hid"].transform("size")
    risky = set(first.loc[cnt < 3, "hid"])
    swapped = set(r.data.loc[r.data["hid"] != r.data["hid_swapped"], "hid"])
    assert risky <= swapped | set(r.details["no_donor"])
    assert n > 0 and r.details["swaps_planned"] == 0


def test_input_untouched_and_deterministic(census: pd.DataFrame) -> None:
    before = census.copy()
    a, b = _swap(census, swaprate=0.2), _swap(census, swaprate=0.2)
    pd.testing.assert_frame_equal(census, before)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert a.seed == 3 and a.parameters["swaprate"] == 0.2 and a.parameters["seed"] == 3
    assert a.parameters["swapped_households"] == a.details["swapped_households"] > 0
    c = _swap(census, swaprate=0.2, seed=4)
    assert not c.data.equals(a.data)
    assert list(a.data.index) == list(census.index)


def test_carry_along_and_profiles(census: pd.DataFrame) -> None:
    df = census.assign(tenure=census["hid"] % 3)
    r = _swap(df, swaprate=0.2, k_anonymity=0, carry_along=["tenure"], similar=[["hsize", "sex"], ["hsize"]])
    swap_invariants(df, r.data, hid="hid", hierarchy=["region", "district"], similar=["hsize"], carry=["tenure"])
    assert r.changed.index.tolist() == ["region", "district", "tenure"]


def test_given_risk_columns(census: pd.DataFrame) -> None:
    df = census.assign(r1=0.01, r2=np.where(census["hid"] % 50 == 0, 0.9, 0.01))
    r = _swap(df, swaprate=0.0, risk=["r1", "r2"], risk_threshold=0.5)
    swapped = set(r.data.loc[r.data["hid"] != r.data["hid_swapped"], "hid"])
    assert set(df.loc[df["r2"] > 0.5, "hid"]) <= swapped | set(r.details["no_donor"])


def test_risk_given_as_a_table_equals_the_columns(census: pd.DataFrame) -> None:
    # sdcMicro's recordSwap takes a risk matrix (records x levels) as well as column names
    rng = np.random.default_rng(5)
    r1, r2 = rng.uniform(0, 0.2, len(census)), np.where(census["hid"] % 40 == 0, 0.9, rng.uniform(0, 0.2, len(census)))
    df = census.assign(r1=r1, r2=r2)
    kw = dict(swaprate=0.05, risk_threshold=0.5)
    by_name = _swap(df, risk=["r1", "r2"], **kw)
    as_array = _swap(census, risk=np.column_stack([r1, r2]), **kw)
    shuffled = pd.DataFrame({"a": r1, "b": r2}, index=census.index).sample(frac=1.0, random_state=1)
    as_frame = _swap(census, risk=shuffled, **kw)  # aligned on the index labels, not by position
    for r in (as_array, as_frame):
        pd.testing.assert_frame_equal(r.data, by_name.data.drop(columns=["r1", "r2"]))
        assert r.parameters["risk"] is None and r.parameters["risk_table"] == f"table of {len(census)} x 2 risks"
    assert by_name.parameters["risk_table"] is None and by_name.parameters["risk"] == ["r1", "r2"]
    swap_invariants(census, as_frame.data, hid="hid", hierarchy=["region", "district"], similar=["hsize"])
    # one level: a 1-D array or a Series
    kw1 = dict(hid="hid", similar=["hsize"], swaprate=0.0, risk_threshold=0.5, seed=3)
    one = sdc.record_swap(census, ["region"], risk=r2, **kw1)
    two = sdc.record_swap(census, ["region"], risk=pd.Series(r2, index=census.index), **kw1)
    pd.testing.assert_frame_equal(one.data, two.data)
    assert one.details["swapped_households"] >= 2
    # the R translation names the table it cannot write out
    from sdc.protect._rcode import StepRun
    from sdc.protect.record_swap import _r_record_swap

    step = _r_record_swap(StepRun("record_swap", ("region", "district"), as_array.parameters, 3, {}, {}))
    code = "\n".join(step.code)
    assert "risk = risk_table" in code and f"table of {len(census)} x 2 risks" in code


@pytest.mark.parametrize("risk, message", [
    (np.zeros((3, 2)), "must be 400 records x 2 hierarchy levels; got 3 x 2"),
    (np.zeros(10), "x 2 hierarchy levels; got 10 x 1"),
    ("frame", "indexed by the data's index labels"),
    ("negative", "non-negative numbers"),
    ({"a": 1}, "must be a list of column names or a table of risks"),
    (np.array(0.5), "must be column names or a table of numbers"),
])
def test_bad_risk_tables_are_one_line(census: pd.DataFrame, risk: object, message: str) -> None:
    if isinstance(risk, str) and risk == "frame":
        risk = pd.DataFrame({"a": np.zeros(len(census)), "b": 0.0}, index=census.index + 10_000)
    elif isinstance(risk, str):
        risk = np.full((len(census), 2), -1.0)
    with pytest.raises((ValueError, TypeError)) as e:
        _swap(census, risk=risk)
    assert message.replace("400", str(len(census))) in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("kw, message", [
    ({"swaprate": 1.5}, "swaprate"),
    ({"similar": ["nope"]}, "nope"),
    ({"risk_variables": None}, "risk_variables"),
    ({"risk": ["age"]}, "one column per hierarchy level"),
])
def test_bad_input_is_one_line(census: pd.DataFrame, kw: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError, KeyError)) as e:
        _swap(census, **kw)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_missing_geography_refused(census: pd.DataFrame) -> None:
    df = census.astype({"district": float})
    df.iloc[0, df.columns.get_loc("district")] = np.nan
    with pytest.raises(ValueError, match="'district' has missing values"):
        _swap(df)


def test_declared_for_plans_and_refused_on_dask() -> None:
    info = info_of(sdc.record_swap)
    assert "record_swap" in method_infos() and info.seeded and info.variables_param == "hierarchy"
    assert info.dask is not None and "whole file" in info.dask


@settings(max_examples=25, deadline=None)
@given(n_hh=st.integers(2, 40), seed=st.integers(0, 10_000), rate=st.floats(0.0, 1.0), k=st.integers(0, 4))
def test_random_household_files(n_hh: int, seed: int, rate: float, k: int) -> None:
    df = households(n_hh, seed, regions=2, districts=2)
    r = _swap(df, swaprate=rate, k_anonymity=k, seed=seed)
    n = swap_invariants(df, r.data, hid="hid", hierarchy=["region", "district"], similar=["hsize"])
    assert n == r.details["swapped_households"] and n % 2 == 0
    if k == 0:
        assert n <= 2 * math.ceil(n_hh * rate / 2)


def test_a_plan_step_and_its_r_translation(tmp_path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text('[plan]\nseed = 4\n\n[[steps]]\nmethod = "record_swap"\nhierarchy = ["region"]\n'
                    'hid = "household_id"\nsimilar = ["sex"]\nrisk_variables = ["sex", "relation"]\nswaprate = 0.1\n')
    run = sdc.protect_data(sdc.load_example(), str(plan), reassess=False)
    res = run.steps[0].result
    assert res.method == "record_swap" and res.details["swapped_households"] >= 170
    script = run.to_r_script()
    assert "sdcMicro::recordSwap(data, hid = \"household_id\", hierarchy = c(\"region\"), similar = list(c(\"sex\"))" in script
