"""Model-based (log-linear) disclosure risk, as sdcMicro's ``modRisk``.

The key variables' contingency table is modelled with a log-linear (Poisson) model (Skinner
and Holmes 1998; Elamir and Skinner 2006; Rinott and Shlomo 2006). For every cell of the
full grid of key values (empty cells included) with sample count f, weight sum W and
``inclProb`` = sum of the records' inverse weights, the fitted value lambda (on the sample
scale) gives, with v = (1 - inclProb) * lambda,

* risk1 = exp(-v): the probability that a sample unique is population unique;
* risk2 = (1 - exp(-v)) / v: the expected probability of a correct match for a sample unique.

Both global measures sum over the sample-unique cells and divide by the number of cells
kept (cells with 0 < f <= `bound` and a fitted value), exactly as sdcMicro does:
gr1 = sum_{f=1} risk1 / #kept, gr2 = sum_{f=1} risk2 / #kept.

Methods (``method=``):

* ``"default"``: Poisson GLM ``counts ~ formula``;
* ``"CE"`` (Clogg and Eliason 1987): the same with offset log(f / W + 0.1) (0/0 taken as 0);
* ``"PML"`` (pseudo maximum likelihood): response round(W * sum f / sum W);
* ``"weightedLLM"``: ``counts ~ formula + weights`` (the cell weight sum as a covariate);
* ``"IPF"``: iterative proportional fitting of the table (main effects only), whose limit
  is the independence model lambda = prod_v n_v(level) / n^(K-1); computed in closed form.

As in sdcMicro, variables enter the GLMs as they are typed: categoricals and strings as
factors (dummy coding), numbers as linear covariates; IPF treats every variable as a
factor. Cells with a missing key value stay in the grid but not in the fit, so they have
no fitted value and are dropped.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_keys, check_number, check_option, check_weights
from sdc.core.engine import dispatch
from sdc.core.keys import column_levels
from sdc.exceptions import SdcWarning
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["ModelRiskResult", "model_risk", "MODRISK_METHODS"]

MODRISK_METHODS = ("default", "CE", "PML", "weightedLLM", "IPF")
_MAX_CELLS = 5_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelRiskResult:
    """Result of :func:`model_risk`.

    Attributes
    ----------
    keys : tuple of str
        The variables of the model (the first-order terms of the formula).
    method : str
    formula : str
        The right-hand side of the model, ``"~ a + b + c"``.
    bound : float
    gr1, gr2 : float
        The global risk measures (sdcMicro's ``gr1``, ``gr2``).
    cells : pandas.DataFrame
        The full grid: key values, ``counts``, ``weights``, ``inclProb``, ``fitted`` (NaN
        where the model has no value) and ``kept`` (in the risk sums' denominator).
    converged : bool
        Whether the model fit converged.
    """

    keys: tuple[str, ...]
    method: str
    formula: str
    bound: float
    gr1: float
    gr2: float
    cells: pd.DataFrame = field(repr=False)
    converged: bool

    @property
    def gr1perc(self) -> float:
        return 100.0 * self.gr1

    @property
    def gr2perc(self) -> float:
        return 100.0 * self.gr2

    @property
    def n_cells_kept(self) -> int:
        return int(self.cells["kept"].sum())

    def to_frame(self) -> pd.DataFrame:
        return self.cells

    def summary(self) -> pd.DataFrame:
        rows = [
            ("gr1", self.gr1, "sample uniques that are population unique (per kept cell)"),
            ("gr1perc", self.gr1perc, "in %"),
            ("gr2", self.gr2, "expected correct matches of sample uniques (per kept cell)"),
            ("gr2perc", self.gr2perc, "in %"),
            ("n_cells_kept", self.n_cells_kept, f"cells with 0 < f <= {self.bound:g} and a fitted value"),
        ]
        return summary_frame(rows)


def _formula_variables(formula: str) -> tuple[list[str], bool]:
    """First-order variables of ``~ a + b + a:c`` and whether there are interactions."""
    rhs = formula.split("~", 1)[1] if "~" in formula else formula
    terms = [t.strip() for t in re.split(r"\+", rhs) if t.strip()]
    first, inter = [], False
    for t in terms:
        if ":" in t or "*" in t:
            inter = True
            for part in re.split(r"[:*]", t):
                part = part.strip()
                if part and part not in first:
                    first.append(part)  # a*b expands to a + b + a:b
        elif t not in first:
            first.append(t)
    return first, inter


@dispatch(dask=None, why="its log-linear model is fitted over all cells of the key table together")
def model_risk(
    data: pd.DataFrame,
    keys: str | Sequence[str] | None = None,
    *,
    weights: str | None = None,
    method: Literal["default", "CE", "PML", "weightedLLM", "IPF"] = "default",
    formula: str | None = None,
    bound: float = float("inf"),
    key_bins: Mapping[str, BinSpec] | None = None,
) -> ModelRiskResult:
    """Log-linear model risk of the key variables (sdcMicro's ``modRisk``).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str, optional
        Key variables; the default model is their main effects. May be omitted when
        `formula` is given.
    weights : str, optional
        Sampling weights. Without them every weight is 1 (with a warning, as sdcMicro's
        sdcMicroObj method does): then inclProb = f and sample uniques have v = 0.
    method : {"default", "CE", "PML", "weightedLLM", "IPF"}, default "default"
    formula : str, optional
        Right-hand side ``"~ a + b + a:b"`` (R/patsy syntax). IPF allows main effects only.
    bound : float > 0, default inf
        Only cells with counts <= bound enter the risk.
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.

    References
    ----------
    .. [1] Skinner, C. J. and Holmes, D. J. (1998). Estimating the re-identification risk
           per record in microdata. JOS 14(4), 361-372.
    .. [2] Rinott, Y. and Shlomo, N. (2006). A generalized negative binomial smoothing
           model for sample disclosure risk estimation. PSD 2006, LNCS 4302, 82-93.
    .. [3] Templ, M. (2017). Statistical Disclosure Control for Microdata. Springer, ch. 4.
    """
    data, _, weights = prepare(data, keys if keys is not None else list(key_bins or ()), key_bins=key_bins,
                               weights=weights)
    method = check_option(method, "method", MODRISK_METHODS)
    bound = check_number(bound, "bound", low=0.0, high=float("inf"), low_open=True, finite=False)
    if formula is None:
        if keys is None:
            raise ValueError("give `keys` or `formula` for the model.")
        keys = check_keys(data, keys)  # known columns, none missing in every record
        formula = "~ " + " + ".join(_q(k) for k in keys)
        inter = False
    else:
        if not isinstance(formula, str) or "~" not in formula:
            raise ValueError(f"`formula` must be a right-hand side like '~ a + b'; got {formula!r}.")
        names, inter = _formula_variables(formula)
        keys = check_columns(data, [re.sub(r'^Q\(["\'](.*)["\']\)$', r"\1", n) for n in names], role="formula")
        for k in keys:
            if data[k].isna().all():
                raise ValueError(f"formula variable {k!r} is missing in every record; drop it from `formula`.")
    if method == "IPF" and inter:
        raise ValueError("method='IPF' cannot fit models with interactions; use method='default'.")
    w = check_weights(data, weights)
    if w is None:
        warnings.warn("model-based risk without sampling weights: weights are taken as 1 (as sdcMicro does), "
                      "so sample uniques get v = 0.", SdcWarning, stacklevel=3)
        w = np.ones(len(data))

    cells = _grid(data, keys, w)
    fitted, converged = _fit(cells, keys, formula, method)
    cells["fitted"] = fitted
    counts = cells["counts"].to_numpy()
    lam = np.nan_to_num(fitted, nan=0.0)
    kept = (counts > 0) & (counts <= bound) & ~((lam == 0) & (counts > 0))
    cells["kept"] = kept
    v = (1.0 - cells["inclProb"].to_numpy()[kept]) * lam[kept]
    n_kept = int(kept.sum())
    # For cells with several records inclProb (a sum of inverse weights) can exceed 1, so v < 0
    # and exp(-v) overflows; those cells only count in the denominator, as in sdcMicro.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r1 = np.exp(-v) / n_kept
        r2 = -np.expm1(-v) / v / n_kept  # sdcMicro: (1 - exp(-v)) / v, which loses digits for v near 0
    uniq = counts[kept] == 1
    return ModelRiskResult(
        keys=tuple(keys), method=method, formula=formula, bound=bound,
        gr1=float(r1[uniq].sum()), gr2=float(r2[uniq].sum()), cells=cells, converged=converged,
    )


def _q(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) else f'Q("{name}")'


def _grid(data: pd.DataFrame, keys: Sequence[str], w: np.ndarray) -> pd.DataFrame:
    """Every combination of the keys' observed values (missing included), with the counts,
    weight sums and inverse-weight sums of the records in it."""
    codes, levels = [], []
    for k in keys:
        c, u = column_levels(data[k], sort=True)
        has_na = bool((c < 0).any())
        c = np.where(c < 0, len(u), c)  # missing: a level of its own, last
        codes.append(c)
        levels.append((u, has_na))
    sizes = [len(u) + na for u, na in levels]
    n_cells = int(np.prod(sizes, dtype=np.float64))
    if n_cells > _MAX_CELLS:
        raise ValueError(f"the model's table has {n_cells:,} cells (the product of the keys' numbers of values); "
                         f"more than {_MAX_CELLS:,} is too many for a log-linear model. Recode or drop keys.")
    cell = np.ravel_multi_index(codes, sizes)
    counts = np.bincount(cell, minlength=n_cells)
    wsum = np.bincount(cell, weights=w, minlength=n_cells)
    incl = np.bincount(cell, weights=1.0 / w, minlength=n_cells)
    grid = np.unravel_index(np.arange(n_cells), sizes)
    out = {}
    for k, g, (u, na) in zip(keys, grid, levels):
        vals = np.asarray(u, dtype=object if not pd.api.types.is_numeric_dtype(data[k].dtype) else None)
        col = pd.Series(vals).take(np.minimum(g, len(u) - 1)).to_numpy() if len(u) else np.full(g.size, np.nan)
        s = pd.Series(col)
        s[g == len(u)] = np.nan if pd.api.types.is_numeric_dtype(data[k].dtype) else None
        if isinstance(data[k].dtype, pd.CategoricalDtype):
            s = pd.Series(pd.Categorical(s, categories=data[k].cat.categories, ordered=data[k].cat.ordered))
        out[k] = s.to_numpy() if not isinstance(s.dtype, pd.CategoricalDtype) else s.array
    frame = pd.DataFrame(out)
    frame["counts"] = counts
    frame["weights"] = wsum
    frame["inclProb"] = incl
    return frame


def _fit(cells: pd.DataFrame, keys: Sequence[str], formula: str, method: str) -> tuple[np.ndarray, bool]:
    """Fitted values on the sample scale for every grid cell (NaN where not fitted)."""
    if method == "IPF":
        return _independence(cells, keys), True
    import statsmodels.formula.api as smf
    from statsmodels.tools.sm_exceptions import PerfectSeparationError

    rhs = formula.split("~", 1)[1]
    df = cells.copy()
    offset = None
    if method == "default":
        lhs = "counts"
    elif method == "CE":
        with np.errstate(invalid="ignore", divide="ignore"):
            ec = df["counts"] / df["weights"]
        df["_offset"] = np.log(ec.fillna(0.0) + 0.1)
        lhs = "counts"
        offset = "_offset"
    elif method == "PML":
        f = df["counts"].sum() / df["weights"].sum()
        df["_weights_t"] = np.round(df["weights"] * f)  # half to even, as R's round
        lhs = "_weights_t"
    else:  # weightedLLM
        lhs = "counts"
        rhs = rhs + " + weights"
    kw = {}
    if offset is not None:
        kw["offset"] = df[offset]
    model = smf.glm(f"{lhs} ~ {rhs}", data=df, family=_r_poisson(), **kw)
    rows = np.asarray(model.data.row_labels, dtype=np.int64)
    fitted = np.full(len(df), np.nan)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zero fitted rates: kept as fitted, as R does
            # R's glm.fit: |dev - dev_old| < 1e-8 (|dev| + 0.1), at most 25 iterations.
            res = model.fit(method="IRLS", maxiter=25, tol=1e-9, rtol=1e-8, tol_criterion="deviance")
        fitted[rows] = res.fittedvalues.to_numpy()
        return fitted, bool(res.converged)
    except PerfectSeparationError:
        # statsmodels < 0.14 stops once the fit reproduces the response to 1e-8 (a saturated
        # model, e.g. ~ a*b*c). R's glm, like statsmodels >= 0.14, keeps iterating until the
        # deviance settles, so a cell with response 0 ends with a small positive fitted value
        # (kept, with risk near 1), not 0 (dropped): finish the fit as R does.
        mu, converged = _irls_poisson(model.exog, model.endog, getattr(model, "offset", None))
        fitted[rows] = mu
        return fitted, converged


def _irls_poisson(x: np.ndarray, y: np.ndarray, offset: object = None, *, maxit: int = 25,
                  epsilon: float = 1e-8) -> tuple[np.ndarray, bool]:
    """Fitted values of a Poisson log-linear GLM by R's ``glm.fit`` iteration.

    Start from mu = y + 0.1; each step regresses the working response
    z = eta - offset + (y - mu) / m on `x` with weights m^2 / mu, where
    mu = m = max(exp(eta), machine epsilon) as R's ``poisson()`` link inverse and derivative
    (least squares, so aliased columns do not matter for the fitted values); stop when
    |dev - dev_old| / (|dev| + 0.1) < `epsilon` or after `maxit` steps (R's defaults).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    off = np.zeros(len(y)) if offset is None else np.asarray(offset, dtype=np.float64)

    def deviance(mu: np.ndarray) -> float:
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(y > 0, y * np.log(y / mu), 0.0)
        return float(2.0 * np.sum(t - (y - mu)))

    eps = np.finfo(np.float64).eps
    eta = np.log(y + 0.1)
    mu = np.maximum(np.exp(eta), eps)
    dev_old = deviance(mu)
    for _ in range(maxit):
        z = eta - off + (y - mu) / mu
        sw = np.sqrt(mu)
        beta = np.linalg.lstsq(x * sw[:, None], z * sw, rcond=None)[0]
        eta = x @ beta + off
        mu = np.maximum(np.exp(eta), eps)
        dev = deviance(mu)
        if abs(dev - dev_old) / (abs(dev) + 0.1) < epsilon:
            return mu, True
        dev_old = dev
    return mu, False


def _r_poisson():  # noqa: ANN202
    import statsmodels.api as sm

    class RPoisson(sm.families.Poisson):
        """Poisson family starting, as R's glm, from mu = y + 0.1."""

        def starting_mu(self, y):  # noqa: ANN001, ANN201
            return y + 0.1

    return RPoisson()


def _independence(cells: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    """The IPF limit for main effects: prod_v margin_v / n^(K-1), on complete cells only."""
    complete = np.ones(len(cells), dtype=bool)
    for k in keys:
        complete &= cells[k].notna().to_numpy()
    c = cells["counts"].to_numpy(dtype=float)
    n = c[complete].sum()
    fitted = np.ones(len(cells))
    for k in keys:
        codes, _ = column_levels(cells[k], sort=False)
        margin = np.bincount(codes[complete], weights=c[complete], minlength=codes.max() + 1)
        fitted *= np.where(codes >= 0, margin[np.maximum(codes, 0)], 0.0)
    fitted = fitted / n ** (len(keys) - 1)
    fitted[~complete] = np.nan
    return fitted
