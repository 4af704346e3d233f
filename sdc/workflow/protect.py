"""The protection run (``sdc protect``): a plan's steps applied in order, every step recorded, and
the released file assessed beside the original, on every engine.

:func:`protect_data` checks the plan against the data (:func:`sdc.workflow.plan.check_plan`)
before any step runs, then applies each step to the output of the one before. A step that
gives no seed gets one derived from the plan's seed (:func:`sdc.workflow.plan.step_seed`), and
a plan without a seed gets a fresh one, recorded, so that the resolved plan reruns the same
release. The result, a :class:`ProtectionRun`, holds the released data, each step's
:class:`~sdc.protect._result.ProtectionResult`, the protection log (:meth:`ProtectionRun.log`,
what ``protection.json`` holds) and, with an assessment configuration, the comparison of the
original and the released file (:func:`sdc.workflow.compare.compare`).

The same loop runs a pandas DataFrame in memory and a Dask DataFrame lazily: each method runs
on the engine it declares (:mod:`sdc.protect._declare`); a step that needs the whole file is
refused on Dask before anything runs, in one line. A Dask run is computed when its release is
written (:meth:`ProtectionRun.write_released`, one pass: the partitions written by the workers,
every step's changes, and the Dask-capable measures of both files) or when its summary or log
is asked for (:meth:`ProtectionRun.computed`); the engine-dependent pieces are
:func:`sdc.core.engine.dispatch` variants.

Secrets: a pseudonymisation key is named in the plan by a file (``key_file``) or an
environment variable (``key_env``), which the method reads itself; the key is kept nowhere
(not in the run, its log, its repr or an error message).
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._provenance import provenance, run_time, sha256_file
from sdc._stats import summary_frame
from sdc._validation import check_frame, check_int
from sdc._version import __version__
from sdc.core.engine import dispatch, engine_of
from sdc.exceptions import DataFileError, SdcWarning
from sdc.protect._result import ProtectionResult, changed_cells
from sdc.workflow.compare import Comparison, compare
from sdc.workflow.config import RunConfig, to_toml
from sdc.workflow.plan import MethodInfo, Plan, PlanError, Step, check_plan, load_plan, method_table, plan_to_toml, \
    step_seed
from sdc.workflow.protect_config import assessment_config, plan_read_settings
from sdc.workflow.protect_log import LOG_SCHEMA_VERSION, protection_log

__all__ = ["ProtectionRun", "StepRecord", "protect_data", "run_steps", "assessment_config", "plan_read_settings",
           "protection_log", "finish_dask_run", "dask_session", "read_dask_partitions", "dask_assessment",
           "LOG_SCHEMA_VERSION"]


@dataclass(frozen=True)
class StepRecord:
    """One applied step.

    Attributes
    ----------
    step : Step
        The plan's step.
    seed : int or None
        The seed it ran with (None for a deterministic method).
    seed_source : str
        ``"step"`` (the plan gave it), ``"plan"`` (derived from the plan's seed) or ``""``.
    result : ProtectionResult
        What the method returned.
    records_before, records_after : int
    seconds : float
        Run time (not part of the log: it changes between identical runs).
    notes : tuple of str
        The method's warnings.
    """

    step: Step
    seed: int | None
    seed_source: str
    result: ProtectionResult = field(repr=False)
    records_before: int
    records_after: int
    seconds: float = field(default=0.0, repr=False, compare=False)
    notes: tuple[str, ...] = ()

    @property
    def records_dropped(self) -> int:
        return self.records_before - self.records_after


#: The rows of :meth:`ProtectionRun.summary`: statistic and description.
_SUMMARY = (("steps", "the steps, in order (number: method)"), ("seed", "the plan's seed"),
            ("records_in", "records of the input"), ("records_out", "records of the release"),
            ("records_dropped", "records dropped"), ("cells_changed", "cells changed (original vs release; a cell two steps changed counts once)"))
#: The comparison's figures the summary repeats (the primary scenario, after protection).
_COMPARED = (("scenario", "the primary scenario"), ("pct_unique", "sample uniques, percent of records"),
             ("records_fk_below_k", "records whose key pattern has fewer than k records"),
             ("global_risk", "expected share of records re-identified"))


@dataclass(frozen=True)
class ProtectionRun:
    """A protection plan applied to a dataset.

    Attributes
    ----------
    plan : Plan
        The plan as run: with the seed it used.
    original : pandas.DataFrame or dask.dataframe.DataFrame
        The input (not modified).
    released : pandas.DataFrame or dask.dataframe.DataFrame
        The protected data (index: the input's labels of the records kept).
    steps : tuple of StepRecord
    config : RunConfig or None
        The assessment configuration (None: no re-assessment).
    comparison : Comparison or None
        The original and the released file assessed alike (in memory).
    provenance : dict
    dask_assessment : dict or None
        On Dask: the measures run on both files when the run was computed.
    """

    plan: Plan
    original: pd.DataFrame = field(repr=False)
    released: pd.DataFrame = field(repr=False)
    steps: tuple[StepRecord, ...]
    config: RunConfig | None = field(default=None, repr=False)
    comparison: Comparison | None = field(default=None, repr=False)
    provenance: Mapping[str, Any] = field(default_factory=dict, repr=False)
    dask_assessment: Mapping[str, Any] | None = field(default=None, repr=False)

    @property
    def engine(self) -> str:
        """The engine the run ran on (``"pandas"`` or ``"dask"``)."""
        return engine_of(self.original)

    @property
    def lazy(self) -> bool:
        """A Dask run not yet computed: its steps' changes are still Dask objects."""
        return self.engine != "pandas" and "records_in" not in self.provenance

    def computed(self) -> ProtectionRun:
        """This run with every lazy part computed (a Dask run: one pass over the data, nothing
        written; see :meth:`write_released`); the run itself when nothing is lazy."""
        return finish_dask_run(self)[0] if self.lazy else self

    def write_released(self, directory: str, writer: Callable[[pd.DataFrame, int], tuple[str, bytes]], *,
                       mode: int = 0o644) -> tuple[ProtectionRun, list[tuple[str, str, int]]]:
        """A Dask run's released partitions written into `directory` by the workers, computed
        in the same pass as the steps' changes (:func:`finish_dask_run`)."""
        return finish_dask_run(self, directory, writer, mode=mode)

    @property
    def records_in(self) -> int:
        """Records of the input (on Dask: counted when the run was computed)."""
        return int(self.provenance["records_in"]) if "records_in" in self.provenance else _length(self.original)

    @property
    def records_out(self) -> int:
        return int(self.provenance["records_out"]) if "records_out" in self.provenance else _length(self.released)

    @property
    def seeds(self) -> dict[int, int | None]:
        """Step number -> the seed it ran with."""
        return {r.step.number: r.seed for r in self.steps}

    @property
    def records_dropped(self) -> int:
        return self.records_in - self.records_out

    def cells_changed(self) -> pd.Series:
        """Cells changed per variable of the release, as the comparison counts them
        (:data:`sdc.protect._result.CELLS_CHANGED`: the released records' cells that differ
        from the original's; a cell two steps changed counts once; dropped columns not at all).
        On Dask, where the two files are not compared cell by cell, the steps' counts summed
        (:meth:`cells_changed_by_steps`)."""
        if self.lazy:
            return self.computed().cells_changed()
        if self.engine != "pandas":
            return self.cells_changed_by_steps()
        common = [c for c in self.original.columns if c in self.released.columns]
        before = self.original.loc[self.released.index, common]
        out = changed_cells(before, self.released[common], common)
        return out[out > 0].astype(np.int64).rename("cells_changed")

    def cells_changed_by_steps(self) -> pd.Series:
        """Cells changed per variable, each step's count added up (a cell two steps changed counts twice)."""
        if self.lazy:
            return self.computed().cells_changed_by_steps()
        out: dict[str, int] = {}
        for r in self.steps:
            for v, n in r.result.changed.items():
                out[str(v)] = out.get(str(v), 0) + int(n)
        return pd.Series(out, dtype=np.int64, name="cells_changed")

    def to_frame(self) -> pd.DataFrame:
        """One row per step and treated variable: the cells it changed."""
        if self.lazy:
            return self.computed().to_frame()
        rows = []
        for r in self.steps:
            n = r.records_after
            for v, c in r.result.changed.items():
                rows.append((r.step.number, r.step.method, str(v), int(c), c / n if n else np.nan, r.seed))
            if len(r.result.changed) == 0:
                rows.append((r.step.number, r.step.method, "", 0, 0.0, r.seed))
        out = pd.DataFrame(rows, columns=["step", "method", "variable", "cells_changed", "share_changed", "seed"])
        # Seeds go up to 2^63 - 1: as float64 (the column's type with a deterministic step's None)
        # 3145203387029785293 would read back as ...088, and a replay would use another seed.
        out["seed"] = pd.array([r[5] for r in rows], dtype="Int64")
        return out

    def summary(self) -> pd.DataFrame:
        """Headline figures (statistic, value, description): steps, the plan's seed, records in
        and out, cells changed; and the primary scenario's risk after protection when the
        released file was assessed."""
        run = self.computed()
        values = {"steps": [f"{r.step.number}: {r.step.method}" for r in run.steps], "seed": run.plan.seed,
                  "records_in": run.records_in, "records_out": run.records_out,
                  "records_dropped": run.records_dropped, "cells_changed": int(run.cells_changed().sum())}
        rows = [(k, values[k], d) for k, d in _SUMMARY]
        if run.comparison is not None:
            c = run.comparison.summary()
            c = dict(zip(c["statistic"], c["value"])) if isinstance(c, pd.DataFrame) else c
            rows += [(k, c[k], d) for k, d in _COMPARED if k in c]
        return summary_frame(rows)

    def log(self) -> dict[str, Any]:
        """The protection log (``protection.json`` without the released file's name and hash)."""
        return protection_log(self.computed())

    def to_r_script(self) -> str:
        """The plan as an R script for sdcMicro, step by step saying which steps give these
        cells exactly (:func:`sdc.workflow.rscript.r_script`; ``sdc protect --export-r``)."""
        from sdc.workflow.rscript import r_script

        return r_script(self)

    def plan_toml(self) -> str:
        """The resolved plan: the seeds it ran with and the assessment configuration (without
        one, how the plan's [data] says the file is read)."""
        if self.config is not None:
            cfg_toml = to_toml(replace(self.config, data_path=None, source="plan"))
            return plan_to_toml(self.plan, seeds=self.seeds, assessment_toml=cfg_toml)
        from sdc.workflow.plan import read_settings_toml

        # With [plan].config, if the plan names one; and how the data file was read.
        return plan_to_toml(self.plan, seeds=self.seeds) + read_settings_toml(self.plan)


# ---------------------------------------------------------------------------------------------
# The steps

def _call(spec: MethodInfo, step: Step, data: pd.DataFrame, seed: int | None,
          values: Mapping[str, Any] | None = None) -> ProtectionResult:
    kwargs = {**step.parameters, **(values or {})}
    variables = kwargs.pop(spec.variables_param, None)
    if spec.seeded and seed is not None:
        kwargs["seed"] = seed
    try:
        res = spec.function(data, variables, **kwargs)
    except DataFileError:
        raise  # a file read while the step runs (a Dask partition): the file's fault, not the step's
    except (ValueError, TypeError, KeyError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise PlanError(f"plan {step.label}: {msg}") from None
    if not isinstance(res, ProtectionResult):
        raise TypeError(f"plan {step.label}: {spec.name} returned {type(res).__name__}, not a ProtectionResult.")
    return res


def _dask_length(frame: Any) -> int:
    return 0  # counted when the run is computed (finish_dask_run)


@dispatch(dask=_dask_length)
def _length(frame: pd.DataFrame) -> int:
    """Records of a frame (0 for a Dask DataFrame, counted when the run is computed)."""
    return len(frame)


def _seed_of(spec: MethodInfo, step: Step, plan: Plan) -> tuple[int | None, str]:
    if not spec.seeded:
        return None, ""
    if step.seed is not None:
        return step.seed, "step"
    if plan.seed is None:
        raise PlanError(f"plan {step.label}: needs a seed (the plan has none).")
    return step_seed(plan.seed, step.number), "plan"


def run_steps(data: pd.DataFrame, plan: Plan, *, methods: Mapping[str, MethodInfo] | None = None,
              values: Mapping[int, Mapping[str, Any]] | None = None, only: Sequence[int] | None = None,
              progress: bool = False) -> tuple[pd.DataFrame, list[StepRecord]]:
    """Apply the plan's steps (or the step numbers in `only`) in order: (released data, records).

    `values` gives, per step number, parameter values that replace the plan's (a sweep's grid
    point). The plan must have a seed when a seeded step gives none.
    """
    table = method_table() if methods is None else methods
    current = data
    records: list[StepRecord] = []
    steps = [s for s in plan.steps if only is None or s.number in only]
    bar = None
    if progress and len(steps) > 1:
        from sdc.core.progress import progress_bar

        bar = progress_bar(total=len(steps), desc="protect", unit="step", leave=False)
    try:
        for step in steps:
            spec = table[step.method]
            seed, source = _seed_of(spec, step, plan)
            t0 = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SdcWarning)
                res = _call(spec, step, current, seed, (values or {}).get(step.number))
            notes = tuple(dict.fromkeys(" ".join(str(w.message).split()) for w in caught
                                        if issubclass(w.category, SdcWarning)))
            records.append(StepRecord(step=step, seed=seed, seed_source=source, result=res,
                                      records_before=_length(current), records_after=_length(res.data),
                                      seconds=time.perf_counter() - t0, notes=notes))
            current = res.data
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return current, records


# ---------------------------------------------------------------------------------------------
# The run, on every engine

def _dask_input(data: Any) -> pd.DataFrame:
    return data._meta  # the columns and their types: what the plan is checked against


@dispatch(dask=_dask_input)
def _input_frame(data: pd.DataFrame) -> pd.DataFrame:
    """The frame the plan is checked against (on Dask: its columns and types)."""
    check_frame(data)
    if not data.index.is_unique:
        raise ValueError("`data` has duplicated index labels; the run pairs the released records with the original "
                         "ones by index: reset the index (data.reset_index(drop=True)).")
    return data


def _dask_input_fields(data: Any, input_file: str | Path | None) -> dict[str, Any]:
    out: dict[str, Any] = {"engine": "dask", "partitions": data.npartitions}
    return {**out, "input_file": str(input_file)} if input_file is not None else out


@dispatch(dask=_dask_input_fields)
def _input_fields(data: pd.DataFrame, input_file: str | Path | None) -> dict[str, Any]:
    """The provenance of the input: its file and SHA-256 (on Dask: the engine and partitions)."""
    return {} if input_file is None else {"input_file": str(input_file), "input_sha256": sha256_file(input_file)}


def _refuse_on_engine(plan: Plan, table: Mapping[str, MethodInfo], engine: str) -> None:
    """A step whose method cannot run on `engine` (with its parameters), refused in one line."""
    if engine == "pandas":
        return
    for step in plan.steps:
        why = table[step.method].dask_refusal({**step.parameters, **step.grid})
        if why is not None:
            raise PlanError(f"plan {step.label}: {step.method} cannot run on a Dask DataFrame ({why}); run it in "
                            "memory (--engine pandas).")


#: Per engine: the configuration's columns the re-assessment needs (checked before any step),
#: and how to skip the re-assessment.
_REASSESSED: dict[str, tuple[Callable[[RunConfig], Any], str]] = {
    "pandas": (lambda c: (("keys", c.keys), ("sensitive", c.sensitive)), "reassess=False"),
    "dask": (lambda c: (("keys", c.keys), ("weights", (c.weights,) if c.weights else ())), "--no-assess"),
}


def _reassessment_config(plan: Plan, columns_of: pd.DataFrame, config: RunConfig | str | Path | None,
                         overrides: Mapping[str, Any] | None, input_file: str | Path | None, engine: str
                         ) -> RunConfig:
    """The configuration the released file is assessed with; the columns it needs checked in
    `columns_of` (the data, or a Dask frame's meta)."""
    from sdc._validation import check_columns

    roles, opt_out = _REASSESSED[engine]
    cfg = assessment_config(plan, config=config, overrides=overrides, data_path=str(input_file) if input_file else None)
    if cfg is None:
        raise ValueError("the released file is assessed with the key variables: give them (--keys, --config, "
                         f"[plan].config or [variables] in the plan), or do not assess ({opt_out}).")
    for role, cols in roles(cfg):
        if cols:
            check_columns(columns_of, list(cols), role=role)
    if engine == "pandas" and cfg.population_size is not None and "uniqueness" in cfg.measures:
        # Refused now, as the assessment would refuse it after the steps (minutes at 10^7).
        check_int(cfg.population_size, "population_size", min_value=len(columns_of))
    return cfg


def _compare_dask(data: Any, run: ProtectionRun, **kwargs: Any) -> ProtectionRun:
    return run  # on Dask, both files are assessed when the run is computed (finish_dask_run)


@dispatch(dask=_compare_dask)
def _compared(data: pd.DataFrame, run: ProtectionRun, *, input_file: str | Path | None, command: str, progress: bool,
              now: datetime | None, utility_variables: Sequence[str] | None = None,
              read_notes: Sequence[str] = ()) -> ProtectionRun:
    """The run with the comparison of the original (`data`) and the released file, in memory."""
    table = method_table()
    recoded = [v for r in run.steps if table[r.step.method].changes_categories for v in r.result.variables]
    comp = compare(data, run.released, run.config, protection=run.log(), match="index", recoded=recoded,
                   files=[input_file] if input_file else (), command=command, progress=progress, now=now,
                   utility_variables=utility_variables, read_notes=read_notes)
    return replace(run, comparison=comp)


def _as_plan(plan: Any) -> Plan:
    """A plan given as a Plan, a file, a dict of sections or a list of steps, as a Plan."""
    from sdc.workflow.plan import plan_from_mapping

    if isinstance(plan, Plan):
        return plan
    if isinstance(plan, (str, os.PathLike)):
        return load_plan(plan)
    if isinstance(plan, Mapping):
        return plan_from_mapping(plan, source="dict")
    if isinstance(plan, Sequence) and not isinstance(plan, (bytes, bytearray)):
        return plan_from_mapping({"steps": list(plan)}, source="list of steps")
    raise TypeError(f"`plan` must be a Plan, a plan file, a dict of sections or a list of steps; got "
                    f"{type(plan).__name__}.")


def protect_data(
    data: pd.DataFrame,
    plan: Plan | str | Path | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    config: RunConfig | str | Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    reassess: bool = True,
    input_file: str | Path | None = None,
    command: str = "",
    progress: bool = False,
    now: datetime | None = None,
    utility_variables: Sequence[str] | None = None,
    read_notes: Sequence[str] = (),
) -> ProtectionRun:
    """Apply a protection plan to `data` and assess the released file beside the original.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The original microdata (not modified). A Dask DataFrame gives a lazy run of the
        steps that run on Dask (a step that needs the whole file is refused in one line), computed
        when its summary, log or release is asked for (:func:`sdc.write_protection`).
    plan : Plan, path, dict or list
        The plan (see :mod:`sdc.workflow.plan`), its file, its sections as a dict (``{"plan":
        {"seed": 1}, "steps": [...]}``, as the TOML file reads), or a list of steps
        (``[{"method": "global_recode", "variables": ["age"], "width": 10}]``).
    config : RunConfig or path, optional
        How both files are assessed (default: the plan's; see :func:`assessment_config`).
    overrides : dict, optional
        Sections of assessment-configuration keys replacing the configuration's (flags).
    reassess : bool, default True
        Assess the original and the released file (needs key variables from the plan, the
        config or the overrides).
    input_file : path, optional
        Where `data` came from (for the log: name and SHA-256).
    utility_variables : sequence of str, optional
        The variables the comparison's utility measures use (:func:`sdc.compare`'s `variables`;
        default: the changed ones). In-memory runs only.
    read_notes : sequence of str
        What reading `data` had to say (a missing-value marker read as a value, ...): in the
        log (``input.notes``) and first in the comparison's notes.

    Returns
    -------
    ProtectionRun

    Raises
    ------
    PlanError
        A bad plan, parameter or value: one line naming the step, the parameter and the value.
        Nothing has been written (nothing is: writing is :func:`sdc.write_protection`'s).

    Examples
    --------
    >>> import sdc
    >>> df = sdc.load_example()
    >>> run = sdc.protect_data(df, "sdc/data/example_plan.toml")   # doctest: +SKIP
    >>> run.released, run.comparison.risk                          # doctest: +SKIP
    """
    engine = engine_of(data)
    frame = _input_frame(data)
    plan = _as_plan(plan).with_seed()
    table = method_table()
    _refuse_on_engine(plan, table, engine)
    check_plan(plan, frame, table)
    cfg = _reassessment_config(plan, frame, config, overrides, input_file, engine) if reassess else None
    released, records = run_steps(data, plan, methods=table, progress=progress and engine == "pandas")
    when = run_time(now)
    prov = provenance(when, command=command, plan_source=plan.source, sdc=__version__,
                      **_input_fields(data, input_file), **({"read_notes": list(read_notes)} if read_notes else {}))
    run = ProtectionRun(plan=plan, original=data, released=released, steps=tuple(records), config=cfg,
                        provenance=prov)
    return run if cfg is None else _compared(data, run, input_file=input_file, command=command, progress=progress, now=when,
                                                     utility_variables=utility_variables, read_notes=read_notes)


# ---------------------------------------------------------------------------------------------
# On Dask: the protect back end lives with the others (sdc.workflow.engine)

from sdc.workflow.engine import (  # noqa: E402 - re-exported: the names of this module's API
    DASK_MEASURES, dask_assessment, dask_session, finish_dask_run, read_dask_partitions,
)
