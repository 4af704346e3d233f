"""Analysis validity: does the analyst's model give the same answer on the released file?

The user names a model (a statsmodels formula, fitted by OLS, logistic regression, Poisson
regression or Cox's proportional hazards model); it is fitted to both files, and each
coefficient's confidence intervals are compared by their overlap (Karr et al. 2006).
statsmodels is imported on first use.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_fraction, check_frame, check_option

__all__ = ["ValidityResult", "analysis_validity", "ci_overlap", "MODELS"]

#: The models :func:`analysis_validity` fits: the single declaration the option is checked
#: against (each has its branch in :func:`_fit`).
MODELS = ("ols", "logit", "poisson", "cox")


def ci_overlap(low_1: Any, high_1: Any, low_2: Any, high_2: Any) -> np.ndarray:
    r"""Karr et al.'s interval overlap of [L1, U1] and [L2, U2].

    :math:`J = \tfrac12\left(\frac{U - L}{U_1 - L_1} + \frac{U - L}{U_2 - L_2}\right)`,
    with :math:`L = \max(L_1, L_2)`, :math:`U = \min(U_1, U_2)`. 1 for identical
    intervals, 0 when they touch, negative when they are disjoint (how far apart, in units
    of their widths). NaN when an interval has no width.
    """
    l1, h1, l2, h2 = (np.asarray(v, dtype=np.float64) for v in (low_1, high_1, low_2, high_2))
    inter = np.minimum(h1, h2) - np.maximum(l1, l2)
    with np.errstate(divide="ignore", invalid="ignore"):
        j = 0.5 * (inter / (h1 - l1) + inter / (h2 - l2))
    return np.where(((h1 - l1) > 0) & ((h2 - l2) > 0), j, np.nan)


@dataclass(frozen=True)
class ValidityResult:
    """Result of :func:`analysis_validity`.

    Attributes
    ----------
    formula : str
    model : str
        ``"ols"``, ``"logit"``, ``"poisson"`` or ``"cox"``.
    level : float
        Confidence level of the intervals.
    coefficients : pandas.DataFrame
        Indexed by term: ``estimate_before``, ``estimate_after``, ``se_before``,
        ``se_after``, ``ci_low_before``, ``ci_high_before``, ``ci_low_after``,
        ``ci_high_after``, ``ci_overlap`` (Karr et al.), ``std_difference``
        ((after - before) / se_before), ``sign_agrees``, ``significant_before``,
        ``significant_after`` (p < 1 - level). A term fitted in only one file (a category
        that disappeared) has NaN on the other side.
    mean_overlap, min_overlap : float
        Over the terms fitted in both files.
    n_before, n_after : int
        Records used by each fit (rows with a missing model variable are dropped).
    exposure, offset, event : str or None
        The columns given for a Poisson model's exposure or offset and a Cox model's event
        indicator (None when not used).
    """

    formula: str
    model: str
    level: float
    coefficients: pd.DataFrame = field(repr=False)
    mean_overlap: float
    min_overlap: float
    n_before: int
    n_after: int
    exposure: str | None = None
    offset: str | None = None
    event: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per term."""
        return self.coefficients.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures (mean and smallest interval overlap, sign changes) as rows of
        (statistic, value, description)."""
        both = self.coefficients["ci_overlap"].notna()
        return summary_frame([
            ("formula", self.formula, "the model"), ("model", self.model, "ols, logit, poisson or cox"),
            ("level", self.level, "confidence level of the intervals"),
            ("mean_ci_overlap", float(self.mean_overlap), "mean overlap of the coefficients' intervals (Karr et al.)"),
            ("min_ci_overlap", float(self.min_overlap), "smallest overlap"),
            ("sign_changes", int((~self.coefficients.loc[both, "sign_agrees"].astype(bool)).sum()),
             "coefficients whose sign changed"),
            ("n_before", self.n_before, "records of the fit on the original"),
            ("n_after", self.n_after, "records of the fit on the release"),
            *[(name, col, text) for name, col, text in (
                ("exposure", self.exposure, "Poisson exposure column (log offset)"),
                ("offset", self.offset, "Poisson offset column"),
                ("event", self.event, "Cox event column (1 event, 0 censored)")) if col is not None],
        ])


def _statsmodels_fit(frame: pd.DataFrame, formula: str, model: str, extra: dict[str, str | None]) -> Any:
    """The statsmodels fit of one file (see :func:`analysis_validity`'s Notes)."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    if model == "ols":
        return smf.ols(formula, data=frame).fit()
    if model == "logit":
        return smf.logit(formula, data=frame).fit(disp=0)
    if model == "poisson":
        kw = {k: frame[c].to_numpy(dtype=np.float64) for k, c in extra.items() if c is not None and k != "event"}
        return smf.glm(formula, data=frame, family=sm.families.Poisson(), **kw).fit(tol=1e-12, maxiter=200)
    from statsmodels.duration.hazard_regression import PHReg

    fit = PHReg.from_formula(formula, frame, status=frame[extra["event"]].to_numpy(dtype=np.float64),
                             ties="breslow")
    return fit.fit(tol=1e-12, maxiter=200, disp=0)


def _fit(frame: pd.DataFrame, formula: str, model: str, which: str, extra: dict[str, str | None]) -> Any:
    from statsmodels.tools.sm_exceptions import PerfectSeparationError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return _statsmodels_fit(frame, formula, model, extra)
    except PerfectSeparationError as exc:
        raise ValueError(f"the {model} model cannot be fitted on `{which}`: perfect separation ({exc}).") from None
    except (ValueError, TypeError, KeyError, IndexError, NameError, SyntaxError, np.linalg.LinAlgError) as exc:
        msg = " ".join(str(exc).split())
        raise ValueError(f"the model {formula!r} cannot be fitted on `{which}`: {msg}") from None
    except Exception as exc:  # patsy's PatsyError and other formula errors
        if type(exc).__name__ == "PatsyError":
            msg = " ".join(str(exc).splitlines()[0].split())
            raise ValueError(f"the formula {formula!r} cannot be used on `{which}`: {msg}") from None
        raise


def _check_extra(frames: dict[str, pd.DataFrame], model: str, extra: dict[str, str | None]) -> None:
    """The exposure/offset (Poisson) and event (Cox) columns: named in both files, of the right kind."""
    allowed = {"poisson": ("exposure", "offset"), "cox": ("event",)}.get(model, ())
    for arg, col in extra.items():
        if col is None:
            continue
        if arg not in allowed:
            raise ValueError(f"`{arg}` is used by the {'Cox' if arg == 'event' else 'Poisson'} model only; "
                             f"got model={model!r}.")
        if not isinstance(col, str):
            raise ValueError(f"`{arg}` must be a column name; got {col!r}.")
        for which, frame in frames.items():
            if col not in frame.columns:
                raise ValueError(f"`{arg}` column {col!r} is not in `{which}`.")
            v = pd.to_numeric(frame[col], errors="coerce")
            wrong = v.isna() & frame[col].notna()  # not a number (missing values are dropped by the fit)
            if arg == "exposure":
                wrong |= v <= 0
            elif arg == "event":
                wrong |= v.notna() & ~v.isin([0, 1])
            bad = frame[col][wrong]
            if len(bad):
                kind = {"exposure": "positive numbers", "offset": "numbers", "event": "0 (censored) or 1 (event)"}
                raise ValueError(f"`{arg}` column {col!r} of `{which}` must hold {kind[arg]}; got {bad.iloc[0]!r}.")
            if arg == "event" and not (v == 1).any():
                raise ValueError(f"`event` column {col!r} of `{which}` has no event (every record censored, 0): "
                                 "the Cox model has nothing to fit.")
    if model == "cox" and extra["event"] is None:
        raise ValueError("the Cox model needs `event`, the column of 0 (censored) / 1 (event); the formula's "
                         "left side is the duration, e.g. 'time ~ age + C(arm)'.")


def formula_columns(formula: str) -> list[str]:
    """The names a model formula reads as data: every bare name of its terms' Python expressions
    (``"y ~ np.log(x) + C(sex)"``: y, x, sex), not a called function or a module (C, np). A
    formula Python cannot parse gives no names (patsy's own error then says why).

    >>> formula_columns("days ~ age + C(arms) + I(cd4 / 100) + np.log(wtkg)")
    ['days', 'age', 'arms', 'cd4', 'wtkg']
    """
    import ast

    from patsy import ModelDesc  # statsmodels' formula parser

    try:
        desc = ModelDesc.from_formula(formula)
    except Exception:  # noqa: BLE001 - any parse error is the fit's to report
        return []
    names: list[str] = []
    for term in [*desc.lhs_termlist, *desc.rhs_termlist]:
        for factor in term.factors:
            try:
                tree = ast.parse(factor.code, mode="eval")
            except SyntaxError:
                continue
            skip = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
            skip |= {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
            names += [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in skip]
    return list(dict.fromkeys(names))


def check_formula_columns(frames: dict[str, pd.DataFrame], formula: str) -> None:
    """Every name `formula` reads (:func:`formula_columns`) is a column of each frame."""
    for which, frame in frames.items():
        absent = [c for c in formula_columns(formula) if c not in frame.columns]
        if absent:
            raise ValueError(f"the formula {formula!r} names {absent[0]!r}, which is not a column of `{which}`.")


def _check_response(frames: dict[str, pd.DataFrame], formula: str, model: str) -> None:
    """A Poisson count or a Cox duration named as a column: non-negative numbers (statsmodels'
    own errors do not name it). A left side that is an expression is left to the fit."""
    if model not in ("poisson", "cox"):
        return
    col = formula.split("~", 1)[0].strip()
    what = "counts (numbers >= 0)" if model == "poisson" else "durations (numbers >= 0)"
    for which, frame in frames.items():
        if col not in frame.columns:
            return
        v = pd.to_numeric(frame[col], errors="coerce")
        bad = frame[col][(v.isna() & frame[col].notna()) | (v < 0)]
        if len(bad):
            raise ValueError(f"the {model} model's response {col!r} of `{which}` must hold {what}; "
                             f"got {bad.iloc[0]!r}.")


def _estimates(fit: Any, alpha: float) -> pd.DataFrame:
    """Estimate, standard error, Wald interval and p-value per term (PHReg returns arrays)."""
    names = list(fit.model.exog_names)
    ci = np.asarray(fit.conf_int(alpha=alpha), dtype=np.float64)
    return pd.DataFrame({"estimate": np.asarray(fit.params, dtype=np.float64),
                         "se": np.asarray(fit.bse, dtype=np.float64), "ci_low": ci[:, 0], "ci_high": ci[:, 1],
                         "p": np.asarray(fit.pvalues, dtype=np.float64)}, index=names)


def _compare(b: pd.DataFrame, a: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The per-term table of :class:`ValidityResult` from the two fits' estimates."""
    terms = list(b.index) + [t for t in a.index if t not in b.index]
    b, a = b.reindex(terms), a.reindex(terms)
    out = pd.DataFrame(index=pd.Index(terms, name="term"))
    for col in ("estimate", "se", "ci_low", "ci_high"):
        out[f"{col}_before"] = b[col].to_numpy(dtype=np.float64)
        out[f"{col}_after"] = a[col].to_numpy(dtype=np.float64)
    out = out[["estimate_before", "estimate_after", "se_before", "se_after", "ci_low_before", "ci_high_before",
               "ci_low_after", "ci_high_after"]]
    out["ci_overlap"] = ci_overlap(out["ci_low_before"], out["ci_high_before"], out["ci_low_after"],
                                   out["ci_high_after"])
    with np.errstate(divide="ignore", invalid="ignore"):
        out["std_difference"] = (out["estimate_after"] - out["estimate_before"]) / out["se_before"]
    out["sign_agrees"] = np.sign(out["estimate_before"]) == np.sign(out["estimate_after"])
    out["significant_before"] = b["p"].to_numpy(dtype=np.float64) < alpha
    out["significant_after"] = a["p"].to_numpy(dtype=np.float64) < alpha
    return out


def analysis_validity(
    original: pd.DataFrame,
    released: pd.DataFrame,
    formula: str,
    *,
    model: str = "ols",
    level: float = 0.95,
    exposure: str | None = None,
    offset: str | None = None,
    event: str | None = None,
) -> ValidityResult:
    r"""Fit one model to both files and compare each coefficient's confidence interval.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection. Each model is fitted on its own file, so
        the files need not hold the same records. Not modified.
    formula : str
        A statsmodels (patsy) formula, e.g. ``"income ~ age + C(sex)"``. It is evaluated
        as Python by patsy: take formulas only from trusted sources. For ``"cox"`` the
        left side is the duration (``"time ~ age + C(arm)"``); the model has no intercept.
    model : {"ols", "logit", "poisson", "cox"}, default "ols"
        Linear regression; logistic regression of a 0/1 response; Poisson regression of a
        count (log link, statsmodels GLM); Cox's proportional hazards model of a duration
        (statsmodels PHReg, Breslow's handling of ties).
    level : float in (0, 1), default 0.95
        Confidence level.
    exposure, offset : str, optional
        Poisson only: a column of positive exposures (``log(exposure)`` enters the linear
        predictor with coefficient 1) and/or a column added to it as it is.
    event : str, optional
        Cox only (and required there): the column of 1 (event) / 0 (censored).

    Returns
    -------
    ValidityResult

    Notes
    -----
    For each coefficient with interval :math:`[L_o, U_o]` on the original and
    :math:`[L_r, U_r]` on the release, the interval overlap (Karr, Kohnen, Oganian,
    Reiter and Sanil 2006, "A framework for evaluating the utility of data altered to
    protect confidentiality", *The American Statistician* 60(3), 224-232) is

    .. math::

        J = \frac12\left(\frac{U - L}{U_o - L_o} + \frac{U - L}{U_r - L_r}\right),
        \quad L = \max(L_o, L_r),\ U = \min(U_o, U_r)

    1 when the intervals coincide, 0 when they only touch, negative when they are
    disjoint (kept negative, as Karr et al. and synthpop do, to say how far apart).
    Intervals are Wald intervals :math:`\hat\beta \pm z_{1-\alpha/2}\, se` (t for OLS).
    ``std_difference`` is :math:`(\hat\beta_r - \hat\beta_o) / se_o` (synthpop's
    standardised coefficient difference).

    Poisson: :math:`\log E[y_i] = x_i'\beta + \log(\text{exposure}_i) + \text{offset}_i`,
    fitted by IRLS (McCullagh and Nelder 1989, *Generalized Linear Models*, ch. 6), as R's
    ``glm(family = poisson)``. Cox: :math:`h_i(t) = h_0(t)\exp(x_i'\beta)`, maximising the
    partial likelihood with Breslow's approximation for ties (Cox 1972, *JRSS B* 34,
    187-220; Breslow 1974, *Biometrics* 30, 89-99),
    :math:`\ell(\beta) = \sum_{j}\left[s_j'\beta - d_j \log\sum_{i \in R(t_j)} e^{x_i'\beta}\right]`
    over event times :math:`t_j` with :math:`d_j` events whose covariates sum to
    :math:`s_j`, as R's ``survival::coxph(ties = "breslow")``. Both are checked against R
    in ``tests/utility/test_sdcmicro_validity.py``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, sdc
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame({"x": rng.normal(size=200)})
    >>> df["y"] = 2 * df["x"] + rng.normal(size=200)
    >>> sdc.analysis_validity(df, df.copy(), "y ~ x").mean_overlap
    1.0
    """
    orig = check_frame(original, "original")
    rel = check_frame(released, "released")
    if not isinstance(formula, str) or "~" not in formula:
        raise ValueError(f"`formula` must be a model formula such as 'y ~ x1 + x2'; got {formula!r}.")
    model = check_option(model, "model", MODELS)
    level = check_fraction(level, "level", closed="neither")
    extra = {"exposure": exposure, "offset": offset, "event": event}
    check_formula_columns({"original": orig, "released": rel}, formula)
    _check_extra({"original": orig, "released": rel}, model, extra)
    _check_response({"original": orig, "released": rel}, formula, model)
    alpha = 1.0 - level
    fits = [_fit(orig, formula, model, "original", extra), _fit(rel, formula, model, "released", extra)]
    out = _compare(_estimates(fits[0], alpha), _estimates(fits[1], alpha), alpha)
    ov = out["ci_overlap"].to_numpy(dtype=np.float64)
    ov = ov[~np.isnan(ov)]
    return ValidityResult(
        formula=formula, model=model, level=level, coefficients=out,
        mean_overlap=float(ov.mean()) if ov.size else math.nan, min_overlap=float(ov.min()) if ov.size else math.nan,
        n_before=int(fits[0].nobs if hasattr(fits[0], "nobs") else fits[0].model.nobs),
        n_after=int(fits[1].nobs if hasattr(fits[1], "nobs") else fits[1].model.nobs),
        exposure=exposure, offset=offset, event=event,
    )
