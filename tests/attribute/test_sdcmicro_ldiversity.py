"""l-diversity vs sdcMicro's ldiversity, live (marker ``sdcmicro``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy.testing import assert_allclose

import sdc
from validation.cases import TESTDATA_KEYS5, random_ldiversity_case, sdcmicro_case
from validation.compare import compare_ldiversity

pytestmark = [pytest.mark.sdcmicro, pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")]


def _agree(diffs):
    bad = [d.explain() for d in diffs if not d.agree]
    assert diffs and not bad, "\n".join(bad)


@pytest.mark.parametrize("sensitive", [("electcon",), ("electcon", "relat")])
@pytest.mark.parametrize("c", [1.0, 2.0, 3.0])
def test_testdata(sensitive, c):
    case = sdcmicro_case("testdata/5 keys")
    _agree(compare_ldiversity(replace(case, sensitive=sensitive), c=c))


def test_testdata_golden_values():
    # reference 3.3 (sdcMicro build), asserted on the native side
    td = sdcmicro_case("testdata/5 keys").data
    r = sdc.l_diversity(td, list(TESTDATA_KEYS5), ["electcon", "relat"], mode="sdcmicro").records
    assert r["electcon_Distinct_Ldiversity"].sum() == 10875
    assert r["electcon_Entropy_Ldiversity"].sum() == pytest.approx(7846.27822224488, rel=1e-12)
    assert r["electcon_Recursive_Ldiversity"].sum() == 6110
    assert r["relat_Distinct_Ldiversity"].sum() == 25300
    assert r["relat_Entropy_Ldiversity"].sum() == pytest.approx(11796.16431517359, rel=1e-12)
    assert r["relat_Recursive_Ldiversity"].sum() == 9098
    assert r["electcon_Distinct_Ldiversity"].value_counts().sort_index().tolist() == [579, 1707, 2294]
    assert_allclose(r["electcon_Entropy_Ldiversity"].iloc[:6],
                    [1.76542410380607, 1.85534452383833, 1.76542410380607, 1.76542410380607, 1.17252475522602,
                     1.13083579321307], rtol=1e-12)
    for c, table in [(1, [4231, 341, 8]), (2, [122, 4406, 44, 8]), (3, [38, 4407, 99, 36])]:
        rec = sdc.l_diversity(td, list(TESTDATA_KEYS5), "relat", c=c, mode="sdcmicro").records
        assert rec["relat_Recursive_Ldiversity"].value_counts().sort_index().tolist() == table


@pytest.mark.breadth
@pytest.mark.parametrize("seed", range(4052, 4052 + 300))
def test_random_datasets(seed):
    _agree(compare_ldiversity(random_ldiversity_case(seed)))


def _with_missing_code(seed: int):
    # the random case with sdcMicro's missing code -999 recoded to -1, or None without it
    case = random_ldiversity_case(seed)
    d = case.data.copy()
    hit = False
    for s in case.sensitive:
        if d[s].dtype != object and (d[s] == -999).any():
            d[s] = d[s].replace(-999.0, -1.0)
            hit = True
    return replace(case, data=d) if hit else None


# The first 30 random cases whose sensitive variables carry the missing code.
MISSING_CODE_SEEDS = [s for s in range(4052, 4052 + 300) if _with_missing_code(s) is not None][:30]


@pytest.mark.breadth
@pytest.mark.parametrize("seed", MISSING_CODE_SEEDS)
def test_random_datasets_with_missing_code_minus_one(seed):
    # ldiversity(missing = -1) vs l_diversity(missing_value=-1): -1 is pooled as -999 is by default
    _agree(compare_ldiversity(_with_missing_code(seed), missing_value=-1))
