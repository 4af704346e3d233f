"""HTML representations of results for notebooks (Jupyter calls ``_repr_html_``).

A result shows its headline figures as a small table: what each figure is, and its value
(counts as integers, rates to four significant digits), from the result's ``summary()``; an
:class:`~sdc.workflow.assess.Assessment` shows one line per scenario and its verdicts,
failures in red; a report folder its path, the file to open and its files. Everything from
the data is escaped. The text repr is as short: one line, ``<KAnonymityResult: records
assessed 4,125; ...>``, the first figures of the same table, never the frames a result
holds (an Assessment's dataclass repr ran to 6,711 characters). :func:`install_html_reprs`
gives the public result classes both, :func:`install_folder_reprs` the report folders;
``sdc/__init__.py`` calls them when the package face loads.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from sdc.report.formatting import format_cell, passes_if, visible
from sdc.workflow.assess import Assessment

__all__ = ["html_repr", "short_repr", "folder_html", "folder_repr", "install_html_reprs", "install_folder_reprs"]

#: The longest text repr (characters); a longer headline is cut with an ellipsis.
REPR_WIDTH = 240

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


def _cut(text: str, width: int = REPR_WIDTH) -> str:
    text = visible(" ".join(str(text).split()))
    return text if len(text) <= width else text[: width - 2] + "…>"


def short_repr(obj: Any) -> str:
    """A result in one line: its class and its first figures (see the module notes)."""
    name = type(obj).__name__
    if isinstance(obj, Assessment):
        v = [x.verdict for x in obj.verdicts]
        return _cut(f"<{name}: {len(obj.data):,} records, {len(obj.scenarios)} scenario(s), "
                    f"{v.count('fail')} of {len(v)} verdicts fail>")
    try:
        rows = _summary_rows(obj) or []
    except Exception:  # noqa: BLE001  (a repr never raises: a result without a summary shows its name)
        rows = []
    shown = "; ".join(f"{d} {format_cell(v)}" for d, v in rows[:3])
    return _cut(f"<{name}: {shown}>" if shown else f"<{name}>")


def folder_repr(folder: Any) -> str:
    """A report folder in one line: where it is, how many files, which to open."""
    main = getattr(folder, "main_file", None) or next((f for f in ("report.html", "sweep.html", "protection.md")
                                                       if f in folder.files), None)
    return _cut(f"<{type(folder).__name__} {folder.path}/: {len(folder.files)} files"
                + (f", open {main}" if main else "") + ">")


def folder_html(folder: Any) -> str:
    """A report folder as a notebook shows it: its path, the file to open and its files."""
    files = "".join(f"<li>{_e(f)}</li>" for f in folder.files[:40])
    more = f"<li>... {len(folder.files) - 40} more</li>" if len(folder.files) > 40 else ""
    return (f'<div class="sdc-r">{_STYLE}<b>{_e(type(folder).__name__)}</b>: {_e(folder.path)}/ '
            f"({len(folder.files)} files)<ul>{files}{more}</ul></div>")


def install_folder_reprs() -> None:
    """Give the report folders (assess, compare, protect, sweep) their HTML view and short repr."""
    from sdc.report import ReportFolder
    from sdc.report.compare import ComparisonFolder
    from sdc.report.protection_log import ProtectionFolder
    from sdc.report.sweep import SweepFolder

    for cls in (ReportFolder, ComparisonFolder, ProtectionFolder, SweepFolder):
        cls._repr_html_ = folder_html  # type: ignore[attr-defined]
        cls.__repr__ = folder_repr  # type: ignore[method-assign]


def _generated_repr(cls: type) -> bool:
    """Whether `cls`'s repr is the one dataclasses wrote (every field, frames and all)."""
    return "__repr__" in vars(cls) and hasattr(vars(cls)["__repr__"], "__wrapped__")


def install_html_reprs(classes: Iterable[type]) -> None:
    """Give each class a ``_repr_html_`` and a short repr (a class that defines its own keeps it)."""
    for cls in classes:
        if "_repr_html_" not in vars(cls):
            cls._repr_html_ = html_repr  # type: ignore[attr-defined]
        if _generated_repr(cls):
            cls.__repr__ = short_repr  # type: ignore[method-assign]
