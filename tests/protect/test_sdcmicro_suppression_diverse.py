"""k and l together by local suppression (cell mode), checked by sdcMicro (marker ``sdcmicro``).

On the random suppression cases of ``validation/crossval_suppression.py`` (missing key values,
strings, ties, importance, strata, alpha; a sensitive variable added from its own seed), the
release of ``local_suppression(..., sensitive=, l=)`` is k-anonymous by sdcMicro's own
``freqCalc`` (the wildcard reading, within each stratum) and distinct l-diverse by
sdcMicro's ``ldiversity`` (on the keys and the stratum). sdcMicro's ``localSuppression`` has
no l; for k alone the cell-for-cell agreement is ``tests/protect/test_sdcmicro_suppression.py``'s.
"""

from __future__ import annotations

import numpy as np
import pytest

from sdc.protect.suppression import local_suppression
from validation.crossval_suppression import random_suppression_case

pytestmark = [pytest.mark.sdcmicro, pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")]

N_RANDOM = 40


def _with_sensitive(seed: int):
    case = random_suppression_case(seed)
    rng = np.random.default_rng(seed + 20_000)
    df = case.data.assign(dx=rng.choice(["none", "flu", "asthma", "hiv"], len(case.data), p=[0.6, 0.2, 0.15, 0.05]))
    return case, df


@pytest.mark.parametrize("l", [2, 3])
def test_release_meets_k_and_l_by_sdcmicro(l):
    import r_bridge

    checked = 0
    for seed in range(N_RANDOM):
        case, df = _with_sensitive(seed)
        if case.combs is not None:
            continue
        res = local_suppression(df, list(case.keys), k=case.k, importance=case.importance, strata=case.strata,
                                alpha=case.alpha, sensitive="dx", l=l)
        out = res.data
        parts = [out] if case.strata is None else [g for _, g in out.groupby(case.strata, dropna=False)]
        for part in parts:
            if len(part) == 0:
                continue
            fk = r_bridge.freq_calc(part, list(case.keys), alpha=case.alpha).fk.to_numpy()
            assert (fk >= case.k).all(), case.name
        if len(out):
            keys = list(case.keys) + ([case.strata] if case.strata else [])
            ld = r_bridge.ldiversity(out, keys, "dx")
            assert (ld["dx_Distinct_Ldiversity"].to_numpy() >= l).all(), case.name
        checked += 1
    assert checked >= 25
