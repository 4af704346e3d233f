"""``report.html``: one self-contained page (styles inline, figures as data URIs, no scripts).

Nothing is fetched from the network, so the page reads the same offline, in an archive, or
attached to an e-mail; there is no JavaScript to run or to break. Every text from the data
or the configuration is escaped (no element can come from a name or a value) and control
characters are shown as escapes. A print stylesheet lays the page out for A4 paper: every
row of every table is printed (no scroll boxes), table headers repeat on each page, figures
and rows are not split, and wide tables shrink to the page's width.
"""

from __future__ import annotations

import base64
import html

import pandas as pd

from sdc.report.formatting import format_cell, visible
from sdc.report.content import Report, Table

__all__ = ["render_html"]

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 14px; color: #222; max-width: 1100px;
       margin: 0 auto; padding: 1em 2em 4em; line-height: 1.4; }
h1 { font-size: 1.7em; border-bottom: 2px solid #3b6ea5; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .15em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .4em; }
p.generated { color: #555; }
nav ol { columns: 2; font-size: .95em; }
section#summary { background: #f7f9fc; border: 1px solid #d5deea; padding: .2em 1.2em 1em; margin-top: 1em; }
section#summary h2 { margin-top: .6em; }
table { border-collapse: collapse; margin: .3em 0 1em; font-size: .9em; max-width: 100%; }
table.wide { font-size: .8em; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; vertical-align: top; }
th { background: #eef2f7; text-align: left; }
td { overflow-wrap: break-word; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.pass { background: #e3f4e1; font-weight: bold; color: #1d6b1a; }
td.fail { background: #fbe3e1; font-weight: bold; color: #a12617; }
td.info { background: #f2f2f2; color: #555; }
p.note { color: #555; font-size: .9em; margin-top: -.6em; }
figure { margin: 1em 0 1.5em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { color: #555; font-size: .9em; }
.scroll { max-height: 28em; overflow: auto; display: inline-block; max-width: 100%; }
@page { size: A4; margin: 14mm 12mm 16mm; }
@media print {
  body { font-size: 9pt; max-width: none; margin: 0; padding: 0; color: #000; }
  h1 { font-size: 16pt; }
  h2 { font-size: 12pt; break-after: avoid; page-break-after: avoid; }
  h3 { font-size: 10pt; break-after: avoid; page-break-after: avoid; }
  nav { display: none; }
  section#summary { border: 1px solid #999; }
  .scroll { max-height: none; overflow: visible; display: block; }
  table { width: auto; max-width: 100%; font-size: 8pt; break-inside: auto; }
  table.wide { font-size: 7pt; }
  th, td { padding: 1px 4px; }
  td.num { white-space: normal; }
  thead { display: table-header-group; }
  tr, figure, img { break-inside: avoid; page-break-inside: avoid; }
  figure img { max-width: 100%; max-height: 230mm; }
  td.pass, td.fail, td.info { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a { color: inherit; text-decoration: none; }
}
"""

_WIDE = 7  # tables with more columns get the compact style


def _esc(x: object) -> str:
    return html.escape(visible(x), quote=True)


def _is_verdict(column: object) -> bool:
    return str(column).lower().startswith("verdict")


def _table(t: Table) -> str:
    df = t.display() if hasattr(t, "display") else t.frame
    link_col = 0 if t.key == "files" else -1  # the report's own files: link to them
    numeric = [pd.api.types.is_numeric_dtype(df.iloc[:, j]) and not pd.api.types.is_bool_dtype(df.iloc[:, j])
               for j in range(df.shape[1])]
    verdict = [_is_verdict(c) for c in df.columns]
    head = "".join(f"<th>{_esc(c)}</th>" for c in df.columns)
    rows = []
    for row in df.itertuples(index=False, name=None):
        cells = []
        for i, (v, num) in enumerate(zip(row, numeric)):
            cls = ' class="num"' if num or (isinstance(v, (int, float)) and not isinstance(v, bool)) else ""
            if verdict[i] and str(v) in ("pass", "fail", "info"):
                cls = f' class="{v}"'
            text = _esc(format_cell(v))
            if i == link_col:
                text = f'<a href="{_esc(v)}">{text}</a>'
            cells.append(f"<td{cls}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "\n".join(rows) if rows else f'<tr><td colspan="{max(df.shape[1], 1)}">(none)</td></tr>'
    wrap_open, wrap_close = ('<div class="scroll">', "</div>") if len(df) > 25 else ("", "")
    note = f'<p class="note">{_esc(t.note)}</p>' if t.note else ""
    wide = ' class="wide"' if df.shape[1] > _WIDE else ""
    return (f"<h3>{_esc(t.title)}</h3>\n{wrap_open}<table{wide}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n"
            f"</tbody></table>{wrap_close}\n{note}")


def _section(report: Report, s, figures: dict[str, bytes]) -> list[str]:  # noqa: ANN001
    out = [f'<section id="{_esc(s.key)}">', f"<h2>{_esc(s.title)}</h2>"]
    out += [f"<p>{_esc(p)}</p>" for p in s.paragraphs]
    for t in s.tables:
        out.append(_table(t))
    for f in s.figures:
        if f in figures:
            caption = report.caption(f) if hasattr(report, "caption") else f
            data = base64.b64encode(figures[f]).decode("ascii")
            out.append(f'<figure><img alt="{_esc(caption)}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{_esc(caption)}</figcaption></figure>")
    out.append("</section>")
    return out


def render_html(report: Report, figures: dict[str, bytes]) -> str:
    """The whole page as text (UTF-8 when written). The sections keyed ``audience`` (who the
    report is for) and ``summary`` (the executive summary) come before the table of contents."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(report.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_esc(report.title)}</h1>"]
    # The only line that changes between identical runs.
    out.append(f'<p class="generated">Generated {_esc(report.generated)}</p>')
    lead = ("audience", "summary")
    first = sorted((s for s in report.sections if s.key in lead), key=lambda s: lead.index(s.key))
    rest = [s for s in report.sections if s.key not in lead]
    for s in first:
        out += _section(report, s, figures)
    out.append("<nav><h2>Contents</h2><ol>")
    out += [f'<li><a href="#{_esc(s.key)}">{_esc(s.title)}</a></li>' for s in report.sections]
    out.append("</ol></nav>")
    for s in rest:
        out += _section(report, s, figures)
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
