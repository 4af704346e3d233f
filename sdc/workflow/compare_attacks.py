"""The attacks of the comparison besides linkage: singling out, linkability, inference
(anonymeter's design, Giomi et al. 2023) and the skewness attack (Li, Li & Venkatasubramanian
2007), each run on the original and on the released file with the same seed.

:func:`attacks_before_after` is what :func:`sdc.workflow.compare.compare` calls; the formulas
are in :mod:`sdc.attacks.anonymeter` and :mod:`sdc.attacks.skewness` (docs/attacks.md).

The anonymeter attacks need control records that the release cannot have leaked: a share
(:data:`CONTROL_SHARE`) of the matched original records is held out with the seed
(:func:`sdc.split_control`). *Before*, the attacker is given the remaining original records
themselves as the "release"; *after*, the released records of those same people. Both are
judged on the same training and control records, so the two figures differ only by what the
protection did. The control records' released counterparts are left out of the release the
attacker sees; the protection itself saw the whole file (a local suppression, for example,
counted the control records too), which the design cannot undo.

After a deterministic recoding (global recoding, top/bottom coding) the attacker codes his
knowledge of the original the published way: :func:`attacker_view`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame, summary_values
from sdc.attacks.anonymeter import AnonymeterResult, inference_attack, linkability_attack, split_control
from sdc.attacks.singling_out import singling_out_attack
from sdc.attacks.skewness import SkewnessResult, skewness_attack
from sdc.core.binning import apply_binning
from sdc.core.classes import equivalence_classes
from sdc.exceptions import CodingWarning, SdcWarning

if TYPE_CHECKING:
    from sdc.workflow.assess import Assessment
    from sdc.workflow.config import RunConfig

__all__ = ["AttackComparison", "attacks_before_after", "attacker_view", "ATTACKS", "ATTACK_N", "CONTROL_SHARE",
           "MIN_RECORDS", "LIFT_THRESHOLD"]

#: The attacks of this module, as named in ``report.json`` (``attacks.<name>``).
ATTACKS = ("singling_out", "linkability", "inference", "skewness")
#: Singling-out queries to find, and targets of the linkability and inference attacks.
ATTACK_N = 500
#: Candidate multivariate queries tried per requested query (bounds the search: a protected
#: file has few queries that single out one record, and the search would otherwise run to
#: anonymeter's cap).
TRIES_PER_QUERY = 10
#: Share of the matched original records held out as control records.
CONTROL_SHARE = 0.2
#: Fewest matched records for the anonymeter attacks (both sides of the control split need
#: records to attack).
MIN_RECORDS = 20
#: Columns of a multivariate singling-out query (anonymeter's default), at most the keys.
N_COLS = 3
#: A class is skewed when its largest lift reaches this.
LIFT_THRESHOLD = 2.0

_COLUMNS = ["scenario", "attack", "variant", "figure", "before", "after", "change"]


@dataclass(frozen=True)
class AttackComparison:
    """Singling out, linkability, inference and skewness on the original and on the release.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per scenario, attack, variant and figure: ``before``, ``after``, ``change`` (=
        after - before). ``attack`` is one of :data:`ATTACKS`; ``variant`` the singling-out
        mode, the linkability halves, or the sensitive variable.
    notes : tuple of str
        Attacks left out and why (too few records, no sensitive variable, ...).
    settings : dict
        The attacks' parameters (seed, number of attacks, control share, ...).
    """

    table: pd.DataFrame = field(repr=False)
    notes: tuple[str, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """Every figure before and after (see `table`)."""
        return self.table.copy()

    def rows(self, attack: str) -> pd.DataFrame:
        """The rows of one attack (without the ``attack`` column)."""
        t = self.table[self.table["attack"] == attack]
        return t.drop(columns="attack").reset_index(drop=True)

    def summary(self) -> pd.DataFrame:
        """The headline figure of each scenario, attack and variant (``"scenario / attack /
        variant"``): (before, after) of the risk (anonymeter attacks) or of the largest lift
        (skewness)."""
        head = self.table[self.table["figure"].isin(["risk", "largest lift"])]
        return summary_frame([(f"{r.scenario} / {r.attack} / {r.variant}", (r.before, r.after),
                               f"{r.figure} before and after") for r in head.itertuples(index=False)])


# ---------------------------------------------------------------------------------------------

def attacker_view(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str]) -> pd.DataFrame:
    """The original as an attacker codes it after a published deterministic recoding.

    Each original value of a variable in `variables` becomes the released value most often
    paired with it over the matched records where both are present (a recoding is a function
    of the value; the most frequent pair also survives a later perturbation of a few cells).
    Unlike copying the released column, a cell suppressed in the release keeps its recoded
    value: the attacker still knows the truth about his own records. A value never released
    (all its cells suppressed) becomes missing. `original` and `released` are matched row by
    row.
    """
    out = original.copy()
    for v in variables:
        if v not in original.columns or v not in released.columns:
            continue
        pairs = pd.DataFrame({"o": original[v].to_numpy(), "r": released[v].to_numpy()})
        pairs = pairs[pairs["o"].notna() & pairs["r"].notna()]
        if pairs.empty:
            out[v] = released[v].to_numpy()
            continue
        # Each distinct (original, released) pair and its count; per original value the most
        # frequent pair (ties: the pair seen first).
        cls = equivalence_classes(pairs, ("o", "r"))
        n = cls.key_values(pairs).assign(n=cls.sizes)
        best = n.sort_values("n", ascending=False, kind="stable").drop_duplicates("o")
        mapped = original[v].astype(object).map(pd.Series(best["r"].to_numpy(), index=best["o"].to_numpy()))
        out[v] = mapped.astype(released[v].dtype) if isinstance(released[v].dtype, pd.CategoricalDtype) \
            else mapped.infer_objects()
    return out


def _diff(b: Any, a: Any) -> float:
    try:
        return float(a) - float(b)
    except (TypeError, ValueError):
        return float("nan")


def _anon_rows(scenario: str, attack: str, variant: str, b: AnonymeterResult,
               a: AnonymeterResult) -> list[tuple[Any, ...]]:
    pct = f"{100 * b.confidence:g}%"

    def figs(r: AnonymeterResult) -> list[tuple[str, float]]:
        return [("risk", r.risk), (f"risk {pct} CI low", r.risk_ci[0]), (f"risk {pct} CI high", r.risk_ci[1]),
                ("attack success rate", r.main.rate),
                ("control success rate", float("nan") if r.control is None else r.control.rate),
                ("baseline success rate", r.baseline.rate), ("attacks", float(r.main.n_attacks))]

    return [(scenario, attack, variant, fb, vb, va, _diff(vb, va)) for (fb, vb), (_, va) in zip(figs(b), figs(a))]


def _skew_rows(scenario: str, variant: str, b: SkewnessResult, a: SkewnessResult) -> list[tuple[Any, ...]]:
    def figs(r: SkewnessResult) -> list[tuple[str, float]]:
        s = summary_values(r.summary())
        return [("largest lift", s["max_lift"]),
                (f"records in classes with lift >= {r.lift_threshold:g}", float(s["n_records_skewed"])),
                (f"records in classes with lift >= {r.lift_threshold:g} (%)", s["pct_records_skewed"]),
                ("mean lift of a record's own value", s["mean_own_lift"]),
                ("equivalence classes", float(s["n_classes"]))]

    return [(scenario, "skewness", variant, fb, vb, va, _diff(vb, va)) for (fb, vb), (_, va) in zip(figs(b), figs(a))]


def _banded(frame: pd.DataFrame, keys: Sequence[str], sensitive: str, bins: Mapping[str, Any]) -> pd.DataFrame:
    """The keys (as assessed) and the sensitive variable, banded like l-diversity counts it."""
    sub = frame[[*keys, sensitive]]
    if sensitive in bins:
        sub, _ = apply_binning(sub, {sensitive: bins[sensitive]})
    return sub


def attacks_before_after(original: pd.DataFrame, released: pd.DataFrame, config: RunConfig, *,
                         before: Assessment, after: Assessment, repeatable: Sequence[str] = (),
                         n_attacks: int = ATTACK_N, seed: int = 0) -> AttackComparison:
    """Singling out, linkability, inference and skewness, before and after, per scenario.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The matched records (row i of one is row i of the other).
    config : RunConfig
        The original's assessment configuration: its scenarios give the attacker's columns,
        its sensitive variables the secrets.
    before, after : Assessment
        The assessments of both files; the skewness attack uses their classes (continuous keys
        as assessed) and the sensitive bands of the l-diversity.
    repeatable : sequence of str
        Variables a deterministic recoding changed (see :func:`attacker_view`).
    n_attacks : int
        Singling-out queries sought, and linkability and inference targets (each side).
    seed : int
        The seed of the control split and of every attack.

    Returns
    -------
    AttackComparison

    Notes
    -----
    Per scenario with keys K (those released): singling out, univariate and multivariate
    (``min(3, |K|)`` columns per query, at most 10 x `n_attacks` candidates tried), on K;
    linkability with the attacker's two files A = the first ceil(|K|/2) keys and B = the
    rest (one nearest neighbour each); inference of each released sensitive variable from K
    (numeric: within 5 %); skewness of each sensitive variable in the classes of K. The risk
    of an anonymeter attack is (r_main - r_control) / (1 - r_control) with its Wilson-based
    interval (:mod:`sdc.attacks.anonymeter`); the skewness figures are lift(c, v) =
    (n_cv / n_c) / (n_v / n) (:mod:`sdc.attacks.skewness`).
    """
    notes: list[str] = []
    rows: list[tuple[Any, ...]] = []
    # Only the columns an attack reads (every scenario's keys, the sensitive variables): each
    # side below is a copy of some records, and at 10^7 records a copy of every column is GBs.
    wanted = dict.fromkeys([k for sc in config.all_scenarios for k in sc.keys] + list(config.sensitive))
    common = [c for c in original.columns if c in released.columns and c in wanted]
    orig = original[common].reset_index(drop=True)
    rel = released[common].reset_index(drop=True)
    sensitive = [s for s in config.sensitive if s in common]
    settings = {"seed": seed, "n_attacks": n_attacks, "max_tries": TRIES_PER_QUERY * n_attacks,
                "control_share": CONTROL_SHARE, "n_cols": N_COLS, "n_neighbors": 1, "tolerance": 0.05,
                "confidence": 0.95, "lift_threshold": LIFT_THRESHOLD, "recoded_as_released": sorted(v for v in repeatable if v not in config.sensitive)}
    notes += _left_out(config, sensitive, common, len(orig))
    sides = None
    if len(orig) >= MIN_RECORDS:
        train, ctrl = split_control(orig, share=CONTROL_SHARE, seed=seed)
        train_i, ctrl_i = train.index, ctrl.index
        # The attacker codes what he knows (the keys) the published way; the secret he tries
        # to infer is judged against its true value, recoded or not.
        view = attacker_view(orig, rel, [v for v in repeatable if v in common and v not in sensitive])
        sides = {"before": (train, train, ctrl),  # the attacks only read their frames
                 "after": (view.loc[train_i], rel.loc[train_i], view.loc[ctrl_i])}
        settings.update(n_training=len(train_i), n_control=len(ctrl_i))
    run = _runner(notes)
    for sc in config.all_scenarios:
        keys = [k for k in sc.keys if k in common]
        if keys:
            rows += _scenario_attacks(sc.name, keys, sensitive, sides, run, notes, n_attacks, seed, before, after)
    table = pd.DataFrame(rows, columns=_COLUMNS)
    for c in ("before", "after", "change"):
        table[c] = pd.to_numeric(table[c], errors="coerce").astype(np.float64)
    return AttackComparison(table=table, notes=tuple(dict.fromkeys(notes)), settings=settings)


def _left_out(config: RunConfig, sensitive: list[str], common: list[str], n: int) -> list[str]:
    """The notes on the attacks left out, and on how the continuous keys are matched."""
    notes = []
    if not config.sensitive:
        notes.append("attacks: the configuration names no sensitive variable; the inference and skewness attacks "
                     "are left out.")
    elif not sensitive:
        notes.append("attacks: no sensitive variable is released; the inference and skewness attacks are left out.")
    unbanded = sorted(k for k in config.bins if k in common)
    if unbanded:
        notes.append(f"attacks: continuous key(s) {', '.join(unbanded)} are matched on the values the files hold, not "
                     "on the bins the risk measures use: the attacks before describe releasing the original as it is, "
                     "and can find more than its binned classes show.")
    if n < MIN_RECORDS:
        notes.append(f"attacks: {n} matched record(s), too few for a control split (at least {MIN_RECORDS}); the "
                     "singling-out, linkability and inference attacks are left out.")
    return notes


def _runner(notes: list[str]) -> Any:
    """``run(label, attack)``: ``attack(side)`` before and after; a failure becomes a note, not an
    error of the comparison."""
    def run(label: str, attack: Any) -> tuple[Any, Any] | None:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SdcWarning)
                # The attacker's file is coded as the release is (attacker_view): a column with
                # no value in common was replaced whole, which is protection, not a coding slip.
                warnings.simplefilter("ignore", CodingWarning)
                pair = (attack("before"), attack("after"))
        except (ValueError, TypeError) as exc:
            notes.append(f"attacks: {label} left out: {str(exc).splitlines()[0]}")
            return None
        notes.extend(f"attacks: {label}: {' '.join(str(w.message).split())}" for w in caught)
        return pair

    return run


def _scenario_attacks(name: str, keys: list[str], sensitive: list[str], sides: dict[str, Any] | None, run: Any,
                      notes: list[str], n_attacks: int, seed: int, before: Assessment,
                      after: Assessment) -> list[tuple[Any, ...]]:
    """The rows of one scenario's attacks (`sides` None: no control split, no anonymeter attack)."""
    rows: list[tuple[Any, ...]] = []
    if sides is not None:
        for mode in ("univariate", "multivariate"):
            res = run(f"singling out ({mode}, {name})", lambda side, m=mode: singling_out_attack(
                sides[side][0], sides[side][1], control=sides[side][2], columns=keys, mode=m,
                n_attacks=n_attacks, n_cols=min(N_COLS, len(keys)), max_attempts=TRIES_PER_QUERY * n_attacks,
                seed=seed))
            if res:
                rows += _anon_rows(name, "singling_out", mode, *res)
        if len(keys) >= 2:
            half = (len(keys) + 1) // 2
            a, b = keys[:half], keys[half:]
            res = run(f"linkability ({name})", lambda side: linkability_attack(
                sides[side][0], sides[side][1], (a, b), control=sides[side][2], n_attacks=n_attacks, seed=seed))
            if res:
                rows += _anon_rows(name, "linkability", f"A: {', '.join(a)}; B: {', '.join(b)}", *res)
        else:
            notes.append(f"attacks: scenario {name!r} has one key; the linkability attack needs two (one per "
                         "attacker's file) and is left out.")
    for s in sensitive:
        if s in keys:
            continue
        if sides is not None:
            res = run(f"inference of {s} ({name})", lambda side: inference_attack(
                sides[side][0], sides[side][1], keys, s, control=sides[side][2], n_attacks=n_attacks, seed=seed))
            if res:
                rows += _anon_rows(name, "inference", s, *res)
        kb = [k for k in keys if k in before.assessed.columns]
        ka = [k for k in keys if k in after.assessed.columns]
        if s in before.assessed.columns and s in after.assessed.columns and kb and ka:
            on = {"before": (before, kb), "after": (after, ka)}
            res = run(f"skewness of {s} ({name})", lambda side: skewness_attack(
                _banded(on[side][0].assessed, on[side][1], s, on[side][0].config.sensitive_bins), on[side][1], s,
                lift_threshold=LIFT_THRESHOLD))
            if res:
                rows += _skew_rows(name, s, *res)
    return rows
