"""Protection plans proposed from rules (``sdc advise``): candidates made from the declared
protection methods and the data, each applied by the one protect loop, those meeting the
configuration's thresholds kept and ranked by sdcMicro's combined utility score.

sdcMicro 5.8's ``AI_applyAnonymization`` asks a language model for strategies; here they come
from rules, so the advice is the same on every run under a seed, with no model and no network.
The rules (``docs/advise.md``), over the configuration's keys (numeric keys: numeric columns of
the data; categorical keys: the others), with k the configuration's ``[thresholds].k``:

1. **bands** of each numeric key (``global_recode``): round-number widths (the smallest of 1, 2,
   5 x 10^e giving at most 5, 10 or 20 bands over the key's range) and quantile breaks (quartiles,
   deciles; the inner breaks to 4 significant digits);
2. **merges** of the rare categories of the categorical keys (``global_recode(rare=m)``): the
   values held by fewer than 1 % or 5 % of the records pooled (skipped when none is);
3. **local suppression** of every key at k;
4. **PRAM** of the categorical keys (``pd = 0.8``);
5. **microaggregation** of the numeric keys with more distinct values than n / k (MDAV, groups of
   k; the means of groups of a key with fewer values would be more values, not fewer);
6. **combinations**: each banding then local suppression; the 10-band widths, the 5 % merge,
   then local suppression; the 5 % merge then local suppression; microaggregation of the numeric
   keys with more than k distinct values then local suppression.

At most `max_candidates` (default 20) are tried, in that order. Each is a plan run by
:func:`sdc.workflow.protect.protect_data` (its seed the advice's); the released file is assessed
with the configuration as ``sdc protect`` assesses it (:func:`~sdc.workflow.compare_records.released_config`),
and the plan is kept when no verdict fails. The kept plans are ranked by
:func:`sdc.ai_utility_score` (lower first; ties by candidate number) over the keys, the numeric
keys as its numeric variables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_frame, check_int, check_key_values, is_numeric_column
from sdc.utility.ai_score import AI_SCORE_WEIGHTS, ai_utility_score, score_weights
from sdc.workflow.assess import assess
from sdc.workflow.compare_records import released_config
from sdc.workflow.config import RunConfig, as_config
from sdc.workflow.measure import UtilityContext
from sdc.workflow.plan import Plan, PlanError, method_table, plan_from_mapping
from sdc.workflow.protect import ProtectionRun, protect_data
from sdc.workflow.utility_registry import score_variables

__all__ = ["advise", "AdviceResult", "Candidate", "candidate_plans", "MAX_CANDIDATES", "ADVICE_COLUMNS"]

#: Candidates tried by default (the rules make at most 18; see the module docstring).
MAX_CANDIDATES = 20
#: Bands over a numeric key's range (round-number widths) and quantile breaks.
BAND_COUNTS = (5, 10, 20)
QUANTILES = (4, 10)
#: Shares of the records below which a category is pooled.
RARE_SHARES = (0.01, 0.05)
PRAM_PD = 0.8
#: The columns of the ranked table.
ADVICE_COLUMNS = ("rank", "candidate", "label", "rule", "steps", "meets", "n_failing", "failing", "score",
                  "suppression_rate", "category_loss", "il1", "cells_changed", "error")


@dataclass(frozen=True)
class Candidate:
    """One proposed plan: its number (the order the rules make them), label, rule and plan."""

    number: int
    label: str
    rule: str
    plan: Plan = field(repr=False)


@dataclass(frozen=True)
class AdviceResult:
    """Result of :func:`advise`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per candidate tried, the kept ones first by rank, then the others by the number
        of failing verdicts and score (``ADVICE_COLUMNS``: ``rank`` (None for a plan not kept),
        ``meets`` (no verdict fails), ``n_failing`` and ``failing`` (the failing verdicts), the
        score and its three parts, ``cells_changed``, ``error`` (a plan that could not run)).
    candidates : tuple of Candidate
        Every candidate tried, in candidate order.
    runs : tuple of ProtectionRun
        The kept plans' runs, best first (each with the configuration, so its
        ``plan_toml()`` reruns it with ``sdc protect DATA --plan``).
    best : ProtectionRun or None
        The best plan's run with its comparison of the original and the release (None: no
        plan met the thresholds).
    config : RunConfig
    seed : int
    weights : tuple of float
    max_candidates : int
    n_proposed : int
        Candidates the rules made (before the cap).
    """

    table: pd.DataFrame = field(repr=False)
    candidates: tuple[Candidate, ...] = field(repr=False)
    runs: tuple[ProtectionRun, ...] = field(repr=False)
    best: ProtectionRun | None = field(repr=False)
    config: RunConfig = field(repr=False)
    seed: int
    weights: tuple[float, float, float]
    max_candidates: int
    n_proposed: int

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def plans_toml(self) -> list[str]:
        """The kept plans as TOML, best first (``plan_1.toml``, ...), each runnable by ``sdc protect``."""
        return [run.plan_toml() for run in self.runs]

    def summary(self) -> pd.DataFrame:
        """Headline figures as rows of (statistic, value, description)."""
        best = self.table.iloc[0] if self.runs else None
        return summary_frame([
            ("candidates", len(self.candidates), f"plans tried (the rules proposed {self.n_proposed}, at most "
                                                 f"{self.max_candidates} tried)"),
            ("kept", len(self.runs), "plans whose release fails no threshold"),
            ("best", None if best is None else str(best["label"]), "the best kept plan (lowest score)"),
            ("best_score", None if best is None else float(best["score"]),
             "its combined score (sdcMicro's ai_utility_score; lower is better)"),
            ("seed", self.seed, "the seed of every plan"),
            ("weights", list(self.weights), "weights of suppression rate, category loss, IL1s"),
        ])


# ---------------------------------------------------------------------------------------------
# The rules

def _nice_width(span: float, bands: int) -> float:
    """The smallest round number (1, 2 or 5 x 10^e) at least ``span / bands``."""
    raw = span / bands
    e = math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * 10.0 ** e >= raw * (1 - 1e-12):
            return float(m * 10.0 ** e) if e < 0 else float(round(m * 10 ** e))
    return float(10.0 ** (e + 1))  # pragma: no cover - the loop ends at 10


def _band_steps(data: pd.DataFrame, numeric: Sequence[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """(label, steps) of each banding rule, one global_recode step per numeric key."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    values = {v: data[v].dropna().to_numpy(dtype=np.float64) for v in numeric}
    values = {v: x for v, x in values.items() if x.size and x.max() > x.min()}
    if not values:
        return out
    for b in BAND_COUNTS:
        steps = []
        for v, x in values.items():
            w = _nice_width(float(x.max() - x.min()), b)
            steps.append({"method": "global_recode", "variables": [v], "width": w,
                          "origin": float(math.floor(x.min() / w) * w), "closed": "left"})
        out.append((f"bands: {b} or fewer of round width", steps))
    for q in QUANTILES:
        steps = []
        for v, x in values.items():
            inner = [float(f"{e:.4g}") for e in np.quantile(x, np.linspace(0.0, 1.0, q + 1))[1:-1]]
            edges = np.unique([float(x.min()), *[e for e in inner if x.min() < e < x.max()], float(x.max())])
            if edges.size >= 3:
                steps.append({"method": "global_recode", "variables": [v], "edges": [float(e) for e in edges],
                              "include_lowest": True})
        if steps:
            out.append((f"bands: {q}-quantile breaks", steps))
    return out


def _merge_steps(data: pd.DataFrame, categorical: Sequence[str]) -> list[tuple[str, float, dict[str, Any]]]:
    """(label, share, step) of each merge rule that pools at least one category."""
    out = []
    n = len(data)
    for share in RARE_SHARES:
        m = max(2, math.ceil(share * n))
        pools = [v for v in categorical if bool((data[v].value_counts() < m).sum() >= 2)]
        if pools:
            out.append((f"merge categories under {share:.0%}", share,
                        {"method": "global_recode", "variables": pools, "rare": m}))
    return out


def _rule_steps(data: pd.DataFrame, keys: Sequence[str], numeric: Sequence[str], categorical: Sequence[str],
                k: int) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(label, rule, steps) of every candidate, in the rules' order."""
    supp = {"method": "local_suppression", "keys": list(keys), "k": int(k)}
    bands = _band_steps(data, numeric)
    merges = _merge_steps(data, categorical)
    out: list[tuple[str, str, list[dict[str, Any]]]] = [(lab, "bands", steps) for lab, steps in bands]
    out += [(lab, "merge", [step]) for lab, _, step in merges]
    out.append((f"local suppression at k = {k}", "suppression", [supp]))
    if categorical:
        out.append((f"PRAM of the categorical keys (pd = {PRAM_PD})", "pram",
                    [{"method": "pram", "variables": list(categorical), "pd": PRAM_PD}]))
    # Only keys with more values than the groups would have: means of groups of k of a key with
    # few values are more values, not fewer.
    many = [v for v in numeric if data[v].nunique() > len(data) / k]
    micro = [{"method": "microaggregation", "variables": many, "k": int(k)}] if many else []
    if micro:
        out.append((f"microaggregation of the numeric keys (k = {k})", "microaggregation", micro))
    out += [(f"{lab} + local suppression", "combination", [*steps, supp]) for lab, steps in bands]
    if bands and merges:
        lab, steps = bands[min(1, len(bands) - 1)]
        out.append((f"{lab} + {merges[-1][0]} + local suppression", "combination", [*steps, merges[-1][2], supp]))
    if merges:
        out.append((f"{merges[-1][0]} + local suppression", "combination", [merges[-1][2], supp]))
    # Followed by local suppression, microaggregation of any numeric key with more than k values
    # is a candidate: the suppression reaches k whatever the means are (issue 29: on sdcMicro's
    # testdata, age with 88 values microaggregated then suppressed scores best).
    varied = [v for v in numeric if data[v].nunique() > k]
    if varied:
        out.append((f"microaggregation (k = {k}) + local suppression", "combination",
                    [{"method": "microaggregation", "variables": varied, "k": int(k)}, supp]))
    return out


def _key_kinds(data: pd.DataFrame, cfg: RunConfig) -> tuple[list[str], list[str], list[str]]:
    keys = list(cfg.keys)
    if not keys:
        raise ValueError("`config` must name the key variables ([variables].categorical_keys or continuous_keys); "
                         "it names none.")
    check_columns(data, keys, role="key variable")
    check_key_values(data, keys)  # as sdc assess: an infinite value has no band, a key missing everywhere no class
    numeric = [v for v in keys if is_numeric_column(data[v])]
    return keys, numeric, [v for v in keys if v not in numeric]


def candidate_plans(data: pd.DataFrame, config: RunConfig | str | Path, *, seed: int = 0,
                    max_candidates: int = MAX_CANDIDATES) -> tuple[list[Candidate], int]:
    """The candidate plans the rules make for `data` under `config` (see the module docstring),
    at most `max_candidates`, and how many the rules made."""
    data = check_frame(data)
    cfg = _config(config)
    check_int(max_candidates, "max_candidates", min_value=1)
    keys, numeric, categorical = _key_kinds(data, cfg)
    if cfg.thresholds.k > len(data):
        raise ValueError(f"config [thresholds].k = {cfg.thresholds.k} is more than the {len(data)} records of the "
                         "data: no release of them can be k-anonymous, so no plan can meet it.")
    rules = _rule_steps(data, keys, numeric, categorical, cfg.thresholds.k)
    table = method_table()
    out = [Candidate(number=i + 1, label=lab, rule=rule,
                     plan=plan_from_mapping({"plan": {"seed": int(seed)}, "steps": steps}, source=f"advice {i + 1}",
                                            methods=table))
           for i, (lab, rule, steps) in enumerate(rules[:max_candidates])]
    return out, len(rules)


def _config(config: Any) -> RunConfig:
    return as_config(config)


# ---------------------------------------------------------------------------------------------
# Trying the candidates

def _failing(released: pd.DataFrame, cfg: RunConfig, recoded: Sequence[str], now: datetime | None) -> list[str]:
    """The verdicts of the released file that fail, as sdc protect's reassessment gives them."""
    after, _ = released_config(cfg, released, recoded)
    a = assess(released, replace(after, data_path=None), now=now)
    return [f"{v.scenario}: {v.measure}" if v.scenario else v.measure for v in a.verdicts if v.verdict == "fail"]


def _try(data: pd.DataFrame, cand: Candidate, cfg: RunConfig, weights: tuple[float, ...],
         now: datetime | None) -> tuple[dict[str, Any], ProtectionRun | None]:
    """The candidate's row of the table and its run (None: it could not run)."""
    row: dict[str, Any] = {"candidate": cand.number, "label": cand.label, "rule": cand.rule,
                           "steps": " -> ".join(s.method for s in cand.plan.steps), "error": ""}
    try:
        run = protect_data(data, cand.plan, reassess=False, now=now)
    except (PlanError, ValueError, TypeError) as exc:
        return {**row, "meets": False, "n_failing": None, "failing": "", "error": " ".join(str(exc).split())}, None
    table = method_table()
    recoded = [v for r in run.steps if table[r.step.method].changes_categories for v in r.result.variables]
    changed = list(dict.fromkeys(v for r in run.steps for v in r.result.variables))
    failing = _failing(run.released, cfg, recoded, now)
    keys, numeric = score_variables(UtilityContext(data, run.released, changed, list(cfg.keys)))
    s = ai_utility_score(data, run.released, keys, numeric, weights=weights)
    row.update(meets=not failing, n_failing=len(failing), failing="; ".join(failing), score=s.total,
               suppression_rate=s.suppression_rate, category_loss=s.category_loss, il1=s.il1,
               cells_changed=int(run.cells_changed().sum()))
    return row, replace(run, config=cfg)


def _ranked(rows: list[dict[str, Any]]) -> pd.DataFrame:
    t = pd.DataFrame(rows).reindex(columns=[c for c in ADVICE_COLUMNS if c != "rank"])
    t["meets"] = t["meets"].astype(bool)
    t = t.sort_values(["meets", "n_failing", "score", "candidate"], ascending=[False, True, True, True],
                      kind="mergesort", na_position="last").reset_index(drop=True)
    kept = int(t["meets"].sum())
    t.insert(0, "rank", pd.array(list(range(1, kept + 1)) + [None] * (len(t) - kept), dtype="Int64"))
    return t


def advise(
    data: pd.DataFrame,
    config: RunConfig | str | Path | Mapping[str, Any],
    *,
    seed: int = 0,
    max_candidates: int = MAX_CANDIDATES,
    weights: Sequence[float] = AI_SCORE_WEIGHTS,
    now: datetime | None = None,
    compare_best: bool = True,
    progress: bool = False,
) -> AdviceResult:
    """Propose protection plans from rules, apply each, keep those meeting the thresholds, rank them.

    Parameters
    ----------
    data : pandas.DataFrame
        The original microdata (not modified).
    config : RunConfig, path or dict
        The assessment configuration (``run.toml``): its keys are the plans' keys, its
        ``[thresholds]`` the test a plan's release must pass (every verdict of ``sdc assess``
        not failing), its k the k of local suppression and microaggregation.
    seed : int, default 0
        Every plan's seed (PRAM's draws derive from it): the same seed, the same advice.
    max_candidates : int, default 20
        The most candidates tried, in the rules' order (the module docstring).
    weights : three numbers, default (1/3, 1/3, 1/3)
        The score's weights of suppression rate, category loss and IL1s (:func:`sdc.ai_utility_score`).
    now : datetime, optional
        The time recorded in the runs (for reproducible outputs).
    compare_best : bool, default True
        Compare the best plan's release with the original (:func:`sdc.compare`), as
        ``sdc protect`` does.
    progress : bool
        Progress of the best plan's comparison.

    Returns
    -------
    AdviceResult

    Notes
    -----
    The score is sdcMicro's ``ai_utility_score`` (sdcMicro 5.8, ``R/ai_anonymization_utilities.R``):
    :math:`w_1 S + w_2 C + w_3 I` with S the share of key cells newly suppressed, C the mean
    over the keys of 1 - levels after / levels before, I sdcMicro's IL1s of the numeric keys per
    cell; see :func:`sdc.ai_utility_score` and ``docs/advise.md``.

    Examples
    --------
    >>> import sdc
    >>> df = sdc.load_example()
    >>> res = sdc.advise(df, "sdc/data/example.toml", seed=1)      # doctest: +SKIP
    >>> res.table[["rank", "label", "score"]].head(3)              # doctest: +SKIP
    """
    data = check_frame(data)
    cfg = _config(config)
    seed = check_int(seed, "seed", min_value=0)
    w = score_weights(weights)
    cands, proposed = candidate_plans(data, cfg, seed=seed, max_candidates=max_candidates)
    rows, runs = [], {}
    for cand in cands:
        row, run = _try(data, cand, cfg, w, now)
        rows.append(row)
        if run is not None and row["meets"]:
            runs[cand.number] = run
    table = _ranked(rows)
    ranked = tuple(runs[int(c)] for c in table.loc[table["meets"], "candidate"])
    best = None
    if ranked and compare_best:
        best = protect_data(data, ranked[0].plan, config=cfg, now=now, progress=progress)
    elif ranked:
        best = ranked[0]
    return AdviceResult(table=table, candidates=tuple(cands), runs=ranked, best=best, config=cfg, seed=seed,
                        weights=w, max_candidates=max_candidates, n_proposed=proposed)
