"""Mlodak's information-loss measures: the correlation structure (``IL_correl``) and the
record-by-record distance per variable (``IL_variables``), both between 0 and 1.

sdcMicro 5.8 offers them as ``IL_correl(x, xm)`` and ``IL_variables(x, xm)`` (Mlodak 2019,
2020); :func:`il_correl` and :func:`il_variables` compute the same figures (reimplemented from
the published formulas; the edge cases, each documented, follow sdcMicro or say where not).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.values import encode_pair
from sdc.exceptions import DegenerateDataWarning
from sdc.utility._common import align, is_numeric, numeric_values, numeric_variables, resolve_variables

__all__ = ["ILCorrelResult", "il_correl", "ILVariablesResult", "il_variables", "inverse_correlation_diagonal",
           "IL_KINDS"]

#: How :func:`il_variables` compares a variable.
IL_KINDS = ("numeric", "ordered", "nominal")


def inverse_correlation_diagonal(values: np.ndarray) -> np.ndarray:
    """The diagonal of the inverse of the correlation matrix of the complete rows of `values`
    (R's ``cor(x, use = "complete.obs")``): each variable's variance inflation factor. NaN
    (every entry) when the matrix is undefined or singular (reciprocal condition number in
    the 1-norm below the machine epsilon, as R's ``solve`` refuses it)."""
    p = values.shape[1]
    x = values[~np.isnan(values).any(axis=1)]
    if x.shape[0] < 2:
        return np.full(p, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.atleast_2d(np.corrcoef(x, rowvar=False))
    if not np.all(np.isfinite(r)) or 1.0 / np.linalg.cond(r, 1) < np.finfo(np.float64).eps:
        return np.full(p, np.nan)
    return np.diag(np.linalg.inv(r)).copy()


@dataclass(frozen=True)
class ILCorrelResult:
    """Result of :func:`il_correl`.

    Attributes
    ----------
    variables : tuple of str
        The numeric variables.
    value : float
        Mlodak's correlation loss with sdcMicro's factor 1/sqrt(2): 0 when the diagonals of
        the inverse correlation matrices are proportional, at most 1. NaN when a
        correlation matrix is undefined or singular.
    per_variable : pandas.DataFrame
        Indexed by variable: ``vif_before``, ``vif_after`` (the diagonal entries of the
        inverse correlation matrices: variance inflation factors), ``share_before``,
        ``share_after`` (each divided by the vector's Euclidean norm).
    n_complete_original, n_complete_released : int
        Records with every variable present (the correlations are taken over them).
    n_records : int
    """

    variables: tuple[str, ...]
    value: float
    per_variable: pd.DataFrame = field(repr=False)
    n_complete_original: int
    n_complete_released: int
    n_records: int

    def to_frame(self) -> pd.DataFrame:
        """One row per variable."""
        return self.per_variable.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figure as rows of (statistic, value, description)."""
        return summary_frame([
            ("il_correl", float(self.value), "Mlodak's correlation loss (sdcMicro IL_correl; 0: the same, at most 1)"),
            ("variables", list(self.variables), "the numeric variables"),
            ("n_complete_original", self.n_complete_original, "records of `original` with every variable present"),
            ("n_complete_released", self.n_complete_released, "records of `released` with every variable present"),
            ("n_records", self.n_records, "records"),
        ])


def il_correl(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> ILCorrelResult:
    r"""Mlodak's information loss of the correlation structure (sdcMicro's ``IL_correl``).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Numeric variables (numeric in both files). By default every numeric column of
        `original` that is numeric in `released` too (as sdcMicro takes the common numeric
        columns).

    Returns
    -------
    ILCorrelResult
        ``.value`` is the headline figure.

    Notes
    -----
    With :math:`d = \operatorname{diag}(R^{-1})` and :math:`d' = \operatorname{diag}(R'^{-1})`
    the diagonals of the inverse correlation matrices of the original and the release
    (Pearson, over the records complete in all the variables, each file on its own):

    .. math::

        \lambda = \frac{1}{\sqrt{2}} \left\lVert \frac{d}{\lVert d \rVert} - \frac{d'}{\lVert d' \rVert} \right\rVert

    (Mlodak 2020, "Information loss resulting from statistical disclosure control of output
    data", Wiadomości Statystyczne 65(9), 7-27, with sdcMicro's factor :math:`1/\sqrt{2}` in
    place of Mlodak's 1/2; sdcMicro's ``IL_correl``). The entries of d are at least 1 (they
    are the variance inflation factors), so both unit vectors lie in the positive orthant and
    :math:`0 \le \lambda \le 1`. One variable gives 0. A singular or undefined correlation
    matrix (a constant variable, fewer than two complete records, a linear combination)
    gives NaN with a warning, where sdcMicro stops with "error while computing inverse of
    correlation matrix".

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> x = pd.DataFrame({"a": [1.0, 2, 3, 4, 5], "b": [2.0, 1, 4, 3, 5], "c": [1.0, 3, 2, 5, 4]})
    >>> round(sdc.il_correl(x, x.assign(c=[5.0, 3, 2, 1, 4])).value, 6)
    0.2264
    """
    orig, rel = align(original, released)
    cols = numeric_variables(orig, rel, variables)
    xo = np.column_stack([numeric_values(orig[c], "original") for c in cols])
    xr = np.column_stack([numeric_values(rel[c], "released") for c in cols])
    d_o, d_r = inverse_correlation_diagonal(xo), inverse_correlation_diagonal(xr)
    for d, name in ((d_o, "original"), (d_r, "released")):
        if np.isnan(d).any():
            warnings.warn(f"the correlation matrix of `{name}` is undefined or singular (a constant variable, fewer "
                          "than two complete records, or a linear combination of the others): IL_correl is NaN.",
                          DegenerateDataWarning, stacklevel=2)
    s_o, s_r = d_o / np.linalg.norm(d_o), d_r / np.linalg.norm(d_r)
    value = float(np.linalg.norm(s_o - s_r) / math.sqrt(2.0))
    per = pd.DataFrame({"vif_before": d_o, "vif_after": d_r, "share_before": s_o, "share_after": s_r},
                       index=pd.Index(list(cols), name="variable"))
    return ILCorrelResult(
        variables=cols, value=value, per_variable=per,
        n_complete_original=int((~np.isnan(xo).any(axis=1)).sum()),
        n_complete_released=int((~np.isnan(xr).any(axis=1)).sum()), n_records=len(orig),
    )


@dataclass(frozen=True)
class ILVariablesResult:
    """Result of :func:`il_variables`.

    Attributes
    ----------
    variables : tuple of str
    value : float
        sdcMicro's ``IL_variables``: the sum of the record distances over every variable,
        divided by (records x variables); 0 when nothing changed, at most 1.
    per_variable : pandas.DataFrame
        Indexed by variable: ``kind`` (numeric, ordered, nominal), ``max_difference`` (what
        a value missing on one side counts: the largest possible difference for a numeric
        variable, the number of categories minus 1 for an ordered one, NaN for a nominal
        one), ``n_changed`` (records with a distance above 0) and ``loss`` (the variable's
        distances summed, divided by the records: sdcMicro's individual contribution).
    n_records : int
    """

    variables: tuple[str, ...]
    value: float
    per_variable: pd.DataFrame = field(repr=False)
    n_records: int

    @property
    def loss(self) -> pd.Series:
        """The loss per variable."""
        return self.per_variable["loss"]

    def to_frame(self) -> pd.DataFrame:
        """One row per variable."""
        return self.per_variable.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figure and the loss per variable as rows of (statistic, value, description)."""
        return summary_frame([
            ("il_variables", float(self.value), "Mlodak's mean distance per cell (sdcMicro IL_variables; 0 to 1)"),
            ("loss", {v: float(x) for v, x in self.loss.items()}, "loss per variable"),
            ("n_records", self.n_records, "records"),
        ])


def _il_kind(a: pd.Series, b: pd.Series) -> str:
    if is_numeric(a) and is_numeric(b):
        return "numeric"
    ca, cb = getattr(a, "cat", None), getattr(b, "cat", None)
    if (ca is not None and cb is not None and a.cat.ordered and b.cat.ordered
            and list(a.cat.categories) == list(b.cat.categories)):
        return "ordered"
    return "nominal"


def _il_distances(a: pd.Series, b: pd.Series, kind: str) -> tuple[np.ndarray, float]:
    """Each record's distance (0 to 1) and the figure a value missing on one side counts."""
    if kind == "numeric":
        x = numeric_values(a, "original")
        y = numeric_values(b, "released")
        px, py = ~np.isnan(x), ~np.isnan(y)
        if px.any() and py.any():
            # the largest possible |x - y|: sdcMicro's max(abs(range(p) - rev(range(x))))
            max_diff = float(max(abs(np.min(y[py]) - np.max(x[px])), abs(np.max(y[py]) - np.min(x[px]))))
        else:
            max_diff = math.inf  # R's range of no values is (Inf, -Inf)
        v = np.where(px & py, np.abs(x - y), max_diff)
        return np.where(~px & ~py, 0.0, (2.0 / math.pi) * np.arctan(v)), max_diff
    if kind == "ordered":
        x = a.cat.codes.to_numpy(dtype=np.float64)
        y = b.cat.codes.to_numpy(dtype=np.float64)
        px, py = x >= 0, y >= 0
        max_diff = float(len(a.cat.categories) - 1)
        d = np.where(px & py, np.abs(x - y), max_diff)
        d = np.where(~px & ~py, 0.0, d)
        if max_diff == 0:
            warnings.warn(f"ordered variable {a.name!r} has one category: its distance (a difference over the number "
                          "of categories minus 1) is 0 / 0, so IL_variables is NaN, as in sdcMicro.",
                          DegenerateDataWarning, stacklevel=4)
            return np.full(d.shape, np.nan), max_diff
        return d / max_diff, max_diff
    ca, cb, _ = encode_pair(a, b)
    px, py = ca >= 0, cb >= 0
    d = np.where(px & py, (ca != cb).astype(np.float64), 1.0)
    return np.where(~px & ~py, 0.0, d), math.nan


def il_variables(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> ILVariablesResult:
    r"""Mlodak's information loss per variable and overall (sdcMicro's ``IL_variables``).

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        The variables. By default every column of `original` that is in `released` too
        (sdcMicro takes every common column, unchanged ones included: they add 0 to the sum
        and 1 to the variables).

    Returns
    -------
    ILVariablesResult
        ``.value`` is the headline figure.

    Notes
    -----
    With n records and m variables, and :math:`\delta_j(x, x')` a distance between 0 and 1
    for each record:

    .. math::

        \lambda = \frac{1}{n m} \sum_{j=1}^m \sum_{i=1}^n \delta_j(x_{ij}, x'_{ij}), \qquad
        \lambda_j = \frac{1}{n} \sum_i \delta_j(x_{ij}, x'_{ij})

    * numeric (numeric in both files):
      :math:`\delta = \frac{2}{\pi} \arctan |x - x'|` (in the variable's own units);
    * ordered (an ordered ``pandas.Categorical`` in both files, with the same categories,
      in order 1..K): :math:`\delta = |\operatorname{rank}(x) - \operatorname{rank}(x')| / (K - 1)`;
    * nominal (anything else): :math:`\delta = [x \ne x']`.

    A value missing on both sides counts 0; missing on one side it counts the largest
    possible difference: for a numeric variable
    :math:`\frac{2}{\pi}\arctan \max(|\min x' - \max x|, |\max x' - \min x|)` (1 when a file
    has no value of it), 1 for the others (Mlodak 2019, "Using the complex measure in an
    assessment of the information loss due to the microdata disclosure control", Przegląd
    Statystyczny 66(1), 7-26; Mlodak 2020; sdcMicro's ``IL_variables``).

    Where sdcMicro stops, sdc goes on: an integer column is numeric here (sdcMicro's test
    ``inherits(x, "numeric")`` is false for R integers, which then fail its nominal check);
    a variable numeric in one file only, or an ordered categorical whose categories differ
    between the files, is compared as nominal (sdcMicro requires the same class and
    levels). An ordered variable with one category gives NaN (0 / 0, as in sdcMicro).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> x = pd.DataFrame({"v": [0.0, 1.0, 2.0, 3.0], "s": ["a", "b", "a", "b"]})
    >>> r = sdc.il_variables(x, x.assign(v=[0.0, 2.0, 2.0, 3.0], s=["a", "a", "a", "b"]))
    >>> round(r.value, 6), r.loss.round(4).tolist()
    (0.1875, [0.125, 0.25])
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables, default_changed=False)
    if not cols:
        raise ValueError("`original` and `released` share no column; name the `variables`.")
    rows = {}
    for v in cols:
        kind = _il_kind(orig[v], rel[v])
        d, max_diff = _il_distances(orig[v], rel[v], kind)
        rows[v] = {"kind": kind, "max_difference": max_diff, "n_changed": int(np.count_nonzero(d > 0)),
                   "loss": float(np.sum(np.sort(d))) / len(orig) if len(orig) else math.nan}  # sorted: any record order
    per = pd.DataFrame.from_dict(rows, orient="index", columns=["kind", "max_difference", "n_changed", "loss"])
    per.index.name = "variable"
    per = per.astype({"max_difference": np.float64, "n_changed": np.int64, "loss": np.float64})
    value = float(per["loss"].sum(skipna=False)) / len(cols)
    return ILVariablesResult(variables=cols, value=value, per_variable=per, n_records=len(orig))
