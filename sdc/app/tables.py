"""Tables as the browser receives them: column names and rows of JSON-ready cells (missing as
null), capped so a page never receives a whole large file."""

from __future__ import annotations

from typing import Any

import pandas as pd

from sdc._json import jsonable

__all__ = ["frame_json", "before_after_json", "MAX_ROWS"]

#: The most rows a table sends to the page; the page says when a table was cut.
MAX_ROWS = 500


def frame_json(df: pd.DataFrame, max_rows: int = MAX_ROWS) -> dict[str, Any]:
    """``{"columns": [...], "rows": [[...], ...], "total": n}`` for a DataFrame (its index
    dropped; lists and other objects as text)."""
    shown = df.head(max_rows)
    rows = [[_cell(v) for v in row] for row in shown.itertuples(index=False, name=None)]
    return {"columns": [str(c) for c in df.columns], "rows": rows, "total": int(len(df))}


def before_after_json(summary: pd.DataFrame) -> dict[str, Any]:
    """A comparison's ``summary()`` as the page shows it: each figure by its description (not
    its statistic name), a single value under "value" and a (before, after) pair in two columns;
    figures that are not defined for this run (NaN, None) are left out."""
    rows = []
    for desc, v in zip(summary["description"], summary["value"]):
        if v is None or (isinstance(v, float) and v != v):
            continue
        pair = isinstance(v, tuple) and len(v) == 2
        desc = str(desc).removesuffix(", before and after") if pair else str(desc)
        rows.append([desc, None if pair else _cell(v), *((_cell(v[0]), _cell(v[1])) if pair else (None, None))])
    return frame_json(pd.DataFrame(rows, columns=["measure", "value", "before", "after"]))


def _cell(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v)
    return jsonable(v)
