"""Plain-dict (JSON-ready) views of results: the CLI's ``--json`` output and report data.

Numbers stay unrounded; NaN becomes ``null``; numpy scalars become Python numbers.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from sdc.kanonymity import KAnonymityResult
from sdc.risk import IndividualRiskResult
from sdc.snapshots import SnapshotResult

__all__ = ["jsonable", "dumps", "risk_summary", "snapshot_records", "frame_records"]


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
