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
