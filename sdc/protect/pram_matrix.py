"""PRAM's transition matrices, its argument checks and its sampler: what :func:`sdc.pram`
uses in memory (:mod:`sdc.protect.pram`) and on Dask (:mod:`sdc.protect.on_dask`) alike.
The formulas are in :mod:`sdc.protect.pram`'s notes (sdcMicro's invariant PRAM).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas

from sdc._validation import check_fraction

__all__ = ["pram_matrix", "flip_matrix"]

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
