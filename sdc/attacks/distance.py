"""Distance-based disclosure risk for continuous keys: sdcMicro's ``dRisk``, ``dRiskRMD`` and ``recordLinkage``.

Records are paired by position: row i of the original goes with row i of the released file
(a protected file keeps the original's rows), as in sdcMicro.

``distance_risk`` (sdcMicro ``dRisk``; SDID, Mateo-Sanz, Sebe & Domingo-Ferrer 2004)
    An interval [xm_ij - k sd_j, xm_ij + k sd_j] is built around each released value, with
    sd_j the standard deviation (n - 1, missing values left out) of released variable j. A
    record is *at risk* when every original value lies in its interval (bounds included; a
    comparison with a missing value does not count against it). risk = share of records at
    risk; k = 0.05 by default. Unmodified data give 1.

``distance_risk_rmd`` (sdcMicro ``dRiskRMD``; Templ & Meindl 2008, PSD, LNCS 5262, 113-126)
    Both files are standardised by their own means and standard deviations. With the robust
    (MCD) covariance S of the standardised original and its column means c, each record gets
    rmd_i = 0.05 sqrt((x_i - c)' S^-1 (x_i - c)). A record is *unsafe* (RMDID1) when, for at
    least one variable, the released value lies strictly inside (x_ij - k rmd_i, x_ij + k rmd_i)
    (k = 0.01). An unsafe record stays at risk under RMDID2 when no other released record is
    within Euclidean distance k2 (= 0.05) of it. risk1 = #unsafe / n, risk2 = #RMDID2 / n,
    wrisk1 = #unsafe x sum_{unsafe} rmd_i / n and wrisk2 likewise over the RMDID2 records
    (sdcMicro's weighting, a count times a sum, kept as it is).

``record_linkage`` (sdcMicro ``recordLinkage``; Global Distance-Based Record Linkage, Herranz,
Nin, Rodriguez & Tassa 2015, Data & Knowledge Engineering 100, 78-93)
    The n x n distance matrix between original and released records (Gower, Euclidean or
    Manhattan, as ``cluster::daisy``), then the one-to-one assignment with the smallest total
    distance (the Hungarian algorithm: ``scipy.optimize.linear_sum_assignment``). A link is
    correct when both records carry the same id; n_best counts, per original record, the
    released records within ``tol`` of its row minimum.

    Gower: numeric |a - b| / range over both files (missing values ignored; a zero range
    counts as 1); nominal 0/1; ordered |code a - code b| / range of the codes observed;
    logical asymmetric binary (a pair of FALSE is skipped); d = sum w_v delta_v d_v /
    sum w_v delta_v with delta_v = 0 where a value is missing. Euclidean sqrt(p / p_obs
    sum (a - b)^2) and Manhattan p / p_obs sum |a - b| over the p_obs variables observed in
    both records, unstandardised, weights unused (as in daisy).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame, summary_values
from sdc._validation import check_columns, check_frame, check_number, check_option
from sdc.attacks._common import check_seed, is_numeric_column, plain
from sdc.attacks._mcd import mcd
from sdc.core.matching import encode_joint

__all__ = [
    "DistanceRiskResult", "distance_risk", "RmdRiskResult", "distance_risk_rmd", "RecordLinkageResult",
    "record_linkage", "RL_DISTANCES",
]

RL_DISTANCES = ("gower", "euclidean", "manhattan")


def _pair(original: pd.DataFrame, released: pd.DataFrame, variables: object) -> tuple[str, ...]:
    original = check_frame(original, "original")
    released = check_frame(released, "released")
    cols = check_columns(original, variables, role="variables")
    check_columns(released, cols, role="variables")
    if len(original) != len(released):
        raise ValueError(f"`original` and `released` must have the same number of records (paired by position); "
                         f"got {len(original)} and {len(released)}.")
    for name, df in (("original", original), ("released", released)):
        for c in cols:
            if not is_numeric_column(df[c]):
                raise ValueError(f"variable {c!r} must be numeric in `{name}`; got dtype {df[c].dtype}.")
    return cols


def _matrix(df: pd.DataFrame, cols: tuple[str, ...]) -> np.ndarray:
    return df[list(cols)].to_numpy(dtype=np.float64, na_value=np.nan)


def _check_no_inf(df: pd.DataFrame, cols: Sequence[str], name: str) -> None:
    """Refuse an infinite value in a numeric column: it would make an interval or a range
    infinite and every comparison with it meaningless (a silently wrong risk)."""
    for c in cols:
        if not is_numeric_column(df[c]):
            continue
        v = df[c].to_numpy(dtype=np.float64, na_value=np.nan)
        bad = np.isinf(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"variable {c!r} has a non-finite value {float(v[i])!r} at index "
                             f"{plain(df.index[i])!r} in `{name}`; set it to missing.")


# ==================================================================== dRisk
@dataclass(frozen=True)
class DistanceRiskResult:
    """sdcMicro's ``dRisk``: the share of records whose original values all lie in the
    intervals around their released values.

    ``records`` has one row per record (the released file's index): ``at_risk`` and, per
    variable, ``in_<variable>`` (the original value lies in the interval).
    """

    variables: tuple[str, ...]
    k: float
    risk: float
    n_records: int
    n_at_risk: int
    sd: dict[str, float]
    records: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.records

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description)."""
        return summary_frame([
            ("attack", "distance_risk", "sdcMicro's dRisk (interval disclosure)"),
            ("variables", list(self.variables), "the numeric key variables"),
            ("k", self.k, "half-width of the intervals, in released standard deviations"),
            ("risk", self.risk, "share of records whose original values all lie in the intervals around the released ones"),
            ("n_records", self.n_records, "records compared"),
            ("n_at_risk", self.n_at_risk, "records at risk"),
        ])

    def to_dict(self) -> dict[str, Any]:
        return plain({**summary_values(self.summary()), "sd": self.sd})


def distance_risk(
    original: pd.DataFrame, released: pd.DataFrame, variables: str | Sequence[str], *, k: float = 0.05
) -> DistanceRiskResult:
    """Interval disclosure risk of continuous keys (sdcMicro ``dRisk``, SDID).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The original and released files, paired by position (same number of records).
    variables : str or sequence of str
        The numeric key variables.
    k : float
        Half-width of the interval in released standard deviations (default 0.05).

    Returns
    -------
    DistanceRiskResult
        risk = #{i : |x_ij - xm_ij| <= k sd(xm_j) for all j} / n (see the module docstring).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> x = pd.DataFrame({"income": [10.0, 20.0, 30.0, 40.0]})
    >>> sdc.distance_risk(x, x, "income").risk
    1.0
    """
    cols = _pair(original, released, variables)
    k = check_number(k, "k", low=0.0, high=math.inf)
    _check_no_inf(original, cols, "original")
    _check_no_inf(released, cols, "released")
    x, xm = _matrix(original, cols), _matrix(released, cols)
    with np.errstate(invalid="ignore"):
        sd = np.nanstd(xm, axis=0, ddof=1) if xm.shape[0] > 1 else np.full(len(cols), np.nan)
        lo = xm - k * sd
        hi = xm + k * sd
        outside = (x < lo) | (x > hi)  # a comparison with NaN is False: it does not count against
    at_risk = ~outside.any(axis=1)
    recs = pd.DataFrame({"at_risk": at_risk}, index=released.index)
    for j, c in enumerate(cols):
        recs[f"in_{c}"] = ~outside[:, j]
    n = len(released)
    return DistanceRiskResult(variables=cols, k=k, risk=float(at_risk.mean()), n_records=n,
                              n_at_risk=int(at_risk.sum()), sd={c: float(s) for c, s in zip(cols, sd)}, records=recs)


# ==================================================================== dRiskRMD
@dataclass(frozen=True)
class RmdRiskResult:
    """sdcMicro's ``dRiskRMD``: interval risk weighted by robust Mahalanobis distances.

    ``records`` (released index): ``rmd`` (0.05 x the robust distance), ``unsafe`` (RMDID1),
    ``isolated`` (RMDID2: unsafe and no other released record within k2), ``riskvec1`` and
    ``riskvec2`` (rmd where flagged, else 0: sdcMicro's names). ``covariance`` is the robust
    covariance used (of the standardised original).
    """

    variables: tuple[str, ...]
    k: float
    k2: float
    covariance_method: str
    seed: int | None
    risk1: float
    risk2: float
    wrisk1: float
    wrisk2: float
    n_records: int
    covariance: np.ndarray = field(repr=False)
    records: pd.DataFrame = field(repr=False)

    @property
    def n_unsafe(self) -> int:
        return int(self.records["unsafe"].sum())

    @property
    def n_isolated(self) -> int:
        return int(self.records["isolated"].sum())

    def to_frame(self) -> pd.DataFrame:
        return self.records

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description)."""
        return summary_frame([
            ("attack", "distance_risk_rmd", "sdcMicro's dRiskRMD (robust Mahalanobis distance)"),
            ("variables", list(self.variables), "the numeric key variables"),
            ("k", self.k, "half-width of the intervals, in robust distances"),
            ("k2", self.k2, "distance within which another released record makes an unsafe record not isolated"),
            ("covariance", self.covariance_method, "how the covariance is estimated"),
            ("seed", self.seed, "seed of the robust covariance estimate"),
            ("risk1", self.risk1, "share of unsafe records (a released value inside the interval of the original)"),
            ("risk2", self.risk2, "share of isolated records (unsafe, no other released record within k2)"),
            ("wrisk1", self.wrisk1, "risk1 weighted by the records' robust distances"),
            ("wrisk2", self.wrisk2, "risk2 weighted by the records' robust distances"),
            ("n_records", self.n_records, "records compared"),
            ("n_unsafe", self.n_unsafe, "unsafe records (RMDID1)"),
            ("n_isolated", self.n_isolated, "isolated records (RMDID2)"),
        ])

    def to_dict(self) -> dict[str, Any]:
        return plain(summary_values(self.summary()))


def _scale(a: np.ndarray) -> np.ndarray:
    mu = a.mean(axis=0)
    sd = a.std(axis=0, ddof=1)
    return (a - mu) / sd


def distance_risk_rmd(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str],
    *,
    k: float = 0.01,
    k2: float = 0.05,
    covariance: str | np.ndarray = "mcd",
    seed: int = 0,
) -> RmdRiskResult:
    """Robust-Mahalanobis-distance interval risk (sdcMicro ``dRiskRMD``, RMDID1/RMDID2).

    Parameters
    ----------
    original, released : pandas.DataFrame
        Paired by position; the variables must be complete (no missing values) and vary.
    variables : str or sequence of str
        The numeric key variables.
    k, k2 : float
        Interval weight (default 0.01) and the RMDID2 neighbourhood radius (default 0.05),
        as in sdcMicro.
    covariance : {"mcd", "classical"} or array of shape (p, p)
        The covariance of the standardised original: the MCD (our FAST-MCD, see
        :mod:`sdc.attacks._mcd`; sdcMicro uses robustbase's ``covMcd``), the classical
        correlation matrix, or a given matrix (e.g. robustbase's, to reproduce sdcMicro).
    seed : int
        Seed of the MCD's random starts.

    Returns
    -------
    RmdRiskResult
        risk1, risk2, wrisk1, wrisk2 and the per-record flags (module docstring).
    """
    cols = _pair(original, released, variables)
    k = check_number(k, "k", low=0.0, high=math.inf)
    k2 = check_number(k2, "k2", low=0.0, high=math.inf)
    seed = check_seed(seed)
    x, xm = _matrix(original, cols), _matrix(released, cols)
    for name, a in (("original", x), ("released", xm)):
        if not np.isfinite(a).all():
            i, j = np.argwhere(~np.isfinite(a))[0]
            raise ValueError(f"variable {cols[j]!r} has a missing or infinite value in `{name}` (row {int(i)}); "
                             "dRiskRMD needs complete numbers.")
        sd = a.std(axis=0, ddof=1) if a.shape[0] > 1 else np.zeros(a.shape[1])
        if (sd == 0).any():
            c = cols[int(np.argmax(sd == 0))]
            raise ValueError(f"variable {c!r} is constant in `{name}`; it cannot be standardised.")
    n, p = x.shape
    xs, xms = _scale(x), _scale(xm)
    cent = xs.mean(axis=0)
    if isinstance(covariance, str):
        method = check_option(covariance, "covariance", ("mcd", "classical"))
        cov = mcd(xs, seed=seed)[1] if method == "mcd" else np.cov(xs, rowvar=False, ddof=1).reshape(p, p)
    else:
        cov = np.asarray(covariance, dtype=np.float64)
        if cov.shape != (p, p) or not np.isfinite(cov).all():
            raise ValueError(f"`covariance` must be 'mcd', 'classical' or a finite {p} x {p} matrix; "
                             f"got shape {cov.shape}.")
        method = "given"
    dev = xs - cent
    d2 = np.einsum("ij,ij->i", dev @ np.linalg.inv(cov), dev)
    rmd = np.sqrt(d2) * 0.05
    lo = xs - k * rmd[:, None]
    hi = xs + k * rmd[:, None]
    unsafe = ((xms > lo) & (xms < hi)).any(axis=1)
    isolated = np.zeros(n, dtype=bool)
    w = np.flatnonzero(unsafe)
    if w.size:
        from scipy.spatial import cKDTree

        # The nearest *other* released record: the second neighbour of a record in its own
        # file (the first is itself, or a duplicate at distance 0, which is also right).
        if n > 1:
            d, _ = cKDTree(xms).query(xms[w], k=2)
            isolated[w] = d[:, 1] > k2
        else:
            isolated[w] = False  # sdcMicro: the minimum over no other record is Inf > k2, with a warning
    w2 = np.flatnonzero(isolated)
    recs = pd.DataFrame({"rmd": rmd, "unsafe": unsafe, "isolated": isolated,
                         "riskvec1": np.where(unsafe, rmd, 0.0), "riskvec2": np.where(isolated, rmd, 0.0)},
                        index=released.index)
    return RmdRiskResult(
        variables=cols, k=k, k2=k2, covariance_method=method, seed=seed if method == "mcd" else None,
        risk1=w.size / n, risk2=w2.size / n, wrisk1=w.size * float(rmd[w].sum()) / n,
        wrisk2=w2.size * float(rmd[w2].sum()) / n, n_records=n, covariance=cov, records=recs)


# ==================================================================== recordLinkage
@dataclass(frozen=True)
class RecordLinkageResult:
    """sdcMicro's ``recordLinkage``: the global one-to-one assignment of original to released records.

    ``matches`` has one row per original record: ``x_row``, ``y_row`` (0-based positions),
    ``x_id``, ``y_id``, ``distance``, ``correct_match``, ``n_best`` (sdcMicro's columns).
    """

    variables: tuple[str, ...]
    distance: str
    weights: tuple[float, ...]
    matches: pd.DataFrame = field(repr=False)
    correct_matches: int
    correct_match_rate: float
    mean_distance: float
    total_distance: float
    distance_matrix: np.ndarray | None = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.matches

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description)."""
        return summary_frame([
            ("attack", "record_linkage", "sdcMicro's recordLinkage (one-to-one assignment)"),
            ("variables", list(self.variables), "the linking variables"),
            ("distance", self.distance, "the distance"),
            ("n_records", len(self.matches), "records assigned"),
            ("correct_matches", self.correct_matches, "records assigned to their own released record"),
            ("correct_match_rate", self.correct_match_rate, "share of correct assignments"),
            ("mean_distance", self.mean_distance, "mean distance of the assigned pairs"),
            ("total_distance", self.total_distance, "total distance of the assignment"),
            ("n_ties", int((self.matches["n_best"] > 1).sum()), "records with several released records at the best distance"),
        ])

    def to_dict(self) -> dict[str, Any]:
        return plain({**summary_values(self.summary()), "weights": list(self.weights)})


def _variable_weights(weights: Iterable[float] | None, n_cols: int) -> np.ndarray:
    """The variables' weights of the distance: one finite number >= 0 per variable, not all 0
    (default: all 1)."""
    if weights is None:
        return np.ones(n_cols)
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise TypeError(f"`weights` must be a sequence of numbers, one per variable; got {weights!r}.")
    items = list(weights)
    if any(isinstance(v, bool) or not isinstance(v, numbers.Real) for v in items):
        raise TypeError(f"`weights` must be a sequence of numbers, one per variable; got {items!r}.")
    w = np.asarray(items, dtype=np.float64)
    if w.shape != (n_cols,):
        raise ValueError(f"`weights` must have one value per variable ({n_cols}); got {w.size}.")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("`weights` must be finite and >= 0.")
    if w.sum() == 0:
        raise ValueError("`weights` must have at least one positive value.")
    return w


def _kind(a: pd.Series, b: pd.Series, name: str) -> str:
    def ordered(s: pd.Series) -> bool:
        return isinstance(s.dtype, pd.CategoricalDtype) and bool(s.cat.ordered)

    def nominal(s: pd.Series) -> bool:
        return isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_object_dtype(s.dtype) \
            or pd.api.types.is_string_dtype(s.dtype)

    if ordered(a) or ordered(b):
        return "ordered"
    if nominal(a) or nominal(b):
        return "nominal"
    if pd.api.types.is_bool_dtype(a.dtype) or pd.api.types.is_bool_dtype(b.dtype):
        return "logical"
    if is_numeric_column(a) and is_numeric_column(b):  # complex numbers are refused, not truncated
        return "numeric"
    raise ValueError(f"variable {name!r} has unsupported or incompatible types: {a.dtype} vs {b.dtype}.")


def _ordered_codes(a: pd.Series, b: pd.Series, name: str) -> tuple[np.ndarray, np.ndarray]:
    ref = a if isinstance(a.dtype, pd.CategoricalDtype) and a.cat.ordered else b
    other = b if ref is a else a
    levels = list(ref.cat.categories)
    if isinstance(other.dtype, pd.CategoricalDtype) and other.cat.ordered:
        if list(other.cat.categories) != levels:
            raise ValueError(f"ordered levels of variable {name!r} differ between `original` and `released`.")
    extra = sorted({str(v) for v in other.dropna().astype(str)} - {str(v) for v in levels})
    if extra:
        raise ValueError(f"variable {name!r} is ordered in one file but the other has values outside its levels: "
                         f"{', '.join(extra[:5])}.")
    lookup = {str(v): i for i, v in enumerate(levels)}

    def codes(s: pd.Series) -> np.ndarray:
        return np.array([np.nan if pd.isna(v) else lookup[str(v)] for v in s.astype(object)], dtype=np.float64)

    return codes(a), codes(b)


def _as_text(df: pd.DataFrame, c: str) -> pd.DataFrame:
    s = df[c].astype(object)
    return pd.DataFrame({c: s.where(s.notna(), None).map(lambda v: None if v is None else str(v))})


def _gower_parts(x: pd.DataFrame, y: pd.DataFrame, cols: tuple[str, ...], kinds: list[str],
                 weights: np.ndarray) -> np.ndarray:
    n, m = len(x), len(y)
    num = np.zeros((n, m))
    den = np.zeros((n, m))
    for j, (c, kind) in enumerate(zip(cols, kinds)):
        if kind == "nominal":
            xa, ya = x[[c]], y[[c]]
            if xa[c].dtype != ya[c].dtype:  # compared as text, as R's factor harmonisation does
                xa, ya = _as_text(xa, c), _as_text(ya, c)
            joint = encode_joint(xa, ya, (c,))
            a, b = joint.left_codes[0].astype(np.int64), joint.right_codes[0].astype(np.int64)
            obs = (a[:, None] >= 0) & (b[None, :] >= 0)
            d = (a[:, None] != b[None, :]).astype(np.float64)
        elif kind == "logical":
            a = x[c].to_numpy(dtype=object)
            b = y[c].to_numpy(dtype=object)
            av = np.array([np.nan if pd.isna(v) else float(bool(v)) for v in a])
            bv = np.array([np.nan if pd.isna(v) else float(bool(v)) for v in b])
            obs = ~np.isnan(av)[:, None] & ~np.isnan(bv)[None, :]
            obs &= ~((av[:, None] == 0) & (bv[None, :] == 0))  # asymmetric binary: FALSE/FALSE is skipped
            d = (av[:, None] != bv[None, :]).astype(np.float64)
        else:
            if kind == "ordered":
                av, bv = _ordered_codes(x[c], y[c], c)
            else:
                av = x[c].to_numpy(dtype=np.float64, na_value=np.nan)
                bv = y[c].to_numpy(dtype=np.float64, na_value=np.nan)
            both = np.concatenate([av, bv])
            rng = np.nanmax(both) - np.nanmin(both) if np.isfinite(both).any() else 1.0
            rng = rng if rng > 0 else 1.0
            obs = ~np.isnan(av)[:, None] & ~np.isnan(bv)[None, :]
            with np.errstate(invalid="ignore"):
                d = np.abs(av[:, None] - bv[None, :]) / rng
        d = np.where(obs, d, 0.0)
        num += weights[j] * d
        den += weights[j] * obs
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def _minkowski(x: pd.DataFrame, y: pd.DataFrame, cols: tuple[str, ...], power: int) -> np.ndarray:
    n, m = len(x), len(y)
    acc = np.zeros((n, m))
    nobs = np.zeros((n, m))
    for c in cols:
        av = x[c].to_numpy(dtype=np.float64, na_value=np.nan)
        bv = y[c].to_numpy(dtype=np.float64, na_value=np.nan)
        diff = np.abs(av[:, None] - bv[None, :])
        obs = ~np.isnan(diff)
        acc += np.where(obs, diff ** power, 0.0)
        nobs += obs
    p = len(cols)
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.where(nobs > 0, acc * (p / nobs), np.nan)
    return np.sqrt(scaled) if power == 2 else scaled


def record_linkage(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str],
    *,
    distance: str = "gower",
    weights: Sequence[float] | None = None,
    original_id: str | None = None,
    released_id: str | None = None,
    return_matrix: bool = False,
    tol: float = math.sqrt(np.finfo(np.float64).eps),
) -> RecordLinkageResult:
    """Global distance-based record linkage (sdcMicro ``recordLinkage``; Herranz et al. 2015).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The original and released files; same number of records (a one-to-one assignment).
    variables : str or sequence of str
        The linkage variables (numeric, nominal, ordered categorical or boolean).
    distance : {"gower", "euclidean", "manhattan"}
        As ``cluster::daisy``; Euclidean and Manhattan need numeric or boolean variables.
    weights : sequence of float, optional
        Per-variable weights (Gower only, as in daisy): finite, >= 0, not all 0.
    original_id, released_id : str, optional
        Id columns; by default the row positions, so row i is the truth for row i.
    return_matrix : bool
        Keep the n x n distance matrix in the result.
    tol : float
        Tolerance for ``n_best`` (candidates tied with the row minimum).

    Returns
    -------
    RecordLinkageResult
        The assignment, the correct matches and their rate, the mean and total distance.
        Where several assignments have the same total, scipy may pick another one than
        clue's ``solve_LSAP``: the total distance is the same.
    """
    original = check_frame(original, "original")
    released = check_frame(released, "released")
    cols = check_columns(original, variables, role="variables")
    check_columns(released, cols, role="variables")
    distance = check_option(distance, "distance", RL_DISTANCES)
    tol = check_number(tol, "tol", low=0.0, high=math.inf)
    n = len(original)
    if n != len(released):
        raise ValueError("`original` and `released` must have the same number of records for a one-to-one "
                         f"assignment; got {n} and {len(released)}.")
    w = _variable_weights(weights, len(cols))
    if original_id is not None:
        check_columns(original, [original_id], role="original_id")
    if released_id is not None:
        check_columns(released, [released_id], role="released_id")
    kinds = [_kind(original[c], released[c], c) for c in cols]
    _check_no_inf(original, cols, "original")
    _check_no_inf(released, cols, "released")
    if distance == "gower":
        cost = _gower_parts(original, released, cols, kinds, w)
    else:
        bad = [c for c, kd in zip(cols, kinds) if kd not in ("numeric", "logical")]
        if bad:
            raise ValueError(f"distance={distance!r} needs numeric or logical variables; not: {', '.join(bad)} "
                             "(use distance='gower').")
        xo = original[list(cols)].astype(np.float64)
        xr = released[list(cols)].astype(np.float64)
        cost = _minkowski(xo, xr, cols, 2 if distance == "euclidean" else 1)
    if not np.isfinite(cost).all():
        i, j = np.argwhere(~np.isfinite(cost))[0]
        raise ValueError(f"the distance between original record {int(i)} and released record {int(j)} cannot be "
                         "computed (no linkage variable observed in both; for Gower's distance a logical "
                         "variable False in both records does not count).")
    from scipy.optimize import linear_sum_assignment

    rows, assigned = linear_sum_assignment(cost)
    y_row = np.empty(n, dtype=np.int64)
    y_row[rows] = assigned
    matched = cost[np.arange(n), y_row]
    row_min = cost.min(axis=1)
    n_best = (np.abs(cost - row_min[:, None]) <= tol).sum(axis=1)
    x_ids = original[original_id].to_numpy() if original_id is not None else np.arange(n)
    y_ids = released[released_id].to_numpy() if released_id is not None else np.arange(n)
    my = y_ids[y_row]
    evaluable = ~(pd.isna(x_ids) | pd.isna(my))
    correct = pd.array(np.where(evaluable, x_ids == my, False), dtype="boolean")
    correct[~evaluable] = pd.NA
    matches = pd.DataFrame({"x_row": np.arange(n), "y_row": y_row, "x_id": x_ids, "y_id": my, "distance": matched,
                            "correct_match": correct, "n_best": n_best.astype(np.int64)})
    n_eval = int(evaluable.sum())
    n_correct = int(np.asarray(correct.fillna(False), dtype=bool).sum())
    return RecordLinkageResult(
        variables=cols, distance=distance, weights=tuple(float(v) for v in w), matches=matches,
        correct_matches=n_correct, correct_match_rate=n_correct / n_eval if n_eval else float("nan"),
        mean_distance=float(matched.mean()), total_distance=float(matched.sum()),
        distance_matrix=cost if return_matrix else None)
