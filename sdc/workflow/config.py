"""The configuration of an assessment run: what to assess, with which roles and thresholds.

A run is configured by a TOML (or YAML) file or by command-line flags; both produce a
:class:`RunConfig`. Every error names the offending key and what is allowed. The sections
(``[data]``, ``[variables]``, ``[bins]``, ``[sensitive_bins]``, ``[sensitive_thresholds]``,
``[[scenarios]]``, ``[thresholds]``, ``[options]``, ``[output]``) and every key are described,
with a commented example, in docs/report.md ("The configuration"); their declarations are
:data:`sdc.workflow.options.ASSESS_OPTIONS`; the analyst's models of ``[[analyses]]`` (fitted
by compare and sweep) are :mod:`sdc.workflow.analyses`; ``sdc/data/example.toml`` is the bundled example's.
A short one::

    [data]
    path = "survey.csv"

    [variables]
    categorical_keys = ["sex", "region"]
    continuous_keys = ["age"]

    [bins]
    age = [0, 18, 40, 65, inf]     # or age = { quantiles = 5 }

    [thresholds]
    k = 5
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sdc._formats import READ_OPTIONS
from sdc._schema import Edges, Names, Option, Real, Text, Whole, toml_key, toml_value
from sdc.workflow.options import (
    ALIASES, ASSESS_OPTIONS, BIN_MODIFIERS, DISTANCE_RANGES, FORMATS, MEASURE_ALIASES, MEASURES, PER_SENSITIVE,
    SECTIONS, TABLE_SECTIONS,
)
from sdc.workflow.analyses import Analysis, analyses_toml, parse_analyses

__all__ = ["RunConfig", "Scenario", "Thresholds", "ConfigError", "load_config", "as_config", "from_mapping",
           "from_options",
           "to_toml", "read_settings", "file_read_settings", "READ_KEYS", "MEASURES", "MEASURE_ALIASES", "FORMATS",
           "DISTANCE_RANGES", "t_never_fails", "option_values", "value_of", "ASSESS_OPTIONS"]

#: The "scenario" of the verdicts that hold for the whole file, not a key scenario (inference).
FILE_WIDE = "all"
#: The sections a configuration may have, in a written config's order.
_ALL_SECTIONS = ("data", "variables", "bins", "sensitive_bins", "sensitive_thresholds", "scenarios", "analyses",
                 "thresholds", "options", "output")
# The TOML writer and the schema share one TOML encoder (the plan writer imports these names).
_toml_value = toml_value
_toml_key = toml_key
_D = {o.name: o.default for o in ASSESS_OPTIONS}


class ConfigError(ValueError):
    """An invalid run configuration; the message names the key and what is allowed."""


@dataclass(frozen=True)
class Scenario:
    """A set of key variables assessed together (an assumed intruder's knowledge)."""

    name: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Thresholds:
    """The ``[thresholds]`` section (defaults: :data:`sdc.workflow.options.ASSESS_OPTIONS`)."""

    k: int = _D["k"]
    l: int = _D["l"]
    c: float = _D["c"]
    t: float = _D["t"]
    risk: float = _D["risk"]
    max_global_risk: float = _D["max_global_risk"]
    min_posterior: float = _D["min_posterior"]
    small_count: int | None = _D["small_count"]  # levels with fewer records are listed; default k


@dataclass(frozen=True)
class RunConfig:
    """Everything an assessment run needs, resolved and validated (not yet against the data).
    Each field is an option of :data:`sdc.workflow.options.ASSESS_OPTIONS` (``data_path`` is
    ``[data].path``, ``long_domains`` ``[data].long``), or a table section, or `source`."""

    data_path: str | None = None
    sep: str | None = None
    id: str | None = None
    domains: Mapping[str, str] = field(default_factory=dict)
    subject_id: str | None = None
    long_domains: Mapping[str, str] = field(default_factory=dict)
    value_column: str | None = None
    visits: Mapping[str, str] = field(default_factory=dict)
    na_values: tuple[str, ...] = ()          # markers read as missing besides empty fields
    text_columns: tuple[str, ...] | bool | None = None  # None: codes with leading zeros are text
    sheet: str | int | None = None            # Excel input: the sheet (default the first)
    categorical_keys: tuple[str, ...] = ()
    continuous_keys: tuple[str, ...] = ()
    weights: str | None = None
    household: str | None = None
    sensitive: tuple[str, ...] = ()
    bins: Mapping[str, Any] = field(default_factory=dict)
    sensitive_bins: Mapping[str, Any] = field(default_factory=dict)
    sensitive_thresholds: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    scenarios: tuple[Scenario, ...] = ()
    analyses: tuple[Analysis, ...] = ()       # the analyst's models, fitted by compare and sweep
    thresholds: Thresholds = field(default_factory=Thresholds)
    missing: str = _D["missing"]
    alpha: float = _D["alpha"]
    measures: tuple[str, ...] = _D["measures"]
    distance: str = _D["distance"]
    population_size: int | None = _D["population_size"]
    sampling_fraction: float | None = _D["sampling_fraction"]
    ldiversity_mode: str = _D["ldiversity_mode"]
    suda_mode: str = _D["suda_mode"]
    formats: tuple[str, ...] = _D["formats"]
    records: str = _D["records"]
    source: str = "flags"  # the config file's path, or "flags", or "default"

    @property
    def keys(self) -> tuple[str, ...]:
        """All key variables (categorical, then continuous)."""
        return self.categorical_keys + tuple(k for k in self.continuous_keys if k not in self.categorical_keys)

    @property
    def all_scenarios(self) -> tuple[Scenario, ...]:
        """The scenarios, or one scenario with every key when none are configured."""
        return self.scenarios or (Scenario("all keys", self.keys),)

    def l_for(self, sensitive: str) -> int:
        """The l of l-diversity for a sensitive variable (its own, else the global one)."""
        return int(self.sensitive_thresholds.get(sensitive, {}).get("l", self.thresholds.l))

    def t_for(self, sensitive: str) -> float:
        """The t of t-closeness for a sensitive variable (its own, else the global one)."""
        return float(self.sensitive_thresholds.get(sensitive, {}).get("t", self.thresholds.t))

    def distance_for(self, sensitive: str) -> str:
        """The t-closeness distance asked for a sensitive variable (its own, else the global one)."""
        return str(self.sensitive_thresholds.get(sensitive, {}).get("distance", self.distance))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["scenarios"] = [{"name": s.name, "keys": list(s.keys)} for s in self.all_scenarios]
        d["bins"] = {k: _json_bins(v) for k, v in self.bins.items()}
        d["sensitive_bins"] = {k: _json_bins(v) for k, v in self.sensitive_bins.items()}
        d["sensitive_thresholds"] = {k: dict(v) for k, v in self.sensitive_thresholds.items()}
        return d


#: RunConfig's field of an option, where it is not the option's key.
_FIELD = {"path": "data_path", "long": "long_domains", "visit": "visits"}


def value_of(cfg: RunConfig, opt: Option) -> Any:
    """The value of an option in a configuration."""
    holder = cfg.thresholds if opt.section == "thresholds" else cfg
    return getattr(holder, _FIELD.get(opt.name, opt.config_key))


def option_values(cfg: RunConfig) -> dict[str, Any]:
    """name -> value of every option of :data:`ASSESS_OPTIONS` in `cfg`."""
    return {o.name: value_of(cfg, o) for o in ASSESS_OPTIONS}


def _json_bins(spec: Any) -> Any:
    if isinstance(spec, Mapping):
        return {k: (_json_bins(v) if k == "edges" else v) for k, v in spec.items()}
    return [("inf" if x > 0 else "-inf") if isinstance(x, float) and math.isinf(x) else x for x in spec]


def _err(where: str, what: str) -> ConfigError:
    return ConfigError(f"config {where}: {what}")


def _check(opt: Option, value: Any, where: str) -> Any:
    """`value` checked by the option's rule; an error names ``config <where>``."""
    return opt.check(value, f"config {where}", ConfigError)


def _section(raw: Mapping[str, Any], sec: str) -> dict[str, Any]:
    """A section of keys, each checked by its option's rule: option name -> value."""
    body = raw.get(sec, {})
    if not isinstance(body, Mapping):
        raise _err(f"[{sec}]", "must be a table.")
    opts = ASSESS_OPTIONS.in_section(sec)
    return {o.name: _check(o, body[o.config_key], f"[{sec}].{o.config_key}") for o in opts if o.config_key in body}


def _known(raw: Mapping[str, Any]) -> None:
    """Refuse an unknown section, or an unknown key of a section of keys."""
    if not isinstance(raw, Mapping):
        raise _err("file", "must be a table of sections ([data], [variables], ...).")
    unknown = [s for s in raw if s not in _ALL_SECTIONS]
    if unknown:
        raise _err(f"section [{unknown[0]}]", f"is not known; allowed sections: {', '.join(_ALL_SECTIONS)}.")
    for sec in SECTIONS:
        body = raw.get(sec, {})
        allowed = [o.config_key for o in ASSESS_OPTIONS.in_section(sec)]
        if isinstance(body, Mapping):
            extra = [k for k in body if k not in allowed]
            if extra:
                raise _err(f"[{sec}].{extra[0]}", f"is not a known key; allowed: {', '.join(sorted(allowed))}.")


_BIN_WIDTH = Option("width", Real(0.0, low_open=True))
_BIN_ORIGIN = Option("origin", Real())
_QUANTILES = Option("quantiles", Whole(2, 1000))
_EDGES = Option("bins", Edges())




def _bins(spec: Any, where: str) -> Any:
    """A bin specification: edges (inf allowed), ``{quantiles = q}``, ``{width = w}`` (with
    an optional ``origin``) or ``{edges = [...]}``; a table may add ``closed = "left"|"right"``
    and ``outside = "error"|"missing"|"extend"`` (:mod:`sdc.core.binning`)."""
    if isinstance(spec, Mapping):
        mods = {o.name: _check(o, spec[o.name], f"{where}.{o.name}") for o in BIN_MODIFIERS if o.name in spec}
        rest = {k: v for k, v in spec.items() if k not in BIN_MODIFIERS.names}
        if set(rest) == {"edges"}:
            return {"edges": _check(_EDGES, rest["edges"], f"{where}.edges"), **mods}
        if set(rest) == {"width"} or set(rest) == {"width", "origin"}:
            out = {"width": _check(_BIN_WIDTH, rest["width"], f"{where}.width")}
            if "origin" in rest:
                out["origin"] = _check(_BIN_ORIGIN, rest["origin"], f"{where}.origin")
            return {**out, **mods}
        if set(rest) != {"quantiles"}:
            raise _err(where, "must be a list of edges, {edges = [...]}, {quantiles = q} or {width = w} "
                              f"(each may add closed and outside); got {dict(spec)!r}.")
        return {"quantiles": _check(_QUANTILES, rest["quantiles"], f"{where}.quantiles"), **mods}
    return _check(_EDGES, spec, where)


def _per_sensitive(spec: Any, where: str) -> dict[str, Any]:
    allowed = sorted(PER_SENSITIVE.names)
    if not isinstance(spec, Mapping) or not spec or set(spec) - set(allowed):
        raise _err(where, f"must be a table of {', '.join(allowed)}; got {spec!r}.")
    return {o.name: _check(o, spec[o.name], f"{where}.{o.name}") for o in PER_SENSITIVE if o.name in spec}


#: The keys of ``[data]`` that say how the file is read (the others say which file).
READ_KEYS = READ_OPTIONS.names


def read_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """The reading settings a ``[data]`` section gives (:data:`READ_KEYS`), validated: keyword
    arguments of :func:`sdc.io.read_data`, only those the section has. A command that reads
    its data before the whole configuration is needed (``sdc protect --no-assess``) takes them
    from here, with the same errors as :func:`from_mapping`."""
    if not isinstance(data, Mapping):
        raise _err("[data]", "must be a table.")
    return {o.name: _check(o, data[o.name], f"[data].{o.name}") for o in READ_OPTIONS if o.name in data}


def file_read_settings(path: str | Path) -> dict[str, Any]:
    """:func:`read_settings` of a configuration file's ``[data]`` section (the rest of the
    file is not validated here)."""
    data = read_config_file(Path(path)).get("data", {})
    return read_settings(data)


def _data(raw: Mapping[str, Any], data_given: bool) -> dict[str, Any]:
    """RunConfig's fields of ``[data]``: the file or the domains, and how they are read."""
    given = _section(raw, "data")
    kw: dict[str, Any] = {}
    if "path" in given and "domains" in given:
        raise _err("[data]", "give either `path` or `domains`, not both.")
    if "path" in given:
        kw["data_path"] = given["path"]
    elif "domains" in given:
        dom = kw["domains"] = given["domains"]
        kw["subject_id"] = given.get("subject_id")
        if kw["subject_id"] is None:
            raise _err("[data].subject_id", "is needed to join domains.")
        long = kw["long_domains"] = given.get("long", {})
        missing_dom = [d for d in long if d not in dom]
        if missing_dom:
            raise _err(f"[data].long.{missing_dom[0]}", f"is not among the domains ({', '.join(dom)}).")
        kw["value_column"] = given.get("value_column")
        visits = kw["visits"] = given.get("visit", {})
        missing_dom = [d for d in visits if d not in dom]
        if missing_dom:
            raise _err(f"[data].visit.{missing_dom[0]}", f"is not among the domains ({', '.join(dom)}).")
    elif not data_given:
        raise _err("[data]", "needs `path` (one file) or `domains` (several, joined by subject id).")
    kw.update({k: given[k] for k in READ_KEYS if k in given})
    kw["id"] = given.get("id")
    return kw


def _tables(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The sections that are tables: [bins], [sensitive_bins], [sensitive_thresholds]."""
    kw: dict[str, Any] = {}
    for sec, what in (("bins", "continuous keys"), ("sensitive_bins", "sensitive variables")):
        body = raw.get(sec, {})
        if not isinstance(body, Mapping):
            raise _err(f"[{sec}]", f"must map {what} to bin edges.")
        kw[sec] = {k: _bins(v, f"[{sec}].{k}") for k, v in body.items()}
    sthr = raw.get("sensitive_thresholds", {})
    if not isinstance(sthr, Mapping):
        raise _err("[sensitive_thresholds]", "must map sensitive variables to {t = ..., l = ..., distance = ...}.")
    kw["sensitive_thresholds"] = {k: _per_sensitive(v, f"[sensitive_thresholds].{k}") for k, v in sthr.items()}
    return kw


_SCENARIO_NAME = Option("name", Text())
_SCENARIO_KEYS = Option("keys", Names(min_count=1))


def _scenarios(raw: Mapping[str, Any]) -> tuple[Scenario, ...]:
    scen = raw.get("scenarios", [])
    if not isinstance(scen, Sequence) or isinstance(scen, str):
        raise _err("[[scenarios]]", "must be a list of tables with `name` and `keys`.")
    scenarios = []
    for i, sc in enumerate(scen):
        where = f"[[scenarios]] #{i + 1}"
        if not isinstance(sc, Mapping) or set(sc) - {"name", "keys"}:
            raise _err(where, "must be a table with `name` and `keys` only.")
        name = _check(_SCENARIO_NAME, sc.get("name", f"scenario {i + 1}"), f"{where}.name")
        if name == FILE_WIDE:
            raise _err(f"{where}.name", f"{FILE_WIDE!r} is the name of the file-wide verdicts (inference); choose "
                                        "another.")
        scenarios.append(Scenario(name, _check(_SCENARIO_KEYS, sc.get("keys"), f"{where}.keys")))
    names = [s.name for s in scenarios]
    dup = [n for n in names if names.count(n) > 1]
    if dup:
        raise _err("[[scenarios]].name", f"must be unique; {dup[0]!r} repeats.")
    return tuple(scenarios)


def _fields(raw: Mapping[str, Any], sec: str) -> dict[str, Any]:
    """RunConfig's (or Thresholds') fields of a section of keys, as given."""
    return {_FIELD.get(name, ASSESS_OPTIONS[name].config_key): v for name, v in _section(raw, sec).items()}


def from_mapping(raw: Mapping[str, Any], *, source: str = "mapping", data_given: bool = False) -> RunConfig:
    """Validate a parsed config file (a mapping of sections) into a :class:`RunConfig`: each
    key by its option's rule (:data:`sdc.workflow.options.ASSESS_OPTIONS`), then what the
    keys say together.

    `data_given`: the data come with the call (a DataFrame), so ``[data]`` needs no path.
    """
    _known(raw)
    kw: dict[str, Any] = {"source": source, **_data(raw, data_given), **_fields(raw, "variables"), **_tables(raw),
                          "scenarios": _scenarios(raw),
                          "analyses": parse_analyses(raw.get("analyses"), "config [[analyses]]", ConfigError),
                          "thresholds": Thresholds(**_fields(raw, "thresholds"))}
    opt = _fields(raw, "options")
    if "population_size" in opt and "sampling_fraction" in opt:
        raise _err("[options]", "give `population_size` or `sampling_fraction`, not both.")
    kw.update(opt, **_fields(raw, "output"))
    cfg = RunConfig(**kw)
    _check_together(cfg)
    return cfg


def _check_together(cfg: RunConfig) -> None:
    """What the keys must say together: key variables, bins of keys, a t that can fail."""
    if not cfg.keys and not cfg.scenarios:
        raise _err("[variables]", "needs key variables (categorical_keys and/or continuous_keys) or [[scenarios]].")
    for b in cfg.bins:
        if b not in cfg.keys and not any(b in s.keys for s in cfg.scenarios):
            raise _err(f"[bins].{b}", "is not a key variable.")
    for sec in ("sensitive_bins", "sensitive_thresholds"):
        for b in getattr(cfg, sec):
            if b not in cfg.sensitive:
                raise _err(f"[{sec}].{b}", "is not a sensitive variable.")
    for s in cfg.sensitive:  # a bound the distance can never exceed is no check
        dist, t = cfg.distance_for(s), cfg.t_for(s)
        top = DISTANCE_RANGES[dist][1]
        if top is not None and t >= top:
            # The data are not read yet: a text variable will be measured with the equal
            # distance (also in [0, 1]), and only a numeric one can take Wasserstein's.
            where = f"[sensitive_thresholds].{s}.t" if "t" in cfg.sensitive_thresholds.get(s, {}) else "[thresholds].t"
            raise _err(where, f"t = {t:g} for {s!r} can never fail: the {dist} and equal distances lie in "
                              f"[0, {top:g}]; give a t below {top:g} (or, if {s!r} is numeric, distance = "
                              "\"wasserstein\", whose bound is in the variable's own units).")


def t_never_fails(s: str, t: float, distance: str) -> str | None:
    """Why a t-closeness bound `t` for the sensitive variable `s`, measured with `distance` (the
    one that runs, after the data are read), is no check; None when it is one."""
    top = DISTANCE_RANGES[distance][1]
    if top is None or t < top:
        return None
    return (f"t = {t:g} for {s!r} can never fail: {s!r} is measured with the {distance} distance, which lies in "
            f"[0, {top:g}]; give {s!r} its own t below {top:g} ([sensitive_thresholds]).")



#: The sections that are lists of tables ([[scenarios]], [[analyses]]).
_LISTS = ("scenarios", "analyses")
#: The flat names (keyword arguments of :func:`sdc.assess`) of the options and their [section].key.
_FLAT: dict[str, tuple[str, str]] = {o.name: (o.section, o.config_key) for o in ASSESS_OPTIONS}


def from_options(options: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Flat options (as keyword arguments of :func:`sdc.assess`) merged into config sections.

    Each option of :data:`sdc.workflow.options.ASSESS_OPTIONS` goes by its name (``keys`` are
    categorical keys, also called ``categorical_keys``); ``bins``/``key_bins``,
    ``sensitive_bins``, ``sensitive_thresholds`` and ``scenarios`` (a list of ``{name, keys}``
    or a mapping of name to keys) are sections of their own; ``t`` or ``l`` given as a
    mapping of sensitive variable to value go to ``[sensitive_thresholds]``. Section names may
    be given too (a table each).

    >>> from_options({"keys": ["sex"], "k": 5, "t": {"chol": 30}})["sensitive_thresholds"]
    {'chol': {'t': 30}}
    """
    raw: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in (base or {}).items()}
    for name, value in options.items():
        if value is None:
            continue
        name = ALIASES.get(name, name)
        if name in _ALL_SECTIONS and (isinstance(value, Mapping) or name in _LISTS):
            if name == "scenarios" and isinstance(value, Mapping):
                value = [{"name": n, "keys": k} for n, k in value.items()]
            raw[name] = value if name in _LISTS else {**raw.get(name, {}), **value}
        elif name in PER_SENSITIVE and isinstance(value, Mapping):
            per = raw.setdefault("sensitive_thresholds", {})
            for s, v in value.items():
                per[s] = {**per.get(s, {}), name: v}
        elif name in _FLAT:
            sec, key = _FLAT[name]
            raw.setdefault(sec, {})[key] = list(value) if isinstance(value, tuple) else value
        else:
            allowed = sorted(set(_FLAT) | set(ALIASES) | set(TABLE_SECTIONS))
            close = difflib.get_close_matches(name, allowed, n=1)
            raise ConfigError(f"option {name!r} is not known" + (f" (did you mean {close[0]!r}?)" if close else "")
                              + f"; allowed: {', '.join(allowed)}.")
    return raw


def as_config(config: object, *, name: str = "config") -> RunConfig:
    """A RunConfig from a RunConfig, a configuration file (path) or a mapping of sections, the
    data coming with the call; anything else is refused naming `name`."""
    if isinstance(config, RunConfig):
        return config
    if isinstance(config, (str, Path)):
        return load_config(config, data_given=True)
    if isinstance(config, Mapping):
        return from_mapping(config, source="mapping", data_given=True)
    raise TypeError(f"`{name}` must be a RunConfig, a configuration file or a mapping of sections; "
                    f"got {type(config).__name__}.")


def load_config(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None, *,
                data_given: bool = False) -> RunConfig:
    """Read a TOML (``.toml``) or YAML (``.yaml``/``.yml``) run configuration.

    Relative data paths in the file are relative to the file. `overrides` (sections of keys,
    as from command-line flags) replace the file's values key by key; with no `path`, the
    overrides are the whole configuration. `data_given`: the data come with the call, so the
    configuration needs no data path.
    """
    raw: dict[str, Any] = {}
    source = "flags"
    if path is not None and not isinstance(path, (str, Path)):
        raise TypeError(f"`path` must be a configuration file's path (a mapping goes to from_mapping); "
                        f"got {type(path).__name__}.")
    if path is not None:
        p = Path(path)
        raw = read_config_file(p)
        source = str(p)
        data = raw.get("data")
        if isinstance(data, Mapping):  # anything else is reported by from_mapping
            data = dict(data)
            base = p.parent
            if isinstance(data.get("path"), str) and not Path(data["path"]).is_absolute():
                data["path"] = str(base / data["path"])
            if isinstance(data.get("domains"), Mapping):
                data["domains"] = {k: (v if not isinstance(v, str) or Path(v).is_absolute() else str(base / v))
                                   for k, v in data["domains"].items()}
            raw["data"] = data
    for sec, items in (overrides or {}).items():
        if sec in _LISTS:
            raw[sec] = items
            continue
        body = raw.get(sec, {})
        merged = dict(body) if isinstance(body, Mapping) else {}
        if sec == "data" and ("path" in items or "domains" in items):
            merged.pop("path", None)  # data named on the command line replace the file's
            merged.pop("domains", None)
        if sec == "sensitive_thresholds":  # per variable, key by key
            items = {k: {**(merged.get(k) if isinstance(merged.get(k), Mapping) else {}), **v}
                     for k, v in items.items()}
        merged.update(items)
        raw[sec] = merged
    return from_mapping(raw, source=source, data_given=data_given)


def read_config_file(p: Path, *, kind: str = "config", error: type[ConfigError] = ConfigError,
                     sections: str = "[data], [variables], ...") -> dict[str, Any]:
    """The parsed TOML or YAML file of a run (not yet validated); errors name the file and the
    line. `kind` names it in messages ("config", "plan"), `error` is the error class raised,
    `sections` the sections it should hold."""
    p = Path(p)
    if not p.exists():
        raise error(f"{kind} file '{p}' does not exist.")
    if p.is_dir():
        raise error(f"{kind} file '{p}' is a folder.")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise error(f"{kind} file '{p}' is not UTF-8 text (line {line}); save it as UTF-8.") from None
    except OSError as exc:
        raise error(f"cannot read {kind} file '{p}': {exc.strerror or exc}.") from None
    try:
        if p.suffix.lower() in (".yaml", ".yml"):
            import yaml

            raw = yaml.safe_load(text) or {}
        else:
            raw = _toml_module().loads(text)
    except ConfigError:
        raise
    except Exception as exc:  # a parse error: say where
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        mark = getattr(exc, "problem_mark", None)  # YAML's errors carry the place apart
        if mark is not None:
            first += f" (line {mark.line + 1}, column {mark.column + 1})"
        raise error(f"{kind} file '{p}' could not be parsed: {first}") from None
    if not isinstance(raw, dict):
        raise error(f"{kind} file '{p}' must hold a table of sections ({sections}).")
    return raw


def _toml_module():  # noqa: ANN202
    try:
        import tomllib  # Python >= 3.11
    except ImportError:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise ConfigError("reading a TOML config needs Python 3.11 or the 'tomli' package; "
                              "a YAML config (.yaml) works too.") from None
    return tomllib


def _written(opt: Option, value: Any) -> Any:
    """The value as written, or None when the key is left out (no value, or an empty one whose
    default is empty too)."""
    if value is None or ((value == () or value == {}) and opt.default in (None, (), {})):
        return None
    return list(value) if isinstance(value, tuple) else (dict(value) if isinstance(value, Mapping) else value)


def _section_lines(name: str, items: list[tuple[str, Any]]) -> list[str]:
    items = [(k, v) for k, v in items if v is not None and v != () and v != {}]
    return [f"[{name}]", *(f"{toml_key(k)} = {toml_value(v)}" for k, v in items), ""] if items else []


def to_toml(cfg: RunConfig) -> str:
    """The configuration as a TOML file that :func:`load_config` reads back to the same run:
    each section's options in their declared order (:data:`ASSESS_OPTIONS`).

    >>> cfg = from_mapping({"data": {"path": "d.csv"}, "variables": {"continuous_keys": ["age"]},
    ...                     "bins": {"age": [0, 18, "inf"]}})
    >>> from_mapping(_toml_module().loads(to_toml(cfg))) == cfg
    True
    """
    lines: list[str] = ["# sdc assess configuration (written by sdc; read with: sdc assess --config FILE)", ""]

    def keys_of(sec: str) -> list[tuple[str, Any]]:
        return [(o.config_key, _written(o, value_of(cfg, o))) for o in ASSESS_OPTIONS.in_section(sec)]

    lines += _section_lines("data", keys_of("data")) + _section_lines("variables", keys_of("variables"))
    lines += _section_lines("bins", list(cfg.bins.items()))
    lines += _section_lines("sensitive_bins", list(cfg.sensitive_bins.items()))
    lines += _section_lines("sensitive_thresholds", [(k, dict(v)) for k, v in cfg.sensitive_thresholds.items()])
    for sc in cfg.scenarios:
        lines += ["[[scenarios]]", f"name = {toml_value(sc.name)}", f"keys = {toml_value(list(sc.keys))}", ""]
    lines += analyses_toml(cfg.analyses)
    for sec in ("thresholds", "options", "output"):
        lines += _section_lines(sec, keys_of(sec))
    return "\n".join(lines)
