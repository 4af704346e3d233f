"""sdc.ai_utility_score against sdcMicro:::ai_utility_score, live through r_bridge (marker ``sdcmicro``):
the same two files, each made an sdcMicro object with the same key and numeric variables; to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

import r_bridge
import sdc

pytestmark = [pytest.mark.sdcmicro, pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")]

KEYS = ["sex", "region", "marital_status"]
NUM = ["bmi", "cholesterol"]


def _released(df, seed):
    rng = np.random.default_rng(seed)
    rel = df.copy()
    rel.loc[rel.index[rng.random(len(rel)) < 0.08], "region"] = None
    rel.loc[rel.index[rng.random(len(rel)) < 0.03], "sex"] = None
    rel["marital_status"] = rel["marital_status"].replace({"widowed": "married"})
    rel["bmi"] = rel["bmi"] + rng.normal(0, 1, len(rel))
    return rel


@pytest.mark.parametrize("seed, weights", [(1, (1 / 3, 1 / 3, 1 / 3)), (2, (0.5, 0.2, 0.3)), (3, (1.0, 2.0, 0.0))])
def test_equal_to_sdcmicro(seed, weights):
    df = sdc.load_example().head(400)
    rel = _released(df, seed)
    ours = sdc.ai_utility_score(df, rel, KEYS, NUM, weights=weights, mode="sdcmicro")
    theirs = r_bridge.ai_utility_score(df, rel, KEYS, NUM, weights)
    for name in ("total", "suppression_rate", "category_loss", "il1"):
        assert getattr(ours, name) == pytest.approx(theirs[name], rel=1e-12, abs=1e-15), name


def test_an_advised_release_equal_to_sdcmicro():
    df = sdc.load_example().head(300)
    rel = sdc.local_suppression(df, KEYS, k=3).data
    ours = sdc.ai_utility_score(df, rel, KEYS, NUM, mode="sdcmicro")
    theirs = r_bridge.ai_utility_score(df, rel, KEYS, NUM)
    assert ours.total > 0 and ours.total == pytest.approx(theirs["total"], rel=1e-12)
