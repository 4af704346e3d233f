"""Matching the records of two files on shared key variables: the join behind record linkage.

A linkage attack asks, for every record of one file (the attacker's *external* file), which
records of another (the *released* file) agree with it on the shared quasi-identifiers. Both
files are encoded *together*, column by column, so that a code means the same value on both
sides (:func:`encode_joint`); the match sets are then counted with one ``bincount`` per
missing-value pattern, never with a loop over records (:func:`match_counts`).

Missing key values follow one of two rules (a :class:`~sdc.core.missing.MissingRule`'s kind;
its alpha weighs counts, not matches, and plays no part here):

``missing="wildcard"`` (default)
    A missing value can stand for any value: a suppressed value in the released file could
    hide anything, and a value the attacker does not know constrains nothing. Two records
    match when they agree on every key observed in *both*. (This is the symmetric wildcard;
    sdcMicro's ``freqCalc`` counts within one file with an asymmetric variant, see
    :mod:`sdc.core.frequencies`.)
``missing="category"``
    A missing value is a value of its own, equal only to another missing value.

Equality is exact equality of values (strings as strings, ``1`` and ``"1"`` differ; ``1``
and ``1.0`` are equal numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc.core.keys import combine_codes, factorize_column, first_occurrence
from sdc.core.missing import MISSING_RULES, MissingRule

__all__ = ["JointKeys", "encode_joint", "MatchCounts", "match_counts", "records_agree", "MATCH_MISSING_RULES"]

#: The rules of matching: the missing-value rules.
MATCH_MISSING_RULES = MISSING_RULES


@dataclass(frozen=True, slots=True, kw_only=True)
class JointKeys:
    """Key columns of two files encoded to one shared set of integer codes per column.

    ``left_codes[j]`` and ``right_codes[j]`` are the codes of key ``keys[j]`` in the left and
    the right file (-1 for a missing value); equal codes mean equal values across files.
    """

    keys: tuple[str, ...]
    left_codes: tuple[np.ndarray, ...] = field(repr=False)
    right_codes: tuple[np.ndarray, ...] = field(repr=False)
    cardinalities: tuple[int, ...]

    @property
    def n_left(self) -> int:
        return int(self.left_codes[0].shape[0]) if self.left_codes else 0

    @property
    def n_right(self) -> int:
        return int(self.right_codes[0].shape[0]) if self.right_codes else 0

    def disjoint_keys(self) -> tuple[str, ...]:
        """Keys whose observed values in the two files have none in common (each file having
        some): coded differently on the two sides (one recoded into bands, say), so records
        can agree there only where a value is missing."""
        out = []
        for k, lc, rc, card in zip(self.keys, self.left_codes, self.right_codes, self.cardinalities):
            seen_l = np.bincount(lc[lc >= 0], minlength=card) > 0
            seen_r = np.bincount(rc[rc >= 0], minlength=card) > 0
            if seen_l.any() and seen_r.any() and not (seen_l & seen_r).any():
                out.append(k)
        return tuple(out)

    def patterns(self, positions: tuple[int, ...] | None = None) -> tuple[np.ndarray, np.ndarray, int]:
        """Pattern ids of the left and right records over the keys at `positions` (all by
        default), missing treated as a value; ids are shared by both files."""
        pos = tuple(range(len(self.keys))) if positions is None else positions
        cols = [np.concatenate([self.left_codes[j], self.right_codes[j]]) for j in pos]
        ids, n_ids = combine_codes(cols, [self.cardinalities[j] for j in pos], self.n_left + self.n_right)
        return ids[: self.n_left], ids[self.n_left:], n_ids


def encode_joint(left: pd.DataFrame, right: pd.DataFrame, keys: tuple[str, ...]) -> JointKeys:
    """Encode `keys` of both files with shared codes (the frames are only read).

    Each column is factorised once over both files stacked, so a value gets one code
    wherever it occurs. Categorical columns with different categories on the two sides are
    compared by value.
    """
    nl = len(left)
    lcodes: list[np.ndarray] = []
    rcodes: list[np.ndarray] = []
    cards: list[int] = []
    for k in keys:
        a, b = left[k], right[k]
        if isinstance(a.dtype, pd.CategoricalDtype) and isinstance(b.dtype, pd.CategoricalDtype) \
                and not a.cat.categories.equals(b.cat.categories):
            a, b = a.astype(object), b.astype(object)
        both = pd.concat([a.reset_index(drop=True), b.reset_index(drop=True)], ignore_index=True)
        codes, card = factorize_column(both)
        lcodes.append(codes[:nl])
        rcodes.append(codes[nl:])
        cards.append(card)
    return JointKeys(keys=tuple(keys), left_codes=tuple(lcodes), right_codes=tuple(rcodes), cardinalities=tuple(cards))


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchCounts:
    """Per left record: how many right records match it, and which one when it is one.

    ``size[i]`` is the number of right records that match left record ``i``; ``single[i]``
    the position of the matching right record when ``size[i] == 1``, else -1.
    """

    size: np.ndarray = field(repr=False)
    single: np.ndarray = field(repr=False)


def _mask_groups(codes: tuple[np.ndarray, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Missing-value pattern of each record as a bit mask (bit j set = key j missing):
    the distinct masks and each record's index into them."""
    k = len(codes)
    if k <= 62:
        bits = np.zeros(n, dtype=np.int64)
        for j, c in enumerate(codes):
            bits |= (c < 0).astype(np.int64) << j
        masks, inverse = np.unique(bits, return_inverse=True)
        return masks, inverse
    mat = np.column_stack([c < 0 for c in codes])
    rows, inverse = np.unique(mat, axis=0, return_inverse=True)
    return rows, inverse.reshape(-1)


def _count_into(size: np.ndarray, single: np.ndarray, left_sel: np.ndarray, right_sel: np.ndarray,
                lids: np.ndarray, rids: np.ndarray, n_ids: int) -> None:
    """Add the matches of the right records `right_sel` (pattern ids `rids`) to the left
    records `left_sel` (pattern ids `lids`)."""
    counts = np.bincount(rids, minlength=n_ids)
    add = counts[lids]
    first = first_occurrence(rids, n_ids)
    one = add == 1
    # A left record whose total is one has exactly one contributing group with one match.
    single[left_sel[one]] = right_sel[first[lids[one]]]
    size[left_sel] += add


def match_counts(joint: JointKeys, rule: MissingRule = MissingRule()) -> MatchCounts:
    """Size of every left record's match set among the right records (a join, no loop over records).

    With the category rule this is one join on the full pattern. With the wildcard rule
    the records are split by their missing-value pattern, and each pair of patterns (left e,
    right m) is joined on the keys observed in both; the number of pairs is the product of the
    numbers of distinct patterns, small in practice.
    """
    nl, nr = joint.n_left, joint.n_right
    size = np.zeros(nl, dtype=np.int64)
    single = np.full(nl, -1, dtype=np.int64)
    if nl == 0 or nr == 0:
        return MatchCounts(size=size, single=single)
    has_missing = any(bool((c < 0).any()) for c in joint.left_codes + joint.right_codes)
    if not rule.wildcard or not has_missing:
        lids, rids, n_ids = joint.patterns()
        _count_into(size, single, np.arange(nl), np.arange(nr), lids, rids, n_ids)
        single[size != 1] = -1
        return MatchCounts(size=size, single=single)
    k = len(joint.keys)
    lmasks, linv = _mask_groups(joint.left_codes, nl)
    rmasks, rinv = _mask_groups(joint.right_codes, nr)
    lmembers = np.argsort(linv, kind="stable")
    lbounds = np.searchsorted(linv[lmembers], np.arange(len(lmasks) + 1))
    rmembers = np.argsort(rinv, kind="stable")
    rbounds = np.searchsorted(rinv[rmembers], np.arange(len(rmasks) + 1))

    def observed(mask: object) -> set[int]:
        if isinstance(mask, np.ndarray):  # boolean row (more than 62 keys)
            return {j for j in range(k) if not mask[j]}
        return {j for j in range(k) if not (int(mask) >> j) & 1}

    for e in range(len(lmasks)):
        lsel = lmembers[lbounds[e]:lbounds[e + 1]]
        obs_e = observed(lmasks[e])
        for m in range(len(rmasks)):
            rsel = rmembers[rbounds[m]:rbounds[m + 1]]
            shared = tuple(sorted(obs_e & observed(rmasks[m])))
            if not shared:  # nothing to compare: every record of the group matches
                size[lsel] += rsel.size
                if rsel.size == 1:
                    single[lsel] = rsel[0]
                continue
            cols = [np.concatenate([joint.left_codes[j][lsel], joint.right_codes[j][rsel]]) for j in shared]
            ids, n_ids = combine_codes(cols, [joint.cardinalities[j] for j in shared], lsel.size + rsel.size)
            _count_into(size, single, lsel, rsel, ids[: lsel.size], ids[lsel.size:], n_ids)
    single[size != 1] = -1
    return MatchCounts(size=size, single=single)


def records_agree(joint: JointKeys, left_pos: np.ndarray, right_pos: np.ndarray, rule: MissingRule = MissingRule()
                  ) -> np.ndarray:
    """Whether left record ``left_pos[i]`` and right record ``right_pos[i]`` match (elementwise)."""
    ok = np.ones(left_pos.shape[0], dtype=bool)
    for lc, rc in zip(joint.left_codes, joint.right_codes):
        a, b = lc[left_pos], rc[right_pos]
        same = a == b
        if rule.wildcard:
            same |= (a < 0) | (b < 0)
        ok &= same
    return ok
