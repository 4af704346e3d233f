"""The one registry of the risk and attribute measures: what ``sdc assess`` runs per scenario,
what ``sdc compare`` shows before and after, what ``sdc sweep`` tabulates per setting, and what
the report, its JSON and the single-measure commands present.

Each :class:`~sdc.workflow.measure.Measure` declares, once: its name (as in
``[options].measures``), label and unit, when it runs and how (and the public function it
calls: :func:`sdc.core.engine.engines_of` reads on which engines that runs), its verdicts
(findings judged by its "passes if" rule), its figures (one label and unit each), and how it is
presented (the report section's title, paragraph and tables, its JSON). Adding a measure to
``sdc assess``, ``sdc compare``, ``sdc sweep`` and the report touches the measure's module and
one entry here (docs/design.md, "The registry of measures and the presentation contract").

:data:`CORE_MEASURES` (the k-anonymity profile, the individual and global risk, their sampling
intervals) run in every scenario; :data:`SCENARIO_MEASURES` when the configuration asks for them;
:data:`FILE_MEASURES` once for the whole file. The utility measures of compare and sweep are in
:mod:`sdc.workflow.utility_registry`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from sdc.attribute.closeness import beta_likeness, t_closeness
from sdc.attribute.inference import inference_risk
from sdc.attribute.ldiversity import l_diversity
from sdc.identify.proxies import find_proxies
from sdc.core.binning import apply_binning
from sdc.core.classes import sensitive_kind
from sdc.core.engine import engine_of
from sdc.risk.attacker import attacker_risk
from sdc.risk.household import household_risk
from sdc.risk.individual import individual_risk
from sdc.risk.kanonymity import k_anonymity
from sdc.risk.model import model_risk
from sdc.risk.snapshots import key_subset_snapshots, standard_subsets
from sdc.risk.suda import suda
from sdc.risk.uncertainty import jackknife_interval, reidentification_interval
from sdc.risk.uniqueness import population_uniqueness
from sdc.workflow import documents as doc
from sdc.workflow.config import DISTANCE_RANGES, MEASURES, RunConfig, t_never_fails
from sdc.workflow.measure import (
    COUNT, DISTANCE, NUMBER, PERCENT, SHARE, Across, Check, Context, Figure, Finding, Measure, Rule, TableSpec,
    summary_json,
)

__all__ = ["Context", "Check", "Finding", "TableSpec", "Measure", "ScenarioMeasure", "CORE_MEASURES",
           "SCENARIO_MEASURES", "FILE_MEASURES", "ALL_MEASURES", "measure_named", "COLUMN_LABELS", "DISTANCE_RANGES",
           "effective_distance", "figure_named", "JACKKNIFE_GROUPS", "OPTIONAL_MEASURES", "BETA"]

#: The earlier name of :class:`~sdc.workflow.measure.Measure`.
ScenarioMeasure = Measure

#: Random groups of the delete-a-group jackknife (fewer when there are fewer sampling units).
JACKKNIFE_GROUPS = 30

_ZERO = Rule("=", 0)
_MAX_GLOBAL = Rule("<=", lambda cfg: cfg.thresholds.max_global_risk)


def _share(n: float, total: float) -> float:
    return float(n) / total if total else 0.0


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


# ------------------------------------------------------------------------------- k-anonymity
def _k_anonymity(ctx: Context) -> Any:
    return k_anonymity(ctx.work, ctx.keys, k=ctx.cfg.thresholds.k, top=10 if ctx.tables else 0, **ctx.opts)


def _k_findings(cfg: RunConfig, p: Any) -> list[Finding]:
    k = cfg.thresholds.k
    return [Finding(f"{k}-anonymity", f"records in classes of fewer than {k} records (fk < {k})", p.n_k_lt_threshold,
                    p.n_k_lt_threshold / max(p.n_records, 1))]


def _missing_rule(cfg: RunConfig, p: Any) -> dict[str, Any]:
    return {"keys": ", ".join(p.keys), "missing": cfg.missing,
            "alpha": f" (alpha = {cfg.alpha:g})" if cfg.missing == "wildcard" else ""}


K_ANONYMITY = Measure(
    "k_anonymity", "profile", _k_anonymity, label="k-anonymity", unit=COUNT, function=k_anonymity, always=True,
    rule=_ZERO, findings=_k_findings, fill=lambda cfg, p: {"k": cfg.thresholds.k},
    figures=(Figure("n_records", "records", COUNT, sweep="n_records"),
             Figure("n_classes", "equivalence classes", column="classes"), Figure("n_unique", "sample uniques"),
             Figure("pct_unique", "sample uniques", PERCENT, better="lower", sweep="pct_unique",
                    column="% sample uniques"),
             # k-anonymity's count, everywhere (assess's verdict, compare, sweep): the records in
             # classes of fewer than k records, fk < k, which violate k-anonymity (sdcMicro's
             # "observations violating k-anonymity"); fk <= k is offered beside it, named as such.
             Figure("n_k_lt_threshold", "records with fk < {k}", column="records violating k-anonymity (fk < k)"),
             Figure("pct_k_lt_threshold", "records with fk < {k}", PERCENT, better="lower", sweep="pct_fk_lt_k",
                    column="% records violating k-anonymity (fk < k)"),
             Figure("n_k_le_threshold", "records with fk <= {k}", column="records in classes of at most k (fk <= k)"),
             Figure("pct_k_le_threshold", "records with fk <= {k}", PERCENT, better="lower", sweep="pct_fk_le_k",
                    column="% records in classes of at most k (fk <= k)"),
             Figure("min_k", "smallest fk", NUMBER, column="smallest class (k achieved)"),
             Figure("median_k", "median fk", NUMBER, column="median class size")),
    title="k-anonymity", key="kanon",
    paragraph=("Key variables: {keys}. Missing key values: {missing}{alpha}.", _missing_rule),
    tables=(TableSpec("profile", "k-anonymity profile", _summary_table),
            TableSpec("class sizes", "Class-size distribution", lambda p: p.class_sizes),
            TableSpec("riskiest", "The riskiest classes (top 10)", lambda p: p.riskiest_classes)),
    plots=("class_sizes",), json=None)


# ------------------------------------------------------------------------------- individual and global risk
def _risk(ctx: Context) -> Any:
    return individual_risk(ctx.work, ctx.keys, max_global_risk=ctx.cfg.thresholds.max_global_risk, **ctx.opts)


def _risk_findings(cfg: RunConfig, risk: Any) -> list[Finding]:
    thr, size = cfg.thresholds, max(risk.n_records, 1)
    above = risk.n_records_above(thr.risk)
    return [Finding("individual risk", f"records with a re-identification risk above {thr.risk:g}", above, above / size),
            Finding("global risk", "expected re-identifications as a share of the records", risk.global_risk,
                    risk.global_risk, rule=_MAX_GLOBAL, unit=SHARE)]


def _heading(m: Measure, name: str) -> str:
    return next(f.heading() for f in m.figures or () if f.name == name)


def _risk_table(cfg: RunConfig, r: Any) -> pd.DataFrame:
    """The risk section's table: the risk figures, the estimator, the threshold, the sampling
    intervals and the household figures (of the scenario's results `r`)."""
    thr, risk = cfg.thresholds, r.risk
    rows: list[tuple[str, object]] = [
        (_heading(K_ANONYMITY, "n_records"), risk.n_records),
        ("risk estimator", ("Benedetti-Franconi " + risk.method) if risk.weights else "1 / fk (no weights)"),
        *((label, value) for _, label, value in RISK.figure_values(cfg, risk)),
        (f"risk threshold for global risk {thr.max_global_risk:g}", risk.global_threshold),
        ("records with risk > median + 3 MAD and > 0.1", risk.n_higher_risk()),
    ]
    for name, iv in r.intervals.items():
        label = "re-identifications an intruder would achieve" if name == "reidentifications" else \
            "expected re-identifications (sampling)"
        rows.append((f"{iv.level:.0%} interval: {label}", f"{iv.lower:,.2f} to {iv.upper:,.2f} ({iv.method})"))
    if r.household is not None:
        h = r.household
        rows += [("households", h.n_households),
                 (_heading(HOUSEHOLD, "expected_reidentifications"), h.expected_reidentifications),
                 ("household global risk", h.global_risk), (_heading(HOUSEHOLD, "global_risk_pct"), h.global_risk_pct)]
    return pd.DataFrame(rows, columns=["item", "value"])


RISK = Measure(
    "risk", "risk", _risk, label="individual and global risk", unit=COUNT, function=individual_risk, always=True,
    rule=_ZERO, findings=_risk_findings, fill=lambda cfg, r: {"risk": f"{cfg.thresholds.risk:g}"},
    figures=(Figure("expected_reidentifications", "expected re-identifications", COUNT, better="lower",
                    sweep="expected_reidentifications"),
             Figure("global_risk", "global risk", SHARE, better="lower", sweep="global_risk"),
             Figure("global_risk_pct", "global risk", PERCENT, better="lower", sweep="global_risk_pct"),
             Figure("max_risk", "highest individual risk", SHARE),
             Figure("n_records_above", "records with risk > {risk}",
                    value=lambda r, cfg: r.n_records_above(cfg.thresholds.risk))),
    title="Re-identification risk", key="risk", view=lambda r: r,
    more_tables=lambda cfg, r: [("risk", "Individual and global risk", _risk_table(cfg, r))],
    plots=("risk_distribution", "cumulative_risk"),
    json=doc.risk_summary, json_of=lambda r: (r.profile, r.risk))


def _intervals(ctx: Context) -> dict[str, Any]:
    """The intervals of the expected re-identifications: an intruder's (always) and, with
    sampling weights, the sampling interval by the delete-a-group jackknife."""
    cfg, work = ctx.cfg, ctx.work
    out = {"reidentifications": reidentification_interval(ctx.done["risk"])}
    if not cfg.weights:
        return out
    units = int(work[cfg.household].nunique()) if cfg.household else len(work)
    groups = min(JACKKNIFE_GROUPS, units)
    if groups >= 2:
        out["expected_reidentifications"] = jackknife_interval(
            work, ctx.keys, weights=cfg.weights, household=cfg.household, groups=groups, rng=0,
            progress=ctx.progress)
    if groups < JACKKNIFE_GROUPS:
        what = "households" if cfg.household else "records"
        ctx.notes.append(f"The sampling interval of the expected re-identifications uses {groups} jackknife groups "
                         f"(the data hold only {units} {what})." if groups >= 2 else
                         f"No sampling interval for the expected re-identifications: the data hold only {units} "
                         f"{what}.")
    return out


INTERVALS = Measure("intervals", "intervals", _intervals, label="intervals of the expected re-identifications",
                    function=jackknife_interval, always=True, json=doc.intervals_document)

#: The measures every scenario has, in the order they run, appear in the verdicts, the report
#: and the JSON: the other measures are built around them.
CORE_MEASURES: tuple[Measure, ...] = (K_ANONYMITY, RISK, INTERVALS)


# ------------------------------------------------------------------------------- the other measures
def _household(ctx: Context) -> Any:
    return household_risk(ctx.work, ctx.keys, ctx.cfg.household, **ctx.opts)


def _ldiversity(ctx: Context) -> Any:
    cfg, thr = ctx.cfg, ctx.cfg.thresholds
    return l_diversity(ctx.work, ctx.keys, list(cfg.sensitive), l={s: cfg.l_for(s) for s in cfg.sensitive},
                       c=thr.c, mode=cfg.ldiversity_mode, sensitive_bins=dict(cfg.sensitive_bins) or None)


def _tcloseness(ctx: Context) -> Any:
    cfg = ctx.cfg
    out = {}
    for s in cfg.sensitive:
        column = ctx.work.distinct(s) if engine_of(ctx.work) == "chunks" else ctx.work[s]  # its type
        dist, t = effective_distance(column, cfg.distance_for(s)), cfg.t_for(s)
        why = t_never_fails(s, t, dist)  # e.g. a Wasserstein t for a variable measured with the equal distance
        if why is not None:
            raise ValueError(why)
        out[s] = t_closeness(ctx.work, ctx.keys, s, distance=dist, t=t)
    return out


def _ldiversity_findings(cfg: RunConfig, res: Any) -> list[Finding]:
    return [Finding(f"{row.l}-diversity ({row.sensitive})",
                    f"records in classes with fewer than {row.l} distinct values of {row.sensitive}",
                    row.n_records_below_l, _share(row.n_records_below_l, res.n_records))
            for row in res.by_sensitive.itertuples(index=False)]


def _tcloseness_findings(cfg: RunConfig, res: Any) -> list[Finding]:
    return [Finding(f"t-closeness ({s}, {tc.distance})",
                    f"records in classes whose {s} distribution is farther than t = {tc.t:g} from the file's "
                    f"({tc.distance} distance)", tc.n_records_above_t, _share(tc.n_records_above_t, tc.n_records))
            for s, tc in res.items()]


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
    out = [("tclose", "t-closeness by sensitive variable", _tcloseness_frame(res))]
    for s, tc in res.items():
        above = tc.classes_above()
        title = (f"Classes whose {s} distribution is farthest from the file's (first {min(len(above), 10)} of "
                 f"{len(above):,})" if len(above) else f"Classes whose {s} distribution is farther than t = {tc.t:g} "
                                                      "from the file's: none")
        out.append((f"t above {s}", title, above.head(10)))
    return out


_TCLOSENESS_COLUMNS = ["sensitive", "distance", "t", "max_t", "n_classes_above_t", "n_records_above_t",
                       "pct_records_above_t"]
_LDIVERSITY_COLUMNS = ["sensitive", "l", "n_values", "n_records_below_l", "pct_records_below_l", "n_classes_below_l",
                       "n_records_entropy_below_l", "n_records_recursive_below_l", "min_distinct", "n_records_unobserved"]


def _tcloseness_frame(res: Any) -> pd.DataFrame:
    rows = [(s, tc.distance, tc.t, tc.max_t, tc.n_classes_above_t, tc.n_records_above_t, tc.pct_records_above_t)
            for s, tc in res.items()]
    return pd.DataFrame(rows, columns=_TCLOSENESS_COLUMNS)


def _ldiversity_summary(res: Any) -> pd.DataFrame:
    return res.by_sensitive[_LDIVERSITY_COLUMNS]


def _which_subsets(res: Any) -> str:
    n = len(res.keys)
    if len(res.table) == 2 ** n - 1:
        return f"Every non-empty subset of the {n} keys ({', '.join(res.keys)})"
    return standard_subsets(res.keys)[1]


def _snapshots(ctx: Context) -> Any:
    subsets, _ = standard_subsets(tuple(ctx.scenario.keys))
    return key_subset_snapshots(ctx.work, ctx.keys, subsets=subsets, threshold=ctx.cfg.thresholds.k,
                                progress=ctx.progress, **ctx.opts)


def _uniqueness(ctx: Context) -> Any:
    cfg = ctx.cfg
    if not (cfg.population_size or cfg.sampling_fraction):
        return None
    return population_uniqueness(ctx.work, ctx.keys, population_size=cfg.population_size,
                                 sampling_fraction=cfg.sampling_fraction)


def _model_risk(ctx: Context) -> Any:
    return model_risk(ctx.work, list(ctx.scenario.keys), weights=ctx.cfg.weights)


#: The bound of beta-likeness in an assessment (Cao and Karras's example value).
BETA = 1.0


def _beta_likeness(ctx: Context) -> Any:
    """beta-likeness of each sensitive variable, banded as l-diversity counts it."""
    cfg, out = ctx.cfg, {}
    for s in cfg.sensitive:
        data = ctx.work
        if s in cfg.sensitive_bins:
            data = data.assign(**{s: apply_binning(data[[s]], {s: cfg.sensitive_bins[s]})[0][s]})
        out[s] = beta_likeness(data, ctx.keys, s, beta=BETA)
    return out


def _no_sensitive(cfg: RunConfig) -> str | None:
    return None if cfg.sensitive else "no sensitive variable is configured ([variables].sensitive)"


HOUSEHOLD = Measure(
    "household", "household", _household, label="household risk", unit=SHARE, function=household_risk,
    wanted=lambda cfg: bool(cfg.household) and ("household" in cfg.measures or "risk" in cfg.measures),
    skip_reason=lambda cfg: None if cfg.household or "household" not in cfg.measures else
    "it needs a household id column ([variables].household, --household)",
    rule=_MAX_GLOBAL,
    findings=lambda cfg, h: [Finding("household risk", "expected re-identifications of households, as a share of "
                                     "the records", h.global_risk, h.global_risk, unit=SHARE)],
    figures=(Figure("expected_reidentifications", "household expected re-identifications"),
             Figure("global_risk_pct", "household global risk", PERCENT)),
    json=doc.household_fields)  # shown in the risk section


#: The measures of a scenario beyond the core ones, in the order they run, appear in the
#: verdicts, the report and the JSON.
SCENARIO_MEASURES: tuple[Measure, ...] = (
    HOUSEHOLD,
    Measure(
        "snapshots", "snapshots", _snapshots, label="risk by subset of the key variables", function=key_subset_snapshots,
        title="Risk by subset of the key variables", key="snap",
        paragraph=("{which}; k = {k}.", lambda cfg, res: {"which": _which_subsets(res), "k": cfg.thresholds.k}),
        tables=(TableSpec("snapshots", "Snapshots over key subsets", lambda res: res.to_frame()[[
            "keys", "n_classes", "n_unique", "pct_unique", "min_k", "n_k_lt_threshold", "pct_k_lt_threshold",
            "expected_reidentifications", "global_risk"]]),),
        plots=("risk_by_key_subset",), json=doc.snapshot_table),
    Measure(
        "ldiversity", "ldiversity", _ldiversity, label="l-diversity", unit=COUNT, function=l_diversity,
        wanted=lambda cfg: bool(cfg.sensitive), skip_reason=_no_sensitive,
        rule=_ZERO, findings=_ldiversity_findings,
        figures=(Figure("n_records_below_l", "records in classes with distinct l < {l}"),),
        by_variable=lambda cfg, res: [(row.sensitive, row, {"l": cfg.l_for(row.sensitive)})
                                      for row in res.by_sensitive.itertuples(index=False)],
        json=doc.ldiversity_summary, title="l-diversity", key="ldiv",
        paragraph=("Mode {mode}; a class is below l when it holds fewer than l distinct values of the sensitive "
                   "variable{bins}.", lambda cfg, ld: {
                       "mode": ld.mode, "bins": "" if not cfg.sensitive_bins else
                       " (banded: " + ", ".join(cfg.sensitive_bins) + ")"}),
        tables=(TableSpec("ldiv", "l-diversity by sensitive variable", _ldiversity_summary),),
        more_tables=_ldiversity_tables, plots=("ldiversity_distribution",),
        across=Across("ldiv", "l-diversity across scenarios", lambda cfg: f"Mode {cfg.ldiversity_mode}; c = "
                      f"{cfg.thresholds.c:g}. The classes below l are listed in each scenario's section.",
                      "ldiversity", "l-diversity by scenario and sensitive variable", lambda ld: ld.by_sensitive,
                      show=("scenario", *_LDIVERSITY_COLUMNS))),
    Measure(
        "tcloseness", "tcloseness", _tcloseness, label="t-closeness", unit=COUNT, function=t_closeness,
        skip_reason=_no_sensitive, rule=_ZERO, findings=_tcloseness_findings,
        figures=(Figure("n_records_above_t", "records in classes with t > {t}"),
                 Figure("max_t", "largest t", DISTANCE)),
        by_variable=lambda cfg, res: [(s, tc, {"t": f"{cfg.t_for(s):g}"}) for s, tc in res.items()],
        json=doc.tcloseness_summaries, title="t-closeness", key="tclose",
        paragraph=("Distance of each class's distribution of the sensitive variable from the whole file's; "
                   "unordered variables use the equal-distance EMD.", lambda cfg, tc: {}),
        more_tables=_tcloseness_tables, plots=("tcloseness_distribution",),
        across=Across("tclose", "t-closeness across scenarios", lambda cfg: "The farthest classes are listed in "
                      "each scenario's section. Unordered sensitive variables use the equal-distance EMD.",
                      "tcloseness", "t-closeness by scenario and sensitive variable", _tcloseness_frame)),
    Measure(
        "suda", "suda", lambda ctx: suda(ctx.work, ctx.keys, mode=ctx.cfg.suda_mode, progress=ctx.progress),
        label="SUDA2", unit=COUNT, function=suda,
        findings=lambda cfg, su: [Finding("SUDA2", "records with a special unique (a minimal sample unique, MSU)",
                                          su.n_records_with_msu, _share(su.n_records_with_msu, su.n_records))],
        figures=(Figure("n_records_with_msu", "records with a SUDA2 minimal sample unique"),),
        title="SUDA2 special uniques", key="suda",
        paragraph=("Mode {mode}; DIS-SUDA sampling fraction {dis_fraction:g}.",
                   lambda cfg, su: {"mode": su.mode, "dis_fraction": su.dis_fraction}),
        tables=(TableSpec("suda", "SUDA2 summary", _summary_table),
                TableSpec("suda contrib", "Contribution of each key (% of the total score)",
                          lambda su: su.attribute_contributions),
                TableSpec("dis table", "DIS-SUDA scores", lambda su: su.dis_table())),
        json=doc.suda_summary),
    Measure(
        "uniqueness", "attacker",
        lambda ctx: attacker_risk(ctx.work, ctx.keys, threshold=ctx.cfg.thresholds.risk,
                                  weights=ctx.cfg.weights),
        label="prosecutor, journalist and marketer risk", unit=SHARE, function=attacker_risk,
        fill=lambda cfg, a: {"threshold": f"{a.threshold:g}"},
        figures=(Figure("prosecutor_highest_risk", "prosecutor: highest risk", SHARE),
                 Figure("prosecutor_average_risk", "prosecutor: average risk", SHARE),
                 Figure("prosecutor_records_at_risk", "prosecutor: share of records with risk > {threshold}", SHARE),
                 Figure("journalist_average_risk", "journalist: average risk", SHARE),
                 Figure("marketer_risk", "marketer risk", SHARE)),
        in_section="risk",
        tables=(TableSpec("attacker", "Prosecutor, journalist and marketer risk", _summary_table,
                          note=lambda a: f"F_j from the {a.population_source}."),),
        json=None),  # in the uniqueness JSON
    Measure(
        "uniqueness", "uniqueness", _uniqueness, label="population uniqueness", unit=SHARE,
        function=population_uniqueness,
        skip_reason=lambda cfg: None if (cfg.population_size or cfg.sampling_fraction) else
        "it needs the population size or the sampling fraction ([options].population_size or sampling_fraction; "
        "--population-size, --sampling-fraction)",
        findings=lambda cfg, u: [Finding("population uniqueness", "estimated share of the population that is unique",
                                         u.fraction_chosen, u.fraction_chosen, unit=SHARE)],
        figures=(Figure("fraction_chosen", "estimated population uniques / N", SHARE),),
        title="Population uniqueness", key="uniq",
        paragraph=("Population size {population_size:,} (sampling fraction {sampling_fraction:.4g}); "
                   "Dankar et al.'s rule chose {model}.",
                   lambda cfg, u: {"population_size": u.population_size, "sampling_fraction": u.sampling_fraction,
                                   "model": u.model}),
        tables=(TableSpec("uniqueness", "Estimated population uniques", lambda u: u.to_frame()),),
        json=doc.uniqueness_with_attacker, json_of=lambda r: (r.uniqueness, r.attacker)),
    Measure(
        "modrisk", "modrisk", _model_risk, extra=True, label="log-linear model risk", unit=SHARE, function=model_risk,
        findings=lambda cfg, m: [Finding("log-linear model risk", "sample uniques estimated to be population unique "
                                         "(gr1)", m.gr1)],
        figures=None, title="Log-linear model risk", key="modrisk",
        paragraph=("sdcMicro's modRisk, method {method}, formula {formula}.",
                   lambda cfg, m: {"method": m.method, "formula": m.formula}),
        tables=(TableSpec("modrisk", "Model-based risk", _summary_table),),
        json=doc.modrisk_summary),
    Measure(
        "betalikeness", "betalikeness", _beta_likeness, extra=True, label="beta-likeness", unit=COUNT,
        function=beta_likeness, wanted=lambda cfg: bool(cfg.sensitive), skip_reason=_no_sensitive, rule=_ZERO,
        findings=lambda cfg, res: [
            Finding(f"beta-likeness ({s})", f"records in classes where a value of {s} is more than beta = {b.beta:g} "
                    "above its share in the file, relatively", b.n_records_above_beta,
                    _share(b.n_records_above_beta, b.n_records)) for s, b in res.items()],
        figures=(Figure("n_records_above_beta", "records in classes with beta > {beta}", better="lower",
                        sweep="records_above_beta"),
                 Figure("max_beta", "largest beta", NUMBER, better="lower", sweep="max_beta")),
        by_variable=lambda cfg, res: [(s, b, {"beta": f"{b.beta:g}"}) for s, b in res.items()],
        title="beta-likeness", key="beta",
        paragraph=("Basic and enhanced beta-likeness (Cao and Karras 2012): a class is above beta = {beta:g} when "
                   "a value's share in it exceeds its share q in the file by more than beta x q{bins}.",
                   lambda cfg, res: {"beta": BETA, "bins": "" if not cfg.sensitive_bins else
                                     " (banded: " + ", ".join(cfg.sensitive_bins) + ")"}),
        tables=(TableSpec("beta", "beta-likeness by sensitive variable", lambda res: pd.DataFrame(
            [(s, b.beta, b.max_beta, b.max_enhanced_beta, b.n_classes_above_beta, b.n_records_above_beta)
             for s, b in res.items()], columns=["sensitive", "beta", "max_beta", "max_enhanced_beta",
                                                "n_classes_above_beta", "n_records_above_beta"])),),
        json=lambda res: {s: summary_json(b) for s, b in res.items()}),
)


# ------------------------------------------------------------------------------- file-wide measures
def _few_levels(data: pd.DataFrame, cols: list[str], max_levels: int = 100) -> list[str]:
    return [c for c in cols if data[c].nunique(dropna=False) <= max_levels]


def _inference(ctx: Context) -> dict[str, Any]:
    cfg, work = ctx.cfg, ctx.work
    exclude = {c for c in (cfg.id, cfg.weights, cfg.household) if c}
    few = _few_levels(work, [c for c in work.columns if c not in exclude])  # counted once for all
    out = {}
    for s in cfg.sensitive:
        bins = {s: cfg.sensitive_bins[s]} if s in cfg.sensitive_bins else None
        out[s] = inference_risk(work, s, candidates=[c for c in few if c != s],
                                min_posterior=cfg.thresholds.min_posterior, bins=bins, progress=ctx.progress)
    return out


def _inference_paragraph(cfg: RunConfig, res: Any) -> dict[str, Any]:
    banded = [x for x in cfg.sensitive_bins if x in res]
    return {"p": f"{cfg.thresholds.min_posterior:g}",
            "bands": f" Banded sensitive variables ({', '.join(banded)}) are inferred as bands." if banded else ""}


def _inference_tables(cfg: RunConfig, res: Any) -> list[tuple[str, str, pd.DataFrame]]:
    out = []
    for sens, inf in res.items():
        f = inf.findings.head(15).copy()
        f["variables"] = [" + ".join(v) for v in f["variables"]]
        out.append((f"inference {sens}", f"Most revealing for {sens}", f))
    return out


INFERENCE = Measure(
    "inference", "inference", _inference, label="inference of sensitive values", unit=COUNT, function=inference_risk,
    wanted=lambda cfg: bool(cfg.sensitive), skip_reason=_no_sensitive, rule=_ZERO,
    findings=lambda cfg, res: [Finding(f"inference ({s})", f"released variables or pairs of them that determine {s} "
                                       "exactly", len(inf.deterministic)) for s, inf in res.items()],
    figures=(Figure("n_deterministic", "variables or pairs that determine it exactly",
                    value=lambda inf, cfg: len(inf.deterministic)),),
    by_variable=lambda cfg, res: [(s, inf, {}) for s, inf in res.items()],
    title="Inference of sensitive values", key="inference",
    paragraph=("Single variables and pairs Z that reveal S; a record is revealed when P(S = its value | Z) >= {p}. "
               "Levels of Z seen once are left out (sample uniques).{bands}", _inference_paragraph),
    more_tables=_inference_tables, hide=("sensitive",),
    json=lambda res: {s: doc.inference_records(inf) for s, inf in res.items()})

def _proxies(ctx: Context) -> Any:
    cfg, work = ctx.cfg, ctx.work
    targets = {**{k: "key" for k in cfg.keys if k in work.columns},
               **{s: "sensitive variable" for s in cfg.sensitive if s in work.columns}}
    skip = {c for c in (cfg.id, cfg.weights, cfg.household) if c}
    return find_proxies(work, targets, [c for c in work.columns if c not in skip])


PROXIES = Measure(
    "proxies", "proxies", _proxies, label="proxies of keys and sensitive variables", unit=COUNT, function=find_proxies,
    wanted=lambda cfg: bool(cfg.keys or cfg.sensitive), rule=_ZERO,
    findings=lambda cfg, res: [Finding("proxies", "released columns that determine a key or sensitive variable in "
                                       f"at least {100 * res.threshold:g}% of their records", len(res.proxies))],
    title="Proxies of keys and sensitive variables", key="proxies",
    paragraph=("A column X is a proxy of a key or sensitive variable Y when Y is the most frequent Y of its X value "
               "in at least {t} of the records rated (sdc.identify.proxies); protecting Y alone leaves it readable "
               "from X.", lambda cfg, res: {"t": f"{100 * res.threshold:g}%"}),
    tables=(TableSpec("proxies", "Columns determining a key or sensitive variable", lambda res: res.to_frame()),),
    json=lambda res: res.to_frame().to_dict("records"))

#: The measures of the whole file (not of a scenario).
FILE_MEASURES: tuple[Measure, ...] = (INFERENCE, PROXIES)

#: Every measure of a scenario, in order: the core ones, then the others.
ALL_MEASURES: tuple[Measure, ...] = CORE_MEASURES + SCENARIO_MEASURES


#: The registered measures that run only when named in ``[options].measures`` (the
#: configuration's defaults are :data:`sdc.workflow.config.MEASURES`).
OPTIONAL_MEASURES: tuple[str, ...] = tuple(dict.fromkeys(
    m.name for m in (*ALL_MEASURES, *FILE_MEASURES) if not m.always and m.name not in MEASURES))


def measure_named(name: str) -> tuple[Measure, ...]:
    """The entries run for a name of ``[options].measures``."""
    return tuple(m for m in (*ALL_MEASURES, *FILE_MEASURES) if m.name == name)


def figure_named(name: str) -> Figure | None:
    """The first declared figure of that name (or sweep column), or None."""
    return next((f for m in ALL_MEASURES for f in (m.figures or ()) if name in (f.name, f.sweep)), None)


def _column_labels() -> dict[str, str]:
    """The headings of the report's table columns: each figure's label (its thresholds read as
    symbols; a per-variable figure names its threshold in the row, so it is not a heading),
    and the columns that are not figures."""
    out: dict[str, str] = {"statistic": "statistic", "value": "value", "description": "what it is"}
    for m in ALL_MEASURES:
        if m.by_variable is None:
            for f in m.figures or ():
                out.setdefault(f.name, f.column_heading())
    out.update({k: v for k, v in _OTHER_COLUMNS.items() if k not in out})
    return out


#: Headings of the columns that are not figures of a measure (or are per-variable figures).
_OTHER_COLUMNS: Mapping[str, str] = {
    "fk": "class size (fk)", "Fk": "estimated population size (Fk)", "risk": "individual risk",
    "keys": "key variables", "n_keys": "number of keys",
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
    "variable": "variable", "level": "level", "contribution": "contribution (%)", "column": "column",
    "target": "key or sensitive variable it determines", "target_role": "role", "records": "records rated",
    "determination": "determination d(X -> Y)", "unique_pair": "records unique on the pair", "one_to_one": "one-to-one",
}

#: Human labels of the columns the report's tables share (a table shows the label, the JSON
#: keeps the name): the figures' labels first. Measures add their own in ``labels``.
COLUMN_LABELS: dict[str, str] = _column_labels()
