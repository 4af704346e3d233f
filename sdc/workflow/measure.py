"""What a measure declares, once: its name, label and unit, its "passes if" rule, how it runs,
and how it presents itself.

A risk or attribute measure of a scenario is a :class:`Measure`; a utility measure of a
release is a :class:`UtilityMeasure`. Both list their :class:`Figure` s: a figure is one number
of the result with one label and one unit, and every page reads it from there: the report's
table headings, the rows of ``sdc compare`` ("before", "after"), the columns and axes of
``sdc sweep``. A verdict is a :class:`Finding` judged by the measure's :class:`Rule`. The
entries themselves are in :mod:`sdc.workflow.registry` (assess, compare, sweep) and
:mod:`sdc.workflow.utility_registry` (compare, sweep).

Presentation is declared as data, read by :mod:`sdc.report` (which formats, never computes):
a section's title, a paragraph template and its values, tables (functions of the result
returning DataFrames), the figures drawn, and the measure's JSON (a function of the result,
or by default its ``summary()`` as ``{statistic: value}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from sdc._stats import summary_values
from sdc.core.engine import engines_of
from sdc.core.scenario import KeyClasses
from sdc.workflow.config import RunConfig, Scenario

__all__ = ["COUNT", "SHARE", "PERCENT", "DISTANCE", "BITS", "NUMBER", "UNITS", "UNIT_HEADINGS", "SYMBOLS", "Figure", "Rule",
           "Finding", "Check", "TableSpec", "Across", "Context", "Measure", "ScenarioResults", "UtilityContext",
           "UtilityMeasure", "summary_json", "no_rule"]

# --------------------------------------------------------------------------------- units
COUNT = "count"
SHARE = "share"
PERCENT = "percent"
DISTANCE = "distance"
BITS = "bits"
NUMBER = "number"

#: Every unit a figure has, and what it means.
UNITS: dict[str, str] = {
    COUNT: "a number of records, classes or cells (an expected number may be fractional)",
    SHARE: "a proportion, from 0 to 1",
    PERCENT: "a percentage, from 0 to 100",
    DISTANCE: "a distance between two distributions",
    BITS: "an entropy, in bits",
    NUMBER: "a number of its own kind (a class size, a score, a lift)",
}

#: A unit as a table's "unit" column reads it (every figure of a table says its unit: shares
#: and percentages are never mixed without saying which).
UNIT_HEADINGS: dict[str, str] = {COUNT: "count", SHARE: "share (0 to 1)", PERCENT: "%", DISTANCE: "distance",
                                 BITS: "bits", NUMBER: "number"}

#: How a threshold in a figure's label reads where no run fills it in (a table's heading).
SYMBOLS: dict[str, str] = {"k": "k", "l": "the threshold l", "t": "the threshold t", "risk": "the risk threshold",
                           "threshold": "the threshold"}


class _Fill(dict):  # type: ignore[type-arg]
    """A label's values: a threshold not given reads as its symbol."""

    def __missing__(self, key: str) -> str:
        return SYMBOLS.get(key, key)


@dataclass(frozen=True)
class Figure:
    """One number of a result, with its one label and unit.

    Attributes
    ----------
    name : str
        The statistic's name: the result's attribute (or ``summary()`` row, or table column)
        it is read from.
    label : str
        What a reader calls it; a threshold in braces (``"records with fk < {k}"``) is filled
        with the run's value (or reads as its symbol, :data:`SYMBOLS`).
    unit : str
        One of :data:`UNITS`; a percentage is labelled ``"... (%)"``.
    column : str, optional
        Its heading as a table column, where the label names a run's threshold that the
        table does not (``"records in classes below k"``); default: the label.
    better : {"lower", "higher"}, optional
        Which way is better, for a figure compared across settings (a sweep's axes).
    value : callable, optional
        ``value(result, cfg)``: how to read it (default: the attribute `name`; `cfg` is the run
        configuration of a scenario measure, None for a utility measure).
    sweep : str, optional
        Its column in a row of ``sdc sweep`` (None: not a sweep column).
    """

    name: str
    label: str
    unit: str = COUNT
    better: str | None = None
    value: Callable[[Any, RunConfig | None], Any] | None = None
    sweep: str | None = None
    column: str | None = None

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"figure {self.name!r}: unit must be one of {', '.join(UNITS)}; got {self.unit!r}.")
        if self.better not in (None, "lower", "higher"):
            raise ValueError(f"figure {self.name!r}: better must be 'lower', 'higher' or None; got {self.better!r}.")

    def of(self, result: Any, cfg: RunConfig | None) -> Any:
        """The figure's value in `result`."""
        return self.value(result, cfg) if self.value is not None else getattr(result, self.name)

    def heading(self, fill: Mapping[str, object] | None = None) -> str:
        """The label, its thresholds filled (or read as symbols), ``" (%)"`` for a percentage."""
        text = self.label.format_map(_Fill(fill or {}))
        return f"{text} (%)" if self.unit == PERCENT else text

    def column_heading(self) -> str:
        """Its heading as a table column."""
        return self.column or self.heading()


# --------------------------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class Rule:
    """When a measure passes: its statistic ``op`` a bound (``"="`` 0, ``"<="`` the maximum
    global risk), or ``"info"`` (information only, no verdict).

    ``bound`` is a number or ``bound(cfg)``. :meth:`threshold` is the verdict's threshold text
    (``"0"``, ``"<= 0.01"``, ``"info"``); the report shows it as "passes if"
    (:func:`sdc.report.formatting.passes_if`).
    """

    op: str
    bound: float | Callable[[RunConfig], float] | None = None

    def __post_init__(self) -> None:
        if self.op not in ("=", "<=", ">=", "info"):
            raise ValueError(f"a rule's op must be '=', '<=', '>=' or 'info'; got {self.op!r}.")

    def limit(self, cfg: RunConfig) -> float | None:
        return self.bound(cfg) if callable(self.bound) else self.bound

    def threshold(self, cfg: RunConfig) -> str:
        if self.op == "info":
            return "info"
        b = self.limit(cfg)
        return f"{b:g}" if self.op == "=" else f"{self.op} {b:g}"

    def passes(self, cfg: RunConfig, value: float) -> bool | None:
        """Whether `value` passes (None: information only)."""
        b = self.limit(cfg)
        if self.op == "info" or b is None:
            return None
        return bool(value == b if self.op == "=" else value <= b if self.op == "<=" else value >= b)


#: Information only.
no_rule = Rule("info")


@dataclass(frozen=True)
class Finding:
    """One statistic a measure reports for a verdict (judged by the measure's rule, or by
    `rule` when one measure gives two kinds of verdict).

    ``statistic`` is a sentence a reader understands without the code; ``share`` is the share
    of records (or of the population) it concerns, for ranking the worst findings; ``unit`` is
    the value's unit (one of :data:`UNITS`: a count of records by default, a share for the
    global risk).
    """

    measure: str
    statistic: str
    value: float
    share: float | None = None
    rule: Rule | None = None
    unit: str = COUNT


@dataclass(frozen=True)
class Check:
    """One verdict row: a statistic against its bound (``ok`` None: information only)."""

    measure: str
    statistic: str
    value: float
    threshold: str
    ok: bool | None
    share: float | None = None
    unit: str = COUNT


# --------------------------------------------------------------------------------- presentation
@dataclass(frozen=True)
class TableSpec:
    """A table of a measure's report section: ``key`` (unique within the scenario), title, frame,
    and a note (a function of the result, or None)."""

    key: str
    title: str
    frame: Callable[[Any], pd.DataFrame]
    note: Callable[[Any], str] | None = None


@dataclass(frozen=True)
class Across:
    """A section comparing the scenarios: its key and title, a paragraph ``text(cfg)``, and one
    table (key, title) of every scenario's ``frame(result)`` with a ``scenario`` column first
    (`show`: the columns shown, when not all)."""

    key: str
    title: str
    text: Callable[[RunConfig], str]
    table: str
    table_title: str
    frame: Callable[[Any], pd.DataFrame]
    show: tuple[str, ...] = ()


def summary_json(result: Any) -> Any:
    """A result's JSON by default: its ``summary()`` as ``{statistic: value}``."""
    return summary_values(result.summary())


# --------------------------------------------------------------------------------- scenario measures
class ScenarioResults(Protocol):
    """A scenario's results as the registry reads them (``sdc.workflow.assess.ScenarioResult``):
    one attribute per built-in measure's `field`, and the later ones in `extra`."""

    @property
    def extra(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Context:
    """What a measure of one scenario is computed from.

    ``tables`` False: only the figures are wanted (a sweep's settings), not the tables behind
    the report (the riskiest classes). ``notes`` collects what a measure has to tell the
    reader; ``done`` holds the results of the measures that ran before it.
    """

    cfg: RunConfig
    work: pd.DataFrame               # the assessed data (continuous keys binned)
    scenario: Scenario | None        # None: a measure of the whole file
    key_classes: KeyClasses | None   # the scenario's keys, encoded once
    opts: dict[str, Any]             # weights, missing, alpha
    progress: bool = False
    tables: bool = True
    notes: list[str] = field(default_factory=list)
    done: dict[str, Any] = field(default_factory=dict)  # the results of the measures run before, by field

    @property
    def keys(self) -> Any:
        """What a measure is given as its keys: the encoded classes, or the scenario's key names
        when there are none (a Dask DataFrame: the measure's own engine encodes them)."""
        if self.key_classes is not None:
            return self.key_classes
        return list(self.scenario.keys) if self.scenario is not None else []


def _always(cfg: RunConfig) -> bool:
    return True


def _never(cfg: RunConfig) -> str | None:
    return None


def _no_findings(cfg: RunConfig, res: Any) -> list[Finding]:
    return []


@dataclass(frozen=True)
class Measure:
    """A measure of one key scenario, declared once.

    Attributes
    ----------
    name : str
        The name in ``[options].measures`` (several entries may share one).
    field : str
        Where the result is kept: an attribute of ``ScenarioResult`` or, for a measure added
        later, a key of ``ScenarioResult.extra`` (``extra=True``).
    label : str
        The measure's name for a reader (notes, the measures not computed).
    unit : str
        The unit of its verdict's statistic (:data:`UNITS`).
    run : callable
        ``run(ctx) -> result`` or None (when the measure does not apply to this scenario).
    function : callable, optional
        The public function it calls: what :func:`sdc.core.engine.engines_of` reads to say
        on which engines it runs, and what the common checks call.
    rule : Rule
        When its verdicts pass (:data:`no_rule`: information only).
    findings : callable
        ``findings(cfg, result) -> list[Finding]``: its verdicts' statistics.
    figures : tuple of Figure, optional
        The numbers compare and sweep show, and the report's table headings name; None: the
        numeric rows of ``summary()``, labelled ``"<field>: <statistic>"``.
    by_variable : callable, optional
        ``by_variable(cfg, result) -> [(variable, part, fill)]``: the figures are per
        sensitive variable, read from `part` and labelled ``"... (variable)"``.
    fill : callable, optional
        ``fill(cfg, result) -> dict``: the thresholds of the figures' labels.
    always : bool
        Run in every assessment (the k-anonymity profile and the risk every scenario has).
    wanted, skip_reason : callable
        ``wanted(cfg)``: whether the run asks for it; ``skip_reason(cfg)``: why the measure,
        asked for by name, was not computed (None: it was, or it does not apply).
    title, key, paragraph, tables, more_tables, plots, labels, hide
        The report section: title (``"... — scenario 'NAME'"`` is added; None: no section of
        its own), key suffix, a paragraph template with ``values(cfg, result)``, tables
        (:class:`TableSpec`), ``more_tables(cfg, result) -> [(key, title, frame)]`` (tables
        whose number depends on the run), the figures drawn, column labels beyond the
        registry's, and columns its tables keep (in the JSON) but do not show.
    view : callable, optional
        ``view(scenario_result)``: what the section's paragraph and tables read, when more
        than the measure's own result (the risk table shows the intervals and the household).
    in_section : str, optional
        The key of another measure's section its tables join (instead of a section of its own).
    across : Across, optional
        A section of its own comparing the scenarios.
    json : callable, optional
        ``json(*args)``: the measure's object in the scenario's JSON (``report.json``); None:
        none of its own. ``json_of(scenario_result) -> tuple`` gives the arguments when it
        needs more than this measure's result (None in all of them: no JSON).
    """

    name: str
    field: str
    run: Callable[[Context], Any]
    label: str = ""
    unit: str = COUNT
    function: Callable[..., Any] | None = None
    rule: Rule = no_rule
    findings: Callable[[RunConfig, Any], list[Finding]] = _no_findings
    figures: tuple[Figure, ...] | None = ()
    by_variable: Callable[[RunConfig, Any], list[tuple[str, Any, dict[str, object]]]] | None = None
    fill: Callable[[RunConfig, Any], dict[str, object]] | None = None
    always: bool = False
    wanted: Callable[[RunConfig], bool] = _always
    skip_reason: Callable[[RunConfig], str | None] = _never
    extra: bool = False
    title: str | None = None
    key: str | None = None
    paragraph: tuple[str, Callable[[RunConfig, Any], dict[str, Any]]] | None = None
    tables: tuple[TableSpec, ...] = ()
    more_tables: Callable[[RunConfig, Any], list[tuple[str, str, pd.DataFrame]]] | None = None
    plots: tuple[str, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    hide: tuple[str, ...] = ()
    view: Callable[[ScenarioResults], Any] | None = None
    in_section: str | None = None
    across: Across | None = None
    json: Callable[..., Any] | None = summary_json
    json_of: Callable[[ScenarioResults], tuple[Any, ...]] | None = None

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"measure {self.name!r}: unit must be one of {', '.join(UNITS)}; got {self.unit!r}.")

    @property
    def engines(self) -> dict[str, str | None]:
        """engine -> None (it runs there) or why not, from the measure function's declaration."""
        return engines_of(self.function)  # no function: pandas only

    def result(self, r: ScenarioResults) -> Any:
        """This measure's result in a scenario's results (None when it did not run)."""
        return r.extra.get(self.field) if self.extra else getattr(r, self.field, None)

    def shown(self, r: ScenarioResults) -> Any:
        """What this measure's section reads in a scenario's results (None: nothing to show)."""
        res = self.result(r)
        return None if res is None else (self.view(r) if self.view is not None else res)

    def checks(self, cfg: RunConfig, res: Any) -> list[Check]:
        """The verdicts: each finding judged by its rule."""
        out = []
        for f in self.findings(cfg, res):
            rule = f.rule or self.rule
            out.append(Check(f.measure, f.statistic, f.value, rule.threshold(cfg), rule.passes(cfg, f.value), f.share,
                             f.unit))
        return out

    def figure_values(self, cfg: RunConfig, res: Any) -> list[tuple[Figure | None, str, Any]]:
        """``(figure, label, value)`` of every figure of the result, in order (figure None: a
        numeric row of ``summary()`` of a measure that declares no figures)."""
        if self.figures is None:
            s = res.summary()
            return [(None, f"{self.field}: {k}", v) for k, v in zip(s["statistic"], s["value"])
                    if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if self.by_variable is not None:
            return [(f, f"{f.heading(fill)} ({var})", f.of(part, cfg))
                    for var, part, fill in self.by_variable(cfg, res) for f in self.figures]
        fill = self.fill(cfg, res) if self.fill is not None else {}
        return [(f, f.heading(fill), f.of(res, cfg)) for f in self.figures]

    def sweep_values(self, cfg: RunConfig, res: Any) -> dict[str, Any]:
        """The result's columns in a row of ``sdc sweep``: each figure with a sweep column
        (``"<column>[<variable>]"`` per sensitive variable)."""
        if self.by_variable is not None:
            return {f"{f.sweep}[{var}]": f.of(part, cfg) for var, part, _ in self.by_variable(cfg, res)
                    for f in self.figures or () if f.sweep}
        return {f.sweep: f.of(res, cfg) for f in self.figures or () if f.sweep}

    def json_value(self, r: ScenarioResults) -> Any:
        """The measure's JSON object in a scenario (None: it has none there)."""
        if self.json is None:
            return None
        args = self.json_of(r) if self.json_of is not None else (self.result(r),)
        if all(x is None for x in args):
            return None
        return self.json(*args)


# --------------------------------------------------------------------------------- utility measures
@dataclass
class UtilityContext:
    """What a utility measure of one release is computed from: the original and the release
    (records matched by index; a dropped record withheld, every value missing), the variables
    whose values changed, the keys, and how a suppressed cell enters IL1. ``shared`` holds work
    several measures read (the headline utility figures, computed once); ``analyses`` the
    analyst's models (:class:`sdc.workflow.analyses.Analysis`), fitted to both files; ``tables``
    the variables whose frequency tables the protection perturbed on purpose (record swapping:
    :attr:`sdc.protect.MethodInfo.tables_of`), for the table-based information loss."""

    original: pd.DataFrame
    released: pd.DataFrame
    variables: Sequence[str]
    keys: Sequence[str]
    suppressed: str = "max"
    analyses: Sequence[Any] = ()
    tables: Sequence[str] = ()
    shared: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class UtilityMeasure:
    """A utility measure of a release, declared once: what ``sdc compare`` and ``sdc sweep``
    show of it.

    Attributes
    ----------
    name : str
    label : str
        What a reader calls it.
    run : callable
        ``run(ctx) -> result`` (:class:`UtilityContext`).
    figures : tuple of Figure
        Its figures, in order: each is a row of the comparison's utility table and a column
        of a sweep (``Figure.sweep``); one with ``better`` set may be a sweep's utility axis.
    per_variable : Figure, optional
        A figure per variable (IL1): ``per_variable.value(result, cfg)`` is a mapping
        variable -> value; its sweep column is ``"<sweep>[<variable>]"``.
    function : callable, optional
        The public function it calls (for :func:`sdc.core.engine.engines_of` and the common
        checks).
    optional : bool
        It runs only on some releases (its run returns None on the others: no record swapped):
        then it has no row and no sweep column, instead of rows of NaN.
    """

    name: str
    label: str
    run: Callable[[UtilityContext], Any]
    figures: tuple[Figure, ...] = ()
    per_variable: Figure | None = None
    function: Callable[..., Any] | None = None
    optional: bool = False

    def rows(self, res: Any) -> list[tuple[Figure, str | None, Any]]:
        """``(figure, variable, value)`` of the result: its figures, then the per-variable ones
        (none for an optional measure that did not run)."""
        if res is None and self.optional:
            return []
        out: list[tuple[Figure, str | None, Any]] = [(f, None, f.of(res, None)) for f in self.figures]
        if self.per_variable is not None:
            out += [(self.per_variable, str(v), x) for v, x in self.per_variable.of(res, None).items()]
        return out
