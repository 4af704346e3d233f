"""The comparison of an original and a released file (``sdc compare``, and the re-assessment
``sdc protect`` writes): every risk measure of ``sdc assess`` on both files side by side, the
utility measures, key frequencies before and after, and what the protection changed.

:func:`compare` assesses both files with the same configuration (the released file's
configuration adapted where the protection changed a column's nature: a recoded continuous
key is counted by its new bands, not binned again; a dropped column loses its role), matches
the records (by the id column, or by row order), and collects a :class:`Comparison`, which
:mod:`sdc.report.compare` renders.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._provenance import sha256_file, sha256_files
from sdc._stages import stage
from sdc._stats import summary_frame, summary_values
from sdc.exceptions import CodingWarning, SdcWarning
from sdc.workflow.assess import Assessment, ScenarioResult, assess
from sdc.workflow.analyses import check_analyses
from sdc.workflow.compare_attacks import ATTACK_N, AttackComparison, attacker_view, attacks_before_after
from sdc.workflow.compare_records import (
    MATCH_MODES, cell_changes, class_sizes, key_frequencies, match_records, released_coding,
    released_config, top_levels,
)
from sdc.workflow.compare_release import release_marginals
from sdc.workflow.compare_utility import (  # noqa: F401 - with_withheld, swapped_tables: imported from here too
    UTILITY_COLUMNS, swapped_tables, utility_measures, with_withheld,
)
from sdc.workflow.config import RunConfig, as_config
from sdc.workflow.measure import UNIT_HEADINGS
from sdc.workflow.registry import ALL_MEASURES

__all__ = ["Comparison", "compare", "MATCH_MODES", "risk_figures", "match_records", "released_config",
           "load_protection_log", "utility_measures"]

@dataclass(frozen=True)
class Comparison:
    """An original and a released file, assessed alike, side by side.

    Attributes
    ----------
    config : RunConfig
        The assessment configuration of the original.
    before, after : Assessment
        The assessments of the original and the released file (``after.config`` is the
        adapted configuration; see :func:`released_config`).
    original, released : pandas.DataFrame
        The matched records: row i of one is row i of the other (records the protection
        dropped are not in `original` here).
    matched_by : str
        ``"id column 'x'"``, ``"row order"`` or ``"the protection run"``.
    n_original, n_released : int
        Records in each file.
    risk : pandas.DataFrame
        One row per scenario and measure: ``before``, ``after``, ``change``.
    verdicts : pandas.DataFrame
        Each verdict of ``sdc assess`` before and after.
    changes : pandas.DataFrame
        Per variable: cells changed (missing on both sides counts as unchanged), cells newly
        missing (suppressed), and their shares of the matched records.
    key_frequencies : pandas.DataFrame
        Per key variable and level (as assessed, i.e. binned): records before and after.
    class_sizes : pandas.DataFrame
        Per scenario: the class-size distribution (fk) before and after.
    utility : UtilitySummary or None
        The headline utility measures (:func:`sdc.utility_summary`) over the changed variables
        (None when nothing changed).
    utility_table : pandas.DataFrame
        Its figures as rows: ``measure``, ``variable`` (``"overall"`` for file-level ones), ``value``.
    marginals : pandas.DataFrame
        :func:`sdc.marginal_change` of the changed variables (one row per variable).
    associations : pandas.DataFrame
        :func:`sdc.association_change` of the changed variables and the keys: every pair
        whose Cramér's V or correlation changed, largest change first.
    analyses : pandas.DataFrame
        The analyst's models (``[[analyses]]`` of the configuration) fitted to both files: one row
        per analysis and term (:meth:`sdc.workflow.analyses.AnalysesResult.to_frame`; empty without analyses).
    release_marginals : pandas.DataFrame
        Every variable of the original, sensitive first: status (changed, untouched,
        untouched with records withheld, not released), total variation and largest shift of
        its distribution, and the shift the withheld records alone cause
        (:func:`sdc.workflow.compare_release.release_marginals`).
    protection : dict or None
        The protection log (``protection.json``'s content), when known.
    attacks : pandas.DataFrame
        The simulated linkage attack per scenario before and after (:func:`linkage_before_after`).
    attack_figures : AttackComparison or None
        Singling out, linkability, inference and skewness before and after
        (:func:`sdc.workflow.compare_attacks.attacks_before_after`).
    notes : tuple of str
    provenance : dict
    """

    config: RunConfig
    before: Assessment = field(repr=False)
    after: Assessment = field(repr=False)
    original: pd.DataFrame = field(repr=False)
    released: pd.DataFrame = field(repr=False)
    matched_by: str
    n_original: int
    n_released: int
    risk: pd.DataFrame = field(repr=False)
    verdicts: pd.DataFrame = field(repr=False)
    changes: pd.DataFrame = field(repr=False)
    key_frequencies: pd.DataFrame = field(repr=False)
    class_sizes: pd.DataFrame = field(repr=False)
    utility: Any = field(default=None, repr=False)
    utility_table: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    marginals: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    associations: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    analyses: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    release_marginals: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    protection: Mapping[str, Any] | None = field(default=None, repr=False)
    attacks: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    attack_figures: AttackComparison | None = field(default=None, repr=False)
    notes: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict, repr=False)
    utility_variables: tuple[str, ...] = ()   # the variables the utility measures used
    utility_named: bool = False               # named by the caller (else: the changed variables)

    @property
    def records_dropped(self) -> int:
        """Original records with no released counterpart."""
        return self.n_original - len(self.original)

    @property
    def key_levels_shown(self) -> pd.DataFrame:
        """The rows of :attr:`key_frequencies` the pages show: per key variable at most
        :data:`~sdc.workflow.compare_records.KEY_LEVELS_SHOWN` levels, those that changed most
        (every level is in ``key_frequencies.csv``)."""
        return top_levels(self.key_frequencies)[0]

    @property
    def key_levels_left_out(self) -> dict[str, int]:
        """Per key variable, the levels the pages leave out (:attr:`key_levels_shown`)."""
        return top_levels(self.key_frequencies)[1]

    @property
    def changed_variables(self) -> tuple[str, ...]:
        """Variables with at least one changed cell."""
        return tuple(self.changes.loc[self.changes["cells_changed"] > 0, "variable"])

    def to_frame(self) -> pd.DataFrame:
        """The risk figures before and after (one row per scenario and measure)."""
        return self.risk.copy()

    def summary(self) -> pd.DataFrame:
        """Headline figures of the primary scenario (before, after), the cells changed and the
        utility figures, as rows of (statistic, value, description)."""
        b, a = self.before.primary, self.after.primary
        rows: list[tuple[str, object, str]] = [
            ("records_original", self.n_original, "records in the original"),
            ("records_released", self.n_released, "records in the released file"),
            ("records_dropped", self.records_dropped, "original records with no released counterpart"),
            ("matched_by", self.matched_by, "how the records were paired"),
            ("scenario", b.scenario.name, "the primary scenario"),
            ("pct_unique", (b.profile.pct_unique, a.profile.pct_unique), "sample uniques (%), before and after"),
            ("records_fk_below_k", (b.profile.n_k_lt_threshold, a.profile.n_k_lt_threshold),
             "records with fk < k, before and after"),
            ("expected_reidentifications", (b.risk.expected_reidentifications, a.risk.expected_reidentifications),
             "expected re-identifications, before and after"),
            ("global_risk", (b.risk.global_risk, a.risk.global_risk), "global risk, before and after"),
            ("cells_changed", int(self.changes["cells_changed"].sum()), "cells changed"),
            ("variables_changed", list(self.changed_variables), "variables with a changed cell"),
        ]
        if self.utility is not None:
            u = self.utility.summary()
            rows += list(zip(u["statistic"], u["value"], u["description"]))
        return summary_frame(rows)


# ---------------------------------------------------------------------------------------------
# The risk figures

def _risk_rows(r: ScenarioResult, cfg: Any) -> list[tuple[str, float]]:
    """Every figure of every measure of the scenario, as its entry labels it (a measure that
    declares none: the numeric rows of its ``summary()``)."""
    rows = []
    for m in ALL_MEASURES:
        res = m.result(r)
        if res is not None:
            rows += [(label, UNIT_HEADINGS[f.unit] if f is not None else "number", value)
                     for f, label, value in m.figure_values(cfg, res)]
    return [(m, u, float(v)) for m, u, v in rows]


def risk_figures(a: Assessment) -> pd.DataFrame:
    """Every scenario's risk figures as rows: ``scenario``, ``measure``, ``unit`` (its
    :data:`~sdc.workflow.measure.UNIT_HEADINGS`), ``value``."""
    rows = [(r.scenario.name, m, u, v) for r in a.scenarios for m, u, v in _risk_rows(r, a.config)]
    return pd.DataFrame(rows, columns=["scenario", "measure", "unit", "value"])


def _side_by_side(before: pd.DataFrame, after: pd.DataFrame, on: list[str], value: str) -> pd.DataFrame:
    b = before.rename(columns={value: "before"})
    a = after.rename(columns={value: "after"})
    out = b.merge(a, on=on, how="outer", sort=False)
    return out


# ---------------------------------------------------------------------------------------------

#: The simulated linkage attack of the comparison: the attacker knows this share of the
#: original's records (their key values) and links them to each file with the same seed.
ATTACK_SHARE = 0.2
ATTACK_SEED = 0

def _treated_by(protection: Mapping[str, Any] | None, capability: str) -> set[str]:
    """The variables of the logged steps whose method declares `capability`
    (:class:`sdc.protect.MethodInfo`: ``repeatable`` -- an attacker can repeat the change on his
    own file, so he links with the released coding; ``changes_categories``; ``replaces_identifiers``)."""
    from sdc.protect import method_infos

    infos = method_infos()
    return {v for st in (protection or {}).get("steps", []) if getattr(infos.get(st.get("method")), capability, False)
            for v in (st.get("variables") or [])}


def attacker_file(original: pd.DataFrame, released: pd.DataFrame, repeatable: Sequence[str],
                  protection: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The linkage attacker's knowledge of his targets: their true values, coded by the
    published recodings, whatever the release suppressed.

    The repeatable steps of the protection log (deterministic recodings: ``global_recode``,
    ``top_bottom_code``, ...) are applied again, in order, to the true values, as an attacker
    who read the published plan would; a variable of `repeatable` that no such step covers (a
    recoding outside the log, ``recoded=``) or whose step cannot be repeated is coded from the
    pairs of values (:func:`sdc.workflow.compare_attacks.attacker_view`). `original` and
    `released` are matched record by record.
    """
    from sdc.protect import method_infos

    infos, coded, done = method_infos(), original.copy(), set()
    for st in (protection or {}).get("steps", []):
        info = infos.get(st.get("method"))
        variables = [v for v in (st.get("variables") or []) if v in coded.columns]
        if info is None or not info.repeatable or not variables:
            continue
        params = {k: v for k, v in (st.get("parameters") or {}).items() if k != info.variables_param}
        try:
            coded = info.function(coded, variables, **params).data
        except (ValueError, TypeError):
            continue
        done.update(variables)
    rest = [v for v in repeatable if v in original.columns and v not in done]
    view = attacker_view(original, released, rest)
    for v in rest:
        coded[v] = view[v]
    return coded


def linkage_before_after(original: pd.DataFrame, released: pd.DataFrame, config: RunConfig,
                         repeatable: Sequence[str] = (), protection: Mapping[str, Any] | None = None
                         ) -> pd.DataFrame:
    """The simulated linkage attack of every scenario on the original and on the released file.

    An attacker holds the key values of a share (:data:`ATTACK_SHARE`) of the original's
    records, drawn with one seed, and links them exactly to each file (missing values as
    wildcards); the truth is the record itself (both frames are matched record by record).
    The attacker knows his targets: he holds their true values, whatever the release
    suppressed (the model of :func:`sdc.simulate_linkage_attack`). For the variables in
    `repeatable` (deterministic recodings) his values are the released coding of the true
    values, the log's recodings repeated (:func:`attacker_file`): a cell suppressed in the
    release keeps its recoded value in his file. One row per scenario and figure: before,
    after, change.
    """
    from sdc.attacks.linkage import simulate_linkage_attack

    attacker = attacker_file(original, released, repeatable, protection)
    rows = []
    for sc in config.all_scenarios:
        keys = [k for k in sc.keys if k in released.columns]
        if not keys:
            continue
        before = simulate_linkage_attack(original, original, keys, share=ATTACK_SHARE, seed=ATTACK_SEED)
        after = simulate_linkage_attack(attacker, released, keys, share=ATTACK_SHARE, seed=ATTACK_SEED)
        sb, sa = summary_values(before.summary()), summary_values(after.summary())
        for stat, label in (("n_external", "attacker's records"), ("n_unique_correct", "re-identified (unique and correct match)"),
                            ("precision_at_1", "precision at 1"), ("recall", "recall"),
                            ("mean_match_size", "mean match-set size")):
            b, a = sb[stat], sa[stat]
            rows.append((sc.name, label, b, a, (a - b) if b is not None and a is not None else None))
    return pd.DataFrame(rows, columns=["scenario", "figure", "before", "after", "change"])


def load_protection_log(path: str | Path) -> dict[str, Any]:
    """A ``protection.json`` written by ``sdc protect``."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"protection log '{p}' is a folder; give its protection.json.")
    if not p.is_file():
        raise ValueError(f"protection log '{p}' does not exist.")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"protection log '{p}' is not JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list):
        raise ValueError(f"protection log '{p}' is not a protection.json written by sdc protect (no steps).")
    return doc


#: The earlier name of the file digest (:func:`sdc._provenance.sha256_file`), which
#: ``sdc.workflow.protect`` still imports from here.
_sha256 = sha256_file


def compare(
    original: pd.DataFrame,
    released: pd.DataFrame,
    config: RunConfig | str | Path | Mapping[str, Any],
    *,
    protection: Mapping[str, Any] | None = None,
    match: str = "auto",
    recoded: Sequence[str] = (),
    files: Sequence[str | Path] = (),
    command: str = "",
    progress: bool = False,
    now: datetime | None = None,
    n_attacks: int = ATTACK_N,
    utility_variables: Sequence[str] | None = None,
    variables: Sequence[str] | None = None,
    read_notes: Sequence[str] = (),
) -> Comparison:
    """Assess an original and a released file alike and put them side by side.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The two files (not modified).
    config : RunConfig, path or mapping
        The assessment configuration (keys, scenarios, thresholds, measures), as for
        :func:`sdc.assess`: a RunConfig, a configuration file or a mapping of sections; the
        released file's is adapted by :func:`released_config`.
    protection : dict, optional
        The protection log (``protection.json``): what each step changed, shown in the report;
        its recoded variables are counted by their released values.
    match : {"auto", "id", "rows", "index"}
        How records are paired (see :func:`match_records`); the id column is ``config.id``.
    recoded : sequence of str
        Variables a recoding changed (besides those the log names).
    files : sequence of path
        The two files' paths (original, released), for the provenance and their SHA-256.
    n_attacks : int
        Singling-out queries sought and linkability and inference targets of the attacks
        before and after (:func:`sdc.workflow.compare_attacks.attacks_before_after`).
    utility_variables : sequence of str, optional
        The variables the utility measures use (IL1, eigenvalues, marginals, associations), as
        a sweep plan's ``utility_variables``; by default the variables with a changed cell.
    variables : sequence of str, optional
        Deprecated: the old name of `utility_variables` (warns).
    read_notes : sequence of str
        What reading the files had to say (a marker read as a value, ...): the first notes.

    Returns
    -------
    Comparison
    """
    from sdc._validation import check_frame, check_int

    frames = {"original": check_frame(original, "original"), "released": check_frame(released, "released")}
    config = as_config(config)
    check_analyses(config.analyses, frames)  # before any work: each column an analysis names
    n_attacks = check_int(n_attacks, "n_attacks", min_value=1)
    variables = _renamed(utility_variables, variables)
    orig_m, rel_m, how = match_records(original, released, match=match, id=config.id)
    recoded = _recoded(protection, recoded)
    before, after, notes = _assessments(config, original, released, recoded, files, command=command,
                                        progress=progress, now=now)
    risk, verdicts = _risk_and_verdicts(before, after)
    stage(f"comparing the {len(rel_m):,} matched records: the cells changed, the utility measures")
    changes = cell_changes(orig_m, rel_m, [c for c in (config.id,) if c])
    chosen = (_utility_variables(orig_m, rel_m, variables) if variables is not None
              else _changed_variables(orig_m, original, changes, config, protection))
    util = utility_measures(orig_m, rel_m, chosen,
                            [k for k in config.keys if k in rel_m.columns],
                            [c for c in (*config.keys, *config.sensitive) if c in rel_m.columns and c in orig_m.columns],
                            original_all=original, analyses=config.analyses, tables=swapped_tables(protection))
    notes += util["notes"]
    repeatable = sorted(_repeatable(protection, recoded))
    with warnings.catch_warnings():
        # The attacker's file is coded as the release is (recodings repeated); a column still without
        # a common value was replaced whole (a constant), which is protection (attacks_before_after too).
        warnings.simplefilter("ignore", CodingWarning)
        attacks = linkage_before_after(orig_m, rel_m, config, repeatable, protection)
    stage("the attacks, before and after")
    more = attacks_before_after(orig_m, rel_m, config, before=before, after=after, repeatable=repeatable,
                                n_attacks=n_attacks, seed=ATTACK_SEED)
    notes += more.notes
    stage("the key frequencies and the release's marginals")
    keyvars = list(dict.fromkeys(k for s in config.all_scenarios for k in s.keys))
    coded = released_coding(original, orig_m, rel_m, [k for k in keyvars if k in repeatable])
    if coded:
        notes.append(f"levels of the key variables: {', '.join(coded)} compared band to band (the original's values "
                     "coded as the release codes them, as an attacker would), not raw values against bands.")
    return Comparison(
        config=config, before=before, after=after, original=orig_m, released=rel_m, matched_by=how,
        n_original=len(original), n_released=len(released), risk=risk, verdicts=verdicts, changes=changes,
        key_frequencies=key_frequencies(before, after, keyvars, coded), class_sizes=class_sizes(before, after),
        utility=util["summary"], utility_table=util["table"], marginals=util["marginals"],
        associations=util["associations"], analyses=util["analyses"],
        release_marginals=release_marginals(original, orig_m, rel_m, changes, sensitive=config.sensitive,
                                            keys=keyvars, skip=[c for c in (config.id,) if c]),
        protection=dict(protection) if protection else None, attacks=attacks,
        attack_figures=more, notes=tuple(dict.fromkeys([*read_notes, *notes])),
        provenance=_provenance(before, files, command, config), utility_variables=tuple(chosen),
        utility_named=variables is not None)


def _recoded(protection: Mapping[str, Any] | None, recoded: Sequence[str]) -> set[str]:
    """The variables a recoding changed: those given, and those the log's recoding steps name
    (counted by their released values)."""
    return set(recoded) | _treated_by(protection, "changes_categories")


def _renamed(utility_variables: Sequence[str] | None, variables: Sequence[str] | None) -> Sequence[str] | None:
    """`utility_variables`, or `variables` (its deprecated name, with a warning)."""
    if variables is None:
        return utility_variables
    if utility_variables is not None:
        raise ValueError("give `utility_variables` only (`variables` is its old name).")
    warnings.warn("`variables` is deprecated: name the utility variables `utility_variables`.", SdcWarning,
                  stacklevel=3)
    return variables


def _utility_variables(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str]) -> list[str]:
    """The utility variables asked for, each in both files (one error naming those that are not)."""
    names = [variables] if isinstance(variables, str) else list(variables)
    if not names:
        raise ValueError("`utility_variables` is empty; leave it out for the changed variables.")
    for frame, which in ((original, "original"), (released, "released")):
        missing = [v for v in names if v not in frame.columns]
        if missing:
            raise ValueError(f"`utility_variables` names columns not in the {which} file: "
                             f"{', '.join(map(repr, missing))}.")
    return list(dict.fromkeys(names))


def _assessments(config: RunConfig, original: pd.DataFrame, released: pd.DataFrame, recoded: set[str],
                 files: Sequence[str | Path], **kw: Any) -> tuple[Assessment, Assessment, list[str]]:
    """Both files assessed alike (the released file's configuration adapted), each with its own
    file's provenance, and the notes of the adaptation."""
    # The original first: a key, weight or sensitive column that is in neither file is then
    # reported as not in the data, not as a key "the protection dropped".
    before = assess(config, original, **kw)
    cfg_after, notes = released_config(config, released, sorted(recoded))
    after = assess(cfg_after, released, **kw)
    if files:
        sha = sha256_files(files)
        before = replace(before, provenance={**before.provenance, "input_files": [str(files[0])],
                                             "input_sha256": {str(files[0]): sha[str(files[0])]}})
        if len(files) > 1:
            after = replace(after, provenance={**after.provenance, "input_files": [str(files[1])],
                                               "input_sha256": {str(files[1]): sha[str(files[1])]}})
    if any(r.attacker is not None for r in (*before.scenarios, *after.scenarios)) and any(
            bool(df[[k for k in config.keys if k in df.columns]].isna().to_numpy().any()) for df in (original, released)):
        notes.append("prosecutor, journalist and marketer risk count a missing key value (a suppressed cell) as "
                     "a value of its own, as ARX does, not as the wildcard of sdcMicro's rule that fk uses: after "
                     "local suppression they can stay high while every fk is at least k.")
    return before, after, notes


def _risk_and_verdicts(before: Assessment, after: Assessment) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every risk figure and every verdict, before and after."""
    risk = _side_by_side(risk_figures(before), risk_figures(after), ["scenario", "measure", "unit"], "value")
    risk["change"] = risk["after"] - risk["before"]
    vb = pd.DataFrame([v.__dict__ for v in before.verdicts])
    va = pd.DataFrame([v.__dict__ for v in after.verdicts])
    verdicts = _side_by_side(vb[["scenario", "measure", "statistic", "value", "verdict", "threshold"]]
                             .rename(columns={"verdict": "verdict before"}),
                             va[["scenario", "measure", "value", "verdict"]]
                             .rename(columns={"verdict": "verdict after"}),
                             ["scenario", "measure"], "value")
    return risk, verdicts[["scenario", "measure", "statistic", "threshold", "before", "verdict before", "after",
                           "verdict after"]]


def _changed_variables(orig_m: pd.DataFrame, original: pd.DataFrame, changes: pd.DataFrame, config: RunConfig,
                       protection: Mapping[str, Any] | None) -> list[str]:
    """The utility measures' variables: those whose values changed, whether or not a step named
    them (the same two files give the same utility figures with the protection log, sdc
    protect, and without it, sdc compare; a step that changed nothing in a variable would
    otherwise dilute the averages with its zeros); pseudonymised identifiers left out."""
    kept = changes[changes["status"] == "kept"]
    treated = set(kept.loc[kept["cells_changed"] > 0, "variable"])
    # Pseudonyms replace identifiers one for one: no analytic information is lost with them.
    pseudonymised = _treated_by(protection, "replaces_identifiers")
    treated -= {c for c in (config.id,) if c} | pseudonymised
    variables = [c for c in orig_m.columns if c in treated]
    if not variables and len(orig_m) < len(original):
        # Records dropped, no value changed: the loss is the withheld records, over the keys.
        variables = [k for k in config.keys if k in orig_m.columns]
    return variables


def _repeatable(protection: Mapping[str, Any] | None, recoded: set[str]) -> set[str]:
    """The variables an attacker codes the released way: those of the repeatable steps, and
    those recoded outside the log."""
    steps = (protection or {}).get("steps", [])
    return _treated_by(protection, "repeatable") | (set(recoded) - {v for st in steps
                                                                    for v in (st.get("variables") or [])})


def _provenance(before: Assessment, files: Sequence[str | Path], command: str, config: RunConfig) -> dict[str, Any]:
    return {
        "generated_utc": before.provenance["generated_utc"],
        "original": str(files[0]) if files else "(a DataFrame)",
        "released": str(files[1]) if len(files) > 1 else "(a DataFrame)",
        "sha256": sha256_files(files),
        "command": command,
        "config_source": config.source,
        "versions": before.provenance.get("versions", {}),
        "platform": before.provenance.get("platform", ""),
    }
