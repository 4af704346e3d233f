"""delta-presence of a research subset in its population, and the k-map it achieves.

For a population P (the file) and a research subset S of its records (the release), each
class E of P's key patterns (missing values a value of their own, as ARX's hierarchies read an
empty field) has delta(E) = |E ∩ S| / |E|, the probability that a member of E is in the
release (Nergiz, Atzori and Clifton 2007, "Hiding the presence of individuals from shared
databases", SIGMOD; ARX's ``DPresence``). S is (dmin, dmax)-present when every class has
dmin <= delta(E) <= dmax; a class without subset records has delta = 0. The k-map S achieves
(Sweeney 2002; ARX's ``KMap(k, DataSubset)``) is the smallest |E| over the classes holding
subset records: each released record stands for at least that many people of the population.
The search that enforces both is :func:`sdc.generalisation_search` with ``research_subset``
(:mod:`sdc.identify.presence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_fraction, subset_rows
from sdc.core.scenario import resolve_keys

__all__ = ["DeltaPresenceResult", "delta_presence"]


@dataclass(frozen=True)
class DeltaPresenceResult:
    """Result of :func:`delta_presence`.

    Attributes
    ----------
    keys : tuple of str
        The key variables.
    n_population, n_subset : int
        Records of the population (the file) and of the research subset.
    n_classes, n_classes_with_subset : int
        Key patterns of the population, and those holding subset records.
    min_delta, max_delta : float
        The least and largest delta(E) over every class of the population (0 when a class
        holds no subset record).
    k_map : int
        The smallest population class holding subset records.
    dmin, dmax : float or None
        The bounds asked, if any; ``meets`` whether every class lies within them.
    classes : pandas.DataFrame
        Per class: its key values, ``population``, ``subset`` and ``delta``.
    """

    keys: tuple[str, ...]
    n_population: int
    n_subset: int
    n_classes: int
    n_classes_with_subset: int
    min_delta: float
    max_delta: float
    k_map: int
    dmin: float | None
    dmax: float | None
    meets: bool | None
    classes: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per class of the population: key values, population, subset, delta."""
        return self.classes.copy()

    def summary(self) -> pd.DataFrame:
        rows: list[tuple[str, Any, str]] = [
            ("n_population", self.n_population, "records of the population (the file)"),
            ("n_subset", self.n_subset, "records of the research subset"),
            ("n_classes", self.n_classes, "key patterns of the population"),
            ("n_classes_with_subset", self.n_classes_with_subset, "classes holding subset records"),
            ("min_delta", self.min_delta, "least share of a class in the subset"),
            ("max_delta", self.max_delta, "largest share of a class in the subset"),
            ("k_map", self.k_map, "smallest population class holding subset records"),
        ]
        if self.meets is not None:
            rows.append(("meets", self.meets, f"every class has {self.dmin:g} <= delta <= {self.dmax:g}"))
        return summary_frame(rows)


def delta_presence(population: pd.DataFrame, subset: Any, keys: str | Sequence[str], *,
                   dmin: float | None = None, dmax: float | None = None) -> DeltaPresenceResult:
    """delta(E) = |E ∩ S| / |E| per key pattern E of the population, and the k-map of S.

    Parameters
    ----------
    population : pandas.DataFrame
        The population, one row per person. Not modified.
    subset : row numbers, boolean mask or pandas.Index
        The research subset: 0-based rows of `population` (ARX's ``DataSubset.create(data,
        rows)``), a mask with one value per record, or an Index of its labels.
    keys : str or sequence of str
        The key variables (quasi-identifiers), as released.
    dmin, dmax : float in [0, 1], optional
        delta-presence's bounds, to say whether the subset ``meets`` them.

    Returns
    -------
    DeltaPresenceResult

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> pop = pd.DataFrame({"zip": ["a", "a", "b", "b", "b", "c"]})
    >>> r = sdc.delta_presence(pop, [0, 2, 3], "zip", dmin=0.2, dmax=0.7)
    >>> float(r.min_delta), float(r.max_delta), r.k_map, r.meets
    (0.0, 0.6666666666666666, 2, False)
    """
    rows = subset_rows(population, subset, "subset")
    lo = None if dmin is None else check_fraction(dmin, "dmin")
    hi = None if dmax is None else check_fraction(dmax, "dmax")
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"`dmin` {lo:g} is above `dmax` {hi:g}; give dmin <= dmax.")
    enc = resolve_keys(population, keys).encoded
    ids = np.unique(enc.pattern, return_inverse=True)[1].ravel()
    g = int(ids.max()) + 1 if ids.size else 0
    pop = np.bincount(ids, minlength=g)
    sub = np.bincount(ids[rows], minlength=g)
    first = np.full(g, len(population), dtype=np.int64)
    np.minimum.at(first, ids, np.arange(len(population), dtype=np.int64))
    delta = sub / pop
    frame = population.iloc[first][list(enc.keys)].reset_index(drop=True)
    frame = frame.assign(population=pop, subset=sub, delta=delta)
    meets = None
    if lo is not None or hi is not None:
        lo_, hi_ = (0.0 if lo is None else lo), (1.0 if hi is None else hi)
        lo, hi = lo_, hi_
        meets = bool(((delta >= lo_) & (delta <= hi_)).all())
    held = sub > 0
    return DeltaPresenceResult(
        keys=tuple(enc.keys), n_population=len(population), n_subset=int(rows.size), n_classes=g,
        n_classes_with_subset=int(held.sum()), min_delta=float(delta.min()), max_delta=float(delta.max()),
        k_map=int(pop[held].min()), dmin=lo, dmax=hi, meets=meets, classes=frame)
