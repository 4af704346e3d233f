"""Singling out, linkability and inference attacks with anonymeter's baseline-and-control design.

Giomi, Boenisch, Wehmeyer & Tasnádi (2023), "A Unified Framework for Quantifying Privacy Risk
in Synthetic Data", PETS 2023 (2), 312-328 (the anonymeter package, reviewed by the CNIL). The
three risks of the Article 29 Working Party (Opinion 05/2014) are each measured by an attack:

* the **main** attack uses the released file to make guesses about the *original* records it
  was made from (the "training" records);
* the **control** attack makes the same guesses about *control* records: original records held
  out before protection (:func:`split_control`), which the released file cannot have leaked;
* the **baseline** attack guesses at random, as a check that the main attack is informative.

Success rates use the Wilson score interval (Wilson 1927): with n attacks, s successes and
z = Phi^-1((1 + confidence) / 2),

    rate = (s + z^2/2) / (n + z^2),   error = z / (n + z^2) sqrt(s (n - s) / n + z^2 / 4).

The **risk** is the excess of main over control success, normalised by the room left above
the control rate: risk = (r_main - r_control) / (1 - r_control), with the error propagated
to first order, sqrt((e_main / (1 - r_control))^2 + (e_control (r_main - 1) / (1 - r_control)^2)^2),
and the risk and its interval clipped to [0, 1]. Without control records the risk is the main
rate. (anonymeter ``stats/confidence.py``, reimplemented.)

The attacks (the released file plays the part of anonymeter's synthetic data):

singling out
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
linkability
    The attacker holds two files on the same people with disjoint columns A and B. For each
    target, the n_neighbors nearest released records on A and on B (Gower-type distance, see
    :mod:`sdc.attacks._neighbors`); a success is a released record in both sets. Baseline:
    random neighbour sets.
inference
    The attacker knows the auxiliary columns of a target and guesses its secret as the
    secret of the nearest released record. A guess is right when equal (categorical; two
    missing values count as equal) or within ``tolerance`` x |true value| (numeric; anonymeter
    divides by the guess). Baseline: the secret of a random released record.

Differences from anonymeter (docs/attacks.md): ties between neighbours are broken at random
(seeded) instead of by file order; duplicate records are kept (anonymeter drops them, which
lets a query "single out" one of two identical people); a missing value is a category of its
own in distances. Every random step uses ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from sdc._stats import summary_frame, summary_values
from sdc._validation import check_columns, check_fraction, check_frame, check_int, check_number, check_option
from sdc.attacks import _neighbors
from sdc.attacks._common import check_seed, frame_rows, is_numeric_column, plain, rng_from, warn_disjoint
from sdc.core.matching import encode_joint
from sdc.exceptions import SdcWarning

__all__ = [
    "SuccessRate", "AnonymeterResult", "success_rate", "residual_risk", "split_control",
    "singling_out_attack", "linkability_attack", "inference_attack", "SINGLING_OUT_MODES",
    "SINGLING_OUT_ESTIMATORS",
]

SINGLING_OUT_MODES = ("multivariate", "univariate")
# What a singling-out success rate divides by: the attacks asked (anonymeter's estimator) or
# the queries found in the released file
SINGLING_OUT_ESTIMATORS = ("anonymeter", "found")


# ==================================================================== statistics
@dataclass(frozen=True)
class SuccessRate:
    """An attack's success rate: Wilson centre and half-width at the given confidence."""

    n_attacks: int
    n_success: float
    rate: float
    error: float

    @property
    def ci(self) -> tuple[float, float]:
        return (max(self.rate - self.error, 0.0), min(self.rate + self.error, 1.0))


def success_rate(n_attacks: int, n_success: float, confidence: float = 0.95) -> SuccessRate:
    """Wilson score estimate of a success rate (see the module docstring).

    >>> r = success_rate(100, 50)
    >>> round(r.rate, 6), round(r.error, 6)
    (0.5, 0.096168)
    """
    if n_attacks <= 0:
        return SuccessRate(0, float(n_success), float("nan"), float("nan"))
    z = float(stats.norm.ppf(0.5 * (1.0 + confidence)))
    z2 = z * z
    n, s = float(n_attacks), float(n_success)
    denom = n + z2
    rate = (s + 0.5 * z2) / denom
    error = z / denom * math.sqrt(max(s * (n - s) / n, 0.0) + 0.25 * z2)
    return SuccessRate(int(n_attacks), s, rate, error)


def residual_risk(main: SuccessRate, control: SuccessRate | None) -> tuple[float, float, float]:
    """Risk and its interval: (r_main - r_control) / (1 - r_control), error propagated, clipped to [0, 1]."""
    if control is None:
        value, error = main.rate, main.error
    elif math.isnan(main.rate) or not control.rate < 1.0:
        return float("nan"), float("nan"), float("nan")
    else:
        room = 1.0 - control.rate
        value = (main.rate - control.rate) / room
        error = math.sqrt((main.error / room) ** 2 + (control.error * (main.rate - 1.0) / room ** 2) ** 2)

    def clip(v: float) -> float:
        return min(max(v, 0.0), 1.0)

    return clip(value), clip(value - error), clip(value + error)


@dataclass(frozen=True)
class AnonymeterResult:
    """Outcome of a singling-out, linkability or inference attack.

    Attributes
    ----------
    attack : str
        ``"singling_out"``, ``"linkability"`` or ``"inference"``.
    main, baseline : SuccessRate
        Success of the attack on the original (training) records and of random guessing.
    control : SuccessRate or None
        Success on the held-out control records (None without a control file).
    risk : float
        (r_main - r_control) / (1 - r_control) clipped to [0, 1] (r_main without control);
        0 when no singling-out query could be found in the released file; NaN when the control
        attack always succeeds.
    risk_ci : tuple of float
        The confidence interval of the risk.
    confidence : float
        The confidence level of the intervals.
    seed : int
        Seed of every random step.
    parameters : dict
        The attack's settings (columns, n_attacks, ...).
    details : pandas.DataFrame
        One row per guess: the query or target and whether it succeeded (main, and control
        where there is one).
    notes : tuple of str
        Caveats found while running (fewer queries than asked, attack no better than the
        baseline, control size correction not fitted, ...).
    """

    attack: str
    main: SuccessRate
    baseline: SuccessRate
    control: SuccessRate | None
    risk: float
    risk_ci: tuple[float, float]
    confidence: float
    seed: int
    parameters: dict[str, Any]
    details: pd.DataFrame = field(repr=False)
    notes: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per attack (main, baseline, control): attacks, successes, rate, interval."""
        rows = []
        for name, r in (("main", self.main), ("baseline", self.baseline), ("control", self.control)):
            if r is None:
                continue
            lo, hi = r.ci
            rows.append({"attack": name, "n_attacks": r.n_attacks, "n_success": r.n_success, "rate": r.rate,
                         "error": r.error, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description)."""
        control = self.control
        return summary_frame([
            ("attack", self.attack, "the attack"),
            ("risk", self.risk, "(main rate - control rate) / (1 - control rate), clipped to [0, 1]"),
            ("risk_ci_low", self.risk_ci[0], "lower end of the risk's confidence interval"),
            ("risk_ci_high", self.risk_ci[1], "upper end of the risk's confidence interval"),
            ("confidence", self.confidence, "confidence level of the intervals"),
            ("n_attacks", self.main.n_attacks, "attacks made (queries or targets)"),
            ("main_rate", self.main.rate, "success rate of the attack on the original (training) records"),
            ("baseline_rate", self.baseline.rate, "success rate of random guesses"),
            ("control_rate", None if control is None else control.rate, "success rate on the control records"),
            ("n_success", self.main.n_success, "successful attacks"),
            ("n_baseline", self.baseline.n_success, "successful random guesses"),
            ("n_control", None if control is None else control.n_success, "successes on the control records"),
            ("seed", self.seed, "seed of every random step"),
        ])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: summary, the three rates, the parameters and the notes (not the per-guess rows)."""
        return plain({**summary_values(self.summary()), "rates": frame_rows(self.to_frame()),
                      "parameters": self.parameters, "notes": list(self.notes)})


#: Below this many guesses made (singling-out queries found, linkability or inference targets)
#: an attack's result carries a warning note: at 100 guesses the 95 % Wilson interval of a rate
#: near 0.5 is still about +-0.1 wide; at 6 it spans half the scale.
MIN_ATTACKS = 100


def few_attacks_note(attack: str, made: int) -> str | None:
    """The warning a result made of fewer than :data:`MIN_ATTACKS` guesses carries (None otherwise)."""
    if made >= MIN_ATTACKS:
        return None
    what = "queries" if attack == "singling_out" else "targets"
    return (f"warning: only {made} {what} made by the {attack.replace('_', '-')} attack, below the documented "
            f"minimum of {MIN_ATTACKS} (docs/attacks.md): its risk and interval say little.")


def _result(attack: str, n_main: int, s_main: float, n_base: int, s_base: float, n_ctrl: int | None,
            s_ctrl: float | None, confidence: float, seed: int, params: dict[str, Any], details: pd.DataFrame,
            notes: list[str]) -> AnonymeterResult:
    few = few_attacks_note(attack, int(params.get("n_queries_found", n_main)))
    if few is not None and n_main:
        notes.append(few)
    main = success_rate(n_main, s_main, confidence)
    base = success_rate(n_base, s_base, confidence)
    ctrl = None if n_ctrl is None else success_rate(n_ctrl, s_ctrl, confidence)
    if n_main and base.rate >= main.rate:
        notes.append("the attack is no better than random guessing (baseline rate >= main rate).")
    value, lo, hi = residual_risk(main, ctrl)
    if n_main == 0:
        # No released record can be singled out: the attack makes no guess, and so no success.
        value, lo, hi = 0.0, 0.0, 0.0
        notes.append("no query singles out a released record: the attack has nothing to try; risk 0.")
    elif ctrl is not None and ctrl.n_attacks and not ctrl.rate < 1.0:
        notes.append("the control attack always succeeds: the excess risk cannot be measured.")
        warnings.warn(f"{attack} attack: the control attack always succeeds; the risk is undefined.",
                      SdcWarning, stacklevel=3)
    return AnonymeterResult(attack=attack, main=main, baseline=base, control=ctrl, risk=value, risk_ci=(lo, hi),
                            confidence=confidence, seed=seed, parameters=params, details=details, notes=tuple(notes))


# ==================================================================== inputs
def split_control(original: pd.DataFrame, *, share: float = 0.2, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Hold out control records before protection: (training records, control records).

    A simple random sample of ``round(share * n)`` records (seeded, file order kept) is the
    control file; protect and release only the training part, then attack with both.

    >>> import sdc
    >>> train, control = sdc.split_control(sdc.load_example(), share=0.2, seed=1)
    >>> len(train), len(control)
    (3300, 825)
    """
    original = check_frame(original, "original")
    share = check_fraction(share, "share", closed="neither")
    seed = check_seed(seed)
    n = len(original)
    m = int(round(share * n))
    if m < 1 or m >= n:
        raise ValueError(f"`share` = {share:g} leaves no records on one side of the split of {n} records.")
    pick = np.zeros(n, dtype=bool)
    pick[rng_from(seed).choice(n, size=m, replace=False)] = True
    return original.iloc[~pick], original.iloc[pick]


def _frames(original: object, released: object, control: object, columns: tuple[str, ...] | None,
            role: str | Sequence[tuple[str, Sequence[str]]], *, secret: str | None = None
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None, tuple[str, ...]]:
    """The three files checked; a column missing from one is named with its role (`role`, or
    for each (role, columns) of a sequence, or ``secret`` for `secret`) and the file that lacks
    it. Columns left to the default (shared by the released file and the original) are named
    as such: no argument gave them."""
    original = check_frame(original, "original")
    released = check_frame(released, "released")
    if control is not None:
        control = check_frame(control, "control")
    files = ((released, "the released file"), (original, "the original"), (control, "the control file"))
    if secret is not None:
        for frame, where in files:
            if frame is not None:
                check_columns(frame, [secret], role="secret", where=where)
    if columns is None:
        cols = tuple(c for c in released.columns if c in original.columns)
        if not cols:
            raise ValueError("`original` and `released` share no column.")
        lacking = [c for c in cols if control is not None and c not in control.columns]
        if lacking:
            raise ValueError(f"the control file lacks columns the attack uses by default (those the released file "
                             f"and the original share): {', '.join(map(repr, lacking))}; give `{role}` to choose "
                             "the columns, or a control file with them.")
    else:
        cols = tuple(columns)
    groups = [(role, [c for c in cols if c != secret])] if isinstance(role, str) else role
    for frame, where in files:
        if frame is not None:
            for name, group in groups:
                check_columns(frame, [c for c in group if c != secret], role=name, where=where)
    return original, released, control, cols


# ==================================================================== singling out
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
    original, released, control, cols = _frames(original, released, control, columns, "columns")
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
    else:
        rel = table.data["released"]
        medians = np.array([float(np.nanmedian(rel[j])) if table.numeric[j] and (~np.isnan(rel[j])).any()
                            else np.nan for j in range(len(cols))])
        n_rel = table.size("released")
        while len(found) < n_attacks and attempts < max_attempts:
            attempts += 1
            pos = int(rng.integers(n_rel))
            q = _record_query(table, pos, rng.choice(len(cols), size=n_cols, replace=False), medians)
            if q in seen:
                continue
            if _count(table, "released", q) == 1:
                seen.add(q)
                found.append((q, _record_values(table, pos, q)))
    if len(found) < n_attacks:
        measured = (f"the rates divide by the {n_attacks} asked (anonymeter's estimator)" if estimator == "anonymeter"
                    else "the risk is measured on those")
        notes.append(f"found {len(found)} singling-out queries in the released file out of the {n_attacks} asked "
                     f"({attempts} tried): {measured}.")
    queries = [q for q, _ in found]
    main_hits = np.array([_count(table, "original", q) == 1 for q in queries], dtype=bool)
    n_main = len(queries)
    n_rate = n_attacks if estimator == "anonymeter" and n_main else n_main  # what the rates divide by
    # Baseline: as many random queries as the rates' attacks.
    base_cols = 1 if mode == "univariate" else n_cols
    base = [_random_query(table, base_cols, rng) for _ in range(n_rate)]
    base_hits = np.array([_count(table, "original", q) == 1 for q, _ in base], dtype=bool)
    n_ctrl: int | None = None
    s_ctrl: float | None = None
    ctrl_hits = None
    if control is not None:
        ctrl_hits = np.array([_count(table, "control", q) == 1 for q in queries], dtype=bool)
        n_ctrl = n_rate
        s_ctrl = float(ctrl_hits.sum())
        if n_main and len(control) != len(original):
            corr = _size_correction(table, queries, len(original), rng)
            if corr is None:
                notes.append("the control-size correction could not be fitted; control successes are not rescaled.")
            else:
                s_ctrl = min(s_ctrl * corr, float(n_ctrl))
    details = pd.DataFrame({"query": [_text(table, q, shown) for q, shown in found], "main_success": main_hits})
    if ctrl_hits is not None:
        details["control_success"] = ctrl_hits
    params = {"mode": mode, "columns": list(cols), "n_attacks_asked": n_attacks, "n_cols": n_cols,
              "max_attempts": max_attempts, "n_tried": attempts, "n_queries_found": n_main, "estimator": estimator,
              "n_original": len(original), "n_released": len(released),
              "n_control": None if control is None else len(control)}
    return _result("singling_out", n_rate, float(main_hits.sum()), n_rate, float(base_hits.sum()), n_ctrl, s_ctrl,
                   confidence, seed, params, details, notes)


# ==================================================================== linkability
def _targets(frame: pd.DataFrame, n: int, rng: np.random.Generator) -> pd.DataFrame:
    m = min(n, len(frame))
    return frame.iloc[np.sort(rng.choice(len(frame), size=m, replace=False))]


def _links(targets: pd.DataFrame, released: tuple[_neighbors.CandidateRows, _neighbors.CandidateRows],
           aux: tuple[tuple[str, ...], tuple[str, ...]], k: int, rng: np.random.Generator,
           warn: str | None = None) -> np.ndarray:
    a = _neighbors.knn(_neighbors.prepare(targets, released[0], aux[0], warn=warn), k, rng)
    b = _neighbors.knn(_neighbors.prepare(targets, released[1], aux[1], warn=warn), k, rng)
    return _overlap(a, b)


def _overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row i: whether a[i] and b[i] share an element."""
    return (a[:, :, None] == b[:, None, :]).any(axis=(1, 2))


def linkability_attack(
    original: pd.DataFrame,
    released: pd.DataFrame,
    aux_cols: tuple[Sequence[str], Sequence[str]],
    *,
    control: pd.DataFrame | None = None,
    n_attacks: int = 500,
    n_neighbors: int = 1,
    confidence: float = 0.95,
    seed: int = 0,
) -> AnonymeterResult:
    """Linkability risk (anonymeter's LinkabilityEvaluator; see the module docstring).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The training records and the released file.
    aux_cols : pair of sequences of str
        The columns of the attacker's two files (disjoint).
    control : pandas.DataFrame, optional
        Held-out original records (:func:`split_control`).
    n_attacks : int
        Target records drawn from `original` (and from `control`), at most their size.
    n_neighbors : int
        Nearest released records considered on each side (default 1).
    confidence, seed
        As for :func:`singling_out_attack`.
    """
    if not isinstance(aux_cols, (tuple, list)) or len(aux_cols) != 2:
        raise TypeError("`aux_cols` must be a pair of column lists (the attacker's two files).")
    original = check_frame(original, "original")
    released = check_frame(released, "released")
    a = check_columns(released, aux_cols[0], role="aux_cols[0]", where="the released file")
    b = check_columns(released, aux_cols[1], role="aux_cols[1]", where="the released file")
    both = sorted(set(a) & set(b))
    if both:
        raise ValueError(f"`aux_cols[0]` and `aux_cols[1]` must be disjoint; {', '.join(map(repr, both))} is in both.")
    original, released, control, _ = _frames(original, released, control, a + b,
                                             [("aux_cols[0]", a), ("aux_cols[1]", b)])
    n_attacks = check_int(n_attacks, "n_attacks", min_value=1)
    k = check_int(n_neighbors, "n_neighbors", min_value=1, max_value=len(released))
    confidence = check_number(confidence, "confidence", low=0.0, high=1.0, low_open=True, high_open=True)
    seed = check_seed(seed)
    rng = rng_from(seed)
    targets = _targets(original, n_attacks, rng)
    halves = (_neighbors.CandidateRows(released, a), _neighbors.CandidateRows(released, b))  # once for both
    main = _links(targets, halves, (a, b), k, rng, warn="the original")
    n = len(targets)
    base = _overlap(np.array([rng.choice(len(released), size=k, replace=False) for _ in range(n)]).reshape(n, k),
                    np.array([rng.choice(len(released), size=k, replace=False) for _ in range(n)]).reshape(n, k))
    details = pd.DataFrame({"target": targets.index, "main_success": main})
    n_ctrl = s_ctrl = None
    if control is not None:
        ctargets = _targets(control, n_attacks, rng)
        ctrl = _links(ctargets, halves, (a, b), k, rng)
        n_ctrl, s_ctrl = len(ctargets), float(ctrl.sum())
    params = {"aux_cols": [list(a), list(b)], "n_attacks": n, "n_neighbors": k, "n_original": len(original),
              "n_released": len(released), "n_control": None if control is None else len(control)}
    return _result("linkability", n, float(main.sum()), n, float(base.sum()), n_ctrl, s_ctrl, confidence, seed,
                   params, details, [])


# ==================================================================== inference
def _guess_right(guess: pd.Series, truth: pd.Series, regression: bool, tolerance: float) -> np.ndarray:
    g = guess.to_numpy()
    t = truth.to_numpy()
    both_na = pd.isna(g) & pd.isna(t)
    if regression:
        gf = pd.to_numeric(pd.Series(g), errors="coerce").to_numpy(dtype=np.float64)
        tf = pd.to_numeric(pd.Series(t), errors="coerce").to_numpy(dtype=np.float64)
        with np.errstate(invalid="ignore"):
            ok = np.abs(gf - tf) <= tolerance * np.abs(tf)
    else:
        ok = np.array([bool(x == y) if not (pd.isna(x) or pd.isna(y)) else False for x, y in zip(g, t)], dtype=bool)
    return np.asarray(ok | both_na, dtype=bool)


def inference_attack(
    original: pd.DataFrame,
    released: pd.DataFrame,
    aux_cols: Sequence[str],
    secret: str,
    *,
    control: pd.DataFrame | None = None,
    n_attacks: int = 500,
    regression: bool | None = None,
    tolerance: float = 0.05,
    confidence: float = 0.95,
    seed: int = 0,
) -> AnonymeterResult:
    """Inference risk (anonymeter's InferenceEvaluator; see the module docstring).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The training records and the released file.
    aux_cols : sequence of str
        What the attacker knows about a target.
    secret : str
        The column the attacker guesses.
    control : pandas.DataFrame, optional
        Held-out original records (:func:`split_control`).
    n_attacks : int
        Targets drawn from `original` (and from `control`).
    regression : bool, optional
        Numeric secret guessed within a tolerance (default: True for a numeric secret).
    tolerance : float
        Relative tolerance of a numeric guess: |guess - true| <= tolerance x |true|.
    confidence, seed
        As for :func:`singling_out_attack`.
    """
    original = check_frame(original, "original")
    released = check_frame(released, "released")
    aux = check_columns(released, aux_cols, role="aux_cols", where="the released file")
    (sec,) = check_columns(released, [secret], role="secret", where="the released file")
    if sec in aux:
        raise ValueError(f"`secret` {sec!r} is also in `aux_cols`.")
    original, released, control, _ = _frames(original, released, control, aux + (sec,), "aux_cols", secret=sec)
    n_attacks = check_int(n_attacks, "n_attacks", min_value=1)
    tolerance = check_number(tolerance, "tolerance", low=0.0, high=math.inf)
    confidence = check_number(confidence, "confidence", low=0.0, high=1.0, low_open=True, high_open=True)
    seed = check_seed(seed)
    if regression is None:
        regression = is_numeric_column(released[sec]) and is_numeric_column(original[sec])
    rng = rng_from(seed)
    targets = _targets(original, n_attacks, rng)
    n = len(targets)
    base_guess = released[sec].iloc[rng.choice(len(released), size=n, replace=True)]
    base = _guess_right(base_guess, targets[sec], bool(regression), tolerance)
    cands = _neighbors.CandidateRows(released, aux)  # once for the targets and the control targets
    nn = _neighbors.knn(_neighbors.prepare(targets, cands, aux, warn="the original"), 1, rng)[:, 0]
    guess = released[sec].iloc[nn]
    main = _guess_right(guess, targets[sec], bool(regression), tolerance)
    details = pd.DataFrame({"target": targets.index, "true": targets[sec].to_numpy(), "guess": guess.to_numpy(),
                            "main_success": main})
    n_ctrl = s_ctrl = None
    if control is not None:
        ct = _targets(control, n_attacks, rng)
        cnn = _neighbors.knn(_neighbors.prepare(ct, cands, aux), 1, rng)[:, 0]
        ctrl = _guess_right(released[sec].iloc[cnn], ct[sec], bool(regression), tolerance)
        n_ctrl, s_ctrl = len(ct), float(ctrl.sum())
    params = {"aux_cols": list(aux), "secret": sec, "regression": bool(regression), "tolerance": tolerance,
              "n_attacks": n, "n_original": len(original), "n_released": len(released),
              "n_control": None if control is None else len(control)}
    return _result("inference", n, float(main.sum()), n, float(base.sum()), n_ctrl, s_ctrl, confidence, seed, params,
                   details, [])
