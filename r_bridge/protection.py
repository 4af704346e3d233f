"""Wrappers for sdcMicro's protection methods: ``globalRecode``, ``groupAndRename``,
``topBotCoding``, ``pram``, ``addNoise`` and ``rankSwap`` (and HMAC-SHA-256 from R's
``openssl`` package, to check pseudonyms against an independent implementation).

Same conventions as :mod:`r_bridge.sdcmicro`: pandas in, sdcMicro's values out under
sdcMicro's names, per-record values indexed like the input. The R side lives in
``_protection.R`` and is loaded into the bridge's helper environment on first use. The
random methods take a ``seed`` for R's ``set.seed``.
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

__all__ = [
    "global_recode", "group_and_rename", "top_bot_coding", "Pram", "pram", "PramDraws", "pram_draws", "PramStrata",
    "pram_strata",
    "pram_with_matrix", "AddNoise", "add_noise", "rank_swap", "hmac_sha256", "MicroCase", "MicroOut",
    "microaggregation_batch", "time_microaggregation_method",
    "create_dat", "record_swap", "info_loss", "GowerCase", "GowerOut", "microaggr_gower_batch", "gower_d",
    "local_rec_prog",
]


@lru_cache(maxsize=1)
def _load() -> None:
    import rpy2.robjects as ro

    env = session()
    code = resources.files(__package__).joinpath("_protection.R").read_text(encoding="utf-8")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)


def _call(name: str, *args: object) -> object:
    _load()
    return call(name, *args).rx2("value")


def _num(values: Sequence[float] | float | np.ndarray) -> object:
    return r_vector(np.atleast_1d(np.asarray(values, dtype=np.float64)))


def _opt_num(value: float | None) -> object:
    return r_null() if value is None else _num(value)


def _factor(parts: object, index: pd.Index, name: str | None = None) -> pd.Series:
    """An R factor (codes, levels) as a Series of its labels (NaN for NA), categories kept."""
    codes = np.asarray(parts.rx2("codes"), dtype=np.int64)
    levels = [str(v) for v in parts.rx2("levels")]
    codes = np.where(codes < 0, -1, codes - 1)  # NA_integer_ is negative
    return pd.Series(pd.Categorical.from_codes(codes, categories=levels), index=index, name=name)


def _series_vector(x: pd.Series) -> object:
    return r_vector(x.to_numpy(dtype=np.float64, na_value=np.nan))


def global_recode(x: pd.Series, breaks: Sequence[float] | int, *, labels: Sequence[str] | None = None,
                  method: str = "equidistant") -> pd.Series:
    """``globalRecode(x, breaks, labels, method)`` on a numeric vector: the factor's labels."""
    brk = _num([float(breaks)] if np.isscalar(breaks) else list(breaks))
    lab = r_null() if labels is None else r_str([str(v) for v in labels])
    return _factor(_call("protect_global_recode", _series_vector(x), brk, lab, method), x.index, x.name)


def group_and_rename(x: pd.Series, before: Sequence[str], after: str, *, addNA: bool = False) -> pd.Series:
    """``groupAndRename(factor(x), before, after, addNA)``: the factor's labels (numbers become
    factors with R's ``factor()``: levels ``"4"``, not ``"4.0"``)."""
    f = to_r_frame(pd.DataFrame({"x": x.to_numpy()}), ["x"]).rx2("x")
    out = _call("protect_group_and_rename", f, r_str([str(b) for b in before]), r_str(str(after)), bool(addNA))
    return _factor(out, x.index, x.name)


def top_bot_coding(x: pd.Series, value: float, replacement: float, *, kind: str = "top") -> pd.Series:
    """``topBotCoding(x, value, replacement, kind)`` on a numeric vector."""
    v = _call("protect_top_bot_coding", _series_vector(x), float(value), float(replacement), kind)
    return pd.Series(py_vector(v), index=x.index, name=x.name)


@dataclass(frozen=True, slots=True)
class Pram:
    """``pram()`` on a data frame: the pramed columns (``<v>_pram`` as labels), the matrix
    ``Rs`` of each variable (sdcMicro keeps the last stratum's) and ``nrChanges``."""

    pramed: pd.DataFrame = field(repr=False)
    Rs: dict[str, pd.DataFrame] = field(repr=False)
    nrChanges: dict[str, int]


def pram(data: pd.DataFrame, variables: Sequence[str], *, strata_variables: Sequence[str] | None = None,
         pd_: float = 0.8, alpha: float = 0.5, seed: int = 1) -> Pram:
    """``set.seed(seed); pram(data, variables, strata_variables, pd = pd_, alpha)``.

    Variables that are not factors are made factors (``factor(x)``: sorted levels)."""
    cols = list(dict.fromkeys(list(variables) + list(strata_variables or [])))
    rdf = to_r_frame(data, cols)
    strata = r_null() if not strata_variables else r_str(list(strata_variables))
    v = _call("protect_pram", rdf, r_str(list(variables)), strata, float(pd_), float(alpha), int(seed))
    pramed = pd.DataFrame({f"{name}_pram": _factor(v.rx2("pramed")[i], data.index) for i, name in enumerate(variables)})
    Rs = {}
    for i, name in enumerate(variables):
        lev = [str(s) for s in v.rx2("levels")[i]]
        Rs[name] = pd.DataFrame(np.asarray(v.rx2("Rs")[i], dtype=np.float64).reshape(len(lev), len(lev), order="F"),
                                index=lev, columns=lev)
    nr = py_vector(v.rx2("nrChanges"))
    return Pram(pramed=pramed, Rs=Rs, nrChanges={name: int(nr[i]) for i, name in enumerate(variables)})


@dataclass(frozen=True, slots=True)
class PramDraws:
    """The diagonal sdcMicro drew for one variable, the matrix ``Rs`` built from it, and the
    pramed values, all from one ``set.seed``."""

    levels: list[str]
    diagonal: np.ndarray = field(repr=False)
    Rs: pd.DataFrame = field(repr=False)
    pramed: pd.Series = field(repr=False)


def pram_draws(x: pd.Series, *, pd_: float = 0.8, alpha: float = 0.5, seed: int = 1) -> PramDraws:
    """``set.seed(seed); pram(factor(x), pd, alpha)`` with the ``runif(L, pd, 1)`` diagonal replayed."""
    rdf = to_r_frame(pd.DataFrame({"x": x}), ["x"])
    v = _call("protect_pram_draws", rdf.rx2("x"), float(pd_), float(alpha), int(seed))
    lev = [str(s) for s in v.rx2("levels")]
    L = len(lev)
    Rs = pd.DataFrame(np.asarray(v.rx2("Rs"), dtype=np.float64).reshape(L, L, order="F"), index=lev, columns=lev)
    return PramDraws(levels=lev, diagonal=py_vector(v.rx2("diagonal")), Rs=Rs,
                     pramed=_factor(v.rx2("pramed"), x.index, x.name))


def pram_with_matrix(x: pd.Series, matrix: pd.DataFrame, *, seed: int = 1) -> pd.Series:
    """``set.seed(seed); pram(factor(x, levels), pd = matrix)``; levels are the matrix's row names."""
    lev = [str(s) for s in matrix.index]
    import rpy2.robjects as ro

    m = ro.r.matrix(r_vector(matrix.to_numpy(dtype=np.float64).ravel(order="F")), nrow=len(lev))
    xr = to_r_frame(pd.DataFrame({"x": x.to_numpy()}), ["x"]).rx2("x")
    out = _call("protect_pram_matrix", xr, m, r_str(lev), int(seed))
    return _factor(out, x.index, x.name)


@dataclass(frozen=True, slots=True)
class PramStrata:
    """``pram()`` with strata and every stratum's diagonal draws replayed from the same seed:
    ``strata`` (0-based code per record, in sdcMicro's order of the pasted strata values),
    ``diagonals`` (one array per stratum), ``Rs_last`` (the matrix sdcMicro keeps, of its last
    stratum) and the pramed values."""

    levels: list[str]
    strata: np.ndarray = field(repr=False)
    strata_levels: list[str]
    diagonals: list[np.ndarray] = field(repr=False)
    Rs_last: pd.DataFrame = field(repr=False)
    pramed: pd.Series = field(repr=False)


def pram_strata(data: pd.DataFrame, variable: str, strata_variables: Sequence[str], *, pd_: float = 0.8,
                alpha: float = 0.5, seed: int = 1) -> PramStrata:
    """``set.seed(seed); pram(data, variable, strata_variables, pd, alpha)`` with the draws replayed."""
    rdf = to_r_frame(data, list(dict.fromkeys([variable, *strata_variables])))
    v = _call("protect_pram_strata", rdf, variable, r_str(list(strata_variables)), float(pd_), float(alpha), int(seed))
    lev = [str(s) for s in v.rx2("levels")]
    L = len(lev)
    return PramStrata(
        levels=lev, strata=np.asarray(v.rx2("strata"), dtype=np.int64) - 1,
        strata_levels=[str(s) for s in v.rx2("strata_levels")],
        diagonals=[py_vector(d) for d in v.rx2("diagonals")],
        Rs_last=pd.DataFrame(np.asarray(v.rx2("Rs_last"), dtype=np.float64).reshape(L, L, order="F"), index=lev,
                             columns=lev),
        pramed=_factor(v.rx2("pramed"), data.index, variable),
    )


@dataclass(frozen=True, slots=True)
class AddNoise:
    """``addNoise()``'s ``xm`` and the standard normal draws ``z`` (n x p, column by column)
    that the same seed replays (meaningful for ``additive`` and ``correlated2``)."""

    xm: pd.DataFrame = field(repr=False)
    z: np.ndarray = field(repr=False)


def add_noise(data: pd.DataFrame, variables: Sequence[str], *, noise: float = 150, method: str = "additive",
              delta: float = 0.1, seed: int = 1) -> AddNoise:
    """``set.seed(seed); addNoise(data, variables, noise, method, delta = delta)``."""
    rdf = to_r_frame(data, list(variables))
    v = _call("protect_add_noise", rdf, r_str(list(variables)), float(noise), method, float(delta), int(seed))
    xm = pd.DataFrame({name: py_vector(v.rx2("xm")[i]) for i, name in enumerate(variables)}, index=data.index)
    z = py_vector(v.rx2("z")).reshape(len(variables), len(data)).T
    return AddNoise(xm=xm, z=z)


def rank_swap(data: pd.DataFrame, variables: Sequence[str], *, TopPercent: float = 5, BottomPercent: float = 5,
              K0: float | None = None, R0: float | None = None, P: float | None = None, seed: int = 1) -> pd.DataFrame:
    """``rankSwap(data, variables, TopPercent, BottomPercent, K0, R0, P, seed = seed)``.

    sdcMicro's C++ reads ``P`` as a fraction of the records (``P = 0.05``: 5 percent). It
    writes out of bounds (R dies with a segfault) when exactly one of the top and bottom
    groups is empty (``int(n * TopPercent/100)`` or ``floor(n * BottomPercent/100)`` is 0 for
    the n non-missing values, not both): such calls raise ``ValueError`` here instead."""
    f32 = np.float32
    for v in variables:
        n = f32(int(data[v].notna().sum()))
        top = int(n * f32(f32(TopPercent) * f32(0.01)))
        bottom = int(np.floor(n * f32(f32(BottomPercent) * f32(0.01))))
        if (top == 0) != (bottom == 0):
            raise ValueError(f"sdcMicro's rankSwap crashes R when one of the top ({top}) and bottom ({bottom}) "
                             f"groups of {v!r} is empty and the other is not; not called.")
    rdf = to_r_frame(data, list(variables))
    v = _call("protect_rank_swap", rdf, r_str(list(variables)), float(TopPercent), float(BottomPercent),
              _opt_num(K0), _opt_num(R0), _opt_num(P), int(seed))
    return pd.DataFrame({name: py_vector(v[i]) for i, name in enumerate(variables)}, index=data.index)


def hmac_sha256(values: Sequence[str], key: bytes) -> list[str]:
    """``openssl::sha256(values, key = key)`` in R: the HMAC-SHA-256 of each string, in hex."""
    out = _call("protect_hmac", r_str([str(v) for v in values]), key.hex())
    return [str(s) for s in out]


@dataclass(frozen=True)
class MicroCase:
    """One ``sdcMicro::microaggregation`` call of :func:`microaggregation_batch`: every column of
    `data` a variable; `seed` for R's ``set.seed`` before the call."""

    data: pd.DataFrame
    aggr: int = 3
    method: str = "mdav"
    measure: str = "mean"
    trim: float = 0.0
    seed: int = 1


@dataclass(frozen=True)
class MicroOut:
    """sdcMicro's ``$mx`` (a frame like the input) and, for mcdpca and rmd, the MCD ``fit``
    (centre, covariance) it drew from the case's seed (rmd: of the standardised variables)."""

    mx: pd.DataFrame
    fit: tuple[np.ndarray, np.ndarray] | None


def microaggregation_batch(cases: Sequence[MicroCase]) -> list[MicroOut]:
    """``sdcMicro::microaggregation`` on many cases in ONE R call (``protect_micro_batch``)."""
    import rpy2.robjects as ro

    items = [ro.ListVector({"x": to_r_frame(c.data), "aggr": int(c.aggr), "method": str(c.method),
                            "measure": str(c.measure), "trim": float(c.trim), "seed": int(c.seed)}) for c in cases]
    value = _call("protect_micro_batch", ro.r("list")(*items))
    out = []
    for c, v in zip(cases, value):
        mx = pd.DataFrame({col: py_vector(part) for col, part in zip(c.data.columns, v.rx2("mx"))}, index=c.data.index)
        f = v.rx2("fit")
        fit = None if f is ro.NULL or isinstance(f, type(ro.NULL)) else (
            py_vector(f.rx2("center")), np.asarray(f.rx2("cov"), dtype=np.float64).reshape(c.data.shape[1], -1, order="F"))
        out.append(MicroOut(mx=mx, fit=fit))
    return out


@dataclass(frozen=True)
class GowerCase:
    """One ``sdcMicro:::maGowerWORK`` call (the body of ``microaggrGower``) of
    :func:`microaggr_gower_batch`: categories and text of `data` become factors (ordered ones
    ordered); `cat` is ``"sample"`` (``VIM::sampleCat``) or ``"mode"`` (``VIM::maxCat``),
    `numfun` ``"mean"`` or ``"median"``; `seed` for R's ``set.seed`` before the call."""

    data: pd.DataFrame
    variables: tuple[str, ...]
    aggr: int = 3
    dist_var: tuple[str, ...] | None = None
    by: tuple[str, ...] | None = None
    mixed: tuple[str, ...] | None = None
    mixed_constant: tuple[float, ...] | None = None
    weights: tuple[float, ...] | None = None
    cat: str = "sample"
    numfun: str = "mean"
    seed: int = 1


@dataclass(frozen=True)
class GowerOut:
    """sdcMicro's released `variables` and each record's k nearest records (0-based row
    positions, nearest first) as ``VIM::gowerD(returnIndex = TRUE)`` found them."""

    out: pd.DataFrame
    neighbours: np.ndarray


def microaggr_gower_batch(cases: Sequence[GowerCase]) -> list[GowerOut]:
    """``sdcMicro:::maGowerWORK`` on many cases in ONE R call (``protect_gower_batch``)."""
    import rpy2.robjects as ro

    from .convert import from_r_frame

    def names(v: Sequence[str] | None) -> object:
        return r_null() if v is None else r_str([str(x) for x in v])

    items = [ro.ListVector({"x": to_r_frame(c.data), "variables": names(c.variables), "aggr": int(c.aggr),
                            "dist_var": names(c.dist_var or c.variables), "by": names(c.by), "mixed": names(c.mixed),
                            "mixed_constant": r_null() if c.mixed_constant is None else _num(c.mixed_constant),
                            "weights": r_null() if c.weights is None else _num(c.weights), "cat": str(c.cat),
                            "numfun": str(c.numfun), "seed": int(c.seed)}) for c in cases]
    value = _call("protect_gower_batch", ro.r("list")(*items))
    out = []
    for c, v in zip(cases, value):
        frame = from_r_frame(v.rx2("out")).set_axis(c.data.index, axis=0)
        nb = np.asarray(v.rx2("neighbours"), dtype=np.int64).reshape(len(c.data), -1, order="F") - 1
        out.append(GowerOut(out=frame, neighbours=nb))
    return out


def gower_d(data: pd.DataFrame, *, numerical: Sequence[str] = (), factors: Sequence[str] = (),
            orders: Sequence[str] = (), mixed: Sequence[str] = (), lev_orders: Sequence[float] = (),
            mixed_constant: Sequence[float] = (), weights: Sequence[float] | None = None) -> np.ndarray:
    """``VIM::gowerD(data, data, weights, numerical, factors, orders, mixed, levOrders,
    mixed.constant)``: the (n, n) distance matrix."""
    cols = [*numerical, *factors, *orders, *mixed]
    w = [1.0] * len(cols) if weights is None else list(weights)
    m = _call("protect_gower_d", to_r_frame(data, cols), r_str(list(numerical)), r_str(list(factors)),
              r_str(list(orders)), r_str(list(mixed)), r_vector(np.asarray(lev_orders, dtype=np.float64)),
              r_vector(np.asarray(mixed_constant, dtype=np.float64)), _num(w))
    return np.asarray(m, dtype=np.float64).reshape(len(data), len(data), order="F")


def time_microaggregation_method(data: pd.DataFrame, *, aggr: int = 3, method: str = "mdav",
                                 reps: int = 3) -> tuple[float, pd.DataFrame]:
    """Warm seconds per ``sdcMicro::microaggregation`` call (mean of `reps`, after one untimed call), and its ``$mx``."""
    v = _call("protect_micro_time", to_r_frame(data), int(aggr), str(method), int(reps))
    mx = pd.DataFrame({col: py_vector(part) for col, part in zip(data.columns, v.rx2("mx"))}, index=data.index)
    return float(py_vector(v.rx2("seconds"))[0]), mx


def create_dat(n: int = 2000, seed: int = 1) -> pd.DataFrame:
    """``set.seed(seed); sdcMicro::createDat(n)``: sdcMicro's synthetic census file (households of
    ``hsize`` members, geography nuts1 > nuts2 > nuts3 > lau2, all integer columns)."""
    from .convert import from_r_frame

    return from_r_frame(_call("protect_create_dat", int(n), int(seed)))


def record_swap(data: pd.DataFrame, *, hid: str, hierarchy: Sequence[str], similar: Sequence[Sequence[str]],
                swaprate: float = 0.05, k_anonymity: int = 3, risk_variables: Sequence[str] = (),
                carry_along: Sequence[str] | None = None, return_swapped_id: bool = False,
                seed: int = 1) -> pd.DataFrame:
    """``sdcMicro::recordSwap(data, hid, hierarchy, similar = list(...), swaprate, k_anonymity,
    risk_variables, carry_along, return_swapped_id, seed)`` (its messages silenced, its log file a
    temporary one): the swapped file, rows in sdcMicro's order (sorted by `hid`)."""
    import rpy2.robjects as ro

    from .convert import from_r_frame

    sim = ro.ListVector.from_length(len(similar))
    for i, s in enumerate(similar):
        sim[i] = r_str(list(s))
    out = _call("protect_record_swap", to_r_frame(data), r_str([hid]), r_str(list(hierarchy)), sim, float(swaprate),
                int(k_anonymity), r_str(list(risk_variables)),
                r_null() if not carry_along else r_str(list(carry_along)), bool(return_swapped_id), int(seed))
    return from_r_frame(out)


def info_loss(data: pd.DataFrame, swapped: pd.DataFrame, table_vars: Sequence[str],
              hid: str | None = None) -> dict[str, object]:
    """``sdcMicro::infoLoss(data, swapped, table_vars, hid)``: its measures table (a DataFrame
    indexed by ``what``, columns absD, relabsD, abssqrtD), the number of cells, false zeros and
    non-zeros."""
    cols = list(dict.fromkeys([*table_vars, *([hid] if hid else [])]))
    v = _call("utility_info_loss", to_r_frame(data, cols), to_r_frame(swapped, cols), r_str(list(table_vars)),
              r_null() if hid is None else r_str([hid]))
    measures = pd.DataFrame({m: py_vector(v.rx2(m)) for m in ("absD", "relabsD", "abssqrtD")},
                            index=pd.Index([str(w) for w in v.rx2("what")], name="what"))
    return {"measures": measures, "cells": int(v.rx2("cells")[0]), "false_zero": int(v.rx2("false_zero")[0]),
            "false_nonzero": int(v.rx2("false_nonzero")[0])}


def local_rec_prog(data: pd.DataFrame, categorical: Sequence[str], *, numerical: Sequence[str] | None = None,
                   ancestors: Sequence[str] | None = None, ancestor_setting: Sequence[str] | None = None,
                   k_level: int = 2, FindLowestK: bool = True, weight: Sequence[float] | None = None,
                   lowMemory: bool = False, missingValue: float | None = None,
                   reps: int = 0) -> tuple[pd.DataFrame, float]:
    """``LocalRecProg(data, categorical, numerical, ancestors, ancestor_setting, k_level, FindLowestK,
    weight, lowMemory, missingValue)`` on numeric columns (missingValue None: NA): the recoded
    columns under their own names (sdcMicro's ``_lr`` ones), and the mean CPU seconds (R's user +
    system) of `reps` timed calls after the first (0.0 when reps is 0)."""
    import rpy2.robjects as ro

    cols = [*categorical, *(numerical or []), *(ancestors or [])]
    rdf = to_r_frame(data.reset_index(drop=True), list(dict.fromkeys(cols)))
    opt = (lambda v: r_str(list(v)) if v else r_null())
    v = _call("protect_local_rec_prog", rdf, r_str(list(categorical)), opt(numerical), opt(ancestors),
              opt(ancestor_setting), int(k_level), bool(FindLowestK),
              _num(weight) if weight is not None else r_null(), bool(lowMemory),
              ro.NA_Real if missingValue is None else float(missingValue), int(reps))
    names = [*categorical, *(numerical or [])]
    values = v.rx2("values")
    out = pd.DataFrame({name: py_vector(values[i]) for i, name in enumerate(names)}, index=data.index)
    return out, float(py_vector(v.rx2("seconds"))[0])
