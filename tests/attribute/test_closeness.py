"""t-closeness, beta-likeness and delta-disclosure: paper examples, scipy, brute force, properties."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.stats import wasserstein_distance

import sdc
from tests import brute, scale
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.DegenerateDataWarning")


@pytest.fixture
def salaries():
    # Li, Li and Venkatasubramanian (2007), Table 3: salaries 3k..11k in three classes
    return pd.DataFrame({"zip": [1, 1, 1, 2, 2, 2, 3, 3, 3], "salary": [3, 4, 5, 6, 8, 11, 7, 9, 10]})


def test_li_et_al_ordered_distance_example(salaries):
    r = sdc.t_closeness(salaries, ["zip"], "salary", distance="ordered", t=0.2)
    # the paper: D[{3k,4k,5k}, Q] = 0.375 and D[{6k,8k,11k}, Q] = 0.167
    assert r.classes["distance"].iloc[0] == pytest.approx(0.375)
    assert r.classes["distance"].iloc[1] == pytest.approx(1 / 6)
    assert r.max_t == pytest.approx(0.375)
    assert (r.n_classes_above_t, r.n_records_above_t) == (2, 6)
    assert r.pct_records_above_t == pytest.approx(100 * 6 / 9)
    assert r.records.index.equals(salaries.index)


def test_equal_distance_equals_total_variation(salaries):
    e = sdc.t_closeness(salaries, ["zip"], "salary", distance="equal").records
    t = sdc.t_closeness(salaries, ["zip"], "salary", distance="tvd").records
    assert_allclose(e, t) and assert_allclose(e, 2 / 3)  # 1/3 mass on each of 3 of 9 values


def test_wasserstein_matches_scipy(salaries):
    r = sdc.t_closeness(salaries, ["zip"], "salary", distance="wasserstein")
    for (zip_, members), d in zip(salaries.groupby("zip")["salary"], r.classes["distance"]):
        assert d == pytest.approx(wasserstein_distance(members, salaries["salary"]), rel=1e-12)


def test_independent_sensitive_gives_zero():
    # every class has the file's distribution by construction
    df = pd.DataFrame({"k": np.repeat([1, 2, 3], 6), "s": np.tile([1, 1, 2, 3, 3, 3], 3)})
    for d in ("ordered", "equal", "tvd", "wasserstein"):
        assert sdc.t_closeness(df, ["k"], "s", distance=d).max_t == pytest.approx(0, abs=1e-15)
    assert sdc.beta_likeness(df, ["k"], "s").max_beta == 0
    assert sdc.delta_disclosure(df, ["k"], "s").max_delta == pytest.approx(0, abs=1e-15)


def test_missing_sensitive_values_are_left_out():
    df = pd.DataFrame({"k": [1, 1, 2, 2, 3], "s": [1.0, np.nan, 2.0, 1.0, np.nan]})
    r = sdc.t_closeness(df, ["k"], "s", distance="equal")
    # file: {1: 2/3, 2: 1/3}; class 1 {1}: 1/3; class 2 {1,2}: 1/6; class 3: nothing observed
    assert_allclose(r.classes["distance"].iloc[:2], [1 / 3, 1 / 6])
    assert np.isnan(r.classes["distance"].iloc[2])
    assert r.classes["n_observed"].tolist() == [1, 2, 0]


def test_ordered_needs_an_order_and_wasserstein_numbers():
    df = pd.DataFrame({"k": [1, 1, 2], "s": ["a", "b", "c"]})
    with pytest.raises(ValueError, match="needs a numeric or ordered categorical"):
        sdc.t_closeness(df, ["k"], "s", distance="ordered")
    with pytest.raises(ValueError, match="needs a numeric sensitive variable"):
        sdc.t_closeness(df, ["k"], "s", distance="wasserstein")
    ordered = df.assign(s=pd.Categorical(df["s"], categories=["c", "b", "a"], ordered=True))
    r = sdc.t_closeness(ordered, ["k"], "s", distance="ordered")
    # order c < b < a: class 1 {a, b}, class 2 {c}; Q = 1/3 each
    assert_allclose(r.classes["distance"], [brute.emd_ordered({"b": .5, "a": .5}, {"c": 1 / 3, "b": 1 / 3, "a": 1 / 3}, ["c", "b", "a"]),
                                             brute.emd_ordered({"c": 1.0}, {"c": 1 / 3, "b": 1 / 3, "a": 1 / 3}, ["c", "b", "a"])])
    with pytest.raises(ValueError, match="`distance` must be one of"):
        sdc.t_closeness(df, ["k"], "s", distance="kl")
    with pytest.raises(ValueError, match="may not also be a key"):
        sdc.t_closeness(df, ["k", "s"], "s")


def test_beta_likeness_and_delta_disclosure_by_hand():
    # file: a 1/2, b 1/4, c 1/4; class 1 = {a, a}: gain for a = (1 - .5)/.5 = 1
    # class 2 = {a, a, b, b, c, c} (1/3 each): gains b, c = (1/3 - 1/4)/(1/4) = 1/3
    df = pd.DataFrame({"k": [1, 1] + [2] * 6, "s": ["a", "a", "a", "a", "b", "b", "c", "c"]})
    b = sdc.beta_likeness(df, ["k"], "s", beta=0.5)
    assert_allclose(b.classes["beta"], [1, 1 / 3])
    # enhanced: bound -ln q: a: ln 2 = 0.693 < 1 -> class 1 infinite; b, c: ln 4 = 1.386 > 1/3
    assert b.classes["enhanced_beta"].iloc[0] == math.inf and b.classes["enhanced_beta"].iloc[1] == pytest.approx(1 / 3)
    assert (b.max_beta, b.n_classes_above_beta, b.n_records_above_beta) == (1, 1, 2)
    # delta: class 1 = {a, a} has only a: |ln(1 / .5)| = ln 2 over its values (pyCANON's
    # definition, the default), log2(2) = 1 in ARX's, infinite over the file's values (b, c absent)
    d = sdc.delta_disclosure(df, ["k"], "s", delta=1)
    assert d.variant == "present" and d.classes["delta"].iloc[0] == pytest.approx(math.log(2))
    assert sdc.delta_disclosure(df, ["k"], "s", variant="arx").classes["delta"].iloc[0] == 1.0
    assert sdc.delta_disclosure(df, ["k"], "s", variant="all").classes["delta"].iloc[0] == math.inf
    assert d.classes["delta"].iloc[1] == pytest.approx(max(abs(math.log((1 / 3) / .5)), math.log((1 / 3) / .25)))
    assert (d.n_classes_above_delta, d.max_delta) == (0, pytest.approx(math.log(2)))
    arx = sdc.delta_disclosure(df, ["k"], "s", delta=1, variant="arx")
    assert arx.n_classes_above_delta == 1  # ARX: a class passes when delta < the bound; log2 2 = 1 does not
    with pytest.raises(ValueError, match="variant"):
        sdc.delta_disclosure(df, ["k"], "s", variant="log2")


@st.composite
def closeness_case(draw):
    df, keys, _ = draw(microdata(weights=False, max_keys=3))
    n = len(df)
    vals = draw(st.lists(st.sampled_from([1.0, 2.5, 4.0, 7.0, np.nan]), min_size=n, max_size=n))
    if all(np.isnan(v) for v in vals):
        vals[0] = 2.5
    return df.assign(s=pd.Series(vals, index=df.index)), keys


@settings(max_examples=scale.examples(120))
@given(closeness_case(), st.booleans())
def test_measures_match_brute_force(case, sparse):
    """Both ways of working: dense blocks of classes x values, and the occurring cells only
    (`sparse`, used when classes x values is large)."""
    import sdc.attribute.closeness as cl

    old = cl._DENSE_CELLS
    cl._DENSE_CELLS = -1 if sparse else old
    try:
        _match_brute_force(*case)
    finally:
        cl._DENSE_CELLS = old


def _match_brute_force(df, keys):
    ref = brute.closeness(df, keys, "s")
    got = {d: sdc.t_closeness(df, keys, "s", distance=d).classes["distance"].to_numpy()
           for d in ("ordered", "equal", "wasserstein")}
    beta = sdc.beta_likeness(df, keys, "s").classes
    dlt = sdc.delta_disclosure(df, keys, "s", variant="all").classes["delta"].to_numpy()
    present = sdc.delta_disclosure(df, keys, "s").classes["delta"].to_numpy()
    for g, (members, p, q, order) in enumerate(ref):
        if p is None:
            assert np.isnan(got["ordered"][g]) and np.isnan(dlt[g])
            continue
        assert got["ordered"][g] == pytest.approx(brute.emd_ordered(p, q, order), abs=1e-12)
        assert got["equal"][g] == pytest.approx(brute.tvd(p, q), abs=1e-12)
        obs = [v for v in df["s"].iloc[members] if not np.isnan(v)]
        assert got["wasserstein"][g] == pytest.approx(wasserstein_distance(obs, df["s"].dropna()), abs=1e-9)
        assert beta["beta"].iloc[g] == pytest.approx(brute.beta_basic(p, q), abs=1e-12)
        assert beta["enhanced_beta"].iloc[g] == pytest.approx(brute.beta_enhanced(p, q), abs=1e-12)
        assert dlt[g] == pytest.approx(brute.delta(p, q), abs=1e-12)
        assert present[g] == pytest.approx(brute.delta(p, q, values="present"), abs=1e-12)


@settings(max_examples=scale.examples(60))
@given(closeness_case(), st.randoms(use_true_random=False))
def test_invariant_to_row_order_and_bounded(case, rnd):
    df, keys = case
    r = sdc.t_closeness(df, keys, "s")
    perm = list(range(len(df)))
    rnd.shuffle(perm)
    p = sdc.t_closeness(df.iloc[perm], keys, "s")
    assert_allclose(p.records.loc[df.index], r.records, rtol=1e-12)
    d = r.records.dropna()
    assert ((d >= -1e-15) & (d <= 1 + 1e-12)).all()


def test_many_classes_in_blocks():
    # more classes than one dense block holds, to exercise the block loop
    import sdc.attribute.closeness as cl

    rng = np.random.default_rng(3)
    df = pd.DataFrame({"k": rng.integers(0, 5000, size=20000), "s": rng.integers(0, 7, size=20000)})
    old = cl._BLOCK_CELLS
    cl._BLOCK_CELLS = 1000
    try:
        small = sdc.t_closeness(df, ["k"], "s").records
    finally:
        cl._BLOCK_CELLS = old
    assert_allclose(small, sdc.t_closeness(df, ["k"], "s").records, rtol=1e-12)


def test_many_classes_and_values_cost_the_records_not_their_product():
    """A key with a different value in every record and a numeric sensitive variable with
    nearly as many values: the dense way built classes x values (and values x values for the
    one-record classes): 3.2 GB for 20,000 records, and `sdc assess` on 10^5 such records
    did not finish. The cells' way holds a few arrays of the records' length."""
    import tracemalloc

    n = 20_000
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"key": rng.permutation(n), "inc": rng.integers(0, n, n).astype(float)})
    tracemalloc.start()
    try:
        res = {d: sdc.t_closeness(df, ["key"], "inc", distance=d) for d in ("ordered", "equal", "wasserstein")}
        beta = sdc.beta_likeness(df, ["key"], "inc")
        delta = sdc.delta_disclosure(df, ["key"], "inc")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    # every class is one record: its distance is that of the one value's point mass
    q = df["inc"].value_counts(normalize=True).sort_index()
    cq = q.cumsum().to_numpy()[:-1]
    m = q.size
    v = np.searchsorted(q.index.to_numpy(), df["inc"].to_numpy())  # each record's value rank
    gaps = np.diff(q.index.to_numpy())
    # e_v against Q: sum over the gaps i < v of w_i F_Q(i), plus over i >= v of w_i (1 - F_Q(i))
    fq = np.concatenate([[0.0], np.cumsum(cq)])                # prefix sums over the gaps
    wfq = np.concatenate([[0.0], np.cumsum(gaps * cq)])
    w = np.concatenate([[0.0], np.cumsum(gaps)])
    ordered = (fq[v] + (m - 1 - v) - (fq[-1] - fq[v])) / (m - 1)
    wasser = wfq[v] + (w[-1] - w[v]) - (wfq[-1] - wfq[v])
    assert_allclose(res["ordered"].records.to_numpy(), ordered, rtol=1e-9)
    assert_allclose(res["wasserstein"].records.to_numpy(), wasser, rtol=1e-9)
    assert_allclose(res["equal"].records.to_numpy(), 1 - q.to_numpy()[v], rtol=1e-12)
    qv = q.to_numpy()[v]
    # a one-record class holds its one value: |ln(1 / q_v)| over the values present (pyCANON's delta)
    assert_allclose(delta.records.to_numpy(), np.abs(np.log(1 / qv)), rtol=1e-12)
    assert_allclose(beta.records["inc_beta"].to_numpy(), (1 - qv) / qv, rtol=1e-12)
