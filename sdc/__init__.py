"""sdc: statistical disclosure control for microdata.

Re-identification risk (frequencies, k-anonymity, individual and global risk, snapshots over
key subsets) and attribute disclosure (l-diversity, t-closeness, beta-likeness,
delta-disclosure, inference of sensitive values), computed natively with pandas/numpy and
cross-validated against R's sdcMicro through :mod:`r_bridge`.
"""

from __future__ import annotations

from sdc.binning import Binning, bin_column
from sdc.closeness import (
    BetaLikenessResult, DeltaDisclosureResult, TClosenessResult, beta_likeness, delta_disclosure, t_closeness,
)
from sdc.datasets import load_example
from sdc.exceptions import DataFileError, DegenerateDataWarning, SdcWarning
from sdc.frequencies import FrequencyResult, frequencies
from sdc.inference import HomogeneityResult, InferenceResult, homogeneity, inference_risk
from sdc.kanonymity import KAnonymityResult, k_anonymity
from sdc.ldiversity import LDiversityResult, l_diversity
from sdc.risk import IndividualRiskResult, individual_risk
from sdc.snapshots import SnapshotResult, key_subset_snapshots

__version__ = "0.1.0"

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
    "load_example",
    "SdcWarning", "DegenerateDataWarning", "DataFileError",
]
