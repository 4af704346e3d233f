"""One registry of the measures an assessment runs per scenario.

Each :class:`ScenarioMeasure` declares, once: its name (as in ``[options].measures``), when it
runs and how, its verdicts (statistic, bound, pass rule), and how it is presented (the report
section's title, paragraph and tables, and its JSON). :func:`sdc.workflow.assess.assess` runs
the entries in order, the verdicts come from them, and the report (sections, JSON, XLSX, the
console) renders them, so adding a measure to ``sdc assess`` touches the measure's module, one
entry here, and its tests.

Presentation is declared as data: a paragraph is a template with its values (the report
formats them), a table is a function returning a DataFrame, JSON is either the name of a
function in :mod:`sdc.report.serialize` or, by default, the result's ``summary()``.

The k-anonymity profile and the individual risk are not entries: every scenario has them, and
the other measures and the report's headline are built around them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from sdc.attribute.closeness import t_closeness
from sdc.attribute.ldiversity import l_diversity
from sdc.core.classes import sensitive_kind
from sdc.core.scenario import KeyClasses
from sdc.risk.attacker import attacker_risk
from sdc.risk.household import household_risk
from sdc.risk.model import model_risk
from sdc.risk.snapshots import key_subset_snapshots
from sdc.risk.suda import suda
from sdc.risk.uniqueness import population_uniqueness

if TYPE_CHECKING:
    from sdc.workflow.assess import ScenarioResult
    from sdc.workflow.config import RunConfig, Scenario

__all__ = ["Context", "Check", "TableSpec", "ScenarioMeasure", "SCENARIO_MEASURES", "measure_named"]


@dataclass(frozen=True)
class Context:
    """What a measure of one scenario is computed from."""

    cfg: RunConfig
    work: pd.DataFrame          # the assessed data (continuous keys binned)
    scenario: Scenario
    key_classes: KeyClasses     # the scenario's keys, encoded once
    opts: dict[str, Any]        # weights, missing, alpha
    progress: bool


@dataclass(frozen=True)
class Check:
    """One verdict row: a statistic against its bound (``ok`` None: information only)."""

    measure: str
    statistic: str
    value: float
    threshold: str
    ok: bool | None


@dataclass(frozen=True)
class TableSpec:
    """A table of a measure's report section: ``key`` (unique within the scenario), title, frame."""

    key: str
    title: str
    frame: Callable[[Any], pd.DataFrame]


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
        Figures of the section (the report draws them for the first scenario).
    json : str, optional
        Name of the function of :mod:`sdc.report.serialize` that gives the JSON object under the
        scenario's key `field`; ``"summary"`` (the default): the result's ``summary()``; None:
        no JSON of its own.
    json_of : callable, optional
        ``json_of(scenario_result) -> tuple``: the arguments of the JSON function, when it needs
        more than this measure's result (None in all of them: no JSON).
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
    json_of: Callable[[ScenarioResult], tuple[Any, ...]] | None = None
    extra: bool = False

    def result(self, r: ScenarioResult) -> Any:
        """This measure's result in a scenario's results (None when it did not run)."""
        return r.extra.get(self.field) if self.extra else getattr(r, self.field, None)


def _summary_table(res: Any) -> pd.DataFrame:
    return res.summary()[["statistic", "value", "description"]]


def _distance_for(sens: pd.Series, preferred: str) -> str:
    """The configured t-closeness distance, or the one this variable allows: an unordered
    variable has no order to measure along (equal distance), and a categorical has no raw
    units for Wasserstein (ordered EMD over its categories)."""
    _, ordered = sensitive_kind(sens)
    if preferred in ("ordered", "wasserstein") and not ordered:
        return "equal"
    if preferred == "wasserstein" and isinstance(sens.dtype, pd.CategoricalDtype):
        return "ordered"
    return preferred


def _household(ctx: Context) -> Any:
    return household_risk(ctx.work, ctx.key_classes, ctx.cfg.household, **ctx.opts)


def _ldiversity(ctx: Context) -> Any:
    cfg, thr = ctx.cfg, ctx.cfg.thresholds
    return l_diversity(ctx.work, ctx.key_classes, list(cfg.sensitive), l=thr.l, c=thr.c, mode=cfg.ldiversity_mode,
                       sensitive_bins=dict(cfg.sensitive_bins) or None)


def _tcloseness(ctx: Context) -> Any:
    cfg = ctx.cfg
    return {s: t_closeness(ctx.work, ctx.key_classes, s, distance=_distance_for(ctx.work[s], cfg.distance),
                           t=cfg.thresholds.t) for s in cfg.sensitive}


def _ldiversity_checks(cfg: RunConfig, res: Any) -> list[Check]:
    l = cfg.thresholds.l
    return [Check(f"{l}-diversity ({row.sensitive})", "records in classes with distinct l < l", row.n_records_below_l,
                  "0", row.n_records_below_l == 0) for row in res.by_sensitive.itertuples(index=False)]


def _tcloseness_checks(cfg: RunConfig, res: Any) -> list[Check]:
    t = cfg.thresholds.t
    return [Check(f"t-closeness ({s}, {tc.distance})", f"records in classes with distance > {t:g}",
                  tc.n_records_above_t, "0", tc.n_records_above_t == 0) for s, tc in res.items()]


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
        "household", "household", _household,
        wanted=lambda cfg: bool(cfg.household) and ("household" in cfg.measures or "risk" in cfg.measures),
        checks=lambda cfg, h: [Check("household risk", "household global risk", h.global_risk,
                                     f"<= {cfg.thresholds.max_global_risk:g}",
                                     h.global_risk <= cfg.thresholds.max_global_risk)],
        json="household_fields"),
    ScenarioMeasure(
        "snapshots", "snapshots",
        lambda ctx: key_subset_snapshots(ctx.work, ctx.key_classes, threshold=ctx.cfg.thresholds.k,
                                         progress=ctx.progress, **ctx.opts),
        title="Risk by subset of the key variables", key="snap",
        paragraph=("Every non-empty subset of {keys}; k = {k}.",
                   lambda cfg, res: {"keys": ", ".join(res.keys), "k": cfg.thresholds.k}),
        tables=(TableSpec("snapshots", "Snapshots over key subsets", lambda res: res.to_frame()),),
        figures=("risk_by_key_subset",), json="snapshot_table"),
    ScenarioMeasure(
        "ldiversity", "ldiversity", _ldiversity, wanted=lambda cfg: bool(cfg.sensitive),
        checks=_ldiversity_checks, json="ldiversity_summary"),
    ScenarioMeasure(
        "tcloseness", "tcloseness", _tcloseness, checks=_tcloseness_checks, json="tcloseness_summaries"),
    ScenarioMeasure(
        "suda", "suda", lambda ctx: suda(ctx.work, ctx.key_classes, mode=ctx.cfg.suda_mode, progress=ctx.progress),
        checks=lambda cfg, su: [Check("SUDA2", "records with a minimal sample unique", su.n_records_with_msu, "info",
                                      None)],
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
        json=None),  # shown in the risk section, and in the uniqueness JSON
    ScenarioMeasure(
        "uniqueness", "uniqueness", _uniqueness,
        checks=lambda cfg, u: [Check("population uniqueness", "estimated population uniques / N", u.fraction_chosen,
                                     "info", None)],
        title="Population uniqueness", key="uniq",
        paragraph=("Population size {population_size:,} (sampling fraction {sampling_fraction:.4g}); "
                   "Dankar et al.'s rule chose {model}.",
                   lambda cfg, u: {"population_size": u.population_size, "sampling_fraction": u.sampling_fraction,
                                   "model": u.model}),
        tables=(TableSpec("uniqueness", "Estimated population uniques", lambda u: u.to_frame()),),
        json="uniqueness_with_attacker", json_of=lambda r: (r.uniqueness, r.attacker)),
    ScenarioMeasure(
        "modrisk", "modrisk", _model_risk, extra=True,
        checks=lambda cfg, m: [Check("log-linear model risk", "sample uniques that are population unique (gr1)", m.gr1,
                                     "info", None)],
        title="Log-linear model risk", key="modrisk",
        paragraph=("sdcMicro's modRisk, method {method}, formula {formula}.",
                   lambda cfg, m: {"method": m.method, "formula": m.formula}),
        tables=(TableSpec("modrisk", "Model-based risk", _summary_table),),
        json="modrisk_summary"),
)


def measure_named(name: str) -> tuple[ScenarioMeasure, ...]:
    """The entries run for a name of ``[options].measures``."""
    return tuple(m for m in SCENARIO_MEASURES if m.name == name)
