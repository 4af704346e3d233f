"""``report.md`` (Markdown) and ``summary.txt`` (plain text): the report's content for review as text.

Every text that comes from the data or the configuration is made inert: in Markdown it is
escaped (:func:`sdc.report.formatting.md_text`: no HTML element, link, heading or list can
come from a name or a value, and a line break in a name cannot start a line of its own); in
plain text it is kept on one line with control characters shown as escapes, so that viewing
the file in a terminal shows the text and runs no escape sequence.
"""

from __future__ import annotations

import pandas as pd

from sdc.report.formatting import format_cell, md_text, one_line_text, render_table
from sdc.report.content import Report, Table

__all__ = ["render_markdown", "render_text", "console_text"]


def _md_cell(v: object) -> str:
    return md_text(format_cell(v), start=False)


def _shown(t: Table) -> pd.DataFrame:
    return t.display() if hasattr(t, "display") else t.frame


def _md_table(df: pd.DataFrame) -> str:
    if df.empty:
        return "(none)"
    numeric = [pd.api.types.is_numeric_dtype(df.iloc[:, j]) and not pd.api.types.is_bool_dtype(df.iloc[:, j])
               for j in range(df.shape[1])]
    head = "| " + " | ".join(_md_cell(c) for c in df.columns) + " |"
    rule = "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
    rows = ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in df.itertuples(index=False, name=None)]
    return "\n".join([head, rule, *rows])


def _caption(report: Report, f: str) -> str:
    return report.caption(f) if hasattr(report, "caption") else f


def render_markdown(report: Report, figures: dict[str, bytes], *, png_files: bool, html: bool = True) -> str:
    """Markdown; figures link to ``plots/*.png`` when those files are written (else they are
    named, with where to see them: report.html when it is written)."""
    out = [f"# {md_text(report.title)}", "", f"Generated {md_text(report.generated)}", ""]
    for s in report.sections:
        out += [f"## {md_text(s.title)}", ""]
        for p in s.paragraphs:
            out += [md_text(p), ""]
        for t in s.tables:
            out += [f"### {md_text(t.title)}", "", _md_table(_shown(t)), ""]
            if t.note:
                out += [f"*{md_text(t.note)}*", ""]
        for f in s.figures:
            if f in figures:
                cap = md_text(_caption(report, f))
                if png_files:
                    out += [f"![{cap}](plots/{f}.png)", ""]
                else:
                    out += [f"*Figure: {cap}" + (" (in report.html)*" if html else " (not written: add png or html "
                                                                                      "to the formats)*"), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def render_text(report: Report, figures: dict[str, bytes], *, png_files: bool, html: bool = True) -> str:
    """Plain text with aligned tables; figures are named, not drawn."""
    title = one_line_text(report.title)
    out = [title, "=" * len(title)] + ([f"Generated {one_line_text(report.generated)}"] if report.generated else []) + [""]
    for s in report.sections:
        heading = one_line_text(s.title)
        out += [heading, "-" * len(heading)]
        for p in s.paragraphs:
            out += [one_line_text(p), ""]
        for t in s.tables:
            df = _shown(t)
            out += [f"{one_line_text(t.title)}:", render_table(df) if not df.empty else "  (none)", ""]
            if t.note:
                out += [f"  {one_line_text(t.note)}", ""]
        for f in s.figures:
            if f in figures:
                where = [w for w, ok in ((f"plots/{f}.png", png_files), ("report.html", html)) if ok]
                out += [f"[figure: {one_line_text(_caption(report, f))}"
                        + (f"; see {' and '.join(where)}]" if where else "; not written]"), ""]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def console_text(report: Report) -> str:
    """A report for the terminal (the single-measure commands): the plain text, no figures."""
    return render_text(report, {}, png_files=False, html=False).rstrip("\n")
