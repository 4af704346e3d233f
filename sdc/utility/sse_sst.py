"""ARX's SSE/SST quality model of a release: 1 - SSE/SST between the original's and the
release's key values read as numbers (ARX's ``QualityModelRowOrientedSSESST``).

Each cell becomes an interval [lo, hi] of numbers and is read at its midpoint (lo + hi) / 2,
in one of ARX's ways (``QualityModel.getColumnsAsNumbers``; ARX's sources, master aacd487,
``org.deidentifier.arx.aggregates.quality``, read and reimplemented, nothing copied):

* a **numeric** key (ARX's ratio-scale types; here a numeric column of the original, or one
  named in ``numeric``): the original's value itself (a missing one reads 0, as ARX's parser
  does), and in the release, tried in this order:

  - ``"number"``: every released value a number: the number itself;
  - ``"range"``: ARX's range parsers, the one that reads most of the first 50 released values
    of records kept (ties: the first): a masked value (``"12*"``: ``*`` as 0 and as 9, [120,
    129]), an interval (``"[20, 30["``, ``"[20, 30]"``, ``"[20, 30)"``, ``"{20; 30}"``: its two
    ends) or a bound (``"<30"``, ``"<=30"``, ``">20"``, ``">=20"``: the other end the column's
    minimum or maximum), each end clipped to [min, max] of the original; a value the parser
    does not read, [min, max];
  - ``"grouped"``: otherwise, a released label is [min, max] of the original values of the
    records that carry it;

* any other key: ARX's ordinals of its **hierarchy** (``"hierarchy"``): a label is [first,
  last] of the hierarchy rows (0-based, in the file's order) holding it at any level, the
  suppressed value ``*`` (when no row holds it) every row; without a hierarchy (``"ranks"``,
  sdc's stand-in, ARX needs one): the original's distinct values sorted as text are the rows,
  and a label of the release not among them is [first, last] of the ranks of the original
  values of the records that carry it.

A suppressed cell (missing in the release where the original has a value, ``*``, or the
hierarchy's root) and every key of a suppressed record (every key suppressed) is [min, max]
(the hierarchy: every row). With x the original's midpoints, y the release's, x̄_j the mean
of the original's column j and n records,

    SSE = sum_i sum_j (x_ij - y_ij)^2,   SST = sum_i sum_j (y_ij - x̄_j)^2,

ARX's sum of squares about the original's centroid taken over the *release's* values, and the
quality ``1 - SSE / SST`` clipped to [0, 1] (``QualityMeasureRowOriented.getValue``): 1 for an
unchanged file; NaN when SSE = SST = 0 (ARX's 0/0), 0 when only SST is 0. Higher is better.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, is_numeric_column
from sdc.core.values import encode_values
from sdc.utility._common import align, resolve_variables

__all__ = ["SSESSTResult", "sse_sst", "SSE_SST_KINDS"]

#: How a key's cells are read as numbers (see the module's docstring).
SSE_SST_KINDS = ("number", "range", "grouped", "hierarchy", "ranks")
_SAMPLE = 50  # ARX's sample of released values that chooses the range parser
_SUPPRESSED = "*"


@dataclass(frozen=True)
class SSESSTResult:
    """Result of :func:`sse_sst`.

    Attributes
    ----------
    keys : tuple of str
    n_records : int
    sse, sst : float
        Sum of squared errors between the original's and the release's midpoints, and ARX's
        total sum of squares of the release about the original's column means.
    value : float
        ``1 - SSE / SST`` clipped to [0, 1] (ARX's SSE/SST; higher is better).
    kinds : dict
        How each key was read (one of :data:`SSE_SST_KINDS`).
    per_key : pandas.DataFrame
        Per key: ``kind``, ``sse``, ``sst``.
    """

    keys: tuple[str, ...]
    n_records: int
    sse: float
    sst: float
    value: float
    kinds: dict[str, str]
    per_key: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per key: ``variable``, ``kind``, ``sse``, ``sst``."""
        return self.per_key.copy()

    def summary(self) -> pd.DataFrame:
        """The quality, SSE and SST as rows of (statistic, value, description)."""
        return summary_frame([
            ("sse_sst", float(self.value), "1 - SSE/SST, clipped to [0, 1] (ARX's SSE/SST; 1 = unchanged)"),
            ("sse", float(self.sse), "sum of squared differences of the keys' midpoints, original vs release"),
            ("sst", float(self.sst), "sum of squares of the release's midpoints about the original's means"),
            ("n_records", self.n_records, "records"),
        ])


def _text(v: object) -> str:
    """A value as ARX's text (whole floats without ``.0``, as sdc matches hierarchies)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip() if isinstance(v, str) else str(v)


def _number(text: str, whole: bool) -> float | None:
    """`text` as a number of the column's type (whole numbers for an integer column), or None."""
    try:
        return float(int(text)) if whole else float(text)
    except ValueError:
        return None


def _range_ends(parser: int, s: str) -> tuple[str | None, str | None]:
    """ARX's three range parsers: a masked value, an interval, a bound."""
    if parser == 0:
        return (s.replace("*", "0"), s.replace("*", "9")) if "*" in s else (None, None)
    if parser == 1:
        if s.startswith("[") and s.endswith(("[", "]", ")")) or s.startswith("{") and s.endswith("}"):
            i = s.find(",")
            i = s.find(";") if i == -1 else i
            if i != -1:
                return s[1:i], s[i + 1:-1]
        return None, None
    for op, low in (("<=", False), ("<", False), (">=", True), (">", True)):
        if s.startswith(op):
            return (s[len(op):], None) if low else (None, s[len(op):])
    return None, None


def _ranges(texts: list[str | None], keep: np.ndarray, lo: float, hi: float, whole: bool) -> np.ndarray | None:
    """[lo, hi] per record by ARX's range parser that reads most of the sample, or None (no
    parser reads any value, or an end does not parse: ARX falls back to the grouping)."""
    sample = [t.replace(" ", "") for t, k in zip(texts, keep) if k and t is not None][:_SAMPLE]
    matches = [sum(1 for s in sample if any(e is not None and _number(e, whole) is not None
                                            for e in _range_ends(p, s))) for p in range(3)]
    if max(matches) == 0:
        return None
    parser = int(np.argmax(matches))
    out = np.empty((len(texts), 2))
    for i, (t, k) in enumerate(zip(texts, keep)):
        if not k or t is None:
            out[i] = lo, hi
            continue
        a, b = _range_ends(parser, "".join(t.split()))
        x = lo if a is None else _number(a, whole)
        y = hi if b is None else _number(b, whole)
        if x is None or y is None:
            return None
        out[i] = max(x, lo), min(y, hi)
    return out


def _grouped(labels: list[str | None], keep: np.ndarray, x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """[min, max] of the original values of the records carrying each released label."""
    codes, uniques = encode_values(pd.Series(labels, dtype=object))
    codes = np.where(codes < 0, len(uniques), codes)  # a missing label is one label of its own
    low, high = np.full(len(uniques) + 1, np.inf), np.full(len(uniques) + 1, -np.inf)
    np.minimum.at(low, codes, x)
    np.maximum.at(high, codes, x)
    out = np.column_stack([low[codes], high[codes]])
    out[~keep] = lo, hi
    return out


def _spans(labels: np.ndarray, x: np.ndarray) -> tuple[list[object], np.ndarray]:
    """Each distinct label and [min, max] of `x` over the records carrying it."""
    codes, uniques = encode_values(pd.Series(labels, dtype=object))
    low, high = np.full(len(uniques), np.inf), np.full(len(uniques), -np.inf)
    np.minimum.at(low, codes, x)
    np.maximum.at(high, codes, x)
    return list(uniques), np.column_stack([low, high])


def _numeric_key(o: pd.Series, r: pd.Series, kept: np.ndarray) -> tuple[str, np.ndarray, np.ndarray]:
    """A numeric key's midpoints, original and release, and how the release was read."""
    x = pd.to_numeric(o, errors="coerce").to_numpy(dtype=float)
    o_missing = np.isnan(x)
    x = np.where(o_missing, 0.0, x)  # ARX's parser reads a missing number as 0
    lo, hi = float(x.min()), float(x.max())
    r_missing = r.isna().to_numpy()
    texts = [None if m else _text(v) for v, m in zip(r.tolist(), r_missing)]
    keep = kept & ~(r_missing & ~o_missing) & np.array([t != _SUPPRESSED for t in texts])
    whole = pd.api.types.is_integer_dtype(o.dtype) or (not is_numeric_column(o) and bool(np.all(x == np.round(x))))
    nums = [(_number(t, False) if t is not None else 0.0) for t in texts]
    if all(v is not None for v, k in zip(nums, keep) if k):
        y = np.array([v if k else 0.0 for v, k in zip(nums, keep)], dtype=float)
        y[~keep] = (lo + hi) / 2.0
        return "number", x, y
    rng = _ranges(texts, keep, lo, hi, whole)
    if rng is not None:
        return "range", x, (rng[:, 0] + rng[:, 1]) / 2.0
    g = _grouped(texts, keep, x, lo, hi)
    return "grouped", x, (g[:, 0] + g[:, 1]) / 2.0


def _hierarchy_rows(table: np.ndarray) -> dict[str, tuple[int, int]]:
    """Each label of an ARX hierarchy -> [first, last] row holding it at any level; ``*`` every row."""
    span: dict[str, tuple[int, int]] = {}
    for level in range(table.shape[1]):
        for row, v in enumerate(table[:, level]):
            t = _text(v)
            a, b = span.get(t, (row, row))
            span[t] = (min(a, row), max(b, row))
    span.setdefault(_SUPPRESSED, (0, table.shape[0] - 1))
    return span


def _ordinal_key(name: str, o: pd.Series, r: pd.Series, kept: np.ndarray,
                 hierarchy: object | None) -> tuple[str, np.ndarray, np.ndarray]:
    """A key read by ARX's hierarchy ordinals (or, without one, the ranks of its values)."""
    o_text = ["" if pd.isna(v) else _text(v) for v in o.tolist()]
    r_missing = r.isna().to_numpy()
    r_text = [_SUPPRESSED if m else _text(v) for v, m in zip(r.tolist(), r_missing)]
    if hierarchy is not None:
        table = np.asarray(getattr(hierarchy, "table", hierarchy), dtype=object)
        if table.ndim != 2 or table.shape[0] == 0:
            raise ValueError(f"`hierarchies[{name!r}]` must be a table of rows of labels (ARX's layout).")
        span, kind = _hierarchy_rows(table), "hierarchy"
        root = _text(table[0, -1]) if len({_text(v) for v in table[:, -1]}) == 1 else None
    else:
        values = sorted(set(o_text))
        span = {v: (i, i) for i, v in enumerate(values)}
        ranks = np.array([span[v][0] for v in o_text], dtype=float)
        labels = np.array(r_text, dtype=object)
        for label, (lo, hi) in zip(*_spans(labels, ranks)):
            if label not in span and label != _SUPPRESSED:
                span[label] = (int(lo), int(hi))
        span[_SUPPRESSED] = (0, len(values) - 1)
        kind, root = "ranks", None
    for what, texts in (("original", o_text), ("released", r_text)):
        bad = next((t for t in texts if t not in span), None)
        if bad is not None:
            raise ValueError(f"{what} value {bad!r} of key {name!r} is not in its hierarchy.")
    suppressed = ~kept | np.array([t == root for t in r_text])
    x = np.array([sum(span[t]) / 2.0 for t in o_text])
    y = np.array([sum(span[_SUPPRESSED if s else t]) / 2.0 for t, s in zip(r_text, suppressed)])
    return kind, x, y


def _numeric_keys(orig: pd.DataFrame, cols: tuple[str, ...], numeric: object) -> set[str]:
    """The keys read as numbers: those named in `numeric` (each of `keys`, every original value a
    number), or by default the keys numeric in the original."""
    if numeric is None:
        return {c for c in cols if is_numeric_column(orig[c])}
    named = check_columns(orig, numeric, role="numeric")
    for c in named:
        if c not in cols:
            raise ValueError(f"`numeric` names {c!r}, which is not one of `keys` ({', '.join(map(repr, cols))}).")
        values = pd.to_numeric(orig[c], errors="coerce")
        bad = orig[c].notna() & values.isna()
        if bad.any():
            raise ValueError(f"`numeric` names {c!r}, whose original value {orig[c][bad].iloc[0]!r} is not a number.")
    return set(named)


def _quality(sse: float, sst: float) -> float:
    """ARX's QualityMeasureRowOriented(0, SSE, SST).getValue(): 1 - SSE/SST clipped to [0, 1]."""
    if sst == 0:
        return math.nan if sse == 0 else 0.0
    return 1.0 - min(1.0, max(0.0, sse / sst))


def sse_sst(
    original: pd.DataFrame,
    released: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    hierarchies: Mapping[str, object] | None = None,
    numeric: str | Sequence[str] | None = None,
) -> SSESSTResult:
    r"""ARX's SSE/SST quality of the release: 1 - SSE/SST of the keys read as numbers.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    keys : str or sequence of str
        The key variables (quasi-identifiers) compared.
    hierarchies : mapping, optional
        A key -> its hierarchy (a :class:`sdc.Hierarchy`, or a DataFrame or 2-D array in ARX's
        layout: one row per value, level 0 first): the ordinals of a non-numeric key.
    numeric : str or sequence of str, optional
        The keys read as numbers (ARX's ratio-scale data types); default: the keys numeric in
        the original. Every other key is read by its hierarchy's ordinals.

    Returns
    -------
    SSESSTResult

    Notes
    -----
    :math:`SSE = \sum_i \sum_j (x_{ij} - y_{ij})^2`, :math:`SST = \sum_i \sum_j (y_{ij} -
    \bar x_j)^2` over the midpoints x of the original and y of the release, the quality
    :math:`1 - SSE/SST` clipped to [0, 1]; how cells become numbers is in the module's
    docstring. ARX's ``QualityModelRowOrientedSSESST`` (Prasser, Eicher, Spengler, Bild and
    Kuhn 2020, "Flexible data anonymization using ARX", Softw. Pract. Exp. 50(7)).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"age": [20, 30, 40, 50]})
    >>> rel = pd.DataFrame({"age": ["[20, 40[", "[20, 40[", "[40, 60[", "[40, 60["]})
    >>> # midpoints 30, 30, 45, 45 ([40, 60[ clipped to the maximum 50); SSE 100 + 25 + 25, SST about 35
    >>> r = sdc.sse_sst(orig, rel, "age")
    >>> r.kinds["age"], r.sse, r.sst, r.value
    ('range', 150.0, 250.0, 0.4)
    """
    orig, rel = align(original, released)
    if keys is None:
        raise ValueError("`keys` must name at least one column; got None.")
    cols = resolve_variables(orig, rel, keys, role="keys")
    if not isinstance(hierarchies, (Mapping, type(None))):
        raise TypeError(f"`hierarchies` must be a mapping of key -> hierarchy; got {type(hierarchies).__name__}.")
    hs = dict(hierarchies or {})
    for name in hs:
        if name not in cols:
            raise ValueError(f"`hierarchies` names {name!r}, which is not one of `keys` ({', '.join(map(repr, cols))}).")
    num = _numeric_keys(orig, cols, numeric)
    texts = {c: rel[c] for c in cols}
    sup = np.ones(len(orig), dtype=bool)
    for c in cols:
        sup &= (texts[c].isna() | (texts[c].astype(str) == _SUPPRESSED)).to_numpy()
    kept = ~sup  # a record whose every key is suppressed is ARX's suppressed record (an outlier)
    kinds, xs, ys = {}, [], []
    for c in cols:
        kind, x, y = (_numeric_key(orig[c], rel[c], kept) if c in num
                      else _ordinal_key(c, orig[c], rel[c], kept, hs.get(c)))
        kinds[c] = kind
        xs.append(x)
        ys.append(y)
    x, y = np.column_stack(xs), np.column_stack(ys)
    centroid = x.sum(axis=0) / float(len(orig)) if len(orig) else np.zeros(len(cols))
    err, tot = ((x - y) ** 2).sum(axis=0), ((y - centroid) ** 2).sum(axis=0)
    sse, sst = float(((x - y) ** 2).sum(axis=1).sum()), float(((y - centroid) ** 2).sum(axis=1).sum())
    per_key = pd.DataFrame({"variable": list(cols), "kind": [kinds[c] for c in cols], "sse": err, "sst": tot})
    return SSESSTResult(keys=cols, n_records=len(orig), sse=sse, sst=sst, value=_quality(sse, sst), kinds=kinds,
                        per_key=per_key)
