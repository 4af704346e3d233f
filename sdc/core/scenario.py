"""A scenario's key classes, computed once and shared by every measure of the scenario.

Every measure of re-identification or attribute disclosure starts from the same work: check
the key columns, encode them to integer codes, combine the codes into one pattern id per
record, then count (f_k, F_k under a missing-value rule) or partition the records into
equivalence classes. :class:`KeyClasses` holds that work for one data frame and one set of
keys; a measure given a ``KeyClasses`` in place of the key names reads it instead of doing
the work again::

    kc = sdc.key_classes(df, ["age", "sex", "region"])
    sdc.individual_risk(df, kc, weights="w")   # encodes nothing, counts once
    sdc.k_anonymity(df, kc, weights="w", k=3)  # reuses the same frequencies
    sdc.l_diversity(df, kc, "diagnosis")      # reuses the partition

The frequencies are cached per (weights, missing rule, alpha), the partition once, so the
order in which measures run does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_frame, check_keys
from sdc.core.classes import Classes, equivalence_classes
from sdc.core.frequencies import PatternFrequencies, pattern_frequencies
from sdc.core.keys import EncodedKeys, encode_keys
from sdc.core.missing import MissingRule

__all__ = ["KeyClasses", "key_classes", "resolve_keys"]


@dataclass(frozen=True, eq=False)
class KeyClasses:
    """The encoded keys of one data frame, with their frequencies and classes made on demand.

    Attributes
    ----------
    keys : tuple of str
        The key variables, in the order given.
    encoded : EncodedKeys
        Per-key integer codes (-1 = missing) and one pattern id per record.
    """

    keys: tuple[str, ...]
    encoded: EncodedKeys = field(repr=False)
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_records(self) -> int:
        return self.encoded.n_records

    @property
    def index(self) -> pd.Index:
        return self.encoded.index

    def frequencies(self, w: np.ndarray | None, *, weights: str | None, rule: MissingRule) -> PatternFrequencies:
        """f and F per pattern under a missing-value rule; computed once per (weights, rule).

        `w` are the checked weight values of the column named `weights` (None: unweighted).
        """
        key = ("frequencies", weights, rule.kind, rule.alpha if rule.wildcard else None)
        if key not in self._cache:
            self._cache[key] = pattern_frequencies(self.encoded, w, rule)
        return self._cache[key]

    @property
    def classes(self) -> Classes:
        """The partition into equivalence classes (a missing key value is a value of its own)."""
        if "classes" not in self._cache:
            self._cache["classes"] = equivalence_classes(None, self.keys, self.encoded)  # type: ignore[arg-type]
        return self._cache["classes"]

    def restrict(self, mask: np.ndarray) -> KeyClasses:
        """The key classes of the records where `mask` holds, from the same codes (nothing is
        factorised again): for replicates and subsamples."""
        enc = self.encoded
        # The pattern ids stay valid for a subset (some ids then go unused, which counting allows).
        return KeyClasses(keys=self.keys, encoded=EncodedKeys(
            keys=enc.keys, codes=tuple(c[mask] for c in enc.codes), cardinalities=enc.cardinalities,
            pattern=enc.pattern[mask], n_ids=enc.n_ids, index=enc.index[mask]))

    def release_frequencies(self) -> None:
        """Drop the cached frequencies (the measures that needed them are done); the encoding
        and the partition stay, for the per-record views."""
        for key in [k for k in self._cache if isinstance(k, tuple) and k[0] == "frequencies"]:
            del self._cache[key]

    def fits(self, data: pd.DataFrame) -> bool:
        """Whether these classes were made from a frame with `data`'s records (same index)."""
        idx = self.encoded.index
        return len(data) == self.n_records and (data.index is idx or data.index.equals(idx))

    def summary(self) -> pd.DataFrame:
        """Records, keys, and the distinct key patterns (missing counted as a value), as rows of
        (statistic, value, description)."""
        return summary_frame([("records", self.n_records, "records"), ("keys", list(self.keys), "the key variables"),
                              ("patterns", int(np.count_nonzero(self.encoded.pattern_counts())),
                               "distinct key patterns (a missing value counted as a value)")])


def key_classes(data: pd.DataFrame, keys: str | Sequence[str]) -> KeyClasses:
    """Encode a scenario's keys once, to pass to every measure in place of the key names.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata, one row per record. Not modified.
    keys : str or sequence of str
        Key variables (quasi-identifiers).

    Returns
    -------
    KeyClasses
    """
    check_frame(data)
    keys = check_keys(data, keys)
    return KeyClasses(keys=keys, encoded=encode_keys(data, keys))


def resolve_keys(data: pd.DataFrame, keys: str | Sequence[str] | KeyClasses) -> KeyClasses:
    """`keys` as :class:`KeyClasses`: checked against `data` when given, else made from it."""
    if isinstance(keys, KeyClasses):
        if not keys.fits(data):
            raise ValueError(f"`keys` holds key classes of another data frame ({keys.n_records} records); "
                             f"make them from this data ({len(data)} records) with sdc.key_classes(data, keys).")
        return keys
    return key_classes(data, keys)
