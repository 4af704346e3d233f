"""The reports' figures in a notebook: each function draws one figure of an assessment, a
comparison or a sweep on matplotlib axes and returns them.

>>> import sdc, sdc.plot                                      # doctest: +SKIP
>>> a = sdc.assess(sdc.load_config("example.toml"))           # doctest: +SKIP
>>> ax = sdc.plot.risk_distribution(a)                        # doctest: +SKIP
>>> ax.figure.savefig("risk.png")                             # doctest: +SKIP

The drawing is the report's own (:mod:`sdc.report.plots`, one function per figure): the
figure in the report folder and the one in the notebook are the same picture. Each function
takes the :class:`~sdc.workflow.assess.Assessment` (``sdc.assess``'s result), the scenario
(its name or its place, default the first) and `ax`: the axes to draw on (one per panel;
:func:`risk_distribution` draws its histogram alone on one), or None for new axes from
pyplot, which a notebook shows. Each returns the axes it drew on: one Axes, or an array of
Axes for a figure with a panel per sensitive variable.

The comparison's figures (:func:`risk_before_after`, :func:`changed_distributions`,
:func:`correlations`; from ``sdc.compare`` or a ``ProtectionRun`` with its comparison) and the
sweep's (:func:`risk_by_parameter`, :func:`utility_by_parameter`, :func:`risk_utility`; from
``sdc.sweep``) are small multiples laid out as in their reports: each is drawn on a new
pyplot figure, and the function returns its axes (one Axes, or an array of them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sdc.report.compare_plots import COMPARE_FIGURES, comparison_figure
from sdc.report.content import FIGURES
from sdc.report.plots import FIGURE_NAMES, draw, notebook_figures
from sdc.report.sweep import SWEEP_FIGURES, sweep_figure
from sdc.workflow.assess import Assessment
from sdc.workflow.compare import Comparison
from sdc.workflow.sweep import SweepResult

__all__ = list(FIGURE_NAMES) + list(COMPARE_FIGURES) + list(SWEEP_FIGURES) + ["FIGURE_NAMES"]


def _scenario(result: Assessment, scenario: str | int | None) -> Any:
    if not isinstance(result, Assessment):
        raise TypeError(f"result: expected the Assessment sdc.assess returns; got {type(result).__name__}.")
    scenarios = result.scenarios
    if scenario is None:
        return scenarios[0]
    if isinstance(scenario, int) and not isinstance(scenario, bool):
        if not 0 <= scenario < len(scenarios):
            raise ValueError(f"scenario: {scenario} is out of range; the assessment has {len(scenarios)}.")
        return scenarios[scenario]
    for sc in scenarios:
        if sc.scenario.name == scenario:
            return sc
    names = ", ".join(repr(sc.scenario.name) for sc in scenarios)
    raise ValueError(f"scenario: no scenario named {scenario!r}; the assessment has {names}.")


def _public(plot: Any, name: str, doc: str) -> Any:
    """`plot` under its figure's name, as this module's function, with its docstring."""
    plot.__name__ = plot.__qualname__ = name
    plot.__module__ = __name__
    plot.__doc__ = doc
    return plot


def _figure_function(name: str) -> Any:
    def plot(result: Assessment, ax: Any = None, *, scenario: str | int | None = None) -> Any:
        return draw(name, result, _scenario(result, scenario), ax)

    return _public(plot, name, f"{FIGURES[name]}: the report's figure ``s<i>_{name}``, drawn on `ax` (None: new "
                               "axes) for `scenario` (name or place; default the first) of the assessment "
                               "`result`; returns the axes.")


risk_distribution = _figure_function("risk_distribution")
class_sizes = _figure_function("class_sizes")
risk_by_key_subset = _figure_function("risk_by_key_subset")
cumulative_risk = _figure_function("cumulative_risk")
ldiversity_distribution = _figure_function("ldiversity_distribution")
tcloseness_distribution = _figure_function("tcloseness_distribution")


def _axes_of(fig: Any) -> Any:
    axes = [a for a in fig.axes if a.get_label() != "<colorbar>"]
    return axes[0] if len(axes) == 1 else np.asarray(axes, dtype=object)


def _comparison(result: Any) -> Comparison:
    c = getattr(result, "comparison", result)  # a ProtectionRun holds its comparison
    if not isinstance(c, Comparison):
        raise TypeError(f"result: expected the Comparison sdc.compare returns (or a ProtectionRun with one); got "
                        f"{type(result).__name__}{' without a comparison' if c is None else ''}.")
    return c


def _comparison_function(name: str) -> Any:
    def plot(result: Any) -> Any:
        with notebook_figures():
            fig = comparison_figure(name, _comparison(result))
        if fig is None:
            raise ValueError(f"the figure {name!r} has nothing to draw for this comparison (see its caption: "
                             f"{COMPARE_FIGURES[name]}).")
        return _axes_of(fig)

    return _public(plot, name, f"{COMPARE_FIGURES[name]}: the comparison report's figure ``{name}``, on a new "
                               "figure; returns its axes.")


def _sweep_function(name: str) -> Any:
    def plot(result: SweepResult) -> Any:
        if not isinstance(result, SweepResult):
            raise TypeError(f"result: expected the SweepResult sdc.sweep returns; got {type(result).__name__}.")
        with notebook_figures():
            return _axes_of(sweep_figure(name, result))

    return _public(plot, name, f"{SWEEP_FIGURES[name]}: the sweep report's figure ``{name}``, on a new figure; "
                               "returns its axes.")


risk_before_after = _comparison_function("risk_before_after")
changed_distributions = _comparison_function("changed_distributions")
correlations = _comparison_function("correlations")
risk_by_parameter = _sweep_function("risk_by_parameter")
utility_by_parameter = _sweep_function("utility_by_parameter")
risk_utility = _sweep_function("risk_utility")
