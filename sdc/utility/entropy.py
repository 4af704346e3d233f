"""Non-uniform entropy: how uncertain the original values are, given the released ones.

Recoding, suppression and PRAM all make a released value stand for several original
values. Non-uniform entropy (Gionis and Tassa 2009; ARX's quality model of that name,
Prasser et al.) counts, for every cell, the bits needed to recover the original value
from the released one, using the value frequencies of the file itself. It is 0 for an
unchanged file (or a mere relabelling) and reaches its maximum when every value is
suppressed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.values import encode_values, pair_counts
from sdc.utility._common import align, resolve_variables

__all__ = ["NonUniformEntropyResult", "non_uniform_entropy"]


@dataclass(frozen=True)
class NonUniformEntropyResult:
    """Result of :func:`non_uniform_entropy`.

    Attributes
    ----------
    variables : tuple of str
    entropy : float
        Non-uniform entropy of the release, in bits, summed over the variables.
    maximum : float
        Its value when every cell is suppressed (the release says nothing).
    normalised : float
        ``entropy / maximum`` in [0, 1] (0 when ``maximum`` is 0).
    utility_retained : float
        ``1 - normalised``: 1 for an unchanged file, 0 when everything is suppressed
        (ARX's normalised quality value).
    per_variable : pandas.DataFrame
        Indexed by variable: ``entropy``, ``maximum``, ``normalised``, ``utility_retained``.
    n_records : int
    """

    variables: tuple[str, ...]
    entropy: float
    maximum: float
    normalised: float
    utility_retained: float
    per_variable: pd.DataFrame = field(repr=False)
    n_records: int

    def to_frame(self) -> pd.DataFrame:
        """One row per variable."""
        return self.per_variable.reset_index()

    def summary(self) -> pd.DataFrame:
        """Headline figures (entropy, its normalised form and the utility retained) as rows of
        (statistic, value, description)."""
        return summary_frame([
            ("nue", float(self.entropy), "non-uniform entropy of the release (bits)"),
            ("nue_max", float(self.maximum), "its maximum: every value lost (bits)"),
            ("nue_normalised", float(self.normalised), "nue / nue_max"),
            ("nue_utility_retained", float(self.utility_retained), "share of the non-uniform entropy kept (1 - normalised entropy)"),
            ("n_records", self.n_records, "records"),
        ])


def _ratio(a: float, b: float) -> float:
    return a / b if b > 0 else 0.0


def non_uniform_entropy(
    original: pd.DataFrame,
    released: pd.DataFrame,
    variables: str | Sequence[str] | None = None,
) -> NonUniformEntropyResult:
    r"""Non-uniform entropy of the release, its maximum and the normalised utility retained.

    Parameters
    ----------
    original, released : pandas.DataFrame
        The file before and after protection, records matched by index (see
        :func:`sdc.information_loss`). Not modified.
    variables : str or sequence of str, optional
        Variables (usually the keys), of any dtype: values are compared as categories.
        By default every common column whose values changed.

    Returns
    -------
    NonUniformEntropyResult

    Notes
    -----
    For variable j, record i with original value x_i and released value x'_i, and counts
    n(.) over the records of the file:

    .. math::

        NUE_j = -\sum_i \log_2 \frac{n(x_i, x'_i)}{n(x'_i)}, \qquad
        NUE_j^{max} = -\sum_i \log_2 \frac{n(x_i)}{n}

    :math:`n(x_i, x'_i) / n(x'_i)` is the share of the records released as x'_i whose
    original value is x_i. For a generalisation (every record with x released as the same
    x') it equals Gionis and Tassa's :math:`\Pr(x \mid x') = n(x) / n(\{y: y \mapsto x'\})`
    (Gionis and Tassa 2009, "k-anonymization with minimal loss of information", IEEE TKDE
    21(2)); a suppressed cell (missing in the release) is the released value "*"; under
    PRAM it is the empirical :math:`\Pr(x \mid x')`, so that :math:`NUE_j = n H(X \mid X')`
    (the entropy-based information loss of de Waal and Willenborg 1999). Missing values in
    the original are a value of their own. The maximum is the entropy of a release that
    suppresses every cell (ARX's column-oriented non-uniform entropy model uses the same
    bounds, 0 and this maximum; Prasser, Kohlmayer et al., "Lightning", and ARX's
    ``QualityModelColumnOrientedNonUniformEntropy``).

    ``normalised`` pools the variables, :math:`\sum_j NUE_j / \sum_j NUE_j^{max}`;
    ``utility_retained = 1 - normalised``. Logarithms are base 2 (bits).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> orig = pd.DataFrame({"age": [21, 22, 31, 32]})
    >>> rel = pd.DataFrame({"age": ["20s", "20s", "30s", "30s"]})
    >>> r = sdc.non_uniform_entropy(orig, rel, "age")
    >>> r.entropy, r.maximum, r.utility_retained
    (4.0, 8.0, 0.5)
    """
    orig, rel = align(original, released)
    cols = resolve_variables(orig, rel, variables)
    n = len(orig)
    rows = {}
    for v in cols:
        a, _ = encode_values(orig[v])
        b, _ = encode_values(rel[v])
        joint, count_a, count_b = pair_counts(a, b)
        ent = float(-np.sum(np.log2(joint / count_b)))
        mx = float(-np.sum(np.log2(count_a / n)))
        ent, mx = ent + 0.0, mx + 0.0  # no negative zero
        rows[v] = {"entropy": ent, "maximum": mx, "normalised": _ratio(ent, mx)}
    per = pd.DataFrame.from_dict(rows, orient="index", columns=["entropy", "maximum", "normalised"], dtype=np.float64)
    per["utility_retained"] = 1.0 - per["normalised"]
    per.index.name = "variable"
    ent = float(per["entropy"].sum())
    mx = float(per["maximum"].sum())
    norm = _ratio(ent, mx)  # 0 when nothing was compared or nothing can be lost
    return NonUniformEntropyResult(variables=cols, entropy=ent, maximum=mx, normalised=norm,
                                   utility_retained=1.0 - norm, per_variable=per, n_records=n)
