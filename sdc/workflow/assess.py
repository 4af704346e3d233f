"""One assessment run: every configured measure, for every key scenario, on one dataset.

:func:`assess` reads the data (or joins its domains), bins continuous keys, and computes,
per scenario, the k-anonymity profile, individual and global risk, household risk,
snapshots over key subsets, l-diversity and t-closeness of the sensitive variables, SUDA2
and population uniqueness; then inference of each sensitive variable and the small-count
levels of each key. The result, an :class:`Assessment`, is what the report renders.

In a notebook the data come first and the configuration is a dict or keyword arguments::

    a = sdc.assess(df, keys=["sex", "region"], continuous_keys=["age"], key_bins={"age": {"width": 10}},
                   sensitive=["diagnosis"], weights="w", k=5)
    a.to_frame()          # the verdicts
"""

from __future__ import annotations

import hashlib
import platform
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns
from sdc._version import __version__
from sdc.attribute.closeness import TClosenessResult
from sdc.attribute.inference import InferenceResult, inference_risk
from sdc.attribute.ldiversity import LDiversityResult
from sdc.core.binning import Binning, apply_binning
from sdc.core.scenario import KeyClasses, key_classes
from sdc.core.shared import shared_codes
from sdc.exceptions import SdcWarning
from sdc.core.prepare import attach_weights
from sdc.io import ReadDetails, read_data_details
from sdc.risk.attacker import AttackerRiskResult
from sdc.risk.household import HouseholdRiskResult
from sdc.risk.individual import IndividualRiskResult, individual_risk
from sdc.risk.kanonymity import KAnonymityResult, k_anonymity
from sdc.risk.snapshots import SnapshotResult
from sdc.risk.suda import SudaResult
from sdc.risk.uncertainty import Interval, jackknife_interval, reidentification_interval
from sdc.risk.uniqueness import PopulationUniquenessResult
from sdc.workflow.config import FILE_WIDE, RunConfig, Scenario, from_mapping, from_options, load_config
from sdc.workflow.registry import SCENARIO_MEASURES, Context

__all__ = ["Assessment", "ScenarioResult", "assess", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """Whether a measure passes its threshold (``"pass"``, ``"fail"`` or ``"info"``).

    ``share`` is the share of the records (or of the population) the statistic concerns,
    when it has one: the executive summary ranks the failing measures by it.
    """

    scenario: str
    measure: str
    statistic: str
    value: float
    threshold: str
    verdict: str
    share: float | None = None


@dataclass(frozen=True)
class ScenarioResult:
    """The measures of one key scenario."""

    scenario: Scenario
    key_classes: KeyClasses = field(repr=False)
    profile: KAnonymityResult
    risk: IndividualRiskResult
    household: HouseholdRiskResult | None = None
    snapshots: SnapshotResult | None = None
    ldiversity: LDiversityResult | None = None
    tcloseness: dict[str, TClosenessResult] = field(default_factory=dict)
    suda: SudaResult | None = None
    uniqueness: PopulationUniquenessResult | None = None
    attacker: AttackerRiskResult | None = None
    intervals: dict[str, Interval] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # results of measures registered later, by field


@dataclass(frozen=True)
class Assessment:
    """Everything one run computed, with its inputs and provenance."""

    config: RunConfig
    data: pd.DataFrame = field(repr=False)        # as read (what the per-record files show)
    assessed: pd.DataFrame = field(repr=False)    # with continuous keys binned
    binning: tuple[Binning, ...]
    scenarios: tuple[ScenarioResult, ...]
    inference: dict[str, InferenceResult]
    small_counts: pd.DataFrame = field(repr=False)
    verdicts: tuple[Verdict, ...]
    provenance: dict[str, Any]
    notes: tuple[str, ...] = ()
    cross_check: pd.DataFrame | None = field(default=None, repr=False)
    columns: pd.DataFrame | None = field(default=None, repr=False)  # the input's columns: role, missing, flags
    read: ReadDetails | None = None                                  # how the input file was read
    skipped: tuple[tuple[str, str], ...] = ()                        # (measure, why) asked for, not computed

    @property
    def primary(self) -> ScenarioResult:
        return self.scenarios[0]

    def to_frame(self) -> pd.DataFrame:
        """The verdicts, one row per measure and scenario: ``scenario``, ``measure``,
        ``statistic``, ``value``, ``threshold``, ``verdict`` (pass, fail, info), ``share``."""
        return pd.DataFrame([v.__dict__ for v in self.verdicts],
                            columns=["scenario", "measure", "statistic", "value", "threshold", "verdict", "share"])

    def summary(self) -> pd.DataFrame:
        """Headline figures as rows of (statistic, value, description): records, the failing
        verdicts, and per scenario (``<scenario>: ...``) its verdict counts, records below k and
        expected re-identifications."""
        rows: list[tuple[str, object, str]] = [("records", len(self.data), "records assessed")]
        for r in self.scenarios:
            name = r.scenario.name
            v = [x.verdict for x in self.verdicts if x.scenario == name]
            rows += [(f"{name}: keys", list(r.scenario.keys), "the scenario's key variables"),
                     (f"{name}: fail", v.count("fail"), "measures failing their threshold"),
                     (f"{name}: pass", v.count("pass"), "measures passing their threshold"),
                     (f"{name}: info", v.count("info"), "measures for information"),
                     (f"{name}: records_below_k", int(r.profile.n_k_lt_threshold), "records with fk < k"),
                     (f"{name}: expected_reidentifications", float(r.risk.expected_reidentifications),
                      "expected re-identifications")]
        rows.append(("fail", sum(1 for x in self.verdicts if x.verdict == "fail"), "failing verdicts, every scenario"))
        return summary_frame(rows)


def _sha256(paths: list[str]) -> dict[str, str]:
    out = {}
    for p in paths:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        out[str(p)] = h.hexdigest()
    return out


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return {"sdc": __version__, "python": platform.python_version(), "numpy": np.__version__,
            "pandas": pd.__version__, "scipy": installed("scipy"), "statsmodels": installed("statsmodels"),
            "matplotlib": installed("matplotlib")}


def load_input(cfg: RunConfig) -> tuple[pd.DataFrame, list[str], ReadDetails | None]:
    """The data of a run, the files it came from, and how the file was read (None for domains)."""
    read_opts = {"na_values": cfg.na_values or None, "text_columns": cfg.text_columns}
    if cfg.domains:
        from sdc.workflow.combine import combine_domains

        df = combine_domains(cfg.domains, cfg.subject_id or "", long=cfg.long_domains, value_column=cfg.value_column,
                             sep=cfg.sep, **read_opts)
        return df, list(cfg.domains.values()), None
    if cfg.data_path is None:
        raise ValueError("the run has no data: give a data file (DATA or [data].path).")
    df, details = read_data_details(cfg.data_path, sep=cfg.sep, sheet=cfg.sheet, **read_opts)
    return df, [cfg.data_path], details


def _resolve(source: Any, config: Any, data: Any, options: dict[str, Any]) -> tuple[RunConfig, Any, Any]:
    """(config, data frame or None, weights Series or None) from assess's arguments."""
    if isinstance(source, RunConfig):
        if config is not None:
            if data is not None:
                raise TypeError("give the data once: assess(cfg, data) or assess(cfg, data=data).")
            data = config
        if options:
            raise TypeError(f"with a RunConfig, options go into the config; got {', '.join(map(repr, options))}.")
        cfg = source
    else:
        if isinstance(source, pd.DataFrame):
            if data is not None:
                raise TypeError("give the data once: assess(data, config) or assess(config, data=data).")
            data = source
        elif isinstance(source, (str, Path)):
            options = {**options, "path": str(source)}
        elif source is not None:
            raise TypeError(f"assess() takes the data (a DataFrame or a file path) first, then the configuration; "
                            f"got {type(source).__name__}.")
        series = options.get("weights")
        if isinstance(series, pd.Series):
            options = {**options, "weights": None}
        else:
            series = None
        given = data is not None
        if isinstance(config, RunConfig):
            if options:
                raise TypeError(f"with a RunConfig, options go into the config; got {', '.join(map(repr, options))}.")
            cfg = config
        elif isinstance(config, (str, Path)):
            cfg = load_config(config, from_options(options), data_given=given)
        elif config is None or isinstance(config, Mapping):
            cfg = from_mapping(from_options(options, base=from_options(
                {k: v for k, v in (config or {}).items()})), source="arguments", data_given=given)
        else:
            raise TypeError(f"`config` must be a RunConfig, a mapping, a config file path or None; got "
                            f"{type(config).__name__}.")
        return cfg, data, series
    if data is not None and not isinstance(data, pd.DataFrame):
        raise TypeError(f"`data` must be a pandas DataFrame; got {type(data).__name__}.")
    return cfg, data, None


def assess(
    source: Any = None,
    config: Any = None,
    /,
    *,
    data: pd.DataFrame | None = None,
    command: str = "",
    progress: bool = False,
    cross_check: bool = False,
    now: datetime | None = None,
    **options: Any,
) -> Assessment:
    """Run every configured measure (see :mod:`sdc.workflow.config`) and collect the results.

    Call it with the data first: ``assess(df, config)``, where `config` is a dict (sections
    as in a config file, or flat options), a config file's path or a :class:`RunConfig`, or
    with keyword arguments ``assess(df, keys=[...], sensitive=[...], k=5)``. The earlier
    ``assess(cfg)`` and ``assess(cfg, df)`` work too.

    Parameters
    ----------
    source : pandas.DataFrame, str, Path or RunConfig, optional
        The data (a DataFrame or a data file), or a RunConfig (then `config` may be the data).
    config : mapping, str, Path or RunConfig, optional
        The configuration; keyword `options` are merged into it.
    data : pandas.DataFrame, optional
        The data, when the configuration came first.
    command : str
        The command line, for the provenance record.
    progress : bool
        Show progress bars for the long steps.
    cross_check : bool
        Also compute the risk measures through sdcMicro (r_bridge) and add the agreement table.
    now : datetime, optional
        The generation time recorded (default: now).
    **options
        Flat configuration: ``keys`` (categorical keys), ``continuous_keys``, ``key_bins`` (or
        ``bins``), ``sensitive``, ``sensitive_bins``, ``weights`` (a column name or a Series
        aligned with the data), ``household``, ``id``, ``scenarios`` (a mapping name -> keys),
        ``k``, ``l``, ``t`` (a number, or a mapping sensitive variable -> value), ``c``,
        ``risk``, ``max_global_risk``, ``missing``, ``alpha``, ``measures``, ``distance``,
        ``population_size``, ``sampling_fraction``, ``na_values``, ``text_columns``, ...
        (:func:`sdc.workflow.config.from_options`).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"sex": list("ffmmff"), "age": [31, 38, 45, 52, 33, 36], "dx": list("abaabb")})
    >>> a = sdc.assess(df, keys=["sex"], continuous_keys=["age"], key_bins={"age": {"width": 10}},
    ...                sensitive=["dx"], measures=["k_anonymity", "risk", "ldiversity"], k=2)
    >>> a.to_frame()[["measure", "value", "verdict"]].head(2).to_dict("list")
    {'measure': ['2-anonymity', 'individual risk'], 'value': [2.0, 6.0], 'verdict': ['fail', 'fail']}
    """
    cfg, data, weight_series = _resolve(source, config, data, options)
    files: list[str] = []
    details: ReadDetails | None = None
    if data is None:
        data, files, details = load_input(cfg)
    if weight_series is not None:
        data, wname = attach_weights(data, weight_series)
        cfg = replace(cfg, weights=wname)
    _check_roles(cfg, data)
    work, binning = apply_binning(data, {k: v for k, v in cfg.bins.items()})
    thr = cfg.thresholds
    measures = set(cfg.measures)
    notes: list[str] = list(details.notes()) if details is not None else []
    # Numbers without bins: each raw value is a class. (A text column, such as the bands of a
    # released file's recoded key, is counted by its values, which is no news.)
    unbinned = [k for k in cfg.continuous_keys if k not in cfg.bins and k in data.columns
                and pd.api.types.is_numeric_dtype(data[k].dtype) and not pd.api.types.is_bool_dtype(data[k].dtype)]
    if unbinned:
        notes.append(f"continuous key(s) {', '.join(unbinned)} assessed on their raw values (no bins configured).")
    columns = _columns(cfg, data, details)
    notes += _column_notes(cfg, columns)
    opts = {"weights": cfg.weights, "missing": cfg.missing, "alpha": cfg.alpha}
    results = []
    # The measures only read `work`: each column is encoded once for all of them (sdc.core.shared).
    with warnings.catch_warnings(record=True) as caught, shared_codes():
        warnings.simplefilter("always", SdcWarning)
        for sc in cfg.all_scenarios:
            results.append(_scenario(cfg, work, sc, opts, measures, progress, notes))
        inference = {}
        if "inference" in measures:
            exclude = {c for c in (cfg.id, cfg.weights, cfg.household) if c}
            few = _few_levels(work, [c for c in work.columns if c not in exclude])  # counted once for all
            for s in cfg.sensitive:
                bins = {s: cfg.sensitive_bins[s]} if s in cfg.sensitive_bins else None
                inference[s] = inference_risk(work, s, candidates=[c for c in few if c != s],
                                              min_posterior=thr.min_posterior, bins=bins)
    for w in caught:
        msg = " ".join(str(w.message).split())
        if msg not in notes:
            notes.append(msg)
    result = Assessment(
        config=cfg, data=data, assessed=work, binning=binning, scenarios=tuple(results), inference=inference,
        small_counts=_small_counts(work, cfg.keys or tuple(k for s in cfg.all_scenarios for k in s.keys),
                                   thr.small_count or thr.k),
        verdicts=tuple(_verdicts(cfg, results, inference)),
        provenance={
            "generated_utc": (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "input_sha256": _sha256(files) if files else {},
            "input_files": files,
            "command": command,
            "config_source": cfg.source,
            "versions": _versions(),
            "platform": f"{platform.system()} {platform.machine()}",
        },
        notes=tuple(notes), columns=columns, read=details, skipped=_skipped(cfg),
    )
    if cross_check:
        from sdc.workflow.crosscheck import cross_check as run_cross_check

        table, r_versions = run_cross_check(result, progress)
        result = replace(result, cross_check=table, provenance={**result.provenance, "r_versions": r_versions})
    return result


def _check_roles(cfg: RunConfig, data: pd.DataFrame) -> None:
    """Every column the config names must exist (one error naming the role and the column)."""
    roles = [("categorical_keys", cfg.categorical_keys), ("continuous_keys", cfg.continuous_keys),
             ("sensitive", cfg.sensitive)] + [(f"scenario {s.name!r}", s.keys) for s in cfg.scenarios]
    for role, cols in roles:
        if cols:
            check_columns(data, list(cols), role=role)
    for role, col in (("id", cfg.id), ("weights", cfg.weights), ("household", cfg.household)):
        if col:
            check_columns(data, [col], role=role)
    overlap = set(cfg.sensitive) & set(cfg.keys)
    if overlap:
        raise ValueError(f"`sensitive` variables may not also be keys: {', '.join(map(repr, sorted(overlap)))}.")
    for s in cfg.sensitive:
        if data[s].isna().all():
            raise ValueError(f"sensitive variable {s!r} is missing in every record: there is nothing to assess; "
                             "drop it from `sensitive` (or check the column and the missing-value markers).")


def _columns(cfg: RunConfig, data: pd.DataFrame, details: ReadDetails | None) -> pd.DataFrame:
    """One row per input column: role, kind, values read as missing, distinct values, and flags:
    one value per record (identifier-like) and constant, as :mod:`sdc.identify.profile` defines them."""
    role: dict[str, list[str]] = {}
    for k in cfg.categorical_keys:
        role.setdefault(k, []).append("categorical key")
    for k in cfg.continuous_keys:
        role.setdefault(k, []).append("continuous key" + (" (binned)" if k in cfg.bins else ""))
    for sc in cfg.scenarios:
        for k in sc.keys:
            if k not in role:
                role.setdefault(k, []).append("key")
    for col, name in ((cfg.id, "id"), (cfg.weights, "sampling weight"), (cfg.household, "household id")):
        if col:
            role.setdefault(col, []).append(name)
    for s in cfg.sensitive:
        role.setdefault(s, []).append("sensitive" + (" (banded for l-diversity and inference)"
                                                     if s in cfg.sensitive_bins else ""))
    codes = set(details.text_codes) if details is not None else set()
    # The reader counted the missing values of the file's columns already (the same frame).
    known = details.missing if details is not None and len(details.missing) == data.shape[1] else {}
    rows = []
    n = len(data)
    for col in data.columns:
        s = data[col]
        missing = known[str(col)] if str(col) in known else int(s.isna().sum())
        distinct = int(s.nunique(dropna=True))
        flags = []
        if n - missing >= 2 and distinct == n - missing:
            flags.append("one value per record (identifier-like)")
        if distinct + (1 if missing else 0) <= 1:
            flags.append("constant")
        if missing == n:
            flags.append("missing in every record")
        kind = "text (a code with leading zeros)" if str(col) in codes else _kind(s)
        rows.append((str(col), ", ".join(role.get(col, ["other"])), kind, missing, distinct, "; ".join(flags)))
    return pd.DataFrame(rows, columns=["variable", "role", "kind", "read as missing", "distinct values", "flags"])


def _kind(s: pd.Series) -> str:
    if isinstance(s.dtype, pd.CategoricalDtype):
        return "categorical" + (" (ordered)" if s.cat.ordered else "")
    if pd.api.types.is_bool_dtype(s.dtype):
        return "true/false"
    if pd.api.types.is_integer_dtype(s.dtype):
        return "whole numbers"
    if pd.api.types.is_numeric_dtype(s.dtype):
        return "numbers"
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return "dates"
    return "text"


def _column_notes(cfg: RunConfig, columns: pd.DataFrame) -> list[str]:
    """What the flags of the input's columns mean for this assessment."""
    out = []
    keys = set(cfg.keys) | {k for s in cfg.scenarios for k in s.keys}
    for row in columns.itertuples(index=False):
        name = row.variable
        if "identifier-like" in row.flags and name != cfg.id:
            if name in keys and name not in cfg.bins:
                out.append(f"Key {name!r} has a different value in every record: every record is a sample unique "
                           f"on it; band it ([bins]) or leave it out of the keys.")
            elif name not in keys and name not in (cfg.weights, cfg.household) and name not in cfg.sensitive:
                out.append(f"Column {name!r} has a different value in every record (identifier-like): released as "
                           f"it is, it identifies every record.")
        if "constant" in row.flags and name in keys:
            out.append(f"Key {name!r} is constant: it distinguishes no record.")
    return out


def _skipped(cfg: RunConfig) -> tuple[tuple[str, str], ...]:
    """Measures asked for by name that could not run, with the reason."""
    out: dict[str, str] = {}
    for m in SCENARIO_MEASURES:
        if m.name in cfg.measures:
            why = m.skip_reason(cfg)
            if why and m.label not in out:
                out[m.label] = why
    if "inference" in cfg.measures and not cfg.sensitive:
        out["inference of sensitive values"] = "no sensitive variable is configured ([variables].sensitive)"
    return tuple(out.items())


def _few_levels(data: pd.DataFrame, cols: list[str], max_levels: int = 100) -> list[str]:
    return [c for c in cols if data[c].nunique(dropna=False) <= max_levels]


#: Random groups of the delete-a-group jackknife (fewer when there are fewer sampling units).
JACKKNIFE_GROUPS = 30


def _scenario(cfg: RunConfig, work: pd.DataFrame, sc: Scenario, opts: dict[str, Any], measures: set[str],
              progress: bool, notes: list[str] | None = None) -> ScenarioResult:
    thr = cfg.thresholds
    keys = list(sc.keys)
    kc = key_classes(work, keys)  # encoded once; every measure below reads it
    prof = k_anonymity(work, kc, k=thr.k, top=10, **opts)
    risk = individual_risk(work, kc, max_global_risk=thr.max_global_risk, **opts)
    intervals = {"reidentifications": reidentification_interval(risk)}
    if cfg.weights:
        units = int(work[cfg.household].nunique()) if cfg.household else len(work)
        groups = min(JACKKNIFE_GROUPS, units)
        if groups >= 2:
            intervals["expected_reidentifications"] = jackknife_interval(
                work, kc, weights=cfg.weights, household=cfg.household, groups=groups, rng=0, progress=progress)
        if groups < JACKKNIFE_GROUPS and notes is not None:
            what = "households" if cfg.household else "records"
            msg = (f"The sampling interval of the expected re-identifications uses {groups} jackknife groups "
                   f"(the data hold only {units} {what})." if groups >= 2 else
                   f"No sampling interval for the expected re-identifications: the data hold only {units} {what}.")
            if msg not in notes:
                notes.append(msg)
    ctx = Context(cfg=cfg, work=work, scenario=sc, key_classes=kc, opts=opts, progress=progress)
    kw: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for m in SCENARIO_MEASURES:
        if m.name in measures and m.wanted(cfg):
            res = m.run(ctx)
            if res is not None:
                (extra if m.extra else kw)[m.field] = res
    kc.release_frequencies()
    return ScenarioResult(scenario=sc, key_classes=kc, profile=prof, risk=risk, intervals=intervals, extra=extra, **kw)


def _small_counts(work: pd.DataFrame, keys: tuple[str, ...], below: int) -> pd.DataFrame:
    """Levels of each key variable held by fewer than `below` records (missing counted as a level)."""
    rows = []
    for k in dict.fromkeys(keys):
        counts = work[k].value_counts(dropna=False, sort=False)
        for level, n in counts.items():
            if n < below:
                rows.append((k, "missing" if pd.isna(level) else str(level), int(n)))
    df = pd.DataFrame(rows, columns=["variable", "level", "n_records"])
    return df.sort_values(["variable", "n_records", "level"], kind="stable").reset_index(drop=True)


def _verdicts(cfg: RunConfig, results: list[ScenarioResult], inference: dict[str, InferenceResult]) -> list[Verdict]:
    thr = cfg.thresholds
    out = []

    def add(sc: str, measure: str, stat: str, value: float, threshold: str, ok: bool | None,
            share: float | None = None) -> None:
        out.append(Verdict(sc, measure, stat, float(value) + 0.0, threshold,
                           "info" if ok is None else ("pass" if ok else "fail"),
                           None if share is None else float(share)))

    for r in results:
        n = r.scenario.name
        size = max(r.profile.n_records, 1)
        add(n, f"{thr.k}-anonymity", f"records in classes of fewer than {thr.k} records (fk < {thr.k})",
            r.profile.n_k_lt_threshold, "0", r.profile.n_k_lt_threshold == 0, r.profile.n_k_lt_threshold / size)
        above = r.risk.n_records_above(thr.risk)
        add(n, "individual risk", f"records with a re-identification risk above {thr.risk:g}", above, "0",
            above == 0, above / size)
        add(n, "global risk", "expected re-identifications as a share of the records", r.risk.global_risk,
            f"<= {thr.max_global_risk:g}", r.risk.global_risk <= thr.max_global_risk, r.risk.global_risk)
        for m in SCENARIO_MEASURES:
            res = m.result(r)
            if res is not None:
                for c in m.checks(cfg, res):
                    add(n, c.measure, c.statistic, c.value, c.threshold, c.ok, c.share)
    for s, inf in inference.items():
        det = inf.deterministic
        add(FILE_WIDE, f"inference ({s})", f"released variables or pairs of them that determine {s} exactly", len(det),
            "0", len(det) == 0)
    return out
