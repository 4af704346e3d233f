"""Model-based (log-linear) risk: golden values of sdcMicro's tests, grid, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")


@pytest.fixture
def data_a():
    # test_modRisks.R data A (set.seed(123)), reference section 9.6
    return pd.DataFrame({
        "Var1": pd.Categorical.from_codes(np.array([2, 3, 2, 3, 3, 1, 2, 3, 2, 2]) - 1, ["A", "B", "C"]),
        "Var2": pd.Categorical([2, 1, 2, 2, 1, 2, 1, 1, 1, 2]),
        "Var3": pd.Categorical([5, 4, 4, 5, 4, 4, 3, 3, 2, 2]),
        "weights": [100.0] * 10,
    })


GOLDEN = {  # method: (gr1, gr2) at bound inf, (gr1, gr2) at bound 1.5
    "default": ((0.552915951536258, 0.705384209241336), (0.62203044547829, 0.793557235396503)),
    "CE": ((0.541680157934481, 0.698679733343123), (0.609390177676291, 0.786014700011013)),
    "PML": ((0.552915951536258, 0.705384209241336), (0.62203044547829, 0.793557235396503)),
    "weightedLLM": ((0.407966313196016, 0.613254425550644), (0.458962102345518, 0.689911228744475)),
    "IPF": ((0.552915951691099, 0.705384209341346), (0.622030445652486, 0.793557235509014)),
}


@pytest.mark.parametrize("method", GOLDEN)
def test_golden_values(data_a, method):
    for bound, want in zip((np.inf, 1.5), GOLDEN[method]):
        r = sdc.model_risk(data_a, weights="weights", method=method, formula="~Var1+Var2+Var3", bound=bound)
        assert (r.gr1, r.gr2) == pytest.approx(want, rel=1e-8)
        assert r.gr1perc == pytest.approx(100 * r.gr1)


def test_fitted_grid_default(data_a):
    r = sdc.model_risk(data_a, ["Var1", "Var2", "Var3"], weights="weights")
    cells = r.cells
    assert len(cells) == 24 and cells["counts"].sum() == 10
    # sorted by Var1, Var2, Var3: the default model's fitted values (reference 9.6)
    want = [0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.2, 0.1, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1, 0.5, 0.4, 0.4, 0.8, 0.4, 0.4, 0.4,
            0.8, 0.4]
    assert cells["fitted"].to_numpy() == pytest.approx(want, rel=1e-6)
    assert r.n_cells_kept == 9 and r.converged


def test_numeric_keys_are_linear_terms_except_in_ipf():
    # testdata2-like: integer keys enter glm as covariates, IPF as factors
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"a": rng.integers(1, 9, 40), "b": rng.integers(1, 5, 40), "w": rng.uniform(5, 50, 40)})
    num = sdc.model_risk(df, ["a", "b"], weights="w")
    cat = sdc.model_risk(df.astype({"a": str, "b": str}), ["a", "b"], weights="w")
    ipf_num = sdc.model_risk(df, ["a", "b"], weights="w", method="IPF")
    assert (num.cells["counts"] == 1).any()
    assert num.gr1 != pytest.approx(cat.gr1, rel=1e-6)
    # main effects on factors: the glm's MLE is the IPF (independence) fit
    assert ipf_num.gr1 == pytest.approx(cat.gr1, rel=1e-6)
    assert ipf_num.cells["fitted"].to_numpy() == pytest.approx(cat.cells["fitted"].to_numpy(), rel=1e-6)


def test_without_weights_warns_and_gives_v_zero():
    df = pd.DataFrame({"a": ["x", "x", "y", "z"], "b": ["p", "q", "p", "p"]})
    with pytest.warns(sdc.SdcWarning, match="weights are taken as 1"):
        r = sdc.model_risk(df, ["a", "b"])
    assert np.isnan(r.gr2) or r.gr2 >= 0


def test_errors(data_a):
    with pytest.raises(ValueError, match="cannot fit models with interactions"):
        sdc.model_risk(data_a, weights="weights", method="IPF", formula="~Var1*Var2")
    with pytest.raises(ValueError, match="`method` must be one of"):
        sdc.model_risk(data_a, ["Var1"], weights="weights", method="Poisson")
    with pytest.raises(ValueError, match="give `keys` or `formula`"):
        sdc.model_risk(data_a, weights="weights")
    with pytest.raises(ValueError, match=r"`bound` must lie in \(0, inf\]"):
        sdc.model_risk(data_a, ["Var1"], weights="weights", bound=0)
    with pytest.raises(ValueError, match="did you mean 'Var1'"):
        sdc.model_risk(data_a, weights="weights", formula="~ Var11 + Var2")
    big = pd.DataFrame({f"k{i}": np.arange(200) for i in range(4)})
    with pytest.raises(ValueError, match="too many for a log-linear model"):
        sdc.model_risk(big, list(big.columns))
