"""sdcMicro's distance-based risk for continuous keys and its record linkage, from pandas.

``d_risk`` wraps ``dRisk``, ``d_risk_rmd`` wraps ``dRiskRMD`` (with the robustbase ``covMcd``
covariance it used, from the same seed, so the formula can be compared apart from the MCD's
random search), and ``record_linkage`` wraps ``recordLinkage`` (sdcMicro >= 5.8.2 / the
snapshot with PR #365). Values come back under sdcMicro's names; row positions are 0-based
on the Python side. The R helpers live in :data:`_R_CODE`, loaded once into the bridge's
helper environment on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import py_vector, r_null, r_str, r_vector, to_r_frame

__all__ = ["d_risk", "d_risk_rmd", "record_linkage"]

_R_CODE = r"""
## dRisk / dRiskRMD / recordLinkage for the sdc bridge (written for this project).
attack_d_risk <- function(x, xm, k) capture({
  sdcMicro::dRisk(x, xm = xm, k = k)
})

attack_d_risk_rmd <- function(x, xm, k, k2, seed) capture({
  ## The covariance dRiskRMD computes internally, from the same random stream.
  set.seed(seed)
  cov <- robustbase::covMcd(scale(x))$cov
  set.seed(seed)
  r <- sdcMicro::dRiskRMD(x, xm = xm, k = k, k2 = k2)
  list(risk1 = r$risk1, risk2 = r$risk2, wrisk1 = r$wrisk1, wrisk2 = r$wrisk2,
       indexRisk1 = as.integer(r$indexRisk1), indexRisk2 = as.integer(r$indexRisk2),
       riskvec1 = as.numeric(r$riskvec1), riskvec2 = as.numeric(r$riskvec2),
       cov = as.numeric(cov), p = ncol(x))
})

attack_record_linkage <- function(x, y, vars, distance, weights, x_id, y_id, tol) capture({
  r <- sdcMicro::recordLinkage(x, y, vars = vars, distance = distance, weights = weights,
                               x_id = x_id, y_id = y_id, return_matrix = TRUE, tol = tol)
  m <- r$matches
  list(x_row = as.integer(m$x_row), y_row = as.integer(m$y_row), distance = as.numeric(m$distance),
       correct_match = as.logical(m$correct_match), n_best = as.integer(m$n_best),
       correct_matches = r$correct_matches, correct_match_rate = r$correct_match_rate,
       mean_distance = r$mean_distance, total_distance = r$total_distance,
       distance_matrix = as.numeric(r$distance_matrix), n = nrow(r$distance_matrix))
})
"""


@lru_cache(maxsize=1)
def _load() -> bool:
    import rpy2.robjects as ro

    env = session()
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(_R_CODE, env)
    return True


def _call(name: str, *args: object):  # noqa: ANN202
    _load()
    return call(name, *args)


def _num(x: object) -> float:
    v = py_vector(x)
    return float(v[0]) if v.size else float("nan")


def d_risk(x: pd.DataFrame, xm: pd.DataFrame, variables: Sequence[str], *, k: float = 0.05) -> float:
    """``sdcMicro::dRisk(x[, variables], xm = xm[, variables], k = k)``."""
    v = _call("attack_d_risk", to_r_frame(x, list(variables)), to_r_frame(xm, list(variables)), float(k))
    return _num(v.rx2("value"))


def d_risk_rmd(
    x: pd.DataFrame, xm: pd.DataFrame, variables: Sequence[str], *, k: float = 0.01, k2: float = 0.05, seed: int = 1
) -> dict[str, object]:
    """``set.seed(seed); sdcMicro::dRiskRMD(x, xm = xm, k = k, k2 = k2)``.

    Returns risk1, risk2, wrisk1, wrisk2, indexRisk1/indexRisk2 (0-based positions), riskvec1,
    riskvec2 and ``cov``: robustbase's ``covMcd(scale(x))$cov`` from the same seed (the
    covariance dRiskRMD used).
    """
    out = _call("attack_d_risk_rmd", to_r_frame(x, list(variables)), to_r_frame(xm, list(variables)), float(k),
                float(k2), int(seed)).rx2("value")
    p = int(_num(out.rx2("p")))
    return {
        "risk1": _num(out.rx2("risk1")), "risk2": _num(out.rx2("risk2")),
        "wrisk1": _num(out.rx2("wrisk1")), "wrisk2": _num(out.rx2("wrisk2")),
        "indexRisk1": py_vector(out.rx2("indexRisk1")).astype(np.int64) - 1,
        "indexRisk2": py_vector(out.rx2("indexRisk2")).astype(np.int64) - 1,
        "riskvec1": py_vector(out.rx2("riskvec1")), "riskvec2": py_vector(out.rx2("riskvec2")),
        "cov": py_vector(out.rx2("cov")).reshape(p, p, order="F"),
    }


def record_linkage(
    x: pd.DataFrame, y: pd.DataFrame, variables: Sequence[str], *, distance: str = "gower",
    weights: Sequence[float] | None = None, x_id: str | None = None, y_id: str | None = None,
    tol: float = float(np.sqrt(np.finfo(np.float64).eps)),
) -> dict[str, object]:
    """``sdcMicro::recordLinkage(x, y, vars, distance, weights, x_id, y_id, return_matrix = TRUE, tol)``.

    Strings cross as factors. Returns the matches' columns (``x_row``/``y_row`` 0-based),
    the totals and the distance matrix.
    """
    cols = list(variables)
    xcols = cols + ([x_id] if x_id and x_id not in cols else [])
    ycols = cols + ([y_id] if y_id and y_id not in cols else [])
    w = r_null() if weights is None else r_vector(np.asarray(list(weights), dtype=np.float64))
    out = _call("attack_record_linkage", to_r_frame(x, xcols), to_r_frame(y, ycols), r_str(cols), distance, w,
                r_null() if x_id is None else r_str(x_id), r_null() if y_id is None else r_str(y_id),
                float(tol)).rx2("value")
    n = int(_num(out.rx2("n")))
    correct = np.asarray([None if v is None else bool(v) for v in _logicals(out.rx2("correct_match"))], dtype=object)
    return {
        "x_row": py_vector(out.rx2("x_row")).astype(np.int64) - 1,
        "y_row": py_vector(out.rx2("y_row")).astype(np.int64) - 1,
        "distance": py_vector(out.rx2("distance")),
        "correct_match": correct,
        "n_best": py_vector(out.rx2("n_best")).astype(np.int64),
        "correct_matches": _num(out.rx2("correct_matches")),
        "correct_match_rate": _num(out.rx2("correct_match_rate")),
        "mean_distance": _num(out.rx2("mean_distance")),
        "total_distance": _num(out.rx2("total_distance")),
        "distance_matrix": py_vector(out.rx2("distance_matrix")).reshape(n, n, order="F"),
    }


def _logicals(x: object) -> list[object]:
    import rpy2.rinterface as ri

    return [None if v is ri.NA_Logical else bool(v) for v in x]
