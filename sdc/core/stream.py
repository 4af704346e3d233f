"""Key patterns of data read in chunks: value domains, one code per value, counts per pattern.

Used by :mod:`sdc.risk.streamed` for files larger than memory. A first pass gives each key
its *domain* (:class:`KeyDomain`: the smallest and largest whole number, or the distinct
values), so that a second pass codes every chunk's values the same way; the codes of a
record are packed into one integer (mixed radix, one slot per key for a missing value) and
counted per pattern (:class:`PatternCounter`), with the weight sum and the first record of
each pattern. Only the distinct patterns are kept.

Equality is that of :func:`sdc.core.keys.grouping_codes`: whole numbers by value, other
values exactly, missing values a code of their own (how they match is decided later, by
the missing-value rule applied to the pattern table).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sdc.core.keys import first_occurrence

__all__ = ["KeyDomain", "PatternCounter"]

# Offset codes for whole numbers spread over at most this many values.
_MAX_SPAN = 1 << 24
# Pattern spaces up to this size are counted in dense arrays.
_DENSE = 1 << 25
# Merge the chunks' pattern lists once they hold this many entries.
_MERGE_AT = 1 << 25
_UNSEEN = np.iinfo(np.int64).max
# Numbers from this size on are refused (float64 no longer holds every whole number).
_EXACT = 2.0 ** 53


class KeyDomain:
    """The values one key takes over all chunks, and their codes (0 .. card - 1; -1 = missing).

    :meth:`update` sees every chunk (first pass); when the key is text in some chunks and
    numbers in others, or numbers that are not whole or spread too wide for offsets
    (:attr:`needs_values`), :meth:`collect` must then see every chunk again (as text for
    the former) before :meth:`finish`."""

    def __init__(self, name: str):
        self.name = name
        self.kinds: set[str] = set()
        self.lo: float | None = None
        self.hi: float | None = None
        self.whole = True
        self.uniques: list[np.ndarray] = []
        self.has_missing = False
        self.seen = False                     # a value that is not missing
        self.refusal: str | None = None       # why the key cannot be coded, if it is numbers throughout
        self.levels: pd.Index | None = None   # distinct values, when not offset-coded
        self.card = 0

    @property
    def as_text(self) -> bool:
        """Read as text in some chunk and as numbers (or booleans) in another: the whole file
        reads it as text."""
        return len(self.kinds) > 1 and not self.kinds <= set("iuf")

    @property
    def needs_values(self) -> bool:
        numeric = self.kinds <= set("iuf")
        wide = self.lo is not None and (not self.whole or self.hi - self.lo > _MAX_SPAN)
        return self.as_text or (numeric and wide)

    def update(self, s: pd.Series) -> None:
        kind = s.dtype.kind
        self.kinds.add(kind)
        miss = s.isna().to_numpy()
        if miss.any():
            self.has_missing = True
        if kind in "iuf":
            v = s.to_numpy()[~miss] if miss.any() else s.to_numpy()
            if v.size == 0:
                return
            self.seen = True
            lo, hi = float(v.min()), float(v.max())
            if self.refusal is None and not (math.isfinite(lo) and math.isfinite(hi)):
                bad = lo if not math.isfinite(lo) else hi
                self.refusal = (f"key variable {self.name!r} has a non-finite value {bad!r}; recode it or set it "
                                "to missing.")
            elif self.refusal is None and max(abs(lo), abs(hi)) >= _EXACT:
                # Codes come from float64 offsets and values: whole numbers this large would merge
                # (2^53 + 1 with 2^53), and chunks of int64 and uint64 are not typed as the whole file.
                big = v.max() if abs(hi) >= abs(lo) else v.min()
                shown = int(big) if kind in "iu" else float(big)
                self.refusal = (f"key variable {self.name!r} holds numbers of 2^53 or more ({shown!r}), which a "
                                "chunked read cannot code exactly; read the file whole (without --chunks) or the "
                                "column as text (--text).")
                return
            if self.refusal is not None:
                return
            if kind == "f" and self.whole and not bool(np.all(v == np.rint(v))):
                self.whole = False
            self.lo = lo if self.lo is None else min(self.lo, lo)
            self.hi = hi if self.hi is None else max(self.hi, hi)
        else:
            values = pd.unique(s[~miss].to_numpy(dtype=object))
            self.seen = self.seen or values.size > 0
            self.uniques.append(values)

    def check(self) -> None:
        """After the first pass: refuse what the in-memory measures refuse (a key missing in
        every record; an infinite number, or one of 2^53 or more, in a key of numbers)."""
        if not self.seen:
            raise ValueError(f"key variable {self.name!r} is missing in every record; drop it from `keys`.")
        if self.refusal is not None and self.kinds <= set("iuf"):
            raise ValueError(self.refusal)

    def collect(self, s: pd.Series) -> None:
        """A chunk's distinct values, for a key that :attr:`needs_values`."""
        v = s.dropna()
        self.uniques.append(pd.unique(v.to_numpy(dtype=object)) if self.as_text else np.unique(v.to_numpy()))

    def finish(self) -> None:
        """Fix the codes: offsets for whole numbers in a small range, else the sorted (numbers)
        or first-seen (text) distinct values."""
        numeric = self.kinds <= set("iuf")
        if numeric and not self.needs_values:
            self.levels = None
            self.card = int(self.hi - self.lo) + 1 if self.lo is not None else 0
        elif numeric:
            vals = np.unique(np.concatenate(self.uniques)) if self.uniques else np.empty(0)
            self.levels = pd.Index(vals)
            self.card = len(vals)
        else:
            seen = pd.unique(np.concatenate(self.uniques)) if self.uniques else np.empty(0, dtype=object)
            self.levels = pd.Index(seen, dtype=object)
            self.card = len(seen)
        self.uniques = []

    def code(self, s: pd.Series) -> np.ndarray:
        """Codes of a chunk's values (int64; -1 = missing)."""
        miss = s.isna().to_numpy()
        if self.levels is None:
            v = s.to_numpy(dtype=np.float64, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                out = np.where(miss, -1, np.nan_to_num(v - self.lo)).astype(np.int64)
        else:
            vals = s.to_numpy() if self.levels.dtype.kind in "iuf" else s.to_numpy(dtype=object)
            out = self.levels.get_indexer(vals).astype(np.int64)
            out[miss] = -1
        return out

    def values(self, codes: np.ndarray) -> np.ndarray:
        """The values of codes (missing: NaN, as pandas reads an empty field, for text too)."""
        miss = codes < 0
        if self.levels is None:
            if not miss.any() and self.kinds <= set("iu"):
                v = codes + int(self.lo)
                for dt in (np.int8, np.int16, np.int32):  # the smallest type: the same values, less memory
                    if np.iinfo(dt).min <= int(self.lo) and int(self.hi) <= np.iinfo(dt).max:
                        return v.astype(dt)
                return v.astype(np.int64)
            return np.where(miss, np.nan, codes + (self.lo or 0.0))
        lv = self.levels.to_numpy()
        if not len(lv):
            return np.full(codes.size, np.nan)
        out = lv[np.maximum(codes, 0)]
        if miss.any():
            if out.dtype.kind in "iuf":
                out = out.astype(np.float64)
                out[miss] = np.nan
            else:
                out = out.astype(object)
                out[miss] = np.nan
        return out


class PatternCounter:
    """Record counts, weight sums and first records of the key patterns of successive chunks."""

    def __init__(self, domains: list[KeyDomain], *, weighted: bool):
        self.domains = domains
        self.radix = [d.card + 1 for d in domains]  # one more slot: missing
        space = 1
        for r in self.radix:
            space *= r
            if space >= 1 << 62:
                raise ValueError("the keys take too many value combinations to be counted in chunks "
                                 "(more than 2^62); bin or recode some of them.")
        self.space = space
        self.weighted = weighted
        self.n = 0
        self.dense = space <= _DENSE
        # A sparse table's patterns are packed in bit fields when they fit (shifts and masks
        # decode them far faster than divisions), else in mixed radix.
        bits = [(r - 1).bit_length() for r in self.radix]
        self.bits = bits if not self.dense and sum(bits) <= 62 else None
        if self.dense:
            self.counts = np.zeros(space, dtype=np.int64)
            self.wsum = np.zeros(space)
            self.first = np.full(space, _UNSEEN, dtype=np.int64)
        else:
            self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
            self.held = 0
            self.merged = 0

    def add(self, chunk: pd.DataFrame, keys: tuple[str, ...], weights: str | None) -> None:
        packed = np.zeros(len(chunk), dtype=np.int64)
        for j, (d, k) in enumerate(zip(self.domains, keys)):
            if self.bits is None:
                packed *= self.radix[j]
            else:
                packed <<= self.bits[j]
            packed += d.code(chunk[k]) + 1
        w = None
        if weights is not None:
            from sdc._validation import check_weights

            w = check_weights(chunk, weights)
        offset = self.n
        self.n += len(chunk)
        # Hashed in first-appearance order: a chunk's patterns, then the chunks in file order,
        # so the merged list is in order of each pattern's first record.
        ids, uniq = pd.factorize(packed)
        cnt = np.bincount(ids, minlength=uniq.size)
        ws = np.bincount(ids, weights=w, minlength=uniq.size) if w is not None else cnt.astype(np.float64)
        first = first_occurrence(ids, uniq.size) + offset
        if self.dense:
            seen = self.first[uniq] == _UNSEEN
            self.counts[uniq] += cnt
            self.wsum[uniq] += ws
            self.first[uniq[seen]] = first[seen]
            return
        self.parts.append((uniq, cnt.astype(np.int64), ws, first))
        self.held += uniq.size
        # Merged when the new entries are as many as the merged ones: each entry is merged
        # O(log) times, not once per chunk.
        if self.held - self.merged >= max(_MERGE_AT, self.merged) and len(self.parts) > 1:
            self.parts = [_merge(self.parts)]
            self.held = self.merged = self.parts[0][0].size

    def table(self) -> pd.DataFrame:
        """The distinct patterns: key values, ``_n``, ``_w``, ``_first``; by first appearance."""
        if self.dense:
            keys_ = np.flatnonzero(self.counts != 0)
            cnt, ws, first = self.counts[keys_], self.wsum[keys_], self.first[keys_]
            if not self.weighted:
                ws = cnt.astype(np.float64)
            order = np.argsort(first, kind="stable")
            keys_, cnt, ws, first = keys_[order], cnt[order], ws[order], first[order]
        elif self.parts:
            keys_, cnt, ws, first = _merge(self.parts)  # already by first appearance
            self.parts = []
        else:
            keys_ = cnt = first = np.empty(0, dtype=np.int64)
            ws = np.empty(0)
        cols: dict[str, np.ndarray] = {}
        rest = keys_
        digits = []
        for j in reversed(range(len(self.radix))):
            if self.bits is None:
                rest, d = np.divmod(rest, self.radix[j])
            else:
                d = rest & ((1 << self.bits[j]) - 1)
                rest = rest >> self.bits[j]
            digits.append(d - 1)
        for d, codes in zip(self.domains, reversed(digits)):
            cols[d.name] = d.values(codes)
        out = pd.DataFrame(cols)
        out["_n"] = cnt
        out["_w"] = ws
        out["_first"] = first
        return out


def _merge(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pattern lists (in file order, each by first appearance) added into one, by first
    appearance: equal keys summed in file order, first records the earliest."""
    ids, keys_ = pd.factorize(np.concatenate([p[0] for p in parts]))
    m = keys_.size
    # Counts summed as floats are exact (far below 2^53); weights are summed in file order.
    cnt = np.bincount(ids, weights=np.concatenate([p[1] for p in parts]), minlength=m).astype(np.int64)
    ws = np.bincount(ids, weights=np.concatenate([p[2] for p in parts]), minlength=m)
    first = np.concatenate([p[3] for p in parts])[first_occurrence(ids, m)]
    return keys_, cnt, ws, first
