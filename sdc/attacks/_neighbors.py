"""Nearest neighbours on mixed data with a Gower-type distance (anonymeter's attacks).

d(a, b) = sum over numeric columns of |a_j - b_j| / range_j (range over both files) + number of
categorical columns where the values differ. A missing value is a value of its own: two
missing values are at distance 0, a missing and an observed value at distance 1 (anonymeter
counts two missing values as 1 and leaves one missing value undefined; we make it a category).

Ties are broken at random, independently for every query record, seeded: an attacker who
cannot tell tied records apart picks one of them (anonymeter takes the first in file order,
which links the two halves of a record through the same first record when both tie).
Brute force in chunks of query records: O(n_queries x n_candidates) distance evaluations,
fine for the few hundred to few thousand targets of an attack.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.attacks._common import is_numeric_column
from sdc.core.matching import encode_joint

__all__ = ["MixedData", "prepare", "knn"]


class MixedData:
    """Queries and candidates encoded for the distance: scaled numbers and shared codes."""

    def __init__(self, qnum: np.ndarray, cnum: np.ndarray, qcat: np.ndarray, ccat: np.ndarray) -> None:
        self.qnum, self.cnum, self.qcat, self.ccat = qnum, cnum, qcat, ccat
        # Numeric columns with a missing value on either side (the others skip the NaN rule).
        self.has_nan = np.isnan(qnum).any(axis=0) | np.isnan(cnum).any(axis=0)

    @property
    def n_queries(self) -> int:
        return int(self.qnum.shape[0] if self.qnum.size else self.qcat.shape[0])

    @property
    def n_candidates(self) -> int:
        return int(self.cnum.shape[0] if self.cnum.size else self.ccat.shape[0])


def prepare(queries: pd.DataFrame, candidates: pd.DataFrame, columns: tuple[str, ...]) -> MixedData:
    num = [c for c in columns if is_numeric_column(queries[c]) and is_numeric_column(candidates[c])]
    cat = tuple(c for c in columns if c not in num)
    nq, nc = len(queries), len(candidates)
    if num:
        qn = queries[num].to_numpy(dtype=np.float64, na_value=np.nan)
        cn = candidates[num].to_numpy(dtype=np.float64, na_value=np.nan)
        both = np.vstack([qn, cn])
        with np.errstate(invalid="ignore"):
            lo = np.nanmin(np.where(np.isfinite(both), both, np.nan), axis=0) if np.isfinite(both).any() else 0.0
            hi = np.nanmax(np.where(np.isfinite(both), both, np.nan), axis=0) if np.isfinite(both).any() else 1.0
        lo = np.nan_to_num(np.asarray(lo, dtype=np.float64))
        rng = np.nan_to_num(np.asarray(hi, dtype=np.float64) - lo)
        rng = np.where(rng > 0, rng, 1.0)
        qn, cn = (qn - lo) / rng, (cn - lo) / rng
    else:
        qn, cn = np.empty((nq, 0)), np.empty((nc, 0))
    if cat:
        joint = encode_joint(queries, candidates, cat)
        qc = np.column_stack([c.astype(np.int64) for c in joint.left_codes])
        cc = np.column_stack([c.astype(np.int64) for c in joint.right_codes])
    else:
        qc, cc = np.empty((nq, 0), dtype=np.int64), np.empty((nc, 0), dtype=np.int64)
    return MixedData(qn, cn, qc, cc)


def _distances(md: MixedData, rows: slice) -> np.ndarray:
    qn, qc = md.qnum[rows], md.qcat[rows]
    d = np.zeros((qn.shape[0] if md.qnum.size else qc.shape[0], md.n_candidates))
    buf = np.empty_like(d)  # one scratch array: fresh pages cost more than the arithmetic at 10^7
    for j in range(md.cnum.shape[1]):
        a, b = qn[:, j][:, None], md.cnum[:, j][None, :]
        np.subtract(a, b, out=buf)
        np.abs(buf, out=buf)
        if md.has_nan[j]:
            na_a, na_b = np.isnan(a), np.isnan(b)
            buf = np.where(na_a & na_b, 0.0, np.where(na_a | na_b, 1.0, buf))
        d += buf
    for j in range(md.ccat.shape[1]):
        d += qc[:, j][:, None] != md.ccat[:, j][None, :]
    return d


def knn(md: MixedData, k: int, rng: np.random.Generator, *, budget: int = 4_000_000) -> np.ndarray:
    """Positions of the k nearest candidates of every query (n_queries x k), ties at random."""
    m = md.n_candidates
    k = min(k, m)
    out = np.empty((md.n_queries, k), dtype=np.int64)
    step = max(1, budget // max(m, 1))
    for start in range(0, md.n_queries, step):
        rows = slice(start, min(start + step, md.n_queries))
        d = _distances(md, rows)
        # The k-th smallest distance (the minimum for k = 1, without a partition's copy).
        kth = d.min(axis=1) if k == 1 else np.partition(d, k - 1, axis=1)[:, k - 1]
        for i in range(d.shape[0]):
            if k == 1:  # nothing is nearer than the minimum
                strict = np.empty(0, dtype=np.int64)
            else:
                strict = np.flatnonzero(d[i] < kth[i])
                strict = strict[np.argsort(d[i, strict], kind="stable")]
            tied = np.flatnonzero(d[i] == kth[i])
            pick = rng.choice(tied, size=k - strict.size, replace=False)
            out[start + i] = np.concatenate([strict, pick])
    return out
