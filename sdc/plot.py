"""The report's figures in a notebook: each function draws one figure of an assessment on
matplotlib axes and returns them.

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
"""

from __future__ import annotations

from typing import Any

from sdc.report.content import FIGURES
from sdc.report.plots import FIGURE_NAMES, draw
from sdc.workflow.assess import Assessment

__all__ = list(FIGURE_NAMES) + ["FIGURE_NAMES"]


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


def _figure_function(name: str) -> Any:
    def plot(result: Assessment, ax: Any = None, *, scenario: str | int | None = None) -> Any:
        return draw(name, result, _scenario(result, scenario), ax)

    plot.__name__ = plot.__qualname__ = name
    plot.__module__ = __name__
    plot.__doc__ = (f"{FIGURES[name]}: the report's figure ``s<i>_{name}``, drawn on `ax` (None: new axes) for "
                    "`scenario` (name or place; default the first) of the assessment `result`; returns the axes.")
    return plot


risk_distribution = _figure_function("risk_distribution")
class_sizes = _figure_function("class_sizes")
risk_by_key_subset = _figure_function("risk_by_key_subset")
cumulative_risk = _figure_function("cumulative_risk")
ldiversity_distribution = _figure_function("ldiversity_distribution")
tcloseness_distribution = _figure_function("tcloseness_distribution")
