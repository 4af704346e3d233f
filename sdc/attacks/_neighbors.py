"""Nearest neighbours on mixed data with a Gower-type distance (anonymeter's attacks).

d(a, b) = sum over numeric columns of |a_j - b_j| / range_j (range over both files) + number of
categorical columns where the values differ. A missing value is a value of its own: two
missing values are at distance 0, a missing and an observed value at distance 1 (anonymeter
counts two missing values as 1 and leaves one missing value undefined; we make it a category).
An infinite value is likewise at distance 0 from the same infinity and 1 from any other value
(|inf - inf| is undefined, and no finite range scales an infinite difference).

Ties are broken at random, independently for every query record, seeded: an attacker who
cannot tell tied records apart picks one of them (anonymeter takes the first in file order,
which links the two halves of a record through the same first record when both tie).
Brute force in chunks of query records over the *distinct* candidate rows: records with the
same values in the attack's columns are at the same distance from every query, so distances
are computed once per distinct row (a protected file of 10^7 records often has a few thousand)
and the neighbours drawn among the records of the nearest rows: O(n_queries x distinct rows)
distance evaluations, the same neighbours as over every record, ties drawn alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sdc.attacks._common import is_numeric_column, warn_disjoint
from sdc.core.keys import factorize_column
from sdc.core.matching import encode_joint
from sdc.core.patterns import distinct_rows

__all__ = ["CandidateRows", "MixedData", "prepare", "knn"]


class CandidateRows:
    """A file's distinct rows over the attack's columns, found once and searched by several
    sets of queries (an attack's targets and its control targets).

    Values are compared as :func:`sdc.core.matching.encode_joint` compares them (one code per
    value, missing a value of its own); ``rows`` holds the first record of each distinct row,
    ``ids`` each record's row and ``counts`` the records per row.
    """

    def __init__(self, candidates: pd.DataFrame, columns: tuple[str, ...]) -> None:
        self.frame, self.columns = candidates, tuple(columns)
        # No column: every candidate is at distance 0, one row.
        self.ids, first, self.counts = distinct_rows([factorize_column(candidates[c])[0] for c in self.columns],
                                                     len(candidates))
        self.rows = candidates.iloc[first]
        self.members = np.argsort(self.ids, kind="stable")  # grouped by row, file order within a row


class MixedData:
    """Queries and candidates encoded for the distance: scaled numbers and shared codes, the
    candidates also as their distinct rows (``unum``, ``ucat``) and, per distinct row, its
    records in file order (``members[starts[r]:starts[r + 1]]``).

    Without `rows`, ``cnum``/``ccat`` hold every candidate record and their distinct rows are
    found here; with ``rows=(counts, members)`` they already are the distinct rows."""

    def __init__(self, qnum: np.ndarray, cnum: np.ndarray, qcat: np.ndarray, ccat: np.ndarray, *,
                 rows: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        self.qnum, self.cnum, self.qcat, self.ccat = qnum, cnum, qcat, ccat
        # Numeric columns with a missing value on either side (the others skip the NaN rule).
        self.has_nan = np.isnan(qnum).any(axis=0) | np.isnan(cnum).any(axis=0)
        self.has_inf = np.isinf(qnum).any(axis=0) | np.isinf(cnum).any(axis=0)
        if rows is not None:
            self.unum, self.ucat = cnum, ccat
            self.counts, self.members = rows
        else:
            cols = [cnum[:, j] for j in range(cnum.shape[1])] + [ccat[:, j] for j in range(ccat.shape[1])]
            ids, first, counts = distinct_rows(cols, int(cnum.shape[0]))
            self.unum, self.ucat, self.counts = cnum[first], ccat[first], counts
            self.members = np.argsort(ids, kind="stable")  # grouped by row, file order within a row
        self.starts = np.concatenate([[0], np.cumsum(self.counts)])

    @property
    def n_queries(self) -> int:
        return int(self.qnum.shape[0] if self.qnum.size else self.qcat.shape[0])

    @property
    def n_candidates(self) -> int:
        return int(self.starts[-1])

    def records(self, rows: np.ndarray, *, in_file_order: bool = True) -> np.ndarray:
        """The records of the distinct rows `rows` (row after row, or in file order)."""
        if rows.size == 1:
            r = int(rows[0])
            return self.members[self.starts[r]:self.starts[r + 1]]
        cnt = self.counts[rows]
        offset = np.repeat(self.starts[rows] - (np.cumsum(cnt) - cnt), cnt)
        recs = self.members[offset + np.arange(offset.size, dtype=np.int64)]
        return np.sort(recs) if in_file_order else recs


def prepare(queries: pd.DataFrame, candidates: pd.DataFrame | CandidateRows, columns: tuple[str, ...], *,
            warn: str | None = None) -> MixedData:
    """The queries and the candidates' distinct rows (:class:`CandidateRows`, found here when
    given a frame) encoded for :func:`knn` on `columns`; `warn` names the queries' file in a
    warning when a column's values have none in common with the candidates'
    (:func:`sdc.attacks._common.warn_disjoint`)."""
    cands = candidates if isinstance(candidates, CandidateRows) else CandidateRows(candidates, columns)
    if cands.columns != tuple(columns):
        raise ValueError("the candidate rows were found on other columns")
    reps = cands.rows
    num = [c for c in columns if is_numeric_column(queries[c]) and is_numeric_column(cands.frame[c])]
    cat = tuple(c for c in columns if c not in num)
    nq, nc = len(queries), len(reps)
    if num:
        qn = queries[num].to_numpy(dtype=np.float64, na_value=np.nan)
        cn = reps[num].to_numpy(dtype=np.float64, na_value=np.nan)
        both = np.vstack([qn, cn])  # the distinct rows have the file's extremes
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
        joint = encode_joint(queries, reps, cat)
        if warn:
            warn_disjoint(joint, warn)
        qc = np.column_stack([c.astype(np.int64) for c in joint.left_codes])
        cc = np.column_stack([c.astype(np.int64) for c in joint.right_codes])
    else:
        qc, cc = np.empty((nq, 0), dtype=np.int64), np.empty((nc, 0), dtype=np.int64)
    return MixedData(qn, cn, qc, cc, rows=(cands.counts, cands.members))


def _special(buf: np.ndarray, a: np.ndarray, b: np.ndarray, has_inf: bool, has_nan: bool) -> np.ndarray:
    """`buf` = |a - b| of one numeric column with the infinite and missing values' terms set:
    0 for the same infinity or both missing, 1 for an infinity against another value or one
    value missing."""
    if has_inf:
        buf = np.where(np.isinf(a) | np.isinf(b), np.where(a == b, 0.0, 1.0), buf)
    if has_nan:
        na_a, na_b = np.isnan(a), np.isnan(b)
        buf = np.where(na_a & na_b, 0.0, np.where(na_a | na_b, 1.0, buf))
    return buf


def _distances(md: MixedData, rows: slice) -> np.ndarray:
    """Distances of the queries `rows` to every distinct candidate row."""
    qn, qc = md.qnum[rows], md.qcat[rows]
    d = np.zeros((qn.shape[0] if md.qnum.size else qc.shape[0], md.counts.size))
    buf = np.empty_like(d)  # one scratch array: fresh pages cost more than the arithmetic at 10^7
    for j in range(md.unum.shape[1]):
        a, b = qn[:, j][:, None], md.unum[:, j][None, :]
        with np.errstate(invalid="ignore"):  # inf - inf: replaced just below
            np.subtract(a, b, out=buf)
        np.abs(buf, out=buf)
        d += _special(buf, a, b, md.has_inf[j], md.has_nan[j])
    for j in range(md.ucat.shape[1]):
        d += qc[:, j][:, None] != md.ucat[:, j][None, :]
    return d


def _mismatches(md: MixedData, rows: slice) -> np.ndarray:
    """The number of categorical columns in which each query of `rows` differs from each
    distinct candidate row (uint8 when fewer than 256 columns: a lower bound of the distance)."""
    qc = md.qcat[rows]
    c = np.zeros((qc.shape[0] if md.qcat.size else md.qnum[rows].shape[0], md.counts.size),
                 dtype=np.uint8 if md.ucat.shape[1] < 256 else np.int64)
    for j in range(md.ucat.shape[1]):
        c += qc[:, j][:, None] != md.ucat[:, j][None, :]
    return c


def _nearest_pairs(md: MixedData, rows: slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each query of `rows`, the distinct candidate rows that can be nearest, with their
    distances exactly as :func:`_distances` computes them: (query, row, distance), by query
    then row. A numeric column adds at most 1 (in floating point too: each term is in [0, 1]
    and rounding is monotone), so with c mismatched categories a row is within [c, c + m] for
    m numeric columns; a row whose c passes the query's smallest c by more than m is farther
    than that row's distance and cannot be nearest. Only the rows left are measured."""
    m = md.unum.shape[1]
    c = _mismatches(md, rows)
    bound = c.min(axis=1, keepdims=True).astype(np.int64) + m
    qi, ri = np.nonzero(c <= bound)
    del c
    qi_all = qi + (rows.start or 0)
    d = np.zeros(qi.size)
    for j in range(m):  # the same operations as _distances, element by element
        a, b = md.qnum[qi_all, j], md.unum[ri, j]
        with np.errstate(invalid="ignore"):
            buf = np.abs(a - b)
        d += _special(buf, a, b, md.has_inf[j], md.has_nan[j])
    for j in range(md.ucat.shape[1]):
        d += md.qcat[qi_all, j] != md.ucat[ri, j]
    return qi, ri, d


def _nearest(md: MixedData, rows: slice, rng: np.random.Generator, out: np.ndarray) -> None:
    """k = 1 for the queries `rows`: one record drawn among those at the smallest distance (the
    rows tied at it in row order, their records in file order, as :func:`knn` draws)."""
    qi, ri, d = _nearest_pairs(md, rows)
    n_q = rows.stop - rows.start
    first = np.searchsorted(qi, np.arange(n_q + 1))
    low = np.minimum.reduceat(d, first[:-1]) if d.size else np.empty(0)
    at_min = d == low[qi]
    for i in range(n_q):
        lo, hi = first[i], first[i + 1]
        tied = md.records(ri[lo:hi][at_min[lo:hi]])
        out[rows.start + i, 0] = tied[rng.choice(tied.size, size=1, replace=False)][0]


def knn(md: MixedData, k: int, rng: np.random.Generator, *, budget: int = 4_000_000) -> np.ndarray:
    """Positions of the k nearest candidates of every query (n_queries x k), ties at random.

    The records nearer than the k-th smallest distance come first, by distance and then file
    order; the rest are drawn without replacement among the records at the k-th distance
    (``rng.choice`` over them in file order, one call per query)."""
    m = md.n_candidates
    k = min(k, m)
    out = np.empty((md.n_queries, k), dtype=np.int64)
    u = md.counts.size
    step = max(1, budget // max(u, 1))
    for start in range(0, md.n_queries, step):
        rows = slice(start, min(start + step, md.n_queries))
        if k == 1 and m:  # only the rows that can be nearest are measured (the same draws)
            _nearest(md, rows, rng, out)
            continue
        d = _distances(md, rows)
        kth = d.min(axis=1) if k == 1 else None
        for i in range(d.shape[0]):
            if k == 1:  # nothing is nearer than the minimum
                strict = np.empty(0, dtype=np.int64)
                tied = md.records(np.flatnonzero(d[i] == kth[i]))
            else:
                strict, tied = _split_at_kth(md, d[i], k)
            pick = tied[rng.choice(tied.size, size=k - strict.size, replace=False)]
            out[start + i] = np.concatenate([strict, pick])
    return out


def _split_at_kth(md: MixedData, d: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For one query (distances `d` to the distinct rows): the records nearer than the k-th
    smallest record distance (by distance, then file order) and the records at it (file order)."""
    order = np.argsort(d, kind="stable")
    reach = np.cumsum(md.counts[order])
    kth = d[order[int(np.searchsorted(reach, k))]]  # the row holding the k-th nearest record
    near = np.flatnonzero(d < kth)
    if near.size:
        pos = md.records(near, in_file_order=False)
        dist = np.repeat(d[near], md.counts[near])
        strict = pos[np.lexsort((pos, dist))]
    else:
        strict = np.empty(0, dtype=np.int64)
    return strict, md.records(np.flatnonzero(d == kth))
