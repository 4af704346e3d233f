"""Native measures vs sdcMicro, live through r_bridge (marker ``sdcmicro``).

The comparisons are ``validation.compare`` (the same code that writes the published table):
golden datasets, sdcMicro's own datasets with their conventional keys, 300 seeded random
datasets, and snapshots. Counts agree exactly; risks to 1e-9 relative.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import sdc
from validation.cases import SDCMICRO_CASE_NAMES, golden_cases, random_case, sdcmicro_case
from validation.compare import compare_case

pytestmark = [pytest.mark.sdcmicro, pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")]

ALL = ("freqCalc", "measure_risk", "createSdcObj", "indivRisk_exact")
N_RANDOM = 300


def _assert_agree(diffs):
    bad = [d.explain() for d in diffs if not d.agree]
    assert not bad, "\n".join(bad)
    assert diffs, "nothing was compared"


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c.name)
def test_golden_datasets(case):
    _assert_agree(compare_case(case, ALL))


@pytest.mark.parametrize("name", SDCMICRO_CASE_NAMES)
def test_sdcmicro_datasets(name):
    _assert_agree(compare_case(sdcmicro_case(name), ALL))


@pytest.mark.parametrize("seed", range(2026, 2026 + N_RANDOM))
def test_random_datasets(seed):
    _assert_agree(compare_case(random_case(seed), ALL))


def test_snapshots_on_testdata():
    _assert_agree(compare_case(sdcmicro_case("testdata/5 keys/w"), ("snapshots",)))


# Golden values of the reference build (section 9.7), asserted on the native side too.
def test_testdata_golden_values():
    c = sdcmicro_case("testdata/5 keys")
    r = sdc.individual_risk(c.data, c.keys)
    assert r.expected_reidentifications == pytest.approx(93, rel=1e-12)
    assert r.global_risk == pytest.approx(0.0203056768558952, rel=1e-12)
    assert r.global_threshold == pytest.approx(0.032258064516129, rel=1e-12)
    assert r.n_higher_risk() == 165
    assert (r.risk.iloc[0], r.sample_frequency.iloc[0]) == (pytest.approx(1 / 359), 359)
    w = sdc.individual_risk(c.data, c.keys, weights="sampling_weight")
    assert w.expected_reidentifications == pytest.approx(1.52720448852391, rel=1e-12)
    assert w.global_risk == pytest.approx(0.000333450761686443, rel=1e-12)
    assert math.isnan(w.global_threshold)
    assert w.threshold_for(1e-4) == pytest.approx(0.000270197243988111, rel=1e-12)
    assert w.risk.iloc[0] == pytest.approx(2.79321806653445e-05, rel=1e-12)
    assert w.n_higher_risk() == 0


def test_testdata_seven_keys_golden_values():
    c = sdcmicro_case("testdata/7 keys/w")
    r = sdc.individual_risk(c.data, c.keys, weights="sampling_weight")
    assert r.expected_reidentifications == pytest.approx(10.7782989187348, rel=1e-12)
    assert r.global_risk == pytest.approx(0.00235334037526961, rel=1e-12)
    p = sdc.k_anonymity(c.data, c.keys)
    assert (p.n_below(2), p.n_below(3), p.n_below(5)) == (157, 281, 458)
    u = sdc.individual_risk(c.data, c.keys)
    assert u.expected_reidentifications == pytest.approx(412, rel=1e-12)
    assert u.global_threshold == pytest.approx(0.0106382978723404, rel=1e-12)


def test_testdata2_and_free1_golden_values():
    c = sdcmicro_case("testdata2/7 keys/w")
    r = sdc.individual_risk(c.data, c.keys, weights="sampling_weight")
    assert r.expected_reidentifications == pytest.approx(4.32606896259487, rel=1e-12)
    assert r.global_threshold == 0
    assert sdc.k_anonymity(c.data, c.keys).n_below(2) == 93
    f = sdcmicro_case("free1/3 keys/w")
    fr = sdc.frequencies(f.data, f.keys, weights="WEIGHT")
    assert (fr.n1, fr.n2) == (2664, 788)
    r = sdc.individual_risk(f.data, f.keys, weights="WEIGHT")
    assert r.expected_reidentifications == pytest.approx(68.7528941826956, rel=1e-12)
    assert r.max_risk == pytest.approx(0.0422983833576162, rel=1e-12)
    assert r.global_threshold == pytest.approx(0.00857387302276082, rel=1e-12)
    f5 = sdcmicro_case("free1/5 keys/w")
    r5 = sdc.individual_risk(f5.data, f5.keys, weights="WEIGHT")
    assert r5.expected_reidentifications == pytest.approx(82.584576044263, rel=1e-12)
    assert sdc.k_anonymity(f5.data, f5.keys).n_below(2) == 3162


def test_francdat_golden_values():
    c = sdcmicro_case("francdat/4 keys/w")
    r = sdc.individual_risk(c.data, c.keys, weights="w")
    assert r.sample_frequency.tolist() == [2, 2, 2, 1, 1, 1, 1, 2]
    assert r.population_frequency.tolist() == [110, 84.5, 84.5, 17, 541, 8, 5, 110]
    np.testing.assert_allclose(r.risk, [0.0171442615962852, 0.0220423261832562, 0.0220423261832562,
                                        0.1770758340035135, 0.0116544801460120, 0.2970630773828337,
                                        0.4023594781085251, 0.0171442615962852], rtol=1e-12)
    assert r.expected_reidentifications == pytest.approx(0.966526045199967, rel=1e-12)
    assert r.global_threshold == 0
    assert sdc.individual_risk(c.data, c.keys).expected_reidentifications == 6
