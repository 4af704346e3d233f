"""Identification: which columns are direct identifiers, quasi-identifiers, sensitive or other.

Before any measure, a steward decides each column's role. This wing suggests them, with the
reasons: a column profile (one value per record, constant, near-constant, mostly missing;
:mod:`~sdc.identify.profile`), the 18 HIPAA Safe Harbor categories by name and value patterns
(:mod:`~sdc.identify.hipaa`), the g-distinct classification of Mansour et al. (2021) as used
by Khan et al. (2025) (:mod:`~sdc.identify.gdistinct`), and the weighing of all of them
(:mod:`~sdc.identify.roles`), which also writes a starter configuration for ``sdc assess``
(:mod:`~sdc.identify.starter`), and the Safe Harbor preset (:mod:`~sdc.identify.harbor`), a
protection method built on :mod:`sdc.protect`.
"""

from __future__ import annotations

from sdc.identify.gdistinct import GDistinctResult, g_distinct
from sdc.identify.harbor import safe_harbor_release
from sdc.identify.hipaa import SafeHarborChecklist, safe_harbor
from sdc.identify.profile import ProfileResult, profile_columns
from sdc.identify.roles import ColumnRole, IdentificationResult, identify

__all__ = ["identify", "IdentificationResult", "ColumnRole", "g_distinct", "GDistinctResult", "safe_harbor",
           "SafeHarborChecklist", "profile_columns", "ProfileResult", "safe_harbor_release", "protection_methods"]


def protection_methods() -> dict:
    """The protection methods this wing declares (:func:`sdc.protect.info_of`): the Safe Harbor
    preset, which a plan names as ``method = "safe_harbor_release"``."""
    from sdc.protect import info_of

    return {i.name: i for i in (info_of(safe_harbor_release),) if i is not None}
