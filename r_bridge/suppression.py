"""Wrappers for sdcMicro's ``localSuppression`` and ``microaggregation``.

Same conventions as :mod:`r_bridge.sdcmicro`: pandas in, sdcMicro's values out under
sdcMicro's names, per-record values indexed like the input. The R side lives in
``_suppression.R`` and is loaded into the bridge's helper environment on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import from_r_frame, py_vector, r_null, r_str, r_vector, to_r_frame

__all__ = ["LocalSuppression", "local_suppression", "local_suppression_sdcobj", "local_supp", "risky_cells", "microaggregation",
           "time_local_suppression", "time_microaggregation"]


@lru_cache(maxsize=1)
def _load() -> None:
    import rpy2.robjects as ro

    env = session()
    code = resources.files(__package__).joinpath("_suppression.R").read_text(encoding="utf-8")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)


def _call(name: str, *args: object) -> object:
    _load()
    return call(name, *args)


def _opt_str(values: Sequence[str] | str | None) -> object:
    if values is None:
        return r_null()
    return r_str([values] if isinstance(values, str) else list(values))


def _opt_num(values: Sequence[float] | float | None) -> object:
    if values is None:
        return r_null()
    arr = np.atleast_1d(np.asarray(values, dtype=np.float64))
    return r_vector(arr)


@dataclass(frozen=True, slots=True)
class LocalSuppression:
    """``localSuppression()``'s result: ``xAnon`` (the key columns after suppression),
    ``is_na`` (bool per record and key), ``supps`` / ``totalSupps`` (new / all missing values
    per key; one row per stratum and a ``Total`` row when stratified) and ``importance``."""

    xAnon: pd.DataFrame = field(repr=False)
    is_na: pd.DataFrame = field(repr=False)
    supps: pd.DataFrame
    totalSupps: pd.DataFrame
    importance: tuple[float, ...]
    printed: str = field(repr=False)
    warnings: tuple[str, ...] = ()


def _ls_result(out: object, data: pd.DataFrame, keys: Sequence[str]) -> LocalSuppression:
    v = out.rx2("value")
    na = v.rx2("na")
    is_na = pd.DataFrame({k: py_vector(na[i]).astype(bool) for i, k in enumerate(keys)}, index=data.index)
    xanon = from_r_frame(v.rx2("xanon"))
    xanon.index = data.index
    rows = [str(x) for x in v.rx2("supps_rows")]
    supps = pd.DataFrame({k: py_vector(v.rx2("supps")[i]) for i, k in enumerate(keys)}, index=rows)
    total = pd.DataFrame({k: py_vector(v.rx2("total_supps")[i]) for i, k in enumerate(keys)}, index=rows)
    pr = v.rx2("print")
    return LocalSuppression(
        xAnon=xanon, is_na=is_na, supps=supps, totalSupps=total,
        importance=tuple(float(x) for x in py_vector(v.rx2("importance"))),
        printed=str(pr[0]) if len(pr) else "", warnings=tuple(str(w) for w in out.rx2("warnings")),
    )


def local_suppression(
    data: pd.DataFrame, keys: Sequence[str], *, k: int | Sequence[int] = 2, importance: Sequence[int] | None = None,
    combs: Sequence[int] | None = None, strataVars: Sequence[str] | str | None = None, alpha: float = 1.0,
) -> LocalSuppression:
    """``sdcMicro::localSuppression(data, keyVars = keys, k, importance, combs, strataVars, alpha)``
    (the data.frame method; string keys reach R as factors). The whole frame goes to R, every
    column in its place: sdcMicro's result can depend on where the keys are (it reads
    ``importance`` by data-frame column with ``combs``; docs/sdcmicro-differences.md)."""
    strata = [strataVars] if isinstance(strataVars, str) else (list(strataVars) if strataVars else None)
    rdf = to_r_frame(data)
    out = _call("local_suppression_df", rdf, r_str(list(keys)), _opt_num(k), _opt_num(importance), _opt_num(combs),
                _opt_str(strata), float(alpha))
    return _ls_result(out, data, keys)


def local_suppression_sdcobj(
    data: pd.DataFrame, keys: Sequence[str], *, k: int | Sequence[int] = 2, importance: Sequence[int] | None = None,
    combs: Sequence[int] | None = None, strataVar: Sequence[str] | str | None = None, alpha: float = 1.0,
    weightVar: str | None = None,
) -> LocalSuppression:
    """``localSuppression(createSdcObj(data, keyVars = keys, weightVar, strataVar, alpha), k, importance, combs)``."""
    strata = [strataVar] if isinstance(strataVar, str) else (list(strataVar) if strataVar else None)
    cols = list(keys) + (strata or []) + ([weightVar] if weightVar else [])
    rdf = to_r_frame(data, cols)
    out = _call("local_suppression_obj", rdf, r_str(list(keys)), _opt_num(k), _opt_num(importance), _opt_num(combs),
                _opt_str(strata), float(alpha), _opt_str(weightVar))
    return _ls_result(out, data, keys)


def local_supp(data: pd.DataFrame, keys: Sequence[str], key_var: str, *, threshold: float = 0.15,
               alpha: float = 1.0, weightVar: str | None = None) -> pd.Series:
    """``localSupp(createSdcObj(data, keyVars = keys, weightVar, alpha), threshold, keyVar)``:
    whether each record's `key_var` is missing afterwards (bool, indexed like the input)."""
    cols = list(keys) + ([weightVar] if weightVar else [])
    rdf = to_r_frame(data, cols)
    v = _call("local_supp_obj", rdf, r_str(list(keys)), str(key_var), float(threshold), float(alpha),
              _opt_str(weightVar)).rx2("value")
    return pd.Series(py_vector(v.rx2("na")).astype(bool), index=data.index, name=key_var)


def risky_cells(data: pd.DataFrame, keys: Sequence[str], *, threshold: int | Sequence[int],
                max_dim: int | None = None, level: Sequence[int] | None = None) -> pd.DataFrame:
    """``riskyCells(data, keyVars = keys, threshold, useIdentificationLevel, maxDim | level)``:
    one row per combination, ``dim1`` .. (None where R has NA), ``threshold``, ``unsafe_cells``."""
    rdf = to_r_frame(data, list(keys))
    v = _call("risky_cells_df", rdf, r_str(list(keys)), _opt_num(threshold),
              r_null() if max_dim is None else int(max_dim), _opt_num(level)).rx2("value")
    dims = v.rx2("dims")
    out = pd.DataFrame({f"dim{i + 1}": pd.Series([None if str(x) in ("NA", "NA_character_") else str(x)
                                                  for x in dims[i]], dtype=object) for i in range(len(dims))})
    out["threshold"] = py_vector(v.rx2("threshold")).astype(np.int64)
    out["unsafe_cells"] = py_vector(v.rx2("unsafe")).astype(np.int64)
    return out


def microaggregation(
    data: pd.DataFrame, variables: Sequence[str], *, aggr: int = 3, method: str = "mdav",
    strata_variables: Sequence[str] | str | None = None,
) -> pd.DataFrame:
    """``sdcMicro::microaggregation(data, variables, aggr, method, strata_variables)$mx``: the
    microaggregated variables, indexed like the input."""
    strata = [strata_variables] if isinstance(strata_variables, str) else (
        list(strata_variables) if strata_variables else None)
    rdf = to_r_frame(data, list(variables) + (strata or []))
    v = _call("microaggregation_df", rdf, r_str(list(variables)), int(aggr), str(method), _opt_str(strata)).rx2("value")
    mx = v.rx2("mx")
    return pd.DataFrame({c: py_vector(mx[i]) for i, c in enumerate(variables)}, index=data.index)


def time_local_suppression(data: pd.DataFrame, keys: Sequence[str], *, k: int = 2, alpha: float = 1.0,
                           reps: int = 3) -> tuple[np.ndarray, pd.DataFrame]:
    """Seconds of `reps` timed ``localSuppression`` calls in R (after one untimed call), and
    the last call's missing-value mask of the keys."""
    rdf = to_r_frame(data, list(keys))
    v = _call("time_local_suppression", rdf, r_str(list(keys)), int(k), float(alpha), int(reps)).rx2("value")
    na = v.rx2("na")
    mask = pd.DataFrame({c: py_vector(na[i]).astype(bool) for i, c in enumerate(keys)}, index=data.index)
    return py_vector(v.rx2("seconds")), mask


def time_microaggregation(data: pd.DataFrame, variables: Sequence[str], *, aggr: int = 3, method: str = "mdav",
                          reps: int = 3) -> tuple[np.ndarray, pd.DataFrame]:
    """Seconds of `reps` timed ``microaggregation`` calls in R (after one untimed call), and the
    last call's ``mx``."""
    rdf = to_r_frame(data, list(variables))
    v = _call("time_microaggregation", rdf, r_str(list(variables)), int(aggr), str(method), int(reps)).rx2("value")
    mx = v.rx2("mx")
    return py_vector(v.rx2("seconds")), pd.DataFrame({c: py_vector(mx[i]) for i, c in enumerate(variables)},
                                                     index=data.index)
