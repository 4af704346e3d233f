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
    plots/s<i>_*.png the figures of scenario i

The folder is written to a temporary sibling first and moved into place only when every
file is complete, so an existing report is replaced whole or not at all
(:func:`sdc.report.folder.write_folder`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from sdc._files import csv_chunks, gzip_pieces
from sdc.workflow.assess import Assessment
from sdc.workflow.config import FORMATS, to_toml
from sdc.report.content import FIGURES, Report, build_report, figure_captions
from sdc.report.folder import MARKER, check_target, source_files, write_folder
from sdc.report.records import RecordTables, record_tables
from sdc.report.safety import safe_frame

__all__ = ["write_report", "ReportFolder", "build_report", "Report", "MARKER"]

_MARKER_TEXT = "This folder was written by sdc assess; sdc replaces it whole on the next run.\n"


@dataclass(frozen=True)
class ReportFolder:
    """Where the report went and what it holds."""

    path: Path
    files: tuple[str, ...]
    report: Report = field(repr=False)  # the whole report: too long to show as the folder's repr

    @property
    def main_file(self) -> str | None:
        """The file a reader opens first: report.html, else report.md, summary.txt, report.json."""
        return next((f for f in ("report.html", "report.md", "summary.txt", "report.json", "report.xlsx")
                     if f in self.files), None)


def _file_list(formats: tuple[str, ...], record_desc: dict[str, str], figures: dict[str, bytes],
               report_captions: dict[str, str]) -> dict[str, str]:
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
        files["report.xlsx"] = "every table, one named sheet each, after a contents sheet"
    files["config.toml"] = "the resolved configuration; sdc assess --config config.toml reruns this assessment"
    if "csv" in formats:
        files.update(record_desc)
    if "png" in formats:
        files.update({f"plots/{name}.png": report_captions.get(name) or FIGURES.get(name, name) for name in figures})
    return files


#: ``[output].records = "auto"`` (the default) compresses ``records.csv`` when it would be larger
#: than the input file(s) and than this (64 MiB: about 160,000 records of the bundled example's
#: assessment); a smaller one stays plain CSV.
AUTO_MIN_BYTES = 64 << 20
#: ... deciding from at most this many bytes of the CSV: when the whole CSV is no longer, from
#: its size; else from the size those bytes' rows scale to.
AUTO_PEEK_BYTES = 32 << 20


def _records_file(records: RecordTables, how: str, inputs: list[str]) -> dict[str, Iterable[bytes | memoryview]]:
    """Take ``records.csv`` out of `records` and return it as `how` says (``[output].records``):
    {} for "none", ``records.csv.gz`` for "gz" or for "auto" when the CSV would be larger than
    the input file(s) and :data:`AUTO_MIN_BYTES` (judged from its first :data:`AUTO_PEEK_BYTES`);
    `records`' names and descriptions are changed to match. The CSV is made, and compressed, a block of rows at a
    time as it is written: neither is ever whole in memory."""
    frame = records.files.pop("records.csv", None)
    desc = records.descriptions.pop("records.csv", "")
    if frame is None or how == "none":
        return {}
    if how == "csv":
        records.files["records.csv"], records.descriptions["records.csv"] = frame, desc
        return {}
    pieces = csv_chunks(safe_frame(frame))
    if how == "auto":
        size = max(sum(Path(p).stat().st_size for p in inputs if p and Path(p).is_file()), AUTO_MIN_BYTES)
        head, pieces = _peek(pieces, size + 1)
        seen = sum(len(b) for b in head)
        rows = max(sum(b.count(b"\n") for b in head) - 1, 1)  # the header's line end is not a record's
        whole = sum(len(b) for b in head) if pieces is None else seen / rows * len(frame)
        pieces = itertools.chain(head, pieces or ())
        if whole <= size:
            records.descriptions["records.csv"] = desc
            return {"records.csv": pieces}
    records.descriptions["records.csv.gz"] = desc + " (gzip-compressed)"
    return {"records.csv.gz": gzip_pieces(pieces)}


def _peek(pieces: Iterator[bytes | memoryview], limit: int
          ) -> tuple[list[bytes], Iterator[bytes | memoryview] | None]:
    """The first pieces (copied: csv_chunks reuses its buffer), up to `limit` or
    :data:`AUTO_PEEK_BYTES` bytes, and the rest (None when there is no rest)."""
    head: list[bytes] = []
    total = 0
    for piece in pieces:
        head.append(bytes(piece))
        total += len(head[-1])
        if total >= min(limit, AUTO_PEEK_BYTES):
            return head, pieces
    return head, None


def write_report(a: Assessment, out: str | Path, *, formats: tuple[str, ...] | None = None,
                 audience: str = "internal") -> ReportFolder:
    """Write the report folder `out` for assessment `a` (replacing a previous sdc report there).

    Parameters
    ----------
    a : Assessment
    out : path
        The folder. It may not exist yet, be empty, or hold an earlier sdc report (it then
        holds a ``.sdc-report`` marker listing the files sdc wrote); anything else is refused,
        so that sdc never deletes a file it did not write: an existing folder that is not an
        sdc report, a report folder that has gained other files since (an input placed
        there, say), or a folder that holds one of the assessment's input files.
    formats : tuple of str, optional
        Subset of ``html md txt json xlsx csv png``; default: the config's.
    audience : {"internal", "external"}, default "internal"
        Who reads it (:mod:`sdc.report.audience`): ``"external"`` (data users) writes no
        per-record file (no ``records.csv``, no at-risk lists) and no command line; every page
        opens with the audience line.

    Notes
    -----
    The files are written into a temporary sibling folder and moved into place when all are
    complete (a reader never sees half a report; an interruption, SIGTERM included, leaves
    no temporary folder behind). The files are no more readable than the input files: a
    report of a file only its owner may read is readable by its owner only.

    Raises
    ------
    FileExistsError
        `out` exists and is a file, or a folder that sdc may not replace (see above).
    """
    if not isinstance(a, Assessment):
        raise TypeError(f"`a` must be an Assessment (what sdc.assess returns); got {type(a).__name__}.")
    from sdc.report.html import render_html
    from sdc.report.jsonout import render_json
    from sdc.report.plots import figures as make_figures
    from sdc.report.text import render_markdown, render_text
    from sdc.report.xlsx import render_xlsx

    formats = tuple(formats or a.config.formats)
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ValueError(f"unknown report format {bad[0]!r}; allowed: {', '.join(FORMATS)}.")
    from sdc.report.audience import audience_section, check_audience, external_log
    from sdc.report.records import RecordTables

    external = check_audience(audience) == "external"
    if external:
        a = replace(a, provenance=external_log(dict(a.provenance)))
    if a.engine != "pandas":  # the records stay where they are: the verdicts and the measures' tables
        if external:
            raise ValueError("an external report of a Dask assessment is not written yet; use --audience internal.")
        from sdc.report.out_of_memory import write_out_of_memory

        return ReportFolder(*write_out_of_memory(a, out, formats))
    out = Path(out)
    inputs = list(a.provenance.get("input_files") or [])
    check_target(out, "`out`", inputs=inputs)  # before the work: a refused folder costs nothing
    records = RecordTables({}, {}) if external else record_tables(a)
    rec_content = _records_file(records, a.config.records, inputs)
    figs = make_figures(a) if ("html" in formats or "png" in formats) else {}
    files = _file_list(formats, records.descriptions, figs, figure_captions(a))
    report = build_report(a, files=files)
    report.sections.insert(0, audience_section(audience))
    png_files = "png" in formats
    html = "html" in formats

    content: dict[str, str | bytes | Iterable[bytes | memoryview]] = {}
    if html:
        content["report.html"] = render_html(report, figs)
    if "md" in formats:
        content["report.md"] = render_markdown(report, figs, png_files=png_files, html=html)
    if "txt" in formats:
        content["summary.txt"] = render_text(report, figs, png_files=png_files, html=html)
    if "json" in formats:
        content["report.json"] = render_json(report, files)
    if "xlsx" in formats:
        content["report.xlsx"] = render_xlsx(report)
    content["config.toml"] = to_toml(a.config)
    if "csv" in formats:
        for name, frame in records.files.items():
            content[name] = csv_chunks(safe_frame(frame))  # csv_text's bytes, assembled fast, written as they come
        content.update(rec_content)
    if png_files:
        for name, png in figs.items():
            content[f"plots/{name}.png"] = png
    write_folder(out, content, marker=_MARKER_TEXT, inputs=inputs, flag="`out`",
                 read_from=source_files(a.config.source))
    return ReportFolder(path=out, files=tuple(files), report=report)
