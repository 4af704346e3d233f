"""Unsafe cells of the tables of key combinations (sdcMicro's ``riskyCells``, after mu-Argus).

For every combination of d key variables, d = 1 .. max_dim, the combination's table counts the
records of each occurring cell (each distinct combination of values; a missing value is a value
of its own, as a table counts it); a cell is **unsafe** when it holds at most ``threshold[d]``
records (n <= threshold, inclusive, as sdcMicro's ``N <= threshold``). The result lists, per
combination, its unsafe cells: the number of *cells*, not of records (a cell of 2 records is
one unsafe cell; :func:`sdc.k_anonymity` counts records).

With identification levels (mu-Argus's way of choosing the tables), ``max_dim`` is the number of
distinct levels and the threshold one number, as sdcMicro 5.8.2 does: its selection of
combinations by level (the "Dutch approach") is commented out there, so every combination up to
that dimension is tabulated, here too.

References
----------
Hundepool, A. et al. (2014). mu-ARGUS version 5.1 manual, section 3.3 (tables of key
combinations, unsafe combinations by threshold and identification level). sdcMicro
``riskyCells`` (``R/riskyCells.R``), Meindl, B.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_frame, check_int, check_keys
from sdc.core.classes import equivalence_classes
from sdc.core.shared import shared_codes

__all__ = ["RiskyCellsResult", "risky_cells"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RiskyCellsResult:
    """Result of :func:`risky_cells`.

    Attributes
    ----------
    keys : tuple of str
    max_dim : int
        Largest number of keys in a combination.
    thresholds : tuple of int
        The threshold of each dimension 1 .. max_dim.
    table : pandas.DataFrame
        One row per combination: ``dim1`` .. ``dim<max_dim>`` (the keys, None beyond the
        combination's size), ``threshold``, ``unsafe_cells`` (cells with n <= threshold), and
        ``records_in_unsafe_cells``. In sdcMicro's order (by dimension, then ``combn``'s).
    """

    keys: tuple[str, ...]
    max_dim: int
    thresholds: tuple[int, ...]
    table: pd.DataFrame = field(repr=False)

    @property
    def total_unsafe_cells(self) -> int:
        return int(self.table["unsafe_cells"].sum())

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        worst = self.table.loc[self.table["unsafe_cells"].idxmax()] if len(self.table) else None
        dims = [f"dim{d + 1}" for d in range(self.max_dim)]
        return summary_frame([
            ("combinations", len(self.table), "key combinations tabulated"),
            ("max_dim", self.max_dim, "largest number of keys in a combination"),
            ("unsafe_cells", self.total_unsafe_cells, "unsafe cells over every combination (n <= threshold)"),
            ("combinations_with_unsafe_cells", int((self.table["unsafe_cells"] > 0).sum()),
             "combinations with at least one unsafe cell"),
            ("worst_combination", "" if worst is None else " x ".join(str(worst[c]) for c in dims if worst[c]),
             "the combination with the most unsafe cells"),
        ])


def _thresholds(threshold: int | Sequence[int], max_dim: int, one: bool) -> tuple[int, ...]:
    given = [threshold] if isinstance(threshold, (int, np.integer)) and not isinstance(threshold, bool) else threshold
    try:
        values = [check_int(t, "threshold", min_value=1) for t in given]  # type: ignore[union-attr]
    except TypeError:
        raise TypeError(f"`threshold` must be a whole number >= 1 or one per dimension; got {threshold!r}.") from None
    if one and len(values) != 1:
        raise ValueError(f"`threshold` must be one number with `level` (as sdcMicro's riskyCells); got {threshold!r}.")
    if len(values) not in (1, max_dim):
        raise ValueError(f"`threshold` must be one number or one per dimension (max_dim = {max_dim}); got "
                         f"{len(values)} numbers.")
    return tuple(values * max_dim if len(values) == 1 else values)


def risky_cells(
    data: pd.DataFrame,
    keys: Sequence[str],
    *,
    threshold: int | Sequence[int],
    max_dim: int | None = None,
    level: Sequence[int] | None = None,
) -> RiskyCellsResult:
    """Unsafe cells of every table of up to `max_dim` key variables (sdcMicro's ``riskyCells``).

    For each dimension d and each combination C of d keys (``itertools.combinations`` order,
    which is R's ``combn``), ``unsafe_cells(C) = #{cells c of the table of C : n_c <= t_d}``,
    with n_c the records of cell c (missing values a value of their own).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : sequence of str
        The key variables.
    threshold : int or sequence of int
        t_d: one number for every dimension, or one per dimension 1 .. max_dim (with `level`: one).
    max_dim : int, optional
        Largest dimension (at most the number of keys). Give it or `level`.
    level : sequence of int, optional
        mu-Argus identification levels, one whole number >= 1 per key; max_dim is then the
        number of distinct levels (sdcMicro's ``useIdentificationLevel = TRUE``).

    Returns
    -------
    RiskyCellsResult

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"sex": list("mmmff"), "region": list("aabac")})
    >>> sdc.risky_cells(df, ["sex", "region"], threshold=1, max_dim=2).table["unsafe_cells"].tolist()
    [0, 2, 3]
    """
    frame = check_frame(data)
    cols = check_keys(frame, keys)
    if (max_dim is None) == (level is None):
        raise ValueError("give `max_dim` (every combination up to that many keys) or `level` (identification "
                         "levels), not both or neither.")
    if level is not None:
        lv = [check_int(v, "level", min_value=1) for v in level]
        if len(lv) != len(cols):
            raise ValueError(f"`level` must give one identification level per key ({len(cols)}); got {len(lv)}.")
        max_dim = len(set(lv))
    max_dim = check_int(max_dim, "max_dim", min_value=1, max_value=len(cols))
    thresholds = _thresholds(threshold, max_dim, one=level is not None)
    rows = []
    with shared_codes():  # each key column encoded once for all its combinations (the frame is only read)
        for d in range(1, max_dim + 1):
            for combo in combinations(cols, d):
                sizes = equivalence_classes(frame, combo).sizes
                unsafe = sizes <= thresholds[d - 1]
                rows.append([*combo, *([None] * (max_dim - d)), thresholds[d - 1], int(unsafe.sum()),
                             int(sizes[unsafe].sum())])
    names = [f"dim{d + 1}" for d in range(max_dim)] + ["threshold", "unsafe_cells", "records_in_unsafe_cells"]
    # the key names as objects, None beyond a combination's size (pandas 3 would make them str with NaN)
    table = pd.DataFrame({c: pd.Series([r[i] for r in rows], dtype=object if i < max_dim else np.int64)
                          for i, c in enumerate(names)})
    return RiskyCellsResult(keys=tuple(cols), max_dim=max_dim, thresholds=thresholds, table=table)
