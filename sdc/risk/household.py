"""Household (hierarchical) re-identification risk.

When records are grouped in households, re-identifying any member exposes the household,
so each household h gets the risk that at least one member is re-identified, assuming
independence (mu-Argus manual 4.1 sec. 2.3.3; sdcMicro's ``measure_risk(hid =)`` with
``fast_hier = TRUE``):

    r_h = 1 - prod_{i in h} (1 - r_i),

and every member receives r_h. Expected re-identifications ER_h = sum over *records* of
r_h; household global risk = ER_h / n, and in % (sdcMicro's ``hier_risk_ER``,
``hier_risk``, ``hier_risk_pct``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, plain
from sdc.core.keys import dense_ids
from sdc.core.shared import memoized
from sdc.core.engine import dispatch
from sdc.core.missing import MissingKind, MissingRule
from sdc.risk.individual import IndividualRiskResult, individual_risk
from sdc.core.binning import BinSpec
from sdc.core.prepare import prepare

__all__ = ["HouseholdRiskResult", "household_risk", "check_household"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseholdRiskResult:
    """Result of :func:`household_risk`.

    Attributes
    ----------
    household : str
        The household id column.
    individual : IndividualRiskResult
        The individual risks the household risk is built from.
    risk : pandas.Series
        Household risk r_h of each record (``hier_risk``), indexed like the input.
    n_households : int
    expected_reidentifications : float
        sum over records of r_h (``hier_risk_ER``).
    global_risk : float
        ER_h / n (``hier_risk``).
    """

    household: str
    individual: IndividualRiskResult = field(repr=False)
    risk: pd.Series = field(repr=False)
    n_households: int
    expected_reidentifications: float
    global_risk: float

    @property
    def global_risk_pct(self) -> float:
        return 100.0 * self.global_risk

    @property
    def max_risk(self) -> float:
        return float(self.risk.max())

    def to_frame(self) -> pd.DataFrame:
        """Per record: ``risk``, ``fk``, ``Fk``, ``hier_risk`` (sdcMicro's ``Res`` with hid)."""
        return pd.concat([self.individual.to_frame(), self.risk], axis=1)

    def summary(self) -> pd.DataFrame:
        rows = [
            ("n_households", self.n_households, "households"),
            ("hier_expected_reidentifications", self.expected_reidentifications,
             "sum over records of their household's risk"),
            ("hier_risk", self.global_risk, "household expected re-identifications / n"),
            ("hier_risk_pct", self.global_risk_pct, "in %"),
        ]
        return summary_frame(rows)


def check_household(data: pd.DataFrame, household: str) -> np.ndarray:
    """Household ids as integer codes; refuses missing ids and mixed types."""
    if not isinstance(household, str):
        raise TypeError(f"`household` must be a column name (str); got {household!r}.")
    (col,) = check_columns(data, [household], role="household")
    s = data[col]
    miss = s.isna().to_numpy()
    if miss.any():
        raise ValueError(
            f"household id column {col!r} has {int(miss.sum())} missing value(s), first at index "
            f"{plain(s.index[np.argmax(miss)])!r}; every record needs a household."
        )
    if s.dtype == object:
        kinds = {type(v).__name__ for v in s}
        if len(kinds) > 1:
            raise ValueError(f"household id column {col!r} mixes types ({', '.join(sorted(kinds))}); "
                             "use one type for all ids.")
    # Once per run inside sdc.core.shared.shared_codes (household risk and the jackknife both ask).
    return memoized("household", s, lambda: dense_ids(s.to_numpy())[0])


@dispatch(dask=None, why="it needs each household's records together")
def household_risk(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    household: str,
    *,
    weights: str | None = None,
    method: Literal["approx", "exact"] = "approx",
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> HouseholdRiskResult:
    """Household risk 1 - prod(1 - r_i) over the members of each household.

    A household is re-identified when any of its members is, the members' re-identifications
    taken as independent: r_h = 1 - prod over members i of (1 - r_i), with r_i the individual
    risk (:func:`sdc.individual_risk`); every member gets r_h, and the expected number of
    re-identified records is the sum over records. This is sdcMicro's household (hierarchical)
    risk, ``measure_risk(..., hid=)`` (Templ, Kowarik and Meindl 2015, Journal of Statistical
    Software 67(4)).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables.
    household : str
        The household id column (numbers or strings; no missing values).
    weights, method, missing, alpha, key_bins
        As for :func:`sdc.individual_risk`.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 40, 50], "hh": [1, 1, 2, 2]})
    >>> sdc.household_risk(df, ["age"], "hh").risk.tolist()
    [0.75, 0.75, 1.0, 1.0]
    """
    data, keys, weights = prepare(data, keys, key_bins=key_bins, weights=weights)
    hh = check_household(data, household)
    ind = individual_risk(data, keys, weights=weights, method=method, missing=missing, alpha=alpha)
    r = ind.risk.to_numpy()
    # Product of (1 - r) per household, multiplied in record order within the household.
    order = np.argsort(hh, kind="stable")
    sorted_hh = hh[order]
    starts = np.flatnonzero(np.r_[True, sorted_hh[1:] != sorted_hh[:-1]])
    prod = np.multiply.reduceat(1.0 - r[order], starts)
    r_h = 1.0 - prod
    per_record = np.empty_like(r)
    per_record[order] = np.repeat(r_h, np.diff(np.r_[starts, r.size]))
    er = float(per_record.sum())
    return HouseholdRiskResult(
        household=household, individual=ind,
        risk=pd.Series(per_record, index=data.index, name="hier_risk"),
        n_households=int(starts.size), expected_reidentifications=er, global_risk=er / r.size,
    )
