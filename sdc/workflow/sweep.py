"""Risk-utility sweeps (``sdc sweep``): a grid over the parameters of protection steps, with
risk and utility figures for every setting, and the settings no other setting beats on both.

A sweep plan is a protection plan (:mod:`sdc.workflow.plan`) whose steps may give
``grid = { parameter = [values] }``, plus a ``[sweep]`` section::

    [sweep]
    keys = ["age", "sex", "region"]   # the quasi-identifiers the risk is measured on
    k = 3                             # k of "records with fk < k", violating k-anonymity (default 3)
    weights = "weight"                # optional: Benedetti-Franconi risk with sampling weights
    missing = "wildcard"              # missing key values (sdcMicro's rule, or "category")
    mode = "separate"                 # or "product" (see below)
    utility_variables = ["age", "sex"]  # (default: every variable a step treats)
    risk_axis = "global_risk"         # the axes of the risk-utility plane
    utility_axis = "il1_overall"
    suppressed = "max"                # a suppressed cell is a loss of 1 in IL1 ("ignore": left out)

    [plan]
    seed = 20240611

    [[steps]]
    method = "global_recode"
    variables = ["age"]
    labels = "midpoint"
    grid = { width = [5, 10, 15] }

    [[steps]]
    method = "local_suppression"
    keys = ["age", "sex", "region"]
    grid = { k = [2, 3, 4, 5] }

``mode = "separate"`` (the default) sweeps each step with a grid on its own: a setting applies
the steps without a grid (in plan order) and that one step at one grid point; ``"product"``
applies every step at every combination of all grids. A step's seed is the same in every
setting (derived from the plan's seed and the step's number), so settings differ only by
their parameters ("common random numbers"). Row 0 is the baseline: the original data.

Per setting, on the released data: the risk figures of :func:`sdc.k_anonymity` and
:func:`sdc.individual_risk` over the keys (percent of sample uniques, percent of records
violating k-anonymity, fk < k, as ``sdc assess`` counts them, and beside it the other count,
fk <= k, expected re-identifications, global risk), and the utility figures of
:func:`sdc.utility_summary` (IL1 per variable and overall, eigenvalue similarity, non-uniform
entropy, records retained, cells suppressed). IL1 counts a suppressed cell as a loss of 1
(``suppressed="max"``), so that suppression and recoding are compared on one scale.
"""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._provenance import provenance, sha256_file
from sdc._stats import summary_frame
from sdc._validation import check_columns, check_frame
from sdc._version import __version__
from sdc.core.missing import ALPHA, MISSING
from sdc.exceptions import SdcWarning
from sdc.workflow.assess import measure_scenario
from sdc.workflow.config import RunConfig, Scenario, Thresholds
from sdc.workflow.measure import UtilityContext
from sdc.workflow.analyses import Analysis, parse_analyses
from sdc.workflow.compare_utility import swapped_tables, with_withheld
from sdc.workflow.plan import Plan, PlanError, check_plan, grid_points, method_table, plan_to_toml
from sdc.workflow.protect import run_steps
from sdc.workflow.registry import ALL_MEASURES
from sdc.workflow.sweep_changes import change_notes, comparable, what_changed
from sdc.workflow import utility_registry
from sdc.workflow.utility_registry import UTILITY_AXES

__all__ = ["SweepResult", "Setting", "sweep", "load_sweep", "SWEEP_MODES", "RISK_AXES", "UTILITY_AXES",
           "non_dominated"]

SWEEP_MODES = ("separate", "product")
#: The risk measures of a sweep's row by default (entries of :mod:`sdc.workflow.registry`;
#: ``[sweep].measures`` adds others).
RISK_MEASURES = ("k_anonymity", "risk")


def risk_axes(measures: Sequence[str] = RISK_MEASURES) -> tuple[str, ...]:
    """The sweep columns that can be the risk axis (lower is better) of these measures: their
    figures with a sweep column (a per-variable one as ``"<column>[<variable>]"``)."""
    return tuple(f.sweep + ("[<variable>]" if m.by_variable is not None else "") for m in ALL_MEASURES
                 if m.name in measures for f in m.figures or () if f.sweep and f.better == "lower")


#: Risk figures of a row that can be the risk axis by default.
RISK_AXES = risk_axes()
#: The measures ``[sweep].measures`` may name: those with sweep columns.
SWEEP_MEASURES = tuple(dict.fromkeys(m.name for m in ALL_MEASURES if any(f.sweep for f in m.figures or ())))
_SWEEP_KEYS = {"keys", "k", "weights", "missing", "alpha", "mode", "utility_variables", "variables", "risk_axis",
               "utility_axis",
               "suppressed", "measures", "sensitive"}


@dataclass(frozen=True)
class Setting:
    """One point of the sweep: which steps run, with which grid values."""

    number: int
    label: str
    group: str                      # the swept step ("step 2 (pram)"), "product", or "baseline"
    steps: tuple[int, ...]          # step numbers applied, in order
    values: Mapping[int, Mapping[str, Any]]   # step number -> grid values
    parameter: str = ""             # "width" (separate mode, one parameter) or "" (several)
    value: Any = None


@dataclass(frozen=True)
class SweepResult:
    """Result of :func:`sweep`.

    Attributes
    ----------
    plan : Plan
        The sweep plan as run (with its seed).
    table : pandas.DataFrame
        One row per setting, row 0 the baseline: ``setting``, ``label``, ``group``,
        ``parameter``, ``value``, the risk figures (``n_records``, ``pct_unique``,
        ``pct_fk_lt_k`` (fk < k: violating k-anonymity, as assess counts), ``pct_fk_le_k``
        (the other count, fk <= k), ``expected_reidentifications``, ``global_risk``,
        ``global_risk_pct``), the utility figures (``il1_overall``, ``il1[<variable>]``,
        ``eigen_similarity_pct``, ``nue``, ``nue_normalised``, ``nue_utility_retained``,
        ``records_retained``, ``pct_records_retained``, ``cells_suppressed``,
        ``records_dropped``), what the setting changed (``cells_changed``, ``variables_changed``,
        ``not_measured``: changed variables outside the utility variables;
        :mod:`sdc.workflow.sweep_changes`) and ``non_dominated`` (a setting with a change not
        measured is never non-dominated: its utility cost is not known).
    settings : tuple of Setting
    keys : tuple of str
    k : int
    variables : tuple of str
        The utility variables.
    risk_axis, utility_axis : str
        The axes of the risk-utility plane (and of ``non_dominated``).
    seconds : float
        Time the sweep took (not part of the outputs: it changes between runs).
    provenance : dict
    """

    plan: Plan
    table: pd.DataFrame = field(repr=False)
    settings: tuple[Setting, ...] = field(repr=False)
    keys: tuple[str, ...]
    k: int
    weights: str | None
    missing: str
    mode: str
    variables: tuple[str, ...]
    risk_axis: str
    utility_axis: str
    suppressed: str = "max"
    seconds: float = field(default=0.0, compare=False)
    provenance: Mapping[str, Any] = field(default_factory=dict, repr=False)
    measures: tuple[str, ...] = RISK_MEASURES
    sensitive: tuple[str, ...] = ()

    @property
    def higher_is_better(self) -> bool:
        """Whether the utility axis is a utility (higher better) rather than a loss."""
        return UTILITY_AXES[self.utility_axis]

    @property
    def baseline(self) -> pd.Series:
        return self.table.iloc[0]

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """Headline figures (settings, the baseline's risk, the non-dominated settings) as rows
        of (statistic, value, description)."""
        nd = self.table[self.table["non_dominated"]]
        return summary_frame([
            ("settings", len(self.table) - 1, "settings swept (besides the baseline)"),
            ("mode", self.mode, "how the grids combine"), ("keys", list(self.keys), "the key variables of the risk"),
            ("k", self.k, "k of the records violating k-anonymity (fk < k)"),
            ("risk_axis", self.risk_axis, "the risk axis"), ("utility_axis", self.utility_axis, "the utility axis"),
            ("baseline_" + self.risk_axis, float(self.baseline[self.risk_axis]), "the original data's risk"),
            ("non_dominated", [str(x) for x in nd["label"]], "settings no other setting beats on both axes"),
        ])


# ---------------------------------------------------------------------------------------------

def load_sweep(path: str | Path, *, seed: int | None = None) -> Plan:
    """Read and validate a sweep plan file (see the module docstring)."""
    from sdc.workflow.plan import plan_from_mapping, read_plan_file

    raw = read_plan_file(path)
    if seed is not None:
        raw["plan"] = {**(raw.get("plan") or {}), "seed": seed}
    plan = plan_from_mapping(raw, source=str(path), base_dir=Path(path).parent, sweep=True)
    _check_sweep_section(plan)
    return plan


def _check_sweep_section(plan: Plan) -> None:
    sw = plan.sweep
    extra = [k for k in sw if k not in _SWEEP_KEYS]
    if extra:
        raise PlanError(f"plan [sweep].{extra[0]}: is not a known key; allowed: {', '.join(sorted(_SWEEP_KEYS))}.")
    if "mode" in sw and sw["mode"] not in SWEEP_MODES:
        raise PlanError(f"plan [sweep].mode: must be one of {', '.join(map(repr, SWEEP_MODES))}; got {sw['mode']!r}.")
    if "suppressed" in sw and sw["suppressed"] not in ("max", "ignore"):
        raise PlanError(f"plan [sweep].suppressed: must be 'max' or 'ignore'; got {sw['suppressed']!r}.")
    _check_measures(sw)
    _analyses(plan)
    if "utility_axis" in sw and sw["utility_axis"] not in UTILITY_AXES:
        raise PlanError(f"plan [sweep].utility_axis: must be one of {', '.join(UTILITY_AXES)}; "
                        f"got {sw['utility_axis']!r}.")
    MISSING.check(sw.get("missing", MISSING.default), "plan [sweep].missing:", PlanError)
    ALPHA.check(sw.get("alpha", ALPHA.default), "plan [sweep].alpha:", PlanError)
    if "variables" in sw:
        if "utility_variables" in sw:
            raise PlanError("plan [sweep]: give utility_variables only (variables is its old name).")
        warnings.warn("plan [sweep].variables is deprecated: name it utility_variables (as --utility-variables of "
                      "sdc compare and sdc protect).", SdcWarning, stacklevel=3)
    for name in ("keys", "utility_variables", "variables", "sensitive"):
        v = sw.get(name)
        if v is not None and (isinstance(v, str) or not isinstance(v, Sequence) or not v
                              or not all(isinstance(x, str) for x in v)):
            raise PlanError(f"plan [sweep].{name}: must be a non-empty list of column names; got {v!r}.")
    k = sw.get("k", 3)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise PlanError(f"plan [sweep].k: must be a whole number >= 1; got {k!r}.")
    if not any(s.grid for s in plan.steps):
        raise PlanError("plan [[steps]]: no step has a `grid`; a sweep varies at least one parameter, e.g. "
                        "grid = { k = [2, 3, 4, 5] }.")


def _check_measures(sw: Mapping[str, Any]) -> None:
    """``[sweep].measures`` names measures with sweep columns; ``risk_axis`` is a column of them."""
    m = sw.get("measures", RISK_MEASURES)
    if isinstance(m, str) or not isinstance(m, Sequence) or not all(isinstance(x, str) for x in m):
        raise PlanError(f"plan [sweep].measures: must be a list of measure names; got {m!r}.")
    bad = [x for x in m if x not in SWEEP_MEASURES]
    if bad:
        raise PlanError(f"plan [sweep].measures: {bad[0]!r} is not a measure with sweep figures; allowed: "
                        f"{', '.join(SWEEP_MEASURES)}.")
    axes = risk_axes(tuple(dict.fromkeys([*RISK_MEASURES, *m])))
    axis = sw.get("risk_axis")
    if axis is not None and axis not in axes and not (
            isinstance(axis, str) and any(a.endswith("[<variable>]") and axis.startswith(a[:-11]) for a in axes)):
        raise PlanError(f"plan [sweep].risk_axis: must be one of {', '.join(axes)}; got {axis!r}.")


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


def _step_label(s: Any, point: Mapping[str, Any]) -> str:
    """A setting's label for one step: the method, the variables it treats when the plan names
    them (not the keys of a suppression: "pram region flip=0.05"), and the grid point."""
    named = s.parameters.get("variables") if "variables" not in point else None
    names = [named] if isinstance(named, str) else list(named or ())
    head = f"{s.method} {'+'.join(map(str, names))}" if names else s.method
    return f"{head} " + ", ".join(f"{p}={_fmt(v)}" for p, v in point.items())


def _settings(plan: Plan, mode: str) -> list[Setting]:
    fixed = [s.number for s in plan.steps if not s.grid]
    out = [Setting(0, "baseline (original data)", "baseline", (), {})]
    if mode == "separate":
        for s in plan.steps:
            if not s.grid:
                continue
            order = tuple(n for n in (st.number for st in plan.steps) if n in fixed or n == s.number)
            group = f"step {s.number} ({s.method}{': ' + ', '.join(s.variables()) if s.variables() else ''})"
            for point in grid_points(s):
                label = _step_label(s, point)
                single = len(point) == 1
                out.append(Setting(len(out), label, group, order, {s.number: point},
                                   parameter=next(iter(point)) if single else "",
                                   value=next(iter(point.values())) if single else None))
    else:
        grids = [s for s in plan.steps if s.grid]
        order = tuple(st.number for st in plan.steps)
        for combo in itertools.product(*[grid_points(s) for s in grids]):
            values = {s.number: point for s, point in zip(grids, combo)}
            label = "; ".join(_step_label(s, point) for s, point in zip(grids, combo))
            out.append(Setting(len(out), label, "product", order, values))
    return out


def non_dominated(risk: Sequence[float], loss: Sequence[float]) -> np.ndarray:
    """Whether each point is non-dominated when both coordinates are to be minimised: no other
    point is at least as good on both and strictly better on one. Points with a NaN
    coordinate are never non-dominated (nor do they dominate).

    >>> non_dominated([1, 2, 3, 2], [3, 2, 1, 3]).tolist()
    [True, True, True, False]
    """
    r = np.asarray(risk, dtype=float)
    u = np.asarray(loss, dtype=float)
    ok = ~(np.isnan(r) | np.isnan(u))
    out = np.zeros(r.size, dtype=bool)
    R, U = r[ok], u[ok]
    # dominated[i]: some j with R_j <= R_i and U_j <= U_i, one of them strictly (n x n; n is small)
    no_worse = (R[None, :] <= R[:, None]) & (U[None, :] <= U[:, None])
    better = (R[None, :] < R[:, None]) | (U[None, :] < U[:, None])
    out[ok] = ~(no_worse & better).any(axis=1)
    return out


def sweep_config(keys: Sequence[str], k: int, weights: str | None, missing: str, alpha: float, *,
                 measures: Sequence[str] = RISK_MEASURES, sensitive: Sequence[str] = ()) -> RunConfig:
    """The assessment configuration of a sweep's risk figures: its keys as one scenario, its k
    and missing-value rule, its measures and sensitive variables."""
    return RunConfig(categorical_keys=tuple(keys), weights=weights, missing=missing, alpha=alpha,
                     sensitive=tuple(sensitive), thresholds=Thresholds(k=k), measures=tuple(measures),
                     source="[sweep]")


def _risk_row(data: pd.DataFrame, cfg: RunConfig) -> dict[str, Any]:
    """The sweep columns of the risk measures' figures on one setting's data (the keys and
    sensitive variables it still holds)."""
    # A key a setting suppressed in every record matches every record under either missing-value
    # rule (wildcard: it matches anything; category: one value), so leaving it out gives the same
    # classes; the assessment would refuse it as a user's key missing in every record.
    keys = tuple(c for c in cfg.categorical_keys if c in data.columns and bool(data[c].notna().any()))
    cfg = replace(cfg, categorical_keys=keys, sensitive=tuple(s for s in cfg.sensitive if s in data.columns))
    r = measure_scenario(data, cfg, Scenario("sweep", keys), names=cfg.measures, tables=False)
    row: dict[str, Any] = {}
    for m in ALL_MEASURES:
        res = m.result(r) if m.name in cfg.measures else None
        if res is not None:
            row.update(m.sweep_values(cfg, res))
    return row


def _analyses(plan: Plan) -> tuple[Analysis, ...]:
    """The plan's ``[[analyses]]`` (the analyst's models fitted to each setting's release)."""
    return parse_analyses(plan.assessment.get("analyses"), "plan [[analyses]]", PlanError)


def _utility_row(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str],
                 keys: Sequence[str], suppressed: str = "max", analyses: Sequence[Analysis] = (),
                 tables: Sequence[str] = ()) -> dict[str, Any]:
    """The sweep columns of the utility measures' figures (:mod:`sdc.workflow.utility_registry`);
    every original record counts, a dropped one as withheld (every cell suppressed); an analysis'
    mean interval overlap is ``ci_overlap[<name>]``."""
    ctx = UtilityContext(original, with_withheld(original, released), list(variables), list(keys), suppressed,
                         analyses=tuple(analyses), tables=tuple(tables))
    row = {f.sweep if var is None else f"{f.sweep}[{var}]": v for m in utility_registry.UTILITY_MEASURES
           for f, var, v in m.rows(m.run(ctx)) if f.sweep}
    row["records_dropped"] = len(original) - len(released)
    return row


def sweep(data: pd.DataFrame, plan: Plan | str | Path, *, progress: bool = False,
          now: datetime | None = None, input_file: str | Path | None = None, command: str = "",
          read_notes: Sequence[str] = ()) -> SweepResult:
    """Run a risk-utility sweep (see the module docstring).

    Parameters
    ----------
    data : pandas.DataFrame
        The original data (not modified).
    plan : Plan or path
        The sweep plan (:func:`load_sweep`).
    progress : bool
        A progress bar over the settings.
    read_notes : sequence of str
        What reading the data had to say (a marker read as a value, codes read as text, the
        reader's warnings): the first notes of the sweep's pages, as on assess's.

    Returns
    -------
    SweepResult
        One row per setting plus the baseline, with the non-dominated settings marked.
    """
    check_frame(data)
    if not isinstance(plan, (Plan, str, Path)):
        raise TypeError(f"`plan` must be a sweep Plan (sdc.workflow.sweep.load_sweep) or its file; "
                        f"got {type(plan).__name__}.")
    if not isinstance(plan, Plan):
        plan = load_sweep(plan)
    else:
        _check_sweep_section(plan)
    plan = plan.with_seed()
    table = method_table()
    check_plan(plan, data, table)
    o = _options(plan, data, table)
    mode, keys, variables, risk_axis, utility_axis = o["mode"], o["keys"], o["variables"], o["risk_axis"], \
        o["utility_axis"]
    cfg = sweep_config(keys, o["k"], o["weights"], o["missing"], o["alpha"], measures=o["measures"],
                       sensitive=o["sensitive"])
    settings = _settings(plan, mode)
    analyses = _analyses(plan)
    swapped = swapped_tables({"steps": [{"method": s.method, "parameters": s.parameters} for s in plan.steps]})

    t0 = time.perf_counter()
    bar = None
    if progress:
        from sdc.core.progress import progress_bar

        bar = progress_bar(total=len(settings), desc="sweep", unit="setting", leave=False)
    rows = []
    cache: dict[tuple[int, ...], pd.DataFrame] = {}
    fixed = {s.number for s in plan.steps if not s.grid}
    treated = list(dict.fromkeys(v for s in plan.steps for v in (*s.variables(table[s.method]),
                                                                 *_dropped(s.parameters.get("drop")))))
    notes: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SdcWarning)
            for st in settings:
                released = _apply(data, plan, st, fixed, cache, table)
                present = [c for c in variables if c in released.columns]
                row: dict[str, Any] = {"setting": st.number, "label": st.label, "group": st.group,
                                       "parameter": st.parameter, "value": _fmt(st.value) if st.value is not None
                                       else ""}
                row.update(_risk_row(released, cfg))
                row.update(_utility_row(data, released, present, [c for c in keys if c in released.columns],
                                        o["suppressed"], analyses, swapped))
                row.update(what_changed(data, released, treated, variables))
                rows.append(row)
                if bar is not None:
                    bar.update(1)
        notes = list(dict.fromkeys(" ".join(str(w.message).split()) for w in caught))
    finally:
        if bar is not None:
            bar.close()
    frame = pd.DataFrame(rows)
    higher = UTILITY_AXES[utility_axis]
    loss = -frame[utility_axis].to_numpy(dtype=float) if higher else frame[utility_axis].to_numpy(dtype=float)
    # a setting whose changes the utility figures do not all measure has no known cost: left out
    loss = np.where(comparable(frame), loss, np.nan)
    frame["non_dominated"] = non_dominated(frame[risk_axis].to_numpy(dtype=float), loss)
    notes = list(dict.fromkeys([*read_notes, *notes, *change_notes(frame, variables)]))
    prov = provenance(now, command=command, plan_source=plan.source, sdc=__version__, notes=notes)
    if input_file is not None:
        prov["input_file"] = str(input_file)
        prov["input_sha256"] = sha256_file(input_file)
    return SweepResult(plan=plan, table=frame, settings=tuple(settings), keys=tuple(keys), k=o["k"],
                       weights=o["weights"], missing=o["missing"], mode=mode, variables=tuple(variables),
                       risk_axis=risk_axis, utility_axis=utility_axis, suppressed=o["suppressed"],
                       seconds=time.perf_counter() - t0, provenance=prov, measures=tuple(o["measures"]),
                       sensitive=tuple(o["sensitive"]))


def _dropped(drop: Any) -> list[str]:
    return [drop] if isinstance(drop, str) else list(drop or ())


def _options(plan: Plan, data: pd.DataFrame, table: Mapping[str, Any]) -> dict[str, Any]:
    """The sweep's options, resolved against the plan's steps and checked against the data."""
    sw = plan.sweep
    keys = sw.get("keys")
    if keys is None:
        keys = list(dict.fromkeys(v for s in plan.steps if table[s.method].variables_param == "keys"
                                  for v in s.variables()))
        if not keys:
            raise PlanError("plan [sweep].keys: the risk is measured on key variables; name them, e.g. "
                            "keys = [\"age\", \"sex\", \"region\"].")
    keys = check_columns(data, keys, role="[sweep].keys")
    weights = sw.get("weights")
    if weights is not None:
        check_columns(data, [weights], role="[sweep].weights")
    variables = sw.get("utility_variables", sw.get("variables"))
    if variables is None:
        variables = list(dict.fromkeys(v for s in plan.steps if not table[s.method].replaces_identifiers
                                       for v in s.variables(table[s.method])))
        if not variables:  # only identifiers replaced one for one: no analytic value changes
            raise PlanError("plan [sweep].utility_variables: the steps only replace identifiers, which loses no "
                            "utility; name the variables to measure, e.g. utility_variables = [\"age\"].")
    sensitive = sw.get("sensitive") or []
    return {"mode": sw.get("mode", "separate"), "keys": keys,
            "weights": weights, "k": int(sw.get("k", 3)), "missing": sw.get("missing", "wildcard"),
            "alpha": float(sw.get("alpha", 1.0)), "variables": check_columns(data, variables,
                                                                         role="[sweep].utility_variables"),
            "suppressed": sw.get("suppressed", "max"), "risk_axis": sw.get("risk_axis", "global_risk"),
            "utility_axis": sw.get("utility_axis", "il1_overall"),
            "measures": list(dict.fromkeys([*RISK_MEASURES, *sw.get("measures", ())])),
            "sensitive": check_columns(data, sensitive, role="[sweep].sensitive") if sensitive else []}


def _apply(data: pd.DataFrame, plan: Plan, st: Setting, fixed: set[int], cache: dict[tuple[int, ...], pd.DataFrame],
           table: Mapping[str, Any]) -> pd.DataFrame:
    """The setting's released data; the leading run of fixed steps is computed once and reused."""
    if not st.steps:
        return data
    prefix: list[int] = []
    for n in st.steps:
        if n not in fixed:
            break
        prefix.append(n)
    key = tuple(prefix)
    if key and key not in cache:
        cache[key], _ = run_steps(data, plan, methods=table, only=key)
    current = cache[key] if key else data
    rest = [n for n in st.steps if n not in key]
    if rest:
        current, _ = run_steps(current, plan, methods=table, only=rest, values=st.values)
    return current


def sweep_plan_toml(result: SweepResult) -> str:
    """The resolved sweep plan (with its seed and the resolved [sweep] section)."""
    sw = {"keys": list(result.keys), "k": result.k, "mode": result.mode,
          "utility_variables": list(result.variables),
          "risk_axis": result.risk_axis, "utility_axis": result.utility_axis, "missing": result.missing,
          "suppressed": result.suppressed}
    if result.weights:
        sw["weights"] = result.weights
    if result.measures != RISK_MEASURES:
        sw["measures"] = [m for m in result.measures if m not in RISK_MEASURES]
    if result.sensitive:
        sw["sensitive"] = list(result.sensitive)
    plan = replace(result.plan, sweep=sw)
    from sdc.workflow.plan import read_settings_toml

    return plan_to_toml(plan, header="# sdc sweep plan (written by sdc; rerun with: sdc sweep DATA --plan plan.toml "
                                     "--out DIR)") + read_settings_toml(plan)
