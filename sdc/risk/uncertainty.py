"""Uncertainty of the risk figures: an analytic and a resampling interval.

Two different questions, two intervals:

* :func:`reidentification_interval` — *how many records would an intruder actually
  re-identify?* Given the individual risks r_i, the number of correct re-identifications is
  X = sum of independent Bernoulli(r_i) (a Poisson-binomial variable): its mean is the
  expected re-identifications ER, its variance sum r_i (1 - r_i). The interval holds the
  central `level` of X's distribution, computed exactly (by convolving the binomials of
  records that share a risk) when that is cheap, else from the normal approximation
  with continuity correction.

* :func:`jackknife_interval` — *how precise are the estimates, given that the file is a
  sample?* The delete-a-group jackknife (Kott 2001), the replication method statistical
  agencies use for survey estimates: the records (or whole households) are split at random
  into G groups; each replicate drops one group and multiplies the remaining weights by
  G / (G - 1); the statistic is recomputed, and
  var = (G - 1) / G * sum_g (theta_g - mean theta)^2. It applies to the expected
  re-identifications, the global risk and the population-uniqueness estimate. Without
  sampling weights the file is the population and these figures have no sampling error:
  the interval has width 0.

No peer tool reports either (see docs/risk-models.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

from sdc._stats import summary_frame
from sdc._validation import check_fraction, check_int, check_option, check_weights
from sdc.core.scenario import KeyClasses, resolve_keys
from sdc.risk.household import check_household
from sdc.core.frequencies import pattern_frequencies
from sdc.core.missing import MissingRule
from sdc.risk.individual import IndividualRiskResult, expected_reidentifications, individual_risk
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["Interval", "reidentification_interval", "jackknife_interval", "JACKKNIFE_STATISTICS"]

JACKKNIFE_STATISTICS = ("expected_reidentifications", "global_risk", "population_uniques")
#: The progress bar's name for each statistic: the measure, not the method's internals.
_BAR_LABELS = {"expected_reidentifications": "interval of the expected re-identifications",
               "global_risk": "interval of the global risk", "population_uniques": "interval of the population uniques"}
_EXACT_LIMIT = 20_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Interval:
    """An estimate with an interval.

    Attributes
    ----------
    statistic : str
    estimate : float
    lower, upper : float
    level : float
        Coverage, e.g. 0.95.
    method : str
        How the interval was computed.
    standard_error : float
    replicates : numpy.ndarray
        The jackknife replicates (empty for analytic intervals).
    """

    statistic: str
    estimate: float
    lower: float
    upper: float
    level: float
    method: str
    standard_error: float
    replicates: np.ndarray = field(repr=False, default_factory=lambda: np.empty(0))

    def to_dict(self) -> dict[str, object]:
        return {"statistic": self.statistic, "estimate": self.estimate, "lower": self.lower, "upper": self.upper,
                "level": self.level, "method": self.method, "standard_error": self.standard_error}

    def to_frame(self) -> pd.DataFrame:
        """The interval as one row (the columns of :meth:`to_dict`)."""
        return pd.DataFrame([self.to_dict()])

    def summary(self) -> pd.DataFrame:
        """The estimate and its interval as rows of (statistic, value, description)."""
        return summary_frame([
            ("estimate", self.estimate, f"the estimate of {self.statistic}"),
            ("lower", self.lower, f"lower end of the {self.level:.0%} interval"),
            ("upper", self.upper, f"upper end of the {self.level:.0%} interval"),
            ("standard_error", self.standard_error, "standard error"), ("method", self.method, "how it was computed"),
        ])


def reidentification_interval(risk: IndividualRiskResult, *, level: float = 0.95) -> Interval:
    """Interval for the number of records an intruder would correctly re-identify.

    X = sum_i Bernoulli(r_i), independent: mean ER, variance sum r_i (1 - r_i). Exact
    Poisson-binomial quantiles when the records fall into few distinct risks (or n is small),
    else normal with continuity correction.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> r = sdc.individual_risk(pd.DataFrame({"k": [1, 1, 2, 3]}), ["k"])  # risks 1/2, 1/2, 1, 1
    >>> iv = sdc.reidentification_interval(r)  # X = 2 + Binomial(2, 1/2)
    >>> iv.estimate, iv.lower, iv.upper
    (3.0, 2.0, 4.0)
    """
    level = check_fraction(level, "level", closed="neither")
    r = risk.risk.to_numpy()
    er = float(r.sum())
    sd = math.sqrt(float((r * (1 - r)).sum()))
    values, counts = np.unique(r, return_counts=True)
    a = (1 - level) / 2
    if values.size * r.size <= 50 * _EXACT_LIMIT or r.size <= _EXACT_LIMIT:
        pmf = np.array([1.0])
        for v, c in zip(values, counts):
            if v == 0:
                continue
            pmf = np.convolve(pmf, stats.binom.pmf(np.arange(c + 1), c, min(v, 1.0)))
        cdf = np.cumsum(pmf)
        lo = float(np.searchsorted(cdf, a - 1e-12))
        hi = float(np.searchsorted(cdf, 1 - a - 1e-12))
        method = "exact Poisson-binomial"
    else:
        z = stats.norm.ppf(1 - a)
        lo = max(0.0, math.floor(er - z * sd - 0.5))
        hi = min(float(r.size), math.ceil(er + z * sd + 0.5))
        method = "normal approximation with continuity correction"
    return Interval(statistic="reidentifications", estimate=er, lower=lo, upper=hi, level=level, method=method,
                    standard_error=sd)


def _random_groups(data: pd.DataFrame, household: str | None, G: int, rng: int | np.random.Generator | None
                   ) -> np.ndarray:
    """Each record's jackknife group: the sampling units (records, or households) dealt at random
    into `G` groups of (nearly) equal size, with the seed `rng`."""
    units = check_household(data, household) if household is not None else np.arange(len(data))
    n_units = int(units.max()) + 1
    if n_units < G:
        raise ValueError(f"`groups` ({G}) must not exceed the number of sampling units ({n_units}).")
    group_of_unit = np.random.default_rng(rng).permutation(np.arange(n_units) % G)
    return group_of_unit[units]


def jackknife_interval(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    statistic: Literal["expected_reidentifications", "global_risk", "population_uniques"] = "expected_reidentifications",
    weights: str | None = None,
    household: str | None = None,
    population_size: int | None = None,
    groups: int = 30,
    level: float = 0.95,
    rng: int | np.random.Generator | None = 0,
    progress: bool = False,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> Interval:
    """Delete-a-group jackknife interval for a risk estimate.

    Parameters
    ----------
    data, keys, weights
        As in :func:`sdc.individual_risk`.
    statistic : {"expected_reidentifications", "global_risk", "population_uniques"}
        What to put an interval on. ``"population_uniques"`` needs `population_size` (N,
        kept fixed; each replicate's sampling fraction is its records / N).
    household : str, optional
        Drop whole households together (the sampling unit), as the design requires.
    groups : int >= 2, default 30
        G, the number of random groups.
    level : float, default 0.95
    rng : int or numpy Generator, default 0
        The random split (an int seed keeps the interval reproducible).
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.

    References
    ----------
    .. [1] Kott, P. S. (2001). The delete-a-group jackknife. Journal of Official Statistics
           17(4), 521-526.
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    kc = resolve_keys(data, keys)
    statistic = check_option(statistic, "statistic", JACKKNIFE_STATISTICS)
    G = check_int(groups, "groups", min_value=2)
    level = check_fraction(level, "level", closed="neither")
    w = check_weights(data, weights)
    if statistic == "population_uniques" and population_size is None:
        raise ValueError("statistic='population_uniques' needs `population_size` (N).")
    group = _random_groups(data, household, G, rng)

    n = len(data)

    def compute(frame: pd.DataFrame, classes: KeyClasses, wcol: str | None) -> float:
        if statistic == "population_uniques":
            from sdc.risk.uniqueness import population_uniqueness

            return population_uniqueness(frame, classes, population_size=population_size).chosen
        # Expected re-identifications are n times the mean risk: a replicate's mean risk is
        # scaled to the full sample's n, so that replicates estimate the same quantity.
        if classes is kc:
            g = individual_risk(frame, classes, weights=wcol).global_risk
        else:  # a replicate: its weights derive from checked ones, and only ER is needed
            w_rep = frame[wcol].to_numpy() if wcol is not None else None
            pf = pattern_frequencies(classes.encoded, w_rep, MissingRule())
            g = expected_reidentifications(pf, weighted=wcol is not None) / classes.n_records
        return g * n if statistic == "expected_reidentifications" else g

    import warnings

    from sdc.exceptions import SdcWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        estimate = compute(data, kc, weights)
        if w is None and statistic != "population_uniques":
            return Interval(statistic=statistic, estimate=estimate, lower=estimate, upper=estimate, level=level,
                            method="none: without weights the file is the population (no sampling error)",
                            standard_error=0.0)
        reps = np.empty(G)
        it = range(G)
        if progress:
            from sdc.core.progress import progress_bar

            it = progress_bar(it, desc=_BAR_LABELS[statistic], unit="replicate")
        wname = "__sdc_jackknife_weight__"
        # The replicates reuse the keys' codes (restricted to the kept records): nothing is
        # hashed again G times, and the frame holds only the replicate weights.
        for g in it:
            keep = group != g
            sub = kc.restrict(keep)
            frame = pd.DataFrame({wname: w[keep] * G / (G - 1)} if w is not None else {}, index=sub.index)
            reps[g] = compute(frame, sub, wname if w is not None else None)
    se = math.sqrt((G - 1) / G * float(((reps - reps.mean()) ** 2).sum()))
    z = stats.t.ppf(1 - (1 - level) / 2, df=G - 1)
    return Interval(statistic=statistic, estimate=estimate, lower=estimate - z * se, upper=estimate + z * se,
                    level=level, method=f"delete-a-group jackknife, G = {G}" + (", by household" if household else ""),
                    standard_error=se, replicates=reps)
