"""The report of an assessment whose records stay where they are (``--engine dask``, chunks).

:func:`sdc.report.write_report` writes it for an :class:`~sdc.workflow.assess.Assessment` not
made in memory, through the same renderers as every report (the formats asked for)::

    report.md      the verdicts, the configured measures not run on the engine (one line
                   each: "not run on Dask: <reason>"), then per scenario the k-anonymity and
                   risk figures and the tables of the snapshots, l-diversity and t-closeness
                   (as in memory)
    report.html    the same, self-contained;  summary.txt  the same in plain text
    report.xlsx    every table, one sheet each
    report.json    the same as data: ``verdicts``, ``not_run``, per scenario the measures'
                   JSON objects (as in the in-memory report.json: ``scenarios`` a list of
                   objects with ``name``, ``keys``, ``risk``, ``snapshots``, ``ldiversity``,
                   ``tcloseness``), ``provenance``
    verdicts.csv   the verdict table (the csv format)

There are no per-record files or figures: the records were never in memory. All or nothing:
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

__all__ = ["write_out_of_memory", "assessment_document", "assessment_report"]

#: Per engine: the title's words, the run's words, and how the measures ran.
_ENGINES = {
    "dask": ("Dask engine", "on Dask", "Computed on Dask: each measure is one pass over the data to a small table (the "
             "key patterns, or the (class, sensitive value) cells), on which the in-memory code runs; the numbers are "
             "the in-memory ones."),
    "chunks": ("chunks", "in chunks", "Computed in chunks: the file was read a chunk of records at a time, keeping only "
               "its key patterns, on which the in-memory code runs; the numbers are the in-memory ones."),
}


def _marker(a: Any) -> str:
    how = "--engine dask" if a.engine == "dask" else "in chunks"
    return f"This folder was written by sdc assess {how}; sdc replaces it whole on the next run.\n"


def n_records(a: Any) -> int:
    """The records assessed (counted by the measures: the data are not in memory)."""
    return int(a.scenarios[0].profile.n_records) if a.scenarios else 0


def _json_of(m: Any, res: Any) -> Any:
    return None if m.json is None else m.json(res)


def assessment_document(a: Any) -> dict[str, Any]:
    """report.json of an assessment not made in memory."""
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
    where = ({"partitions": a.provenance.get("partitions")} if a.engine == "dask" else
             {"chunk_rows": a.provenance.get("chunk_rows")})
    return jsonable({
        "generated_utc": a.provenance.get("generated_utc", ""), "engine": a.engine, "records": n_records(a), **where,
        "verdicts": serialize.frame_records(a.to_frame()),
        "not_run": dict(a.not_run), "not_computed": dict(a.skipped), "notes": list(a.notes),
        "scenarios": scenarios, "provenance": a.provenance,
    })


def _risk_rows(r: Any) -> pd.DataFrame:
    from sdc.report.formatting import fmt_num

    p, k = r.profile, r.profile.k
    rows = [("records", p.n_records), ("key patterns (classes)", p.n_classes), ("sample uniques", p.n_unique),
            (f"records in classes of fewer than {k} records", p.n_k_lt_threshold), ("smallest class", p.min_k),
            ("expected re-identifications", r.risk.expected_reidentifications),
            ("global risk", r.risk.global_risk), ("highest individual risk", r.risk.max_risk)]
    return pd.DataFrame([(a, fmt_num(b)) for a, b in rows], columns=["statistic", "value"])


def _scenario_section(a: Any, r: Any) -> Section:
    from sdc.workflow.registry import SCENARIO_MEASURES

    name = r.scenario.name
    tables = [Table(f"risk {name}", "k-anonymity and re-identification risk", _risk_rows(r))]
    if r.attacker is not None:  # as in the in-memory report's risk section
        tables.append(Table(f"attacker {name}", "Prosecutor, journalist and marketer risk",
                            r.attacker.summary()[["statistic", "value", "description"]],
                            note=f"F_j from the {r.attacker.population_source}.", show=["description", "value"],
                            labels={"description": "figure", "value": "value"}))
    for m in SCENARIO_MEASURES:
        res = m.result(r)
        if res is None or m.title is None:
            continue
        for spec in m.tables:
            tables.append(Table(f"{spec.key} {name}", f"{spec.title}", spec.frame(res), labels=m.labels))
        if m.more_tables is not None:
            for key, title, frame in m.more_tables(a.config, res):
                tables.append(Table(f"{key} {name}", title, frame, labels=m.labels))
    return Section(f"scenario {name}", f"Scenario '{name}': {', '.join(r.scenario.keys)}", [], tables=tables)


def _intro(a: Any) -> list[str]:
    files = a.provenance.get("input_files") or []
    if a.engine == "dask":
        where = f"{n_records(a):,} records in {a.provenance.get('partitions')} partition(s)"
    else:
        where = f"{n_records(a):,} records read in chunks of at most {a.provenance.get('chunk_rows'):,}"
    return [where + (f" ({len(files)} file(s))" if files else "") + f"; configuration: {a.config.source}.",
            _ENGINES[a.engine][2]]


def assessment_report(a: Any) -> Report:
    """The report's sections (rendered by :mod:`sdc.report.text`, ``html``, ``xlsx``)."""
    title, where, _ = _ENGINES[a.engine]
    sections = [Section("summary", "Verdicts", _intro(a), tables=[Table("verdicts", "Verdicts", a.to_frame().drop(
        columns=["share"]))])]
    lines = [f"{label}: {why}" for label, why in a.not_run]
    lines += [f"{label}: not computed ({why})" for label, why in a.skipped]
    sections.append(Section("not_run", f"Not run {where}", lines or ["Every configured measure ran."]))
    sections += [_scenario_section(a, r) for r in a.scenarios]
    if a.notes:
        sections.append(Section("notes", "Notes", list(a.notes)))
    prov = a.provenance
    files = prov.get("input_files") or []
    sections.append(Section("provenance", "Provenance", [
        f"Command: {prov.get('command') or '(API)'}", f"Input files: {', '.join(map(str, files)) or '(a DataFrame)'}",
        f"sdc {prov['versions']['sdc']}, Python {prov['versions']['python']}, pandas {prov['versions']['pandas']}, "
        f"{prov.get('platform', '')}."]))
    data_columns = frozenset(str(c) for c in a.data.columns)  # shown under their own names
    for t in (t for s in sections for t in s.tables):
        t.keep = data_columns
    return Report(title=f"Disclosure-risk assessment ({title})", generated=str(prov.get("generated_utc", "")),
                  sections=sections, assessment=a)


def write_out_of_memory(a: Any, out: str | Path, formats: tuple[str, ...]) -> tuple[Path, tuple[str, ...], Report]:
    """Write the folder (see the module docstring) in `formats`, all or nothing; returns it,
    its files and the report."""
    from sdc._files import csv_text
    from sdc.report.folder import write_folder
    from sdc.report.html import render_html
    from sdc.report.text import render_markdown, render_text
    from sdc.report.xlsx import render_xlsx

    report = assessment_report(a)
    html = "html" in formats
    files: dict[str, str | bytes] = {}
    if html:
        files["report.html"] = render_html(report, {})
    if "md" in formats:
        files["report.md"] = render_markdown(report, {}, png_files=False, html=html)
    if "txt" in formats:
        files["summary.txt"] = render_text(report, {}, png_files=False, html=html)
    if "json" in formats:
        files["report.json"] = json.dumps(assessment_document(a), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if "xlsx" in formats:
        files["report.xlsx"] = render_xlsx(report)
    if "csv" in formats:
        files["verdicts.csv"] = csv_text(a.to_frame())
    path = write_folder(out, files, marker=_marker(a), inputs=a.provenance.get("input_files") or [])
    return path, tuple(sorted(files)), report
