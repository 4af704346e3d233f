"""Eigenvalue similarity of the correlation structure before and after protection.

Protection of continuous variables (noise, microaggregation, rank swapping) should keep
their joint structure. The eigenvalues of the correlation matrix summarise it: their
share says how much variance each principal component carries. :func:`eigen_similarity`
compares the sorted eigenvalues of the original and released correlation matrices, and
also returns sdcMicro's ``dUtility(method = "eigen")`` figure on sdcMicro's own matrices.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.exceptions import DegenerateDataWarning
from sdc.utility._common import align, numeric_values, numeric_variables

__all__ = ["EigenSimilarityResult", "eigen_similarity", "sorted_eigenvalues", "sdcmicro_eigen_matrix", "eigen_loss",
           "RobustEigenResult", "robust_eigen_loss"]

# An eigenvalue this small relative to the largest is zero up to rounding (double precision).
_SINGULAR = 1e-12


@dataclass(frozen=True)
class EigenSimilarityResult:
    """Result of :func:`eigen_similarity`.

    Attributes
    ----------
    variables : tuple of str
        The numeric variables.
    percent : float
        :math:`100 (1 - \\sum_k |\\lambda'_k - \\lambda_k| / \\sum_k \\lambda_k)`; 100 when the
        eigenvalues are unchanged. NaN when a correlation is undefined.
    sdcmicro_eigen : float
        sdcMicro's ``dUtility(x, xm, method = "eigen")``:
        :math:`\\sum_k |e'_k - e_k| / e_k` on sdcMicro's matrices (0 when unchanged;
        ``print(sdc)`` shows it times 100 as "Difference of Eigenvalues").
    eigenvalues : pandas.DataFrame
        One row per component (1 = largest): ``before``, ``after``, ``abs_difference``.
    correlation_before, correlation_after : pandas.DataFrame
        The pairwise-complete Pearson correlation matrices.
    n_records : int
    """

    variables: tuple[str, ...]
    percent: float
    sdcmicro_eigen: float
    eigenvalues: pd.DataFrame = field(repr=False)
    correlation_before: pd.DataFrame = field(repr=False)
    correlation_after: pd.DataFrame = field(repr=False)
    n_records: int

    @property
    def correlation_difference(self) -> pd.DataFrame:
        """After minus before."""
        return self.correlation_after - self.correlation_before

    def to_frame(self) -> pd.DataFrame:
        """The eigenvalues, one row per component."""
        return self.eigenvalues.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures (the similarity in percent and sdcMicro's eigen figure) as rows of
        (statistic, value, description)."""
        return summary_frame([
            ("eigen_similarity_pct", float(self.percent),
             "similarity of the correlation matrices' eigenvalues (%; 100: the same)"),
            ("sdcmicro_eigen", float(self.sdcmicro_eigen), "sdcMicro's dUtility eigen figure"),
            ("variables", list(self.variables), "the numeric variables"),
            ("n_records", self.n_records, "records"),
        ])


def sorted_eigenvalues(matrix: np.ndarray) -> np.ndarray:
    """Eigenvalues of a symmetric matrix, largest first (NaN if it holds a NaN)."""
    if not np.all(np.isfinite(matrix)):
        return np.full(matrix.shape[0], np.nan)
    return np.linalg.eigvalsh(matrix)[::-1]


def sdcmicro_eigen_matrix(values: np.ndarray) -> np.ndarray:
    """sdcMicro's matrix: ``var(scale(x), use = "pairwise.complete.obs")``.

    Each column is centred and scaled by its own mean and sd (n - 1) over its non-missing
    values; then each pair's covariance is taken over the records where both are present,
    around that subset's means. Without missing values this is the correlation matrix.
    """
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        # a column with fewer than two values has no sd: NaN, as R's scale() gives
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(values, axis=0)
        sd = np.nanstd(values, axis=0, ddof=1)
        z = (values - mean) / sd
    return pd.DataFrame(z).cov().to_numpy(dtype=np.float64)


def _numeric_frame(frame: pd.DataFrame, cols: tuple[str, ...], name: str) -> np.ndarray:
    return np.column_stack([numeric_values(frame[c], name) for c in cols]) if cols else np.empty((len(frame), 0))


def _warn_undefined(corr: pd.DataFrame, frame: str) -> None:
    m = corr.to_numpy(dtype=np.float64)
    if not np.isnan(m).any():
        return
    names = list(corr.columns)
    diag = np.flatnonzero(np.isnan(np.diag(m)))
    if diag.size:
        what = f"variable {names[diag[0]]!r} is constant or has fewer than two values"
    else:
        i, j = np.argwhere(np.isnan(m))[0]
        what = (f"variables {names[i]!r} and {names[j]!r} have fewer than two records with both present "
                "(or one is constant on them)")
    warnings.warn(f"in `{frame}`, {what}: a correlation is undefined, so the eigenvalue similarity is NaN.",
                  DegenerateDataWarning, stacklevel=3)


def eigen_similarity(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> EigenSimilarityResult:
    r"""Similarity of the eigenvalues of the correlation matrices, in percent.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Numeric variables (numeric in both files). By default every numeric column of
        `original` that is numeric in `released` too.

    Returns
    -------
    EigenSimilarityResult
        ``.percent`` is the headline figure.

    Notes
    -----
    With :math:`\lambda_1 \ge \dots \ge \lambda_p` the eigenvalues of the original's
    correlation matrix R and :math:`\lambda'_k` those of the release's R' (both sorted
    in decreasing order):

    .. math::

        \text{similarity} = 100 \left(1 - \frac{\sum_k |\lambda'_k - \lambda_k|}{\sum_k \lambda_k}\right)

    :math:`\sum_k \lambda_k = \operatorname{tr} R = p`. Correlations are Pearson's over
    the records where both variables are present (pairwise complete). 100 means the same
    spectrum; the figure falls as the protection reshapes the joint structure, and can be
    negative when it is destroyed (down to :math:`100(1 - 2(p-1)/p)`).

    ``sdcmicro_eigen`` is sdcMicro's ``dUtility(method = "eigen")`` (Templ and Meindl
    2008, "Robust statistics meets SDC", PSD 2008):
    :math:`\sum_k |e'_k - e_k| / e_k` (each difference relative to its own original
    eigenvalue), where e are the eigenvalues of ``var(scale(x), use =
    "pairwise.complete.obs")`` (see :func:`sdcmicro_eigen_matrix`). Without missing values
    both use the correlation matrix; with missing values sdcMicro's matrix scales by the
    whole-column sd and differs slightly from the pairwise correlations (``percent`` uses
    the latter, as Pearson defines them).

    Examples
    --------
    >>> import numpy as np, pandas as pd, sdc
    >>> rng = np.random.default_rng(1)
    >>> x = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    >>> sdc.eigen_similarity(x, x.copy()).percent
    100.0
    """
    orig, rel = align(original, released)
    cols = numeric_variables(orig, rel, variables)
    xo = _numeric_frame(orig, cols, "original")
    xr = _numeric_frame(rel, cols, "released")
    corr_o = pd.DataFrame(xo, columns=list(cols)).corr()
    corr_r = pd.DataFrame(xr, columns=list(cols)).corr()
    _warn_undefined(corr_o, "original")
    _warn_undefined(corr_r, "released")
    ev_o = sorted_eigenvalues(corr_o.to_numpy(dtype=np.float64))
    ev_r = sorted_eigenvalues(corr_r.to_numpy(dtype=np.float64))
    total = float(np.sum(ev_o))
    percent = 100.0 * (1.0 - float(np.sum(np.abs(ev_r - ev_o))) / total) if total > 0 else math.nan
    if np.array_equal(ev_o, ev_r):
        percent = 100.0  # exactly, not 100 minus rounding
    e1 = sorted_eigenvalues(sdcmicro_eigen_matrix(xo))
    e2 = sorted_eigenvalues(sdcmicro_eigen_matrix(xr))
    if e1.size and np.all(np.isfinite(e1)) and abs(e1[-1]) <= _SINGULAR * abs(e1[0]):
        warnings.warn(
            "the correlation matrix of `original` is singular (a variable is a linear combination of others): "
            "sdcMicro's eigen figure divides by an eigenvalue of 0, so `sdcmicro_eigen` is rounding noise; "
            "`percent` is not affected.", DegenerateDataWarning, stacklevel=2,
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        sdcm = float(np.sum(np.abs(e1 - e2) / e1))
    eig = pd.DataFrame({"before": ev_o, "after": ev_r, "abs_difference": np.abs(ev_r - ev_o)},
                       index=pd.RangeIndex(1, len(cols) + 1, name="component"))
    return EigenSimilarityResult(
        variables=cols, percent=percent, sdcmicro_eigen=sdcm, eigenvalues=eig,
        correlation_before=corr_o, correlation_after=corr_r, n_records=len(orig),
    )


def eigen_loss(cov_before: np.ndarray, cov_after: np.ndarray) -> float:
    r"""sdcMicro's eigenvalue figure of two matrices: :math:`\sum_k |e_k - e'_k| / e_k`, the
    eigenvalues of each sorted largest first (NaN when a matrix holds a NaN)."""
    e1, e2 = sorted_eigenvalues(np.atleast_2d(cov_before)), sorted_eigenvalues(np.atleast_2d(cov_after))
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.sum(np.abs(e1 - e2) / e1))


@dataclass(frozen=True)
class RobustEigenResult:
    """Result of :func:`robust_eigen_loss`.

    Attributes
    ----------
    variables : tuple of str
    value : float
        sdcMicro's ``dUtility(x, xm, method = "robeigen")``: :math:`\\sum_k |e_k - e'_k| / e_k`
        on the MCD covariances of the standardised variables (0 when unchanged). NaN when an
        MCD is undefined.
    eigenvalues : pandas.DataFrame
        One row per component (1 = largest): ``before``, ``after``, ``relative_difference``.
    cov_before, cov_after : pandas.DataFrame
        The reweighted MCD covariance matrices of the standardised variables.
    seed : int
        The seed of the MCD's random starts.
    n_complete_original, n_complete_released : int
        Records with every variable present (the MCD is taken over them).
    n_records : int
    """

    variables: tuple[str, ...]
    value: float
    eigenvalues: pd.DataFrame = field(repr=False)
    cov_before: pd.DataFrame = field(repr=False)
    cov_after: pd.DataFrame = field(repr=False)
    seed: int
    n_complete_original: int
    n_complete_released: int
    n_records: int

    def to_frame(self) -> pd.DataFrame:
        """The eigenvalues, one row per component."""
        return self.eigenvalues.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figure as rows of (statistic, value, description)."""
        return summary_frame([
            ("robust_eigen", float(self.value), "sdcMicro's robeigen: relative change of the robust eigenvalues"),
            ("variables", list(self.variables), "the numeric variables"),
            ("seed", self.seed, "seed of the MCD's random starts"),
            ("n_complete_original", self.n_complete_original, "records of `original` with every variable present"),
            ("n_complete_released", self.n_complete_released, "records of `released` with every variable present"),
            ("n_records", self.n_records, "records"),
        ])


def _robust_scaled_cov(values: np.ndarray, seed: int, frame: str) -> tuple[np.ndarray, int]:
    from sdc.core.robust import robust_covariance

    x = values[~np.isnan(values).any(axis=1)]
    # The MCD's random starts draw records by position: sorted rows make it independent of the order.
    x = x[np.lexsort(x.T[::-1])] if x.size else x
    p = values.shape[1]
    nan = np.full((p, p), np.nan)
    if x.shape[0] <= p or p < 2:
        warnings.warn(f"`{frame}` has {x.shape[0]} complete records of {p} variables: the robust covariance "
                      "needs two or more variables and more complete records than variables; robust_eigen is NaN.",
                      DegenerateDataWarning, stacklevel=3)
        return nan, x.shape[0]
    sd = x.std(axis=0, ddof=1)
    if np.any(sd == 0):
        warnings.warn(f"a variable of `{frame}` is constant: it cannot be standardised; robust_eigen is NaN.",
                      DegenerateDataWarning, stacklevel=3)
        return nan, x.shape[0]
    try:
        fit = robust_covariance((x - x.mean(axis=0)) / sd, seed=seed)
    except ValueError as exc:
        warnings.warn(f"in `{frame}`, {exc} robust_eigen is NaN.", DegenerateDataWarning, stacklevel=3)
        return nan, x.shape[0]
    return fit.cov, x.shape[0]


def robust_eigen_loss(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
    *,
    seed: int = 0,
) -> RobustEigenResult:
    r"""sdcMicro's ``robeigen``: the eigenvalue figure on robust (MCD) covariances.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Numeric variables (numeric in both files, two or more). By default every numeric
        column of `original` that is numeric in `released` too.
    seed : int, default 0
        Seed of the MCD's random starts (recorded in the result).

    Returns
    -------
    RobustEigenResult
        ``.value`` is the headline figure.

    Notes
    -----
    With :math:`e_1 \ge \dots \ge e_p` the eigenvalues of the reweighted MCD covariance of
    the standardised original variables (R's ``scale``: mean 0, sd 1 with n - 1) and
    :math:`e'_k` those of the release:

    .. math::

        \text{robeigen} = \sum_k \frac{|e_k - e'_k|}{e_k}

    (Templ and Meindl 2008, "Robust statistics meets SDC: new disclosure risk measures for
    continuous microdata masking", PSD 2008, LNCS 5262, 113-126; sdcMicro's ``dUtility(method
    = "robeigen")``). The MCD is robustbase's ``covMcd`` estimator with its defaults
    (alpha 0.5, reweighted, consistency and small-sample factors), computed by
    :func:`sdc.core.robust.robust_covariance`. Its search is randomised, in R as here: with
    the same h-subset found the figures agree to rounding; the search may end in another
    local optimum, and robustbase's small-sample factors differ for n <= 20
    (docs/sdcmicro-differences.md). Records with a missing value are left out, each file
    on its own (sdcMicro returns NA when a value is missing).

    Examples
    --------
    >>> import numpy as np, pandas as pd, sdc
    >>> x = pd.DataFrame(np.random.default_rng(1).normal(size=(60, 3)), columns=["a", "b", "c"])
    >>> sdc.robust_eigen_loss(x, x.copy()).value
    0.0
    """
    orig, rel = align(original, released)
    cols = numeric_variables(orig, rel, variables)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"`seed` must be an integer; got {seed!r}.")
    c_o, n_o = _robust_scaled_cov(_numeric_frame(orig, cols, "original"), int(seed), "original")
    c_r, n_r = _robust_scaled_cov(_numeric_frame(rel, cols, "released"), int(seed), "released")
    e1, e2 = sorted_eigenvalues(c_o), sorted_eigenvalues(c_r)
    value = 0.0 if np.array_equal(c_o, c_r) else eigen_loss(c_o, c_r)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel_diff = np.abs(e1 - e2) / e1
    names = list(cols)
    return RobustEigenResult(
        variables=cols, value=value,
        eigenvalues=pd.DataFrame({"before": e1, "after": e2, "relative_difference": rel_diff},
                                 index=pd.RangeIndex(1, len(cols) + 1, name="component")),
        cov_before=pd.DataFrame(c_o, index=names, columns=names), cov_after=pd.DataFrame(c_r, index=names, columns=names),
        seed=int(seed), n_complete_original=n_o, n_complete_released=n_r, n_records=len(orig),
    )
