"""What an Excel sheet holds that reading its cells does not show: title rows above the table,
merged cells and formulas saved without their values.

pandas reads a sheet's first row as the header and each cell's saved value. Three layouts
then mislead without a word:

* **title rows** -- a title in A1 (and blank rows) above the table: the title becomes the one
  column name and the table's header a record. Refused, saying which row looks like the header.
* **merged cells** -- Excel keeps a merged range's value in its first cell only: the other
  records of the range read as missing (and missing key values match every value). Warned,
  naming the range and the column.
* **formulas without saved values** -- a workbook written by a program that does not calculate
  (a script, some exporters) holds the formulas but no results: the column reads as missing.
  Warned, naming the column and its cells.

The sheet is opened read-only (cells are streamed, not loaded), and the merged ranges are read
from the sheet's XML, so the checks cost little beside the reading itself.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from pathlib import Path

import pandas as pd

from sdc.exceptions import DataFileError, SdcWarning

__all__ = ["check_sheet"]

#: Rows searched below a title for the table's header.
_HEADER_ROWS = 20
_MERGE = re.compile(rb'<mergeCell ref="([A-Z]+)(\d+):([A-Z]+)(\d+)"')


def _col_index(letters: bytes | str) -> int:
    """0-based index of an Excel column (A -> 0, AA -> 26)."""
    n = 0
    for ch in letters.decode() if isinstance(letters, bytes) else letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        out = chr(65 + r) + out
    return out


def check_sheet(p: Path, sheet: str | int, df: pd.DataFrame) -> None:
    """Refuse title rows, warn of merged cells and of formulas without values (see the module notes)."""
    import openpyxl

    try:
        wb = openpyxl.load_workbook(p, read_only=True, data_only=False)
    except Exception:  # noqa: BLE001  (pandas read it: a check that cannot open it adds nothing)
        return
    try:
        ws = wb[sheet] if isinstance(sheet, str) else wb.worksheets[sheet]
        where = f"data file '{p}', sheet {ws.title!r}"
        _title_rows(ws, df, where)
        _merged(p, ws, df, where)
        _formulas(ws, df, where)
    finally:
        wb.close()


def _title_rows(ws: object, df: pd.DataFrame, where: str) -> None:
    """A first row of one cell above a wider table is a title, not the header."""
    rows = list(ws.iter_rows(min_row=1, max_row=_HEADER_ROWS + 1, values_only=True))  # type: ignore[attr-defined]
    if not rows:
        return
    filled = [i for i, v in enumerate(rows[0]) if v not in (None, "")]
    if len(filled) != 1 or df.shape[1] < 2:
        return
    header = next((i for i, r in enumerate(rows[1:], 2) if _looks_like_header(r)), None)
    title = str(rows[0][filled[0]])
    title = title if len(title) <= 40 else title[:37] + "..."
    if header is None:
        raise DataFileError(f"cannot read {where}: row 1 holds one cell ({title!r}) above a table of {df.shape[1]} "
                            "columns, so the columns have no names; sdc reads the header from row 1: delete the rows "
                            "above the table's header.")
    names = [str(v) for v in rows[header - 1] if v not in (None, "")]
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    raise DataFileError(f"cannot read {where}: row 1 holds a title ({title!r}), not column names; the table's header "
                        f"looks to be row {header} ({shown}): delete the {header - 1} row(s) above it (sdc reads the "
                        "header from row 1), or save the table alone as CSV.")


def _looks_like_header(row: tuple) -> bool:
    cells = [v for v in row if v not in (None, "")]
    return len(cells) >= 2 and all(isinstance(v, str) for v in cells) and len(set(cells)) == len(cells)


def _merged(p: Path, ws: object, df: pd.DataFrame, where: str) -> None:
    """Merged ranges over several records of a column: their other cells read as missing."""
    part = getattr(ws, "_worksheet_path", None)
    if not part:
        return
    try:
        with zipfile.ZipFile(p) as z, z.open(part) as fh:
            xml = fh.read()
    except (OSError, KeyError, zipfile.BadZipFile):
        return
    for c1, r1, c2, r2 in _MERGE.findall(xml):
        first, last, top, bottom = _col_index(c1), _col_index(c2), int(r1), int(r2)
        if bottom <= max(top, 1) or first >= df.shape[1]:
            continue  # within one row (a header spanning columns reads as its first cell's name)
        column = str(df.columns[first])
        lost = (bottom - max(top, 2) + 1) - (1 if top >= 2 else 0)
        more = " and the next" if last > first else ""
        warnings.warn(f"{where}: cells {c1.decode()}{top}:{c2.decode()}{bottom} are merged (column {column!r}{more}): "
                      f"Excel keeps the value in the first cell only, so {max(lost, 0)} record(s) read as missing "
                      "there; unmerge the cells, filling the value into each, and save again.", SdcWarning,
                      stacklevel=4)


def _formulas(ws: object, df: pd.DataFrame, where: str) -> None:
    """A column missing in every record whose cells are formulas: saved without their values."""
    for j, col in enumerate(df.columns):
        if len(df) == 0 or not df[col].isna().all():
            continue
        letter = _letters(j)
        cells = ws.iter_rows(min_row=2, max_row=len(df) + 1, min_col=j + 1, max_col=j + 1,  # type: ignore[attr-defined]
                             values_only=True)
        n = sum(1 for (v,) in cells if isinstance(v, str) and v.startswith("="))
        if n:
            warnings.warn(f"{where}: column {str(col)!r} holds formulas with no saved values ({n} of its cells, "
                          f"{letter}2:{letter}{len(df) + 1}), so it reads as missing in every record: the workbook was "
                          "written by a program that does not calculate them; open and save it in Excel or "
                          "LibreOffice, or export the sheet as CSV.", SdcWarning, stacklevel=4)
