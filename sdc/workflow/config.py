"""The configuration of an assessment run: what to assess, with which roles and thresholds.

A run is configured by a TOML (or YAML) file or by command-line flags; both produce a
:class:`RunConfig`. Every error names the offending key and what is allowed. Example::

    [data]
    path = "survey.csv"          # or: [data.domains] DM = "dm.csv" ... (see sdc combine)
    id = "subject_id"
    na_values = ["NA", "."]      # markers read as missing besides empty fields (default: none)
    text_columns = ["zip"]       # read as text (codes with leading zeros are, by default)

    [variables]
    categorical_keys = ["sex", "region", "marital_status"]
    continuous_keys = ["age"]
    weights = "weight"
    household = "household_id"
    sensitive = ["diagnosis"]

    [bins]
    age = [0, 18, 40, 65, inf]     # or age = { quantiles = 5 }

    [sensitive_bins]
    cholesterol = [0, 5, 6.5, 10]

    [sensitive_thresholds]       # per sensitive variable: t, l and the t-closeness distance
    cholesterol = { t = 0.8, distance = "wasserstein" }   # mmol/l: Wasserstein is in the variable's units
    diagnosis = { l = 3, t = 0.3 }

    [[scenarios]]
    name = "demographic"
    keys = ["age", "sex", "region"]

    [thresholds]
    k = 5
    l = 2
    c = 2
    t = 0.2
    risk = 0.1
    max_global_risk = 0.01

    [options]
    missing = "wildcard"
    alpha = 1.0
    measures = ["k_anonymity", "risk", "snapshots", "household", "ldiversity", "tcloseness",
                "inference", "suda", "uniqueness"]
    distance = "ordered"
    sampling_fraction = 0.07      # or population_size = 56500 (for population uniqueness)

    [output]
    formats = ["html", "md", "txt", "json", "xlsx", "csv", "png"]
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RunConfig", "Scenario", "Thresholds", "ConfigError", "load_config", "as_config", "from_mapping",
           "from_options",
           "to_toml", "read_settings", "file_read_settings", "READ_KEYS", "MEASURES", "MEASURE_ALIASES", "FORMATS",
           "DISTANCE_RANGES", "t_never_fails"]

#: The "scenario" of the verdicts that hold for the whole file, not a key scenario (inference).
FILE_WIDE = "all"

MEASURES = ("k_anonymity", "risk", "snapshots", "household", "ldiversity", "tcloseness", "inference", "suda",
            "uniqueness")
# The measures registered in sdc/workflow/registry.py beyond these run only when asked for by
# name: the registry says which (read when first needed; the registry imports this module).


def optional_measures() -> tuple[str, ...]:
    """The registered measures that run only when named in ``[options].measures``."""
    from sdc.workflow.registry import OPTIONAL_MEASURES

    return OPTIONAL_MEASURES


def __getattr__(name: str) -> Any:  # OPTIONAL_MEASURES, from the registry
    if name == "OPTIONAL_MEASURES":
        return optional_measures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
#: The t-closeness distances and the values they can take: a t at or above the top can never
#: fail (None: no upper bound; the Wasserstein distance is in the variable's own units).
DISTANCE_RANGES: dict[str, tuple[float, float | None]] = {
    "ordered": (0.0, 1.0), "equal": (0.0, 1.0), "tvd": (0.0, 1.0), "wasserstein": (0.0, None)}
# The Python API's function names, accepted for the measures they compute (the report and the
# resolved config use the short names above).
MEASURE_ALIASES = {"individual_risk": "risk", "key_subset_snapshots": "snapshots", "household_risk": "household",
                   "l_diversity": "ldiversity", "t_closeness": "tcloseness", "inference_risk": "inference",
                   "population_uniqueness": "uniqueness", "model_risk": "modrisk"}
FORMATS = ("html", "md", "txt", "json", "xlsx", "csv", "png")
_SECTIONS = {
    "data": {"path", "sep", "id", "domains", "subject_id", "long", "test_column", "value_column", "na_values",
             "text_columns", "sheet"},
    "variables": {"categorical_keys", "continuous_keys", "weights", "household", "sensitive"},
    "bins": None, "sensitive_bins": None, "sensitive_thresholds": None,
    "scenarios": None,
    "thresholds": {"k", "l", "c", "t", "risk", "max_global_risk", "min_posterior", "small_count"},
    "options": {"missing", "alpha", "measures", "distance", "population_size", "sampling_fraction", "ldiversity_mode",
                "suda_mode"},
    "output": {"formats"},
}


_PER_SENSITIVE = {"t", "l", "distance"}


class ConfigError(ValueError):
    """An invalid run configuration; the message names the key and what is allowed."""


@dataclass(frozen=True)
class Scenario:
    """A set of key variables assessed together (an assumed intruder's knowledge)."""

    name: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Thresholds:
    k: int = 3
    l: int = 2
    c: float = 2.0
    t: float = 0.2
    risk: float = 0.1
    max_global_risk: float = 0.01
    min_posterior: float = 0.95
    small_count: int | None = None  # levels with fewer records are listed; default k


@dataclass(frozen=True)
class RunConfig:
    """Everything an assessment run needs, resolved and validated (not yet against the data)."""

    data_path: str | None = None
    sep: str | None = None
    id: str | None = None
    domains: Mapping[str, str] = field(default_factory=dict)
    subject_id: str | None = None
    long_domains: Mapping[str, str] = field(default_factory=dict)
    value_column: str | None = None
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
    thresholds: Thresholds = field(default_factory=Thresholds)
    missing: str = "wildcard"
    alpha: float = 1.0
    measures: tuple[str, ...] = MEASURES
    distance: str = "ordered"
    population_size: int | None = None
    sampling_fraction: float | None = None
    ldiversity_mode: str = "correct"
    suda_mode: str = "sdcmicro"
    formats: tuple[str, ...] = FORMATS
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


def _json_bins(spec: Any) -> Any:
    if isinstance(spec, Mapping):
        return dict(spec)
    return [("inf" if x > 0 else "-inf") if isinstance(x, float) and math.isinf(x) else x for x in spec]


def _err(where: str, what: str) -> ConfigError:
    return ConfigError(f"config {where}: {what}")


def _strs(value: Any, where: str, *, allow_empty: bool = True) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str) and v for v in value):
        raise _err(where, f"must be a list of column names; got {value!r}.")
    if not value and not allow_empty:
        raise _err(where, "must name at least one column.")
    return tuple(value)


def _opt_str(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise _err(where, f"must be a column name; got {value!r}.")
    return value


def _number(value: Any, where: str, *, low: float, high: float, integer: bool = False,
            low_open: bool = False) -> float:
    ok_type = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok_type:
        raise _err(where, f"must be {'an integer' if integer else 'a number'}; got {value!r}.")
    v = float(value)
    if math.isnan(v) or v > high or v < low or (low_open and v == low):
        interval = ("(" if low_open else "[") + f"{low:g}, {high:g}]"
        raise _err(where, f"must lie in {interval}; got {value!r}.")
    return v


def _choice(value: Any, where: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise _err(where, f"must be one of {', '.join(map(repr, allowed))}; got {value!r}.")
    return value


def _bins(spec: Any, where: str) -> Any:
    if isinstance(spec, Mapping):
        if set(spec) == {"width"} or set(spec) == {"width", "origin"}:
            out = {"width": _number(spec["width"], f"{where}.width", low=0, high=1e300, low_open=True)}
            if "origin" in spec:
                out["origin"] = _number(spec["origin"], f"{where}.origin", low=-1e300, high=1e300)
            return out
        if set(spec) != {"quantiles"}:
            raise _err(where, f"must be a list of edges, {{quantiles = q}} or {{width = w}}; got {dict(spec)!r}.")
        _number(spec["quantiles"], f"{where}.quantiles", low=2, high=1000, integer=True)
        return {"quantiles": int(spec["quantiles"])}
    if isinstance(spec, str) or not isinstance(spec, Sequence) or len(spec) < 2:
        raise _err(where, f"must be a list of at least two edges (numbers, inf allowed); got {spec!r}.")
    out = []
    for x in spec:
        if isinstance(x, str) and x.strip().lower() in ("inf", "+inf", "-inf"):
            x = float(x)
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise _err(where, f"edges must be numbers (inf allowed); got {x!r}.")
        out.append(float(x))
    if any(b <= a for a, b in zip(out, out[1:])):
        raise _err(where, f"edges must increase; got {spec!r}.")
    return out


#: The keys of ``[data]`` that say how the file is read (the others say which file).
READ_KEYS = ("sep", "na_values", "text_columns", "sheet")


def _separator(value: Any) -> str | None:
    """A delimiter as :func:`sdc.io.read_data` takes it (None: detected), checked now."""
    from sdc.io import delimiter

    if value is None:
        return None
    try:
        delimiter(value)
    except ValueError:
        raise _err("[data].sep", "must be the delimiter: one character other than a quote or a line break, "
                   f"'tab' or 'whitespace'; got {value!r}.") from None
    return value


def read_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """The reading settings a ``[data]`` section gives (:data:`READ_KEYS`), validated: keyword
    arguments of :func:`sdc.io.read_data`, only those the section has. A command that reads
    its data before the whole configuration is needed (``sdc protect --no-assess``) takes them
    from here, with the same errors as :func:`from_mapping`."""
    if not isinstance(data, Mapping):
        raise _err("[data]", "must be a table.")
    kw: dict[str, Any] = {}
    if "sep" in data:
        kw["sep"] = _separator(data["sep"])
    if "na_values" in data:
        na = data["na_values"]
        na = [na] if isinstance(na, str) else na
        if not isinstance(na, Sequence) or not all(isinstance(v, str) for v in na):
            raise _err("[data].na_values", f"must be a list of markers (strings) read as missing; got {na!r}.")
        kw["na_values"] = tuple(v for v in dict.fromkeys(na) if v != "")
    if "text_columns" in data:
        tc = data["text_columns"]
        kw["text_columns"] = tc if isinstance(tc, bool) else _strs(tc, "[data].text_columns")
    if "sheet" in data:
        sh = data["sheet"]
        if isinstance(sh, bool) or not isinstance(sh, (str, int)) or (isinstance(sh, int) and sh < 0):
            raise _err("[data].sheet", f"must be a sheet name or a 0-based sheet number; got {sh!r}.")
        kw["sheet"] = sh
    return kw


def file_read_settings(path: str | Path) -> dict[str, Any]:
    """:func:`read_settings` of a configuration file's ``[data]`` section (the rest of the
    file is not validated here)."""
    data = read_config_file(Path(path)).get("data", {})
    return read_settings(data)


def from_mapping(raw: Mapping[str, Any], *, source: str = "mapping", data_given: bool = False) -> RunConfig:
    """Validate a parsed config file (a mapping of sections) into a :class:`RunConfig`.

    `data_given`: the data come with the call (a DataFrame), so ``[data]`` needs no path.
    """
    if not isinstance(raw, Mapping):
        raise _err("file", "must be a table of sections ([data], [variables], ...).")
    unknown = [s for s in raw if s not in _SECTIONS]
    if unknown:
        raise _err(f"section [{unknown[0]}]", f"is not known; allowed sections: {', '.join(_SECTIONS)}.")
    for sec, allowed in _SECTIONS.items():
        body = raw.get(sec, {})
        if allowed is not None:
            if not isinstance(body, Mapping):
                raise _err(f"[{sec}]", "must be a table.")
            extra = [k for k in body if k not in allowed]
            if extra:
                raise _err(f"[{sec}].{extra[0]}", f"is not a known key; allowed: {', '.join(sorted(allowed))}.")
    data = raw.get("data", {})
    var = raw.get("variables", {})
    thr = raw.get("thresholds", {})
    opt = raw.get("options", {})
    out_sec = raw.get("output", {})

    kw: dict[str, Any] = {"source": source}
    if "path" in data and "domains" in data:
        raise _err("[data]", "give either `path` or `domains`, not both.")
    if "path" in data:
        if not isinstance(data["path"], str) or not data["path"]:
            raise _err("[data].path", f"must be a file path; got {data['path']!r}.")
        kw["data_path"] = data["path"]
    elif "domains" in data:
        dom = data["domains"]
        if not isinstance(dom, Mapping) or not dom or not all(isinstance(v, str) for v in dom.values()):
            raise _err("[data].domains", "must map domain names to CSV paths, e.g. {DM = \"dm.csv\"}.")
        kw["domains"] = dict(dom)
        kw["subject_id"] = _opt_str(data.get("subject_id"), "[data].subject_id")
        if kw["subject_id"] is None:
            raise _err("[data].subject_id", "is needed to join domains.")
        long = data.get("long", {})
        if not isinstance(long, Mapping) or not all(isinstance(v, str) for v in long.values()):
            raise _err("[data].long", "must map long-format domains to their test-name column, e.g. {LB = \"LBTESTCD\"}.")
        missing_dom = [d for d in long if d not in dom]
        if missing_dom:
            raise _err(f"[data].long.{missing_dom[0]}", f"is not among the domains ({', '.join(dom)}).")
        kw["long_domains"] = dict(long)
        kw["value_column"] = _opt_str(data.get("value_column"), "[data].value_column")
    elif not data_given:
        raise _err("[data]", "needs `path` (one file) or `domains` (several, joined by subject id).")
    kw.update(read_settings(data))
    kw["id"] = _opt_str(data.get("id"), "[data].id")

    kw["categorical_keys"] = _strs(var.get("categorical_keys", ()), "[variables].categorical_keys")
    kw["continuous_keys"] = _strs(var.get("continuous_keys", ()), "[variables].continuous_keys")
    kw["weights"] = _opt_str(var.get("weights"), "[variables].weights")
    kw["household"] = _opt_str(var.get("household"), "[variables].household")
    kw["sensitive"] = _strs(var.get("sensitive", ()), "[variables].sensitive")

    bins = raw.get("bins", {})
    if not isinstance(bins, Mapping):
        raise _err("[bins]", "must map continuous keys to bin edges.")
    kw["bins"] = {k: _bins(v, f"[bins].{k}") for k, v in bins.items()}
    sbins = raw.get("sensitive_bins", {})
    if not isinstance(sbins, Mapping):
        raise _err("[sensitive_bins]", "must map sensitive variables to bin edges.")
    kw["sensitive_bins"] = {k: _bins(v, f"[sensitive_bins].{k}") for k, v in sbins.items()}
    sthr = raw.get("sensitive_thresholds", {})
    if not isinstance(sthr, Mapping):
        raise _err("[sensitive_thresholds]", "must map sensitive variables to {t = ..., l = ..., distance = ...}.")
    kw["sensitive_thresholds"] = {k: _per_sensitive(v, f"[sensitive_thresholds].{k}") for k, v in sthr.items()}

    scen = raw.get("scenarios", [])
    if not isinstance(scen, Sequence) or isinstance(scen, str):
        raise _err("[[scenarios]]", "must be a list of tables with `name` and `keys`.")
    scenarios = []
    for i, sc in enumerate(scen):
        where = f"[[scenarios]] #{i + 1}"
        if not isinstance(sc, Mapping) or set(sc) - {"name", "keys"}:
            raise _err(where, "must be a table with `name` and `keys` only.")
        name = sc.get("name", f"scenario {i + 1}")
        if not isinstance(name, str) or not name:
            raise _err(f"{where}.name", f"must be a non-empty string; got {name!r}.")
        if name == FILE_WIDE:
            raise _err(f"{where}.name", f"{FILE_WIDE!r} is the name of the file-wide verdicts (inference); choose "
                                        "another.")
        scenarios.append(Scenario(name, _strs(sc.get("keys"), f"{where}.keys", allow_empty=False)))
    names = [s.name for s in scenarios]
    dup = [n for n in names if names.count(n) > 1]
    if dup:
        raise _err("[[scenarios]].name", f"must be unique; {dup[0]!r} repeats.")
    kw["scenarios"] = tuple(scenarios)

    t = Thresholds(
        k=int(_number(thr.get("k", 3), "[thresholds].k", low=1, high=1e9, integer=True)),
        l=int(_number(thr.get("l", 2), "[thresholds].l", low=1, high=1e9, integer=True)),
        c=_number(thr.get("c", 2.0), "[thresholds].c", low=0, high=1e9, low_open=True),
        t=_number(thr.get("t", 0.2), "[thresholds].t", low=0, high=1e9),
        risk=_number(thr.get("risk", 0.1), "[thresholds].risk", low=0, high=1),
        max_global_risk=_number(thr.get("max_global_risk", 0.01), "[thresholds].max_global_risk", low=0, high=1,
                                low_open=True),
        min_posterior=_number(thr.get("min_posterior", 0.95), "[thresholds].min_posterior", low=0, high=1,
                              low_open=True),
        small_count=(int(_number(thr["small_count"], "[thresholds].small_count", low=1, high=1e9, integer=True))
                     if "small_count" in thr else None),
    )
    if t.max_global_risk >= 1:
        raise _err("[thresholds].max_global_risk", f"must lie in (0, 1); got {t.max_global_risk!r}.")
    kw["thresholds"] = t
    kw["missing"] = _choice(opt.get("missing", "wildcard"), "[options].missing", ("wildcard", "category"))
    kw["alpha"] = _number(opt.get("alpha", 1.0), "[options].alpha", low=0, high=1)
    measures = _strs(opt.get("measures", MEASURES), "[options].measures")
    measures = tuple(dict.fromkeys(MEASURE_ALIASES.get(m, m) for m in measures))
    for m in measures:
        _choice(m, "[options].measures", MEASURES + optional_measures())
    kw["measures"] = measures
    kw["distance"] = _choice(opt.get("distance", "ordered"), "[options].distance",
                             ("ordered", "equal", "tvd", "wasserstein"))
    kw["ldiversity_mode"] = _choice(opt.get("ldiversity_mode", "correct"), "[options].ldiversity_mode",
                                    ("correct", "sdcmicro"))
    kw["suda_mode"] = _choice(opt.get("suda_mode", "sdcmicro"), "[options].suda_mode", ("sdcmicro", "correct"))
    if "population_size" in opt and "sampling_fraction" in opt:
        raise _err("[options]", "give `population_size` or `sampling_fraction`, not both.")
    if "population_size" in opt:
        kw["population_size"] = int(_number(opt["population_size"], "[options].population_size", low=1, high=1e15,
                                            integer=True))
    if "sampling_fraction" in opt:
        kw["sampling_fraction"] = _number(opt["sampling_fraction"], "[options].sampling_fraction", low=0, high=1,
                                          low_open=True)
    formats = _strs(out_sec.get("formats", FORMATS), "[output].formats")
    for f in formats:
        _choice(f, "[output].formats", FORMATS)
    kw["formats"] = formats
    cfg = RunConfig(**kw)
    if not cfg.keys and not cfg.scenarios:
        raise _err("[variables]", "needs key variables (categorical_keys and/or continuous_keys) or [[scenarios]].")
    for b in cfg.bins:
        if b not in cfg.keys and not any(b in s.keys for s in cfg.scenarios):
            raise _err(f"[bins].{b}", "is not a key variable.")
    for b in cfg.sensitive_bins:
        if b not in cfg.sensitive:
            raise _err(f"[sensitive_bins].{b}", "is not a sensitive variable.")
    for b in cfg.sensitive_thresholds:
        if b not in cfg.sensitive:
            raise _err(f"[sensitive_thresholds].{b}", "is not a sensitive variable.")
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
    return cfg


def t_never_fails(s: str, t: float, distance: str) -> str | None:
    """Why a t-closeness bound `t` for the sensitive variable `s`, measured with `distance` (the
    one that runs, after the data are read), is no check; None when it is one."""
    top = DISTANCE_RANGES[distance][1]
    if top is None or t < top:
        return None
    return (f"t = {t:g} for {s!r} can never fail: {s!r} is measured with the {distance} distance, which lies in "
            f"[0, {top:g}]; give {s!r} its own t below {top:g} ([sensitive_thresholds]).")


def _per_sensitive(spec: Any, where: str) -> dict[str, Any]:
    if not isinstance(spec, Mapping) or not spec or set(spec) - _PER_SENSITIVE:
        raise _err(where, f"must be a table of {', '.join(sorted(_PER_SENSITIVE))}; got {spec!r}.")
    out: dict[str, Any] = {}
    if "t" in spec:
        out["t"] = _number(spec["t"], f"{where}.t", low=0, high=1e9)
    if "l" in spec:
        out["l"] = int(_number(spec["l"], f"{where}.l", low=1, high=1e9, integer=True))
    if "distance" in spec:
        out["distance"] = _choice(spec["distance"], f"{where}.distance", tuple(DISTANCE_RANGES))
    return out


#: Flat option names (keyword arguments of :func:`sdc.assess`) and their [section].key.
_FLAT: dict[str, tuple[str, str]] = {
    "path": ("data", "path"), "sep": ("data", "sep"), "id": ("data", "id"), "na_values": ("data", "na_values"),
    "text_columns": ("data", "text_columns"), "sheet": ("data", "sheet"), "domains": ("data", "domains"),
    "subject_id": ("data", "subject_id"),
    "keys": ("variables", "categorical_keys"), "categorical_keys": ("variables", "categorical_keys"),
    "continuous_keys": ("variables", "continuous_keys"), "weights": ("variables", "weights"),
    "household": ("variables", "household"), "sensitive": ("variables", "sensitive"),
    **{k: ("thresholds", k) for k in ("k", "l", "c", "t", "risk", "max_global_risk", "min_posterior", "small_count")},
    **{k: ("options", k) for k in ("missing", "alpha", "measures", "distance", "population_size", "sampling_fraction",
                                   "ldiversity_mode", "suda_mode")},
    "formats": ("output", "formats"),
}


def from_options(options: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Flat options (as keyword arguments of :func:`sdc.assess`) merged into config sections.

    ``keys`` are categorical keys; ``bins``/``key_bins``, ``sensitive_bins``,
    ``sensitive_thresholds`` and ``scenarios`` (a list of ``{name, keys}`` or a mapping of name
    to keys) are sections of their own; ``t`` or ``l`` given as a mapping of sensitive variable
    to value go to ``[sensitive_thresholds]``. Section names may be given too (a table each).

    >>> from_options({"keys": ["sex"], "k": 5, "t": {"chol": 30}})["sensitive_thresholds"]
    {'chol': {'t': 30}}
    """
    raw: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in (base or {}).items()}
    for name, value in options.items():
        if value is None:
            continue
        if name in _SECTIONS and (isinstance(value, Mapping) or name == "scenarios"):
            if name == "scenarios" and isinstance(value, Mapping):
                value = [{"name": n, "keys": k} for n, k in value.items()]
            raw[name] = value if name == "scenarios" else {**raw.get(name, {}), **value}
        elif name == "key_bins":
            raw["bins"] = {**raw.get("bins", {}), **value}
        elif name in ("t", "l") and isinstance(value, Mapping):
            per = raw.setdefault("sensitive_thresholds", {})
            for s, v in value.items():
                per[s] = {**per.get(s, {}), name: v}
        elif name in _FLAT:
            sec, key = _FLAT[name]
            raw.setdefault(sec, {})[key] = list(value) if isinstance(value, tuple) else value
        else:
            allowed = sorted(set(_FLAT) | {"bins", "key_bins", "sensitive_bins", "sensitive_thresholds", "scenarios"})
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
        if sec == "scenarios":
            raw["scenarios"] = items
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


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def to_toml(cfg: RunConfig) -> str:
    """The configuration as a TOML file that :func:`load_config` reads back to the same run.

    >>> cfg = from_mapping({"data": {"path": "d.csv"}, "variables": {"continuous_keys": ["age"]},
    ...                     "bins": {"age": [0, 18, "inf"]}})
    >>> from_mapping(_toml_module().loads(to_toml(cfg))) == cfg
    True
    """
    lines: list[str] = ["# sdc assess configuration (written by sdc; read with: sdc assess --config FILE)", ""]

    def section(name: str, items: list[tuple[str, Any]]) -> None:
        items = [(k, v) for k, v in items if v is not None and v != () and v != {}]
        if items:
            lines.append(f"[{name}]")
            lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in items)
            lines.append("")

    section("data", [("path", cfg.data_path), ("sep", cfg.sep), ("id", cfg.id),
                     ("na_values", list(cfg.na_values) or None),
                     ("text_columns", cfg.text_columns if isinstance(cfg.text_columns, bool)
                      else (list(cfg.text_columns) if cfg.text_columns else None)), ("sheet", cfg.sheet),
                     ("domains", dict(cfg.domains) or None), ("subject_id", cfg.subject_id),
                     ("long", dict(cfg.long_domains) or None), ("value_column", cfg.value_column)])
    section("variables", [("categorical_keys", list(cfg.categorical_keys) or None),
                          ("continuous_keys", list(cfg.continuous_keys) or None), ("weights", cfg.weights),
                          ("household", cfg.household), ("sensitive", list(cfg.sensitive) or None)])
    section("bins", list(cfg.bins.items()))
    section("sensitive_bins", list(cfg.sensitive_bins.items()))
    section("sensitive_thresholds", [(k, dict(v)) for k, v in cfg.sensitive_thresholds.items()])
    for sc in cfg.scenarios:
        lines += ["[[scenarios]]", f"name = {_toml_value(sc.name)}", f"keys = {_toml_value(list(sc.keys))}", ""]
    t = cfg.thresholds
    section("thresholds", [("k", t.k), ("l", t.l), ("c", t.c), ("t", t.t), ("risk", t.risk),
                           ("max_global_risk", t.max_global_risk), ("min_posterior", t.min_posterior),
                           ("small_count", t.small_count)])
    section("options", [("missing", cfg.missing), ("alpha", cfg.alpha), ("measures", list(cfg.measures)),
                        ("distance", cfg.distance), ("population_size", cfg.population_size),
                        ("sampling_fraction", cfg.sampling_fraction), ("ldiversity_mode", cfg.ldiversity_mode),
                        ("suda_mode", cfg.suda_mode)])
    section("output", [("formats", list(cfg.formats))])
    return "\n".join(lines)
