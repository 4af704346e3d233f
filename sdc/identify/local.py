"""Local recoding: records generalised at different levels, as ARX's local transformation.

ARX (``ARXResult.optimizeIterative`` and ``optimizeIterativeFast``; Prasser, Kohlmayer and
Kuhn 2016, "Efficient and effective pruning strategies for health data de-identification",
and ARX's manual, "local transformation") recodes locally by repeating its full-domain search
on the records it suppressed:

1. the full-domain optimum T_0 of :func:`sdc.identify.search.generalisation_search` is
   released; the records of its failing classes are suppressed (the residue R_0);
2. step i searches the records of R_{i-1} alone (their own classes, the metric normalised by
   |R_{i-1}|; the same hierarchies, models and metric, t-closeness and the other distribution
   models against the whole data's distribution, as ARX's ``DataManagerSubset``)
   for their optimum T_i; the records of the classes that meet the models at T_i are released
   at T_i's levels, the others form R_i;
3. the loop stops when a step releases no record, when R_i is empty or smaller than the
   smallest class the models allow (``ARXConfiguration.getMinimalGroupSize``, here k or
   k-map's derived k), or after ``local_iterations`` steps (``optimizeIterative``'s
   ``maxIterations``; ARX's tests use 100).

The suppression limit of step i: the search's ``suppression_limit`` (``optimizeIterative``,
whose generalisation/suppression factor is the Loss metric's 0.5 here, ARX's
``optimize`` default, and whose adaption factor is 0), or, with ``local_records`` = r
(``optimizeIterativeFast(handle, r)``), 1 - r n / |R_{i-1}| clipped to [0, 1]: each step must
release at least r of all n records.

Every released class meets the models on its own step's records, so the release meets
k-anonymity, k-map and l-diversity (each class is a class of one step); models measured over
a whole step (average risk) hold per step. ARX refuses local recoding for sample and
population uniqueness (``isLocalRecodingSupported`` false), and so does sdc.

Loss of the local release (computed from each record's own levels, every record of the data
counted): ``"loss"`` L_j = sum_released share_j(g_r) + S, normalised and aggregated as the
full-domain Loss; ``"precision"`` ((sum_released L_jr / H_j) + S) / n averaged; ``"discernibility"``
sum over released classes (same levels and values) |E|^2 + n S; ``"avg_class_size"`` n over
the released classes plus one for the suppressed. With T_0 alone each equals the full-domain
value. Local recoding only releases suppressed records, so the Loss and Precision of the local
release never exceed the full-domain optimum's; each step is an exact optimum of its residue
(a greedy sequence: the local release is not proven the best local recoding).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.identify._release import release
from sdc.identify.criteria import Models
from sdc.identify.lattice import Problem
from sdc.identify.metrics import MetricTables

__all__ = ["LocalRecodingResult", "LOCAL_METRICS", "check_local", "local_recoding", "local_loss", "local_release", "class_sizes",
           "localised"]

#: The metrics whose value of a local release is defined here.
LOCAL_METRICS = ("loss", "precision", "discernibility", "avg_class_size")
#: A step's search: the rows (positions) of the residue and the suppression limit ->
#: (levels, released mask over those rows, loss of the step) or None (no transformation).
StepSearch = Callable[[np.ndarray, float], "tuple[tuple[int, ...], np.ndarray, float] | None"]


@dataclass(frozen=True)
class LocalRecodingResult:
    """The steps of a local recoding and what it saves against the full-domain optimum."""

    steps: pd.DataFrame = field(repr=False)   # step, levels per key, residue, released, loss
    record_step: np.ndarray = field(repr=False)  # each record's step (0 = the full-domain optimum; -1 suppressed)
    levels: pd.DataFrame = field(repr=False)  # each record's levels (<NA> where suppressed)
    metric: str
    loss: float            # of the local release
    loss_full: float       # of the full-domain optimum's release
    suppressed: int
    suppressed_full: int
    classes: int           # released classes of the local release
    records: float | None  # optimizeIterativeFast's r (None: optimizeIterative)
    iterations: int

    @property
    def saving(self) -> float:
        """loss_full - loss (>= 0 for Loss and Precision)."""
        return self.loss_full - self.loss

    @property
    def relative_saving(self) -> float:
        return self.saving / self.loss_full if self.loss_full else 0.0

    def to_frame(self) -> pd.DataFrame:
        return self.steps.copy()

    def summary(self) -> pd.DataFrame:
        mode = "optimizeIterative" if self.records is None else f"optimizeIterativeFast(r = {self.records:g})"
        return summary_frame([
            ("mode", mode, "ARX's local transformation (repeated full-domain searches of the suppressed records)"),
            ("metric", self.metric, "the loss metric"),
            ("steps", len(self.steps), "the full-domain optimum (step 0) and the steps on its suppressed records"),
            ("loss_full", self.loss_full, "loss of the full-domain optimum's release"),
            ("loss", self.loss, "loss of the local release (each record at its own step's levels)"),
            ("saving", self.saving, "loss_full - loss"),
            ("relative_saving", self.relative_saving, "saving / loss_full"),
            ("suppressed", self.suppressed, "records suppressed by the local release"),
            ("suppressed_full", self.suppressed_full, "records suppressed by the full-domain optimum"),
            ("classes", self.classes, "classes of the local release (released records with equal levels and values)"),
        ])


def check_local(local: object, records: object, iterations: object, metric: str, models: Models) -> None:
    """The local-recoding settings checked, each in one line."""
    if not isinstance(local, bool):
        raise TypeError(f"`local` must be True or False; got {local!r}.")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"`local_iterations` must be a whole number >= 1; got {iterations!r}.")
    if records is not None and (isinstance(records, bool) or not isinstance(records, (int, float))
                                or not 0 < float(records) <= 1):
        raise ValueError(f"`local_records` must be a share in ]0, 1] (ARX's optimizeIterativeFast); got {records!r}.")
    if not local:
        if records is not None:
            raise ValueError("`local_records` needs `local=True` (local recoding).")
        return
    if metric not in LOCAL_METRICS:
        raise ValueError(f"local recoding measures the metrics {', '.join(LOCAL_METRICS)}; got metric {metric!r}.")
    if models.sample_uniques is not None or models.pop_uniques is not None:
        raise ValueError("local recoding does not support sample or population uniqueness (as ARX); "
                         "drop `local` or those models.")
    if models.subset is not None:
        raise ValueError("local recoding does not support a research subset (delta-presence, k-map with the "
                         "population; as ARX); drop `local` or `research_subset`.")


def local_recoding(problem: Problem, levels0: Sequence[int], released0: np.ndarray, search: StepSearch,
                   models: Models, metric: str, limit: float, records: float | None,
                   iterations: int) -> LocalRecodingResult:
    """ARX's iterative local recoding from the full-domain optimum `levels0` (its released
    records `released0`); `search` runs the full-domain search on a residue (module docstring)."""
    n, d = problem.n, len(problem.qis)
    step_of = np.where(released0, 0, -1).astype(np.int64)
    rec_levels = np.full((n, d), -1, dtype=np.int64)
    rec_levels[released0] = np.asarray(levels0, dtype=np.int64)
    rows = [(0, *levels0, n, int(released0.sum()))]
    least = max(models.min_size or 1, 1)
    it = 0
    while True:
        residue = np.flatnonzero(step_of < 0)
        if residue.size == 0 or residue.size < least or (records is None and it >= iterations):
            break
        if records is None:
            lim = limit
        else:
            lim = min(max(1.0 - (records * n) / float(residue.size), 0.0), 1.0)
        found = search(residue, lim)
        it += 1
        if found is None or not found[1].any():
            break
        lv, ok, _ = found
        step_of[residue[ok]] = len(rows)
        rec_levels[residue[ok]] = np.asarray(lv, dtype=np.int64)
        rows.append((len(rows), *lv, int(residue.size), int(ok.sum())))
    steps = pd.DataFrame(rows, columns=["step", *problem.names, "residue", "released"])
    loss = local_loss(problem, rec_levels, step_of >= 0, metric)
    full = local_loss(problem, np.where(released0[:, None], np.asarray(levels0)[None, :], -1), released0, metric)
    lv_frame = pd.DataFrame({q: pd.arrays.IntegerArray(rec_levels[:, j].copy(), step_of < 0)
                             for j, q in enumerate(problem.names)})
    return LocalRecodingResult(
        steps=steps, record_step=step_of, levels=lv_frame, metric=metric, loss=loss, loss_full=full,
        suppressed=int((step_of < 0).sum()), suppressed_full=int((~released0).sum()),
        classes=int(class_sizes(problem, rec_levels, step_of >= 0).size), records=records,
        iterations=iterations)


def _record_codes(problem: Problem, rec_levels: np.ndarray, released: np.ndarray, j: int) -> np.ndarray:
    """Each released record's code of key j at its own level (-1 where suppressed)."""
    q = problem.qis[j]
    out = np.full(problem.n, -1, dtype=np.int64)
    for lev in np.unique(rec_levels[released, j]):
        at = released & (rec_levels[:, j] == lev)
        out[at] = q.to_level[int(lev)][q.codes[at]]
    return out


def class_sizes(problem: Problem, rec_levels: np.ndarray, released: np.ndarray) -> np.ndarray:
    """The sizes of the released classes: released records with equal levels and values."""
    if not released.any():
        return np.zeros(0, dtype=np.int64)
    keys = np.column_stack([rec_levels[released]] + [_record_codes(problem, rec_levels, released, j)[released][:, None]
                                                     for j in range(len(problem.qis))])
    return np.unique(keys, axis=0, return_counts=True)[1]


def local_loss(problem: Problem, rec_levels: np.ndarray, released: np.ndarray, metric: str) -> float:
    """The metric of a release whose records have their own levels (module docstring)."""
    n, S = problem.n, float(np.count_nonzero(~released))
    tables = MetricTables(problem)
    if metric in ("discernibility", "avg_class_size"):
        counts = class_sizes(problem, rec_levels, released)
        if metric == "avg_class_size":
            denom = float(counts.size) + (1.0 if S > 0 else 0.0)
            return n / denom if denom else math.inf
        return float(np.dot(counts.astype(float), counts.astype(float))) + float(n) * S
    if metric == "precision":
        total, dd = 0.0, float(len(problem.qis))
        for j, (q, w) in enumerate(zip(problem.qis, tables.w)):
            share = rec_levels[released, j].astype(float) / float(q.top) if q.top else np.zeros(int(released.sum()))
            v = (float(share.sum()) + S) / float(n)
            total += v / dd * w if tables.weighted else v
        return total if tables.weighted else (total / dd if dd else 0.0)
    parts = []
    for j in range(len(problem.qis)):
        codes = _record_codes(problem, rec_levels, released, j)
        tot = S
        for lev in np.unique(rec_levels[released, j]):
            at = released & (rec_levels[:, j] == lev)
            tot += float(np.sum(tables.share[j][int(lev)][codes[at]]))
        parts.append(float(tables._loss_norm(j, float(tot))))
    out = 1.0
    for x, w in zip(parts, tables.w):  # ARX's geometric mean, in the order of MetricTables.value
        out *= math.pow(x * w + 1.0, 1.0 / len(parts))
    return out - 1.0 if parts else 0.0


def local_release(data: pd.DataFrame, full_release: pd.DataFrame, problem: Problem, result: LocalRecodingResult,
                  suppressed_as: str) -> pd.DataFrame:
    """The release with each record generalised at its own step's levels: a key whose records
    are all at level 0 keeps its values (as the full-domain release); else every released value
    is its hierarchy label at the record's level; suppressed records as `suppressed_as`."""
    released = result.record_step >= 0
    out = full_release.copy()
    blank = "*" if suppressed_as == "*" else None
    for j, q in enumerate(problem.qis):
        lv = result.levels[q.name].to_numpy(dtype=np.int64, na_value=-1)
        if not (lv[released] > 0).any():
            col = data[q.name].copy()
            if (~released).any():
                if suppressed_as == "*":
                    col = col.astype(object).where(released, "*")
                else:
                    if pd.api.types.is_integer_dtype(col.dtype) and not pd.api.types.is_extension_array_dtype(col.dtype):
                        col = col.astype("Int64")
                    col = col.mask(~released)
            out[q.name] = col
            continue
        vals = np.full(problem.n, blank, dtype=object)
        codes = _record_codes(problem, _levels_matrix(result, problem), released, j)
        for lev in np.unique(lv[released]):
            at = released & (lv == lev)
            vals[at] = q.labels[int(lev)][codes[at]]
        out[q.name] = pd.Series(vals, index=data.index, dtype=object)
    return out


def _levels_matrix(result: LocalRecodingResult, problem: Problem) -> np.ndarray:
    return np.column_stack([result.levels[q].to_numpy(dtype=np.int64, na_value=-1) for q in problem.names])


def _step_search(data: pd.DataFrame, problem: Problem, models: Models, metric: str, searching: tuple) -> StepSearch:
    """The full-domain search of a residue (`searching`: the search's dispatcher and its
    exhaustive, practical-monotonicity and algorithm settings): its optimum's levels, which of the
    residue's records it releases, and its loss; None when no transformation meets the models
    within the step's suppression limit."""
    dispatch, exhaustive, practical, budget = searching

    def run(rows: np.ndarray, limit: float) -> tuple[tuple[int, ...], np.ndarray, float] | None:
        sub = problem.subset(rows)
        try:
            s, _ = dispatch(sub, models, limit, metric, 0, exhaustive, practical, budget)
        except ValueError:
            return None
        levels = tuple(int(v) for v in s.best_levels())
        return levels, _released_rows(data.iloc[rows], sub, levels, models, metric), float(s.best_loss())
    return run


def _released_rows(data: pd.DataFrame, problem: Problem, levels: Sequence[int], models: Models, metric: str) -> np.ndarray:
    """Which records the release of `levels` keeps (the others are suppressed)."""
    _, _, kept, _, _, _ = release(data, problem, levels, models, "missing", metric)
    _, ids = problem.table_at(levels)
    return kept[ids[problem.record_group]]


def localised(data: pd.DataFrame, res: Any, problem: Problem, models: Models, limit: float,
              how: tuple[float | None, int], searching: tuple, start: float) -> Any:
    """The full-domain search's result `res` (a GeneralisationResult) recoded locally: ``.local``,
    and ``.data``, ``.suppressed`` and ``.classes`` of the local release."""
    step = _step_search(data, problem, models, res.metric, searching)
    levels = tuple(int(v) for v in res.levels.values())
    released0 = _released_rows(data, problem, levels, models, res.metric)
    loc = local_recoding(problem, levels, released0, step, models, res.metric, limit, *how)
    loc = replace(loc, levels=loc.levels.set_axis(data.index))
    out = local_release(data, res.data, problem, loc, res.suppressed_as)
    return replace(res, data=out, suppressed=loc.suppressed, classes=loc.classes, local=loc,
                   seconds=time.perf_counter() - start)
