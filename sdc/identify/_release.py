"""The release of a chosen transformation: the quasi-identifiers replaced by their labels at
its levels, failing classes suppressed (as :func:`sdc.identify.search.generalisation_search`
releases its optimum, whichever algorithm found it)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc.core.generalise import GroupTable
from sdc.identify.criteria import Models, class_checks, release_suppression
from sdc.identify.lattice import Problem
from sdc.identify.metrics import MetricTables

__all__ = ["release"]


def release(data: pd.DataFrame, problem: Problem, levels: Sequence[int], models: Models,
             suppressed_as: str, metric: str = "discernibility") -> tuple[pd.DataFrame, GroupTable, np.ndarray, int, tuple[int, ...], dict[str, int]]:
    table, ids = problem.table_at(levels)
    sidx = {s.name: i for i, s in enumerate(problem.sensitive)}
    q = {s.name: s.q for s in problem.sensitive}
    pop = problem.population_counts(levels, table) if models.needs_population else None
    kept = class_checks(table, models, sidx, q, problem.trees, None if pop is None else pop.pcounts)
    if models.release_wide and any(lv < q_.top for lv, q_ in zip(levels, problem.qis)):
        tie = MetricTables(problem).class_loss(levels, table) if metric == "loss" else None
        kept = release_suppression(table.counts, kept, problem.first_records(table.n_groups, ids), models, tie)
    cls = ids[problem.record_group]
    supp = ~kept[cls]
    cols: dict[str, pd.Series] = {}
    after = []
    changed = {}
    for j, (qi, lev) in enumerate(zip(problem.qis, levels)):
        rec_code = table.codes[j][cls]
        after.append(int(np.count_nonzero(np.bincount(rec_code[~supp], minlength=table.cards[j]))))
        differs = qi.labels[lev][qi.to_level[lev]] != qi.hierarchy.table[:, 0]  # per level-0 value
        changed[qi.name] = int((differs[qi.codes] | supp).sum())
        if lev == 0:
            col = data[qi.name].copy()
            if supp.any():
                if suppressed_as == "*":
                    col = col.astype(object).where(~supp, "*")
                else:
                    if pd.api.types.is_integer_dtype(col.dtype) and not pd.api.types.is_extension_array_dtype(col.dtype):
                        col = col.astype("Int64")
                    col = col.mask(supp)
            cols[qi.name] = col
        else:
            lab = qi.labels[lev][rec_code].astype(object)
            if supp.any():
                lab[supp] = "*" if suppressed_as == "*" else None
            cols[qi.name] = pd.Series(lab, index=data.index, dtype=object)
    # a new frame: generalised columns new, the others copied (the input is never shared)
    out = pd.DataFrame({c: cols[c] if c in cols else data[c].copy() for c in data.columns}, index=data.index)
    out.columns = data.columns
    return out, table, kept, int(supp.sum()), tuple(after), changed
