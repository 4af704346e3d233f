"""Microaggregation: numeric values replaced by the means of small groups of similar records.

Methods as sdcMicro's ``microaggregation`` (Templ 2008; Templ, Kowarik and Meindl 2015); the
sort-based ``simple`` and ``single`` and the measures are in :mod:`~sdc.protect.microaggregation_sorted`,
``pca``, ``mcdpca``, ``pppca`` and ``rmd`` in :mod:`~sdc.protect.microaggregation_pca`, the clustering
``clustpca``, ``clustmcdpca``, ``clustpppca`` and ``influence`` in :mod:`~sdc.protect.microaggregation_clust`, the MDAV and
individual-ranking code in :mod:`~sdc.protect.microaggregation_mdav`:

``method="mdav"`` (Maximum Distance to Average Vector; Domingo-Ferrer and Mateo-Sanz 2002,
IEEE TKDE 14(1); Domingo-Ferrer and Torra 2005), sdcMicro's C++ ``Mdav`` as it runs:

* Distances are squared Euclidean on standardised variables, d(x, y) = sum_j w_j (x_j - y_j)^2
  with w_j = 1 / Var_j, Var_j the population variance (mean of squares minus squared mean,
  observed values; w_j = 1 when Var_j = 0). Each term is rounded to single precision and the
  terms are summed in single precision, in variable order (sdcMicro's distances are floats).
  A term where exactly one side is missing counts as the largest possible one,
  w_j (max_j - min_j)^2.
* While at least 2k records remain: c = the mean of the remaining records (per variable,
  over observed values); r = the record farthest from c; a group is r's k nearest records
  (r included); if at least 3k records remained, s = the record farthest from r (found
  before r's group is removed) and a second group is s's k nearest among the rest.
  "Farthest" takes the first record in data order among equal distances; "nearest" sorts by
  distance, equal distances in *reverse* data order (sdcMicro's hash sort inserts a record
  before the equal ones already listed). Between k and 2k - 1 remaining records form the last
  group. Each group's values become its means (over observed values; missing stays missing).
* With one variable sdcMicro does not run MDAV (it calls ``mafast``): sorted values in
  consecutive groups of k, the last group taking the remainder, i.e. individual ranking.
  sdc does the same.

``method="onedims"`` (individual ranking, Defays and Nanopoulos 1993): each variable on its
own, its values sorted (ties in data order) and cut into consecutive groups of k, the last
group taking the remainder (k .. 2k-1 values); every value becomes its group's mean.

Modes (they differ only with missing values):

``mode="correct"`` (default)
    A missing value (NaN) is left out of every mean, and is not grouped by ``onedims``.
``mode="sdcmicro"``
    sdcMicro's behaviour: ``mdav`` also treats the value -999 as missing (its missing code)
    and divides the last group's sums by the number of records in it, observed or not;
    ``onedims`` sorts missing values last and a group holding one gets a missing mean for every
    record.

With ``strata``, each stratum is microaggregated on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from sdc._schema import COUNT, GROUP_SIZE, Choice, Name, Names, Real
from sdc._validation import check_columns, check_frame, check_int, check_option
from sdc.core.patterns import group_positions
from sdc.core.strata import strata_ids
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._declare import param, protection_method
from sdc.protect._result import ProtectionResult, changed_cells
from sdc.protect.microaggregation_mdav import SDCMICRO_MISSING, group_means, mdav_groups, onedims
from sdc.protect.microaggregation_pca import PC_METHODS, pc_scores, rmd_groups
from sdc.protect.microaggregation_clust import CLUST_METHODS, CLUSTER_METHODS, CLUSTER_SEED, TRANSFORMS, clust_groups
from sdc.protect.microaggregation_sorted import MEASURES, SORTED_METHODS, aggregate, check_sorted_options
from sdc.protect.microaggregation_sorted import groups_of_order, run_grouped, sorted_groups
from sdc.protect.microaggregation_sorted import group_sizes as _sizes, numeric_matrix as _check_numeric
from sdc.protect.microaggregation_sorted import size_counts as _size_counts

__all__ = ["microaggregation", "MICROAGGREGATION_METHODS", "MICROAGGREGATION_MODES", "mdav_groups"]

MICROAGGREGATION_METHODS = ("mdav", "onedims", *SORTED_METHODS, *PC_METHODS, "rmd", *CLUST_METHODS)
MICROAGGREGATION_MODES = ("correct", "sdcmicro")
_ALIASES = {"individual": "onedims", "individual_ranking": "onedims", "mafast": "onedims"}
_GROUPED = (*SORTED_METHODS, *PC_METHODS, "rmd", *CLUST_METHODS)  # complete values; groups by an order or by rmd

# --------------------------------------------------------------------------------------
# The public function
# --------------------------------------------------------------------------------------
@protection_method(
    "microaggregation", sdcmicro=not_in_sdcmicro(
    "not translated yet: its counterpart is sdcMicro's microaggregation(method = 'mdav'), compared with sdc in the cross-validation (docs/protection.md)"),
    summary="values replaced by the means of groups of at least k similar records",
    numeric=True, changes_categories=True, why="its groups of similar records are formed over the whole file",
    example={"variables": ["cholesterol"], "k": 3},
    options={"k": param(GROUP_SIZE, "the smallest group"),
             "method": param(Choice((*MICROAGGREGATION_METHODS, *_ALIASES)), "mdav (multivariate), onedims, "
                             "simple (data order), single (sorted by varsort), pca, mcdpca, pppca (sorted on a first "
                             "principal component: classical, MCD, projection pursuit), rmd (robust Mahalanobis), or "
                             "clustpca, clustmcdpca, clustpppca, influence (clustered first)"),
             "strata": param(Names(), "microaggregate within each stratum of these columns"),
             "mode": param(Choice(MICROAGGREGATION_MODES), "how missing values are treated"),
             "measure": param(Choice(MEASURES), "the groups' mean, median, trim or onestep"),
             "trim": param(Real(0.0, 0.5, high_open=True), "measure trim: the share cut from each end"),
             "varsort": param(Name(), "single: the variable the records are sorted by (default the first)"),
             "nc": param(COUNT, "clust* and influence: the number of clusters"),
             "clustermethod": param(Choice(CLUSTER_METHODS), "clust* and influence: how the records are clustered"),
             "transf": param(Choice(TRANSFORMS), "clust* and influence: the variables' transformation before "
                             "clustering")})
def microaggregation(
    data: pd.DataFrame,
    variables: str | Sequence[str],
    *,
    k: int = 3,
    method: str = "mdav",
    strata: str | Sequence[str] | None = None,
    mode: Literal["correct", "sdcmicro"] = "correct",
    measure: str = "mean",
    trim: float = 0.0,
    varsort: str | None = None,
    nc: int = 8,
    clustermethod: str = "clara",
    transf: str = "none",
) -> ProtectionResult:
    """Replace numeric values by the means of groups of at least k similar records.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    variables : str or sequence of str
        Numeric variables to microaggregate (together for ``mdav``, one by one for ``onedims``).
    k : int >= 2, default 3
        Group size (sdcMicro's ``aggr``): groups hold k records, the last one up to 2k - 1.
    method : {"mdav", "onedims", "simple", "single", "pca", "mcdpca", "pppca", "rmd", "clustpca", \
"clustmcdpca", "clustpppca", "influence"}, default "mdav"
        MDAV (multivariate); individual ranking (``"individual"``, ``"mafast"`` too); blocks in
        data order or sorted by `varsort`; blocks sorted on the first principal component
        (classical, MCD-robust, projection pursuit); groups around the records of largest
        robust Mahalanobis distance (:mod:`sdc.protect.microaggregation_pca`); or blocks of
        the records clustered first, then sorted within each cluster
        (:mod:`sdc.protect.microaggregation_clust`).
    strata : str or sequence of str, optional
        Microaggregate within each stratum (missing is a stratum value).
    mode : {"correct", "sdcmicro"}, default "correct"
        Treatment of missing values; see the module notes. Without missing values (and
        without the value -999) both modes give the same result.
    measure, trim, varsort
        The groups' mean, median, trim (cutting `trim` in [0, 0.5) from each end) or onestep, with
        every method (sdcMicro's mdav and rmd always use the mean); the variable ``single`` sorts
        by (:mod:`sdc.protect.microaggregation_sorted`).
        ``mcdpca`` and ``rmd`` estimate an MCD whose random starts use the fixed seed 0, so
        every method is deterministic (sdcMicro's MCD draws from R's generator).
    nc, clustermethod, transf
        The clustering methods' number of clusters (< the records of a stratum), clustering
        (``clara``, ``pam``, ``kmeans``, ``cmeans``) and transformation before clustering
        (``none``, ``log``, ``boxcox``); random steps use the fixed seed 0 (``details["cluster_seed"]``).

    Returns
    -------
    ProtectionResult
        ``data``: the protected copy (the variables as float64, same index). ``changed``:
        cells changed per variable. ``details``: ``group`` (group id per record: a Series for
        mdav, a DataFrame with one column per variable for onedims; -1 where a record is in
        no group), ``group_sizes`` (records per group), ``group_size_counts`` ({size: groups}),
        ``n_groups``, ``algorithm``.

    Notes
    -----
    Reproduces ``sdcMicro::microaggregation`` (5.8), the clustering methods with ``pam`` and
    ``clara`` (docs/protection.md):
    groups and means cross-validated on sdcMicro's datasets and random data
    (``tests/protect/test_sdcmicro_suppression.py``, ``tests/protect/test_microaggregation_pca.py``). Each MDAV step computes distances of
    every remaining record, so the run is O(n^2 p / k) arithmetic, vectorised with numpy.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0], "y": [1.0, 1.0, 2.0, 5.0, 5.0, 6.0]})
    >>> sdc.microaggregation(df, ["x", "y"], k=3).data["x"].tolist()
    [2.0, 2.0, 2.0, 11.0, 11.0, 11.0]
    """
    variables, k, method, mode, measure, strata_cols = _checked(data, variables, k, method, mode, measure, varsort,
                                                                strata)
    _check_clust_options(method, nc=nc, clustermethod=clustermethod, transf=transf)
    X = _check_numeric(data, variables)
    sdcm = mode == "sdcmicro"
    st = strata_ids(data, list(strata_cols))
    positions = [p for p in group_positions(st.ids, st.n_strata) if p.size]
    seed_used = None  # mcdpca and rmd: the MCD's random starts use the fixed seed 0 (deterministic)
    out, group, sizes, size_counts, n_groups, algorithm = _run(
        X, positions, st, variables, k, method, sdcm, strata_cols, data.index, measure, float(trim),
        variables.index(varsort) if varsort else 0, 0, {"nc": nc, "clustermethod": clustermethod, "transf": transf})

    frame = data.copy()
    for j, v in enumerate(variables):
        frame[v] = pd.Series(out[:, j], index=data.index, name=v)
    before = pd.DataFrame({v: X[:, j] for j, v in enumerate(variables)}, index=data.index)
    changed = changed_cells(before, frame, list(variables))
    details = {"group": group, "group_sizes": sizes, "group_size_counts": size_counts, "n_groups": n_groups,
               "algorithm": algorithm}
    params = {"variables": list(variables), "k": k, "method": method, "strata": list(strata_cols) or None,
              "mode": mode, **({"measure": measure, "trim": float(trim)} if method in _GROUPED or measure != "mean" else {}),
              **({"varsort": varsort} if method in (*SORTED_METHODS, *CLUST_METHODS) else {}),
              **({"nc": nc, "clustermethod": clustermethod, "transf": transf} if method in CLUST_METHODS else {})}
    if method in CLUST_METHODS:
        details["cluster_seed"] = CLUSTER_SEED
    return ProtectionResult(method="microaggregation", data=frame, variables=tuple(variables), parameters=params,
                            seed=seed_used, changed=changed, details=details)


def _checked(data: pd.DataFrame, variables: Any, k: Any, method: Any, mode: Any, measure: Any, varsort: Any,
             strata: Any) -> tuple[tuple[str, ...], int, str, str, str, tuple[str, ...]]:
    """The arguments checked: variables, k, method (aliases resolved), mode, measure, strata columns."""
    check_frame(data)
    variables = check_columns(data, variables, role="variables")
    k = check_int(k, "k", min_value=2)
    if not isinstance(method, str):
        raise ValueError(f"`method` must be one of {', '.join(map(repr, MICROAGGREGATION_METHODS))}; got {method!r}.")
    method = check_option(_ALIASES.get(method, method), "method", MICROAGGREGATION_METHODS)
    mode = check_option(mode, "mode", MICROAGGREGATION_MODES)
    measure = check_sorted_options(method, measure, varsort, variables)
    strata_cols = check_columns(data, strata, role="strata") if strata is not None else ()
    overlap = [c for c in strata_cols if c in variables]
    if overlap:
        raise ValueError(f"`strata` must not repeat variables: {', '.join(map(repr, overlap))}.")
    return variables, k, method, mode, measure, strata_cols


_CLUST_DEFAULTS = {"nc": 8, "clustermethod": "clara", "transf": "none"}


def _check_clust_options(method: str, **given: Any) -> None:
    """The clustering options are refused with a method that does not cluster (they would be ignored)."""
    if method in CLUST_METHODS:
        return
    other = [f"{name}={value!r}" for name, value in given.items() if value != _CLUST_DEFAULTS[name]]
    if other:
        raise ValueError(f"microaggregation {', '.join(other)}: `nc`, `clustermethod` and `transf` are options of "
                         f"the clustering methods ({', '.join(CLUST_METHODS)}), not of method {method!r}.")


def _run(X: np.ndarray, positions: list[np.ndarray], st: Any, variables: tuple[str, ...], k: int, method: str,
         sdcm: bool, strata_cols: tuple[str, ...], index: pd.Index, measure: str, trim: float, sort_col: int,
         seed: int, clust: dict[str, Any]) -> tuple[np.ndarray, Any, Any, Any, Any, str]:
    """The chosen method in each stratum, then the measure: values, groups, sizes, algorithm."""
    if method in _GROUPED and len(variables) > 1:
        def groups_of(Xs: np.ndarray) -> np.ndarray:
            if method in SORTED_METHODS:
                return sorted_groups(Xs, k, method, sort_col)
            if method == "rmd":
                return rmd_groups(Xs, k, seed=seed)
            if method in CLUST_METHODS:
                return clust_groups(Xs, k, method, sort_col=sort_col, seed=seed, **clust)
            return groups_of_order(np.argsort(pc_scores(Xs, method, seed=seed), kind="stable"), k)

        too_few = lambda pos: _too_few(None, st.labels[int(st.ids[pos[0]])], pos.size, k, strata_cols)  # noqa: E731
        return (*run_grouped(X, positions, k, method, groups_of, measure, trim, index, too_few), method)
    if method == "onedims" or len(variables) == 1:
        res = _univariate(X, positions, st, variables, k, sdcm, strata_cols, index)
        algorithm = "individual ranking" if method == "onedims" else "individual ranking (one variable: sdcMicro's mafast)"
    else:
        res = _multivariate(X, positions, st, k, sdcm, strata_cols, index)
        algorithm = "mdav"
    out = res[0]
    if measure != "mean":  # the groups' measure instead of their mean
        if np.isnan(X).any():
            raise ValueError(f"microaggregation's measure {measure!r} needs complete values; the mean (measure "
                             "'mean') leaves missing values out.")
        gid = res[1].to_numpy()
        out = np.column_stack([aggregate(X[:, [j]], gid[:, j] if gid.ndim == 2 else gid, measure, trim)[:, 0]
                               for j in range(X.shape[1])])
    return (out, *res[1:], algorithm)


def _univariate(X: np.ndarray, positions: list[np.ndarray], st: Any, variables: tuple[str, ...], k: int, sdcm: bool,
                strata_cols: tuple[str, ...], index: pd.Index) -> tuple[np.ndarray, Any, Any, Any, Any]:
    """Individual ranking of each variable in each stratum: values, groups, sizes."""
    out = np.full(X.shape, np.nan)
    gids = np.full(X.shape, -1, dtype=np.int64)
    offsets = np.zeros(len(variables), dtype=np.int64)
    for pos in positions:
        lab = st.labels[int(st.ids[pos[0]])]
        for j, v in enumerate(variables):
            x = X[pos, j]
            m = x.size if sdcm else int((~np.isnan(x)).sum())
            if 0 < m < k:
                raise ValueError(_too_few(v, lab, m, k, strata_cols))
            vals, g = onedims(x, k, sdcm)
            out[pos, j] = vals
            gids[pos, j] = np.where(g >= 0, g + offsets[j], -1)
            offsets[j] += (int(g.max()) + 1) if (g >= 0).any() else 0
    group = pd.DataFrame(gids, index=index, columns=list(variables))
    sizes = {v: _sizes(gids[:, j]) for j, v in enumerate(variables)}
    return out, group, sizes, {v: _size_counts(sizes[v]) for v in variables}, {v: int(sizes[v].size) for v in variables}


def _multivariate(X: np.ndarray, positions: list[np.ndarray], st: Any, k: int, sdcm: bool,
                  strata_cols: tuple[str, ...], index: pd.Index) -> tuple[np.ndarray, Any, Any, Any, Any]:
    """MDAV in each stratum: values, groups, sizes."""
    out = np.full(X.shape, np.nan)
    gid = np.full(X.shape[0], -1, dtype=np.int64)
    offset = 0
    miss_all = np.isnan(X)
    if sdcm:
        miss_all = miss_all | (X == SDCMICRO_MISSING)
    for pos in positions:
        if pos.size < k:
            lab = st.labels[int(st.ids[pos[0]])]
            raise ValueError(_too_few(None, lab, pos.size, k, strata_cols))
        Xs, Ms = X[pos], miss_all[pos]
        groups = mdav_groups(np.where(Ms, SDCMICRO_MISSING if sdcm else np.nan, Xs), k, miss=Ms, sdcmicro=sdcm)
        means = group_means(Xs, Ms, groups, sdcm)
        for i, g in enumerate(groups):
            gid[pos[g]] = offset + i
        offset += len(groups)
        if sdcm:
            # sdcMicro puts back NA where the input was NA; a group without any observed
            # value yields its missing code, -999.
            means = np.where(np.isnan(means), SDCMICRO_MISSING, means)
        out[pos] = np.where(np.isnan(Xs), np.nan, means)
    sizes = _sizes(gid)
    return out, pd.Series(gid, index=index, name="group"), sizes, _size_counts(sizes), int(sizes.size)


def _too_few(var: str | None, label: str, m: int, k: int, strata_cols: tuple[str, ...]) -> str:
    where = f"stratum {label!r}" if strata_cols else "the data"
    what = f"variable {var!r} has {m} observed value(s) in {where}" if var else f"{where} has {m} record(s)"
    return f"{what}, fewer than k = {k}: no group of k can be formed."
