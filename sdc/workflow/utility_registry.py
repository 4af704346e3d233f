"""The one registry of the utility measures: what ``sdc compare`` shows of a release's utility
and what ``sdc sweep`` tabulates per setting (and may put on its utility axis).

Each :class:`~sdc.workflow.measure.UtilityMeasure` declares its name and label, how it runs on
a release (a :class:`~sdc.workflow.measure.UtilityContext`: the original and the release
matched by index, a dropped record withheld, the variables whose values changed, the keys), and
its figures, one label and unit each, in the order they appear: a row of the comparison's
utility table, a column of the sweep. A figure with ``better`` set can be the sweep's utility
axis. Adding a utility measure to compare and sweep touches its module in :mod:`sdc.utility`
and one entry here.

Mlodak's two measures and sdcMicro's robeigen follow (:func:`sdc.il_variables` over the
changed variables; :func:`sdc.il_correl` and :func:`sdc.robust_eigen_loss` over the changed
numeric ones, NaN with fewer than two), then sdcMicro's combined score (:func:`sdc.ai_utility_score`,
what ``sdc advise`` ranks by), ARX's SSE/SST of the keys (:func:`sdc.sse_sst`), and the analyst's
models of ``[[analyses]]`` (:func:`sdc.analysis_validity`: one figure per analysis, none without), and,
after record swapping, sdcMicro's table-based infoLoss over the swapped tables (:func:`sdc.info_loss`).

The four headline measures read one :func:`sdc.utility_summary` of the release (IL1, the
eigenvalue similarity, the non-uniform entropy, records retained and cells suppressed),
computed once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from sdc._validation import check_columns, is_numeric_column
from sdc.utility import (
    ai_utility_score, analysis_validity, discernibility, il_correl, il_variables, info_loss, robust_eigen_loss, sse_sst, utility_summary,
)
from sdc.workflow.analyses import fit_analyses
from sdc.workflow.measure import BITS, COUNT, NUMBER, PERCENT, SHARE, Figure, UtilityContext, UtilityMeasure

__all__ = ["UTILITY_MEASURES", "UTILITY_AXES", "utility_axes", "headline", "utility_figure", "COMPARE_COLUMN_LABELS",
           "ASSOCIATION_LABELS"]

#: The headings of the comparison's marginal and association tables (their code names stay
#: the columns of the CSV and JSON files; docs/compare-sweep.md defines each).
COMPARE_COLUMN_LABELS: dict[str, str] = {
    "kind": "kind", "max_deviation_pp": "largest shift of a category's share (points)",
    "total_variation": "total variation distance", "max_shift_pp": "largest shift of a category's share (points)",
    "mean_before": "mean before", "mean_after": "mean after", "sd_before": "sd before", "sd_after": "sd after",
    "variable_1": "variable 1", "variable_2": "variable 2", "measure": "association",
    "cells_changed": "cells changed", "cells_suppressed": "cells suppressed",
    "share_changed": "cells changed, share of the matched records (0 to 1)",
}

#: The associations of :func:`sdc.association_change` as a reader names them.
ASSOCIATION_LABELS: dict[str, str] = {"cramers_v": "Cramér's V", "pearson": "Pearson correlation",
                                      "spearman": "Spearman correlation", "kendall": "Kendall's tau", "eta": "correlation ratio (eta)",
                                      "correlation_ratio": "correlation ratio (eta)"}


def headline(ctx: UtilityContext) -> Any:
    """The release's :func:`sdc.utility_summary` over the context's variables and keys, computed
    once for the measures that read it."""
    if "summary" not in ctx.shared:
        ctx.shared["summary"] = utility_summary(ctx.original, ctx.released, variables=list(ctx.variables),
                                                keys=list(ctx.keys) or None, suppressed=ctx.suppressed)
    return ctx.shared["summary"]


def _numeric(ctx: UtilityContext) -> list[str]:
    """The context's variables numeric in both files (an unknown name is kept, for the measure
    to refuse in one line)."""
    o, r = ctx.original, ctx.released
    return [v for v in ctx.variables
            if v not in o.columns or v not in r.columns or (is_numeric_column(o[v]) and is_numeric_column(r[v]))]


def _correl(ctx: UtilityContext) -> Any:
    """Mlodak's correlation loss over the changed numeric variables (None: fewer than two)."""
    num = _numeric(ctx)
    return il_correl(ctx.original, ctx.released, num) if len(num) >= 2 else None


def _robeigen(ctx: UtilityContext) -> Any:
    """sdcMicro's robeigen over the changed numeric variables, MCD seed 0 (None: fewer than two)."""
    num = _numeric(ctx)
    return robust_eigen_loss(ctx.original, ctx.released, num, seed=0) if len(num) >= 2 else None


def score_variables(ctx: UtilityContext) -> tuple[list[str], list[str]]:
    """The keys and numeric variables of sdcMicro's combined score: the context's keys (in both
    files), and the keys and changed variables numeric in the original (sdcMicro's numVars; a
    variable missing from a file is kept, for the score to refuse in one line)."""
    o, r = ctx.original, ctx.released
    keys = _keys_in_both(ctx)
    numeric = [v for v in dict.fromkeys([*keys, *ctx.variables])  # an unknown name is kept, to be refused
               if v not in o.columns or v not in r.columns or is_numeric_column(o[v])]
    return keys, numeric


def _ai_score(ctx: UtilityContext) -> Any:
    """sdcMicro's ai_utility_score of the release (None: no keys)."""
    keys, numeric = score_variables(ctx)
    return ai_utility_score(ctx.original, ctx.released, keys, numeric) if keys else None


def _sse_sst(ctx: UtilityContext) -> Any:
    """ARX's SSE/SST over the keys in both files (None: no keys); a text key by its values' ranks
    (a comparison has no hierarchies)."""
    _check_variables(ctx)
    keys = _keys_in_both(ctx)
    return sse_sst(ctx.original, ctx.released, keys) if keys else None


def _keys_in_both(ctx: UtilityContext) -> list[str]:
    """The context's keys that both files hold."""
    return [k for k in ctx.keys if k in ctx.original.columns and k in ctx.released.columns]


def _check_variables(ctx: UtilityContext) -> None:
    """The context's variables are columns of both files (refused in one line as every measure
    refuses them), for the measures that read other columns."""
    for frame, where in ((ctx.original, "the original"), (ctx.released, "the release")):
        check_columns(frame, list(ctx.variables), role="variables", allow_empty=True, where=where)


def _discernibility(ctx: UtilityContext) -> Any:
    """ARX's discernibility and average class size of the keys (None: no keys); a missing key value
    is a value (ARX's suppressed "*"), so no wildcard matching."""
    _check_variables(ctx)
    keys = _keys_in_both(ctx)
    return discernibility(ctx.original, ctx.released, keys, missing="category") if keys else None


def _validity(ctx: UtilityContext) -> Any:
    """The analyst's models (``[[analyses]]``) fitted to both files (None: no analysis
    configured). A dropped record is withheld, so each fit drops it."""
    _check_variables(ctx)
    return fit_analyses(ctx.analyses, ctx.original, ctx.released) if ctx.analyses else None


def _info_loss(ctx: UtilityContext) -> Any:
    """sdcMicro's infoLoss over the tables the protection swapped on purpose (None: no record
    swapping, or none of its variables in both files)."""
    _check_variables(ctx)
    tv = [v for v in ctx.tables if v in ctx.original.columns and v in ctx.released.columns]
    return info_loss(ctx.original, ctx.released, tv) if tv else None


def _mean_of(metric: str) -> Callable[[Any, Any], float]:
    return lambda res, cfg: float(res.measures.loc["Mean", metric])


def _attr(name: str) -> Callable[[Any, Any], float]:
    """A figure's value: the result's attribute `name` (NaN when the measure did not run)."""
    return lambda res, cfg: math.nan if res is None else float(getattr(res, name))


_total, _value = _attr("total"), _attr("value")


#: The utility measures of compare and sweep, in the order of their figures.
UTILITY_MEASURES: tuple[UtilityMeasure, ...] = (
    UtilityMeasure(
        # Not sdcMicro's IL1 (a sum of 100 |x' - x| / |x|: sdc.il1s(...).il1): the mean
        # share of the range (Yancey, Winkler & Creecy 2002), so its label says so.
        "information_loss", "information loss (share of the range)", headline, function=utility_summary,
        figures=(Figure("il1_overall", "information loss (share of the range)", SHARE, better="lower",
                        sweep="il1_overall", column="information loss (0 to 1)",
                        value=lambda s, cfg: float(s.il1_overall)),),
        per_variable=Figure("il1", "information loss, share of the range", SHARE, sweep="il1",
                            value=lambda s, cfg: {v: float(x) for v, x in s.il1.items()})),
    UtilityMeasure(
        "eigen_similarity", "eigenvalue similarity", headline, function=utility_summary,
        figures=(Figure("eigen_similarity_pct", "eigenvalue similarity", PERCENT, better="higher",
                        sweep="eigen_similarity_pct", value=lambda s, cfg: float(s.eigen_similarity_pct)),)),
    UtilityMeasure(
        "non_uniform_entropy", "non-uniform entropy", headline, function=utility_summary,
        figures=(Figure("nue", "non-uniform entropy", BITS, sweep="nue", value=lambda s, cfg: float(s.nue)),
                 Figure("nue_normalised", "normalised non-uniform entropy", SHARE, better="lower",
                        sweep="nue_normalised", value=lambda s, cfg: float(s.nue_normalised)),
                 Figure("nue_utility_retained", "utility retained (1 - NUE norm.)", SHARE, better="higher",
                        sweep="nue_utility_retained", value=lambda s, cfg: float(s.nue_utility_retained)))),
    UtilityMeasure(
        "suppression", "records retained and cells suppressed", headline, function=utility_summary,
        figures=(Figure("records_retained", "records retained", COUNT, sweep="records_retained",
                        value=lambda s, cfg: int(s.records_retained)),
                 Figure("pct_records_retained", "records retained", PERCENT, better="higher",
                        sweep="pct_records_retained", value=lambda s, cfg: float(s.pct_records_retained)),
                 Figure("cells_suppressed", "cells suppressed", COUNT, better="lower", sweep="cells_suppressed",
                        value=lambda s, cfg: int(s.cells_suppressed)))),
    UtilityMeasure(
        # sdcMicro's IL_variables over the changed variables (not every common column).
        "il_variables", "Mlodak's distance per cell", lambda ctx: il_variables(ctx.original, ctx.released,
                                                                             list(ctx.variables)),
        function=il_variables,
        figures=(Figure("il_variables", "Mlodak's distance per cell (IL_variables)", SHARE, better="lower",
                        sweep="il_variables", value=_value),)),
    UtilityMeasure(
        "il_correl", "Mlodak's correlation loss", _correl, function=il_correl,
        figures=(Figure("il_correl", "Mlodak's correlation loss (IL_correl)", SHARE, better="lower",
                        sweep="il_correl", value=_value),)),
    UtilityMeasure(
        "robust_eigen", "robust eigenvalue difference", _robeigen, function=robust_eigen_loss,
        figures=(Figure("robust_eigen", "robust eigenvalue difference (sdcMicro robeigen)", NUMBER, better="lower",
                        sweep="robust_eigen", value=_value),)),
    UtilityMeasure(
        # sdcMicro's combined score (suppression rate, category loss, IL1s per cell); sdc advise ranks by it.
        "ai_utility_score", "sdcMicro's combined utility score", _ai_score, function=ai_utility_score,
        figures=(Figure("ai_score", "combined score: suppression, category loss, IL1s (sdcMicro's ai_utility_score, loss >= 0)",
                        NUMBER, better="lower", sweep="ai_score", value=_total),)),
    UtilityMeasure(
        # ARX's QualityModelRowOrientedSSESST over the keys (numeric keys as numbers, text keys by ranks).
        "sse_sst", "ARX's SSE/SST", _sse_sst, function=sse_sst,
        figures=(Figure("sse_sst", "SSE/SST: 1 - SSE/SST of the keys read as numbers (ARX)", SHARE, better="higher",
                        sweep="sse_sst", value=_value),)),
    UtilityMeasure(
        # ARX's Discernibility and AECS of the release's classes over the keys (the hierarchy-free quality models).
        "discernibility", "ARX's discernibility and average class size", _discernibility, function=discernibility,
        figures=(Figure("discernibility", "discernibility of the keys: sum of squared class sizes (ARX's DM)", NUMBER,
                        sweep="discernibility", value=_attr("discernibility_after")),
                 Figure("dm_utility_retained", "discernibility utility retained (ARX's normalised DM)", SHARE,
                        better="higher", sweep="dm_utility_retained", value=_attr("discernibility_utility_retained")),
                 Figure("average_class_size", "average class size of the keys (ARX's AECS)", NUMBER,
                        sweep="average_class_size", value=_attr("average_class_size_after")))),
    UtilityMeasure(
        # The analyst's own models (OLS, logit, Poisson, Cox): Karr et al.'s interval overlap per analysis.
        "analysis_validity", "analysis validity", _validity, function=analysis_validity, optional=True,
        per_variable=Figure("ci_overlap", "mean confidence-interval overlap of the model's coefficients (Karr et al.; "
                                          "1 same intervals, 0 touching, below 0 apart)", NUMBER, sweep="ci_overlap",
                            value=lambda res, cfg: {} if res is None else {n: float(r.mean_overlap)
                                                                             for n, r in res.fits.items()})),
    UtilityMeasure(
        # sdcMicro's infoLoss of a record swap, over every table of its geography and risk variables.
        "info_loss", "table-based information loss of the swapped tables (sdcMicro's infoLoss)", _info_loss,
        function=info_loss, optional=True,
        figures=(Figure("info_loss_absd", "swapped tables: mean absolute difference of a cell (infoLoss absD)", NUMBER,
                        sweep="info_loss_absd", value=_mean_of("absD")),
                 Figure("info_loss_relabsd", "swapped tables: mean relative absolute difference of a cell "
                                             "(infoLoss relabsD)", NUMBER, sweep="info_loss_relabsd",
                        value=_mean_of("relabsD")),
                 Figure("info_loss_abssqrtd", "swapped tables: mean |sqrt(before) - sqrt(after)| of a cell "
                                              "(infoLoss abssqrtD)", NUMBER, sweep="info_loss_abssqrtd",
                        value=_mean_of("abssqrtD")),
                 Figure("info_loss_false_zero", "swapped tables: cells emptied by the swap", COUNT,
                        sweep="info_loss_false_zero", value=lambda res, cfg: int(res.false_zero)))),
)


def utility_axes() -> dict[str, bool]:
    """The figures a sweep may put on its utility axis, and whether higher is better."""
    return {f.sweep: f.better == "higher" for m in UTILITY_MEASURES for f in m.figures
            if f.better is not None and f.sweep}


class _Axes(Mapping[str, bool]):
    """:func:`utility_axes`, read when used (a measure registered later is an axis too)."""

    def __getitem__(self, key: str) -> bool:
        return utility_axes()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(utility_axes())

    def __len__(self) -> int:
        return len(utility_axes())


#: The sweep's utility axes and whether higher is better.
UTILITY_AXES: Mapping[str, bool] = _Axes()


def utility_figure(column: str) -> Figure | None:
    """The utility figure of a sweep column (``il1[age]``: the per-variable IL1), or None."""
    for m in UTILITY_MEASURES:
        for f in m.figures:
            if column in (f.sweep, f.name):
                return f
        pv = m.per_variable
        if pv is not None and pv.sweep and column.startswith(f"{pv.sweep}["):
            return pv
    return None
