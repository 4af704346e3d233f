"""Singling out: anonymeter's estimator (successes / attacks asked) and the "found" one.

anonymeter (statice/anonymeter 0188bdf) divides the main, control and baseline successes by
``n_attacks``, the attacks asked, not by the queries it found in the synthetic file. Its
univariate queries are every value held once (and each numeric column's min and max): with
``n_attacks`` at least their number, every such query is tried and the outcome is fixed, so
anonymeter's numbers below (printed by its ``SinglingOutEvaluator`` on each pair, duplicates
dropped as it drops them) must be sdc's exactly. anonymeter's data files are not copied here:
point SDC_ANONYMETER_DATA at a folder with its tests/datasets/adults_{ori,syn}.csv and
notebooks/datasets/adults_{control,syn_ctgan}.csv.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sdc.attacks.anonymeter import split_control
from sdc.attacks.singling_out import singling_out_attack

DATA = Path(os.environ.get("SDC_ANONYMETER_DATA", "/work/shared/data/anonymeter"))
ADULT = Path(os.environ.get("SDC_ARX_ADULT", "/work/shared/data/arx-adult/adult.csv"))


def _read(*names: str) -> list[pd.DataFrame]:
    paths = [DATA / n for n in names]
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        pytest.skip(f"anonymeter's data {', '.join(missing)} not in {DATA} (set SDC_ANONYMETER_DATA)")
    return [pd.read_csv(p) for p in paths]


def _univariate(original: pd.DataFrame, released: pd.DataFrame, control: pd.DataFrame | None, n_attacks: int,
                estimator: str = "anonymeter"):
    dedup = (lambda f: None if f is None else f.drop_duplicates())  # noqa: E731  anonymeter drops duplicates
    return singling_out_attack(dedup(original), dedup(released), control=dedup(control), mode="univariate",
                               n_attacks=n_attacks, seed=0, estimator=estimator)


def test_equals_anonymeter_on_its_test_data() -> None:
    ori, syn = _read("adults_ori.csv", "adults_syn.csv")
    r = _univariate(ori, syn, None, 500)
    # anonymeter: 54 queries found, 18 single out an original record; risk 18 of 500 attacks
    assert r.parameters["n_queries_found"] == 54 and r.main.n_success == 18 and r.main.n_attacks == 500
    assert r.risk == 0.039537693974160244
    assert r.risk_ci == pytest.approx((0.022891060980292727, 0.05618432696802776), rel=1e-15)
    # the other estimator: 18 of the 54 queries found
    assert _univariate(ori, syn, None, 500, "found").risk == pytest.approx(0.3444022646818161, rel=1e-12)


def test_equals_anonymeter_on_its_notebook_data() -> None:
    # The notebook's synthetic adult file (CTGAN) attacked against its control file (the
    # notebook's training file is not in the repository snapshot); fnlwgt left out so that the
    # 1,329 candidate queries fit in n_attacks = 2000
    control, syn = _read("adults_control.csv", "adults_syn_ctgan.csv")
    cols = [c for c in syn.columns if c != "fnlwgt"]
    r = _univariate(control[cols], syn[cols], None, 2000)
    assert r.parameters["n_queries_found"] == 1329 and r.main.n_success == 3
    assert r.risk == 0.002455648069704588
    assert r.risk_ci == pytest.approx((0.0005102635836384823, 0.004401032555770693), rel=1e-15)


@pytest.fixture(scope="module")
def permuted() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    if not ADULT.exists():
        pytest.skip(f"ARX's adult.csv is not at {ADULT} (set SDC_ARX_ADULT)")
    df = pd.read_csv(ADULT, sep=";")
    df["age"] = df["age"].astype(int)
    train, control = split_control(df, share=0.5, seed=0)
    rng = np.random.default_rng(10)
    release = pd.DataFrame({c: rng.permutation(train[c].to_numpy()) for c in train.columns})
    return train, release, control.iloc[:len(train)]


def test_a_column_permuted_release_scores_about_zero(permuted) -> None:
    # Each column of the release is the training column shuffled: no record is kept, but every
    # value held once is still held once. anonymeter (same files, 500 attacks): 3 queries found,
    # all 3 single out a training record, none a control one: risk 0.005977039449086669.
    train, release, control = permuted
    r = _univariate(train, release, control, 500)
    assert (r.parameters["n_queries_found"], r.main.n_success, r.control.n_success) == (3, 3.0, 0.0)
    assert r.risk == 0.005977039449086669 and r.risk_ci[0] == 0.0
    # Before (successes / queries found): 3 of 3 against 0 of 3, a risk of 0.61
    found = _univariate(train, release, control, 500, "found")
    assert found.risk == pytest.approx(0.6096657120978347, rel=1e-12) and found.main.n_attacks == 3


def test_rates_divide_by_the_attacks_asked() -> None:
    # 4 released records, 2 of them unique on x: 2 univariate queries found (x == 1, x == 2;
    # min and max too), each singling out one original record
    orig = pd.DataFrame({"x": ["1", "2", "3", "3", "4", "4"]})
    rel = pd.DataFrame({"x": ["1", "2", "3", "3", "4", "4"]})
    a = singling_out_attack(orig, rel, mode="univariate", n_attacks=50, seed=0)
    f = singling_out_attack(orig, rel, mode="univariate", n_attacks=50, seed=0, estimator="found")
    assert a.parameters["n_queries_found"] == f.parameters["n_queries_found"] == 2
    assert (a.main.n_attacks, a.main.n_success, a.baseline.n_attacks) == (50, 2.0, 50)
    assert (f.main.n_attacks, f.main.n_success, f.baseline.n_attacks) == (2, 2.0, 2)
    z2 = 1.959963984540054 ** 2
    assert a.main.rate == pytest.approx((2 + z2 / 2) / (50 + z2), rel=1e-12)
    assert any("divide by the 50 asked" in n for n in a.notes)
    with pytest.raises(ValueError, match="estimator"):
        singling_out_attack(orig, rel, estimator="queries")
