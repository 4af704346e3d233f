"""addNoise vs sdcMicro: output from sdcMicro's own normal draws and the noise scale exactly,
the seeded noise by a test (marker ``sdcmicro``)."""

from __future__ import annotations

import pytest

from validation.crossval_protect import noise_diffs

pytestmark = pytest.mark.sdcmicro


def test_datasets_and_100_random_cases():
    diffs = noise_diffs(100)
    bad = [d.explain() for d in diffs if not d.agree]
    assert not bad, "\n".join(bad[:20])
    cases = {d.case for d in diffs if d.dataset == "random"}
    assert len(cases) >= 100
    assert {d.dataset for d in diffs} == {"testdata", "free1", "CASCrefmicrodata", "random"}
    assert any("additive): output" in d.measure for d in diffs)
    assert any("correlated2): output" in d.measure for d in diffs)
