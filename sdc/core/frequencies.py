"""Sample frequencies f_k and weighted population frequencies F_k of key patterns.

For record i with key pattern k, the sample frequency f_k is the number of records that
share the pattern, and F_k is the sum of their sampling weights (an estimate of the number
of population units with that pattern). Missing key values are handled by one of two
explicit rules:

``missing="wildcard"`` (default; sdcMicro's ``freqCalc`` rule, Templ 2008 / sdcMicro 5.8.1)
    A missing value may stand for any value. With K >= 2 key variables, split the distinct
    patterns into complete ones (C, no missing value), partial ones (N) and the all-missing
    one (A). Two patterns are *compatible* when they agree wherever both are observed.

    * p in C:  f = c_p + alpha * sum of c_q over compatible q in N (A is not added);
    * p in N:  f = c_p + sum over compatible q in C of c_q
      + alpha * sum over compatible q in N u A, q != p, of c_q;
    * p = A:   f = n (every record), F = total weight.

    With one key variable: a value v gets c_v + alpha * c_missing; a missing record gets n.
    F uses the same formulas with weight sums W in place of counts c. With 0 < alpha < 1
    the frequencies can be fractional.

``missing="category"``
    A missing value is a category of its own, equal only to another missing value (what
    sdcMicro's ``ldiversity`` does, and what most users mean by "unknown").
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.exceptions import DegenerateDataWarning
from sdc._validation import check_keys, check_weights, check_weights_not_key
from sdc.core.binning import BinSpec
from sdc.core.engine import dispatch, tables_of
from sdc.core.keys import EncodedKeys, encode_keys
from sdc.core.missing import MISSING_RULES, MissingKind, MissingRule, missing_rule
from sdc.core.prepare import prepare
from sdc.core.wildcard import wildcard_frequencies

__all__ = ["FrequencyResult", "frequencies", "MISSING_RULES", "PatternFrequencies", "PerRecord", "warn_if_degenerate",
           "table_arguments"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PatternFrequencies:
    """Frequencies per key pattern: the intermediate every risk measure is computed from.

    Attributes
    ----------
    pattern : numpy.ndarray of int64
        Pattern id of each record (indexes the per-pattern arrays).
    fk, Fk : numpy.ndarray
        Sample and population frequency of each pattern id (0 for ids that never occur).
    counts : numpy.ndarray of int64
        Number of records with each pattern id (its own records only, before any wildcard).
    """

    pattern: np.ndarray = field(repr=False)
    fk: np.ndarray = field(repr=False)
    Fk: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    _occupied: np.ndarray | slice | None = field(default=None, repr=False, compare=False)

    @property
    def occupied(self) -> np.ndarray | slice:
        """Ids of the patterns that occur; ``slice(None)`` when every id does (dense ids),
        so that per-pattern arrays are used as views instead of copies. Found once."""
        if self._occupied is None:
            nz = np.flatnonzero(self.counts != 0)
            object.__setattr__(self, "_occupied", slice(None) if nz.size == self.counts.size else nz)
        return self._occupied

    @property
    def n_patterns(self) -> int:
        """Number of distinct patterns that occur."""
        occ = self.occupied
        return int(self.counts.size if isinstance(occ, slice) else occ.size)


class PerRecord:
    """Per-pattern arrays shown per record on demand: ``series(name)`` gathers the named
    array by the records' pattern ids once, as a Series indexed like the data, and keeps it.

    Results hold one of these so that measures which only need global figures never pay
    for per-record copies of n records."""

    __slots__ = ("pattern", "index", "_arrays", "_series")

    def __init__(self, pattern: np.ndarray, index: pd.Index, **arrays: np.ndarray):
        self.pattern, self.index, self._arrays, self._series = pattern, index, arrays, {}

    @property
    def n_records(self) -> int:
        return int(self.pattern.shape[0])

    def series(self, name: str) -> pd.Series:
        if name not in self._series:
            self._series[name] = pd.Series(self._arrays[name][self.pattern], index=self.index, name=name)
        return self._series[name]


@dataclass(frozen=True, slots=True, kw_only=True)
class FrequencyResult:
    """Result of :func:`frequencies`.

    Attributes
    ----------
    keys : tuple of str
        Key variables used.
    weights : str or None
        Weight column, or None (every weight 1, so F_k = f_k).
    missing : {"wildcard", "category"}
        Rule used for missing key values.
    alpha : float
        Weight of wildcard matches between records with missing values (sdcMicro's alpha).
    sample_frequency : pandas.Series
        f_k of each record, named ``"fk"``, indexed like the input. int64, or float64 when
        ``missing="wildcard"`` and ``0 < alpha < 1`` (fractional counts).
    population_frequency : pandas.Series
        F_k of each record (float64), named ``"Fk"``, indexed like the input.
    n_patterns : int
        Number of distinct key patterns (missing counted as a value of its own).
    """

    keys: tuple[str, ...]
    weights: str | None
    missing: str
    alpha: float
    sample_frequency: pd.Series = field(repr=False)
    population_frequency: pd.Series = field(repr=False)
    n_patterns: int

    @property
    def n_records(self) -> int:
        return int(self.sample_frequency.shape[0])

    @property
    def n1(self) -> int:
        """Records with f_k == 1 (exact equality, as sdcMicro's ``n1``)."""
        return int((self.sample_frequency == 1).sum())

    @property
    def n2(self) -> int:
        """Records with f_k == 2 (exact equality, as sdcMicro's ``n2``)."""
        return int((self.sample_frequency == 2).sum())

    def to_frame(self) -> pd.DataFrame:
        """Per-record table with columns ``fk`` and ``Fk``, indexed like the input."""
        return pd.concat([self.sample_frequency, self.population_frequency], axis=1)

    def summary(self) -> pd.DataFrame:
        """Records, patterns, and sdcMicro's n1 and n2."""
        rows = [
            ("n_records", self.n_records, "records"),
            ("n_patterns", self.n_patterns, "distinct key patterns (missing a value of its own)"),
            ("n1", self.n1, "records with fk = 1 (sdcMicro's n1)"),
            ("n2", self.n2, "records with fk = 2 (sdcMicro's n2)"),
            ("min_fk", float(self.sample_frequency.min()) if self.n_records else float("nan"), "smallest fk"),
        ]
        return summary_frame(rows)


@dispatch(dask="sdc.core.frequencies:_frequencies_tables",
          why="its result is the frequency of every record, which a chunked read does not keep")
def frequencies(
    data: pd.DataFrame,
    keys: str | list[str] | tuple[str, ...],
    *,
    weights: str | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> FrequencyResult:
    """Sample frequency f_k and population frequency F_k of every record's key pattern.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata, one row per record. Not modified.
    keys : str or sequence of str
        Key variables (quasi-identifiers), of any dtype.
    weights : str or pandas.Series, optional
        Sampling-weight column (finite, >= 1), or the weights as a Series aligned with `data`.
        Without it every weight is 1 and F_k = f_k.
    missing : {"wildcard", "category"} or MissingRule, default "wildcard"
        How a missing key value matches other values; see the module notes. A
        :class:`~sdc.core.missing.MissingRule` gives the rule and its alpha at once.
    alpha : float in [0, 1], default 1
        With ``missing="wildcard"``, the weight of matches that involve a missing value on
        both sides (and of partial records matched to complete ones), as sdcMicro's
        ``freqCalc(alpha=)``. Ignored with ``missing="category"``.
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.

    Returns
    -------
    FrequencyResult

    Notes
    -----
    Validated against ``sdcMicro::freqCalc`` (Templ, Kowarik and Meindl 2015, J. Stat.
    Softw. 67(4)). Unlike ``freqCalc`` called directly, character keys are categories, not
    coerced to numbers (``measure_risk`` and ``createSdcObj`` do the same, by turning them
    into factors first). See ``docs/sdcmicro-differences.md``.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"a": [1, 1, 2, None], "b": ["x", "x", "y", "y"]})
    >>> sdc.frequencies(df, ["a", "b"]).sample_frequency.tolist()
    [2, 2, 2, 2]
    >>> sdc.frequencies(df, ["a", "b"], missing="category").sample_frequency.tolist()
    [2, 2, 1, 1]
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    keys = check_keys(data, keys)
    rule = missing_rule(missing, alpha)
    w = check_weights(data, weights)
    enc = encode_keys(data, keys)
    pf = pattern_frequencies(enc, w, rule)
    warn_if_degenerate(pf, stacklevel=4)
    fk = pf.fk[pf.pattern]
    Fk = pf.Fk[pf.pattern]
    return FrequencyResult(
        keys=keys, weights=weights, missing=rule.kind, alpha=rule.alpha,
        sample_frequency=pd.Series(fk, index=data.index, name="fk"),
        population_frequency=pd.Series(Fk, index=data.index, name="Fk"),
        n_patterns=pf.n_patterns,
    )


def pattern_frequencies(enc: EncodedKeys, w: np.ndarray | None, rule: MissingRule) -> PatternFrequencies:
    """f and F for every pattern id of `enc`, under the missing-value `rule`."""
    counts = enc.pattern_counts()
    if w is None:
        wsum = counts.astype(np.float64)
    else:
        wsum = np.bincount(enc.pattern, weights=w, minlength=enc.n_ids)
    return frequencies_from_counts(enc, counts, wsum, rule)


def warn_if_degenerate(pf: PatternFrequencies, *, stacklevel: int = 2) -> None:
    """Warn when every record is a sample unique, or every record has the same pattern."""
    occ = pf.occupied
    n = int(pf.counts.sum())
    if n < 2:
        return
    if pf.n_patterns == 1:
        warnings.warn(
            f"all {n} records have the same key pattern: one equivalence class, no re-identification "
            "risk from these keys and nothing to distinguish records.",
            DegenerateDataWarning, stacklevel=stacklevel,
        )
    elif bool((pf.fk[occ] == 1).all()):
        warnings.warn(
            f"all {n} records are sample uniques on these keys (every fk = 1); the keys identify "
            "every record, so risk measures are at their maximum.",
            DegenerateDataWarning, stacklevel=stacklevel,
        )


# --- a pattern table's frequencies (Dask partitions, a file read in chunks) ---------------------

def table_frequencies(table: pd.DataFrame, keys: tuple[str, ...], rule: MissingRule
                      ) -> tuple[EncodedKeys, PatternFrequencies]:
    """f and F per pattern of a pattern table, by the in-memory code.

    The table's rows play the records of :func:`sdc.core.frequencies.pattern_frequencies`,
    but each carries its count and weight sum: the same rules (and dtype conventions) as
    there, with the per-pattern counts given instead of counted.
    """
    enc = encode_keys(table, keys)
    return enc, row_frequencies(enc, table["_n"].to_numpy(np.float64), table["_w"].to_numpy(np.float64), rule)


def row_frequencies(enc: EncodedKeys, n_rows: np.ndarray, w_rows: np.ndarray, rule: MissingRule
                    ) -> PatternFrequencies:
    """f and F per pattern of `enc`, whose rows carry counts `n_rows` and weight sums `w_rows`
    (a pattern table's rows, or its rows grouped by a subset of the keys)."""
    # Rows that encode to one pattern (groupby can be finer than the encoding) are added.
    counts = np.rint(np.bincount(enc.pattern, weights=n_rows, minlength=enc.n_ids)).astype(np.int64)
    wsum = np.bincount(enc.pattern, weights=w_rows, minlength=enc.n_ids)
    return frequencies_from_counts(enc, counts, wsum, rule)


def frequencies_from_counts(enc: EncodedKeys, counts: np.ndarray, wsum: np.ndarray, rule: MissingRule
                            ) -> PatternFrequencies:
    """``pattern_frequencies`` with the counts and weight sums per pattern id given."""
    alpha = rule.alpha
    if not rule.wildcard or not enc.has_missing:
        # Fractional alpha makes wildcard counts fractional in general; keep one dtype per rule.
        fk = counts.astype(np.float64) if rule.wildcard and 0 < alpha < 1 else counts
        return PatternFrequencies(pattern=enc.pattern, fk=fk, Fk=wsum, counts=counts)
    fk, Fk = wildcard_frequencies(enc, counts, wsum, alpha)
    if alpha in (0.0, 1.0):
        # Whole counts are added only in whole multiples, so fk stays an exact integer.
        fk = np.rint(fk).astype(np.int64)
    return PatternFrequencies(pattern=enc.pattern, fk=fk, Fk=Fk, counts=counts)


class DaskFrequencyResult(FrequencyResult):
    """:class:`~sdc.core.frequencies.FrequencyResult` of a Dask DataFrame: the Series are Dask
    Series; the counts come from the pattern table."""

    __slots__ = ("_counts", "_records")

    @property
    def n_records(self) -> int:
        return int(self._counts["n"])

    @property
    def n1(self) -> int:
        return int(self._counts["n1"])

    @property
    def n2(self) -> int:
        return int(self._counts["n2"])

    def to_frame(self) -> Any:
        return self._records.concat([self.sample_frequency, self.population_frequency])


def table_arguments(data: Any, keys: Any, weights: Any, missing: Any, alpha: Any, key_bins: Any
                    ) -> tuple[Any, tuple[str, ...], str | None, MissingRule]:
    """The frequency arguments of a measure on data kept out of memory (a Dask DataFrame, a
    chunked file), checked in one line each before any pass: ``(tables, keys, weights, rule)``,
    `tables` the data's pattern tables (:func:`sdc.core.engine.tables_of`) with `key_bins`
    (explicit edges) applied."""
    tables = tables_of(data)
    if weights is not None and not isinstance(weights, str):
        raise TypeError(f"`weights` on {_where(tables)} must be a column name.")
    check_weights_not_key(weights, [keys] if isinstance(keys, str) else keys)
    keys = key_names(keys, _where(tables))
    rule = missing_rule(missing, alpha)
    if key_bins:
        extra = [b for b in key_bins if b not in keys]
        if extra:
            raise ValueError(f"`key_bins` names columns that are not keys: {', '.join(map(repr, extra))}.")
        tables, _ = tables.binned(key_bins)
    return tables, keys, weights, rule


def _where(tables: Any) -> str:
    return "a Dask DataFrame" if tables.engine == "dask" else "a chunked file"


def key_names(keys: Any, where: str = "a Dask DataFrame") -> tuple[str, ...]:
    """`keys` given as column names (not a scenario's key classes), as a tuple; one line if not."""
    if isinstance(keys, str):
        keys = [keys]
    if not isinstance(keys, (list, tuple)) or not keys or not all(isinstance(k, str) for k in keys):
        raise TypeError(f"`keys` on {where} must be a column name or a non-empty list of column names.")
    if len(set(keys)) != len(keys):
        raise ValueError("`keys` names a column twice.")
    return tuple(keys)


def _frequencies_tables(data: Any, keys: Any, *, weights: str | None = None, missing: Any = "wildcard",
                        alpha: float = 1.0, key_bins: Any = None) -> DaskFrequencyResult:
    """:func:`frequencies` on a Dask DataFrame (same arguments, same numbers): one pass to the
    pattern table (``tables_of(data).pattern_table``), then the in-memory code."""
    tables, keys, weights, rule = table_arguments(data, keys, weights, missing, alpha, key_bins)
    table = tables.pattern_table(keys, weights)
    enc, pf = table_frequencies(table, keys, rule)
    warn_if_degenerate(pf, stacklevel=4)
    per = tables.per_record(keys, table, enc.pattern, int(pf.counts.sum()), fk=pf.fk, Fk=pf.Fk)
    occ = pf.occupied
    f, n_at = pf.fk[occ], pf.counts[occ]
    res = DaskFrequencyResult(
        keys=keys, weights=weights, missing=rule.kind, alpha=rule.alpha,
        sample_frequency=per.series("fk").rename("fk"), population_frequency=per.series("Fk").rename("Fk"),
        n_patterns=pf.n_patterns)
    object.__setattr__(res, "_counts", {"n": int(n_at.sum()), "n1": int(n_at[f == 1].sum()),
                                        "n2": int(n_at[f == 2].sum())})
    object.__setattr__(res, "_records", per)
    return res
