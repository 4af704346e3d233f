"""The cross-check: native sdc vs sdcMicro on the same case, one function per sdcMicro entry point.

The only module of :mod:`sdc` that reaches R: it imports :mod:`r_bridge` lazily, inside the
functions that call sdcMicro, so ``import sdc`` never needs rpy2. ``sdc assess --cross-check``
calls :func:`cross_check`; the test suite and ``validation/cross_validate.py`` call the
``compare_*`` functions on their cases.

Each ``compare_*`` runs both sides and returns :class:`Diff` rows, one per compared
quantity. Counts (fk, n1, kAnon counts, records above a rule) must agree exactly; risks
and weighted sums to ``RTOL`` relative. The name mapping between sdcMicro's fields and
sdc's results lives here and nowhere else.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pandas as pd

from sdc.attribute.ldiversity import l_diversity
from sdc.core.binning import apply_binning
from sdc.core.frequencies import frequencies
from sdc.exceptions import SdcWarning
from sdc.risk.household import household_risk
from sdc.risk.individual import individual_risk
from sdc.risk.kanonymity import k_anonymity
from sdc.risk.model import model_risk
from sdc.risk.snapshots import key_subset_snapshots
from sdc.risk.suda import suda
from sdc.workflow.config import RunConfig, Scenario

__all__ = ["Case", "Diff", "compare_values", "RTOL", "compare_case", "summarise", "COMPARISONS", "cross_check",
           "compared_as"]


def _r():  # noqa: ANN202
    """sdc's bridge to R (:func:`sdc._rbridge.bridge`), imported on first use (R and rpy2 are
    optional)."""
    from sdc._rbridge import bridge

    return bridge()


@dataclass(frozen=True)
class Case:
    """One dataset and its roles (sdcMicro's names in comments)."""

    name: str                      # unique, e.g. "testdata/5 keys/w"
    dataset: str                   # group for the summary table, e.g. "testdata"
    data: pd.DataFrame = field(repr=False)
    keys: tuple[str, ...]          # keyVars
    weights: str | None = None     # w / weightVar
    household: str | None = None   # hid / hhId
    alpha: float = 1.0             # createSdcObj(alpha=)
    sensitive: tuple[str, ...] = ()  # ldiv_index
    formula: str | None = None     # modRisk formulaM (default: the keys' main effects)

    @property
    def has_missing_keys(self) -> bool:
        return bool(self.data[list(self.keys)].isna().to_numpy().any())


RTOL = 1e-9        # risks, global figures (issue #2: "risks to 1e-9 relative")
RTOL_SUMS = 1e-12  # weighted frequencies: sums of the same weights in another order


@dataclass(frozen=True)
class Diff:
    """One compared quantity on one case."""

    measure: str          # "measure_risk: risk"
    case: str
    dataset: str
    n_values: int
    max_abs_diff: float
    max_rel_diff: float
    agree: bool
    exact: bool           # compared for exact equality
    rtol: float | None = None  # the relative tolerance otherwise

    def explain(self) -> str:
        return (f"{self.measure} on {self.case}: max abs diff {self.max_abs_diff:.3g}, "
                f"max rel diff {self.max_rel_diff:.3g} over {self.n_values} values")


def _diff(measure: str, case: Case, ours: object, theirs: object, *, rtol: float | None,
          atol: object = 0.0) -> Diff:
    return compare_values(measure, case.name, case.dataset, ours, theirs, rtol=rtol, atol=atol)


def compare_values(measure: str, case: str, dataset: str, ours: object, theirs: object, *, rtol: float | None,
                   atol: object = 0.0) -> Diff:
    """One :class:`Diff` row: arrays compared value by value (NaN == NaN); rtol None means exact
    equality. A value also agrees within `atol` (per value), an error bound of sdcMicro's own
    arithmetic where that is known."""
    a = np.atleast_1d(np.asarray(ours, dtype=np.float64))
    b = np.atleast_1d(np.asarray(theirs, dtype=np.float64))
    if a.shape != b.shape:
        return Diff(measure, case, dataset, max(a.size, b.size), math.inf, math.inf, False, rtol is None, rtol)
    both_nan = np.isnan(a) & np.isnan(b)
    one_nan = np.isnan(a) ^ np.isnan(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        absd = np.where(both_nan, 0.0, np.abs(a - b))
        reld = np.where(absd == 0, 0.0, absd / np.maximum(np.abs(a), np.abs(b)))
    absd[one_nan] = np.inf
    reld[one_nan] = np.inf
    max_abs = float(absd.max()) if absd.size else 0.0
    max_rel = float(reld.max()) if reld.size else 0.0
    agree = max_abs == 0.0 if rtol is None else bool((((reld <= rtol) | (absd <= atol)) & ~one_nan).all())
    return Diff(measure, case, dataset, int(a.size), max_abs, max_rel, agree, rtol is None, rtol)


def _quiet(fn, *args, **kwargs):  # noqa: ANN001, ANN202
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        return fn(*args, **kwargs)


def compare_freq_calc(case: Case) -> list[Diff]:
    """``freqCalc(x, keys, w, alpha)`` vs :func:`sdc.frequencies`."""
    r = _r().freq_calc(case.data, case.keys, w=case.weights, alpha=case.alpha)
    ours = _quiet(frequencies, case.data, case.keys, weights=case.weights, alpha=case.alpha)
    return [
        _diff("freqCalc: fk", case, ours.sample_frequency, r.fk, rtol=None),
        _diff("freqCalc: Fk", case, ours.population_frequency, r.Fk, rtol=RTOL_SUMS),
        _diff("freqCalc: n1, n2", case, [ours.n1, ours.n2], [r.n1, r.n2], rtol=None),
    ]


def compare_measure_risk(case: Case) -> list[Diff]:
    """``measure_risk(data, keys, w, hid)`` (alpha is always 1 there) vs :func:`sdc.individual_risk`."""
    r = _r().measure_risk(case.data, case.keys, w=case.weights, hid=case.household)
    ours = _quiet(individual_risk, case.data, case.keys, weights=case.weights)
    out = [
        _diff("measure_risk: risk", case, ours.risk, r.Res["risk"], rtol=RTOL),
        _diff("measure_risk: fk", case, ours.sample_frequency, r.Res["fk"], rtol=None),
        _diff("measure_risk: Fk", case, ours.population_frequency, r.Res["Fk"], rtol=RTOL_SUMS),
        _diff("measure_risk: global_risk_ER", case, ours.expected_reidentifications, r.global_risk_ER, rtol=RTOL),
        _diff("measure_risk: global_risk", case, ours.global_risk, r.global_risk, rtol=RTOL),
        _diff("measure_risk: global_risk_pct", case, ours.global_risk_pct, r.global_risk_pct, rtol=RTOL),
        _diff("measure_risk: global_threshold", case, ours.global_threshold, r.global_threshold, rtol=RTOL),
        _diff("measure_risk: higher-risk count (3 MAD)", case, ours.n_higher_risk(3.0), r.n_higher_risk, rtol=None),
    ]
    for g in (0.001, 0.05, 0.1, 0.5):
        rg = _r().measure_risk(case.data, case.keys, w=case.weights, max_global_risk=g)
        out.append(_diff(f"measure_risk: global_threshold (g={g:g})", case, ours.threshold_for(g),
                         rg.global_threshold, rtol=RTOL))
    return out


def compare_sdc_obj(case: Case) -> list[Diff]:
    """``createSdcObj(keys, weightVar, alpha)``: risk slots and the printed figures."""
    r = _r().create_sdc_obj(case.data, case.keys, weightVar=case.weights, alpha=case.alpha)
    ours = _quiet(individual_risk, case.data, case.keys, weights=case.weights, alpha=case.alpha)
    prof = _quiet(k_anonymity, case.data, case.keys, weights=case.weights, alpha=case.alpha)
    g = r.global_
    mine_k = [prof.n_below(2), prof.n_below(3), prof.n_below(5)]
    theirs_k = [r.kanon["fk_lt_2"], r.kanon["fk_lt_3"], r.kanon["fk_lt_5"]]
    return [
        _diff("createSdcObj: risk", case, ours.risk, r.individual["risk"], rtol=RTOL),
        _diff("createSdcObj: fk", case, ours.sample_frequency, r.individual["fk"], rtol=None),
        _diff("createSdcObj: Fk", case, ours.population_frequency, r.individual["Fk"], rtol=RTOL_SUMS),
        _diff("createSdcObj: risk_ER", case, ours.expected_reidentifications, g["risk_ER"], rtol=RTOL),
        _diff("createSdcObj: risk (global)", case, ours.global_risk, g["risk"], rtol=RTOL),
        _diff("createSdcObj: threshold", case, ours.global_threshold, g["threshold"], rtol=RTOL),
        _diff("print(sdc,'kAnon'): fk < 2, 3, 5", case, mine_k, theirs_k, rtol=None),
        _diff("print(sdc,'risk'): higher-risk count (2 MAD)", case, ours.n_higher_risk(2.0), r.risky_obs, rtol=None),
    ]


def compare_indiv_risk_exact(case: Case) -> list[Diff]:
    """``indivRisk(method="exact")`` vs ``method="exact"`` (weighted cases, alpha 1).

    sdcMicro's alternating-sum formula loses digits as f_k grows (and overflows for large
    f_k); compared where f_k <= 10, the range where it is accurate to 1e-9. Its R loop costs
    O(f_k^2) per record, so cases whose largest class exceeds 30 records are skipped
    (sdcMicro's testdata, largest class 176, about 10 s in R, is compared once, apart:
    ``tests/risk/test_sdcmicro_measures.py::test_exact_risk_on_testdata``).
    """
    if case.weights is None:
        return []
    ours = _quiet(individual_risk, case.data, case.keys, weights=case.weights, method="exact")
    if ours.sample_frequency.max() > 30:
        return []
    r = _r().indiv_risk(case.data, case.keys, w=case.weights, method="exact")
    ok = (r["fk"] <= 10).to_numpy()
    return [_diff("indivRisk(exact): rk, fk <= 10", case, ours.risk[ok], r["rk"][ok], rtol=RTOL)]


def compare_snapshots(case: Case) -> list[Diff]:
    """Each key subset's expected re-identifications and uniques vs ``measure_risk`` on it."""
    snap = _quiet(key_subset_snapshots, case.data, case.keys, weights=case.weights)
    er_ours, er_r, uq_ours, uq_r = [], [], [], []
    for row in snap.table.itertuples(index=False):
        r = _r().measure_risk(case.data, list(row.keys), w=case.weights)
        er_ours.append(row.expected_reidentifications)
        er_r.append(r.global_risk_ER)
        uq_ours.append(row.n_unique)
        uq_r.append(int((r.Res["fk"] == 1).sum()))
    return [
        _diff("snapshots: expected re-identifications per subset", case, er_ours, er_r, rtol=RTOL),
        _diff("snapshots: sample uniques per subset", case, uq_ours, uq_r, rtol=None),
    ]


def compare_ldiversity(case: Case, c: float = 2.0, *, missing_value: float = -999) -> list[Diff]:
    """``ldiversity(data, keys, ldiv_index = sensitive, l_recurs_c = c, missing = missing_value)``
    vs ``l_diversity(mode="sdcmicro", missing_value=missing_value)``.

    Distinct and recursive values must agree exactly, entropy to 1e-12 relative (sdcMicro
    sums the entropy terms in its own category order). A class whose sensitive values are
    all sdcMicro's missing code takes the recursive value of the class processed before it,
    a state that sdcMicro carries across calls for the first class; such first classes are
    not compared.
    """
    if not case.sensitive:
        return []
    r = _r().ldiversity(case.data, case.keys, list(case.sensitive), l_recurs_c=c, missing=missing_value)
    ours = _quiet(l_diversity, case.data, case.keys, list(case.sensitive), c=c, mode="sdcmicro",
                  missing_value=missing_value).records
    out = []
    for col in r.columns:
        a, b = ours[col].to_numpy(), r[col].to_numpy()
        if col.endswith("_Recursive_Ldiversity"):
            ok = ~np.isnan(a)  # NaN: the stale first-class case described above
            out.append(_diff(f"ldiversity: {col.split('_', 1)[1]}", case, a[ok], b[ok], rtol=None))
        elif col.endswith("_Entropy_Ldiversity"):
            out.append(_diff(f"ldiversity: {col.split('_', 1)[1]}", case, a, b, rtol=1e-12))
        else:
            name = col if col.startswith("Multi") else col.split("_", 1)[1]
            out.append(_diff(f"ldiversity: {name}", case, a, b, rtol=None))
    return out


def has_correlated_items(data: pd.DataFrame, keys: tuple[str, ...]) -> bool:
    """True when two items (variable = value) of different variables cover the same records.

    SUDA2 merges such items and credits their MSUs' contributions to one variable only (see
    docs/sdcmicro-differences.md); scores are unaffected.
    """
    n = len(data)
    seen: dict[frozenset, str] = {}
    for k in keys:
        for value, idx in data.groupby(k, dropna=True, observed=True).indices.items():
            if 2 <= len(idx) < n:
                rows = frozenset(idx.tolist())
                if rows in seen and seen[rows] != k:
                    return True
                seen.setdefault(rows, k)
    return False


def compare_suda2(case: Case, *, original_scores: bool = True, dis_fraction: float = 0.01) -> list[Diff]:
    """``suda2(data, variables = keys, DisFraction, original_scores)`` vs ``suda(mode="sdcmicro")``.

    Scores exactly (Elliot's weights are integers; IHSN weights to 1e-12), DIS to 1e-12,
    contributions to 1e-12 and attribute contributions to 1e-9 where no two items of
    different variables cover the same records (:func:`has_correlated_items`). sdcMicro's
    suda2 fails on one record or one key (documented), so those cases compare nothing.
    """
    if len(case.data) == 1 or len(case.keys) == 1:
        return []
    r = _r().suda2(case.data, case.keys, DisFraction=dis_fraction, original_scores=original_scores)
    o = _quiet(suda, case.data, case.keys, dis_fraction=dis_fraction, original_scores=original_scores)
    tag = "" if original_scores else " (IHSN)"
    out = [
        _diff(f"suda2: score{tag}", case, o.score, r.score, rtol=None if original_scores else 1e-12),
        _diff(f"suda2: disScore{tag}", case, o.dis_score, r.disScore, rtol=1e-12),
    ]
    if not has_correlated_items(case.data, case.keys):
        out += [
            _diff(f"suda2: contributionPercent{tag}", case, o.contributions.to_numpy().ravel(),
                  r.contributionPercent.to_numpy().ravel(), rtol=1e-12),
            _diff(f"suda2: attribute_contributions{tag}", case, o.attribute_contributions["contribution"],
                  r.attribute_contributions["contribution"], rtol=1e-9),
        ]
    return out


def compare_household(case: Case) -> list[Diff]:
    """``measure_risk(data, keys, w, hid)`` vs :func:`sdc.household_risk`: hier_risk, hier_risk_ER, hier_risk."""
    r = _r().measure_risk(case.data, case.keys, w=case.weights, hid=case.household)
    o = _quiet(household_risk, case.data, case.keys, case.household, weights=case.weights)
    return [
        _diff("measure_risk(hid): hier_risk per record", case, o.risk, r.Res["hier_risk"], rtol=RTOL),
        _diff("measure_risk(hid): hier_risk_ER", case, o.expected_reidentifications, r.hier_risk_ER, rtol=RTOL),
        _diff("measure_risk(hid): hier_risk", case, o.global_risk, r.hier_risk, rtol=RTOL),
        _diff("measure_risk(hid): hier_risk_pct", case, o.global_risk_pct, r.hier_risk_pct, rtol=RTOL),
    ]


RTOL_MODEL = 1e-6  # iterative fits: R's IRLS stops at a looser tolerance than ours


def compare_modrisk(case: Case, methods: tuple[str, ...] = ("default", "CE", "PML", "weightedLLM", "IPF"), *,
                    bound: float = math.inf) -> list[Diff]:
    """``modRisk(data, method, weights, formulaM, bound)`` vs :func:`sdc.model_risk`: gr1, gr2.

    ``formulaM`` is the case's formula, or the keys' main effects; IPF is skipped for a formula
    with interactions (neither sdcMicro nor sdc fits those with IPF)."""
    formula = case.formula or "~ " + " + ".join(case.keys)
    if re.search(r"[*:]", formula):
        methods = tuple(m for m in methods if m != "IPF")
    out = []
    for m in methods:
        r = _r().mod_risk(case.data, formula, weights=case.weights, method=m, bound=bound,
                              columns=list(case.keys) + [case.weights])
        o = _quiet(model_risk, case.data, weights=case.weights, method=m, formula=formula, bound=bound)
        tag = "" if math.isinf(bound) else f", bound {bound:g}"
        out.append(_diff(f"modRisk ({m}{tag}): gr1, gr2", case, [o.gr1, o.gr2], [r["gr1"], r["gr2"]], rtol=RTOL_MODEL,
                         atol=np.array([0.0, _gr2_rounding(o)])))
    return out


def _gr2_rounding(res: object) -> float:
    """Rounding error of sdcMicro's gr2: its term (1 - exp(-v)) / v is off by about eps / v for a
    sample-unique cell with a tiny v (fitted values near 0, as saturated models give), while
    sdc computes -expm1(-v) / v (docs/sdcmicro-differences.md). Sum over those cells / #kept."""
    c = res.cells  # type: ignore[attr-defined]
    kept = c["kept"].to_numpy()
    v = ((1.0 - c["inclProb"].to_numpy()) * c["fitted"].to_numpy())[kept]
    unique = c["counts"].to_numpy()[kept] == 1
    with np.errstate(divide="ignore"):
        return float(np.sum(np.finfo(np.float64).eps / np.abs(v[unique]))) / max(int(kept.sum()), 1)


COMPARISONS = {
    "freqCalc": compare_freq_calc,
    "measure_risk": compare_measure_risk,
    "createSdcObj": compare_sdc_obj,
    "indivRisk_exact": compare_indiv_risk_exact,
    "snapshots": compare_snapshots,
    "ldiversity": compare_ldiversity,
    "suda2": compare_suda2,
    "suda2_ihsn": lambda case: compare_suda2(case, original_scores=False),
    "modRisk": compare_modrisk,
    "household": compare_household,
}


def compare_case(case: Case, which: tuple[str, ...] = ("freqCalc", "measure_risk", "createSdcObj")) -> list[Diff]:
    out: list[Diff] = []
    for name in which:
        out.extend(COMPARISONS[name](case))
    return out


def summarise(diffs: list[Diff]) -> pd.DataFrame:
    """One row per (measure, dataset): cases, max abs diff, max rel diff, all agree."""
    df = pd.DataFrame([d.__dict__ for d in diffs])
    df["rtol"] = df["rtol"].astype(float)  # None (exact comparisons) becomes NaN
    g = df.groupby(["measure", "dataset"], sort=False)
    out = g.agg(cases=("case", "nunique"), values=("n_values", "sum"), max_abs_diff=("max_abs_diff", "max"),
                max_rel_diff=("max_rel_diff", "max"), agree=("agree", "all"), exact=("exact", "all"),
                rtol=("rtol", "max")).reset_index()
    out["tolerance"] = ["exact" if ex else f"rel {rt:g}" for ex, rt in zip(out["exact"], out["rtol"])]
    return out.drop(columns=["exact", "rtol"])


class _ScenarioRun(Protocol):
    @property
    def scenario(self) -> Scenario: ...


class Assessed(Protocol):
    """What the cross-check reads of an assessment (``sdc.workflow.assess.Assessment``)."""

    @property
    def config(self) -> RunConfig: ...
    @property
    def assessed(self) -> pd.DataFrame: ...
    @property
    def scenarios(self) -> Sequence[_ScenarioRun]: ...


def cross_check(a: Assessed, progress: bool) -> tuple[pd.DataFrame, dict[str, str]]:
    """Every scenario's measures computed again through sdcMicro (r_bridge), with the agreement.

    The data are those the report assessed: continuous keys and sensitive variables binned
    as configured, and with ``missing = "category"`` missing key values recoded to a level
    of their own, so the agreement is about the numbers in the report.
    """
    r_bridge = _r()
    if not r_bridge.is_available():
        raise RuntimeError(f"`cross_check` needs R and sdcMicro: {r_bridge.unavailable_reason()}")
    cfg = a.config
    frame, _ = apply_binning(a.assessed, dict(cfg.sensitive_bins))
    if cfg.missing == "category":
        # sdcMicro always applies its wildcard rule; a missing key value that is its own
        # category is, for sdcMicro, one more level.
        for k in dict.fromkeys(k for r in a.scenarios for k in r.scenario.keys):
            miss = frame[k].isna()
            if miss.any():
                frame[k] = frame[k].astype(object).where(~miss, "(missing)").map(str)
    which = ["freqCalc", "measure_risk", "createSdcObj"]
    if cfg.household and ("household" in cfg.measures or "risk" in cfg.measures):
        which.append("household")
    if cfg.sensitive and "ldiversity" in cfg.measures:
        which.append("ldiversity")
    if "suda" in cfg.measures:
        which.append("suda2")
    steps = [(sc, w) for sc in a.scenarios for w in which]
    if progress:
        from sdc.core.progress import progress_bar

        steps = progress_bar(steps, desc="cross-check with sdcMicro", unit="measure")
    diffs: dict[str, list] = {}
    for r, w in steps:
        case = Case(name=r.scenario.name, dataset=r.scenario.name, data=frame, keys=r.scenario.keys,
                    weights=cfg.weights, household=cfg.household, alpha=cfg.alpha, sensitive=cfg.sensitive)
        # l-diversity at the configured c (recursive (c, l)-diversity), as the report computes it
        found = compare_ldiversity(case, c=cfg.thresholds.c) if w == "ldiversity" else compare_case(case, (w,))
        diffs.setdefault(r.scenario.name, []).extend(found)
    tables = []
    for name, d in diffs.items():
        t = summarise(d).drop(columns=["dataset", "cases"])
        t.insert(0, "scenario", name)
        tables.append(t)
    return pd.concat(tables, ignore_index=True), r_bridge.versions()


def compared_as(cfg: RunConfig) -> list[str]:
    """Where the cross-check's figures are not the report's: measures compared as sdcMicro
    computes them while the configuration asks for another computation (documented in
    docs/sdcmicro-differences.md). Empty when every figure compared is the report's."""
    notes = []
    if cfg.sensitive and "ldiversity" in cfg.measures and cfg.ldiversity_mode != "sdcmicro":
        notes.append(f"l-diversity is compared as sdcMicro computes it (ldiversity_mode = \"sdcmicro\"); this "
                     f"report's l-diversity uses ldiversity_mode = \"{cfg.ldiversity_mode}\", which differs from "
                     "sdcMicro's on purpose, so its figures are not the ones compared")
    if "suda" in cfg.measures and cfg.suda_mode != "sdcmicro":
        notes.append(f"SUDA is compared as sdcMicro computes it (suda_mode = \"sdcmicro\"); this report's SUDA uses "
                     f"suda_mode = \"{cfg.suda_mode}\"")
    if cfg.household and cfg.alpha != 1 and ("household" in cfg.measures or "risk" in cfg.measures):
        notes.append(f"household risk is compared at alpha = 1 (sdcMicro's measure_risk has no alpha); this "
                     f"report's uses alpha = {cfg.alpha:g}")
    return notes
