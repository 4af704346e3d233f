"""The result of :func:`sdc.identify.search.generalisation_search`: the transformation found,
its release, the lattice as far as the search saw it, and how the search stopped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sdc._stats import summary_frame
from sdc.identify.lightning import STOPPED
from sdc.identify.local import LocalRecodingResult

__all__ = ["GeneralisationResult"]


@dataclass(frozen=True)
class GeneralisationResult:
    """The optimal transformation, its release and the lattice as searched.

    Attributes
    ----------
    levels : dict
        The chosen generalisation level of each quasi-identifier.
    loss : float
        The metric's value at the optimum, in the metric's own units (as ARX reports it).
    metric : str
        The information-loss metric.
    data : pandas.DataFrame
        The released data: same index and columns as the input; quasi-identifiers replaced by
        their labels at the chosen levels (level 0 keeps the original values); the
        quasi-identifiers of suppressed records set to missing (or ``"*"``, see
        ``suppressed_as``); every other column unchanged.
    lattice : pandas.DataFrame
        One row per node: its levels, height, status (``"anonymous"``, ``"not anonymous"``,
        ``"not evaluated"``), whether it was evaluated, classes, suppressed records, loss
        (anonymous evaluated nodes), lower bound, highest and average re-identification risk
        of the release (1 / smallest class, classes / records), and rank (1 = optimum).
    runner_ups : pandas.DataFrame
        The next best anonymous transformations (exact: the search bounds them too).
    suppressed : int
        Records suppressed in the release.
    achieved : dict
        What the release achieves: smallest class (k) and, per sensitive variable, the
        smallest l, largest t, largest beta and largest delta over released classes.
    models : dict
        The privacy models as given; ``suppression_limit``, ``suppressed_as`` alongside.
    n_nodes, n_evaluated : int
        Nodes in the lattice, and nodes whose classes were computed.
    changed : dict
        Cells changed per quasi-identifier (generalised to another label, or suppressed): the
        protection log of the release.
    exhaustive : bool
        Whether every node was evaluated.
    seconds : float
        Wall time of the search (encoding included).
    algorithm, algorithm_title, algorithm_how : str
        ``"exact"`` (the optimum proven), ``"lightning"`` (:mod:`sdc.identify.lightning`) or
        ``"genetic"`` (:mod:`sdc.identify.genetic`), a heuristic's name and how it searched, as
        the report says them.
    seed : int or None
        The genetic search's seed (None for the deterministic searches).
    optimal : bool
        Whether the result is proven optimal (False for Lightning, and with ``practical_monotonicity``).
    stopped : str
        Why the search stopped: ``"proven"``, ``"exhausted"`` (Lightning's queue empty),
        ``"generations"`` (the genetic search's), ``"time"`` or ``"nodes"`` (a heuristic's budget); a
        heuristic's ``lattice`` holds only the nodes it checked.
    mapping : pandas.DataFrame
        The transformation as a value-to-value table (variable, level, value, released): every
        hierarchy row's level-0 value and its label at the chosen level
        (:func:`sdc.apply_transformation` applies it to new data; suppression is not in it).
    attribute_weights : dict or None
        The metric's weight per quasi-identifier, normalised as ARX does (largest 1); None:
        unweighted (every weight equal).
    response : tuple of str
        The classification metric's response variables (empty for the other metrics).
    """

    levels: dict[str, int]
    loss: float
    metric: str
    data: pd.DataFrame = field(repr=False)
    lattice: pd.DataFrame = field(repr=False)
    runner_ups: pd.DataFrame = field(repr=False)
    suppressed: int
    classes: int
    achieved: dict[str, Any] = field(repr=False)
    models: dict[str, Any] = field(repr=False)
    suppression_limit: float
    suppressed_as: str
    quasi_identifiers: tuple[str, ...]
    hierarchy_names: tuple[str | None, ...] = field(repr=False)
    top_levels: tuple[int, ...] = field(repr=False)
    distinct_before: tuple[int, ...] = field(repr=False)
    distinct_after: tuple[int, ...] = field(repr=False)
    changed: dict[str, int] = field(repr=False)
    n_records: int
    n_nodes: int
    n_evaluated: int
    exhaustive: bool
    seconds: float
    mapping: pd.DataFrame = field(repr=False, default_factory=pd.DataFrame)
    algorithm: str = "exact"
    optimal: bool = True
    stopped: str = "proven"
    algorithm_title: str = "the exact search"
    algorithm_how: str = ""
    seed: int | None = None
    attribute_weights: dict[str, float] | None = None
    #: With a research subset: its records and the population's (the file's); ``data`` and
    #: ``n_records`` are then the subset's.
    research_subset: int | None = None
    population_records: int | None = None
    response: tuple[str, ...] = ()
    #: ARX's local recoding (``local=True``): the steps and the saving; ``data`` is then its release.
    local: LocalRecodingResult | None = None

    @property
    def suppressed_share(self) -> float:
        return self.suppressed / self.n_records if self.n_records else 0.0

    def to_frame(self) -> pd.DataFrame:
        """One row per quasi-identifier: chosen and highest level, distinct values before and
        after (released records), cells changed, and the hierarchy's name."""
        return pd.DataFrame({
            "variable": list(self.quasi_identifiers),
            "level": [self.levels[q] for q in self.quasi_identifiers],
            "top_level": list(self.top_levels),
            "distinct_before": list(self.distinct_before),
            "distinct_after": list(self.distinct_after),
            "cells_changed": [self.changed[q] for q in self.quasi_identifiers],
            "hierarchy": [h or "" for h in self.hierarchy_names],
        })

    def summary(self) -> pd.DataFrame:
        """Headline figures (levels, loss, suppression, classes, search effort) as rows of
        (statistic, value, description)."""
        return summary_frame([
            ("levels", dict(self.levels), "the chosen generalisation level per quasi-identifier"),
            ("metric", self.metric, "the loss metric"), ("loss", self.loss, "the loss of the chosen release"),
            ("models", self.models.get("described", []), "the privacy models"),
            ("suppression_limit", self.suppression_limit, "largest share of records that may be suppressed"),
            ("suppressed", self.suppressed, "records suppressed"),
            ("suppressed_share", self.suppressed_share, "share of records suppressed"),
            ("classes", self.classes, "equivalence classes of the release"),
            ("achieved", self.achieved, "the privacy figures achieved"),
            ("nodes", self.n_nodes, "nodes of the lattice"), ("evaluated", self.n_evaluated, "nodes evaluated"),
            ("exhaustive", self.exhaustive, "whether every node was evaluated"),
            ("algorithm", self.algorithm, "exact (proven optimum), lightning or genetic (heuristics)"),
            ("optimal", self.optimal, "proven optimal" if self.optimal else "best found, not proven optimal"),
            ("stopped", self.stopped, STOPPED.get(self.stopped, self.stopped)),
            ("seconds", self.seconds, "wall time of the search"),
            *([("research_subset", self.research_subset, f"records of the research subset released, of "
                f"{self.population_records} in the population (the file)")] if self.research_subset else []),
            *([("attribute_weights", dict(self.attribute_weights), "the metric's weight per quasi-identifier "
                "(largest 1)")] if self.attribute_weights else []),
            *([("response", ", ".join(self.response), "the classification metric's response variables")]
              if self.response else []),
            *([("local_loss", self.local.loss, f"loss of the local recoding ({len(self.local.steps)} steps; "
                f"saving {self.local.saving:.6g} against the full-domain optimum)")] if self.local else []),
        ])
