"""The protection plan of ``sdc protect`` and ``sdc sweep``: which methods, in which order, with
which parameters, validated before anything runs.

A plan is a TOML (or YAML) file of ``[[steps]]``, each naming a protection ``method`` of
:mod:`sdc.protect` and its parameters exactly as the Python function takes them::

    [plan]
    seed = 20240611                 # every random step's seed derives from it (optional)
    # config = "run.toml"           # the assessment to repeat on the released file (optional)

    [[steps]]
    method = "global_recode"
    variables = ["age"]
    width = 10

    [[steps]]
    method = "local_suppression"
    keys = ["age", "sex", "region"]
    k = 3

    [[steps]]
    method = "pram"
    variables = ["marital_status"]
    pd = 0.8
    seed = 7                        # a step may fix its own seed

The plan may also carry the sections of an assessment configuration (``[variables]``,
``[bins]``, ``[[scenarios]]``, ``[thresholds]``, ``[options]``, ``[output]``, and ``id``,
``sep``, ``na_values``, ``text_columns``, ``sheet`` in ``[data]``; see :mod:`sdc.workflow.config`):
they say how the original and the released file are assessed, and how the data file is read. A sweep plan (``sdc sweep``) gives, in a step, ``grid = { parameter = [values] }``
for the parameters to vary, and a ``[sweep]`` section (see :mod:`sdc.workflow.sweep`).

The method table (:func:`method_table`) is the methods' declarations
(:mod:`sdc.protect._declare`): the parameters a step may give are the function's keyword
parameters, each checked by its declared rule, so the plan cannot drift from the code.
:func:`check_plan` validates a plan against the data before any step runs; each error is one
line naming the step (number and method), the parameter and the value.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Names
from sdc._validation import did_you_mean, is_numeric_column
from sdc.protect import MethodInfo, method_infos
from sdc.protect.pseudonym import key_source_text
from sdc.workflow.config import ConfigError, _toml_key, _toml_value, read_config_file

__all__ = ["Plan", "Step", "MethodInfo", "PlanError", "method_table", "load_plan",
           "plan_from_mapping", "check_plan", "step_seed", "plan_to_toml", "flags_plan", "ASSESS_SECTIONS",
           "read_plan_file", "grid_points"]

#: Parameters that would carry a secret: a plan names where the secret is (a file or an
#: environment variable), never the secret itself, because the resolved plan is written out.
SECRET_PARAMETERS = ("key", "secret", "password")

#: Sections of an assessment configuration that a plan may carry.
ASSESS_SECTIONS = ("data", "variables", "bins", "sensitive_bins", "scenarios", "analyses", "thresholds", "options", "output")
_PLAN_SECTIONS = ("plan", "steps", "sweep") + ASSESS_SECTIONS
_PLAN_KEYS = {"seed", "config"}
#: Keys of a step that are not the method's parameters; a method parameter of the same name
#: is given inside ``params = { ... }``.
_RESERVED = ("method", "seed", "grid", "params")


class PlanError(ConfigError):
    """An invalid plan; the message names the step, the parameter and the value."""


@dataclass(frozen=True)
class Step:
    """One step of a plan.

    Attributes
    ----------
    number : int
        1-based position in the plan (what error messages and the log call it).
    method : str
        The protection method (a name of :func:`method_table`).
    parameters : dict
        The method's arguments as the plan gives them, the variables argument included; never
        a secret (a key is named by ``key_file`` or ``key_env``).
    seed : int or None
        The seed the plan gives this step; None derives it from the plan's seed.
    grid : dict
        For a sweep: parameter -> the values to try.
    """

    number: int
    method: str
    parameters: Mapping[str, Any]
    seed: int | None = None
    grid: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"step {self.number} ({self.method})"

    def variables(self, spec: MethodInfo | None = None) -> tuple[str, ...]:
        """The columns this step treats (its variables argument; in a sweep, every value its
        grid gives that argument)."""
        names = (spec.variables_param,) if spec is not None and spec.variables_param else ("variables", "keys")
        out: list[str] = []
        for n in names:
            values = [self.parameters[n]] if self.parameters.get(n) is not None else []
            values += list(self.grid.get(n, ()))
            for v in values:
                out += [v] if isinstance(v, str) else list(v)
            if values:
                break
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Plan:
    """A validated protection plan (not yet checked against the data: see :func:`check_plan`).

    Attributes
    ----------
    steps : tuple of Step
    seed : int or None
        The plan's seed; None until a run draws one (the run records the seed it used).
    assessment : dict
        Assessment-configuration sections carried by the plan (raw, validated when used).
    config_path : str or None
        ``[plan].config``: an assessment configuration file (resolved against the plan's folder).
    sweep : dict
        The ``[sweep]`` section of a sweep plan (raw).
    source : str
        The plan file, or ``"flags"``.
    """

    steps: tuple[Step, ...]
    seed: int | None = None
    assessment: Mapping[str, Any] = field(default_factory=dict)
    config_path: str | None = None
    sweep: Mapping[str, Any] = field(default_factory=dict)
    source: str = "flags"

    def with_seed(self) -> Plan:
        """This plan, with a freshly drawn seed if it has none."""
        return self if self.seed is not None else replace(self, seed=secrets.randbits(63))


# ---------------------------------------------------------------------------------------------
# The method table: the methods' declarations

def method_table() -> dict[str, MethodInfo]:
    """The protection methods a plan may name, by name, in the order they are usually applied:
    the declarations of the methods :mod:`sdc.protect` exports (:func:`sdc.protect.method_infos`),
    then the identify wing's Safe Harbor preset (:func:`sdc.identify.protection_methods`)."""
    from sdc.identify import protection_methods

    return {**method_infos(), **protection_methods()}


# ---------------------------------------------------------------------------------------------
# Reading a plan

def _err(where: str, what: str) -> PlanError:
    return PlanError(f"plan {where}: {what}")


def read_plan_file(path: str | Path) -> dict[str, Any]:
    """The parsed plan file (TOML, or YAML with .yaml/.yml), not yet validated."""
    return read_config_file(Path(path), kind="plan", error=PlanError, sections="[plan], [[steps]], ...")


def load_plan(path: str | Path | None = None, extra_steps: Sequence[Mapping[str, Any]] = (),
              *, seed: int | None = None) -> Plan:
    """Read and validate a plan file; `extra_steps` (from command-line flags) are appended, and
    `seed` replaces the plan's seed. Relative paths in the plan (``[plan].config``, key files)
    are relative to the plan file."""
    raw: dict[str, Any] = {}
    source, base = "flags", None
    if path is not None:
        raw = read_plan_file(path)
        source, base = str(path), Path(path).parent
    if extra_steps:
        steps = raw.get("steps", [])
        if not isinstance(steps, list):
            raise _err("[[steps]]", "must be a list of tables, each with `method` and its parameters.")
        raw["steps"] = [*steps, *extra_steps]
    if seed is not None:
        raw["plan"] = {**(raw.get("plan") or {}), "seed": seed}
    return plan_from_mapping(raw, source=source, base_dir=base)


def _seed(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2 ** 63:
        raise _err(where, f"must be a whole number from 0 to 2^63 - 1; got {value!r}.")
    return int(value)


_PATH_PARAMETERS = ("key_file",)


def plan_from_mapping(raw: Mapping[str, Any], *, source: str = "mapping", base_dir: str | Path | None = None,
                      methods: Mapping[str, MethodInfo] | None = None, sweep: bool = False) -> Plan:
    """Validate a parsed plan (a mapping of sections) into a :class:`Plan`.

    Checks everything that does not need the data: the sections, each step's method, its
    parameter names (against the method's signature), the required ones, secrets, seeds,
    and each value against its declared rule (:meth:`MethodInfo.check`).
    """
    if not isinstance(raw, Mapping):
        raise _err("file", "must be a table of sections ([plan], [[steps]], ...).")
    unknown = [s for s in raw if s not in _PLAN_SECTIONS]
    if unknown:
        raise _err(f"section [{unknown[0]}]", f"is not known; allowed: {', '.join(_PLAN_SECTIONS)}.")
    head = raw.get("plan", {})
    if not isinstance(head, Mapping):
        raise _err("[plan]", "must be a table (seed, config).")
    extra = [k for k in head if k not in _PLAN_KEYS]
    if extra:
        raise _err(f"[plan].{extra[0]}", f"is not a known key; allowed: {', '.join(sorted(_PLAN_KEYS))}.")
    seed = _seed(head["seed"], "[plan].seed") if head.get("seed") is not None else None
    config_path = head.get("config")
    if config_path is not None:
        if not isinstance(config_path, str) or not config_path:
            raise _err("[plan].config", f"must be a file path; got {config_path!r}.")
        if base_dir is not None and not Path(config_path).is_absolute():
            config_path = str(Path(base_dir) / config_path)
    assessment = {s: raw[s] for s in ASSESS_SECTIONS if s in raw}
    if config_path is not None and set(assessment) - {"data", "output"}:
        raise _err("[plan].config", "give either an assessment config file or its sections in the plan, not both.")
    data_sec = assessment.get("data", {})
    if isinstance(data_sec, Mapping) and ({"path", "domains"} & set(data_sec)):
        raise _err("[data]", "a plan does not name the data file: give it on the command line (sdc protect DATA).")
    sweep_sec = raw.get("sweep", {})
    if not isinstance(sweep_sec, Mapping):
        raise _err("[sweep]", "must be a table.")
    if sweep_sec and not sweep:
        raise _err("[sweep]", "belongs in a sweep plan (sdc sweep), not in a protection plan.")

    steps_raw = raw.get("steps", [])
    if isinstance(steps_raw, Mapping) or isinstance(steps_raw, str) or not isinstance(steps_raw, Sequence):
        raise _err("[[steps]]", "must be a list of tables, each with `method` and its parameters.")
    if not steps_raw:
        raise _err("[[steps]]", "is empty: give at least one step (method and its parameters).")
    table = method_table() if methods is None else methods
    steps = [_step(i + 1, s, table, base_dir, sweep=sweep) for i, s in enumerate(steps_raw)]
    return Plan(steps=tuple(steps), seed=seed, assessment=assessment, config_path=config_path, sweep=dict(sweep_sec),
                source=source)


def _step(number: int, body: Any, table: Mapping[str, MethodInfo], base_dir: str | Path | None, *,
          sweep: bool) -> Step:
    where = f"step {number}"
    if not isinstance(body, Mapping):
        raise _err(where, f"must be a table with `method` and its parameters; got {body!r}.")
    method = body.get("method")
    if method is None:
        raise _err(where, "has no `method`; allowed: " + ", ".join(table) + ".")
    if not isinstance(method, str) or method not in table:
        raise _err(f"{where} ({method})" if isinstance(method, str) else where,
                   f"unknown method {method!r}{did_you_mean(method, table) if isinstance(method, str) else ''}"
                   f"; available: {', '.join(table) or 'none'}.")
    spec = table[method]
    where = f"step {number} ({method})"
    params = {k: v for k, v in body.items() if k not in _RESERVED}
    # A method parameter whose name the plan reserves (add_noise's own `method`) goes in `params`.
    escaped = body.get("params", {})
    if not isinstance(escaped, Mapping):
        raise _err(f"{where}: parameter `params`", f"must be a table of parameter = value; got {escaped!r}.")
    twice = set(params) & set(escaped)
    if twice:
        raise _err(where, f"parameter `{sorted(twice)[0]}` is given twice (also in `params`).")
    params.update(escaped)
    grid_raw = body.get("grid", {})
    if grid_raw and not sweep:
        raise _err(where, "`grid` belongs in a sweep plan (sdc sweep); a protection plan gives one value.")
    if not isinstance(grid_raw, Mapping):
        raise _err(f"{where}: parameter `grid`", f"must be a table of parameter = [values]; got {grid_raw!r}.")
    for name in [*params, *grid_raw]:
        if name in SECRET_PARAMETERS:
            raise _err(where, f"parameter `{name}`: a plan never holds a secret (the resolved plan is written out); "
                              "name a file (key_file) or an environment variable (key_env) instead.")
        if name not in spec.allowed or (name == "seed"):
            allowed = ", ".join(p for p in spec.allowed if p != "seed") + (", seed" if spec.seeded else "")
            raise _err(where, f"unknown parameter `{name}`; allowed: {allowed}.")
    both = set(params) & set(grid_raw)
    if both:
        raise _err(where, f"parameter `{sorted(both)[0]}` is given both as a value and in `grid`.")
    grid: dict[str, tuple[Any, ...]] = {}
    for name, values in grid_raw.items():
        if isinstance(values, (str, Mapping)) or not isinstance(values, Sequence) or not values:
            raise _err(where, f"grid parameter `{name}` must be a non-empty list of values; got {values!r}.")
        grid[name] = tuple(values)
    have = set(params) | set(grid)
    lacking = [p for p in spec.required if p not in have]
    if lacking:
        raise _err(where, f"parameter `{lacking[0]}` is required.")
    if "seed" in body and body["seed"] is not None:
        if not spec.seeded:
            raise _err(where, f"parameter `seed`: {method} has no random step; got {body['seed']!r}.")
        seed = _seed(body["seed"], f"{where}: parameter `seed`")
    else:
        seed = None
    for name in _PATH_PARAMETERS:
        v = params.get(name)
        if isinstance(v, str) and v and base_dir is not None and not Path(v).is_absolute():
            params[name] = str(Path(base_dir) / v)
    step = Step(number=number, method=method, parameters=params, seed=seed, grid=grid)
    for values in grid_points(step):
        check_values(spec, {**params, **values}, where)
    return step


def grid_points(step: Step) -> list[dict[str, Any]]:
    """Every combination of the step's grid values (one empty point without a grid)."""
    points: list[dict[str, Any]] = [{}]
    for name, values in step.grid.items():
        points = [{**p, name: v} for p in points for v in values]
    return points


# ---------------------------------------------------------------------------------------------
# Value rules that need no data

def check_values(spec: MethodInfo, params: Mapping[str, Any], where: str) -> None:
    """Each given parameter against its declared rule (k >= 2, probabilities in [0, 1],
    increasing edges, top not below bottom, ...), as ``plan <where>: parameter `name` must be
    ...; got <value>.`` The method checks the rest itself when it runs (the error then names
    the step as well)."""
    spec.check(params, lambda name: f"plan {where}: parameter `{name}`", PlanError)


# ---------------------------------------------------------------------------------------------
# Checks against the data

def _kind(s: pd.Series) -> str:
    """What a non-numeric column holds, in words that do not depend on the pandas version
    (pandas 3 calls text ``str``, pandas 1.5 ``object``)."""
    if pd.api.types.is_bool_dtype(s.dtype):
        return "true/false values"
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return "dates"
    if isinstance(s.dtype, pd.CategoricalDtype):
        return "categories"
    return "text"


def _needs_numbers(step: Step, spec: MethodInfo) -> bool:
    given = [p for p, v in step.parameters.items() if v is not None] + list(step.grid)
    return spec.needs_numbers(given)


def _check_columns(step: Step, spec: MethodInfo, columns: list[str], data: pd.DataFrame,
                   numeric: Mapping[str, bool | None] | None = None, types: bool = True) -> None:
    """The columns a step names exist (in the data as the earlier steps leave it), and are
    numeric where the method needs numbers (`numeric`: each column's kind as the earlier steps
    leave it, None where it is not known before they run)."""
    where = step.label
    names = step.variables(spec)
    for name in names:
        if not isinstance(name, str):
            raise _err(where, f"parameter `{spec.variables_param}` must hold column names; got {name!r}.")
    unknown = [v for v in names if v not in columns]
    if unknown:
        raise _err(where, f"parameter `{spec.variables_param}` names a column that is not in the data"
                          + (" (an earlier step dropped it)" if unknown[0] in data.columns else "")
                          + f": {unknown[0]!r}{did_you_mean(unknown[0], columns)}.")
    for opt in spec.options:  # the other parameters that name columns
        col = step.parameters.get(opt.name)
        if not isinstance(opt.rule, Names) or opt.name == "drop" or col is None:
            continue
        cols = [col] if isinstance(col, str) else (list(col) if isinstance(col, (list, tuple)) else [])
        bad = [c for c in cols if isinstance(c, str) and c not in columns]
        if bad:
            raise _err(where, f"parameter `{opt.name}` names a column that is not in the data: "
                              f"{bad[0]!r}{did_you_mean(bad[0], columns)}.")
    if types and _needs_numbers(step, spec):
        kind = numeric if numeric is not None else {v: is_numeric_column(data[v]) for v in names if v in data.columns}
        text = [v for v in names if v in data.columns and kind.get(v) is False]
        if text:
            raise _err(where, f"parameter `{spec.variables_param}`: {step.method} needs numeric columns; "
                              f"{text[0]!r} holds {_kind(data[text[0]])}.")


def _check_secrets(step: Step, spec: MethodInfo) -> None:
    """The file or environment variable a step names for its secret exists and is not empty."""
    where = step.label
    key_file = step.parameters.get("key_file") if "key_file" in spec.secrets else None
    if key_file is not None:
        p = Path(str(key_file))
        if not p.is_file():
            raise _err(where, f"parameter `key_file`: no such file: {key_source_text(key_file, 'file')}.")
        if p.stat().st_size == 0 or not p.read_bytes().strip():
            raise _err(where, f"parameter `key_file`: the key file is empty: {str(key_file)!r}.")
    key_env = step.parameters.get("key_env") if "key_env" in spec.secrets else None
    if key_env is not None and not os.environ.get(str(key_env), "").strip():
        raise _err(where, f"parameter `key_env`: the environment variable {key_source_text(key_env, 'env')} is not "
                          "set or empty.")


def check_plan(plan: Plan, data: pd.DataFrame, methods: Mapping[str, MethodInfo] | None = None, *,
               types: bool = True) -> None:
    """Check a plan against the data before any step runs: every variable a step names exists
    (in the data as the earlier steps leave it), numeric methods get numeric columns (as the
    earlier steps leave them: a ``date = "year"`` step makes years, which ``top_bottom_code``
    may then code; the methods' declared ``produces``; not with ``types=False``: `data` is then
    a header, without records), and a key file exists and is not empty. Raises
    :class:`PlanError` naming the step."""
    table = method_table() if methods is None else methods
    columns = list(data.columns)
    numeric: dict[str, bool | None] = {c: is_numeric_column(data[c]) for c in columns}
    for step in plan.steps:
        spec = table[step.method]
        _check_columns(step, spec, columns, data, numeric, types)
        _check_secrets(step, spec)
        after = spec.produces(step.parameters) if spec.produces is not None and not step.grid else None
        if after == "unknown":  # not known before it runs: its variables, or every column when it names none
            for v in (step.variables(spec) or columns):
                numeric[v] = None
            after = None
        for v in step.variables(spec):
            if isinstance(v, str) and v in numeric:
                numeric[v] = {"numbers": True, "text": False}.get(after or "", numeric[v] if not step.grid
                                                                   else None)
        drop = step.parameters.get("drop") if "drop" in spec.options else None
        if drop:  # the columns this step removes are gone for the later steps
            dropped = [drop] if isinstance(drop, str) else list(drop)
            unknown = [c for c in dropped if c not in columns]
            if unknown:
                raise _err(step.label, f"parameter `drop` names a column that is not in the data: {unknown[0]!r}.")
            columns = [c for c in columns if c not in dropped]


# ---------------------------------------------------------------------------------------------
# Seeds

def step_seed(plan_seed: int, step_number: int) -> int:
    """The seed of a step that gives none: drawn from the plan's seed and the step's number
    with numpy's ``SeedSequence`` (independent streams for different steps; the same plan
    seed always gives the same step seeds)."""
    state = np.random.SeedSequence(int(plan_seed), spawn_key=(int(step_number),)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


# ---------------------------------------------------------------------------------------------
# Writing the resolved plan

def plan_to_toml(plan: Plan, *, seeds: Mapping[int, int | None] | None = None,
                 assessment_toml: str | None = None, header: str | None = None) -> str:
    """The plan as TOML that :func:`load_plan` reads back to the same run: the plan's seed, each
    step's parameters and (from `seeds`, step number -> seed) the seed it used, and the
    assessment configuration (`assessment_toml`, the output of :func:`sdc.workflow.config.to_toml`
    without its [data].path)."""
    lines = [header or "# sdc protect plan (written by sdc; rerun with: sdc protect DATA --plan plan.toml --out DIR)",
             ""]
    head = []
    if plan.seed is not None:
        head.append(f"seed = {int(plan.seed)}")
    if plan.config_path and assessment_toml is None:
        head.append(f"config = {_toml_value(_absolute(plan.config_path))}")
    if head:
        lines += ["[plan]", *head, ""]
    if plan.sweep:
        lines += ["[sweep]"] + [f"{_toml_key(k)} = {_toml_value(_plain(v))}" for k, v in plan.sweep.items()] + [""]
    for step in plan.steps:
        lines.append("[[steps]]")
        lines.append(f"method = {_toml_value(step.method)}")
        escaped = {}
        for k, v in step.parameters.items():
            if v is None:
                continue
            if k in _PATH_PARAMETERS and isinstance(v, str) and v:
                v = _absolute(v)
            if k in _RESERVED:
                escaped[k] = _plain(v)
            else:
                lines.append(f"{_toml_key(k)} = {_toml_value(_plain(v))}")
        if escaped:
            lines.append(f"params = {_toml_value(escaped)}")
        seed = (seeds or {}).get(step.number, step.seed)
        if seed is not None:
            lines.append(f"seed = {int(seed)}")
        if step.grid:
            lines.append("grid = " + _toml_value({k: [_plain(x) for x in v] for k, v in step.grid.items()}))
        lines.append("")
    if assessment_toml:
        body = [ln for ln in assessment_toml.splitlines() if not ln.startswith("# sdc assess configuration")]
        lines += ["# How the original and the released file are assessed (sdc assess configuration sections).",
                  *body]
    return "\n".join(lines).rstrip("\n") + "\n"


def with_read_settings(plan: Plan, settings: Mapping[str, Any]) -> Plan:
    """The plan with `settings` (how the data file was read: ``sep``, ``na_values``,
    ``text_columns``, ``sheet``; None values left out) in its ``[data]`` section, so that the
    resolved plan written after the run reads the file alike (:func:`read_settings_toml`)."""
    given = {k: v for k, v in settings.items() if v is not None}
    if not given:
        return plan
    data = plan.assessment.get("data", {})
    return replace(plan, assessment={**plan.assessment, "data": {**(dict(data) if isinstance(data, Mapping) else {}),
                                                                 **given}})


def read_settings_toml(plan: Plan) -> str:
    """The reading settings of the plan's ``[data]`` as a TOML section ("" without any), for a
    resolved plan written without an assessment configuration."""
    from sdc.workflow.config import READ_KEYS

    data = plan.assessment.get("data", {})
    if not isinstance(data, Mapping):
        return ""
    lines = [f"{_toml_key(k)} = {_toml_value(list(data[k]) if isinstance(data[k], tuple) else data[k])}"
             for k in READ_KEYS if data.get(k) is not None]
    return "\n# How the data file is read.\n[data]\n" + "\n".join(lines) + "\n" if lines else ""


def _absolute(path: str) -> str:
    """A path of the plan as an absolute path: the written plan is read from another folder (the
    output's), where a relative path would name another file (load_plan resolves it there)."""
    return os.path.abspath(path)


def _plain(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


# ---------------------------------------------------------------------------------------------
# Steps from command-line flags (the common case without a plan file)

def check_suppression_keys(keys: Sequence[str] | None, continuous_keys: Sequence[str] | None) -> None:
    """``--k`` suppresses values until the ``--keys`` are k-anonymous: a continuous key of the
    assessment left out of them would leave the assessed scenario as it was, without a word,
    so it is refused (recode it into bands and list it among the keys)."""
    left = [c for c in continuous_keys or () if c not in (keys or ())]
    if left:
        names = ", ".join(map(repr, left))
        raise PlanError(f"plan: --k suppresses values until the --keys are k-anonymous; the continuous key(s) "
                        f"{names} would not be among them: recode them into bands (--recode {left[0]}=10) and "
                        "list them in --keys instead.")


def flags_plan(*, recode: Sequence[tuple[str, Any]] = (), top_code: Sequence[tuple[str, float]] = (),
               pram: Sequence[tuple[str, float]] = (), keys: Sequence[str] | None = None, k: int | None = None,
               pseudonymise: Sequence[str] = (), key_file: str | None = None, key_env: str | None = None,
               drop: Sequence[str] = (), safe_harbor: bool = False) -> list[dict[str, Any]]:
    """Plan steps for the flags of ``sdc protect``, in a fixed order: the Safe Harbor preset
    (``safe_harbor_release``), recoding, top coding, PRAM, local suppression to k-anonymity,
    pseudonymisation (and dropping of direct identifiers).

    `recode` holds (column, width) or (column, [edges]); `pram` (column, pd) pairs (sdcMicro's
    invariant PRAM with that probability of keeping a value); `top_code` (column, top bound).
    With `k`, the caller checks the assessment's continuous keys (:func:`check_suppression_keys`).
    """
    table = method_table()
    steps: list[dict[str, Any]] = []

    def var_param(method: str) -> str:
        return table[method].variables_param if method in table else "variables"

    if safe_harbor:  # the year it reads ages against, so that the resolved plan reruns the same
        import datetime

        steps.append({"method": "safe_harbor_release", "reference_year": datetime.date.today().year})
    for col, spec in recode:
        if isinstance(spec, (list, tuple)):
            steps.append({"method": "global_recode", var_param("global_recode"): [col], "edges": list(spec)})
        else:
            steps.append({"method": "global_recode", var_param("global_recode"): [col], "width": spec})
    for col, top in top_code:
        steps.append({"method": "top_bottom_code", var_param("top_bottom_code"): [col], "top": top})
    for col, p in pram:
        steps.append({"method": "pram", var_param("pram"): [col], "pd": p})
    if k is not None:
        if not keys:
            raise PlanError("plan: --k needs the key variables (--keys) to make them k-anonymous.")
        steps.append({"method": "local_suppression", var_param("local_suppression"): list(keys), "k": k})
    if pseudonymise or drop:
        step: dict[str, Any] = {"method": "pseudonymise", var_param("pseudonymise"): list(pseudonymise)}
        if key_file is not None:
            step["key_file"] = key_file
        if key_env is not None:
            step["key_env"] = key_env
        if drop:
            step["drop"] = list(drop)
        steps.append(step)
    elif key_file is not None or key_env is not None:
        raise PlanError("plan: --key-file/--key-env are for --pseudonymise.")
    return steps
