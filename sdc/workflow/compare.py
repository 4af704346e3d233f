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

import hashlib
import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame, summary_values
from sdc.exceptions import CodingWarning, SdcWarning
from sdc.protect._result import changed_cells
from sdc.workflow.assess import Assessment, ScenarioResult, assess
from sdc.workflow.compare_attacks import ATTACK_N, AttackComparison, attacks_before_after
from sdc.workflow.config import RunConfig, Scenario, as_config

__all__ = ["Comparison", "compare", "MATCH_MODES", "risk_figures", "match_records", "released_config",
           "load_protection_log", "utility_measures"]

#: How the records of the two files are paired.
MATCH_MODES = ("auto", "id", "rows", "index")


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
    protection: Mapping[str, Any] | None = field(default=None, repr=False)
    attacks: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    attack_figures: AttackComparison | None = field(default=None, repr=False)
    notes: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def records_dropped(self) -> int:
        """Original records with no released counterpart."""
        return self.n_original - len(self.original)

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
# Matching the records

def match_records(original: pd.DataFrame, released: pd.DataFrame, *, match: str = "auto",
                  id: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Pair the records of two files: (original rows, released rows, how), row i with row i.

    ``match="id"`` pairs by the id column (unique in each file; every released id must be in
    the original; original records without a released one were dropped by the protection);
    ``"rows"`` by row order (the files must have as many records); ``"index"`` by the
    DataFrames' index (a protection run keeps it); ``"auto"`` uses the id column when there is
    one in both files, else row order.
    """
    if match not in MATCH_MODES:
        raise ValueError(f"`match` must be one of {', '.join(map(repr, MATCH_MODES))}; got {match!r}.")
    if match == "auto":
        match = "id" if id and id in original.columns and id in released.columns else "rows"
    if match == "index":
        if released.index.equals(original.index):
            # Nothing dropped or reordered: the original itself, not a copy of every column
            # (as for row order; at 10^7 records a copy held for the whole comparison is GBs).
            return original, released, "the protection run (record by record)"
        extra = released.index.difference(original.index)
        if len(extra) or not released.index.is_unique:
            raise ValueError("the released records do not match the original's (index): "
                             f"{len(extra)} released record(s) have no original.")
        return original.loc[released.index], released, "the protection run (record by record)"
    if match == "rows":
        if len(original) != len(released):
            raise ValueError(
                f"the files do not match: the original has {len(original):,} records and the released file "
                f"{len(released):,}; matching by row order needs as many (give the id column to match by id).")
        return original, released.set_axis(original.index), "row order"
    if not id:
        raise ValueError("matching by id needs the id column (--id, or [data].id in the config).")
    for name, df in (("original", original), ("released", released)):
        if id not in df.columns:
            raise ValueError(f"the id column {id!r} is not in the {name} file (match by row order: --match rows).")
        dup = df[id].duplicated(keep=False) | df[id].isna()
        if dup.any():
            first = df.loc[dup, id].iloc[0]
            raise ValueError(f"the id column {id!r} of the {name} file is not a unique id: value {_show(first)} "
                             f"is missing or repeats ({int(dup.sum()):,} records).")
    orig_ids = pd.Index(original[id].astype(str))
    rel_ids = pd.Index(released[id].astype(str))
    unknown = rel_ids.difference(orig_ids)
    if len(unknown):
        hint = (" None of the released ids is in the original (pseudonymised?): match by row order (--match rows)."
                if len(unknown) == len(rel_ids) else "")
        raise ValueError(f"the files do not match by {id!r}: {len(unknown):,} released record(s) have an id the "
                         f"original lacks, e.g. {_show(unknown[0])}.{hint}")
    pos = orig_ids.get_indexer(rel_ids)
    order = np.sort(pos)  # keep the original's order
    back = pd.Index(pos).get_indexer(order)
    return original.iloc[order], released.iloc[back].set_axis(original.index[order]), f"id column {id!r}"


def _show(v: Any) -> str:
    s = str(v)
    return repr(s if len(s) <= 40 else s[:37] + "...")


# ---------------------------------------------------------------------------------------------
# The released file's configuration

def _numeric(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)


def released_config(cfg: RunConfig, released: pd.DataFrame, recoded: Sequence[str] = ()) -> tuple[RunConfig, list[str]]:
    """The configuration to assess the released file with, and a note per change.

    A continuous key the protection recoded (`recoded`), or that is no longer numeric, is
    counted by its released values (its bins would band the bands again); a role whose column
    the protection dropped is removed; a key it dropped leaves the scenarios (an intruder
    cannot match on a column that is not released).
    """
    notes: list[str] = []
    cols = set(released.columns)
    bins = dict(cfg.bins)
    cont = list(cfg.continuous_keys)
    cat = list(cfg.categorical_keys)
    for k in list(cont):
        if k in cols and (k in recoded or not _numeric(released[k])) and k in bins:
            del bins[k]
            notes.append(f"released file: {k} is counted by its released values (the protection recoded it), "
                         "not binned again.")
    sbins = {s: b for s, b in cfg.sensitive_bins.items() if s in cols and _numeric(released[s])}
    for s in set(cfg.sensitive_bins) - set(sbins):
        if s in cols:
            notes.append(f"released file: sensitive variable {s} is counted by its released values (no longer "
                         "numeric).")
    kw: dict[str, Any] = {"bins": bins, "sensitive_bins": sbins}
    for role in ("id", "weights", "household"):
        col = getattr(cfg, role)
        if col and col not in cols:
            kw[role] = None
            notes.append(f"released file: the {role} column {col} is not released; that role is left out.")
    gone = [k for k in cfg.keys if k not in cols]
    if gone:
        notes.append(f"released file: key(s) {', '.join(gone)} are not released; scenarios go without them.")
    kw["categorical_keys"] = tuple(k for k in cat if k in cols)
    kw["continuous_keys"] = tuple(k for k in cont if k in cols)
    sens = tuple(s for s in cfg.sensitive if s in cols)
    if len(sens) < len(cfg.sensitive):
        notes.append("released file: sensitive variable(s) "
                     + ", ".join(s for s in cfg.sensitive if s not in cols) + " are not released.")
    kw["sensitive"] = sens
    scen = []
    for sc in cfg.scenarios:
        keys = tuple(k for k in sc.keys if k in cols)
        if keys:
            scen.append(Scenario(sc.name, keys))
        else:
            notes.append(f"released file: scenario {sc.name!r} has no released key; it is left out.")
    kw["scenarios"] = tuple(scen)
    if not kw["categorical_keys"] and not kw["continuous_keys"] and not scen:
        raise ValueError("the released file holds none of the key variables: there is nothing to assess.")
    return replace(cfg, **kw), notes


# ---------------------------------------------------------------------------------------------
# The risk figures

def _risk_rows(r: ScenarioResult, cfg: Any) -> list[tuple[str, float]]:
    p, risk = r.profile, r.risk
    thr = cfg.thresholds
    k = thr.k
    rows: list[tuple[str, float]] = [
        ("records", p.n_records), ("equivalence classes", p.n_classes), ("sample uniques", p.n_unique),
        ("sample uniques (%)", p.pct_unique), (f"records with fk < {k}", p.n_k_lt_threshold),
        (f"records with fk < {k} (%)", p.pct_k_lt_threshold), (f"records with fk <= {k}", p.n_k_le_threshold),
        (f"records with fk <= {k} (%)", p.pct_k_le_threshold), ("smallest fk", p.min_k), ("median fk", p.median_k),
        ("expected re-identifications", risk.expected_reidentifications), ("global risk", risk.global_risk),
        ("global risk (%)", risk.global_risk_pct), ("highest individual risk", risk.max_risk),
        (f"records with risk > {thr.risk:g}", int(risk.records_above(thr.risk).sum())),
    ]
    if r.household is not None:
        rows += [("household expected re-identifications", r.household.expected_reidentifications),
                 ("household global risk (%)", r.household.global_risk_pct)]
    if r.ldiversity is not None:
        for row in r.ldiversity.by_sensitive.itertuples(index=False):
            # each sensitive variable's own l and t ([sensitive_thresholds]), as the measures used
            rows.append((f"records in classes with distinct l < {cfg.l_for(row.sensitive)} ({row.sensitive})",
                         row.n_records_below_l))
    for s, tc in r.tcloseness.items():
        rows.append((f"records in classes with t > {cfg.t_for(s):g} ({s})", tc.n_records_above_t))
        rows.append((f"largest t ({s})", tc.max_t))
    if r.suda is not None:
        rows.append(("records with a SUDA2 minimal sample unique", r.suda.n_records_with_msu))
    if r.attacker is not None:
        a = r.attacker
        rows += [("prosecutor: highest risk", a.prosecutor_highest_risk),
                 ("prosecutor: average risk", a.prosecutor_average_risk),
                 (f"prosecutor: share of records with risk > {a.threshold:g}", a.prosecutor_records_at_risk),
                 ("journalist: average risk", a.journalist_average_risk), ("marketer risk", a.marketer_risk)]
    if r.uniqueness is not None:
        rows.append(("estimated population uniques / N", r.uniqueness.fraction_chosen))
    for name, res in (getattr(r, "extra", None) or {}).items():  # measures registered later (e.g. modrisk)
        summ = res.summary() if hasattr(res, "summary") else None
        if isinstance(summ, pd.DataFrame) and {"statistic", "value"} <= set(summ.columns):
            pairs = zip(summ["statistic"], summ["value"])
        elif isinstance(summ, dict):
            pairs = summ.items()
        else:
            continue
        rows += [(f"{name}: {k}", v) for k, v in pairs
                 if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)]
    return [(m, float(v)) for m, v in rows]


def risk_figures(a: Assessment) -> pd.DataFrame:
    """Every scenario's risk figures as rows: ``scenario``, ``measure``, ``value``."""
    rows = [(r.scenario.name, m, v) for r in a.scenarios for m, v in _risk_rows(r, a.config)]
    return pd.DataFrame(rows, columns=["scenario", "measure", "value"])


def _side_by_side(before: pd.DataFrame, after: pd.DataFrame, on: list[str], value: str) -> pd.DataFrame:
    b = before.rename(columns={value: "before"})
    a = after.rename(columns={value: "after"})
    out = b.merge(a, on=on, how="outer", sort=False)
    return out


# ---------------------------------------------------------------------------------------------
# Utility

def with_withheld(original: pd.DataFrame, released: pd.DataFrame) -> pd.DataFrame:
    """`released` (matched to `original` by index, a subset of it) with a record of every
    value missing for each original record the protection dropped: a dropped record is a
    record withheld, every cell suppressed, for the utility figures (else dropping most of a
    file would cost nothing: IL1 0 and 100 % of the records retained)."""
    if len(released) == len(original):
        return released
    return released.reindex(original.index)


def utility_measures(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str],
                     keys: Sequence[str], related: Sequence[str] = (), *,
                     original_all: pd.DataFrame | None = None) -> dict[str, Any]:
    """The utility measures of :mod:`sdc.utility` on matched records (same index).

    Returns a dict: ``summary`` (:func:`sdc.utility_summary` over `variables`, with `keys`; a
    suppressed cell counts as a loss of 1 in IL1, as in ``sdc sweep``; with `original_all`,
    the whole original, whose records missing from `original` the protection dropped, over
    every record, a dropped one as withheld: :func:`with_withheld`),
    ``table`` (its figures as rows: ``measure``, ``variable`` (``"overall"`` for file-level
    figures), ``value``), ``marginals`` (:func:`sdc.marginal_change` of `variables`, one row
    per variable), ``associations`` (:func:`sdc.association_change` over `variables` and
    `related`, every pair with a change), and ``notes``.
    """
    from sdc.utility import association_change, marginal_change, utility_summary

    out: dict[str, Any] = {"summary": None, "table": pd.DataFrame(columns=["measure", "variable", "value"]),
                           "marginals": pd.DataFrame(), "associations": pd.DataFrame(), "notes": []}
    if not variables:
        out["notes"].append("utility measures: no variable changed.")
        return out
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SdcWarning)
        base = original if original_all is None else original_all
        res = utility_summary(base, with_withheld(base, released), variables=list(variables),
                              keys=list(keys) or None, suppressed="max")
        out["summary"] = res
        out["marginals"] = marginal_change(original, released, list(variables)).to_frame()
        rel = list(dict.fromkeys([*variables, *related]))
        if len(rel) >= 2:
            assoc = association_change(original, released, rel).to_frame()
            assoc = assoc[assoc["change"].abs() > 0].copy()
            order = assoc["change"].abs().sort_values(ascending=False, kind="stable").index
            out["associations"] = assoc.loc[order].reset_index(drop=True)
    out["notes"] += [" ".join(str(w.message).split()) for w in caught]
    t = res.to_frame().rename(columns={"statistic": "measure"})
    t["variable"] = t["variable"].fillna("overall")
    out["table"] = t[["measure", "variable", "value"]].reset_index(drop=True)
    return out


# ---------------------------------------------------------------------------------------------
# Changes and frequencies

def _changes(original: pd.DataFrame, released: pd.DataFrame, skip: Sequence[str]) -> pd.DataFrame:
    common = [c for c in original.columns if c in released.columns and c not in skip]
    changed = changed_cells(original, released, common)
    n = len(original)
    newly_missing = [int((released[c].isna().to_numpy() & ~original[c].isna().to_numpy()).sum()) for c in common]
    out = pd.DataFrame({"variable": common, "cells_changed": changed.reindex(common).to_numpy(dtype=np.int64),
                        "cells_suppressed": np.asarray(newly_missing, dtype=np.int64)})
    out["share_changed"] = out["cells_changed"] / n if n else np.nan
    dropped = [c for c in original.columns if c not in released.columns]
    added = [c for c in released.columns if c not in original.columns]
    extra = [(c, n, 0, 1.0) for c in dropped]
    if extra:
        out = pd.concat([out, pd.DataFrame(extra, columns=out.columns)], ignore_index=True)
    if added:
        out = pd.concat([out, pd.DataFrame([(c, 0, 0, 0.0) for c in added], columns=out.columns)], ignore_index=True)
    status = ["dropped" if c in dropped else "added" if c in added else "kept" for c in out["variable"]]
    out.insert(1, "status", status)
    return out


def _level_counts(s: pd.Series) -> pd.Series:
    vc = s.astype(object).where(s.notna(), "(missing)").astype(str).value_counts(sort=False)
    return vc


def _key_frequencies(before: Assessment, after: Assessment, keys: Sequence[str]) -> pd.DataFrame:
    frames = []
    for k in keys:
        b = _level_counts(before.assessed[k]) if k in before.assessed else pd.Series(dtype=np.int64)
        a = _level_counts(after.assessed[k]) if k in after.assessed else pd.Series(dtype=np.int64)
        levels = list(dict.fromkeys([*_sorted_levels(before.assessed[k]), *_sorted_levels(after.assessed[k])])) \
            if k in after.assessed else _sorted_levels(before.assessed[k])
        f = pd.DataFrame({"variable": k, "level": levels,
                          "before": b.reindex(levels).fillna(0).to_numpy(dtype=np.int64),
                          "after": a.reindex(levels).fillna(0).to_numpy(dtype=np.int64)})
        f["change"] = f["after"] - f["before"]
        frames.append(f)
    if not frames:
        return pd.DataFrame(columns=["variable", "level", "before", "after", "change"])
    return pd.concat(frames, ignore_index=True)


def _sorted_levels(s: pd.Series) -> list[str]:
    """Levels in their natural order (numbers numerically, categories in category order), missing last."""
    present = s.dropna()
    if isinstance(s.dtype, pd.CategoricalDtype):
        used = set(present.astype(str))
        levels = [str(c) for c in s.cat.categories if str(c) in used]
    else:
        vals = pd.unique(present)
        try:
            levels = [str(v) for v in sorted(vals)]
        except TypeError:
            levels = sorted(str(v) for v in vals)
    if s.isna().any():
        levels.append("(missing)")
    return levels


def _size_counts(res: ScenarioResult | None, cap: int) -> np.ndarray:
    """Records by class size fk = 1, ..., cap - 1 and >= cap (index 0 unused)."""
    if res is None:
        return np.zeros(cap + 1)
    cs = res.profile.class_sizes
    fk = np.minimum(np.floor(cs["fk"].to_numpy(dtype=float)), cap).astype(np.int64)
    return np.bincount(fk, weights=cs["n_records"].to_numpy(dtype=float), minlength=cap + 1)


def _class_sizes(before: Assessment, after: Assessment, cap: int = 10) -> pd.DataFrame:
    """Per scenario, records by class size before and after."""
    after_by_name = {r.scenario.name: r for r in after.scenarios}
    frames = []
    for rb in before.scenarios:
        b = _size_counts(rb, cap)
        a = _size_counts(after_by_name.get(rb.scenario.name), cap)
        frames.append(pd.DataFrame({
            "scenario": rb.scenario.name,
            "fk (class size)": [str(i) for i in range(1, cap)] + [f">= {cap}"],
            "before": b[1:].astype(np.int64), "after": a[1:].astype(np.int64)}))
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------------------------------------

#: The simulated linkage attack of the comparison: the attacker knows this share of the
#: original's records (their key values) and links them to each file with the same seed.
ATTACK_SHARE = 0.2
ATTACK_SEED = 0

#: Methods whose change of a value an attacker can repeat on his own file (deterministic
#: recodings), so he links with the released coding; after the others he knows only the
#: original value.
_REPEATABLE = ("global_recode", "top_bottom_code")


def linkage_before_after(original: pd.DataFrame, released: pd.DataFrame, config: RunConfig,
                         repeatable: Sequence[str] = ()) -> pd.DataFrame:
    """The simulated linkage attack of every scenario on the original and on the released file.

    An attacker holds the key values of a share (:data:`ATTACK_SHARE`) of the original's
    records, drawn with one seed, and links them exactly to each file (missing values as
    wildcards); the truth is the record itself (both frames are matched record by record).
    For the variables in `repeatable` (deterministic recodings) his values are the released
    coding of his records; a cell suppressed in the release is then unknown to him too, which
    can only understate the attack. One row per scenario and figure: before, after, change.
    """
    from sdc.attacks.linkage import simulate_linkage_attack

    attacker = original.copy()
    for v in repeatable:
        if v in released.columns and v in attacker.columns:
            attacker[v] = released[v]
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


def _sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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

    Returns
    -------
    Comparison
    """
    from sdc._validation import check_frame, check_int

    check_frame(original, "original")
    check_frame(released, "released")
    config = as_config(config)
    n_attacks = check_int(n_attacks, "n_attacks", min_value=1)
    orig_m, rel_m, how = match_records(original, released, match=match, id=config.id)
    recoded = set(recoded)
    if protection:
        for st in protection.get("steps", []):
            if st.get("method") in ("global_recode", "microaggregation"):
                recoded.update(st.get("variables") or [])
    # The original first: a key, weight or sensitive column that is in neither file is then
    # reported as not in the data, not as a key "the protection dropped".
    before = assess(config, original, command=command, progress=progress, now=now)
    cfg_after, notes = released_config(config, released, sorted(recoded))
    after = assess(cfg_after, released, command=command, progress=progress, now=now)
    if files:
        sha = {str(p): _sha256(p) for p in files}
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
    rb, ra = risk_figures(before), risk_figures(after)
    risk = _side_by_side(rb, ra, ["scenario", "measure"], "value")
    risk["change"] = risk["after"] - risk["before"]
    vb = pd.DataFrame([v.__dict__ for v in before.verdicts])
    va = pd.DataFrame([v.__dict__ for v in after.verdicts])
    verdicts = _side_by_side(vb[["scenario", "measure", "statistic", "value", "verdict", "threshold"]]
                             .rename(columns={"verdict": "verdict before"}),
                             va[["scenario", "measure", "value", "verdict"]]
                             .rename(columns={"verdict": "verdict after"}),
                             ["scenario", "measure"], "value")
    verdicts = verdicts[["scenario", "measure", "statistic", "threshold", "before", "verdict before", "after",
                         "verdict after"]]
    skip = [c for c in (config.id,) if c]
    changes = _changes(orig_m, rel_m, skip)
    kept = changes[changes["status"] == "kept"]
    # The variables whose values changed, whether or not a step named them: the same two files
    # give the same utility figures with the protection log (sdc protect) and without it
    # (sdc compare); a step that changed nothing in a variable (no cell suppressed in it) would
    # otherwise dilute the averages with its zeros.
    treated = set(kept.loc[kept["cells_changed"] > 0, "variable"])
    # Pseudonyms replace identifiers one for one: no analytic information is lost with them.
    pseudonymised = {v for st in (protection or {}).get("steps", []) if st.get("method") == "pseudonymise"
                     for v in (st.get("variables") or [])}
    treated -= set(skip) | pseudonymised
    variables = [c for c in orig_m.columns if c in treated]
    keys = [k for k in config.keys if k in rel_m.columns]
    if not variables and len(orig_m) < len(original):
        # Records dropped, no value changed: the loss is the withheld records, over the keys.
        variables = [k for k in keys if k in orig_m.columns]
    related = [c for c in (*config.keys, *config.sensitive) if c in rel_m.columns and c in orig_m.columns]
    util = utility_measures(orig_m, rel_m, variables, keys, related, original_all=original)
    notes += util["notes"]
    repeatable = {v for st in (protection or {}).get("steps", []) if st.get("method") in _REPEATABLE
                  for v in (st.get("variables") or [])} | (set(recoded) - {v for st in (protection or {}).get("steps", [])
                                                                            for v in (st.get("variables") or [])})
    with warnings.catch_warnings():
        # The attacker's file is coded here as the release is (recodings repeated); a column
        # still without a common value was replaced whole (a constant), which is protection.
        # (attacks_before_after says the same to its own warnings.)
        warnings.simplefilter("ignore", CodingWarning)
        attacks = linkage_before_after(orig_m, rel_m, config, sorted(repeatable))
    more = attacks_before_after(orig_m, rel_m, config, before=before, after=after, repeatable=sorted(repeatable),
                                n_attacks=n_attacks, seed=ATTACK_SEED)
    notes += more.notes
    keyvars = list(dict.fromkeys(k for s in config.all_scenarios for k in s.keys))
    key_freq = _key_frequencies(before, after, keyvars)
    prov = {
        "generated_utc": before.provenance["generated_utc"],
        "original": str(files[0]) if files else "(a DataFrame)",
        "released": str(files[1]) if len(files) > 1 else "(a DataFrame)",
        "sha256": {str(p): _sha256(p) for p in files},
        "command": command,
        "config_source": config.source,
        "versions": before.provenance.get("versions", {}),
        "platform": before.provenance.get("platform", ""),
    }
    return Comparison(
        config=config, before=before, after=after, original=orig_m, released=rel_m, matched_by=how,
        n_original=len(original), n_released=len(released), risk=risk, verdicts=verdicts, changes=changes,
        key_frequencies=key_freq, class_sizes=_class_sizes(before, after), utility=util["summary"],
        utility_table=util["table"], marginals=util["marginals"], associations=util["associations"],
        protection=dict(protection) if protection else None, attacks=attacks, attack_figures=more,
        notes=tuple(dict.fromkeys(notes)),
        provenance=prov)
