"""Local recoding by minimum-distance pairing (sdcMicro's ``LocalRecProg``, the IHSN C++ code of
Kowarik, Templ et al. 2012): every record is paired with one other record so that the pairs'
total distance is smallest, and each pair is recoded to what its two records share.

Distance between records x and y over the key (categorical) variables K and the numerical ones N,
with weights w (default 1 each)::

    d(x, y) = sum_{j in K} w_j [x_j != y_j] + sum_{j in N} (w_j / R_j) |x_j - y_j|

R_j the range of variable j (a constant variable adds nothing); as sdcMicro, in single
precision, summed in variable order. The pairing is a maximum-cardinality matching of the
complete graph of records of least total distance (sdcMicro: Edmonds' weighted matching on the
weights (n/2) D - d + 1, D the largest distance, which is the same optimum; here records at
distance 0 paired first, then the matching LP with odd-set cuts priced over every pair and, unless its
optimum is integral, an exact integer program (HiGHS, :func:`scipy.optimize.linprog` and
:func:`scipy.optimize.milp`); see :func:`pair_records`). With n odd one record stays unpaired.

Each pair (x, y) is then recoded, variable by variable:

* equal values are kept;
* a key whose values differ takes the first of its ancestors (finest first) on which the two
  agree, else ``missing_value``;
* a numerical variable whose values differ takes min - max (sdcMicro's "range" output, a
  negative number; ``mode="correct"``: the pair's mean).

Applied repeatedly (recoded values as the new categories) the pairs grow into larger classes:
Kowarik et al.'s progressive local recoding.

References
----------
sdcMicro ``LocalRecProg`` (``R/LocalRecProg.R``, ``src/LocalRecProg/``). Kowarik, A., Templ, M.,
Meindl, B., Fonteneau, F. and Prantner, B. (2012). Testing of IHSN C++ code and inclusion of new
methods into sdcMicro. In *Privacy in Statistical Databases*, LNCS 7556, Springer, 63-77.
Edmonds, J. (1965). Paths, trees, and flowers. *Canadian J. Math.* 17, 449-467.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Anything, Choice, Flag, Names, Whole
from sdc.core.keys import factorize_column
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_value
from sdc.protect._result import ProtectionResult, changed_cells

__all__ = ["local_recoding", "pair_records", "record_distances"]

LOCAL_RECODING_MODES = ("sdcmicro", "correct")
#: The most records left to the integer program once records at distance 0 are paired (its size
#: grows as the square: 2000 records are 2 million candidate pairs).
MAX_DISTINCT = 2000


def record_distances(categorical: np.ndarray, numerical: np.ndarray, weights: np.ndarray,
                     missing_value: float | None = None) -> np.ndarray:
    """The n x n float32 distances d(x, y) of the module docstring.

    `categorical` (n, p) holds integer codes (a missing value, -1, is unequal to every value, itself
    included, as sdcMicro's NA); `numerical` (n, q) floats; `weights` the p + q weights. A numerical
    value equal to `missing_value` is missing: against a present value it adds the variable's weight.
    """
    n = categorical.shape[0]
    d = np.zeros((n, n), dtype=np.float32)
    p = categorical.shape[1]
    for j in range(p):
        c = categorical[:, j]
        diff = (c[:, None] != c[None, :]) | (c[:, None] < 0)
        d += np.float32(weights[j]) * diff.astype(np.float32)
    for j in range(numerical.shape[1]):
        v = numerical[:, j]
        miss = v == missing_value if missing_value is not None else np.zeros(n, dtype=bool)
        present = v[~miss]
        span = np.float32(present.max() - present.min()) if present.size else np.float32(0)
        if span == 0:
            continue
        w = np.float32(weights[p + j]) / span
        term = (np.abs(v[:, None] - v[None, :]).astype(np.float32) * w).astype(np.float32)
        one = miss[:, None] ^ miss[None, :]
        d += np.where(one, np.float32(weights[p + j]), term).astype(np.float32)
    np.fill_diagonal(d, 0)
    return d


def pair_records(distances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j), i < j, of a maximum-cardinality matching of least total distance (floor(n/2)
    pairs).

    Records at distance 0 of each other are paired first (for a pseudometric this keeps an optimum:
    i, j at distance 0 paired with a, b give way to (i, j), (a, b), as d(a, b) <= d(a, i) + d(j, b));
    the records left, at most one of each group, are matched exactly by :func:`_match`."""
    n = distances.shape[0]
    first = np.argmax(distances == 0, axis=1)          # each record's group: its first record at distance 0
    order = np.lexsort((np.arange(n), first))
    grp = first[order]
    rank = np.arange(n) - np.searchsorted(grp, grp)    # position within its group
    size = np.bincount(first, minlength=n)[grp]
    paired = rank < size - size % 2
    lead = order[paired & (rank % 2 == 0)]
    mate = order[np.flatnonzero(paired & (rank % 2 == 0)) + 1]
    rest = np.sort(order[~paired])
    a, b = _match(distances[np.ix_(rest, rest)]) if rest.size > 1 else (np.zeros(0, int), np.zeros(0, int))
    p = np.concatenate([np.minimum(lead, mate), rest[a]])
    q = np.concatenate([np.maximum(lead, mate), rest[b]])
    o = np.argsort(p, kind="stable")
    return p[o], q[o]


def _program(n: int, i: np.ndarray, j: np.ndarray, cost: np.ndarray, sets: list[np.ndarray] | None) -> Any:
    """The perfect-matching program on pairs (i, j): its LP with the odd-set cuts `sets` (sum of the
    pairs inside S <= (|S| - 1) / 2), or with `sets` None the integer program."""
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    m = i.size
    edge = np.arange(m)
    incidence = sparse.csr_array((np.ones(2 * m), (np.concatenate([i, j]), np.concatenate([edge, edge]))),
                                 shape=(n, m))
    if sets is None:
        return milp(cost, constraints=[LinearConstraint(incidence, 1, 1)], integrality=np.ones(m),
                    bounds=Bounds(0, 1), options={"mip_rel_gap": 0.0})
    if not sets:
        return linprog(cost, A_eq=incidence, b_eq=np.ones(n), bounds=(0, 1), method="highs")
    member = _members(n, sets)
    inside = sparse.csr_array((member[i] & member[j]).T.astype(np.float64))
    return linprog(cost, A_ub=inside, b_ub=np.array([(s.size - 1) / 2 for s in sets]), A_eq=incidence,
                   b_eq=np.ones(n), bounds=(0, 1), method="highs")


def _members(n: int, sets: list[np.ndarray]) -> np.ndarray:
    member = np.zeros((n, len(sets)), dtype=bool)
    for k, s in enumerate(sets):
        member[s, k] = True
    return member


def _odd_sets(n: int, i: np.ndarray, j: np.ndarray, x: np.ndarray) -> list[np.ndarray]:
    """The vertex sets of the odd components of the LP's fractional pairs (each a violated odd-set cut)."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    frac = (x > 1e-6) & (x < 1 - 1e-6)
    if not frac.any():
        return []
    g = sparse.coo_array((np.ones(int(frac.sum())), (i[frac], j[frac])), shape=(n, n))
    _, label = connected_components(g, directed=False)
    touched = np.zeros(n, dtype=bool)
    touched[i[frac]] = touched[j[frac]] = True
    out = []
    for c in np.unique(label[touched]):
        s = np.flatnonzero(label == c)
        if s.size % 2 and s.size >= 3:
            out.append(s)
    return out


def _priced(n: int, D: np.ndarray, cand: np.ndarray, tol: float) -> tuple[Any, np.ndarray, np.ndarray]:
    """The LP over every pair, solved on candidate pairs with odd-set cuts added while the optimum is
    fractional: (its result, the reduced costs of every pair, the final candidate mask)."""
    sets: list[np.ndarray] = []
    width = 8
    for _ in range(100):
        i, j = np.nonzero(cand)
        lp = _program(n, i, j, D[i, j], sets)
        if lp.x is None:   # no fractional perfect matching on these pairs: each record's next neighbours too
            width *= 2
            cand = cand | _nearest(D, width)
            continue
        y = lp.eqlin.marginals
        reduced = D - y[:, None] - y[None, :]
        if sets:
            member = _members(n, sets)
            reduced -= (member * lp.ineqlin.marginals) @ member.T
        new = np.triu(reduced < -tol, 1) & ~cand
        cuts = [] if new.any() else _odd_sets(n, i, j, lp.x)
        if not new.any() and not cuts:
            break
        if _ == 99:   # pragma: no cover - the integer program below still gives a valid pairing
            break
        cand = cand | new
        sets.extend(cuts)
    return lp, np.triu(reduced, 1), cand   # cand: the pairs this LP was solved on


def _nearest(D: np.ndarray, width: int) -> np.ndarray:
    """The pairs (upper triangle) of each record with its `width` nearest others."""
    n = D.shape[0]
    near = np.argsort(D + np.diag(np.full(n, np.inf)), axis=1)[:, :min(n - 1, width)]
    cand = np.zeros((n, n), dtype=bool)
    cand[np.repeat(np.arange(n), near.shape[1]), near.ravel()] = True
    return np.triu(cand | cand.T, 1)


def _match(distances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A least perfect matching (a record paired with a dummy at distance 0 when n is odd) by pricing:
    the LP on each record's nearest neighbours, with odd-set (blossom) cuts while fractional, pairs of
    negative reduced cost added until none is left (the LP optimum over every pair, LP*). An integral
    optimum is the answer; otherwise the integer program on those pairs (cost U) and on every other pair
    with reduced cost below U - LP*: any matching costs at least LP* plus the reduced costs of its pairs,
    so no pair left out can be in a cheaper one."""
    n0 = distances.shape[0]
    if n0 > MAX_DISTINCT:
        raise ValueError(f"local_recoding pairs at most {MAX_DISTINCT} records that differ from every other "
                         f"(an integer program over their pairs); here {n0}: use fewer or coarser variables.")
    n = n0 + n0 % 2
    D = np.zeros((n, n))
    D[:n0, :n0] = distances
    cand = _nearest(D, 8)
    if n0 % 2:
        cand[:, n - 1] = True
        cand = np.triu(cand, 1)
    tol = 1e-9 * max(1.0, float(D.max()))
    lp, reduced, cand = _priced(n, D, cand, tol)
    i, j = np.nonzero(cand)
    if not _odd_sets(n, i, j, lp.x) and np.all((lp.x < 1e-6) | (lp.x > 1 - 1e-6)):
        chosen = (lp.x > 0.5) & (j < n0)
        return i[chosen], j[chosen]
    res = _program(n, i, j, D[i, j], None)
    step = max(float(np.median(D[cand])), tol)
    while res.x is None:   # no perfect matching on these pairs: add the next cheapest
        cand |= np.triu(reduced < step, 1)
        i, j = np.nonzero(cand)
        res = _program(n, i, j, D[i, j], None)
        step *= 2
    more = np.triu((reduced < float(res.fun) - float(lp.fun) + tol) & ~cand, 1)
    if more.any():
        cand |= more
        i, j = np.nonzero(cand)
        res = _program(n, i, j, D[i, j], None)
    chosen = (res.x > 0.5) & (j < n0)
    return i[chosen], j[chosen]


def _recode_key(values: pd.Series, codes: np.ndarray, ancestors: list[tuple[pd.Series, np.ndarray]],
                p: np.ndarray, q: np.ndarray, missing_value: Any) -> pd.Series:
    """The key after pairing: equal values kept, else the first common ancestor, else missing_value."""
    out = values.astype(object).to_numpy(copy=True)
    differ = (codes[p] != codes[q]) | (codes[p] < 0)
    open_ = differ.copy()
    for series, acodes in ancestors:
        agree = open_ & (acodes[p] == acodes[q]) & (acodes[p] >= 0)
        a = series.astype(object).to_numpy()
        out[p[agree]] = a[p[agree]]
        out[q[agree]] = a[p[agree]]
        open_ &= ~agree
    out[p[open_]] = missing_value
    out[q[open_]] = missing_value
    return pd.Series(out, index=values.index, name=values.name).infer_objects()


def _recode_number(v: np.ndarray, p: np.ndarray, q: np.ndarray, mode: str, missing: float | None) -> np.ndarray:
    out = v.copy()
    a, b = v[p], v[q]
    differ = a != b
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if missing is not None:
        ma, mb = a == missing, b == missing
        new = np.where(ma, b, np.where(mb, a, lo - hi if mode == "sdcmicro" else (a + b) / 2))
    else:
        new = lo - hi if mode == "sdcmicro" else (a + b) / 2
    out[p] = np.where(differ, new, a)
    out[q] = np.where(differ, new, b)
    return out


def _names(value: Any, what: str) -> list[str]:
    names = [value] if isinstance(value, str) else list(value)
    if not all(isinstance(v, str) for v in names):
        raise TypeError(f"`{what}` must be a column name or a list of column names; got {value!r}.")
    return names


def _ancestors(frame: pd.DataFrame, keys: tuple[str, ...], ancestors: Any) -> dict[str, list[str]]:
    if ancestors is None:
        return {}
    if not isinstance(ancestors, Mapping):
        raise TypeError("`ancestors` must be a table of key = [its ancestor columns, finest first]; got "
                        f"{type(ancestors).__name__}.")
    out = {}
    for key, cols in ancestors.items():
        if key not in keys:
            raise ValueError(f"`ancestors` names {key!r}, which is not one of the keys ({', '.join(keys)}).")
        names = _names(cols, f"ancestors.{key}")
        missing = [c for c in names if c not in frame.columns]
        if missing:
            raise ValueError(f"`ancestors.{key}`: no column {missing[0]!r} in the data.")
        out[key] = names
    return out


def _weights(weight: Any, names: list[str]) -> np.ndarray:
    if weight is None:
        return np.ones(len(names))
    if isinstance(weight, Mapping):
        unknown = [k for k in weight if k not in names]
        if unknown:
            raise ValueError(f"`weight` names {unknown[0]!r}, which is neither a key nor a numerical variable.")
        values = [weight.get(n, 1) for n in names]
    elif isinstance(weight, Sequence) and not isinstance(weight, (str, bytes)):
        values = list(weight)
        if len(values) != len(names):
            raise ValueError(f"`weight` must hold one number per key and numerical variable ({len(names)}); "
                             f"got {len(values)}.")
    else:
        raise TypeError(f"`weight` must be a list of numbers or a table of variable = number; got {weight!r}.")
    bad = [v for v in values if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0]
    if bad:
        raise ValueError(f"`weight` must hold finite numbers >= 0; got {bad[0]!r}.")
    return np.asarray(values, dtype=np.float64)


def _numbers(frame: pd.DataFrame, numerical: list[str]) -> np.ndarray:
    cols = []
    for v in numerical:
        s = frame[v]
        if not pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
            raise TypeError(f"local_recoding: numerical variable {v!r} is not numeric ({s.dtype}).")
        x = s.to_numpy(dtype=np.float64, na_value=np.nan)
        if np.isnan(x).any():
            raise ValueError(f"local_recoding: numerical variable {v!r} has missing values (give them as "
                             "missing_value, as sdcMicro reads them).")
        cols.append(x)
    return np.column_stack(cols) if cols else np.zeros((len(frame), 0))


def _r_local_recoding(run: StepRun) -> RStep:
    """sdcMicro's ``LocalRecProg`` on the same variables; the same pairs where the optimum is unique."""
    p = run.parameters
    num = [p["numerical"]] if isinstance(p.get("numerical"), str) else list(p.get("numerical") or [])
    keys = [v for v in run.variables if v not in num]
    anc = p.get("ancestors") or {}
    order = [k for k in keys if k in anc]
    args = [f"categorical = {r_names(keys)}", f"k_level = {r_value(p.get('k', 2))}",
            f"FindLowestK = {r_value(p.get('find_lowest_k', True))}", f"lowMemory = {r_value(p.get('low_memory', False))}"]
    if num:
        args.append(f"numerical = {r_names(num)}")
    if order:
        cols = [c for k in order for c in ([anc[k]] if isinstance(anc[k], str) else anc[k])]
        sett = [k for k in order for _ in ([anc[k]] if isinstance(anc[k], str) else anc[k])]
        args += [f"ancestors = {r_names(cols)}", f"ancestor_setting = {r_names(sett)}"]
    if run.details.get("weights") is not None:
        args.append(f"weight = {r_value(list(run.details['weights']))}")
    mv = p.get("missing_value")
    args.append(f"missingValue = {r_value(mv) if mv is not None else 'NA'}")
    cols = r_names(list(dict.fromkeys([*keys, *num, *[c for k in order for c in ([anc[k]] if isinstance(anc[k], str) else anc[k])]])))
    code = (f"x <- data; for (v in {cols}) if (!is.numeric(x[[v]])) x[[v]] <- as.integer(factor(x[[v]]))",
            f"res <- sdcMicro::LocalRecProg(x, {', '.join(args)})",
            f"for (v in {r_names(keys + num)}) data[[v]] <- res[[paste0(v, '_lr')]]", "data")
    return RStep(code, False, "sdcMicro's LocalRecProg (text columns as integer codes): the same cells where its pairing "
                 "is the least and unique; its Edmonds matching may pair others (docs/protection.md, P-local-1)")


@protection_method(
    "local_recoding", sdcmicro=_r_local_recoding, changes_categories=True, repeatable=True,
    summary="records paired at least total distance, each pair recoded to the values (or ancestors) it shares",
    why="each record's pair is chosen from the whole file",
    example={"keys": ["sex", "region"], "k": 2},
    options={"numerical": param(Names(), "numerical variables: a differing pair gets min - max (sdcmicro) or its mean"),
             "ancestors": param(Anything(), "key = [coarser columns, finest first]: a differing pair takes the first "
                                            "it shares"),
             "k": param(Whole(1), "sdcMicro's k_level (its neighbour graph; must lie below the records; the "
                                  "pairing is the same)"),
             "find_lowest_k": param(Flag(), "sdcMicro's FindLowestK (the pairing is the same)"),
             "weight": param(Anything(), "a weight per key and numerical variable (a list, or a table by name)"),
             "low_memory": param(Flag(), "sdcMicro's lowMemory (the pairing is the same)"),
             "missing_value": param(Anything(), "the value of a key whose pair shares no ancestor (none: missing)"),
             "mode": param(Choice(LOCAL_RECODING_MODES), "sdcmicro (its output) or correct (means, the unpaired "
                                                          "record kept)")})
def local_recoding(
    data: pd.DataFrame,
    keys: Sequence[str] | str,
    *,
    numerical: Sequence[str] | str | None = None,
    ancestors: Mapping[str, Sequence[str] | str] | None = None,
    k: int = 2,
    find_lowest_k: bool = True,
    weight: Sequence[float] | Mapping[str, float] | None = None,
    low_memory: bool = False,
    missing_value: Any = None,
    mode: str = "sdcmicro",
) -> ProtectionResult:
    """Local recoding by least-distance pairs of records (sdcMicro's ``LocalRecProg``).

    Every record is paired with another so that the total distance
    d(x, y) = sum_K w_j [x_j != y_j] + sum_N (w_j / R_j) |x_j - y_j| over the pairs is least
    (a maximum-cardinality minimum-weight matching); each pair then shares its values: a differing
    key becomes the first ancestor the two agree on, else `missing_value`; a differing numerical
    variable min - max (sdcMicro) or the mean (``mode="correct"``). See the module docstring.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : list of str
        The categorical variables (any values; a missing value equals nothing, as sdcMicro's NA).
    numerical : list of str, optional
        Numeric variables also recoded (missing values refused unless coded as `missing_value`).
    ancestors : dict, optional
        ``{key: [ancestor, ...]}``, finest first: columns whose values group the key's (water ->
        water2 -> water3). sdcMicro's ``ancestors`` and ``ancestor_setting``.
    k : int >= 1, default 2
        sdcMicro's ``k_level``: the neighbours of its k-neighbour graph, which its matching does not
        use (it matches on the complete graph); like sdcMicro, it must be below the number of records.
    find_lowest_k, low_memory : bool
        sdcMicro's ``FindLowestK`` and ``lowMemory``: accepted, the pairs are the same.
    weight : list or dict, optional
        One weight >= 0 per key then numerical variable (default 1).
    missing_value : optional
        What a key whose pair shares no ancestor becomes (default: missing). A numerical value equal
        to it is read as missing. In sdcmicro mode 0 is sdcMicro's -1.
    mode : {"sdcmicro", "correct"}
        ``"sdcmicro"`` (default) gives sdcMicro's cells, its defects too: a differing numerical variable
        is min - max, and with an odd number of records the unpaired one is 0 in every variable.
        ``"correct"``: the pair's mean, and the unpaired record keeps its values.

    Returns
    -------
    ProtectionResult
        ``details``: ``pairs`` (record pairs formed), ``unpaired`` (the row position left alone or
        None), ``total_distance`` (of the pairing), ``weights`` (per variable), ``pairing`` (a
        table: the row positions of each pair, ``first`` < ``second``, and their distance).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"a": [1, 1, 2, 2], "b": [1, 2, 3, 3], "b2": [10, 10, 20, 20]})
    >>> r = sdc.local_recoding(df, ["a", "b"], ancestors={"b": ["b2"]})
    >>> r.data["b"].tolist(), float(r.details["total_distance"])
    ([10, 10, 3, 3], 1.0)
    """
    frame, keys_ = check_variables(data, keys, role="keys")
    nums = _names(numerical, "numerical") if numerical is not None else []
    clash = [v for v in nums if v in keys_ or v not in frame.columns]
    if clash:
        raise ValueError(f"`numerical`: {clash[0]!r} is " + ("a key too." if clash[0] in keys_ else "not a column."))
    anc = _ancestors(frame, keys_, ancestors)
    n = len(frame)
    if n < 2 or k >= n:
        raise ValueError(f"local_recoding needs at least 2 records and `k` below their number; got {n} records "
                         f"and k = {k}.")
    names = [*keys_, *nums]
    w = _weights(weight, names)
    mv = -1.0 if mode == "sdcmicro" and isinstance(missing_value, (int, float)) and missing_value == 0 \
        and not isinstance(missing_value, bool) else missing_value
    marker = float(mv) if isinstance(mv, (int, float)) and not isinstance(mv, bool) else None
    codes = np.column_stack([factorize_column(frame[v])[0] for v in keys_]).astype(np.int64)
    X = _numbers(frame, nums)
    D = record_distances(codes, X, w, marker)
    p, q = pair_records(D)
    return _result(frame, keys_, nums, anc, codes, X, w, D, p, q, mv, marker, mode,
                   {"keys": list(keys_), "numerical": nums or None, "ancestors": anc or None, "k": int(k),
                    "find_lowest_k": bool(find_lowest_k), "weight": None if weight is None else w.tolist(),
                    "low_memory": bool(low_memory), "missing_value": missing_value, "mode": mode})


def _result(frame: pd.DataFrame, keys: tuple[str, ...], nums: list[str], anc: dict[str, list[str]],
            codes: np.ndarray, X: np.ndarray, w: np.ndarray, D: np.ndarray, p: np.ndarray, q: np.ndarray,
            mv: Any, marker: float | None, mode: str, params: dict[str, Any]) -> ProtectionResult:
    n = len(frame)
    left = np.setdiff1d(np.arange(n), np.concatenate([p, q]))
    out = output_frame(frame)
    for j, key in enumerate(keys):
        chain = [(frame[c], factorize_column(frame[c])[0]) for c in anc.get(key, [])]
        s = _recode_key(frame[key], codes[:, j], chain, p, q, mv)
        if mode == "sdcmicro" and left.size:
            s = s.astype(object)
            s.iloc[left] = 0
            s = s.infer_objects()
        out[key] = s
    for j, v in enumerate(nums):
        y = _recode_number(X[:, j], p, q, mode, marker)
        if mode == "sdcmicro":
            y[left] = 0.0
        out[v] = pd.Series(y, index=frame.index, name=v)
    names = [*keys, *nums]
    details = {"pairs": int(p.size), "unpaired": int(left[0]) if left.size else None,
               "total_distance": float(D[p, q].astype(np.float64).sum()), "weights": w.tolist(),
               "pairing": pd.DataFrame({"first": p, "second": q, "distance": D[p, q].astype(np.float64)})}
    return ProtectionResult(method="local_recoding", data=out, variables=tuple(names), parameters=params, seed=None,
                            changed=changed_cells(frame, out, names), details=details)
