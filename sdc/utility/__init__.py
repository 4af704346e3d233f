"""Utility measures: what protection costs, comparing the original file with the released one.

Every function takes the original first, then the released file (records matched by
index), then the variables, and returns a frozen result with ``to_frame()`` and
``summary()``. Formulas and sources: ``docs/utility.md``.

* :mod:`~sdc.utility.loss`: IL1 as a share of the range (:func:`information_loss`),
  sdcMicro's IL1s and IL1 (:func:`il1s`);
* :mod:`~sdc.utility.eigen`: eigenvalue similarity of the correlation matrices, sdcMicro's
  robust eigenvalue figure (:func:`robust_eigen_loss`);
* :mod:`~sdc.utility.mlodak`: Mlodak's correlation loss (:func:`il_correl`) and distance per
  variable (:func:`il_variables`), sdcMicro's ``IL_correl`` and ``IL_variables``;
* :mod:`~sdc.utility.entropy`: non-uniform entropy and its normalised form;
* :mod:`~sdc.utility.discernibility`: discernibility, average class size, privacy gain;
* :mod:`~sdc.utility.sse_sst`: ARX's SSE/SST of the keys read as numbers (:func:`sse_sst`);
* :mod:`~sdc.utility.info_loss`: sdcMicro's table-based infoLoss of a swapped file;
* :mod:`~sdc.utility.suppression`: cells suppressed, records retained;
* :mod:`~sdc.utility.association`: Cramér's V and correlations before and after;
* :mod:`~sdc.utility.marginals`: marginal distributions, means, sds, quantiles;
* :mod:`~sdc.utility.validity`: a model fitted before and after, CI overlap;
* :mod:`~sdc.utility.ai_score`: sdcMicro's combined score of suppression, category loss and IL1s
  (:func:`ai_utility_score`), the ranking of ``sdc advise``;
* :mod:`~sdc.utility.summary`: the headline figures together (:func:`utility_summary`).
"""

from __future__ import annotations

from sdc.utility.ai_score import AIScoreResult, ai_utility_score
from sdc.utility.association import AssociationResult, association_change, cramers_v
from sdc.utility.discernibility import DiscernibilityResult, discernibility
from sdc.utility.eigen import EigenSimilarityResult, RobustEigenResult, eigen_similarity, robust_eigen_loss
from sdc.utility.info_loss import InfoLossResult, info_loss
from sdc.utility.entropy import NonUniformEntropyResult, non_uniform_entropy
from sdc.utility.loss import IL1sResult, InformationLossResult, il1s, information_loss
from sdc.utility.mlodak import ILCorrelResult, ILVariablesResult, il_correl, il_variables
from sdc.utility.marginals import MarginalResult, marginal_change
from sdc.utility.summary import UtilitySummary, utility_summary
from sdc.utility.sse_sst import SSESSTResult, sse_sst
from sdc.utility.suppression import SuppressionResult, suppression
from sdc.utility.validity import ValidityResult, analysis_validity, ci_overlap

__all__ = [
    "information_loss", "InformationLossResult", "il1s", "IL1sResult",
    "eigen_similarity", "EigenSimilarityResult", "robust_eigen_loss", "RobustEigenResult",
    "il_correl", "ILCorrelResult", "il_variables", "ILVariablesResult",
    "non_uniform_entropy", "NonUniformEntropyResult",
    "discernibility", "DiscernibilityResult",
    "sse_sst", "SSESSTResult",
    "info_loss", "InfoLossResult",
    "suppression", "SuppressionResult",
    "association_change", "AssociationResult", "cramers_v",
    "marginal_change", "MarginalResult",
    "analysis_validity", "ValidityResult", "ci_overlap",
    "utility_summary", "UtilitySummary",
    "ai_utility_score", "AIScoreResult",
]
