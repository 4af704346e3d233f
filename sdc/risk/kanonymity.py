"""k-anonymity profile: equivalence classes, sample uniques and records below a threshold k.

An equivalence class is the set of records sharing a key pattern. A record violates
k-anonymity when its sample frequency f_k is below k. With ``missing="wildcard"`` f_k
follows sdcMicro's rule, so a record's f_k can exceed the size of its own pattern class
(and be fractional when alpha < 1); classes are still the distinct patterns, with a
missing value counted as a value of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_int, check_option, check_weights
from sdc.core.engine import dispatch
from sdc.core.frequencies import PatternFrequencies, PerRecord, warn_if_degenerate
from sdc.core.missing import MissingKind, MissingRule, missing_rule
from sdc._stats import summary_frame, weighted_median
from sdc.core.keys import EncodedKeys, first_occurrence
from sdc.risk.individual import RISK_METHODS, _as, pattern_risk
from sdc.core.scenario import resolve_keys
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["KAnonymityResult", "k_anonymity"]


@dataclass(frozen=True, slots=True, kw_only=True)
class KAnonymityResult:
    """Result of :func:`k_anonymity`.

    Attributes
    ----------
    keys : tuple of str
        Key variables used.
    k : int
        The threshold: a record violates k-anonymity when f_k < k.
    weights : str or None
        Weight column used for F_k and the risk of the riskiest classes.
    missing : str
        Missing-value rule.
    alpha : float
        sdcMicro's alpha for wildcard matches.
    n_records, n_classes : int
        Records; distinct key patterns (equivalence classes).
    n_unique : int
        Records with f_k == 1 (sample uniques).
    n_k_lt_threshold, n_k_le_threshold : int
        Records with f_k < k (violating k-anonymity) and with f_k <= k.
    min_k : float
        Smallest f_k over records (the k the file achieves).
    median_k : float
        Median f_k over records.
    sample_frequency : pandas.Series
        f_k of each record (``"fk"``), indexed like the input.
    class_sizes : pandas.DataFrame
        Class-size distribution: for each f_k value, ``n_classes`` and ``n_records``.
    riskiest_classes : pandas.DataFrame
        The `top` classes with the highest risk (then smallest f_k): the key values, ``fk``,
        ``Fk``, ``risk`` and ``n_records`` (records of the class itself).
    """

    keys: tuple[str, ...]
    k: int
    weights: str | None
    missing: str
    alpha: float
    n_records: int
    n_classes: int
    n_unique: int
    n_k_lt_threshold: int
    n_k_le_threshold: int
    min_k: float
    median_k: float
    class_sizes: pd.DataFrame = field(repr=False)
    riskiest_classes: pd.DataFrame = field(repr=False)
    _records: PerRecord = field(repr=False, compare=False)

    @property
    def sample_frequency(self) -> pd.Series:
        """f_k of each record (made when first read)."""
        return self._records.series("fk")

    @property
    def pct_unique(self) -> float:
        return 100.0 * self.n_unique / self.n_records

    @property
    def pct_k_lt_threshold(self) -> float:
        return 100.0 * self.n_k_lt_threshold / self.n_records

    @property
    def pct_k_le_threshold(self) -> float:
        return 100.0 * self.n_k_le_threshold / self.n_records

    @property
    def violates(self) -> pd.Series:
        """Boolean Series: the record's f_k is below k."""
        return (self.sample_frequency < self.k).rename(f"fk_lt_{self.k}")

    def n_below(self, k: int) -> int:
        """Records with f_k < `k`, for any other threshold."""
        return int((self.sample_frequency < check_int(k, "k", min_value=1)).sum())

    def to_frame(self) -> pd.DataFrame:
        """Per-record table: ``fk`` and the violation flag."""
        return pd.concat([self.sample_frequency, self.violates], axis=1)

    def summary(self) -> pd.DataFrame:
        k = self.k
        rows = [
            ("n_records", self.n_records, "records assessed"),
            ("n_classes", self.n_classes, "distinct key patterns (equivalence classes)"),
            ("n_unique", self.n_unique, "sample uniques (fk = 1)"),
            ("pct_unique", self.pct_unique, "% sample uniques"),
            ("n_k_lt_threshold", self.n_k_lt_threshold, f"records violating {k}-anonymity (fk < {k})"),
            ("pct_k_lt_threshold", self.pct_k_lt_threshold, f"% records with fk < {k}"),
            ("n_k_le_threshold", self.n_k_le_threshold, f"records with fk <= {k}"),
            ("pct_k_le_threshold", self.pct_k_le_threshold, f"% records with fk <= {k}"),
            ("min_k", self.min_k, "smallest fk (the k achieved)"),
            ("median_k", self.median_k, "median fk over records"),
        ]
        return summary_frame(rows)


@dispatch(dask="sdc.risk.kanonymity:_k_anonymity_tables", chunks="sdc.risk.kanonymity:_k_anonymity_tables")
def k_anonymity(
    data: pd.DataFrame,
    keys: str | list[str] | tuple[str, ...],
    *,
    k: int = 3,
    weights: str | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
    method: str = "approx",
    top: int = 10,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> KAnonymityResult:
    """k-anonymity profile of the key variables.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata, one row per record. Not modified.
    keys : str or sequence of str
        Key variables (quasi-identifiers).
    k : int >= 1, default 3
        Threshold: records with f_k < k violate k-anonymity.
    weights : str, optional
        Sampling-weight column, for F_k and the risk shown for the riskiest classes.
    missing : {"wildcard", "category"} or MissingRule, default "wildcard"
        Missing-value rule (see :func:`sdc.frequencies`).
    alpha : float in [0, 1], default 1
        sdcMicro's alpha.
    method : {"approx", "exact"}, default "approx"
        Individual-risk estimator for the riskiest classes (see :func:`sdc.individual_risk`).
    top : int >= 0, default 10
        How many riskiest classes to list.
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.

    Returns
    -------
    KAnonymityResult

    Notes
    -----
    The counts below k match sdcMicro's ``print(sdcObj, "kAnon")`` (records with fk < 2,
    3, 5) and ``freqCalc``'s ``n1``/``n2``.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 40, 50], "sex": ["f", "f", "m", "m"]})
    >>> p = sdc.k_anonymity(df, ["age", "sex"], k=2)
    >>> p.n_classes, p.n_unique, p.n_k_lt_threshold, p.min_k
    (3, 2, 2, 1.0)
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    k = check_int(k, "k", min_value=1)
    top = check_int(top, "top", min_value=0)
    rule = missing_rule(missing, alpha)
    method = check_option(method, "method", RISK_METHODS)
    w = check_weights(data, weights)
    enc = kc.encoded
    pf = kc.frequencies(w, weights=weights, rule=rule)
    warn_if_degenerate(pf, stacklevel=4)
    return profile_from_frequencies(data, enc, pf, k=k, weights=weights, rule=rule, method=method, top=top)


def profile_from_frequencies(
    data: pd.DataFrame, enc: EncodedKeys, pf: PatternFrequencies, *, k: int, weights: str | None,
    rule: MissingRule, method: str, top: int,
) -> KAnonymityResult:
    """Assemble the profile from per-pattern frequencies (shared with the snapshots)."""
    occ = pf.occupied
    f_occ = pf.fk[occ]
    n_occ = pf.counts[occ]
    if f_occ.dtype.kind in "iu" and f_occ.size and int(f_occ.max()) <= 4 * f_occ.size + 1024:
        # whole frequencies in a small range: count them directly, no sort
        per_size = np.bincount(f_occ)
        sizes = np.flatnonzero(per_size)
        n_classes = per_size[sizes]
        n_records = np.bincount(f_occ, weights=n_occ)[sizes]
    else:
        sizes, inv = np.unique(f_occ, return_inverse=True)
        n_classes = np.bincount(inv, minlength=sizes.size)
        n_records = np.bincount(inv, weights=n_occ, minlength=sizes.size)
    class_sizes = pd.DataFrame({
        "fk": sizes.astype(f_occ.dtype, copy=False),
        "n_classes": n_classes.astype(np.int64, copy=False),
        "n_records": n_records.astype(np.int64),
    })
    return KAnonymityResult(
        keys=enc.keys, k=k, weights=weights, missing=rule.kind, alpha=rule.alpha,
        **class_counts(pf, k),
        class_sizes=class_sizes,
        riskiest_classes=_riskiest(data, enc, pf, weighted=weights is not None, method=method, top=top),
        _records=PerRecord(pf.pattern, data.index, fk=pf.fk),
    )


def class_counts(pf: PatternFrequencies, k: int) -> dict[str, int | float]:
    """The profile's counts, computed per pattern (O(patterns), not O(records))."""
    occ = pf.occupied
    f, n_at = pf.fk[occ], pf.counts[occ]
    return {
        "n_records": int(n_at.sum()),
        "n_classes": pf.n_patterns,
        "n_unique": int(n_at[f == 1].sum()),
        "n_k_lt_threshold": int(n_at[f < k].sum()),
        "n_k_le_threshold": int(n_at[f <= k].sum()),
        "min_k": float(f.min()),
        "median_k": weighted_median(f, n_at),
    }


def _riskiest(
    data: pd.DataFrame, enc: EncodedKeys, pf: PatternFrequencies, *, weighted: bool, method: str, top: int
) -> pd.DataFrame:
    occ = pf.occupied
    ids = np.arange(pf.counts.size)[occ]
    risk = pattern_risk(pf.fk[occ], pf.Fk[occ], weighted=weighted, method=method)
    # Highest risk first; ties by smallest fk, then by first appearance in the data. Only the
    # `top` classes are ordered: the candidates are narrowed by selection, one key at a time.
    if enc.first_order:
        # Ids numbered by first appearance: id order is first-record order.
        pick = _top_by([-risk, pf.fk[occ], ids], top)
        first = ids[pick]
    else:
        sure, tied = _top_split([-risk, pf.fk[occ]], top)
        if tied.size > top - sure.size:  # of the classes tied at the cut, those met first in the data
            met = _met_first(enc.pattern, ids[tied], top - sure.size, pf.counts.size)
            tied = np.searchsorted(ids, met)  # ids is increasing: positions of those classes
        pick = np.concatenate([sure, tied])
        first = _first_rows(enc.pattern, ids[pick], pf.counts.size)
    order = pick[np.lexsort((first, pf.fk[occ][pick], -risk[pick]))][:top]
    rows = _first_rows(enc.pattern, ids[order], pf.counts.size)
    out = data.iloc[rows][list(enc.keys)].reset_index(drop=True)
    out["fk"] = pf.fk[occ][order]
    out["Fk"] = pf.Fk[occ][order]
    out["risk"] = risk[order]
    out["n_records"] = pf.counts[occ][order]
    return out


def _top_by(keys: list[np.ndarray], top: int) -> np.ndarray:
    """Positions that can be among the `top` smallest in lexicographic order of `keys` (all
    rows of the tie at the cut on the last key are kept; the caller breaks those ties).

    ``np.partition`` per key, O(n) each, instead of a full sort of every row."""
    return np.concatenate(_top_split(keys, top))


def _top_split(keys: list[np.ndarray], top: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_top_by` in two parts: the positions surely among the `top` (fewer than `top`),
    and the positions tied at the cut (equal on every key), of which only some fit."""
    cand = np.arange(keys[0].size)
    if top == 0:
        return cand[:0], cand[:0]
    keep: list[np.ndarray] = [cand[:0]]
    need = top
    for key in keys:
        if cand.size <= need:
            break
        v = key[cand]
        kth = np.partition(v, need - 1)[need - 1]
        below = v < kth
        keep.append(cand[below])
        need -= int(np.count_nonzero(below))
        cand = cand[v == kth]
    return np.concatenate(keep), cand


def _met_first(pattern: np.ndarray, ids: np.ndarray, need: int, n_ids: int) -> np.ndarray:
    """The `need` pattern ids among `ids` whose first records come first, in increasing id order.

    The records are read from the start in blocks that double in size until `need` of the
    ids have been met: when ties are many (all the unique classes), the first block suffices."""
    wanted = np.zeros(n_ids, dtype=bool)
    wanted[ids] = True
    met: list[np.ndarray] = []
    count, lo, step = 0, 0, max(4096, 4 * need)
    while count < need and lo < pattern.shape[0]:
        block = pattern[lo:lo + step]
        hit = pd.unique(block[wanted[block]])  # in order of first appearance in the block
        wanted[hit] = False
        met.append(hit)
        count += hit.size
        lo, step = lo + step, 2 * step
    return np.sort(np.concatenate(met)[:need])


def _first_rows(pattern: np.ndarray, ids: np.ndarray, n_ids: int) -> np.ndarray:
    """Position of the first record of each of the pattern ids `ids`."""
    wanted = np.zeros(n_ids, dtype=bool)
    wanted[ids] = True
    rows = np.flatnonzero(wanted[pattern])
    first = first_occurrence(pattern[rows], n_ids)
    return rows[first[ids]]


# --- on a Dask DataFrame or a file read in chunks: the pattern table, then the code above ---------

class DaskKAnonymityResult(KAnonymityResult):
    """:class:`KAnonymityResult` of data kept out of memory: on a Dask DataFrame
    ``sample_frequency``, ``violates`` and ``to_frame()`` are Dask (lazy); ``n_below`` is
    computed from the patterns."""

    __slots__ = ("_pattern_counts",)

    def n_below(self, k: int) -> int:
        f, n_at = self._pattern_counts
        return int(n_at[f < check_int(k, "k", min_value=1)].sum())

    def to_frame(self) -> Any:
        return self._records.concat([self.sample_frequency, self.violates])


def _k_anonymity_tables(data: Any, keys: Any, *, k: int = 3, weights: str | None = None, missing: Any = "wildcard",
                        alpha: float = 1.0, method: str = "approx", top: int = 10, key_bins: Any = None
                        ) -> KAnonymityResult:
    """:func:`sdc.k_anonymity` of a Dask DataFrame or a chunked file, from its pattern table;
    on Dask ``sample_frequency`` is a Dask Series."""
    from sdc.core.frequencies import table_arguments, table_frequencies

    tables, keys, weights, rule = table_arguments(data, keys, weights, missing, alpha, key_bins)
    k = check_int(k, "k", min_value=1)
    top = check_int(top, "top", min_value=0)
    method = check_option(method, "method", RISK_METHODS)
    table = tables.pattern_table(keys, weights)
    enc, pf = table_frequencies(table, keys, rule)
    warn_if_degenerate(pf, stacklevel=4)
    # The table is sorted by first appearance, so the riskiest classes' ties break as in memory.
    res = profile_from_frequencies(table[list(keys)], enc, pf, k=k, weights=weights, rule=rule, method=method, top=top)
    per = tables.per_record(keys, table, enc.pattern, int(pf.counts.sum()), fk=pf.fk)
    out = _as(DaskKAnonymityResult, res, _records=per)
    object.__setattr__(out, "_pattern_counts", (pf.fk[pf.occupied], pf.counts[pf.occupied]))
    return out
