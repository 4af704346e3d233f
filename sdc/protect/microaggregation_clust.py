"""sdcMicro's microaggregation methods that cluster the records first (``R/microaggregation.R``,
Templ 2008, "Statistical Disclosure Control for Microdata Using the R-Package sdcMicro",
Transactions on Data Privacy 1(2); reimplemented from the description below);
:func:`sdc.microaggregation` calls them.

1. The records are split into `nc` clusters by `clustermethod` on the variables after `transf`
   (``"none"``: as they are; ``"log"``: standardised logarithms; ``"boxcox"``: standardised
   Box-Cox transforms, lambda by maximum likelihood per variable).
2. Within each cluster (clusters in their order 1 .. nc) the records are sorted:

   * ``clustpca``: by their first principal-component score (as ``pca``, on the cluster's
     standardised variables), ``clustmcdpca``: by an MCD-robust one (as ``mcdpca``),
     ``clustpppca``: by a projection-pursuit one (as ``pppca``); a cluster with fewer records
     than variables is sorted by `varsort` instead (ties in data order);
   * ``influence``: by the variable on which the cluster's centre is largest (the first
     among equal ones).

3. The clusters' sorted records, one cluster after the other, are cut into consecutive groups
   of k, the last group taking the remainder (as ``single``); a group can span two clusters.

Clustering methods (Kaufman and Rousseeuw 1990, "Finding Groups in Data", ch. 2-3; Euclidean
distances):

``pam``
    Partitioning around medoids: BUILD (the record of least total distance, then, nc - 1 times,
    the record that most lowers the sum of distances to the nearest medoid; the last one among
    equal gains), then SWAP (the medoid/non-medoid exchange that lowers that sum most, the first
    among equal ones, while it lowers it by more than 16 eps times the sum). Clusters numbered
    by their first record (the cluster of record 1 is 1), as ``cluster::pam``.
``clara``
    Clustering LARge Applications (Kaufman and Rousseeuw 1990, ch. 3): PAM on samples of
    40 + 2 nc records, the whole file when n <= 40 + 2 nc, else five samples drawn with the
    book's portable generator (period 2^16, from 0, as cluster::clara; each sample after the
    first starts from the best medoids so far; a sample of more than half the file is drawn as
    the records it leaves out); the medoids of least total distance over all records are kept
    (a later sample only if strictly better). Its SWAP takes cluster::clara's gain for a record
    nearest to the leaving medoid: d(h, j) - D_j (not min(d(h, j), E_j) - D_j), any negative
    total gain improving. A record joins its nearest medoid (the first among equal distances);
    clusters numbered by their first record. Deterministic, as cluster::clara's default.
``kmeans``
    Lloyd's iterations (at most 100) from nc distinct records drawn by numpy (seed 0); R's
    ``kmeans`` runs Hartigan-Wong from R's generator, not reproduced.
``cmeans``
    Fuzzy c-means (Bezdek 1981; m = 2, at most 100 iterations, starting centres nc records drawn
    by numpy, seed 0); each record joins the cluster of its largest membership.

sdcMicro computes `transf` but clusters the untransformed variables (its ``clust`` passes ``x``
to the clustering), so sdcMicro's result is sdc's with ``transf="none"`` for every `transf`.
"""

from __future__ import annotations

import bisect

import numpy as np

from sdc.protect.microaggregation_pca import pc_scores
from sdc.protect.microaggregation_sorted import groups_of_order

__all__ = ["CLUST_METHODS", "CLUSTER_METHODS", "TRANSFORMS", "CLUSTER_SEED", "PAM_MAX_RECORDS", "cluster_records",
           "pam_medoids", "clust_groups", "transformed"]

CLUST_METHODS = ("clustpca", "clustmcdpca", "clustpppca", "influence")
CLUSTER_METHODS = ("clara", "pam", "kmeans", "cmeans")
TRANSFORMS = ("none", "log", "boxcox")
CLUSTER_SEED = 0  # the fixed seed of the random steps (kmeans' and cmeans' starts)
_SORT_BY = {"clustpca": "pca", "clustmcdpca": "mcdpca", "clustpppca": "pppca"}
_ITER = 100
#: The most records (of a stratum) ``pam`` clusters: it holds every pair's distance (n^2 numbers,
#: several copies) and its SWAP takes about a minute at 4,000 records; ``clara`` runs PAM on samples.
PAM_MAX_RECORDS = 5000


def transformed(X: np.ndarray, transf: str) -> np.ndarray:
    """The variables as clustered: unchanged, standardised logs or standardised Box-Cox transforms."""
    from sdc.protect.microaggregation_pca import standardised

    if transf == "none":
        return X
    bad = ~(X > 0)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"microaggregation transf={transf!r} needs positive values; got {X[i, j]!r} (record {i}, "
                         f"variable {j + 1}).")
    if transf == "log":
        return standardised(np.log(X))
    from scipy import stats

    cols = [X[:, j] if np.ptp(X[:, j]) == 0 else stats.boxcox(X[:, j])[0] for j in range(X.shape[1])]
    return standardised(np.column_stack(cols))


_SWAP_CELLS = 4_000_000  # medoids x records^2 of one vectorised SWAP step (32 MB of doubles)


def _squared(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    if A.shape[1] >= 8:  # np.sum's pairwise order from 8 terms
        return ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    d2 = (A[:, None, 0] - B[None, :, 0]) ** 2  # column by column: np.sum(axis=2)'s order below 8 terms
    for j in range(1, A.shape[1]):
        d2 += (A[:, None, j] - B[None, :, j]) ** 2
    return d2


def _distances(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    return np.sqrt(_squared(A, B))


def _build(D: np.ndarray, nc: int) -> np.ndarray:
    """BUILD: a boolean medoid mask (the last record among equal gains)."""
    n = D.shape[0]
    s = D.max() * 1.1 + 1.0
    rep = np.zeros(n, dtype=bool)
    dmin = np.full(n, s)
    for _ in range(nc):
        gain = np.maximum(dmin[None, :] - D, 0.0).sum(axis=1)
        gain[rep] = -np.inf
        i = n - 1 - int(np.argmax(gain[::-1]))
        rep[i] = True
        dmin = np.minimum(dmin, D[i])
    return rep


def _swap_gains(D: np.ndarray, rep: np.ndarray, pam_like: bool) -> np.ndarray:
    """T[h, i]: the change of the sum of distances when medoid i is replaced by record h."""
    med = np.flatnonzero(rep)
    Dm = D[med]  # (medoids, n)
    srt = np.sort(Dm, axis=0)
    da = srt[0]
    db = srt[1] if med.size > 1 else np.full(D.shape[0], D.max() * 1.1 + 1.0)
    near = Dm == da[None, :]  # (medoids, n): j nearest to medoid c (or as near)
    other = np.where(D < da[None, :], D - da[None, :], 0.0)  # (h, j), whatever the medoid
    if med.size * D.size > _SWAP_CELLS:  # one medoid at a time (clustermethod pam on a large file)
        T = np.empty((D.shape[0], med.size))
        for c in range(med.size):
            small = np.minimum(db[None, :], D) if pam_like else np.where((db > Dm[c])[None, :], D, db[None, :])
            T[:, c] = np.where(near[c][None, :], small - da[None, :], other).sum(axis=1)
        T[rep] = np.inf
        return T
    if pam_like:
        small = np.minimum(db[None, :], D)[None, :, :]
    else:
        small = np.where((db[None, :] > Dm)[:, None, :], D[None, :, :], db[None, None, :])
    t = np.where(near[:, None, :], small - da[None, None, :], other[None, :, :])  # (medoids, h, j)
    T = np.ascontiguousarray(t.sum(axis=2).T)  # each row summed over j, as one medoid at a time
    T[rep] = np.inf
    return T


def pam_medoids(D: np.ndarray, nc: int, *, pam_like: bool = True) -> np.ndarray:
    """The medoids (record positions, increasing) of PAM on the distance matrix `D` (see the module
    notes); ``pam_like=False``: cluster::clara's variant of SWAP."""
    rep = _build(D, nc)
    if nc == 1:
        return np.flatnonzero(rep)
    for _ in range(10 * D.shape[0] + 100):
        sky = float(np.min(D[rep], axis=0).sum())
        T = _swap_gains(D, rep, pam_like)
        med = np.flatnonzero(rep)
        # the first minimum with h the outer loop and i the inner one (row-major argmin)
        flat = int(np.argmin(T))
        h, c = divmod(flat, med.size)
        if not (T[h, c] < (-16 * np.finfo(float).eps * abs(sky) if pam_like else 0.0)):
            break
        rep[h], rep[med[c]] = True, False
    return np.flatnonzero(rep)


def _nearest(X: np.ndarray, centres: np.ndarray) -> np.ndarray:
    return np.argmin(_distances(X, centres), axis=1)  # the first among equal distances


def _pam(Y: np.ndarray, nc: int) -> tuple[np.ndarray, np.ndarray]:
    D = _distances(Y, Y)
    med = pam_medoids(D, nc, pam_like=True)
    owner = med[np.argmin(D[med], axis=0)]  # the medoid of each record (its own for a medoid)
    owner[med] = med
    return _by_first_record(owner, med), Y[_first_order(owner, med)]


def _first_order(owner: np.ndarray, med: np.ndarray) -> np.ndarray:
    """The medoids in the data order of their clusters' first records."""
    first = [int(np.flatnonzero(owner == m)[0]) for m in med]
    return med[np.argsort(first)]


def _by_first_record(owner: np.ndarray, med: np.ndarray) -> np.ndarray:
    """Cluster 0 .. nc - 1 of each record, numbered by their first record (as cluster::pam and clara)."""
    lookup = np.full(owner.size, -1, dtype=np.int64)
    lookup[_first_order(owner, med)] = np.arange(med.size)
    return lookup[owner]


class _Portable:
    """Kaufman and Rousseeuw's portable generator (1990, ch. 3; period 2^16), as cluster::clara
    draws its samples: u <- (5761 u + 999) mod 65536, a record 1 + floor(n u / 65536)."""

    def __init__(self) -> None:
        self.u = 0

    def record(self, n: int) -> int:
        self.u = (self.u * 5761 + 999) % 65536
        return min(1 + int(n * (self.u / 65536.0)), n)


def _clara_sample(n: int, size: int, gen: _Portable, best: list[int] | None) -> np.ndarray:
    """One clara sample (record positions, increasing): `size` distinct records drawn one by one,
    after the first sample starting from the best medoids so far (1-based `best`); when the sample
    is more than half the file, the records left out are drawn instead (never a best medoid)."""
    large = n < 2 * size
    m = n - size if large else size
    if best is not None and not large:
        sel = sorted(best)
    else:
        r = gen.record(n)
        while best is not None and r in best:
            r = gen.record(n)
        sel = [r]
    while len(sel) < m:  # at most `size` accepted draws (the sample, not the file)
        r = gen.record(n)
        if (best is not None and large and r in best) or r in sel:
            continue
        bisect.insort(sel, r)
    picked = np.asarray(sel, dtype=np.int64) - 1
    return np.setdiff1d(np.arange(n), picked) if large else picked


def _clara(Y: np.ndarray, nc: int) -> tuple[np.ndarray, np.ndarray]:
    n = Y.shape[0]
    size = min(n, 40 + 2 * nc)
    gen = _Portable()
    best: np.ndarray | None = None
    best_cost = np.inf
    for _ in range(1 if size == n else 5):
        sample = np.arange(n) if size == n else _clara_sample(
            n, size, gen, None if best is None else [int(b) + 1 for b in best])
        med = sample[pam_medoids(_distances(Y[sample], Y[sample]), nc, pam_like=False)]
        cost = float(np.sqrt(np.min(_squared(Y, Y[med]), axis=1)).sum())  # sqrt is monotone: the same minima
        if cost < best_cost:  # a later sample only if strictly better
            best, best_cost = med, cost
    med = np.sort(best)  # type: ignore[arg-type]
    owner = med[_nearest(Y, Y[med])]
    owner[med] = med
    return _by_first_record(owner, med), Y[_first_order(owner, med)]


def _kmeans(Y: np.ndarray, nc: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    uniq = np.unique(Y, axis=0)
    if uniq.shape[0] < nc:
        raise ValueError(f"microaggregation `nc` = {nc} is more than the {uniq.shape[0]} distinct records: kmeans "
                         "needs as many distinct records as clusters.")
    centres = uniq[rng.choice(uniq.shape[0], nc, replace=False)]
    label = _nearest(Y, centres)
    for _ in range(_ITER):
        sums = np.zeros_like(centres)
        np.add.at(sums, label, Y)
        cnt = np.bincount(label, minlength=nc)
        centres = np.where(cnt[:, None] > 0, sums / np.maximum(cnt, 1)[:, None], centres)
        new = _nearest(Y, centres)
        if np.array_equal(new, label):
            break
        label = new
    return label, centres


def _cmeans(Y: np.ndarray, nc: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    centres = Y[rng.choice(Y.shape[0], nc, replace=False)]
    for _ in range(_ITER):
        d2 = np.maximum(_distances(Y, centres) ** 2, 1e-300)
        u = 1.0 / (d2 * (1.0 / d2).sum(axis=1, keepdims=True))  # memberships, m = 2
        new = (u.T ** 2 @ Y) / (u.T ** 2).sum(axis=1, keepdims=True)
        done = np.allclose(new, centres, rtol=1e-8, atol=1e-10)
        centres = new
        if done:
            break
    return np.argmax(u, axis=1), centres


def cluster_records(X: np.ndarray, nc: int, clustermethod: str, transf: str,
                    seed: int = CLUSTER_SEED) -> tuple[np.ndarray, np.ndarray]:
    """(cluster 0 .. nc - 1 of each record, the clusters' centres: medoids or means) of the rows
    of `X` after `transf` (see the module notes)."""
    n = X.shape[0]
    if nc >= n:
        raise ValueError(f"microaggregation `nc` = {nc} must be less than the {n} records it clusters.")
    if clustermethod == "pam" and n > PAM_MAX_RECORDS:
        raise ValueError(f"microaggregation clustermethod='pam' clusters at most {PAM_MAX_RECORDS:,} records (it "
                         f"holds every pair's distance); got {n:,}: use clustermethod='clara' (PAM on samples).")
    Y = transformed(X, transf)
    rng = np.random.default_rng(seed)
    if clustermethod == "pam":
        return _pam(Y, nc)
    if clustermethod == "clara":
        return _clara(Y, nc)
    if clustermethod == "kmeans":
        return _kmeans(Y, nc, rng)
    return _cmeans(Y, nc, rng)


def _cluster_order(X: np.ndarray, rows: np.ndarray, method: str, centre: np.ndarray, sort_col: int,
                   seed: int) -> np.ndarray:
    """The records `rows` of one cluster in the order the method sorts them."""
    Xc = X[rows]
    if method == "influence":
        j = int(np.argmax(centre))
        return rows[np.argsort(Xc[:, j], kind="stable")]
    if rows.size < X.shape[1]:
        return rows[np.argsort(Xc[:, sort_col], kind="stable")]
    return rows[np.argsort(pc_scores(Xc, _SORT_BY[method], seed=seed), kind="stable")]


def clust_groups(X: np.ndarray, k: int, method: str, *, nc: int, clustermethod: str, transf: str,
                 sort_col: int = 0, seed: int = CLUSTER_SEED) -> np.ndarray:
    """Group id of each record of `X` by a clustering method (see the module notes)."""
    label, centres = cluster_records(X, nc, clustermethod, transf, seed)
    parts = [_cluster_order(X, np.flatnonzero(label == c), method, centres[c], sort_col, seed)
             for c in range(centres.shape[0]) if (label == c).any()]
    return groups_of_order(np.concatenate(parts), k)
