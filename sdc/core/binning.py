"""Binning of continuous variables into labelled intervals, recorded for the audit trail.

A continuous key (age, income) or sensitive variable (a lab value) is usually assessed in
bands. :func:`bin_column` turns a numeric column into an ordered categorical with labels
such as ``"0--6"``, ``"6--12"``: intervals are closed on the left and open on the right,
``[a, b)``, except the last, which is closed, ``[a, b]`` (``closed="right"``: ``(a, b]``,
the first one ``[a, b]``). A value outside given edges is refused (``outside="error"``),
made missing (``"missing"``) or taken by the first/last band (``"extend"``). Edges may be ``-inf``/``inf``
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

__all__ = ["Binning", "bin_column", "apply_binning", "BinSpec", "CLOSED", "OUTSIDE", "BIN_OPTIONS"]

#: Which side of each band is closed: "left", [a, b) (the default), or "right", (a, b].
CLOSED = ("left", "right")
#: What a value outside given edges does: "error" (refused, the default), "missing" (made
#: missing) or "extend" (taken by the first or last band).
OUTSIDE = ("error", "missing", "extend")
#: The modifiers a bin specification (a mapping) may carry besides its edges/width/quantiles.
BIN_OPTIONS = ("closed", "outside")

#: A binning request: a list of edges, ``{"quantiles": q}`` for q equal-count bins, or
#: ``{"width": w}`` (optionally ``"origin": o``) for bins of width w aligned on o (default 0),
#: or ``{"edges": [...]}``; a mapping may add ``"closed"`` (:data:`CLOSED`) and ``"outside"``
#: (:data:`OUTSIDE`).
BinSpec = Sequence[float] | Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Binning:
    """What was done to one column: its edges, labels, and the method that chose them."""

    column: str
    method: str                      # "edges", "quantiles=q" or "width=w"
    edges: tuple[float, ...]
    labels: tuple[str, ...] = field(repr=False)
    closed: str = "left"
    outside: str = "error"
    made_missing: int = 0            # values outside the edges made missing (outside="missing")
    extended: int = 0                # values outside the edges taken by the end bands (outside="extend")

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"column": self.column, "method": self.method, "edges": list(self.edges),
                                "labels": list(self.labels)}
        if self.closed != "left":
            d["closed"] = self.closed
        if self.outside != "error":  # the defaults are left out: the record reads as before
            d |= {"outside": self.outside, "made_missing": self.made_missing, "extended": self.extended}
        return d


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
    spec, closed, outside = _modifiers(name, spec)
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
    out_of = (values < edges[0]) | (values > edges[-1])  # NaN compares False: missing stays missing
    n_out = int(out_of.sum())
    if n_out and outside == "error":
        v = values[out_of][0]
        raise ValueError(
            f"column {name!r} has the value {v:g} outside the bin edges [{_fmt(edges[0])}, {_fmt(edges[-1])}]; "
            "extend the edges (-inf and inf are allowed), or give outside = \"missing\" or \"extend\"."
        )
    if n_out and outside == "missing":
        values = np.where(out_of, np.nan, values)
    elif n_out:
        values = np.clip(values, edges[0], edges[-1])
    labels = tuple(f"{_fmt(a)}--{_fmt(b)}" for a, b in zip(edges[:-1], edges[1:]))
    if edges.size == 2 and edges[0] == edges[1]:
        labels = (f"{_fmt(edges[0])}--{_fmt(edges[1])}",)
        codes = np.where(np.isnan(values), -1, 0)
    else:
        codes = _codes(edges, values, closed, len(labels))
    cat = pd.Categorical.from_codes(codes, categories=list(labels), ordered=True)
    out = pd.Series(cat, index=s.index, name=s.name)
    return out, Binning(column=name, method=method, edges=tuple(float(e) for e in edges), labels=labels,
                        closed=closed, outside=outside, made_missing=n_out if outside == "missing" else 0,
                        extended=n_out if outside == "extend" else 0)


def _modifiers(name: str, spec: BinSpec) -> tuple[BinSpec, str, str]:
    """`spec` without its ``closed``/``outside`` modifiers, and the two (checked)."""
    if not isinstance(spec, Mapping):
        return spec, "left", "error"
    closed, outside = spec.get("closed", "left"), spec.get("outside", "error")
    if closed not in CLOSED:
        raise ValueError(f"bins for {name!r}: closed must be one of {', '.join(map(repr, CLOSED))}; got {closed!r}.")
    if outside not in OUTSIDE:
        raise ValueError(f"bins for {name!r}: outside must be one of {', '.join(map(repr, OUTSIDE))}; got {outside!r}.")
    rest = {k: v for k, v in spec.items() if k not in BIN_OPTIONS}
    if "edges" in rest:
        if set(rest) != {"edges"}:
            raise ValueError(f"bins for {name!r}: edges take closed and outside only; got {dict(spec)!r}.")
        return rest["edges"], closed, outside
    return rest, closed, outside


def _codes(edges: np.ndarray, values: np.ndarray, closed: str, n: int) -> np.ndarray:
    """The band of each value (-1: missing). closed="left": [a, b), the last band [a, b];
    closed="right": (a, b], the first band [a, b]."""
    if closed == "left":
        codes = np.searchsorted(edges, values, side="right") - 1
        codes = np.where(values == edges[-1], n - 1, codes)
    else:
        codes = np.searchsorted(edges, values, side="left") - 1
        codes = np.where(values == edges[0], 0, codes)
    return np.where(np.isnan(values), -1, codes)


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
