"""``report.xlsx``: one sheet per report table, after a contents sheet.

Each sheet is named after its table (``s1 Individual and global risk``: the scenario's tag,
then the title, cut to Excel's 31 characters and made unique) and listed, with a link, on
the contents sheet. Numbers are stored as numbers (counts with a thousands separator), the
columns carry the report's human labels, the header row is frozen and filterable, and a
verdict cell is coloured: red for fail, green for pass.

Text cells are text: one a spreadsheet would read as a formula (:mod:`sdc.report.safety`)
carries the quote prefix, so it shows as it is and never runs. The workbook is made
reproducible: its document properties carry the report's generation time
instead of the wall clock, and the zip entries carry a fixed date, so the same results give
the same bytes.
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

__all__ = ["render_xlsx", "data_workbook"]

_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\\x00-\x1f\x7f]")
_SCENARIO_TAG = re.compile(r"^(s\d+) ")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_FILL = {"fail": "FBE3E1", "pass": "E3F4E1", "info": "F2F2F2"}
_FONT = {"fail": "A12617", "pass": "1D6B1A", "info": "555555"}


def _sheet_name(key: str, used: set[str], title: str | None = None) -> str:
    """A sheet name: the table's scenario tag and title (else its key), without the characters
    Excel refuses, at most 31 characters, unique (case-insensitively, as Excel compares)."""
    text = key
    if title:
        tag = _SCENARIO_TAG.match(key)
        text = (tag.group(1) + " " if tag else "") + title
    base = _BAD_SHEET_CHARS.sub("_", text).strip().strip("'")[:31].rstrip().rstrip("'") or "sheet"
    if base.lower() == "history":  # reserved by Excel
        base = "History (table)"
    name, i = base, 2
    while name.lower() in used:
        suffix = f" ({i})"
        name, i = base[: 31 - len(suffix)].rstrip() + suffix, i + 1
    used.add(name.lower())
    return name


def _plain(v: object) -> object:
    """None for a missing value, Python bool/int/float for numbers (infinities as text: a
    workbook has none), anything else as it is."""
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) else (str(f) if math.isinf(f) else f)
    return v


def _value(v: object) -> object:
    """A report table's cell: numbers as numbers, anything else as its text (control
    characters left out). Text is stored as text (:func:`_as_text`), never as a formula."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    v = _plain(v)
    if isinstance(v, bool):
        return "yes" if v else "no"  # a reader's word, as on the other pages (JSON and CSV keep the boolean)
    if v is None or isinstance(v, (int, float)):
        return v
    if isinstance(v, (tuple, list)):
        v = " + ".join(map(str, v))
    return ILLEGAL_CHARACTERS_RE.sub("", str(v))


def _as_text(wb) -> None:  # noqa: ANN001
    """Every cell openpyxl took for a formula (text starting with ``=``) becomes text, and a
    text cell a spreadsheet would read as a formula (``= + - @``, tab, CR) gets the quote
    prefix: shown as typed, kept as text when edited, never run. (The report writes no
    formula; an apostrophe in the value, as in the CSV files, would show.)"""
    for ws in wb:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and (c.data_type == "f" or c.value != neutralise(c.value)):
                    c.data_type = "s"
                    c.quotePrefix = True


def _shown(t) -> pd.DataFrame:  # noqa: ANN001
    return t.display() if hasattr(t, "display") else t.frame


def render_xlsx(report: Report) -> bytes:
    """The workbook's bytes."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.hyperlink import Hyperlink

    bold = Font(bold=True)
    header_fill = PatternFill("solid", fgColor="EEF2F7")
    wb = Workbook()
    contents = wb.active
    contents.title = "Contents"
    used = {"contents"}
    contents.append([report.title])
    contents["A1"].font = Font(bold=True, size=14)
    contents.append([f"Generated {report.generated}"])
    contents.append([SAFETY_NOTE])
    for line in (p for s in report.sections if s.key == "audience" for p in s.paragraphs):
        contents.append([_value(line)])
    contents.append([])
    contents.append(["sheet", "table", "section"])
    for c in contents[contents.max_row]:
        c.font = bold
    for s in report.sections:
        for t in s.tables:
            name = _sheet_name(t.key, used, t.title)
            contents.append([name, _value(t.title), _value(s.title)])
            link = contents.cell(row=contents.max_row, column=1)
            link.hyperlink = Hyperlink(ref=link.coordinate, location=f"'{name.replace(chr(39), chr(39) * 2)}'!A1")
            link.font = Font(color="1F4E8C", underline="single")
            ws = wb.create_sheet(name)
            ws.append([_value(t.title)])
            ws["A1"].font = bold
            if t.note:
                ws.append([_value(t.note)])
                ws.cell(row=ws.max_row, column=1).alignment = Alignment(wrap_text=False)
            frame = _shown(t)
            ws.append([_value(str(c)) for c in frame.columns])
            header_row = ws.max_row
            for c in ws[header_row]:
                c.font = bold
                c.fill = header_fill
            verdict_cols = [j for j, c in enumerate(frame.columns, start=1) if str(c).lower().startswith("verdict")]
            for r, row in enumerate(frame.itertuples(index=False, name=None), start=header_row + 1):
                ws.append([_value(v) for v in row])  # row r (ws.max_row would scan the sheet per row)
                for j, v in enumerate(row, start=1):
                    cell = ws.cell(row=r, column=j)
                    if isinstance(cell.value, int) and not isinstance(cell.value, bool):
                        cell.number_format = "#,##0"
                    if j in verdict_cols and str(v) in _FILL:
                        cell.fill = PatternFill("solid", fgColor=_FILL[str(v)])
                        cell.font = Font(bold=True, color=_FONT[str(v)])
            ws.freeze_panes = ws.cell(row=header_row + 1, column=1)
            if len(frame) and frame.shape[1]:
                ws.auto_filter.ref = f"A{header_row}:{get_column_letter(frame.shape[1])}{ws.max_row}"
            for j in range(frame.shape[1]):
                col = frame.iloc[:200, j]
                width = max([len(str(frame.columns[j]))] + [len(str(v)) for v in col])
                ws.column_dimensions[get_column_letter(j + 1)].width = min(max(width + 2, 8), 60)
    notes = [p for s in report.sections if s.key == "notes" for p in s.paragraphs]
    if notes:  # the warnings and notes of every step and read travel into the workbook too
        ws = wb.create_sheet(_sheet_name("notes", used, "Notes"))
        ws.append(["Notes"])
        ws["A1"].font = bold
        for line in notes:
            ws.append([_value(line)])
        contents.append([ws.title, "Notes (the warnings and notes of the run)", "Notes"])
    contents.column_dimensions["A"].width = 24
    contents.column_dimensions["B"].width = 60
    contents.column_dimensions["C"].width = 40
    _as_text(wb)
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


def _data_cell(v: object) -> object:
    """A data value as openpyxl stores it, unchanged where a workbook can hold it: numbers and
    dates as such; as text a number no cell holds exactly (infinite, or an integer beyond
    2^53) and a date with a time zone (ISO 8601, zone kept); in text, a control character as
    the workbook's own escape ``_xHHHH_``, which spreadsheet readers turn back into it."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    v = _plain(v)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**53:
        return str(v)
    if isinstance(v, datetime):  # pandas' Timestamps are datetimes
        if v.tzinfo is not None:
            return v.isoformat()
        return v.to_pydatetime() if isinstance(v, pd.Timestamp) else v
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return ILLEGAL_CHARACTERS_RE.sub(lambda m: f"_x{ord(m.group(0)):04X}_", str(v))


def data_workbook(data: pd.DataFrame, *, sheet: str, when: datetime) -> bytes:
    """A data file as a workbook of one sheet: the header, then the records, every value as
    it is (unlike the report's tables, nothing is prefixed: this is the data). Text cells are
    text: openpyxl would make a string starting with ``=`` a formula. The archive carries
    `when` as its only time."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet)

    def text(v: str) -> WriteOnlyCell:
        cell = WriteOnlyCell(ws, value=v)
        cell.data_type = "s"  # a value, never a formula
        return cell

    def cell(v: object) -> object:
        c = _data_cell(v)
        return text(c) if isinstance(c, str) else c

    ws.append([cell(str(c)) for c in data.columns])
    columns = [data[c].astype(object).to_numpy() for c in data.columns]
    for i in range(len(data)):  # openpyxl takes cells one by one; a workbook holds at most 2^20 rows
        ws.append([cell(col[i]) for col in columns])
    wb.properties.creator = "sdc"
    wb.properties.created = when
    wb.properties.modified = when
    buf = io.BytesIO()
    wb.save(buf)
    return _reproducible_zip(buf.getvalue(), when)
