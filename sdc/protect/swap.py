"""Rank swapping (sdcMicro's ``rankSwap``; Moore 1996, *Controlled data-swapping techniques for
masking public use microdata*, US Census Bureau RR 96-04).

For each variable on its own, as sdcMicro's C++ (the IHSN code) does it:

1. the non-missing values are ranked from the largest down;
2. the ``top_percent`` largest values are replaced by their mean, and so are the
   ``bottom_percent`` smallest (group sizes ``int(n * top/100)`` and ``floor(n * bottom/100)``
   in single precision, as the C++ computes them); these records are not swapped;
3. the m remaining values, in rank order ``j = 0 .. m-1``: a value not yet swapped is swapped
   with one chosen uniformly among the values not yet swapped with rank in
   ``j+1 .. r_j - 1``, ``r_j = min(m, int(j + m P))`` -- so two swapped values differ in rank
   by less than ``m P``. Without a partner the value stays.

P is the fraction ``p / 100`` when ``p`` (percent) is given; otherwise it is derived as
sdcMicro does, from the middle values' mean ``A``, population variance ``V`` (single
precision) and the range ``D = |bottom edge - top edge|`` (the smallest value of the top group
and the largest of the bottom group, or the extreme values without groups):
``r0`` (default 0.95): ``P = sqrt(2 V (1 - r0)) / D``; ``k0``: ``P = sqrt(8/3) k0 |A| / D``.

The partner choice uses a seeded numpy Generator (rejection sampling in the window: the same
uniform distribution over the free ranks); sdcMicro uses its own generator, so the swaps
agree in distribution, not record by record.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import PROBABILITY, Real
from sdc._validation import check_number
from sdc.protect._common import check_variables, count_changed, numeric_values, resolve_seed, restore_numeric
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._declare import param, protection_method
from sdc.protect._result import ProtectionResult

__all__ = ["rank_swap", "rank_swap_parameters"]

_f32 = np.float32


def rank_swap_parameters(middle_desc: np.ndarray, top_edge: float, bottom_edge: float, *,
                         p: float | None, r0: float | None, k0: float | None) -> float:
    """P (a fraction of the middle records) from `p`, `r0` or `k0`, in sdcMicro's single precision."""
    m = middle_desc.size
    avr = float(middle_desc.sum() / m) if m else 0.0
    var = _f32(float((middle_desc**2).sum() / m - avr**2) if m else 0.0)
    delta = abs(bottom_edge - top_edge)
    if p is not None:
        return float(_f32(p / 100))
    if r0 is not None:
        if not delta:
            return 0.0
        root = math.sqrt(float(_f32(_f32(2.0) * var) * _f32(_f32(1.0) - _f32(r0))))
        return float(_f32(float(_f32(root)) / delta))
    if not delta:
        return 0.0
    c = _f32(_f32(math.sqrt(float(_f32(8.0) / _f32(3.0)))) * _f32(k0))
    return float(_f32(float(c) * abs(avr) / delta))


def _windows(m: int, P: float) -> np.ndarray:
    """``r_j = min(m, int(j + m P))`` with the C++'s float arithmetic."""
    j = np.arange(m, dtype=np.float32)
    r = (j + _f32(m) * _f32(P)).astype(np.float64)
    return np.minimum(m, np.floor(r)).astype(np.int64)


def _swap_ranks(m: int, windows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Partner of each rank (itself when not swapped), the greedy pass of the module docstring.

    Each step depends on the previous ones, so this is a loop over ranks; a partner is found by
    rejection sampling in the window (expected O(1) draws), with an exact fallback.
    """
    partner = np.arange(m, dtype=np.int64)
    if m < 2:
        return partner
    flag = bytearray(m)
    win = windows.tolist()
    buf: list[float] = []
    pos = 0
    view = np.frombuffer(flag, dtype=np.uint8)
    for j in range(m):
        if flag[j]:
            continue
        lo = j + 1
        width = win[j] - lo
        if width <= 0:
            continue
        found = -1
        for _ in range(16):
            if pos >= len(buf):
                buf = rng.random(max(4096, m)).tolist()
                pos = 0
            k = lo + int(buf[pos] * width)
            pos += 1
            if not flag[k]:
                found = k
                break
        else:
            free = np.flatnonzero(view[lo:lo + width] == 0)
            if free.size:
                if pos >= len(buf):
                    buf = rng.random(max(4096, m)).tolist()
                    pos = 0
                found = lo + int(free[int(buf[pos] * free.size)])
                pos += 1
        if found >= 0:
            flag[j] = flag[found] = 1
            partner[j] = found
            partner[found] = j
    return partner


def _swap_variable(x: np.ndarray, top_ratio: np.float32, bottom_ratio: np.float32, rng: np.random.Generator, *,
                   p: float | None, r0: float | None, k0: float | None) -> tuple[np.ndarray, dict[str, Any]]:
    """One variable rank-swapped (the module docstring's steps 1-3): new values and details."""
    ok = np.flatnonzero(~np.isnan(x))
    n = ok.size
    # Ranks from the largest value down (ties in record order).
    order = ok[np.argsort(-x[ok], kind="stable")]
    vals = x[order].copy()
    n_top = int(_f32(n) * top_ratio) if n else 0
    n_bottom = int(math.floor(_f32(n) * bottom_ratio)) if n else 0
    bottom_start = n - n_bottom
    top_edge = float(vals[n_top - 1]) if n_top else (float(vals[0]) if n else 0.0)
    top_value = bottom_value = None
    if n_top:
        top_value = float(vals[:n_top].sum() / n_top)
        vals[:n_top] = top_value
    bottom_edge = float(vals[bottom_start]) if n_bottom else (float(vals[n - 1]) if n else 0.0)
    if n_bottom:
        bottom_value = float(vals[bottom_start:].sum() / n_bottom)
        vals[bottom_start:] = bottom_value
    mid = vals[n_top:bottom_start]
    m = mid.size
    P = rank_swap_parameters(mid, top_edge, bottom_edge, p=p, r0=r0, k0=k0)
    partner = _swap_ranks(m, _windows(m, P), rng)
    vals[n_top:bottom_start] = mid[partner]
    y = x.copy()
    y[order] = vals
    return y, {"P": P, "window": int(_f32(m) * _f32(P)), "swapped_pairs": int((partner != np.arange(m)).sum() // 2),
               "top_coded": n_top, "top_value": top_value, "bottom_coded": n_bottom, "bottom_value": bottom_value}


_PERCENT = Real(0.0, 100.0)


@protection_method(
    "rank_swap", sdcmicro=not_in_sdcmicro(
    "not translated yet: its counterpart is sdcMicro's rankSwap, random (R's draws would differ in any case)"),
    summary="values swapped between records of close rank", numeric=True,
    why="it swaps values between records ranked over the whole file",
    example={"variables": ["cholesterol"], "p": 5},
    options={"p": param(_PERCENT, "the rank range, in percent of the swapped records"),
             "r0": param(PROBABILITY, "or sdcMicro's correlation-preservation factor"),
             "k0": param(Real(0.0), "or sdcMicro's mean-preservation factor"),
             "top_percent": param(_PERCENT, "percent of the largest values replaced by their mean"),
             "bottom_percent": param(_PERCENT, "percent of the smallest values replaced by their mean")})
def rank_swap(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    p: float | None = None,
    r0: float | None = None,
    k0: float | None = None,
    top_percent: float = 5.0,
    bottom_percent: float = 5.0,
    seed: int | None = None,
) -> ProtectionResult:
    """Swap each value with another whose rank is within p percent (sdcMicro's ``rankSwap``).

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Numeric (or ordinal numeric) columns, swapped one at a time.
    p : float, optional
        Rank range in percent of the swapped records (sdcMicro's ``P``, which its C++ reads as
        a fraction: ``p = 5`` here is ``P = 0.05`` there).
    r0, k0 : float, optional
        sdcMicro's correlation- and mean-preservation factors, from which P is derived (see the
        module docstring). At most one of `p`, `r0`, `k0`; none means ``r0 = 0.95`` (sdcMicro's
        default).
    top_percent, bottom_percent : float, default 5
        Percent of the largest / smallest values replaced by their mean and not swapped
        (sdcMicro's ``TopPercent``/``BottomPercent`` and defaults). 0 turns this off.
    seed : int, optional
        Seed of the numpy Generator (drawn and recorded when None).

    Returns
    -------
    ProtectionResult
        ``details[variable]``: ``P``, ``window`` (records of rank distance allowed, ``m P``),
        ``swapped_pairs``, ``top_coded``/``top_value``, ``bottom_coded``/``bottom_value``.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"income": range(100)})
    >>> r = sdc.rank_swap(df, "income", p=10, top_percent=0, bottom_percent=0, seed=1)
    >>> sorted(r.data["income"]) == list(range(100))
    True
    """
    frame, cols = check_variables(data, variables)
    given = [k for k, v in (("p", p), ("r0", r0), ("k0", k0)) if v is not None]
    if len(given) > 1:
        raise ValueError(f"`rank_swap` takes one of p, r0, k0; got {', '.join(given)}.")
    if not given:
        r0 = 0.95
    if p is not None:
        p = check_number(p, "p", low=0.0, high=100.0)
    if r0 is not None:
        r0 = check_number(r0, "r0", low=0.0, high=1.0)
    if k0 is not None:
        k0 = check_number(k0, "k0", low=0.0, high=math.inf, high_open=True)
    top_percent = check_number(top_percent, "top_percent", low=0.0, high=100.0)
    bottom_percent = check_number(bottom_percent, "bottom_percent", low=0.0, high=100.0)
    if top_percent + bottom_percent > 100:
        raise ValueError(f"`top_percent` + `bottom_percent` must not exceed 100; got {top_percent:g} + {bottom_percent:g}.")
    seed_used, rng = resolve_seed(seed)
    top_ratio = min(max(_f32(_f32(top_percent) * _f32(0.01)), _f32(0)), _f32(1))
    bottom_ratio = min(max(_f32(_f32(bottom_percent) * _f32(0.01)), _f32(0)), _f32(1))

    out = frame.copy()
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        x = numeric_values(frame[v], "rank_swap")
        y, details[v] = _swap_variable(x, top_ratio, bottom_ratio, rng, p=p, r0=r0, k0=k0)
        out[v] = restore_numeric(y, frame[v])
        changed[v] = count_changed(x, y)
    params: dict[str, Any] = {"variables": list(cols), "top_percent": top_percent, "bottom_percent": bottom_percent}
    for k, val in (("p", p), ("r0", r0), ("k0", k0)):
        if val is not None:
            params[k] = val
    return ProtectionResult(
        method="rank_swap", data=out, variables=cols, parameters=params, seed=seed_used,
        changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )
