"""Risk snapshots over subsets of the key variables.

Which combination of key variables drives the risk? For every non-empty subset of the
keys (or a given list of subsets, or the subsets of at most `max_size` keys), the
k-anonymity profile and the global risk, as one table. Each key column is factorised once;
a subset only recombines the codes, and the subsets are generated one at a time (never all
2^K - 1 of them up front).

K keys have 2^K - 1 subsets: 30 keys have more than a billion. The number evaluated is
capped (`max_subsets`, default 100,000): beyond it the call names the count and asks for
`max_size` or explicit `subsets`. :func:`standard_subsets` gives a sensible default for
many keys (every subset when there are few; else the small subsets, each key left out,
and all keys), which ``sdc assess`` uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_int, check_option, check_weights
from sdc.core.engine import dispatch
from sdc.core.frequencies import PatternFrequencies, pattern_frequencies
from sdc.core.missing import MissingKind, MissingRule, missing_rule
from sdc.risk.kanonymity import class_counts
from sdc.risk.individual import RISK_METHODS, pattern_risk
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare
from sdc.core.scenario import resolve_keys

__all__ = ["SnapshotResult", "key_subset_snapshots", "standard_subsets", "SNAPSHOT_COLUMNS", "MAX_SUBSETS"]

#: The most subsets :func:`key_subset_snapshots` evaluates unless told otherwise.
MAX_SUBSETS = 100_000

SNAPSHOT_COLUMNS = (
    "keys", "n_keys", "n_classes", "n_unique", "pct_unique", "min_k", "median_k",
    "n_k_lt_threshold", "pct_k_lt_threshold", "n_k_le_threshold", "pct_k_le_threshold",
    "expected_reidentifications", "global_risk",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotResult:
    """Result of :func:`key_subset_snapshots`.

    Attributes
    ----------
    keys : tuple of str
        All key variables considered.
    threshold : int
        The k of the ``*_k_lt_threshold`` / ``*_k_le_threshold`` columns.
    weights, missing, alpha, method
        As passed.
    table : pandas.DataFrame
        One row per subset with the columns in ``SNAPSHOT_COLUMNS``; ``keys`` holds a tuple.
    """

    keys: tuple[str, ...]
    threshold: int
    weights: str | None
    missing: str
    alpha: float
    method: str
    n_records: int
    table: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """The snapshot table (a copy), with ``keys`` as "a + b" strings for display."""
        out = self.table.copy()
        out["keys"] = [" + ".join(k) for k in out["keys"]]
        return out

    def summary(self) -> pd.DataFrame:
        """The subsets evaluated, and the riskiest one (most expected re-identifications)."""
        t = self.table
        top = t.loc[t["expected_reidentifications"].idxmax()] if len(t) else None
        rows = [
            ("n_subsets", len(t), "key subsets evaluated"),
            ("riskiest_subset", " + ".join(top["keys"]) if top is not None else "",
             "the subset with the most expected re-identifications"),
            ("riskiest_expected_reidentifications", float(top["expected_reidentifications"]) if top is not None
             else float("nan"), "its expected re-identifications"),
            ("riskiest_n_unique", int(top["n_unique"]) if top is not None else 0, "its sample uniques"),
        ]
        return summary_frame(rows)


@dispatch(dask="sdc.risk.snapshots:_key_subset_snapshots_tables",
          chunks="sdc.risk.snapshots:_key_subset_snapshots_tables")
def key_subset_snapshots(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    subsets: Iterable[Sequence[str]] | None = None,
    max_size: int | None = None,
    max_subsets: int = MAX_SUBSETS,
    threshold: int = 3,
    weights: str | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
    method: str = "approx",
    progress: bool = False,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> SnapshotResult:
    """The k-anonymity profile and global risk for every subset of the key variables.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables.
    subsets : iterable of sequences of str, optional
        The subsets to evaluate (each a non-empty list of names from `keys`). Default: every
        non-empty subset (of at most `max_size` keys), by size and then in key order.
    max_size : int >= 1, optional
        With the default subsets, only those of at most this many keys.
    max_subsets : int >= 1, default 100,000
        The most subsets evaluated; more is an error that names the count (2^K - 1 for K keys
        grows past any memory: 30 keys give 1,073,741,823).
    threshold : int >= 1, default 3
        k for the columns counting records with f_k < k and f_k <= k.
    weights, missing, alpha, method
        As in :func:`sdc.individual_risk`.
    progress : bool, default False
        Show a progress bar (tqdm) over the subsets.
    key_bins : mapping, optional
        Bins for continuous keys (:mod:`sdc.core.binning`).

    Returns
    -------
    SnapshotResult
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    threshold = check_int(threshold, "threshold", min_value=1)
    max_subsets = check_int(max_subsets, "max_subsets", min_value=1)
    rule = missing_rule(missing, alpha)
    method = check_option(method, "method", RISK_METHODS)
    w = check_weights(data, weights)
    chosen, total = _chosen_subsets(data, keys, subsets, max_size, max_subsets)
    enc = kc.encoded
    iterator: Iterable[tuple[int, ...]] = chosen
    if progress:
        from sdc.core.progress import progress_bar

        iterator = progress_bar(chosen, desc="risk snapshots (key subsets)", unit="subset", total=total)
    rows = [_snapshot_row(pattern_frequencies(sub, w, rule), sub.keys, threshold, weighted=w is not None,
                          method=method) for sub in map(enc.subset, iterator)]
    table = pd.DataFrame(rows, columns=list(SNAPSHOT_COLUMNS))
    return SnapshotResult(
        keys=keys, threshold=threshold, weights=weights, missing=rule.kind, alpha=rule.alpha, method=method,
        n_records=len(data), table=table,
    )


def _fitting_size(n_keys: int, cap: int) -> int:
    """The largest subset size whose subsets (all sizes up to it) fit under `cap`."""
    total, size = 0, 0
    while size < n_keys and total + math.comb(n_keys, size + 1) <= cap:
        size += 1
        total += math.comb(n_keys, size)
    return max(size, 1)


def standard_subsets(keys: Sequence[str], max_subsets: int = 1023) -> tuple[list[tuple[str, ...]], str]:
    """The subsets an assessment looks at, and a sentence saying which.

    Every non-empty subset while there are at most `max_subsets` of them (10 keys: 1,023);
    beyond, the subsets of 1, 2, ... keys that fit, then each key left out of all the keys,
    then all the keys: the small combinations show which keys single records out, the
    leave-one-out ones how much each key adds.

    >>> subs, why = standard_subsets(["a", "b", "c"])
    >>> len(subs), why
    (7, 'every non-empty subset of the 3 keys')
    """
    keys = tuple(keys)
    n = len(keys)
    if 2 ** n - 1 <= max_subsets:
        return ([tuple(keys[i] for i in c) for s in range(1, n + 1) for c in combinations(range(n), s)],
                f"every non-empty subset of the {n} keys")
    size = _fitting_size(n, max(max_subsets - n - 1, n))
    out = [tuple(keys[i] for i in c) for s in range(1, size + 1) for c in combinations(range(n), s)]
    seen = set(out)
    for i in range(n):  # each key left out
        sub = keys[:i] + keys[i + 1:]
        if sub not in seen:
            out.append(sub)
            seen.add(sub)
    if keys not in seen:
        out.append(keys)
    sizes = "1 key" if size == 1 else f"1 to {size} keys"
    return out, (f"{len(out):,} of the {2 ** n - 1:,} subsets of the {n} keys: those of {sizes}, each key left out, "
                 f"and all keys (every subset would be too many)")


def _chosen_subsets(data: Any, keys: tuple[str, ...], subsets: Iterable[Sequence[str]] | None,
                    max_size: int | None, max_subsets: int) -> tuple[Iterable[tuple[int, ...]], int]:
    """The key subsets to evaluate (as positions in `keys`) and their number: every subset of
    at most `max_size` keys, or the `subsets` named (columns of `data`, pandas or Dask, that
    are keys); more than `max_subsets` is refused."""
    if subsets is None:
        size = len(keys) if max_size is None else check_int(max_size, "max_size", min_value=1)
        size = min(size, len(keys))
        total = sum(math.comb(len(keys), s) for s in range(1, size + 1))
        if total > max_subsets:
            raise ValueError(
                f"snapshots over every subset of {len(keys)} keys" + (f" (of at most {size})" if size < len(keys) else "")
                + f" would be {total:,} subsets, more than the limit of {max_subsets:,} (`max_subsets`); give `max_size` "
                f"(e.g. {_fitting_size(len(keys), max_subsets)}) or the `subsets` to evaluate.")
        return (c for s in range(1, size + 1) for c in combinations(range(len(keys)), s)), total
    out = []
    for sub in subsets:
        cols = check_columns(data, sub, role="subsets")
        outside = [c for c in cols if c not in keys]
        if outside:
            raise ValueError(f"`subsets` names columns that are not in `keys`: {', '.join(map(repr, outside))}.")
        out.append(tuple(keys.index(c) for c in cols))
    if not out:
        raise ValueError("`subsets` must contain at least one subset; got none.")
    if len(out) > max_subsets:
        raise ValueError(f"`subsets` lists {len(out):,} subsets, more than `max_subsets` ({max_subsets:,}).")
    return out, len(out)


def _snapshot_row(pf: PatternFrequencies, keys: tuple[str, ...], k: int, *, weighted: bool, method: str) -> tuple:
    """One row of the snapshot table from the subset's pattern frequencies."""
    c = class_counts(pf, k)
    occ = pf.occupied
    r = pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=weighted, method=method)
    er = float(np.dot(r, pf.counts[occ]))
    n = c["n_records"]
    return (
        keys, len(keys), c["n_classes"], c["n_unique"], 100.0 * c["n_unique"] / n, c["min_k"],
        c["median_k"], c["n_k_lt_threshold"], 100.0 * c["n_k_lt_threshold"] / n,
        c["n_k_le_threshold"], 100.0 * c["n_k_le_threshold"] / n, er, er / n,
    )


def _key_subset_snapshots_tables(data: Any, keys: Any, *, subsets: Iterable[Sequence[str]] | None = None,
                                 max_size: int | None = None, max_subsets: int = MAX_SUBSETS, threshold: int = 3,
                                 weights: str | None = None, missing: Any = "wildcard", alpha: float = 1.0,
                                 method: str = "approx", progress: bool = False, key_bins: Any = None
                                 ) -> SnapshotResult:
    """:func:`sdc.key_subset_snapshots` of a Dask DataFrame or a chunked file: one pattern
    table of all the keys; each subset re-aggregates that table (no further pass over the data)."""
    from sdc.core.frequencies import row_frequencies, table_arguments
    from sdc.core.keys import encode_keys

    tables, keys, weights, rule = table_arguments(data, keys, weights, missing, alpha, key_bins)
    threshold = check_int(threshold, "threshold", min_value=1)
    max_subsets = check_int(max_subsets, "max_subsets", min_value=1)
    method = check_option(method, "method", RISK_METHODS)
    chosen, _ = _chosen_subsets(tables.meta, keys, subsets, max_size, max_subsets)
    table = tables.pattern_table(keys, weights)
    enc = encode_keys(table, keys)
    n_rows = table["_n"].to_numpy(np.float64)
    w_rows = table["_w"].to_numpy(np.float64)
    rows = [_snapshot_row(row_frequencies(sub, n_rows, w_rows, rule), sub.keys, threshold,
                          weighted=weights is not None, method=method) for sub in map(enc.subset, chosen)]
    return SnapshotResult(keys=keys, threshold=threshold, weights=weights, missing=rule.kind, alpha=rule.alpha,
                          method=method, n_records=int(n_rows.sum()),
                          table=pd.DataFrame(rows, columns=list(SNAPSHOT_COLUMNS)))
