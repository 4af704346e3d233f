"""``report.md`` (Markdown) and ``summary.txt`` (plain text): the report's content for review as text."""

from __future__ import annotations

import pandas as pd

from sdc.report.formatting import format_cell, render_table
from sdc.report.content import FIGURES, Report

__all__ = ["render_markdown", "render_text"]


def _md_cell(v: object) -> str:
    return format_cell(v).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_table(df: pd.DataFrame) -> str:
    if df.empty:
        return "(none)"
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]
    head = "| " + " | ".join(_md_cell(c) for c in df.columns) + " |"
    rule = "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
    rows = ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in df.itertuples(index=False, name=None)]
    return "\n".join([head, rule, *rows])


def render_markdown(report: Report, figures: dict[str, bytes], *, png_files: bool) -> str:
    """Markdown; figures link to ``plots/*.png`` when those files are written."""
    out = [f"# {report.title}", "", f"Generated {report.generated}", ""]
    for s in report.sections:
        out += [f"## {s.title}", ""]
        for p in s.paragraphs:
            out += [p, ""]
        for t in s.tables:
            out += [f"### {t.title}", "", _md_table(t.frame), ""]
            if t.note:
                out += [f"*{t.note}*", ""]
        for f in s.figures:
            if f in figures:
                out += [f"![{FIGURES[f]}](plots/{f}.png)" if png_files else f"*Figure: {FIGURES[f]} (in report.html)*",
                        ""]
    return "\n".join(out).rstrip("\n") + "\n"


def render_text(report: Report, figures: dict[str, bytes], *, png_files: bool) -> str:
    """Plain text with aligned tables; figures are named, not drawn."""
    out = [report.title, "=" * len(report.title), f"Generated {report.generated}", ""]
    for s in report.sections:
        out += [s.title, "-" * len(s.title)]
        for p in s.paragraphs:
            out += [p, ""]
        for t in s.tables:
            out += [f"{t.title}:", render_table(t.frame) if not t.frame.empty else "  (none)", ""]
            if t.note:
                out += [f"  {t.note}", ""]
        for f in s.figures:
            if f in figures:
                where = f"plots/{f}.png and report.html" if png_files else "report.html"
                out += [f"[figure: {FIGURES[f]}; see {where}]", ""]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
