"""``method="mafast"`` (individual ranking, as sdcMicro's ``mafast``) against sdcMicro 5.8's
``mafast``, live (marker ``sdcmicro``): random files with ties, with and without a stratum,
cell for cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from tests import scale

pytestmark = pytest.mark.sdcmicro


def mafast_case(rng: np.random.Generator, i: int) -> tuple[pd.DataFrame, list[str], int, str | None]:
    """A random file with ties (lognormal values rounded), its variables, k and (every other
    case) a stratum `s`; validation/crossval_microaggr.py draws the same cases."""
    n, p = int(rng.integers(20, 300)), int(rng.integers(1, 4))
    vs = [f"v{j}" for j in range(p)]
    df = pd.DataFrame(rng.lognormal(3, 1, (n, p)).round(int(rng.integers(0, 3))), columns=vs)
    df["s"] = rng.integers(0, 2, n)
    return df, vs, int(rng.integers(2, 6)), "s" if i % 2 else None


def test_mafast_cell_for_cell() -> None:
    import r_bridge as rb

    rng = np.random.default_rng(20261206)
    for i in range(scale.cases(10)):
        df, vs, k, by = mafast_case(rng, i)
        theirs = rb.mafast(df, vs, by=by, aggr=k).to_numpy()
        r = sdc.microaggregation(df, vs, k=k, method="mafast", strata=by)
        np.testing.assert_allclose(r.data[vs].to_numpy(), theirs, rtol=1e-12, atol=0)
        assert r.parameters["method"] == "onedims"
