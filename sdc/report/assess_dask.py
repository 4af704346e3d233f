"""The report folder of ``sdc assess --engine dask``.

    report.md      the verdicts, the measures not run on Dask (one line each: "not run on
                   Dask: <reason>"), then per scenario the k-anonymity and risk figures and
                   the tables of the snapshots, l-diversity and t-closeness (as in memory)
    report.json    the same as data: ``verdicts``, ``not_run``, per scenario the measures'
                   JSON objects (as in the in-memory report.json: ``scenarios`` a list of
                   objects with ``name``, ``keys``, ``risk``, ``snapshots``, ``ldiversity``,
                   ``tcloseness``), ``provenance``
    verdicts.csv   the verdict table

There are no per-record files or figures: the records stay on the cluster. All or nothing:
the folder is written by :func:`sdc.report.folder.write_folder` (a temporary folder beside
``--out``, renamed into place when complete).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from sdc.report.content import Report, Section, Table
from sdc.report.serialize import jsonable

__all__ = ["write_assessment_dask", "assessment_document", "assessment_report"]

_MARKER_TEXT = "This folder was written by sdc assess --engine dask; sdc replaces it whole on the next run.\n"


def _json_of(m: Any, res: Any) -> Any:
    return None if m.json is None else m.json(res)


def assessment_document(a: Any) -> dict[str, Any]:
    """report.json of a :class:`sdc.workflow.assess_dask.DaskAssessment`."""
    from sdc.report import serialize
    from sdc.workflow.registry import SCENARIO_MEASURES

    scenarios = []
    for r in a.scenarios:
        doc: dict[str, Any] = {"name": r.scenario.name, "keys": list(r.scenario.keys),
                               "risk": serialize.risk_summary(r.profile, r.risk)}
        for m in SCENARIO_MEASURES:
            res = m.result(r)
            if res is not None and m.json_of is None:
                obj = _json_of(m, res)
                if obj is not None:
                    doc[m.field] = obj
        scenarios.append(doc)
    return jsonable({
        "generated_utc": a.provenance.get("generated_utc", ""), "engine": "dask", "records": a.n_records, "partitions": a.partitions,
        "verdicts": serialize.frame_records(a.to_frame()),
        "not_run": dict(a.not_run), "not_computed": dict(a.skipped), "notes": list(a.notes),
        "scenarios": scenarios, "provenance": a.provenance,
    })


def _risk_rows(r: Any) -> pd.DataFrame:
    p, k = r.profile, r.profile.k
    rows = [("records", p.n_records), ("key patterns (classes)", p.n_classes), ("sample uniques", p.n_unique),
            (f"records in classes of fewer than {k} records", p.n_k_lt_threshold), ("smallest class", p.min_k),
            ("expected re-identifications", r.risk.expected_reidentifications),
            ("global risk", r.risk.global_risk), ("highest individual risk", r.risk.max_risk)]
    from sdc.report.formatting import fmt_num

    return pd.DataFrame([(a, fmt_num(b)) for a, b in rows], columns=["statistic", "value"])


def assessment_report(a: Any) -> Report:
    """The report's sections (rendered by :func:`sdc.report.text.render_markdown`)."""
    from sdc.workflow.registry import SCENARIO_MEASURES

    files = a.provenance.get("input_files") or []
    intro = [f"{a.n_records:,} records in {a.partitions} partition(s)"
             + (f" ({len(files)} file(s))" if files else "") + f"; configuration: {a.config.source}.",
             "Computed on Dask: each measure is one pass over the data to a small table (the key patterns, or the "
             "(class, sensitive value) cells), on which the in-memory code runs; the numbers are the in-memory ones."]
    sections = [Section("summary", "Verdicts", intro, tables=[Table("verdicts", "Verdicts", a.to_frame().drop(
        columns=["share"]))])]
    lines = [f"{label}: {why}" for label, why in a.not_run.items()]
    lines += [f"{label}: not computed ({why})" for label, why in a.skipped]
    sections.append(Section("not_run", "Not run on Dask", lines))
    for r in a.scenarios:
        name = r.scenario.name
        tables = [Table(f"risk {name}", "k-anonymity and re-identification risk", _risk_rows(r))]
        for m in SCENARIO_MEASURES:
            res = m.result(r)
            if res is None or m.title is None:
                continue
            for spec in m.tables:
                tables.append(Table(f"{spec.key} {name}", f"{spec.title}", spec.frame(res), labels=m.labels))
            if m.more_tables is not None:
                for key, title, frame in m.more_tables(a.config, res):
                    tables.append(Table(f"{key} {name}", title, frame, labels=m.labels))
        sections.append(Section(f"scenario {name}", f"Scenario '{name}': {', '.join(r.scenario.keys)}",
                                [], tables=tables))
    if a.notes:
        sections.append(Section("notes", "Notes", list(a.notes)))
    prov = a.provenance
    sections.append(Section("provenance", "Provenance", [
        f"Command: {prov.get('command') or '(API)'}", f"Input files: {', '.join(map(str, files)) or '(a DataFrame)'}",
        f"sdc {prov['versions']['sdc']}, Python {prov['versions']['python']}, pandas {prov['versions']['pandas']}, "
        f"{prov.get('platform', '')}."]))
    return Report(title="Disclosure-risk assessment (Dask engine)", generated=str(prov.get("generated_utc", "")),
                  sections=sections, assessment=None)  # type: ignore[arg-type]


def write_assessment_dask(a: Any, out: str | Path) -> tuple[Path, tuple[str, ...]]:
    """Write the folder (see the module docstring), all or nothing; returns it and its files."""
    from sdc._files import csv_text
    from sdc.report.folder import write_folder
    from sdc.report.text import render_markdown

    files: dict[str, str | bytes] = {
        "report.md": render_markdown(assessment_report(a), {}, png_files=False, html=False),
        "report.json": json.dumps(assessment_document(a), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
        "verdicts.csv": csv_text(a.to_frame()),
    }
    path = write_folder(out, files, marker=_MARKER_TEXT, inputs=a.provenance.get("input_files") or [])
    return path, tuple(sorted(files))
