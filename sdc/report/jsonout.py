"""``report.json``: everything in the report, machine-readable, with a schema version.

Layout (schema 1; documented in docs/report.md)::

    {
      "schema_version": 1,
      "generator": "sdc <version>",
      "title": ...,
      "generated_utc": "YYYY-MM-DD HH:MM:SS UTC",   # the only line that changes between identical runs
      "provenance": {input files and SHA-256, command, config source, versions},
      "config": {the resolved run configuration},
      "verdicts": [{scenario, measure, statistic, value, threshold, verdict}, ...],
      "scenarios": [{name, keys, risk: {...}, household: {...}, ldiversity: {...}, ...}, ...],
      "inference": {sensitive: [findings]},
      "tables": {key: {section, title, note, columns, rows}},   # every table of the report
      "files": {file name: contents},
      "notes": [...]
    }

Numbers are unrounded; missing values and infinities are ``null``.
"""

from __future__ import annotations

import json
from typing import Any

from sdc._version import __version__
from sdc._json import frame_records, jsonable
from sdc.report.content import Report
from sdc.workflow.registry import ALL_MEASURES, FILE_MEASURES

__all__ = ["SCHEMA_VERSION", "report_document", "render_json"]

SCHEMA_VERSION = 1


def report_document(report: Report, files: dict[str, str]) -> dict[str, Any]:
    """The report as one JSON-ready object."""
    a = report.assessment
    if a is None:
        raise ValueError("report.json is the JSON of an assessment's report; this report has none.")
    prov = {k: v for k, v in a.provenance.items() if k != "generated_utc"}
    scenarios = []
    for r in a.scenarios:
        doc: dict[str, Any] = {"name": r.scenario.name, "keys": list(r.scenario.keys)}
        for m in ALL_MEASURES:  # each measure's JSON, as its entry declares it
            value = m.json_value(r)
            if value is not None:
                doc[m.field] = value
        scenarios.append(doc)
    tables = {}
    for s in report.sections:
        for t in s.tables:
            tables[t.key] = {"section": s.title, "title": t.title, "note": t.note,
                             "columns": [str(c) for c in t.frame.columns], "rows": frame_records(t.frame)}
    return jsonable({
        "schema_version": SCHEMA_VERSION,
        "generator": f"sdc {__version__}",
        "title": report.title,
        "generated_utc": report.generated,
        "provenance": prov,
        "config": a.config.to_dict(),
        "verdicts": [v.__dict__ for v in a.verdicts],
        "scenarios": scenarios,
        **{m.field: m.json(getattr(a, m.field)) for m in FILE_MEASURES
           if m.json is not None and getattr(a, m.field, None) is not None},
        "tables": tables,
        "files": files,
        "notes": [p for s in report.sections if s.key == "notes" for p in s.paragraphs],
    })


def render_json(report: Report, files: dict[str, str]) -> str:
    return json.dumps(report_document(report, files), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
