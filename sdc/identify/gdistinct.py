"""The g-distinct attribute classification (Mansour et al. 2021, as used by Khan et al. 2025).

A value v of attribute A is *g-distinct* when exactly g records hold it (g = its frequency
f_v): its g-distinct entry is 1/g, 1 for a value no other record shares, 1/2 for a value
shared by two records, and so on. The attribute's *re-identification risk rate* is the mean
of these entries over the attribute's distinct values (a missing value counted as a value of
its own),

    R(A) = (1/|V_A|) * sum_{v in V_A} 1/f_v                         (average="values", default)

which is how Khan et al. (2025) computed their published rates: all 30 of their two mock
files' rates (bmi 38.50 % in the 500-row file, 20.98 % in the 1,000-row one) come out of it,
as out of the public implementation of their identification stage. Averaging the entries over
the records instead (each record carrying its value's 1/g) gives

    R(A) = (1/n) * sum_{i=1..n} 1/g(x_i) = |V_A| / n              (average="records")

(the entries of a value's f_v records sum to 1): distinct values over records, bmi 30.0 % in
the 500-row file. Both give 1 (100 %) for a column with one value per record, and 2/n for a
binary attribute split evenly (0.40 % in 500 records, 0.20 % in 1,000); with ``"records"``
every binary attribute scores 2/n. The result's table shows both, named (``rate_values``,
``rate_records``). Thresholds alpha >= beta classify each attribute:

- sensitive when R(A) > alpha,
- quasi-identifier when beta <= R(A) <= alpha,
- non-sensitive when R(A) < beta.

Khan et al. used alpha = 25 %, beta = 1 % on 500 records and alpha = 10 %, beta = 1 % on
1,000. The rate falls as n grows for a column with a fixed set of values, so thresholds are
file-size specific: a binary column is "non-sensitive" at beta = 1 % once n > 200.

References
----------
H. O. Mansour, M. M. Siraj, F. A. Ghaleb, F. Saeed, E. H. Alkhammash, M. A. Maarof (2021),
"Quasi-identifier recognition algorithm for privacy preservation of cloud data based on risk
reidentification", Wireless Communications and Mobile Computing 2021, 7154705,
doi:10.1155/2021/7154705 (Algorithm 1: g-distinct per tuple, risk rate, classification).
H. Khan, L. Menten, L. M. Peeters (2025), "An algorithmic pipeline for GDPR-compliant
healthcare data anonymisation: moving toward standardisation", arXiv:2506.02942.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame, check_option
from sdc.identify._facts import ColumnFacts, column_facts

__all__ = ["GDistinctResult", "g_distinct", "classify_rate", "GDISTINCT_AVERAGES", "GDISTINCT_CLASSES",
           "ALPHA", "BETA"]

GDISTINCT_AVERAGES = ("values", "records")
GDISTINCT_CLASSES = ("sensitive", "quasi-identifier", "non-sensitive")
#: Defaults: Khan et al.'s thresholds for their 1,000-record file.
ALPHA = 0.10
BETA = 0.01
_EPS = 1e-12  # a rate within this of a threshold counts as on it (the bounds are inclusive)


@dataclass(frozen=True, slots=True, kw_only=True)
class GDistinctResult:
    """Result of :func:`g_distinct`.

    Attributes
    ----------
    variables : tuple of str
    alpha, beta : float
        Thresholds (shares, not percentages).
    average : str
        ``"values"`` (mean of 1/f over the distinct values) or ``"records"`` (|V|/n).
    n_records : int
    table : pandas.DataFrame
        One row per variable: ``variable``, ``n_values`` (distinct values, missing counted as
        one), ``rate`` (share, by `average`), ``rate_pct`` (percent), ``class``, and both
        definitions, named: ``rate_values`` and ``rate_records``, sorted as given.
    """

    variables: tuple[str, ...]
    alpha: float
    beta: float
    average: str
    n_records: int
    table: pd.DataFrame = field(repr=False)

    @property
    def rates(self) -> dict[str, float]:
        """The re-identification risk rate of each variable (a share in (0, 1])."""
        return dict(zip(self.table["variable"], map(float, self.table["rate"])))

    @property
    def classes(self) -> dict[str, str]:
        return dict(zip(self.table["variable"], self.table["class"]))

    def of_class(self, cls: str) -> tuple[str, ...]:
        check_option(cls, "cls", GDISTINCT_CLASSES)
        return tuple(v for v, c in self.classes.items() if c == cls)

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """The classification as rows of (statistic, value, description)."""
        return summary_frame([
            ("n_records", self.n_records, "records"),
            ("alpha", self.alpha, "rate above which an attribute is sensitive"),
            ("beta", self.beta, "rate below which an attribute is non-sensitive"),
            ("average", self.average, "how the rate is averaged"),
            ("sensitive", list(self.of_class("sensitive")), "attributes classed sensitive (rate > alpha)"),
            ("quasi_identifiers", list(self.of_class("quasi-identifier")),
             "attributes classed quasi-identifiers (beta <= rate <= alpha)"),
            ("non_sensitive", list(self.of_class("non-sensitive")), "attributes classed non-sensitive (rate < beta)"),
        ])


def classify_rate(rate: float, alpha: float, beta: float) -> str:
    """``"sensitive"`` (rate > alpha), ``"quasi-identifier"`` (beta <= rate <= alpha) or
    ``"non-sensitive"`` (rate < beta); a rate within 1e-12 of a bound counts as on it."""
    if rate > alpha + _EPS:
        return "sensitive"
    if rate < beta - _EPS:
        return "non-sensitive"
    return "quasi-identifier"


def g_distinct(data: pd.DataFrame, variables: Sequence[str] | None = None, *, alpha: float = ALPHA,
               beta: float = BETA, average: str = "values") -> GDistinctResult:
    """Re-identification risk rate of each attribute and its g-distinct class.

    Parameters
    ----------
    data : pandas.DataFrame
    variables : sequence of str, optional
        Attributes to rate (default: every column).
    alpha, beta : float
        Thresholds, shares in [0, 1] with ``beta <= alpha`` (defaults 0.10 and 0.01).
    average : {"values", "records"}
        Mean of the g-distinct entries 1/f over the distinct values (default: Khan et al.'s
        published rates and their public implementation) or over the records (the rate is
        then |V|/n).

    Returns
    -------
    GDistinctResult

    Notes
    -----
    R(A) = (1/|V_A|) sum_v 1/f_v, or (1/n) sum_i 1/g(x_i) = |V_A|/n; sensitive when
    R > alpha, quasi-identifier when beta <= R <= alpha, non-sensitive when R < beta. A
    missing value is a value of its own (the pipeline fills missing cells with one marker).

    Examples
    --------
    >>> df = pd.DataFrame({"sex": ["f", "m"] * 250, "id": range(500)})
    >>> g_distinct(df).table[["variable", "rate_pct", "class"]].to_dict("list")
    {'variable': ['sex', 'id'], 'rate_pct': [0.4, 100.0], 'class': ['non-sensitive', 'sensitive']}
    """
    data = check_frame(data)
    if variables is None and data.shape[1] == 0:
        raise ValueError("`data` has no columns to classify.")
    cols = list(data.columns) if variables is None else list(check_columns(data, variables, role="variables"))
    alpha, beta, average = check_gdistinct_options(alpha, beta, average)
    facts = [column_facts(data[c]) for c in cols]
    return gdistinct_from_facts(facts, len(data), alpha=alpha, beta=beta, average=average)


def check_gdistinct_options(alpha: object, beta: object, average: object) -> tuple[float, float, str]:
    a = check_fraction(alpha, "alpha")
    b = check_fraction(beta, "beta")
    if b > a:
        raise ValueError(f"`beta` must not exceed `alpha`; got beta={b:g} > alpha={a:g}.")
    return a, b, check_option(average, "average", GDISTINCT_AVERAGES)


def gdistinct_from_facts(facts: Sequence[ColumnFacts], n_records: int, *, alpha: float, beta: float,
                         average: str) -> GDistinctResult:
    """The classification from precomputed column facts (options already validated)."""
    rows = []
    for f in facts:
        freq = f.counts if not f.n_missing else np.append(f.counts, f.n_missing)
        n_values = int(freq.shape[0])
        by_values, by_records = float(np.mean(1.0 / freq)), n_values / n_records
        rate = by_records if average == "records" else by_values
        rows.append([f.name, n_values, float(rate), 100.0 * float(rate), classify_rate(rate, alpha, beta), by_values,
                     by_records])
    table = pd.DataFrame(rows, columns=["variable", "n_values", "rate", "rate_pct", "class", "rate_values",
                                        "rate_records"])
    return GDistinctResult(variables=tuple(f.name for f in facts), alpha=float(alpha), beta=float(beta),
                           average=average, n_records=int(n_records), table=table)
