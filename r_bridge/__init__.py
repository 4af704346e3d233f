"""r_bridge: R's sdcMicro called from Python through rpy2, for cross-validation.

Importing this package needs neither rpy2 nor R: R starts on the first call. Use
:func:`is_available` (and :func:`unavailable_reason`) to check, :func:`versions` for the R
and sdcMicro versions. R errors come back as :class:`RBridgeError` with R's message.
"""

from __future__ import annotations

from r_bridge._session import is_available, unavailable_reason, versions
from r_bridge.errors import RBridgeError, RBridgeUnavailableError
from r_bridge.sdcmicro import (
    DATASETS, FreqCalc, MeasureRisk, SdcObjRisk, Suda2, create_sdc_obj, freq_calc, indiv_risk, ldiversity,
    load_dataset, measure_risk, mod_risk, suda2,
)

__all__ = [
    "is_available", "unavailable_reason", "versions",
    "RBridgeError", "RBridgeUnavailableError",
    "freq_calc", "indiv_risk", "measure_risk", "create_sdc_obj", "ldiversity", "suda2", "mod_risk", "load_dataset",
    "DATASETS",
    "Suda2",
    "FreqCalc", "MeasureRisk", "SdcObjRisk",
]
