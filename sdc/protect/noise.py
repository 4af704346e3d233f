"""Noise addition to continuous variables (sdcMicro's ``addNoise``, ``R/addNoise.r``).

* ``additive``: ``x_j + e``, ``e ~ N(0, (noise/100 * sd(x_j))^2)`` independently per variable
  and record; ``noise`` is a percentage of the variable's standard deviation (``sd`` with
  n - 1, missing values ignored).
* ``correlated``: ``x + e``, ``e ~ N(0, noise/100 * Cov(x))`` (one multivariate draw per record;
  the covariance of the complete records, as ``cov(na.omit(x))``); here ``noise`` scales the
  covariance, as in sdcMicro.
* ``correlated2``: ``d1 x_j + delta * e``, ``e ~ N((1 - d1)/delta * mean(x_j), sd(x_j)^2)``,
  ``d1 = sqrt(1 - delta^2)``: mean and variance are preserved in expectation (Brand 2002,
  *Microdata protection through noise addition*, LNCS 2316, 97-116).

* ``additive0``, ``restr``, ``ROMM``, ``outdect``: see :mod:`sdc.protect.noise_more` (zeros kept;
  a shrinking toward the mean without draws; a random orthogonal matrix; noise on outliers only).

Missing values stay missing. The noise is drawn from a seeded numpy Generator: for each
variable in order, one standard normal per record (``correlated``: one draw of the
multivariate normal per record).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Choice, Real
from sdc._validation import check_number, check_option
from sdc.protect._common import check_variables, count_changed, numeric_values, resolve_seed
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._declare import param, protection_method
from sdc.protect._result import ProtectionResult
from sdc.protect.noise_more import MORE, more_noise

__all__ = ["add_noise", "METHODS"]

METHODS = ("additive", "correlated", "correlated2", *MORE)


def _sd(x: np.ndarray) -> float:
    ok = x[~np.isnan(x)]
    return float(np.std(ok, ddof=1)) if ok.size >= 2 else math.nan


def _additive(x: np.ndarray, noise: float, z: np.ndarray) -> tuple[np.ndarray, float]:
    """``x + (noise/100 * sd(x)) * z`` for standard normal draws `z` (the deterministic part)."""
    scale = noise / 100 * _sd(x)
    return x + scale * z, scale


def _correlated2(x: np.ndarray, delta: float, z: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """``x d1 + delta (m + s z)``, ``m = (1 - d1)/delta * mean(x)``, ``s = sd(x)`` (R's rnorm is ``m + s z``)."""
    d1 = math.sqrt(1 - delta**2)
    ok = x[~np.isnan(x)]
    mean = float(ok.mean()) if ok.size else math.nan
    sd = _sd(x)
    shift = (1 - d1) / delta * mean
    return x * d1 + delta * (shift + sd * z), {"d1": d1, "mean": mean, "sd": sd, "noise_sd": delta * sd}


def _correlated(X: np.ndarray, noise: float, rng: np.random.Generator,
                cols: tuple[str, ...]) -> tuple[np.ndarray, dict[str, Any]]:
    """``x + e``, ``e ~ N(0, noise/100 Cov(x))`` over the complete records, and the details."""
    if X.shape[1] < 2:
        raise ValueError("`method` 'correlated' needs at least two variables; use 'additive' for one.")
    complete = X[~np.isnan(X).any(axis=1)]
    if complete.shape[0] < 2:
        raise ValueError("`method` 'correlated' needs at least two records with every variable present.")
    cov = noise / 100 * np.cov(complete, rowvar=False, ddof=1)
    Y = X + rng.multivariate_normal(np.zeros(X.shape[1]), cov, size=X.shape[0], method="eigh")
    details: dict[str, Any] = {"covariance": pd.DataFrame(cov, index=list(cols), columns=list(cols))}
    for j, v in enumerate(cols):
        details[v] = {"noise_sd": float(math.sqrt(cov[j, j])), "sd": _sd(X[:, j])}
    return Y, details


def _r_add_noise(run: StepRun) -> RStep:
    """sdcMicro's ``addNoise`` with the same method and noise (its own draws)."""
    p = run.parameters
    code = (f"set.seed({r_seed(run.seed or 0)})",
            f"res <- sdcMicro::addNoise(data, variables = {r_names(run.variables)}, noise = "
            f"{r_value(p.get('noise', 150.0))}, method = {r_value(p.get('method', 'additive'))}, delta = "
            f"{r_value(p.get('delta', 0.1))}, p = {r_value(p.get('p', 0.001))})",
            f"data[{r_names(run.variables)}] <- as.data.frame(res$xm)", "data")
    if p.get("method") == "restr":  # one variable at a time: sdcMicro recycles the means across variables
        code = (f"for (v in {r_names(run.variables)}) data[v] <- as.data.frame(sdcMicro::addNoise(data, variables = v, "
                f"noise = {r_value(p.get('noise', 150.0))}, method = \"restr\")$xm)", "data")
        return RStep(code, True, "sdcMicro's addNoise, method restr, one variable at a time: no draws; the same values")
    return RStep(code, False, "sdcMicro's addNoise, random: R's draws, not sdc's")

@protection_method(
    "add_noise", sdcmicro=_r_add_noise, summary="random noise added to continuous variables", numeric=True,
    why="its noise scale comes from the whole file's standard deviations or covariance",
    example={"variables": ["bmi", "systolic_bp"], "noise": 20},
    options={"method": param(Choice(METHODS), "additive, additive0, correlated, correlated2, restr, ROMM or outdect"),
             "noise": param(Real(0.0), "the noise as a percentage of each variable's standard deviation"),
             "delta": param(Real(0.0, 1.0, low_open=True, high_open=True), "correlated2: the weight of the noise"),
             "p": param(Real(0.0), "ROMM: the weight of the random matrix in I + p M")})
def add_noise(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    method: str = "additive",
    noise: float = 150.0,
    delta: float = 0.1,
    p: float = 0.001,
    seed: int | None = None,
) -> ProtectionResult:
    """Add random noise to continuous variables (sdcMicro's ``addNoise``).

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Numeric columns.
    method : {"additive", "additive0", "correlated", "correlated2", "restr", "ROMM", "outdect"}
        See the module docstring and :mod:`sdc.protect.noise_more` for the formulas.
    noise : float, default 150
        ``additive``: the noise standard deviation as a percentage of each variable's;
        ``correlated``: the noise covariance as a percentage of the data's (sdcMicro's
        ``noise``, same default). Ignored by ``correlated2``.
    delta : float, default 0.1
        ``correlated2`` only: the weight of the noise, in (0, 1).
    p : float, default 0.001
        ``ROMM`` only: the weight of the random matrix (sdcMicro's ``p``).
    seed : int, optional
        Seed of the numpy Generator (drawn and recorded when None).

    Returns
    -------
    ProtectionResult
        Columns become float64. ``details[variable]`` gives the noise scale
        (``noise_sd``) and the variable's ``sd`` (``correlated``: ``details["covariance"]``).

    References
    ----------
    sdcMicro ``addNoise`` (``R/addNoise.r``); Brand (2002), *Microdata protection through
    noise addition*; Templ (2017), *Statistical Disclosure Control for Microdata*, sec. 7.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"income": [1200.0, 3400.0, 2100.0, 5600.0]})
    >>> r = sdc.add_noise(df, "income", noise=10, seed=3)
    >>> round(r.details["income"]["noise_sd"], 4)
    191.0279
    """
    frame, cols = check_variables(data, variables)
    method = check_option(method, "method", METHODS)
    if method != "correlated2":
        noise = check_number(noise, "noise", low=0.0, high=math.inf, high_open=True)
    else:
        delta = check_number(delta, "delta", low=0.0, high=1.0, low_open=True, high_open=True)
    seed_used, rng = resolve_seed(seed)
    X = np.column_stack([numeric_values(frame[v], "add_noise") for v in cols])
    few = [v for j, v in enumerate(cols) if (~np.isnan(X[:, j])).sum() < 2]
    if few:
        raise ValueError(f"column {few[0]!r} has fewer than two non-missing values: its standard deviation, "
                         "which scales the noise, is undefined.")
    n = X.shape[0]
    details: dict[str, Any] = {}
    if method in MORE:
        Y, details = more_noise(method, X, float(noise), float(p), rng, seed_used)
    elif method == "correlated":
        Y, details = _correlated(X, float(noise), rng, cols)
    else:
        Y = np.empty_like(X)
        for j, v in enumerate(cols):
            z = rng.standard_normal(n)
            if method == "additive":
                Y[:, j], scale = _additive(X[:, j], noise, z)
                details[v] = {"noise_sd": float(scale), "sd": _sd(X[:, j])}
            else:
                Y[:, j], info = _correlated2(X[:, j], delta, z)
                details[v] = info
    out = frame.copy()
    changed = {}
    for j, v in enumerate(cols):
        out[v] = pd.Series(Y[:, j], index=frame.index, name=v)
        changed[v] = count_changed(X[:, j], Y[:, j])
    given = {"correlated2": ("delta", delta), "ROMM": ("p", p)}.get(method, ("noise", noise))
    params: dict[str, Any] = {"variables": list(cols), "method": method, given[0]: float(given[1])}
    return ProtectionResult(
        method="add_noise", data=out, variables=cols, parameters=params, seed=seed_used,
        changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )
