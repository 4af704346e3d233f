"""Eigenvalue similarity: hand values (two variables), properties, missing values, sdcMicro's matrix."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc._stats import summary_values
import sdc
from sdc.exceptions import DegenerateDataWarning
from sdc.utility.eigen import sdcmicro_eigen_matrix
from tests import scale


def _with_correlation(r: float, n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Two columns whose sample correlation is exactly r (Gram-Schmidt on centred noise)."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(2, n))
    a -= a.mean()
    b -= b.mean()
    b -= a * (a @ b) / (a @ a)
    a /= np.linalg.norm(a)
    b /= np.linalg.norm(b)
    return pd.DataFrame({"a": a, "b": r * a + math.sqrt(1 - r * r) * b})


def test_two_variables_hand_values():
    # correlation r gives eigenvalues 1 + |r|, 1 - |r|.
    orig, rel = _with_correlation(0.5), _with_correlation(0.2)
    r = sdc.eigen_similarity(orig, rel)
    assert r.eigenvalues["before"].tolist() == pytest.approx([1.5, 0.5], abs=1e-12)
    assert r.eigenvalues["after"].tolist() == pytest.approx([1.2, 0.8], abs=1e-12)
    assert r.percent == pytest.approx(100 * (1 - 0.6 / 2), abs=1e-10)
    assert r.sdcmicro_eigen == pytest.approx(0.3 / 1.5 + 0.3 / 0.5, abs=1e-10)
    assert r.correlation_difference.loc["a", "b"] == pytest.approx(-0.3, abs=1e-12)


def test_identical_data_is_100_percent_exactly():
    x = pd.DataFrame(np.random.default_rng(3).normal(size=(50, 4)), columns=list("abcd"))
    r = sdc.eigen_similarity(x, x.copy())
    assert r.percent == 100.0
    assert r.sdcmicro_eigen == 0.0
    assert summary_values(r.summary())["eigen_similarity_pct"] == 100.0
    assert list(r.to_frame().columns) == ["component", "before", "after", "abs_difference"]


def test_rescaling_a_variable_keeps_the_spectrum():
    x = pd.DataFrame(np.random.default_rng(4).normal(size=(60, 3)), columns=list("abc"))
    y = x.copy()
    y["a"] = 3 * y["a"] + 7
    assert sdc.eigen_similarity(x, y).percent == pytest.approx(100.0, abs=1e-10)


def test_destroyed_structure_lowers_the_figure_to_its_bound():
    # perfectly correlated columns (eigenvalues p, 0, ..., 0) released as independent ones:
    # eigenvalues near 1 each, so the similarity is near 100 (1 - 2 (p - 1) / p).
    rng = np.random.default_rng(5)
    z = rng.normal(size=5000)
    orig = pd.DataFrame({"a": z, "b": z, "c": z})
    rel = pd.DataFrame(rng.normal(size=(5000, 3)), columns=list("abc"))
    with pytest.warns(DegenerateDataWarning, match="singular"):
        r = sdc.eigen_similarity(orig, rel)
    assert r.percent == pytest.approx(100 * (1 - 2 * 2 / 3), abs=3)
    assert r.percent >= 100 * (1 - 2 * 2 / 3) - 1e-9


def test_missing_values_use_pairwise_complete_correlations():
    rng = np.random.default_rng(6)
    x = pd.DataFrame(rng.normal(size=(40, 3)), columns=list("abc"))
    x.iloc[::5, 0] = np.nan
    x.iloc[1::7, 2] = np.nan
    y = x + rng.normal(scale=0.3, size=x.shape)
    r = sdc.eigen_similarity(x, y)
    pd.testing.assert_frame_equal(r.correlation_before, x.corr())
    ev = np.sort(np.linalg.eigvalsh(x.corr().to_numpy()))[::-1]
    assert r.eigenvalues["before"].to_numpy() == pytest.approx(ev, rel=1e-12)


def test_sdcmicro_matrix_is_the_correlation_without_missing_values_and_differs_with():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(30, 3))
    assert sdcmicro_eigen_matrix(x) == pytest.approx(np.corrcoef(x, rowvar=False), abs=1e-12)
    x[::4, 1] = np.nan
    m = sdcmicro_eigen_matrix(x)
    assert np.diag(m) == pytest.approx(1.0, abs=1e-12)
    # off the diagonal: the pairwise covariance of columns scaled by their whole-column sd
    both = ~np.isnan(x[:, 1])
    z = (x - np.nanmean(x, axis=0)) / np.nanstd(x, axis=0, ddof=1)
    assert m[0, 1] == pytest.approx(np.cov(z[both, 0], z[both, 1])[0, 1], rel=1e-12)
    assert m[0, 1] != pytest.approx(np.corrcoef(x[both, 0], x[both, 1])[0, 1], rel=1e-6)


def test_constant_variable_gives_nan_with_a_warning():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [2.0, 1.0, 4.0, 3.0]})
    y = x.assign(b=5.0)
    with pytest.warns(DegenerateDataWarning, match="in `released`, variable 'b' is constant"):
        r = sdc.eigen_similarity(x, y)
    assert math.isnan(r.percent) and math.isnan(r.sdcmicro_eigen)


def test_default_variables_are_the_common_numeric_columns():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [3, 1, 2], "s": list("xyz")})
    assert sdc.eigen_similarity(x, x.copy()).variables == ("a", "b")
    with pytest.raises(ValueError, match="needs numeric columns; column 's' of `original` is "):
        sdc.eigen_similarity(x, x.copy(), ["a", "s"])
    with pytest.raises(ValueError, match="share no numeric column"):
        sdc.eigen_similarity(x[["s"]], x[["s"]].copy())


@st.composite
def numeric_frames(draw):
    n = draw(st.integers(5, 25))
    p = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, p)).round(1)
    y = x + rng.normal(scale=draw(st.sampled_from([0.0, 0.1, 1.0, 5.0])), size=x.shape)
    cols = [f"v{j}" for j in range(p)]
    return pd.DataFrame(x, columns=cols), pd.DataFrame(y, columns=cols)


@settings(max_examples=scale.examples(60))
@given(numeric_frames())
def test_similarity_is_at_most_100_and_symmetric_in_the_spectrum(pair):
    x, y = pair
    if (x.std() == 0).any() or (y.std() == 0).any():
        return
    r = sdc.eigen_similarity(x, y)
    assert r.percent <= 100.0 + 1e-9
    assert r.percent >= 100 * (1 - 2 * (x.shape[1] - 1) / x.shape[1]) - 1e-9
    # the sum of |differences| is symmetric and both traces are p
    back = sdc.eigen_similarity(y, x)
    assert back.percent == pytest.approx(r.percent, abs=1e-9)
    # reordering the variables changes nothing
    perm = list(reversed(x.columns))
    assert sdc.eigen_similarity(x, y, perm).percent == pytest.approx(r.percent, abs=1e-9)
