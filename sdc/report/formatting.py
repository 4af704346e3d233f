"""Formatting for display: numbers (the only place they are rounded), text made inert for a
terminal or Markdown, plain aligned tables. Results are presented through the report's sections
(:mod:`sdc.report.content`), on the console too (:func:`sdc.report.text.console_text`)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd


__all__ = ["visible", "one_line_text", "md_text", "passes_if", "fmt_num", "fmt_pct", "format_cell", "render_table"]


# Characters a terminal or a text viewer acts on rather than shows: C0 controls but tab and
# line feed, DEL, C1 controls (0x9b is an 8-bit CSI), and the Unicode bidirectional overrides
# and isolates that reorder what is shown ("Trojan source").
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: The same but the carriage return, which a CSV field may hold (quoted): sdc.report.safety.
CONTROL_BUT_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAKS = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def _escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: object, *, keep_cr: bool = False) -> str:
    r"""`text` with every control character shown as an escape, never acted on: ``"\x1b[31m"``
    prints as the eight characters ``\x1b[31m``, not as a colour change. Line feeds and tabs
    stay, and carriage returns with `keep_cr`.

    >>> visible("red \x1b[31m!\r")
    'red \\x1b[31m!\\x0d'
    """
    return (CONTROL_BUT_CR if keep_cr else _CONTROL).sub(_escape_char, str(text))


def one_line_text(text: object) -> str:
    """`text` on one line: line breaks of any kind become a space, other controls are shown
    escaped (a name with a line break cannot start a line, a heading, of its own)."""
    return visible(_LINE_BREAKS.sub(" ", str(text)))


_MD_ALWAYS = re.compile(r"([\\`*\[\]|~])")
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_MD_ENTITY = re.compile(r"&(?=[A-Za-z#])")
# GitHub's Markdown turns a bare URL (http://..., www.x) into a link: "\/" and "\." (CommonMark
# escapes, shown as "/" and ".") break the pattern it looks for.
_MD_AUTOLINK = re.compile(r"(?i)(?<=:)//|(?<![\w.])(www)\.")
# Block openers (CommonMark): an ordered-list marker or a "-"/"+" bullet only opens a block when
# a space or the end follows ("0.3049" and "-2" are plain text, left unescaped); "#", ">", "="
# and a "-" before another "-" (a thematic break) are escaped wherever they start the text.
_MD_BLOCK = re.compile(r"^(\s*|\s*\d{1,9})((?<=\d)[.)](?=\s|$)|(?<!\d)(?:[#>=]|[-+](?=\s|$|-)))")


def md_text(text: object, *, start: bool = True) -> str:
    r"""`text` as inert Markdown on one line: no HTML element (``<script>``, ``<img ...>``), no
    link or image, no emphasis or code span, no entity, no heading, quote or list can come
    from it; what a reader sees is the text. Backslash escapes (CommonMark) keep it readable.
    `start`: the text starts a block (a paragraph, a heading), so a leading ``#``, ``-``,
    ``>`` or ``1.`` is escaped too; in a table cell it need not be.

    >>> md_text("<img src=x onerror=alert(1)> & [x](javascript:y)\n# H")
    '\\<img src=x onerror=alert(1)> & \\[x\\](javascript:y) # H'
    >>> md_text("l < 2 and local_suppression")
    'l < 2 and local_suppression'
    >>> md_text("see http://evil.example or www.evil.example")
    'see http:\\/\\/evil.example or www\\.evil.example'
    """
    t = one_line_text(text)
    t = _MD_ALWAYS.sub(r"\\\1", t)
    t = _MD_TAG.sub(r"\\<", t)
    t = _MD_ENTITY.sub(r"\\&", t)
    t = _MD_AUTOLINK.sub(lambda m: r"\/\/" if m.group(1) is None else m.group(1) + r"\.", t)
    if not start:  # inside a table cell a text cannot open a block
        return t
    return _MD_BLOCK.sub(lambda m: m.group(1) + "\\" + m.group(2), t)


def passes_if(threshold: str) -> str:
    """A verdict's threshold as a condition: a bare number means "must equal it"; information
    rows have none ("-")."""
    t = str(threshold)
    return "-" if t == "info" else (t if t.startswith(("<", ">")) else f"= {t}")


def fmt_num(x: float | int | None, digits: int = 4) -> str:
    """Integers with thousands separators; floats to `digits` decimals (`digits` significant digits below 1)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NA"
    if isinstance(x, int) or float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    v = float(x)
    if v != 0 and abs(v) < 1e-6:
        return f"{v:.{digits - 1}e}"
    if v != 0 and abs(v) < 1:
        # Below 1 keep `digits` significant digits: 0.009977 must not print as 0.01.
        decimals = digits - 1 - math.floor(math.log10(abs(v)))
        return f"{v:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{v:,.{digits}f}".rstrip("0").rstrip(".")


def fmt_pct(x: float) -> str:
    return "NA" if math.isnan(x) else f"{x:.2f}%"


def render_table(df: pd.DataFrame, *, indent: str = "  ", formats: dict[str, str] | None = None) -> str:
    """A plain aligned table (numbers right-aligned, text left-aligned).

    `formats` maps a column to a format spec (e.g. ``".2f"``) used instead of :func:`fmt_num`.
    """
    fmts = [(formats or {}).get(str(c)) for c in df.columns]
    cols = [one_line_text(c) for c in df.columns]
    cells = [[format_cell(v, f) for v, f in zip(row, fmts)] for row in df.itertuples(index=False, name=None)]
    numeric = [pd.api.types.is_numeric_dtype(df.iloc[:, j]) for j in range(df.shape[1])]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(cols)]

    def line(vals: list[str]) -> str:
        return indent + "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(vals, widths, numeric)).rstrip()

    out = [line(cols), indent + "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    return "\n".join(out)


def format_cell(v: object, spec: str | None = None) -> str:
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return "NA"
    if spec is not None:
        return format(v, spec)
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"  # a reader's word; True/False only in the JSON and CSV files
    if isinstance(v, (tuple, list)):
        return one_line_text(" + ".join(map(str, v)))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return fmt_num(v)
    return one_line_text(v)
