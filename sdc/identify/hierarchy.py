"""Generalisation hierarchies: ARX's CSV layout, and builders for numbers, codes, dates and mappings.

A hierarchy lists, for every original value of a quasi-identifier, its label at each
generalisation level: level 0 is the value itself, each further level coarser, usually with
``*`` (everything) at the top. This is ARX's layout (``CSVHierarchyInput``): one row per
value, semicolon-separated, level 0 first, e.g. ::

    39;35-39;30-39;20-39;*
    Male;*

so a hierarchy written for ARX is read unchanged (:func:`read_hierarchy`) and one built
here is written back in the same layout (:meth:`Hierarchy.to_csv`).

A valid hierarchy is a tree: level-0 values are distinct, and each label of a level maps to
exactly one label of the next level (otherwise a transformation would not be a function
of the released value). Every constructor checks this.

Values are matched as text: a data value matches the level-0 row with the same text, where
numbers are written as Python writes them and whole floats without ``.0`` (``39.0`` matches
``39``). Builders below label level 0 with the same text, so a hierarchy built from a column
matches that column.

Builders (ARX's hierarchy builders offer the same kinds; the labels follow ARX's style):

* :func:`interval_hierarchy` — numbers into nested intervals ``[lo, hi[`` of given widths;
* :func:`prefix_hierarchy` — codes and postcodes, masking characters from the right
  (``12345 -> 1234* -> 123** -> ...``, ARX's redaction builder);
* :func:`date_hierarchy` — dates to month, quarter, year, decade;
* :func:`mapping_hierarchy` — user mappings, one dict per level.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._dates import parse_text_dates
from sdc._files import atomic_write
from sdc.core.values import column_text, value_text

__all__ = [
    "Hierarchy", "read_hierarchy", "as_hierarchy", "value_text", "column_text",
    "interval_hierarchy", "prefix_hierarchy", "date_hierarchy", "mapping_hierarchy",
    "DATE_LEVELS",
]

#: Levels of :func:`date_hierarchy`, finest first.
DATE_LEVELS = ("month", "quarter", "year", "decade")


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """A generalisation hierarchy: ``table[i, L]`` is the level-L label of original value i.

    Attributes
    ----------
    table : numpy.ndarray of str, shape (n_values, n_levels)
        Level 0 (the original values, distinct) first.
    name : str or None
        Where it came from (a file name or a builder), for messages and reports.
    """

    table: np.ndarray = field(repr=False)
    name: str | None = None

    def __post_init__(self) -> None:
        t = np.asarray(self.table, dtype=object)
        if t.ndim != 2 or t.shape[0] == 0 or t.shape[1] == 0:
            raise ValueError(f"hierarchy {self._label()} must have at least one row and one level; got shape {t.shape}.")
        t = np.array([[str(v) for v in row] for row in t.tolist()], dtype=object).reshape(t.shape)
        object.__setattr__(self, "table", t)
        seen: set[str] = set()
        for v in t[:, 0]:
            if v in seen:
                raise ValueError(f"hierarchy {self._label()} lists the original value {v!r} more than once.")
            seen.add(v)
        for lev in range(t.shape[1] - 1):
            parent: dict[str, str] = {}
            for a, b in zip(t[:, lev], t[:, lev + 1]):
                if parent.setdefault(a, b) != b:
                    targets = sorted({y for x, y in zip(t[:, lev], t[:, lev + 1]) if x == a})[:3]
                    raise ValueError(
                        f"hierarchy {self._label()} is not a tree: level-{lev} label {a!r} generalises to several "
                        f"level-{lev + 1} labels ({', '.join(map(repr, targets))}); each label needs one parent."
                    )

    def _label(self) -> str:
        return repr(self.name) if self.name else "(unnamed)"

    @property
    def n_levels(self) -> int:
        """Number of levels, level 0 included (the highest level is ``n_levels - 1``)."""
        return int(self.table.shape[1])

    @property
    def n_values(self) -> int:
        return int(self.table.shape[0])

    @property
    def values(self) -> tuple[str, ...]:
        """The original values (level 0)."""
        return tuple(self.table[:, 0])

    def labels(self, level: int) -> tuple[str, ...]:
        """The distinct labels of a level, in order of first appearance."""
        return tuple(pd.unique(self.table[:, self._level(level)]))

    def _level(self, level: int) -> int:
        if not isinstance(level, (int, np.integer)) or not 0 <= level < self.n_levels:
            raise ValueError(f"level must be an integer in 0..{self.n_levels - 1} for hierarchy {self._label()}; got {level!r}.")
        return int(level)

    def mapping(self, level: int) -> dict[str, str]:
        """Original value -> its label at `level`."""
        lev = self._level(level)
        return dict(zip(self.table[:, 0], self.table[:, lev]))

    def to_frame(self) -> pd.DataFrame:
        """The table with columns ``level_0 .. level_h``."""
        return pd.DataFrame(self.table, columns=[f"level_{i}" for i in range(self.n_levels)])

    def to_csv(self, path: str | os.PathLike[str] | None = None, *, sep: str = ";") -> str:
        """ARX's layout (no header, `sep`-separated, level 0 first); written to `path` if given."""
        buf = io.StringIO()
        w = csv.writer(buf, delimiter=sep, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerows(self.table.tolist())
        text = buf.getvalue()
        if path is not None:
            atomic_write(path, text)
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hierarchy) and self.table.shape == other.table.shape and bool((self.table == other.table).all())

    __hash__ = None  # type: ignore[assignment]


def read_hierarchy(path: str | os.PathLike[str], *, sep: str = ";", encoding: str = "utf-8-sig") -> Hierarchy:
    """Read a hierarchy in ARX's CSV layout (one row per value, level 0 first, no header).

    Blank lines are skipped; every other row must have the same number of fields. Quoted
    fields are allowed (RFC 4180 quoting).
    """
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"cannot read hierarchy file '{p}': it is a folder, not a file.")
    if not p.exists():
        raise ValueError(f"cannot read hierarchy file '{p}': no such file.")
    if not p.is_file():
        raise ValueError(f"cannot read hierarchy file '{p}': it is not a regular file.")
    try:
        text = p.read_text(encoding=encoding)
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read hierarchy file '{p}': {exc}") from None
    return _parse(text, sep=sep, name=p.name)


def _parse(text: str, *, sep: str, name: str) -> Hierarchy:
    rows: list[list[str]] = []
    width = None
    for lineno, row in enumerate(csv.reader(io.StringIO(text), delimiter=sep), start=1):
        if not row or all(not f.strip() for f in row):
            continue
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ValueError(
                f"hierarchy file '{name}' line {lineno} has {len(row)} fields; the first row has {width} "
                f"(every row needs one label per level, separated by {sep!r})."
            )
        rows.append(row)
    if not rows:
        raise ValueError(f"hierarchy file '{name}' has no rows.")
    if width == 1:
        other = next((d for d in (",", "\t", "|", ";") if d != sep and all(d in r[0] for r in rows)), None)
        if other is not None:
            raise ValueError(f"hierarchy file '{name}' has one field per line, and every line holds {other!r}: its "
                             f"levels look separated by {other!r}, but ARX's layout (which sdc reads) separates them "
                             f"by {sep!r}; write the file with {sep!r} between the levels.")
    return Hierarchy(np.array(rows, dtype=object), name=name)


def as_hierarchy(obj: object, *, name: str | None = None, base: str | os.PathLike[str] | None = None) -> Hierarchy:
    """A :class:`Hierarchy` from a file path (ARX CSV), a DataFrame or 2-D array in ARX's layout,
    or a Hierarchy. Relative paths are resolved against `base` when given."""
    if isinstance(obj, Hierarchy):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        p = Path(obj)
        if base is not None and not p.is_absolute():
            p = Path(base) / p
        return read_hierarchy(p)
    if isinstance(obj, pd.DataFrame):
        if obj.isna().any().any():
            raise ValueError(f"hierarchy {name!r} has missing cells; every value needs a label at every level.")
        return Hierarchy(obj.to_numpy(dtype=object), name=name)
    if isinstance(obj, np.ndarray) or (isinstance(obj, Sequence) and obj and isinstance(obj[0], Sequence)):
        return Hierarchy(np.asarray(obj, dtype=object), name=name)
    raise TypeError(
        f"hierarchy {name!r} must be a file path, a DataFrame in ARX's layout or a Hierarchy; got {type(obj).__name__}."
    )


# ----------------------------------------------------------------------------- builders


def _distinct(values: object) -> list[object]:
    s = values if isinstance(values, pd.Series) else pd.Series(list(values) if not isinstance(values, np.ndarray) else values)
    s = s.dropna()
    if len(s) == 0:
        raise ValueError("a hierarchy needs at least one non-missing value.")
    return list(pd.unique(s))


def _with_top(columns: list[list[str]], top: bool | str, name: str) -> Hierarchy:
    if top:
        mark = "*" if top is True else str(top)
        if len(set(columns[-1])) > 1 or len(columns) == 1:
            columns.append([mark] * len(columns[0]))
    return Hierarchy(np.array(columns, dtype=object).T, name=name)


def _is_number(v: object) -> bool:
    try:
        float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def _of(values: object) -> str:
    """'column 'x' ' for a named Series, else ''."""
    name = getattr(values, "name", None)
    return f"column {str(name)!r} " if name is not None else ""


def _num(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e15 else repr(float(v))


def interval_hierarchy(
    values: Iterable[float] | pd.Series, widths: Sequence[float], *, start: float | None = None,
    top: bool | str = True,
) -> Hierarchy:
    """Numbers into nested intervals: level i groups values into ``[lo, lo + widths[i-1][``.

    Parameters
    ----------
    values : iterable of numbers
        The values to cover (a data column; missing values are ignored).
    widths : sequence of numbers
        Interval width per level, increasing; each must be a multiple of the previous so the
        intervals nest (a tree).
    start : number, optional
        Where the intervals are anchored (``lo = start + floor((v - start) / w) * w``);
        default: the smallest value rounded down to a multiple of the widest width.
    top : bool or str, default True
        Add a last level where everything is ``*`` (or the given label).

    Labels are ARX's: ``[20, 25[``.
    """
    vals = _distinct(values)
    try:
        nums = np.array([float(v) for v in vals])
    except (TypeError, ValueError):
        bad = next(v for v in vals if not _is_number(v))
        who = f"{_of(values)}holds" if _of(values) else "the values hold"
        raise ValueError(f"interval_hierarchy needs numeric values; {who} text such as {bad!r} (intervals are for "
                         "numbers: give such a column a prefix, mapping or file hierarchy).") from None
    if not np.isfinite(nums).all():
        raise ValueError("interval_hierarchy needs finite values.")
    ws = [float(w) for w in widths]
    if not ws or any(not (w > 0 and math.isfinite(w)) for w in ws):
        raise ValueError(f"`widths` must be positive numbers; got {list(widths)!r}.")
    for a, b in zip(ws, ws[1:]):
        ratio = b / a
        if b <= a or abs(ratio - round(ratio)) > 1e-9:
            raise ValueError(f"`widths` must increase, each a multiple of the previous (so intervals nest); got {a:g} then {b:g}.")
    anchor = float(start) if start is not None else math.floor(nums.min() / ws[-1]) * ws[-1]
    cols = [[value_text(v) for v in vals]]
    for w in ws:
        lo = anchor + np.floor((nums - anchor) / w + 1e-12) * w
        cols.append([f"[{_num(a)}, {_num(a + w)}[" for a in lo])
    return _with_top(cols, top, "intervals " + "/".join(_num(w) for w in ws))


def prefix_hierarchy(
    values: Iterable[object] | pd.Series, *, keep: Sequence[int] | None = None, mask: str = "*",
    top: bool | str = True,
) -> Hierarchy:
    """Codes and postcodes: level i keeps the first ``keep[i-1]`` characters and masks the rest.

    Default `keep`: one character fewer per level (``12345 -> 1234* -> 123** -> 12*** -> 1****``),
    ARX's redaction builder from the right. A code shorter than the kept length is kept whole.
    """
    vals = [value_text(v) for v in _distinct(values)]
    longest = max(len(v) for v in vals)
    ks = list(range(longest - 1, 0, -1)) if keep is None else [int(k) for k in keep]
    if any(b >= a for a, b in zip(ks, ks[1:])) or any(k < 0 for k in ks):
        raise ValueError(f"`keep` must be decreasing non-negative prefix lengths; got {list(ks)!r}.")
    cols = [vals]
    for k in ks:
        cols.append([v[:k] + mask * (len(v) - k) if len(v) > k else v for v in vals])
    return _with_top(cols, top, "prefix " + "/".join(map(str, ks)))


def date_hierarchy(
    values: Iterable[object] | pd.Series, levels: Sequence[str] = ("month", "year"), *, format: str | None = None,
    top: bool | str = True,
) -> Hierarchy:
    """Dates to coarser periods: any of ``"month"`` (2020-03), ``"quarter"`` (2020-Q1),
    ``"year"`` (2020), ``"decade"`` (2020-2029), finest first.

    Level 0 is each value's own text (as it appears in the data); `format` is passed to
    :func:`pandas.to_datetime` to parse it.
    """
    lv = list(levels)
    if not lv or any(x not in DATE_LEVELS for x in lv):
        raise ValueError(f"`levels` must be a non-empty list of {', '.join(map(repr, DATE_LEVELS))}; got {lv!r}.")
    if [DATE_LEVELS.index(x) for x in lv] != sorted({DATE_LEVELS.index(x) for x in lv}) or len(set(lv)) != len(lv):
        raise ValueError(f"`levels` must go from fine to coarse without repeats ({', '.join(DATE_LEVELS)}); got {lv!r}.")
    vals = _distinct(values)
    series = pd.Series(vals, dtype=object)
    name = str(getattr(values, "name", None) or "values")
    if format is None and not all(isinstance(v, (pd.Timestamp, np.datetime64)) or hasattr(v, "isoformat")
                                  for v in vals):
        try:
            d = parse_text_dates(series.map(str), name)  # one reading for every value (or a clear refusal)
        except ValueError as exc:
            raise ValueError(f"date_hierarchy could not parse the dates: {exc}") from None
    else:
        d = pd.to_datetime(series, format=format, errors="coerce")
    if d.isna().any():
        bad = vals[int(np.argmax(d.isna().to_numpy()))]
        raise ValueError(f"date_hierarchy could not read {bad!r} as a date{'' if format is None else f' in {format}'}; "
                         f"{_of(values) or 'the values '}need dates (give their format, or another builder for text).")
    year = d.dt.year.to_numpy()
    label = {
        "month": [f"{y:04d}-{m:02d}" for y, m in zip(year, d.dt.month.to_numpy())],
        "quarter": [f"{y:04d}-Q{q}" for y, q in zip(year, d.dt.quarter.to_numpy())],
        "year": [f"{y:04d}" for y in year],
        "decade": [f"{y // 10 * 10:04d}-{y // 10 * 10 + 9:04d}" for y in year],
    }
    cols = [[value_text(v) for v in vals]] + [label[x] for x in lv]
    return _with_top(cols, top, "dates " + "/".join(lv))


def mapping_hierarchy(
    levels: Sequence[Mapping[Any, Any]], *, values: Iterable[object] | None = None, top: bool | str = True,
) -> Hierarchy:
    """A hierarchy from user mappings: ``levels[0]`` maps each original value to its level-1
    label, ``levels[1]`` each level-1 label to its level-2 label, and so on.

    `values` (optional) lists the original values to cover; by default the keys of
    ``levels[0]``. Every value and label must be mapped at each level.
    """
    if isinstance(levels, Mapping):
        levels = [levels]
    if not levels:
        raise ValueError("`levels` must hold at least one mapping.")
    maps = [{value_text(k): value_text(v) for k, v in m.items()} for m in levels]
    vals = [value_text(v) for v in (_distinct(values) if values is not None else list(levels[0].keys()))]
    cols = [vals]
    for i, m in enumerate(maps):
        prev = cols[-1]
        missing = [v for v in dict.fromkeys(prev) if v not in m]
        if missing:
            raise ValueError(
                f"mapping for level {i + 1} has no entry for {', '.join(map(repr, missing[:3]))}"
                + (f" and {len(missing) - 3} more" if len(missing) > 3 else "") + "."
            )
        cols.append([m[v] for v in prev])
    return _with_top(cols, top, "mapping")
