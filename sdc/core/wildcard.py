"""sdcMicro's asymmetric wildcard rule for missing key values, computed per pattern.

The rule (stated in :mod:`sdc.core.frequencies`) makes a record's frequency depend on every
*compatible* pattern: two patterns are compatible when they agree wherever both are
observed. sdcMicro evaluates it with one R loop iteration per partial pattern, each
scanning every other pattern. Here the patterns are grouped by *missingness mask* (the
set S of observed keys): patterns with masks S_a and S_b are compatible exactly when they
agree on S_a & S_b, so each pair of masks needs one grouped match on integer keys built
from the intersection's columns, and each pair is visited once, updating both sides.

What keeps this fast when there are many masks (K keys allow 2^K):

* masks are visited largest first, so after the large ones are done a small mask is only
  paired with masks no larger than itself;
* each match is a hash semi-join: a table of the smaller side's keys, probed by the larger
  side, returning only the rows that matched;
* keys are mixed-radix numbers with one multiplier per key for the whole table, so a
  block's key on a subset of its observed keys is its own key minus the dropped columns.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

from sdc.core.compatible import compatible_sums
from sdc.core.keys import EncodedKeys, combine_codes, first_occurrence

__all__ = ["wildcard_frequencies"]

_MAX_KEY = 1 << 62


class _Block:
    """Patterns sharing one mask: positions, codes, counts c and weight sums W."""

    def __init__(self, mask: int, rows: np.ndarray, codes: np.ndarray, c: np.ndarray, W: np.ndarray,
                 mult: np.ndarray | None):
        self.mask, self.rows, self.codes, self.c, self.W, self.mult = mask, rows, codes, c, W, mult
        # Key on the block's own observed keys (mixed radix), when the radix fits int64.
        self.base = None if mult is None else _radix_key(codes, _cols(mask, codes.shape[1]), mult)

    def __len__(self) -> int:
        return self.rows.size

    def key(self, mask: int) -> np.ndarray | None:
        """Keys on the observed keys in `mask` (a subset of the block's); None without radix."""
        if self.base is None:
            return None
        if mask == self.mask:
            return self.base
        dropped = _cols(self.mask & ~mask, self.codes.shape[1])
        return self.base - _radix_key(self.codes, dropped, self.mult)


def _cols(mask: int, k: int) -> list[int]:
    return [v for v in range(k) if mask >> v & 1]


def _radix_key(codes: np.ndarray, cols: list[int], mult: np.ndarray) -> np.ndarray:
    key = np.zeros(codes.shape[0], dtype=np.int64)
    for v in cols:
        key += codes[:, v].astype(np.int64) * mult[v]
    return key


def wildcard_frequencies(
    enc: EncodedKeys, counts: np.ndarray, wsum: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """f and F for every pattern id of `enc` under the wildcard rule (float64 arrays).

    `counts` and `wsum` are the records and the weight sum of each pattern id.
    """
    occ = np.flatnonzero(counts != 0)
    first = first_occurrence(enc.pattern, enc.n_ids)[occ]
    # Each key's codes per pattern (contiguous columns: the joins read them whole).
    columns = [col[first] for col in enc.codes]
    c = counts[occ].astype(np.float64)
    W = wsum[occ].astype(np.float64)
    K = len(columns)
    full = (1 << K) - 1
    add_f = np.zeros(occ.size)
    add_F = np.zeros(occ.size)
    all_missing = columns[0] < 0
    for col in columns[1:]:
        all_missing &= col < 0

    def add(block: _Block, part: tuple, scale: float) -> None:
        idx, vc, vw = part
        rows = block.rows[idx]
        add_f[rows] += scale * vc
        add_F[rows] += scale * vw

    sums = None if K == 1 else compatible_sums(columns, list(enc.cardinalities), counts[occ], W)
    if K == 1:
        # One key: missing records count (times alpha) towards every observed value.
        add_f[~all_missing] = alpha * c[all_missing].sum()
        add_F[~all_missing] = alpha * W[all_missing].sum()
    elif sums is not None:
        # The compatible patterns' sums, each counted once (see sdc.core.compatible): a partial
        # pattern gets its complete matches fully and its other partial matches times alpha;
        # a complete pattern gets alpha times its partial matches.
        part = sums.partial
        add_f = np.where(part, sums.c_complete + alpha * sums.c_partial, alpha * sums.c_partial)
        add_F = np.where(part, sums.w_complete + alpha * sums.w_partial, alpha * sums.w_partial)
    else:
        cards = enc.cardinalities
        mult = _multipliers(cards)
        # Patterns x keys, in the smallest integer type that holds every key's codes.
        codes = np.column_stack(columns)
        observed = ((codes >= 0) * (1 << np.arange(K, dtype=np.int64))).sum(axis=1)

        def block(m: int, rows: np.ndarray) -> _Block:
            # Column-major codes: keys read whole columns.
            return _Block(m, rows, np.asfortranarray(codes[rows]), c[rows], W[rows], mult)

        by_mask = {int(m): np.flatnonzero(observed == m) for m in np.unique(observed)}
        complete = block(full, by_mask.pop(full, np.empty(0, dtype=np.int64)))
        # Largest partial masks first; the all-missing pattern last (it is never the "a"
        # side: its own f is n, and complete patterns ignore it).
        order = sorted((m for m in by_mask if m != 0), key=lambda m: -by_mask[m].size)
        blocks = {m: block(m, by_mask[m]) for m in order}
        if 0 in by_mask:
            order.append(0)
            blocks[0] = block(0, by_mask[0])
        del codes, columns, by_mask  # every pattern now lives in exactly one block

        for m in order:
            if m == 0:
                continue
            # Complete <-> partial, on the partial pattern's observed keys: complete matches
            # count fully for the partial pattern, partial ones count alpha for complete ones.
            to_c, (to_m,) = _pair_sums(complete, [blocks[m]], m, cards)
            add(complete, to_c, alpha)
            add(blocks[m], to_m, 1.0)

        # Partial <-> partial (and all-missing), each unordered pair of masks once.
        for i, a in enumerate(order):
            if a == 0:
                continue
            A = blocks[a]
            pooled: dict[int, list[_Block]] = defaultdict(list)
            for b in order[i:]:
                pooled[a & b].append(blocks[b])
            for inter, bs in pooled.items():
                to_a, to_b = _pair_sums(A, bs, inter, cards)
                add(A, to_a, alpha)
                # The pair (a, a) is one pair: a's rows already got their share as "a".
                start = 1 if bs[0] is A else 0
                for j, blk in enumerate(bs[start:], start):
                    add(blk, to_b[j], alpha)
            # Each pattern matched itself above; sdcMicro excludes q == p.
            add_f[A.rows] -= alpha * A.c
            add_F[A.rows] -= alpha * A.W

    f_occ = c + add_f
    F_occ = W + add_F
    f_occ[all_missing] = counts.sum()
    F_occ[all_missing] = wsum.sum()
    fk = np.zeros(enc.n_ids)
    Fk = np.zeros(enc.n_ids)
    fk[occ] = f_occ
    Fk[occ] = F_occ
    return fk, Fk


def _multipliers(cards: tuple[int, ...]) -> np.ndarray | None:
    """Mixed-radix multipliers for all keys, or None when their product overflows int64."""
    mult = np.ones(len(cards), dtype=np.int64)
    radix = 1
    for v, card in enumerate(cards):
        mult[v] = radix
        radix *= max(card, 1)
    return mult if radix < _MAX_KEY else None


def _pair_sums(A: _Block, Bs: list[_Block], mask: int, cards: tuple[int, ...]) -> tuple[tuple, list[tuple]]:
    """Matches on the keys of `mask` between block A and the pooled blocks Bs.

    Returns, for A and for each block of Bs, ``(positions, sums of c, sums of W)``: the
    rows that matched something and the sums over the equal rows on the other side.
    A hash semi-join: the smaller side's distinct keys form the table, the larger probes it.
    """
    nb = sum(len(b) for b in Bs)
    if mask == 0:  # no common observed key: everything matches everything
        to_a = (slice(None), np.full(len(A), sum(b.c.sum() for b in Bs)), np.full(len(A), sum(b.W.sum() for b in Bs)))
        return to_a, [(slice(None), np.full(len(b), A.c.sum()), np.full(len(b), A.W.sum())) for b in Bs]
    if len(A) == 0 or nb == 0:
        empty = (np.empty(0, dtype=np.int64), np.empty(0), np.empty(0))
        return empty, [empty for _ in Bs]
    ka, kb = _keys(A, Bs, mask, cards)
    cb = np.concatenate([b.c for b in Bs]) if len(Bs) > 1 else Bs[0].c
    wb = np.concatenate([b.W for b in Bs]) if len(Bs) > 1 else Bs[0].W
    if len(A) >= nb:
        res_a, res_b = _semi_join(ka, A.c, A.W, kb, cb, wb)
    else:
        res_b, res_a = _semi_join(kb, cb, wb, ka, A.c, A.W)
    # Split B's result back into its blocks.
    idx, vc, vw = res_b
    bounds = np.cumsum([0] + [len(b) for b in Bs])
    if isinstance(idx, slice):
        parts = [(slice(None), vc[lo:hi], vw[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
    else:
        cut = np.searchsorted(idx, bounds)
        parts = [(idx[s:e] - lo, vc[s:e], vw[s:e]) for lo, s, e in zip(bounds[:-1], cut[:-1], cut[1:])]
    return res_a, parts


def _keys(A: _Block, Bs: list[_Block], mask: int, cards: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Consistent integer keys on `mask` for A and the concatenation of Bs."""
    ka = A.key(mask)
    if ka is not None:
        kbs = [b.key(mask) for b in Bs]
        return ka, (np.concatenate(kbs) if len(kbs) > 1 else kbs[0])
    # Cardinalities too large for one radix: factorise the union's codes on these keys.
    cols = _cols(mask, len(cards))
    allc = np.concatenate([A.codes[:, cols]] + [b.codes[:, cols] for b in Bs])
    ids, _ = combine_codes([allc[:, i] for i in range(len(cols))], [cards[v] for v in cols], len(allc))
    return ids[: len(A)], ids[len(A):]


def _semi_join(kbig: np.ndarray, cbig: np.ndarray, wbig: np.ndarray,
               ksmall: np.ndarray, csmall: np.ndarray, wsmall: np.ndarray) -> tuple[tuple, tuple]:
    """Sums over equal keys, both ways: (matched big rows, their sums) and (all small rows, sums)."""
    ids, uniq = pd.factorize(ksmall, sort=False)
    pos = pd.Index(uniq).get_indexer(kbig)
    hit = np.flatnonzero(pos >= 0)
    p = pos[hit]
    to_big = (hit, np.bincount(ids, weights=csmall, minlength=uniq.size)[p],
              np.bincount(ids, weights=wsmall, minlength=uniq.size)[p])
    to_small = (slice(None), np.bincount(p, weights=cbig[hit], minlength=uniq.size)[ids],
                np.bincount(p, weights=wbig[hit], minlength=uniq.size)[ids])
    return to_big, to_small
