"""Global recoding and top/bottom coding (sdcMicro's ``globalRecode``, ``groupAndRename``, ``topBotCoding``).

:func:`global_recode` coarsens every record of a variable the same way: numbers into bands
(by width, by edges, by a number of bins as sdcMicro computes them, or in logarithmic tiers)
or rounded to a base; dates to years, months or n-year bands; dates of birth to ages or age
bands; categories merged by a mapping, rare categories pooled, codes truncated to a prefix.
:func:`top_bottom_code` replaces values beyond a bound.

Bands follow R's ``cut``, which ``globalRecode`` calls: with ``closed="right"`` (sdcMicro's
default) a band is ``(a, b]``, with ``closed="left"`` it is ``[a, b)``; ``include_lowest``
closes the outer end of the first (right-closed) or last (left-closed) band; labels are
written ``(a,b]`` with the edges printed to 8 significant digits (more when two labels would
otherwise coincide), as ``cut(..., dig.lab = 8)`` writes them.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_int, check_option, plain
from sdc.core.strata import sorted_levels
from sdc.protect._common import (
    check_number_or_none, check_variables, count_changed, integer_like, numeric_values, output_frame,
    restore_numeric,
)
from sdc.protect._result import ProtectionResult

__all__ = ["global_recode", "top_bottom_code", "cut_labels", "sdcmicro_breaks"]

_NUMERIC_MODES = ("width", "edges", "bins", "log_base", "round_to")
_CATEGORY_MODES = ("truncate", "mapping", "rare")
LABELS = ("interval", "lower", "midpoint")
BIN_METHODS = ("equidistant", "logEqui", "equalAmount")


# --------------------------------------------------------------------------- labels and bands

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


# --------------------------------------------------------------------------- dates

def _to_datetime(s: pd.Series) -> pd.Series:
    name = str(s.name)
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        out = s
    elif pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        raise TypeError(f"`date`/`age_at` need a date column; column {name!r} has dtype {s.dtype}.")
    else:
        out = pd.to_datetime(s, errors="coerce", format="%Y-%m-%d")
        if (out.isna() & s.notna()).any():
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = pd.to_datetime(s, errors="coerce")
        bad = out.isna() & s.notna()
        if bad.any():
            i = int(np.argmax(bad.to_numpy()))
            raise ValueError(f"column {name!r} has the value {plain(s.iloc[i])!r} at index {plain(s.index[i])!r}, which is not a date.")
    if getattr(out.dt, "tz", None) is not None:
        out = out.dt.tz_localize(None)
    return out


def _reference_date(value: object) -> pd.Timestamp:
    if isinstance(value, (str, date, datetime, pd.Timestamp, np.datetime64)):
        try:
            ts = pd.Timestamp(value)
        except (ValueError, TypeError):
            ts = pd.NaT
        if ts is not pd.NaT and not pd.isna(ts):
            return ts.tz_localize(None) if ts.tzinfo is not None else ts
    raise ValueError(f"`age_at` must be a date such as '2024-01-01'; got {value!r}.")


def _ages(dt: pd.Series, ref: pd.Timestamp) -> np.ndarray:
    """Completed years at `ref` (a birthday on 29 February counts on 1 March in other years)."""
    y = dt.dt.year.to_numpy(dtype="float64", na_value=np.nan)
    md = (dt.dt.month * 100 + dt.dt.day).to_numpy(dtype="float64", na_value=np.nan)
    age = ref.year - y - ((ref.month * 100 + ref.day) < md)
    bad = age < 0
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"column {str(dt.name)!r} has a date of birth after `age_at` ({ref.date().isoformat()}) at index {plain(dt.index[i])!r}."
        )
    return age


# --------------------------------------------------------------------------- categories

def _text(v: object) -> str:
    """A value as text: whole floats without '.0', so 12 and 12.0 read the same."""
    if isinstance(v, (float, np.floating)) and math.isfinite(v) and float(v).is_integer():
        return str(int(v))
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def _plain(v: object) -> object:
    return v.item() if isinstance(v, np.generic) else v


def _match_mapping(mapping: Mapping, levels: tuple, numeric: bool, name: str) -> dict[int, object]:
    """Level index -> new value; keys must be values of the column (a text key matches a number)."""
    pos = {}
    for i, lv in enumerate(levels):
        pos.setdefault(lv, i)
    out: dict[int, object] = {}
    unknown = []
    for k, new in mapping.items():
        i = pos.get(k)
        if i is None and numeric and isinstance(k, str):
            try:
                i = pos.get(float(k))
            except ValueError:
                i = None
        if i is None and not numeric and not isinstance(k, str):
            i = pos.get(_text(k))
        if i is None:
            unknown.append(k)
        else:
            out[i] = new
    if unknown:
        shown = ", ".join(repr(_plain(u)) for u in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise ValueError(f"`mapping` names values not in column {name!r}: {shown}.")
    return out


def _recode_categories(s: pd.Series, truncate: int | None, mapping: Mapping | None, rare: int | None,
                       rare_label: object) -> tuple[pd.Series, int, dict[str, Any]]:
    name = str(s.name)
    lv = sorted_levels(s)
    levels = lv.levels
    new: list[object] = list(levels)
    detail: dict[str, Any] = {"levels_before": len(levels)}
    if truncate is not None:
        new = [_text(v)[:truncate] for v in new]
    if mapping is not None:
        m = _match_mapping(mapping, levels, bool(pd.api.types.is_numeric_dtype(s.dtype)) and
                           not pd.api.types.is_bool_dtype(s.dtype), name)
        for i, v in m.items():
            new[i] = v
    counts = lv.counts()
    if rare is not None:
        # Count the records of each recoded value, then pool the values with fewer than `rare`.
        uniq = list(dict.fromkeys(new))
        where = {u: j for j, u in enumerate(uniq)}
        grp = np.array([where[v] for v in new], dtype=np.int64)
        tot = np.bincount(grp, weights=counts, minlength=len(uniq)) if len(grp) else np.zeros(0)
        small = [u for j, u in enumerate(uniq) if 0 < tot[j] < rare]
        small_set = set(small)
        if small:
            new = [rare_label if v in small_set else v for v in new]
        detail["pooled"] = [_text(v) for v in small]
        detail["pooled_records"] = int(sum(tot[where[u]] for u in small))
    changed_level = np.array([not _same(a, b) for a, b in zip(levels, new)], dtype=bool)
    n_changed = int(counts[changed_level].sum()) if len(levels) else 0
    # Merged labels keep the position of their first level (R's `levels<-`); the pooled level goes last.
    order = list(dict.fromkeys(v for v in new if not (rare is not None and v == rare_label)))
    if rare is not None and any(v == rare_label for v in new):
        order.append(rare_label)
    where_new = {v: j for j, v in enumerate(order)}
    level_map = np.array([where_new[v] for v in new], dtype=np.int64) if new else np.zeros(0, dtype=np.int64)
    codes = np.where(lv.codes >= 0, level_map[np.maximum(lv.codes, 0)] if len(level_map) else -1, -1)
    detail["levels_after"] = len(order)
    if isinstance(s.dtype, pd.CategoricalDtype):
        out = pd.Series(pd.Categorical.from_codes(codes, categories=order, ordered=bool(s.cat.ordered)),
                        index=s.index, name=s.name)
    else:
        numeric_out = all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in order)
        if numeric_out and pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
            vals = np.array([float(v) for v in order] + [np.nan])[codes]
            out = restore_numeric(vals, s)
        else:
            table = np.empty(len(order) + 1, dtype=object)
            table[:-1] = [_plain(v) for v in order]
            table[-1] = np.nan
            out = pd.Series(table[codes], index=s.index, name=s.name, dtype=object)
    return out, n_changed, detail


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b) and (isinstance(a, str) or isinstance(b, str)):
        return False
    try:
        return bool(a == b)
    except Exception:  # pragma: no cover - exotic objects
        return False


# --------------------------------------------------------------------------- global_recode

def _labelled(codes: np.ndarray, lo: np.ndarray, hi: np.ndarray, interval_labels: list[str],
              labels: object, like: pd.Series, *, has_zero: bool = False) -> pd.Series:
    """The banded column: categorical of labels, or numeric lower bounds / midpoints."""
    if isinstance(labels, str) and labels == "interval":
        cats = (["0"] if has_zero else []) + interval_labels
        return pd.Series(pd.Categorical.from_codes(codes, categories=cats, ordered=True), index=like.index,
                         name=like.name)
    if not isinstance(labels, str):
        return pd.Series(pd.Categorical.from_codes(codes, categories=list(labels), ordered=True), index=like.index,
                         name=like.name)
    zero = [0.0] if has_zero else []
    if labels == "lower":
        table = np.array(zero + list(lo) + [np.nan])
    else:
        if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
            raise ValueError("`labels` 'midpoint' needs finite band edges; an edge is infinite.")
        table = np.array(zero + list((lo + hi) / 2) + [np.nan])
    return restore_numeric(table[codes], like)


def global_recode(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    width: float | None = None,
    edges: Sequence[float] | None = None,
    bins: int | None = None,
    bin_method: str = "equidistant",
    log_base: float | None = None,
    round_to: float | None = None,
    origin: float = 0.0,
    closed: str = "right",
    include_lowest: bool = False,
    labels: str | Sequence[object] = "interval",
    outside: str = "error",
    date: str | None = None,
    age_at: object = None,
    truncate: int | None = None,
    mapping: Mapping[object, object] | None = None,
    rare: int | None = None,
    rare_label: object = "other",
) -> ProtectionResult:
    """Recode every record of each variable the same way (global recoding).

    Exactly one family of recoding per call:

    **Numbers** (one of):

    * ``width=w`` -- bands of width *w* from ``origin``: with ``closed="left"`` the band of
      *x* is ``[o + kw, o + (k+1)w)``, ``k = floor((x - o)/w)``; with ``closed="right"``
      (default, sdcMicro's) it is ``(o + kw, o + (k+1)w]``, ``k = ceil((x - o)/w) - 1``.
      ``labels="midpoint"`` gives ``o + kw + w/2`` (``floor(x/w)*w + w/2`` for left-closed
      bands from 0).
    * ``edges=[e0, e1, ...]`` -- R's ``cut(x, edges, right=closed == "right",
      include.lowest=include_lowest)`` as ``globalRecode(x, breaks=edges)`` calls it; edges
      strictly increasing, ``-inf``/``inf`` allowed. A value outside every band raises
      (``outside="error"``, the default) or becomes missing (``outside="missing"``, what
      sdcMicro does).
    * ``bins=n`` -- sdcMicro's ``globalRecode(x, breaks=n, method=bin_method)`` edges (see
      :func:`sdcmicro_breaks`), cut with ``include.lowest=TRUE``.
    * ``log_base=b`` -- logarithmic tiers ``[b^k, b^(k+1))`` (or ``(b^k, b^(k+1)]``); zero is
      a level of its own, negative values are an error.
    * ``round_to=b`` -- the nearest multiple of *b* (halves away from zero): ``sign(x) *
      floor(|x|/b + 1/2) * b``.

    ``labels`` is ``"interval"`` (an ordered categorical of ``"(a,b]"`` labels), ``"lower"``
    (the band's lower edge), ``"midpoint"`` (its centre), or a list of labels, one per band
    (with ``edges`` or ``bins``, as ``globalRecode(labels=)``).

    **Dates**: ``date="year"`` (the year, then optionally banded by any numeric option above:
    ``date="year", width=5`` gives 5-year bands) or ``date="month"`` (``"YYYY-MM"`` text);
    ``age_at=reference`` turns a date of birth into the age in completed years at the reference
    date (optionally banded: ``age_at="2024-01-01", width=10``).

    **Categories** (any of, applied in this order): ``truncate=n`` keeps the first *n*
    characters of each code (postcodes: ``"75013"`` -> ``"750"``); ``mapping={old: new}``
    merges and renames values (sdcMicro's ``groupAndRename``; every key must be a value of the
    column); ``rare=m`` pools the values held by fewer than *m* records into ``rare_label``.

    Missing values stay missing. The input is not modified.

    Returns
    -------
    ProtectionResult
        ``method="global_recode"``; ``details[variable]`` holds the edges, labels or merged
        levels used.

    References
    ----------
    sdcMicro ``globalRecode`` (``R/globalRecode.R``), ``groupAndRename``
    (``R/groupAndRename.R``); R ``base::cut``. Templ, Kowarik & Meindl (2015), *Statistical
    Disclosure Control for Micro-Data Using the R Package sdcMicro*, JSS 67(4).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [3, 17, 25, 64, 90]})
    >>> sdc.global_recode(df, "age", edges=[0, 17, 64, 120]).data["age"].tolist()
    ['(0,17]', '(0,17]', '(17,64]', '(17,64]', '(64,120]']
    >>> sdc.global_recode(df, "age", width=10, closed="left", labels="lower").data["age"].tolist()
    [0, 10, 20, 60, 90]
    """
    from sdc.core._dask import is_dask

    if is_dask(data):  # row-wise: the same method on every partition (sdc.protect.on_dask)
        kw = {k: v for k, v in locals().items() if k not in ("data", "variables", "is_dask")}
        from sdc.protect.on_dask import protect_partitions

        return protect_partitions(global_recode, data, variables, **kw)
    frame, cols = check_variables(data, variables)
    closed = check_option(closed, "closed", ("right", "left"))
    outside = check_option(outside, "outside", ("error", "missing"))
    right = closed == "right"
    if not isinstance(include_lowest, bool):
        raise TypeError(f"`include_lowest` must be True or False; got {include_lowest!r}.")
    given = {"width": width, "edges": edges, "bins": bins, "log_base": log_base, "round_to": round_to}
    num_modes = [k for k in _NUMERIC_MODES if given[k] is not None]
    cat_modes = [k for k, v in (("truncate", truncate), ("mapping", mapping), ("rare", rare)) if v is not None]
    if len(num_modes) > 1:
        raise ValueError(f"`global_recode` takes one of width, edges, bins, log_base, round_to; got {', '.join(num_modes)}.")
    if date is not None and age_at is not None:
        raise ValueError("`date` and `age_at` cannot be combined; give one.")
    if cat_modes and (num_modes or date is not None or age_at is not None):
        raise ValueError(
            f"`{cat_modes[0]}` recodes categories and cannot be combined with "
            f"`{(num_modes or ['date' if date is not None else 'age_at'])[0]}` in one call; use two steps."
        )
    if not num_modes and not cat_modes and date is None and age_at is None:
        raise ValueError("`global_recode` needs one of width, edges, bins, log_base, round_to, date, age_at, "
                         "truncate, mapping or rare.")
    if date is not None:
        date = check_option(date, "date", ("year", "month"))
        if date == "month" and num_modes:
            raise ValueError(f"`date` 'month' gives text and cannot be banded with `{num_modes[0]}`.")
    ref = _reference_date(age_at) if age_at is not None else None

    # Parameters, checked once.
    mode = num_modes[0] if num_modes else None
    edge_arr: np.ndarray | None = None
    if mode == "width":
        width = check_number_or_none(width, "width")
        if width <= 0:
            raise ValueError(f"`width` must be > 0; got {width:g}.")
    elif mode == "edges":
        edge_arr = _check_edges(edges)
    elif mode == "bins":
        bins = check_int(bins, "bins", min_value=1, max_value=MAX_BINS)
        bin_method = check_option(bin_method, "bin_method", BIN_METHODS)
    elif mode == "log_base":
        log_base = check_number_or_none(log_base, "log_base")
        if log_base <= 1:
            raise ValueError(f"`log_base` must be > 1; got {log_base:g}.")
    elif mode == "round_to":
        round_to = check_number_or_none(round_to, "round_to")
        if round_to <= 0:
            raise ValueError(f"`round_to` must be > 0; got {round_to:g}.")
    origin = check_number_or_none(origin, "origin")
    custom_labels: list[object] | None = None
    if isinstance(labels, str):
        labels = check_option(labels, "labels", LABELS)
    elif isinstance(labels, Sequence):
        if mode not in ("edges", "bins"):
            raise ValueError("a list of `labels` needs `edges` or `bins`; other bands name themselves.")
        custom_labels = [_plain(v) for v in labels]
        if len(set(map(repr, custom_labels))) != len(custom_labels):
            raise ValueError(f"`labels` must be distinct; got {list(labels)!r}.")
    else:
        raise TypeError(f"`labels` must be 'interval', 'lower', 'midpoint' or a list of labels; got {labels!r}.")
    if truncate is not None:
        truncate = check_int(truncate, "truncate", min_value=1)
    if mapping is not None and not isinstance(mapping, Mapping):
        raise TypeError(f"`mapping` must be a dict of old value -> new value; got {type(mapping).__name__}.")
    if rare is not None:
        rare = check_int(rare, "rare", min_value=2)

    out = output_frame(frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        s = frame[v]
        if cat_modes:
            if pd.api.types.is_datetime64_any_dtype(s.dtype):
                raise TypeError(f"column {v!r} holds dates; recode it with `date` or `age_at`.")
            new, n, det = _recode_categories(s, truncate, mapping, rare, rare_label)
            det["recode"] = "+".join(cat_modes)
            out[v] = new
            changed[v] = n
            details[v] = det
            continue
        det = {}
        like = s
        if date is not None or ref is not None:
            dt = _to_datetime(s)
            n_obs = int(dt.notna().sum())
            if date == "month":
                out[v] = pd.Series(dt.dt.strftime("%Y-%m").to_numpy(dtype=object), index=s.index, name=s.name)
                out[v] = out[v].where(dt.notna(), np.nan)
                changed[v] = n_obs
                details[v] = {"recode": "date=month"}
                continue
            x = (dt.dt.year.to_numpy(dtype="float64", na_value=np.nan) if date == "year" else _ages(dt, ref))
            like = pd.Series(np.zeros(len(s), dtype=np.int64), index=s.index, name=s.name)
            det["recode"] = "date=year" if date == "year" else f"age_at={ref.date().isoformat()}"
            if mode is None:
                out[v] = restore_numeric(x, like)
                changed[v] = n_obs
                details[v] = det
                continue
            always_changed = True
        else:
            x = numeric_values(s, "global_recode", copy=False)  # read only
            always_changed = False
        n_missing = int(np.count_nonzero(np.isnan(x)))
        new, det2, codes = _numeric_recode(x, like, v, mode, width=width, edge_arr=edge_arr, bins=bins,
                                           bin_method=bin_method, log_base=log_base, round_to=round_to,
                                           origin=origin, right=right, include_lowest=include_lowest,
                                           labels=labels, custom_labels=custom_labels, outside=outside,
                                           n_missing=n_missing)
        det.update(det2)
        out[v] = new
        if always_changed or (labels == "interval" or custom_labels is not None) and mode != "round_to":
            changed[v] = x.shape[0] - n_missing
        else:
            changed[v] = count_changed(x, new.to_numpy(dtype="float64", na_value=np.nan))
        details[v] = det
    params: dict[str, Any] = {"variables": list(cols)}
    for k, val in (("width", width), ("edges", None if edge_arr is None else [float(e) for e in edge_arr]),
                   ("bins", bins), ("log_base", log_base), ("round_to", round_to), ("date", date),
                   ("age_at", None if ref is None else ref.date().isoformat()), ("truncate", truncate),
                   ("mapping", None if mapping is None else {_text(k2): _plain(v2) for k2, v2 in mapping.items()}),
                   ("rare", rare)):
        if val is not None:
            params[k] = val
    if mode == "bins":
        params["bin_method"] = bin_method
    if mode is not None and mode != "round_to":
        params.update(closed=closed, labels=custom_labels if custom_labels is not None else labels)
        if mode == "width":
            params["origin"] = origin
        if mode in ("edges",):
            params.update(include_lowest=include_lowest, outside=outside)
    if rare is not None:
        params["rare_label"] = _plain(rare_label)
    return ProtectionResult(
        method="global_recode", data=out, variables=cols, parameters=params, seed=None,
        changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )


def _check_edges(edges: object) -> np.ndarray:
    if isinstance(edges, (str, bytes)) or not isinstance(edges, Sequence | np.ndarray):
        raise TypeError(f"`edges` must be a list of numbers; got {edges!r}.")
    try:
        arr = np.array([float(e) for e in edges], dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"`edges` must be a list of numbers; got {list(edges)!r}.") from None
    if arr.size < 2 or np.isnan(arr).any():
        raise ValueError(f"`edges` must be at least two numbers; got {list(edges)!r}.")
    d = np.diff(arr)
    if not (d > 0).all():
        i = int(np.argmax(~(d > 0)))
        raise ValueError(f"`edges` must be strictly increasing; got {arr[i]:g} then {arr[i + 1]:g}.")
    return arr


def _numeric_recode(x: np.ndarray, like: pd.Series, name: str, mode: str, *, width, edge_arr, bins, bin_method,
                    log_base, round_to, origin, right, include_lowest, labels, custom_labels,
                    outside, n_missing: int) -> tuple[pd.Series, dict[str, Any], np.ndarray | None]:
    if mode == "round_to":
        return restore_numeric(_round_to(x, round_to), like), {"recode": f"round_to={round_to:g}"}, None
    has_zero = False
    if mode == "width":
        codes, e = _width_bands(x, width, origin, right)
        interval = cut_labels(e, right=right)
        det = {"recode": f"width={width:g}"}
    elif mode == "log_base":
        codes, e, has_zero = _log_bands(x, log_base, right)
        interval = cut_labels(e, right=right)
        det = {"recode": f"log_base={log_base:g}"}
    else:
        if mode == "bins":
            e, incl = sdcmicro_breaks(x, bins, bin_method)
            det = {"recode": f"bins={bins} ({bin_method})"}
        else:
            e, incl = edge_arr, include_lowest
            det = {"recode": "edges"}
        codes = _cut_codes(x, e, right, incl)
        interval = cut_labels(e, right=right, include_lowest=incl)
        lost = None
        if np.count_nonzero(codes < 0) > n_missing:  # some value outside every band
            lost = (codes < 0) & ~np.isnan(x)
        if lost is not None:
            if mode == "edges" and outside == "error":
                i = int(np.argmax(lost))
                lo_b = "[" if (incl and right) or not right else "("
                hi_b = "]" if right or incl else ")"
                raise ValueError(
                    f"column {name!r}: the value {float(x[i]):g} at index {like.index[i]!r} lies outside the bands "
                    f"{lo_b}{e[0]:g}, {e[-1]:g}{hi_b}; extend `edges`, set include_lowest=True, or pass "
                    "outside='missing' (sdcMicro's behaviour)."
                )
            det["records_outside"] = int(lost.sum())
        if custom_labels is not None and len(custom_labels) != len(e) - 1:
            raise ValueError(f"`labels` must have one label per band ({len(e) - 1}); got {len(custom_labels)}.")
    det["edges"] = [float(b) for b in e]
    lo, hi = np.asarray(e[:-1], dtype=np.float64), np.asarray(e[1:], dtype=np.float64)
    lab = custom_labels if custom_labels is not None else labels
    return _labelled(codes, lo, hi, interval, lab, like, has_zero=has_zero), det, codes


# --------------------------------------------------------------------------- top/bottom coding

def top_bottom_code(
    data: pd.DataFrame,
    variables: Sequence[str] | str,
    *,
    top: float | None = None,
    top_value: float | None = None,
    bottom: float | None = None,
    bottom_value: float | None = None,
) -> ProtectionResult:
    """Replace values above `top` by `top_value` and below `bottom` by `bottom_value`.

    ``x > top -> top_value`` and ``x < bottom -> bottom_value`` (strict, as sdcMicro's
    ``topBotCoding(x, value, replacement, kind = "top" | "bottom")``); the replacement
    defaults to the bound itself. Missing values stay missing; the columns must be numeric.
    An integer column stays integer when the replacements are whole numbers.

    Returns
    -------
    ProtectionResult
        ``details[variable]`` = ``{"top_coded": n, "bottom_coded": m}``.

    References
    ----------
    sdcMicro ``topBotCoding`` (``R/topBotCoding.R``).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"income": [10, 250, 90, 1000]})
    >>> sdc.top_bottom_code(df, "income", top=200, top_value=200).data["income"].tolist()
    [10, 200, 90, 200]
    """
    from sdc.core._dask import is_dask

    if is_dask(data):  # row-wise: the same method on every partition (sdc.protect.on_dask)
        kw = {k: v for k, v in locals().items() if k not in ("data", "variables", "is_dask")}
        from sdc.protect.on_dask import protect_partitions

        return protect_partitions(top_bottom_code, data, variables, **kw)
    frame, cols = check_variables(data, variables)
    top = check_number_or_none(top, "top")
    bottom = check_number_or_none(bottom, "bottom")
    if top is None and bottom is None:
        raise ValueError("`top_bottom_code` needs `top`, `bottom` or both.")
    if top_value is not None and top is None:
        raise ValueError("`top_value` needs `top`.")
    if bottom_value is not None and bottom is None:
        raise ValueError("`bottom_value` needs `bottom`.")
    top_value = check_number_or_none(top_value, "top_value")
    bottom_value = check_number_or_none(bottom_value, "bottom_value")
    if top is not None and bottom is not None and top < bottom:
        raise ValueError(f"`top` ({top:g}) must not be below `bottom` ({bottom:g}).")
    tv = top if top_value is None else top_value
    bv = bottom if bottom_value is None else bottom_value
    out = output_frame(frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        s = frame[v]
        x = numeric_values(s, "top_bottom_code", copy=False)  # read only
        y = x
        n_top = n_bot = n_changed = 0
        # A value beyond a bound changes unless it already equals the replacement (possible
        # only for a replacement beyond the bound); top >= bottom, so the two never overlap.
        if top is not None:
            hit = x > top
            n_top = int(np.count_nonzero(hit))
            if n_top:
                y = np.where(hit, tv, x)
                n_changed += n_top - (int(np.count_nonzero(x == tv)) if tv > top else 0)
        if bottom is not None:
            hit = x < bottom
            n_bot = int(np.count_nonzero(hit))
            if n_bot:
                y = np.where(hit, bv, y)
                n_changed += n_bot - (int(np.count_nonzero(x == bv)) if bv < bottom else 0)
        if integer_like(s):
            out[v] = restore_numeric(y, s)
        elif s.dtype == np.float64:
            if y is not x:  # unchanged: `out` already holds (a copy of) the column
                out[v] = pd.Series(y, index=s.index, name=s.name)
        else:
            out[v] = pd.Series(y, index=s.index, name=s.name).astype(
                s.dtype if pd.api.types.is_float_dtype(s.dtype) else np.float64)
        changed[v] = n_changed
        details[v] = {"top_coded": n_top, "bottom_coded": n_bot}
    params: dict[str, Any] = {"variables": list(cols)}
    if top is not None:
        params.update(top=top, top_value=tv)
    if bottom is not None:
        params.update(bottom=bottom, bottom_value=bv)
    return ProtectionResult(
        method="top_bottom_code", data=out, variables=cols, parameters=params, seed=None,
        changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )

