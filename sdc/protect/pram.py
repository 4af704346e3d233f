"""PRAM, the post-randomisation method: each value replaced at random by a transition matrix.

sdcMicro's invariant PRAM (``R/pram.R``; Kowarik, Templ, Meindl, Fonteneau & Prantner
2012, *Testing of IHSN C++ code and inclusion of new methods into sdcMicro*, LNCS 7556,
63-77). For a variable with L levels and relative frequencies p (within a stratum):

1. diagonal draws ``d_i ~ U(pd, 1)`` (one per level: sdcMicro's ``runif(L, min = pd, max = 1)``);
2. ``P[i, i] = d_i``, ``P[i, j] = (1 - d_i) / (L - 1)`` for ``j != i``;
3. the backward matrix ``Q[k, j] = P[j, k] p_j / sum_i p_i P[i, k]``;
4. ``R = P Q`` (which leaves p invariant: ``p R = p``), then ``Rs = alpha R + (1 - alpha) I``.

Each record of level i gets level j with probability ``Rs[i, j]``. A plain flip probability
f gives ``P[i, i] = 1 - f``, ``P[i, j] = f / (L - 1)``, and a custom matrix can be given per
variable. Missing values are not changed. The random steps use one numpy Generator, seeded
and recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas

from sdc._validation import check_columns, check_fraction
from sdc.core.strata import sorted_levels, strata_ids
from sdc.protect._common import check_variables, resolve_seed
from sdc.protect._result import ProtectionResult

__all__ = ["pram", "pram_matrix", "flip_matrix"]

_ONE_SHOT_CELLS = 20_000_000  # strata x levels x levels held at once when sampling


def pram_matrix(counts: Sequence[float], diagonal: Sequence[float], alpha: float) -> np.ndarray:
    """sdcMicro's invariant PRAM matrix ``Rs`` from level counts and the diagonal draws.

    Parameters
    ----------
    counts : sequence of float
        Records per level (only the proportions matter; sdcMicro divides by the sum of the
        factor codes, a constant that cancels in Q).
    diagonal : sequence of float
        The diagonal of P, ``d_i`` (drawn from ``U(pd, 1)`` by :func:`pram`).
    alpha : float
        Amount of perturbation: ``Rs = alpha R + (1 - alpha) I``.

    Returns
    -------
    numpy.ndarray, shape (L, L)
        Rows sum to 1. A level absent from the data (``sum_i p_i P[i, k] = 0``, possible only
        with ``d = 1``) keeps its value (sdcMicro's matrix has NaN there and ``sample`` stops).
        A variable with a single level gives ``[[1]]``.
    """
    c = np.asarray(counts, dtype=np.float64)
    d = np.asarray(diagonal, dtype=np.float64)
    L = c.size
    if L == 1:
        return np.ones((1, 1))
    P = np.repeat(((1.0 - d) / (L - 1))[:, None], L, axis=1)
    np.fill_diagonal(P, d)
    p = c / c.sum()
    s = p @ P                                   # s_k = sum_i p_i P[i, k]
    with np.errstate(invalid="ignore", divide="ignore"):
        Q = (P * p[:, None]).T / s[:, None]     # Q[k, j] = P[j, k] p_j / s_k
    dead = ~(s > 0)
    if dead.any():
        Q[dead] = 0.0
        Q[dead, np.flatnonzero(dead)] = 1.0
    R = P @ Q
    return alpha * R + (1.0 - alpha) * np.eye(L)


def flip_matrix(n_levels: int, flip: float) -> np.ndarray:
    """Keep a value with probability ``1 - flip``, else move to one of the others uniformly."""
    if n_levels == 1:
        return np.ones((1, 1))
    M = np.full((n_levels, n_levels), flip / (n_levels - 1))
    np.fill_diagonal(M, 1.0 - flip)
    return M


def _check_parameters(cols: tuple[str, ...], pd: object, alpha: object, flip: object, matrix: object
                      ) -> tuple[dict[str, float | None], dict[str, float | None], dict[str, float | None]]:
    """Each variable's pd, alpha and flip (checked), and the `matrix` argument's shape: the
    checks of :func:`pram` in memory and on Dask."""
    if flip is not None and (pd is not None or alpha is not None):
        raise ValueError("`flip` replaces the invariant matrix; give `flip` or `pd`/`alpha`, not both.")
    pd_v = _per_variable(pd, "pd", cols, 0.8)
    alpha_v = _per_variable(alpha, "alpha", cols, 0.5)
    flip_v = _per_variable(flip, "flip", cols, None)
    if matrix is not None:
        if not isinstance(matrix, Mapping):
            raise TypeError(f"`matrix` must be a dict of variable -> matrix; got {type(matrix).__name__}.")
        unknown = [k for k in matrix if k not in cols]
        if unknown:
            raise ValueError(f"`matrix` names variables not being pramed: {', '.join(map(repr, unknown))}.")
    return pd_v, alpha_v, flip_v


def _parameters(cols: tuple[str, ...], pd: object, alpha: object, flip: object, matrices: object,
                strata_cols: tuple[str, ...]) -> dict[str, Any]:
    """The parameters a PRAM result records (the defaults filled in)."""
    params: dict[str, Any] = {"variables": list(cols)}
    if flip is not None:
        params["flip"] = dict(flip) if isinstance(flip, Mapping) else float(flip)
    else:
        params["pd"] = dict(pd) if isinstance(pd, Mapping) else (0.8 if pd is None else float(pd))
        params["alpha"] = dict(alpha) if isinstance(alpha, Mapping) else (0.5 if alpha is None else float(alpha))
    if matrices is not None:
        params["matrix"] = matrices
    if strata_cols:
        params["strata"] = list(strata_cols)
    return params


def _check_strata(strata_cols: tuple[str, ...], cols: tuple[str, ...]) -> None:
    overlap = [c for c in strata_cols if c in cols]
    if overlap:
        raise ValueError(f"`strata` cannot include a pramed variable: {', '.join(map(repr, overlap))}.")


def _per_variable(value: object, name: str, cols: tuple[str, ...], default: float | None) -> dict[str, float | None]:
    """A number for every variable, or a mapping variable -> number."""
    if isinstance(value, Mapping):
        unknown = [k for k in value if k not in cols]
        if unknown:
            raise ValueError(f"`{name}` names variables not being pramed: {', '.join(map(repr, unknown))}.")
        return {v: (check_fraction(value[v], f"{name}[{v!r}]") if v in value else default) for v in cols}
    if value is None:
        return {v: default for v in cols}
    x = check_fraction(value, name)
    return {v: x for v in cols}


def _custom_matrix(m: object, levels: tuple, var: str) -> np.ndarray:
    """A user matrix (DataFrame or {from: {to: p}}) ordered by `levels` and checked."""
    frame = m if isinstance(m, pandas.DataFrame) else pandas.DataFrame(m).T if isinstance(m, Mapping) else None
    if frame is None:
        raise TypeError(f"`matrix[{var!r}]` must be a DataFrame or a dict of dicts; got {type(m).__name__}.")
    text = [str(v) for v in levels]
    rows = {str(i): i for i in frame.index}
    cols = {str(c): c for c in frame.columns}
    if set(rows) != set(text) or set(cols) != set(text):
        raise ValueError(
            f"`matrix[{var!r}]` must have the levels of {var!r} as rows and columns ({', '.join(text)}); "
            f"got rows {', '.join(map(str, frame.index))}."
        )
    M = frame.loc[[rows[t] for t in text], [cols[t] for t in text]].to_numpy(dtype=np.float64)
    if np.isnan(M).any() or (M < 0).any() or (M > 1).any():
        raise ValueError(f"`matrix[{var!r}]` must hold probabilities in [0, 1].")
    bad = np.abs(M.sum(axis=1) - 1.0) > 1e-9
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"`matrix[{var!r}]` row {text[i]!r} sums to {float(M[i].sum()):g}; every row must sum to 1.")
    return M


def _sample(rows: np.ndarray, tables: np.ndarray, u: np.ndarray) -> np.ndarray:
    """New level of each record: inverse CDF of its row of `tables` at `u`, all rows at once.

    Row r's CDF is shifted into [r, r + 1], so one sorted array serves every row and one
    ``searchsorted`` places every record (a zero-probability level is never chosen).
    """
    n_rows, L = tables.shape
    cdf = np.cumsum(tables, axis=1)
    cdf /= cdf[:, -1:]
    cdf[:, -1] = 1.0
    flat = (np.arange(n_rows, dtype=np.float64)[:, None] + cdf).ravel()
    pos = np.searchsorted(flat, rows.astype(np.float64) + u, side="right")
    return np.minimum(pos - rows * L, L - 1)


def pram(
    data: pandas.DataFrame,
    variables: Sequence[str] | str,
    *,
    pd: float | Mapping[str, float] | None = None,
    alpha: float | Mapping[str, float] | None = None,
    flip: float | Mapping[str, float] | None = None,
    matrix: Mapping[str, object] | None = None,
    strata: Sequence[str] | str | None = None,
    seed: int | None = None,
) -> ProtectionResult:
    """Post-randomise categorical variables (sdcMicro's ``pram``).

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Categorical variables (any dtype: the distinct values are the levels; a categorical's
        categories, used or not, as R's factor levels).
    pd : float or dict, default 0.8
        Minimum diagonal of P: the diagonal is drawn from ``U(pd, 1)`` (sdcMicro's ``pd``).
    alpha : float or dict, default 0.5
        Amount of perturbation (sdcMicro's ``alpha``): ``Rs = alpha R + (1 - alpha) I``.
    flip : float or dict, optional
        Instead of the invariant matrix: change each value with probability `flip`, to one of
        the other levels uniformly. Not with `pd` or `alpha`.
    matrix : dict, optional
        A transition matrix per variable (a DataFrame, or ``{from: {to: p}}``, levels as rows
        and columns, rows summing to 1), as sdcMicro's ``pd = <matrix>``.
    strata : str or list of str, optional
        Columns defining strata: the invariant matrix is computed (with its own diagonal
        draws) from the frequencies within each stratum, as sdcMicro's ``strata_variables``.
    seed : int, optional
        Seed of the numpy Generator (drawn and recorded when None). For each variable in
        order: the diagonal draws of each stratum (in sorted order of the strata values),
        then one uniform per non-missing record in row order.

    Returns
    -------
    ProtectionResult
        ``details[variable]`` holds ``levels``, ``matrix`` (a DataFrame; ``matrices`` per
        stratum with strata), ``diagonal`` draws, ``transitions`` (a from x to DataFrame of
        record counts) and the parameters used.

    References
    ----------
    sdcMicro ``pram`` (``R/pram.R``); Gouweleeuw, Kooiman, Willenborg & de Wolf (1998),
    *Post randomisation for statistical disclosure control: theory and implementation*,
    Journal of Official Statistics 14(4), 463-478.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"sex": ["m", "f"] * 50})
    >>> r = sdc.pram(df, "sex", seed=1)
    >>> r.details["sex"]["matrix"].shape
    (2, 2)
    """
    from sdc.core._dask import is_dask

    if is_dask(data):  # the matrix from one pass, the draws per partition (sdc.protect.on_dask)
        from sdc.protect.on_dask import pram_partitions

        return pram_partitions(data, variables, pd=pd, alpha=alpha, flip=flip, matrix=matrix, strata=strata, seed=seed)
    frame, cols = check_variables(data, variables)
    pd_v, alpha_v, flip_v = _check_parameters(cols, pd, alpha, flip, matrix)
    strata_cols = () if strata is None else check_columns(frame, strata, role="strata")
    _check_strata(strata_cols, cols)
    seed_used, rng = resolve_seed(seed)
    st = strata_ids(frame, strata_cols)
    S = st.n_strata

    out = frame.copy()
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    given_matrices: dict[str, dict[str, dict[str, float]]] = {}
    for v in cols:
        s = frame[v]
        lv = sorted_levels(s)
        L = lv.n_levels
        ok = lv.codes >= 0
        full = bool(ok.all())
        codes = lv.codes if full else lv.codes[ok]
        sid = st.ids if full else st.ids[ok]
        det: dict[str, Any] = {"levels": [str(x) for x in lv.levels]}
        rows = codes if S == 1 else sid * L + codes
        counts = np.bincount(rows, minlength=S * L).reshape(S, L) if L else np.zeros((S, 0))
        tables = np.empty((S, L, L))
        diagonals: list[list[float]] = []
        if matrix is not None and v in matrix:
            M = _custom_matrix(matrix[v], lv.levels, v)
            tables[:] = M
            det["kind"] = "matrix"
            given_matrices[v] = {str(a): {str(b): float(M[i, j]) for j, b in enumerate(lv.levels)}
                                 for i, a in enumerate(lv.levels)}
        elif flip_v[v] is not None:
            tables[:] = flip_matrix(L, flip_v[v]) if L else 0
            det.update(kind="flip", flip=flip_v[v])
        else:
            det.update(kind="invariant", pd=pd_v[v], alpha=alpha_v[v])
            for k in range(S):
                d = rng.uniform(pd_v[v], 1.0, L)
                diagonals.append([float(x) for x in d])
                tables[k] = pram_matrix(counts[k], d, alpha_v[v]) if counts[k].sum() > 0 else np.eye(L)
            det["diagonal"] = diagonals[0] if S == 1 else dict(zip(st.labels, diagonals))
        u = rng.random(codes.size)
        new = np.empty_like(codes)
        if L:
            if S * L * L <= _ONE_SHOT_CELLS:
                new = _sample(rows, tables.reshape(S * L, L), u)
            else:
                for k in range(S):
                    m = sid == k
                    new[m] = _sample(codes[m], tables[k], u[m])
        if full:
            all_new = new
        else:
            all_new = lv.codes.copy()
            all_new[ok] = new
        out[v] = _rebuild(s, lv.levels, lv.codes, all_new)
        changed[v] = int((new != codes).sum())
        names = det["levels"]
        if S == 1:
            det["matrix"] = pandas.DataFrame(tables[0], index=names, columns=names)
        else:
            det["matrices"] = {lab: pandas.DataFrame(tables[k], index=names, columns=names)
                               for k, lab in enumerate(st.labels)}
        trans = np.bincount(codes * L + new, minlength=L * L).reshape(L, L) if L else np.zeros((0, 0), dtype=np.int64)
        det["transitions"] = pandas.DataFrame(trans, index=names, columns=names)
        det["changed"] = changed[v]
        details[v] = det
    params = _parameters(cols, pd, alpha, flip, given_matrices if matrix is not None else None, strata_cols)
    return ProtectionResult(
        method="pram", data=out, variables=cols, parameters=params, seed=seed_used,
        changed=pandas.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )


def _rebuild(s: pandas.Series, levels: tuple, old: np.ndarray, new: np.ndarray) -> pandas.Series:
    """The pramed column in the input's dtype (missing values untouched)."""
    if isinstance(s.dtype, pandas.CategoricalDtype):
        return pandas.Series(pandas.Categorical.from_codes(new, dtype=s.dtype), index=s.index, name=s.name)
    if not levels:
        return s.copy()
    ok = new >= 0
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biuf":
        arr = s.to_numpy(copy=True)
        arr[ok] = np.asarray(levels, dtype=arr.dtype)[new[ok]]
        return pandas.Series(arr, index=s.index, name=s.name)
    table = np.empty(len(levels), dtype=object)
    table[:] = list(levels)
    vals = table[np.maximum(new, 0)]
    res = s.astype(object).to_numpy(copy=True)
    res[ok] = vals[ok]
    out = pandas.Series(res, index=s.index, name=s.name)
    try:
        return out.astype(s.dtype)
    except (TypeError, ValueError):  # pragma: no cover - exotic dtypes stay object
        return out
