"""The protection log: what ``protection.json`` holds about a run (every step's parameters,
seed, what it changed and its details), made JSON-ready. Built from a computed run
(:meth:`sdc.workflow.protect.ProtectionRun.log`); shown by :mod:`sdc.report.protection_log`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sdc._version import __version__
from sdc.protect._result import CELLS_CHANGED

__all__ = ["protection_log", "LOG_SCHEMA_VERSION", "jsonable_details", "step_action"]

LOG_SCHEMA_VERSION = 1
#: Longer lists of values in a method's details are summarised in the log (min, median, max).
_LONG = 200


def _json(x: Any) -> Any:
    """JSON-ready (numbers unrounded; NaN and infinities as null; tables as columns + rows)."""
    if isinstance(x, pd.DataFrame):
        frame = x
        if not isinstance(x.index, pd.RangeIndex):
            frame = x.rename_axis(x.index.name or ("level" if "level" not in x.columns else "row")).reset_index()
        return {"columns": [str(c) for c in frame.columns],
                "rows": [[_json(v) for v in row] for row in frame.itertuples(index=False, name=None)]}
    if isinstance(x, pd.Series):
        return {str(k): _json(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return [_json(v) for v in x.tolist()]
    if isinstance(x, Mapping):
        return {str(k): _json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return [_json(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        return None if math.isnan(v) or math.isinf(v) else v
    if x is None or x is pd.NA or x is pd.NaT:
        return None
    if isinstance(x, (int, str)):
        return x
    return str(x)


def _per_record_summaries(details: Mapping[str, Any], n: int) -> dict[str, Any]:
    """Details with one value per record (a record's flag, its group) are counted, not logged:
    the log describes the protection, the released file holds the records."""
    out: dict[str, Any] = {}
    for k, v in details.items():
        if isinstance(v, Mapping):
            out[k] = _per_record_summaries(v, n)
        elif isinstance(v, (pd.Series, np.ndarray)) and v.ndim == 1 and len(v) == n and n > 20:
            arr = np.asarray(v)
            if arr.dtype == bool:
                out[k] = {"records_true": int(arr.sum()), "records_false": int((~arr).sum())}
            else:
                out[k] = f"one value per record ({n:,}); not in the log"
        elif isinstance(v, pd.DataFrame) and len(v) == n and n > 20:
            out[k] = f"one row per record ({n:,}); not in the log"
        elif isinstance(v, (pd.Series, np.ndarray)) and np.ndim(v) == 1 and len(v) > _LONG:
            arr = pd.to_numeric(pd.Series(np.asarray(v)), errors="coerce").to_numpy(dtype=float)
            out[k] = ({"values": int(len(arr)), "min": float(np.nanmin(arr)), "median": float(np.nanmedian(arr)),
                       "max": float(np.nanmax(arr))} if np.isfinite(arr).any()
                      else f"{len(arr):,} values; not in the log")
        else:
            out[k] = v
    return out


def _dropped(drop: Any) -> tuple[str, ...]:
    return (drop,) if isinstance(drop, str) else tuple(map(str, drop or ()))


def step_action(method: str, variables: Any, dropped: Any) -> str:
    """What a step did, in words: a pseudonymisation step that only drops columns is a drop
    ("drop household_id"), not "pseudonymise on -"; one that does both says both."""
    names = ", ".join(map(str, variables or ()))
    gone = ", ".join(_dropped(dropped))
    if gone and not names:
        return f"drop {gone}"
    done = f"{method} on {names}" if names else method
    return f"{done}; drop {gone}" if gone else done


def protection_log(run: Any) -> dict[str, Any]:
    """Every step of a run: its parameters (never a secret), seed, and what it changed."""
    steps = []
    for r in run.steps:
        res = r.result
        params = {k: v for k, v in r.step.parameters.items()}
        steps.append({
            "number": r.step.number,
            "method": r.step.method,
            "action": step_action(r.step.method, res.variables, r.step.parameters.get("drop")),
            "variables": list(res.variables),
            "columns_dropped": list(_dropped(r.step.parameters.get("drop"))),
            "parameters": _json(params),
            "method_parameters": _json(res.parameters),
            "seed": r.seed,
            "seed_source": r.seed_source,
            "records_before": r.records_before,
            "records_after": r.records_after,
            "records_dropped": r.records_dropped,
            "cells_changed": {str(k): int(v) for k, v in res.changed.items()},
            "cells_changed_total": int(res.changed.sum()),
            "details": _json(_per_record_summaries(dict(res.details), r.records_before)),
            "notes": list(r.notes),
        })
    total = run.cells_changed()
    prov = dict(run.provenance)
    return {
        "schema_version": LOG_SCHEMA_VERSION,
        "generator": f"sdc {__version__}",
        "generated_utc": prov.get("generated_utc", ""),
        "input": {"file": prov.get("input_file", "(a DataFrame)"), "sha256": prov.get("input_sha256"),
                  "records": run.records_in, "variables": len(run.original.columns),
                  **({"notes": list(prov["read_notes"])} if prov.get("read_notes") else {})},
        "released": {"records": run.records_out, "variables": len(run.released.columns),
                     "columns_dropped": [c for c in run.original.columns if c not in run.released.columns]},
        "plan": {"source": run.plan.source, "seed": run.plan.seed, "steps": len(run.plan.steps)},
        "steps": steps,
        "totals": {"cells_changed": {str(k): int(v) for k, v in total.items()},
                   "cells_changed_total": int(total.sum()),
                   "cells_changed_definition": CELLS_CHANGED if run.engine == "pandas" else
                   "cells changed: each step's count added up (on Dask the two files are not compared cell by cell)",
                   "records_dropped": run.records_dropped},
        "command": prov.get("command", ""),
        **({"engine": {"name": "dask", "partitions": prov.get("partitions"), "files": prov.get("input_files")},
            "assessment_on_dask": _json(run.dask_assessment)} if run.dask_assessment is not None
           or prov.get("engine") == "dask" else {}),
    }


jsonable_details = _json
