"""Re-identification measures on a Dask DataFrame, from the pattern table of
:mod:`sdc.core._dask` and the in-memory code of this wing.

The data are read once, to the table of distinct key patterns with their counts and weight
sums; f_k, F_k, the risks, the global figures, the threshold, the k-anonymity profile and
the key-subset snapshots are then the in-memory functions applied per pattern, so they are
the in-memory numbers. Per-record fields of the results (``risk``, ``sample_frequency``,
``population_frequency``, ``violates``) are Dask Series aligned to the input partitions;
the per-class tables are pandas.

Not distributed (one error line each): SUDA2 and modRisk (they need every pattern's
neighbours or a model fitted over all cells; compute them on the collected key table), and
household risk (needs the households' records together).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_fraction, check_int, check_number, check_option
from sdc.core import _dask
from sdc.core.frequencies import MISSING_RULES, frequencies_from_counts, table_frequencies, warn_if_degenerate
from sdc.core.keys import encode_keys
from sdc.risk.individual import RISK_METHODS, IndividualRiskResult, pattern_risk, risk_from_frequencies
from sdc.risk.kanonymity import KAnonymityResult, class_counts, profile_from_frequencies
from sdc.risk.snapshots import SNAPSHOT_COLUMNS, SnapshotResult

__all__ = ["individual_risk", "k_anonymity", "key_subset_snapshots", "DaskIndividualRiskResult",
           "DaskKAnonymityResult"]


class DaskIndividualRiskResult(IndividualRiskResult):
    """:class:`IndividualRiskResult` of a Dask DataFrame: ``risk``, ``sample_frequency``,
    ``population_frequency``, ``records_above`` and ``to_frame()`` are Dask (lazy)."""

    __slots__ = ()

    def to_frame(self) -> Any:
        return _dask.concat_columns([self.risk, self.sample_frequency, self.population_frequency])


class DaskKAnonymityResult(KAnonymityResult):
    """:class:`KAnonymityResult` of a Dask DataFrame: ``sample_frequency``, ``violates`` and
    ``to_frame()`` are Dask (lazy); ``n_below`` is computed from the patterns."""

    __slots__ = ("_pattern_counts",)

    def n_below(self, k: int) -> int:
        f, n_at = self._pattern_counts
        return int(n_at[f < check_int(k, "k", min_value=1)].sum())

    def to_frame(self) -> Any:
        return _dask.concat_columns([self.sample_frequency, self.violates])


def _as(cls: type, res: Any, **changes: Any) -> Any:
    return cls(**{f.name: changes.get(f.name, getattr(res, f.name)) for f in dataclasses.fields(res)})


def _common(ddf: Any, keys: Any, weights: Any, missing: str, alpha: float, key_bins: Any
            ) -> tuple[tuple[str, ...], str | None, str, float]:
    if key_bins:
        raise _dask.not_distributed("key_bins", "bin the keys first, e.g. with ddf.map_partitions")
    if weights is not None and not isinstance(weights, str):
        raise TypeError("`weights` on a Dask DataFrame must be a column name.")
    keys = _dask._keys_tuple(keys)
    missing = check_option(missing, "missing", MISSING_RULES)
    alpha = check_fraction(alpha, "alpha")
    return keys, weights, missing, alpha


def individual_risk(ddf: Any, keys: Any, *, weights: str | None = None, method: str = "approx",
                    missing: str = "wildcard", alpha: float = 1.0, max_global_risk: float = 0.01,
                    key_bins: Any = None) -> IndividualRiskResult:
    """:func:`sdc.individual_risk` on a Dask DataFrame; ``risk``, ``sample_frequency`` and
    ``population_frequency`` are Dask Series."""
    keys, weights, missing, alpha = _common(ddf, keys, weights, missing, alpha, key_bins)
    method = check_option(method, "method", RISK_METHODS)
    g = check_number(max_global_risk, "max_global_risk", low=0, high=1, low_open=True, high_open=True)
    table = _dask.pattern_table(ddf, keys, weights)
    enc, pf = table_frequencies(table, keys, missing=missing, alpha=alpha)
    warn_if_degenerate(pf, stacklevel=4)
    res = risk_from_frequencies(pf, index=table.index, keys=keys, weights=weights, method=method, missing=missing,
                                alpha=alpha, max_global_risk=g, stacklevel=4)
    # The table's rows are patterns: n is the records' count, the per-record views go to the data.
    n = int(pf.counts.sum())
    r_ids = np.zeros(pf.fk.shape[0])
    r_ids[pf.occupied] = res._pattern_risk[0]
    per = _dask.DaskPerRecord(ddf, keys, table, enc.pattern, n, risk=r_ids, fk=pf.fk, Fk=pf.Fk)
    return _as(DaskIndividualRiskResult, res, global_risk=res.expected_reidentifications / n, _records=per)


def k_anonymity(ddf: Any, keys: Any, *, k: int = 3, weights: str | None = None, missing: str = "wildcard",
                alpha: float = 1.0, method: str = "approx", top: int = 10, key_bins: Any = None) -> KAnonymityResult:
    """:func:`sdc.k_anonymity` on a Dask DataFrame; ``sample_frequency`` is a Dask Series."""
    keys, weights, missing, alpha = _common(ddf, keys, weights, missing, alpha, key_bins)
    k = check_int(k, "k", min_value=1)
    top = check_int(top, "top", min_value=0)
    method = check_option(method, "method", RISK_METHODS)
    table = _dask.pattern_table(ddf, keys, weights)
    enc, pf = table_frequencies(table, keys, missing=missing, alpha=alpha)
    warn_if_degenerate(pf, stacklevel=4)
    # The table is sorted by first appearance, so the riskiest classes' ties break as in memory.
    res = profile_from_frequencies(table[list(keys)], enc, pf, k=k, weights=weights, missing=missing, alpha=alpha,
                                   method=method, top=top)
    per = _dask.DaskPerRecord(ddf, keys, table, enc.pattern, int(pf.counts.sum()), fk=pf.fk)
    out = _as(DaskKAnonymityResult, res, _records=per)
    object.__setattr__(out, "_pattern_counts", (pf.fk[pf.occupied], pf.counts[pf.occupied]))
    return out


def key_subset_snapshots(ddf: Any, keys: Any, *, subsets: Iterable[Sequence[str]] | None = None,
                         max_size: int | None = None, max_subsets: int = 100_000, threshold: int = 3,
                         weights: str | None = None, missing: str = "wildcard", alpha: float = 1.0,
                         method: str = "approx", progress: bool = False, key_bins: Any = None) -> SnapshotResult:
    """:func:`sdc.key_subset_snapshots` on a Dask DataFrame: one pass for the full pattern
    table; each subset re-aggregates that table (no further pass over the data)."""
    keys, weights, missing, alpha = _common(ddf, keys, weights, missing, alpha, key_bins)
    threshold = check_int(threshold, "threshold", min_value=1)
    max_subsets = check_int(max_subsets, "max_subsets", min_value=1)
    method = check_option(method, "method", RISK_METHODS)
    if subsets is None:
        size = len(keys) if max_size is None else check_int(max_size, "max_size", min_value=1)
        size = min(size, len(keys))
        total = sum(math.comb(len(keys), s) for s in range(1, size + 1))
        if total > max_subsets:
            raise ValueError(f"snapshots over the subsets of {len(keys)} keys would be {total:,} subsets, more than "
                             f"`max_subsets` ({max_subsets:,}); give `max_size` or the `subsets` to evaluate.")
        chosen = [c for s in range(1, size + 1) for c in combinations(range(len(keys)), s)]
    else:
        chosen = []
        for sub in subsets:
            names = [sub] if isinstance(sub, str) else list(sub)
            outside = [c for c in names if c not in keys]
            if outside:
                raise ValueError(f"`subsets` names columns that are not in `keys`: {', '.join(map(repr, outside))}.")
            chosen.append(tuple(keys.index(c) for c in names))
        if not chosen:
            raise ValueError("`subsets` must contain at least one subset; got none.")
        if len(chosen) > max_subsets:
            raise ValueError(f"`subsets` lists {len(chosen):,} subsets, more than `max_subsets` ({max_subsets:,}).")
    table = _dask.pattern_table(ddf, keys, weights)
    enc = encode_keys(table, keys)
    n_rows = table["_n"].to_numpy(np.float64)
    w_rows = table["_w"].to_numpy(np.float64)
    rows = []
    for pos in chosen:
        sub = enc.subset(pos)
        counts = np.rint(np.bincount(sub.pattern, weights=n_rows, minlength=sub.n_ids)).astype(np.int64)
        wsum = np.bincount(sub.pattern, weights=w_rows, minlength=sub.n_ids)
        pf = frequencies_from_counts(sub, counts, wsum, missing=missing, alpha=alpha)
        c = class_counts(pf, threshold)
        occ = pf.occupied
        r = pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=weights is not None, method=method)
        er = float(np.dot(r, pf.counts[occ]))
        n = c["n_records"]
        rows.append((sub.keys, len(sub.keys), c["n_classes"], c["n_unique"], 100.0 * c["n_unique"] / n, c["min_k"],
                     c["median_k"], c["n_k_lt_threshold"], 100.0 * c["n_k_lt_threshold"] / n,
                     c["n_k_le_threshold"], 100.0 * c["n_k_le_threshold"] / n, er, er / n))
    return SnapshotResult(keys=keys, threshold=threshold, weights=weights, missing=missing, alpha=alpha,
                          method=method, n_records=int(n_rows.sum()),
                          table=pd.DataFrame(rows, columns=list(SNAPSHOT_COLUMNS)))
