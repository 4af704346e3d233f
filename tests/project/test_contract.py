"""Contract tests applied to every public measure: inputs unchanged, outputs aligned, order-free."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from tests.strategies import microdata

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")

# name -> (call, per-record Series extractor, scalar extractor)
MEASURES = {
    "frequencies": (lambda d, k, w: sdc.frequencies(d, k, weights=w, alpha=0.5),
                    lambda r: r.sample_frequency, lambda r: r.n1),
    "individual_risk": (lambda d, k, w: sdc.individual_risk(d, k, weights=w),
                        lambda r: r.risk, lambda r: r.expected_reidentifications),
    "k_anonymity": (lambda d, k, w: sdc.k_anonymity(d, k, weights=w, k=2),
                    lambda r: r.sample_frequency, lambda r: (r.n_unique, r.n_k_lt_threshold, r.median_k)),
    "key_subset_snapshots": (lambda d, k, w: sdc.key_subset_snapshots(d, k, weights=w),
                             None, lambda r: tuple(r.table["expected_reidentifications"].round(12))),
    # attribute disclosure: the weight column plays the sensitive variable
    "l_diversity": (lambda d, k, w: sdc.l_diversity(d, k, _sens(d, w)),
                    lambda r: r.records.iloc[:, 0], lambda r: tuple(r.by_sensitive.iloc[0, 1:].astype(float))),
    "t_closeness": (lambda d, k, w: sdc.t_closeness(d, k, _sens(d, w), distance="equal"),
                    lambda r: r.records, lambda r: (r.max_t, r.n_records_above_t)),
    "beta_likeness": (lambda d, k, w: sdc.beta_likeness(d, k, _sens(d, w)),
                      lambda r: r.records.iloc[:, 0], lambda r: r.max_beta),
    "delta_disclosure": (lambda d, k, w: sdc.delta_disclosure(d, k, _sens(d, w)),
                         lambda r: r.records, lambda r: r.max_delta),
    "suda": (lambda d, k, w: sdc.suda(d, k, mode="correct"), lambda r: r.score, lambda r: r.score_sum),
    "household_risk": (lambda d, k, w: sdc.household_risk(d.assign(hh=np.arange(len(d)) // 2), k, "hh", weights=w),
                       lambda r: r.risk, lambda r: r.expected_reidentifications),
    "attacker_risk": (lambda d, k, w: sdc.attacker_risk(d, k, weights=w), lambda r: r.records["journalist_risk"],
                      lambda r: (r.prosecutor_average_risk, r.marketer_risk)),
}


def _sens(d, w):  # noqa: ANN001, ANN202
    """The sensitive column for attribute measures: the weights, or a column added for it."""
    return w if w is not None else d.columns[0]


@pytest.mark.parametrize("name", MEASURES)
@settings(max_examples=25)
@given(case=microdata(max_keys=3), data=st.data())
def test_contract(name, case, data):
    call, per_record, scalar = MEASURES[name]
    df, keys, w = case
    if name in ("l_diversity", "t_closeness", "beta_likeness", "delta_disclosure"):
        if w is None:
            df = df.assign(s=np.arange(len(df)) % 3)
            df = df[["s"] + [c for c in df.columns if c != "s"]]
        keys = [k for k in keys if k != _sens(df, w)]
        if not keys:
            return
    before = df.copy(deep=True)
    res = call(df, keys, w)
    pd.testing.assert_frame_equal(df, before)  # never mutates the input
    if per_record is not None:
        s = per_record(res)
        assert s.index.equals(df.index)
        assert len(res.to_frame()) == len(df) and res.to_frame().index.equals(df.index)
    perm = data.draw(st.permutations(range(len(df))))
    shuffled = df.iloc[list(perm)]
    if name == "household_risk":  # households must follow their records, not their row positions
        res = sdc.household_risk(df.assign(hh=np.arange(len(df)) // 2), keys, "hh", weights=w)
        res2 = sdc.household_risk(shuffled.assign(hh=(np.arange(len(df)) // 2)[list(perm)]), keys, "hh", weights=w)
    else:
        res2 = call(shuffled, keys, w)
    if per_record is not None:
        np.testing.assert_allclose(per_record(res2).loc[df.index].to_numpy(dtype=float),
                                   per_record(res).to_numpy(dtype=float), rtol=1e-12)
    a, b = scalar(res), scalar(res2)
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12)


@pytest.mark.parametrize("name", MEASURES)
def test_results_are_frozen(name, toy):
    import dataclasses

    res = MEASURES[name][0](toy, ["age", "sex"], "w")  # w doubles as the sensitive variable
    first = dataclasses.fields(res)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(res, first, None)
