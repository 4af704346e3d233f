"""The report folder of an assessment run (``sdc assess``).

:func:`write_report` renders an :class:`~sdc.assess.Assessment` into a folder with fixed file
names (docs/report.md)::

    report.html      self-contained page, figures embedded
    report.md        the same content in Markdown
    summary.txt      the same content in plain text
    report.json      everything machine-readable (schema_version 1)
    report.xlsx      one sheet per table
    config.toml      the resolved configuration: `sdc assess --config config.toml` reruns it
    records.csv, records_at_risk_k{K}.csv, records_at_risk_l{L}_{s}.csv, records_at_risk_t{T}_{s}.csv
    plots/*.png      the figures

The folder is written to a temporary sibling first and moved into place only when every
file is complete, so an existing report is replaced whole or not at all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sdc._files import csv_text, default_mode
from sdc.workflow.assess import Assessment
from sdc.workflow.config import FORMATS, to_toml
from sdc.report.content import FIGURES, Report, build_report
from sdc.report.records import record_tables
from sdc.report.safety import safe_frame

__all__ = ["write_report", "ReportFolder", "build_report", "Report", "MARKER"]

#: A file that marks a folder as written by sdc (so that it may be replaced).
MARKER = ".sdc-report"


@dataclass(frozen=True)
class ReportFolder:
    """Where the report went and what it holds."""

    path: Path
    files: tuple[str, ...]
    report: Report


def _file_list(formats: tuple[str, ...], record_desc: dict[str, str], figures: dict[str, bytes]) -> dict[str, str]:
    files = {}
    if "html" in formats:
        files["report.html"] = "the report, self-contained (figures embedded)"
    if "md" in formats:
        files["report.md"] = "the report in Markdown"
    if "txt" in formats:
        files["summary.txt"] = "the report in plain text"
    if "json" in formats:
        files["report.json"] = "everything machine-readable (schema_version 1)"
    if "xlsx" in formats:
        files["report.xlsx"] = "one sheet per table"
    files["config.toml"] = "the resolved configuration; sdc assess --config config.toml reruns this assessment"
    if "csv" in formats:
        files.update(record_desc)
    if "png" in formats:
        files.update({f"plots/{name}.png": FIGURES[name] for name in figures})
    return files


def write_report(a: Assessment, out: str | Path, *, formats: tuple[str, ...] | None = None) -> ReportFolder:
    """Write the report folder `out` for assessment `a` (replacing a previous sdc report there).

    Parameters
    ----------
    a : Assessment
    out : path
        The folder. It may not exist yet, be empty, or hold an earlier sdc report (it then
        holds a ``.sdc-report`` marker); any other existing folder is refused, so that a
        mistyped path never deletes someone's files.
    formats : tuple of str, optional
        Subset of ``html md txt json xlsx csv png``; default: the config's.

    Raises
    ------
    FileExistsError
        `out` exists and is a file, or a non-empty folder that is not an sdc report.
    """
    from sdc.report.html import render_html
    from sdc.report.jsonout import render_json
    from sdc.report.plots import figures as make_figures
    from sdc.report.text import render_markdown, render_text
    from sdc.report.xlsx import render_xlsx

    formats = tuple(formats or a.config.formats)
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"unknown report format {bad[0]!r}; allowed: {', '.join(FORMATS)}.")
    out = Path(out)
    _check_target(out)
    records = record_tables(a)
    figs = make_figures(a) if ("html" in formats or "png" in formats) else {}
    files = _file_list(formats, records.descriptions, figs)
    report = build_report(a, files=files)
    png_files = "png" in formats

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        def put(name: str, data: str | bytes) -> None:
            p = tmp / name
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, str):
                p.write_text(data, encoding="utf-8", newline="\n")
            else:
                p.write_bytes(data)

        if "html" in formats:
            put("report.html", render_html(report, figs))
        if "md" in formats:
            put("report.md", render_markdown(report, figs, png_files=png_files))
        if "txt" in formats:
            put("summary.txt", render_text(report, figs, png_files=png_files))
        if "json" in formats:
            put("report.json", render_json(report, files))
        if "xlsx" in formats:
            put("report.xlsx", render_xlsx(report))
        put("config.toml", to_toml(a.config))
        if "csv" in formats:
            for name, frame in records.files.items():
                put(name, csv_text(safe_frame(frame)))
        if png_files:
            for name, png in figs.items():
                put(f"plots/{name}.png", png)
        put(MARKER, "This folder was written by sdc assess; sdc replaces it whole on the next run.\n")
        _move_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ReportFolder(path=out, files=tuple(files), report=report)


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"`out` '{out}' is a file, not a folder.")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise FileExistsError(
            f"`out` '{out}' exists and is not an sdc report folder (no {MARKER} file): choose another folder or "
            "empty it; sdc only replaces folders it wrote.")


def _move_into_place(tmp: Path, out: Path) -> None:
    """Swap the finished folder in: rename the old one aside, rename the new one in, delete the old."""
    os.chmod(tmp, default_mode(directory=True))  # mkdtemp makes it private; a report is an ordinary folder
    if not out.exists():
        os.replace(tmp, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.rmdir(old)
    os.replace(out, old)
    try:
        os.replace(tmp, out)
    except BaseException:
        os.replace(old, out)  # put the previous report back
        raise
    shutil.rmtree(old, ignore_errors=True)
