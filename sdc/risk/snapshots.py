"""Risk snapshots over subsets of the key variables.

Which combination of key variables drives the risk? For every non-empty subset of the
keys (or a given list of subsets), the k-anonymity profile and the global risk, as one
table. Each key column is factorised once; a subset only recombines the codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from sdc._validation import (
    check_columns, check_fraction, check_frame, check_int, check_keys, check_option, check_weights,
)
from sdc.core.frequencies import MISSING_RULES, MissingRule, pattern_frequencies
from sdc.risk.kanonymity import class_counts
from sdc.core.keys import EncodedKeys
from sdc.risk.individual import RISK_METHODS, pattern_risk
from sdc.core.scenario import resolve_keys

__all__ = ["SnapshotResult", "key_subset_snapshots", "SNAPSHOT_COLUMNS"]

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


def key_subset_snapshots(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    subsets: Iterable[Sequence[str]] | None = None,
    threshold: int = 3,
    weights: str | None = None,
    missing: MissingRule = "wildcard",
    alpha: float = 1.0,
    method: str = "approx",
    progress: bool = False,
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
        non-empty subset, by size and then in key order (2^K - 1 rows).
    threshold : int >= 1, default 3
        k for the columns counting records with f_k < k and f_k <= k.
    weights, missing, alpha, method
        As in :func:`sdc.individual_risk`.
    progress : bool, default False
        Show a progress bar (tqdm) over the subsets.

    Returns
    -------
    SnapshotResult
    """
    check_frame(data)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    threshold = check_int(threshold, "threshold", min_value=1)
    missing = check_option(missing, "missing", MISSING_RULES)
    method = check_option(method, "method", RISK_METHODS)
    alpha = check_fraction(alpha, "alpha")
    w = check_weights(data, weights)
    chosen = _subset_positions(data, keys, subsets)
    enc = kc.encoded
    iterator: Iterable[tuple[int, ...]] = chosen
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(chosen, desc="key subsets", unit="subset")
    rows = [_snapshot_row(enc.subset(pos), w, threshold, missing, alpha, method) for pos in iterator]
    table = pd.DataFrame(rows, columns=list(SNAPSHOT_COLUMNS))
    return SnapshotResult(
        keys=keys, threshold=threshold, weights=weights, missing=missing, alpha=alpha, method=method,
        n_records=len(data), table=table,
    )


def _subset_positions(
    data: pd.DataFrame, keys: tuple[str, ...], subsets: Iterable[Sequence[str]] | None
) -> list[tuple[int, ...]]:
    if subsets is None:
        return [c for size in range(1, len(keys) + 1) for c in combinations(range(len(keys)), size)]
    out = []
    for sub in subsets:
        cols = check_columns(data, sub, role="subsets")
        outside = [c for c in cols if c not in keys]
        if outside:
            raise ValueError(f"`subsets` names columns that are not in `keys`: {', '.join(map(repr, outside))}.")
        out.append(tuple(keys.index(c) for c in cols))
    if not out:
        raise ValueError("`subsets` must contain at least one subset; got none.")
    return out


def _snapshot_row(enc: EncodedKeys, w: np.ndarray | None, k: int, missing: str, alpha: float, method: str) -> tuple:
    pf = pattern_frequencies(enc, w, missing=missing, alpha=alpha)
    c = class_counts(pf, k)
    occ = pf.occupied
    r = pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=w is not None, method=method)
    er = float(np.dot(r, pf.counts[occ]))
    n = c["n_records"]
    return (
        enc.keys, len(enc.keys), c["n_classes"], c["n_unique"], 100.0 * c["n_unique"] / n, c["min_k"],
        c["median_k"], c["n_k_lt_threshold"], 100.0 * c["n_k_lt_threshold"] / n,
        c["n_k_le_threshold"], 100.0 * c["n_k_le_threshold"] / n, er, er / n,
    )
