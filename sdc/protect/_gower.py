"""The extended Gower distance of sdcMicro's ``microaggrGower`` (VIM's ``gowerD``) and each
record's k nearest records by it; :func:`sdc.protect.microaggregation_gower` calls them.

Gower (1971, "A general coefficient of similarity and some of its properties", Biometrics
27(4)) defines the dissimilarity of records i and j over variables of mixed types as the
weighted mean of per-variable dissimilarities in [0, 1]::

    d(i, j) = sum_v w_v delta_v(i, j) / sum_v w_v

with, as VIM's ``gowerD`` (Kowarik and Templ 2016, J. Stat. Softw. 74(7)) computes them:

* numeric: delta = |x_i - x_j| / R_v, R_v = max - min of the variable (1 when it is 0);
* nominal (a category): delta = 0 if the values are equal, else 1;
* ordinal (an ordered category with L levels, ranks 1..L): delta = |r_i - r_j| / (L - 1);
* mixed (semi-continuous, a mass at the constant c): 1 if exactly one of the two values is c,
  |x_i - x_j| (not divided by the range) if neither is, 0 if both are.

A missing value is replaced, per variable, by the largest value (numeric: after the division by
the range; nominal and ordinal: the largest rank) plus 1, as ``gowerD`` does, so two missing
values are at distance 0. The sum runs over the variables in the order numeric, nominal,
ordinal, mixed, each term computed as ``gowerD`` writes it, so equal distances stay equal and
ties are broken as there: a record's k nearest are the k smallest distances, equal ones in data
order (the record itself at distance 0 among them).

(:mod:`sdc.attacks.distance` has the other common variant, ``cluster::daisy``'s, used by the
record-linkage attacks: there a pair with a missing value leaves the variable out of both sums.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["GowerColumns", "gower_columns", "gower_block", "nearest"]

KINDS = ("numeric", "nominal", "ordinal", "mixed")
_CELLS = 1 << 22  # distances held at once (rows x records) by the nearest-record search


@dataclass(frozen=True)
class GowerColumns:
    """The distance variables of one set of records, prepared as ``gowerD`` prepares them.

    Attributes
    ----------
    values : ndarray (n, p)
        Numeric ones divided by their range, ranks for nominal and ordinal ones (1-based),
        mixed ones as they are; missing values replaced by the column's largest value + 1.
    kinds : tuple of str
        Each column's kind (numeric, nominal, ordinal, mixed), in this order.
    weights : ndarray (p,)
        Each column's weight; `weight_sum` is their sum (over every distance variable).
    steps : ndarray (p,)
        L - 1 of an ordinal column (1 elsewhere; 1 when L = 1).
    constants : ndarray (p,)
        The mass point c of a mixed column (0 elsewhere).
    """

    values: np.ndarray
    kinds: tuple[str, ...]
    weights: np.ndarray
    weight_sum: float
    steps: np.ndarray
    constants: np.ndarray


def _fill_missing(x: np.ndarray) -> np.ndarray:
    """Missing values replaced by the largest value + 1 (1 when all are missing), as gowerD."""
    miss = np.isnan(x)
    if not miss.any():
        return x
    top = 1.0 if miss.all() else float(np.nanmax(x)) + 1.0
    return np.where(miss, top, x)


def gower_columns(columns: Sequence[np.ndarray], kinds: Sequence[str], weights: Sequence[float],
                  steps: Sequence[float], constants: Sequence[float]) -> GowerColumns:
    """Prepare the distance variables of a set of records (see :class:`GowerColumns`).

    `columns` hold float values: numbers, or 1-based ranks of categories, NaN for missing; they
    must come in the order numeric, nominal, ordinal, mixed (`kinds`)."""
    out = []
    for x, kind in zip(columns, kinds):
        x = np.asarray(x, dtype=np.float64)
        if kind == "numeric":
            obs = x[~np.isnan(x)]
            r = float(obs.max() - obs.min()) if obs.size else 1.0
            x = x / (r if r != 0 else 1.0)
        out.append(_fill_missing(x))
    n = out[0].size if out else 0
    w = np.asarray(weights, dtype=np.float64)
    return GowerColumns(values=np.column_stack(out) if out else np.empty((n, 0)), kinds=tuple(kinds), weights=w,
                        weight_sum=float(w.sum()), steps=np.asarray(steps, dtype=np.float64),
                        constants=np.asarray(constants, dtype=np.float64))


def gower_block(g: GowerColumns, rows: np.ndarray) -> np.ndarray:
    """Distances (len(rows), n) from the records `rows` to every record, term by term in
    column order as ``gowerD`` sums them (see the module notes)."""
    V, W = g.values, g.weight_sum
    D = np.zeros((rows.size, V.shape[0]))
    for j, kind in enumerate(g.kinds):
        x, y, w = V[rows, j][:, None], V[None, :, j], g.weights[j]
        if kind == "numeric":
            D += w * np.abs(x - y) / W
        elif kind == "nominal":
            D += np.where(x != y, w / W, 0.0)
        elif kind == "ordinal":
            D += np.abs(x - y) / g.steps[j] * w / W
        else:
            c = g.constants[j]
            xc, yc = x == c, y == c
            D += np.where(xc != yc, w / W, np.where(~xc & ~yc, w * np.abs(x - y) / W, 0.0))
    return D


def nearest(g: GowerColumns, k: int) -> np.ndarray:
    """Each record's k nearest records (n, k), positions among the prepared records: the k
    smallest distances in increasing order, equal ones in data order."""
    n = g.values.shape[0]
    out = np.empty((n, k), dtype=np.int64)
    step = max(1, _CELLS // max(n, 1))
    for lo in range(0, n, step):
        rows = np.arange(lo, min(n, lo + step))
        out[rows] = _smallest(gower_block(g, rows), k)
    return out


def _smallest(D: np.ndarray, k: int) -> np.ndarray:
    """Per row, the columns of the k smallest values in increasing order, equal values in column
    order (a stable sort's first k): only the values up to each row's k-th smallest are sorted."""
    if k >= D.shape[1]:
        return np.argsort(D, axis=1, kind="stable")[:, :k]
    kth = np.partition(D, k - 1, axis=1)[:, k - 1:k]
    r, c = np.nonzero(D <= kth)  # row by row, columns in order: at least k per row (ties at the k-th)
    order = np.lexsort((c, D[r, c], r))
    r, c = r[order], c[order]
    starts = np.searchsorted(r, np.arange(D.shape[0]))
    take = starts[:, None] + np.arange(k)[None, :]
    return c[take]
