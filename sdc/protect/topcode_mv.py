"""Multivariate top coding (sdcMicro's ``mvTopCoding``): records far from the bulk of the data in
Mahalanobis distance are pulled back onto the boundary of the tolerance ellipsoid.

With a center c and covariance S of the p variables (robust by default: the reweighted MCD of
:func:`sdc.core.robust.robust_covariance`, the estimator robustbase's ``covMcd`` defines, which
sdcMicro calls), the squared distance of record i is D_i = (x_i - c)' S^-1 (x_i - c) and the
bound is d = chi2_{p, 1 - alpha}. Every record with D_i > d (strict, as sdcMicro's
``which(maha > d)``) is replaced by

    x_i' = c + sqrt(d / D_i) (x_i - c),

the point where the segment from the center to x_i crosses the ellipsoid D = d: its new squared
distance is exactly d and its direction from the center is kept. Records within the bound, and
records with a missing value among the variables (no distance), are unchanged.

References
----------
sdcMicro ``mvTopCoding`` (``R/mvTopCoding.R``); Templ, M. (2017). *Statistical Disclosure Control
for Microdata*, Springer, section 7 (multivariate top coding). Rousseeuw, P. J. and Van Driessen,
K. (1999), Technometrics 41(3), 212-223 (FAST-MCD).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from sdc._schema import Real
from sdc.core.robust import mahalanobis2, robust_covariance
from sdc.protect._common import check_variables, count_changed, numeric_values, output_frame, resolve_seed
from sdc.protect._declare import Listed, param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._result import ProtectionResult

__all__ = ["mv_top_code", "pull_to_ellipsoid"]


def pull_to_ellipsoid(X: np.ndarray, center: np.ndarray, cov: np.ndarray,
                      bound: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(new values, squared distances, flagged) of the rows of `X`: each row with distance above
    `bound` moved to c + sqrt(bound / D) (x - c); rows with a missing value untouched."""
    complete = ~np.isnan(X).any(axis=1)
    dist = np.full(X.shape[0], np.nan)
    dist[complete] = mahalanobis2(X[complete], center, cov)
    flagged = complete & (np.nan_to_num(dist, nan=-np.inf) > bound)
    out = X.copy()
    shrink = np.sqrt(bound / dist[flagged])[:, None]
    out[flagged] = center + shrink * (X[flagged] - center)
    return out, dist, flagged


def _r_mv_top_code(run: StepRun) -> RStep:
    """sdcMicro's ``mvTopCoding``: its own MCD (R's draws), or the given center and covariance."""
    p, v = run.parameters, r_names(run.variables)
    alpha = r_value(p.get("alpha", 0.025))
    # as doubles: sdcMicro would truncate the new values of an integer column (data.table's assignment)
    x = f"x <- as.data.frame(lapply(data[{v}], as.numeric))"
    if p.get("center") is not None:
        c = r_value([float(x) for x in p["center"]])
        s = "matrix(" + r_value([float(x) for row in p["cov"] for x in row]) + f", nrow = {len(p['center'])})"
        code = (x, f"maha <- stats::mahalanobis(x, center = {c}, cov = {s})",
                f"data[{v}] <- as.data.frame(sdcMicro::mvTopCoding(x, maha = maha, center = {c}, alpha = {alpha}))",
                "data")
        return RStep(code, True, "sdcMicro's mvTopCoding with the same center and covariance; the same values")
    code = (f"set.seed({r_seed(run.seed or 0)})",
            x, f"data[{v}] <- as.data.frame(sdcMicro::mvTopCoding(x, alpha = {alpha}))", "data")
    return RStep(code, False, "sdcMicro's mvTopCoding; its MCD draws R's random starts, not sdc's: the robust "
                 "covariance, and so the records at the margin of the bound, may differ")


def _given(center: Any, cov: Any, p: int) -> tuple[np.ndarray, np.ndarray]:
    c = np.asarray(center, dtype=np.float64)
    s = np.asarray(cov, dtype=np.float64)
    if c.shape != (p,) or s.shape != (p, p):
        raise ValueError(f"`center` must hold {p} numbers and `cov` be a {p} x {p} matrix (one per variable); got "
                         f"{c.size} numbers and a matrix of shape {' x '.join(map(str, s.shape))}.")
    if not (np.isfinite(c).all() and np.isfinite(s).all()) or not np.allclose(s, s.T):
        raise ValueError("`cov` must be a symmetric matrix of finite numbers, and `center` finite.")
    if np.linalg.eigvalsh(s).min() <= 0:
        raise ValueError("`cov` must be positive definite: a Mahalanobis distance needs its inverse.")
    return c, s


@protection_method(
    "mv_top_code", sdcmicro=_r_mv_top_code, numeric=True,
    summary="records far out in robust Mahalanobis distance pulled back onto the tolerance ellipsoid",
    why="its robust center and covariance are estimated from the whole file",
    example={"variables": ["bmi", "cholesterol"], "alpha": 0.025},
    options={"alpha": param(Real(0.0, 1.0, low_open=True, high_open=True),
                            "records beyond the chi-square (1 - alpha) quantile of the distance are pulled back"),
             "center": param(Listed("a list of numbers, one per variable"),
                             "the center (default: the robust MCD center; give it with cov)"),
             "cov": param(Listed("a matrix as a list of rows"),
                          "the covariance (default: the robust MCD covariance; give it with center)")})
def mv_top_code(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    alpha: float = 0.025,
    center: Sequence[float] | None = None,
    cov: Sequence[Sequence[float]] | None = None,
    seed: int | None = None,
) -> ProtectionResult:
    """Multivariate top coding by robust Mahalanobis distance (sdcMicro's ``mvTopCoding``).

    Every record whose squared Mahalanobis distance D from `center` under `cov` exceeds
    d = chi2_{p, 1 - alpha} becomes ``center + sqrt(d / D) (x - center)`` (see the module
    docstring). Without `center` and `cov`, both are the reweighted MCD (robustbase's ``covMcd``
    with its defaults, as sdcMicro): its random starts are seeded.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    variables : list of str
        At least two numeric columns (one variable: :func:`sdc.top_bottom_code`).
    alpha : float in (0, 1), default 0.025
        sdcMicro's default: the bound is the 97.5 % quantile of chi-square with p degrees of freedom.
    center, cov : optional
        A center (p numbers) and a positive definite covariance (p rows of p numbers), given
        together; then nothing is random. sdcMicro's ``cov`` argument is ignored by sdcMicro
        (it recomputes the MCD unless given ``maha``); here it is used.
    seed : int, optional
        Seed of the MCD's random starts (drawn and recorded when None; unused with center and cov).

    Returns
    -------
    ProtectionResult
        The variables become float64. ``details``: ``bound`` (d), ``flagged`` (records pulled
        back), ``center`` and ``cov`` used (lists), ``max_distance`` (the largest D before).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"a": [0.0, 1.0, 0.0, -1.0, 6.0], "b": [1.0, 0.0, -1.0, 0.0, 8.0]})
    >>> r = sdc.mv_top_code(df, ["a", "b"], center=[0, 0], cov=[[1, 0], [0, 1]], alpha=0.05)
    >>> r.data.loc[4].round(4).tolist(), r.details["flagged"]
    ([1.4686, 1.9582], 1)
    """
    frame, cols = check_variables(data, variables)
    if len(cols) < 2:
        raise ValueError("mv_top_code needs at least two variables (a Mahalanobis distance); for one, use "
                         "top_bottom_code.")
    if (center is None) != (cov is None):
        raise ValueError("give `center` and `cov` together (or neither: the robust MCD estimates both).")
    X = np.column_stack([numeric_values(frame[v], "mv_top_code") for v in cols])
    p = len(cols)
    seed_used: int | None = None
    if center is None:
        seed_used, _ = resolve_seed(seed)
        complete = X[~np.isnan(X).any(axis=1)]
        if complete.shape[0] <= p + 1:
            raise ValueError(f"mv_top_code's robust covariance needs more than {p + 1} records with every variable "
                             f"present; got {complete.shape[0]}.")
        fit = robust_covariance(complete, seed=seed_used)
        c, s = fit.center, fit.cov
    else:
        c, s = _given(center, cov, p)
    bound = float(stats.chi2.ppf(1 - alpha, p))
    Y, dist, flagged = pull_to_ellipsoid(X, c, s, bound)
    out = output_frame(frame)
    changed = {}
    for j, v in enumerate(cols):
        out[v] = pd.Series(Y[:, j], index=frame.index, name=v)
        changed[v] = count_changed(X[:, j], Y[:, j])
    details = {"bound": bound, "flagged": int(flagged.sum()), "center": c.tolist(), "cov": s.tolist(),
               "max_distance": float(np.nanmax(dist)) if np.isfinite(dist).any() else float("nan")}
    params: dict[str, Any] = {"variables": list(cols), "alpha": float(alpha),
                              "center": None if center is None else c.tolist(),
                              "cov": None if cov is None else s.tolist()}
    return ProtectionResult(method="mv_top_code", data=out, variables=cols, parameters=params, seed=seed_used,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details)
