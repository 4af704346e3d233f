"""k and l together by local suppression (:func:`sdc.local_suppression` with ``l``, cell mode).

The release must hold under two readings of a suppressed cell:

* **conservative** (ARX's): a suppressed cell is a value of its own, so an equivalence class
  is a set of records with the same pattern of key values *and* of suppressions (within a
  stratum). Every class must have at least k records and be l-diverse in every sensitive
  variable (distinct, entropy or recursive (c, l), as :func:`sdc.l_diversity` measures it;
  a class without any observed sensitive value has no l and is not counted as violating).
* **wildcard** (sdcMicro's, ``alpha``): a suppressed cell may stand for any value. A
  record's wildcard frequency f_k counts its own class in full (and more), so a class of k
  records has f_k >= k; the records compatible with a record include its class, so a class
  with l distinct values gives at least l distinct values under the wildcard too.

The conservative reading is therefore the one enforced; the wildcard one follows (for k and
for distinct l; entropy and recursive l are read on the classes, as :func:`sdc.l_diversity`
reads them).

The algorithm works on the classes of the input, never on single records (every record of a
class gets the same suppressions; nothing loops over records):

1. The classes that meet k and l stay as they are ("settled"); the others are "failing".
2. Level s = 1, 2, ..., K: for every set S of s keys, each failing class is projected (its
   keys in S suppressed); the failing classes with the same projection, together with the
   settled classes already on that pattern, form a candidate class. A candidate that meets k
   and l *rescues* its failing classes.
3. Within a level the sets are applied greedily by their **score**: the most records
   rescued first; ties to the set with the fewest new suppressed cells, then to the set of
   least important keys (the largest sum of ``importance`` numbers; 1 = most important),
   then to the earlier set in key order. The rescued classes move to their projection and
   become settled; the level is repeated until no set rescues anything, then the next level.
4. Failing classes that no set rescues (at level K their candidate is the stratum's
   all-suppressed class and it still fails) are dropped whole: those are the only records
   removed, always a subset of the classes naive class dropping removes (so never more
   records and never more cells than dropping them).
5. Pruning: each moved class tries to take back one suppressed key at a time (most important
   keys first) where its class on the less-suppressed pattern, and the class it leaves, both
   still meet k and l.

Each step is vectorised over the classes (one grouping of the failing classes' projections
per key set), so the cost grows with the number of classes and 2^K, not with the records.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from sdc.attribute.ldiversity import _recursive, entropy_below
from sdc.core.patterns import pattern_table

__all__ = ["DiversityRule", "diverse_suppression", "L_VARIANTS"]

L_VARIANTS = ("distinct", "entropy", "recursive")


@dataclass(frozen=True)
class DiversityRule:
    """What a class must meet: k records and l of `variant` in every sensitive variable."""

    k: int
    l: int
    variant: str = "distinct"
    c: float = 2.0


@dataclass
class _Classes:
    """The input's classes (records with the same stratum and key codes).

    ``rows``: (C, 1 + K) stratum then key codes of each class's current pattern; ``count``:
    records per class; ``cells``: per sensitive variable (class, value, count) of the observed
    values."""

    rows: np.ndarray
    count: np.ndarray
    cells: list[tuple[np.ndarray, np.ndarray, np.ndarray]]


def _classes(codes: np.ndarray, strata: np.ndarray, sens: list[np.ndarray]) -> tuple[_Classes, np.ndarray]:
    """The classes and each record's class id."""
    full = np.column_stack([strata.astype(np.int32), codes]).astype(np.int32)
    ids, rows, counts = pattern_table(np.ascontiguousarray(full))
    cells = []
    for s in sens:
        obs = s >= 0
        pair_ids, pairs, pc = pattern_table(np.ascontiguousarray(np.column_stack([ids[obs], s[obs]]).astype(np.int64)))
        cells.append((pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64), pc.astype(np.int64)))
    return _Classes(np.array(rows, dtype=np.int32), counts.astype(np.int64), cells), ids


def _value_counts(g: np.ndarray, val: np.ndarray, cnt: np.ndarray, G: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (group, value) pairs of cells and their summed counts: (pair group, pair count)."""
    V = int(val.max()) + 1
    key = g.astype(np.int64) * V + val
    if G * V <= 4 * key.size + 1_000_000:
        dense = np.bincount(key, weights=cnt, minlength=G * V)
        nz = np.flatnonzero(dense)
        return nz // V, dense[nz]
    packed, inv = np.unique(key, return_inverse=True)
    return packed // V, np.bincount(inv, weights=cnt)


def _l_values(group: np.ndarray, G: int, cl: _Classes, rule: DiversityRule) -> tuple[np.ndarray, np.ndarray]:
    """Per group 0..G-1 of classes (``group[c]``: the group of class c, -1 = not in any), its
    records and its l in each sensitive variable (distinct values, exp(H) or the recursive
    (c, l) value; infinite for a group without any observed value: it has no l to fail)."""
    inside = group >= 0
    size = np.bincount(group[inside], weights=cl.count[inside], minlength=G)
    lv = np.full((len(cl.cells), G), np.inf)
    for i, (cls, val, cnt) in enumerate(cl.cells):
        g = group[cls]
        m = g >= 0
        if not m.any():
            continue
        pg, pc = _value_counts(g[m], val[m], cnt[m], G)
        distinct = np.bincount(pg, minlength=G).astype(float)
        if rule.variant == "distinct":
            v = distinct
        elif rule.variant == "entropy":
            n_obs = np.bincount(pg, weights=pc, minlength=G)
            flnf = np.bincount(pg, weights=pc * np.log(pc), minlength=G)
            with np.errstate(divide="ignore", invalid="ignore"):
                h = np.where(n_obs > 0, np.log(np.where(n_obs > 0, n_obs, 1)) - flnf / np.where(n_obs > 0, n_obs, 1), 0)
            v = np.exp(h)
        else:
            v = np.nan_to_num(_recursive(pg, pc.astype(np.int64), G, rule.c, np.float64), nan=0.0)
        lv[i] = np.where(distinct > 0, v, np.inf)
    return size, lv


def _meets(group: np.ndarray, G: int, cl: _Classes, rule: DiversityRule) -> np.ndarray:
    """Per group 0..G-1 of classes, whether the union of its classes meets k and l."""
    size, lv = _l_values(group, G, cl, rule)
    ok = size >= rule.k
    for v in lv:
        ok &= ~entropy_below(v, rule.l) if rule.variant == "entropy" else v >= rule.l
    return ok


def _shortfall(group: np.ndarray, cl: _Classes, rule: DiversityRule) -> float:
    """How far group 0 is from k and l (0: it meets them)."""
    size, lv = _l_values(group, 1, cl, rule)
    short = max(0.0, rule.k - float(size[0])) / rule.k
    for v in lv[:, 0]:
        if not (rule.variant == "entropy" and not entropy_below(v, rule.l)):
            short += max(0.0, rule.l - float(v))
    return short


def _groups(rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Group ids of the rows of a code matrix (equal rows, one group)."""
    if rows.shape[0] == 0:
        return np.empty(0, dtype=np.int64), 0
    ids, distinct, _ = pattern_table(np.ascontiguousarray(rows))
    return ids.astype(np.int64), int(distinct.shape[0])


def _candidate(cl: _Classes, failing: np.ndarray, cols: tuple[int, ...], rule: DiversityRule
               ) -> tuple[np.ndarray, np.ndarray]:
    """Failing classes rescued by suppressing the keys `cols` (indices into the rows, 1 + key),
    and their projected rows."""
    fi = np.flatnonzero(failing)
    proj = cl.rows[fi].copy()
    proj[:, list(cols)] = -1
    # Settled classes already on such a pattern: suppressed (or missing) in every key of cols.
    si = np.flatnonzero(~failing & (cl.rows[:, list(cols)] < 0).all(axis=1))
    gid, G = _groups(np.concatenate([proj, cl.rows[si]]))
    group = np.full(cl.rows.shape[0], -1, dtype=np.int64)
    group[fi] = gid[: fi.size]
    group[si] = gid[fi.size:]
    ok = _meets(group, G, cl, rule)
    # Only groups holding a failing class change anything.
    rescued = ok[gid[: fi.size]]
    return fi[rescued], proj[rescued]


def _sets(K: int, s: int, importance: np.ndarray) -> list[tuple[int, ...]]:
    """Key sets of size s, least important first (largest importance sum), then key order."""
    sets = list(itertools.combinations(range(K), s))
    return sorted(sets, key=lambda S: -int(importance[list(S)].sum()))


def _score(cl: _Classes, failing: np.ndarray, S: tuple[int, ...], rule: DiversityRule
           ) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
    """The score of suppressing the key set S (records rescued, minus new cells) and its moves."""
    cols = [j + 1 for j in S]
    idx, proj = _candidate(cl, failing, tuple(cols), rule)
    recs = int(cl.count[idx].sum())
    cells = int((cl.count[idx, None] * (cl.rows[idx][:, cols] >= 0)).sum())
    return (recs, -cells), idx, proj


def _level(cl: _Classes, failing: np.ndarray, s: int, importance: np.ndarray, rule: DiversityRule) -> None:
    """Apply the key sets of size s greedily by their score (the module's step 3), in place.

    Lazily: a set's last score bounds its next (fewer failing classes rescue no more), so the
    set with the best bound is scored afresh and applied when it still beats every other
    bound; ties keep the order of :func:`_sets`."""
    sets = _sets(cl.rows.shape[1] - 1, s, importance)
    bound = {S: (np.inf, 0) for S in sets}
    while failing.any():
        order = sorted(sets, key=lambda S: bound[S], reverse=True)  # stable: ties keep _sets' order
        best = None
        for pos, S in enumerate(order):
            if bound[S][0] <= 0:
                break
            sc, idx, proj = _score(cl, failing, S, rule)
            bound[S] = sc
            if best is None or sc > best[0]:
                best = (sc, idx, proj)
            nxt = bound[order[pos + 1]] if pos + 1 < len(order) else (0, 0)
            if best[0][0] > 0 and best[0] >= nxt:
                break
        if best is None or best[0][0] == 0:
            return
        _, idx, proj = best
        cl.rows[idx] = proj
        failing[idx] = False


def _prune_key(cl: _Classes, orig: np.ndarray, failing: np.ndarray, col: int, rule: DiversityRule) -> int:
    """One pruning step on one key (column `col` of the rows); the number of classes put back."""
    mv = np.flatnonzero(~failing & (cl.rows[:, col] < 0) & (orig[:, col] >= 0))
    if mv.size == 0:
        return 0
    back = cl.rows[mv].copy()
    back[:, col] = orig[mv, col]
    live = np.flatnonzero(~failing)
    gid, G = _groups(np.concatenate([cl.rows[live], back]))
    src, tgt = gid[np.searchsorted(live, mv)], gid[live.size:]
    # One class per target and per source group, neither both, so each check below is exact.
    one = np.zeros(mv.size, dtype=bool)
    one[np.unique(tgt, return_index=True)[1]] = True
    one_src = np.zeros(mv.size, dtype=bool)
    one_src[np.unique(src, return_index=True)[1]] = True
    cand = one & one_src & ~np.isin(src, tgt) & ~np.isin(tgt, src)
    group = np.full(cl.rows.shape[0], -1, dtype=np.int64)
    group[live] = gid[: live.size]
    group[mv[cand]] = tgt[cand]
    ok = _meets(group, G, cl, rule)
    emptied = np.bincount(group[group >= 0], minlength=G) == 0
    good = cand & ok[tgt] & (ok[src] | emptied[src])
    cl.rows[mv[good]] = back[good]
    return int(good.sum())


def _prune(cl: _Classes, orig: np.ndarray, failing: np.ndarray, importance: np.ndarray, rule: DiversityRule) -> None:
    """Put back suppressed keys of moved classes where both classes concerned still meet k and
    l (the module's step 5): key by key, most important first, until nothing comes back."""
    order = [int(j) + 1 for j in np.argsort(importance, kind="stable")]
    while sum(_prune_key(cl, orig, failing, col, rule) for col in order):
        pass


def _residue(cl: _Classes, failing: np.ndarray, rule: DiversityRule, slack: int, tries: int = 500) -> None:
    """The module's step 4, per stratum: the failing classes left after level K go to the
    all-suppressed pattern, joined by the fewest settled cells needed there: whole settled
    groups (a pattern's classes), cheapest first (records x observed keys), each kept only if
    it brings the union closer to k and l. Nothing moves when that does not reach them, or
    when the release would then remove more cells than naive class dropping (`slack`: the
    cells still to spare, a dropped record counting K)."""
    C = cl.rows.shape[0]
    for stratum in np.unique(cl.rows[failing, 0]):
        res = np.flatnonzero(failing & (cl.rows[:, 0] == stratum))
        other = np.flatnonzero(~failing & (cl.rows[:, 0] == stratum))
        group = np.full(C, -1, dtype=np.int64)
        group[res] = 0
        gid, G = _groups(cl.rows[other])
        nobs = np.zeros(G, dtype=np.int64)
        nobs[gid] = (cl.rows[other][:, 1:] >= 0).sum(axis=1)
        group[other[nobs[gid] == 0]] = 0               # already all suppressed: joins for free
        cost = np.bincount(gid, weights=cl.count[other], minlength=G) * nobs
        members = np.split(other[np.argsort(gid, kind="stable")], np.cumsum(np.bincount(gid, minlength=G))[:-1])
        short = _shortfall(group, cl, rule)
        for g in [int(g) for g in np.argsort(cost, kind="stable") if nobs[g] > 0][:tries]:
            if short == 0:
                break
            group[members[g]] = 0
            new = _shortfall(group, cl, rule)
            if new < short:
                short = new
            else:
                group[members[g]] = -1
        moved = np.flatnonzero(group == 0)
        extra = int((cl.count[moved] * (cl.rows[moved, 1:] >= 0).sum(axis=1)).sum()) \
            - (cl.rows.shape[1] - 1) * int(cl.count[res].sum())
        if short == 0 and extra <= slack:
            cl.rows[moved, 1:] = -1
            failing[res] = False
            slack -= extra


def diverse_suppression(codes: np.ndarray, strata: np.ndarray, sens: list[np.ndarray], importance: np.ndarray,
                        rule: DiversityRule) -> tuple[np.ndarray, np.ndarray]:
    """The code matrix after suppression and the records kept (see the module docstring).

    `codes`: (n, K) key codes (-1 = missing); `strata`: (n,) stratum ids; `sens`: one (n,)
    code array per sensitive variable (-1 = missing); `importance`: per key, 1 = most
    important."""
    n, K = codes.shape
    if n == 0:
        return codes.copy(), np.ones(0, dtype=bool)
    cl, rec = _classes(codes, strata, sens)
    orig = cl.rows.copy()
    C = cl.rows.shape[0]
    failing = ~_meets(np.arange(C, dtype=np.int64), C, cl, rule)
    failing0 = failing.copy()
    for s in range(1, K + 1):
        if not failing.any():
            break
        _level(cl, failing, s, np.asarray(importance), rule)
    if failing.any():
        spent = int((cl.count[:, None] * ((cl.rows[:, 1:] < 0) & (orig[:, 1:] >= 0))).sum())
        _residue(cl, failing, rule, K * int(cl.count[failing0].sum()) - spent - K * int(cl.count[failing].sum()))
    _prune(cl, orig, failing, np.asarray(importance), rule)
    out = cl.rows[rec][:, 1:].astype(np.int32)
    kept = ~failing[rec]
    out[~kept] = codes[~kept]
    return np.ascontiguousarray(out), kept


def l_ok_per_record(codes: np.ndarray, sens: list[np.ndarray], rule: DiversityRule) -> np.ndarray:
    """Per record, whether its class (equal codes, a missing code a value of its own) is
    l-diverse in every sensitive variable under `rule` (its k is not read)."""
    if codes.shape[0] == 0:
        return np.ones(0, dtype=bool)
    cl, rec = _classes(codes, np.zeros(codes.shape[0], dtype=np.int32), sens)
    C = cl.rows.shape[0]
    return _meets(np.arange(C, dtype=np.int64), C, cl, DiversityRule(0, rule.l, rule.variant, rule.c))[rec]
