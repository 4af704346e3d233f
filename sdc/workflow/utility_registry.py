"""The one registry of the utility measures: what ``sdc compare`` shows of a release's utility
and what ``sdc sweep`` tabulates per setting (and may put on its utility axis).

Each :class:`~sdc.workflow.measure.UtilityMeasure` declares its name and label, how it runs on
a release (a :class:`~sdc.workflow.measure.UtilityContext`: the original and the release
matched by index, a dropped record withheld, the variables whose values changed, the keys), and
its figures, one label and unit each, in the order they appear: a row of the comparison's
utility table, a column of the sweep. A figure with ``better`` set can be the sweep's utility
axis. Adding a utility measure to compare and sweep touches its module in :mod:`sdc.utility`
and one entry here.

The four headline measures read one :func:`sdc.utility_summary` of the release (IL1, the
eigenvalue similarity, the non-uniform entropy, records retained and cells suppressed),
computed once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sdc.utility import utility_summary
from sdc.workflow.measure import BITS, COUNT, PERCENT, SHARE, Figure, UtilityContext, UtilityMeasure

__all__ = ["UTILITY_MEASURES", "UTILITY_AXES", "utility_axes", "headline", "utility_figure"]


def headline(ctx: UtilityContext) -> Any:
    """The release's :func:`sdc.utility_summary` over the context's variables and keys, computed
    once for the measures that read it."""
    if "summary" not in ctx.shared:
        ctx.shared["summary"] = utility_summary(ctx.original, ctx.released, variables=list(ctx.variables),
                                                keys=list(ctx.keys) or None, suppressed=ctx.suppressed)
    return ctx.shared["summary"]


#: The utility measures of compare and sweep, in the order of their figures.
UTILITY_MEASURES: tuple[UtilityMeasure, ...] = (
    UtilityMeasure(
        "information_loss", "information loss (IL1)", headline, function=utility_summary,
        figures=(Figure("il1_overall", "IL1 overall", SHARE, better="lower", sweep="il1_overall",
                        value=lambda s, cfg: float(s.il1_overall)),),
        per_variable=Figure("il1", "IL1", SHARE, sweep="il1", value=lambda s, cfg: {v: float(x) for v, x in s.il1.items()})),
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
