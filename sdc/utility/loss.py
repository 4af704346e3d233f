"""Record-level information loss: IL1 as a share of the range, and sdcMicro's IL1s and IL1.

Two families, kept apart because their scales differ:

* :func:`information_loss` (IL1 per variable as a share of the variable's range, in
  [0, 1] for anything but noise that leaves the range): the figure a data steward reads
  and compares across variables and methods.
* :func:`il1s`: sdcMicro's ``dUtility`` measures IL1s (absolute differences scaled by
  sqrt(2) times the standard deviation, *summed* over every cell) and IL1 (relative
  differences in percent, summed), reproduced to machine precision (cross-validated
  through :mod:`r_bridge`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_option
from sdc.core.values import encode_pair
from sdc.exceptions import DegenerateDataWarning
from sdc.utility._common import (
    align, check_categorical, interval_bounds, numeric_values, numeric_variables, resolve_variables, variable_kind,
)

__all__ = ["InformationLossResult", "information_loss", "IL1sResult", "il1s", "SUPPRESSED_RULES"]

#: How a cell present in the original and missing in the release enters IL1.
SUPPRESSED_RULES = ("ignore", "max")


@dataclass(frozen=True)
class InformationLossResult:
    """Result of :func:`information_loss`.

    Attributes
    ----------
    variables : tuple of str
        The variables compared.
    overall : float
        Mean of the per-variable IL1 over the variables (NaN ones left out); 0 when no
        variable was compared.
    per_variable : pandas.DataFrame
        Indexed by variable: ``kind`` (numeric, generalised, categorical), ``n_compared``
        (cells that enter the mean), ``n_changed`` (compared cells with a loss above 0),
        ``n_suppressed`` (present in the original, missing in the release), ``range``
        (max - min of the original; NaN for categorical variables) and ``il1``.
    suppressed : str
        ``"ignore"`` or ``"max"`` (see :func:`information_loss`).
    n_records : int
    """

    variables: tuple[str, ...]
    overall: float
    per_variable: pd.DataFrame = field(repr=False)
    suppressed: str
    n_records: int

    @property
    def il1(self) -> pd.Series:
        """IL1 per variable."""
        return self.per_variable["il1"]

    def to_frame(self) -> pd.DataFrame:
        """One row per variable (the ``per_variable`` table with ``variable`` as a column)."""
        return self.per_variable.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures (overall IL1 and IL1 per variable) as rows of (statistic, value, description)."""
        return summary_frame([
            ("il1_overall", float(self.overall), "mean IL1 over the variables (share of the range)"),
            ("il1", {v: float(x) for v, x in self.il1.items()}, "IL1 per variable"),
            ("n_records", self.n_records, "records"),
            ("suppressed", self.suppressed, "how a suppressed cell counts"),
        ])


def _scale_loss(dist: np.ndarray, rng: float, name: str) -> np.ndarray:
    """dist / range; a constant original variable has no range, so any change is undefined."""
    if rng > 0:
        return dist / rng
    if np.any(dist > 0):
        warnings.warn(
            f"variable {name!r} is constant in `original` (range 0), so a change cannot be expressed as a share "
            "of its range; its IL1 is NaN.", DegenerateDataWarning, stacklevel=4,
        )
        return np.full(dist.shape, np.nan)
    return np.zeros(dist.shape)


def _il1_one(before: pd.Series, after: pd.Series, kind: str, suppressed: str) -> dict[str, Any]:
    name = str(before.name)
    if kind == "categorical":
        a, b, _ = encode_pair(before, after)
        present_o, present_r = a >= 0, b >= 0
        both = present_o & present_r
        cell = (a[both] != b[both]).astype(np.float64)
        rng = math.nan
    else:
        x = numeric_values(before, "original")
        present_o = ~np.isnan(x)
        rng = float(np.max(x[present_o]) - np.min(x[present_o])) if present_o.any() else math.nan
        if kind == "numeric":
            y = numeric_values(after, "released")
            present_r = ~np.isnan(y)
            both = present_o & present_r
            cell = _scale_loss(np.abs(y[both] - x[both]), rng, name)
        else:  # generalised: Iyengar's loss of an interval, width / range (at most 1)
            lo, hi, parsed = interval_bounds(after)
            present_r = after.notna().to_numpy()
            both = present_o & present_r
            xo, lo_b, hi_b, ok = x[both], lo[both], hi[both], parsed[both]
            with np.errstate(invalid="ignore"):
                far = np.where(ok, np.maximum.reduce([hi_b - lo_b, np.abs(xo - lo_b), np.abs(xo - hi_b)]), np.inf)
            cell = np.minimum(1.0, _scale_loss(far, rng, name)) if rng > 0 else _scale_loss(far, rng, name)
    n_suppressed = int((present_o & ~present_r).sum())
    n_changed = int(np.count_nonzero(cell > 0) + np.count_nonzero(np.isnan(cell)))
    if suppressed == "max":
        cell = np.concatenate([cell, np.ones(n_suppressed)])
    value = float(np.mean(cell)) if cell.size else math.nan
    return {"kind": kind, "n_compared": int(cell.size), "n_changed": n_changed, "n_suppressed": n_suppressed,
            "range": rng, "il1": value}


def information_loss(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
    *,
    categorical: str | Sequence[str] | None = None,
    suppressed: str = "max",
) -> InformationLossResult:
    r"""IL1 per variable as a share of the range, and its mean over the variables.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection. Records are matched by index: both must
        hold the same index labels (the order may differ). Neither is modified.
    variables : str or sequence of str, optional
        Variables to compare. By default every column of `original`, also in `released`,
        whose values differ in at least one record (the transformed variables).
    categorical : str or sequence of str, optional
        Variables to compare as categories even if numeric (e.g. integer-coded keys).
    suppressed : {"ignore", "max"}, default "max"
        A cell present in the original and missing in the release (a suppression):
        ``"ignore"`` leaves it out (the mean is over the non-missing pairs; suppressions
        are counted in ``n_suppressed`` and by :func:`sdc.suppression`), ``"max"`` counts
        it as a loss of 1 (the whole range, or a changed category): the default, as
        ``sdc compare`` and ``sdc sweep`` count them.

    Returns
    -------
    InformationLossResult
        ``.overall`` is the headline figure.

    Notes
    -----
    For variable j with original values x_i and released values x'_i, over the records
    where both are present (n_j of them):

    * numeric (numeric on both sides):
      :math:`IL1_j = \frac{1}{n_j}\sum_i |x'_i - x_i| / (\max x - \min x)`, the range taken
      over the original's non-missing values. Noise that leaves the range can give
      cell losses above 1; a constant original variable gives NaN (with a warning) unless
      nothing changed;
    * generalised (numeric original, released as intervals such as ``"20--30"``,
      ``"[20, 30)"`` or ``pandas.Interval``): the cell loss is the interval's width over
      the range, :math:`\min(1, (b - a)/(\max x - \min x))` (Iyengar 2002, "loss metric";
      ARX's *Loss* model), or the distance from x to the far end of [a, b] when x lies
      outside it; a released value that is no interval (``"*"``) counts 1;
    * categorical: the share of changed values, :math:`\frac{1}{n_j}\sum_i [x'_i \ne x_i]`.

    The overall figure is the mean of IL1_j over the variables. Records missing in the
    original are never counted (there is no information to lose).

    IL1 here follows the definition of Domingo-Ferrer & Torra's IL1 family (Yancey,
    Winkler & Creecy 2002) scaled by the range, so that every variable lies on the same
    [0, 1] scale. sdcMicro's ``dUtility`` has two other scalings (by |x| and by the
    standard deviation); see :func:`il1s`.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"age": [20, 30, 40, 60], "sex": ["m", "f", "f", "m"]})
    >>> rel = pd.DataFrame({"age": [20, 34, 40, 56], "sex": ["m", "f", "m", "m"]})
    >>> r = sdc.information_loss(orig, rel, ["age", "sex"])
    >>> r.il1.round(3).tolist(), round(r.overall, 3)
    ([0.05, 0.25], 0.15)
    """
    orig, rel = align(original, released)
    suppressed = check_option(suppressed, "suppressed", SUPPRESSED_RULES)
    cols = resolve_variables(orig, rel, variables)
    cats = check_categorical(categorical, cols)
    rows = {v: _il1_one(orig[v], rel[v], variable_kind(orig[v], rel[v], cats), suppressed) for v in cols}
    per = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["kind", "n_compared", "n_changed", "n_suppressed", "range", "il1"])
    per.index.name = "variable"
    per = per.astype({"n_compared": np.int64, "n_changed": np.int64, "n_suppressed": np.int64,
                      "range": np.float64, "il1": np.float64})
    vals = per["il1"].to_numpy(dtype=np.float64)
    finite = vals[~np.isnan(vals)]
    overall = float(finite.mean()) if finite.size else (0.0 if not cols else math.nan)
    return InformationLossResult(variables=cols, overall=overall, per_variable=per, suppressed=suppressed,
                                 n_records=len(orig))


@dataclass(frozen=True)
class IL1sResult:
    """Result of :func:`il1s`: sdcMicro's ``dUtility`` IL1s, IL1old and IL1 figures.

    Attributes
    ----------
    variables : tuple of str
    total : float
        sdcMicro's ``dUtility(x, xm, method = "IL1s")``: the sum over every cell of
        :math:`|x' - x| / (\\sqrt{2}\\, s_j)`.
    mean : float
        ``total / (n p)``: sdcMicro's ``method = "IL1old"`` (n records, p variables).
    relative_total : float
        sdcMicro's ``method = "IL1"``: the sum over cells of 100 |x' - x| / |x|.
    per_variable : pandas.DataFrame
        Indexed by variable: ``sd`` (of the original, n - 1), ``n_compared``, ``il1s``
        (the variable's share of ``total``) and ``il1_relative`` (its share of
        ``relative_total``).
    n_records : int

    Under sdcMicro's names (the same numbers): :attr:`il1` is ``relative_total`` (what
    sdcMicro calls IL1), :attr:`il1s` is ``total`` and :attr:`il1old` is ``mean``.
    """

    variables: tuple[str, ...]
    total: float
    mean: float
    relative_total: float
    per_variable: pd.DataFrame = field(repr=False)
    n_records: int

    @property
    def il1(self) -> float:
        """sdcMicro's IL1 (``dUtility(method = "IL1")``): :attr:`relative_total` under its name."""
        return float(self.relative_total)

    @property
    def il1s(self) -> float:
        """sdcMicro's IL1s (``dUtility(method = "IL1s")``): :attr:`total` under its name."""
        return float(self.total)

    @property
    def il1old(self) -> float:
        """sdcMicro's IL1old (``dUtility(method = "IL1old")``): :attr:`mean` under its name."""
        return float(self.mean)

    def to_frame(self) -> pd.DataFrame:
        """One row per variable."""
        return self.per_variable.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures under sdcMicro's names, as rows of (statistic, value, description)."""
        return summary_frame([
            ("il1s", float(self.total), "sdcMicro's IL1s: sum of |x' - x| / (sqrt(2) s_j)"),
            ("il1s_mean", float(self.mean), "sdcMicro's IL1old: IL1s / (n p)"),
            ("il1", float(self.relative_total), "sdcMicro's IL1: sum of 100 |x' - x| / |x|"),
            ("n_records", self.n_records, "records"),
            ("variables", list(self.variables), "the numeric variables"),
        ])


def il1s(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> IL1sResult:
    r"""sdcMicro's IL1s (and IL1, IL1old) of numeric variables.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`information_loss`). Not modified.
    variables : str or sequence of str, optional
        Numeric variables (numeric in both files). By default every numeric column of
        `original` that is numeric in `released` too.

    Returns
    -------
    IL1sResult

    Notes
    -----
    With s_j the standard deviation of original variable j (divisor n - 1, over its
    non-missing values), summing over records i and variables j:

    .. math::

        IL1s = \sum_{i,j} \frac{|x'_{ij} - x_{ij}|}{\sqrt{2}\, s_j}, \qquad
        IL1 = \sum_{i,j} 100 \frac{|x'_{ij} - x_{ij}|}{|x_{ij}|}

    (Mateo-Sanz, Sebé and Domingo-Ferrer 2004, "Outlier protection in continuous
    microdata masking", PSD 2004; sdcMicro's ``dUtility``, Templ 2008). Both are **sums**
    over cells, as in sdcMicro; ``mean`` divides IL1s by n p (sdcMicro's ``"IL1old"``).
    sdcMicro's conventions are kept: cells where either value is missing are left out;
    in IL1, cells with x = 0 are left out (x = 0 and x' != 0 would be infinite). A
    constant original variable (s_j = 0) that changed gives an infinite IL1s (with a
    warning); a variable with fewer than two values has no s_j, so its ``il1s`` is NaN
    and it adds nothing to ``total`` (sdcMicro adds 0). Files with different records
    are refused with a clear error (sdcMicro's ``dUtility`` means to truncate the release,
    but in 5.8.2 fails with "object 'obj' not found").

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> x = pd.DataFrame({"v": [0.0, 1.0, 2.0, 0.0]})
    >>> xm = pd.DataFrame({"v": [0.0, 2.0, 2.0, 1.0]})
    >>> r = sdc.il1s(x, xm)
    >>> round(r.total, 6), r.relative_total
    (1.477098, 100.0)
    """
    orig, rel = align(original, released)
    cols = numeric_variables(orig, rel, variables)
    rows = {}
    for v in cols:
        x = numeric_values(orig[v], "original")
        y = numeric_values(rel[v], "released")
        sd = float(np.std(x[~np.isnan(x)], ddof=1)) if np.count_nonzero(~np.isnan(x)) >= 2 else math.nan
        both = ~np.isnan(x) & ~np.isnan(y)
        d = np.abs(y[both] - x[both])
        if math.isnan(sd):
            s_val = math.nan
        elif sd > 0:
            s_val = float(np.sum(d / (sd * math.sqrt(2.0))))
        elif np.any(d > 0):
            warnings.warn(f"variable {v!r} is constant in `original` (sd 0) but changed: its IL1s is infinite.",
                          DegenerateDataWarning, stacklevel=2)
            s_val = math.inf
        else:
            s_val = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            rel_terms = 100.0 * d / np.abs(x[both])
        rel_val = float(np.sum(rel_terms[np.isfinite(rel_terms)]))
        rows[v] = {"sd": sd, "n_compared": int(both.sum()), "il1s": s_val, "il1_relative": rel_val}
    per = pd.DataFrame.from_dict(rows, orient="index", columns=["sd", "n_compared", "il1s", "il1_relative"])
    per.index.name = "variable"
    total = float(np.nansum(per["il1s"].to_numpy(dtype=np.float64)))
    return IL1sResult(
        variables=cols, total=total, mean=total / (len(orig) * len(cols)),
        relative_total=float(per["il1_relative"].sum()), per_variable=per, n_records=len(orig),
    )
