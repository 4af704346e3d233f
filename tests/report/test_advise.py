"""The printed advice (sdc.report.advise.advice_text): the rows left out are said, and with no
plan kept, why the nearest one is not."""

from __future__ import annotations

import pytest

import sdc
from sdc.report.advise import advice_text
from sdc.workflow.advise import advise

CONFIG = {"variables": {"categorical_keys": ["sex", "region"], "continuous_keys": ["age"]},
          "thresholds": {"k": 3, "risk": 0.01}, "options": {"measures": ["k_anonymity", "risk"]}}


@pytest.fixture(scope="module")
def none_kept():
    return advise(sdc.load_example().head(150), CONFIG, max_candidates=2, compare_best=False)


def test_none_kept_names_the_nearest_plan_s_failing_verdicts(none_kept):
    text = advice_text(none_kept)
    first = none_kept.table.iloc[0]
    last = text.splitlines()[-1]
    assert last.startswith(f"The nearest plan, candidate {first['candidate']}, fails: ")
    assert str(first["failing"]).split("; ")[0] in last
    assert "(the first" not in text  # every row shown


def test_rows_left_out_are_said(none_kept):
    text = advice_text(none_kept, rows=1)
    assert "(the first 1 of 2 rows; every row, with its failing verdicts, in advice.csv)" in text
