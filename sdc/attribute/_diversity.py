"""The per-class kernels of l-diversity (:mod:`sdc.attribute.ldiversity`): from the (class,
sensitive value) cells, each class's observed count, distinct, entropy and recursive
(c, l)-diversity, all classes at once (Machanavajjhala et al. 2007; sdcMicro's ``ldiversity``
in its mode), and the Grassberger entropy estimator ARX offers for entropy l-diversity.

Grassberger's estimator (Grassberger 1988, "Finite sample corrections to entropy and dimension
estimates", Phys. Lett. A 128, 369-373; Grassberger 2003, "Entropy estimates from insufficient
samplings", arXiv:physics/0307138, eq. 35): for a class of N records with value counts f_v,

    H_G = G(N) - (1/N) sum_v f_v G(f_v),
    G(n) = psi(n) + (1/2) (-1)^n (psi((n + 1)/2) - psi(n/2)),

psi the digamma function. G(2m) = -gamma - ln 2 + sum_{k=1..m} 2/(2k - 1) and G(2m + 1) = G(2m),
so G(1) = -gamma - ln 2 = -1.2703628454614782 and G(n) -> ln n. This is ARX's
``EntropyLDiversity.EntropyEstimator.GRASSBERGER`` (its table of G for n <= 100, the series
ln n + 1/(24 m^2) - 7/(960 m^4) + 31/(8064 m^6), m = n/2 for even n above): computed here the
same way, the sum exactly (``math.fsum``) up to 100, the series above. The Shannon estimator is
the same expression with G = ln.
"""

from __future__ import annotations

import math

import numpy as np

from sdc.core.classes import Cells, Classes

__all__ = ["_class_values", "_sum_by", "_recursive", "grassberger_g", "grassberger_entropy"]


def _class_values(cl: Cells, classes: Classes, miss_code: int, c: float, mode: str) -> dict[str, np.ndarray]:
    """Per class: observed count, distinct, entropy and recursive l-diversity, and exp of
    Grassberger's entropy estimate over the observed values (in sdcmicro mode a class without
    categories has recursive NaN here; see :func:`_assess_sensitive`)."""
    G = classes.n_classes
    is_na = cl.code == -1
    is_code = cl.code == miss_code
    obs = ~is_na & ~is_code
    n_obs = _sum_by(cl.cls[obs], cl.count[obs], G)
    n_na = _sum_by(cl.cls[is_na], cl.count[is_na], G)
    n_code = _sum_by(cl.cls[is_code], cl.count[is_code], G)
    distinct = np.bincount(cl.cls[obs], minlength=G).astype(np.float64)
    if mode == "sdcmicro":
        size = classes.sizes.astype(np.float64)
        p = cl.count[obs] / size[cl.cls[obs]]
        h = _sum_by(cl.cls[obs], p * np.log(p), G)
        # each NA is a category of its own (count 1); the missing code is one pooled category
        with np.errstate(divide="ignore", invalid="ignore"):
            h += np.where(n_na > 0, n_na * (1.0 / size) * np.log(1.0 / size), 0.0)
            count = distinct + n_na
            pooled = (n_code > 0) & (count > 0)
            h += np.where(pooled, (n_code / size) * np.log(n_code / size), 0.0)
        distinct = count + pooled
        entropy = np.exp(-h)
        cat_cls = np.concatenate([cl.cls[obs], np.repeat(np.arange(G), n_na.astype(np.int64))])
        cat_cnt = np.concatenate([cl.count[obs], np.ones(int(n_na.sum()), dtype=np.int64)])
        recursive = _recursive(cat_cls, cat_cnt, G, c, np.float32)
        return {"observed": n_obs + n_na, "distinct": distinct, "entropy": entropy, "recursive": recursive,
                "grassberger": np.exp(grassberger_entropy(cl.cls[obs], cl.count[obs], G))}
    p = cl.count[obs] / n_obs[cl.cls[obs]]
    h = _sum_by(cl.cls[obs], p * np.log(p), G)
    none = n_obs == 0
    entropy = np.where(none, np.nan, np.exp(-h))
    recursive = _recursive(cl.cls[obs], cl.count[obs], G, c, np.float64)
    return {"observed": n_obs, "distinct": np.where(none, np.nan, distinct), "entropy": entropy,
            "recursive": recursive, "grassberger": np.exp(grassberger_entropy(cl.cls[obs], cl.count[obs], G))}


def _sum_by(groups: np.ndarray, weights: np.ndarray, n: int) -> np.ndarray:
    """Sums of `weights` per group as float64 (bincount gives int64 zeros for empty input)."""
    return np.bincount(groups, weights=weights, minlength=n).astype(np.float64, copy=False)


def _recursive(cls: np.ndarray, count: np.ndarray, G: int, c: float, dtype: type) -> np.ndarray:
    """Recursive (c, l)-diversity per class from its category counts; NaN without categories.

    Follows sdcMicro's loop: S = c * (r_2 + ... + r_m); while S > r_1 at position j, count
    one more and subtract c * r_j. In float32 (`dtype`) it reproduces sdcMicro's rounding;
    positions are processed for all classes at once.
    """
    out = np.full(G, np.nan)
    if cls.size == 0:
        return out
    # By class, then by count from the largest (ties in any order: equal counts add the same).
    top = int(count.max()) + 1
    order = np.argsort(cls.astype(np.int64) * top + (top - 1 - count), kind="stable")
    cc, r = cls[order], count[order]
    starts = np.searchsorted(cc, np.arange(G + 1))
    m = np.diff(starts)
    out[m == 1] = 1.0
    mantissa = 24 if dtype is np.float32 else 53
    if float(c).is_integer() and 0 < c and c * float(r.sum()) < 2.0**mantissa:
        # With a whole c and small totals every step of the loop below is exact integer
        # arithmetic, so its result is 1 + the number of positions j >= 2 where
        # c * (r_j + ... + r_m) > r_1 (these form a prefix): counted without the loop.
        suffix = np.cumsum(r[::-1])[::-1]          # r_i + ... + r_last over all cells
        end = starts[1:][cc]                          # each cell's class end
        after = np.where(end < r.size, suffix[np.minimum(end, r.size - 1)], 0)
        s_j = suffix - after                         # suffix sum within the class
        head = starts[:-1][cc]
        hit = (np.arange(r.size) > head) & (c * s_j > r[head])
        multi = m > 1
        out[multi] = 1.0 + np.bincount(cc[hit], minlength=G)[multi]
        return out
    multi = np.flatnonzero(m > 1)
    if multi.size == 0:
        return out
    multi = multi[np.argsort(-m[multi], kind="stable")]  # longest first: active classes are a prefix
    mm, st = m[multi], starts[multi]
    r0 = r[st].astype(dtype)
    cd = dtype(c)
    total = np.zeros(multi.size, dtype=dtype)
    for j in range(1, int(mm[0])):
        k = int(np.searchsorted(-mm, -j, side="left"))  # classes with m > j
        total[:k] += r[st[:k] + j].astype(dtype)
    total *= cd
    rank = np.ones(multi.size)
    alive = np.ones(multi.size, dtype=bool)
    for j in range(1, int(mm[0])):
        k = int(np.searchsorted(-mm, -j, side="left"))
        go = alive[:k] & (total[:k] > r0[:k])
        if not go.any():
            break
        idx = np.flatnonzero(go)
        rank[idx] += 1
        total[idx] -= cd * r[st[idx] + j].astype(dtype)
        alive[:k] = go
        alive[k:] = False
    out[multi] = rank
    return out


_EULER = 0.5772156649015329
#: G(2m) for m = 0 .. 50 (G(0) = G(1), as ARX indexes its table); exact sums.
_G_EVEN = np.array([-_EULER - math.log(2.0) + math.fsum(2.0 / (2 * k - 1) for k in range(1, m + 1))
                    if m else -_EULER - math.log(2.0) for m in range(51)])


def grassberger_g(n: np.ndarray) -> np.ndarray:
    """Grassberger's G(n) for counts n >= 1 (see the module notes): G(2m + 1) = G(2m)."""
    n = np.asarray(n, dtype=np.int64)
    even = n - n % 2
    out = np.empty(n.shape, dtype=np.float64)
    small = even <= 100
    out[small] = _G_EVEN[even[small] // 2]
    big = even[~small].astype(np.float64)
    m = 1.0 / ((big / 2.0) * (big / 2.0))
    out[~small] = np.log(big) + m * (1.0 / 24 - m * (7.0 / 960 - m * (31.0 / 8064)))
    return out


def grassberger_entropy(groups: np.ndarray, counts: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group, Grassberger's entropy estimate H_G = G(N) - (1/N) sum f G(f) of its value
    counts (NaN for a group without values)."""
    counts = np.asarray(counts, dtype=np.int64)
    total = np.bincount(groups, weights=counts, minlength=n_groups)
    fg = np.bincount(groups, weights=counts * grassberger_g(counts), minlength=n_groups)
    out = np.full(n_groups, np.nan)
    has = total > 0
    out[has] = grassberger_g(total[has].astype(np.int64)) - fg[has] / total[has]
    return out
