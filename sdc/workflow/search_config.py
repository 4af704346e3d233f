"""The configuration of ``sdc search`` and the run it describes.

A TOML (or YAML) file; relative paths are relative to the file. Example::

    [data]                        # optional: DATA on the command line takes precedence
    path = "adult.csv"
    sep = ";"                     # also na_values, text_columns, sheet, as sdc assess's [data]

    [keys]                        # each key variable (quasi-identifier) -> its hierarchy
    age = "adult_hierarchy_age.csv"                 # ARX's CSV layout
    zip = { prefix = [4, 3, 2] }                    # built: keep 4, 3, 2 leading characters
    income = { intervals = [1000, 5000], start = 0 }  # nested intervals of these widths
    admitted = { dates = ["month", "year"] }        # dates
    region = { mapping = [{ North = "N", South = "S" }] }   # user mapping, one table per level

    [models]
    k = 5
    sensitive = ["occupation"]
    l = 2                         # or { occupation = 2 }
    l_variant = "distinct"        # distinct | entropy | grassberger | recursive (with c = ...)
    t = 0.2                       # or { occupation = 0.2 }
    t_distance = "equal"          # equal | ordered | hierarchical (the sensitive's hierarchy in [keys])
    beta = 1.0
    beta_variant = "basic"        # basic | enhanced
    delta = 1.5                   # delta-disclosure privacy
    delta_variant = "arx"         # arx (log2) | present (natural log)
    alpha = 0.8                   # (alpha, k)-anonymity's alpha, with k above
    avg_risk = 0.05               # largest average re-identification risk (ARX's)
    pop_uniques = 0.0001          # largest estimated share of population uniques (ARX's PopulationUniqueness)
    pop_model = "dankar"          # dankar | pitman | zayatz | snb
    population_size = 317238626   # N (ARX's USA figure); or sampling_fraction = 0.01
    k_map = 3                     # k-map estimated from the sample (ARX's KMap; needs population_size)
    k_map_estimator = "poisson"   # poisson | zero_truncated_poisson
    k_map_significance = 0.01
    delta_presence_min = 0.05     # delta-presence of the research subset (ARX's DPresence; with
    delta_presence_max = 0.5      # [search] research_subset); k_map is then ARX's KMap(k, subset)

    [search]
    suppression_limit = 0.04
    metric = "discernibility"     # dm_star | nue | nue_monotonic | loss | avg_class_size | precision |
                                  # precision_monotonic | height | ambiguity | kl_divergence | nue_normalised |
                                  # entropy_loss | publisher_payout | classification
    runner_ups = 5
    suppressed_as = "missing"     # or "*"
    attribute_weights = { age = 1, sex = 0.2 }   # ARX's weights (an unnamed key 0.5): nue, loss, precision, height
    research_subset = "rows.csv"  # the data is the population, these 0-based rows (one a line) the release
    response = ["salary-class"]   # with metric = "classification": the variables to still predict
    local = true                  # ARX's local recoding of the suppressed records (metric loss, precision,
    local_records = 0.01          #   discernibility or avg_class_size); optimizeIterativeFast's share, or
    local_iterations = 100        #   without it optimizeIterative's steps

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

Every key of [models], [search], [dimension] and [combinations] is declared once
(:data:`MODEL_OPTIONS`, :data:`SEARCH_OPTIONS`, :class:`sdc._schema.Option`) and checked when
the file is read, with the words of the assessment configuration's errors (``config
[models].k must be a whole number >= 1; got 0.``); the command line's flags are made from the
same declarations. The section of the key variables was called ``[quasi_identifiers]`` before
sdc used one name, ``keys``, everywhere: that name is still read, with a warning.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._schema import (
    COUNT, POSITIVE, PROBABILITY, Choice, Each, Flag, Maybe, Name, Names, Option, Options, Real, Table, Whole,
)
from sdc.exceptions import SdcWarning
from sdc.identify.criteria import BETA_VARIANTS, DELTA_VARIANTS, L_VARIANTS, POP_MODELS, T_DISTANCES
from sdc.identify.hierarchy import (
    Hierarchy, as_hierarchy, date_hierarchy, interval_hierarchy, mapping_hierarchy, prefix_hierarchy,
)
from sdc.identify.kmap import K_MAP_ESTIMATORS
from sdc.identify.lightning import ALGORITHMS
from sdc.identify.metrics import METRICS
from sdc.identify.qi_search import SubsetSearchResult, qi_dimension_search, transformation_search
from sdc.identify.search import SUPPRESSED_AS, GeneralisationResult, generalisation_search
from sdc.workflow.config import READ_KEYS, ConfigError, read_config_file, read_settings

__all__ = ["SearchConfig", "SearchRun", "load_search_config", "search_config_from_mapping", "build_hierarchies",
           "run_search", "MODEL_OPTIONS", "SEARCH_OPTIONS"]

_SECTIONS = ("data", "keys", "models", "search", "dimension", "combinations")
#: The old name of [keys], still read (with a warning).
_OLD_KEYS = "quasi_identifiers"
_BUILDERS = ("intervals", "prefix", "dates", "mapping", "file")
_PATH = Option("path", Name("a file path"))


def _per_variable(rule: Any) -> Maybe:
    """A value for every sensitive variable, or a table of variable = value."""
    return Maybe(Each(rule, lists=False, mappings=True))


#: The privacy models ([models]; [dimension] and [combinations] take them too, but beta).
MODEL_OPTIONS = Options([
    Option("k", Maybe(COUNT), None, section="models", help="k of k-anonymity"),
    Option("l", _per_variable(Real(1.0)), None, section="models", metavar="L",
           help="l of l-diversity (every sensitive variable)"),
    Option("l_variant", Choice(L_VARIANTS), "distinct", section="models", help="l-diversity variant"),
    Option("c", POSITIVE, 2.0, section="models", help="c of recursive (c, l)-diversity"),
    Option("t", _per_variable(PROBABILITY), None, section="models", metavar="T",
           help="t of t-closeness (every sensitive variable)"),
    Option("t_distance", Choice(T_DISTANCES), "equal", section="models", help="ground distance of t-closeness"),
    Option("beta", _per_variable(Real(0.0)), None, section="models", metavar="BETA",
           help="beta of beta-likeness (every sensitive variable)"),
    Option("beta_variant", Choice(BETA_VARIANTS), "basic", section="models", help="beta-likeness variant"),
    Option("delta", _per_variable(Real(0.0)), None, section="models", metavar="DELTA",
           help="delta of delta-disclosure privacy (every sensitive variable)"),
    Option("delta_variant", Choice(DELTA_VARIANTS), "arx", section="models",
           help="delta-disclosure: log2 (ARX) or natural log (pyCANON)"),
    Option("alpha", _per_variable(PROBABILITY), None, section="models", metavar="ALPHA",
           help="alpha of (alpha, k)-anonymity: largest share of a value in a class"),
    Option("avg_risk", Maybe(PROBABILITY), None, section="models", metavar="RISK",
           help="largest average re-identification risk (ARX's AverageReidentificationRisk)"),
    Option("sample_uniques", Maybe(PROBABILITY), None, section="models", metavar="SHARE",
           help="largest share of sample uniques (ARX's SampleUniqueness)"),
    Option("pop_uniques", Maybe(PROBABILITY), None, section="models", metavar="SHARE",
           help="largest estimated share of population uniques (ARX's PopulationUniqueness)"),
    Option("pop_model", Choice(POP_MODELS), "dankar", section="models", help="population-uniqueness estimator"),
    Option("population_size", Maybe(COUNT), None, section="models", metavar="N",
           help="population size N of pop_uniques (ARX's USA: 317238626)"),
    Option("sampling_fraction", Maybe(PROBABILITY), None, section="models", metavar="F",
           help="sampling fraction n / N of pop_uniques (instead of population_size)"),
    Option("k_map", Maybe(COUNT), None, section="models", metavar="K",
           help="k of k-map: people of the population per class, estimated (ARX's KMap; with population_size)"),
    Option("k_map_estimator", Choice(K_MAP_ESTIMATORS), "poisson", section="models",
           help="k-map's estimator of a class's population count"),
    Option("k_map_significance", PROBABILITY, 0.01, section="models", metavar="ALPHA",
           help="k-map's significance level (largest type-1 error)"),
    Option("delta_presence_min", Maybe(PROBABILITY), None, section="models", metavar="DMIN",
           help="delta-presence's dmin: least share of a population class in the research subset (ARX's DPresence)"),
    Option("delta_presence_max", Maybe(PROBABILITY), None, section="models", metavar="DMAX",
           help="delta-presence's dmax: largest share of a population class in the research subset"),
    Option("sensitive", Names(), (), section="models", metavar="COLS", help="sensitive variables, comma-separated"),
])
#: The search's settings ([search]).
SEARCH_OPTIONS = Options([
    Option("suppression_limit", PROBABILITY, 0.04, section="search", metavar="SHARE",
           help="largest share of records suppressed"),
    Option("metric", Choice(METRICS), "discernibility", section="search", help="information-loss metric"),
    Option("runner_ups", Whole(min=0), 5, section="search", metavar="N", help="next-best transformations to report"),
    Option("suppressed_as", Choice(SUPPRESSED_AS), "missing", section="search", help="suppressed quasi-identifiers"),
    Option("exhaustive", Flag(), None, section="search", help="evaluate every transformation (no pruning)"),
    Option("practical_monotonicity", Flag(), False, section="search",
           help="take every model as monotone (ARX's practical monotonicity; not proven optimal)"),
    Option("algorithm", Choice(ALGORITHMS), "exact", section="search",
           help="exact (proven optimum), lightning or genetic (ARX's heuristics: best found, not proven optimal) "
                "or auto"),
    Option("time_limit", Maybe(POSITIVE), None, section="search", metavar="SECONDS", help="a heuristic's time limit"),
    Option("node_limit", Maybe(COUNT), None, section="search", metavar="N", help="a heuristic's limit of nodes checked"),
    Option("seed", Whole(min=0), 0, section="search", metavar="N", help="the genetic search's seed"),
    Option("attribute_weights", Maybe(Table(Real(0.0), "a table of key = weight (a number >= 0)")), None,
           section="search", metavar="KEY=W,...",
           help="ARX's attribute weights of the multi-dimensional metrics (an unnamed key weighs ARX's 0.5)"),
    Option("research_subset", Maybe(Name("a file path")), None, section="search", metavar="ROWS.csv",
           help="the file is the population; these 0-based rows (one a line) the released subset "
                "(delta-presence, k-map)"),
    Option("response", Names(), (), section="search", metavar="COLS",
           help="response variables of metric classification (not keys), comma-separated"),
    Option("local", Flag(), False, section="search",
           help="local recoding: search the suppressed records again, each step at its own levels (ARX's "
                "local transformation)"),
    Option("local_records", Maybe(Real(0.0, 1.0, low_open=True)), None, section="search", metavar="SHARE",
           help="local recoding: each step releases at least this share of all records (ARX's optimizeIterativeFast)"),
    Option("local_iterations", Whole(min=1), 100, section="search", metavar="N",
           help="local recoding: at most this many steps (ARX's optimizeIterative maxIterations)"),
])
_TARGETS = Options([o for o in MODEL_OPTIONS
                    if not o.name.startswith(("beta", "delta", "alpha", "avg_risk", "sample_uniques", "pop_", "population_",
                                            "sampling_", "k_map"))]
                   + [SEARCH_OPTIONS["suppression_limit"]])
#: The options of each section (the dimension and combination searches add their own table).
_SECTION_OPTIONS: dict[str, Options] = {
    "models": MODEL_OPTIONS, "search": SEARCH_OPTIONS,
    "dimension": Options([*_TARGETS, Option("levels", Table(Whole(min=0), "a table of key = level"), None)]),
    "combinations": Options([*_TARGETS, Option("transformations", Table(
        Table(Whole(min=0), "a table of key = level"),
        "a table of transformation name = { key = level }"), None)]),
}


@dataclass(frozen=True)
class SearchConfig:
    """A validated ``sdc search`` configuration (values are checked again by the searches)."""

    source: str
    base: str
    data_path: str | None
    sep: str | None
    keys: dict[str, Any]        # each key variable (quasi-identifier) -> its hierarchy
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
        for key in ("l", "t", "beta", "delta", "alpha"):
            v = self.models.get(key)
            if isinstance(v, Mapping):
                out += [x for x in v if x not in out]
        return out

    def to_dict(self) -> dict[str, Any]:
        data = {"path": self.data_path, "sep": self.sep,
                **{k: getattr(self, k) for k in READ_KEYS if k != "sep" and getattr(self, k) is not None}}
        return {"source": self.source, "data": data,
                "keys": self.keys, "models": self.models, "search": self.search,
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
    #: The transformation's files (mapping.csv, mapping.json, plan.toml: transformation_documents).
    transformation: dict[str, str] = field(default_factory=dict, repr=False)


def _err(where: str, what: str) -> ConfigError:
    # Phrased as the assessment configuration's errors (sdc.workflow.config): config [section].key.
    return ConfigError(f"config {where}: {what}")


def _table(raw: Mapping[str, Any], name: str) -> dict[str, Any]:
    v = raw.get(name, {})
    if not isinstance(v, Mapping):
        raise _err(f"[{name}]", "must be a table of keys.")
    return dict(v)


def _checked(raw: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A section of keys, each checked by its declaration (``config [models].k must be ...``),
    the values kept as given (the searches take them so)."""
    sec = _table(raw, name)
    opts = _SECTION_OPTIONS[name]
    bad = [k for k in sec if k not in opts]
    if bad:
        raise _err(f"[{name}]", f"unknown key {bad[0]!r}; allowed: {', '.join(opts.names)}.")
    for key, value in sec.items():
        opts[key].check(value, f"config [{name}].{key}", ConfigError)
    return sec


def _keys(raw: Mapping[str, Any]) -> dict[str, Any]:
    """[keys] (or its old name, with a warning): each key variable and its hierarchy."""
    name = "keys"
    if _OLD_KEYS in raw:
        if "keys" in raw:
            raise _err(f"[{_OLD_KEYS}]", "is the old name of [keys]; give one of them.")
        warnings.warn(f"config [{_OLD_KEYS}] is now called [keys] (one name for the key variables everywhere); "
                      "rename the section.", SdcWarning, stacklevel=4)
        name = _OLD_KEYS
    keys = _table(raw, name)
    if not keys:
        raise _err("[keys]", "name at least one key variable (quasi-identifier) and its hierarchy.")
    for key, spec in keys.items():
        if isinstance(spec, str):
            continue
        if not isinstance(spec, Mapping) or sum(k in spec for k in _BUILDERS) != 1:
            raise _err(f"[{name}].{key}",
                       "must be a hierarchy file (a string) or a table with one of "
                       f"{', '.join(_BUILDERS)} (e.g. {{ intervals = [5, 10] }}).")
    return keys


def search_config_from_mapping(raw: Mapping[str, Any], *, source: str = "mapping", base: str | Path = ".") -> SearchConfig:
    """Validate a parsed configuration: its sections, and each key by its declaration (the
    data-dependent checks are the searches')."""
    bad = [k for k in raw if k not in _SECTIONS and k != _OLD_KEYS]
    if bad:
        raise _err(f"section [{bad[0]}]", f"unknown; allowed sections: {', '.join('[' + s + ']' for s in _SECTIONS)}.")
    data = _table(raw, "data")
    extra = [k for k in data if k not in ("path", *READ_KEYS)]
    if extra:
        raise _err("[data]", f"unknown key {extra[0]!r}; allowed: {', '.join(('path', *READ_KEYS))}.")
    keys = _keys(raw)
    models, search = _checked(raw, "models"), _checked(raw, "search")
    dim = _checked(raw, "dimension") if raw.get("dimension") is not None else None
    comb = _checked(raw, "combinations") if raw.get("combinations") is not None else None
    if comb is not None and not comb.get("transformations"):
        raise _err("[combinations.transformations]", "list the candidate transformations: name = { variable = level }.")
    path = data.get("path")
    if path is not None:
        _PATH.check(path, "config [data].path", ConfigError)
    if isinstance(path, str) and not Path(path).is_absolute():
        path = str(Path(base) / path)
    reading = read_settings(data)  # sep, na_values, text_columns, sheet: checked as sdc assess's
    return SearchConfig(source=source, base=str(base), data_path=path, keys=keys, models=models,
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
    for spec in cfg.keys.values():
        named = spec if isinstance(spec, str) else next(
            (spec[k] for k in ("file", "mapping") if isinstance(spec, Mapping) and isinstance(spec.get(k), str)), None)
        if named is not None:
            out.append(Path(cfg.base) / named)  # an absolute path stays itself
    return out


def build_hierarchies(cfg: SearchConfig, data: pd.DataFrame) -> dict[str, Hierarchy]:
    """Each quasi-identifier's hierarchy: read from its file or built from the data."""
    out: dict[str, Hierarchy] = {}
    for name, spec in cfg.keys.items():
        where = f"config [keys].{name}"
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
                out[name] = interval_hierarchy(col, spec["intervals"], start=spec.get("start"), top=top)
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
    search = dict(cfg.search)
    lo, hi = models.pop("delta_presence_min", None), models.pop("delta_presence_max", None)
    if lo is not None or hi is not None:
        models["delta_presence"] = (0.0 if lo is None else lo, 1.0 if hi is None else hi)
    if search.get("research_subset") is not None:
        search["research_subset"] = read_subset_rows(Path(cfg.base) / search["research_subset"])
    res = generalisation_search(data, hs, **models, **search)
    if search.get("research_subset") is not None:
        data = data.iloc[search["research_subset"]]  # the release is the subset's
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
                     comparison=compare_release(cfg, data, res, input_file=input_file, command=command),
                     transformation=transformation_documents(res))


def read_subset_rows(path: str | Path) -> list[int]:
    """A research subset's file: 0-based row numbers of the data, one a line (ARX's
    ``DataSubset.create(data, rows)``; blank lines skipped, an optional header ``row`` too).
    A line that is no whole number >= 0 is refused with its number."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config [search].research_subset: no file {str(p)!r}.")
    rows = []
    for i, line in enumerate(p.read_text(encoding="utf-8-sig").splitlines(), start=1):
        text = line.strip()
        if not text or (i == 1 and text.lower() in ("row", "rows")):
            continue
        if not text.isdigit():
            raise ConfigError(f"config [search].research_subset: line {i} of {p.name} is not a 0-based row number; "
                              f"got {text!r}.")
        rows.append(int(text))
    return rows


def compare_release(cfg: SearchConfig, data: pd.DataFrame, res: GeneralisationResult, *,
                    input_file: str | Path | None = None, command: str = "") -> Any:
    """The original and the chosen release side by side (``sdc compare``'s report): risk with
    the quasi-identifiers as keys (their released values are the generalised ones), the
    sensitive variables' l-diversity and t-closeness, utility, and the linkage attack."""
    from sdc.workflow.compare import compare
    from sdc.workflow.config import from_mapping

    sens = [s for s in cfg.sensitive if s in data.columns]
    k = cfg.models.get("k")
    qis = list(res.quasi_identifiers)  # [keys] less the sensitive variables' trees (hierarchical distance)
    raw = {"data": {},
           "variables": {"categorical_keys": qis, "sensitive": sens},
           "options": {"measures": ["k_anonymity", "risk"] + (["ldiversity", "tcloseness"] if sens else []),
                       "missing": "wildcard"}}
    if isinstance(k, int) and k >= 2:
        raw["thresholds"] = {"k": k}
    run_cfg = from_mapping(raw, source=cfg.source, data_given=True)
    return compare(data, res.data, run_cfg, match="index", recoded=qis,
                   files=[input_file] if input_file is not None else (), command=command)


def transformation_documents(res: GeneralisationResult) -> dict[str, str]:
    """The transformation's files of the search folder: ``mapping.csv`` (variable, level, value,
    released), ``mapping.json`` (``{variable: {level, values}}``) and ``plan.toml``
    (:func:`transformation_plan_toml`)."""
    import json

    from sdc.protect.transformation import mapping_to_dict

    return {"mapping.csv": res.mapping.to_csv(index=False, lineterminator="\n"),
            "mapping.json": json.dumps(mapping_to_dict(res.mapping), indent=2, ensure_ascii=False) + "\n",
            "plan.toml": transformation_plan_toml(res)}


def transformation_plan_toml(res: GeneralisationResult) -> str:
    """The search's transformation as a protection plan (one ``apply_transformation`` step with
    the value-to-value mapping), which ``sdc protect DATA --plan plan.toml`` applies to a file of
    the same shape. The search's suppression is not in it (it depends on the file's classes)."""
    from sdc.protect.transformation import mapping_to_dict
    from sdc.workflow.plan import plan_from_mapping, plan_to_toml

    doc = mapping_to_dict(res.mapping)
    plan = plan_from_mapping({"steps": [{"method": "apply_transformation", "variables": list(doc), "mapping": doc}]})
    levels = ", ".join(f"{q}={res.levels[q]}" for q in res.quasi_identifiers)
    return plan_to_toml(plan, header=(
        f"# The transformation sdc search found ({levels}), as a plan: apply it to a file of the same shape\n"
        "# with: sdc protect DATA --plan plan.toml --out DIR. A value without a row is refused. The search's\n"
        "# suppression is not part of it: assess the result (or add a suppression step)."))
