"""The occurring (class, value) cells of :mod:`sdc.attribute.closeness`, for files whose
classes x values would not fit dense blocks: each class's t-closeness distance, beta-likeness
and delta-disclosure from its cells only (the formulas are in that module's notes). Kept apart
so that each module stays small; the numbers are the dense blocks' (tests/attribute/test_closeness.py
checks both ways against brute force).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc.core.binning import Binning
from sdc.core.classes import Classes, Sensitive, cells


@dataclass(frozen=True, slots=True)
class _Prepared:
    classes: Classes
    sens: Sensitive
    q: np.ndarray              # file-wide distribution over the observed values
    n_obs: np.ndarray          # observed sensitive values per class
    binning: tuple[Binning, ...]
    class_frame: pd.DataFrame
    counts: np.ndarray | None = None  # records per row, when the rows are (class, value) cells


def _observed_cells(prep: _Prepared) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The occurring (class, value) cells with an observed value, sorted by class then value:
    class, code, the class's share p, and the records of the class up to and including the
    cell (exact integers, for the class's cumulative share)."""
    cl = cells(prep.classes, prep.sens, prep.counts)
    obs = cl.code >= 0
    cls, code, cnt = cl.cls[obs], cl.code[obs], cl.count[obs]
    total = np.cumsum(cnt)
    start = np.searchsorted(cls, cls, side="left")  # first cell of each cell's class
    before = np.where(start > 0, total[np.maximum(start - 1, 0)], 0)
    n_obs = prep.n_obs[cls]
    return cls, code, cnt / n_obs, (total - before) / n_obs


def _sparse_distances(prep: _Prepared, distance: str, w: np.ndarray | None) -> np.ndarray:
    """Each class's distance from its cells only (see the module notes); NaN without values."""
    G, q = prep.classes.n_classes, prep.q
    cls, code, p, cum = _observed_cells(prep)
    if distance in ("equal", "tvd"):
        out = 0.5 * (1.0 + np.bincount(cls, weights=np.abs(p - q[code]) - q[code], minlength=G))
    else:
        m = q.size
        fq = np.cumsum(q)[: m - 1]                      # F_Q at the gaps 0..m-2
        W = np.concatenate([[0.0], np.cumsum(w)])        # prefix sums over the gaps
        WQ = np.concatenate([[0.0], np.cumsum(w * fq)])
        last = np.r_[cls[1:] != cls[:-1], True]
        a = code
        b = np.where(last, m - 1, np.r_[code[1:], 0])  # the class's next value (or the end)
        t = np.clip(np.searchsorted(fq, cum, side="left"), a, b)
        seg = cum * (W[t] - W[a]) - (WQ[t] - WQ[a]) + (WQ[b] - WQ[t]) - cum * (W[b] - W[t])
        first = np.r_[True, cls[1:] != cls[:-1]]
        head = WQ[code[first]]                           # before the class's first value: F_P = 0
        out = np.bincount(cls, weights=seg, minlength=G) + np.bincount(cls[first], weights=head, minlength=G)
    out[prep.n_obs == 0] = np.nan
    return out


def _class_max(cls: np.ndarray, values: np.ndarray, G: int, empty: float) -> np.ndarray:
    """Per class the largest of its cells' `values` (cells sorted by class); `empty` for a
    class without cells."""
    out = np.full(G, empty)
    if cls.size:
        first = np.flatnonzero(np.r_[True, cls[1:] != cls[:-1]])
        out[cls[first]] = np.maximum.reduceat(values, first)
    return out


def _sparse_beta(prep: _Prepared, bound: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Basic and enhanced beta of each class from its cells (values absent from a class have
    p = 0: no gain)."""
    G, q = prep.classes.n_classes, prep.q
    cls, code, p, _ = _observed_cells(prep)
    gain = np.where(p > q[code], (p - q[code]) / q[code], 0.0)
    b = np.maximum(_class_max(cls, gain, G, 0.0), 0.0)
    over = _class_max(cls, (gain > bound[code]).astype(np.float64), G, 0.0) > 0
    e = np.where(over, np.inf, b)
    b[prep.n_obs == 0] = np.nan
    e[prep.n_obs == 0] = np.nan
    return b, e


def _sparse_delta(prep: _Prepared, variant: str) -> np.ndarray:
    """max |log(p / q)| of each class from its cells, as the dense blocks compute it: over the
    values present in the class (natural log; log2 for ``"arx"``), or with ``"all"`` infinite
    when the class lacks a value of the file."""
    G, q = prep.classes.n_classes, prep.q
    cls, code, p, _ = _observed_cells(prep)
    log = np.log2 if variant == "arx" else np.log
    with np.errstate(divide="ignore", invalid="ignore"):
        d = _class_max(cls, np.abs(log(p / q[code])), G, -np.inf)  # the ratio first, as in the dense path
    if variant == "all":
        d[np.bincount(cls, minlength=G) < int((q > 0).sum())] = np.inf
    d[prep.n_obs == 0] = np.nan
    return d
