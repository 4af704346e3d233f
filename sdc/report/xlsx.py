"""``report.xlsx``: one sheet per report table, after a contents sheet.

Text cells are neutralised against formula injection (:mod:`sdc.report.safety`); numbers stay
numbers. The workbook is made reproducible: its document properties carry the report's
generation time instead of the wall clock, and the zip entries carry a fixed date, so the
same results give the same bytes.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from datetime import datetime

import numpy as np
import pandas as pd

from sdc.report.content import SAFETY_NOTE, Report
from sdc.report.safety import neutralise

__all__ = ["render_xlsx"]

_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _sheet_name(key: str, used: set[str]) -> str:
    base = _BAD_SHEET_CHARS.sub("_", key).strip("'")[:31] or "sheet"
    name, i = base, 2
    while name.lower() in used:
        suffix = f" ({i})"
        name, i = base[: 31 - len(suffix)] + suffix, i + 1
    used.add(name.lower())
    return name


def _value(v: object) -> object:
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) else (str(f) if math.isinf(f) else f)
    if isinstance(v, (tuple, list)):
        v = " + ".join(map(str, v))
    return neutralise(ILLEGAL_CHARACTERS_RE.sub("", str(v)))


def render_xlsx(report: Report) -> bytes:
    """The workbook's bytes."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    wb = Workbook()
    contents = wb.active
    contents.title = "Contents"
    used = {"contents"}
    contents.append([report.title])
    contents["A1"].font = Font(bold=True, size=14)
    contents.append([f"Generated {report.generated}"])
    contents.append([SAFETY_NOTE])
    contents.append([])
    contents.append(["sheet", "table", "section"])
    for c in contents[5]:
        c.font = bold
    for s in report.sections:
        for t in s.tables:
            name = _sheet_name(t.key, used)
            contents.append([name, _value(t.title), _value(s.title)])
            ws = wb.create_sheet(name)
            ws.append([_value(t.title)])
            ws["A1"].font = bold
            if t.note:
                ws.append([_value(t.note)])
            ws.append([_value(str(c)) for c in t.frame.columns])
            for c in ws[ws.max_row]:
                c.font = bold
            header_row = ws.max_row
            for row in t.frame.itertuples(index=False, name=None):
                ws.append([_value(v) for v in row])
            ws.freeze_panes = ws.cell(row=header_row + 1, column=1)
            for j, col in enumerate(t.frame.columns, start=1):
                width = max([len(str(col))] + [len(str(v)) for v in t.frame[col].head(200)])
                ws.column_dimensions[get_column_letter(j)].width = min(max(width + 2, 8), 60)
    contents.column_dimensions["A"].width = 24
    contents.column_dimensions["B"].width = 60
    contents.column_dimensions["C"].width = 40
    when = _parse_generated(report.generated)
    wb.properties.creator = "sdc"
    wb.properties.created = when
    wb.properties.modified = when
    wb.properties.lastModifiedBy = "sdc"
    buf = io.BytesIO()
    wb.save(buf)
    return _reproducible_zip(buf.getvalue(), when)


def _parse_generated(text: str) -> datetime:
    try:
        return datetime.strptime(text, "%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return datetime(1980, 1, 1)


def _reproducible_zip(data: bytes, when: datetime) -> bytes:
    """Rewrite the archive with fixed entry dates and the report's time in the core properties.

    openpyxl stamps the zip entries (and, in some versions, ``dcterms:modified``) with the wall
    clock; both are replaced so that only the report's own generation time remains.
    """
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                text = body.decode("utf-8")
                text = re.sub(r"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)",
                              lambda m: m.group(1) + stamp + m.group(3), text)
                body = text.encode("utf-8")
            zi = zipfile.ZipInfo(info.filename, date_time=_ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o600 << 16
            dst.writestr(zi, body)
    return out.getvalue()
