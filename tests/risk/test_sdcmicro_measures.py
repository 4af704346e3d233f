"""Native measures vs sdcMicro, live through r_bridge (marker ``sdcmicro``).

The comparisons are ``validation.compare`` (the same code that writes the published table):
golden datasets, sdcMicro's own datasets with their conventional keys, 300 seeded random
datasets, and snapshots. Counts agree exactly; risks to 1e-9 relative.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import r_bridge
import sdc
from validation.cases import SDCMICRO_CASE_NAMES, golden_cases, random_case, sdcmicro_case
from validation.compare import RTOL, compare_case, compare_values

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


@pytest.mark.breadth
@pytest.mark.parametrize("seed", range(2026, 2026 + N_RANDOM))
def test_random_datasets(seed):
    _assert_agree(compare_case(random_case(seed), ALL))


def test_snapshots_on_testdata():
    _assert_agree(compare_case(sdcmicro_case("testdata/5 keys/w"), ("snapshots",)))


def test_exact_risk_on_testdata():
    # compare_indiv_risk_exact skips a case whose largest class exceeds 30 records, for time:
    # sdcMicro's exact formula is an R double loop, O(f^2) per record and so O(f^3) per class
    # (one class of 120 records: ~1 s; testdata's 7 keys, largest class 176: ~10 s). So
    # sdcMicro's testdata is compared here, once. fk <= 10 (801 records) is the documented
    # range, to 1e-9; on testdata sdcMicro's formula stays accurate for larger classes too
    # (max rel. 1.1e-14), except the class of 176 records, where it overflows to NaN
    # (docs/sdcmicro-differences.md row 4) and sdc stays finite.
    c = sdcmicro_case("testdata/7 keys/w")
    ours = sdc.individual_risk(c.data, c.keys, weights=c.weights, method="exact")
    r = r_bridge.indiv_risk(c.data, c.keys, w=c.weights, method="exact")
    fk, rk = r["fk"].to_numpy(), r["rk"].to_numpy()
    assert int(ours.sample_frequency.max()) > 30  # the case the shared comparison skips
    np.testing.assert_array_equal(ours.sample_frequency.to_numpy(), fk)
    small = fk <= 10
    assert small.sum() == 801
    _assert_agree([compare_values("indivRisk(exact): rk, fk <= 10", c.name, c.dataset, ours.risk[small], rk[small],
                                  rtol=RTOL)])
    finite = np.isfinite(rk)
    _assert_agree([compare_values("indivRisk(exact): rk, fk > 10 where sdcMicro is finite", c.name, c.dataset,
                                  ours.risk[~small & finite], rk[~small & finite], rtol=RTOL)])
    assert np.isfinite(ours.risk).all()
    assert (~finite).sum() == 0 or fk[~finite].min() > 150


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


def _alpha_below_one_with_missing_keys(seed: int) -> bool:
    c = random_case(seed)
    return c.alpha < 1 and len(c.keys) >= 2 and c.has_missing_keys


# The first 40 random cases with alpha < 1 (0.5, 0.25 or 0), two or more keys and missing key
# values (71 of the 300 qualify; all agreed when this was written).
ALPHA_NA_SEEDS = [s for s in range(2026, 2026 + N_RANDOM) if _alpha_below_one_with_missing_keys(s)][:40]


@pytest.mark.breadth
@pytest.mark.parametrize("seed", ALPHA_NA_SEEDS)
def test_snapshots_with_alpha_below_one_and_missing_keys(seed):
    # Every key subset vs createSdcObj(keyVars = subset, weightVar, alpha) (measure_risk takes no
    # alpha): expected re-identifications, uniques, fk < 2, 3, 5 and the smallest fk.
    c = random_case(seed)
    snaps = {t: sdc.key_subset_snapshots(c.data, list(c.keys), weights=c.weights, alpha=c.alpha, threshold=t).table
             for t in (2, 3, 5)}
    ours = {"er": [], "unique": [], "lt": [], "min": []}
    theirs = {"er": [], "unique": [], "lt": [], "min": []}
    for i, row in enumerate(snaps[2].itertuples(index=False)):
        r = r_bridge.create_sdc_obj(c.data, list(row.keys), weightVar=c.weights, alpha=c.alpha)
        fk = r.individual["fk"].to_numpy(dtype=float)
        ours["er"].append(row.expected_reidentifications)
        theirs["er"].append(r.global_["risk_ER"])
        ours["unique"].append(row.n_unique)
        theirs["unique"].append(int((fk == 1).sum()))
        ours["lt"] += [snaps[t]["n_k_lt_threshold"].iloc[i] for t in (2, 3, 5)]
        theirs["lt"] += [r.kanon["fk_lt_2"], r.kanon["fk_lt_3"], r.kanon["fk_lt_5"]]
        ours["min"].append(row.min_k)
        theirs["min"].append(fk.min())
    _assert_agree([
        compare_values("snapshots (alpha < 1): expected re-identifications", c.name, c.dataset, ours["er"],
                       theirs["er"], rtol=RTOL),
        compare_values("snapshots (alpha < 1): sample uniques", c.name, c.dataset, ours["unique"], theirs["unique"],
                       rtol=None),
        compare_values("snapshots (alpha < 1): fk < 2, 3, 5", c.name, c.dataset, ours["lt"], theirs["lt"], rtol=None),
        compare_values("snapshots (alpha < 1): smallest fk", c.name, c.dataset, ours["min"], theirs["min"], rtol=1e-12),
    ])
