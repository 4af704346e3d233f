"""Numbers in :func:`sdc.global_recode` (exactly one of):

* ``width=w`` -- bands of width *w* from ``origin``: with ``closed="left"`` the band of *x* is
  ``[o + kw, o + (k+1)w)``, ``k = floor((x - o)/w)``; with ``closed="right"`` (default,
  sdcMicro's) it is ``(o + kw, o + (k+1)w]``, ``k = ceil((x - o)/w) - 1``;
* ``edges=[e0, e1, ...]`` -- R's ``cut(x, edges, right=closed == "right",
  include.lowest=include_lowest)`` as ``globalRecode(x, breaks=edges)`` calls it; a value
  outside every band raises (``outside="error"``) or becomes missing (``outside="missing"``,
  what sdcMicro does);
* ``bins=n`` -- sdcMicro's ``globalRecode(x, breaks=n, method=bin_method)`` edges
  (:func:`sdc.protect._bands.sdcmicro_breaks`), cut with ``include.lowest=TRUE``;
* ``log_base=b`` -- tiers ``[b^k, b^(k+1))`` (or ``(b^k, b^(k+1)]``); zero is a level of its own;
* ``round_to=b`` -- the nearest multiple of *b*, halves away from zero:
  ``sign(x) floor(|x|/b + 1/2) b``.

``labels`` is ``"interval"`` (an ordered categorical of ``"(a,b]"`` labels), ``"lower"``,
``"midpoint"`` or a list of labels, one per band (with ``edges`` or ``bins``).
Source: sdcMicro ``globalRecode`` (``R/globalRecode.R``); R ``base::cut``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_int, check_option
from sdc.protect._bands import (
    BIN_METHODS, LABELS, MAX_BINS, _cut_codes, _labelled, _log_bands, _round_to, _width_bands, cut_labels,
    sdcmicro_breaks,
)
from sdc.protect._common import check_number_or_none, count_changed, restore_numeric

__all__ = ["Banding", "banding", "NUMERIC_MODES"]

NUMERIC_MODES = ("width", "edges", "bins", "log_base", "round_to")


@dataclass(frozen=True)
class Banding:
    """The checked numeric recoding of one call: `mode` and its value, and how bands are made."""

    mode: str
    value: Any
    bin_method: str
    origin: float
    right: bool
    include_lowest: bool
    labels: Any
    custom_labels: list[object] | None
    outside: str

    @property
    def named_labels(self) -> bool:
        """The values become labels (every observed value changes)."""
        return (self.labels == "interval" or self.custom_labels is not None) and self.mode != "round_to"

    def recode(self, x: np.ndarray, like: pd.Series, name: str, n_missing: int) -> tuple[pd.Series, dict[str, Any]]:
        """The banded column and its details."""
        mode, v = self.mode, self.value
        if mode == "round_to":
            return restore_numeric(_round_to(x, v), like), {"recode": f"round_to={v:g}"}
        has_zero = False
        if mode == "width":
            codes, e = _width_bands(x, v, self.origin, self.right)
            interval, det = cut_labels(e, right=self.right), {"recode": f"width={v:g}"}
        elif mode == "log_base":
            codes, e, has_zero = _log_bands(x, v, self.right)
            interval, det = cut_labels(e, right=self.right), {"recode": f"log_base={v:g}"}
        else:
            if mode == "bins":
                e, incl = sdcmicro_breaks(x, v, self.bin_method)
                det = {"recode": f"bins={v} ({self.bin_method})"}
            else:
                e, incl, det = v, self.include_lowest, {"recode": "edges"}
            codes = _cut_codes(x, e, self.right, incl)
            interval = cut_labels(e, right=self.right, include_lowest=incl)
            self._outside(x, codes, e, incl, like, name, n_missing, det)
            if self.custom_labels is not None and len(self.custom_labels) != len(e) - 1:
                raise ValueError(f"`labels` must have one label per band ({len(e) - 1}); got {len(self.custom_labels)}.")
        det["edges"] = [float(b) for b in e]
        lo, hi = np.asarray(e[:-1], dtype=np.float64), np.asarray(e[1:], dtype=np.float64)
        lab = self.custom_labels if self.custom_labels is not None else self.labels
        return _labelled(codes, lo, hi, interval, lab, like, has_zero=has_zero), det

    def _outside(self, x: np.ndarray, codes: np.ndarray, e: np.ndarray, incl: bool, like: pd.Series, name: str,
                 n_missing: int, det: dict[str, Any]) -> None:
        """Values outside every band: an error (``outside="error"`` with edges) or counted."""
        if np.count_nonzero(codes < 0) <= n_missing:
            return
        lost = (codes < 0) & ~np.isnan(x)
        if self.mode == "edges" and self.outside == "error":
            i = int(np.argmax(lost))
            lo_b = "[" if (incl and self.right) or not self.right else "("
            hi_b = "]" if self.right or incl else ")"
            raise ValueError(
                f"column {name!r}: the value {float(x[i]):g} at index {like.index[i]!r} lies outside the bands "
                f"{lo_b}{e[0]:g}, {e[-1]:g}{hi_b}; extend `edges`, set include_lowest=True, or pass "
                "outside='missing' (sdcMicro's behaviour).")
        det["records_outside"] = int(lost.sum())

    def changed(self, x: np.ndarray, new: pd.Series, n_missing: int, always: bool) -> int:
        """Cells changed: every observed value when the values become labels (or dates numbers)."""
        if always or self.named_labels:
            return x.shape[0] - n_missing
        return count_changed(x, new.to_numpy(dtype="float64", na_value=np.nan))

    def parameters(self) -> dict[str, Any]:
        """The mode's value (edges as floats)."""
        return {self.mode: [float(e) for e in self.value] if self.mode == "edges" else self.value}

    def band_parameters(self) -> dict[str, Any]:
        """How the bands are made (after the dates' parameters in the log)."""
        out: dict[str, Any] = {}
        if self.mode == "bins":
            out["bin_method"] = self.bin_method
        if self.mode != "round_to":
            out.update(closed="right" if self.right else "left",
                       labels=self.custom_labels if self.custom_labels is not None else self.labels)
            if self.mode == "width":
                out["origin"] = self.origin
            if self.mode == "edges":
                out.update(include_lowest=self.include_lowest, outside=self.outside)
        return out


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


def _mode_value(mode: str, value: Any, bin_method: Any) -> tuple[Any, str]:
    if mode == "edges":
        return _check_edges(value), bin_method
    if mode == "bins":
        return check_int(value, "bins", min_value=1, max_value=MAX_BINS), check_option(bin_method, "bin_method",
                                                                                        BIN_METHODS)
    v = check_number_or_none(value, mode)
    low = 1 if mode == "log_base" else 0
    if v <= low:
        raise ValueError(f"`{mode}` must be > {low}; got {v:g}.")
    return v, bin_method


def _labels(labels: Any, mode: str) -> tuple[Any, list[object] | None]:
    from sdc.protect.recode_categories import plain_of

    if isinstance(labels, str):
        return check_option(labels, "labels", LABELS), None
    if isinstance(labels, Sequence):
        if mode not in ("edges", "bins"):
            raise ValueError("a list of `labels` needs `edges` or `bins`; other bands name themselves.")
        custom = [plain_of(v) for v in labels]
        if len(set(map(repr, custom))) != len(custom):
            raise ValueError(f"`labels` must be distinct; got {list(labels)!r}.")
        return labels, custom
    raise TypeError(f"`labels` must be 'interval', 'lower', 'midpoint' or a list of labels; got {labels!r}.")


def banding(given: dict[str, Any], *, bin_method: Any, origin: Any, right: bool, include_lowest: bool, labels: Any,
            outside: str) -> Banding | None:
    """The checked numeric recoding of the one mode given in `given` (mode -> value, None
    values ignored); None when no mode is given (the labels are checked all the same)."""
    modes = [k for k in NUMERIC_MODES if given.get(k) is not None]
    if len(modes) > 1:
        raise ValueError(f"`global_recode` takes one of width, edges, bins, log_base, round_to; got {', '.join(modes)}.")
    mode = modes[0] if modes else None
    value, method = _mode_value(mode, given[mode], bin_method) if mode else (None, bin_method)
    origin = check_number_or_none(origin, "origin")
    labels, custom = _labels(labels, mode or "")
    if mode is None:
        return None
    return Banding(mode, value, method, origin, right, include_lowest, labels, custom, outside)
