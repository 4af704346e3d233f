"""``report.html``: one self-contained page (styles inline, figures as data URIs, no scripts).

Nothing is fetched from the network, so the page reads the same offline, in an archive, or
attached to an e-mail; there is no JavaScript to run or to break.
"""

from __future__ import annotations

import base64
import html

import pandas as pd

from sdc.report.formatting import format_cell
from sdc.report.content import FIGURES, Report, Table

__all__ = ["render_html"]

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 14px; color: #222; max-width: 1100px;
       margin: 0 auto; padding: 1em 2em 4em; line-height: 1.4; }
h1 { font-size: 1.7em; border-bottom: 2px solid #3b6ea5; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: .15em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .4em; }
p.generated { color: #555; }
nav ol { columns: 2; font-size: .95em; }
table { border-collapse: collapse; margin: .3em 0 1em; font-size: .9em; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; vertical-align: top; }
th { background: #eef2f7; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.pass { background: #e3f4e1; font-weight: bold; color: #1d6b1a; }
td.fail { background: #fbe3e1; font-weight: bold; color: #a12617; }
td.info { background: #f2f2f2; color: #555; }
p.note { color: #555; font-size: .9em; margin-top: -.6em; }
figure { margin: 1em 0 1.5em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { color: #555; font-size: .9em; }
.scroll { max-height: 28em; overflow: auto; display: inline-block; max-width: 100%; }
"""


def _esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def _table(t: Table) -> str:
    df = t.frame
    link_col = 0 if t.key == "files" else -1  # the report's own files: link to them
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]
    verdict_col = list(df.columns).index("verdict") if "verdict" in df.columns else -1
    head = "".join(f"<th>{_esc(c)}</th>" for c in df.columns)
    rows = []
    for row in df.itertuples(index=False, name=None):
        cells = []
        for i, (v, num) in enumerate(zip(row, numeric)):
            cls = ' class="num"' if num else ""
            if i == verdict_col:
                cls = f' class="{_esc(v)}"'
            text = _esc(format_cell(v))
            if i == link_col:
                text = f'<a href="{_esc(v)}">{text}</a>'
            cells.append(f"<td{cls}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "\n".join(rows) if rows else f'<tr><td colspan="{max(len(df.columns), 1)}">(none)</td></tr>'
    wrap_open, wrap_close = ('<div class="scroll">', "</div>") if len(df) > 25 else ("", "")
    note = f'<p class="note">{_esc(t.note)}</p>' if t.note else ""
    return (f"<h3>{_esc(t.title)}</h3>\n{wrap_open}<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n"
            f"</tbody></table>{wrap_close}\n{note}")


def render_html(report: Report, figures: dict[str, bytes]) -> str:
    """The whole page as text (UTF-8 when written)."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_esc(report.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_esc(report.title)}</h1>"]
    # The only line that changes between identical runs.
    out.append(f'<p class="generated">Generated {_esc(report.generated)}</p>')
    out.append("<nav><h2>Contents</h2><ol>")
    out += [f'<li><a href="#{_esc(s.key)}">{_esc(s.title)}</a></li>' for s in report.sections]
    out.append("</ol></nav>")
    for s in report.sections:
        out.append(f'<section id="{_esc(s.key)}">')
        out.append(f"<h2>{_esc(s.title)}</h2>")
        out += [f"<p>{_esc(p)}</p>" for p in s.paragraphs]
        for t in s.tables:
            out.append(_table(t))
        for f in s.figures:
            if f in figures:
                data = base64.b64encode(figures[f]).decode("ascii")
                out.append(f'<figure><img alt="{_esc(FIGURES[f])}" src="data:image/png;base64,{data}">'
                           f"<figcaption>{_esc(FIGURES[f])}</figcaption></figure>")
        out.append("</section>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
