"""The k-anonymity profile and the individual risk of one set of keys, sharing the work.

``sdc risk`` reports both; they start from the same frequencies. :func:`profile_and_risk`
encodes the keys once (:func:`sdc.core.scenario.key_classes`) and passes the key classes to
:func:`~sdc.risk.kanonymity.k_anonymity` and :func:`~sdc.risk.individual.individual_risk`, so
the frequencies (with missing keys, sdcMicro's wildcard rule) are computed once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sdc.core.binning import BinSpec
from sdc.core.missing import missing_rule
from sdc.core.scenario import key_classes
from sdc.risk.individual import IndividualRiskResult, individual_risk
from sdc.risk.kanonymity import KAnonymityResult, k_anonymity

__all__ = ["profile_and_risk"]


def profile_and_risk(data: Any, keys: str | Sequence[str], *, k: int = 3, top: int = 10, weights: Any = None,
                     missing: Any = "wildcard", alpha: float = 1.0, method: str = "approx",
                     max_global_risk: float = 0.01, key_bins: Mapping[str, BinSpec] | None = None
                     ) -> tuple[KAnonymityResult, IndividualRiskResult]:
    """``k_anonymity(...)`` and ``individual_risk(...)`` of the same keys, the keys encoded and
    their frequencies counted once (the same results as the two calls). On every engine: a
    chunked file (:class:`sdc.core.stream.ChunkedFile`) makes its pattern table once for both."""
    opts = dict(weights=weights, missing=missing_rule(missing, alpha), method=method, key_bins=key_bins)
    shared: Any = keys
    if isinstance(data, pd.DataFrame) and not key_bins:
        shared = key_classes(data, keys)
    prof = k_anonymity(data, shared, k=k, top=top, **opts)
    risk = individual_risk(data, shared, max_global_risk=max_global_risk, **opts)
    return prof, risk
