"""The assessment configuration of a protection run: how the plan's data file is read
(:func:`plan_read_settings`) and how the original and the released file are assessed
(:func:`assessment_config`), from a config file, the plan's sections or the command-line flags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from sdc.workflow.config import ConfigError, RunConfig, from_mapping, load_config
from sdc.workflow.plan import Plan, method_table

__all__ = ["plan_read_settings", "assessment_config"]


def plan_read_settings(plan: Plan, *, config: str | Path | None = None) -> dict[str, Any]:
    """How a plan's data file is read: the keyword arguments of :func:`sdc.io.read_data`
    (``sep``, ``na_values``, ``text_columns``, ``sheet``) that the ``[data]`` section of
    `config` (a file; default the plan's ``[plan].config``) gives, with the plan's own
    ``[data]`` section over them. Only those given; validated as in a config file, but
    without the rest of the configuration (the data are read before it is needed, and also
    when nothing is assessed)."""
    from sdc.workflow.config import file_read_settings, read_settings

    file = config if config is not None else plan.config_path
    settings = file_read_settings(file) if file is not None else {}
    try:
        settings.update(read_settings(plan.assessment.get("data", {})))
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("config ", "plan ", 1)) from None
    return settings


def assessment_config(plan: Plan, *, config: RunConfig | str | Path | None = None,
                      overrides: Mapping[str, Any] | None = None, data_path: str | None = None) -> RunConfig | None:
    """The configuration the original and the released file are assessed with.

    In order: `config` (a RunConfig, or a file); the plan's ``[plan].config`` file; the
    assessment sections the plan carries; `overrides` alone (sections of keys, as from
    command-line flags, e.g. ``{"variables": {"categorical_keys": [...]}}``), which also
    replace the chosen configuration's values key by key. With none of them, the keys of the
    plan's steps that treat keys (local suppression; if any) are the keys; else None (no re-assessment).
    """
    overrides = {k: v for k, v in (overrides or {}).items() if v}
    path = data_path or "(data)"
    if isinstance(config, RunConfig):
        cfg = config
        if overrides:
            raise ValueError("give overrides with a config file, not with a RunConfig.")
        return replace(cfg, data_path=data_path or cfg.data_path)
    file = config if config is not None else plan.config_path
    ov = {**overrides, "data": {**dict(overrides.get("data", {})), "path": path}}
    if file is not None:
        return replace(load_config(file, ov), data_path=data_path)
    raw: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in plan.assessment.items()}
    if not raw and not (set(overrides) - {"data", "output"}):
        table = method_table()
        keys = [k for s in plan.steps if table[s.method].variables_param == "keys" for k in s.variables()]
        if not keys:
            return None
        raw["variables"] = {"categorical_keys": list(dict.fromkeys(keys))}
    for sec, items in ov.items():
        if sec == "scenarios":
            raw["scenarios"] = items
            continue
        body = raw.get(sec, {})
        raw[sec] = {**(dict(body) if isinstance(body, Mapping) else {}), **items}
    try:
        cfg = from_mapping(raw, source=plan.source if plan.assessment else "flags")
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("config ", "plan ", 1)) from None
    return replace(cfg, data_path=data_path)
