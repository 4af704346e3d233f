"""The analyst's models of a run (``[[analyses]]``): fitted to the original and to the release
by ``sdc compare``, ``sdc protect`` (its comparison) and ``sdc sweep`` (each setting), as
:func:`sdc.analysis_validity` does in the API.

A configuration (or a protection or sweep plan) may list any number::

    [[analyses]]
    name = "survival"                      # optional: "analysis 1", ...
    formula = "days ~ age + wtkg + C(arms)"
    model = "cox"                          # ols | logit | poisson | cox
    event = "cens"                         # cox: 1 event, 0 censored
    # exposure = "years"; offset = "log_pop" (poisson); level = 0.95

Each key is declared once in :data:`ANALYSIS_OPTIONS` (the parser checks by it, the docs' table
is made from it). The formula is evaluated by patsy as Python: take it only from trusted sources,
as a plan's own code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from sdc._stats import summary_frame
from sdc._schema import Choice, Name, Option, Options, Real, Text, toml_value
from sdc.utility.validity import MODELS, ValidityResult, analysis_validity, check_formula_columns

__all__ = ["Analysis", "AnalysesResult", "ANALYSIS_OPTIONS", "parse_analyses", "analyses_toml", "check_analyses",
           "fit_analyses"]

#: The keys of an ``[[analyses]]`` table, in a written config's order.
ANALYSIS_OPTIONS = Options([
    Option("name", Text(), None, section="[analyses]", flag="",
           help="the analysis' name on the pages (default 'analysis 1', 'analysis 2', ...)"),
    Option("formula", Text(), None, section="[analyses]", flag="",
           help="a statsmodels formula, 'y ~ x1 + C(x2)' (for cox the left side is the duration); required"),
    Option("model", Choice(MODELS), "ols", section="[analyses]", flag="",
           help="ols (linear), logit (0/1 response), poisson (count, log link) or cox (proportional hazards, Breslow ties)"),
    Option("level", Real(0.0, 1.0, low_open=True, high_open=True), 0.95, section="[analyses]", flag="",
           help="confidence level of the coefficients' intervals"),
    Option("event", Name(), None, section="[analyses]", flag="",
           help="cox: the column of 1 (event) / 0 (censored); required for cox"),
    Option("exposure", Name(), None, section="[analyses]", flag="",
           help="poisson: a column of positive exposures (log exposure enters with coefficient 1)"),
    Option("offset", Name(), None, section="[analyses]", flag="",
           help="poisson: a column added to the linear predictor as it is"),
])


@dataclass(frozen=True)
class Analysis:
    """One model of ``[[analyses]]`` (the keys of :data:`ANALYSIS_OPTIONS`)."""

    name: str
    formula: str
    model: str = "ols"
    level: float = 0.95
    event: str | None = None
    exposure: str | None = None
    offset: str | None = None

    def fit(self, original: pd.DataFrame, released: pd.DataFrame) -> ValidityResult:
        """:func:`sdc.analysis_validity` of this model on the two files."""
        return analysis_validity(original, released, self.formula, model=self.model, level=self.level,
                                 event=self.event, exposure=self.exposure, offset=self.offset)


@dataclass(frozen=True)
class AnalysesResult:
    """The analyst's models fitted to the original and the release (:func:`fit_analyses`).

    Attributes
    ----------
    fits : mapping
        Analysis name -> :class:`sdc.ValidityResult`, in the configuration's order.
    """

    fits: Mapping[str, ValidityResult] = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """Every analysis' coefficients: ``analysis``, ``model``, ``term``, the estimates, intervals
        and overlap before and after, and the records of each fit (empty without analyses)."""
        if not self.fits:
            return pd.DataFrame()
        frame = pd.concat([r.to_frame().assign(analysis=name, model=r.model, n_before=r.n_before, n_after=r.n_after)
                           for name, r in self.fits.items()], ignore_index=True)
        first = ["analysis", "model", "term"]
        return frame[first + [c for c in frame.columns if c not in first]]

    def summary(self) -> pd.DataFrame:
        """Per analysis its mean and smallest interval overlap, as rows of (statistic, value, description)."""
        rows: list[tuple[str, Any, str]] = []
        for name, r in self.fits.items():
            rows += [(f"mean_ci_overlap[{name}]", float(r.mean_overlap), f"{r.model} {r.formula}: mean interval overlap"),
                     (f"min_ci_overlap[{name}]", float(r.min_overlap), f"{r.model} {r.formula}: smallest overlap")]
        return summary_frame(rows)


def fit_analyses(analyses: Sequence[Analysis], original: pd.DataFrame, released: pd.DataFrame) -> AnalysesResult:
    """Each analysis fitted to both files (:meth:`Analysis.fit`)."""
    return AnalysesResult({a.name: a.fit(original, released) for a in analyses})


def _one(item: Any, where: str, error: type[Exception]) -> Analysis:
    def err(what: str) -> Exception:
        return error(f"{where}{what}")

    if not isinstance(item, Mapping):
        raise err(": must be a table with `formula` (and model, event, exposure, offset, level, name).")
    unknown = [k for k in item if k not in ANALYSIS_OPTIONS]
    if unknown:
        raise err(f".{unknown[0]}: is not a known key; allowed: {', '.join(ANALYSIS_OPTIONS.names)}.")
    v = {o.name: o.check(item[o.name], f"{where}.{o.name}", error) if o.name in item else o.default
         for o in ANALYSIS_OPTIONS}
    if v["formula"] is None or "~" not in v["formula"]:
        raise err(f".formula: must be a model formula such as 'y ~ x1 + x2'; got {v['formula']!r}.")
    if v["model"] == "cox" and v["event"] is None:
        raise err(".event: a cox model needs its event column (1 event, 0 censored).")
    if v["model"] != "cox" and v["event"] is not None:
        raise err(f".event: only a cox model has an event column; this one is {v['model']}.")
    if v["model"] != "poisson" and (v["exposure"] is not None or v["offset"] is not None):
        raise err(f": exposure and offset belong to a poisson model; this one is {v['model']}.")
    return Analysis(**v)


def parse_analyses(items: Any, where: str, error: type[Exception]) -> tuple[Analysis, ...]:
    """The ``[[analyses]]`` of a configuration or plan, checked; `where` names the place in
    messages (``"config [[analyses]]"``), `error` is the caller's error class."""
    if items is None:
        return ()
    if isinstance(items, Mapping) or isinstance(items, str) or not isinstance(items, Sequence):
        raise error(f"{where}: must be a list of tables, each with a `formula`.")
    out = []
    for i, item in enumerate(items):
        a = _one(item, f"{where} #{i + 1}", error)
        out.append(a if a.name else replace(a, name=f"analysis {i + 1}"))
    names = [a.name for a in out]
    dup = [n for n in names if names.count(n) > 1]
    if dup:
        raise error(f"{where}.name: must be unique; {dup[0]!r} repeats.")
    return tuple(out)


def check_analyses(analyses: Sequence[Analysis], frames: Mapping[str, pd.DataFrame]) -> None:
    """Every column each analysis reads is in each file (``name -> frame``), checked before any
    work: one line naming the analysis, the column and the file."""
    for a in analyses:
        try:
            check_formula_columns(dict(frames), a.formula)
        except ValueError as exc:
            raise ValueError(f"analysis {a.name!r}: {exc}") from None
        for arg in ("event", "exposure", "offset"):
            col = getattr(a, arg)
            for which, frame in frames.items():
                if col is not None and col not in frame.columns:
                    raise ValueError(f"analysis {a.name!r}: its {arg} column {col!r} is not in `{which}`.")


def analyses_toml(analyses: Sequence[Analysis]) -> list[str]:
    """The TOML lines of `analyses` (keys at their defaults left out)."""
    lines: list[str] = []
    for a in analyses:
        lines.append("[[analyses]]")
        for o in ANALYSIS_OPTIONS:
            value = getattr(a, o.name)
            if value is not None and (value != o.default or o.name in ("name", "formula")):
                lines.append(f"{o.name} = {toml_value(value)}")
        lines.append("")
    return lines
