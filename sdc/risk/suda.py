"""SUDA2: special uniques, minimal sample uniques and the DIS-SUDA score.

A set S of key variables is a *minimal sample unique* (MSU) of record i when i is observed
on every variable of S, no other record has i's values on S, and no proper subset of S
has that property (Elliot, Manning and Ford 2002; the SUDA2 search of Manning, Haglin and
Keane 2008). A missing value matches nothing, so it can never be part of an MSU. Since a
record unique on T is unique on every superset of T, S is minimal exactly when none of its
subsets one variable smaller is unique; the search here evaluates every subset of the keys
up to `max_size` with one grouped count each, level by level.

The SUDA score of a record is the sum over its MSUs S of a weight w(|S|), with M the
number of variables:

* ``original_scores=True`` (Elliot et al.; sdcMicro's default): w(k) = (M - k)!;
* ``original_scores=False`` (the older IHSN weighting): w(k) = (2^(M-k) - 1) / C(M, k).

The DIS-SUDA score (Skinner and Elliot 2002, as implemented in SUDA2) turns scores into a
probability of a correct match: with U sample uniques and P records in pairs (full
patterns that occur exactly twice), f the sampling fraction (``dis_fraction``),
Dis = U f / (U f + P (1 - f)), Q = 1 + (8 - M) / 20, AdjFactor = sum over records with a
positive score of score^(-Q), and for a positive score

    DIS_i = 1 / (1 + (U / Dis - U) / (score_i^Q * AdjFactor)),   0 otherwise.

``mode="sdcmicro"`` (default) reproduces ``sdcMicro::suda2`` (5.8): with one or two keys
it appends one or two constant dummy variables (counted in M); numeric values are
truncated to integers (its C code stores them as ``int``); U is the number of records
alone in their bucket of a 16-bit hash of the record's values (its C code misses the
uniques that share a bucket), Dis, Q and U / Dis - U are computed in single precision,
and U = 0 gives NaN. ``mode="correct"`` uses the keys as they are (no dummies, no
truncation), the true number of sample uniques, and double precision (U / Dis - U is then
P (1 - f) / f, never NaN). Both treat strings and categoricals as categories (sdcMicro's
data-frame method turns character columns into missing values; its sdcMicroObj method
uses factors).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_int, check_keys, check_number, check_option
from sdc.core.engine import dispatch
from sdc.core.scenario import KeyClasses, resolve_keys
from sdc.exceptions import SdcWarning, SearchTooLargeError
from sdc.core.keys import (
    column_levels, combine_codes, dense_ids, levels_from_codes, r_integer_codes, truncated_codes,
)
from sdc.core.msu import MAX_WORK, SearchLimits, minimal_uniques
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["SudaResult", "suda", "SUDA_MODES", "DIS_INTERVALS", "MAX_WORK"]

SUDA_MODES = ("sdcmicro", "correct")
DIS_INTERVALS = ("== 0", "(0.0, 0.1]", "(0.1, 0.2]", "(0.2, 0.3]", "(0.3, 0.4]", "(0.4, 0.5]", "(0.5, 0.6]",
                 "(0.6, 0.7]", "> 0.7")


@dataclass(frozen=True, slots=True, kw_only=True)
class SudaResult:
    """Result of :func:`suda`.

    Attributes
    ----------
    keys : tuple of str
    mode : {"sdcmicro", "correct"}
    max_size : int
        Largest MSU size searched.
    n_variables : int
        M, the number of variables in the weights and in Q (dummies included in sdcmicro mode).
    dis_fraction : float
    original_scores : bool
    score : pandas.Series
        SUDA score of each record (``suda_score``), indexed like the input.
    dis_score : pandas.Series
        DIS-SUDA score of each record (``dis_suda_score``).
    msu_counts : pandas.DataFrame
        Number of MSUs of each size per record (columns ``msu_1`` ... ``msu_<max_size>``).
    contributions : pandas.DataFrame
        Per record and key, the share of the score from MSUs containing the key
        (``<key>_contribution``; sdcMicro's ``contributionPercent``, a fraction, and a row can
        sum to more than 1).
    attribute_contributions : pandas.DataFrame
        ``variable``, ``contribution``: 100 * sum(contribution * score) / sum(score).
    attribute_level_contributions : pandas.DataFrame
        ``variable``, ``level``, ``contribution``: each level's share (in %) of its key's
        total contribution.
    n_uniques, n_pair_records : int
        U and P as used in DIS (U as counted in the mode's way).
    """

    keys: tuple[str, ...]
    mode: str
    max_size: int
    n_variables: int
    dis_fraction: float
    original_scores: bool
    score: pd.Series = field(repr=False)
    dis_score: pd.Series = field(repr=False)
    msu_counts: pd.DataFrame = field(repr=False)
    contributions: pd.DataFrame = field(repr=False)
    attribute_contributions: pd.DataFrame = field(repr=False)
    attribute_level_contributions: pd.DataFrame = field(repr=False)
    n_uniques: int
    n_pair_records: int

    @property
    def n_records(self) -> int:
        return int(self.score.shape[0])

    @property
    def score_sum(self) -> float:
        return float(self.score.sum())

    @property
    def score_max(self) -> float:
        return float(self.score.max())

    @property
    def n_records_with_msu(self) -> int:
        return int((self.score > 0).sum())

    @property
    def dis_sum(self) -> float:
        return float(self.dis_score.sum())

    @property
    def dis_max(self) -> float:
        return float(self.dis_score.max())

    def dis_table(self) -> pd.DataFrame:
        """Records per DIS-SUDA interval, as ``print(suda2)`` tabulates them."""
        eps = np.finfo(float).eps
        breaks = np.concatenate([[-1.0], np.arange(0, 0.8, 0.1)[:8] + eps, [np.inf]])
        d = self.dis_score.to_numpy()
        d = d[~np.isnan(d)]
        idx = np.searchsorted(breaks, d, side="left") - 1  # intervals (a, b]
        counts = np.bincount(idx, minlength=len(DIS_INTERVALS))[: len(DIS_INTERVALS)]
        return pd.DataFrame({"interval": DIS_INTERVALS, "n_records": counts})

    def to_frame(self) -> pd.DataFrame:
        """Per record: contributions, ``suda_score``, ``dis_suda_score`` (sdcMicro's ``Res``)."""
        return pd.concat([self.contributions, self.score, self.dis_score], axis=1)

    def summary(self) -> pd.DataFrame:
        rows = [
            ("score_sum", self.score_sum, "sum of SUDA scores"),
            ("score_max", self.score_max, "largest SUDA score"),
            ("n_records_with_msu", self.n_records_with_msu, "records with at least one MSU (score > 0)"),
            ("dis_sum", self.dis_sum, "sum of DIS-SUDA scores (expected correct matches)"),
            ("dis_max", self.dis_max, "largest DIS-SUDA score"),
        ]
        return summary_frame(rows)


def _check_arguments(mode: str, dis_fraction: float, original_scores: bool,
                     missing_value: float | None) -> tuple[str, float, float | None]:
    """suda's checked mode, DIS fraction and missing-value code (one error naming the argument)."""
    mode = check_option(mode, "mode", SUDA_MODES)
    f = check_number(dis_fraction, "dis_fraction", low=0.0, high=1.0, high_open=True)
    if not isinstance(original_scores, bool):
        raise TypeError(f"`original_scores` must be True or False; got {original_scores!r}.")
    if missing_value is not None:
        missing_value = check_number(missing_value, "missing_value", low=-math.inf, high=math.inf)
    return mode, f, missing_value


def _attribute_contributions(keys: Sequence[str], contribs: np.ndarray, total: float) -> pd.DataFrame:
    """Each key's share (percent) of the file's total SUDA score (sdcMicro's attribute_contributions)."""
    share = 100.0 * contribs.sum(axis=0) / total if total > 0 else np.full(len(keys), np.nan)
    return pd.DataFrame({"variable": list(keys), "contribution": share})


def _key_codes(data: pd.DataFrame, keys: list[str], kc: KeyClasses | None, mode: str,
               missing_value: float | None) -> list[np.ndarray]:
    """Each key's codes as suda2 reads it. The scenario's codes serve wherever suda2 reads a key
    as categories: always for text, and for numbers unless sdcMicro's truncation or a
    missing-value code applies."""
    return [kc.encoded.codes[j].astype(np.int64)
            if kc is not None and (not _is_number(data[k]) or (mode != "sdcmicro" and missing_value is None))
            else _codes(data[k], mode, missing_value) for j, k in enumerate(keys)]


def _scores(counts: np.ndarray, contrib: np.ndarray, weights: list[float], max_size: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """Each record's SUDA score, the sum over sizes of (number of MSUs of that size) x w(size)
    added in size order as sdcMicro adds, and each key's share of it (0 for a score of 0)."""
    score = np.zeros(counts.shape[0])
    for k in range(max_size):
        score += counts[:, k] * weights[k]
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(score[:, None] > 0, contrib / score[:, None], 0.0)
    return score, share


@dispatch(dask=None, why="it searches the minimal sample uniques of every record over all key combinations at once")
def suda(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    max_size: int | None = None,
    dis_fraction: float = 0.01,
    original_scores: bool = True,
    mode: Literal["sdcmicro", "correct"] = "sdcmicro",
    missing_value: float | None = -999,
    progress: bool = False,
    key_bins: Mapping[str, BinSpec] | None = None,
    max_work: int | None = MAX_WORK,
) -> SudaResult:
    """SUDA2 scores, DIS-SUDA scores and contributions of every record.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables.
    max_size : int, optional
        Largest MSU size to search (default: all keys; sdcMicro always searches all).
    dis_fraction : float in [0, 1), default 0.01
        Sampling fraction for DIS-SUDA (sdcMicro's ``DisFraction``; 0 means 0.5, as there).
    original_scores : bool, default True
        Elliot's weights (M - k)!, or the IHSN weights (2^(M-k) - 1) / C(M, k).
    mode : {"sdcmicro", "correct"}, default "sdcmicro"
        See the module notes.
    missing_value : float or None, default -999
        Values equal to it are missing (sdcMicro's ``missing``); NaN always is.
    progress : bool
        Show a progress bar over the key subsets.
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.
    max_work : int or None, default 2e9
        Bound on the search of minimal sample uniques: records counted over all key subsets
        searched, each subset counting 2,000 more (2e9 is about two minutes); None: no
        bound. The memory a size's record sets take is bounded too (512 MiB). The search
        estimates each size's work and memory exactly before counting it.

    Raises
    ------
    sdc.exceptions.SearchTooLargeError
        A ValueError, raised before the size that would pass `max_work` (or the memory
        bound) is searched; it says how far the search got. With many keys of few values
        (60 keys of 3 values over 5,000 records) the MSUs cannot all be listed: give
        `max_size` (MSUs of up to that many keys) or fewer keys.

    References
    ----------
    .. [1] Elliot, M. J., Manning, A. M. and Ford, R. W. (2002). A computational algorithm
           for handling the special uniques problem. IJUFKS 10(5), 493-509.
    .. [2] Manning, A. M., Haglin, D. J. and Keane, J. A. (2008). A recursive search
           algorithm for statistical disclosure assessment. DMKD 16(2), 165-196.
    .. [3] Skinner, C. J. and Elliot, M. J. (2002). A measure of disclosure risk for
           microdata. JRSS B 64(4), 855-867.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"a": [2, 1, 1], "b": [0, 3, 0], "c": [0, 6, 0]})
    >>> sdc.suda(df, ["a", "b", "c"]).score.tolist()
    [2.0, 4.0, 2.0]
    """
    data, keys, _ = prepare(data, keys, key_bins=key_bins)
    kc = keys if isinstance(keys, KeyClasses) else None
    keys = resolve_keys(data, keys).keys if kc is not None else check_keys(data, keys)
    mode, f, missing_value = _check_arguments(mode, dis_fraction, original_scores, missing_value)
    n = len(data)
    cols = _key_codes(data, keys, kc, mode, missing_value)
    n_dummies = (3 - len(keys)) if mode == "sdcmicro" and len(keys) <= 2 else 0
    M = len(keys) + n_dummies
    max_size = len(keys) if max_size is None else check_int(max_size, "max_size", min_value=1, max_value=len(keys))
    weights = _weights(M, original_scores)

    counts, contrib = _search(cols, max_size, n, weights, max_work, progress)
    score, share = _scores(counts, contrib, weights, max_size)

    known = kc.encoded.codes if kc is not None else None  # one code per distinct value of each key
    full = _full_codes(data, keys, cols, mode, missing_value, n_dummies, known)
    U, P = _uniques_and_pairs(full, mode)
    dis = _dis(score, U, P, f, M, mode)

    contributions = pd.DataFrame(share, index=data.index, columns=[f"{k}_contribution" for k in keys])
    contribs = share * score[:, None]
    return SudaResult(
        keys=keys, mode=mode, max_size=max_size, n_variables=M, dis_fraction=f, original_scores=original_scores,
        score=pd.Series(score, index=data.index, name="suda_score"),
        dis_score=pd.Series(dis, index=data.index, name="dis_suda_score"),
        msu_counts=pd.DataFrame(counts, index=data.index, columns=[f"msu_{k + 1}" for k in range(max_size)]),
        contributions=contributions,
        attribute_contributions=_attribute_contributions(keys, contribs, score.sum()),
        attribute_level_contributions=_level_contributions(data, keys, contribs, known),
        n_uniques=U, n_pair_records=P,
    )


def _search(cols: list[np.ndarray], max_size: int, n: int, weights: list[float], max_work: int | None,
            progress: bool) -> tuple[np.ndarray, np.ndarray]:
    """The MSU counts and contributions (:func:`_tally`) of the bounded search; past its limits
    a one-line SearchTooLargeError with the advice a SUDA2 user can follow."""
    if max_work is not None:
        max_work = check_int(max_work, "max_work", min_value=1)
    cards = [int(c.max()) + 1 if c.size and c.max() >= 0 else 1 for c in cols]
    msus = minimal_uniques(cols, cards, max_size, progress=progress, limits=SearchLimits(max_work=max_work))
    try:
        return _tally(msus, n, len(cols), max_size, weights)
    except SearchTooLargeError as exc:
        advice = (f"give fewer keys, `max_size` {exc.searched} (MSUs of up to {exc.searched} keys) or a larger "
                  "`max_work`" if exc.searched else "give fewer keys or a larger `max_work`")
        raise SearchTooLargeError(f"SUDA2 not computed: {exc}; {advice}.", searched=exc.searched, size=exc.size,
                                  n_subsets=exc.n_subsets, work=exc.work, reason=str(exc)) from None


#: Record positions gathered before they are counted into the per-record tables.
_TALLY_BATCH = 1 << 22


def _tally(msus: Iterator[tuple[tuple[int, ...], np.ndarray]], n: int, n_keys: int, max_size: int,
           weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Per record: the number of MSUs of each size, and per key the summed weights w(|S|) of
    the MSUs S containing it. The records of many subsets are gathered and counted with one
    ``bincount`` per size and per key (not one scattered update per subset and key)."""
    counts = np.zeros((max_size, n), dtype=np.int64)
    contrib = np.zeros((n_keys, n))
    by_size: list[list[np.ndarray]] = [[] for _ in range(max_size)]
    by_key: list[list[tuple[np.ndarray, float]]] = [[] for _ in range(n_keys)]
    held = 0

    def flush() -> None:
        for k, parts in enumerate(by_size):
            if parts:
                counts[k] += np.bincount(np.concatenate(parts), minlength=n)
                parts.clear()
        for v, parts in enumerate(by_key):
            if parts:
                rows = np.concatenate([r for r, _ in parts])
                w = np.concatenate([np.full(r.size, wt) for r, wt in parts])
                contrib[v] += np.bincount(rows, weights=w, minlength=n)
                parts.clear()

    for S, rows in msus:
        by_size[len(S) - 1].append(rows)
        for v in S:
            by_key[v].append((rows, weights[len(S) - 1]))
        held += rows.size * (len(S) + 1)
        if held >= _TALLY_BATCH:
            flush()
            held = 0
    flush()
    return counts.T, contrib.T


def _is_text(s: pd.Series) -> bool:
    """A key r_integer_codes reads as text (not categorical, boolean or numeric)."""
    return not (isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(s.dtype)
                or pd.api.types.is_numeric_dtype(s.dtype))


def _is_number(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)


def _codes(s: pd.Series, mode: str, missing_value: float | None) -> np.ndarray:
    """Category codes (-1 = missing). sdcmicro mode truncates numbers to integers first."""
    codes, merged = truncated_codes(s, missing_value=missing_value, truncate=mode == "sdcmicro")
    if merged:
        warnings.warn(f"key {s.name!r} has non-integer values; sdcMicro's suda2 truncates them to integers "
                      "(mode='sdcmicro'). Use mode='correct' to keep them apart.", SdcWarning, stacklevel=5)
    return codes


def _weights(M: int, original: bool) -> list[float]:
    """w(k) for k = 1..M, correctly rounded to double."""
    out = []
    for k in range(1, M + 1):
        if original:
            out.append(float(math.factorial(M - k)))
        else:
            out.append(float(Fraction(2 ** (M - k) - 1, math.comb(M, k))))
    return out


def _full_codes(data: pd.DataFrame, keys: tuple[str, ...], cols: list[np.ndarray], mode: str,
                missing_value: float | None, n_dummies: int, known: tuple[np.ndarray, ...] | None = None
                ) -> list[np.ndarray]:
    """Per-variable integer values as sdcMicro's C code sees them (missing = the missing code).
    `known`: the scenario's codes of the keys, to sort text keys' distinct values only."""
    if mode != "sdcmicro":
        return cols
    out = []
    miss = -999 if missing_value is None else int(missing_value)
    for j, k in enumerate(keys):
        s = data[k]
        if known is not None and _is_text(s):
            # strings as sorted factor codes (as r_integer_codes), from the codes already made
            rank, _ = levels_from_codes(s, known[j], as_text=True)
            out.append(np.where(rank < 0, miss, rank + 1))
            continue
        # strings as sorted factor codes, as the bridge and as.factor give them
        out.append(r_integer_codes(s, miss))
    out.extend([np.ones(len(data), dtype=np.int64)] * n_dummies)
    return out


def _uniques_and_pairs(full: list[np.ndarray], mode: str) -> tuple[int, int]:
    """U and P over the full patterns (missing counted as a value)."""
    n = full[0].size
    codes, cards = [], []
    for c in full:  # every value, the missing code included, is a category here
        cc, m = dense_ids(c)
        codes.append(cc)
        cards.append(m)
    ids, n_ids = combine_codes(codes, cards, n)
    pattern_counts = np.bincount(ids, minlength=n_ids)
    P = int(2 * (pattern_counts == 2).sum())
    if mode != "sdcmicro":
        return int((pattern_counts == 1).sum()), P
    # sdcMicro's C code: a 16-bit rolling hash of the values; records alone in their bucket.
    h = np.zeros(n, dtype=np.int64)
    for v in full:
        carry = (h & 0x8000) != 0
        h = ((h << 1) & 0xFFFF)
        h = (h + v) & 0xFFFF
        h = (h + carry) & 0xFFFF
    buckets = np.bincount(h, minlength=1 << 16)
    return int((buckets == 1).sum()), P


def _dis(score: np.ndarray, U: int, P: int, f: float, M: int, mode: str) -> np.ndarray:
    pos = score > 0
    dis = np.zeros(score.size)
    if not pos.any():
        return dis
    if mode == "sdcmicro":
        f32 = np.float32(f if f != 0 else 0.5)
        with np.errstate(invalid="ignore", divide="ignore"):
            Dis = (np.float32(U) * f32) / (np.float32(U) * f32 + np.float32(P) * (np.float32(1.0) - f32))
            X = float(np.float32(np.float32(U) / Dis) - np.float32(U))
        Q = float(np.float32(1.0) + (np.float32(8.0) - np.float32(M)) / np.float32(20.0))
    else:
        ff = f if f != 0 else 0.5
        X = P * (1 - ff) / ff
        Q = 1.0 + (8.0 - M) / 20.0
    powq = score[pos] ** Q
    adj = float(np.sum(1.0 / powq))
    dis[pos] = 1.0 / (1.0 + X / (powq * adj))
    return dis


def _level_contributions(data: pd.DataFrame, keys: tuple[str, ...], contribs: np.ndarray,
                         known: tuple[np.ndarray, ...] | None = None) -> pd.DataFrame:
    """Each observed level's share (%) of its key's total contribution (sdcMicro's levels: sorted values)."""
    rows = []
    for j, k in enumerate(keys):
        s = data[k]
        total = contribs[:, j].sum()
        if known is not None and not isinstance(s.dtype, pd.CategoricalDtype):
            codes, levels = levels_from_codes(s, known[j])
        else:
            codes, levels = column_levels(s, sort=True)
        sums = np.bincount(codes[codes >= 0], weights=contribs[codes >= 0, j], minlength=len(levels))
        with np.errstate(invalid="ignore", divide="ignore"):
            share = 100.0 * sums / total
        rows.extend((k, lev, val) for lev, val in zip(levels, share))
    return pd.DataFrame(rows, columns=["variable", "level", "contribution"])
