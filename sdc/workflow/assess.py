"""One assessment run: every configured measure, for every key scenario, on one dataset.

:func:`assess` reads the data (or joins its domains), bins continuous keys, and computes,
per scenario, the k-anonymity profile, individual and global risk, household risk,
snapshots over key subsets, l-diversity and t-closeness of the sensitive variables, SUDA2
and population uniqueness; then inference of each sensitive variable and the small-count
levels of each key. The result, an :class:`Assessment`, is what the report renders.
"""

from __future__ import annotations

import hashlib
import platform
import warnings
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_columns
from sdc._version import __version__
from sdc.attribute.closeness import TClosenessResult
from sdc.attribute.inference import InferenceResult, inference_risk
from sdc.attribute.ldiversity import LDiversityResult
from sdc.core.binning import Binning, apply_binning
from sdc.core.scenario import KeyClasses, key_classes
from sdc.exceptions import SdcWarning
from sdc.io import read_data
from sdc.risk.attacker import AttackerRiskResult
from sdc.risk.household import HouseholdRiskResult
from sdc.risk.individual import IndividualRiskResult, individual_risk
from sdc.risk.kanonymity import KAnonymityResult, k_anonymity
from sdc.risk.snapshots import SnapshotResult
from sdc.risk.suda import SudaResult
from sdc.risk.uncertainty import Interval, jackknife_interval, reidentification_interval
from sdc.risk.uniqueness import PopulationUniquenessResult
from sdc.workflow.config import RunConfig, Scenario
from sdc.workflow.registry import SCENARIO_MEASURES, Context

__all__ = ["Assessment", "ScenarioResult", "assess", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """Whether a measure passes its threshold (``"pass"``, ``"fail"`` or ``"info"``)."""

    scenario: str
    measure: str
    statistic: str
    value: float
    threshold: str
    verdict: str


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

    @property
    def primary(self) -> ScenarioResult:
        return self.scenarios[0]


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


def load_input(cfg: RunConfig) -> tuple[pd.DataFrame, list[str]]:
    """The data of a run and the files it came from."""
    if cfg.domains:
        from sdc.workflow.combine import combine_domains

        df = combine_domains(cfg.domains, cfg.subject_id or "", long=cfg.long_domains, value_column=cfg.value_column,
                             sep=cfg.sep)
        return df, list(cfg.domains.values())
    if cfg.data_path is None:
        raise ValueError("the run has no data: give a data file (DATA or [data].path).")
    return read_data(cfg.data_path, sep=cfg.sep), [cfg.data_path]


def assess(
    cfg: RunConfig,
    data: pd.DataFrame | None = None,
    *,
    command: str = "",
    progress: bool = False,
    cross_check: bool = False,
    now: datetime | None = None,
) -> Assessment:
    """Run every configured measure (see :mod:`sdc.workflow.config`) and collect the results.

    Parameters
    ----------
    cfg : RunConfig
    data : pandas.DataFrame, optional
        The data; by default read from the config's file(s).
    command : str
        The command line, for the provenance record.
    progress : bool
        Show progress bars for the long steps.
    cross_check : bool
        Also compute the risk measures through sdcMicro (r_bridge) and add the agreement table.
    """
    files: list[str] = []
    if data is None:
        data, files = load_input(cfg)
    _check_roles(cfg, data)
    work, binning = apply_binning(data, {k: v for k, v in cfg.bins.items()})
    thr = cfg.thresholds
    measures = set(cfg.measures)
    notes: list[str] = []
    unbinned = [k for k in cfg.continuous_keys if k not in cfg.bins]
    if unbinned:
        notes.append(f"continuous key(s) {', '.join(unbinned)} assessed on their raw values (no bins configured).")
    opts = {"weights": cfg.weights, "missing": cfg.missing, "alpha": cfg.alpha}
    results = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SdcWarning)
        for sc in cfg.all_scenarios:
            results.append(_scenario(cfg, work, sc, opts, measures, progress))
        inference = {}
        if "inference" in measures:
            exclude = {c for c in (cfg.id, cfg.weights, cfg.household) if c}
            for s in cfg.sensitive:
                cands = [c for c in work.columns if c not in exclude and c != s]
                inference[s] = inference_risk(work, s, candidates=_few_levels(work, cands),
                                              min_posterior=thr.min_posterior)
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
        notes=tuple(notes),
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


def _few_levels(data: pd.DataFrame, cols: list[str], max_levels: int = 100) -> list[str]:
    return [c for c in cols if data[c].nunique(dropna=False) <= max_levels]


def _scenario(cfg: RunConfig, work: pd.DataFrame, sc: Scenario, opts: dict[str, Any], measures: set[str],
              progress: bool) -> ScenarioResult:
    thr = cfg.thresholds
    keys = list(sc.keys)
    kc = key_classes(work, keys)  # encoded once; every measure below reads it
    prof = k_anonymity(work, kc, k=thr.k, top=10, **opts)
    risk = individual_risk(work, kc, max_global_risk=thr.max_global_risk, **opts)
    intervals = {"reidentifications": reidentification_interval(risk)}
    if cfg.weights:
        intervals["expected_reidentifications"] = jackknife_interval(
            work, kc, weights=cfg.weights, household=cfg.household, groups=30, rng=0, progress=progress)
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

    def add(sc: str, measure: str, stat: str, value: float, threshold: str, ok: bool | None) -> None:
        out.append(Verdict(sc, measure, stat, float(value), threshold,
                           "info" if ok is None else ("pass" if ok else "fail")))

    for r in results:
        n = r.scenario.name
        add(n, f"{thr.k}-anonymity", "records with fk < k", r.profile.n_k_lt_threshold, "0",
            r.profile.n_k_lt_threshold == 0)
        above = int(r.risk.records_above(thr.risk).sum())
        add(n, "individual risk", f"records with risk > {thr.risk:g}", above, "0", above == 0)
        add(n, "global risk", "expected re-identifications / n", r.risk.global_risk, f"<= {thr.max_global_risk:g}",
            r.risk.global_risk <= thr.max_global_risk)
        for m in SCENARIO_MEASURES:
            res = m.result(r)
            if res is not None:
                for c in m.checks(cfg, res):
                    add(n, c.measure, c.statistic, c.value, c.threshold, c.ok)
    for s, inf in inference.items():
        det = inf.deterministic
        add("all", f"inference ({s})", "variables or pairs that determine it", len(det), "0", len(det) == 0)
    return out
