"""The options of an assessment run, declared once each (:class:`sdc._schema.Option`).

Every reader of an option reads its declaration here: the configuration parser
(:func:`sdc.workflow.config.from_mapping`) checks a file's value with :meth:`Option.check`,
the TOML writer (:func:`sdc.workflow.config.to_toml`) writes the sections in this order, the
flat keyword arguments of :func:`sdc.assess` are the options' names, the command line's
flags and their help are made from them (:func:`sdc.cli._args.add_option_flags`), the
report's threshold and option tables show their labels, and the docs' option tables are
generated from them (:func:`options_table`; a test checks the docs hold the generated table).

An option's `name` is its Python name (``keys``, ``risk``); its place in a file is
``[section].key`` (``[variables].categorical_keys``, ``[thresholds].risk``); its flag is
``--`` + the name unless declared (``--risk-threshold``, ``--text``). A label may name
another option's value in braces (the t of t-closeness is shown with its distance).
"""

from __future__ import annotations

from sdc._formats import NA_VALUES, SEP, SHEET, TEXT_COLUMNS
from sdc._schema import (
    COUNT, PROBABILITY, Choice, Maybe, Name, Names, Option, Options, Real, Subset, Table,
)
from sdc.core.binning import CLOSED, OUTSIDE
from sdc.core.missing import ALPHA, MISSING

__all__ = ["MEASURES", "OPTIONAL_MEASURES", "MEASURE_ALIASES", "FORMATS", "DISTANCE_RANGES", "ASSESS_OPTIONS",
           "PER_SENSITIVE", "BIN_MODIFIERS", "SECTIONS", "TABLE_SECTIONS", "ALIASES", "options_table", "flags_table", "shown_default"]

MEASURES = ("k_anonymity", "risk", "snapshots", "household", "ldiversity", "tcloseness", "inference", "suda",
            "uniqueness")
# Measures registered later (sdc/workflow/registry.py) that run only when asked for by name
# (tests/workflow/test_registry.py checks that the registry names no other).
OPTIONAL_MEASURES = ("modrisk", "betalikeness", "proxies")
# The Python API's function names, accepted for the measures they compute (the report and the
# resolved config use the short names above).
MEASURE_ALIASES = {"individual_risk": "risk", "key_subset_snapshots": "snapshots", "household_risk": "household",
                   "l_diversity": "ldiversity", "t_closeness": "tcloseness", "inference_risk": "inference",
                   "population_uniqueness": "uniqueness", "model_risk": "modrisk"}
FORMATS = ("html", "md", "txt", "json", "xlsx", "csv", "png")
#: How the report writes ``records.csv`` (every record with its measures): as CSV, gzip-compressed
#: (``records.csv.gz``), compressed when the CSV would be larger than the input file(s) and 64 MiB
#: (``sdc.report.AUTO_MIN_BYTES``; the default), or not at all.
RECORDS = ("csv", "gz", "auto", "none")
#: The t-closeness distances and the values they can take: a t at or above the top can never
#: fail (None: no upper bound; the Wasserstein distance is in the variable's own units).
DISTANCE_RANGES: dict[str, tuple[float, float | None]] = {
    "ordered": (0.0, 1.0), "equal": (0.0, 1.0), "tvd": (0.0, 1.0), "wasserstein": (0.0, None)}

_FILE = Name("a file path")
_COLUMN = Maybe(Name())

_DATA = [
    Option("path", _FILE, None, section="data", flag="", label="data file",
           help="the data file (relative to the config file; DATA on the command line)"),
    SEP,
    Option("id", _COLUMN, None, section="data", label="record id", help="record id column (shown in the per-record files)"),
    NA_VALUES,
    TEXT_COLUMNS,
    SHEET,
    Option("domains", Table(_FILE, "a table of domain = file path, e.g. { DM = \"dm.csv\" }"), {}, section="data",
           flag="", label="domain files", help="per-domain files joined by subject id (instead of path; see sdc combine)"),
    Option("subject_id", _COLUMN, None, section="data", flag="", label="subject id",
           help="with domains: the subject id column, in every domain"),
    Option("long", Table(Name(), "a table of domain = test-name column, e.g. { LB = \"LBTESTCD\" }", empty=True), {},
           section="data", flag="", label="long-format domains",
           help="with domains: long-format domains and their test-name column"),
    Option("visit", Table(Name(), "a table of domain = visit, e.g. { VS = \"BASELINE\" } or { VS = \"VISITNUM=1\" }",
                          empty=True), {}, section="data", flag="", label="one visit per domain",
           help="with domains: keep one visit of a domain (its VISIT, else AVISIT, column; or COLUMN=VALUE)"),
    Option("value_column", _COLUMN, None, section="data", flag="", label="value column",
           help="with domains: the value column of the long domains"),
]

_VARIABLES = [
    Option("keys", Names(), (), section="variables", key="categorical_keys", label="categorical keys",
           help="categorical key variables, comma-separated"),
    Option("continuous_keys", Names(), (), section="variables", label="continuous keys",
           help="continuous key variables (banded with --bins / [bins])"),
    Option("weights", Maybe(Name(), none="none (the data are the population)"), None, section="variables",
           label="weights", help="sampling-weight column"),
    Option("household", _COLUMN, None, section="variables", label="household id", help="household id column"),
    Option("sensitive", Names(), (), section="variables", label="sensitive variables",
           help="sensitive variables, comma-separated"),
]

_L = Option("l", COUNT, 2, section="thresholds", label="l (l-diversity)", metavar="[VAR=]L",
            help="l of l-diversity")
_T = Option("t", Real(0.0), 0.2, section="thresholds", label="t (t-closeness, {distance})", metavar="[VAR=]T",
            help="t of t-closeness")
_DISTANCE = Option("distance", Choice(tuple(DISTANCE_RANGES)), "ordered", section="options",
                   label="t-closeness distance", metavar="[VAR=]DISTANCE",
                   help="t-closeness distance: " + ", ".join(DISTANCE_RANGES))

_THRESHOLDS = [
    Option("k", COUNT, 3, section="thresholds", label="k (k-anonymity)", unit="records", help="k of k-anonymity"),
    _L,
    Option("c", Real(0.0, low_open=True), 2.0, section="thresholds", label="c (recursive l-diversity)",
           help="c of recursive (c, l)-diversity"),
    _T,
    Option("risk", PROBABILITY, 0.1, section="thresholds", flag="--risk-threshold", label="individual risk",
           unit="share", help="individual-risk threshold"),
    Option("max_global_risk", Real(0.0, 1.0, low_open=True, high_open=True), 0.01, section="thresholds",
           label="maximum global risk", unit="share", help="maximum acceptable global risk"),
    Option("min_posterior", Real(0.0, 1.0, low_open=True), 0.95, section="thresholds", label="inference posterior",
           unit="share", help="posterior from which a released variable reveals a sensitive value (inference)"),
    Option("small_count", Maybe(COUNT, same_as="k"), None, section="thresholds", label="small-count levels below",
           unit="records", help="levels with fewer records are listed (default: k)"),
]

_OPTIONS = [
    MISSING,
    ALPHA,
    Option("measures", Subset(MEASURES + OPTIONAL_MEASURES, MEASURE_ALIASES, noun="measures"), MEASURES,
           section="options", label="measures",
           help=f"measures to run (default all of: {', '.join(MEASURES)}; also available: "
                f"{', '.join(OPTIONAL_MEASURES)}; the API's names work too)"),
    _DISTANCE,
    Option("population_size", Maybe(COUNT), None, section="options", label="population size", unit="records",
           help="population size for population-uniqueness estimates"),
    Option("sampling_fraction", Maybe(Real(0.0, 1.0, low_open=True)), None, section="options",
           label="sampling fraction", unit="share",
           help="or the sampling fraction, for population-uniqueness estimates"),
    Option("ldiversity_mode", Choice(("correct", "sdcmicro")), "correct", section="options",
           label="l-diversity mode", help="l-diversity: correct, or sdcmicro (sdcMicro's NA handling)"),
    Option("suda_mode", Choice(("sdcmicro", "correct")), "sdcmicro", section="options", label="SUDA2 mode",
           help="SUDA2: sdcmicro (its scores), or correct"),
]

_OUTPUT = [
    Option("formats", Subset(FORMATS, noun="formats"), FORMATS, section="output", label="outputs",
           help="outputs (default all): " + ", ".join(FORMATS)),
    Option("records", Choice(RECORDS), "auto", section="output", label="records file",
           help="records.csv: auto (default: gz when larger than the input and 64 MiB), csv, gz (records.csv.gz), "
                "none"),
]

#: Every option of an assessment run, section by section, in the order of a written config.
ASSESS_OPTIONS = Options(_DATA + _VARIABLES + _THRESHOLDS + _OPTIONS + _OUTPUT)
#: The options a sensitive variable may have of its own ([sensitive_thresholds]; the flags'
#: ``VAR=`` form).
PER_SENSITIVE = Options([_T, _L, _DISTANCE])
#: The modifiers of one variable's bins, declared once: a table of ``[bins]`` or
#: ``[sensitive_bins]`` (``age = { edges = [...], closed = "right", outside = "missing" }``), the
#: ``--bins`` / ``--sensitive-bins`` value (``age=0,18,65,inf,closed=right``), the API's bin
#: specification (:mod:`sdc.core.binning`), the written TOML and the report's binning table.
BIN_MODIFIERS = Options([
    Option("closed", Choice(CLOSED), "left", section="bins", key="COLUMN.closed", flag="", label="bands closed on",
           help="which side of each band is closed: left, [a, b) with the last band [a, b], or right, (a, b] with the "
                "first [a, b] (--bins COL=EDGES,closed=right)"),
    Option("outside", Choice(OUTSIDE), "error", section="bins", key="COLUMN.outside", flag="",
           label="values outside the edges",
           help="a value outside given edges: error (refused), missing (made missing) or extend (taken by the first "
                "or last band) (--bins COL=EDGES,outside=missing)"),
])
#: The sections of keys (in a written config's order) and the sections that are tables of
#: their own (column -> value, or a list of scenarios).
SECTIONS = ("data", "variables", "thresholds", "options", "output")
TABLE_SECTIONS = ("bins", "sensitive_bins", "sensitive_thresholds", "scenarios", "analyses")
#: Other names of the flat keyword arguments (:func:`sdc.workflow.config.from_options`).
ALIASES = {"categorical_keys": "keys", "key_bins": "bins"}


def shown_default(opt: Option) -> str:
    """The default as the help and the docs show it (``3``, ``wildcard``, ``all``; ``""`` none)."""
    d = opt.default
    rule = opt.rule
    if isinstance(rule, Maybe) and rule.same_as:
        return rule.same_as
    if d is None or d == () or d == {}:
        return ""
    if isinstance(rule, Subset) and tuple(d) == tuple(v for v in rule.values if v in d) and len(d) > 1:
        return "all" if set(d) == set(rule.values) else ", ".join(d)
    if isinstance(d, float):
        return f"{d:g}"
    return str(d)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def options_table(options: Options = ASSESS_OPTIONS) -> str:
    """The docs' table of the options: key, flag, what a value must be, default, meaning."""
    rows = ["| key | flag | value | default | meaning |", "|---|---|---|---|---|"]
    for o in options:
        place = f"`[{o.section}].{o.config_key}`" if o.section else f"`{o.name}`"
        flag = f"`{o.flag_name}`" if o.flag_name else "-"
        default = shown_default(o)
        rows.append(f"| {place} | {flag} | {_cell(o.rule.what)} | {_cell(default) or '-'} | {_cell(o.help)} |")
    return "\n".join(rows) + "\n"


def flags_table(options: Options = ASSESS_OPTIONS) -> str:
    """The docs' table of the command line's flags of these options and the key each sets."""
    rows = ["| flag | sets | default | meaning |", "|---|---|---|---|"]
    for o in options:
        if not o.flag_name:
            continue
        form = f" {o.metavar}" if o.metavar else ""
        rows.append(f"| `{o.flag_name}{form}` | `[{o.section}].{o.config_key}` | {_cell(shown_default(o)) or '-'} "
                    f"| {_cell(o.help)} |")
    return "\n".join(rows) + "\n"

