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

from sdc._interrupt import quiet_interrupt_while_importing as _quiet_interrupt

_quiet_interrupt()  # the command line: Ctrl-C during the imports exits 130 with one line (sdc/_interrupt.py)

import sys  # noqa: E402
import types  # noqa: E402

from sdc._version import __version__

#: The package face: (module, names) in the order they load. Nothing loads on ``import sdc``
#: (``sdc --version`` starts without pandas, numpy or scipy); the first name asked for loads
#: them all, in this order, and gives the public result classes their HTML view.
_FACE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("sdc._process", ("keep_freed_memory",)),
    ("sdc.workflow.assess", ("Assessment", "assess")),
    ("sdc.risk.attacker", ("AttackerRiskResult", "attacker_risk")),
    ("sdc.core.binning", ("Binning", "bin_column")),
    ("sdc.attribute.closeness", (
        "BetaLikenessResult", "DeltaDisclosureResult", "TClosenessResult", "beta_likeness", "delta_disclosure",
        "t_closeness",
    )),
    ("sdc.attribute.tree_closeness", ("hierarchical_t_closeness",)),
    ("sdc.workflow.combine", ("combine_domains",)),
    ("sdc.workflow.engine", ("read_dask",)),
    ("sdc.workflow.config", ("ConfigError", "RunConfig", "load_config")),
    ("sdc.datasets", ("load_example",)),
    ("sdc.exceptions", ("DataFileError", "DegenerateDataWarning", "SdcWarning")),
    ("sdc.core.frequencies", ("FrequencyResult", "frequencies")),
    ("sdc.risk.household", ("HouseholdRiskResult", "household_risk")),
    ("sdc.attribute.inference", ("HomogeneityResult", "InferenceResult", "homogeneity", "inference_risk")),
    ("sdc.risk.kanonymity", ("KAnonymityResult", "k_anonymity")),
    ("sdc.attribute.ldiversity", ("LDiversityResult", "l_diversity")),
    ("sdc.risk.model", ("ModelRiskResult", "model_risk")),
    ("sdc.risk.individual", ("IndividualRiskResult", "individual_risk")),
    ("sdc.risk.snapshots", ("SnapshotResult", "key_subset_snapshots")),
    ("sdc.risk.streamed", ("read_chunks",)),
    ("sdc.core.missing", ("MissingRule",)),
    ("sdc.risk.risky_cells", ("RiskyCellsResult", "risky_cells")),
    ("sdc.risk.suda", ("SudaResult", "suda")),
    ("sdc.risk.uncertainty", ("Interval", "jackknife_interval", "reidentification_interval")),
    ("sdc.core.scenario", ("KeyClasses", "key_classes")),
    ("sdc.risk.uniqueness", ("PopulationUniquenessResult", "population_uniqueness")),
    ("sdc.risk.presence", ("DeltaPresenceResult", "delta_presence")),
    ("sdc.utility", (
        "AIScoreResult", "ai_utility_score", "AssociationResult", "DiscernibilityResult", "EigenSimilarityResult", "IL1sResult", "ILCorrelResult", "ILVariablesResult",
        "InfoLossResult", "InformationLossResult", "MarginalResult", "NonUniformEntropyResult", "RobustEigenResult",
        "SuppressionResult", "UtilitySummary", "ValidityResult", "analysis_validity", "association_change", "discernibility",
        "eigen_similarity", "il1s", "il_correl", "il_variables", "info_loss", "information_loss", "marginal_change",
        "non_uniform_entropy", "robust_eigen_loss", "suppression", "utility_summary", "SSESSTResult", "sse_sst",
    )),
    ("sdc.attacks", (
        "AnonymeterResult", "DistanceRiskResult", "LinkageResult", "RecordLinkageResult", "RmdRiskResult",
        "SkewnessResult", "distance_risk", "distance_risk_rmd", "draw_external", "inference_attack",
        "linkability_attack", "linkage_attack", "record_linkage", "simulate_linkage_attack", "singling_out_attack",
        "skewness_attack", "split_control",
    )),
    ("sdc.identify", (
        "GDistinctResult", "IdentificationResult", "SafeHarborChecklist", "g_distinct", "identify", "safe_harbor",
        "safe_harbor_release",
    )),
    ("sdc.identify.search", ("GeneralisationResult", "generalisation_search")),
    ("sdc.identify.combinations", ("CombinationResult", "quasi_identifier_risks")),
    ("sdc.protect.transformation", ("apply_transformation",)),
    ("sdc.identify.qi_search", ("SubsetSearchResult", "qi_dimension_search", "transformation_search")),
    ("sdc.identify.hierarchy", (
        "Hierarchy", "date_hierarchy", "interval_hierarchy", "mapping_hierarchy", "prefix_hierarchy", "read_hierarchy",
    )),
    ("sdc.protect._result", ("ProtectionResult",)),
    ("sdc.protect.noise", ("add_noise",)),
    ("sdc.protect.pram", ("pram",)),
    ("sdc.protect.pseudonym", ("pseudonymise",)),
    ("sdc.protect.redact", ("redact",)),
    ("sdc.protect.recode", ("global_recode", "top_bottom_code")),
    ("sdc.protect.topcode_mv", ("mv_top_code",)),
    ("sdc.protect.recode_local", ("local_recoding",)),
    ("sdc.protect.shuffling", ("shuffle",)),
    ("sdc.protect.ghost", ("add_ghost_vars",)),
    ("sdc.protect.swap", ("rank_swap",)),
    ("sdc.protect.record_swap", ("record_swap",)),
    ("sdc.protect.suppression", ("local_suppression",)),
    ("sdc.protect.suppression_risk", ("local_suppression_by_risk",)),
    ("sdc.protect.microaggregation", ("microaggregation",)),
    ("sdc.protect.microaggregation_gower", ("microaggregation_gower", "gower_distance")),
    ("sdc.report", ("write_report",)),
    ("sdc.workflow.compare", ("Comparison", "compare")),
    ("sdc.workflow.protect", ("ProtectionRun", "protect_data")),
    ("sdc.workflow.sweep", ("SweepResult", "sweep")),
    ("sdc.workflow.advise", ("AdviceResult", "advise")),
    ("sdc.report.compare", ("write_comparison",)),
    ("sdc.report.protection", ("write_protection",)),
    ("sdc.report.sweep", ("write_sweep",)),
)

#: Submodules reachable as attributes without an import (``sdc.plot.risk_distribution``).
_SUBMODULES = ("plot",)

#: The public names: the version and every name of the face, declared once above.
__all__ = ["__version__", *(name for _, names in _FACE for name in names)]


def _load() -> None:
    """Import the face's modules, bind their names here, give the result classes (those with a
    ``summary()``) and the report folders their HTML view and short repr."""
    import importlib

    face = {}
    for module, names in _FACE:
        m = importlib.import_module(module)
        face.update({n: getattr(m, n) for n in names})
    globals().update(face)
    # Notebooks show results as small HTML tables (sdc.report.notebook): every public result class.
    from sdc.report.notebook import install_folder_reprs, install_html_reprs

    install_html_reprs(v for v in face.values()
                       if isinstance(v, type) and not issubclass(v, BaseException) and callable(getattr(v, "summary", None)))
    install_folder_reprs()


class _Face(types.ModuleType):
    """The package: a face name loads the face on first use (PEP 562), and the ``identify``
    subpackage, once imported, does not take the name of the :func:`identify` function."""

    def __getattr__(self, name: str):  # noqa: ANN204
        if name in _SUBMODULES:
            import importlib

            return importlib.import_module(f"{__name__}.{name}")
        if name in __all__ and name not in globals():
            _load()
            return globals()[name]
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __setattr__(self, name: str, value: object) -> None:
        if name in __all__ and isinstance(value, types.ModuleType):
            return  # a subpackage named like a face function (identify): the function keeps the name
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))


sys.modules[__name__].__class__ = _Face
