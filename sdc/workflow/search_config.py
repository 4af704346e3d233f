"""The configuration of ``sdc search`` and the run it describes.

A TOML (or YAML) file; relative paths are relative to the file. Example::

    [data]                        # optional: DATA on the command line takes precedence
    path = "adult.csv"
    sep = ";"                     # also na_values, text_columns, sheet, as sdc assess's [data]

    [quasi_identifiers]           # each one -> its hierarchy
    age = "adult_hierarchy_age.csv"                 # ARX's CSV layout
    zip = { prefix = [4, 3, 2] }                    # built: keep 4, 3, 2 leading characters
    income = { intervals = [1000, 5000], start = 0 }  # nested intervals of these widths
    admitted = { dates = ["month", "year"] }        # dates
    region = { mapping = [{ North = "N", South = "S" }] }   # user mapping, one table per level

    [models]
    k = 5
    sensitive = ["occupation"]
    l = 2                         # or { occupation = 2 }
    l_variant = "distinct"        # distinct | entropy | recursive (with c = ...)
    t = 0.2                       # or { occupation = 0.2 }
    t_distance = "equal"          # equal | ordered
    beta = 1.0
    beta_variant = "basic"        # basic | enhanced

    [search]
    suppression_limit = 0.04
    metric = "discernibility"     # dm_star | nue | nue_monotonic | loss | avg_class_size
    runner_ups = 5
    suppressed_as = "missing"     # or "*"

    [dimension]                   # optional: the Khan et al. quasi-identifier dimension search
    k = 2
    l = 2
    t = 0.8
    levels = { age = 2 }

    [combinations]                # optional: every combination of these transformations
    k = 5
    l = 2
    t = 0.5
    [combinations.transformations]
    "age in decades" = { age = 2 }
    "region" = { native-country = 1 }
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc.identify.hierarchy import (
    Hierarchy, as_hierarchy, date_hierarchy, interval_hierarchy, mapping_hierarchy, prefix_hierarchy,
)
from sdc.identify.qi_search import SubsetSearchResult, qi_dimension_search, transformation_search
from sdc.identify.search import GeneralisationResult, generalisation_search
from sdc.workflow.config import READ_KEYS, ConfigError, read_config_file, read_settings

__all__ = ["SearchConfig", "SearchRun", "load_search_config", "search_config_from_mapping", "build_hierarchies",
           "run_search"]

_SECTIONS = ("data", "quasi_identifiers", "models", "search", "dimension", "combinations")
_MODEL_KEYS = ("k", "l", "l_variant", "c", "t", "t_distance", "beta", "beta_variant", "sensitive")
_SEARCH_KEYS = ("suppression_limit", "metric", "runner_ups", "suppressed_as", "exhaustive")
_BUILDERS = ("intervals", "prefix", "dates", "mapping", "file")


@dataclass(frozen=True)
class SearchConfig:
    """A validated ``sdc search`` configuration (values are checked again by the searches)."""

    source: str
    base: str
    data_path: str | None
    sep: str | None
    quasi_identifiers: dict[str, Any]
    models: dict[str, Any]
    search: dict[str, Any]
    dimension: dict[str, Any] | None = None
    combinations: dict[str, Any] | None = None
    # How the data file is read ([data], as sdc assess's config): see sdc.io.read_data.
    na_values: tuple[str, ...] | None = None
    text_columns: tuple[str, ...] | bool | None = None
    sheet: str | int | None = None

    @property
    def sensitive(self) -> list[str]:
        s = self.models.get("sensitive")
        out = [s] if isinstance(s, str) else list(s or [])
        for key in ("l", "t", "beta"):
            v = self.models.get(key)
            if isinstance(v, Mapping):
                out += [x for x in v if x not in out]
        return out

    def to_dict(self) -> dict[str, Any]:
        data = {"path": self.data_path, "sep": self.sep,
                **{k: getattr(self, k) for k in READ_KEYS if k != "sep" and getattr(self, k) is not None}}
        return {"source": self.source, "data": data,
                "quasi_identifiers": self.quasi_identifiers, "models": self.models, "search": self.search,
                "dimension": self.dimension, "combinations": self.combinations}


@dataclass(frozen=True)
class SearchRun:
    """What ``sdc search`` computed."""

    config: SearchConfig
    hierarchies: dict[str, Hierarchy] = field(repr=False)
    result: GeneralisationResult
    dimension: SubsetSearchResult | None = None
    combinations: SubsetSearchResult | None = None
    seconds: float = 0.0
    comparison: Any = field(default=None, repr=False)  # sdc.workflow.compare.Comparison of the release


def _err(where: str, what: str) -> ConfigError:
    # Phrased as the assessment configuration's errors (sdc.workflow.config): config [section].key.
    return ConfigError(f"config {where}: {what}")


def _table(raw: Mapping[str, Any], name: str) -> dict[str, Any]:
    v = raw.get(name, {})
    if not isinstance(v, Mapping):
        raise _err(f"[{name}]", "must be a table of keys.")
    return dict(v)


def _only(sec: dict[str, Any], name: str, allowed: tuple[str, ...]) -> None:
    bad = [k for k in sec if k not in allowed]
    if bad:
        raise _err(f"[{name}]", f"unknown key {bad[0]!r}; allowed: {', '.join(allowed)}.")


def search_config_from_mapping(raw: Mapping[str, Any], *, source: str = "mapping", base: str | Path = ".") -> SearchConfig:
    """Validate the structure of a parsed configuration (values are checked when used)."""
    bad = [k for k in raw if k not in _SECTIONS]
    if bad:
        raise _err(f"section [{bad[0]}]", f"unknown; allowed sections: {', '.join('[' + s + ']' for s in _SECTIONS)}.")
    data = _table(raw, "data")
    _only(data, "data", ("path", *READ_KEYS))
    qis = _table(raw, "quasi_identifiers")
    if not qis:
        raise _err("[quasi_identifiers]", "name at least one quasi-identifier and its hierarchy.")
    for name, spec in qis.items():
        if isinstance(spec, str):
            continue
        if not isinstance(spec, Mapping) or sum(k in spec for k in _BUILDERS) != 1:
            raise _err(f"[quasi_identifiers].{name}",
                       "must be a hierarchy file (a string) or a table with one of "
                       f"{', '.join(_BUILDERS)} (e.g. {{ intervals = [5, 10] }}).")
    models = _table(raw, "models")
    _only(models, "models", _MODEL_KEYS)
    search = _table(raw, "search")
    _only(search, "search", _SEARCH_KEYS)
    dim = raw.get("dimension")
    if dim is not None:
        dim = _table(raw, "dimension")
        _only(dim, "dimension", ("k", "l", "l_variant", "c", "t", "t_distance", "sensitive", "levels",
                                 "suppression_limit"))
    comb = raw.get("combinations")
    if comb is not None:
        comb = _table(raw, "combinations")
        _only(comb, "combinations", ("k", "l", "l_variant", "c", "t", "t_distance", "sensitive", "transformations",
                                     "suppression_limit"))
        if not isinstance(comb.get("transformations"), Mapping) or not comb["transformations"]:
            raise _err("[combinations.transformations]", "list the candidate transformations: name = { variable = level }.")
    path = data.get("path")
    if path is not None and not isinstance(path, str):
        raise _err("[data].path", f"must be a string; got {path!r}.")
    if isinstance(path, str) and not Path(path).is_absolute():
        path = str(Path(base) / path)
    reading = read_settings(data)  # sep, na_values, text_columns, sheet: checked as sdc assess's
    return SearchConfig(source=source, base=str(base), data_path=path, quasi_identifiers=qis, models=models,
                        search=search, dimension=dim, combinations=comb, **{"sep": None, **reading})


def load_search_config(path: str | Path) -> SearchConfig:
    """Read and validate an ``sdc search`` configuration file (TOML, or YAML by suffix)."""
    p = Path(path)
    raw = read_config_file(p)
    return search_config_from_mapping(raw, source=str(p), base=p.parent)


def hierarchy_files(cfg: SearchConfig) -> list[Path]:
    """The hierarchy files the config reads (resolved against its folder), for the modes of
    the outputs that copy them."""
    out = []
    for spec in cfg.quasi_identifiers.values():
        named = spec if isinstance(spec, str) else next(
            (spec[k] for k in ("file", "mapping") if isinstance(spec, Mapping) and isinstance(spec.get(k), str)), None)
        if named is not None:
            out.append(Path(cfg.base) / named)  # an absolute path stays itself
    return out


def build_hierarchies(cfg: SearchConfig, data: pd.DataFrame) -> dict[str, Hierarchy]:
    """Each quasi-identifier's hierarchy: read from its file or built from the data."""
    out: dict[str, Hierarchy] = {}
    for name, spec in cfg.quasi_identifiers.items():
        where = f"config [quasi_identifiers].{name}"
        try:
            if isinstance(spec, str):
                out[name] = as_hierarchy(spec, name=name, base=cfg.base)
                continue
            if name not in data.columns:
                raise ValueError(f"column {name!r} is not in the data.")
            col = data[name]
            top = spec.get("top", True)
            if "file" in spec:
                out[name] = as_hierarchy(str(spec["file"]), name=name, base=cfg.base)
            elif "intervals" in spec:
                vals = pd.to_numeric(col, errors="raise")
                out[name] = interval_hierarchy(vals, spec["intervals"], start=spec.get("start"), top=top)
            elif "prefix" in spec:
                keep = spec["prefix"]
                out[name] = prefix_hierarchy(col, keep=None if keep is True else keep, mask=spec.get("mask", "*"),
                                             top=top)
            elif "dates" in spec:
                out[name] = date_hierarchy(col, spec["dates"], format=spec.get("format"), top=top)
            else:
                m = spec["mapping"]
                if isinstance(m, str):
                    out[name] = as_hierarchy(m, name=name, base=cfg.base)
                else:
                    out[name] = mapping_hierarchy(m if isinstance(m, list) else [m], values=col, top=top)
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"{where}: {_config_words(str(exc), spec)}") from None
    return out


# The builders' argument names as the config spells them (intervals = [...] is `widths`).
_CONFIG_WORDS = {"intervals": {"widths": "intervals"}, "prefix": {"keep": "prefix"}, "dates": {"levels": "dates"},
                 "mapping": {"levels": "mapping"}}


def _config_words(text: str, spec: object) -> str:
    """A builder's message with its argument names replaced by the config keys that set them."""
    if not isinstance(spec, Mapping):
        return text
    words = next((w for key, w in _CONFIG_WORDS.items() if key in spec), {})
    return re.sub(r"`(\w+)`", lambda m: f"`{words.get(m.group(1), m.group(1))}`", text)


def _targets(sec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sec.items() if k in ("k", "l", "l_variant", "c", "t", "t_distance", "sensitive",
                                                  "suppression_limit")}


def run_search(cfg: SearchConfig, data: pd.DataFrame, *, input_file: str | Path | None = None,
               command: str = "") -> SearchRun:
    """Run the lattice search, and the dimension and combination searches when configured.
    `input_file` and `command` go to the comparison's provenance (the file's SHA-256)."""
    start = time.perf_counter()
    hs = build_hierarchies(cfg, data)
    models = {k: v for k, v in cfg.models.items()}
    res = generalisation_search(data, hs, **models, **cfg.search)
    dim = comb = None
    if cfg.dimension is not None:
        d = dict(cfg.dimension)
        d.setdefault("sensitive", models.get("sensitive") or (cfg.sensitive or None))
        levels = d.pop("levels", None)
        dim = qi_dimension_search(data, hs, levels=levels, **_targets(d))
    if cfg.combinations is not None:
        cmb = dict(cfg.combinations)
        cmb.setdefault("sensitive", models.get("sensitive") or (cfg.sensitive or None))
        comb = transformation_search(data, hs, cmb["transformations"], **_targets(cmb))
    seconds = time.perf_counter() - start
    return SearchRun(config=cfg, hierarchies=hs, result=res, dimension=dim, combinations=comb, seconds=seconds,
                     comparison=compare_release(cfg, data, res, input_file=input_file, command=command))


def compare_release(cfg: SearchConfig, data: pd.DataFrame, res: GeneralisationResult, *,
                    input_file: str | Path | None = None, command: str = "") -> Any:
    """The original and the chosen release side by side (``sdc compare``'s report): risk with
    the quasi-identifiers as keys (their released values are the generalised ones), the
    sensitive variables' l-diversity and t-closeness, utility, and the linkage attack."""
    from sdc.workflow.compare import compare
    from sdc.workflow.config import from_mapping

    sens = [s for s in cfg.sensitive if s in data.columns]
    k = cfg.models.get("k")
    raw = {"data": {},
           "variables": {"categorical_keys": list(cfg.quasi_identifiers), "sensitive": sens},
           "options": {"measures": ["k_anonymity", "risk"] + (["ldiversity", "tcloseness"] if sens else []),
                       "missing": "wildcard"}}
    if isinstance(k, int) and k >= 2:
        raw["thresholds"] = {"k": k}
    run_cfg = from_mapping(raw, source=cfg.source, data_given=True)
    return compare(data, res.data, run_cfg, match="index", recoded=list(cfg.quasi_identifiers),
                   files=[input_file] if input_file is not None else (), command=command)
