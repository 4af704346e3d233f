"""Individual re-identification risk, global risk and expected re-identifications.

The per-record risk r_k is the probability that a record whose key pattern k is seen f_k
times in the sample is correctly re-identified by an intruder who matches on the keys.

* Without weights the file is the population: r_k = 1 / f_k.
* With sampling weights (Benedetti and Franconi 1998; Franconi and Polettini 2004, as in
  mu-Argus and sdcMicro's ``indivRisk``), F_k - f_k given f_k is negative binomial with
  success probability p_k = f_k / F_k, and r_k = E[1 / F_k | f_k]. ``method="approx"``
  uses sdcMicro's approximation; ``method="exact"`` evaluates the expectation.

Global figures: expected re-identifications ER = sum_i r_i, global risk = ER / n.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy.special import hyp2f1

from sdc._validation import check_fraction, check_number, check_option, check_weights
from sdc._stats import mad, summary_frame, weighted_median
from sdc.exceptions import SdcWarning
from sdc.core.engine import dispatch
from sdc.core.frequencies import PatternFrequencies, PerRecord, warn_if_degenerate
from sdc.core.missing import MissingKind, MissingRule, missing_rule
from sdc.risk.threshold import global_threshold
from sdc.core.scenario import resolve_keys
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["IndividualRiskResult", "individual_risk", "pattern_risk", "RISK_METHODS"]

RISK_METHODS = ("approx", "exact")


def pattern_risk(fk: np.ndarray, Fk: np.ndarray, *, weighted: bool, method: str = "approx") -> np.ndarray:
    """Individual risk for arrays of (f_k, F_k); the kernel behind :func:`individual_risk`.

    Parameters
    ----------
    fk, Fk : numpy.ndarray
        Sample and population frequencies (fk > 0 where the risk is wanted).
    weighted : bool
        False: r = 1 / f_k (sdcMicro's ``indivRisk(survey=FALSE)``).
    method : {"approx", "exact"}
        With weights, p = f/F and

        * approx (Benedetti-Franconi, as ``sdcMicro::indivRisk(method="approx")``):
          f = 1: p/(1-p) * ln(1/p);  f = 2: p/(1-p) - (p/(1-p))^2 * ln(1/p);
          f > 2: p / (f - (1 - p)); any other f (fractional in (1, 2) from alpha < 1): 0.
        * exact: E[1/F | f] = (p/f) * 2F1(1, 1; f + 1; 1 - p), the negative-binomial posterior
          mean in Gauss-hypergeometric form (after Euler's transformation). For f = 1 and 2
          it equals the closed forms above; for f > 2 it equals sdcMicro's alternating-sum
          formula, but does not overflow for large f. Defined for real f >= 1.

        In both, f == F (p = 1, e.g. every weight 1) gives 1/f, as in sdcMicro.
    """
    fk = np.asarray(fk, dtype=np.float64)
    Fk = np.asarray(Fk, dtype=np.float64)
    if not weighted:
        with np.errstate(divide="ignore"):
            return 1.0 / fk
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # The f = 1 formula everywhere (uniques usually dominate): p/(1-p) ln(1/p), written
        # as f/(F-f) ln(F/f) to save passes; equal to sdcMicro's form up to rounding.
        log_inv_p = np.log(Fk / fk)
        r = fk / (Fk - fk)
        r *= log_inv_p
        multi = np.flatnonzero(fk != 1)
        if multi.size:
            f, F, lg = fk[multi], Fk[multi], log_inv_p[multi]
            p = f / F
            odds = p / (1.0 - p)
            rm = np.zeros_like(f)
            two = f == 2
            rm[two] = odds[two] - odds[two] ** 2 * lg[two]
            if method == "approx":
                big = f > 2
                rm[big] = p[big] / (f[big] - (1.0 - p[big]))
                # any other f (fractional, between 1 and 2) keeps 0, as in sdcMicro
            else:
                other = ~two & (f > 1)
                rm[other] = p[other] / f[other] * _hyp2f1_11(f[other] + 1.0, 1.0 - p[other])
            r[multi] = rm
        eq = np.flatnonzero(fk == Fk)
        r[eq] = 1.0 / fk[eq]
    return r


def _hyp2f1_11(c: np.ndarray, z: np.ndarray) -> np.ndarray:
    """2F1(1, 1; c; z) for c > 2 and 0 <= z < 1.

    scipy's ``hyp2f1`` is accurate for small c but returns NaN for c >~ 100 with z near 1
    (scipy 1.10). There the power series sum_j j! z^j / (c)_j converges within a few dozen
    terms (the term ratio is z (j+1)/(c+j) < (j+1)/(c+j)), so large c use the series.
    """
    out = np.empty_like(c)
    small = c < 21
    out[small] = hyp2f1(1.0, 1.0, c[small], z[small])
    big = ~small
    if big.any():
        cb, zb = c[big], z[big]
        term = np.ones_like(cb)
        total = np.ones_like(cb)
        for j in range(1000):
            term *= zb * (j + 1) / (cb + j)
            total += term
            if (term <= 1e-17 * total).all():
                break
        out[big] = total
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class IndividualRiskResult:
    """Result of :func:`individual_risk`.

    Attributes
    ----------
    keys : tuple of str
        Key variables used.
    weights : str or None
        Weight column (None: the data are the population, r = 1/f_k).
    method : {"approx", "exact"}
        Estimator of the per-record risk with weights.
    missing : {"wildcard", "category"}
        Rule used for missing key values.
    alpha : float
        sdcMicro's alpha for wildcard matches.
    risk : pandas.Series
        Individual risk r_i of each record, named ``"risk"``, indexed like the input.
    sample_frequency, population_frequency : pandas.Series
        f_k (``"fk"``) and F_k (``"Fk"``) of each record.

    The per-record Series are made from the per-pattern values when first read (one
    gather each), so a caller that needs only the global figures never pays for them.
    expected_reidentifications : float
        ER = sum of r_i (sdcMicro's ``global_risk_ER``).
    global_risk : float
        ER / n (sdcMicro's ``global_risk``).
    max_global_risk : float
        The acceptable global risk g the threshold was computed for.
    global_threshold : float
        mu-Argus risk threshold for `max_global_risk` (NaN where sdcMicro gives NA: the
        file is already below g, or no level qualifies and the lowest risk is 0).
    """

    keys: tuple[str, ...]
    weights: str | None
    method: str
    missing: str
    alpha: float
    expected_reidentifications: float
    global_risk: float
    max_global_risk: float
    global_threshold: float
    _pattern_risk: tuple[np.ndarray, np.ndarray] = field(repr=False, compare=False)
    _records: PerRecord = field(repr=False, compare=False)

    @property
    def risk(self) -> pd.Series:
        return self._records.series("risk")

    @property
    def sample_frequency(self) -> pd.Series:
        return self._records.series("fk")

    @property
    def population_frequency(self) -> pd.Series:
        return self._records.series("Fk")

    @property
    def n_records(self) -> int:
        return self._records.n_records

    @property
    def global_risk_pct(self) -> float:
        """Global risk in percent (sdcMicro's ``global_risk_pct``)."""
        return 100.0 * self.global_risk

    @property
    def max_risk(self) -> float:
        """Highest individual risk (ARX's prosecutor "highest risk")."""
        return float(self._pattern_risk[0].max())

    def threshold_for(self, max_global_risk: float) -> float:
        """The global threshold for another acceptable global risk `max_global_risk`."""
        g = check_number(max_global_risk, "max_global_risk", low=0, high=1, low_open=True, high_open=True)
        return global_threshold(self._pattern_risk[0], self._pattern_risk[1], g)

    def records_above(self, threshold: float) -> pd.Series:
        """Boolean Series: records whose risk is strictly above `threshold` (in [0, 1])."""
        t = check_fraction(threshold, "threshold")
        return (self.risk > t).rename("risk_above_threshold")

    def n_records_above(self, threshold: float) -> int:
        """Records whose risk is strictly above `threshold`: ``records_above(threshold).sum()``,
        counted over the key patterns (so without a pass over the records, also on Dask)."""
        t = check_fraction(threshold, "threshold")
        r_occ, n_occ = self._pattern_risk
        return int(n_occ[r_occ > t].sum())

    def n_higher_risk(self, mad_factor: float = 3.0, floor: float = 0.1) -> int:
        """Records "with higher risk than the main part of the data".

        sdcMicro's rule: r > median(r) + `mad_factor` * mad(r) and r > `floor`.
        ``print.measure_risk`` uses ``mad_factor=3``; ``print(sdcObj, "risk")`` uses 2.
        """
        r_occ, n_occ = self._pattern_risk
        if 4 * r_occ.size > self.n_records and isinstance(self._records, PerRecord):  # per record
            r = self.risk.to_numpy()
            return int(np.count_nonzero((r > np.median(r) + mad_factor * mad(r)) & (r > floor)))
        # The same medians from the patterns, each counted for its records.
        med = weighted_median(r_occ, n_occ)
        spread = 1.4826 * weighted_median(np.abs(r_occ - med), n_occ)
        return int(n_occ[(r_occ > med + mad_factor * spread) & (r_occ > floor)].sum())

    def to_frame(self) -> pd.DataFrame:
        """Per-record table: ``risk``, ``fk``, ``Fk`` (sdcMicro's ``Res`` matrix)."""
        return pd.concat([self.risk, self.sample_frequency, self.population_frequency], axis=1)

    def summary(self) -> pd.DataFrame:
        """The global figures as rows of (statistic, value, description)."""
        rows = [
            ("n_records", self.n_records, "records assessed"),
            ("expected_reidentifications", self.expected_reidentifications, "sum of individual risks (ER)"),
            ("global_risk", self.global_risk, "ER / n"),
            ("global_risk_pct", self.global_risk_pct, "global risk in %"),
            ("max_risk", self.max_risk, "highest individual risk"),
            ("global_threshold", self.global_threshold,
             f"individual-risk threshold keeping global risk below {self.max_global_risk:g}"),
            ("n_higher_risk", self.n_higher_risk(),
             "records with risk > median + 3 MAD and > 0.1 (sdcMicro)"),
        ]
        return summary_frame(rows)


@dispatch(dask="sdc.risk.individual:_individual_risk_tables", chunks="sdc.risk.individual:_individual_risk_tables")
def individual_risk(
    data: pd.DataFrame,
    keys: str | list[str] | tuple[str, ...],
    *,
    weights: str | None = None,
    method: Literal["approx", "exact"] = "approx",
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
    max_global_risk: float = 0.01,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> IndividualRiskResult:
    """Individual re-identification risk of every record, with the global figures.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata, one row per record. Not modified.
    keys : str or sequence of str
        Key variables (quasi-identifiers).
    weights : str, optional
        Sampling-weight column. Without it, r = 1/f_k (the data are the population).
    method : {"approx", "exact"}, default "approx"
        Estimator with weights; see :func:`pattern_risk`.
    missing : {"wildcard", "category"} or MissingRule, default "wildcard"
        Missing-value rule for the frequencies (see :func:`sdc.frequencies`).
    alpha : float in [0, 1], default 1
        sdcMicro's alpha for wildcard matches.
    max_global_risk : float in (0, 1), default 0.01
        Acceptable global risk for the mu-Argus threshold (sdcMicro's ``max_global_risk``).
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.

    Returns
    -------
    IndividualRiskResult

    Notes
    -----
    Reproduces ``sdcMicro::measure_risk`` (5.8): its ``Res`` matrix, ``global_risk_ER``,
    ``global_risk``, ``global_risk_pct`` and ``global_threshold``. sdcMicro's data-frame
    method cannot pass ``alpha`` (it always uses 1); ``createSdcObj(alpha=)`` can, and the
    cross-validation uses it for alpha < 1.

    References
    ----------
    .. [1] Benedetti, R. and Franconi, L. (1998). Statistical and technological solutions
           for controlled data dissemination. Pre-proceedings of NTTS, 225-232.
    .. [2] Franconi, L. and Polettini, S. (2004). Individual risk estimation in mu-Argus:
           a review. Privacy in Statistical Databases, LNCS 3050, 262-272.
    .. [3] Templ, M., Kowarik, A. and Meindl, B. (2015). Statistical disclosure control for
           micro-data using the R package sdcMicro. J. Stat. Softw. 67(4), 1-36.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 40], "sex": ["f", "f", "m"]})
    >>> res = sdc.individual_risk(df, ["age", "sex"])
    >>> res.risk.tolist(), res.expected_reidentifications
    ([0.5, 0.5, 1.0], 2.0)
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    method = check_option(method, "method", RISK_METHODS)
    rule = missing_rule(missing, alpha)
    g = check_number(max_global_risk, "max_global_risk", low=0, high=1, low_open=True, high_open=True)
    w = check_weights(data, weights)
    pf = kc.frequencies(w, weights=weights, rule=rule)
    warn_if_degenerate(pf, stacklevel=4)
    return risk_from_frequencies(pf, index=data.index, keys=keys, weights=weights, method=method, rule=rule,
                                 max_global_risk=g, stacklevel=4)


def expected_reidentifications(pf: PatternFrequencies, *, weighted: bool, method: str = "approx") -> float:
    """ER = sum over patterns of risk x records: the figure of :func:`risk_from_frequencies`
    alone, for replicates that need nothing else."""
    occ = pf.occupied
    return float(np.dot(pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=weighted, method=method), pf.counts[occ]))


def risk_from_frequencies(
    pf: PatternFrequencies, *, index: pd.Index, keys: tuple[str, ...], weights: str | None,
    method: str, rule: MissingRule, max_global_risk: float, stacklevel: int = 2,
) -> IndividualRiskResult:
    """Build an :class:`IndividualRiskResult` from per-pattern frequencies."""
    occ = pf.occupied
    r_occ = pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=weights is not None, method=method)
    if weights is not None and method == "approx":
        frac = (pf.fk[occ] > 1) & (pf.fk[occ] < 2) & (pf.fk[occ] != pf.Fk[occ])
        if frac.any():
            warnings.warn(
                f"{int(pf.counts[occ][frac].sum())} record(s) have a fractional sample frequency "
                "between 1 and 2 (alpha < 1); the approximation gives them risk 0, as sdcMicro "
                "does. method='exact' gives their posterior-mean risk.",
                SdcWarning, stacklevel=stacklevel,
            )
    if isinstance(occ, slice):  # dense ids: per-pattern arrays index records directly
        r_ids = r_occ
    else:
        r_ids = np.zeros(pf.fk.shape[0])
        r_ids[occ] = r_occ
    n = pf.pattern.shape[0]
    # ER as a count-weighted sum over patterns: same value as summing records, in O(patterns).
    n_occ = pf.counts[occ]
    er = float(np.dot(r_occ, n_occ))
    return IndividualRiskResult(
        keys=keys, weights=weights, method=method, missing=rule.kind, alpha=rule.alpha,
        expected_reidentifications=er,
        global_risk=er / n,
        max_global_risk=max_global_risk,
        global_threshold=global_threshold(r_occ, n_occ, max_global_risk),
        _pattern_risk=(r_occ, n_occ),
        _records=PerRecord(pf.pattern, index, risk=r_ids, fk=pf.fk, Fk=pf.Fk),
    )


# --- on a Dask DataFrame or a file read in chunks: the pattern table, then the code above ----------

class DaskIndividualRiskResult(IndividualRiskResult):
    """:class:`IndividualRiskResult` of data kept out of memory: on a Dask DataFrame ``risk``,
    ``sample_frequency``, ``population_frequency``, ``records_above`` and ``to_frame()`` are
    Dask (lazy); a chunked file keeps no per-record values."""

    __slots__ = ()

    def to_frame(self) -> Any:
        return self._records.concat([self.risk, self.sample_frequency, self.population_frequency])


def _as(cls: type, res: Any, **changes: Any) -> Any:
    return cls(**{f.name: changes.get(f.name, getattr(res, f.name)) for f in dataclasses.fields(res)})


def _individual_risk_tables(data: Any, keys: Any, *, weights: str | None = None, method: str = "approx",
                            missing: Any = "wildcard", alpha: float = 1.0, max_global_risk: float = 0.01,
                            key_bins: Any = None) -> IndividualRiskResult:
    """:func:`sdc.individual_risk` of a Dask DataFrame or a chunked file, from its pattern
    table; on Dask ``risk``, ``sample_frequency`` and ``population_frequency`` are Dask Series."""
    from sdc.core.frequencies import table_arguments, table_frequencies

    tables, keys, weights, rule = table_arguments(data, keys, weights, missing, alpha, key_bins)
    method = check_option(method, "method", RISK_METHODS)
    g = check_number(max_global_risk, "max_global_risk", low=0, high=1, low_open=True, high_open=True)
    table = tables.pattern_table(keys, weights)
    enc, pf = table_frequencies(table, keys, rule)
    warn_if_degenerate(pf, stacklevel=4)
    res = risk_from_frequencies(pf, index=table.index, keys=keys, weights=weights, method=method, rule=rule,
                                max_global_risk=g, stacklevel=4)
    # The table's rows are patterns: n is the records' count, the per-record views go to the data.
    n = int(pf.counts.sum())
    r_ids = np.zeros(pf.fk.shape[0])
    r_ids[pf.occupied] = res._pattern_risk[0]
    per = tables.per_record(keys, table, enc.pattern, n, risk=r_ids, fk=pf.fk, Fk=pf.Fk)
    return _as(DaskIndividualRiskResult, res, global_risk=res.expected_reidentifications / n, _records=per)
