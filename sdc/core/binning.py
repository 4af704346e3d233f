"""Binning of continuous variables into labelled intervals, recorded for the audit trail.

A continuous key (age, income) or sensitive variable (a lab value) is usually assessed in
bands. :func:`bin_column` turns a numeric column into an ordered categorical with labels
such as ``"0--6"``, ``"6--12"``: intervals are closed on the left and open on the right,
``[a, b)``, except the last, which is closed, ``[a, b]``. Edges may be ``-inf``/``inf``
for open-ended bands (``"65--inf"``). The :class:`Binning` record says exactly what was
done, so a report can state it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._validation import check_columns, is_real_numeric

__all__ = ["Binning", "bin_column", "apply_binning", "BinSpec"]

#: A binning request: a list of edges, ``{"quantiles": q}`` for q equal-count bins, or
#: ``{"width": w}`` (optionally ``"origin": o``) for bins of width w aligned on o (default 0).
BinSpec = Sequence[float] | Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Binning:
    """What was done to one column: its edges, labels, and the method that chose them."""

    column: str
    method: str                      # "edges", "quantiles=q" or "width=w"
    edges: tuple[float, ...]
    labels: tuple[str, ...] = field(repr=False)

    def to_dict(self) -> dict[str, object]:
        return {"column": self.column, "method": self.method, "edges": list(self.edges), "labels": list(self.labels)}


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:g}"


def bin_column(s: pd.Series, spec: BinSpec) -> tuple[pd.Series, Binning]:
    """Bin a numeric Series; return the ordered categorical and the :class:`Binning` record.

    Parameters
    ----------
    s : pandas.Series
        Numeric values; missing values stay missing.
    spec : sequence of float, {"quantiles": q} or {"width": w}
        Increasing edges covering every value; the number of equal-count bins (edges at
        the sample quantiles, duplicates dropped); or the width of equal-width bins, whose
        edges are multiples of w from ``origin`` (default 0): width 10 gives 30--40, 40--50.
    """
    name = str(s.name)
    if not is_real_numeric(s.dtype):
        raise ValueError(f"column {name!r} must be numeric to be binned; got dtype {s.dtype}.")
    values = s.to_numpy(dtype="float64", na_value=np.nan)
    observed = values[~np.isnan(values)]
    if isinstance(spec, Mapping) and "width" in spec:
        edges, method = _width_edges(name, spec, observed)
    elif isinstance(spec, Mapping):
        if set(spec) != {"quantiles"}:
            raise ValueError(f"bins for {name!r} must be a list of edges or {{'quantiles': q}}; got {dict(spec)!r}.")
        q = spec["quantiles"]
        if isinstance(q, bool) or not isinstance(q, numbers.Integral) or q < 2:
            raise ValueError(f"bins for {name!r}: the number of quantiles must be an integer >= 2; got {q!r}.")
        q = int(q)
        if observed.size == 0:
            raise ValueError(f"column {name!r} has no observed values to take quantiles of.")
        edges = np.unique(np.quantile(observed, np.linspace(0, 1, q + 1)))
        if edges.size < 2:
            edges = np.array([edges[0], edges[0]])
        method = f"quantiles={q}"
    else:
        try:
            edges = np.asarray([float(e) for e in spec], dtype="float64")
        except (TypeError, ValueError):
            raise ValueError(f"bin edges for {name!r} must be numbers; got {spec!r}.") from None
        if edges.size < 2 or np.isnan(edges).any() or not (np.diff(edges) > 0).all():
            raise ValueError(f"bin edges for {name!r} must be at least two increasing numbers; got {list(spec)!r}.")
        method = "edges"
        outside = (observed < edges[0]) | (observed > edges[-1])
        if outside.any():
            v = observed[outside][0]
            raise ValueError(
                f"column {name!r} has the value {v:g} outside the bin edges [{_fmt(edges[0])}, {_fmt(edges[-1])}]; "
                "extend the edges (-inf and inf are allowed)."
            )
    labels = tuple(f"{_fmt(a)}--{_fmt(b)}" for a, b in zip(edges[:-1], edges[1:]))
    if edges.size == 2 and edges[0] == edges[1]:
        labels = (f"{_fmt(edges[0])}--{_fmt(edges[1])}",)
        codes = np.where(np.isnan(values), -1, 0)
    else:
        # [a, b) for every bin but the last, which also takes its right edge.
        codes = np.searchsorted(edges, values, side="right") - 1
        codes = np.where(values == edges[-1], len(labels) - 1, codes)
        codes = np.where(np.isnan(values), -1, codes)
    cat = pd.Categorical.from_codes(codes, categories=list(labels), ordered=True)
    out = pd.Series(cat, index=s.index, name=s.name)
    return out, Binning(column=name, method=method, edges=tuple(float(e) for e in edges), labels=labels)


_MAX_WIDTH_BINS = 100_000


def _width_edges(name: str, spec: Mapping[str, float], observed: np.ndarray) -> tuple[np.ndarray, str]:
    if set(spec) - {"width", "origin"}:
        raise ValueError(f"bins for {name!r}: a width spec takes 'width' and 'origin' only; got {dict(spec)!r}.")
    try:
        w, origin = float(spec["width"]), float(spec.get("origin", 0.0))
    except (TypeError, ValueError):
        raise ValueError(f"bin width for {name!r} must be a number; got {spec['width']!r}.") from None
    if not (math.isfinite(w) and w > 0 and math.isfinite(origin)):
        raise ValueError(f"bin width for {name!r} must be a positive number; got {spec['width']!r}.")
    if observed.size == 0:
        raise ValueError(f"column {name!r} has no observed values to bin.")
    lo = math.floor((float(observed.min()) - origin) / w)
    hi = math.floor((float(observed.max()) - origin) / w) + 1
    if hi - lo > _MAX_WIDTH_BINS:
        raise ValueError(f"bin width {w:g} for {name!r} gives {hi - lo:,} bins (at most {_MAX_WIDTH_BINS:,}); "
                         "choose a wider width.")
    edges = origin + w * np.arange(lo, hi + 1, dtype="float64")
    return edges, f"width={w:g}" + (f", origin={origin:g}" if origin else "")


def apply_binning(data: pd.DataFrame, bins: Mapping[str, BinSpec] | None) -> tuple[pd.DataFrame, tuple[Binning, ...]]:
    """A copy of `data` with the given columns binned (the input is not modified).

    The copy is shallow: the binned columns are new, the others are `data`'s own arrays (every
    measure only reads its frame; copying a million records' columns for each binning costs
    more than the binning)."""
    if not bins:
        return data, ()
    cols = check_columns(data, list(bins), role="bins")
    out = data.copy(deep=False)  # assigning a column below replaces it in `out` only
    records = []
    for c in cols:
        out[c], rec = bin_column(data[c], bins[c])
        records.append(rec)
    return out, tuple(records)
