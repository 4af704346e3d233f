"""Targeted record swapping of households (sdcMicro's ``recordSwap``, >= 5.6; the algorithm of
Shlomo, Tudor and Groom 2010, *Data swapping for protecting census tables*, PSD 2010, LNCS 6344,
and the Eurostat SDC-for-census work of Templ, Meindl and Kowarik, sdcMicro's vignette
``recordSwapping``). Reimplemented from the published description; sdcMicro's C++ was read
for its edge cases only.

Households (records sharing `hid`) are swapped whole: all geographic variables of the
`hierarchy` (and the `carry_along` variables) of two households are exchanged, for every member.

1. Risk of record i at hierarchy level h (levels 0 = the highest): ``r_ih = 1 / N_ih``, N_ih
   the number of records sharing i's `risk_variables` and hierarchy values down to level h
   (or the given `risk` columns, one per level); a household's risk is its members' maximum.
2. Threshold ``t = risk_threshold`` if positive, else ``1 / k_anonymity`` (none when
   ``k_anonymity = 0``). A household must be swapped at the first level h where its risk
   exceeds t.
3. Number of swaps ``S = ceil(H swaprate / 2)`` or ``floor(H swaprate / 2)`` with equal
   probability (H households; each swap moves two). S is shared among the lowest-level
   strata in proportion to their households: ``floor(S H_g / H)`` each, and the
   ``round(sum of the remainders)`` extra swaps go to strata drawn uniformly without replacement.
4. For each level h from the highest: the households that must be swapped at h (lowest
   level: those, plus the stratum's remaining share of S, minus the swaps its households
   already started, drawn with probability proportional to risk, as the largest
   ``r / E``, E ~ Exp(1)) each take a donor household from *another* stratum of level h,
   matching on the variables of the first `similar` profile that has a donor, the donor being
   the free household with the largest ``r_h / E`` (fresh E per household and level). A
   household is swapped once at most; without a donor it stays (and is logged).

The draws use a seeded numpy Generator: the swaps follow sdcMicro's rule and distribution,
never R's exact draws (its std::mt19937 stream is not replayed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import PROBABILITY, Anything, Either, Flag, Name, Names, Real, Rule, Whole
from sdc._validation import check_number
from sdc.core.keys import combine_codes, factorize_column
from sdc.protect._common import check_variables, resolve_seed
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._result import ProtectionResult, changed_cells

__all__ = ["record_swap"]


def _codes(frame: pd.DataFrame, names: Sequence[str], role: str) -> list[np.ndarray]:
    out = []
    for c in names:
        codes, _ = factorize_column(frame[c])
        if (codes < 0).any():
            raise ValueError(f"`record_swap`: {role} column {c!r} has missing values (sdcMicro refuses them too).")
        out.append(codes.astype(np.int64))
    return out


def _group(columns: list[np.ndarray], n: int) -> np.ndarray:
    """Dense group ids 0..G-1 of the combined columns, numbered in sorted order of the codes."""
    if not columns:
        return np.zeros(n, dtype=np.int64)
    ids, _ = combine_codes(columns, [int(c.max()) + 1 for c in columns], n, [False] * len(columns))
    return np.unique(ids, return_inverse=True)[1].astype(np.int64)


def _household_risk(starts: np.ndarray, hh_of_row: np.ndarray, geo: list[np.ndarray], risk: np.ndarray | None,
                    rv: list[np.ndarray]) -> np.ndarray:
    """H x L matrix: each household's risk at each hierarchy level (members' maximum); `risk` is
    the given n x L matrix of the hid-sorted records, else the counts of `rv` are used."""
    n, levels = hh_of_row.size, len(geo)
    if risk is not None:
        rec = risk
    else:
        rec = np.empty((n, levels))
        for h in range(levels):
            g = _group(rv + geo[:h + 1], n)
            rec[:, h] = 1.0 / np.bincount(g)[g]
    return np.maximum.reduceat(rec, starts, axis=0)


def _risk_matrix(frame: pd.DataFrame, risk: Any, levels: int) -> tuple[np.ndarray | None, list[str] | None, str | None]:
    """`risk` as (n x L matrix in the frame's row order, its column names when given as names, a
    description when given as a table); a table is a DataFrame/Series aligned on the data's index
    labels, or an array (n x L, or n for one level) in the data's row order (sdcMicro's matrix)."""
    if risk is None:
        return None, None, None
    if isinstance(risk, str) or (isinstance(risk, (list, tuple)) and all(isinstance(c, str) for c in risk)):
        cols = _names(frame, risk, "risk")
        if len(cols) != levels:
            raise ValueError(f"`risk` needs one column per hierarchy level ({levels}); got {len(cols)}.")
        values = frame[cols].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        kind, where = cols, None
    else:
        if isinstance(risk, (pd.DataFrame, pd.Series)):
            table = risk.to_frame() if isinstance(risk, pd.Series) else risk
            if not table.index.is_unique or len(table) != len(frame) or not table.index.isin(frame.index).all():
                raise ValueError(f"`risk`: a risk table must have one row per record, indexed by the data's index "
                                 f"labels ({len(frame)} records); got {len(table)} rows (pass .to_numpy() to match "
                                 "by position).")
            table = table.reindex(frame.index)
            values = table.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        else:
            try:
                values = np.asarray(risk, dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"`risk` must be column names or a table of numbers (records x levels); got "
                                 f"{type(risk).__name__}.") from None
            if values.ndim == 0:
                raise ValueError(f"`risk` must be column names or a table of numbers (records x levels); got "
                                 f"{risk!r}.")
            if values.ndim == 1:
                values = values[:, None]
        if values.ndim != 2 or values.shape != (len(frame), levels):
            raise ValueError(f"`risk`: a risk table must be {len(frame)} records x {levels} hierarchy levels; "
                             f"got {' x '.join(map(str, values.shape))}.")
        kind, where = None, f"table of {values.shape[0]} x {values.shape[1]} risks"
    if np.isnan(values).any() or (values < 0).any():
        raise ValueError("`record_swap`: `risk` must hold non-negative numbers, no missing value.")
    return values, kind, where


def _shares(sizes: np.ndarray, total: int, rng: np.random.Generator) -> np.ndarray:
    """Step 3: swaps per lowest-level stratum."""
    x = sizes / sizes.sum() * total
    draws = np.floor(x).astype(np.int64)
    extra = int(round(float((x - draws).sum())))
    if extra:
        draws[rng.choice(sizes.size, size=extra, replace=False)] += 1
    return draws


class _State:
    """The households' strata, profiles and flags during the swapping (step 4)."""

    def __init__(self, strata: list[np.ndarray], profiles: list[np.ndarray], prob: np.ndarray,
                 level: np.ndarray, rng: np.random.Generator) -> None:
        self.strata, self.profiles, self.prob, self.level, self.rng = strata, profiles, prob, level, rng
        H = prob.shape[0]
        self.used = np.zeros(H, bool)
        self.failed = np.zeros(H, bool)
        self.starter = np.zeros(H, bool)
        self.partner = np.full(H, -1, dtype=np.int64)
        keys = prob / rng.exponential(size=prob.shape)
        # per level and profile: the households of each profile value, in donor order (largest
        # key first), and a start pointer past the used ones
        self.queues: list[list[dict[int, np.ndarray]]] = []
        self.starts: list[list[dict[int, int]]] = []
        for h in range(prob.shape[1]):
            order = np.argsort(-keys[:, h], kind="stable")
            per: list[dict[int, np.ndarray]] = []
            for prof in profiles:
                po = prof[order]
                by = np.argsort(po, kind="stable")
                cut = np.flatnonzero(np.r_[True, po[by][1:] != po[by][:-1]])
                vals = po[by][cut].tolist()
                per.append(dict(zip(vals, np.split(order[by], cut[1:]))))
            self.queues.append(per)
            self.starts.append([dict.fromkeys(q, 0) for q in per])

    def _first_free(self, h: int, p: int, value: int, st: np.ndarray, s: int) -> int:
        """The first household of the queue (level h, profile p, its value) neither used nor
        of stratum s; -1 when none."""
        q = self.queues[h][p][value]
        k = self.starts[h][p][value]
        while k < q.size and self.used[q[k]]:
            k += 1
        self.starts[h][p][value] = k
        step = 64
        while k < q.size:
            seg = q[k:k + step]
            ok = np.flatnonzero(~self.used[seg] & (st[seg] != s))
            if ok.size:
                return int(seg[ok[0]])
            k += step
            step *= 2
        return -1

    def donors(self, h: int, swap: np.ndarray, st: np.ndarray, s: int) -> None:
        """Step 4's donor search for the households `swap` of stratum `s` (`st`: the strata of
        the level; its households cannot be donors -- sdcMicro blocks only those free when the level
        began, so a household left without a donor at a higher level could be a donor inside its
        own stratum, a swap that moves nothing: see docs/sdcmicro-differences.md)."""
        for i in swap.tolist():
            found = -1
            for p, prof in enumerate(self.profiles):
                found = self._first_free(h, p, int(prof[i]), st, s)
                if found >= 0:
                    break
            if found < 0:
                self.failed[i] = True
                continue
            self.used[[i, found]] = True
            self.starter[i] = True
            self.partner[i], self.partner[found] = found, i

    def run(self, draws: np.ndarray) -> None:
        L = len(self.strata)
        for h in range(L):
            st = self.strata[h]
            avail = ~self.used & ~self.failed
            started = np.bincount(st[self.starter], minlength=int(st.max()) + 1) if h == L - 1 else None
            idx = np.flatnonzero(avail)
            idx = idx[np.argsort(st[idx], kind="stable")]
            cut = np.flatnonzero(np.r_[True, st[idx][1:] != st[idx][:-1]]) if idx.size else idx
            for members in np.split(idx, cut[1:]) if idx.size else []:
                s = int(st[members[0]])
                free = members[~self.used[members]]
                must = free[self.level[free] == h]
                if h == L - 1:
                    rest = max(0, int(draws[s]) - int(started[s]))
                    others = free[self.level[free] != h]
                    n = max(0, min(others.size, rest - must.size))
                    if n:
                        key = self.prob[others, h] / self.rng.exponential(size=others.size)
                        must = np.concatenate([must, others[np.argsort(-key, kind="stable")[:n]]])
                if must.size:
                    self.donors(h, must, st, s)


def _swap_plan(sorted_frame: pd.DataFrame, starts: np.ndarray, hh_of_row: np.ndarray, geo_names: list[str],
               profiles: list[list[str]], risk: np.ndarray | None, rvars: list[str], t: float, swaprate: float,
               rng: np.random.Generator) -> tuple[_State, int]:
    """Steps 1-4 on the hid-sorted records (`risk`: their n x L risks, or None for the counts of
    `rvars`): the swapping state (partners) and S."""
    H = starts.size
    geo = _codes(sorted_frame, geo_names, "hierarchy")
    rv = _codes(sorted_frame, rvars, "risk_variables") if risk is None else []
    prob = _household_risk(starts, hh_of_row, geo, risk, rv)
    over = prob > t
    level = np.where(over.any(axis=1), over.argmax(axis=1), len(geo_names))
    strata = [_group([g[starts] for g in geo[:h + 1]], H) for h in range(len(geo))]
    profs = [_group([c[starts] for c in _codes(sorted_frame, p, "similar")], H) for p in profiles]
    total = math.ceil(H * swaprate / 2) if rng.integers(2) == 0 else math.floor(H * swaprate / 2)
    state = _State(strata, profs, prob, level, rng)
    state.run(_shares(np.bincount(strata[-1]), total, rng))
    return state, total


def _swap_households(frame: pd.DataFrame, order: np.ndarray, starts: np.ndarray, hh_of_row: np.ndarray,
                     partner: np.ndarray, columns: list[str]) -> pd.DataFrame:
    """The released frame: each swapped household's members take its partner's first-record
    values of `columns`."""
    out = frame.copy()
    rows = np.flatnonzero(partner[hh_of_row] >= 0)  # positions in the hid-sorted order
    target = order[rows]
    source = order[starts[partner[hh_of_row[rows]]]]
    for c in columns:
        col = out[c].copy()
        vals = frame[c].to_numpy()
        col.iloc[target] = vals[source]
        out[c] = col
    return out


def _r_record_swap(run: StepRun) -> RStep:
    p = run.parameters
    sim = p["similar"]
    sim = [[sim]] if isinstance(sim, str) else [list(sim)] if all(isinstance(c, str) for c in sim) else sim
    args = [f"hid = {r_value(p['hid'])}", f"hierarchy = {r_names(run.variables)}",
            "similar = list(" + ", ".join(r_names(s) for s in sim) + ")", f"swaprate = {r_value(p.get('swaprate', 0.05))}",
            f"risk_threshold = {r_value(p.get('risk_threshold', 0))}", f"k_anonymity = {r_value(p.get('k_anonymity', 3))}",
            f"risk_variables = {r_value(p.get('risk_variables'))}",
            "risk = risk_table" if p.get("risk_table") else f"risk = {r_value(p.get('risk'))}",
            f"carry_along = {r_value(p.get('carry_along'))}",
            f"return_swapped_id = {r_value(p.get('return_swapped_id', False))}", f"seed = {r_seed(run.seed or 1) or 1}"]
    cols = list(dict.fromkeys([p["hid"], *run.variables, *(c for s in sim for c in s), *(p.get("risk_variables") or []),
                               *(p.get("carry_along") or [])]))
    table = (f"# risk_table: the {p['risk_table']} given to sdc (records x levels, data's row order); "
             "define it before this step",) if p.get("risk_table") else ()
    code = (*table, f"text <- vapply(data[{r_names(cols)}], is.character, TRUE)",
            f"data[{r_names(cols)}][text] <- lapply(data[{r_names(cols)}][text], factor)  # recordSwap takes integers, factors",
            "out <- as.data.frame(sdcMicro::recordSwap(data, " + ", ".join(args) + "))",
            "out[] <- lapply(out, function(x) if (is.factor(x)) as.character(x) else x)", "out")
    return RStep(code, False, "sdcMicro's recordSwap, random: its C++ generator's draws, not sdc's")


def _check_similar(similar: Any, columns: pd.Index) -> list[list[str]]:
    profiles = [[similar]] if isinstance(similar, str) else list(similar)
    if profiles and all(isinstance(s, str) for s in profiles):
        profiles = [profiles]
    if not profiles or not all(isinstance(p, (list, tuple)) and p and all(isinstance(c, str) for c in p)
                               for p in profiles):
        raise TypeError("`similar` must be column names, or a list of profiles (lists of column names).")
    for c in (c for p in profiles for c in p):
        if c not in columns:
            raise KeyError(f"`similar`: column {c!r} is not in the data.")
    return [list(p) for p in profiles]


def _names(frame: pd.DataFrame, value: Any, role: str) -> list[str]:
    if value is None:
        return []
    return list(check_variables(frame, value, role=role)[1])


def _households(frame: pd.DataFrame, hid_col: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the order sorting the records by household id, each sorted record's household 0..H-1,
    the first sorted position of each household)."""
    hcode, _ = factorize_column(frame[hid_col])
    if (hcode < 0).any():
        raise ValueError(f"`record_swap`: the household id {hid_col!r} has missing values.")
    hsorted = np.unique(frame[hid_col].to_numpy(), return_inverse=True)[1] if len(frame) else hcode
    order = np.argsort(hsorted, kind="stable")
    hh_of_row = hsorted[order].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, hh_of_row[1:] != hh_of_row[:-1]]) if len(frame) else np.zeros(0, np.int64)
    return order, hh_of_row, starts


@dataclass(frozen=True)
class _RiskTable(Rule):
    """A table of per-record risks (a DataFrame, Series or numeric array); its shape and values
    are checked by :func:`_risk_matrix`, against the data."""

    what: str = "a table of risks (records x hierarchy levels)"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        if isinstance(value, (pd.DataFrame, pd.Series, np.ndarray)):
            return None
        return TypeError, f"must be {self.what}"


@protection_method(
    "record_swap", sdcmicro=_r_record_swap, tables_of=("hierarchy", "risk_variables"),
    summary="geography of whole households swapped with similar households of other areas, risky ones first "
            "(targeted record swapping)",
    why="it draws and swaps households over the whole file",
    example={"hierarchy": ["region"], "hid": "household_id", "similar": ["sex"],
             "risk_variables": ["sex", "relation"], "swaprate": 0.1},
    options={"hid": param(Name(), "the household identifier"),
             "similar": param(Anything(), "the variables a donor household must share (or a list of profiles)"),
             "swaprate": param(PROBABILITY, "the share of households to swap"),
             "risk": param(Either((Names(), _RiskTable())),
                           "or per-level risk columns (one per hierarchy level), or a table of risks"),
             "risk_threshold": param(Real(0.0), "households with a risk above it must be swapped (0: 1/k)"),
             "k_anonymity": param(Whole(min=0), "counts below it must be swapped (0: none)"),
             "risk_variables": param(Names(), "the variables the risk counts are made of"),
             "carry_along": param(Names(), "further variables swapped with the geography"),
             "return_swapped_id": param(Flag(), "add `<hid>_swapped`, the household id the geography came from")})
def record_swap(
    data: pd.DataFrame,
    hierarchy: Sequence[str] | str,
    *,
    hid: str,
    similar: Sequence[str] | Sequence[Sequence[str]] | str,
    swaprate: float = 0.05,
    risk: Sequence[str] | None = None,
    risk_threshold: float = 0.0,
    k_anonymity: int = 3,
    risk_variables: Sequence[str] | None = None,
    carry_along: Sequence[str] | None = None,
    return_swapped_id: bool = False,
    seed: int | None = None,
) -> ProtectionResult:
    """Targeted record swapping of households (sdcMicro's ``recordSwap``): see the module docstring.

    Parameters
    ----------
    data : pandas.DataFrame
    hierarchy : str or list of str
        The geographic levels, highest first (sdcMicro's ``hierarchy``); swapped.
    hid : str
        The household identifier (``hid``).
    similar : list of str, or list of lists of str
        A donor must share these values (``similar``; several profiles are tried in turn).
    swaprate : float, default 0.05
        Share of households swapped (``swaprate``).
    risk : list of str, or a table, optional
        Per-record risks at each hierarchy level instead of the counts (sdcMicro's ``risk``):
        column names of `data`, one per level (highest first); or a table of the risks, one
        column per level -- a DataFrame (or Series, one level) indexed by `data`'s index labels,
        or an array of shape (records, levels) (or (records,) for one level) in `data`'s row
        order, as sdcMicro's matrix. Non-negative; a household takes its members' maximum. A
        table is recorded in ``parameters["risk_table"]`` by its shape only.
    risk_threshold : float, default 0
        ``risk_threshold``; 0 means ``1 / k_anonymity``.
    k_anonymity : int, default 3
        ``k_anonymity``.
    risk_variables : list of str, optional
        ``risk_variables`` (required without `risk`).
    carry_along : list of str, optional
        ``carry_along``: swapped with the hierarchy.
    return_swapped_id : bool, default False
        ``return_swapped_id``: a column ``<hid>_swapped``.
    seed : int, optional
        Seed of the numpy Generator (drawn and recorded when None).

    Returns
    -------
    ProtectionResult
        ``details``: ``households``, ``swapped_households``, ``swaps_planned`` (S), ``no_donor``
        (the household ids without a donor), ``swapped_records``; ``parameters`` also hold the
        ``seed`` and ``swapped_households``.
    """
    frame, geo_t = check_variables(data, hierarchy, role="hierarchy")
    geo_names = list(geo_t)
    hid_col = _names(frame, [hid], "hid")[0]
    profiles = _check_similar(similar, frame.columns)
    swaprate = check_number(swaprate, "swaprate", low=0.0, high=1.0)
    risk_threshold = check_number(risk_threshold, "risk_threshold", low=0.0, high=math.inf, high_open=True)
    risk_values, risk_cols, risk_table = _risk_matrix(frame, risk, len(geo_names))
    rvars = _names(frame, risk_variables, "risk_variables")
    if risk_values is None and not rvars:
        raise ValueError("`record_swap` needs `risk_variables` (or `risk`) for the k-anonymity rule.")
    carry = [c for c in _names(frame, carry_along, "carry_along") if c not in geo_names]
    seed_used, rng = resolve_seed(seed)

    order, hh_of_row, starts = _households(frame, hid_col)
    sorted_frame = frame.iloc[order]
    H = starts.size
    out_cols = geo_names + carry
    out = frame.copy()
    if return_swapped_id:
        out[f"{hid_col}_swapped"] = frame[hid_col]
        out_cols = out_cols + [f"{hid_col}_swapped"]
    details: dict[str, Any] = {"households": int(H), "swaps_planned": 0, "swapped_households": 0,
                               "swapped_records": 0, "no_donor": []}
    if H:
        t = risk_threshold if risk_threshold > 0 else (1.0 / k_anonymity if k_anonymity else 2.0)
        state, total = _swap_plan(sorted_frame, starts, hh_of_row, geo_names, profiles,
                                  None if risk_values is None else risk_values[order], rvars, t, swaprate, rng)
        out = _swap_households(out, order, starts, hh_of_row, state.partner, out_cols)
        ids = sorted_frame[hid_col].to_numpy()[starts]
        details.update(swaps_planned=int(total), swapped_households=int((state.partner >= 0).sum()),
                       swapped_records=int((state.partner[hh_of_row] >= 0).sum()),
                       no_donor=ids[state.failed].tolist())
    params: dict[str, Any] = {"hierarchy": list(geo_names), "hid": hid_col, "similar": profiles, "swaprate": swaprate,
                              "risk": risk_cols, "risk_table": risk_table, "risk_threshold": risk_threshold,
                              "k_anonymity": int(k_anonymity),
                              "risk_variables": rvars or None, "carry_along": carry or None,
                              "return_swapped_id": bool(return_swapped_id)}
    # the brief of issue 29: the seed and the number of swapped households in the parameters too
    params.update(seed=seed_used, swapped_households=details["swapped_households"])
    changed = changed_cells(frame, out, geo_names + carry)
    return ProtectionResult(method="record_swap", data=out, variables=tuple(geo_names), parameters=params,
                            seed=seed_used, changed=changed, details=details)
