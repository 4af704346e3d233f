"""r_bridge: R's sdcMicro called from Python through rpy2, for cross-validation.

Importing this package needs neither rpy2 nor R: R starts on the first call. Use
:func:`is_available` (and :func:`unavailable_reason`) to check, :func:`versions` for the R
and sdcMicro versions. R errors come back as :class:`RBridgeError` with R's message.
"""

from __future__ import annotations

from ._session import is_available, unavailable_reason, versions
from .convert import to_r
from .errors import RBridgeError, RBridgeUnavailableError
from .sdcmicro import (
    DATASETS, FreqCalc, MeasureRisk, SdcObjRisk, Suda2, create_sdc_obj, freq_calc, indiv_risk, ldiversity,
    load_dataset, measure_risk, mod_risk, suda2,
)
from .protection import (
    AddNoise, Pram, PramDraws, PramStrata, add_noise, global_recode, group_and_rename, hmac_sha256, pram, pram_draws,
    pram_strata, pram_with_matrix, rank_swap, top_bot_coding, MicroCase, MicroOut, microaggregation_batch,
    time_microaggregation_method,
)
from .utility import (
    DUTILITY_METHODS, MlodakCase, ai_utility_score, MlodakOut, SdcObjUtility, d_utility, d_utility_all, mlodak_batch, sdc_obj_utility,
)
from .models import RFit, actg175, coxph_breslow, glm_poisson, survival_available
from .attacks import d_risk, d_risk_rmd, record_linkage
from .parity import MvTopCoding, NoiseDraws, Shuffle, add_noise_draws, ghost_vars, lm_fitted, microaggregation_measure, microaggregation_clust, cluster_partition, mafast, mv_top_coding, shuffle
from .suppression import (
    LocalSuppression, local_suppression, local_suppression_sdcobj, local_supp, risky_cells, microaggregation, time_local_suppression,
    time_microaggregation,
)

__all__ = [
    "RFit", "glm_poisson", "coxph_breslow", "survival_available", "actg175",
    "is_available", "unavailable_reason", "versions", "to_r",
    "RBridgeError", "RBridgeUnavailableError",
    "freq_calc", "indiv_risk", "measure_risk", "create_sdc_obj", "ldiversity", "suda2", "mod_risk", "load_dataset",
    "DATASETS",
    "Suda2",
    "FreqCalc", "MeasureRisk", "SdcObjRisk",
    "global_recode", "group_and_rename", "top_bot_coding", "pram", "pram_draws", "pram_with_matrix", "pram_strata", "add_noise",
    "rank_swap", "hmac_sha256", "Pram", "PramDraws", "PramStrata", "AddNoise",
    "d_utility", "d_utility_all", "sdc_obj_utility", "SdcObjUtility", "DUTILITY_METHODS", "ai_utility_score",
    "mlodak_batch", "MlodakCase", "MlodakOut",
    "d_risk", "d_risk_rmd", "record_linkage",
    "local_suppression", "local_suppression_sdcobj", "local_supp", "risky_cells", "microaggregation", "LocalSuppression",
    "time_local_suppression", "time_microaggregation",
    "mv_top_coding", "MvTopCoding", "shuffle", "Shuffle", "lm_fitted", "add_noise_draws", "NoiseDraws", "ghost_vars", "microaggregation_measure", "microaggregation_clust", "cluster_partition", "mafast",
]
