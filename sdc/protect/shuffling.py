"""Data shuffling (sdcMicro's ``shuffle``, Muralidhar and Sarathy's method): the confidential
variables' own values are redistributed among the records in the order of a perturbed
prediction from non-confidential predictors, so every marginal distribution is kept exactly and
the rank relations with the predictors approximately.

``method="ds"`` (sdcMicro's default; Muralidhar & Sarathy 2006, *Data shuffling — a new masking
approach for numerical data*, Management Science 52(5), 658-670): with the normal scores
z = Phi^-1((rank - 0.5) / n) of every response Y and predictor X (average ranks for ties), and
the matrix P = 2 sin(pi R / 6) of the rank correlations R (Spearman's; ``covmethod="pearson"``:
Pearson's of the values), the perturbed values are

    Y* = Z_X (P_YX P_XX^-1)' + e,   e ~ N(0, P_YY - P_YX P_XX^-1 P_XY)

(the conditional normal given the predictors' scores; one multivariate draw per record, seeded).
``method="mlm"``: Y* is the least-squares prediction of Y from X with an intercept (nothing
random). ``method="mvn"`` (sdcMicro's "draws from the normal copula directly"): Y* ~ N(0, P_YY),
one draw per record that does not depend on the record's predictors: the rank relations among
the responses are kept, those with the predictors and with the original values are not (as in
sdcMicro, whose draw is of all variables jointly, independent of the records). Then, for each
response, the record with the j-th smallest Y* gets the j-th smallest original value (ties in Y*
in record order, as R's ``order``).

``covmethod="mcd"``: R is the correlation of robustbase's ``covMcd`` (:func:`sdc.core.robust.
robust_covariance`, its reweighted covariance scaled to a correlation; the scale factors cancel)
of the values of (Y, X), seeded; then P = 2 sin(pi R / 6) as for the others, as sdcMicro does.

``gadp=True`` (general additive data perturbation, Muralidhar, Parsa and Sarathy 1999, in its
enhanced form, Muralidhar and Sarathy 2005, *An enhanced data perturbation approach for small
data sets*, Decision Sciences 36(3), 513-529): ``details["gadp"]`` holds

    Y' = Yhat + e,   e = R_V S_V^-1/2 S_R^1/2,

with Yhat the least-squares fit of Y on [1, X], R = Y - Yhat, R_V the residuals of a seeded
standard normal n x q matrix V regressed on [1, X, Y], S the (Pearson) sample covariances and
^1/2 the symmetric square roots: exactly mean(Y') = mean(Y), cov(Y') = cov(Y), cov(Y', X) =
cov(Y, X) and cov(e, Y) = 0. It is not shuffled and not released (sdcMicro returns it beside the
shuffle as ``egapd``). ``regmethod="lm"`` is that least-squares fit; ``"MM"`` (``MASS::rlm``'s
MM-estimator, whose S-estimate start is random resampling) is refused.

Missing values: as sdcMicro, a missing value is first filled with a value drawn at random from
the column's observed ones (seeded) for the model (ranks, correlations, prediction); then each
response's observed values are redistributed among the records where it is observed, and the
missing cells stay missing. (sdcMicro redistributes the filled-in values too and then blanks the
originally missing cells, so a filled-in value can reach the release and an observed one be lost;
with no missing value the two are the same.)

References
----------
sdcMicro ``shuffle`` (``R/shuffle.R``); Muralidhar, K. and Sarathy, R. (2006), Management
Science 52(5), 658-670; Muralidhar, K., Parsa, R. and Sarathy, R. (1999), *A general additive data
perturbation method for database security*, Management Science 45(10), 1399-1415; Templ, M. (2017), *Statistical Disclosure Control for Microdata*,
Springer, section 7.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from sdc._schema import Choice, Flag, Names
from sdc._validation import check_columns, check_option
from sdc.core.robust import robust_covariance
from sdc.protect._common import check_variables, count_changed, numeric_values, output_frame, resolve_seed
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._result import ProtectionResult

__all__ = ["shuffle", "METHODS", "normal_scores", "correlations", "ds_model", "reverse_map", "mlm_prediction",
           "egadp"]

METHODS = ("ds", "mlm", "mvn")
COVMETHODS = ("spearman", "pearson", "mcd")
REGMETHODS = ("lm", "MM")


def _ranks(M: np.ndarray) -> np.ndarray:
    return np.column_stack([stats.rankdata(M[:, j], method="average") for j in range(M.shape[1])])


def normal_scores(M: np.ndarray) -> np.ndarray:
    """Phi^-1((rank - 0.5) / n) of each column (average ranks for ties)."""
    return stats.norm.ppf((_ranks(M) - 0.5) / M.shape[0])


def correlations(M: np.ndarray, covmethod: str = "spearman", seed: int = 0) -> np.ndarray:
    """R of the columns of `M`: Spearman's, Pearson's or the MCD's (robustbase's ``covMcd``
    ``$cor``: its reweighted covariance scaled to unit diagonal; `seed` for its random starts)."""
    if covmethod != "mcd":
        return np.corrcoef(_ranks(M) if covmethod == "spearman" else M, rowvar=False)
    flat = np.flatnonzero(np.ptp(M, axis=0) == 0)
    if flat.size:
        raise ValueError(f"shuffle covmethod='mcd': column {int(flat[0]) + 1} of the variables and predictors is "
                         "constant; its MCD covariance is singular.")
    try:
        cov = robust_covariance(M, seed=seed).cov
    except ValueError as err:
        raise ValueError(f"shuffle covmethod='mcd': {err}") from None
    d = np.sqrt(np.diag(cov))
    return cov / np.outer(d, d)


def ds_model(Y: np.ndarray, X: np.ndarray, covmethod: str = "spearman", *,
             R: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(conditional mean of the responses' normal scores per record, the noise covariance) of
    method "ds" (see the module docstring); `R`: the correlations of (Y, X) when already known
    (else :func:`correlations` by `covmethod`)."""
    M = np.column_stack([Y, X])
    if R is None:
        R = correlations(M, covmethod)
    P = 2 * np.sin(np.pi * R / 6)
    q = Y.shape[1]
    pyx, pxx, pyy = P[:q, q:], P[q:, q:], P[:q, :q]
    B = pyx @ np.linalg.inv(pxx)
    mean = normal_scores(M)[:, q:] @ B.T
    return mean, pyy - B @ pyx.T


def mlm_prediction(Y: np.ndarray, X: np.ndarray) -> np.ndarray:
    """The least-squares predictions of the responses from the predictors, with an intercept."""
    A = np.column_stack([np.ones(X.shape[0]), X])
    beta, *_ = np.linalg.lstsq(A, Y, rcond=None)
    return A @ beta


def _sqrt_sym(S: np.ndarray, inverse: bool = False) -> np.ndarray:
    ev, vec = np.linalg.eigh((S + S.T) / 2)
    if inverse and ev.min() <= 1e-12 * max(ev.max(), 1e-300):
        raise ValueError("shuffle gadp: the residuals of the random draw are collinear (too few records for "
                         "the variables and predictors).")
    ev = np.clip(ev, 0, None)
    return (vec * (1 / np.sqrt(ev) if inverse else np.sqrt(ev))) @ vec.T


def egadp(Y: np.ndarray, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Enhanced GADP (see the module docstring): Yhat + R_V S_V^-1/2 S_R^1/2, with the exact
    sample moments of (Y, X)."""
    n, q = Y.shape
    A = np.column_stack([np.ones(n), X])
    fitted = mlm_prediction(Y, X)
    V = rng.standard_normal((n, q))
    B = np.column_stack([A, Y])
    RV = V - B @ np.linalg.lstsq(B, V, rcond=None)[0]
    SR = np.atleast_2d(np.cov(Y - fitted, rowvar=False))
    SV = np.atleast_2d(np.cov(RV, rowvar=False))
    return fitted + RV @ _sqrt_sym(SV, inverse=True) @ _sqrt_sym(SR)


def _draw(mean: np.ndarray, sigma: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """mean + one N(0, sigma) draw per row (MASS::mvrnorm's rule: negative eigenvalues as 0)."""
    ev, vec = np.linalg.eigh((sigma + sigma.T) / 2)
    return mean + (rng.standard_normal(mean.shape) * np.sqrt(np.clip(ev, 0, None))) @ vec.T


def reverse_map(y: np.ndarray, ystar: np.ndarray) -> np.ndarray:
    """y's own values in the order of `ystar`: the record of the j-th smallest y* gets the j-th
    smallest y (ties in y* in record order)."""
    out = np.empty_like(y)
    out[np.argsort(ystar, kind="stable")] = np.sort(y)
    return out


def _fill_missing(M: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    miss = np.isnan(M)
    M = M.copy()
    for j in np.flatnonzero(miss.any(axis=0)):
        seen = M[~miss[:, j], j]
        M[miss[:, j], j] = seen[rng.integers(0, seen.size, int(miss[:, j].sum()))]
    return M, miss


def _r_shuffle(run: StepRun) -> RStep:
    p = run.parameters
    form = f"{' + '.join(run.variables)} ~ {' + '.join(p['predictors'])}"
    code = (f"set.seed({r_seed(run.seed or 0)})",
            # only the step's columns: sdcMicro fills missing values of every column it is given
            f"res <- sdcMicro::shuffle(data[{r_names([*run.variables, *p['predictors']])}], "
            f"form = stats::as.formula({r_value(form)}), method = "
            f"{r_value(p.get('method', 'ds'))}, covmethod = {r_value(p.get('covmethod', 'spearman'))}, "
            f"regmethod = {r_value(p.get('regmethod', 'lm'))}, gadp = {r_value(bool(p.get('gadp', False)))})",
            f"data[{r_names(run.variables)}] <- as.data.frame(res$shuffled)", "data")
    if p.get("method") == "mlm":
        return RStep(code, False, "sdcMicro 5.8.2's shuffle stops with an error in method mlm ('data' must be a "
                                  "data.frame); sdc uses the least-squares prediction it means")
    if p.get("method") == "mvn":
        return RStep(code, False, "sdcMicro's shuffle mvn passes its copula draw through its EGADP step; sdc "
                                  "draws the responses' copula directly (random: R's draws, not sdc's)")
    return RStep(code, False, "sdcMicro's shuffle, random: R's draws, not sdc's")


def _check(frame: pd.DataFrame, cols: list[str], predictors: Sequence[str], method: str, covmethod: str,
           regmethod: str, gadp: object) -> list[str]:
    preds = check_columns(frame, predictors, role="predictors")
    both = sorted(set(cols) & set(preds))
    if both:
        raise ValueError(f"{both[0]!r} is both a variable and a predictor; a predictor is not shuffled.")
    check_option(method, "method", METHODS)
    check_option(covmethod, "covmethod", COVMETHODS)
    check_option(regmethod, "regmethod", REGMETHODS)
    if regmethod == "MM":
        raise ValueError("`regmethod` 'MM' (MASS::rlm's MM-estimator, resampled at random) is not offered; "
                         "use 'lm'.")
    if not isinstance(gadp, (bool, np.bool_)):
        raise ValueError(f"`gadp` must be true or false; got {gadp!r}.")
    return list(preds)


def _perturbed(Y: np.ndarray, X: np.ndarray, method: str, covmethod: str, seed: int,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    """(Y*, the covariance of its draw: None for mlm)."""
    if method == "mlm":
        return mlm_prediction(Y, X), None
    R = correlations(np.column_stack([Y, X]), covmethod, seed)
    q = Y.shape[1]
    if method == "mvn":
        sigma = 2 * np.sin(np.pi * R[:q, :q] / 6)
        return _draw(np.zeros_like(Y), sigma, rng), sigma
    mean, sigma = ds_model(Y, X, covmethod, R=R)
    return _draw(mean, sigma, rng), sigma


@protection_method(
    "shuffle", sdcmicro=_r_shuffle, numeric=True,
    summary="each confidential variable's own values redistributed in the order of a perturbed prediction "
            "from predictors (data shuffling)",
    why="its ranks, correlations and redistribution run over the whole file",
    example={"variables": ["bmi", "cholesterol"], "predictors": ["age", "systolic_bp"]},
    options={"predictors": param(Names(), "the non-confidential numeric variables the prediction is made from"),
             "method": param(Choice(METHODS), "ds (Muralidhar and Sarathy's shuffling), mlm (the least-squares "
                                              "prediction) or mvn (the responses' normal copula alone)"),
             "covmethod": param(Choice(COVMETHODS), "the rank (spearman), value (pearson) or robust MCD (mcd) "
                                                    "correlations"),
             "regmethod": param(Choice(REGMETHODS), "gadp's regression: lm (MM is refused)"),
             "gadp": param(Flag(), "also compute the enhanced GADP perturbation (details, not released)")})
def shuffle(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    predictors: Sequence[str],
    method: str = "ds",
    covmethod: str = "spearman",
    regmethod: str = "lm",
    gadp: bool = False,
    seed: int | None = None,
) -> ProtectionResult:
    """Shuffle confidential variables (sdcMicro's ``shuffle``): see the module docstring.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    variables : list of str
        The confidential numeric variables (sdcMicro's formula's left side).
    predictors : list of str
        Non-confidential numeric variables (its right side); not changed.
    method : {"ds", "mlm", "mvn"}, default "ds"
    covmethod : {"spearman", "pearson", "mcd"}, default "spearman"
    regmethod : {"lm"}, default "lm"
        The regression of ``gadp`` ("MM" is refused).
    gadp : bool, default False
        Also compute the enhanced GADP perturbation of the variables (``details["gadp"]``).
    seed : int, optional
        Seed of the noise, of the MCD's starts and of the filling of missing values (drawn and
        recorded when None).

    Returns
    -------
    ProtectionResult
        Each variable holds its own values (the same sorted values: the marginal is kept);
        ``details``: ``noise_cov`` (ds: the covariance of e; mvn: of the draw), ``rank_correlation``
        (Spearman's, of each variable with its original), ``gadp`` (when asked: the GADP values).

    Examples
    --------
    >>> import sdc
    >>> df = sdc.load_example()
    >>> r = sdc.shuffle(df, ["bmi", "cholesterol"], predictors=["age", "systolic_bp"], seed=1)
    >>> bool((r.data["bmi"].sort_values().to_numpy() == df["bmi"].sort_values().to_numpy()).all())
    True
    """
    frame, cols = check_variables(data, variables)
    preds = _check(frame, list(cols), predictors, method, covmethod, regmethod, gadp)
    seed_used, rng = resolve_seed(seed)
    M = np.column_stack([numeric_values(frame[v], "shuffle") for v in (*cols, *preds)])
    if M.shape[0] < 3:
        raise ValueError(f"shuffle needs at least 3 records; got {M.shape[0]}.")
    M, miss = _fill_missing(M, rng)
    q = len(cols)
    Y, X = M[:, :q], M[:, q:]
    details: dict[str, Any] = {}
    ystar, sigma = _perturbed(Y, X, method, covmethod, seed_used, rng)
    if sigma is not None:
        details["noise_cov"] = pd.DataFrame(sigma, index=list(cols), columns=list(cols))
    out = output_frame(frame)
    changed, rho = {}, {}
    for j, v in enumerate(cols):
        seen = ~miss[:, j]   # the observed values among the observed records: the marginal kept exactly
        new = np.full(Y.shape[0], np.nan)
        new[seen] = reverse_map(Y[seen, j], ystar[seen, j])
        out[v] = pd.Series(new, index=frame.index, name=v)
        old = np.where(miss[:, j], np.nan, Y[:, j])
        changed[v] = count_changed(old, new)
        rho[v] = float(stats.spearmanr(Y[seen, j], new[seen]).statistic) if seen.sum() > 1 else float("nan")
    details["rank_correlation"] = rho
    if gadp:
        g = np.where(miss[:, :q], np.nan, egadp(Y, X, rng))
        details["gadp"] = pd.DataFrame(g, index=frame.index, columns=list(cols))
    params = {"variables": list(cols), "predictors": list(preds), "method": method, "covmethod": covmethod,
              "regmethod": regmethod, "gadp": bool(gadp)}
    return ProtectionResult(method="shuffle", data=out, variables=cols, parameters=params, seed=seed_used,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details)
