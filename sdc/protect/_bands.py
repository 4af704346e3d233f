"""The bands of numbers that :func:`sdc.global_recode` cuts: R's ``cut`` labels and band
codes, sdcMicro's ``globalRecode`` breaks, width bands, logarithmic tiers, rounding, and the
banded column (an ordered categorical of labels, or numeric lower bounds / midpoints).

Bands follow R's ``cut``, which ``globalRecode`` calls: with ``closed="right"`` (sdcMicro's
default) a band is ``(a, b]``, with ``closed="left"`` it is ``[a, b)``; ``include_lowest``
closes the outer end of the first (right-closed) or last (left-closed) band; labels are
written ``(a,b]`` with the edges printed to 8 significant digits (more when two labels would
otherwise coincide), as ``cut(..., dig.lab = 8)`` writes them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc.protect._common import restore_numeric

__all__ = ["cut_labels", "sdcmicro_breaks", "MAX_BINS", "BIN_METHODS", "LABELS"]

LABELS = ("interval", "lower", "midpoint")
BIN_METHODS = ("equidistant", "logEqui", "equalAmount")

# More bins than this is a mistake (the bin edges alone would not fit in memory well before 2**40).
MAX_BINS = 1_000_000


def _fmt_r(x: float, digits: int) -> str:
    """A number as R's ``formatC(x, digits = digits, width = 1)`` writes it (C's ``%.<digits>g``)."""
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    return f"{0.0 + x:.{digits}g}"


def cut_labels(edges: Sequence[float], *, right: bool = True, include_lowest: bool = False) -> list[str]:
    """Interval labels exactly as R's ``cut(x, edges, right=, include.lowest=, dig.lab = 8)`` makes them.

    Digits grow from 8 to 12 until neighbouring edges print differently; failing that, the
    labels are ``Range_1``, ``Range_2``, ... (as in R).
    """
    e = [float(x) for x in edges]
    nb = len(e)
    for dig in range(8, 13):
        ch = [_fmt_r(x, dig) for x in e]
        ok = all(a != b for a, b in zip(ch[:-1], ch[1:]))
        if ok:
            break
    if not ok:
        return [f"Range_{i}" for i in range(1, nb)]
    left, rightc = ("(", "]") if right else ("[", ")")
    labels = [f"{left}{a},{b}{rightc}" for a, b in zip(ch[:-1], ch[1:])]
    if include_lowest:
        if right:
            labels[0] = "[" + labels[0][1:]
        else:
            labels[-1] = labels[-1][:-1] + "]"
    return labels


def _r_seq(start: float, stop: float, n: int) -> np.ndarray:
    """R's ``seq(start, stop, length.out = n)`` for n >= 2 (``from + i * by``, the last value ``to``)."""
    if n == 2:
        return np.array([start, stop])
    n1 = n - 1
    mid = start + np.arange(1, n1, dtype=np.float64) * ((stop - start) / n1)
    return np.concatenate([[start], mid, [stop]])


def _r_quantile7(x: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """R's ``quantile(x, probs, type = 7)``: ``(1 - h) x[lo] + h x[hi]`` on the sorted values."""
    xs = np.sort(x)
    n = xs.size
    index = 1 + max(n - 1, 0) * probs
    lo = np.floor(index).astype(np.int64)
    hi = np.ceil(index).astype(np.int64)
    q = xs[lo - 1].copy()
    xhi = xs[hi - 1]
    sel = (index > lo) & (xhi != q)
    h = (index - lo)[sel]
    q[sel] = (1 - h) * q[sel] + h * xhi[sel]
    return q


def sdcmicro_breaks(values: np.ndarray, bins: int, method: str = "equidistant") -> tuple[np.ndarray, bool]:
    """The edges sdcMicro's ``globalRecode(x, breaks = bins, method = method)`` cuts at, and
    whether ``cut`` is called with ``include.lowest = TRUE`` (every ``bins > 1``).

    * ``equidistant``: ``seq(min - 1, max + 1, length.out = bins + 1)``, rounded to whole
      numbers unless rounding makes two edges equal;
    * ``logEqui``: the same on ``log(x)``, exponentiated (positive values only);
    * ``equalAmount``: sample quantiles (R's type 7) at ``0, 1/bins, ..., 1``. Where two
      coincide sdcMicro jitters them at random; here the duplicates are dropped (fewer bands,
      reproducible).
    """
    x = values[~np.isnan(values)]
    if x.size == 0:
        raise ValueError("`bins` needs at least one non-missing value to place the bands.")
    lo, hi = float(x.min()), float(x.max())
    if bins == 1:
        return np.array([lo - 1, hi + 1]), False
    if method == "equidistant":
        b1 = _r_seq(lo - 1, hi + 1, bins + 1)
    elif method == "logEqui":
        if lo <= 0:
            raise ValueError(f"`bin_method` 'logEqui' needs positive values; got the value {lo:g}.")
        lx = np.log(x)
        b1 = np.exp(_r_seq(float(lx.min()) - 1, float(lx.max()) + 1, bins + 1))
    else:
        b1 = _r_quantile7(x, np.concatenate([[0.0], np.arange(1, bins + 1) / bins]))
        return np.unique(b1), True
    rb = np.round(b1)
    if np.unique(rb).size == rb.size:
        return rb, True
    return b1, True


#: Up to this many edges a band is found by one comparison per edge (branch-free passes over
#: the values, about 0.15 ns a value and edge); beyond, by binary search (``searchsorted``,
#: about 17 ns a value on unsorted data whatever the edges).
_COMPARE_EDGES = 64


def _cut_codes(x: np.ndarray, edges: np.ndarray, right: bool, include_lowest: bool) -> np.ndarray:
    """Band of each value as R's ``.bincode``: -1 for missing or outside every band.

    The band is the number of edges below the value, less one: ``x > e`` counted over the
    edges for right-closed bands (``x >= e`` for left-closed ones), which is
    ``searchsorted(edges, x, side="left" | "right") - 1``. ``include_lowest`` counts the
    first edge with ``>=`` (right-closed) or the last with ``>`` (left-closed); a missing
    value passes no comparison. Codes are int8/int16 when they fit (as a categorical stores them).
    """
    nb = edges.size
    if nb > _COMPARE_EDGES:
        if right:
            codes = np.searchsorted(edges, x, side="left") - 1
            if include_lowest:
                codes = np.where(x == edges[0], 0, codes)
        else:
            codes = np.searchsorted(edges, x, side="right") - 1
            if include_lowest:
                codes = np.where(x == edges[-1], nb - 2, codes)
        bad = np.isnan(x) | (codes < 0) | (codes > nb - 2)
        return np.where(bad, -1, codes).astype(np.int64)
    codes = np.full(x.shape[0], -1, dtype=np.int8 if nb <= 127 else np.int16)
    hit = np.empty(x.shape[0], dtype=bool)
    add = hit.view(np.int8) if codes.dtype == np.int8 else hit  # int8 + int8: no cast per pass
    for i in range(nb - 1):
        lowest = include_lowest and right and i == 0
        (np.greater_equal if (not right or lowest) else np.greater)(x, edges[i], out=hit)
        np.add(codes, add, out=codes, casting="unsafe")
    # Beyond the last edge: outside every band.
    (np.greater if (right or include_lowest) else np.greater_equal)(x, edges[-1], out=hit)
    np.putmask(codes, hit, -1)
    return codes


def _decimals(*xs: float) -> int | None:
    """Decimal places of the numbers as written (``0.1`` -> 1); None when one needs an exponent."""
    d = 0
    for x in xs:
        r = repr(float(x))
        if "e" in r or "inf" in r or "nan" in r:
            return None
        frac = r.split(".")[1] if "." in r else ""
        d = max(d, 0 if frac == "0" else len(frac))
    return d


def _snap(v: np.ndarray | float, d: int | None) -> Any:
    # Multiples of a decimal width land on the decimal number: 3 * 0.1 -> 0.3, not 0.30000000000000004.
    return v if d is None else np.round(v, d)


def _width_bands(x: np.ndarray, width: float, origin: float, right: bool) -> tuple[np.ndarray, np.ndarray]:
    """(band number per value, -1 for missing; contiguous edges from the lowest band used)."""
    d = _decimals(width, origin)

    def edge(kk: np.ndarray) -> np.ndarray:
        return _snap(origin + kk * width, d)

    def band(xv: np.ndarray) -> np.ndarray:
        t = (xv - origin) / width
        k = (np.ceil(t) - 1 if right else np.floor(t)).astype(np.int64)
        # One correction step each way: the division may land a hair off a band edge.
        if right:
            k = np.where(xv <= edge(k), k - 1, k)
            return np.where(xv > edge(k + 1), k + 1, k)
        k = np.where(xv < edge(k), k - 1, k)
        return np.where(xv >= edge(k + 1), k + 1, k)

    n_ok = x.shape[0] - int(np.count_nonzero(np.isnan(x)))
    if n_ok == 0:
        return np.full(x.size, -1, dtype=np.int64), np.array([origin, _snap(origin + width, d)])
    # Bands grow with the value: the lowest and highest bands are those of the extremes.
    kmin, kmax = (int(k) for k in band(np.array([np.nanmin(x), np.nanmax(x)])))
    edges = edge(np.arange(kmin, kmax + 2, dtype=np.int64)).astype(np.float64)
    if edges.size <= _COMPARE_EDGES:
        # Every value lies within the edges: its band is the number of edges below it, less one.
        return _cut_codes(x, edges, right, False), edges
    ok = ~np.isnan(x)
    codes = np.full(x.size, -1, dtype=np.int64)
    codes[ok] = band(x[ok]) - kmin
    return codes, edges


def _log_bands(x: np.ndarray, base: float, right: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """Tiers ``[b^k, b^(k+1))`` (or ``(b^k, b^(k+1)]``); zeros get a level of their own (code 0,
    then tiers from 1). Returns codes, tier edges, whether a zero level exists."""
    ok = ~np.isnan(x)
    xv = x[ok]
    if (xv < 0).any():
        raise ValueError(f"`log_base` tiers need values >= 0; got {float(xv[xv < 0][0]):g}.")
    pos = xv > 0
    has_zero = bool((~pos).any())
    xp = xv[pos]
    codes = np.full(x.size, -1, dtype=np.int64)
    if xp.size == 0:
        sub = np.zeros(xv.size, dtype=np.int64)
        codes[ok] = sub
        return codes, np.array([1.0, base]), has_zero
    t = np.log(xp) / math.log(base)
    k = (np.ceil(t) - 1 if right else np.floor(t)).astype(np.int64)

    def edge(kk: np.ndarray) -> np.ndarray:
        return np.power(float(base), kk.astype(np.float64))

    if right:
        k = np.where(xp <= edge(k), k - 1, k)
        k = np.where(xp > edge(k + 1), k + 1, k)
    else:
        k = np.where(xp < edge(k), k - 1, k)
        k = np.where(xp >= edge(k + 1), k + 1, k)
    kmin, kmax = int(k.min()), int(k.max())
    sub = np.zeros(xv.size, dtype=np.int64)
    sub[pos] = k - kmin + (1 if has_zero else 0)
    codes[ok] = sub
    return codes, edge(np.arange(kmin, kmax + 2, dtype=np.int64)), has_zero


def _round_to(x: np.ndarray, base: float) -> np.ndarray:
    """Nearest multiple of `base`, halves away from zero. ``|x| / base`` is rounded to 9 decimals
    first, so a decimal half (0.15 to base 0.1: 1.4999999999999998 in binary) counts as a half."""
    d = _decimals(base)
    t = np.round(np.abs(x) / base, 9)
    return _snap(np.sign(x) * np.floor(t + 0.5) * base, d) + 0.0


def _labelled(codes: np.ndarray, lo: np.ndarray, hi: np.ndarray, interval_labels: list[str],
              labels: object, like: pd.Series, *, has_zero: bool = False) -> pd.Series:
    """The banded column: categorical of labels, or numeric lower bounds / midpoints."""
    if isinstance(labels, str) and labels == "interval":
        cats = (["0"] if has_zero else []) + interval_labels
        return pd.Series(pd.Categorical.from_codes(codes, categories=cats, ordered=True), index=like.index,
                         name=like.name)
    if not isinstance(labels, str):
        given = list(labels)
        if given and all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
                         for v in given):
            # Numeric labels stay numeric (issue 26: they made a categorical column, and IL1
            # switched to its categorical formula without a word); text labels ("1") are categories.
            return restore_numeric(np.array([float(v) for v in given] + [np.nan])[codes], like)
        return pd.Series(pd.Categorical.from_codes(codes, categories=given, ordered=True), index=like.index,
                         name=like.name)
    zero = [0.0] if has_zero else []
    if labels == "lower":
        table = np.array(zero + list(lo) + [np.nan])
    else:
        if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
            raise ValueError("`labels` 'midpoint' needs finite band edges; an edge is infinite.")
        table = np.array(zero + list((lo + hi) / 2) + [np.nan])
    return restore_numeric(table[codes], like)
