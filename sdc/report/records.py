"""Per-record tables: which records are at risk under which model, and why.

File names are fixed (documented in docs/report.md):

* ``records_at_risk_k{K}.csv``: records in an equivalence class with fk < K;
* ``records_at_risk_l{L}_{sensitive}.csv``: records in a class with fewer than L distinct
  values of the sensitive variable;
* ``records_at_risk_t{T}_{sensitive}.csv``: records in a class whose distribution of the
  sensitive variable is farther than T from the whole file's;
* ``records.csv``: every record with every per-record measure and an ``at_risk_...`` column
  per model.

Each at-risk file has ``input_row`` (the record's 1-based row in the input), the id column
when one is configured, the scenario, the key values as assessed (after binning), the
``class_id`` and the values that put the record at risk: its class size and risk; the
sensitive value as read (and its band, when the variable is banded) with the number of
distinct values in the class; the sensitive value with the class's distance. With several
scenarios a record appears once per scenario in which it is at risk; a key that is not part
of that scenario is left empty.

Names are unique after they are made file-safe: two sensitive variables ``diag x`` and
``diag_x`` get two files (``..._diag_x.csv`` and ``..._diag_x-2.csv``), two scenarios two
column prefixes, and a computed column never takes the name of a data column (it gets a
``_sdc`` suffix).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc.workflow.assess import Assessment, ScenarioResult

__all__ = ["RecordTables", "record_tables", "slug", "unique_slugs"]


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


def unique_slugs(names: list[str]) -> dict[str, str]:
    """:func:`slug` of each name, made unique in order (case-insensitively, for file systems
    that fold case): the second ``diag_x`` becomes ``diag_x-2``.

    >>> unique_slugs(["diag x", "diag_x", "Diag-X"])
    {'diag x': 'diag_x', 'diag_x': 'diag_x-2', 'Diag-X': 'Diag-X'}
    """
    out: dict[str, str] = {}
    used: set[str] = set()
    for n in dict.fromkeys(names):
        base = slug(n)
        s, i = base, 2
        while s.lower() in used:
            s, i = f"{base}-{i}", i + 1
        used.add(s.lower())
        out[n] = s
    return out


def _num(x: float) -> str:
    """A threshold as it appears in a file name: 0.2 -> '0.2', 3 -> '3'."""
    return f"{x:g}"


class _Names:
    """Names of computed columns that never take a data column's name (``_sdc`` is appended)."""

    def __init__(self, a: Assessment) -> None:
        self.data = {str(c) for c in a.data.columns}

    def __call__(self, name: str) -> str:
        return f"{name}_sdc" if name in self.data else name


class _Columns:
    """The data's columns as the files hold them (:meth:`Assessment.file_column`), each made once
    for all the files of a run."""

    def __init__(self, a: Assessment) -> None:
        self.a = a
        self.made: dict[tuple[str, bool], np.ndarray | pd.Categorical] = {}

    def __call__(self, name: str, *, assessed: bool = False) -> np.ndarray | pd.Categorical:
        key = (name, assessed)
        if key not in self.made:
            self.made[key] = self.a.file_column(name, assessed=assessed)
        return self.made[key]


def _base(a: Assessment, n: _Names) -> pd.DataFrame:
    base = pd.DataFrame({n("input_row"): np.arange(1, len(a.data) + 1)})
    if a.config.id:
        base[a.config.id] = a.data[a.config.id].to_numpy()
    return base


def _with_keys(base: pd.DataFrame, cols: _Columns, r: ScenarioResult, rows: np.ndarray, all_keys: list[str],
               n: _Names) -> pd.DataFrame:
    """`base` (row number and id) at `rows`, with the scenario and its key values as assessed."""
    out = base.iloc[rows].reset_index(drop=True)
    out.insert(len(out.columns), n("scenario"), r.scenario.name)
    for k in all_keys:
        if k in r.scenario.keys:
            out[k] = cols(k, assessed=True)[rows]
        else:
            out[k] = pd.Series([None] * len(rows), dtype=object)
    return out


def _unique_columns(df: pd.DataFrame) -> pd.DataFrame:
    """Column names made unique in order (a safety net: a repeat gets ``_2``, ``_3``...)."""
    seen: set[str] = set()
    out = []
    for c in map(str, df.columns):
        name, i = c, 2
        while name in seen:
            name, i = f"{c}_{i}", i + 1
        seen.add(name)
        out.append(name)
    if list(df.columns) == out:
        return df
    df = df.copy(deep=False)  # new names only: the data is shared, not copied
    df.columns = out
    return df


def record_tables(a: Assessment) -> RecordTables:
    """Build the at-risk files and the joined per-record table of an assessment."""
    cfg = a.config
    thr = cfg.thresholds
    all_keys = list(dict.fromkeys(k for r in a.scenarios for k in r.scenario.keys))
    n = _Names(a)
    cols = _Columns(a)  # the text columns as categoricals, made once for every file
    base = _base(a, n)
    classes = {r.scenario.name: r.key_classes.classes for r in a.scenarios}  # computed once, by the assessment
    sens_slug = unique_slugs(list(cfg.sensitive))
    files: dict[str, pd.DataFrame] = {}
    desc: dict[str, str] = {}

    # k-anonymity
    parts = []
    for r in a.scenarios:
        fk = r.risk.sample_frequency.to_numpy()
        rows = np.flatnonzero(fk < thr.k)
        t = _with_keys(base, cols, r, rows, all_keys, n)
        t[n("class_id")] = classes[r.scenario.name].ids[rows]
        t[n("class_size_fk")] = fk[rows]
        if cfg.weights:
            t[n("population_estimate_Fk")] = r.risk.population_frequency.to_numpy()[rows]
        t[n("individual_risk")] = r.risk.risk.to_numpy()[rows]
        parts.append(t)
    name = f"records_at_risk_k{thr.k}.csv"
    files[name] = _unique_columns(_stack(parts))
    desc[name] = f"records in classes of fewer than {thr.k} records (fk < {thr.k}), with their class size and risk"

    # l-diversity and t-closeness, per sensitive variable
    for s in cfg.sensitive:
        l_s, t_s = cfg.l_for(s), cfg.t_for(s)
        value = {s: cols(s)}
        lres = {r.scenario.name: r.ldiversity for r in a.scenarios if r.ldiversity is not None}
        if s in cfg.sensitive_bins and lres:
            band = a.sensitive_band(s)
            if band is not None:
                value[n(f"{s}_band")] = band
        lvals = {sc: ld.records[f"{s}_Distinct_Ldiversity"].to_numpy() for sc, ld in lres.items()}
        table = _at_risk(base, a, cols, classes, all_keys, value,
                         {sc: {n(f"distinct_{s}_values_in_class"): v} for sc, v in lvals.items()},
                         {sc: v < l_s for sc, v in lvals.items()}, {}, n)
        if table is not None:
            name = f"records_at_risk_l{l_s}_{sens_slug[s]}.csv"
            files[name] = _unique_columns(table)
            desc[name] = (f"records in classes with fewer than {l_s} distinct values of {s}, with their value of {s}"
                          + (" and its band" if len(value) > 1 else ""))
        tcs = {r.scenario.name: r.tcloseness[s] for r in a.scenarios if s in r.tcloseness}
        tvals = {sc: tc.records.to_numpy() for sc, tc in tcs.items()}
        table = _at_risk(base, a, cols, classes, all_keys, {s: cols(s)},
                         {sc: {n(f"{s}_distance_to_file"): v} for sc, v in tvals.items()},
                         {sc: v > t_s for sc, v in tvals.items()},
                         {n("distance_measure"): {sc: tc.distance for sc, tc in tcs.items()}}, n)
        if table is not None:
            name = f"records_at_risk_t{_num(t_s)}_{sens_slug[s]}.csv"
            files[name] = _unique_columns(table)
            desc[name] = (f"records in classes whose {s} distribution is farther than t = {t_s:g} from the file's, "
                          f"with their value of {s} and the class's distance")

    files["records.csv"] = _unique_columns(_joined(base, a, cols, classes, n))
    desc["records.csv"] = "every record with every per-record measure and an at_risk_... column per model"
    return RecordTables(files=files, descriptions=desc)


def _stack(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate the scenarios' rows; empty parts are left out (pandas >= 2.1 warns about
    their dtypes), but the columns are kept when every part is empty."""
    kept = [p for p in parts if len(p)] or parts[:1]
    # A key outside a scenario is an all-missing column in that scenario's part. pandas < 3 leaves
    # such columns out when it chooses the stacked dtype (2.1+ warns that this changes), pandas 3
    # counts them. Stack those columns as objects: the same values and file on every pandas.
    mixed = [c for c in kept[0].columns
             if len({str(p[c].dtype) for p in kept}) > 1 and any(p[c].isna().all() for p in kept)]
    if mixed:
        kept = [p.astype({c: object for c in mixed}) for p in kept]
    return pd.concat(kept, ignore_index=True)


def _at_risk(base: pd.DataFrame, a: Assessment, cols: _Columns, classes: dict, all_keys: list[str],
             record_values: dict[str, np.ndarray | pd.Categorical],
             values: dict[str, dict[str, np.ndarray]], mask: dict[str, np.ndarray],
             extra: dict[str, dict[str, object]], n: _Names) -> pd.DataFrame | None:
    """Per scenario (by name), the records where `mask` holds, with class, class size, the
    records' own `record_values` (the sensitive value), the scenario's constant `extra`
    columns and the measure's `values`; None when no scenario has it."""
    parts = []
    for r in a.scenarios:
        name = r.scenario.name
        if name not in mask:
            continue
        rows = np.flatnonzero(mask[name])
        t = _with_keys(base, cols, r, rows, all_keys, n)
        cl = classes[name]
        t[n("class_id")] = cl.ids[rows]
        t[n("class_size")] = cl.sizes[cl.ids[rows]]
        for col, v in record_values.items():
            t[col] = v[rows]
        for col, per_scenario in extra.items():
            t[col] = per_scenario[name]
        for col, v in values[name].items():
            t[col] = v[rows]
        parts.append(t)
    return _stack(parts) if parts else None


def _joined(base: pd.DataFrame, a: Assessment, data: _Columns, classes: dict, n: _Names) -> pd.DataFrame:
    """One row per record: key and sensitive values, then each scenario's measures and flags."""
    thr = a.config.thresholds
    cfg = a.config
    head: dict[str, np.ndarray | pd.Categorical] = {c: base[c].to_numpy() for c in base.columns}
    for k in dict.fromkeys(k for r in a.scenarios for k in r.scenario.keys):
        head[k] = data(k, assessed=True)
    for s in cfg.sensitive:
        head[s] = data(s)
    prefixes = unique_slugs([r.scenario.name for r in a.scenarios])
    cols: dict[str, np.ndarray] = {}
    for r in a.scenarios:
        p = "" if len(a.scenarios) == 1 else f"{prefixes[r.scenario.name]}."
        fk = r.risk.sample_frequency.to_numpy()
        risk = r.risk.risk.to_numpy()
        cols[n(f"{p}class_id")] = classes[r.scenario.name].ids
        cols[n(f"{p}class_size_fk")] = fk
        if cfg.weights:
            cols[n(f"{p}population_estimate_Fk")] = r.risk.population_frequency.to_numpy()
        cols[n(f"{p}individual_risk")] = risk
        cols[n(f"{p}at_risk_fk_below_{thr.k}")] = fk < thr.k
        cols[n(f"{p}at_risk_risk_above_{_num(thr.risk)}")] = risk > thr.risk
        if r.household is not None:
            cols[n(f"{p}household_risk")] = r.household.risk.to_numpy()
            cols[n(f"{p}at_risk_household_risk_above_{_num(thr.risk)}")] = r.household.risk.to_numpy() > thr.risk
        for s in cfg.sensitive:
            if r.ldiversity is not None:
                lval = r.ldiversity.records[f"{s}_Distinct_Ldiversity"].to_numpy()
                cols[n(f"{p}distinct_{s}_values_in_class")] = lval
                cols[n(f"{p}at_risk_{s}_fewer_than_{cfg.l_for(s)}_values")] = lval < cfg.l_for(s)
            tc = r.tcloseness.get(s)
            if tc is not None:
                dist = tc.records.to_numpy()
                cols[n(f"{p}{s}_distance_to_file")] = dist
                cols[n(f"{p}at_risk_{s}_distance_above_{_num(cfg.t_for(s))}")] = dist > cfg.t_for(s)
        if r.suda is not None:
            cols[n(f"{p}suda_score")] = r.suda.score.to_numpy()
            cols[n(f"{p}dis_suda_score")] = r.suda.dis_score.to_numpy()
            cols[n(f"{p}at_risk_suda_special_unique")] = r.suda.score.to_numpy() > 0
    items = [*head.items(), *cols.items()]
    if len({c for c, _ in items}) == len(items):
        # The table holds the assessment's own arrays (read only, by the writers): a frame built
        # with copy=False keeps each one as its own block on pandas 1.5 to 3, where concat
        # copies every column (and concat(copy=False) gathers those of a type into one block),
        # 4 s and up to 3 GB at 10^7 records.
        return pd.DataFrame(dict(items), copy=False)
    # A repeated name (a data column named like a computed one) stays twice; _unique_columns renames it.
    return pd.concat([pd.Series(v, name=c).to_frame() for c, v in items], axis=1)
