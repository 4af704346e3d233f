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
from sdc.report.content import Report
from sdc.report import serialize
from sdc.report.serialize import frame_records, inference_records, jsonable, risk_summary
from sdc.workflow.registry import SCENARIO_MEASURES, ScenarioMeasure

__all__ = ["SCHEMA_VERSION", "report_document", "render_json"]

SCHEMA_VERSION = 1


def report_document(report: Report, files: dict[str, str]) -> dict[str, Any]:
    """The report as one JSON-ready object."""
    a = report.assessment
    prov = {k: v for k, v in a.provenance.items() if k != "generated_utc"}
    scenarios = []
    for r in a.scenarios:
        doc: dict[str, Any] = {"name": r.scenario.name, "keys": list(r.scenario.keys),
                               "risk": risk_summary(r.profile, r.risk),
                               "intervals": {k: iv.to_dict() for k, iv in r.intervals.items()}}
        for m in SCENARIO_MEASURES:
            value = _measure_json(m, r)
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
        "inference": {s: inference_records(inf) for s, inf in a.inference.items()},
        "tables": tables,
        "files": files,
        "notes": [p for s in report.sections if s.key == "notes" for p in s.paragraphs],
    })


def _measure_json(m: ScenarioMeasure, r: Any) -> Any:
    """A registered measure's JSON object in a scenario (None: it has none there)."""
    if m.json is None:
        return None
    args = m.json_of(r) if m.json_of is not None else (m.result(r),)
    if all(x is None for x in args):
        return None
    if m.json == "summary":
        s = args[0].summary()
        if hasattr(s, "columns") and {"statistic", "value"} <= set(s.columns):
            return jsonable(dict(zip(s["statistic"], s["value"])))
        return jsonable(s)
    return getattr(serialize, m.json)(*args)


def render_json(report: Report, files: dict[str, str]) -> str:
    return json.dumps(report_document(report, files), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
