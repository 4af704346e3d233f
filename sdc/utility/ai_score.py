r"""sdcMicro's combined utility score of an anonymisation (``ai_utility_score``, sdcMicro 5.8).

One number, lower is better (0: nothing lost), from three shares of the key and numeric cells:
the suppression rate, the category loss and IL1s per cell, weighted. sdcMicro computes it to
rank the strategies its ``AI_applyAnonymization`` receives from a language model;
``sdc advise`` (:mod:`sdc.workflow.advise`) ranks the plans it generates from rules with it.
Reimplemented from the formula below (sdcMicro's documentation of ``ai_utility_score`` and
its definition in ``R/ai_anonymization_utilities.R``, read, not copied).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_number, check_option, is_numeric_column
from sdc.utility._common import align
from sdc.utility.loss import il1s

__all__ = ["AIScoreResult", "ai_utility_score", "AI_SCORE_WEIGHTS", "AI_SCORE_MODES", "score_weights"]

#: sdcMicro's default weights of (suppression rate, category loss, IL1s per cell).
AI_SCORE_WEIGHTS = (1 / 3, 1 / 3, 1 / 3)
#: "correct": a key's category loss is at least 0 (a key that gains values, as microaggregation's
#: group means do, loses nothing and gains no credit); "sdcmicro": sdcMicro's unbounded
#: 1 - after / before, negative when a key gains values.
AI_SCORE_MODES = ("correct", "sdcmicro")


@dataclass(frozen=True)
class AIScoreResult:
    """Result of :func:`ai_utility_score`.

    Attributes
    ----------
    total : float
        ``w1 * suppression_rate + w2 * category_loss + w3 * il1`` (lower is better).
    suppression_rate : float
        New missing key cells over all key cells.
    category_loss : float
        Mean over the keys of ``1 - levels after / levels before``.
    il1 : float
        sdcMicro's IL1s of the numeric variables over their cells (``IL1s / (n p)``).
    weights : tuple of float
        The weights, normalised to sum to 1.
    mode : str
        "correct" (each key's category loss at least 0) or "sdcmicro" (unbounded).
    keys, numeric : tuple of str
    per_key : pandas.DataFrame
        Per key: ``cells_suppressed``, ``levels_before``, ``levels_after``, ``category_loss``.
    """

    total: float
    suppression_rate: float
    category_loss: float
    il1: float
    weights: tuple[float, float, float]
    mode: str
    keys: tuple[str, ...]
    numeric: tuple[str, ...]
    per_key: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per key."""
        return self.per_key.reset_index()

    def summary(self) -> pd.DataFrame:
        """The score and its three parts as rows of (statistic, value, description)."""
        return summary_frame([
            ("total", self.total, "weighted score, lower is better (sdcMicro's ai_utility_score)"),
            ("suppression_rate", self.suppression_rate, "new missing key cells / key cells"),
            ("category_loss", self.category_loss, "mean over the keys of 1 - levels after / levels before"),
            ("il1", self.il1, "IL1s of the numeric variables / their cells"),
            ("weights", list(self.weights), "weights of the three parts (normalised)"),
            ("mode", self.mode, "correct: a key's category loss at least 0; sdcmicro: unbounded"),
        ])


def score_weights(weights: Sequence[float]) -> tuple[float, float, float]:
    """The three weights checked and normalised to sum to 1."""
    w = list(weights) if not isinstance(weights, (str, bytes)) else []
    if len(w) != 3:
        raise ValueError(f"`weights` must be three numbers (suppression, category loss, IL1); got {weights!r}.")
    vals = [check_number(x, "weights", low=0.0, high=math.inf) for x in w]
    if sum(vals) <= 0:
        raise ValueError(f"`weights` must not all be 0; got {weights!r}.")
    s = sum(vals)
    return (vals[0] / s, vals[1] / s, vals[2] / s)


def _per_key(orig: pd.DataFrame, rel: pd.DataFrame, keys: Sequence[str], mode: str) -> pd.DataFrame:
    rows = {}
    for v in keys:
        kept = rel[v].notna().to_numpy()
        before = int(orig[v][kept].nunique(dropna=False))
        after = int(rel[v][kept].nunique(dropna=False))
        rows[v] = {"cells_missing_before": int(orig[v].isna().sum()), "cells_missing_after": int((~kept).sum()),
                   "levels_before": before, "levels_after": after,
                   "category_loss": _loss(before, after, mode)}
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["cells_missing_before", "cells_missing_after", "levels_before",
                                          "levels_after", "category_loss"])
    out.index.name = "variable"
    return out


def _loss(before: int, after: int, mode: str) -> float:
    if before <= 0:
        return 0.0
    loss = 1.0 - after / before
    return max(0.0, loss) if mode == "correct" else loss


def _il1_per_cell(orig: pd.DataFrame, rel: pd.DataFrame, numeric: Sequence[str]) -> float:
    """IL1s / (n p); a variable the release no longer holds as numbers adds 0 (sdcMicro's numeric
    copy of a recoded key is unchanged), but counts in p."""
    if not numeric or not len(orig):
        return 0.0
    still = [v for v in numeric if is_numeric_column(rel[v])]
    total = il1s(orig, rel, still).total if still else 0.0
    return float(total) / (len(orig) * len(numeric))


def ai_utility_score(
    original: pd.DataFrame,
    released: pd.DataFrame,
    keys: Sequence[str],
    numeric: Sequence[str] = (),
    *,
    weights: Sequence[float] = AI_SCORE_WEIGHTS,
    mode: str = "correct",
) -> AIScoreResult:
    r"""sdcMicro's combined utility score of a release: suppression, category loss and IL1s.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (the same records).
        Not modified.
    keys : sequence of str
        The key variables (sdcMicro's ``keyVars``): the suppression rate and category loss.
    numeric : sequence of str
        The numeric variables (sdcMicro's ``numVars``), numeric in `original`: IL1s.
    weights : three numbers, default (1/3, 1/3, 1/3)
        Weights of the suppression rate, the category loss and IL1, normalised to sum to 1.
    mode : {"correct", "sdcmicro"}, default "correct"
        "sdcmicro" is sdcMicro's formula, whose category loss is negative when a key gains
        values (microaggregation's group means, noise): such a release scores better than the
        original. "correct" takes each key's loss as at least 0 (docs/sdcmicro-differences.md).

    Returns
    -------
    AIScoreResult

    Notes
    -----
    With n records, K the keys and P the numeric variables, :math:`m_j` and :math:`m'_j` the
    missing cells of key j before and after, :math:`L_j` and :math:`L'_j` its distinct values
    (a missing value counts as one) over the records where the release has a value, and
    :math:`s_p` the standard deviation (n - 1) of numeric variable p:

    .. math::

        S = \frac{\max(0, \sum_j m'_j - \sum_j m_j)}{n |K|}, \qquad
        C = \frac{1}{|K|}\sum_j \Bigl(1 - \frac{L'_j}{L_j}\Bigr), \qquad
        I = \frac{1}{n |P|}\sum_{p}\sum_i \frac{|x'_{ip} - x_{ip}|}{\sqrt{2}\, s_p}

    and the score is :math:`w_1 S + w_2 C + w_3 I` (weights normalised). Source: sdcMicro
    5.8's ``ai_utility_score`` (``R/ai_anonymization_utilities.R``); :math:`I` is
    ``dUtility(method = "IL1s")`` over the cells (:func:`sdc.il1s`). A numeric variable the
    release holds as text (recoded into bands) adds 0 to the sum of :math:`I`, as sdcMicro's
    unchanged numeric copy of a recoded key does; its loss is in :math:`C`. In sdcMicro's mode
    :math:`C` is negative when a key gains values; the correct mode (the default) takes
    :math:`\max(0, 1 - L'_j / L_j)` per key.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> o = pd.DataFrame({"a": ["x", "y", "z", "z"], "b": [1.0, 2.0, 3.0, 4.0]})
    >>> r = pd.DataFrame({"a": ["x", None, "z", "z"], "b": [1.0, 2.0, 3.0, 4.0]})
    >>> s = sdc.ai_utility_score(o, r, ["a"], ["b"])
    >>> round(s.suppression_rate, 3), round(s.category_loss, 3), s.il1
    (0.25, 0.0, 0.0)
    """
    orig, rel = align(original, released)
    for frame, name in ((orig, "original"), (rel, "released")):
        keys = list(check_columns(frame, keys, role="keys", where=f"`{name}`"))
        numeric = list(check_columns(frame, numeric, role="numeric", where=f"`{name}`", allow_empty=True))
    bad = [v for v in numeric if not is_numeric_column(orig[v])]
    if bad:
        raise ValueError(f"`numeric` must name numeric variables of `original`; got {bad[0]!r}, which is not.")
    w = score_weights(weights)
    mode = check_option(mode, "mode", AI_SCORE_MODES)
    per = _per_key(orig, rel, keys, mode)
    new = max(0, int(per["cells_missing_after"].sum()) - int(per["cells_missing_before"].sum()))
    cells = len(orig) * len(keys)
    supp = new / cells if cells else 0.0
    cat = float(np.mean(per["category_loss"].to_numpy(dtype=np.float64)))
    il = _il1_per_cell(orig, rel, numeric)
    total = w[0] * supp + w[1] * cat + w[2] * il
    return AIScoreResult(total=float(total), suppression_rate=float(supp), category_loss=cat, il1=il, weights=w,
                         mode=mode, keys=tuple(keys), numeric=tuple(numeric), per_key=per)
