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

import warnings
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.attribute.closeness import TClosenessResult
from sdc.attribute.inference import InferenceResult
from sdc.attribute.ldiversity import LDiversityResult
from sdc.core.binning import Binning
from sdc.core.engine import engine_of
from sdc.core.keys import text_categorical
from sdc.core.scenario import KeyClasses
from sdc.core.shared import shared_codes
from sdc.exceptions import SdcWarning, SearchTooLargeError
from sdc.core.prepare import attach_weights
from sdc._stages import stage
from sdc.io import ReadDetails
from sdc.risk.attacker import AttackerRiskResult
from sdc.risk.household import HouseholdRiskResult
from sdc.risk.individual import IndividualRiskResult
from sdc.risk.kanonymity import KAnonymityResult
from sdc.risk.snapshots import SnapshotResult
from sdc.risk.suda import SudaResult
from sdc.risk.uncertainty import Interval
from sdc.risk.uniqueness import PopulationUniquenessResult
from sdc.workflow.config import FILE_WIDE, RunConfig, Scenario, from_mapping, from_options, load_config
from sdc.workflow.assess_input import IN_MEMORY, load_input  # noqa: F401 - load_input: re-exported
from sdc.workflow.engine import back_end, not_run
from sdc.workflow.measure import Check, Context
from sdc.workflow.registry import ALL_MEASURES, FILE_MEASURES, JACKKNIFE_GROUPS

__all__ = ["Assessment", "ScenarioResult", "assess", "Verdict", "measure_scenario", "JACKKNIFE_GROUPS"]


@dataclass(frozen=True)
class Verdict:
    """Whether a measure passes its threshold (``"pass"``, ``"fail"`` or ``"info"``).

    ``share`` is the share of the records (or of the population) the statistic concerns,
    when it has one: the executive summary ranks the failing measures by it. ``unit`` is the
    value's unit as the registry declares it (``"count"``, ``"share"``, ...:
    :data:`sdc.workflow.measure.UNITS`).
    """

    scenario: str
    measure: str
    statistic: str
    value: float
    threshold: str
    verdict: str
    share: float | None = None
    unit: str = "count"


@dataclass(frozen=True)
class ScenarioResult:
    """The measures of one key scenario."""

    scenario: Scenario
    profile: KAnonymityResult
    risk: IndividualRiskResult
    key_classes: KeyClasses | None = field(default=None, repr=False)  # None: not kept (a one-measure run)
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
    engine: str = "pandas"                                           # where it ran (sdc.workflow.engine)
    not_run: tuple[tuple[str, str], ...] = ()                        # (measure, why) configured, not run there
    proxies: Any = None                                              # ProxyResult, when "proxies" is run

    @property
    def primary(self) -> ScenarioResult:
        return self.scenarios[0]

    def sensitive_band(self, sensitive: str) -> np.ndarray | None:
        """The band of each record's value of `sensitive` (the bins l-diversity counted), as
        text (None where missing); None when the variable was not banded."""
        for r in self.scenarios:
            for b in r.ldiversity.binning if r.ldiversity is not None else ():
                if b.column == sensitive:  # [a, b) but the last bin, which takes its right edge
                    edges = np.asarray(b.edges, dtype=float)
                    v = pd.to_numeric(self.data[sensitive], errors="coerce").to_numpy(dtype=float)
                    codes = np.searchsorted(edges, v, side="right") - 1
                    codes = np.where(v == edges[-1], len(b.labels) - 1, codes)
                    ok = ~np.isnan(v) & (codes >= 0) & (codes < len(b.labels))
                    labels = np.asarray(b.labels, dtype=object)
                    return np.where(ok, labels[np.clip(codes, 0, len(b.labels) - 1)], None)
        return None

    def file_column(self, name: str, *, assessed: bool = False) -> np.ndarray | pd.Categorical:
        """Column `name` of the data as read (`assessed`: after binning) as the per-record files
        hold it: a text column as a categorical of the same values
        (:func:`sdc.core.keys.text_categorical`; each distinct text is then formatted and made
        spreadsheet-safe once, and a record's value takes a code, not a pointer), any other
        column as its array."""
        s = (self.assessed if assessed else self.data)[name]
        cat = text_categorical(s)
        return s.to_numpy() if cat is None else cat

    def to_frame(self) -> pd.DataFrame:
        """The verdicts, one row per measure and scenario: ``scenario``, ``measure``,
        ``statistic``, ``value``, ``threshold``, ``verdict`` (pass, fail, info), ``share``, ``unit``."""
        return pd.DataFrame([v.__dict__ for v in self.verdicts],
                            columns=["scenario", "measure", "statistic", "value", "threshold", "verdict", "share",
                                     "unit"])

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
        if isinstance(source, pd.DataFrame) or engine_of(source) != "pandas":
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
    if data is not None and not isinstance(data, pd.DataFrame) and engine_of(data) == "pandas":
        raise TypeError(f"`data` must be a pandas DataFrame; got {type(data).__name__}.")
    return cfg, data, None


def _run_measures(cfg: RunConfig, work: pd.DataFrame, back: Any, progress: bool, notes: list[str]
                  ) -> tuple[list[ScenarioResult], dict[str, Any], dict[str, str]]:
    """Every scenario's measures and the file-wide ones; their warnings join `notes`. Returns
    the scenario results, the file-wide results and the measures that could not run (why)."""
    results = []
    not_computed: dict[str, str] = {}  # measures that could not run on these data, with the reason
    # The measures only read `work`: each column is encoded once for all of them (sdc.core.shared).
    with warnings.catch_warnings(record=True) as caught, shared_codes():
        warnings.simplefilter("always", SdcWarning)
        for sc in cfg.all_scenarios:
            results.append(measure_scenario(work, cfg, sc, progress=progress, notes=notes, back=back,
                                            not_computed=not_computed))
        file_wide = _file_measures(cfg, work, progress, back)
    for w in caught:
        msg = " ".join(str(w.message).split())
        if msg not in notes:
            notes.append(msg)
    return results, file_wide, not_computed


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
    engine: str | None = None,
    chunk_rows: int | None = None,
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
    engine : {"pandas", "dask", "chunks"}, optional
        Where the measures run (:mod:`sdc.workflow.engine`); default: the engine of the data
        (a Dask DataFrame, a file of :func:`sdc.read_chunks`), else pandas in memory. The
        configured measures that cannot run there are listed in ``not_run``.
    chunk_rows : int, optional
        With ``engine="chunks"`` and the data read from the configuration's file: the records
        read at a time (default ``sdc.io.CHUNK_ROWS``; ``sdc assess --chunks ROWS``).
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
    back = back_end(engine, data, cross_check=cross_check, chunk_rows=chunk_rows)  # IN_MEMORY (below), Dask or chunks
    files: list[str] = []
    details: ReadDetails | None = None
    if data is None:
        data, files, details = back.load(cfg)
    if weight_series is not None:
        data, wname = attach_weights(data, weight_series)
        cfg = replace(cfg, weights=wname)
    back.check_roles(cfg, data)
    work, binning = back.binned(cfg, data)
    thr = cfg.thresholds
    columns = back.columns(cfg, data, details)
    notes = _input_notes(cfg, data, details, columns)
    results, file_wide, not_computed = _run_measures(cfg, work, back, progress, notes)
    inference = file_wide.get("inference", {})
    result = Assessment(
        config=cfg, data=data, assessed=work, binning=binning, scenarios=tuple(results), inference=inference,
        small_counts=back.small_counts(work, cfg.keys or tuple(k for s in cfg.all_scenarios for k in s.keys),
                                       thr.small_count or thr.k),
        verdicts=tuple(_verdicts(cfg, results, {**file_wide, "inference": inference})),
        provenance=back.provenance(cfg, data, files, command, now),
        notes=tuple(notes), columns=columns, read=details, skipped=_skipped(cfg) + tuple(not_computed.items()),
        engine=back.name, not_run=not_run(cfg, back), proxies=file_wide.get("proxies"),
    )
    if cross_check:
        from sdc.workflow.crosscheck import cross_check as run_cross_check

        table, r_versions = run_cross_check(result, progress)
        result = replace(result, cross_check=table, provenance={**result.provenance, "r_versions": r_versions})
    return result


def _input_notes(cfg: RunConfig, data: pd.DataFrame, details: ReadDetails | None,
                 columns: pd.DataFrame | None) -> list[str]:
    """What the reading and the input's columns tell the reader before any measure."""
    notes: list[str] = list(details.notes()) if details is not None else []
    # Numbers without bins: each raw value is a class. (A text column, such as the bands of a
    # released file's recoded key, is counted by its values, which is no news.)
    unbinned = [k for k in cfg.continuous_keys if k not in cfg.bins and k in data.columns
                and pd.api.types.is_numeric_dtype(data[k].dtype) and not pd.api.types.is_bool_dtype(data[k].dtype)]
    if unbinned:
        notes.append(f"continuous key(s) {', '.join(unbinned)} assessed on their raw values (no bins configured).")
    return notes + (_column_notes(cfg, columns) if columns is not None else [])  # None: out of memory


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
    for m in (*ALL_MEASURES, *FILE_MEASURES):
        if m.name in cfg.measures:
            why = m.skip_reason(cfg)
            if why and m.label not in out:
                out[m.label] = why
    return tuple(out.items())


def measure_scenario(work: pd.DataFrame, cfg: RunConfig, sc: Scenario, *, names: Collection[str] | None = None,
                     progress: bool = False, tables: bool = True, notes: list[str] | None = None,
                     back: Any = None, not_computed: dict[str, str] | None = None) -> ScenarioResult:
    """The measures of one scenario on `work`: those of the registry the configuration asks for
    (and the core ones), or with `names` just those (``("k_anonymity", "risk")``: a sweep's).

    The keys are encoded once (:func:`sdc.core.scenario.key_classes`) and every measure reads
    them; what a measure has to tell the reader is added to `notes`, and a measure intractable
    on these data (:class:`~sdc.exceptions.SearchTooLargeError`) to `not_computed` with the reason
    (without `not_computed` it raises).
    """
    back = back or IN_MEMORY
    # The records are counted in memory only (len() of a Dask frame or a chunked file would be a pass).
    over = f" over {len(work):,} records" if getattr(back, "in_memory", False) else ""
    stage(f"frequencies of {len(sc.keys)} keys{over}" + ("" if len(cfg.all_scenarios) == 1 else f" (scenario {sc.name})"))
    kc = back.key_classes(work, list(sc.keys))  # encoded once; every measure below reads it
    opts = {"weights": cfg.weights, "missing": cfg.missing, "alpha": cfg.alpha}
    ctx = Context(cfg=cfg, work=work, scenario=sc, key_classes=kc, opts=opts, progress=progress, tables=tables)
    asked = set(cfg.measures) if names is None else set(names)
    for m in ALL_MEASURES:
        if (m.name in asked or (m.always and names is None)) and m.wanted(cfg) and back.runs(m) is None:
            stage(m.label)
            try:
                res = m.run(ctx)
            except SearchTooLargeError as exc:  # intractable on these data: said, the other measures still run
                if not_computed is None:
                    raise
                label = m.label if len(cfg.all_scenarios) == 1 else f"{m.label} (scenario {sc.name})"
                not_computed[label] = (f"{exc.reason}; assess fewer keys (a scenario of fewer keys), or search "
                                       f"MSUs of up to {max(exc.searched, 1)} keys with sdc suda --max-size "
                                       f"{max(exc.searched, 1)}")
                continue
            if res is not None:
                ctx.done[m.field] = res
    back.release(kc)
    if notes is not None:
        notes.extend(n for n in ctx.notes if n not in notes)
    done = ctx.done
    extra = {m.field: done.pop(m.field) for m in ALL_MEASURES if m.extra and m.field in done}
    return ScenarioResult(scenario=sc, key_classes=kc, extra=extra, **done)


def _file_measures(cfg: RunConfig, work: pd.DataFrame, progress: bool, back: Any = None) -> dict[str, Any]:
    """The results of the file-wide measures the configuration asks for, by field."""
    ctx = Context(cfg=cfg, work=work, scenario=None, key_classes=None, opts={}, progress=progress)
    out = {}
    for m in FILE_MEASURES:
        if m.name in cfg.measures and m.wanted(cfg) and (back or IN_MEMORY).runs(m) is None:
            stage(m.label)
            res = m.run(ctx)
            if res is not None:
                out[m.field] = res
    return out


def _verdicts(cfg: RunConfig, results: list[ScenarioResult], file_wide: dict[str, Any]) -> list[Verdict]:
    """Every measure's verdicts, scenario by scenario, then the file-wide ones."""
    out = []

    def add(sc: str, c: Check) -> None:
        out.append(Verdict(sc, c.measure, c.statistic, float(c.value) + 0.0, c.threshold,
                           "info" if c.ok is None else ("pass" if c.ok else "fail"),
                           None if c.share is None else float(c.share), c.unit))

    for r in results:
        for m in ALL_MEASURES:
            res = m.result(r)
            if res is not None:
                for c in m.checks(cfg, res):
                    add(r.scenario.name, c)
    for m in FILE_MEASURES:
        if file_wide.get(m.field):
            for c in m.checks(cfg, file_wide[m.field]):
                add(FILE_WIDE, c)
    return out
