"""sdc: statistical disclosure control for microdata.

Re-identification risk (frequencies, k-anonymity, individual, global and household risk,
snapshots over key subsets, SUDA2, log-linear model risk, prosecutor/journalist/marketer
risk, population uniqueness, intervals), attribute disclosure (l-diversity, t-closeness,
beta-likeness, delta-disclosure, inference of sensitive values), computed natively with
pandas/numpy/scipy/statsmodels and cross-validated against R's sdcMicro through
:mod:`r_bridge`; and the audited run over all of them (:func:`assess`, :func:`write_report`,
``sdc assess``).
"""

from __future__ import annotations

from sdc._version import __version__
from sdc.workflow.assess import Assessment, assess
from sdc.risk.attacker import AttackerRiskResult, attacker_risk
from sdc.core.binning import Binning, bin_column
from sdc.attribute.closeness import (
    BetaLikenessResult, DeltaDisclosureResult, TClosenessResult, beta_likeness, delta_disclosure, t_closeness,
)
from sdc.workflow.combine import combine_domains
from sdc.workflow.config import ConfigError, RunConfig, load_config
from sdc.datasets import load_example
from sdc.exceptions import DataFileError, DegenerateDataWarning, SdcWarning
from sdc.core.frequencies import FrequencyResult, frequencies
from sdc.risk.household import HouseholdRiskResult, household_risk
from sdc.attribute.inference import HomogeneityResult, InferenceResult, homogeneity, inference_risk
from sdc.risk.kanonymity import KAnonymityResult, k_anonymity
from sdc.attribute.ldiversity import LDiversityResult, l_diversity
from sdc.risk.model import ModelRiskResult, model_risk
from sdc.risk.individual import IndividualRiskResult, individual_risk
from sdc.risk.snapshots import SnapshotResult, key_subset_snapshots
from sdc.risk.suda import SudaResult, suda
from sdc.risk.uncertainty import Interval, jackknife_interval, reidentification_interval
from sdc.risk.uniqueness import PopulationUniquenessResult, population_uniqueness
from sdc.report import write_report  # noqa: E402  (after the measures it renders)


__all__ = [
    "__version__",
    "frequencies", "FrequencyResult",
    "k_anonymity", "KAnonymityResult",
    "individual_risk", "IndividualRiskResult",
    "key_subset_snapshots", "SnapshotResult",
    "l_diversity", "LDiversityResult",
    "t_closeness", "TClosenessResult", "beta_likeness", "BetaLikenessResult",
    "delta_disclosure", "DeltaDisclosureResult",
    "inference_risk", "InferenceResult", "homogeneity", "HomogeneityResult",
    "bin_column", "Binning",
    "household_risk", "HouseholdRiskResult", "suda", "SudaResult", "model_risk", "ModelRiskResult",
    "attacker_risk", "AttackerRiskResult", "population_uniqueness", "PopulationUniquenessResult",
    "reidentification_interval", "jackknife_interval", "Interval",
    "assess", "Assessment", "load_config", "RunConfig", "ConfigError", "write_report", "combine_domains",
    "load_example",
    "SdcWarning", "DegenerateDataWarning", "DataFileError",
]
