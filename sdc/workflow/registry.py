"""One registry of the measures an assessment runs per scenario.

Each :class:`ScenarioMeasure` declares, once: its name (as in ``[options].measures``), when it
runs and how, its verdicts (statistic, bound, pass rule), and how it is presented (the report
section's title, paragraph and tables, and its JSON). :func:`sdc.workflow.assess.assess` runs
the entries in order, the verdicts come from them, and the report (sections, JSON, XLSX, the
console) renders them, so adding a measure to ``sdc assess`` touches the measure's module, one
entry here, and its tests.

Presentation is declared as data: a paragraph is a template with its values (the report
formats them), a table is a function returning a DataFrame (its columns shown under the
human labels of ``labels``), JSON is either the name of a function in
:mod:`sdc.report.serialize` or, by default, the result's ``summary()``. A measure that was
asked for but could not run says why (``skip_reason``); the report lists it.

The k-anonymity profile and the individual risk are not entries: every scenario has them, and
the other measures and the report's headline are built around them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from sdc.attribute.closeness import t_closeness
from sdc.attribute.ldiversity import l_diversity
from sdc.core.classes import sensitive_kind
from sdc.core.engine import engines_of
from sdc.core.scenario import KeyClasses
from sdc.risk.attacker import attacker_risk
from sdc.risk.household import household_risk
from sdc.risk.model import model_risk
from sdc.risk.snapshots import key_subset_snapshots, standard_subsets
from sdc.risk.suda import suda
from sdc.risk.uniqueness import population_uniqueness
from sdc.workflow.config import DISTANCE_RANGES, RunConfig, Scenario, t_never_fails

__all__ = ["Context", "Check", "TableSpec", "ScenarioMeasure", "SCENARIO_MEASURES", "measure_named", "COLUMN_LABELS",
           "DISTANCE_RANGES", "effective_distance"]


class ScenarioResults(Protocol):
    """A scenario's results as the registry reads them (``sdc.workflow.assess.ScenarioResult``):
    one attribute per built-in measure's `field`, and the later ones in `extra`."""

    @property
    def extra(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Context:
    """What a measure of one scenario is computed from."""

    cfg: RunConfig
    work: pd.DataFrame          # the assessed data (continuous keys binned)
    scenario: Scenario
    key_classes: KeyClasses     # the scenario's keys, encoded once (their names on an engine out of memory)
    opts: dict[str, Any]        # weights, missing, alpha
    progress: bool


@dataclass(frozen=True)
class Check:
    """One verdict row: a statistic against its bound (``ok`` None: information only).

    ``statistic`` is a sentence a reader understands without the code (no ``fk``-style
    names alone); ``share`` is the share of records (or of the population) it concerns,
    when it has one, for ranking the worst findings.
    """

    measure: str
    statistic: str
    value: float
    threshold: str
    ok: bool | None
    share: float | None = None


@dataclass(frozen=True)
class TableSpec:
    """A table of a measure's report section: ``key`` (unique within the scenario), title, frame,
    and a note (a function of the result, or None)."""

    key: str
    title: str
    frame: Callable[[Any], pd.DataFrame]
    note: Callable[[Any], str] | None = None


@dataclass(frozen=True)
class ScenarioMeasure:
    """A measure of one key scenario, declared once.

    Attributes
    ----------
    name : str
        The name in ``[options].measures`` (several entries may share one).
    field : str
        Where the result is kept: an attribute of ``ScenarioResult`` or, for a measure added
        later, a key of ``ScenarioResult.extra``.
    run : callable
        ``run(ctx) -> result`` or None (when the measure does not apply to this scenario).
    wanted : callable
        ``wanted(cfg) -> bool``: whether the run configuration asks for it.
    checks : callable
        ``checks(cfg, result) -> list[Check]``: the verdicts.
    title, key : str, optional
        The report section's title (``"... — scenario 'NAME'"`` is added) and key suffix;
        None: no section of its own (it is shown elsewhere).
    paragraph : (str, callable), optional
        A template and ``values(cfg, result) -> dict``; the report formats it.
    tables : tuple of TableSpec
    figures : tuple of str
        Figures of the section (drawn for every scenario that has the measure).
    json : str, optional
        Name of the function of :mod:`sdc.report.serialize` that gives the JSON object under the
        scenario's key `field`; ``"summary"`` (the default): the result's ``summary()``; None:
        no JSON of its own.
    json_of : callable, optional
        ``json_of(scenario_result) -> tuple``: the arguments of the JSON function, when it needs
        more than this measure's result (None in all of them: no JSON).
    label : str, optional
        The measure's name for a reader (notes, the list of measures not computed).
    skip_reason : callable, optional
        ``skip_reason(cfg) -> str | None``: why the measure, asked for by name, was not
        computed (None: it was, or it does not apply).
    more_tables : callable, optional
        ``more_tables(cfg, result) -> list of (key, title, frame)``: tables whose number
        depends on the run (one per sensitive variable).
    labels : mapping, optional
        Human labels of the columns of this measure's tables (beyond :data:`COLUMN_LABELS`).
    function : callable, optional
        The measure function `run` calls: its declaration says on which engines it runs and
        why not (:func:`sdc.core.engine.engines_of`; None: pandas only).
    """

    name: str
    field: str
    run: Callable[[Context], Any]
    wanted: Callable[[RunConfig], bool] = lambda cfg: True
    checks: Callable[[RunConfig, Any], list[Check]] = lambda cfg, res: []
    title: str | None = None
    key: str | None = None
    paragraph: tuple[str, Callable[[RunConfig, Any], dict[str, Any]]] | None = None
    tables: tuple[TableSpec, ...] = ()
    figures: tuple[str, ...] = ()
    json: str | None = "summary"
    json_of: Callable[[ScenarioResults], tuple[Any, ...]] | None = None
    extra: bool = False
    label: str = ""
    skip_reason: Callable[[RunConfig], str | None] = lambda cfg: None
    more_tables: Callable[[RunConfig, Any], list[tuple[str, str, pd.DataFrame]]] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    function: Callable[..., Any] | None = None

    @property
    def engines(self) -> dict[str, str | None]:
        """engine -> None (it runs there) or why not, from the measure function's declaration."""
        return engines_of(self.function)  # no function: pandas only

    def result(self, r: ScenarioResults) -> Any:
        """This measure's result in a scenario's results (None when it did not run)."""
        return r.extra.get(self.field) if self.extra else getattr(r, self.field, None)


#: Human labels of the columns the report's tables share (a table shows the label, the JSON
#: keeps the name). Measures add their own in ``labels``.
COLUMN_LABELS: dict[str, str] = {
    "statistic": "statistic", "value": "value", "description": "what it is",
    "n_records": "records", "n_classes": "classes", "n_unique": "sample uniques", "pct_unique": "% sample uniques",
    "fk": "class size (fk)", "Fk": "estimated population size (Fk)", "risk": "individual risk",
    "keys": "key variables", "n_keys": "number of keys", "min_k": "smallest class (k achieved)",
    "median_k": "median class size", "n_k_lt_threshold": "records in classes below k",
    "pct_k_lt_threshold": "% records in classes below k", "n_k_le_threshold": "records in classes of at most k",
    "pct_k_le_threshold": "% records in classes of at most k",
    "expected_reidentifications": "expected re-identifications", "global_risk": "global risk",
    "sensitive": "sensitive variable", "scenario": "scenario", "class": "class id", "l": "l",
    "n_values": "distinct values in the file", "n_records_below_l": "records in classes below l",
    "pct_records_below_l": "% records in classes below l", "n_classes_below_l": "classes below l",
    "n_records_entropy_below_l": "records below entropy l", "n_records_recursive_below_l": "records below recursive l",
    "min_distinct": "fewest distinct values in a class", "mean_distinct_per_record": "mean distinct values per record",
    "min_entropy": "smallest entropy l", "min_recursive": "smallest recursive l",
    "n_records_unobserved": "records in classes without an observed value",
    "distance": "distance", "max_t": "largest distance (t achieved)", "n_classes_above_t": "classes above t",
    "n_records_above_t": "records in classes above t", "pct_records_above_t": "% records in classes above t",
    "n_observed": "records with the value observed", "t": "t",
    "variables": "released variable(s)", "deterministic": "determines it exactly", "max_posterior": "highest posterior",
    "conditional_entropy": "remaining uncertainty H(S|Z), bits", "uncertainty_coefficient": "uncertainty removed U(S|Z)",
    "pct_records_revealed": "% records revealed", "n_records_revealed": "records revealed", "n_levels": "levels",
    "variable": "variable", "level": "level", "contribution": "contribution (%)",
}


def _summary_table(res: Any) -> pd.DataFrame:
    return res.summary()[["statistic", "value", "description"]]


def effective_distance(sens: pd.Series, preferred: str) -> str:
    """The configured t-closeness distance, or the one this variable allows: an unordered
    variable has no order to measure along (equal distance), and a categorical has no raw
    units for Wasserstein (ordered EMD over its categories)."""
    _, ordered = sensitive_kind(sens)
    if preferred in ("ordered", "wasserstein") and not ordered:
        return "equal"
    if preferred == "wasserstein" and isinstance(sens.dtype, pd.CategoricalDtype):
        return "ordered"
    return preferred


_distance_for = effective_distance  # the earlier name


def _household(ctx: Context) -> Any:
    return household_risk(ctx.work, ctx.key_classes, ctx.cfg.household, **ctx.opts)


def _ldiversity(ctx: Context) -> Any:
    cfg, thr = ctx.cfg, ctx.cfg.thresholds
    return l_diversity(ctx.work, ctx.key_classes, list(cfg.sensitive), l={s: cfg.l_for(s) for s in cfg.sensitive},
                       c=thr.c, mode=cfg.ldiversity_mode, sensitive_bins=dict(cfg.sensitive_bins) or None)


def _tcloseness(ctx: Context) -> Any:
    cfg = ctx.cfg
    out = {}
    for s in cfg.sensitive:
        dist, t = effective_distance(ctx.work[s], cfg.distance_for(s)), cfg.t_for(s)
        why = t_never_fails(s, t, dist)  # e.g. a Wasserstein t for a variable measured with the equal distance
        if why is not None:
            raise ValueError(why)
        out[s] = t_closeness(ctx.work, ctx.key_classes, s, distance=dist, t=t)
    return out


def _pct(n: float, total: float) -> float:
    return float(n) / total if total else 0.0


def _ldiversity_checks(cfg: RunConfig, res: Any) -> list[Check]:
    return [Check(f"{row.l}-diversity ({row.sensitive})",
                  f"records in classes with fewer than {row.l} distinct values of {row.sensitive}",
                  row.n_records_below_l, "0", row.n_records_below_l == 0, _pct(row.n_records_below_l, res.n_records))
            for row in res.by_sensitive.itertuples(index=False)]


def _tcloseness_checks(cfg: RunConfig, res: Any) -> list[Check]:
    return [Check(f"t-closeness ({s}, {tc.distance})",
                  f"records in classes whose {s} distribution is farther than t = {tc.t:g} from the file's "
                  f"({tc.distance} distance)", tc.n_records_above_t, "0", tc.n_records_above_t == 0,
                  _pct(tc.n_records_above_t, tc.n_records)) for s, tc in res.items()]


def _ldiversity_tables(cfg: RunConfig, res: Any) -> list[tuple[str, str, pd.DataFrame]]:
    out = []
    for s in res.sensitive:
        below = res.classes_below(s)
        cols = ["class", *res.keys, "n_records", f"{s}_distinct", f"{s}_entropy", f"{s}_dominant",
                f"{s}_dominant_share"]
        frame = below[cols].head(10).rename(columns={
            f"{s}_distinct": f"distinct values of {s}", f"{s}_entropy": "entropy l",
            f"{s}_dominant": f"most frequent {s}", f"{s}_dominant_share": f"share of the most frequent {s}"})
        which = f"(first {len(frame)} of {len(below):,}, least diverse first)" if len(below) else ": none"
        out.append((f"ldiv below {s}", f"Classes with fewer than {res.l_of(s)} distinct values of {s} {which}"
                    .replace(" :", ":"), frame))
    return out


def _tcloseness_tables(cfg: RunConfig, res: Any) -> list[tuple[str, str, pd.DataFrame]]:
    rows = [(s, tc.distance, tc.t, tc.max_t, tc.n_classes_above_t, tc.n_records_above_t, tc.pct_records_above_t)
            for s, tc in res.items()]
    out = [("tclose", "t-closeness by sensitive variable",
            pd.DataFrame(rows, columns=["sensitive", "distance", "t", "max_t", "n_classes_above_t",
                                        "n_records_above_t", "pct_records_above_t"]))]
    for s, tc in res.items():
        above = tc.classes_above()
        title = (f"Classes whose {s} distribution is farthest from the file's (first {min(len(above), 10)} of "
                 f"{len(above):,})" if len(above) else f"Classes whose {s} distribution is farther than t = {tc.t:g} "
                                                      "from the file's: none")
        out.append((f"t above {s}", title, above.head(10)))
    return out


def _ldiversity_summary(res: Any) -> pd.DataFrame:
    return res.by_sensitive[["sensitive", "l", "n_values", "n_records_below_l", "pct_records_below_l",
                             "n_classes_below_l", "n_records_entropy_below_l", "n_records_recursive_below_l",
                             "min_distinct", "n_records_unobserved"]]


def _which_subsets(res: Any) -> str:
    n = len(res.keys)
    if len(res.table) == 2 ** n - 1:
        return f"Every non-empty subset of the {n} keys ({', '.join(res.keys)})"
    return standard_subsets(res.keys)[1]


def _snapshots(ctx: Context) -> Any:
    subsets, _ = standard_subsets(ctx.key_classes.keys)
    return key_subset_snapshots(ctx.work, ctx.key_classes, subsets=subsets, threshold=ctx.cfg.thresholds.k,
                                progress=ctx.progress, **ctx.opts)


def _uniqueness(ctx: Context) -> Any:
    cfg = ctx.cfg
    if not (cfg.population_size or cfg.sampling_fraction):
        return None
    return population_uniqueness(ctx.work, ctx.key_classes, population_size=cfg.population_size,
                                 sampling_fraction=cfg.sampling_fraction)


def _model_risk(ctx: Context) -> Any:
    keys = ctx.scenario.keys
    return model_risk(ctx.work, keys, weights=ctx.cfg.weights)


#: The measures of a scenario beyond the k-anonymity profile and the individual risk, in the
#: order they run, appear in the verdicts, the report and the JSON.
SCENARIO_MEASURES: tuple[ScenarioMeasure, ...] = (
    ScenarioMeasure(
        "household", "household", _household, label="household risk", function=household_risk,
        wanted=lambda cfg: bool(cfg.household) and ("household" in cfg.measures or "risk" in cfg.measures),
        skip_reason=lambda cfg: None if cfg.household or "household" not in cfg.measures else
        "it needs a household id column ([variables].household, --household)",
        checks=lambda cfg, h: [Check("household risk", "expected re-identifications of households, as a share of "
                                     "the records", h.global_risk, f"<= {cfg.thresholds.max_global_risk:g}",
                                     h.global_risk <= cfg.thresholds.max_global_risk, h.global_risk)],
        json="household_fields"),
    ScenarioMeasure(
        "snapshots", "snapshots", _snapshots, label="risk by subset of the key variables",
        function=key_subset_snapshots,
        title="Risk by subset of the key variables", key="snap",
        paragraph=("{which}; k = {k}.", lambda cfg, res: {"which": _which_subsets(res), "k": cfg.thresholds.k}),
        tables=(TableSpec("snapshots", "Snapshots over key subsets", lambda res: res.to_frame()[[
            "keys", "n_classes", "n_unique", "pct_unique", "min_k", "n_k_lt_threshold", "pct_k_lt_threshold",
            "expected_reidentifications", "global_risk"]]),),
        figures=("risk_by_key_subset",), json="snapshot_table"),
    ScenarioMeasure(
        "ldiversity", "ldiversity", _ldiversity, wanted=lambda cfg: bool(cfg.sensitive), label="l-diversity",
        function=l_diversity,
        skip_reason=lambda cfg: None if cfg.sensitive else "no sensitive variable is configured ([variables].sensitive)",
        checks=_ldiversity_checks, json="ldiversity_summary",
        title="l-diversity", key="ldiv",
        paragraph=("Mode {mode}; a class is below l when it holds fewer than l distinct values of the sensitive "
                   "variable{bins}.", lambda cfg, ld: {
                       "mode": ld.mode, "bins": "" if not cfg.sensitive_bins else
                       " (banded: " + ", ".join(cfg.sensitive_bins) + ")"}),
        tables=(TableSpec("ldiv", "l-diversity by sensitive variable", _ldiversity_summary),),
        more_tables=lambda cfg, ld: _ldiversity_tables(cfg, ld), figures=("ldiversity_distribution",)),
    ScenarioMeasure(
        "tcloseness", "tcloseness", _tcloseness, label="t-closeness", function=t_closeness,
        skip_reason=lambda cfg: None if cfg.sensitive else "no sensitive variable is configured ([variables].sensitive)",
        checks=_tcloseness_checks, json="tcloseness_summaries",
        title="t-closeness", key="tclose",
        paragraph=("Distance of each class's distribution of the sensitive variable from the whole file's; "
                   "unordered variables use the equal-distance EMD.", lambda cfg, tc: {}),
        more_tables=_tcloseness_tables, figures=("tcloseness_distribution",)),
    ScenarioMeasure(
        "suda", "suda", lambda ctx: suda(ctx.work, ctx.key_classes, mode=ctx.cfg.suda_mode, progress=ctx.progress),
        label="SUDA2", function=suda,
        checks=lambda cfg, su: [Check("SUDA2", "records with a special unique (a minimal sample unique, MSU)",
                                      su.n_records_with_msu, "info", None, _pct(su.n_records_with_msu, su.n_records))],
        title="SUDA2 special uniques", key="suda",
        paragraph=("Mode {mode}; DIS-SUDA sampling fraction {dis_fraction:g}.",
                   lambda cfg, su: {"mode": su.mode, "dis_fraction": su.dis_fraction}),
        tables=(TableSpec("suda", "SUDA2 summary", _summary_table),
                TableSpec("suda contrib", "Contribution of each key (% of the total score)",
                          lambda su: su.attribute_contributions),
                TableSpec("dis table", "DIS-SUDA scores", lambda su: su.dis_table())),
        json="suda_summary"),
    ScenarioMeasure(
        "uniqueness", "attacker",
        lambda ctx: attacker_risk(ctx.work, ctx.key_classes, threshold=ctx.cfg.thresholds.risk,
                                  weights=ctx.cfg.weights),
        json=None, label="prosecutor, journalist and marketer risk",  # shown in the risk section, and in the uniqueness JSON
        function=attacker_risk),
    ScenarioMeasure(
        "uniqueness", "uniqueness", _uniqueness, label="population uniqueness", function=population_uniqueness,
        skip_reason=lambda cfg: None if (cfg.population_size or cfg.sampling_fraction) else
        "it needs the population size or the sampling fraction ([options].population_size or sampling_fraction; "
        "--population-size, --sampling-fraction)",
        checks=lambda cfg, u: [Check("population uniqueness", "estimated share of the population that is unique",
                                     u.fraction_chosen, "info", None, u.fraction_chosen)],
        title="Population uniqueness", key="uniq",
        paragraph=("Population size {population_size:,} (sampling fraction {sampling_fraction:.4g}); "
                   "Dankar et al.'s rule chose {model}.",
                   lambda cfg, u: {"population_size": u.population_size, "sampling_fraction": u.sampling_fraction,
                                   "model": u.model}),
        tables=(TableSpec("uniqueness", "Estimated population uniques", lambda u: u.to_frame()),),
        json="uniqueness_with_attacker", json_of=lambda r: (r.uniqueness, r.attacker)),
    ScenarioMeasure(
        "modrisk", "modrisk", _model_risk, extra=True, label="log-linear model risk", function=model_risk,
        checks=lambda cfg, m: [Check("log-linear model risk", "sample uniques estimated to be population unique "
                                     "(gr1)", m.gr1, "info", None)],
        title="Log-linear model risk", key="modrisk",
        paragraph=("sdcMicro's modRisk, method {method}, formula {formula}.",
                   lambda cfg, m: {"method": m.method, "formula": m.formula}),
        tables=(TableSpec("modrisk", "Model-based risk", _summary_table),),
        json="modrisk_summary"),
)


def measure_named(name: str) -> tuple[ScenarioMeasure, ...]:
    """The entries run for a name of ``[options].measures``."""
    return tuple(m for m in SCENARIO_MEASURES if m.name == name)
