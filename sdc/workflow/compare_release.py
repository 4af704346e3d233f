"""Every variable of the release, before and after: the marginal distribution of each variable
of the original (all its records) against the released file's, the largest shift in percentage
points, and what the records the protection withheld (dropped) take away on their own.

The comparison's utility measures cover the variables whose values changed; a step that drops
records (l-diversity enforced by dropping, whole-record suppression) changes no value of the
records it keeps, yet moves every distribution. :func:`release_marginals` shows that shift for
every variable, sensitive variables first, and says which variables the protection left untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc._validation import is_numeric_column

__all__ = ["release_marginals", "RELEASE_MARGINAL_COLUMNS", "MAX_LEVELS"]

#: A numeric variable with more distinct values than this is compared over the original's
#: deciles (ten bands of equal counts in the original); one with fewer, level by level.
MAX_LEVELS = 50

#: The columns of :func:`release_marginals` (the JSON/CSV names; the report labels them).
RELEASE_MARGINAL_COLUMNS = ["variable", "role", "status", "records before", "records after",
                            "total variation", "largest shift (points)", "level of the largest shift",
                            "records withheld", "shift from the withheld records (points)"]


def _coded(orig: pd.Series, others: Sequence[pd.Series]) -> list[pd.Series]:
    """`orig` and `others` as comparable levels: strings, missing as "(missing)"; a numeric
    variable with many values banded by the original's deciles."""
    series = [orig, *others]
    if all(is_numeric_column(s) for s in series) and orig.nunique(dropna=True) > MAX_LEVELS:
        x = pd.to_numeric(orig, errors="coerce").dropna()
        edges = np.unique(np.quantile(x.to_numpy(dtype=np.float64), np.linspace(0, 1, 11)))
        edges[0], edges[-1] = -np.inf, np.inf
        series = [pd.cut(pd.to_numeric(s, errors="coerce"), edges, right=False) for s in series]
    return [_as_text(s) for s in series]


#: pandas' inferred kinds of an object column whose equal values have equal texts.
_ONE_KIND = {"string", "empty", "integer", "floating", "boolean", "bytes"}


def _as_text(s: pd.Series) -> pd.Series:
    """Each value as its text (``str``), missing as ``"(missing)"``: each distinct value
    converted once (a 10^6-record column in milliseconds, not a second per column). Values of
    several types in one object column keep the value-by-value conversion: ``0``, ``False``
    and ``0.0`` are one value to a hash table but three texts."""
    if s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) not in _ONE_KIND:
        return s.where(s.notna(), "(missing)").astype(str)
    from sdc.core.values import distinct_values

    codes, uniques = distinct_values(s)  # missing: -1, the last label
    # the distinct values converted as the whole column would be (Timestamps, nullable integers)
    labels = np.append(uniques.astype(object).astype(str).to_numpy(dtype=object), "(missing)")
    return pd.Series(labels[codes], index=s.index, name=s.name)


def _shares(s: pd.Series) -> pd.Series:
    n = len(s)
    return s.value_counts(sort=False) / n if n else pd.Series(dtype=np.float64)


def _shift(a: pd.Series, b: pd.Series) -> tuple[float, float, str]:
    """Total variation distance of two share vectors, the largest shift in points and its level."""
    pa, pb = _shares(a), _shares(b)
    levels = pa.index.union(pb.index)
    d = pb.reindex(levels).fillna(0.0) - pa.reindex(levels).fillna(0.0)
    if not len(d):
        return 0.0, 0.0, ""
    top = d.abs().idxmax()
    return float(0.5 * d.abs().sum()), float(100.0 * abs(d[top])), str(top) if d[top] != 0 else ""


def release_marginals(original: pd.DataFrame, kept: pd.DataFrame, released: pd.DataFrame,
                      changes: pd.DataFrame, *, sensitive: Sequence[str] = (), keys: Sequence[str] = (),
                      skip: Sequence[str] = ()) -> pd.DataFrame:
    """Every variable of the original, sensitive variables first, then the keys, then the rest.

    Parameters
    ----------
    original : pandas.DataFrame
        The whole original.
    kept, released : pandas.DataFrame
        The matched records: the original records that have a released counterpart, and the
        released records (same index).
    changes : pandas.DataFrame
        :func:`sdc.workflow.compare_records.cell_changes` of the matched records.
    sensitive, keys : sequence of str
        The roles, for the order and the ``role`` column.
    skip : sequence of str
        Variables left out (the id column).

    Returns
    -------
    pandas.DataFrame
        One row per variable (:data:`RELEASE_MARGINAL_COLUMNS`): ``status`` is ``"changed"``
        (a cell of a kept record changed), ``"untouched"`` (no cell changed and no record
        withheld), ``"untouched, records withheld"`` (no cell changed, but records were
        dropped: the distribution still moves) or ``"not released"``; ``total variation`` is
        :math:`\\tfrac12\\sum_v |p'_v - p_v|` between the original's shares over all its records
        and the release's over its records (missing a level of its own; a numeric variable
        with over :data:`MAX_LEVELS` values over the original's deciles); the largest shift
        is :math:`100\\max_v |p'_v - p_v|`; the withheld records' shift compares the kept
        records' original values with the whole original.
    """
    changed = dict(zip(changes["variable"], changes["cells_changed"])) if len(changes) else {}
    n_withheld = len(original) - len(kept)
    order = list(dict.fromkeys([*sensitive, *keys, *original.columns]))
    rows = []
    for v in order:
        if v not in original.columns or v in skip:
            continue
        role = "sensitive" if v in sensitive else "key" if v in keys else "other"
        if v not in released.columns:
            rows.append((v, role, "not released", len(original), 0, np.nan, np.nan, "", n_withheld, np.nan))
            continue
        o, k, r = _coded(original[v], [kept[v], released[v]])
        tv, pp, level = _shift(o, r)
        _, pp_w, _ = _shift(o, k)
        status = "changed" if changed.get(v, 0) > 0 else "untouched, records withheld" if n_withheld else "untouched"
        rows.append((v, role, status, len(original), len(released), tv, pp, level, n_withheld, pp_w))
    return pd.DataFrame(rows, columns=RELEASE_MARGINAL_COLUMNS)
