"""Associations before and after: Cramér's V of categorical pairs, correlations of numeric ones.

An analyst's cross-tabulations and correlations are what protection must not break.
:func:`association_change` computes Cramér's V for every pair of categorical variables
and the correlation matrix of the numeric ones, in both files, with their differences
and the largest change.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_option
from sdc.core.values import encode_values, pair_counts
from sdc.utility._common import align, check_categorical, is_numeric, numeric_values, resolve_variables

__all__ = ["AssociationResult", "association_change", "cramers_v"]

CORRELATION_METHODS = ("pearson", "spearman", "kendall")


def cramers_v(a: pd.Series, b: pd.Series) -> float:
    r"""Cramér's V of two categorical variables over the records where both are present.

    :math:`V = \sqrt{\chi^2 / (n (\min(r, c) - 1))}`, with :math:`\chi^2` Pearson's
    statistic of the r x c table of the values that occur (Cramér 1946, *Mathematical
    Methods of Statistics*, §21.9; no bias correction, no continuity correction). NaN when
    fewer than two values of either variable occur.
    """
    return _cramers_v_codes(encode_values(a)[0], encode_values(b)[0])


def _cramers_v_codes(ca: np.ndarray, cb: np.ndarray) -> float:
    """:func:`cramers_v` of two code arrays (-1 = missing)."""
    both = (ca >= 0) & (cb >= 0)
    ca, cb = ca[both], cb[both]
    n = ca.size
    if n == 0:
        return math.nan
    joint, count_a, count_b = pair_counts(ca, cb)
    r = int(np.count_nonzero(np.bincount(ca)))  # the values that occur (a count, not a sort of 10^6 codes)
    c = int(np.count_nonzero(np.bincount(cb)))
    if min(r, c) < 2:
        return math.nan
    # chi2 = n (sum over cells of n_ab^2 / (n_a n_b)) - n; per record, each cell contributes n_ab / (n_a n_b).
    chi2 = n * float(np.sum(joint / (count_a.astype(np.float64) * count_b))) - n
    return float(math.sqrt(max(chi2, 0.0) / (n * (min(r, c) - 1))))


@dataclass(frozen=True)
class AssociationResult:
    """Result of :func:`association_change`.

    Attributes
    ----------
    categorical, numeric : tuple of str
        The variables of each kind.
    cramers_v : pandas.DataFrame
        One row per pair of categorical variables: ``variable_1``, ``variable_2``,
        ``before``, ``after``, ``change`` (after - before).
    correlation_before, correlation_after : pandas.DataFrame
        Correlation matrices of the numeric variables (pairwise complete).
    method : str
        The correlation coefficient.
    max_cramers_v_change, max_correlation_change : float
        The largest absolute change (NaN without a pair).
    n_records : int
    """

    categorical: tuple[str, ...]
    numeric: tuple[str, ...]
    cramers_v: pd.DataFrame = field(repr=False)
    correlation_before: pd.DataFrame = field(repr=False)
    correlation_after: pd.DataFrame = field(repr=False)
    method: str
    max_cramers_v_change: float
    max_correlation_change: float
    n_records: int

    @property
    def correlation_difference(self) -> pd.DataFrame:
        """After minus before."""
        return self.correlation_after - self.correlation_before

    def to_frame(self) -> pd.DataFrame:
        """Every pair, long: ``measure`` (cramers_v or the correlation method), the two
        variables, ``before``, ``after``, ``change``."""
        cv = self.cramers_v.assign(measure="cramers_v")
        rows = [(a, b, self.correlation_before.at[a, b], self.correlation_after.at[a, b])
                for a, b in itertools.combinations(self.numeric, 2)]
        co = pd.DataFrame(rows, columns=["variable_1", "variable_2", "before", "after"]).astype(
            {"before": np.float64, "after": np.float64})
        co["change"] = co["after"] - co["before"]
        co["measure"] = self.method
        cols = ["measure", "variable_1", "variable_2", "before", "after", "change"]
        return pd.concat([cv[cols], co[cols]], ignore_index=True)

    def summary(self) -> pd.DataFrame:
        """Headline figures (the largest change of each kind) as rows of (statistic, value, description)."""
        return summary_frame([
            ("max_cramers_v_change", float(self.max_cramers_v_change),
             "largest absolute change of Cramér's V over the categorical pairs"),
            ("max_correlation_change", float(self.max_correlation_change),
             "largest absolute change of a correlation over the numeric pairs"),
            ("categorical", list(self.categorical), "the categorical variables"),
            ("numeric", list(self.numeric), "the numeric variables"),
            ("method", self.method, "the correlation coefficient"),
        ])


def _max_abs(x: np.ndarray) -> float:
    x = np.abs(np.asarray(x, dtype=np.float64))
    x = x[~np.isnan(x)]
    return float(x.max()) if x.size else math.nan


def association_change(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
    *,
    categorical: str | Sequence[str] | None = None,
    method: str = "pearson",
) -> AssociationResult:
    r"""Cramér's V of every categorical pair and correlations of the numeric variables, before and after.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Variables to relate. By default every column common to both files.
    categorical : str or sequence of str, optional
        Variables to treat as categorical even if numeric. A variable numeric in both
        files is otherwise numeric; every other variable is categorical.
    method : {"pearson", "spearman", "kendall"}, default "pearson"
        Correlation coefficient (pairwise complete, as ``pandas.DataFrame.corr``).

    Returns
    -------
    AssociationResult

    Notes
    -----
    Cramér's V: see :func:`cramers_v`; each pair uses the records where both variables
    are present, so suppression lowers n but does not add a category. Changes are
    after - before; the headline is the largest absolute change.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"a": list("xxyy"), "b": list("ppqq")})
    >>> rel = pd.DataFrame({"a": list("xxyy"), "b": list("pqpq")})
    >>> sdc.association_change(orig, rel).cramers_v[["before", "after"]].values.tolist()
    [[1.0, 0.0]]
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables, default_changed=False)
    cats = check_categorical(categorical, cols)
    method = check_option(method, "method", CORRELATION_METHODS)
    numeric = tuple(c for c in cols if c not in cats and is_numeric(orig[c]) and is_numeric(rel[c]))
    categ = tuple(c for c in cols if c not in numeric)
    rows = []
    # Each variable encoded once per file, not once per pair (text columns of 10^7 records).
    code0 = {c: encode_values(orig[c])[0].astype(np.int32) for c in categ} if len(categ) > 1 else {}
    code1 = {c: encode_values(rel[c])[0].astype(np.int32) for c in categ} if len(categ) > 1 else {}
    for a, b in itertools.combinations(categ, 2):
        v0 = _cramers_v_codes(code0[a], code0[b])
        v1 = _cramers_v_codes(code1[a], code1[b])
        rows.append((a, b, v0, v1, v1 - v0))
    cv = pd.DataFrame(rows, columns=["variable_1", "variable_2", "before", "after", "change"]).astype(
        {"before": np.float64, "after": np.float64, "change": np.float64})

    def corr(frame: pd.DataFrame, name: str) -> pd.DataFrame:
        data = pd.DataFrame({c: numeric_values(frame[c], name) for c in numeric}, index=frame.index)
        return data.corr(method=method)

    c0, c1 = corr(orig, "original"), corr(rel, "released")
    diff = (c1 - c0).to_numpy(dtype=np.float64)
    off = diff[~np.eye(len(numeric), dtype=bool)] if numeric else diff.ravel()
    return AssociationResult(
        categorical=categ, numeric=numeric, cramers_v=cv, correlation_before=c0, correlation_after=c1, method=method,
        max_cramers_v_change=_max_abs(cv["change"].to_numpy()), max_correlation_change=_max_abs(off),
        n_records=len(orig),
    )
