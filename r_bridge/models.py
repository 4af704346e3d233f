"""R's own model fits, for checking :func:`sdc.analysis_validity`: ``glm(family = poisson)``
and ``survival::coxph(ties = "breslow")`` on numeric predictors.

Predictors are passed by column name and enter the R formula as they are (no factors), so
the coefficients come back in the order of ``predictors`` (after ``(Intercept)`` for
``glm``). Both fits use tight convergence tolerances so that a comparison at 1e-6 measures
the estimator, not the stopping rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import from_r_frame, py_vector, r_str, to_r_frame

__all__ = ["RFit", "glm_poisson", "coxph_breslow", "survival_available", "actg175"]

_R_CODE = r"""
r_fit_parts <- function(fit) {
  s <- summary(fit)$coefficients
  se_col <- if ("se(coef)" %in% colnames(s)) "se(coef)" else "Std. Error"
  list(terms = rownames(s), estimate = as.numeric(s[, 1]), se = as.numeric(s[, se_col]),
       nobs = as.numeric(if (is.null(fit[["n"]])) nrow(stats::model.frame(fit)) else fit[["n"]]))
}

glm_poisson_fit <- function(df, response, predictors, exposure, offset) capture({
  rhs <- if (length(predictors)) paste(predictors, collapse = " + ") else "1"
  f <- stats::as.formula(paste(response, "~", rhs))
  off <- rep(0, nrow(df))
  if (nchar(exposure)) off <- off + log(df[[exposure]])
  if (nchar(offset)) off <- off + df[[offset]]
  df$.off <- off
  fit <- stats::glm(f, family = stats::poisson(), data = df, offset = .off,
                    control = stats::glm.control(epsilon = 1e-14, maxit = 200))
  r_fit_parts(fit)
})

coxph_breslow_fit <- function(df, duration, event, predictors) capture({
  f <- stats::as.formula(paste0("survival::Surv(", duration, ", ", event, ") ~ ",
                                paste(predictors, collapse = " + ")))
  fit <- survival::coxph(f, data = df, ties = "breslow",
                         control = survival::coxph.control(eps = 1e-14, iter.max = 200))
  r_fit_parts(fit)
})

survival_ok <- function() capture(isTRUE(requireNamespace("survival", quietly = TRUE)))

actg175 <- function() capture({
  if (!isTRUE(requireNamespace("speff2trial", quietly = TRUE))) stop("the R package speff2trial is not installed")
  e <- new.env()
  utils::data("ACTG175", package = "speff2trial", envir = e)
  frame_parts(as.data.frame(e$ACTG175))
})
"""


@lru_cache(maxsize=1)
def _define() -> None:
    """Evaluate the R code of this module into the bridge's environment (once)."""
    import rpy2.robjects as ro

    env = session()
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(_R_CODE, env)


@dataclass(frozen=True)
class RFit:
    """R's coefficient table: ``terms`` as R names them, ``estimate`` and ``se`` in that
    order, and the records the fit used (``nobs``)."""

    terms: tuple[str, ...]
    estimate: np.ndarray = field(repr=False)
    se: np.ndarray = field(repr=False)
    nobs: int


def _parts(v: object) -> RFit:
    return RFit(terms=tuple(str(t) for t in v.rx2("terms")),  # type: ignore[attr-defined]
                estimate=np.array(py_vector(v.rx2("estimate")), dtype=np.float64, copy=True),  # type: ignore[attr-defined]
                se=np.array(py_vector(v.rx2("se")), dtype=np.float64, copy=True),  # type: ignore[attr-defined]
                nobs=int(py_vector(v.rx2("nobs"))[0]))  # type: ignore[attr-defined]


def survival_available() -> bool:
    """True when R's survival package can be loaded."""
    _define()
    return bool(py_vector(call("survival_ok").rx2("value"))[0])


def glm_poisson(data: pd.DataFrame, response: str, predictors: Sequence[str], *, exposure: str | None = None,
                offset: str | None = None) -> RFit:
    """``glm(response ~ predictors, family = poisson, offset = log(exposure) + offset)``."""
    _define()
    cols = [response, *predictors, *(c for c in (exposure, offset) if c)]
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    return _parts(call("glm_poisson_fit", rdf, response, r_str(list(predictors)), exposure or "",
                       offset or "").rx2("value"))


def coxph_breslow(data: pd.DataFrame, duration: str, event: str, predictors: Sequence[str]) -> RFit:
    """``survival::coxph(Surv(duration, event) ~ predictors, ties = "breslow")``."""
    _define()
    cols = [duration, event, *predictors]
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    return _parts(call("coxph_breslow_fit", rdf, duration, event, r_str(list(predictors))).rx2("value"))


def actg175() -> pd.DataFrame:
    """The ACTG 175 trial file (Hammer et al. 1996, *NEJM* 335, 1081-1090) as R's speff2trial
    package ships it (``data(ACTG175)``: 2,139 patients; ``days`` to the endpoint, ``cens`` 1 =
    event, ``arms`` 0-3, baseline covariates). Raises RBridgeError without speff2trial."""
    _define()
    return from_r_frame(call("actg175").rx2("value"))
