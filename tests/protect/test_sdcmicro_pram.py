"""pram vs sdcMicro: the matrix exactly from sdcMicro's own draws, the application by a test
with fixed seeds (marker ``sdcmicro``)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import r_bridge as rb
from sdc.protect.pram import pram_matrix
from validation.crossval_protect import pram_diffs

pytestmark = pytest.mark.sdcmicro


def test_datasets_and_100_random_cases():
    diffs = pram_diffs(100)
    bad = [d.explain() for d in diffs if not d.agree]
    assert not bad, "\n".join(bad[:20])
    exact = [d for d in diffs if d.measure.startswith("pram: transition matrix") and d.dataset == "random"]
    assert len(exact) == 100
    assert any(d.measure.startswith("pram(strata): last stratum") for d in diffs)


def test_testdata_roof_matrix():
    td = rb.load_dataset("testdata")
    draws = rb.pram_draws(td["roof"], pd_=0.8, alpha=0.5, seed=5)
    counts = td["roof"].value_counts().sort_index().to_numpy()
    assert draws.levels == ["2", "4", "5", "6", "9"]
    assert ((draws.diagonal >= 0.8) & (draws.diagonal <= 1)).all()
    assert_allclose(pram_matrix(counts, draws.diagonal, 0.5), draws.Rs.to_numpy(), rtol=1e-12, atol=1e-16)
    # sdcMicro divides the counts by the sum of the factor codes, not by n: the proportions differ,
    # the matrix does not (the constant cancels in Q).
    codes_sum = float((td["roof"].rank(method="dense")).sum())
    assert_allclose(pram_matrix(counts / codes_sum, draws.diagonal, 0.5), draws.Rs.to_numpy(), rtol=1e-12)
    assert np.isclose(draws.Rs.to_numpy().sum(axis=1), 1).all()
