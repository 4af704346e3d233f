"""The headline utility figures of one release, together (one row of a sweep or comparison)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.utility._common import align, check_categorical, is_numeric, resolve_variables
from sdc.utility.eigen import EigenSimilarityResult, eigen_similarity
from sdc.utility.entropy import NonUniformEntropyResult, non_uniform_entropy
from sdc.utility.loss import InformationLossResult, information_loss
from sdc.utility.suppression import SuppressionResult, suppression

__all__ = ["UtilitySummary", "utility_summary"]


@dataclass(frozen=True)
class UtilitySummary:
    """Result of :func:`utility_summary`: the headline figures and the results behind them.

    Attributes
    ----------
    variables : tuple of str
        Variables of IL1 (and, among them, the numeric ones of the eigenvalue similarity).
    keys : tuple of str
        Variables of the non-uniform entropy and of records retained.
    il1_overall : float
    il1 : pandas.Series
        IL1 per variable.
    eigen_similarity_pct : float
        NaN with fewer than two numeric variables.
    nue, nue_normalised, nue_utility_retained : float
        Non-uniform entropy over the keys (bits), normalised, and 1 - normalised.
    records_retained : int
    pct_records_retained : float
    cells_suppressed : int
        Over the keys.
    information_loss, eigen, entropy, suppression : results
        The full results (``eigen`` is None without two numeric variables).
    """

    variables: tuple[str, ...]
    keys: tuple[str, ...]
    n_records: int
    il1_overall: float
    il1: pd.Series = field(repr=False)
    eigen_similarity_pct: float
    nue: float
    nue_normalised: float
    nue_utility_retained: float
    records_retained: int
    pct_records_retained: float
    cells_suppressed: int
    information_loss: InformationLossResult = field(repr=False)
    eigen: EigenSimilarityResult | None = field(repr=False)
    entropy: NonUniformEntropyResult = field(repr=False)
    suppression: SuppressionResult = field(repr=False)

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description), one statistic per
        column of a sweep row (``il1[<variable>]`` per variable)."""
        rows: list[tuple[str, object, str]] = [("il1_overall", float(self.il1_overall), "mean IL1 over the variables")]
        rows += [(f"il1[{v}]", float(x), f"IL1 of {v}") for v, x in self.il1.items()]
        rows += [
            ("eigen_similarity_pct", float(self.eigen_similarity_pct), "eigenvalue similarity of the numeric variables (%)"),
            ("nue", float(self.nue), "non-uniform entropy of the keys (bits)"),
            ("nue_normalised", float(self.nue_normalised), "non-uniform entropy / its maximum"),
            ("nue_utility_retained", float(self.nue_utility_retained), "share of the non-uniform entropy kept (1 - normalised entropy)"),
            ("records_retained", int(self.records_retained), "records not withheld"),
            ("pct_records_retained", float(self.pct_records_retained), "% records retained"),
            ("cells_suppressed", int(self.cells_suppressed), "cells of the keys suppressed"),
        ]
        return summary_frame(rows)

    def to_frame(self) -> pd.DataFrame:
        """The headline figures, long: ``statistic``, ``variable`` (for IL1 per variable), ``value``."""
        rows: list[tuple[str, str | None, float]] = [("il1_overall", None, float(self.il1_overall))]
        rows += [("il1", v, float(x)) for v, x in self.il1.items()]
        rows += [("eigen_similarity_pct", None, float(self.eigen_similarity_pct)), ("nue", None, float(self.nue)),
                 ("nue_normalised", None, float(self.nue_normalised)),
                 ("nue_utility_retained", None, float(self.nue_utility_retained)),
                 ("records_retained", None, float(self.records_retained)),
                 ("pct_records_retained", None, float(self.pct_records_retained)),
                 ("cells_suppressed", None, float(self.cells_suppressed))]
        return pd.DataFrame(rows, columns=["statistic", "variable", "value"])


def utility_summary(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
    keys: str | Sequence[str] | None = None,
    *,
    categorical: str | Sequence[str] | None = None,
    suppressed: str = "max",
) -> UtilitySummary:
    """IL1 per variable and overall, eigenvalue similarity, non-uniform entropy and records retained.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Variables of IL1; the numeric ones (numeric in both files, not in `categorical`)
        also give the eigenvalue similarity. By default the columns whose values changed.
    keys : str or sequence of str, optional
        Variables of the non-uniform entropy, records retained and cells suppressed
        (usually the quasi-identifiers). By default `variables`.
    categorical : str or sequence of str, optional
        Variables compared as categories even if numeric (see :func:`sdc.information_loss`).
    suppressed : {"ignore", "max"}, default "max"
        How suppressed cells enter IL1 (see :func:`sdc.information_loss`; the default is
        ``sdc compare``'s and ``sdc sweep``'s: a suppressed cell is a loss of 1).

    Returns
    -------
    UtilitySummary
        ``summary()`` gives the figures as rows, one per column of a sweep row (what
        ``sdc sweep`` and ``sdc compare`` tabulate).

    Notes
    -----
    Each figure is the one of its own function: :func:`sdc.information_loss`,
    :func:`sdc.eigen_similarity` (needs two or more numeric variables, else NaN),
    :func:`sdc.non_uniform_entropy` and :func:`sdc.suppression`. The frames are validated
    and matched once.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"age": [21, 22, 31, 32], "sex": list("mfmf")})
    >>> rel = pd.DataFrame({"age": ["20--30", "20--30", "30--40", "30--40"], "sex": list("mfmf")})
    >>> s = sdc.utility_summary(orig, rel, ["age", "sex"], keys=["age", "sex"])
    >>> round(float(s.il1["age"]), 4), s.records_retained
    (0.9091, 4)
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables)
    cats = check_categorical(categorical, cols)
    key_cols = cols if keys is None else resolve_variables(orig, rel, keys, role="keys")
    # An empty selection means nothing changed: the measures then run on no variable and report no loss.
    il = information_loss(orig, rel, cols or None, categorical=sorted(cats), suppressed=suppressed)
    numeric = [c for c in cols if c not in cats and is_numeric(orig[c]) and is_numeric(rel[c])]
    eig = eigen_similarity(orig, rel, numeric) if len(numeric) >= 2 else None
    ent = non_uniform_entropy(orig, rel, key_cols or None)
    if key_cols:
        sup = suppression(orig, rel, key_cols)
    else:
        sup = SuppressionResult(variables=(), n_records=len(orig), cells_suppressed=pd.Series([], dtype=np.int64),
                                records_suppressed=0, records_with_suppression=0)
    return UtilitySummary(
        variables=cols, keys=key_cols, n_records=len(orig), il1_overall=il.overall, il1=il.il1,
        eigen_similarity_pct=eig.percent if eig is not None else math.nan,
        nue=ent.entropy, nue_normalised=ent.normalised, nue_utility_retained=ent.utility_retained,
        records_retained=sup.records_retained, pct_records_retained=sup.pct_records_retained,
        cells_suppressed=sup.total_cells_suppressed,
        information_loss=il, eigen=eig, entropy=ent, suppression=sup,
    )
