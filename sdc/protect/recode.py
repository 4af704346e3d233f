"""Global recoding and top/bottom coding (sdcMicro's ``globalRecode``, ``groupAndRename``, ``topBotCoding``).

:func:`global_recode` coarsens every record of a variable the same way, one family per call:
numbers into bands or rounded (:mod:`sdc.protect.recode_numbers`, the bands themselves in
:mod:`sdc.protect._bands`), dates to years, months or ages (:mod:`sdc.protect.recode_dates`),
categories merged, pooled or truncated (:mod:`sdc.protect.recode_categories`).
:func:`top_bottom_code` replaces values beyond a bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import COUNT, POSITIVE, Anything, Choice, Edges, Either, Flag, Real, Whole
from sdc._validation import check_option
from sdc.protect._bands import BIN_METHODS, LABELS, MAX_BINS, cut_labels, sdcmicro_breaks
from sdc.protect._common import (
    check_number_or_none, check_variables, integer_like, numeric_values, output_frame, restore_numeric,
)
from sdc.protect._rcode import RStep, StepRun, r_value
from sdc.protect._declare import ROW_WISE, Listed, Table, param, protection_method
from sdc.protect._result import ProtectionResult
from sdc.protect.recode_categories import CategoryRecode, category_recode
from sdc.protect.recode_dates import DateRecode, date_recode
from sdc.protect.recode_numbers import Banding, banding

__all__ = ["global_recode", "top_bottom_code", "cut_labels", "sdcmicro_breaks"]



def _family(bands: Banding | None, dates: DateRecode | None, categories: CategoryRecode | None) -> None:
    """One family per call: numbers (optionally of dates), dates, or categories."""
    first = ([bands.mode] if bands else []) + (["date" if dates.date is not None else "age_at"] if dates else [])
    if categories is not None and first:
        raise ValueError(f"`{categories.label.split('+')[0]}` recodes categories and cannot be combined with "
                         f"`{first[0]}` in one call; use two steps.")
    if bands is None and dates is None and categories is None:
        raise ValueError("`global_recode` needs one of width, edges, bins, log_base, round_to, date, age_at, "
                         "truncate, mapping or rare.")
    if dates is not None and dates.date == "month" and bands is not None:
        raise ValueError(f"`date` 'month' gives text and cannot be banded with `{bands.mode}`.")


def _recode_column(s: pd.Series, bands: Banding | None, dates: DateRecode | None,
                   categories: CategoryRecode | None) -> tuple[pd.Series, int, dict[str, Any]]:
    """One variable recoded: (new column, cells changed, details)."""
    if categories is not None:
        return categories.recode(s)
    det: dict[str, Any] = {}
    like, always = s, False
    if dates is not None:
        if dates.date == "month":
            new, n = dates.months(s)
            return new, n, {"recode": "date=month"}
        x, n_obs = dates.numbers(s)
        like = pd.Series(np.zeros(len(s), dtype=np.int64), index=s.index, name=s.name)
        det["recode"], always = dates.label, True
        if bands is None:
            return restore_numeric(x, like), n_obs, det
    else:
        x = numeric_values(s, "global_recode", copy=False)  # read only
    n_missing = int(np.count_nonzero(np.isnan(x)))
    new, det2 = bands.recode(x, like, str(s.name), n_missing)
    det.update(det2)
    return new, bands.changed(x, new, n_missing, always), det


def _parameters(cols: tuple[str, ...], bands: Banding | None, dates: DateRecode | None,
                categories: CategoryRecode | None) -> dict[str, Any]:
    """The log's parameters, in the order the log has always written them."""
    params: dict[str, Any] = {"variables": list(cols), **(bands.parameters() if bands else {})}
    if dates is not None:
        params.update({"date": dates.date} if dates.date is not None else {"age_at": dates.ref.date().isoformat()})
    params.update(categories.parameters() if categories else {})
    return {**params, **(bands.band_parameters() if bands else {})}


def _r_global_recode(run: StepRun) -> RStep:
    """Bands of a width or between edges: sdcMicro's ``globalRecode`` (closed on the right, as
    sdc's default), or base R's ``cut(right = FALSE)`` for ``closed = "left"`` (sdcMicro has no
    left-closed bands); the labels are the release's."""
    other = sorted(set(run.parameters) - {"variables", "width", "edges", "closed", "origin"})
    if other:
        return RStep(("data  # not reproduced",), False, f"sdcMicro's globalRecode has no counterpart of "
                     f"{', '.join(other)}: not reproduced")
    left = run.parameters.get("closed", "right") == "left"
    code = []
    for v in run.variables:
        d = run.details.get(v)
        edges, labels = (d.get("edges") if isinstance(d, dict) else None), run.categories.get(v)
        if edges is None or labels is None or len(labels) != len(edges) - 1:
            return RStep(("data  # not reproduced",), False, f"the bands of {v!r} are not recorded as edges")
        x = f"as.numeric(data[[{r_value(v)}]])"
        if left:
            code.append(f"data[[{r_value(v)}]] <- as.character(cut({x}, breaks = {r_value(edges)}, labels = "
                        f"{r_value(list(labels))}, right = FALSE, include.lowest = TRUE))")
        else:
            code.append(f"data[[{r_value(v)}]] <- as.character(sdcMicro::globalRecode({x}, breaks = "
                        f"{r_value(edges)}, labels = {r_value(list(labels))}))")
    how = ("base R's cut(right = FALSE): sdcMicro's globalRecode closes bands on the right" if left
           else "sdcMicro's globalRecode")
    return RStep(tuple(code) + ("data",), True, f"{how}; the same cells")

def _recode_produces(p: Mapping[str, Any]) -> str | None:
    """What a global_recode step leaves: years and ages are numbers, bands numbers unless written
    as intervals or label text, months and category recodes text-like (None: as the values)."""
    banded = any(p.get(k) is not None for k in ("width", "edges", "bins", "log_base", "round_to"))
    labels = p.get("labels", "interval")
    if banded:
        if p.get("round_to") is not None or labels in ("lower", "midpoint"):
            return "numbers"
        if isinstance(labels, (list, tuple)):
            return "numbers" if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in labels) else "text"
        return "text"
    if p.get("date") == "year" or p.get("age_at") is not None:
        return "numbers"
    if p.get("date") == "month" or p.get("truncate") is not None:
        return "text"
    return None


@protection_method(
    "global_recode", sdcmicro=_r_global_recode, produces=_recode_produces, summary="bands, dates, merging, truncation, rounding", changes_categories=True, repeatable=True,
    dask=ROW_WISE, example={"variables": ["age"], "width": 10},
    options={
        "width": param(POSITIVE, "bands of this width", numbers=True),
        "edges": param(Edges(), "bands between these edges", numbers=True),
        "bins": param(Whole(1, MAX_BINS), "this many bands, placed as sdcMicro does", numbers=True,
                      whole_file="the bands are placed from the whole file; give edges or a width instead"),
        "bin_method": param(Choice(BIN_METHODS), "how `bins` places the bands"),
        "log_base": param(Real(1.0, low_open=True), "logarithmic tiers of this base", numbers=True),
        "round_to": param(POSITIVE, "the nearest multiple of this", numbers=True),
        "origin": param(Real(), "where width bands start"),
        "closed": param(Choice(("right", "left")), "which end of a band is closed"),
        "include_lowest": param(Flag(), "close the outer end of the outer band"),
        "labels": param(Either((Choice(LABELS), Listed("a list of labels"))), "how a band is written"),
        "outside": param(Choice(("error", "missing")), "a value outside every edge: an error or missing"),
        "date": param(Choice(("year", "month")), "dates to years or months", dates=True),
        "age_at": param(Anything(), "dates of birth to ages at this date (a date such as '2024-01-01')", dates=True),
        "truncate": param(COUNT, "keep this many characters of each code"),
        "mapping": param(Table("a table of old value = new value"), "merge and rename values"),
        "rare": param(Whole(min=2), "pool the values of fewer records",
                      whole_file="the rare values are counted over the whole file; give a mapping instead"),
        "rare_label": param(Anything(), "the pooled values' label"),
    })
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

    * **numbers** -- one of ``width`` (from ``origin``), ``edges``, ``bins`` (with
      ``bin_method``), ``log_base``, ``round_to``; bands closed on the right (sdcMicro's
      default) or the left (``closed``), written as ``labels`` ("interval", "lower",
      "midpoint" or one label per band: numbers stay a numeric column, text labels make an
      ordered categorical); see :mod:`sdc.protect.recode_numbers` for the formulas;
    * **dates** -- ``date="year"`` or ``"month"``, or ``age_at=reference`` (the age in
      completed years), years and ages optionally banded by a numbers option
      (:mod:`sdc.protect.recode_dates`);
    * **categories** -- any of ``truncate``, ``mapping`` (sdcMicro's ``groupAndRename``),
      ``rare`` (pooled into ``rare_label``), applied in this order
      (:mod:`sdc.protect.recode_categories`).

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
    frame, cols = check_variables(data, variables)
    right = check_option(closed, "closed", ("right", "left")) == "right"
    outside = check_option(outside, "outside", ("error", "missing"))
    if not isinstance(include_lowest, bool):
        raise TypeError(f"`include_lowest` must be True or False; got {include_lowest!r}.")
    given = {"width": width, "edges": edges, "bins": bins, "log_base": log_base, "round_to": round_to}
    bands = banding(given, bin_method=bin_method, origin=origin, right=right, include_lowest=include_lowest,
                    labels=labels, outside=outside)
    dates, categories = date_recode(date, age_at), category_recode(truncate, mapping, rare, rare_label)
    _family(bands, dates, categories)
    out = output_frame(frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        out[v], changed[v], details[v] = _recode_column(frame[v], bands, dates, categories)
    return ProtectionResult(method="global_recode", data=out, variables=cols,
                            parameters=_parameters(cols, bands, dates, categories), seed=None,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details)


def _r_top_bottom_code(run: StepRun) -> RStep:
    """sdcMicro's ``topBotCoding``, once per bound."""
    p = run.parameters
    code = []
    for v in run.variables:
        x = f"data[[{r_value(v)}]]"
        for kind, bound, value in (("top", p.get("top"), p.get("top_value")),
                                   ("bottom", p.get("bottom"), p.get("bottom_value"))):
            if bound is not None:
                rep = bound if value is None else value
                code.append(f"{x} <- as.numeric(sdcMicro::topBotCoding(as.numeric({x}), value = {r_value(bound)}, "
                            f"replacement = {r_value(rep)}, kind = {r_value(kind)}))")
    return RStep(tuple(code) + ("data",), True, "sdcMicro's topBotCoding; the same cells")

@protection_method(
    "top_bottom_code", sdcmicro=_r_top_bottom_code, summary="values beyond a bound replaced by a value", numeric=True, repeatable=True,
    dask=ROW_WISE, example={"variables": ["bmi"], "top": 40},
    options={"top": param(Real(), "values above it are replaced", above="bottom"),
             "top_value": param(Real(), "what replaces them (default: top)", above="bottom_value"),
             "bottom": param(Real(), "values below it are replaced"),
             "bottom_value": param(Real(), "what replaces them (default: bottom)")})
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
    if top is not None and bottom is not None and top < bottom:  # pragma: no cover - the declaration's check
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

