"""Thin wrappers over sdcMicro's functions, taking pandas data and column names.

Each wrapper converts the data (see :mod:`r_bridge.convert`), calls sdcMicro once, and
returns sdcMicro's values under sdcMicro's own names (``fk``, ``Fk``, ``Res``,
``global_risk_ER``, ...), with per-record values indexed like the input. Translation to
:mod:`sdc`'s names happens in ``validation/``, not here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._session import call
from .convert import from_r_frame, py_vector, r_null, r_str, to_r_frame

__all__ = [
    "FreqCalc", "MeasureRisk", "SdcObjRisk",
    "freq_calc", "indiv_risk", "measure_risk", "create_sdc_obj", "ldiversity", "suda2", "Suda2", "mod_risk", "load_dataset",
    "DATASETS",
]

#: sdcMicro's bundled datasets that :func:`load_dataset` can load.
DATASETS = ("testdata", "testdata2", "francdat", "free1", "CASCrefmicrodata", "EIA", "Tarragona", "microData", "casc1")


def _cols(data: pd.DataFrame, *groups: Sequence[str] | str | None) -> list[str]:
    out: list[str] = []
    for g in groups:
        if g is None:
            continue
        for c in [g] if isinstance(g, str) else g:
            if c not in out:
                out.append(c)
    return out


def _num(x: object) -> float:
    v = py_vector(x)
    return float(v[0]) if v.size else float("nan")


def _opt(name: str | None) -> object:
    return r_null() if name is None else r_str(name)


@dataclass(frozen=True, slots=True)
class FreqCalc:
    """``freqCalc()``: per-record ``fk`` and ``Fk``, and ``n1``/``n2``."""

    fk: pd.Series = field(repr=False)
    Fk: pd.Series = field(repr=False)
    n1: int
    n2: int
    alpha: float
    warnings: tuple[str, ...] = ()


def freq_calc(
    data: pd.DataFrame, keys: Sequence[str], *, w: str | None = None, alpha: float = 1.0
) -> FreqCalc:
    """``sdcMicro::freqCalc(x, keyVars = keys, w = w, alpha = alpha)``.

    String keys reach R as factors (freqCalc itself would coerce character columns to NA).
    """
    rdf = to_r_frame(data, _cols(data, keys, w))
    out = call("freq_calc", rdf, r_str(list(keys)), _opt(w), float(alpha))
    v = out.rx2("value")
    return FreqCalc(
        fk=pd.Series(py_vector(v.rx2("fk")), index=data.index, name="fk"),
        Fk=pd.Series(py_vector(v.rx2("Fk")), index=data.index, name="Fk"),
        n1=int(_num(v.rx2("n1"))), n2=int(_num(v.rx2("n2"))), alpha=_num(v.rx2("alpha")),
        warnings=tuple(str(s) for s in out.rx2("warnings")),
    )


def indiv_risk(
    data: pd.DataFrame, keys: Sequence[str], *, w: str | None = None, method: str = "approx", survey: bool = True
) -> pd.DataFrame:
    """``indivRisk(freqCalc(x, keys, w), method, survey)``: columns ``rk``, ``fk``, ``Fk``."""
    rdf = to_r_frame(data, _cols(data, keys, w))
    v = call("indiv_risk", rdf, r_str(list(keys)), _opt(w), method, bool(survey)).rx2("value")
    return pd.DataFrame({k: py_vector(v.rx2(k)) for k in ("rk", "fk", "Fk")}, index=data.index)


@dataclass(frozen=True, slots=True)
class MeasureRisk:
    """``measure_risk()`` on a data frame, under sdcMicro's names.

    ``Res`` has columns ``risk``, ``fk``, ``Fk`` (and ``hier_risk`` with a household id).
    ``global_threshold`` is NaN where sdcMicro returns NA. ``n_higher_risk`` is the count
    that ``print.measure_risk`` shows ("obs. with higher risk as the main part").
    """

    Res: pd.DataFrame = field(repr=False)
    global_risk_ER: float
    global_risk: float
    global_risk_pct: float
    global_threshold: float
    max_global_risk: float
    hier_risk_ER: float | None
    hier_risk: float | None
    hier_risk_pct: float | None
    n_higher_risk: int
    printed: str = field(repr=False)


def measure_risk(
    data: pd.DataFrame,
    keys: Sequence[str],
    *,
    w: str | None = None,
    hid: str | None = None,
    max_global_risk: float = 0.01,
    fast_hier: bool = True,
) -> MeasureRisk:
    """``sdcMicro::measure_risk(data, keyVars = keys, w = w, hid = hid, max_global_risk = ...)``."""
    rdf = to_r_frame(data, _cols(data, keys, w, hid))
    v = call("measure_risk", rdf, r_str(list(keys)), _opt(w), _opt(hid), float(max_global_risk), bool(fast_hier)).rx2("value")
    res = pd.DataFrame({k: py_vector(v.rx2(k)) for k in ("risk", "fk", "Fk")}, index=data.index)
    hier = py_vector(v.rx2("record_hier_risk"))
    if hier.size:
        res["hier_risk"] = hier
    text = str(v.rx2("print")[0])
    m = re.search(r"(\d+) obs\. with higher risk", text)
    return MeasureRisk(
        Res=res,
        global_risk_ER=_num(v.rx2("global_risk_ER")),
        global_risk=_num(v.rx2("global_risk")),
        global_risk_pct=_num(v.rx2("global_risk_pct")),
        global_threshold=_num(v.rx2("global_threshold")),
        max_global_risk=_num(v.rx2("max_global_risk")),
        hier_risk_ER=_num(v.rx2("hier_risk_ER")) if hier.size else None,
        hier_risk=_num(v.rx2("hier_risk")) if hier.size else None,
        hier_risk_pct=_num(v.rx2("hier_risk_pct")) if hier.size else None,
        n_higher_risk=int(m.group(1)) if m else -1,
        printed=text,
    )


@dataclass(frozen=True, slots=True)
class SdcObjRisk:
    """Risk figures of ``createSdcObj()``: ``sdc@risk$global`` and ``sdc@risk$individual``.

    ``global_`` holds ``risk``, ``risk_ER``, ``risk_pct``, ``threshold``, ``max_risk`` (and
    ``hier_risk_ER``, ``hier_risk``, ``hier_risk_pct``), as in the object. ``risky_obs``
    and ``reident`` are what ``print(sdc, "risk")`` shows; ``kanon`` the number of records
    with fk < 2, 3, 5 from ``print(sdc, "kAnon")``.
    """

    global_: dict[str, float]
    individual: pd.DataFrame = field(repr=False)
    risky_obs: int
    reident: tuple[str, str]
    kanon: dict[str, int]
    risk_text: str = field(repr=False)
    kanon_text: str = field(repr=False)
    #: The sdcMicroObj itself (an rpy2 S4 object), with ``handle=True``: pass it to sdcMicro's
    #: functions through rpy2 (``robjects.r["localSuppression"](obj.handle, k=3)``).
    handle: object = field(default=None, repr=False, compare=False)


def create_sdc_obj(
    data: pd.DataFrame,
    keys: Sequence[str],
    *,
    weightVar: str | None = None,
    hhId: str | None = None,
    alpha: float = 1.0,
    handle: bool = False,
) -> SdcObjRisk:
    """``createSdcObj(data, keyVars = keys, weightVar =, hhId =, alpha =)`` and its risk figures;
    with ``handle=True`` also the sdcMicroObj itself (:attr:`SdcObjRisk.handle`)."""
    rdf = to_r_frame(data, _cols(data, keys, weightVar, hhId))
    v = call("create_sdc_obj", rdf, r_str(list(keys)), _opt(weightVar), _opt(hhId), float(alpha)).rx2("value")
    g = v.rx2("global")
    glob = {str(k): _num(g.rx2(k)) for k in g.names}
    ind = pd.DataFrame({k: py_vector(v.rx2(k)) for k in ("risk", "fk", "Fk")}, index=data.index)
    hier = py_vector(v.rx2("record_hier_risk"))
    if hier.size:
        ind["hier_risk"] = hier
    kan = py_vector(v.rx2("kanon"))
    reident = tuple(str(s) for s in v.rx2("reident"))
    return SdcObjRisk(
        global_=glob, individual=ind, risky_obs=int(_num(v.rx2("risky_obs"))),
        reident=(reident[0], reident[1]),
        kanon={"fk_lt_2": int(kan[0]), "fk_lt_3": int(kan[1]), "fk_lt_5": int(kan[2])},
        risk_text=str(v.rx2("risk_text")[0]), kanon_text=str(v.rx2("kanon_text")[0]),
        handle=v.rx2("obj") if handle else None,
    )


def ldiversity(
    data: pd.DataFrame, keys: Sequence[str], ldiv_index: Sequence[str] | str, *, l_recurs_c: float = 2.0,
    missing: float = -999,
) -> pd.DataFrame:
    """``sdcMicro::ldiversity(data, keyVars = keys, ldiv_index = , l_recurs_c = , missing = )``.

    Returns sdcMicro's per-record matrix as a DataFrame with its column names
    (``<s>_Distinct_Ldiversity``, ..., ``MultiEntropy_Ldiversity``, ``MultiRecursive_Ldiversity``).
    """
    sens = [ldiv_index] if isinstance(ldiv_index, str) else list(ldiv_index)
    rdf = to_r_frame(data, _cols(data, keys, sens))
    v = call("ldiversity", rdf, r_str(list(keys)), r_str(sens), float(l_recurs_c), float(missing)).rx2("value")
    names = [str(x) for x in v.rx2("names")]
    cols = v.rx2("values")
    return pd.DataFrame({n: py_vector(cols[i]) for i, n in enumerate(names)}, index=data.index)


@dataclass(frozen=True, slots=True)
class Suda2:
    """``suda2()``: ``contributionPercent`` (n x keys), ``score``, ``disScore``, and the
    attribute and attribute-level contributions, under sdcMicro's names."""

    contributionPercent: pd.DataFrame = field(repr=False)
    score: pd.Series = field(repr=False)
    disScore: pd.Series = field(repr=False)
    attribute_contributions: pd.DataFrame = field(repr=False)
    attribute_level_contributions: pd.DataFrame = field(repr=False)
    printed: str = field(repr=False)
    warnings: tuple[str, ...] = ()


def suda2(
    data: pd.DataFrame, variables: Sequence[str], *, missing: float = -999, DisFraction: float = 0.01,
    original_scores: bool = True,
) -> Suda2:
    """``sdcMicro::suda2(data, variables, missing, DisFraction, original_scores)`` (strings as factors)."""
    rdf = to_r_frame(data, list(variables))
    out = call("suda2", rdf, r_str(list(variables)), float(missing), float(DisFraction), bool(original_scores))
    v = out.rx2("value")
    cp = v.rx2("contributions")
    contrib = pd.DataFrame({f"{k}_contribution": py_vector(cp[i]) for i, k in enumerate(variables)}, index=data.index)
    return Suda2(
        contributionPercent=contrib,
        score=pd.Series(py_vector(v.rx2("score")), index=data.index, name="score"),
        disScore=pd.Series(py_vector(v.rx2("dis")), index=data.index, name="disScore"),
        attribute_contributions=pd.DataFrame({"variable": [str(x) for x in v.rx2("attr_variable")],
                                              "contribution": py_vector(v.rx2("attr_contribution"))}),
        attribute_level_contributions=pd.DataFrame({
            "variable": [str(x) for x in v.rx2("level_variable")], "attribute": [str(x) for x in v.rx2("level")],
            "contribution": py_vector(v.rx2("level_contribution"))}),
        printed=str(v.rx2("print")[0]),
        warnings=tuple(str(w) for w in out.rx2("warnings")),
    )


def mod_risk(
    data: pd.DataFrame, formulaM: str, *, weights: str, method: str = "default", bound: float = float("inf"),
    columns: Sequence[str] | None = None,
) -> dict[str, object]:
    """``sdcMicro::modRisk(data, method, weights, formulaM, bound)``: ``gr1``, ``gr2``,
    ``fitted`` (as returned, in sdcMicro's cell order), ``inclProb`` of the kept cells.

    `columns` are the data columns to pass (default: all)."""
    rdf = to_r_frame(data, list(columns) if columns is not None else None)
    v = call("mod_risk", rdf, method, weights, formulaM, float(bound)).rx2("value")
    return {"gr1": _num(v.rx2("gr1")), "gr2": _num(v.rx2("gr2")), "fitted": py_vector(v.rx2("fitted")),
            "inclProb": py_vector(v.rx2("inclProb")), "printed": str(v.rx2("print")[0])}


def load_dataset(name: str) -> pd.DataFrame:
    """One of sdcMicro's bundled datasets (see :data:`DATASETS`) as a DataFrame.

    Factors become pandas categoricals; matrices (free1, ...) become frames with their
    column names.
    """
    if name not in DATASETS:
        raise ValueError(f"`name` must be one of {', '.join(DATASETS)}; got {name!r}.")
    return from_r_frame(call("load_dataset", name).rx2("value"))
