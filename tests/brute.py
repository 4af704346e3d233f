"""Brute-force reference implementations, written from the definitions, record by record.

They share no code with :mod:`sdc` and are O(n^2) on purpose: slow, obvious, and
independent, so the vectorised implementation is checked against the rule as stated.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def _rows(df: pd.DataFrame, keys) -> list[tuple]:
    """Key values per record, with every kind of missing value as None."""
    out = []
    for row in df[list(keys)].itertuples(index=False, name=None):
        out.append(tuple(None if (v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))) else v
                         for v in row))
    return out


def frequencies(df: pd.DataFrame, keys, weights=None, alpha=1.0, missing="wildcard"):
    """(fk, Fk) per record under sdcMicro's wildcard rule or missing-as-category."""
    X = _rows(df, keys)
    n, K = len(X), len(keys)
    w = [1.0] * n if weights is None else [float(v) for v in df[weights]]
    fk, Fk = [0.0] * n, [0.0] * n

    def kind(r):
        nmiss = sum(v is None for v in r)
        return "C" if nmiss == 0 else ("A" if nmiss == K else "N")

    for i in range(n):
        if missing == "category":
            for j in range(n):
                if X[i] == X[j]:
                    fk[i] += 1
                    Fk[i] += w[j]
            continue
        ki = kind(X[i])
        if ki == "A":
            fk[i], Fk[i] = n, sum(w)
            continue
        for j in range(n):
            same = X[i] == X[j]
            compatible = all(a is None or b is None or a == b for a, b in zip(X[i], X[j]))
            if same:
                share = 1.0
            elif not compatible:
                share = 0.0
            elif K == 1:
                share = alpha  # i observed, j missing
            else:
                kj = kind(X[j])
                if ki == "C":
                    share = alpha if kj == "N" else 0.0  # complete patterns ignore all-missing ones
                else:
                    share = 1.0 if kj == "C" else alpha
            fk[i] += share
            Fk[i] += share * w[j]
    return np.array(fk), np.array(Fk)


def risk(fk, Fk, weighted: bool):
    """sdcMicro's measure_risk risk, one record at a time (approx; 1/fk unweighted)."""
    out = []
    for f, F in zip(fk, Fk):
        if not weighted:
            out.append(1.0 / f)
            continue
        p = f / F
        if f == F:
            r = 1.0 / f
        elif f > 2:
            r = p / (f - (1 - p))
        elif f == 2:
            r = p / (1 - p) - (p / (1 - p)) ** 2 * math.log(1 / p)
        elif f == 1:
            r = p / (1 - p) * math.log(1 / p)
        else:
            r = 0.0
        out.append(r)
    return np.array(out)


def exact_risk(f: float, F: float) -> float:
    """E[1/F | f] by summing the negative-binomial series directly (log-space terms).

    The number of unseen units j has mean f (1 - p) / p and a geometric tail of ratio
    (1 - p), so the sum runs to 4 f / p + 50 / p terms (tail below 1e-18).
    """
    p = f / F
    if p == 1:
        return 1.0 / f
    total = 0.0
    for j in range(int((4 * f + 50) / p) + 1000):
        logt = (math.lgamma(f + j) - math.lgamma(j + 1) - math.lgamma(f) + f * math.log(p)
                + j * math.log1p(-p) - math.log(f + j))
        t = math.exp(logt)
        total += t
        if j > (2 * f + 45) / p and t < 1e-18 * total:
            break
    return total


def threshold(risks, g: float) -> float:
    """sdcMicro's measure_threshold loop and its R post-processing, record by record."""
    r = sorted((float(x) for x in risks), reverse=True)
    n = len(r)
    er = g * n
    s = 0.0
    for x in r:
        s += x
    cur = r[0]
    if s < er:
        thr, safe, unsafe = cur, cur, cur
    else:
        thr = 0.0
        cnt = 0
        for x in r:
            if x != cur:
                if s + x * cnt < er:
                    thr = x
                    break
                cur = x
            cnt += 1
            s -= x
        safe, unsafe = thr, cur
    if unsafe == thr and safe == thr:
        return float("nan")
    return thr


# --------------------------------------------------------------------------------------
# Attribute disclosure
# --------------------------------------------------------------------------------------
def _missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def classes_of(df: pd.DataFrame, keys) -> list[list[int]]:
    """Positions of the records of each class (missing key == missing key), in first-appearance order."""
    groups: dict[tuple, list[int]] = {}
    for i, row in enumerate(_rows(df, keys)):
        groups.setdefault(row, []).append(i)
    return list(groups.values())


def recursive_l(counts: list[int], c: float) -> float:
    """Largest l with r_1 < c (r_l + ... + r_m), counts sorted decreasing; 1 if none."""
    r = sorted(counts, reverse=True)
    if not r:
        return float("nan")
    best = 1
    for l in range(2, len(r) + 1):
        if r[0] < c * sum(r[l - 1:]):
            best = l
    return float(best)


def l_diversity_correct(df: pd.DataFrame, keys, s: str, c: float = 2.0, missing_value=-999):
    """Per record (distinct, entropy, recursive) with missing sensitive values left out."""
    n = len(df)
    out = np.full((n, 3), np.nan)
    vals = list(df[s])
    for members in classes_of(df, keys):
        obs = [vals[i] for i in members if not _missing(vals[i]) and not (missing_value is not None and vals[i] == missing_value)]
        if not obs:
            continue
        counts: dict = {}
        for v in obs:
            counts[v] = counts.get(v, 0) + 1
        p = [k / len(obs) for k in counts.values()]
        row = (len(counts), math.exp(-sum(x * math.log(x) for x in p)), recursive_l(list(counts.values()), c))
        for i in members:
            out[i] = row
    return out


def closeness(df: pd.DataFrame, keys, s: str):
    """Per class (members, class distribution dict, file distribution dict, sorted values), missing left out."""
    vals = list(df[s])
    obs_all = [v for v in vals if not _missing(v)]
    q = {v: obs_all.count(v) / len(obs_all) for v in set(obs_all)}
    order = sorted(q)
    out = []
    for members in classes_of(df, keys):
        obs = [vals[i] for i in members if not _missing(vals[i])]
        p = {v: obs.count(v) / len(obs) for v in set(obs)} if obs else None
        out.append((members, p, q, order))
    return out


def emd_ordered(p: dict, q: dict, order: list) -> float:
    m = len(order)
    if m == 1:
        return 0.0
    cum, total = 0.0, 0.0
    for v in order[:-1]:
        cum += p.get(v, 0.0) - q[v]
        total += abs(cum)
    return total / (m - 1)


def tvd(p: dict, q: dict) -> float:
    return 0.5 * sum(abs(p.get(v, 0.0) - q[v]) for v in q)


def beta_basic(p: dict, q: dict) -> float:
    return max([(p[v] - q[v]) / q[v] for v in p if p[v] > q[v]], default=0.0)


def beta_enhanced(p: dict, q: dict) -> float:
    gains = {v: (p[v] - q[v]) / q[v] for v in p if p[v] > q[v]}
    if any(g > -math.log(q[v]) for v, g in gains.items()):
        return math.inf
    return max(gains.values(), default=0.0)


def delta(p: dict, q: dict, values: str = "all") -> float:
    """max |ln(p / q)| over the file's values ("all") or the class's ("present")."""
    if values == "present":
        return max(abs(math.log(p[v] / q[v])) for v in q if p.get(v, 0.0) > 0)
    if any(p.get(v, 0.0) == 0 for v in q):
        return math.inf
    return max(abs(math.log(p[v] / q[v])) for v in q)


# --------------------------------------------------------------------------------------
# SUDA, household risk, Poisson-binomial
# --------------------------------------------------------------------------------------
def msus(df: pd.DataFrame, keys) -> list[list[tuple[int, ...]]]:
    """For each record, its minimal sample uniques (tuples of key positions).

    A set S is an MSU of record i when i is observed on S, no other record equals i on S
    (a missing value equals nothing), and no proper subset of S has that property.
    """
    from itertools import combinations

    X = _rows(df, keys)
    n, K = len(X), len(keys)

    def unique(i: int, S: tuple[int, ...]) -> bool:
        if any(X[i][v] is None for v in S):
            return False
        for j in range(n):
            if j != i and all(X[j][v] is not None and X[j][v] == X[i][v] for v in S):
                return False
        return True

    out = []
    for i in range(n):
        found: list[tuple[int, ...]] = []
        for size in range(1, K + 1):
            for S in combinations(range(K), size):
                if unique(i, S) and not any(set(T) <= set(S) for T in found):
                    # minimal: every proper subset is non-unique (checked via the smaller MSUs found)
                    if all(not unique(i, T) for r in range(1, size) for T in combinations(S, r)):
                        found.append(S)
        out.append(found)
    return out


def suda_scores(df: pd.DataFrame, keys, original: bool = True):
    """SUDA scores and contribution shares from the brute-force MSUs (no dummy variables)."""
    M = len(keys)
    w = {k: (math.factorial(M - k) if original else (2 ** (M - k) - 1) / math.comb(M, k)) for k in range(1, M + 1)}
    found = msus(df, keys)
    score = np.array([sum(w[len(S)] for S in f) for f in found], dtype=float)
    contrib = np.zeros((len(df), M))
    for i, f in enumerate(found):
        for S in f:
            for v in S:
                contrib[i, v] += w[len(S)]
    with np.errstate(invalid="ignore"):
        share = np.where(score[:, None] > 0, contrib / np.where(score > 0, score, 1)[:, None], 0.0)
    return score, share


def household(risks, households):
    """1 - prod(1 - r) over each household, per record."""
    out = np.empty(len(risks))
    for h in set(households):
        members = [i for i, x in enumerate(households) if x == h]
        p = 1.0
        for i in members:
            p *= 1 - risks[i]
        for i in members:
            out[i] = 1 - p
    return out


def poisson_binomial_pmf(ps) -> np.ndarray:
    """pmf of a sum of independent Bernoulli(p) by dynamic programming."""
    pmf = np.array([1.0])
    for p in ps:
        pmf = np.concatenate([pmf * (1 - p), [0.0]]) + np.concatenate([[0.0], pmf * p])
    return pmf
