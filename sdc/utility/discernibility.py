"""Utility of the partition into equivalence classes: discernibility, average class size, privacy gain.

Generalisation and suppression merge records into larger classes of identical key
values. The coarser the partition, the safer and the less useful the file. These
row-oriented measures (Bayardo and Agrawal 2005; LeFevre et al. 2006; ARX's quality
models) describe the partition of the release next to the original's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.classes import equivalence_classes
from sdc.core.frequencies import pattern_frequencies
from sdc.core.missing import MissingKind, MissingRule, missing_rule
from sdc.core.keys import encode_keys
from sdc.utility._common import align, resolve_variables

__all__ = ["DiscernibilityResult", "discernibility"]


@dataclass(frozen=True)
class DiscernibilityResult:
    """Result of :func:`discernibility`; each figure before (original) and after (release).

    Attributes
    ----------
    keys : tuple of str
    missing : str
        The missing-value rule of the f_k behind ``k_before``/``k_after``.
    n_records : int
    discernibility_before, discernibility_after : float
        :math:`\\sum_E |E|^2 + n |S|` (classes E of the records kept, S the withheld records).
    discernibility_utility_retained : float
        ARX's normalised value: :math:`1 - (DM' - DM) / (n^2 - DM)`, clipped to [0, 1].
    n_classes_before, n_classes_after : int
        Equivalence classes (missing counted as a value) among the records kept.
    average_class_size_before, average_class_size_after : float
        Records kept per class (AECS).
    aecs_utility_retained : float
        ARX's normalised value: :math:`1 - (AECS' - AECS) / (n - AECS)`, clipped to [0, 1].
    records_suppressed_before, records_suppressed_after : int
        Records whose every key is missing.
    k_before, k_after : float
        Smallest f_k over the records kept (the k the file achieves).
    privacy_gain : float
        ``k_after - k_before``.
    """

    keys: tuple[str, ...]
    missing: str
    n_records: int
    discernibility_before: float
    discernibility_after: float
    discernibility_utility_retained: float
    n_classes_before: int
    n_classes_after: int
    average_class_size_before: float
    average_class_size_after: float
    aecs_utility_retained: float
    records_suppressed_before: int
    records_suppressed_after: int
    k_before: float
    k_after: float
    privacy_gain: float

    _ROWS = (
        ("discernibility", "discernibility: sum of squared class sizes, n per withheld record"),
        ("n_classes", "equivalence classes among the records kept"),
        ("average_class_size", "records kept per class (AECS)"),
        ("records_suppressed", "records with every key missing (withheld)"),
        ("k", "smallest fk over the records kept"),
    )

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic: ``before``, ``after``, ``description``."""
        rows = [(s, getattr(self, f"{s}_before"), getattr(self, f"{s}_after"), d) for s, d in self._ROWS]
        return pd.DataFrame(rows, columns=["statistic", "before", "after", "description"])

    def summary(self) -> pd.DataFrame:
        """Headline figures (discernibility and AECS after, with their utility retained; the
        privacy gain) as rows of (statistic, value, description)."""
        return summary_frame([
            ("discernibility", float(self.discernibility_after), "discernibility of the release (sum of |E|^2 + n |S|)"),
            ("discernibility_utility_retained", float(self.discernibility_utility_retained),
             "1 - (DM' - DM) / (n^2 - DM), clipped to [0, 1] (ARX)"),
            ("average_class_size", float(self.average_class_size_after), "records kept per class in the release (AECS)"),
            ("aecs_utility_retained", float(self.aecs_utility_retained),
             "1 - (AECS' - AECS) / (n - AECS), clipped to [0, 1] (ARX)"),
            ("k_before", float(self.k_before), "smallest fk of the original"),
            ("k_after", float(self.k_after), "smallest fk of the release"),
            ("privacy_gain", float(self.privacy_gain), "k after - k before"),
            ("n_records", self.n_records, "records"),
        ])


def _retained(before: float, after: float, maximum: float) -> float:
    """ARX's normalisation: 1 - (after - before) / (maximum - before), clipped to [0, 1]."""
    if maximum <= before:
        return 1.0 if after <= before else 0.0
    return float(1.0 - min(1.0, max(0.0, (after - before) / (maximum - before))))


def _partition(frame: pd.DataFrame, keys: tuple[str, ...], rule: MissingRule) -> dict[str, float]:
    n = len(frame)
    enc = encode_keys(frame, keys)
    withheld = enc.missing_mask().all(axis=1)
    n_withheld = int(withheld.sum())
    if n_withheld == n:
        return {"discernibility": float(n) * n, "n_classes": 0, "average_class_size": float(n),
                "records_suppressed": n_withheld, "k": math.nan}
    cl = equivalence_classes(frame, keys, enc)
    sizes = cl.sizes
    if n_withheld:
        # The withheld records share the all-missing pattern: one class, which is not a class of the release.
        sizes = np.delete(sizes, cl.ids[int(np.argmax(withheld))])
    pf = pattern_frequencies(enc, None, rule)
    fk = np.asarray(pf.fk, dtype=np.float64)[pf.pattern]
    dm = float(np.sum(sizes.astype(np.float64) ** 2)) + float(n) * n_withheld
    return {"discernibility": dm, "n_classes": int(sizes.size), "average_class_size": float(n - n_withheld) / sizes.size,
            "records_suppressed": n_withheld, "k": float(np.min(fk[~withheld]))}


def discernibility(
    original: pd.DataFrame,
    released: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    missing: MissingKind | MissingRule = "wildcard",
) -> DiscernibilityResult:
    r"""Discernibility, average class size and privacy gain of the release against the original.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    keys : str or sequence of str
        Key variables (quasi-identifiers).
    missing : {"wildcard", "category"} or MissingRule, default "wildcard"
        The missing-value rule of the f_k behind k (as in :func:`sdc.k_anonymity`;
        sdcMicro's rule by default, with alpha 1). Classes for discernibility and AECS always count a
        missing value as a value of their own (they must partition the records).

    Returns
    -------
    DiscernibilityResult

    Notes
    -----
    A record whose every key is missing is *withheld* (ARX's record suppression; after
    sdcMicro's local suppression every key of such a record is NA). With n records, E the
    equivalence classes of the records kept and S the withheld ones:

    * discernibility (Bayardo and Agrawal 2005, "Data privacy through optimal
      k-anonymization", ICDE): :math:`DM = \sum_E |E|^2 + n\,|S|`. Minimum n (every
      record unique), maximum n^2;
    * average equivalence-class size (LeFevre, DeWitt and Ramakrishnan 2006, "Mondrian
      multidimensional k-anonymity", ICDE, without their division by k):
      :math:`AECS = (n - |S|) / |E|`;
    * utility retained, ARX's normalisation of a row-oriented quality model (the
      original's value is the best, the maximum the worst):
      :math:`1 - (m' - m)/(m_{max} - m)`, clipped to [0, 1], with :math:`m_{max}` = n^2
      for DM and n for AECS;
    * k = the smallest f_k over the records kept, and the privacy gain
      :math:`k' - k`.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"age": [21, 22, 31, 32], "sex": ["m", "m", "f", "f"]})
    >>> rel = pd.DataFrame({"age": ["20s", "20s", "30s", "30s"], "sex": ["m", "m", "f", "f"]})
    >>> r = sdc.discernibility(orig, rel, ["age", "sex"])
    >>> r.discernibility_before, r.discernibility_after, r.privacy_gain
    (4.0, 8.0, 1.0)
    """
    orig, rel = align(original, released)
    if keys is None:
        raise ValueError("`keys` must name at least one column; got None.")
    cols = resolve_variables(orig, rel, keys, role="keys")
    rule = missing_rule(missing)
    b = _partition(orig, cols, rule)
    a = _partition(rel, cols, rule)
    n = len(orig)
    return DiscernibilityResult(
        keys=cols, missing=rule.kind, n_records=n,
        discernibility_before=b["discernibility"], discernibility_after=a["discernibility"],
        discernibility_utility_retained=_retained(b["discernibility"], a["discernibility"], float(n) * n),
        n_classes_before=b["n_classes"], n_classes_after=a["n_classes"],
        average_class_size_before=b["average_class_size"], average_class_size_after=a["average_class_size"],
        aecs_utility_retained=_retained(b["average_class_size"], a["average_class_size"], float(n)),
        records_suppressed_before=b["records_suppressed"], records_suppressed_after=a["records_suppressed"],
        k_before=b["k"], k_after=a["k"], privacy_gain=a["k"] - b["k"],
    )
