"""The singling-out attack of anonymeter's baseline-and-control design (:mod:`sdc.attacks.anonymeter`).

Giomi, Boenisch, Wehmeyer & Tasnádi (2023), PETS 2023 (2), 312-328; anonymeter's
``SinglingOutEvaluator``, reimplemented. The success rates, the risk and the result are the
framework's (:func:`sdc.attacks.anonymeter.success_rate`, ``residual_risk``, ``AnonymeterResult``).

Predicates ("queries") built from the released file that select exactly one released
record: *univariate* (a value that occurs once, ``<= min`` or ``>= max`` of a numeric
column, the only missing value) or *multivariate* (n_cols columns of a random released
record: equality on categorical columns, ``>=`` the value on numeric columns above the
median and ``<=`` otherwise, ``is missing`` for a missing value). A query succeeds when it
selects exactly one original record (main) or one control record (control; the count is
rescaled to the original's size with the model of Cohen & Nissim 2020 fitted on subsamples
of the control file when the sizes differ). Baseline: random queries (random columns,
values and operators). The rates divide the successes by the attacks asked, n_attacks
(``estimator="anonymeter"``, anonymeter's ``SinglingOutEvaluator.results``), or by the
queries found in the released file (``"found"``: the chance that a query singling out a
released record also singles out an original one).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc._validation import check_int, check_number, check_option
from sdc.attacks import _neighbors
from sdc.attacks._common import check_seed, is_numeric_column, plain, rng_from, warn_disjoint
from sdc.attacks.anonymeter import AnonymeterResult, attack_files, attack_result
from sdc.core.matching import encode_joint

__all__ = ["singling_out_attack", "SINGLING_OUT_MODES", "SINGLING_OUT_ESTIMATORS"]

SINGLING_OUT_MODES = ("multivariate", "univariate")
# What a singling-out success rate divides by: the attacks asked (anonymeter's estimator) or
# the queries found in the released file
SINGLING_OUT_ESTIMATORS = ("anonymeter", "found")

_NUM_OPS = ("==", "!=", ">", "<", ">=", "<=")


class _Table:
    """The attack columns of the released, original and control files, encoded together:
    numbers as floats, other columns as shared integer codes (-1 = missing); ``distinct`` holds
    each file's distinct rows (arrays, records per row, each record's row)."""

    def __init__(self, released: pd.DataFrame, original: pd.DataFrame, control: pd.DataFrame | None,
                 cols: tuple[str, ...]) -> None:
        self.cols = cols
        self.numeric = tuple(all(is_numeric_column(df[c]) for df in (released, original, control) if df is not None)
                             for c in cols)
        cat = tuple(c for c, num in zip(cols, self.numeric) if not num)
        frames = {"released": released, "original": original,
                  "control": control if control is not None else original.iloc[:0]}
        # Each file's distinct rows first (its own codes, one pass a column); only those rows are
        # then coded together, so no stacked copy of the files is made. Queries are counted
        # over the distinct rows weighted by their records: the same counts.
        rows = {which: _neighbors.CandidateRows(f, cols) for which, f in frames.items()}
        reps = {which: r.rows for which, r in rows.items()}
        if cat:
            others = pd.concat([reps["original"][list(cat)], reps["control"][list(cat)]], ignore_index=True)
            joint = encode_joint(reps["released"], others, cat)
            warn_disjoint(joint, "the original")
            n_o = len(reps["original"])
            rep_codes = {"released": joint.left_codes, "original": tuple(c[:n_o] for c in joint.right_codes),
                         "control": tuple(c[n_o:] for c in joint.right_codes)}
        self.data: dict[str, list[np.ndarray]] = {}
        self.distinct: dict[str, tuple[list[np.ndarray], np.ndarray, np.ndarray]] = {}
        for which, f in frames.items():
            ids, counts = rows[which].ids, rows[which].counts
            full, distinct = [], []
            ci = 0
            for c, num in zip(cols, self.numeric):
                if num:
                    v = f[c].to_numpy(dtype=np.float64, na_value=np.nan)
                    d = reps[which][c].to_numpy(dtype=np.float64, na_value=np.nan)
                else:
                    d = rep_codes[which][ci].astype(np.int64)
                    v = d[ids]
                    ci += 1
                full.append(v)
                distinct.append(d)
            self.data[which] = full
            self.distinct[which] = (distinct, counts, ids)
        self.released_values = released[list(cols)]
        self._postings: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}

    def size(self, which: str) -> int:
        return int(self.data[which][0].shape[0])

    def rows_equal(self, which: str, j: int, code: int) -> np.ndarray:
        """Positions (ascending) of the distinct rows whose categorical column j has `code`:
        an inverted index built once per file and column, so a query with an equality scans
        only the rows that pass it."""
        key = (which, j)
        if key not in self._postings:
            a = self.distinct[which][0][j]
            order = np.argsort(a, kind="stable")
            bounds = np.searchsorted(a[order], np.arange(-1, int(a.max(initial=-1)) + 2))
            self._postings[key] = (order, bounds)
        order, bounds = self._postings[key]
        c = int(code) + 1
        if c < 0 or c + 1 >= bounds.size:
            return np.empty(0, dtype=np.int64)
        return order[bounds[c]:bounds[c + 1]]

    def missing(self, which: str, j: int) -> np.ndarray:
        a = self.data[which][j]
        return np.isnan(a) if self.numeric[j] else a < 0

    def is_missing(self, j: int, pos: int) -> bool:
        """Whether released record `pos` misses column j (one value, no pass over the file)."""
        v = self.data["released"][j][pos]
        return bool(np.isnan(v)) if self.numeric[j] else bool(v < 0)


def _condition(a: np.ndarray, numeric: bool, op: str, value: float) -> np.ndarray:
    if op == "isna":
        return np.isnan(a) if numeric else a < 0
    if op == "notna":
        return ~np.isnan(a) if numeric else a >= 0
    with np.errstate(invalid="ignore"):
        if op == "==":
            return a == value
        if op == "!=":  # a missing value satisfies no comparison
            return (a != value) & (~np.isnan(a) if numeric else a >= 0)
        if op == ">=":
            return a >= value
        if op == "<=":
            return a <= value
        if op == ">":
            return a > value
        return a < value


Query = tuple[tuple[int, str, float], ...]


def _count(table: _Table, which: str, query: Query, weights: np.ndarray | None = None) -> int:
    """Records of file `which` satisfying `query`: the sum of the distinct rows' record counts
    (or of `weights`, one per distinct row, e.g. a subsample's counts)."""
    arrays, counts, _ = table.distinct[which]
    w = counts if weights is None else weights
    rows = None
    # Start from the rows passing a categorical equality (an index lookup), if any.
    for j, op, value in query:
        if op == "==" and not table.numeric[j]:
            rows = table.rows_equal(which, j, int(value))
            if rows.size == 0:
                return 0
            break
    mask = None
    for j, op, value in query:
        a = arrays[j] if rows is None else arrays[j][rows]
        cond = _condition(a, table.numeric[j], op, value)
        mask = cond if mask is None else mask & cond
    return int((w if rows is None else w[rows])[mask].sum())


def _text(table: _Table, query: Query, shown: tuple[object, ...]) -> str:
    parts = []
    for (j, op, _), v in zip(query, shown):
        c = table.cols[j]
        parts.append(f"{c} is missing" if op == "isna" else f"{c} is not missing" if op == "notna"
                     else f"{c} {op} {plain(v)!r}" if not isinstance(v, (float, np.floating))
                     else f"{c} {op} {float(v):g}")
    return " & ".join(parts)


def _univariate_queries(table: _Table, rng: np.random.Generator) -> list[tuple[Query, tuple[object, ...]]]:
    out: list[tuple[Query, tuple[object, ...]]] = []
    rel = table.data["released"]
    for j, c in enumerate(table.cols):
        a = rel[j]
        miss = table.missing("released", j)
        if int(miss.sum()) == 1:
            out.append((((j, "isna", 0.0),), (None,)))
        if table.numeric[j] and (~miss).any():
            lo, hi = float(np.nanmin(a)), float(np.nanmax(a))
            out.append((((j, "<=", lo),), (lo,)))
            out.append((((j, ">=", hi),), (hi,)))
        if table.numeric[j]:
            vals, counts = np.unique(a[~miss], return_counts=True)
            rare = vals[counts == 1]
            out.extend(((((j, "==", float(v)),), (float(v),)) for v in rare))
        else:
            counts = np.bincount(a[~miss], minlength=1)
            # The one record of each value held once, by value (one pass, not one per value).
            once = np.flatnonzero(~miss & (counts[np.where(miss, 0, a)] == 1))
            for pos in once[np.argsort(a[once], kind="stable")].tolist():
                out.append((((j, "==", float(a[pos])),), (table.released_values.iloc[pos, j],)))
    order = rng.permutation(len(out))
    return [out[i] for i in order]


def _record_query(table: _Table, pos: int, cols: np.ndarray, medians: np.ndarray) -> Query:
    q = []
    for j in sorted(int(c) for c in cols):
        if table.is_missing(j, pos):
            q.append((j, "isna", 0.0))
        elif table.numeric[j]:
            v = float(table.data["released"][j][pos])
            q.append((j, ">=" if v > medians[j] else "<=", v))
        else:
            q.append((j, "==", float(table.data["released"][j][pos])))
    return tuple(q)


def _record_values(table: _Table, pos: int, query: Query) -> tuple[object, ...]:
    """The released record's values a query of :func:`_record_query` shows (found queries only:
    reading a value from the frame costs more than trying the query)."""
    return tuple(None if op == "isna" else value if table.numeric[j] else table.released_values.iloc[pos, j]
                 for j, op, value in query)


def _random_query(table: _Table, n_cols: int, rng: np.random.Generator) -> tuple[Query, tuple[object, ...]]:
    q = []
    shown = []
    for j in sorted(int(c) for c in rng.choice(len(table.cols), size=n_cols, replace=False)):
        a = table.data["released"][j]
        pos = int(rng.integers(len(a)))  # a random released value (as often as it occurs)
        if table.is_missing(j, pos):
            op = ("isna", "notna")[int(rng.integers(2))]
            q.append((j, op, 0.0))
            shown.append(None)
        elif table.numeric[j]:
            op = _NUM_OPS[int(rng.integers(len(_NUM_OPS)))]
            q.append((j, op, float(a[pos])))
            shown.append(float(a[pos]))
        else:
            op = ("==", "!=")[int(rng.integers(2))]
            q.append((j, op, float(a[pos])))
            shown.append(table.released_values.iloc[pos, j])
    return tuple(q), tuple(shown)


def _so_model(n: np.ndarray, w: float, norm: float) -> np.ndarray:
    """Expected singling-out count in n records for queries of weight up to w (Cohen & Nissim 2020):
    norm x integral_0^w n x (1 - x)^(n-1) dx = norm x (1 - (n w + 1)(1 - w)^n) / (n + 1)."""
    n = np.asarray(n, dtype=np.float64)
    return norm * (1.0 - (n * w + 1.0) * (1.0 - w) ** n) / (n + 1.0)


def _size_correction(table: _Table, queries: list[Query], n_target: int, rng: np.random.Generator) -> float | None:
    """Ratio model(n_original) / model(n_control) fitted on subsamples of the control file."""
    from scipy.optimize import curve_fit

    n_c = table.size("control")
    sizes, succ = [], []
    _, counts, ids = table.distinct["control"]
    for size in np.linspace(min(1000, n_c), n_c, 10).astype(int):
        for _ in range(5):
            rows = rng.choice(n_c, size=int(size), replace=False)
            sub = np.bincount(ids[rows], minlength=counts.size)
            succ.append(sum(_count(table, "control", q, sub) == 1 for q in queries))
            sizes.append(int(size))
    sizes_a, succ_a = np.array(sizes, dtype=np.float64), np.array(succ, dtype=np.float64)
    w0 = 1.0 / sizes_a.max()
    norm0 = 1.0 / float(_so_model(np.array([sizes_a.max()]), w0, 1.0)[0])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            popt, _ = curve_fit(_so_model, sizes_a, succ_a, p0=(w0, norm0), bounds=(0, (1, np.inf)))
    except (RuntimeError, ValueError):
        return None
    den = float(_so_model(np.array([n_c]), *popt)[0])
    if not den > 0:
        return None
    return float(_so_model(np.array([n_target]), *popt)[0]) / den


def _find_queries(table: _Table, mode: str, n_attacks: int, n_cols: int, max_attempts: int,
                  rng: np.random.Generator) -> tuple[list[tuple[Query, tuple[object, ...]]], int]:
    """Up to `n_attacks` distinct queries singling out one released record, each with the values
    it shows, and the candidates tried: the rare values in univariate mode, else `n_cols`
    columns of random released records (at most `max_attempts` candidates)."""
    found: list[tuple[Query, tuple[object, ...]]] = []
    seen: set[Query] = set()
    attempts = 0
    if mode == "univariate":
        for q, shown in _univariate_queries(table, rng):
            if len(found) >= n_attacks:
                break
            attempts += 1
            if q not in seen and _count(table, "released", q) == 1:
                seen.add(q)
                found.append((q, shown))
        return found, attempts
    rel = table.data["released"]
    n_all = len(table.cols)
    medians = np.array([float(np.nanmedian(rel[j])) if table.numeric[j] and (~np.isnan(rel[j])).any()
                        else np.nan for j in range(n_all)])
    n_rel = table.size("released")
    while len(found) < n_attacks and attempts < max_attempts:
        attempts += 1
        pos = int(rng.integers(n_rel))
        q = _record_query(table, pos, rng.choice(n_all, size=n_cols, replace=False), medians)
        if q in seen:
            continue
        if _count(table, "released", q) == 1:
            seen.add(q)
            found.append((q, _record_values(table, pos, q)))
    return found, attempts


def _singles(table: _Table, which: str, queries: list[Query]) -> np.ndarray:
    """Whether each query selects exactly one record of file `which`."""
    return np.array([_count(table, which, q) == 1 for q in queries], dtype=bool)


def _control_successes(table: _Table, queries: list[Query], hits: np.ndarray, n_ctrl: int, n_original: int,
                       rng: np.random.Generator, notes: list[str]) -> float:
    """The control attack's successes, rescaled to the original's size when the control file's
    differs (:func:`_size_correction`; a note when it cannot be fitted), at most `n_ctrl`."""
    s_ctrl = float(hits.sum())
    if queries and table.size("control") != n_original:
        corr = _size_correction(table, queries, n_original, rng)
        if corr is None:
            notes.append("the control-size correction could not be fitted; control successes are not rescaled.")
        else:
            s_ctrl = min(s_ctrl * corr, float(n_ctrl))
    return s_ctrl


def singling_out_attack(
    original: pd.DataFrame,
    released: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    control: pd.DataFrame | None = None,
    mode: str = "multivariate",
    n_attacks: int = 500,
    n_cols: int = 3,
    max_attempts: int = 20_000,
    confidence: float = 0.95,
    seed: int = 0,
    estimator: str = "anonymeter",
) -> AnonymeterResult:
    """Singling-out risk (anonymeter's SinglingOutEvaluator; see the module docstring).

    Parameters
    ----------
    original : pandas.DataFrame
        The records the released file was made from (the training records).
    released : pandas.DataFrame
        The released file; queries are built from it.
    columns : sequence of str, optional
        Columns the attacker uses (default: every column of `released` also in `original`).
        They must be coded the same way in all files: for a generalised release, pass the
        original with the same generalisation (the attacker knows the published categories).
    control : pandas.DataFrame, optional
        Held-out original records not used for the release (:func:`split_control`).
    mode : {"multivariate", "univariate"}
        Queries on `n_cols` columns of a released record, or on one rare value.
    n_attacks : int
        Number of distinct singling-out queries to find in the released file.
    n_cols : int
        Columns per multivariate query (at most the number of columns).
    max_attempts : int
        Candidate queries tried at most (multivariate).
    confidence : float
        Confidence level of the intervals (default 0.95).
    seed : int
        Seed of every random step.
    estimator : {"anonymeter", "found"}
        ``"anonymeter"`` (default): main, control and baseline rates divide by `n_attacks`, as
        anonymeter does (a query the released file does not yield is an attack that failed;
        the baseline makes `n_attacks` random guesses). ``"found"``: they divide by the
        queries found in the released file (the baseline makes as many guesses): the success
        of the queries an attacker can make, which on a release yielding few queries rests on
        a handful of them; a column-permuted release, whose columns keep the original's
        values, scores up to 0.61 this way in univariate mode on ARX's adult data, against
        about 0 with anonymeter's estimator (docs/attacks.md).
    """
    original, released, control, cols = attack_files(original, released, control, columns, "columns")
    mode = check_option(mode, "mode", SINGLING_OUT_MODES)
    estimator = check_option(estimator, "estimator", SINGLING_OUT_ESTIMATORS)
    n_attacks = check_int(n_attacks, "n_attacks", min_value=1)
    n_cols = check_int(n_cols, "n_cols", min_value=1, max_value=len(cols) if mode == "multivariate" else None)
    max_attempts = check_int(max_attempts, "max_attempts", min_value=1)
    confidence = check_number(confidence, "confidence", low=0.0, high=1.0, low_open=True, high_open=True)
    seed = check_seed(seed)
    rng = rng_from(seed)
    table = _Table(released, original, control, cols)
    notes: list[str] = []
    found, attempts = _find_queries(table, mode, n_attacks, n_cols, max_attempts, rng)
    if len(found) < n_attacks:
        measured = (f"the rates divide by the {n_attacks} asked (anonymeter's estimator)" if estimator == "anonymeter"
                    else "the risk is measured on those")
        notes.append(f"found {len(found)} singling-out queries in the released file out of the {n_attacks} asked "
                     f"({attempts} tried): {measured}.")
    queries = [q for q, _ in found]
    main_hits = _singles(table, "original", queries)
    n_main = len(queries)
    n_rate = n_attacks if estimator == "anonymeter" and n_main else n_main  # what the rates divide by
    # Baseline: as many random queries as the rates' attacks.
    base_cols = 1 if mode == "univariate" else n_cols
    base_hits = _singles(table, "original", [_random_query(table, base_cols, rng)[0] for _ in range(n_rate)])
    n_ctrl: int | None = None
    s_ctrl: float | None = None
    details = pd.DataFrame({"query": [_text(table, q, shown) for q, shown in found], "main_success": main_hits})
    if control is not None:
        ctrl_hits = _singles(table, "control", queries)
        n_ctrl = n_rate
        s_ctrl = _control_successes(table, queries, ctrl_hits, n_ctrl, len(original), rng, notes)
        details["control_success"] = ctrl_hits
    params = {"mode": mode, "columns": list(cols), "n_attacks_asked": n_attacks, "n_cols": n_cols,
              "max_attempts": max_attempts, "n_tried": attempts, "n_queries_found": n_main, "estimator": estimator,
              "n_original": len(original), "n_released": len(released),
              "n_control": None if control is None else len(control)}
    return attack_result("singling_out", n_rate, float(main_hits.sum()), n_rate, float(base_hits.sum()), n_ctrl,
                         s_ctrl, confidence, seed, params, details, notes)
