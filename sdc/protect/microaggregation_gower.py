"""Microaggregation of numeric and categorical variables by the Gower distance, as sdcMicro's
``microaggrGower`` (Kowarik; sdcMicro ``R/maG.R``, distance VIM's ``gowerD``), reimplemented
from the formulas below.

Every record is replaced by an aggregate of its k nearest records (itself among them) by the
extended Gower distance of the distance variables (:mod:`sdc.protect._gower`; Gower 1971):

* a numeric variable gets the mean (or the median) of the k neighbours' values (sdcMicro's
  ``numFun``);
* a categorical variable gets one of the k neighbours' values, drawn with probability
  proportional to its count among them (``category="sample"``, sdcMicro's default
  ``VIM::sampleCat``), or the most frequent one, ties drawn at random (``"mode"``,
  ``VIM::maxCat``). Both draws are seeded and the seed recorded.

The neighbourhoods overlap (they are not a partition, unlike MDAV's groups): every released
value is an aggregate over k records, but two records need not share their k neighbours, so
the released file is not k-anonymous by construction. With `strata` the neighbours are sought
within each stratum (the ranges of the distance are the stratum's, as sdcMicro's ``by``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import GROUP_SIZE, Choice, Each, Flag, Maybe, Names, Real
from sdc._validation import check_columns, check_frame, check_int, check_option, is_numeric_column
from sdc.core.patterns import group_positions
from sdc.core.strata import sorted_levels, strata_ids
from sdc.protect._common import resolve_seed
from sdc.protect._declare import param, protection_method
from sdc.protect._gower import KINDS, gower_columns, nearest
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._result import ProtectionResult, changed_cells

__all__ = ["microaggregation_gower", "gower_distance", "GOWER_MEASURES", "GOWER_CATEGORY"]

GOWER_MEASURES = ("mean", "median")
GOWER_CATEGORY = ("sample", "mode")


def _r_gower(run: StepRun) -> RStep:
    """sdcMicro's (internal) ``maGowerWORK``, the body of ``microaggrGower``, which honours ``aggr``."""
    p = run.parameters
    cats = [v for v, t in run.details.get("kinds", {}).items() if t in ("nominal", "ordinal")]
    args = [f"variables = {r_names(run.variables)}", f"aggr = {int(p.get('k', 3))}",
            f"dist_var = {r_names(p.get('dist_var') or run.variables)}",
            f"by = {r_names(p['strata']) if p.get('strata') else 'NULL'}",
            f"mixed = {r_names(p['mixed']) if p.get('mixed') else 'NULL'}",
            f"mixed.constant = {r_value(p.get('mixed_constant')) if p.get('mixed') else 'NULL'}",
            f"weights = {r_value(p.get('weights'))}", f"numFun = {p.get('measure', 'mean')}",
            f"catFun = VIM::{'maxCat' if p.get('category') == 'mode' else 'sampleCat'}",
            f"addRandom = {r_value(bool(p.get('add_random')))}"]
    code = [f"set.seed({r_seed(run.seed or 0)})", "x <- data"]
    code += [f"if (!is.factor(x[[{r_value(v)}]])) x[[{r_value(v)}]] <- factor(x[[{r_value(v)}]])" for v in cats]
    code += [f"res <- sdcMicro:::maGowerWORK(x, {', '.join(args)})",
             *(f"data[[{r_value(v)}]] <- res[[{r_value(v)}]]" for v in run.variables), "data"]
    kinds = run.details.get("kinds", {})
    exact = (not any(kinds.get(v) in ("nominal", "ordinal") for v in run.variables) and "ordinal" not in kinds.values()
             and not p.get("add_random") and bool(run.details.get("complete")))
    why = [w for w, on in (("categories drawn by R's generator, not sdc's", any(kinds.get(v) in ("nominal", "ordinal")
                                                                                   for v in run.variables)),
                           ("the random variable drawn by R's generator", bool(p.get("add_random"))),
                           ("an ordinal's L read from its last label", "ordinal" in kinds.values()),
                           ("NA means where a neighbour's value is missing", not run.details.get("complete"))) if on]
    return RStep(tuple(code), exact, "sdcMicro's microaggrGower: the same neighbours and numeric aggregates" +
                 ("" if exact else "; but " + ", ".join(why)))


@protection_method(
    "microaggregation_gower", sdcmicro=_r_gower,
    summary="each record's values replaced by the aggregate of its k nearest records by the Gower distance "
            "(numeric and categorical)",
    changes_categories=True, why="each record's nearest records are sought over the whole file or stratum",
    example={"variables": ["age", "education"], "dist_var": ["age"], "k": 3},
    options={"k": param(GROUP_SIZE, "the number of nearest records aggregated (itself included)"),
             "dist_var": param(Names(), "the variables of the distance (default: the variables)"),
             "strata": param(Names(), "neighbours sought within each stratum of these columns (sdcMicro's by)"),
             "mixed": param(Names(), "semi-continuous distance variables (a mass at mixed_constant)"),
             "mixed_constant": param(Maybe(Each(Real())), "the mass point of each mixed variable (default 0)"),
             "weights": param(Maybe(Each(Real(0.0))), "a weight per distance variable (default 1)"),
             "categorical": param(Names(), "numeric columns read as categories (sdcMicro: factors)"),
             "measure": param(Choice(GOWER_MEASURES), "the numeric aggregate (sdcMicro's numFun)"),
             "category": param(Choice(GOWER_CATEGORY), "how a category is chosen (sdcMicro's catFun)"),
             "add_random": param(Flag(), "add a random normal variable to the distance (sdcMicro's addRandom)")})
def microaggregation_gower(
    data: pd.DataFrame,
    variables: str | Sequence[str],
    *,
    k: int = 3,
    dist_var: str | Sequence[str] | None = None,
    strata: str | Sequence[str] | None = None,
    mixed: str | Sequence[str] | None = None,
    mixed_constant: float | Sequence[float] | None = None,
    weights: float | Sequence[float] | None = None,
    categorical: str | Sequence[str] | None = None,
    measure: str = "mean",
    category: str = "sample",
    add_random: bool = False,
    seed: int | None = None,
) -> ProtectionResult:
    """Replace each record's values by the aggregate of its k nearest records (Gower distance).

    d(i, j) = sum_v w_v delta_v(i, j) / sum_v w_v over the distance variables, delta_v the
    range-scaled absolute difference (numeric), 0/1 inequality (nominal), rank difference over
    L - 1 (ordinal) or the semi-continuous rule (mixed) (Gower 1971, Biometrics 27(4); VIM's
    ``gowerD``; :mod:`sdc.protect._gower`). Each record's k nearest (equal distances in data
    order, itself included) give its new values: the mean or median of a numeric variable,
    a category drawn among theirs (see the module notes).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    variables : str or sequence of str
        The variables replaced (sdcMicro's ``variables``): numeric ones get the aggregate,
        the others (categories, text, ordered categories) a neighbour's category.
    k : int >= 2, default 3
        Neighbours per record, itself included (sdcMicro's ``aggr``).
    dist_var : str or sequence of str, optional
        The distance variables (default: `variables`). A numeric one is numeric unless named in
        `categorical` or `mixed`; an ordered categorical is ordinal; any other is nominal.
    strata : str or sequence of str, optional
        Neighbours sought within each stratum (sdcMicro's ``by``; missing is a stratum value).
        A stratum needs at least k records.
    mixed : str or sequence of str, optional
        Numeric distance variables read as semi-continuous (sdcMicro's ``mixed``).
    mixed_constant : float or sequence of float, optional
        The mass point of each `mixed` variable, in its order (sdcMicro's ``mixed.constant``,
        default 0).
    weights : float or sequence of float >= 0, optional
        One weight per distance variable, in the order of `dist_var` (default 1 each).
    categorical : str or sequence of str, optional
        Numeric columns read as categories (as a factor in R).
    measure : {"mean", "median"}, default "mean"
        The numeric aggregate over observed values (sdcMicro's ``numFun``).
    category : {"sample", "mode"}, default "sample"
        A neighbour's category drawn in proportion to its count (``VIM::sampleCat``), or the
        most frequent one, ties at random (``VIM::maxCat``). A missing value counts as a value.
    add_random : bool, default False
        Add a standard normal variable to the distance, numeric, weight min(w) / (sum(w) + 1)
        (sdcMicro's ``addRandom``): it breaks ties at random.
    seed : int, optional
        Seed of the category draws and the random variable (drawn and recorded when omitted).

    Returns
    -------
    ProtectionResult
        ``data``: the protected copy (numeric variables as float64, the others keep their dtype).
        ``details``: ``neighbours`` (n, k) row positions of each record's nearest records,
        ``kinds`` (the kind of each distance and replaced variable), ``n_strata``, ``complete``
        (no numeric variable replaced has a missing value: sdcMicro's means are then the same).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0], "s": list("aabbbb")})
    >>> sdc.microaggregation_gower(df, ["x"], dist_var=["x"], k=3).data["x"].tolist()
    [2.0, 2.0, 2.0, 11.0, 11.0, 11.0]
    """
    frame = check_frame(data)
    variables = check_columns(frame, variables, role="variables")
    k = check_int(k, "k", min_value=2)
    measure = check_option(measure, "measure", GOWER_MEASURES)
    category = check_option(category, "category", GOWER_CATEGORY)
    spec = _spec(frame, variables, dist_var, strata, mixed, mixed_constant, weights, categorical)
    seed_used, rng = resolve_seed(seed)
    st = strata_ids(frame, list(spec["strata"]))
    positions = [p for p in group_positions(st.ids, st.n_strata) if p.size]
    for pos in positions:
        if pos.size < k:
            where = f"stratum {st.labels[int(st.ids[pos[0]])]!r}" if spec["strata"] else "the data"
            raise ValueError(f"{where} has {pos.size} record(s), fewer than k = {k}: no k nearest records.")
    rand = rng.standard_normal(len(frame)) if add_random else None
    nbr = _neighbours(frame, spec, positions, k, rand)
    out, kinds = _release(frame, variables, spec, nbr, measure, category, rng)
    before = frame[list(variables)].copy()
    changed = changed_cells(before, out, list(variables))
    params = {"variables": list(variables), "k": k, **_recorded(spec), "measure": measure, "category": category,
              "add_random": bool(add_random)}
    complete = not any(frame[v].isna().any() for v in variables if kinds[v] in ("numeric", "mixed"))
    details = {"neighbours": nbr, "kinds": kinds, "n_strata": len(positions), "complete": complete}
    return ProtectionResult(method="microaggregation_gower", data=out, variables=tuple(variables), parameters=params,
                            seed=seed_used, changed=changed, details=details)


def gower_distance(data: pd.DataFrame, dist_var: str | Sequence[str], *, mixed: str | Sequence[str] | None = None,
                   mixed_constant: float | Sequence[float] | None = None,
                   weights: float | Sequence[float] | None = None,
                   categorical: str | Sequence[str] | None = None) -> np.ndarray:
    """The (n, n) extended Gower distances of the records of `data` over `dist_var` (VIM's
    ``gowerD(data, data)``).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    dist_var : str or sequence of str
        The distance variables; their kinds as in :func:`microaggregation_gower`.
    mixed, mixed_constant, weights, categorical
        As in :func:`microaggregation_gower`.

    Returns
    -------
    numpy.ndarray
        (n, n) distances in [0, 1] (a `mixed` term is not divided by the range), 0 on the diagonal.

    Notes
    -----
    d(i, j) = sum_v w_v delta_v(i, j) / sum_v w_v, delta_v the range-scaled absolute difference
    (numeric), 0/1 inequality (nominal), rank difference over L - 1 (ordinal) or the
    semi-continuous rule (mixed); a missing value is the variable's largest value + 1. Source:
    Gower (1971), Biometrics 27(4); VIM's ``gowerD`` (Kowarik and Templ 2016, J. Stat. Softw.
    74(7)); :mod:`sdc.protect._gower`.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"x": [0.0, 5.0, 10.0], "c": ["a", "a", "b"]})
    >>> sdc.gower_distance(df, ["x", "c"]).round(3).tolist()
    [[0.0, 0.25, 1.0], [0.25, 0.0, 0.75], [1.0, 0.75, 0.0]]
    """
    from sdc.protect._gower import gower_block

    frame = check_frame(data)
    dist = check_columns(frame, dist_var, role="dist_var")
    spec = _spec(frame, dist, dist, None, mixed, mixed_constant, weights, categorical)
    g = _prepared(frame, spec, np.arange(len(frame)), None)
    return gower_block(g, np.arange(len(frame)))


# --------------------------------------------------------------------------------------
# The arguments

def _recorded(spec: dict[str, Any]) -> dict[str, Any]:
    """The distance arguments as used, for the result's parameters."""
    return {"dist_var": list(spec["dist_var"]), "strata": list(spec["strata"]) or None,
            "mixed": list(spec["mixed"]) or None, "mixed_constant": list(spec["constants"]) or None,
            "weights": list(spec["weights"]), "categorical": list(spec["categorical"]) or None}


def _names(frame: pd.DataFrame, value: Any, role: str) -> tuple[str, ...]:
    return () if value is None else check_columns(frame, value, role=role)


def _numbers(value: Any, n: int, name: str, what: str, default: float) -> tuple[float, ...]:
    if value is None:
        return (default,) * n
    vals = [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else list(value)
    if len(vals) != n:
        raise ValueError(f"`{name}` must give one number per {what} ({n}); got {len(vals)}.")
    return tuple(float(v) for v in vals)


def _kind(s: pd.Series, name: str, spec: dict[str, Any]) -> str:
    if name in spec["mixed"]:
        return "mixed"
    if name in spec["categorical"]:
        return "nominal"
    if is_numeric_column(s) and not pd.api.types.is_bool_dtype(s.dtype):
        return "numeric"
    if isinstance(s.dtype, pd.CategoricalDtype) and s.cat.ordered:
        return "ordinal"
    return "nominal"


def _spec(frame: pd.DataFrame, variables: tuple[str, ...], dist_var: Any, strata: Any, mixed: Any,
          mixed_constant: Any, weights: Any, categorical: Any) -> dict[str, Any]:
    """The checked arguments: distance variables, their kinds, weights and constants."""
    dist = _names(frame, dist_var, "dist_var") or variables
    empty = [v for v in dist if not frame[v].notna().any()]
    if empty and len(frame):
        # gowerD puts two missing values at distance 0: such a variable makes every record as near as the
        # others, so the neighbours would be the first records in data order, not the nearest.
        raise ValueError(f"`dist_var` column {empty[0]!r} is missing in every record: it gives no distance; "
                         "drop it from `dist_var` (or name other distance variables).")
    strata_cols = _names(frame, strata, "strata")
    overlap = [c for c in strata_cols if c in variables or c in dist]
    if overlap:
        raise ValueError(f"`strata` must not repeat variables or dist_var: {', '.join(map(repr, overlap))}.")
    mixed_cols = _names(frame, mixed, "mixed")
    cat_cols = _names(frame, categorical, "categorical")
    for c in mixed_cols:
        if c not in dist:
            raise ValueError(f"`mixed` variable {c!r} is not a distance variable (dist_var).")
        if c in cat_cols or not is_numeric_column(frame[c]):
            raise ValueError(f"`mixed` variable {c!r} must be numeric (semi-continuous).")
    constants = _numbers(mixed_constant, len(mixed_cols), "mixed_constant", "mixed variable", 0.0)
    w = _numbers(weights, len(dist), "weights", "distance variable", 1.0)
    if any(not np.isfinite(x) or x < 0 for x in w) or sum(w) <= 0:
        raise ValueError(f"`weights` must be finite numbers >= 0, not all 0; got {list(w)}.")
    spec: dict[str, Any] = {"dist_var": dist, "strata": strata_cols, "mixed": mixed_cols, "categorical": cat_cols,
                            "constants": constants, "weights": w}
    spec["kinds"] = {v: _kind(frame[v], v, spec) for v in dist}
    for v in dict.fromkeys((*dist, *variables)):
        if _kind(frame[v], v, spec) in ("numeric", "mixed") and np.isinf(
                frame[v].to_numpy(dtype=np.float64, na_value=np.nan)).any():
            raise ValueError(f"column {v!r} has infinite values: no Gower distance or mean of them.")
    return spec


# --------------------------------------------------------------------------------------
# The neighbours and the aggregates

def _column_values(s: pd.Series, kind: str) -> tuple[np.ndarray, float]:
    """(values, L - 1): numbers, or 1-based ranks (NaN for missing) and the ordinal's L - 1."""
    if kind in ("numeric", "mixed"):
        return s.to_numpy(dtype=np.float64, na_value=np.nan), 1.0
    lv = sorted_levels(s)
    ranks = np.where(lv.codes < 0, np.nan, lv.codes + 1.0)
    steps = float(len(lv.levels) - 1) if kind == "ordinal" else 1.0
    return ranks, steps if steps > 0 else 1.0


def _prepared(frame: pd.DataFrame, spec: dict[str, Any], pos: np.ndarray, rand: np.ndarray | None) -> Any:
    """The distance variables of the records `pos` as gowerD orders and prepares them."""
    dist, kinds = spec["dist_var"], spec["kinds"]
    order = {v: i for i, v in enumerate(frame.columns)}
    cols, ks, ws, steps, consts = [], [], [], [], []
    weight = dict(zip(dist, spec["weights"]))
    extra = min(spec["weights"]) / (sum(spec["weights"]) + 1.0)
    for kind in KINDS:
        names = [v for v in spec["mixed"]] if kind == "mixed" else \
            sorted((v for v in dist if kinds[v] == kind), key=order.__getitem__)
        for v in names:
            x, step = _column_values(frame[v], kind)
            cols.append(x[pos]), ks.append(kind), ws.append(weight[v]), steps.append(step)
            consts.append(spec["constants"][spec["mixed"].index(v)] if kind == "mixed" else 0.0)
        if kind == "numeric" and rand is not None:  # sdcMicro appends its random variable to the numeric ones
            cols.append(rand[pos]), ks.append("numeric"), ws.append(extra), steps.append(1.0), consts.append(0.0)
    return gower_columns(cols, ks, ws, steps, consts)


def _neighbours(frame: pd.DataFrame, spec: dict[str, Any], positions: list[np.ndarray], k: int,
                rand: np.ndarray | None) -> np.ndarray:
    """(n, k) row positions of each record's k nearest records within its stratum."""
    nbr = np.empty((len(frame), k), dtype=np.int64)
    for pos in positions:
        nbr[pos] = pos[nearest(_prepared(frame, spec, pos, rand), k)]
    return nbr


def _release(frame: pd.DataFrame, variables: tuple[str, ...], spec: dict[str, Any], nbr: np.ndarray, measure: str,
             category: str, rng: np.random.Generator) -> tuple[pd.DataFrame, dict[str, str]]:
    """The protected copy (numeric variables aggregated, the others a chosen neighbour's value)
    and the kind of every distance and replaced variable."""
    out = frame.copy()
    kinds = dict(spec["kinds"])
    for v in variables:
        kinds.setdefault(v, _kind(frame[v], v, spec))
        if kinds[v] in ("numeric", "mixed"):
            out[v] = pd.Series(_aggregate(frame[v].to_numpy(dtype=np.float64, na_value=np.nan), nbr, measure),
                               index=frame.index, name=v)
        else:
            pick = _choose(sorted_levels(frame[v]).codes, nbr, category, rng)
            out[v] = pd.Series(frame[v].to_numpy()[pick], index=frame.index, name=v).astype(frame[v].dtype)
    return out, kinds


def _aggregate(x: np.ndarray, nbr: np.ndarray, measure: str) -> np.ndarray:
    """The mean or median of each record's neighbours' observed values (NaN if none)."""
    V = x[nbr]
    if measure == "median":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a record whose neighbours are all missing
            return np.nanmedian(V, axis=1)
    obs = ~np.isnan(V)
    cnt = obs.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, np.where(obs, V, 0.0).sum(axis=1) / cnt, np.nan)


def _choose(codes: np.ndarray, nbr: np.ndarray, category: str, rng: np.random.Generator) -> np.ndarray:
    """The row position whose category each record gets: a neighbour drawn uniformly (a
    category in proportion to its count), or one of the most frequent categories, at random."""
    n, k = nbr.shape
    rows = np.arange(n)
    if category == "sample":
        return nbr[rows, rng.integers(0, k, size=n)]
    C = codes[nbr]
    counts = (C[:, :, None] == C[:, None, :]).sum(axis=2)
    top = counts == counts.max(axis=1, keepdims=True)
    key = np.where(top, rng.random((n, k)), -1.0)  # among the positions of tied categories, uniformly
    return nbr[rows, np.argmax(key, axis=1)]
