"""The report of an assessment whose records stay where they are (``--engine dask``, chunks).

:func:`sdc.report.write_report` writes it for an :class:`~sdc.workflow.assess.Assessment` not
made in memory, through the same renderers as every report (the formats asked for), from the
same section builders as the in-memory report (:func:`sdc.report.content.build_report`): the
same sections, titles and labels, with the measures not run on the engine after the verdicts
(one line each: "not run on Dask: <reason>") and the sections that need the records (the
small-count levels) saying that they were not computed there::

    report.md      the executive summary, the input, the setup, the verdicts, the measures not
                   run there, then per scenario its measures' sections (as in memory)
    report.html    the same, self-contained;  summary.txt  the same in plain text
    report.xlsx    every table, one sheet each
    report.json    the in-memory report.json (schema 1: ``verdicts``, ``scenarios`` with each
                   measure's object, ``tables``, ``config``, ``provenance``, ...) with where it
                   ran: ``engine``, ``records``, ``partitions`` or ``chunk_rows``, ``not_run``,
                   ``not_computed``
    verdicts.csv   the verdict table (the csv format)

There are no per-record files or figures: the records were never in memory. All or nothing:
the folder is written by :func:`sdc.report.folder.write_folder` (a temporary folder beside
``--out``, renamed into place when complete).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sdc.report.content import ENGINES, Report, build_report, n_records
from sdc.report.serialize import jsonable

__all__ = ["write_out_of_memory", "assessment_document", "assessment_report", "n_records"]


def _marker(a: Any) -> str:
    how = "--engine dask" if a.engine == "dask" else "in chunks"
    return f"This folder was written by sdc assess {how}; sdc replaces it whole on the next run.\n"


def assessment_document(a: Any, report: Report | None = None, files: dict[str, str] | None = None) -> dict[str, Any]:
    """report.json of an assessment not made in memory: the in-memory report.json
    (:func:`sdc.report.jsonout.report_document`, schema 1: verdicts, per scenario each measure's
    object, every table of `report`, `files`), with where it ran: ``engine``, ``records``,
    ``partitions`` (Dask) or ``chunk_rows`` (chunks), ``not_run`` and ``not_computed``."""
    from sdc.report.jsonout import report_document

    report = report if report is not None else assessment_report(a, ("json",))
    where = ({"partitions": a.provenance.get("partitions")} if a.engine == "dask" else
             {"chunk_rows": a.provenance.get("chunk_rows")})
    doc = report_document(report, dict(files or {}))
    return jsonable({**doc, "engine": a.engine, "records": n_records(a), **where, "not_run": dict(a.not_run),
                     "not_computed": dict(a.skipped)})


#: What each file of the folder holds (the report's "Files in this folder").
_FILES = {
    "report.html": "the report, self-contained",
    "report.md": "the report in Markdown",
    "summary.txt": "the report in plain text",
    "report.json": "the verdicts and every measure's figures, machine-readable",
    "report.xlsx": "every table, one named sheet each, after a contents sheet",
    "verdicts.csv": "the verdict table",
}
#: The format that writes each file.
_FORMAT_OF = {"report.html": "html", "report.md": "md", "summary.txt": "txt", "report.json": "json",
              "report.xlsx": "xlsx", "verdicts.csv": "csv"}


def _files_of(formats: tuple[str, ...]) -> dict[str, str]:
    """The folder's files in `formats`, each with what it holds."""
    return {name: what for name, what in _FILES.items() if _FORMAT_OF[name] in formats}


def assessment_report(a: Any, formats: tuple[str, ...] = ()) -> Report:
    """The report's sections (rendered by :mod:`sdc.report.text`, ``html``, ``xlsx``): those of
    the in-memory report (:func:`~sdc.report.content.build_report`), the audience first."""
    from sdc.report.audience import audience_section

    report = build_report(a, files=_files_of(formats), title=f"Disclosure risk assessment ({ENGINES[a.engine][0]})")
    report.sections.insert(0, audience_section("internal"))
    return report


def write_out_of_memory(a: Any, out: str | Path, formats: tuple[str, ...]) -> tuple[Path, tuple[str, ...], Report]:
    """Write the folder (see the module docstring) in `formats`, all or nothing; returns it,
    its files and the report."""
    from sdc._files import csv_text
    from sdc.report.folder import write_folder
    from sdc.report.html import render_html
    from sdc.report.text import render_markdown, render_text
    from sdc.report.xlsx import render_xlsx

    report = assessment_report(a, formats)
    html = "html" in formats
    files: dict[str, str | bytes] = {}
    if html:
        files["report.html"] = render_html(report, {})
    if "md" in formats:
        files["report.md"] = render_markdown(report, {}, png_files=False, html=html)
    if "txt" in formats:
        files["summary.txt"] = render_text(report, {}, png_files=False, html=html)
    if "json" in formats:
        files["report.json"] = json.dumps(assessment_document(a, report, _files_of(formats)), indent=2,
                                          ensure_ascii=False, allow_nan=False) + "\n"
    if "xlsx" in formats:
        files["report.xlsx"] = render_xlsx(report)
    if "csv" in formats:
        files["verdicts.csv"] = csv_text(a.to_frame())
    path = write_folder(out, files, marker=_marker(a), inputs=a.provenance.get("input_files") or [])
    return path, tuple(sorted(files)), report
