"""Plain-dict (JSON-ready) views of results: the CLI's ``--json`` output and report data.

The conversion is :mod:`sdc._json`; the measures' JSON objects are declared with their entries
(:mod:`sdc.workflow.documents`, named in :mod:`sdc.workflow.registry`). This module gives
the report and the command line both under one name.
"""

from __future__ import annotations

from sdc._json import dumps, frame_records, jsonable
from sdc.workflow.documents import (
    attacker_models, household_fields, inference_records, intervals_document, ldiversity_summary, modrisk_summary,
    risk_summary, snapshot_records, snapshot_table, suda_summary, tcloseness_summaries, tcloseness_summary,
    uniqueness_summary, uniqueness_with_attacker,
)

__all__ = [
    "jsonable", "dumps", "risk_summary", "snapshot_records", "snapshot_table", "frame_records", "ldiversity_summary",
    "tcloseness_summary", "tcloseness_summaries", "inference_records", "household_fields", "suda_summary",
    "modrisk_summary", "uniqueness_summary", "uniqueness_with_attacker", "attacker_models", "intervals_document",
]
