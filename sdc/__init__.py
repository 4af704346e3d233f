"""sdc: statistical disclosure control for microdata.

Re-identification risk (frequencies, k-anonymity, individual and global risk, snapshots over
key subsets), computed natively with pandas/numpy and cross-validated against R's sdcMicro
through :mod:`r_bridge`.
"""

from __future__ import annotations

from sdc.datasets import load_example
from sdc.exceptions import DataFileError, DegenerateDataWarning, SdcWarning
from sdc.frequencies import FrequencyResult, frequencies
from sdc.kanonymity import KAnonymityResult, k_anonymity
from sdc.risk import IndividualRiskResult, individual_risk
from sdc.snapshots import SnapshotResult, key_subset_snapshots

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "frequencies", "FrequencyResult",
    "k_anonymity", "KAnonymityResult",
    "individual_risk", "IndividualRiskResult",
    "key_subset_snapshots", "SnapshotResult",
    "load_example",
    "SdcWarning", "DegenerateDataWarning", "DataFileError",
]
