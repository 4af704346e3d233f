"""sdcMicro's utility measures: ``dUtility`` on data frames and on an sdcMicro object.

``dUtility(x, xm, method = ...)`` with ``method`` one of :data:`DUTILITY_METHODS`
("IL1", "IL1old", "IL1s", "eigen", "robeigen" in sdcMicro 5.8), and the ``utility`` slot
(``il1``, ``il1s``, ``eigen``) of an sdcMicro object after ``addNoise`` or
``microaggregation``, with the data sdcMicro released. Values come back under sdcMicro's
names; translation to :mod:`sdc`'s names happens in ``validation/``.

The R side of these wrappers is defined here (``_R_CODE``) and evaluated once into the
bridge's helper environment, next to ``_helpers.R``'s functions (it uses their ``capture``
and ``frame_parts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import from_r_frame, py_vector, r_str, to_r_frame

__all__ = ["ai_utility_score",
           "DUTILITY_METHODS", "d_utility", "d_utility_all", "SdcObjUtility", "sdc_obj_utility", "MlodakCase",
           "MlodakOut", "mlodak_batch"]

#: The ``method`` values of ``dUtility`` on data frames (sdcMicro 5.8).
DUTILITY_METHODS = ("IL1", "IL1old", "IL1s", "eigen", "robeigen")

_R_CODE = r"""
d_utility <- function(x, xm, methods) capture({
  out <- lapply(methods, function(m) as.numeric(sdcMicro::dUtility(obj = x, xm = xm, method = m)))
  names(out) <- methods
  out
})

sdc_obj_utility <- function(df, keys, numvars, method, noise, aggr, aggr_method, seed) capture({
  set.seed(seed)
  sdc <- sdcMicro::createSdcObj(df, keyVars = keys, numVars = numvars)
  if (method == "addNoise") {
    sdc <- sdcMicro::addNoise(sdc, noise = noise)
  } else if (method == "microaggregation") {
    sdc <- sdcMicro::microaggregation(sdc, aggr = aggr, method = aggr_method)
  } else {
    stop("unknown method ", method)
  }
  sdc <- sdcMicro::dUtility(sdc)
  u <- sdcMicro::get.sdcMicroObj(sdc, type = "utility")
  mx <- as.data.frame(sdcMicro::get.sdcMicroObj(sdc, type = "manipNumVars"))
  list(il1 = as.numeric(u$il1), il1s = as.numeric(u$il1s), eigen = as.numeric(u$eigen),
       manip = frame_parts(mx))
})

## Mlodak's measures and robeigen on many (x, xm) pairs in ONE call. For robeigen the MCD
## covariances are drawn from set.seed(seed) exactly as dUtility draws them (covMcd of scale(x),
## then of scale(xm)), and dUtility is called again from the same seed: its figure must be
## the one of those covariances.
mlodak_batch <- function(cases) capture({
  one <- function(cs) {
    safe <- function(expr) tryCatch(expr, error = function(e) NA_real_)
    # numeric columns arrive as 1-d arrays (class "array"), which IL_variables' inherits(v, "numeric") refuses
    plain <- function(df) { for (k in seq_along(df)) if (!is.factor(df[[k]])) dim(df[[k]]) <- NULL; df }
    x <- plain(as.data.frame(cs$x)); xm <- plain(as.data.frame(cs$xm))
    ilc <- safe(as.numeric(sdcMicro::IL_correl(x = as.data.frame(x), xm = as.data.frame(xm))))
    ilv <- tryCatch(sdcMicro::IL_variables(x = as.data.frame(x), xm = as.data.frame(xm)), error = function(e) NULL)
    out <- list(il_correl = ilc,
                il_variables = if (is.null(ilv)) NA_real_ else as.numeric(ilv),
                indiv = if (is.null(ilv)) numeric(0) else as.numeric(attr(ilv, "indiv_distances")))
    if (isTRUE(cs$robeigen)) {
      num <- as.data.frame(x)[, cs$numeric, drop = FALSE]
      numm <- as.data.frame(xm)[, cs$numeric, drop = FALSE]
      set.seed(cs$seed)
      c1 <- robustbase::covMcd(scale(num))$cov
      c2 <- robustbase::covMcd(scale(numm))$cov
      set.seed(cs$seed)
      out$robeigen <- as.numeric(sdcMicro::dUtility(obj = num, xm = numm, method = "robeigen"))
      out$cov1 <- as.numeric(c1); out$cov2 <- as.numeric(c2)
    }
    out
  }
  lapply(cases, one)
})

## sdcMicro's ai_utility_score of two files: each made an sdcMicro object with the same key and
## numeric variables (the score reads the original's manipKeyVars and origData, the release's
## manipKeyVars and manipNumVars).
ai_score <- function(x, xm, keys, numvars, weights) capture({
  nv <- if (length(numvars)) numvars else NULL
  o <- sdcMicro::createSdcObj(as.data.frame(x), keyVars = keys, numVars = nv)
  a <- sdcMicro::createSdcObj(as.data.frame(xm), keyVars = keys, numVars = nv)
  s <- sdcMicro:::ai_utility_score(o, a, weights = weights)
  list(total = as.numeric(s$total), suppression_rate = as.numeric(s$suppression_rate),
       category_loss = as.numeric(s$category_loss), il1 = as.numeric(s$il1))
})
"""


@lru_cache(maxsize=1)
def _define() -> None:
    """Evaluate the R code of this module into the bridge's environment (once)."""
    import rpy2.robjects as ro

    env = session()
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(_R_CODE, env)


def _check(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str]) -> list[str]:
    cols = [variables] if isinstance(variables, str) else list(variables)
    for name, frame in (("original", original), ("released", released)):
        absent = [c for c in cols if c not in frame.columns]
        if absent:
            raise ValueError(f"columns not in `{name}`: {', '.join(map(repr, absent))}.")
    return cols


def d_utility_all(
    original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str],
    methods: Sequence[str] = ("IL1", "IL1old", "IL1s", "eigen"),
) -> dict[str, float]:
    """``sdcMicro::dUtility(obj = x, xm = xm, method = m)`` for each of `methods`, in one R call.

    `x` and `xm` are data frames of `variables` taken from the two frames by position (as
    sdcMicro pairs rows). ``NA`` (sdcMicro's result when the eigen computation fails)
    comes back as NaN.
    """
    bad = [m for m in methods if m not in DUTILITY_METHODS]
    if bad:
        raise ValueError(f"`methods` must be among {', '.join(DUTILITY_METHODS)}; got {', '.join(map(repr, bad))}.")
    cols = _check(original, released, variables)
    _define()
    x = to_r_frame(original, cols)
    xm = to_r_frame(released, cols)
    v = call("d_utility", x, xm, r_str(list(methods))).rx2("value")
    out = {}
    for m in methods:
        arr = py_vector(v.rx2(m))
        out[m] = float(arr[0]) if arr.size else float("nan")
    return out


def d_utility(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str], *, method: str = "IL1s") -> float:
    """``sdcMicro::dUtility(obj = x, xm = xm, method = method)``: one figure."""
    return d_utility_all(original, released, variables, (method,))[method]


@dataclass(frozen=True, slots=True)
class SdcObjUtility:
    """The ``utility`` slot of an sdcMicro object after protection, and the released numeric data."""

    il1: float
    il1s: float
    eigen: float
    manipulated: pd.DataFrame = field(repr=False)
    warnings: tuple[str, ...] = ()


def sdc_obj_utility(
    data: pd.DataFrame,
    keys: Sequence[str],
    num_vars: Sequence[str],
    *,
    method: str = "microaggregation",
    noise: float = 150.0,
    aggr: int = 3,
    aggr_method: str = "mdav",
    seed: int = 1,
) -> SdcObjUtility:
    """``createSdcObj(data, keyVars, numVars)``, then ``addNoise(noise=)`` or
    ``microaggregation(aggr=, method=)`` with ``set.seed(seed)``, then ``dUtility(sdc)``.

    Returns ``sdc@utility`` (il1, il1s, eigen) and ``manipNumVars`` indexed like `data`.
    """
    if method not in ("addNoise", "microaggregation"):
        raise ValueError(f"`method` must be 'addNoise' or 'microaggregation'; got {method!r}.")
    _define()
    cols = list(dict.fromkeys(list(keys) + list(num_vars)))
    out = call("sdc_obj_utility", to_r_frame(data, cols), r_str(list(keys)), r_str(list(num_vars)), method,
               float(noise), int(aggr), aggr_method, int(seed))
    v = out.rx2("value")
    manip = from_r_frame(v.rx2("manip"))
    manip.index = data.index
    return SdcObjUtility(
        il1=_first(v.rx2("il1")), il1s=_first(v.rx2("il1s")), eigen=_first(v.rx2("eigen")),
        manipulated=manip, warnings=tuple(str(s) for s in out.rx2("warnings")),
    )


def _first(x: Any) -> float:
    arr = py_vector(x)
    return float(arr[0]) if arr.size else float(np.nan)


@dataclass(frozen=True)
class MlodakCase:
    """One (x, xm) pair of :func:`mlodak_batch`: every column of `original` (and `released`) is
    passed; `robeigen` also runs ``dUtility(method = "robeigen")`` on the `numeric` columns
    after ``set.seed(seed)``."""

    original: pd.DataFrame
    released: pd.DataFrame
    robeigen: bool = False
    numeric: tuple[str, ...] = ()
    seed: int = 1


@dataclass(frozen=True)
class MlodakOut:
    """sdcMicro's ``IL_correl``, ``IL_variables`` (and its individual distances), and for a
    robeigen case its figure and the two ``covMcd(scale(.))$cov`` it was computed from (NaN /
    None where sdcMicro stops with an error)."""

    il_correl: float
    il_variables: float
    indiv: np.ndarray
    robeigen: float = float("nan")
    cov_before: np.ndarray | None = None
    cov_after: np.ndarray | None = None


def mlodak_batch(cases: Sequence[MlodakCase]) -> list[MlodakOut]:
    """``sdcMicro::IL_correl``, ``IL_variables`` and ``dUtility(method = "robeigen")`` on many cases
    in ONE R call."""
    import rpy2.robjects as ro

    _define()
    items = [ro.ListVector({"x": to_r_frame(c.original), "xm": to_r_frame(c.released), "robeigen": bool(c.robeigen),
                            "numeric": r_str(list(c.numeric)), "seed": int(c.seed)}) for c in cases]
    value = call("mlodak_batch", ro.r("list")(*items)).rx2("value")
    out = []
    for c, v in zip(cases, value):
        extra: dict[str, Any] = {}
        if c.robeigen:
            p = len(c.numeric)
            extra = {"robeigen": _first(v.rx2("robeigen")),
                     "cov_before": py_vector(v.rx2("cov1")).reshape(p, p, order="F"),
                     "cov_after": py_vector(v.rx2("cov2")).reshape(p, p, order="F")}
        out.append(MlodakOut(il_correl=_first(v.rx2("il_correl")), il_variables=_first(v.rx2("il_variables")),
                             indiv=py_vector(v.rx2("indiv")), **extra))
    return out


def ai_utility_score(original: pd.DataFrame, released: pd.DataFrame, keys: Sequence[str],
                     numeric: Sequence[str] = (),
                     weights: Sequence[float] = (1 / 3, 1 / 3, 1 / 3)) -> dict[str, float]:
    """``sdcMicro:::ai_utility_score(createSdcObj(original), createSdcObj(released), weights)``,
    both objects with `keys` as ``keyVars`` and `numeric` as ``numVars``: its ``total``,
    ``suppression_rate``, ``category_loss`` and ``il1``."""
    cols = _check(original, released, list(dict.fromkeys(list(keys) + list(numeric))))
    _define()
    v = call("ai_score", to_r_frame(original, cols), to_r_frame(released, cols), r_str(list(keys)),
             r_str(list(numeric)), py_to_r_numbers(weights)).rx2("value")
    return {name: _first(v.rx2(name)) for name in ("total", "suppression_rate", "category_loss", "il1")}


def py_to_r_numbers(values: Sequence[float]) -> Any:
    """A float vector for R."""
    import rpy2.robjects as ro

    return ro.FloatVector([float(x) for x in values])
