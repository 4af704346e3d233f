"""The JSON objects of the measures' results: what ``report.json`` holds per scenario and what
each single-measure command prints with ``--json``.

Each measure's entry in :mod:`sdc.workflow.registry` names its function here (the entry holds
the callable; nothing is chosen by name). Numbers stay unrounded; NaN becomes ``null``; numpy
scalars become Python numbers (:func:`sdc._json.jsonable`).
"""

from __future__ import annotations

from typing import Any

from sdc._json import frame_records, jsonable
from sdc._stats import summary_values
from sdc.attribute.closeness import TClosenessResult
from sdc.attribute.inference import InferenceResult
from sdc.attribute.ldiversity import LDiversityResult
from sdc.risk.attacker import AttackerRiskResult
from sdc.risk.household import HouseholdRiskResult
from sdc.risk.individual import IndividualRiskResult
from sdc.risk.kanonymity import KAnonymityResult
from sdc.risk.model import ModelRiskResult
from sdc.risk.snapshots import SnapshotResult
from sdc.risk.suda import SudaResult
from sdc.risk.uniqueness import PopulationUniquenessResult

__all__ = [
    "risk_summary", "snapshot_records", "snapshot_table", "ldiversity_summary", "tcloseness_summary",
    "tcloseness_summaries", "inference_records", "household_fields", "suda_summary", "modrisk_summary",
    "attacker_models", "uniqueness_with_attacker", "uniqueness_summary", "intervals_document",
]


def risk_summary(profile: KAnonymityResult, risk: IndividualRiskResult) -> dict[str, Any]:
    """The ``sdc risk --json`` object: the k-anonymity profile and the risk figures."""
    return jsonable({
        "n_records": profile.n_records,
        "keys": list(profile.keys),
        "weights": risk.weights,
        "missing": risk.missing,
        "alpha": risk.alpha,
        "method": risk.method,
        "threshold": profile.k,
        "n_classes": profile.n_classes,
        "n_unique": profile.n_unique,
        "pct_unique": profile.pct_unique,
        "n_k_lt_threshold": profile.n_k_lt_threshold,
        "pct_k_lt_threshold": profile.pct_k_lt_threshold,
        "n_k_le_threshold": profile.n_k_le_threshold,
        "pct_k_le_threshold": profile.pct_k_le_threshold,
        "min_k": profile.min_k,
        "median_k": profile.median_k,
        "global_risk": risk.global_risk,
        "global_risk_pct": risk.global_risk_pct,
        "expected_reidentifications": risk.expected_reidentifications,
        "max_risk": risk.max_risk,
        "max_global_risk": risk.max_global_risk,
        "global_threshold": risk.global_threshold,
        "n_higher_risk": risk.n_higher_risk(),
        "class_sizes": frame_records(profile.class_sizes),
        "riskiest_classes": frame_records(profile.riskiest_classes),
    })


def snapshot_records(snap: SnapshotResult) -> list[dict[str, Any]]:
    """The ``sdc snapshots --json`` list: one object per key subset, ``keys`` as a list."""
    rows = frame_records(snap.table)
    for r in rows:
        r["keys"] = list(r["keys"]) if isinstance(r["keys"], (list, tuple)) else [r["keys"]]
        r["threshold"] = snap.threshold
    return rows


def snapshot_table(snap: SnapshotResult) -> list[dict[str, Any]]:
    """The snapshots as report.json holds them: the table's rows."""
    return frame_records(snap.to_frame())


def ldiversity_summary(res: LDiversityResult, *, top: int = 10) -> dict[str, Any]:
    """The ``sdc ldiversity --json`` object: per sensitive variable, the figures below l."""
    per = {}
    for row in frame_records(res.by_sensitive):
        name = row.pop("sensitive")
        below = res.classes_below(name).head(top)
        cols = ["class", *res.keys, "n_records", f"{name}_distinct", f"{name}_dominant", f"{name}_dominant_share"]
        row["classes_below_l"] = frame_records(below[cols])
        per[name] = row
    doc = {
        "n_records": res.n_records, "n_classes": res.n_classes, "keys": list(res.keys),
        "sensitive": list(res.sensitive), "l": res.l, "c": res.c, "mode": res.mode,
        "binning": [b.to_dict() for b in res.binning], "by_sensitive": per,
    }
    # Each variable's object also sits at the top level under its name, unless that name
    # is one of the fields above.
    doc.update({k: v for k, v in per.items() if k not in doc})
    return jsonable(doc)


def tcloseness_summary(res: TClosenessResult, *, top: int = 10) -> dict[str, Any]:
    """The ``sdc tcloseness --json`` object."""
    above = res.classes_above().head(top)
    return jsonable({
        "n_records": res.n_records, "n_classes": res.n_classes, "keys": list(res.keys),
        "sensitive": res.sensitive, "distance": res.distance, "t": res.t, "max_t": res.max_t,
        "n_classes_above_t": res.n_classes_above_t, "n_records_above_t": res.n_records_above_t,
        "pct_records_above_t": res.pct_records_above_t,
        "binning": [b.to_dict() for b in res.binning],
        "classes_above_t": frame_records(above),
    })


def tcloseness_summaries(res: dict[str, TClosenessResult]) -> dict[str, Any]:
    """t-closeness of every sensitive variable, by name."""
    return {s: tcloseness_summary(tc) for s, tc in res.items()}


def inference_records(res: InferenceResult) -> list[dict[str, Any]]:
    """The ``sdc inference --json`` list of findings, most revealing first."""
    rows = frame_records(res.findings)
    for r in rows:
        r["variables"] = list(r["variables"])
    return rows


def household_fields(h: HouseholdRiskResult) -> dict[str, Any]:
    """The household figures ``sdc risk --household`` adds to its JSON."""
    return jsonable({
        "household": h.household, "n_households": h.n_households,
        "hier_risk": h.global_risk, "hier_risk_pct": h.global_risk_pct,
        "hier_expected_reidentifications": h.expected_reidentifications, "hier_max_risk": h.max_risk,
    })


def suda_summary(res: SudaResult) -> dict[str, Any]:
    """The ``sdc suda --json`` object."""
    return jsonable({
        "n_records": res.n_records, "keys": list(res.keys), "mode": res.mode, "max_size": res.max_size,
        "dis_fraction": res.dis_fraction, "original_scores": res.original_scores,
        "score_sum": res.score_sum, "score_max": res.score_max, "n_records_with_msu": res.n_records_with_msu,
        "dis_sum": res.dis_sum, "dis_max": res.dis_max,
        "attribute_contributions": {r["variable"]: r["contribution"] for r in frame_records(res.attribute_contributions)},
        "attribute_level_contributions": frame_records(res.attribute_level_contributions),
        "dis_table": frame_records(res.dis_table()),
    })


def modrisk_summary(res: ModelRiskResult) -> dict[str, Any]:
    """The ``sdc modrisk --json`` object."""
    return jsonable({
        "keys": list(res.keys), "method": res.method, "formula": res.formula, "bound": res.bound,
        "gr1": res.gr1, "gr2": res.gr2, "gr1perc": res.gr1perc, "gr2perc": res.gr2perc,
        "n_cells": len(res.cells), "n_cells_kept": res.n_cells_kept, "converged": res.converged,
    })


def attacker_models(res: AttackerRiskResult) -> dict[str, Any]:
    """Prosecutor, journalist and marketer figures, the threshold and where F_j came from."""
    doc = summary_values(res.summary())
    doc.update(threshold=res.threshold, population_source=res.population_source)
    return jsonable(doc)


def uniqueness_with_attacker(res: PopulationUniquenessResult | None, attacker: AttackerRiskResult | None
                             ) -> dict[str, Any]:
    """report.json's ``uniqueness``: the estimates when a population size was given, and the
    attacker models."""
    if res is None:
        return {"attacker_models": attacker_models(attacker)}
    return uniqueness_summary(res, attacker)


def uniqueness_summary(res: PopulationUniquenessResult, attacker: AttackerRiskResult | None = None,
                       interval: Any = None) -> dict[str, Any]:
    """The ``sdc uniqueness --json`` object: the four estimates, the chosen one, ARX-style risks."""
    doc = {
        "n_records": res.n_records, "keys": list(res.keys), "population_size": res.population_size,
        "sampling_fraction": res.sampling_fraction, "variant": res.variant,
        "n_classes": res.n_classes, "n_sample_uniques": res.n_sample_uniques,
        "sample_uniqueness": res.sample_uniqueness,
        "estimates": {m: {"population_uniques": getattr(res, m), "fraction": res.fraction(getattr(res, m)),
                          "note": res.note(m)}
                      for m in ("zayatz", "pitman", "snb")},
        "chosen": {"model": res.model, "population_uniques": res.chosen, "fraction": res.fraction_chosen},
        "pitman": {"theta": res.pitman_theta, "alpha": res.pitman_alpha},
        "snb": {"K": res.snb_k, "alpha": res.snb_alpha, "beta": res.snb_beta},
    }
    if attacker is not None:
        doc["attacker_models"] = attacker_models(attacker)
    if interval is not None:
        doc["interval"] = interval.to_dict()
    return jsonable(doc)


def intervals_document(intervals: dict[str, Any]) -> dict[str, Any]:
    """report.json's ``intervals``: each interval of the scenario as its dict."""
    return {k: iv.to_dict() for k, iv in intervals.items()}
