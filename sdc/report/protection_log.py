"""The protection log (``protection.json``'s content) as report sections: the input and the
release, the steps in order, each step's parameters, changes and details. Shown in
``protection.md`` (:mod:`sdc.report.protection`) and in the comparison report
(:mod:`sdc.report.compare`) alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from sdc.protect._result import CELLS_CHANGED
from sdc.report.content import Section, Table
from sdc.report.formatting import fmt_num
from sdc.report.serialize import jsonable
from sdc.workflow.protect import ProtectionRun

__all__ = ["protection_sections", "step_tables", "steps_table", "ProtectionFolder", "protection_document"]


def _frame(obj: Any) -> pd.DataFrame | None:
    """A log table ({"columns": [...], "rows": [[...]]}) as a DataFrame."""
    if isinstance(obj, Mapping) and set(obj) == {"columns", "rows"}:
        return pd.DataFrame(obj["rows"], columns=obj["columns"])
    return None


def _text(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(_text(x) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{k} = {_text(x)}" for k, x in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return fmt_num(v)
    return "" if v is None else str(v)


def steps_table(log: Mapping[str, Any]) -> pd.DataFrame:
    """One row per step: method, variables, parameters, seed, cells changed, records dropped."""
    rows = []
    for st in log.get("steps", []):
        params = {k: v for k, v in (st.get("parameters") or {}).items()}
        var_names = [k for k in ("variables", "keys") if k in params]
        for k in var_names:
            params.pop(k)
        rows.append((st["number"], _method(st), _text(st.get("variables") or st.get("columns_dropped")), _text(params),
                     "" if st.get("seed") is None else str(st["seed"]) + (" (from the plan's seed)"
                                                                          if st.get("seed_source") == "plan" else ""),
                     int(st.get("cells_changed_total", 0)), int(st.get("records_dropped", 0))))
    return pd.DataFrame(rows, columns=["step", "method", "variables", "parameters", "seed", "cells changed",
                                       "records dropped"])


def _method(st: Mapping[str, Any]) -> str:
    """The step's method as what it did: a pseudonymisation step that only drops columns reads
    "drop columns" (the plan's method name in brackets)."""
    m = st["method"]
    if st.get("columns_dropped") and not st.get("variables"):
        return f"drop columns ({m} step)"
    return f"{m}; drop columns" if st.get("columns_dropped") else m


def _scalar_like(v: Any) -> bool:
    return not isinstance(v, Mapping) and not (isinstance(v, list) and any(isinstance(x, (Mapping, list)) for x in v))


def _collect(path: list[str], value: Any, rows: list[tuple[str, str]], tables: list[tuple[str, pd.DataFrame]]) -> None:
    """Walk a step's details: tables become tables, a mapping of plain values a two-column
    table, anything else an (item, value) row."""
    f = _frame(value)
    if f is not None:
        tables.append((" / ".join(path), f))
    elif isinstance(value, Mapping) and value and all(_scalar_like(x) for x in value.values()) and len(value) > 1 \
            and path:
        tables.append((" / ".join(path), pd.DataFrame([(str(k), _cell(v)) for k, v in value.items()],
                                                      columns=["item", "value"])))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _collect([*path, str(k)], v, rows, tables)
    else:
        rows.append((" / ".join(path), _text(value)))


def _cell(v: Any) -> Any:
    return v if isinstance(v, (int, float, str)) and not isinstance(v, bool) else _text(v)


def step_tables(st: Mapping[str, Any]) -> list[Table]:
    """A step's changes and details as report tables."""
    n = st["number"]
    m = "drop columns" if st.get("columns_dropped") and not st.get("variables") else st["method"]
    tag = f"step {n}"
    out = []
    changed = st.get("cells_changed") or {}
    if changed:
        recs = max(int(st.get("records_after", 0)), 1)
        out.append(Table(f"{tag} changes"[:31], f"Step {n} ({m}): cells changed per variable",
                         pd.DataFrame([(v, c, c / recs) for v, c in changed.items()],
                                      columns=["variable", "cells changed", "share of records"])))
    rows: list[tuple[str, str]] = []
    tables: list[tuple[str, pd.DataFrame]] = []
    _collect([], st.get("details") or {}, rows, tables)
    for i, (name, frame) in enumerate(tables):
        out.append(Table(f"{tag} t{i + 1} {name}"[:31], f"Step {n} ({m}): {name}", frame))
    if rows:
        out.append(Table(f"{tag} details"[:31], f"Step {n} ({m}): details",
                         pd.DataFrame([(k, v) for k, v in rows], columns=["item", "value"])))
    return out


def protection_sections(log: Mapping[str, Any], *, prefix: str = "") -> list[Section]:
    """The log as report sections: input and release, the steps, each step's changes and
    details, the cells changed per variable. `prefix` keeps section keys unique in a bigger report."""
    inp, rel, plan = log.get("input", {}), log.get("released", {}), log.get("plan", {})
    rows = [("input file", inp.get("file")), ("input SHA-256", inp.get("sha256")),
            ("input records", inp.get("records")), ("input variables", inp.get("variables")),
            ("released file", rel.get("file")), ("released SHA-256", rel.get("sha256")),
            ("released records", rel.get("records")), ("released variables", rel.get("variables")),
            ("columns dropped", _text(rel.get("columns_dropped")) or "none"),
            ("records dropped", (log.get("totals") or {}).get("records_dropped", 0)),
            ("plan", plan.get("source")), ("plan seed", None if plan.get("seed") is None else str(plan["seed"]))]
    rows += [("reading the input", n) for n in inp.get("notes") or []]
    if rel.get("note"):
        rows.append(("note", rel["note"]))
    kv = pd.DataFrame([(k, _text(v)) for k, v in rows if v is not None], columns=["item", "value"])
    out = [Section(f"{prefix}io", "Input and release", tables=[Table(f"{prefix}release", "Input and release", kv)])]
    out.append(Section(f"{prefix}steps", "Protection steps",
                       ["Applied in this order; a step without its own seed got one derived from the plan's seed "
                        "(numpy SeedSequence of the plan's seed and the step number)."],
                       tables=[Table(f"{prefix}steps", "Steps", steps_table(log))]))
    for st in log.get("steps", []):
        params = {k: v for k, v in (st.get("parameters") or {}).items() if v not in ([], "", None)}
        paras = [f"Parameters: {_text(params) or 'none'}."
                 + (f" Seed: {st['seed']}." if st.get("seed") is not None else "")]
        paras += [f"Note: {n}" for n in st.get("notes") or []]
        out.append(Section(f"{prefix}step{st['number']}", f"Step {st['number']}: {st.get('action') or st['method']}", paras,
                           tables=[replace(t, key=f"{prefix}{t.key}"[:31]) for t in step_tables(st)]))
    totals = log.get("totals") or {}
    tot = totals.get("cells_changed") or {}
    if tot:
        out.append(Section(f"{prefix}totals", "Cells changed per variable (original vs release)", [
            _definition(totals.get("cells_changed_definition")) + " The comparison counts the same cells: its "
            "\"cells changed\" is this table's total. A step's own count (in the steps table) is the cells that "
            "step changed in its input, so the steps' counts can add up to more."], tables=[
            Table(f"{prefix}cells changed", "Cells changed per variable (original vs release)",
                  pd.DataFrame(list(tot.items()), columns=["variable", "cells changed"]))]))
    return out


def _definition(text: str | None) -> str:
    """The log's definition of a changed cell as a sentence (an older log: the one in force)."""
    t = text or CELLS_CHANGED
    return t[0].upper() + t[1:] + "."


@dataclass(frozen=True)
class ProtectionFolder:
    """Where the run's outputs went."""

    path: Path
    files: tuple[str, ...]
    released: str
    released_sha256: str


def protection_document(run: ProtectionRun, released_name: str, released_sha256: str, note: str = "") -> dict[str, Any]:
    """``protection.json``: the run's log with the released file's name and SHA-256."""
    doc = run.log()
    doc["released"] = {"file": released_name, "sha256": released_sha256, **doc["released"]}
    if note:
        doc["released"]["note"] = note
    return jsonable(doc)
