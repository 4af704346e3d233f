"""The roles an assessment configuration already sets, as overrides for ``sdc identify``.

Re-running the identification on a file whose configuration a steward has already edited
keeps their decisions: every key variable (categorical, continuous, or in a scenario) is a
quasi-identifier, every sensitive variable sensitive, and the id, weights and household
columns keep those uses.
"""

from __future__ import annotations

from sdc.workflow.config import RunConfig

__all__ = ["roles_from_config"]


def roles_from_config(cfg: RunConfig) -> dict[str, str]:
    """Column -> role (``quasi-identifier``, ``sensitive``, ``id``, ``weights``, ``household``)."""
    roles: dict[str, str] = {}
    for k in cfg.keys + tuple(k for s in cfg.scenarios for k in s.keys):
        roles.setdefault(k, "quasi-identifier")
    for s in cfg.sensitive:
        roles[s] = "sensitive"
    for use, col in (("id", cfg.id), ("weights", cfg.weights), ("household", cfg.household)):
        if col:
            roles[col] = use
    return roles
