"""One-measure assessments: what the single-measure commands run (``sdc risk``, ``snapshots``,
``ldiversity``, ``tcloseness``, ``inference``, ``suda``, ``modrisk``, ``uniqueness`` and
``sdc example``).

Each runs one measure of the registry (:mod:`sdc.workflow.registry`) with the command's
options and returns a :class:`MeasureRun`: the measure's entry and result, the configuration
its presentation reads (the thresholds, the missing-value rule), the setup a reader needs, and
the JSON document the command prints with ``--json``. The report presents a run with the code
that presents the same measure in an assessment's report
(:func:`sdc.report.content.measure_run_report`), so the console and the report read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sdc.attribute.closeness import t_closeness
from sdc.attribute.inference import inference_risk
from sdc.attribute.ldiversity import l_diversity
from sdc.risk.attacker import attacker_risk
from sdc.risk.household import household_risk
from sdc.risk.model import model_risk
from sdc.risk.profile import profile_and_risk
from sdc.risk.snapshots import key_subset_snapshots
from sdc.risk.suda import suda
from sdc.risk.uncertainty import jackknife_interval
from sdc.risk.uniqueness import population_uniqueness
from sdc.workflow import documents as doc
from sdc.workflow.assess import ScenarioResult
from sdc.workflow.config import RunConfig, Scenario, Thresholds
from sdc.workflow.measure import Measure
from sdc.workflow.registry import measure_named

__all__ = ["MeasureRun", "Part", "risk_of", "run_risk", "run_snapshots", "run_ldiversity", "run_tcloseness",
           "run_inference", "run_suda", "run_modrisk", "run_uniqueness"]


@dataclass(frozen=True)
class Part:
    """One section of a run: a measure's entry, what its section shows, and the measures whose
    tables join it."""

    measure: Measure
    shown: Any
    joined: tuple[tuple[Measure, Any], ...] = ()


@dataclass(frozen=True)
class MeasureRun:
    """A one-measure assessment: its title, the configuration its presentation reads, the setup
    (rows of item and value), its sections, and the ``--json`` document."""

    title: str
    config: RunConfig
    setup: tuple[tuple[str, object], ...]
    parts: tuple[Part, ...]
    document: Any


def _entry(name: str, field: str | None = None) -> Measure:
    return next(m for m in measure_named(name) if field is None or m.field == field)


def _missing_text(missing: str, alpha: float) -> str:
    return missing + (f" (alpha = {alpha:g})" if missing == "wildcard" else "")


def _setup(source: str, n_records: int, keys: Sequence[str] | None, *rows: tuple[str, object]) -> tuple:
    head: list[tuple[str, object]] = [("data", source), ("records", n_records)]
    if keys is not None:
        head.append(("key variables", ", ".join(keys)))
    return tuple(head + list(rows))


def risk_of(prof: Any, risk: Any, household: Any = None, *, source: str) -> MeasureRun:
    """The run of ``sdc risk``, from its k-anonymity profile and risk (and the household risk)."""
    cfg = RunConfig(categorical_keys=tuple(prof.keys), weights=risk.weights, missing=risk.missing, alpha=risk.alpha,
                    household=household.household if household is not None else None,
                    thresholds=Thresholds(k=prof.k, max_global_risk=risk.max_global_risk), source="flags")
    r = ScenarioResult(scenario=Scenario("keys", tuple(prof.keys)), profile=prof, risk=risk, household=household)
    document = doc.risk_summary(prof, risk)
    if household is not None:
        document.update(doc.household_fields(household))
    setup = _setup(source, prof.n_records, prof.keys, ("weights", risk.weights or "none (the data are the population)"),
                   ("missing key values", _missing_text(risk.missing, risk.alpha)))
    k_entry, risk_entry = _entry("k_anonymity"), _entry("risk")
    return MeasureRun(f"Re-identification risk: {source}", cfg, setup,
                      (Part(k_entry, prof), Part(risk_entry, risk_entry.shown(r))), document)


def run_risk(data: pd.DataFrame, keys: Sequence[str], *, k: int, top: int, max_global_risk: float,
             household: str | None = None, source: str, **opts: Any) -> MeasureRun:
    """``sdc risk``: the k-anonymity profile and the risk (the keys encoded once), and the
    household risk when a household column is given."""
    prof, risk = profile_and_risk(data, keys, k=k, top=top, max_global_risk=max_global_risk, **opts)
    hh = household_risk(data, keys, household, **opts) if household else None
    return risk_of(prof, risk, hh, source=source)


def run_snapshots(data: pd.DataFrame, keys: Sequence[str], *, k: int, source: str, **kw: Any) -> MeasureRun:
    """``sdc snapshots``: the risk over subsets of the keys."""
    snap = key_subset_snapshots(data, keys, threshold=k, **kw)
    cfg = RunConfig(categorical_keys=tuple(keys), weights=snap.weights, missing=snap.missing, alpha=snap.alpha,
                    thresholds=Thresholds(k=k), source="flags")
    setup = _setup(source, snap.n_records, keys, ("weights", snap.weights or "none (the data are the population)"),
                   ("missing key values", _missing_text(snap.missing, snap.alpha)))
    return MeasureRun(f"Risk by subset of the key variables: {source}", cfg, setup,
                      (Part(_entry("snapshots"), snap),), doc.snapshot_records(snap))


def run_ldiversity(data: pd.DataFrame, keys: Sequence[str], sensitive: Sequence[str], *, l: int, c: float, mode: str,
                   key_bins: Mapping[str, Any] | None, sensitive_bins: Mapping[str, Any] | None,
                   source: str) -> MeasureRun:
    """``sdc ldiversity``: distinct, entropy and recursive l-diversity of the sensitive variables."""
    res = l_diversity(data, keys, sensitive, l=l, c=c, mode=mode, key_bins=key_bins, sensitive_bins=sensitive_bins)
    entry = _entry("ldiversity")
    cfg = RunConfig(categorical_keys=tuple(res.keys), sensitive=tuple(res.sensitive), ldiversity_mode=mode,
                    sensitive_bins=dict(sensitive_bins or {}), thresholds=Thresholds(l=l, c=c), source="flags")
    setup = _setup(source, res.n_records, res.keys, ("equivalence classes", res.n_classes),
                   ("threshold l / recursive c", f"{l} / {c:g}"),
                   *((f"{b.column} binned ({b.method})", ", ".join(b.labels)) for b in res.binning))
    return MeasureRun(f"l-diversity: {source}", cfg, setup, (Part(entry, res),), entry.json(res))


def run_tcloseness(data: pd.DataFrame, keys: Sequence[str], sensitive: str, *, distance: str, t: float,
                   key_bins: Mapping[str, Any] | None, source: str) -> MeasureRun:
    """``sdc tcloseness``: the distance of each class's sensitive distribution to the file's."""
    res = t_closeness(data, keys, sensitive, distance=distance, t=t, key_bins=key_bins)
    cfg = RunConfig(categorical_keys=tuple(res.keys), sensitive=(sensitive,), distance=distance,
                    thresholds=Thresholds(t=t), source="flags")
    setup = _setup(source, res.n_records, res.keys, ("equivalence classes", res.n_classes),
                   *((f"{b.column} binned ({b.method})", ", ".join(b.labels)) for b in res.binning))
    return MeasureRun(f"t-closeness: {source}", cfg, setup, (Part(_entry("tcloseness"), {sensitive: res}),),
                      doc.tcloseness_summary(res))


def run_inference(data: pd.DataFrame, sensitive: str, *, source: str, **kw: Any) -> MeasureRun:
    """``sdc inference``: the variables and pairs that reveal a sensitive variable."""
    res = inference_risk(data, sensitive, **kw)
    cfg = RunConfig(sensitive=(sensitive,), thresholds=Thresholds(min_posterior=res.min_posterior), source="flags")
    setup = _setup(source, res.n_records, None, ("sensitive variable", sensitive),
                   ("entropy H(S), bits", res.entropy),
                   ("levels ignored", f"those with fewer than {res.min_count} records (sample uniques)"),
                   *((("skipped (more than the maximum number of levels)", ", ".join(res.skipped)),)
                     if res.skipped else ()))
    return MeasureRun(f"Inference of {sensitive!r}: {source}", cfg, setup,
                      (Part(_entry("inference"), {sensitive: res}),), doc.inference_records(res))


def run_suda(data: pd.DataFrame, keys: Sequence[str], *, source: str, **kw: Any) -> MeasureRun:
    """``sdc suda``: SUDA2 and DIS-SUDA scores and the keys' contributions."""
    res = suda(data, keys, **kw)
    entry = _entry("suda")
    setup = _setup(source, res.n_records, res.keys, ("weights", "Elliot (M - k)!" if res.original_scores else "IHSN"),
                   ("largest MSU size searched", res.max_size))
    return MeasureRun(f"SUDA2: {source}", RunConfig(categorical_keys=tuple(res.keys), suda_mode=res.mode,
                                                     source="flags"), setup, (Part(entry, res),), entry.json(res))


def run_modrisk(data: pd.DataFrame, keys: Sequence[str], *, source: str, **kw: Any) -> MeasureRun:
    """``sdc modrisk``: sdcMicro's log-linear model risk."""
    res = model_risk(data, keys, **kw)
    entry = _entry("modrisk")
    setup = _setup(source, len(data), res.keys, ("cells in the table / kept", f"{len(res.cells):,} / "
                                                                              f"{res.n_cells_kept:,}"),
                   ("converged", "yes" if res.converged else "NO"))
    return MeasureRun(f"Model-based (log-linear) risk: {source}", RunConfig(categorical_keys=tuple(res.keys),
                                                                           source="flags"),
                      setup, (Part(entry, res),), entry.json(res))


def run_uniqueness(data: pd.DataFrame, keys: Sequence[str], *, population_size: int | None,
                   sampling_fraction: float | None, variant: str, threshold: float, weights: str | None,
                   interval: bool, progress: bool, key_bins: Mapping[str, Any] | None, source: str) -> MeasureRun:
    """``sdc uniqueness``: the population-uniqueness estimates, the attacker models and, asked
    for, a jackknife interval of the estimate."""
    res = population_uniqueness(data, keys, population_size=population_size, sampling_fraction=sampling_fraction,
                                variant=variant, key_bins=key_bins)
    att = attacker_risk(data, keys, threshold=threshold, weights=weights, key_bins=key_bins)
    iv = jackknife_interval(data, keys, statistic="population_uniques", population_size=res.population_size,
                            progress=progress, key_bins=key_bins) if interval else None
    cfg = RunConfig(categorical_keys=tuple(res.keys), weights=weights, population_size=res.population_size,
                    thresholds=Thresholds(risk=threshold), source="flags")
    rows: list[tuple[str, object]] = [("equivalence classes", res.n_classes), ("sample uniques", res.n_sample_uniques)]
    if iv is not None:
        rows.append((f"{iv.level:.0%} interval of the population uniques ({iv.method})",
                     f"{iv.lower:,.1f} to {iv.upper:,.1f}"))
    return MeasureRun(f"Population uniqueness: {source}", cfg, _setup(source, res.n_records, res.keys, *rows),
                      (Part(_entry("uniqueness", "uniqueness"), res, ((_entry("uniqueness", "attacker"), att),)),),
                      doc.uniqueness_summary(res, att, iv))


def run_example(data: pd.DataFrame, keys: Sequence[str], *, k: int, source: str, **opts: Any) -> MeasureRun:
    """``sdc example``: the risk of the bundled example and its snapshots over the key subsets."""
    prof, risk = profile_and_risk(data, keys, k=k, **opts)
    snap = key_subset_snapshots(data, keys, threshold=k, **opts)
    run = risk_of(prof, risk, source=source)
    return MeasureRun(run.title, run.config, run.setup, (*run.parts, Part(_entry("snapshots"), snap)),
                      {"risk": run.document, "snapshots": doc.snapshot_records(snap)})
