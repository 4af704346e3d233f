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
from sdc._process import keep_freed_memory
from sdc.workflow.assess import Assessment, assess
from sdc.risk.attacker import AttackerRiskResult, attacker_risk
from sdc.core.binning import Binning, bin_column
from sdc.attribute.closeness import (
    BetaLikenessResult, DeltaDisclosureResult, TClosenessResult, beta_likeness, delta_disclosure, t_closeness,
)
from sdc.workflow.combine import combine_domains
from sdc.workflow.engine import read_dask
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
from sdc.risk.streamed import read_chunks
from sdc.core.missing import MissingRule
from sdc.risk.risky_cells import RiskyCellsResult, risky_cells
from sdc.risk.suda import SudaResult, suda
from sdc.risk.uncertainty import Interval, jackknife_interval, reidentification_interval
from sdc.core.scenario import KeyClasses, key_classes
from sdc.risk.uniqueness import PopulationUniquenessResult, population_uniqueness
from sdc.utility import (
    AssociationResult, DiscernibilityResult, EigenSimilarityResult, IL1sResult, InformationLossResult, MarginalResult,
    NonUniformEntropyResult, SuppressionResult, UtilitySummary, ValidityResult, analysis_validity, association_change,
    discernibility, eigen_similarity, il1s, information_loss, marginal_change, non_uniform_entropy, suppression,
    utility_summary,
)
from sdc.attacks import (  # noqa: E402
    AnonymeterResult, DistanceRiskResult, LinkageResult, RecordLinkageResult, RmdRiskResult, SkewnessResult,
    distance_risk, distance_risk_rmd, draw_external, inference_attack, linkability_attack, linkage_attack,
    record_linkage, simulate_linkage_attack, singling_out_attack, skewness_attack, split_control,
)
from sdc.identify import GDistinctResult, IdentificationResult, SafeHarborChecklist, g_distinct, identify, safe_harbor
from sdc.identify.search import GeneralisationResult, generalisation_search
from sdc.identify.qi_search import SubsetSearchResult, qi_dimension_search, transformation_search
from sdc.identify.hierarchy import (
    Hierarchy, date_hierarchy, interval_hierarchy, mapping_hierarchy, prefix_hierarchy, read_hierarchy,
)
from sdc.protect._result import ProtectionResult
from sdc.protect.noise import add_noise
from sdc.protect.pram import pram
from sdc.protect.pseudonym import pseudonymise
from sdc.protect.recode import global_recode, top_bottom_code
from sdc.protect.topcode_mv import mv_top_code
from sdc.protect.swap import rank_swap
from sdc.protect.shuffling import shuffle
from sdc.protect.suppression import local_suppression
from sdc.protect.suppression_risk import local_suppression_by_risk
from sdc.protect.ghost import add_ghost_vars
from sdc.protect.microaggregation import microaggregation
from sdc.report import write_report  # noqa: E402  (after the measures it renders)
from sdc.workflow.compare import Comparison, compare  # noqa: E402
from sdc.workflow.protect import ProtectionRun, protect_data  # noqa: E402
from sdc.workflow.sweep import SweepResult, sweep  # noqa: E402
from sdc.report.compare import write_comparison  # noqa: E402
from sdc.report.protection import write_protection  # noqa: E402
from sdc.report.sweep import write_sweep  # noqa: E402


__all__ = [
    "__version__",
    "frequencies", "FrequencyResult", "key_classes", "KeyClasses",
    "k_anonymity", "KAnonymityResult",
    "individual_risk", "IndividualRiskResult",
    "key_subset_snapshots", "SnapshotResult",
    "l_diversity", "LDiversityResult",
    "t_closeness", "TClosenessResult", "beta_likeness", "BetaLikenessResult",
    "delta_disclosure", "DeltaDisclosureResult",
    "inference_risk", "InferenceResult", "homogeneity", "HomogeneityResult",
    "bin_column", "Binning",
    "household_risk", "HouseholdRiskResult", "suda", "SudaResult", "risky_cells", "RiskyCellsResult", "model_risk", "ModelRiskResult",
    "attacker_risk", "AttackerRiskResult", "population_uniqueness", "PopulationUniquenessResult",
    "reidentification_interval", "jackknife_interval", "Interval",
    "assess", "Assessment", "load_config", "RunConfig", "ConfigError", "write_report", "combine_domains",
    "load_example", "read_dask", "read_chunks", "MissingRule",
    "protect_data", "ProtectionRun", "write_protection", "compare", "Comparison", "write_comparison",
    "sweep", "SweepResult", "write_sweep",
    "global_recode", "top_bottom_code", "mv_top_code", "pram", "add_noise", "rank_swap", "shuffle", "pseudonymise", "ProtectionResult",
    "local_suppression", "local_suppression_by_risk", "add_ghost_vars", "microaggregation",
    "identify", "IdentificationResult", "g_distinct", "GDistinctResult", "safe_harbor", "SafeHarborChecklist",
    "generalisation_search", "GeneralisationResult", "qi_dimension_search", "transformation_search",
    "SubsetSearchResult", "Hierarchy", "read_hierarchy", "interval_hierarchy", "prefix_hierarchy", "date_hierarchy",
    "mapping_hierarchy",
    "information_loss", "InformationLossResult", "il1s", "IL1sResult", "eigen_similarity", "EigenSimilarityResult",
    "non_uniform_entropy", "NonUniformEntropyResult", "discernibility", "DiscernibilityResult",
    "suppression", "SuppressionResult", "association_change", "AssociationResult", "marginal_change", "MarginalResult",
    "analysis_validity", "ValidityResult", "utility_summary", "UtilitySummary",
    "linkage_attack", "simulate_linkage_attack", "draw_external", "LinkageResult",
    "distance_risk", "DistanceRiskResult", "distance_risk_rmd", "RmdRiskResult", "record_linkage", "RecordLinkageResult",
    "singling_out_attack", "linkability_attack", "inference_attack", "split_control", "AnonymeterResult",
    "skewness_attack", "SkewnessResult",
    "SdcWarning", "DegenerateDataWarning", "DataFileError", "keep_freed_memory",
]

# Notebooks show results as small HTML tables (sdc.report.notebook): every public result class.
from sdc.report.notebook import install_html_reprs as _install_html_reprs  # noqa: E402

_install_html_reprs(v for k, v in list(globals().items())
                    if k in __all__ and isinstance(v, type) and not issubclass(v, BaseException)
                    and (k.endswith(("Result", "Run", "Checklist", "Summary")) or k in ("Assessment", "Interval",
                                                                                         "Comparison")))
