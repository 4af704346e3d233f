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
    Predicates built from the released file that select exactly one released record:
    :mod:`sdc.attacks.singling_out`.
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
from sdc._validation import check_columns, check_fraction, check_frame, check_int, check_number
from sdc.attacks import _neighbors
from sdc.attacks._common import check_seed, frame_rows, is_numeric_column, plain, rng_from
from sdc.exceptions import SdcWarning

__all__ = [
    "SuccessRate", "AnonymeterResult", "success_rate", "residual_risk", "split_control",
    "linkability_attack", "inference_attack",
]


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


def attack_result(attack: str, n_main: int, s_main: float, n_base: int, s_base: float, n_ctrl: int | None,
                  s_ctrl: float | None, confidence: float, seed: int, params: dict[str, Any], details: pd.DataFrame,
                  notes: list[str]) -> AnonymeterResult:
    """The result of an attack from its counts: main, baseline and control rates, the risk, the notes
    (used by the three attacks, :mod:`sdc.attacks.singling_out` among them)."""
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


def attack_files(original: object, released: object, control: object, columns: tuple[str, ...] | None,
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
    original, released, control, _ = attack_files(original, released, control, a + b,
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
    return attack_result("linkability", n, float(main.sum()), n, float(base.sum()), n_ctrl, s_ctrl, confidence,
                         seed, params, details, [])


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
    original, released, control, _ = attack_files(original, released, control, aux + (sec,), "aux_cols", secret=sec)
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
    return attack_result("inference", n, float(main.sum()), n, float(base.sum()), n_ctrl, s_ctrl, confidence, seed,
                         params, details, [])
