"""Wrappers for sdcMicro's remaining protection methods (issue 29): ``mvTopCoding``, ``shuffle``, ...

Same conventions as :mod:`r_bridge.sdcmicro`: pandas in, sdcMicro's values out under
sdcMicro's names, per-record values indexed like the input. The R side lives in ``_parity.R``
and is loaded into the bridge's helper environment on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import py_vector, r_null, r_str, r_vector, to_r_frame

__all__ = ["MvTopCoding", "mv_top_coding", "Shuffle", "shuffle", "lm_fitted", "NoiseDraws", "add_noise_draws", "ghost_vars", "microaggregation_measure",
           "microaggregation_clust", "cluster_partition", "mafast"]


@lru_cache(maxsize=1)
def _load() -> None:
    import rpy2.robjects as ro

    env = session()
    code = resources.files(__package__).joinpath("_parity.R").read_text(encoding="utf-8")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)


def _call(name: str, *args: object) -> object:
    _load()
    return call(name, *args)


def _numbers(x: object) -> np.ndarray:
    """An R numeric vector as a float64 array of our own: np.asarray can share R's memory, which R
    reuses once the vector is collected (arrays kept past the next calls then change)."""
    return np.array(py_vector(x), dtype=np.float64, copy=True)


@dataclass(frozen=True)
class MvTopCoding:
    """``mvTopCoding()``'s result: the values ``x`` after it, the ``center`` and ``cov`` it used
    (its MCD's, or the given ones) and ``flagged`` (bool per record: distance above the bound)."""

    x: pd.DataFrame = field(repr=False)
    center: np.ndarray
    cov: np.ndarray
    flagged: pd.Series = field(repr=False)
    warnings: tuple[str, ...] = ()


def mv_top_coding(data: pd.DataFrame, variables: Sequence[str], *, alpha: float = 0.025, seed: int = 1,
                  center: Sequence[float] | None = None, cov: np.ndarray | None = None) -> MvTopCoding:
    """``set.seed(seed); sdcMicro::mvTopCoding(data[variables], alpha)`` (its own MCD, robustbase's
    ``covMcd``), or with `center` and `cov` given ``mvTopCoding(x, maha = mahalanobis(x, center,
    cov), center, alpha)``. The columns go to R as doubles (sdcMicro truncates the replaced values
    of an integer column)."""
    cols = list(variables)
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    c = r_null() if center is None else r_vector(np.asarray(center, dtype=np.float64))
    s = r_null() if cov is None else r_vector(np.asarray(cov, dtype=np.float64).ravel(order="F"))
    out = _call("mv_top_coding_df", rdf, float(alpha), int(seed), c, s)
    v = out.rx2("value")
    y = v.rx2("y")
    x = pd.DataFrame({k: _numbers(y[i]) for i, k in enumerate(cols)}, index=data.index)
    p = len(cols)
    return MvTopCoding(x=x, center=_numbers(v.rx2("center")),
                       cov=_numbers(v.rx2("cov")).reshape((p, p), order="F"),
                       flagged=pd.Series(_numbers(v.rx2("flagged")).astype(bool), index=data.index),
                       warnings=tuple(str(w) for w in out.rx2("warnings")))


@dataclass(frozen=True)
class Shuffle:
    """``shuffle()``'s ``shuffled`` and ``perturbed`` values (one column per response) and, for
    method "ds" on complete data, ``e``: its one normal draw replayed (``MASS::mvrnorm`` under the
    same seed with the same covariance), ``cor``: the correlation matrix of (responses,
    predictors) it used and, for covmethod "mcd", ``best``: covMcd's h-subset (0-based, sorted);
    None otherwise. ``egadp``: its ``egapd`` values (gadp = TRUE), else None."""

    shuffled: pd.DataFrame = field(repr=False)
    perturbed: pd.DataFrame = field(repr=False)
    e: np.ndarray | None = field(repr=False)
    cor: np.ndarray | None = field(default=None, repr=False)
    best: np.ndarray | None = field(default=None, repr=False)
    egadp: pd.DataFrame | None = field(default=None, repr=False)


def shuffle(data: pd.DataFrame, responses: Sequence[str], predictors: Sequence[str], *, method: str = "ds",
            covmethod: str = "spearman", seed: int = 1, regmethod: str = "lm", gadp: bool = False) -> Shuffle:
    """``set.seed(seed); sdcMicro::shuffle(data, form = responses ~ predictors, method, covmethod,
    regmethod, gadp)``."""
    cols = list(responses) + list(predictors)
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    out = _call("shuffle_df", rdf, r_str(list(responses)), r_str(list(predictors)), method, covmethod, int(seed),
                regmethod, bool(gadp))
    v = out.rx2("value")
    n, q = len(data), len(responses)

    def frame(x: object) -> pd.DataFrame:
        return pd.DataFrame(_numbers(x).reshape((n, q), order="F"), columns=list(responses), index=data.index)

    def get(name: str) -> np.ndarray | None:
        x = v.rx2(name)
        return None if x is None or type(x).__name__ == "NULLType" else _numbers(x)

    e, cor, best, eg = get("e"), get("cor"), get("best"), get("egadp")
    k = len(cols)
    return Shuffle(shuffled=frame(v.rx2("shuffled")), perturbed=frame(v.rx2("perturbed")),
                   e=None if e is None else e.reshape((n, q), order="F"),
                   cor=None if cor is None else cor.reshape((k, k), order="F"),
                   best=None if best is None else best.astype(np.int64) - 1,
                   egadp=None if eg is None else frame(eg))


def lm_fitted(data: pd.DataFrame, responses: Sequence[str], predictors: Sequence[str]) -> pd.DataFrame:
    """``fitted(lm(responses ~ predictors))``: the prediction sdcMicro's ``shuffle(method = "mlm")``
    means to use (sdcMicro 5.8.2 stops there with an error before using it)."""
    cols = list(responses) + list(predictors)
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    v = _call("lm_fitted_df", rdf, r_str(list(responses)), r_str(list(predictors))).rx2("value")
    return pd.DataFrame(_numbers(v).reshape((len(data), len(responses)), order="F"), columns=list(responses),
                        index=data.index)


@dataclass(frozen=True)
class NoiseDraws:
    """``addNoise(method = "ROMM" | "outdect")``'s ``xm`` and its draws replayed: ``z`` (ROMM: the
    N x N matrix, column-major as R fills it; outdect: normal draws, the first K per variable in
    turn used) and, for outdect, its MCD's ``center`` and ``cov``."""

    xm: pd.DataFrame = field(repr=False)
    z: np.ndarray = field(repr=False)
    center: np.ndarray | None = None
    cov: np.ndarray | None = field(default=None, repr=False)


def add_noise_draws(data: pd.DataFrame, variables: Sequence[str], *, method: str, noise: float = 150,
                    p: float = 0.001, seed: int = 1) -> NoiseDraws:
    """``set.seed(seed); addNoise(data, variables, noise, method, p = p)`` and its draws."""
    cols = list(variables)
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    v = _call("add_noise_draws", rdf, r_str(cols), float(noise), method, float(p), int(seed)).rx2("value")
    n, k = len(data), len(cols)
    xm = pd.DataFrame(_numbers(v.rx2("xm")).reshape((n, k), order="F"), columns=cols, index=data.index)
    z = _numbers(v.rx2("z"))
    if method == "ROMM":
        return NoiseDraws(xm=xm, z=z.reshape((n, n), order="F"))
    return NoiseDraws(xm=xm, z=z, center=_numbers(v.rx2("center")), cov=_numbers(v.rx2("cov")).reshape((k, k)))


def ghost_vars(data: pd.DataFrame, keys: Sequence[str], key_var: str, ghosts: Sequence[str], *, k: int = 2,
               threshold: float | None = None, via_add: bool = False) -> tuple[pd.Series, pd.DataFrame]:
    """``createSdcObj(data, keyVars = keys, ghostVars = list(list(key_var, ghosts)))`` (or
    ``addGhostVars(obj, key_var, ghosts)`` with `via_add`), then ``localSuppression(obj, k)`` or, with
    `threshold`, ``localSupp(obj, threshold, key_var)``: whether `key_var` and each ghost variable
    is missing afterwards (bool, indexed like the input)."""
    cols = list(dict.fromkeys([*keys, *ghosts]))
    rdf = to_r_frame(data, cols)
    thr = r_null() if threshold is None else float(threshold)
    v = _call("ghost_vars_obj", rdf, r_str(list(keys)), str(key_var), r_str(list(ghosts)), int(k), thr,
              bool(via_add)).rx2("value")
    key_na = pd.Series(_numbers(v.rx2("key_na")).astype(bool), index=data.index, name=key_var)
    g = v.rx2("ghost_na")
    return key_na, pd.DataFrame({name: _numbers(g[i]).astype(bool) for i, name in enumerate(ghosts)}, index=data.index)


def microaggregation_measure(data: pd.DataFrame, variables: Sequence[str], *, aggr: int = 3, method: str = "simple",
                             measure: str = "mean", trim: float = 0.0, varsort: int = 1,
                             strata_variables: str | None = None) -> pd.DataFrame:
    """``sdcMicro::microaggregation(data, variables, aggr, method, measure, trim, varsort,
    strata_variables)``'s ``mx`` (the variables after it, indexed like the input)."""
    cols = list(variables) + ([strata_variables] if strata_variables else [])
    rdf = to_r_frame(data[cols], cols)
    strata = r_null() if strata_variables is None else r_str([strata_variables])
    v = _call("microaggregation_measure_df", rdf, r_str(list(variables)), int(aggr), method, measure, float(trim),
              int(varsort), strata).rx2("value")
    return pd.DataFrame(_numbers(v).reshape((len(data), len(variables)), order="F"), columns=list(variables),
                        index=data.index)


def microaggregation_clust(data: pd.DataFrame, variables: Sequence[str], *, aggr: int = 3, method: str = "clustpca",
                           nc: int = 8, clustermethod: str = "clara", transf: str = "log",
                           varsort: int = 1) -> pd.DataFrame:
    """``sdcMicro::microaggregation(data, variables, aggr, method, nc, clustermethod, transf, varsort)``'s
    ``mx`` (the variables after it, indexed like the input): the clustering methods."""
    rdf = to_r_frame(data[list(variables)], list(variables))
    v = _call("microaggregation_clust_df", rdf, r_str(list(variables)), int(aggr), method, int(nc), clustermethod,
              transf, int(varsort)).rx2("value")
    return pd.DataFrame(_numbers(v).reshape((len(data), len(variables)), order="F"), columns=list(variables),
                        index=data.index)


def cluster_partition(data: pd.DataFrame, nc: int, clustermethod: str = "clara") -> tuple[np.ndarray, np.ndarray]:
    """``cluster::pam(data, nc)`` or ``cluster::clara(data, nc)``: (cluster 1 .. nc of each record,
    the medoids' record numbers 1 .. n in cluster order)."""
    rdf = to_r_frame(data, list(data.columns))
    v = _call("cluster_partition_df", rdf, int(nc), clustermethod).rx2("value")
    return _numbers(v.rx2("clustering")).astype(np.int64), _numbers(v.rx2("medoids")).astype(np.int64)


def mafast(data: pd.DataFrame, variables: Sequence[str], *, by: str | None = None, aggr: int = 3) -> pd.DataFrame:
    """``sdcMicro::mafast(data, variables, by, aggr)``: the variables after it, indexed like the input."""
    cols = list(variables) + ([by] if by else [])
    rdf = to_r_frame(data[cols], cols)
    v = _call("mafast_df", rdf, r_str(list(variables)), r_null() if by is None else r_str([by]), int(aggr)).rx2("value")
    return pd.DataFrame(_numbers(v).reshape((len(data), len(variables)), order="F"), columns=list(variables),
                        index=data.index)
