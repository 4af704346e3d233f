"""t-closeness with hierarchical ground distance: the earth mover's distance over a sensitive
variable's generalisation hierarchy (Li, Li and Venkatasubramanian 2007, section 4.2; ARX's
``HierarchicalDistanceTCloseness``).

The hierarchy (values at level 0, ever coarser labels up to level H) is a tree; the ground
distance of two values is the level of their lowest common ancestor divided by H. For a class
with value shares p and the file's shares q (missing values left out of both), let the extra of
a value be p_v - q_v and the extra of a node the sum of its children's. Then

    EMD = sum over the nodes N above level 0 of (level(N) / H) min(pos(N), neg(N)),

pos(N) the sum of the positive extras of N's children and neg(N) that of the negative ones in
absolute value (each node settles what its subtrees cannot, at its own distance). A flat
hierarchy (every value -> one root) gives the equal distance, 1/2 sum |p - q|.

As ARX computes it, the extras are exact integers: f_v P - F_v Q, with f, Q the class's counts
and total and F, P the file's; the sum is divided by H P Q at the end.

:func:`hierarchical_t_closeness` is the measure; :class:`HierarchyTree` and :func:`tree_emd` are
shared with the generalisation search (:mod:`sdc.identify.criteria`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_number
from sdc.attribute.closeness import TClosenessResult, _prepare, closeness_result
from sdc.core.binning import BinSpec
from sdc.core.classes import cells
from sdc.core.values import refuse_values_without_rows, value_text

__all__ = ["HierarchyTree", "tree_emd", "hierarchical_t_closeness"]

_BLOCK = 1 << 22  # classes x values per block


@dataclass(frozen=True, eq=False)
class HierarchyTree:
    """A sensitive variable's hierarchy as a tree over its values: per level L = 1 .. H, the
    level-L node of each node of level L - 1 (``parents[L - 1]``; level 0 = the values in code
    order), and the file's count of each value (``counts``)."""

    parents: tuple[np.ndarray, ...] = field(repr=False)
    counts: np.ndarray = field(repr=False)

    @property
    def height(self) -> int:
        return len(self.parents)

    @classmethod
    def build(cls, value_rows: np.ndarray, table: np.ndarray, counts: np.ndarray) -> "HierarchyTree":
        """From each value's row in the hierarchy's `table` (rows x levels, level 0 first)."""
        parents = []
        prev = np.arange(value_rows.shape[0])  # the level-0 node of each value: itself
        for lev in range(1, table.shape[1]):
            _, node = np.unique(table[value_rows, lev].astype(str), return_inverse=True)
            node = node.ravel().astype(np.int64)
            par = np.zeros(int(prev.max()) + 1 if prev.size else 0, dtype=np.int64)
            par[prev] = node  # a tree: every node of level L - 1 has one parent
            parents.append(par)
            prev = node
        return cls(parents=tuple(parents), counts=np.asarray(counts, dtype=np.int64))

    @classmethod
    def of_values(cls, name: str, values: Sequence[object], counts: np.ndarray, table: np.ndarray,
                  label: str | None = None) -> "HierarchyTree":
        """The tree over `values` (matched to level 0 as text, :func:`sdc.core.values.value_text`);
        every value needs a row (one error line naming the first missing ones)."""
        row_of = {str(v): i for i, v in enumerate(table[:, 0])}
        texts = [value_text(v) for v in values]
        refuse_values_without_rows("sensitive variable", name, label or "", [t for t in texts if t not in row_of])
        return cls.build(np.array([row_of[t] for t in texts], dtype=np.int64), table, counts)


def tree_emd(group: np.ndarray, code: np.ndarray, count: np.ndarray, n_groups: int, tree: HierarchyTree) -> np.ndarray:
    """Per group, the EMD with hierarchical ground distance of its (code, count) cells (sorted by
    group) to the file's counts in `tree` (module notes); 0 for a group without cells."""
    F = tree.counts
    P = int(F.sum())
    m = F.shape[0]
    Q = np.bincount(group, weights=count, minlength=n_groups).astype(np.int64)
    out = np.zeros(n_groups)
    H = tree.height
    if H == 0 or m == 0 or P == 0:
        return out
    indicators = []
    for par in tree.parents:
        A = np.zeros((par.shape[0], int(par.max()) + 1), dtype=np.int64)
        A[np.arange(par.shape[0]), par] = 1
        indicators.append(A)
    rows = max(1, _BLOCK // m)
    for g0 in range(0, n_groups, rows):
        g1 = min(n_groups, g0 + rows)
        lo, hi = np.searchsorted(group, [g0, g1])
        f = np.zeros((g1 - g0, m), dtype=np.int64)
        f[group[lo:hi] - g0, code[lo:hi]] = count[lo:hi]
        extra = f * P - np.outer(Q[g0:g1], F)  # (p_v - q_v) P Q
        cost = np.zeros(g1 - g0, dtype=np.int64)
        for level, A in enumerate(indicators, start=1):
            pos = np.maximum(extra, 0) @ A
            neg = np.maximum(-extra, 0) @ A
            cost += level * np.minimum(pos, neg).sum(axis=1)
            extra = pos - neg
        q = Q[g0:g1].astype(float)
        out[g0:g1] = np.where(q > 0, cost / (float(H) * float(P) * np.where(q > 0, q, 1.0)), 0.0)
    return out


def _table(hierarchy: Any) -> np.ndarray:
    table = getattr(hierarchy, "table", hierarchy)
    if isinstance(table, pd.DataFrame):
        table = table.to_numpy(dtype=object)
    arr = np.asarray(table, dtype=object) if not isinstance(table, (str, bytes)) else None
    if arr is None or arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] < 1:
        raise TypeError("`hierarchy` must be a hierarchy (sdc.read_hierarchy, a builder) or a table of rows = "
                        "values, columns = levels (level 0 first), as ARX's CSV layout.")
    return arr.astype(str)


def hierarchical_t_closeness(
    data: pd.DataFrame, keys: str | Sequence[str], sensitive: str, hierarchy: Any, *, t: float = 0.2,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> TClosenessResult:
    """t-closeness of each class with the hierarchical ground distance over `hierarchy`.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables defining the classes.
    sensitive : str
        The sensitive variable; every observed value needs a row of `hierarchy` (matched as text).
    hierarchy : Hierarchy or table
        Its generalisation hierarchy: a :class:`sdc.identify.hierarchy.Hierarchy`
        (``sdc.read_hierarchy("adult_hierarchy_occupation.csv")``) or a table (rows = values,
        columns = levels, level 0 first; ARX's layout).
    t : float >= 0, default 0.2
        The bound for the counts above t.
    key_bins : mapping, optional
        Bins for continuous keys.

    Returns
    -------
    TClosenessResult
        With ``distance="hierarchical"``; ``classes["distance"]`` each class's EMD.

    References
    ----------
    .. [1] Li, N., Li, T. and Venkatasubramanian, S. (2007). t-Closeness: privacy beyond
           k-anonymity and l-diversity. ICDE 2007, 106-115 (section 4.2).
    """
    t = check_number(t, "t", low=0.0, high=float("inf"), high_open=True)
    table = _table(hierarchy)
    prep = _prepare(data, keys, sensitive, key_bins)
    cl = cells(prep.classes, prep.sens, prep.counts)
    obs = cl.code >= 0
    group, code, count = cl.cls[obs], cl.code[obs], cl.count[obs]
    counts = np.bincount(code, weights=count, minlength=prep.sens.n_values).astype(np.int64)
    tree = HierarchyTree.of_values(prep.sens.name, list(prep.sens.values), counts, table,
                                   getattr(hierarchy, "name", None))
    dist = tree_emd(group, code, count, prep.classes.n_classes, tree)
    dist = np.where(prep.n_obs > 0, dist, np.nan)
    name = prep.sens.name
    return closeness_result(prep, "hierarchical", t, dist,
                            pd.Series(dist[prep.classes.ids], index=data.index, name=f"{name}_t_hierarchical"))
