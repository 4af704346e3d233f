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


def _value_texts(s: pd.Series, missing: str | None, encoded: tuple[np.ndarray, pd.Index] | None = None
                 ) -> tuple[np.ndarray, list[str | None]]:
    """Each record's :func:`_text` as (codes, texts): record i reads ``texts[codes[i]]``, a
    missing value `missing`. Each distinct value is turned into text once (not once per record:
    at 10^6 records and 8 keys the per-record texts took 60 s of a comparison); every text
    listed occurs (`encoded`: the column's :func:`encode_values`, when already made). An object column holding other things than text (``1`` and ``True`` are one
    value to a hash table, two texts here) is turned into text record by record, as before."""
    if s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) not in ("string", "empty"):
        seen: dict[str | None, int] = {}
        per = [seen.setdefault(missing if m else _text(v), len(seen)) for v, m in zip(s.tolist(), s.isna().to_numpy())]
        return np.array(per, dtype=np.int64), list(seen)
    codes, uniques = encode_values(s) if encoded is None else encoded
    texts: list[str | None] = [_text(v) for v in uniques]
    codes = codes.astype(np.int64, copy=True)
    if (codes < 0).any():
        codes[codes < 0] = len(texts)
        texts.append(missing)
    first: dict[str | None, int] = {}
    remap = np.array([first.setdefault(t, len(first)) for t in texts], dtype=np.int64)  # equal texts merged
    codes = remap[codes] if len(remap) else codes
    out = list(first)
    used = np.bincount(codes, minlength=len(out)) > 0
    if not used.all():  # (a categorical's unused categories)
        keep = np.cumsum(used) - 1
        codes, out = keep[codes], [t for t, u in zip(out, used) if u]
    return codes, out


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


def _ranges(codes: np.ndarray, texts: list[str | None], keep: np.ndarray, lo: float, hi: float,
            whole: bool) -> np.ndarray | None:
    """[lo, hi] per record (record i's text ``texts[codes[i]]``) by ARX's range parser that
    reads most of the sample, or None (no parser reads any value, or an end of a kept record's
    value does not parse: ARX falls back to the grouping)."""
    read = keep & np.array([t is not None for t in texts], dtype=bool)[codes]
    sample = [texts[c].replace(" ", "") for c in codes[np.flatnonzero(read)[:_SAMPLE]]]
    matches = [sum(1 for s in sample if any(e is not None and _number(e, whole) is not None
                                            for e in _range_ends(p, s))) for p in range(3)]
    if max(matches) == 0:
        return None
    parser = int(np.argmax(matches))
    ends = np.empty((len(texts), 2))
    bad = np.zeros(len(texts), dtype=bool)
    for i, t in enumerate(texts):
        if t is None:
            continue
        a, b = _range_ends(parser, "".join(t.split()))
        x = lo if a is None else _number(a, whole)
        y = hi if b is None else _number(b, whole)
        if x is None or y is None:
            bad[i] = True
            continue
        ends[i] = max(x, lo), min(y, hi)
    if bad[codes[read]].any():
        return None
    out = ends[codes]
    out[~read] = lo, hi
    return out


def _grouped(codes: np.ndarray, keep: np.ndarray, x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """[min, max] of the original values of the records carrying each released label (record
    i's label: code ``codes[i]``; a missing label is one label of its own)."""
    m = int(codes.max()) + 1 if len(codes) else 0
    low, high = np.full(m, np.inf), np.full(m, -np.inf)
    np.minimum.at(low, codes, x)
    np.maximum.at(high, codes, x)
    out = np.column_stack([low[codes], high[codes]])
    out[~keep] = lo, hi
    return out


def _spans(codes: np.ndarray, labels: list[str | None], by: np.ndarray, x: np.ndarray
           ) -> tuple[list[str | None], np.ndarray]:
    """Each label (record i's: ``labels[codes[i]]``; each occurs) and [min, max] over the records
    carrying it of ``x[by[i]]`` (a value per original code): taken over the distinct (label,
    code) pairs, not the records (``np.minimum.at`` over 10^6 records took 0.3 s a key)."""
    m = max(len(x), 1)
    pair = codes * m + by
    if len(labels) * m <= 4 * len(codes) + 1024:
        pair = np.flatnonzero(np.bincount(pair, minlength=len(labels) * m))
    else:
        pair = np.unique(pair)
    label, code = np.divmod(pair, m)
    low, high = np.full(len(labels), np.inf), np.full(len(labels), -np.inf)
    np.minimum.at(low, label, x[code])
    np.maximum.at(high, label, x[code])
    return list(labels), np.column_stack([low, high])


def _numeric_key(o: pd.Series, r: pd.Series, kept: np.ndarray, encoded: tuple[np.ndarray, pd.Index] | None = None
                 ) -> tuple[str, np.ndarray, np.ndarray]:
    """A numeric key's midpoints, original and release, and how the release was read."""
    x = pd.to_numeric(o, errors="coerce").to_numpy(dtype=float)
    o_missing = np.isnan(x)
    x = np.where(o_missing, 0.0, x)  # ARX's parser reads a missing number as 0
    lo, hi = float(x.min()), float(x.max())
    r_missing = r.isna().to_numpy()
    codes, texts = _value_texts(r, None, encoded)
    keep = kept & ~(r_missing & ~o_missing) & np.array([t != _SUPPRESSED for t in texts], dtype=bool)[codes]
    whole = pd.api.types.is_integer_dtype(o.dtype) or (not is_numeric_column(o) and bool(np.all(x == np.round(x))))
    nums = [(_number(t, False) if t is not None else 0.0) for t in texts]
    parsed = np.array([v is not None for v in nums], dtype=bool)
    if parsed[codes[keep]].all():
        values = np.array([0.0 if v is None else v for v in nums], dtype=float)
        y = np.where(keep, values[codes], 0.0)
        y[~keep] = (lo + hi) / 2.0
        return "number", x, y
    rng = _ranges(codes, texts, keep, lo, hi, whole)
    if rng is not None:
        return "range", x, (rng[:, 0] + rng[:, 1]) / 2.0
    g = _grouped(codes, keep, x, lo, hi)
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


def _ordinal_key(name: str, o: pd.Series, r: pd.Series, kept: np.ndarray, hierarchy: object | None,
                 encoded: tuple[np.ndarray, pd.Index] | None = None) -> tuple[str, np.ndarray, np.ndarray]:
    """A key read by ARX's hierarchy ordinals (or, without one, the ranks of its values)."""
    oc, o_text = _value_texts(o, "")
    rc, r_text = _value_texts(r, _SUPPRESSED, encoded)
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
        for label, (lo, hi) in zip(*_spans(rc, r_text, oc, ranks)):
            if label not in span and label != _SUPPRESSED:
                span[label] = (int(lo), int(hi))
        span[_SUPPRESSED] = (0, len(values) - 1)
        kind, root = "ranks", None
    for what, codes, texts in (("original", oc, o_text), ("released", rc, r_text)):
        missing = np.array([t not in span for t in texts], dtype=bool)[codes]
        if missing.any():  # the first record's (in record order)
            raise ValueError(f"{what} value {texts[codes[int(np.argmax(missing))]]!r} of key {name!r} is not in its hierarchy.")
    suppressed = ~kept | np.array([t == root for t in r_text], dtype=bool)[rc]
    x = np.array([sum(span[t]) / 2.0 for t in o_text])[oc]
    y = np.where(suppressed, sum(span[_SUPPRESSED]) / 2.0, np.array([sum(span[t]) / 2.0 for t in r_text])[rc])
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
    encoded = {c: encode_values(rel[c]) for c in cols}  # each released key's values, read once
    sup = np.ones(len(orig), dtype=bool)
    for c in cols:  # missing, or ``*`` as ``astype(str)`` writes it (each distinct value once)
        codes, uniques = encoded[c]
        star = np.array([*(str(v) == _SUPPRESSED for v in uniques.astype(str)), True], dtype=bool)
        sup &= star[codes]  # code -1, a missing value: the last entry
    kept = ~sup  # a record whose every key is suppressed is ARX's suppressed record (an outlier)
    kinds, xs, ys = {}, [], []
    for c in cols:
        kind, x, y = (_numeric_key(orig[c], rel[c], kept, encoded[c]) if c in num
                      else _ordinal_key(c, orig[c], rel[c], kept, hs.get(c), encoded[c]))
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
