"""MDAV (Maximum Distance to Average Vector; Domingo-Ferrer and Mateo-Sanz 2002, IEEE TKDE 14(1);
Domingo-Ferrer and Torra 2005) as sdcMicro's C++ ``Mdav`` runs it, and individual ranking
(``onedims``; Defays and Nanopoulos 1993); :func:`sdc.microaggregation` calls them. The rules
(distances in single precision, tie orders, missing values) are in
:mod:`sdc.protect.microaggregation`'s notes.
"""

from __future__ import annotations

import numpy as np

__all__ = ["mdav_groups", "group_means", "onedims", "SDCMICRO_MISSING"]

SDCMICRO_MISSING = -999.0
_SDCMICRO_MISSING = SDCMICRO_MISSING
_U64 = 2.0 ** -53  # unit roundoff of double precision
_FAST = True  # the filtered fast path of MDAV (tests switch it off to compare)

# --------------------------------------------------------------------------------------
# MDAV
# --------------------------------------------------------------------------------------
def _seq_sum(x: np.ndarray) -> float:
    """Sum in data order (as a C loop does; numpy's own sum is pairwise)."""
    return float(np.cumsum(x)[-1]) if x.size else 0.0


class _Mdav:
    """State of one MDAV run on an (n, p) matrix whose missing cells are flagged in `miss`.

    The remaining records form a *block*: their positions in data order (sdcMicro's list
    order), column copies, and a mask of the records already grouped. The block is compacted
    when a quarter of it has been grouped.
    """

    def __init__(self, X: np.ndarray, miss: np.ndarray, k: int, sdcmicro: bool) -> None:
        n, p = X.shape
        self.k, self.sdcmicro, self.p = k, sdcmicro, p
        # Weights and the distance of a missing term, from every record (sdcMicro's setup).
        self.w = np.ones(p)
        self.mdist = np.zeros(p, dtype=np.float32)
        for j in range(p):
            v = X[~miss[:, j], j]
            if v.size:
                avr = _seq_sum(v) / v.size
                sq = _seq_sum(v * v) / v.size
                var = sq - avr * avr
                if var != 0:
                    self.w[j] = 1.0 / var
                self.mdist[j] = np.float32((v.max() - v.min()) ** 2 * self.w[j])
        self.X = X
        self.miss = miss
        self.any_miss = miss.any(axis=0)
        # Without missing values each step ranks the records by a double-precision distance
        # from one matrix-vector product and computes exact single-precision distances only
        # for the records within a proven error bound of the decision (see _window).
        self.fast = _FAST and not bool(self.any_miss.any()) and n > 0
        if self.fast:
            self.mu = X.mean(axis=0)
            self.sw = np.sqrt(self.w)
            self.range = X.max(axis=0) - X.min(axis=0)
        self._set_block(np.arange(n))

    # -- the block -----------------------------------------------------------------------
    def _set_block(self, pos: np.ndarray) -> None:
        self.pos = pos
        self.dead = np.zeros(pos.size, dtype=bool)
        self.cols = [np.ascontiguousarray(self.X[pos, j]) for j in range(self.p)]
        self.mcols = [np.ascontiguousarray(self.miss[pos, j]) if self.any_miss[j] else None for j in range(self.p)]
        # Per column: the values with missing and grouped cells set to 0 (their sum in data
        # order is the C++ loop's sum) and the observed remaining counts.
        self.S = np.ascontiguousarray(np.where(self.miss[pos], 0.0, self.X[pos]).T)
        self.O = np.ascontiguousarray(~self.miss[pos].T)
        self.cnts = self.O.sum(axis=1).astype(np.int64)
        self.n_alive = pos.size
        if self.fast:
            # Centred, scaled coordinates z (so that |z_i - z_r|^2 is the distance) stored as
            # rows of A, with a last row of squared norms |z_i|^2 (-inf once grouped): then
            # A^T (-2 z_r, 1) + |z_r|^2 is every approximate distance in one product.
            Z = (self.X[pos] - self.mu) * self.sw
            nz = np.einsum("ij,ij->i", Z, Z)
            self.nzmax = float(nz.max()) if pos.size else 0.0
            self.A = np.ascontiguousarray(np.vstack([Z.T, nz[None, :]]))
            self.dead_idx = np.empty(0, dtype=np.int64)
            m = max(pos.size, 2)
            self.run_sum = self.S.sum(axis=1)
            self.abs_sum = np.abs(self.S).sum(axis=1) * 1.01
            self.sum_err = (2 * np.log2(m) + 4) * _U64 * self.abs_sum

    def _compact(self) -> None:
        self._set_block(self.pos[~self.dead])

    def remove(self, members: np.ndarray) -> None:
        self.dead[members] = True
        self.cnts -= self.O[:, members].sum(axis=1)
        if self.fast:
            v = self.S[:, members]
            self.run_sum -= v.sum(axis=1)
            self.sum_err += _U64 * (np.abs(self.run_sum) + (members.size + 1) * np.abs(v).sum(axis=1))
            self.A[self.p, members] = -np.inf
            self.dead_idx = np.concatenate([self.dead_idx, members])
        self.S[:, members] = 0.0
        self.O[:, members] = False
        self.n_alive -= members.size

    # -- exact path ----------------------------------------------------------------------
    def center(self) -> tuple[np.ndarray, np.ndarray]:
        s = np.cumsum(self.S, axis=1)[:, -1]  # cumulative sums add in data order
        c = self.cnts
        with np.errstate(invalid="ignore", divide="ignore"):
            m = s / c
        cm = c == 0
        if self.sdcmicro:
            cm = cm | (m == _SDCMICRO_MISSING)  # the C++ compares with its missing code
        return m, cm

    def dist(self, ref: np.ndarray, ref_miss: np.ndarray) -> np.ndarray:
        """Single-precision distances of every block row to `ref` (grouped rows included)."""
        D = np.zeros(self.pos.size, dtype=np.float32)
        for j in range(self.p):
            col, mc = self.cols[j], self.mcols[j]
            if ref_miss[j]:
                if mc is None:
                    t = np.full(col.size, self.mdist[j], dtype=np.float32)
                else:
                    t = np.where(mc, np.float32(0.0), self.mdist[j]).astype(np.float32)
            else:
                d = col - ref[j]
                np.multiply(d, d, out=d)
                np.multiply(d, self.w[j], out=d)
                t = d.astype(np.float32)
                if mc is not None:
                    t[mc] = self.mdist[j]
            np.add(D, t, out=D)
        return D

    def dist_rows(self, rows: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """Exact single-precision distances of some block rows to `ref` (no missing values)."""
        d = self.X[self.pos[rows]] - ref
        t = (d * d * self.w).astype(np.float32)
        return np.cumsum(t, axis=1, dtype=np.float32)[:, -1]  # float sums in variable order

    def farthest(self, D: np.ndarray) -> int:
        D = D.copy()
        np.copyto(D, np.float32(-np.inf), where=self.dead)
        return int(np.argmax(D))  # first maximum in data order

    def nearest(self, D: np.ndarray) -> np.ndarray:
        """Block indices of the k nearest remaining rows, in sdcMicro's order (distance, then
        reverse data order)."""
        D = D.copy()
        np.copyto(D, np.float32(np.inf), where=self.dead)
        t = _kth_smallest(D, self.k)
        cand = np.flatnonzero(D <= t)
        order = np.lexsort((-cand, D[cand]))
        return cand[order[: self.k]]

    # -- fast path (no missing values) ---------------------------------------------------
    def _window(self, nzr: float, level: float) -> float:
        """A bound, with a safety factor of 4, on |approximate - exact single-precision
        distance| near `level`: the rounding of the expanded double-precision form
        |z|^2 - 2 z.r + |r|^2 (and of z itself), plus the single-precision rounding of every
        term and partial sum of the exact form."""
        e1 = 8.0 * (self.p + 4) * _U64 * (self.nzmax + nzr)
        e2 = (self.p + 2) * 2.0 ** -24 * (abs(level) + e1)
        return 4.0 * (e1 + e2)

    def _dot(self, ref: np.ndarray) -> tuple[np.ndarray, float]:
        """|z_i|^2 - 2 z_i.r for every block row (-inf for grouped rows), and |r|^2."""
        zr = (ref - self.mu) * self.sw
        v = np.append(-2.0 * zr, 1.0)
        return v @ self.A, float(zr @ zr)

    def _pick_far(self, g: np.ndarray, nzr: float, extra: float) -> np.ndarray:
        """Block rows whose exact distance may be the largest (g: approximate minus |r|^2)."""
        i = int(np.argmax(g))
        M = float(g[i])
        thr = M - 2.0 * (self._window(nzr, M + nzr) + extra)
        gi, g[i] = g[i], -np.inf
        j = int(np.argmax(g))
        second = g[j]
        g[i] = gi
        if second < thr:
            return np.array([i])
        return np.flatnonzero(g >= thr)

    def _fast_farthest(self, g: np.ndarray, nzr: float, ref: np.ndarray) -> int:
        cand = self._pick_far(g, nzr, 0.0)
        if cand.size == 1:
            return int(cand[0])
        return int(cand[int(np.argmax(self.dist_rows(cand, ref)))])

    def _fast_nearest(self, g: np.ndarray, nzr: float, ref: np.ndarray) -> np.ndarray:
        """The k nearest remaining rows (g is consumed)."""
        g[self.dead_idx] = np.inf
        if self.k > 8:
            T = float(np.partition(g, self.k - 1)[self.k - 1])
            idx = np.flatnonzero(g <= T + 2.0 * self._window(nzr, T + nzr))
        else:
            low = []
            for _ in range(self.k):  # the k smallest by k passes of argmin (faster than a partition)
                i = int(np.argmin(g))
                low.append((i, float(g[i])))
                g[i] = np.inf
            T = low[-1][1]
            thr = T + 2.0 * self._window(nzr, T + nzr)
            idx = np.array([i for i, _ in low], dtype=np.int64)
            if float(g.min()) <= thr:
                idx = np.union1d(idx, np.flatnonzero(g <= thr))
        exact = self.dist_rows(idx, ref)
        order = np.lexsort((-idx, exact))
        return idx[order[: self.k]]

    def _fast_far_from_center(self) -> int | None:
        """The record farthest from the centre, or None when the approximate centre is too
        close to sdcMicro's missing code to decide."""
        m = self.n_alive
        c = self.run_sum / self.cnts
        # |sequential sum - running sum| <= (m - 1) u sum|x| + the running sum's own error
        # (Higham 2002, Accuracy and Stability of Numerical Algorithms, ch. 4).
        delta = ((m + 2) * _U64 * self.abs_sum + self.sum_err) / self.cnts + 4 * _U64 * np.abs(c)
        if self.sdcmicro and bool((np.abs(c - _SDCMICRO_MISSING) <= delta).any()):
            return None
        # A centre error delta moves a distance by at most w (2 |x - c| delta + delta^2).
        extra = float(np.sum(self.w * (2.0 * (self.range + delta) * delta + delta * delta)))
        g, nzr = self._dot(c)
        cand = self._pick_far(g, nzr, extra)
        if cand.size == 1:
            return int(cand[0])
        rows = self.X[self.pos[cand]]
        if bool((rows == rows[0]).all()):
            return int(cand[0])  # identical records: the first one, whatever the centre
        ce, _ = self.center()
        return int(cand[int(np.argmax(self.dist_rows(cand, ce)))])

    # -- the loop ------------------------------------------------------------------------
    def row(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        i = self.pos[b]
        return self.X[i], self.miss[i]

    def run(self) -> list[np.ndarray]:
        """The groups, as arrays of row positions (members in sdcMicro's summation order)."""
        k = self.k
        groups: list[np.ndarray] = []
        while self.n_alive >= 2 * k:
            two = self.n_alive >= 3 * k
            r = self._fast_far_from_center() if self.fast else None
            if r is None:
                c, cm = self.center()
                r = self.farthest(self.dist(c, cm))
            ref, refm = self.row(r)
            if self.fast:
                gd, nzr = self._dot(ref)
                s_pos = self.pos[self._fast_farthest(gd, nzr, ref)] if two else -1
                g = self._fast_nearest(gd, nzr, ref)
            else:
                D = self.dist(ref, refm)
                s_pos = self.pos[self.farthest(D)] if two else -1
                g = self.nearest(D)
            groups.append(self.pos[g])
            self.remove(g)
            if two:
                ref, refm = self.X[s_pos], self.miss[s_pos]
                if self.fast:
                    gd, nzr = self._dot(ref)
                    g = self._fast_nearest(gd, nzr, ref)
                else:
                    g = self.nearest(self.dist(ref, refm))
                groups.append(self.pos[g])
                self.remove(g)
            if self.n_alive < 0.75 * self.pos.size:
                self._compact()
        if self.n_alive:
            groups.append(self.pos[~self.dead])
        return groups


def _kth_smallest(D: np.ndarray, k: int) -> float:
    """The k-th smallest value (k passes of argmin for small k, which beat a partition)."""
    if k > 8:
        return float(np.partition(D, k - 1)[k - 1])
    E = D.copy()
    for _ in range(k - 1):
        E[int(np.argmin(E))] = np.inf
    return float(E[int(np.argmin(E))])


def mdav_groups(X: np.ndarray, k: int, *, miss: np.ndarray | None = None, sdcmicro: bool = False) -> list[np.ndarray]:
    """MDAV's groups of the rows of `X` (n, p), in the order they are formed; each group lists
    its row positions in the order sdcMicro sums them. `miss` flags missing cells (default:
    NaN)."""
    X = np.asarray(X, dtype=np.float64)
    if miss is None:
        miss = np.isnan(X)
    return _Mdav(X, miss, k, sdcmicro).run()


def group_means(X: np.ndarray, miss: np.ndarray, groups: list[np.ndarray], sdcmicro: bool) -> np.ndarray:
    """Each record's group mean (sums in the group's order; missing where no value is observed).

    Every group but the last has k members, so their sums are one cumulative sum over a
    (groups, k, p) array; cumulative sums add in order, as the C++ loop does."""
    out = np.full(X.shape, np.nan)
    Z = np.where(miss, 0.0, X)
    obs = (~miss).astype(np.int64)
    full, last = groups[:-1], groups[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        if full:
            idx = np.stack(full)
            s = np.cumsum(Z[idx], axis=1)[:, -1, :]
            c = obs[idx].sum(axis=1)
            m = np.where(c > 0, s / np.maximum(c, 1), np.nan)
            out[idx] = m[:, None, :]
        s = np.cumsum(Z[last], axis=0)[-1]
        c = obs[last].sum(axis=0)
        # sdcMicro divides the last group's sums (the records left after the loop; there
        # always are some) by its size, observed values or not.
        div = np.full(X.shape[1], float(last.size)) if sdcmicro else np.maximum(c, 1)
        out[last] = np.where(c > 0, s / div, np.nan)
    return out


# --------------------------------------------------------------------------------------
# Individual ranking
# --------------------------------------------------------------------------------------
def _ranked_groups(m: int, k: int) -> np.ndarray:
    """Group of each sorted position: consecutive groups of k, the last one taking the rest."""
    g = np.arange(m) // k
    return np.minimum(g, max(m // k - 1, 0))


def _long_mean(v: np.ndarray, gid: np.ndarray, n_groups: int) -> np.ndarray:
    """Group means with sums in extended precision, as R's colMeans and mean."""
    s = np.zeros(n_groups, dtype=np.longdouble)
    np.add.at(s, gid, v.astype(np.longdouble))
    c = np.bincount(gid, minlength=n_groups)
    return (s / c).astype(np.float64)


def onedims(x: np.ndarray, k: int, sdcmicro: bool) -> tuple[np.ndarray, np.ndarray]:
    """Individual ranking of one variable: (new values, group id per record, -1 if none)."""
    n = x.size
    out = np.full(n, np.nan)
    gid = np.full(n, -1, dtype=np.int64)
    miss = np.isnan(x)
    if sdcmicro:
        order = np.argsort(np.where(miss, np.inf, x), kind="stable")
        order = np.concatenate([order[~miss[order]], order[miss[order]]])  # NA last, in data order
        g = _ranked_groups(n, k)
        gid[order] = g
        ng = int(g.max()) + 1 if n else 0
        vals = x[order]
        bad = np.bincount(g[np.isnan(vals)], minlength=ng) > 0
        means = _long_mean(np.where(np.isnan(vals), 0.0, vals), g, ng)
        means[bad] = np.nan
        out[order] = means[g]
        return out, gid
    obs = np.flatnonzero(~miss)
    order = obs[np.argsort(x[obs], kind="stable")]
    g = _ranked_groups(order.size, k)
    gid[order] = g
    ng = int(g.max()) + 1 if order.size else 0
    out[order] = _long_mean(x[order], g, ng)[g]
    return out, gid
