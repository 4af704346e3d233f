"""HTML representations of results for notebooks (Jupyter calls ``_repr_html_``).

A result shows its headline figures as a small table: what each figure is, and its value
(counts as integers, rates to four significant digits), from the result's ``summary()``; an
:class:`~sdc.workflow.assess.Assessment` shows one line per scenario and its verdicts,
failures in red. Everything from the data is escaped. :func:`install_html_reprs` gives the
public result classes the method; ``sdc/__init__.py`` calls it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from sdc.report.formatting import format_cell, passes_if, visible
from sdc.workflow.assess import Assessment

__all__ = ["html_repr", "install_html_reprs"]

_STYLE = ("<style>.sdc-r table{border-collapse:collapse;font-size:12px}.sdc-r td,.sdc-r th{border:1px solid #ddd;"
          "padding:2px 6px;text-align:left}.sdc-r td.n{text-align:right}.sdc-r .fail{color:#a12617;font-weight:bold}"
          ".sdc-r .pass{color:#1d6b1a;font-weight:bold}</style>")


def _e(x: object) -> str:
    return html.escape(visible(x), quote=True)


def _table(rows: list[tuple[object, ...]], header: tuple[str, ...]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for v in row:
            cls = ' class="n"' if isinstance(v, (int, float)) and not isinstance(v, bool) else ""
            if isinstance(v, str) and v in ("pass", "fail"):
                cls = f' class="{v}"'
            cells.append(f"<td{cls}>{_e(format_cell(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _summary_rows(obj: Any) -> list[tuple[object, ...]] | None:
    summary = getattr(obj, "summary", None)
    s = summary() if callable(summary) else (obj.to_dict() if callable(getattr(obj, "to_dict", None)) else None)
    if isinstance(s, pd.DataFrame):
        if {"value", "description"} <= set(s.columns):
            return [(d, v) for d, v in zip(s["description"], s["value"])]
        return None
    if isinstance(s, Mapping):
        rows = []
        for k, v in s.items():
            if isinstance(v, (list, tuple)) and all(_scalar(x) for x in v):
                v = ", ".join(map(str, v))
            if _scalar(v):
                rows.append((str(k).replace("_", " "), v))
        return rows
    return None


def html_repr(obj: Any) -> str:
    """The HTML a notebook shows for a result (see the module notes)."""
    name = type(obj).__name__
    if isinstance(obj, Assessment):
        parts = [f"<b>{_e(name)}</b>: {len(obj.data):,} records, {len(obj.scenarios)} scenario(s)"]
        for r in obj.scenarios:
            v = [x.verdict for x in obj.verdicts if x.scenario == r.scenario.name]
            parts.append(f"<br>{_e(r.scenario.name)} ({_e(', '.join(r.scenario.keys))}): "
                         f"{v.count('fail')} fail, {v.count('pass')} pass")
        f = obj.to_frame()
        rows = [(x.scenario, x.measure, x.statistic, x.value, passes_if(x.threshold), x.verdict)
                for x in f.itertuples(index=False)]
        parts.append(_table(rows, ("scenario", "measure", "statistic", "value", "passes if", "verdict")))
        if obj.skipped:
            parts.append("<p>Not computed: " + _e("; ".join(f"{m} ({why})" for m, why in obj.skipped)) + "</p>")
        return f'<div class="sdc-r">{_STYLE}' + "".join(parts) + "</div>"
    rows = _summary_rows(obj)
    if rows is None:
        return f"<pre>{_e(repr(obj))}</pre>"
    return f'<div class="sdc-r">{_STYLE}<b>{_e(name)}</b>{_table(rows, ("figure", "value"))}</div>'


def install_html_reprs(classes: Iterable[type]) -> None:
    """Give each class a ``_repr_html_`` (classes that define their own keep it)."""
    for cls in classes:
        if "_repr_html_" not in vars(cls):
            cls._repr_html_ = html_repr  # type: ignore[attr-defined]
