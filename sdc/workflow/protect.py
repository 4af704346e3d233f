"""The protection run (``sdc protect``): a plan's steps applied in order, every step recorded, and
the released file assessed beside the original.

:func:`protect_data` checks the plan against the data (:func:`sdc.workflow.plan.check_plan`)
before any step runs, then applies each step to the output of the one before. A step that
gives no seed gets one derived from the plan's seed (:func:`sdc.workflow.plan.step_seed`), and
a plan without a seed gets a fresh one, recorded, so that the resolved plan reruns the same
release. The result, a :class:`ProtectionRun`, holds the released data, each step's
:class:`~sdc.protect._result.ProtectionResult`, the protection log (:meth:`ProtectionRun.log`,
what ``protection.json`` holds) and, with an assessment configuration, the comparison of the
original and the released file (:func:`sdc.workflow.compare.compare`).

Secrets: a pseudonymisation key is named in the plan by a file (``key_file``) or an
environment variable (``key_env``); when the method wants the key itself, it is read here,
passed on, and kept nowhere (not in the run, its log, its repr or an error message).
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_frame, check_int
from sdc._version import __version__
from sdc.exceptions import DataFileError, SdcWarning
from sdc.protect._result import ProtectionResult
from sdc.protect.pseudonym import key_source_text
from sdc.workflow.compare import Comparison, compare
from sdc.workflow.config import ConfigError, RunConfig, from_mapping, load_config, to_toml
from sdc.workflow.plan import (
    KEY_SOURCES, MethodSpec, Plan, PlanError, Step, check_plan, load_plan, method_table, plan_to_toml, step_seed,
)

__all__ = ["ProtectionRun", "StepRecord", "protect_data", "run_steps", "assessment_config", "plan_read_settings",
           "protection_log", "finish_dask_run", "DASK_REFUSED", "dask_session", "read_dask_partitions"]

LOG_SCHEMA_VERSION = 1
#: Longer lists of values in a method's details are summarised in the log (min, median, max).
_LONG = 200


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


@dataclass(frozen=True)
class ProtectionRun:
    """A protection plan applied to a dataset.

    Attributes
    ----------
    plan : Plan
        The plan as run: with the seed it used.
    original : pandas.DataFrame
        The input (not modified).
    released : pandas.DataFrame
        The protected data (index: the input's labels of the records kept).
    steps : tuple of StepRecord
    config : RunConfig or None
        The assessment configuration (None: no re-assessment).
    comparison : Comparison or None
        The original and the released file assessed alike.
    provenance : dict
    """

    plan: Plan
    original: pd.DataFrame = field(repr=False)
    released: pd.DataFrame = field(repr=False)
    steps: tuple[StepRecord, ...]
    config: RunConfig | None = field(default=None, repr=False)
    comparison: Comparison | None = field(default=None, repr=False)
    provenance: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: On Dask (``original``/``released`` are Dask DataFrames): the measures run on both files.
    dask_assessment: Mapping[str, Any] | None = field(default=None, repr=False)

    @property
    def records_in(self) -> int:
        """Records of the input (on Dask: counted when the release was written)."""
        return int(self.provenance["records_in"]) if "records_in" in self.provenance else len(self.original)

    @property
    def records_out(self) -> int:
        return int(self.provenance["records_out"]) if "records_out" in self.provenance else len(self.released)

    @property
    def seeds(self) -> dict[int, int | None]:
        """Step number -> the seed it ran with."""
        return {r.step.number: r.seed for r in self.steps}

    @property
    def records_dropped(self) -> int:
        return self.records_in - self.records_out

    def cells_changed(self) -> pd.Series:
        """Cells changed per variable over all steps (a cell changed twice counts twice)."""
        out: dict[str, int] = {}
        for r in self.steps:
            for v, n in r.result.changed.items():
                out[str(v)] = out.get(str(v), 0) + int(n)
        return pd.Series(out, dtype=np.int64, name="cells_changed")

    def to_frame(self) -> pd.DataFrame:
        """One row per step and treated variable: the cells it changed."""
        rows = []
        for r in self.steps:
            n = r.records_after
            for v, c in r.result.changed.items():
                rows.append((r.step.number, r.step.method, str(v), int(c), c / n if n else np.nan, r.seed))
            if len(r.result.changed) == 0:
                rows.append((r.step.number, r.step.method, "", 0, 0.0, r.seed))
        return pd.DataFrame(rows, columns=["step", "method", "variable", "cells_changed", "share_changed", "seed"])

    def summary(self) -> dict[str, Any]:
        """Headline figures: steps, records in and out, cells changed, the plan's seed; and the
        primary scenario's risk before and after when the released file was assessed."""
        out: dict[str, Any] = {"steps": [f"{r.step.number}: {r.step.method}" for r in self.steps],
                               "seed": self.plan.seed, "records_in": self.records_in,
                               "records_out": self.records_out, "records_dropped": self.records_dropped,
                               "cells_changed": int(self.cells_changed().sum())}
        if self.comparison is not None:
            from sdc._stats import summary_values

            c = summary_values(self.comparison.summary())
            out.update({k: c[k] for k in ("scenario", "pct_unique", "records_fk_below_k", "global_risk") if k in c})
        return out

    def log(self) -> dict[str, Any]:
        """The protection log (``protection.json`` without the released file's name and hash)."""
        return protection_log(self)

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

def _secret(step: Step) -> bytes | None:
    """The key a step names (file or environment variable), read now and kept nowhere."""
    f, env = step.parameters.get("key_file"), step.parameters.get("key_env")
    if f is not None and env is not None:
        raise PlanError(f"plan {step.label}: give `key_file` or `key_env`, not both.")
    if f is not None:
        p = Path(str(f))
        if not p.is_file():
            raise PlanError(f"plan {step.label}: parameter `key_file`: no such file: {key_source_text(f, 'file')}.")
        key = p.read_bytes().strip()
        if not key:
            raise PlanError(f"plan {step.label}: parameter `key_file`: the key file is empty: {str(f)!r}.")
        return key
    if env is not None:
        val = os.environ.get(str(env))
        if val is None or not val.strip():
            raise PlanError(f"plan {step.label}: parameter `key_env`: the environment variable {key_source_text(env, 'env')} is "
                            "not set or empty.")
        return val.strip().encode("utf-8")
    return None


def _call(spec: MethodSpec, step: Step, data: pd.DataFrame, seed: int | None,
          values: Mapping[str, Any] | None = None) -> ProtectionResult:
    kwargs = {**step.parameters, **(values or {})}
    variables = kwargs.pop(spec.variables_param, None)
    if spec.secret is not None:
        import inspect

        native = set(KEY_SOURCES) & set(inspect.signature(spec.function).parameters)
        if not native:  # the method takes the key itself: read it here, pass it, keep it nowhere
            for n in KEY_SOURCES:
                kwargs.pop(n, None)
            key = _secret(step)
            if key is not None:
                kwargs[spec.secret] = key
    if spec.seeded and seed is not None:
        kwargs["seed"] = seed
    try:
        res = spec.function(data, variables, **kwargs)
    except DataFileError:
        raise  # a file read while the step runs (a Dask partition): the file's fault, not the step's
    except (ValueError, TypeError, KeyError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise PlanError(f"plan {step.label}: {msg}") from None
    finally:
        kwargs.clear()  # drop the key with the arguments
    if not isinstance(res, ProtectionResult):
        raise TypeError(f"plan {step.label}: {spec.name} returned {type(res).__name__}, not a ProtectionResult.")
    return res


def _length(frame: Any) -> int:
    """Records of a frame; 0 for a Dask DataFrame (counted when written: :func:`finish_dask_run`)."""
    from sdc.core._dask import is_dask

    return 0 if is_dask(frame) else len(frame)


def run_steps(data: pd.DataFrame, plan: Plan, *, methods: Mapping[str, MethodSpec] | None = None,
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
        from tqdm import tqdm

        bar = tqdm(total=len(steps), desc="protect", unit="step", leave=False)
    try:
        for step in steps:
            spec = table[step.method]
            if spec.seeded:
                if step.seed is not None:
                    seed, source = step.seed, "step"
                else:
                    if plan.seed is None:
                        raise PlanError(f"plan {step.label}: needs a seed (the plan has none).")
                    seed, source = step_seed(plan.seed, step.number), "plan"
            else:
                seed, source = None, ""
            t0 = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SdcWarning)
                res = _call(spec, step, current, seed, (values or {}).get(step.number))
            notes = tuple(dict.fromkeys(" ".join(str(w.message).split()) for w in caught
                                        if issubclass(w.category, SdcWarning)))
            records.append(StepRecord(step=step, seed=seed if spec.seeded else None, seed_source=source, result=res,
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
# The assessment configuration of a run

def plan_read_settings(plan: Plan, *, config: str | Path | None = None) -> dict[str, Any]:
    """How a plan's data file is read: the keyword arguments of :func:`sdc.io.read_data`
    (``sep``, ``na_values``, ``text_columns``, ``sheet``) that the ``[data]`` section of
    `config` (a file; default the plan's ``[plan].config``) gives, with the plan's own
    ``[data]`` section over them. Only those given; validated as in a config file, but
    without the rest of the configuration (the data are read before it is needed, and also
    when nothing is assessed)."""
    from sdc.workflow.config import file_read_settings, read_settings

    file = config if config is not None else plan.config_path
    settings = file_read_settings(file) if file is not None else {}
    try:
        settings.update(read_settings(plan.assessment.get("data", {})))
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("config ", "plan ", 1)) from None
    return settings


def assessment_config(plan: Plan, *, config: RunConfig | str | Path | None = None,
                      overrides: Mapping[str, Any] | None = None, data_path: str | None = None) -> RunConfig | None:
    """The configuration the original and the released file are assessed with.

    In order: `config` (a RunConfig, or a file); the plan's ``[plan].config`` file; the
    assessment sections the plan carries; `overrides` alone (sections of keys, as from
    command-line flags, e.g. ``{"variables": {"categorical_keys": [...]}}``), which also
    replace the chosen configuration's values key by key. With none of them, the keys of the
    plan's local-suppression steps (if any) are the keys; else None (no re-assessment).
    """
    overrides = {k: v for k, v in (overrides or {}).items() if v}
    path = data_path or "(data)"
    if isinstance(config, RunConfig):
        cfg = config
        if overrides:
            raise ValueError("give overrides with a config file, not with a RunConfig.")
        return replace(cfg, data_path=data_path or cfg.data_path)
    file = config if config is not None else plan.config_path
    ov = {**overrides, "data": {**dict(overrides.get("data", {})), "path": path}}
    if file is not None:
        return replace(load_config(file, ov), data_path=data_path)
    raw: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in plan.assessment.items()}
    if not raw and not (set(overrides) - {"data", "output"}):
        keys = [k for s in plan.steps if s.method == "local_suppression" for k in s.variables()]
        if not keys:
            return None
        raw["variables"] = {"categorical_keys": list(dict.fromkeys(keys))}
    for sec, items in ov.items():
        if sec == "scenarios":
            raw["scenarios"] = items
            continue
        body = raw.get(sec, {})
        raw[sec] = {**(dict(body) if isinstance(body, Mapping) else {}), **items}
    try:
        cfg = from_mapping(raw, source=plan.source if plan.assessment else "flags")
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("config ", "plan ", 1)) from None
    return replace(cfg, data_path=data_path)


# ---------------------------------------------------------------------------------------------

def protect_data(
    data: pd.DataFrame,
    plan: Plan | str | Path,
    *,
    config: RunConfig | str | Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    reassess: bool = True,
    input_file: str | Path | None = None,
    command: str = "",
    progress: bool = False,
    now: datetime | None = None,
) -> ProtectionRun:
    """Apply a protection plan to `data` and assess the released file beside the original.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        The original microdata (not modified). A Dask DataFrame gives a lazy run of the
        row-wise steps (whole-file steps are refused in one line: :data:`DASK_REFUSED`),
        computed and written by :func:`sdc.report.protection_dask.write_protection_dask`.
    plan : Plan or path
        The plan (see :mod:`sdc.workflow.plan`), or its file.
    config : RunConfig or path, optional
        How both files are assessed (default: the plan's; see :func:`assessment_config`).
    overrides : dict, optional
        Sections of assessment-configuration keys replacing the configuration's (flags).
    reassess : bool, default True
        Assess the original and the released file (needs key variables from the plan, the
        config or the overrides).
    input_file : path, optional
        Where `data` came from (for the log: name and SHA-256).

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
    from sdc.core._dask import is_dask

    if is_dask(data):
        return _protect_dask(data, plan, config=config, overrides=overrides, reassess=reassess,
                             input_file=input_file, command=command, now=now)
    check_frame(data)
    if not data.index.is_unique:
        raise ValueError("`data` has duplicated index labels; the run pairs the released records with the original "
                         "ones by index: reset the index (data.reset_index(drop=True)).")
    if not isinstance(plan, Plan):
        plan = load_plan(plan)
    plan = plan.with_seed()
    table = method_table()
    check_plan(plan, data, table)
    cfg = _reassessment_config(plan, data, config, overrides, input_file, "reassess=False",
                               lambda c: (("keys", c.keys), ("sensitive", c.sensitive))) if reassess else None
    if cfg is not None and cfg.population_size is not None and "uniqueness" in cfg.measures:
        # Refused now, as the assessment would refuse it after the steps (minutes at 10^7).
        check_int(cfg.population_size, "population_size", min_value=len(data))
    released, records = run_steps(data, plan, methods=table, progress=progress)
    when = now or datetime.now(timezone.utc)
    prov: dict[str, Any] = {"generated_utc": when.strftime("%Y-%m-%d %H:%M:%S UTC"), "command": command,
                            "plan_source": plan.source, "sdc": __version__}
    if input_file is not None:
        from sdc.workflow.compare import _sha256

        prov["input_file"] = str(input_file)
        prov["input_sha256"] = _sha256(input_file)
    run = ProtectionRun(plan=plan, original=data, released=released, steps=tuple(records), config=cfg,
                        provenance=prov)
    if cfg is not None:
        recoded = [v for r in records if r.step.method in ("global_recode", "microaggregation")
                   for v in r.result.variables]
        comp = compare(data, released, cfg, protection=run.log(), match="index", recoded=recoded,
                       files=[input_file] if input_file else (), command=command, progress=progress, now=when)
        run = replace(run, comparison=comp)
    return run


# ---------------------------------------------------------------------------------------------
# On Dask: the row-wise steps per partition

#: Methods that need the whole file at once, refused on a Dask DataFrame: why, in one phrase.
#: (Recoding, top/bottom coding and pseudonyms are row-wise; PRAM's matrix comes from one
#: counting pass, its draws are per partition: :mod:`sdc.protect.on_dask`.)
DASK_REFUSED: dict[str, str] = {
    "local_suppression": "it suppresses values until every key pattern of the whole file has k records",
    "microaggregation": "its groups of similar records are formed over the whole file",
    "rank_swap": "it swaps values between records ranked over the whole file",
    "add_noise": "its noise scale comes from the whole file's standard deviations or covariance",
}

#: The measures the Dask re-assessment runs (the rest of the configuration's are listed as not run).
DASK_MEASURES = ("k_anonymity", "risk")


def _reassessment_config(plan: Plan, columns_of: pd.DataFrame, config: RunConfig | str | Path | None,
                         overrides: Mapping[str, Any] | None, input_file: str | Path | None, opt_out: str,
                         roles: Any) -> RunConfig:
    """The configuration the released file is assessed with; its columns checked in
    `columns_of` (the data, or a Dask frame's meta) for each ``(role, columns)`` of
    ``roles(config)``."""
    from sdc._validation import check_columns

    cfg = assessment_config(plan, config=config, overrides=overrides, data_path=str(input_file) if input_file else None)
    if cfg is None:
        raise ValueError("the released file is assessed with the key variables: give them (--keys, --config, "
                         f"[plan].config or [variables] in the plan), or do not assess ({opt_out}).")
    for role, cols in roles(cfg):
        if cols:
            check_columns(columns_of, list(cols), role=role)
    return cfg


def _protect_dask(data: Any, plan: Plan | str | Path, *, config: RunConfig | str | Path | None,
                  overrides: Mapping[str, Any] | None, reassess: bool, input_file: str | Path | None,
                  command: str, now: datetime | None) -> ProtectionRun:
    """The run on a Dask DataFrame, lazily: the steps are chained per partition; nothing is
    computed until :func:`finish_dask_run` writes the release."""
    if not isinstance(plan, Plan):
        plan = load_plan(plan)
    plan = plan.with_seed()
    for step in plan.steps:
        if step.method in DASK_REFUSED:
            raise PlanError(f"plan {step.label}: {step.method} cannot run on a Dask DataFrame "
                            f"({DASK_REFUSED[step.method]}); run it in memory (--engine pandas).")
    table = method_table()
    check_plan(plan, data._meta, table)
    cfg = _reassessment_config(plan, data._meta, config, overrides, input_file, "--no-assess",
                               lambda c: (("keys", c.keys), ("weights", (c.weights,) if c.weights else ()))
                               ) if reassess else None
    released, records = run_steps(data, plan, methods=table)
    when = now or datetime.now(timezone.utc)
    prov: dict[str, Any] = {"generated_utc": when.strftime("%Y-%m-%d %H:%M:%S UTC"), "command": command,
                            "plan_source": plan.source, "sdc": __version__, "engine": "dask",
                            "partitions": data.npartitions}
    if input_file is not None:
        prov["input_file"] = str(input_file)
    return ProtectionRun(plan=plan, original=data, released=released, steps=tuple(records), config=cfg,
                         provenance=prov)


def _lazy_details(x: Any, found: list[Any]) -> Any:
    """Details with each Dask object replaced by its place in `found` (a marker)."""
    from sdc.core._dask import is_dask

    if isinstance(x, Mapping):
        return {k: _lazy_details(v, found) for k, v in x.items()}
    if is_dask(x):
        found.append(x)
        return _Lazy(len(found) - 1)
    return x


@dataclass(frozen=True)
class _Lazy:
    index: int


def _fill_details(x: Any, values: Sequence[Any]) -> Any:
    if isinstance(x, Mapping):
        return {k: _fill_details(v, values) for k, v in x.items()}
    return values[x.index] if isinstance(x, _Lazy) else x


def dask_session(scheduler: str | None = None) -> Any:
    """The cluster of a Dask run (a context giving a Client): `scheduler` (an address or a
    scheduler file), else a local cluster sized to the machine."""
    from sdc.core._dask_protect import session

    return session(scheduler)


def read_dask_partitions(pattern: str, *, sep: str | None = None, na_values: Sequence[str] | None = None,
                         text_columns: bool | Sequence[str] | None = None, sheet: str | int | None = None
                         ) -> tuple[Any, list[str]]:
    """A path or glob as a Dask DataFrame of one partition per file, each read as in memory
    (:func:`sdc.io.read_data` with `sep`, `na_values` and `text_columns`); and the files.
    Delimited text only: a `sheet` is refused."""
    from sdc.core._dask_protect import read_partitions

    if sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); `sheet` is for Excel input.")
    options = {"sep": sep, "na_values": na_values, "text_columns": text_columns}
    return read_partitions(pattern, **{k: v for k, v in options.items() if v is not None})


def finish_dask_run(run: ProtectionRun, directory: str, writer: Any, *, mode: int = 0o644
                    ) -> tuple[ProtectionRun, list[tuple[str, str, int]]]:
    """Compute a Dask run: the released partitions written into `directory` (each by
    ``writer(partition, number) -> (file name, bytes)`` on its worker; see
    :func:`sdc.core._dask_protect.write_partitions`) together with every step's cells changed
    and lazy details, in one pass over the data; then the Dask-capable measures
    (:data:`DASK_MEASURES`) on the original and the released file.

    Returns the run with concrete step results and record counts, and the files written as
    (name, SHA-256, records).
    """
    from sdc.core import _dask_protect
    from sdc.core._dask import is_dask

    writes = _dask_protect.write_partitions(run.released, directory, writer, mode=mode)

    lazy: list[Any] = []
    shells = []
    for r in run.steps:
        changed = _lazy_details({"c": r.result.changed}, lazy)["c"]
        shells.append((changed, _lazy_details(dict(r.result.details), lazy)))
    done = _dask_protect.compute(list(writes), lazy)
    written, values = list(done[0]), list(done[1])
    n = int(sum(w[2] for w in written))
    steps = []
    for r, (changed, details) in zip(run.steps, shells):
        ch = _fill_details({"c": changed}, values)["c"]
        if is_dask(ch):  # pragma: no cover - defensive
            ch = ch.compute()
        ch = pd.Series({str(k): int(v) for k, v in pd.Series(ch).items()}, dtype=np.int64, name="cells_changed")
        res = replace(r.result, changed=ch, details=_fill_details(details, values))
        steps.append(replace(r, result=res, records_before=n, records_after=n))
    prov = {**dict(run.provenance), "records_in": n, "records_out": n}
    out = replace(run, steps=tuple(steps), provenance=prov)
    if run.config is not None:
        out = replace(out, dask_assessment=dask_assessment(run.original, run.released, run.config))
    return out, written


def dask_assessment(original: Any, released: Any, cfg: RunConfig) -> dict[str, Any]:
    """k-anonymity and the re-identification risks of both files on Dask (the primary keys,
    weights, missing-value rule and k of the configuration); the configuration's other
    measures are listed as not run."""
    from sdc.risk.individual import individual_risk
    from sdc.risk.kanonymity import k_anonymity

    keys = list(cfg.categorical_keys)
    k = cfg.thresholds.k
    not_run = [m for m in cfg.measures if m not in DASK_MEASURES]
    exact = {"suda": "SUDA2 needs every record's key combinations at once",
             "modrisk": "a log-linear model fitted over all cells together",
             "household": "each household's records together"}
    why = {m: (f"cannot run on Dask exactly ({exact[m]})" if m in exact
               else "not run in the Dask re-assessment of sdc protect (sdc assess --engine dask on the released files)")
           for m in not_run}
    if cfg.continuous_keys:
        why["continuous keys"] = ("binned keys are not assessed on Dask: "
                                  + ", ".join(cfg.continuous_keys) + " left out of the keys")
    out: dict[str, Any] = {"keys": keys, "weights": cfg.weights, "k": k, "missing": cfg.missing,
                           "measures": list(DASK_MEASURES), "not_run": why, "files": {}}
    if not keys:
        out["not_run"]["k_anonymity"] = out["not_run"]["risk"] = "no categorical keys"
        out["measures"] = []
        return out
    for name, frame in (("original", original), ("released", released)):
        prof = k_anonymity(frame, keys, k=k, weights=cfg.weights, missing=cfg.missing, alpha=cfg.alpha)
        risk = individual_risk(frame, keys, weights=cfg.weights, missing=cfg.missing, alpha=cfg.alpha)
        out["files"][name] = {
            "records": int(prof.n_records), "classes": int(prof.n_classes), "sample_uniques": int(prof.n_unique),
            "records_fk_below_k": int(prof.n_k_lt_threshold),
            "expected_reidentifications": float(risk.expected_reidentifications),
            "global_risk": float(risk.global_risk)}
    return out


# ---------------------------------------------------------------------------------------------
# The log

def _json(x: Any) -> Any:
    """JSON-ready (numbers unrounded; NaN and infinities as null; tables as columns + rows)."""
    import math

    if isinstance(x, pd.DataFrame):
        frame = x
        if not isinstance(x.index, pd.RangeIndex):
            frame = x.rename_axis(x.index.name or ("level" if "level" not in x.columns else "row")).reset_index()
        return {"columns": [str(c) for c in frame.columns],
                "rows": [[_json(v) for v in row] for row in frame.itertuples(index=False, name=None)]}
    if isinstance(x, pd.Series):
        return {str(k): _json(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return [_json(v) for v in x.tolist()]
    if isinstance(x, Mapping):
        return {str(k): _json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return [_json(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        return None if math.isnan(v) or math.isinf(v) else v
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, (int, str)):
        return x
    return str(x)


def _per_record_summaries(details: Mapping[str, Any], n: int) -> dict[str, Any]:
    """Details with one value per record (a record's flag, its group) are counted, not logged:
    the log describes the protection, the released file holds the records."""
    out: dict[str, Any] = {}
    for k, v in details.items():
        if isinstance(v, Mapping):
            out[k] = _per_record_summaries(v, n)
        elif isinstance(v, (pd.Series, np.ndarray)) and v.ndim == 1 and len(v) == n and n > 20:
            arr = np.asarray(v)
            if arr.dtype == bool:
                out[k] = {"records_true": int(arr.sum()), "records_false": int((~arr).sum())}
            else:
                out[k] = f"one value per record ({n:,}); not in the log"
        elif isinstance(v, pd.DataFrame) and len(v) == n and n > 20:
            out[k] = f"one row per record ({n:,}); not in the log"
        elif isinstance(v, (pd.Series, np.ndarray)) and np.ndim(v) == 1 and len(v) > _LONG:
            arr = pd.to_numeric(pd.Series(np.asarray(v)), errors="coerce").to_numpy(dtype=float)
            out[k] = ({"values": int(len(arr)), "min": float(np.nanmin(arr)), "median": float(np.nanmedian(arr)),
                       "max": float(np.nanmax(arr))} if np.isfinite(arr).any()
                      else f"{len(arr):,} values; not in the log")
        else:
            out[k] = v
    return out


def protection_log(run: ProtectionRun) -> dict[str, Any]:
    """Every step of a run: its parameters (never a secret), seed, and what it changed."""
    steps = []
    for r in run.steps:
        res = r.result
        params = {k: v for k, v in r.step.parameters.items()}
        steps.append({
            "number": r.step.number,
            "method": r.step.method,
            "variables": list(res.variables),
            "parameters": _json(params),
            "method_parameters": _json(res.parameters),
            "seed": r.seed,
            "seed_source": r.seed_source,
            "records_before": r.records_before,
            "records_after": r.records_after,
            "records_dropped": r.records_dropped,
            "cells_changed": {str(k): int(v) for k, v in res.changed.items()},
            "cells_changed_total": int(res.changed.sum()),
            "details": _json(_per_record_summaries(dict(res.details), r.records_before)),
            "notes": list(r.notes),
        })
    total = run.cells_changed()
    prov = dict(run.provenance)
    return {
        "schema_version": LOG_SCHEMA_VERSION,
        "generator": f"sdc {__version__}",
        "generated_utc": prov.get("generated_utc", ""),
        "input": {"file": prov.get("input_file", "(a DataFrame)"), "sha256": prov.get("input_sha256"),
                  "records": run.records_in, "variables": len(run.original.columns)},
        "released": {"records": run.records_out, "variables": len(run.released.columns),
                     "columns_dropped": [c for c in run.original.columns if c not in run.released.columns]},
        "plan": {"source": run.plan.source, "seed": run.plan.seed, "steps": len(run.plan.steps)},
        "steps": steps,
        "totals": {"cells_changed": {str(k): int(v) for k, v in total.items()},
                   "records_dropped": run.records_dropped},
        "command": prov.get("command", ""),
        **({"engine": {"name": "dask", "partitions": prov.get("partitions"), "files": prov.get("input_files")},
            "assessment_on_dask": _json(run.dask_assessment)} if run.dask_assessment is not None
           or prov.get("engine") == "dask" else {}),
    }
