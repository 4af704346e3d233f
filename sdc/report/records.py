"""Per-record tables: which records are at risk under which model, and why.

File names are fixed (documented in docs/report.md):

* ``records_at_risk_k{K}.csv``: records in an equivalence class with fk < K;
* ``records_at_risk_l{L}_{sensitive}.csv``: records in a class with fewer than L distinct
  values of the sensitive variable;
* ``records_at_risk_t{T}_{sensitive}.csv``: records in a class whose distribution of the
  sensitive variable is farther than T from the whole file's;
* ``records.csv``: every record with every per-record measure and a flag per model.

Each at-risk file has the record number (1-based row of the input), the id column when one
is configured, the scenario, the key values as assessed (after binning), the class and the
measure's value. With several scenarios a record appears once per scenario in which it is
at risk; a key that is not part of that scenario is left empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc.workflow.assess import Assessment, ScenarioResult

__all__ = ["RecordTables", "record_tables", "slug"]


@dataclass(frozen=True)
class RecordTables:
    """The per-record tables of a run, keyed by their file name."""

    files: dict[str, pd.DataFrame]
    descriptions: dict[str, str]


def slug(name: str) -> str:
    """A file-name-safe form of a variable or scenario name.

    >>> slug("blood pressure/2"), slug("DM__AGE")
    ('blood_pressure_2', 'DM__AGE')
    """
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(name)).strip("_.")
    return s or "x"


def _num(x: float) -> str:
    """A threshold as it appears in a file name: 0.2 -> '0.2', 3 -> '3'."""
    return f"{x:g}"


def _base(a: Assessment) -> pd.DataFrame:
    base = pd.DataFrame({"record": np.arange(1, len(a.data) + 1)})
    if a.config.id:
        base[a.config.id] = a.data[a.config.id].to_numpy()
    return base


def _with_keys(base: pd.DataFrame, a: Assessment, r: ScenarioResult, rows: np.ndarray, all_keys: list[str]
               ) -> pd.DataFrame:
    """`base` (record number and id) at `rows`, with the scenario and its key values as assessed."""
    out = base.iloc[rows].reset_index(drop=True)
    out.insert(len(out.columns), "scenario", r.scenario.name)
    for k in all_keys:
        if k in r.scenario.keys:
            out[k] = a.assessed[k].to_numpy()[rows]
        else:
            out[k] = pd.Series([None] * len(rows), dtype=object)
    return out


def _prefix(a: Assessment, r: ScenarioResult) -> str:
    return "" if len(a.scenarios) == 1 else f"{slug(r.scenario.name)}."


def record_tables(a: Assessment) -> RecordTables:
    """Build the at-risk files and the joined per-record table of an assessment."""
    thr = a.config.thresholds
    all_keys = list(dict.fromkeys(k for r in a.scenarios for k in r.scenario.keys))
    base = _base(a)
    classes = {r.scenario.name: r.key_classes.classes for r in a.scenarios}  # computed once, by the assessment
    files: dict[str, pd.DataFrame] = {}
    desc: dict[str, str] = {}

    # k-anonymity
    parts = []
    for r in a.scenarios:
        fk = r.risk.sample_frequency.to_numpy()
        rows = np.flatnonzero(fk < thr.k)
        t = _with_keys(base, a, r, rows, all_keys)
        t["class"] = classes[r.scenario.name].ids[rows]
        t["fk"] = fk[rows]
        if a.config.weights:
            t["Fk"] = r.risk.population_frequency.to_numpy()[rows]
        t["risk"] = r.risk.risk.to_numpy()[rows]
        parts.append(t)
    name = f"records_at_risk_k{thr.k}.csv"
    files[name] = _stack(parts)
    desc[name] = f"records with sample frequency fk < {thr.k}"

    # l-diversity and t-closeness, per sensitive variable
    for s in a.config.sensitive:
        lvals = {r.scenario.name: r.ldiversity.records[f"{s}_Distinct_Ldiversity"].to_numpy()
                 for r in a.scenarios if r.ldiversity is not None}
        table = _at_risk(base, a, classes, all_keys, {n: {"l_distinct": v} for n, v in lvals.items()},
                         {n: v < thr.l for n, v in lvals.items()}, {})
        if table is not None:
            name = f"records_at_risk_l{thr.l}_{slug(s)}.csv"
            files[name] = table
            desc[name] = f"records in classes with fewer than {thr.l} distinct values of {s}"
        tcs = {r.scenario.name: r.tcloseness[s] for r in a.scenarios if s in r.tcloseness}
        tvals = {n: tc.records.to_numpy() for n, tc in tcs.items()}
        table = _at_risk(base, a, classes, all_keys, {n: {"t": v} for n, v in tvals.items()},
                         {n: v > thr.t for n, v in tvals.items()}, {"distance": {n: tc.distance for n, tc in tcs.items()}})
        if table is not None:
            name = f"records_at_risk_t{_num(thr.t)}_{slug(s)}.csv"
            files[name] = table
            desc[name] = f"records in classes whose {s} distribution is farther than t = {thr.t:g} from the file's"

    files["records.csv"] = _joined(base, a, classes)
    desc["records.csv"] = "every record with every per-record measure and a flag per model"
    return RecordTables(files=files, descriptions=desc)


def _stack(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate the scenarios' rows; empty parts are left out (pandas >= 2.1 warns about
    their dtypes), but the columns are kept when every part is empty."""
    kept = [p for p in parts if len(p)] or parts[:1]
    return pd.concat(kept, ignore_index=True)


def _at_risk(base: pd.DataFrame, a: Assessment, classes: dict, all_keys: list[str], values: dict[str, dict[str, np.ndarray]],
             mask: dict[str, np.ndarray], extra: dict[str, dict[str, object]]) -> pd.DataFrame | None:
    """Per scenario (by name), the records where `mask` holds, with class, class size, the
    scenario's constant `extra` columns and the measure's `values`; None when no scenario has it."""
    parts = []
    for r in a.scenarios:
        name = r.scenario.name
        if name not in values:
            continue
        rows = np.flatnonzero(mask[name])
        t = _with_keys(base, a, r, rows, all_keys)
        cl = classes[name]
        t["class"] = cl.ids[rows]
        t["class_size"] = cl.sizes[cl.ids[rows]]
        for col, per_scenario in extra.items():
            t[col] = per_scenario[name]
        for col, v in values[name].items():
            t[col] = v[rows]
        parts.append(t)
    return _stack(parts) if parts else None


def _joined(base: pd.DataFrame, a: Assessment, classes: dict) -> pd.DataFrame:
    """One row per record: key and sensitive values, then each scenario's measures and flags."""
    thr = a.config.thresholds
    cfg = a.config
    out = base.copy()
    for k in dict.fromkeys(k for r in a.scenarios for k in r.scenario.keys):
        out[k] = a.assessed[k].to_numpy()
    for s in cfg.sensitive:
        out[s] = a.data[s].to_numpy()
    cols: dict[str, np.ndarray] = {}
    for r in a.scenarios:
        p = _prefix(a, r)
        fk = r.risk.sample_frequency.to_numpy()
        risk = r.risk.risk.to_numpy()
        cols[f"{p}class"] = classes[r.scenario.name].ids
        cols[f"{p}fk"] = fk
        if cfg.weights:
            cols[f"{p}Fk"] = r.risk.population_frequency.to_numpy()
        cols[f"{p}risk"] = risk
        cols[f"{p}flag_k{thr.k}"] = fk < thr.k
        cols[f"{p}flag_risk"] = risk > thr.risk
        if r.household is not None:
            cols[f"{p}household_risk"] = r.household.risk.to_numpy()
            cols[f"{p}flag_household_risk"] = r.household.risk.to_numpy() > thr.risk
        for s in cfg.sensitive:
            if r.ldiversity is not None:
                lval = r.ldiversity.records[f"{s}_Distinct_Ldiversity"].to_numpy()
                cols[f"{p}l_distinct_{s}"] = lval
                cols[f"{p}flag_l{thr.l}_{s}"] = lval < thr.l
            tc = r.tcloseness.get(s)
            if tc is not None:
                dist = tc.records.to_numpy()
                cols[f"{p}t_{s}"] = dist
                cols[f"{p}flag_t_{s}"] = dist > thr.t
        if r.suda is not None:
            cols[f"{p}suda_score"] = r.suda.score.to_numpy()
            cols[f"{p}dis_suda_score"] = r.suda.dis_score.to_numpy()
            cols[f"{p}flag_suda"] = r.suda.score.to_numpy() > 0
    return pd.concat([out, pd.DataFrame(cols)], axis=1)
