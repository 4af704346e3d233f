"""The sweep of ``sdc app``'s Compare page: one step of the plan run at several values of one of
its parameters, each setting's risk and utility, and the risk-utility plane the page draws
(a point per setting, its details on hover, the settings no other beats on both axes ringed).

The sweep is :func:`sdc.workflow.sweep.sweep` on the plan as it stands, with a ``grid`` on the
chosen step (``sdc sweep``'s "separate" mode: the other steps as they are, that step at each
value), its risk over the roles' keys (categorical and continuous, as the released file holds
them) with the k, the weights and the missing-value rule of the Identify page; so the numbers are ``sdc sweep``'s on the same plan, which the answer carries
(``plan_toml``: ``sdc sweep DATA --plan sweep.toml`` reruns it to the same table).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from sdc.app.session import AppError, AppSession
from sdc.app.tables import frame_json

__all__ = ["sweep_axes", "sweep_plan", "sweep_step"]


def sweep_axes() -> dict[str, Any]:
    """The axes the page offers: the risk figures (lower is safer) and the utility figures, each
    with its label (the registry's, as the sweep's pages word it)."""
    from sdc.report.sweep import axis_label
    from sdc.workflow.sweep import RISK_AXES, UTILITY_AXES

    return {"risk": [[a, axis_label(a)] for a in RISK_AXES if "[" not in a],
            "utility": [[a, axis_label(a)] for a in UTILITY_AXES], "default_risk": "global_risk",
            "default_utility": "il1_overall"}


def sweep_plan(session: AppSession, index: Any, parameter: Any, values: Any, risk_axis: Any = None,
               utility_axis: Any = None) -> dict[str, Any]:
    """The sweep plan (the mapping a ``sdc sweep`` plan file holds) of step `index` over `values`
    of `parameter`, with the session's roles; refused in one line when a piece is missing."""
    steps = copy.deepcopy(session.state.steps)
    if not steps:
        raise AppError("the plan has no step yet: add one on the Protect page, then sweep one of its parameters.")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(steps):
        raise AppError(f"sweep: step {index!r} does not exist (the plan has {len(steps)}).")
    if not isinstance(parameter, str) or not parameter.strip():
        raise AppError("sweep: name the parameter to vary (e.g. k of local_suppression).")
    if not isinstance(values, list) or not values:
        raise AppError(f"sweep: give the values of `{parameter}` to try, separated by commas (e.g. 2, 3, 4, 5).")
    step = steps[index]
    step.pop(parameter, None)
    step["grid"] = {parameter: values}
    cfg = session._config()
    section: dict[str, Any] = {"k": int(cfg.thresholds.k or 3), "missing": cfg.missing, "alpha": cfg.alpha}
    if cfg.keys:  # continuous keys as the released file holds them (a recode step bands them), as sdc sweep counts
        section["keys"] = list(cfg.keys)
    if cfg.weights:
        section["weights"] = cfg.weights
    for name, axis in (("risk_axis", risk_axis), ("utility_axis", utility_axis)):
        if axis not in (None, ""):
            section[name] = axis
    return {"sweep": section, "plan": {"seed": session.state.seed}, "steps": steps}


def sweep_step(session: AppSession, index: Any, parameter: Any, values: Any, risk_axis: Any = None,
               utility_axis: Any = None) -> dict[str, Any]:
    """Sweep step `index` over `values` of `parameter`: the summary, the table of settings and
    the plane's points (x: the risk axis, y: the utility axis)."""
    from sdc._stages import listener, stage
    from sdc.workflow.config import ConfigError
    from sdc.workflow.plan import PlanError, plan_from_mapping
    from sdc.workflow.sweep import sweep

    data = session.need_data()
    raw = sweep_plan(session, index, parameter, values, risk_axis, utility_axis)
    stage(f"{len(values)} settings of step {index + 1}'s {parameter} on {len(data):,} records")
    try:
        plan = plan_from_mapping(raw, source="sdc app", sweep=True)
        result = sweep(data, plan, progress=listener() is not None, command="sdc app")
    except (PlanError, ConfigError, ValueError, TypeError) as exc:
        raise AppError(" ".join(str(exc).split())) from None
    return _sweep_json(result)


def _sweep_json(result: Any) -> dict[str, Any]:
    from sdc.report.sweep import axis_label, column_label
    from sdc.workflow.sweep import sweep_plan_toml

    t = result.table
    x, y = result.risk_axis, result.utility_axis
    cols = list(dict.fromkeys(["setting", "label", x, y, "non_dominated"]))
    shown = t[cols].rename(columns={c: column_label(c, result.k) for c in cols})
    points = [{"setting": int(r["setting"]), "label": str(r["label"]), "x": _number(r[x]), "y": _number(r[y]),
               "non_dominated": bool(r["non_dominated"])} for r in t[cols].to_dict("records")]
    return {"summary": frame_json(result.summary()), "table": frame_json(shown), "plan_toml": sweep_plan_toml(result),
            "plane": {"x": x, "y": y, "x_label": axis_label(x, result.k) + " (lower is safer)",
                      "y_label": axis_label(y), "higher_is_better": bool(result.higher_is_better),
                      "points": points}}


def _number(v: Any) -> float | None:
    """A coordinate for JSON: a float, or None where the figure is not defined (not drawn)."""
    f = float(v)
    return f if math.isfinite(f) else None
