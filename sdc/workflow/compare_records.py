"""The records of a comparison: how the original and the released file are paired
(:func:`match_records`), the configuration the released file is assessed with
(:func:`released_config`), and what the protection changed: cells per variable, the key
variables' levels and the class sizes before and after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import is_numeric_column
from sdc.protect._result import changed_cells
from sdc.workflow.assess import Assessment, ScenarioResult
from sdc.workflow.assess_input import not_a_band
from sdc.workflow.config import RunConfig, Scenario

__all__ = ["MATCH_MODES", "match_records", "released_config", "cell_changes", "key_frequencies", "class_sizes",
           "top_levels", "KEY_LEVELS_SHOWN"]

#: The levels of a key variable the comparison's pages show (those that changed most, then
#: the most frequent); every level is in ``key_frequencies.csv``.
KEY_LEVELS_SHOWN = 20

#: How the records of the two files are paired.
MATCH_MODES = ("auto", "id", "rows", "index")


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

_numeric = is_numeric_column  # the one numeric predicate (sdc._validation)


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
    # A continuous key the protection recoded to labels ("young", "old") is counted as the
    # categorical key it has become (assess refuses text that is not a band of numbers).
    labelled = [k for k in cont if k in cols and not_a_band(released[k]) is not None]
    for k in labelled:
        notes.append(f"released file: {k} holds labels, not numbers or bands of them; it is assessed as a "
                     "categorical key.")
    kw["categorical_keys"] = tuple(k for k in cat if k in cols) + tuple(labelled)
    kw["continuous_keys"] = tuple(k for k in cont if k in cols and k not in labelled)
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
# Changes and frequencies

def cell_changes(original: pd.DataFrame, released: pd.DataFrame, skip: Sequence[str]) -> pd.DataFrame:
    """Per variable of either file: its status (kept, dropped, added), the cells changed and
    suppressed as :data:`sdc.protect._result.CELLS_CHANGED` defines them (a dropped or added
    column: 0, its status says what happened), and their share of the records."""
    common = [c for c in original.columns if c in released.columns and c not in skip]
    changed = changed_cells(original, released, common)
    n = len(original)
    newly_missing = [int((released[c].isna().to_numpy() & ~original[c].isna().to_numpy()).sum()) for c in common]
    out = pd.DataFrame({"variable": common, "cells_changed": changed.reindex(common).to_numpy(dtype=np.int64),
                        "cells_suppressed": np.asarray(newly_missing, dtype=np.int64)})
    out["share_changed"] = out["cells_changed"] / n if n else np.nan
    dropped = [c for c in original.columns if c not in released.columns]
    added = [c for c in released.columns if c not in original.columns]
    extra = [(c, 0, 0, 0.0) for c in dropped]  # counted as a dropped column, not as changed cells
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


def key_frequencies(before: Assessment, after: Assessment, keys: Sequence[str],
                    coded: Mapping[str, pd.Series] | None = None) -> pd.DataFrame:
    """Per key variable, the records of each level before and after (``variable``, ``level``,
    ``before``, ``after``, ``change``). `coded`: for a key the protection recoded, the
    original's values coded as the release codes them (band to band), counted instead of the
    original as assessed."""
    frames = []
    for k in keys:
        orig = coded[k] if coded and k in coded else before.assessed[k]
        b = _level_counts(orig)
        a = _level_counts(after.assessed[k]) if k in after.assessed else pd.Series(dtype=np.int64)
        levels = list(dict.fromkeys([*_sorted_levels(orig), *_sorted_levels(after.assessed[k])])) \
            if k in after.assessed else _sorted_levels(orig)
        f = pd.DataFrame({"variable": k, "level": levels,
                          "before": b.reindex(levels).fillna(0).to_numpy(dtype=np.int64),
                          "after": a.reindex(levels).fillna(0).to_numpy(dtype=np.int64)})
        f["change"] = f["after"] - f["before"]
        frames.append(f)
    if not frames:
        return pd.DataFrame(columns=["variable", "level", "before", "after", "change"])
    return pd.concat(frames, ignore_index=True)


def top_levels(freq: pd.DataFrame, n: int = KEY_LEVELS_SHOWN) -> tuple[pd.DataFrame, dict[str, int]]:
    """The rows of :func:`key_frequencies` a page shows: per variable at most `n` levels, those
    whose count changed most, then the most frequent, in their natural order; and per variable
    the number of levels left out."""
    parts, left = [], {}
    for var in dict.fromkeys(freq["variable"]):
        part = freq[freq["variable"] == var]
        if len(part) > n:
            size = part["before"].abs() + part["after"].abs()
            order = pd.DataFrame({"c": part["change"].abs(), "s": size}).sort_values(["c", "s"], ascending=False,
                                                                                     kind="stable")
            part = part.loc[sorted(order.index[:n])]
            left[str(var)] = int(len(order) - n)
        parts.append(part)
    return (pd.concat(parts, ignore_index=True) if parts else freq.copy()), left


def released_coding(original: pd.DataFrame, orig_m: pd.DataFrame, rel_m: pd.DataFrame,
                    variables: Sequence[str]) -> dict[str, pd.Series]:
    """The original's values of `variables` (recoded by the protection) coded as the release
    codes them: each original value becomes the released value most often paired with it over
    the matched records (:func:`sdc.workflow.compare_attacks.attacker_view`), over every
    original record (a dropped one too)."""
    from sdc.workflow.compare_attacks import attacker_view

    out = {}
    view = attacker_view(orig_m, rel_m, [v for v in variables if v in orig_m.columns and v in rel_m.columns])
    for v in variables:
        if v not in view.columns or v not in rel_m.columns or v not in original.columns:
            continue
        pairs = pd.DataFrame({"o": orig_m[v].to_numpy(), "r": view[v].to_numpy()}).dropna(subset=["o"])
        mapping = pairs.drop_duplicates("o").set_index("o")["r"]
        out[v] = original[v].astype(object).map(mapping)
    return out


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


def class_sizes(before: Assessment, after: Assessment, cap: int = 10) -> pd.DataFrame:
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
