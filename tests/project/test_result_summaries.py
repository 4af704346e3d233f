"""Every result has summary() (statistic, value, description), as the guide asks: the
frequencies, snapshots, beta-likeness, delta-disclosure and homogeneity results had none."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.attribute.inference import homogeneity

DF = pd.DataFrame({"sex": list("mmffffmm"), "region": list("aabbabab"), "dx": list("xxyyxyzz")})


def _row(frame: pd.DataFrame, stat: str) -> object:
    return frame.set_index("statistic").loc[stat, "value"]


def test_summaries_hold_the_results_own_figures() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = sdc.frequencies(DF, ["sex", "region"])
        snap = sdc.key_subset_snapshots(DF, ["sex", "region"])
        beta = sdc.beta_likeness(DF, ["sex", "region"], "dx", beta=0.5)
        delta = sdc.delta_disclosure(DF, ["sex", "region"], "dx", delta=1.0)
        hom = homogeneity(DF, ["sex", "region"], "dx")
    for r in (f, snap, beta, delta, hom):
        s = r.summary()
        assert list(s.columns) == ["statistic", "value", "description"] and len(s) >= 4
    # classes (m,a)=3 (f,b)=3 (f,a)=1 (m,b)=1, by hand
    assert _row(f.summary(), "n1") == 2 and _row(f.summary(), "n2") == 0 and _row(f.summary(), "n_patterns") == 4
    assert _row(beta.summary(), "max_beta") == beta.max_beta
    assert _row(delta.summary(), "n_records_above_delta") == delta.n_records_above_delta
    assert _row(delta.summary(), "pct_records_above_delta") == pytest.approx(100 * delta.n_records_above_delta / 8)
    top = snap.table.loc[snap.table["expected_reidentifications"].idxmax()]
    assert _row(snap.summary(), "riskiest_subset") == " + ".join(top["keys"])
    hom_classes = hom.classes[hom.classes["share"] == 1.0]
    assert _row(hom.summary(), "n_homogeneous_classes") == len(hom_classes)
    assert _row(hom.summary(), "n_records_homogeneous") == int(hom_classes["n_records"].sum())
    assert np.isfinite(_row(hom.summary(), "max_lift"))
