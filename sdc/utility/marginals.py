"""Marginal distributions before and after: category shares, means, standard deviations, quantiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.values import encode_pair
from sdc.utility._common import align, check_categorical, is_numeric, numeric_values, resolve_variables

__all__ = ["MarginalResult", "marginal_change", "DEFAULT_QUANTILES"]

DEFAULT_QUANTILES = (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0)


@dataclass(frozen=True)
class MarginalResult:
    """Result of :func:`marginal_change`.

    Attributes
    ----------
    categorical, numeric : tuple of str
    distributions : pandas.DataFrame
        Categorical variables, one row per (variable, value), missing included (its
        ``value`` is missing and ``is_missing`` True): ``count_before``,
        ``count_after``, ``pct_before``, ``pct_after`` (percent of all records) and
        ``difference_pp`` (after - before, percentage points).
    max_deviation_pp : pandas.Series
        Per categorical variable: the largest absolute ``difference_pp``.
    statistics : pandas.DataFrame
        Numeric variables, one row per (variable, statistic): ``n`` (non-missing),
        ``mean``, ``sd`` (n - 1), and the quantiles ``q0.05`` ... (R's type 7), with
        ``before``, ``after``, ``change`` and ``relative_change`` (change / |before|).
    n_records : int
    """

    categorical: tuple[str, ...]
    numeric: tuple[str, ...]
    distributions: pd.DataFrame = field(repr=False)
    max_deviation_pp: pd.Series = field(repr=False)
    statistics: pd.DataFrame = field(repr=False)
    n_records: int

    @property
    def max_deviation(self) -> float:
        """The largest deviation in percentage points over every categorical variable."""
        v = self.max_deviation_pp.to_numpy(dtype=np.float64)
        v = v[~np.isnan(v)]
        return float(v.max()) if v.size else math.nan

    def to_frame(self) -> pd.DataFrame:
        """One row per variable: kind, the largest deviation (categorical) and mean and sd
        before and after (numeric)."""
        rows = [{"variable": v, "kind": "categorical", "max_deviation_pp": float(self.max_deviation_pp[v])}
                for v in self.categorical]
        st = self.statistics.set_index(["variable", "statistic"])
        for v in self.numeric:
            rows.append({"variable": v, "kind": "numeric",
                         "mean_before": st.at[(v, "mean"), "before"], "mean_after": st.at[(v, "mean"), "after"],
                         "sd_before": st.at[(v, "sd"), "before"], "sd_after": st.at[(v, "sd"), "after"]})
        cols = ["variable", "kind", "max_deviation_pp", "mean_before", "mean_after", "sd_before", "sd_after"]
        return pd.DataFrame(rows, columns=cols)

    def summary(self) -> pd.DataFrame:
        """Headline figures (the largest deviation overall and per categorical variable) as rows
        of (statistic, value, description)."""
        return summary_frame([
            ("max_deviation_pp", self.max_deviation, "largest change of a category's share (percentage points)"),
            ("max_deviation_pp_per_variable", {k: float(v) for k, v in self.max_deviation_pp.items()},
             "the same per categorical variable"),
            ("n_records", self.n_records, "records"),
        ])


def _stats(x: np.ndarray, quantiles: tuple[float, ...]) -> list[float]:
    x = x[~np.isnan(x)]
    n = x.size
    if n == 0:
        return [0.0] + [math.nan] * (2 + len(quantiles))
    sd = float(np.std(x, ddof=1)) if n >= 2 else math.nan
    qs = np.quantile(x, quantiles).tolist() if quantiles else []  # numpy's default "linear" = R type 7
    return [float(n), float(np.mean(x)), sd] + [float(q) for q in qs]


def _qname(q: float) -> str:
    return f"q{q:g}"


def marginal_change(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
    *,
    categorical: str | Sequence[str] | None = None,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
) -> MarginalResult:
    r"""Marginal distributions before and after, with the largest deviation in percentage points.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        By default every column whose values changed.
    categorical : str or sequence of str, optional
        Variables to treat as categorical even if numeric in both files (every variable
        that is not numeric in both files is categorical).
    quantiles : sequence of float in [0, 1]
        Quantiles reported for numeric variables (default 0, 5, 25, 50, 75, 95, 100 %).

    Returns
    -------
    MarginalResult

    Notes
    -----
    Categorical variable with values v (missing counted as a value, so suppression shows
    as a growing "missing" share): :math:`p_v = 100\,n_v / n` before and after, the
    difference :math:`p'_v - p_v` in percentage points, and
    :math:`\max_v |p'_v - p_v|` (at most the total-variation distance:
    :math:`\max_v |p'_v - p_v| \le 100\,TV`). Numeric variable: n, mean, sd (n - 1) and
    the quantiles (linear interpolation, R's default type 7) over the non-missing values.
    Values that were recoded (e.g. ages released as bands) are categories that did not
    exist before: their whole share is a deviation.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"sex": ["m", "m", "f", "f"]})
    >>> rel = pd.DataFrame({"sex": ["m", "f", "f", "f"]})
    >>> sdc.marginal_change(orig, rel).max_deviation
    25.0
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables)
    cats = check_categorical(categorical, cols)
    qs = tuple(float(q) for q in quantiles)
    if any(not (0.0 <= q <= 1.0) for q in qs):
        raise ValueError(f"`quantiles` must lie in [0, 1]; got {list(quantiles)!r}.")
    numeric = tuple(c for c in cols if c not in cats and is_numeric(orig[c]) and is_numeric(rel[c]))
    categ = tuple(c for c in cols if c not in numeric)
    n = len(orig)
    parts = []
    max_dev = {}
    for v in categ:
        a, b, uniques = encode_pair(orig[v], rel[v])
        k = len(uniques)
        cnt_a = np.bincount(a + 1, minlength=k + 1)
        cnt_b = np.bincount(b + 1, minlength=k + 1)
        keep = (cnt_a > 0) | (cnt_b > 0)
        values = pd.Series([None] + list(uniques), dtype=object)
        part = pd.DataFrame({
            "variable": v, "value": values[keep].to_numpy(), "is_missing": np.r_[True, np.zeros(k, bool)][keep],
            "count_before": cnt_a[keep], "count_after": cnt_b[keep],
        })
        part["pct_before"] = 100.0 * part["count_before"] / n
        part["pct_after"] = 100.0 * part["count_after"] / n
        part["difference_pp"] = part["pct_after"] - part["pct_before"]
        # Missing last, as tables usually show it.
        part = pd.concat([part[~part["is_missing"]], part[part["is_missing"]]], ignore_index=True)
        max_dev[v] = float(part["difference_pp"].abs().max())
        parts.append(part)
    dist_cols = ["variable", "value", "is_missing", "count_before", "count_after", "pct_before", "pct_after",
                 "difference_pp"]
    dist = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=dist_cols)
    names = ["n", "mean", "sd"] + [_qname(q) for q in qs]
    srows = []
    for v in numeric:
        s0 = _stats(numeric_values(orig[v], "original"), qs)
        s1 = _stats(numeric_values(rel[v], "released"), qs)
        for name, x0, x1 in zip(names, s0, s1):
            ch = x1 - x0
            srows.append((v, name, x0, x1, ch, ch / abs(x0) if x0 != 0 else (0.0 if ch == 0 else math.nan)))
    stats = pd.DataFrame(srows, columns=["variable", "statistic", "before", "after", "change", "relative_change"])
    return MarginalResult(
        categorical=categ, numeric=numeric, distributions=dist[dist_cols],
        max_deviation_pp=pd.Series(max_dev, dtype=np.float64, name="max_deviation_pp"),
        statistics=stats, n_records=n,
    )
