"""The comparison report's utility section (sdc.report.compare): the combined score (ai_score)
has its reading beside its siblings'."""

from __future__ import annotations

import pandas as pd
import pytest

from sdc.report.compare import comparison_files
from sdc.workflow.compare import compare
from sdc.workflow.config import from_mapping

ORIG = pd.DataFrame({"id": ["r1", "r2", "r3", "r4", "r5", "r6"], "sex": ["m", "m", "f", "f", "f", "m"],
                     "region": ["a", "a", "a", "b", "b", "b"]})


def test_the_combined_score_is_read_in_the_utility_note() -> None:
    cfg = from_mapping({"data": {"path": "x.csv", "id": "id"}, "variables": {"categorical_keys": ["sex", "region"]},
                        "options": {"measures": ["k_anonymity"]}, "thresholds": {"k": 3}})
    c = compare(ORIG, ORIG.assign(region="x"), cfg)
    row = c.utility_table[c.utility_table["measure"] == "ai_score"].iloc[0]
    # by hand: category loss (0 for sex + (1 - 1/2) for region) / 2 keys = 0.25, weight 1/3; nothing suppressed
    assert row["value"] == pytest.approx(0.25 / 3, abs=1e-15)
    text = comparison_files(c, formats=["txt"])["summary.txt"]
    assert "Combined score (ai_score" in text and "lower is better" in text
