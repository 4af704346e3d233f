"""Who reads a report: ``internal`` (the steward and auditors: everything, seeds, plan,
provenance) or ``external`` (data users: what was done and what it costs; no seed, no secret,
no per-record risk file, no command line to rerun the protection).

The SDC Practice Guide: the parameters that let one undo a perturbation (the seeds of random
steps) are never given to data users. An external report is the internal one with these left
out -- presentation only: nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sdc.report.content import Section

__all__ = ["AUDIENCES", "audience_section", "external_log", "check_audience", "SECRET_FIELDS"]

AUDIENCES = ("internal", "external")

#: Fields left out of every mapping of an external report (at any depth): the seeds, how they
#: were drawn, the pseudonymisation key's source, and the command line (it may hold --seed).
SECRET_FIELDS = frozenset({"seed", "seed_source", "seeds", "key", "key_file", "key_env", "key_source",
                           "key_fingerprint", "secret", "command",
                           "plan_toml"})

_LINES = {
    "internal": "Audience: internal (steward and auditors): every step with its seed, the plan and the provenance. "
                "Not for data users: give them the external report (--audience external).",
    "external": "Audience: external (data users): what was done and what it costs. No seed, no secret and no "
                "per-record risk is in this report.",
}


def check_audience(audience: str) -> str:
    """`audience` if it is one of :data:`AUDIENCES`, else a ValueError naming them."""
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r}; allowed: {', '.join(AUDIENCES)}.")
    return audience


def audience_section(audience: str) -> Section:
    """The line at the top of every page: which audience the report is for."""
    return Section("audience", "Audience", [_LINES[check_audience(audience)]])


def external_log(value: Any) -> Any:
    """`value` (a protection log, or any part of one) without :data:`SECRET_FIELDS`, at any depth."""
    if isinstance(value, Mapping):
        return {k: external_log(v) for k, v in value.items() if str(k).lower() not in SECRET_FIELDS}
    if isinstance(value, (list, tuple)):
        return [external_log(v) for v in value]
    return value
