"""Terminal text of the attacks (``sdc attack ...``): numbers are rounded here and nowhere else.

JSON output is each result's ``to_dict()`` (plain numbers, unrounded) through
:func:`sdc.report.serialize.dumps`.
"""

from __future__ import annotations

import math

from sdc._stats import summary_values
from sdc.attacks.anonymeter import AnonymeterResult
from sdc.attacks.distance import DistanceRiskResult, RecordLinkageResult, RmdRiskResult
from sdc.attacks.linkage import LinkageResult
from sdc.attacks.skewness import SkewnessResult
from sdc.report.formatting import fmt_num, render_table

__all__ = ["attack_text", "linkage_text", "anonymeter_text", "skewness_text", "distance_text",
           "record_linkage_text"]


def _pct(x: float | None) -> str:
    return "NA" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}%"


def _rows(pairs: list[tuple[str, str]], indent: str = "  ") -> str:
    width = max(len(k) for k, _ in pairs)
    return "\n".join(f"{indent}{k.ljust(width)}  {v}" for k, v in pairs)


def linkage_text(res: LinkageResult, *, source: str) -> str:
    p = res.parameters
    how = "exact match" if res.method == "exact" else \
        f"nearest neighbour on {', '.join(res.numeric)} (standardised)" + \
        (f", exact on {', '.join(c for c in res.on if c not in res.numeric)}" if len(res.numeric) < len(res.on) else "")
    rows = [("released records", fmt_num(res.n_released)), ("attacker's records", fmt_num(res.n_external)),
            ("quasi-identifiers", ", ".join(res.on)), ("matching", how)]
    if res.method == "exact":
        rows.append(("missing values", "wildcard (match anything)" if res.missing == "wildcard" else "own category"))
    if p.get("simulated"):
        rows.append(("attacker's file", f"drawn from the original: share {p['share']:g}, seed {p['seed']}"))
    out = [f"Record-linkage attack: {source}", _rows(rows), "", "Matches", _rows([
        ("records with a match", f"{fmt_num(res.n_matched)} ({_pct(res.n_matched / max(res.n_external, 1))})"),
        ("records with a unique match", f"{fmt_num(res.n_unique)} ({_pct(res.n_unique / max(res.n_external, 1))})"),
        ("mean match-set size", fmt_num(res.mean_match_size, 3)),
    ])]
    if res.has_truth:
        out += ["", f"Re-identification (truth: {res.truth})", _rows([
            ("targets in the release", fmt_num(res.n_targets)),
            ("correct unique matches", fmt_num(res.n_unique_correct)),
            ("true record in the match set", fmt_num(res.n_correct)),
            ("expected re-identifications", fmt_num(res.expected_reidentified, 2)),
            ("precision at 1", _pct(res.precision_at_1)),
            ("recall", _pct(res.recall)),
            ("precision of unique matches", _pct(res.unique_precision)),
            ("recall of unique matches", _pct(res.unique_recall)),
        ])]
    out += ["", "Match-set sizes", render_table(res.match_size_table(), formats={"share": ".4f",
                                                                              "expected_reidentified": ".2f"})]
    return "\n".join(out)


_TITLES = {"singling_out": "Singling-out attack", "linkability": "Linkability attack", "inference": "Inference attack"}


def anonymeter_text(res: AnonymeterResult, *, source: str) -> str:
    lo, hi = res.risk_ci
    risk = "NA (the control attack always succeeds)" if math.isnan(res.risk) else \
        f"{res.risk:.4f}  ({100 * res.confidence:g}% CI {lo:.4f} - {hi:.4f})"
    params = [(k.replace("_", " "), ", ".join(map(str, v)) if isinstance(v, list) else str(v))
              for k, v in res.parameters.items() if v is not None and not isinstance(v, dict)]
    out = [f"{_TITLES.get(res.attack, res.attack)} (anonymeter design): {source}", _rows(params + [("seed", str(res.seed))]),
           "", "Success rates (Wilson score)", render_table(res.to_frame(), formats={
               "rate": ".4f", "error": ".4f", "ci_low": ".4f", "ci_high": ".4f", "n_success": ",.2f"}),
           "", _rows([("risk = (main - control) / (1 - control)" if res.control is not None else "risk (main rate; no control)",
                       risk)])]
    if res.notes:
        out += ["", "Notes"] + [f"  - {n}" for n in res.notes]
    return "\n".join(out)


def skewness_text(res: SkewnessResult, *, source: str, top: int = 10) -> str:
    s = summary_values(res.summary())
    rows = [("records", fmt_num(s["n_records"])), ("key variables", ", ".join(res.keys)),
            ("sensitive variable", res.sensitive), ("equivalence classes", fmt_num(s["n_classes"])),
            ("largest lift", fmt_num(s["max_lift"], 3)),
            ("mean lift of a record's own value", fmt_num(s["mean_own_lift"], 3)),
            (f"records in classes with lift >= {res.lift_threshold:g}",
             f"{fmt_num(s['n_records_skewed'])} ({s['pct_records_skewed']:.2f}%)")]
    if res.has_categories:
        rows += [("records in single-category classes", f"{fmt_num(s['n_records_pure'])} ({s['pct_records_pure']:.2f}%)"),
                 ("mean category entropy (nats)", fmt_num(s["mean_entropy"], 3))]
    cols = [c for c in res.classes.columns if c not in ("class_id",)]
    worst = res.most_skewed(top)
    return "\n".join([f"Skewness and similarity attack: {source}", _rows(rows), "",
                      f"Most skewed classes (top {len(worst)})",
                      render_table(worst[cols], formats={"max_lift": ".3f", "max_lift_share": ".3f", "file_share": ".4f",
                                                         "entropy": ".3f", "purity": ".3f",
                                                         "max_category_lift": ".3f"})])


def distance_text(res: DistanceRiskResult, rmd: RmdRiskResult | None = None, *, source: str) -> str:
    out = [f"Distance-based risk of continuous keys: {source}", _rows([
        ("records", fmt_num(res.n_records)), ("variables", ", ".join(res.variables)),
        (f"dRisk (k = {res.k:g}): records in every interval", f"{fmt_num(res.n_at_risk)} ({_pct(res.risk)})"),
    ])]
    if rmd is not None:
        out += ["", f"dRiskRMD (k = {rmd.k:g}, k2 = {rmd.k2:g}, covariance {rmd.covariance_method}"
                    + (f", seed {rmd.seed}" if rmd.seed is not None else "") + ")", _rows([
                        ("risk1 (RMDID1, unsafe records)", f"{fmt_num(rmd.n_unsafe)} ({_pct(rmd.risk1)})"),
                        ("risk2 (RMDID2, isolated unsafe records)", f"{fmt_num(rmd.n_isolated)} ({_pct(rmd.risk2)})"),
                        ("wrisk1", fmt_num(rmd.wrisk1, 6)), ("wrisk2", fmt_num(rmd.wrisk2, 6)),
                    ])]
    return "\n".join(out)


def record_linkage_text(res: RecordLinkageResult, *, source: str) -> str:
    s = summary_values(res.summary())
    return "\n".join([f"Global distance-based record linkage: {source}", _rows([
        ("records", fmt_num(s["n_records"])), ("variables", ", ".join(res.variables)), ("distance", res.distance),
        ("correct matches", f"{fmt_num(res.correct_matches)} ({_pct(res.correct_match_rate)})"),
        ("mean distance", f"{res.mean_distance:.6g}"), ("total distance", f"{res.total_distance:.6g}"),
        ("records with tied best candidates", fmt_num(s["n_ties"])),
    ])])


def attack_text(res: object, *, source: str) -> str:
    """The text of any attack result."""
    if isinstance(res, LinkageResult):
        return linkage_text(res, source=source)
    if isinstance(res, AnonymeterResult):
        return anonymeter_text(res, source=source)
    if isinstance(res, SkewnessResult):
        return skewness_text(res, source=source)
    if isinstance(res, DistanceRiskResult):
        return distance_text(res, source=source)
    if isinstance(res, RecordLinkageResult):
        return record_linkage_text(res, source=source)
    raise TypeError(f"not an attack result: {type(res).__name__}")
