"""Prosecutor, journalist and marketer re-identification risk (El Emam 2013; as ARX reports them).

Classes j are the distinct key patterns in the sample (a missing key value is a value of
its own), f_j their sizes, n the records, u the number of classes, F_j the size of the same
key combination in the population, and t a risk threshold.

* **Prosecutor** (the intruder knows the target is in the sample): a record's risk is
  1 / f_j. Records at risk: the share of records with 1 / f_j > t; highest risk
  1 / min f_j; lowest 1 / max f_j; average (success rate) u / n.
* **Journalist** (the intruder matches against the population): 1 / F_j. Records at risk:
  share of records with 1 / F_j > t; highest 1 / min F_j; lowest 1 / max F_j; average
  max(u / sum_j F_j, (1/n) sum_j f_j / F_j).
* **Marketer** (the intruder re-identifies as many records as possible):
  (1/n) sum_j f_j / F_j.

F_j comes from a population table when one is given (records of the population with the
same key values), else from sampling weights (F_j = the sum of the class's weights, sdcMicro's
F_k), else F_j = f_j (the sample is the population, and journalist = prosecutor).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame, check_weights
from sdc.core.engine import dispatch, not_on_engine
from sdc.core.scenario import resolve_keys
from sdc.core.keys import combine_codes, factorize_column
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["AttackerRiskResult", "attacker_risk"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackerRiskResult:
    """Result of :func:`attacker_risk`: the three attacker models' figures.

    ``population_source`` says where F_j came from: ``"population table"``,
    ``"weights"`` or ``"sample"``.
    """

    keys: tuple[str, ...]
    threshold: float
    population_source: str
    n_records: int
    n_classes: int
    prosecutor_records_at_risk: float
    prosecutor_highest_risk: float
    prosecutor_lowest_risk: float
    prosecutor_average_risk: float
    journalist_records_at_risk: float
    journalist_highest_risk: float
    journalist_lowest_risk: float
    journalist_average_risk: float
    marketer_risk: float
    records: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """Per record: ``prosecutor_risk`` (1/f_j) and ``journalist_risk`` (1/F_j)."""
        return self.records

    def summary(self) -> pd.DataFrame:
        t = self.threshold
        rows = []
        for model in ("prosecutor", "journalist"):
            rows += [
                (f"{model}_records_at_risk", getattr(self, f"{model}_records_at_risk"), f"share of records with risk > {t:g}"),
                (f"{model}_highest_risk", getattr(self, f"{model}_highest_risk"), "highest risk"),
                (f"{model}_lowest_risk", getattr(self, f"{model}_lowest_risk"), "lowest risk"),
                (f"{model}_average_risk", getattr(self, f"{model}_average_risk"), "average risk (success rate)"),
            ]
        rows.append(("marketer_risk", self.marketer_risk, "expected share of records re-identified"))
        return summary_frame(rows)


@dispatch(dask="sdc.risk.attacker:_attacker_risk_tables", chunks="sdc.risk.attacker:_attacker_risk_tables")
def attacker_risk(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    threshold: float = 0.2,
    weights: str | None = None,
    population: pd.DataFrame | None = None,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> AttackerRiskResult:
    """Prosecutor, journalist and marketer risk of the key variables.

    Parameters
    ----------
    data : pandas.DataFrame
        The sample. Not modified. A Dask DataFrame gives the same figures from one pass to its
        pattern table, with ``records`` a Dask DataFrame (without `population`).
    keys : str or sequence of str
        Key variables.
    threshold : float in [0, 1], default 0.2
        Records with risk strictly above it are "at risk" (0.2: classes smaller than 5).
    weights : str, optional
        Sampling weights, for F_j when no population table is given.
    population : pandas.DataFrame, optional
        The population (a superset of the sample) with the same key columns.
    key_bins : mapping, optional
        Bins for continuous keys before counting (:mod:`sdc.core.binning`), e.g.
        ``{"age": [0, 18, 65, inf]}`` or ``{"age": {"width": 10}}``.
        The same bins are applied to `population`.

    References
    ----------
    .. [1] El Emam, K. (2013). Guide to the De-Identification of Personal Health
           Information. CRC Press.
    .. [2] Prasser, F., Kohlmayer, F. et al. ARX: a comprehensive tool for anonymizing
           biomedical data. AMIA Annu Symp Proc 2014, 984-993.
    """
    if key_bins and population is not None:
        population = prepare(population, keys, key_bins=key_bins)[0]
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    kc = resolve_keys(data, keys)
    keys = kc.keys
    t = check_fraction(threshold, "threshold")
    w = check_weights(data, weights)
    classes = kc.classes
    f = classes.sizes.astype(np.float64)
    if population is not None:
        check_frame(population, "population")
        check_columns(population, keys, role="keys (in `population`)")
        F = _population_counts(data, population, keys, classes.first)
        source = "population table"
        short = F < f
        if short.any():
            raise ValueError(f"{int(short.sum())} key combination(s) occur more often in the sample than in "
                             "`population`; the population must contain the sample.")
    elif w is not None:
        F = np.bincount(classes.ids, weights=w, minlength=classes.n_classes)
        source = "weights"
    else:
        F = f.copy()
        source = "sample"
    pros, jour = 1.0 / f, 1.0 / F
    records = pd.DataFrame({"prosecutor_risk": pros[classes.ids], "journalist_risk": jour[classes.ids]},
                           index=data.index)
    return _result(keys, t, source, f, F, records)


def _result(keys: tuple[str, ...], t: float, source: str, f: np.ndarray, F: np.ndarray, records: object
            ) -> AttackerRiskResult:
    """The three models' figures from each class's size f_j and population size F_j."""
    n = float(f.sum())
    u = int(f.size)
    pros, jour = 1.0 / f, 1.0 / F
    return AttackerRiskResult(
        keys=keys, threshold=t, population_source=source, n_records=int(n), n_classes=u,
        prosecutor_records_at_risk=float(f[pros > t].sum() / n),
        prosecutor_highest_risk=float(1.0 / f.min()),
        prosecutor_lowest_risk=float(1.0 / f.max()),
        prosecutor_average_risk=u / n,
        journalist_records_at_risk=float(f[jour > t].sum() / n),
        journalist_highest_risk=float(1.0 / F.min()),
        journalist_lowest_risk=float(1.0 / F.max()),
        journalist_average_risk=float(max(u / F.sum(), (f / F).sum() / n)),
        marketer_risk=float((f / F).sum() / n),
        records=records,  # type: ignore[arg-type]
    )


def _attacker_risk_tables(data: object, keys: str | Sequence[str], *, threshold: float = 0.2,
                          weights: str | None = None, population: pd.DataFrame | None = None,
                          key_bins: Mapping[str, BinSpec] | None = None) -> AttackerRiskResult:
    """:func:`attacker_risk` of a Dask DataFrame: each class's size and weight sum from one pass
    to its pattern table (the classes of the records, a missing key value a value of its own);
    ``records`` is a Dask DataFrame aligned to the partitions."""
    from sdc.core.classes import equivalence_classes, key_rows
    from sdc.core.engine import engine_of
    from sdc.core.frequencies import table_arguments

    if population is not None:
        raise not_on_engine("attacker_risk(population=...)", engine_of(data), "the population table is matched "
                            "with the sample's classes in memory")
    tables, keys, weights, _ = table_arguments(data, keys, weights, "category", 1.0, key_bins)
    t = check_fraction(threshold, "threshold")
    table = tables.pattern_table(keys, weights)
    classes = equivalence_classes(table, keys)
    f = np.bincount(classes.ids, weights=table["_n"].to_numpy(np.float64), minlength=classes.n_classes)
    F = np.bincount(classes.ids, weights=table["_w"].to_numpy(np.float64), minlength=classes.n_classes) \
        if weights is not None else f.copy()
    rows, ids = key_rows(table, keys, classes.ids)
    per = tables.per_record(keys, rows, ids, int(f.sum()), prosecutor_risk=1.0 / f, journalist_risk=1.0 / F)
    return _result(keys, t, "weights" if weights is not None else "sample", f, F,
                   per.frame(["prosecutor_risk", "journalist_risk"]))


def _population_counts(sample: pd.DataFrame, population: pd.DataFrame, keys: tuple[str, ...],
                       first: np.ndarray) -> np.ndarray:
    """F_j: population records with each sample class's key values (missing = a value);
    `first` is the position of each class's first sample record."""
    both = pd.concat([sample[list(keys)], population[list(keys)]], ignore_index=True)
    cols, cards = [], []
    for k in keys:
        c, card = factorize_column(both[k])
        cols.append(c)
        cards.append(card)
    pattern, n_ids = combine_codes(cols, cards, len(both))
    n = len(sample)
    pop_counts = np.bincount(pattern[n:], minlength=n_ids)
    return pop_counts[pattern[first]].astype(np.float64)
