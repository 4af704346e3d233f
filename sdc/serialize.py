"""Plain-dict (JSON-ready) views of results: the CLI's ``--json`` output and report data.

Numbers stay unrounded; NaN becomes ``null``; numpy scalars become Python numbers.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from sdc.closeness import TClosenessResult
from sdc.inference import InferenceResult
from sdc.kanonymity import KAnonymityResult
from sdc.ldiversity import LDiversityResult
from sdc.risk import IndividualRiskResult
from sdc.snapshots import SnapshotResult

__all__ = [
    "jsonable", "dumps", "risk_summary", "snapshot_records", "frame_records", "ldiversity_summary",
    "tcloseness_summary", "inference_records",
]


def jsonable(x: Any) -> Any:
    """Convert numpy/pandas scalars and containers to JSON-ready Python objects."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        return None if math.isnan(v) or math.isinf(v) else v
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, (int, str)):
        return x
    return str(x)


def dumps(obj: Any) -> str:
    return json.dumps(jsonable(obj), indent=2, ensure_ascii=False, allow_nan=False)


def frame_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A DataFrame as a list of row objects (missing values as null)."""
    return [jsonable(dict(zip(df.columns, row))) for row in df.itertuples(index=False, name=None)]


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


def inference_records(res: InferenceResult) -> list[dict[str, Any]]:
    """The ``sdc inference --json`` list of findings, most revealing first."""
    rows = frame_records(res.findings)
    for r in rows:
        r["variables"] = list(r["variables"])
    return rows
