"""Issue 33: Pitman's likelihood sums its first term, sum_{i=1}^{u-1} log(theta + i alpha), in
closed form (a difference of lgamma values) from 4,096 classes on: the same value as the term by
term sum, on both sides of alpha = 0, and the same fits."""

from __future__ import annotations

import numpy as np
import pytest

from sdc.risk import uniqueness as U


def _lik(u: int) -> U._PitmanLikelihood:
    i = np.array([1, 2, 3, 7])
    c = np.array([u - 30, 20, 8, 2], dtype=float)
    return U._PitmanLikelihood(i, c, int((i * c).sum()), "arx")


@pytest.mark.parametrize("u", [5000, 200_000])
@pytest.mark.parametrize("theta, alpha", [(10.0, 0.5), (3000.0, 0.01), (0.2, 0.999), (1e5, 1e-3),
                                          (5e6, -1.0), (3e7, -7.0), (9e5, -0.01)])
def test_closed_form_is_the_sum(u, theta, alpha):
    lik = _lik(u)
    direct = float(np.log(theta + lik.iu * alpha).sum())
    if not np.isfinite(direct):
        pytest.skip("outside the space")
    assert lik._log_rising(theta, alpha) == pytest.approx(direct, rel=1e-12, abs=1e-6)


def test_the_fit_is_the_same(monkeypatch):
    rng = np.random.default_rng(8)
    p = rng.lognormal(0, 2, 300_000)  # skewed cells: an interior maximum (theta 9,794, alpha 0.452)
    f = np.bincount(rng.choice(p.size, 200_000, p=p / p.sum()))
    f = f[f > 0]
    i, c = np.unique(f, return_counts=True)
    for variant in ("paper", "arx"):
        closed = U.pitman_fit(i, c.astype(float), int(f.sum()), 12_000_000, variant)
        monkeypatch.setattr(U, "_CLOSED", 10**12)
        direct = U.pitman_fit(i, c.astype(float), int(f.sum()), 12_000_000, variant)
        monkeypatch.undo()
        assert closed.note == direct.note == "" and closed.estimate > 0
        np.testing.assert_allclose([closed.estimate, closed.theta, closed.alpha],
                                   [direct.estimate, direct.theta, direct.alpha], rtol=1e-8)
