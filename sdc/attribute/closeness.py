"""Distance between each class's distribution of a sensitive variable and the whole file's.

For an equivalence class with distribution P = (p_1..p_m) of the sensitive values and the
file-wide distribution Q (missing sensitive values left out of both):

* t-closeness (Li, Li and Venkatasubramanian 2007) — the class's distance to Q:
  - ``"equal"``: earth mover's distance with equal ground distance, ½ sum |p_i - q_i|;
  - ``"tvd"``: total variation distance, the same number (Li et al. show the equal-distance
    EMD reduces to it); kept as its own name for users who think in TVD;
  - ``"ordered"``: EMD with ordered distance |i - j| / (m - 1) over the m ordered values
    present in the file: (1 / (m - 1)) sum_i |sum_{j<=i} (p_j - q_j)|, in [0, 1];
  - ``"wasserstein"``: the Wasserstein-1 distance on the raw numeric values, in the
    variable's own units: sum_i |F_P(v_i) - F_Q(v_i)| (v_{i+1} - v_i).
* basic beta-likeness (Cao and Karras 2012): max over values with p > q of (p - q) / q;
  enhanced beta-likeness requires (p - q) / q <= min(beta, -ln q): the class's enhanced
  beta is the basic one when every value meets (p - q) / q <= -ln q, else infinite.
* delta-disclosure (Brickell and Shmatikov 2008): max of |log(p / q)| over the values
  present in the class (``variant="present"``, the default: pyCANON's definition, natural
  log; ``"arx"``: the same with log base 2, ARX's DDisclosurePrivacy), or over every value
  of the file (``"all"``: infinite when the class lacks one of them).

Classes are the distinct key patterns (a missing key is a value of its own). A class with
no observed sensitive value has no distance (NaN) and is never counted as above a bound.
Work proceeds on dense blocks of classes x values while classes x values is small (memory
stays bounded for any number of classes); beyond that, on the occurring (class, value)
cells only, so that time grows with the records, not with classes x values (a key of
10^5 distinct values and a sensitive variable of 10^5 values would otherwise cost 10^10):

* equal/TVD: ½ sum_i |p_i - q_i| = ½ (1 + sum over the class's values of (|p_i - q_i| - q_i));
* ordered/Wasserstein: the class's cumulative share F_P is a step function, constant
  (= s) between the class's consecutive values a < b; F_Q is non-decreasing, so
  sum_{a <= i < b} w_i |s - F_Q(i)| splits at the first i with F_Q(i) >= s and each part is a
  difference of prefix sums of w and w F_Q (one binary search per cell);
* beta-likeness and delta-disclosure: maxima over the class's values (a value missing from
  the class has p = 0: gain 0, and |ln(p / q)| infinite).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_frame, check_keys, check_number, check_option
from sdc.attribute._closeness_cells import _Prepared, _sparse_beta, _sparse_delta, _sparse_distances
from sdc.core.binning import Binning, BinSpec, apply_binning
from sdc.core.engine import dispatch, tables_of
from sdc.core.scenario import KeyClasses, resolve_keys
from sdc.core.classes import Classes, Sensitive, cells, encode_sensitive, equivalence_classes, key_rows

__all__ = [
    "TClosenessResult", "t_closeness", "DISTANCES",
    "BetaLikenessResult", "beta_likeness", "DeltaDisclosureResult", "delta_disclosure", "DELTA_VARIANTS",
]

# delta-disclosure: which values the maximum runs over, and the logarithm's base
DELTA_VARIANTS = ("present", "arx", "all")
_DELTA_TEXT = {"present": "max |ln(p / q)| over the values in the class",
               "arx": "max |log2(p / q)| over the values in the class",
               "all": "max |ln(p / q)| over the values of the file"}

DISTANCES = ("ordered", "equal", "tvd", "wasserstein")
_BLOCK_CELLS = 1 << 22  # classes x values per dense block
#: Classes x values (plus values x values for the one-record classes) up to which the dense
#: blocks are used; above it, the sparse cells.
_DENSE_CELLS = 1 << 24


def _check_arguments(data: pd.DataFrame, keys, sensitive: str, key_bins):  # noqa: ANN001, ANN202
    """(key classes or None, keys, the sensitive variable), checked (one error line each)."""
    kc = keys if isinstance(keys, KeyClasses) else None
    keys = resolve_keys(data, keys).keys if kc is not None else check_keys(data, keys)
    (s_name,) = check_columns(data, [sensitive], role="sensitive")
    if s_name in keys:
        raise ValueError(f"`sensitive` variable {s_name!r} may not also be a key.")
    if key_bins:
        extra = [b for b in key_bins if b not in keys]
        if extra:
            raise ValueError(f"`key_bins` names columns that are not keys: {', '.join(map(repr, extra))}.")
    return kc, keys, s_name


def _prepare(data: pd.DataFrame, keys, sensitive: str, key_bins) -> _Prepared:  # noqa: ANN001
    check_frame(data)
    kc, keys, s_name = _check_arguments(data, keys, sensitive, key_bins)
    work, binning = apply_binning(data, key_bins)
    classes = kc.classes if kc is not None and not key_bins else equivalence_classes(work, keys)
    return prepared(classes, encode_sensitive(work, s_name), data, binning)


def prepared(classes: Classes, sens: Sensitive, data: pd.DataFrame, binning: tuple[Binning, ...] = (),
             counts: np.ndarray | None = None) -> _Prepared:
    """The file distribution and per-class counts of `sens`; with `counts`, the rows of
    `data` are (class, value) cells standing for that many records each."""
    observed = sens.codes >= 0
    if not observed.any():
        raise ValueError(f"sensitive variable {sens.name!r} is missing in every record.")
    if counts is None:
        q = np.bincount(sens.codes[observed], minlength=sens.n_values) / observed.sum()
        n_obs = np.bincount(classes.ids[observed], minlength=classes.n_classes)
    else:
        w = np.asarray(counts, dtype=np.float64)[observed]
        n_q = np.rint(np.bincount(sens.codes[observed], weights=w, minlength=sens.n_values)).astype(np.int64)
        q = n_q / n_q.sum()
        n_obs = np.rint(np.bincount(classes.ids[observed], weights=w, minlength=classes.n_classes)).astype(np.int64)
    frame = classes.key_values(data)
    frame.insert(0, "class", np.arange(classes.n_classes))
    frame["n_records"] = classes.sizes
    frame["n_observed"] = n_obs
    return _Prepared(classes, sens, q, n_obs, binning, frame, counts)


def _blocks(prep: _Prepared, skip: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(class ids, P) for consecutive blocks of classes; P rows are class distributions.
    Classes in `skip` (worked out otherwise) are left out."""
    classes, sens, counts = prep.classes, prep.sens, prep.counts
    ids_of = None
    if skip is not None:
        keep = np.ones(classes.n_classes, dtype=bool)
        keep[skip] = False
        ids_of = np.flatnonzero(keep)
        remap = np.full(classes.n_classes, -1, dtype=np.int64)
        remap[ids_of] = np.arange(ids_of.size)
        rec = np.flatnonzero(keep[classes.ids])
        classes = Classes(keys=classes.keys, ids=remap[classes.ids[rec]], n_classes=int(ids_of.size),
                          sizes=classes.sizes[ids_of], first=classes.first[ids_of])
        sens = Sensitive(name=sens.name, codes=sens.codes[rec], values=sens.values, numeric=sens.numeric,
                         ordered=sens.ordered)
        counts = None if counts is None else counts[rec]
    n_obs = prep.n_obs if ids_of is None else prep.n_obs[ids_of]
    cl = cells(classes, sens, counts)
    obs = cl.code >= 0
    cls, code, cnt = cl.cls[obs], cl.code[obs], cl.count[obs]
    m = prep.sens.n_values
    G = classes.n_classes
    step = max(1, _BLOCK_CELLS // max(m, 1))
    starts = np.searchsorted(cls, np.arange(0, G + step, step))
    for b, g0 in enumerate(range(0, G, step)):
        g1 = min(G, g0 + step)
        lo, hi = starts[b], starts[b + 1] if b + 1 < starts.size else cls.size
        P = np.zeros((g1 - g0, m))
        P[cls[lo:hi] - g0, code[lo:hi]] = cnt[lo:hi]
        with np.errstate(invalid="ignore", divide="ignore"):
            P /= n_obs[g0:g1, None]
        yield (np.arange(g0, g1) if ids_of is None else ids_of[g0:g1]), P


def _dense(prep: _Prepared) -> bool:
    """Whether the dense blocks are cheap: classes x values (and values x values) small."""
    m = prep.sens.n_values
    return (prep.classes.n_classes + m) * m <= _DENSE_CELLS


def _per_class(prep: _Prepared, fn) -> np.ndarray:  # noqa: ANN001
    out = np.full(prep.classes.n_classes, np.nan)
    single = _single_value_classes(prep)
    if single is not None:
        # A class whose observed values are all one value v has the distribution e_v: its
        # distance is that of e_v, worked out once per value (most classes, when the keys
        # nearly identify records); the other classes go through the dense blocks.
        cls, code = single
        m = prep.sens.n_values
        out[cls] = fn(np.eye(m))[code]
        for ids, P in _blocks(prep, skip=cls):
            out[ids] = fn(P)
    else:
        for ids, P in _blocks(prep):
            out[ids] = fn(P)
    out[prep.n_obs == 0] = np.nan
    return out


def _single_value_classes(prep: _Prepared) -> tuple[np.ndarray, np.ndarray] | None:
    """(classes, their one value's code) for classes of one record with an observed value,
    when they are many; else None."""
    codes = prep.sens.codes[prep.classes.first]
    one = np.flatnonzero((prep.classes.sizes == 1) & (codes >= 0))
    if one.size < prep.classes.n_classes // 8:
        return None
    return one, codes[one]


# -------------------------------------------------------------------------------------
# t-closeness
# -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class TClosenessResult:
    """Result of :func:`t_closeness`.

    Attributes
    ----------
    keys : tuple of str
    sensitive : str
    distance : {"ordered", "equal", "tvd", "wasserstein", "hierarchical"}
        ("hierarchical": :func:`sdc.attribute.tree_closeness.hierarchical_t_closeness`)
    t : float
        The bound: a class is above t when its distance exceeds t.
    n_records, n_classes : int
    max_t : float
        The largest class distance (the t the file achieves).
    n_classes_above_t, n_records_above_t : int
    records : pandas.Series
        Each record's class distance, indexed like the input.
    classes : pandas.DataFrame
        Per class: ``class``, key values, ``n_records``, ``n_observed``, ``distance``.
    binning : tuple of Binning
    """

    keys: tuple[str, ...]
    sensitive: str
    distance: str
    t: float
    n_records: int
    n_classes: int
    max_t: float
    n_classes_above_t: int
    n_records_above_t: int
    records: pd.Series = field(repr=False)
    classes: pd.DataFrame = field(repr=False)
    binning: tuple[Binning, ...] = ()

    @property
    def pct_records_above_t(self) -> float:
        return 100.0 * self.n_records_above_t / self.n_records

    def to_frame(self) -> pd.DataFrame:
        return self.records.to_frame()

    def classes_above(self) -> pd.DataFrame:
        """The classes farther than t from the file distribution, farthest first."""
        c = self.classes
        return c[c["distance"] > self.t].sort_values("distance", ascending=False, kind="stable")  # ties: class order, on every numpy

    def summary(self) -> pd.DataFrame:
        rows = [
            ("max_t", self.max_t, f"largest {self.distance} distance of a class to the file distribution"),
            ("n_classes_above_t", self.n_classes_above_t, f"classes with distance > {self.t:g}"),
            ("n_records_above_t", self.n_records_above_t, f"records in classes with distance > {self.t:g}"),
            ("pct_records_above_t", self.pct_records_above_t, "% of records"),
        ]
        return summary_frame(rows)


@dispatch(dask="sdc.attribute.closeness:_t_closeness_tables",
          chunks="sdc.attribute.closeness:_t_closeness_tables")
def t_closeness(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    sensitive: str,
    *,
    distance: Literal["ordered", "equal", "tvd", "wasserstein"] = "ordered",
    t: float = 0.2,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> TClosenessResult:
    """Distance of each class's distribution of `sensitive` to the whole file's.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified. A Dask DataFrame gives the same numbers from one pass over
        its partitions, with ``records`` as a Dask object (``_t_closeness_tables``).
    keys : str or sequence of str
        Key variables defining the classes.
    sensitive : str
        The sensitive variable. ``"ordered"`` needs numbers or an ordered categorical;
        ``"wasserstein"`` needs numbers; ``"equal"``/``"tvd"`` take any values.
    distance : {"ordered", "equal", "tvd", "wasserstein"}, default "ordered"
        See the module notes.
    t : float >= 0, default 0.2
        The bound for the counts above t.
    key_bins : mapping, optional
        Bins for continuous keys (:mod:`sdc.core.binning`).

    References
    ----------
    .. [1] Li, N., Li, T. and Venkatasubramanian, S. (2007). t-Closeness: privacy beyond
           k-anonymity and l-diversity. ICDE 2007, 106-115.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"zip": [1, 1, 1, 2, 2, 2], "salary": [3, 4, 5, 6, 8, 11]})
    >>> sdc.t_closeness(df, ["zip"], "salary", distance="ordered").records.round(4).tolist()
    [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]
    """
    distance = check_option(distance, "distance", DISTANCES)
    t = check_number(t, "t", low=0.0, high=float("inf"), high_open=True)
    prep = _prepare(data, keys, sensitive, key_bins)
    dist = class_distances(prep, distance)
    return closeness_result(prep, distance, t, dist, pd.Series(dist[prep.classes.ids], index=data.index,
                                                               name=f"{prep.sens.name}_t_{distance}"))


def class_distances(prep: _Prepared, distance: str) -> np.ndarray:
    """Each class's `distance` to the file distribution (NaN without an observed value)."""
    s = prep.sens
    if distance == "ordered" and not s.ordered:
        raise ValueError(
            f"distance='ordered' needs a numeric or ordered categorical sensitive variable; {s.name!r} is "
            "unordered (make it an ordered pandas Categorical, or use distance='equal')."
        )
    if distance == "wasserstein" and not s.numeric:
        raise ValueError(f"distance='wasserstein' needs a numeric sensitive variable; {s.name!r} is not numeric.")
    q = prep.q
    m = s.n_values
    w = None
    if distance == "ordered":
        w = np.full(max(m - 1, 0), 1.0 / (m - 1)) if m > 1 else np.zeros(0)
    elif distance == "wasserstein":
        w = np.diff(s.values.astype("float64"))
    if not _dense(prep):
        return _sparse_distances(prep, distance, w)
    if w is None:
        def fn(P: np.ndarray) -> np.ndarray:
            return 0.5 * np.abs(P - q).sum(axis=1)
    else:
        def fn(P: np.ndarray) -> np.ndarray:
            cum = np.cumsum(P - q, axis=1)[:, :-1]
            return np.abs(cum) @ w

    return _per_class(prep, fn)


def closeness_result(prep: _Prepared, distance: str, t: float, dist: np.ndarray, records) -> TClosenessResult:  # noqa: ANN001
    """The result from the class distances; `records`: each record's distance (a pandas or a
    Dask Series)."""
    size = prep.classes.sizes
    above = dist > t  # NaN compares False: classes without observed values are never above
    frame = prep.class_frame
    frame["distance"] = dist
    return TClosenessResult(
        keys=tuple(prep.classes.keys), sensitive=prep.sens.name, distance=distance, t=t,
        n_records=int(size.sum()), n_classes=prep.classes.n_classes,
        max_t=float(np.nanmax(dist)) if (~np.isnan(dist)).any() else float("nan"),
        n_classes_above_t=int(above.sum()), n_records_above_t=int(size[above].sum()),
        records=records, classes=frame, binning=prep.binning,
    )


# -------------------------------------------------------------------------------------
# beta-likeness and delta-disclosure
# -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class BetaLikenessResult:
    """Result of :func:`beta_likeness`: per class ``beta`` (basic) and ``enhanced_beta``.

    ``max_beta``/``max_enhanced_beta`` are the file's values (the smallest beta it
    satisfies); ``n_records_above_beta`` counts records in classes with basic beta above
    the bound ``beta``.
    """

    keys: tuple[str, ...]
    sensitive: str
    beta: float
    n_records: int
    n_classes: int
    max_beta: float
    max_enhanced_beta: float
    n_classes_above_beta: int
    n_records_above_beta: int
    records: pd.DataFrame = field(repr=False)
    classes: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.records

    def summary(self) -> pd.DataFrame:
        rows = [
            ("max_beta", self.max_beta, "largest basic beta of a class (the smallest beta the file meets)"),
            ("max_enhanced_beta", self.max_enhanced_beta, "largest enhanced beta of a class"),
            ("n_classes_above_beta", self.n_classes_above_beta, f"classes with basic beta > {self.beta:g}"),
            ("n_records_above_beta", self.n_records_above_beta, f"records in classes with basic beta > {self.beta:g}"),
            ("pct_records_above_beta", 100.0 * self.n_records_above_beta / self.n_records if self.n_records
             else float("nan"), "% of records"),
        ]
        return summary_frame(rows)


def beta_likeness(
    data: pd.DataFrame, keys: str | Sequence[str], sensitive: str, *, beta: float = 1.0,
    key_bins: Mapping[str, BinSpec] | None = None,
) -> BetaLikenessResult:
    """Basic and enhanced beta-likeness of each class (Cao and Karras 2012).

    Basic: max over values with p > q of (p - q) / q (0 when no value is over-represented).
    Enhanced: the same, but infinite when some value has (p - q) / q > -ln q, because
    enhanced beta-likeness requires (p - q) / q <= min(beta, -ln q).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables (the equivalence classes).
    sensitive : str
        The sensitive variable; p is a value's share in a class, q its share in the file.
    beta : float, default 1.0
        The bound the classes are counted against (``n_records_above_beta``).
    key_bins : mapping, optional
        Bins of continuous keys (as :func:`sdc.individual_risk`).

    References
    ----------
    .. [1] Cao, J. and Karras, P. (2012). Publishing microdata with a robust privacy
           guarantee. PVLDB 5(11), 1388-1399.
    """
    beta = check_number(beta, "beta", low=0.0, high=float("inf"), high_open=True)
    prep = _prepare(data, keys, sensitive, key_bins)
    q = prep.q
    bound = -np.log(q, where=q > 0, out=np.full(q.shape, np.inf))

    def basic(P: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(P > q, (P - q) / q, 0.0)
        return gain.max(axis=1) if P.shape[1] else np.zeros(P.shape[0])

    def enhanced(P: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(P > q, (P - q) / q, 0.0)
        out = gain.max(axis=1) if P.shape[1] else np.zeros(P.shape[0])
        return np.where((gain > bound).any(axis=1), np.inf, out)

    if _dense(prep):
        b = _per_class(prep, basic)
        e = _per_class(prep, enhanced)
    else:
        b, e = _sparse_beta(prep, bound)
    size = prep.classes.sizes
    above = b > beta
    frame = prep.class_frame
    frame["beta"] = b
    frame["enhanced_beta"] = e
    name = prep.sens.name
    return BetaLikenessResult(
        keys=tuple(prep.classes.keys), sensitive=name, beta=beta, n_records=int(size.sum()),
        n_classes=prep.classes.n_classes,
        max_beta=float(np.nanmax(b)) if (~np.isnan(b)).any() else float("nan"),
        max_enhanced_beta=float(np.nanmax(e)) if (~np.isnan(e)).any() else float("nan"),
        n_classes_above_beta=int(above.sum()), n_records_above_beta=int(size[above].sum()),
        records=pd.DataFrame({f"{name}_beta": b[prep.classes.ids], f"{name}_enhanced_beta": e[prep.classes.ids]},
                             index=data.index),
        classes=frame,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class DeltaDisclosureResult:
    """Result of :func:`delta_disclosure`: per class ``delta`` = max |log(p / q)| (over the
    values `variant` says)."""

    keys: tuple[str, ...]
    sensitive: str
    delta: float
    variant: str
    n_records: int
    n_classes: int
    max_delta: float
    n_classes_above_delta: int
    n_records_above_delta: int
    records: pd.Series = field(repr=False)
    classes: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.records.to_frame()

    def summary(self) -> pd.DataFrame:
        rows = [
            ("max_delta", self.max_delta, f"largest delta of a class, {_DELTA_TEXT[self.variant]}"),
            ("n_classes_above_delta", self.n_classes_above_delta, f"classes with delta >= {self.delta:g}"),
            ("n_records_above_delta", self.n_records_above_delta, f"records in classes with delta >= {self.delta:g}"),
            ("pct_records_above_delta", 100.0 * self.n_records_above_delta / self.n_records if self.n_records
             else float("nan"), "% of records"),
        ]
        return summary_frame(rows)


def delta_disclosure(
    data: pd.DataFrame, keys: str | Sequence[str], sensitive: str, *, delta: float = 1.0,
    variant: Literal["present", "arx", "all"] = "present", key_bins: Mapping[str, BinSpec] | None = None,
) -> DeltaDisclosureResult:
    """delta-disclosure of each class: max |log(p / q)| over the values `variant` names.

    A class is delta-disclosure private when this is below delta (Brickell and Shmatikov
    2008: |log(p(s | class) / p(s))| < delta for every s). The peers read "every s" as every
    value in the class: ``"present"`` (default) is pyCANON's ``delta_disclosure`` (natural
    log), ``"arx"`` ARX's ``DDisclosurePrivacy`` (log base 2). ``"all"`` takes every value of
    the file, so a class lacking one of them is infinite (p = 0) — on most real files every
    class is (sdc's definition before 0.2).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables (the equivalence classes).
    sensitive : str
        The sensitive variable; p is a value's share in a class, q its share in the file.
    delta : float, default 1.0
        The bound: classes with delta >= it are counted (``n_records_above_delta``; ARX's
        test, a class passes when its delta is below the bound).
    variant : {"present", "arx", "all"}, default "present"
        The values the maximum runs over and the logarithm (see above).
    key_bins : mapping, optional
        Bins of continuous keys (as :func:`sdc.individual_risk`).

    References
    ----------
    .. [1] Brickell, J. and Shmatikov, V. (2008). The cost of privacy: destruction of
           data-mining utility in anonymized data publishing. KDD 2008, 70-78.
    """
    delta = check_number(delta, "delta", low=0.0, high=float("inf"), high_open=True)
    variant = check_option(variant, "variant", DELTA_VARIANTS)
    prep = _prepare(data, keys, sensitive, key_bins)
    q = prep.q
    log = np.log2 if variant == "arx" else np.log

    def fn(P: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.abs(log(P / q))  # the ratio first, as pyCANON and ARX compute it
        # values absent from the class do not count (but for "all"), nor levels absent from the file
        d = np.where((P > 0) | (variant == "all"), d, -np.inf)
        d = np.where(q > 0, d, -np.inf)
        return d.max(axis=1) if P.shape[1] else np.zeros(P.shape[0])

    d = _per_class(prep, fn) if _dense(prep) else _sparse_delta(prep, variant)
    size = prep.classes.sizes
    above = d >= delta
    frame = prep.class_frame
    frame["delta"] = d
    name = prep.sens.name
    return DeltaDisclosureResult(
        keys=tuple(prep.classes.keys), sensitive=name, delta=delta, variant=variant, n_records=int(size.sum()),
        n_classes=prep.classes.n_classes, max_delta=float(np.nanmax(d)) if (~np.isnan(d)).any() else float("nan"),
        n_classes_above_delta=int(above.sum()), n_records_above_delta=int(size[above].sum()),
        records=pd.Series(d[prep.classes.ids], index=data.index, name=f"{name}_delta"), classes=frame,
    )


def _t_closeness_tables(data: Any, keys: str | Sequence[str], sensitive: str, *, distance: str = "ordered",
                        t: float = 0.2, key_bins: Any = None) -> TClosenessResult:
    """:func:`t_closeness` on a Dask DataFrame: the same arguments and numbers (the (class,
    value) table of :func:`sdc.attribute.ldiversity._l_diversity_tables`'s notes).

    One pass over the data counts the records of every (key pattern, sensitive value) cell;
    ``records`` is a Dask Series, ``classes`` pandas.
    """
    from sdc.core.frequencies import key_names

    tables = tables_of(data)
    distance = check_option(distance, "distance", DISTANCES)
    t = check_number(t, "t", low=0.0, high=float("inf"), high_open=True)
    _, keys, s_name = _check_arguments(tables.meta_nonempty, key_names(keys), sensitive, key_bins)
    tables, binning = tables.binned(key_bins)
    table, classes = tables.class_table(keys, (s_name,))
    check_keys(table, keys)
    prep = prepared(classes, encode_sensitive(table, s_name), table, binning, counts=table["_n"].to_numpy(np.int64))
    dist = class_distances(prep, distance)
    rows, ids = key_rows(table, keys, classes.ids)
    name = f"{s_name}_t_{distance}"
    per = tables.per_record(keys, rows, ids, int(classes.sizes.sum()), **{name: dist})
    return closeness_result(prep, distance, t, dist, per.frame([name])[name])  # chunks: not kept
