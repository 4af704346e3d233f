"""l-diversity of one or more sensitive variables: distinct, entropy and recursive (c, l).

Within each equivalence class (records with the same key values; a missing key value is a
value of its own), the sensitive variable S should take "well-represented" values
(Machanavajjhala, Kifer, Gehrke and Venkitasubramaniam 2007):

* distinct l-diversity: the number of distinct values of S in the class;
* entropy l-diversity: exp(H), H = -sum_v p_v ln p_v over the class's values (the class is
  entropy l-diverse when exp(H) >= l, compared with a relative tolerance of 1e-9: m equally
  frequent values give exp(H) = m exactly in theory, 2.9999999999999996 in floating point);
* recursive (c, l)-diversity: with the class's value counts sorted r_1 >= r_2 >= ... >= r_m,
  the largest l such that r_1 < c (r_l + r_{l+1} + ... + r_m), and 1 when there is none;
* Grassberger entropy l-diversity (the class table's ``s_grassberger``): exp(H_G), H_G =
  G(N) - (1/N) sum_v f_v G(f_v) over the observed counts, Grassberger's (1988, 2003) entropy
  estimator as ARX's ``EntropyLDiversity`` offers it (:mod:`sdc.attribute._diversity`); ARX
  also asks a Grassberger-l-diverse class for at least ceil(l) distinct values (``classes_below``
  with ``measure="grassberger"`` does so too). Not one of sdcMicro's columns.

Two modes:

``mode="correct"`` (default)
    Missing sensitive values (NaN/None, and values equal to `missing_value`) say nothing
    about a record and add no diversity: they are left out, and the proportions use the
    class's observed values. A class without any observed value has no l (NaN) and is not
    counted as violating. With several sensitive variables, multi-attribute l-diversity is
    computed as defined by Machanavajjhala et al. (2007, section 5): for each sensitive
    variable, the other sensitive variables are added to the keys; the class's value is
    the minimum over those sub-classes and over the variables.

``mode="sdcmicro"``
    Reproduces ``sdcMicro::ldiversity`` (5.8) column for column: every NA sensitive value
    is a category of its own with count 1 (so missing values *raise* diversity; sdcMicro
    issue #300, UserSupport #189); values equal to `missing_value` (default -999) form one
    pooled category counted only when the class has another value; the recursive value is
    computed in single precision, and a class whose values are all the missing code repeats
    the recursive value of the class before it (in key order); ``MultiEntropy_Ldiversity``
    and ``MultiRecursive_Ldiversity`` are always 0. At most 5 sensitive variables.

Without missing sensitive values and with one sensitive variable, the two modes agree.

A sensitive variable missing in every record gets a warning in ``mode="correct"``: no class
has an l, so none is counted as violating, although nothing was assessed (``sdc assess``
refuses such a variable). When l exceeds the number of distinct values the variable takes in
the whole file, no class can reach it: a warning says so (every class is below l).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_frame, check_int, check_keys, check_number, check_option
from sdc.exceptions import SdcWarning
from sdc.core.binning import Binning, BinSpec, apply_binning
from sdc.core.engine import dispatch, tables_of
from sdc.core.scenario import KeyClasses, resolve_keys
from sdc.core.classes import (
    Classes, Sensitive, cells, dominant_values, encode_sensitive, equivalence_classes,
    key_order as classes_in_key_order, key_rows, refine_classes,
)
from sdc.attribute._diversity import _class_values, _recursive, _sum_by  # noqa: F401 - the kernels, read here too

__all__ = ["LDiversityResult", "l_diversity", "LDIVERSITY_MODES"]

LDIVERSITY_MODES = ("correct", "sdcmicro")
MEASURES = ("distinct", "entropy", "recursive", "grassberger")
#: Relative tolerance of the comparison exp(H) < l (entropy l-diversity).
ENTROPY_RTOL = 1e-9


def entropy_below(entropy: np.ndarray | float, l: float) -> np.ndarray:
    """exp(H) < l, with a relative tolerance: a class whose exp(H) is l up to rounding is not below."""
    return np.asarray(entropy) < l * (1.0 - ENTROPY_RTOL)


@dataclass(frozen=True, slots=True, kw_only=True)
class LDiversityResult:
    """Result of :func:`l_diversity`.

    Attributes
    ----------
    keys, sensitive : tuple of str
        Key variables and sensitive variables.
    l : int
        The threshold: a class is below l when its distinct l-diversity is < l (with a
        threshold per sensitive variable, the smallest; see `l_by_sensitive`).
    c : float
        The constant of recursive (c, l)-diversity.
    mode : {"correct", "sdcmicro"}
    missing_value : float or None
        Sensitive values equal to this count as missing.
    binning : tuple of Binning
        Bins applied to keys or sensitive variables before the assessment.
    n_records, n_classes : int
    records : pandas.DataFrame
        Per record, indexed like the input: for each sensitive s the columns
        ``s_Distinct_Ldiversity``, ``s_Entropy_Ldiversity``, ``s_Recursive_Ldiversity``,
        then ``MultiEntropy_Ldiversity`` and ``MultiRecursive_Ldiversity`` (sdcMicro's names).
    classes : pandas.DataFrame
        Per class: ``class``, the key values, ``n_records`` and, for each sensitive s,
        ``s_observed``, ``s_distinct``, ``s_entropy``, ``s_recursive``, ``s_grassberger``, ``s_dominant`` (the
        most frequent observed value) and ``s_dominant_share``.
    l_by_sensitive : dict
        The threshold of each sensitive variable.
    by_sensitive : pandas.DataFrame
        One row per sensitive variable: ``l``, ``n_values`` (distinct values in the file),
        ``n_records_below_l``, ``pct_records_below_l``,
        ``n_classes_below_l`` (distinct < l), ``n_records_entropy_below_l``,
        ``n_records_recursive_below_l``, ``min_distinct``, ``mean_distinct_per_record``,
        ``min_entropy``, ``min_recursive``, ``n_records_unobserved`` (in classes without
        any observed value; always 0 in sdcmicro mode).
    """

    keys: tuple[str, ...]
    sensitive: tuple[str, ...]
    l: int
    c: float
    mode: str
    missing_value: float | None
    binning: tuple[Binning, ...]
    n_records: int
    n_classes: int
    records: pd.DataFrame = field(repr=False)
    by_sensitive: pd.DataFrame = field(repr=False)
    l_by_sensitive: dict[str, int] = field(default_factory=dict)
    _classes: "_Deferred" = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    @property
    def classes(self) -> pd.DataFrame:
        """The per-class table (made when first read: it holds a Python object per class)."""
        return self._classes.get()

    def l_of(self, sensitive: str) -> int:
        """The threshold l of one sensitive variable."""
        return int(self.l_by_sensitive.get(sensitive, self.l))

    def to_frame(self) -> pd.DataFrame:
        """The per-record table (sdcMicro's ``ldiversity`` columns)."""
        return self.records

    def classes_below(self, sensitive: str | None = None, measure: str = "distinct") -> pd.DataFrame:
        """The classes whose `measure` l-diversity of `sensitive` (default: the first) is below l."""
        s = self.sensitive[0] if sensitive is None else check_option(sensitive, "sensitive", self.sensitive)
        m = check_option(measure, "measure", MEASURES)
        v = self.classes[f"{s}_{m}"].to_numpy(dtype=float)
        below = entropy_below(v, self.l_of(s)) if m in ("entropy", "grassberger") else v < self.l_of(s)
        if m == "grassberger":  # ARX: at least ceil(l) distinct values as well
            below |= self.classes[f"{s}_distinct"].to_numpy(dtype=float) < np.ceil(self.l_of(s))
        return self.classes[below].sort_values([f"{s}_{m}", "n_records"])

    def summary(self) -> pd.DataFrame:
        """Per sensitive variable (``<variable>: ...``) the records and classes below l and the
        smallest l achieved, as rows of (statistic, value, description); ``by_sensitive`` is the
        table."""
        rows: list[tuple[str, object, str]] = [("n_records", self.n_records, "records"),
                                               ("n_classes", self.n_classes, "equivalence classes")]
        for r in self.by_sensitive.itertuples(index=False):
            s, l = r.sensitive, self.l_of(r.sensitive)
            rows += [(f"{s}: n_records_below_l", r.n_records_below_l, f"records in classes with fewer than {l} "
                      f"distinct values of {s}"),
                     (f"{s}: n_classes_below_l", r.n_classes_below_l, "classes below l"),
                     (f"{s}: min_distinct", r.min_distinct, "fewest distinct values in a class (the l achieved)")]
        return summary_frame(rows)


@dispatch(dask="sdc.attribute.ldiversity:_l_diversity_tables",
          chunks="sdc.attribute.ldiversity:_l_diversity_tables")
def l_diversity(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    sensitive: str | Sequence[str],
    *,
    l: int | Mapping[str, int] = 2,
    c: float = 2.0,
    mode: Literal["correct", "sdcmicro"] = "correct",
    missing_value: float | None = -999,
    key_bins: Mapping[str, BinSpec] | None = None,
    sensitive_bins: Mapping[str, BinSpec] | None = None,
) -> LDiversityResult:
    """Distinct, entropy and recursive l-diversity of the sensitive variable(s), per class and record.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified. A Dask DataFrame gives the same numbers from one pass over
        its partitions, with ``records`` as a Dask object (``_l_diversity_tables``).
    keys : str or sequence of str
        Key variables defining the equivalence classes (missing = its own value).
    sensitive : str or sequence of str
        Sensitive variable(s); none may also be a key.
    l : int >= 1, or a mapping of sensitive variable to int, default 2
        Threshold for the counts of records and classes below l; a mapping gives each
        sensitive variable its own (every one must be named).
    c : float > 0, default 2
        Constant of recursive (c, l)-diversity (sdcMicro's ``l_recurs_c``).
    mode : {"correct", "sdcmicro"}, default "correct"
        See the module notes.
    missing_value : float or None, default -999
        Sensitive values equal to it are missing (sdcMicro's ``missing``).
    key_bins, sensitive_bins : mapping, optional
        Bins for continuous keys / sensitive variables (see :mod:`sdc.core.binning`); sensitive
        bins apply to this assessment only.

    Returns
    -------
    LDiversityResult

    References
    ----------
    .. [1] Machanavajjhala, A., Kifer, D., Gehrke, J. and Venkitasubramaniam, M. (2007).
           l-diversity: privacy beyond k-anonymity. ACM TKDD 1(1), article 3.
    .. [2] Templ, M., Kowarik, A. and Meindl, B. (2015). J. Stat. Softw. 67(4).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40], "dx": ["a", "b", "a", "c", "c"]})
    >>> r = sdc.l_diversity(df, ["age"], "dx")
    >>> r.records["dx_Distinct_Ldiversity"].tolist()
    [2.0, 2.0, 2.0, 1.0, 1.0]
    """
    check_frame(data)
    kc, keys, sens, l_by, l, c, mode, missing_value = _check_arguments(
        data, keys, sensitive, l, c, mode, missing_value, key_bins, sensitive_bins)
    work, rec_k = apply_binning(data, key_bins)
    work, rec_s = apply_binning(work, sensitive_bins)
    classes = kc.classes if kc is not None and not key_bins else equivalence_classes(work, keys)
    encoded = [encode_sensitive(work, s) for s in sens]
    warn_values(encoded, mode, l_by, stacklevel=4)
    # sdcMicro's processing order matters only for classes without any category (stale
    # recursive values), so it is computed only if one occurs.
    key_order = functools.cache(lambda: classes_in_key_order(work, classes)) if mode == "sdcmicro" else None

    per_class: dict[str, np.ndarray] = {}
    record_cols: dict[str, np.ndarray] = {}
    summary_rows = []
    dominant: dict[str, Callable[[], tuple[np.ndarray, np.ndarray]]] = {}
    for s in encoded:
        miss_code = _missing_code(s, missing_value)
        vals, dominant[s.name] = _assess_sensitive(classes, s, miss_code, c, mode, key_order)
        per_class.update({f"{s.name}_{k}": v for k, v in vals.items()})
        for k, col in zip(MEASURES, ("Distinct", "Entropy", "Recursive")):
            record_cols[f"{s.name}_{col}_Ldiversity"] = vals[k][classes.ids]
        summary_rows.append(_summary(s.name, vals, classes, l_by[s.name], int(s.n_values)))
    if mode == "correct" and len(encoded) >= 2:
        m_ent, m_rec = _multi(work, keys, encoded, classes, missing_value, c)
    else:
        m_ent = m_rec = np.zeros(classes.n_classes)
    record_cols["MultiEntropy_Ldiversity"] = m_ent[classes.ids]
    record_cols["MultiRecursive_Ldiversity"] = m_rec[classes.ids]

    class_frame = functools.partial(_class_frame, classes, data, encoded, per_class, dominant, m_ent, m_rec)
    return LDiversityResult(
        keys=keys, sensitive=sens, l=l, c=c, mode=mode, missing_value=missing_value, binning=rec_k + rec_s,
        n_records=len(data), n_classes=classes.n_classes,
        records=_float_frame(record_cols, data.index),
        by_sensitive=pd.DataFrame(summary_rows), l_by_sensitive=l_by,
        _classes=_Deferred(class_frame),
    )


def _class_frame(classes: Classes, data: pd.DataFrame, encoded: list, per_class: dict[str, np.ndarray],
                 dominant: dict[str, Callable[[], tuple[np.ndarray, np.ndarray]]], m_ent: np.ndarray,
                 m_rec: np.ndarray) -> pd.DataFrame:
    """One row per class: its key values, size and every per-class figure (made on demand:
    the dominant values are computed here). `data` holds the key columns the classes index
    (the records, or the table of (class, value) cells on Dask)."""
    frame = classes.key_values(data)
    frame.insert(0, "class", np.arange(classes.n_classes))
    frame["n_records"] = classes.sizes
    for s in encoded:
        per_class[f"{s.name}_dominant"], per_class[f"{s.name}_dominant_share"] = dominant[s.name]()
        for k in ("observed", "distinct", "entropy", "recursive", "grassberger", "dominant", "dominant_share"):
            frame[f"{s.name}_{k}"] = per_class[f"{s.name}_{k}"]
    if len(encoded) >= 2:
        frame["multi_entropy"] = m_ent
        frame["multi_recursive"] = m_rec
    return frame


def _check_arguments(data: pd.DataFrame, keys, sensitive, l, c, mode, missing_value, key_bins,  # noqa: ANN001
                     sensitive_bins):  # noqa: ANN001, ANN202
    """The arguments of :func:`l_diversity` checked (one error line each): ``(key classes or
    None, keys, sensitive, l by sensitive, l, c, mode, missing_value)``."""
    kc = keys if isinstance(keys, KeyClasses) else None
    keys = resolve_keys(data, keys).keys if kc is not None else check_keys(data, keys)
    sens = check_columns(data, sensitive, role="sensitive")
    both = [s for s in sens if s in keys]
    if both:
        raise ValueError(f"`sensitive` variables may not also be keys: {', '.join(map(repr, both))}.")
    if isinstance(l, Mapping):
        extra = [k for k in l if k not in sens]
        lacking = [s for s in sens if s not in l]
        if extra or lacking:
            raise ValueError(f"`l` as a mapping must give each sensitive variable's l; "
                             + (f"not sensitive: {', '.join(map(repr, extra))}" if extra
                                else f"missing: {', '.join(map(repr, lacking))}") + ".")
        l_by = {s: check_int(l[s], f"l[{s!r}]", min_value=1) for s in sens}
    else:
        l_by = dict.fromkeys(sens, check_int(l, "l", min_value=1))
    l = min(l_by.values())
    c = check_number(c, "c", low=0, high=float("inf"), low_open=True, high_open=True)
    mode = check_option(mode, "mode", LDIVERSITY_MODES)
    if mode == "sdcmicro" and len(sens) > 5:
        raise ValueError(f"mode='sdcmicro' allows at most 5 sensitive variables, as sdcMicro; got {len(sens)}.")
    if missing_value is not None:
        missing_value = check_number(missing_value, "missing_value", low=-float("inf"), high=float("inf"))
    for role, bins in (("key_bins", key_bins), ("sensitive_bins", sensitive_bins)):
        if bins:
            allowed = keys if role == "key_bins" else sens
            extra = [b for b in bins if b not in allowed]
            if extra:
                raise ValueError(f"`{role}` names columns that are not {role.split('_')[0]} variables: "
                                 f"{', '.join(map(repr, extra))}.")
    return kc, keys, sens, l_by, l, c, mode, missing_value


def warn_values(encoded: Sequence[Sensitive], mode: str, l_by: Mapping[str, int], stacklevel: int = 3) -> None:
    """The warnings of sensitive variables that cannot be assessed or cannot reach l."""
    for s in encoded:
        n_values = int(s.n_values)
        if mode == "correct" and not (s.codes >= 0).any():
            warnings.warn(f"sensitive variable {s.name!r} is missing in every record: no class has an l, and no "
                          "record is counted below l; nothing was assessed.", SdcWarning, stacklevel=stacklevel)
        if 0 < n_values < l_by[s.name]:
            warnings.warn(f"l = {l_by[s.name]} but {s.name!r} takes only {n_values} distinct value(s) in the whole "
                          f"file: no class can reach l, so every class is below it.", SdcWarning,
                          stacklevel=stacklevel)


class _Deferred:
    """A value made by `make` when first asked for, then kept."""

    __slots__ = ("_make", "_value")

    def __init__(self, make: Callable[[], object]):
        self._make, self._value = make, None

    def get(self):  # noqa: ANN201
        if self._make is not None:
            self._value, self._make = self._make(), None
        return self._value


def _assess_sensitive(classes: Classes, s: Sensitive, miss_code: int, c: float, mode: str,
                      key_order: Callable[[], np.ndarray] | None
                      ) -> tuple[dict[str, np.ndarray], Callable[[], tuple[np.ndarray, np.ndarray]]]:
    """Per class: observed count, distinct, entropy and recursive l-diversity of `s`, and a
    function giving each class's dominant value and share (made only for the class table).

    A class of one record with an observed value (most classes when the keys nearly identify
    records) has every l equal to 1 and its value as the dominant one: such classes are
    filled in directly, and only the others go through the class-by-value table."""
    G = classes.n_classes
    one_code = s.codes[classes.first]
    trivial = (classes.sizes == 1) & (one_code >= 0) & (one_code != miss_code)
    n_trivial = int(np.count_nonzero(trivial))
    if n_trivial < G // 8:
        table = cells(classes, s)
        vals = _class_values(table, classes, miss_code, c, mode)

        def dominant() -> tuple[np.ndarray, np.ndarray]:
            return dominant_values(table, s, miss_code)
    else:
        keep = np.flatnonzero(~trivial)
        remap = np.full(G, -1, dtype=np.int64)
        remap[keep] = np.arange(keep.size)
        rec = np.flatnonzero(~trivial[classes.ids])
        sub = Classes(keys=classes.keys, ids=remap[classes.ids[rec]], n_classes=int(keep.size),
                      sizes=classes.sizes[keep], first=classes.first[keep])
        s_sub = Sensitive(name=s.name, codes=s.codes[rec], values=s.values, numeric=s.numeric, ordered=s.ordered)
        table = cells(sub, s_sub)
        v_sub = _class_values(table, sub, miss_code, c, mode)
        vals = {}
        for k, v in v_sub.items():
            full = np.ones(G, dtype=np.float64)  # one record, one observed value: every l is 1
            full[keep] = v
            vals[k] = full

        def dominant() -> tuple[np.ndarray, np.ndarray]:
            d_sub, sh_sub = dominant_values(table, s_sub, miss_code)
            dom = np.empty(G, dtype=object)
            dom[trivial] = s.values[one_code[trivial]]
            dom[keep] = d_sub
            share = np.ones(G)
            share[keep] = sh_sub
            return dom, share
    # sdcMicro leaves a class without categories at the previous class's value (key order).
    if key_order is not None and np.isnan(vals["recursive"]).any():
        vals["recursive"] = _carry_forward(vals["recursive"], key_order())
    return vals, dominant


def _float_frame(columns: dict[str, np.ndarray], index: pd.Index) -> pd.DataFrame:
    """Equal-length float columns as one DataFrame block, filled in place: building it from a
    dict makes pandas consolidate the columns afterwards, 25x slower at 10^7 rows."""
    block = np.empty((len(columns), len(index)), dtype=np.float64)
    for i, v in enumerate(columns.values()):
        block[i] = v
    return pd.DataFrame(block.T, columns=list(columns), index=index, copy=False)


def _missing_code(s: Sensitive, missing_value: float | None) -> int:
    """The code of the value equal to `missing_value` (numeric variables only), or -2."""
    if missing_value is None or not s.numeric:
        return -2
    hit = np.flatnonzero(s.values.astype("float64") == missing_value)
    return int(hit[0]) if hit.size else -2


def _carry_forward(values: np.ndarray, order: np.ndarray) -> np.ndarray:
    out = values.copy()
    v = out[order]
    valid = ~np.isnan(v)
    idx = np.where(valid, np.arange(v.size), -1)
    np.maximum.accumulate(idx, out=idx)
    filled = np.where(idx >= 0, v[np.maximum(idx, 0)], np.nan)
    out[order] = filled
    return out


def _summary(name: str, vals: dict[str, np.ndarray], classes: Classes, l: int, n_values: int, *,
             ids_are_records: bool = True) -> dict[str, object]:
    """The row of `by_sensitive`; `ids_are_records` False: ``classes.ids`` are those of the
    rows of a (class, value) table, so the per-record mean is weighted by the class sizes."""
    d, e, r = vals["distinct"], vals["entropy"], vals["recursive"]
    size = classes.sizes
    has = ~np.isnan(d)
    n = int(size.sum())
    below = has & (d < l)
    if ids_are_records:
        mean_d = float(np.nanmean(d[classes.ids])) if has.any() else float("nan")
    else:
        mean_d = float(np.dot(size[has], d[has]) / size[has].sum()) if has.any() else float("nan")
    return {
        "sensitive": name,
        "l": l,
        "n_values": n_values,
        "n_records_below_l": int(size[below].sum()),
        "pct_records_below_l": 100.0 * size[below].sum() / n,
        "n_classes_below_l": int(below.sum()),
        "n_records_entropy_below_l": int(size[has & entropy_below(e, l)].sum()),
        "n_records_recursive_below_l": int(size[has & (r < l)].sum()),
        "min_distinct": float(np.nanmin(d)) if has.any() else float("nan"),
        "mean_distinct_per_record": mean_d,
        "min_entropy": float(np.nanmin(e)) if has.any() else float("nan"),
        "min_recursive": float(np.nanmin(r)) if (~np.isnan(r)).any() else float("nan"),
        "n_records_unobserved": int(size[~has].sum()),
    }


def _multi(data: pd.DataFrame, keys: tuple[str, ...], encoded: list[Sensitive], classes: Classes,
           missing_value: float | None, c: float, counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Multi-attribute entropy and recursive l-diversity (Machanavajjhala et al. 2007, sec. 5);
    `counts`: the records each row stands for (rows of a (class, values) table)."""
    G = classes.n_classes
    ent = np.full(G, np.inf)
    rec = np.full(G, np.inf)
    for s in encoded:
        others = [(o.name, o.codes, o.n_values) for o in encoded if o.name != s.name]
        sub = refine_classes(classes, others)  # classes x the other sensitive values
        parent = classes.ids[sub.first]  # each sub-class lies inside one class
        vals = _class_values(cells(sub, s, counts), sub, _missing_code(s, missing_value), c, "correct")
        for acc, v in ((ent, vals["entropy"]), (rec, vals["recursive"])):
            ok = ~np.isnan(v)
            np.minimum.at(acc, parent[ok], v[ok])
    ent[np.isinf(ent)] = np.nan
    rec[np.isinf(rec)] = np.nan
    return ent, rec


def _l_diversity_tables(data: Any, keys: str | Sequence[str], sensitive: str | Sequence[str], *,
                        l: int | Mapping[str, int] = 2, c: float = 2.0, mode: str = "correct",
                        missing_value: float | None = -999, key_bins: Any = None,
                        sensitive_bins: Any = None) -> LDiversityResult:
    """:func:`l_diversity` on a Dask DataFrame: the same arguments and numbers.

    Both measures depend on the data only through the number of records of each (key
    pattern, sensitive value) cell, and those counts are additive over partitions: each
    partition counts its cells, one tree reduction adds them into a small pandas table
    (``tables_of(data).class_table``; no shuffle of the records), and the in-memory
    per-class code runs on that table with each row standing for its count. The classes are
    numbered by first appearance and the values coded as in memory, so the numbers are the
    in-memory ones. Bins must be explicit edges (applied row by row in each partition).

    ``records`` is a Dask DataFrame (sdcMicro's per-record columns), ``classes`` and
    ``by_sensitive`` are pandas.
    """
    from sdc.core.frequencies import key_names

    tables = tables_of(data)
    _, keys, sens, l_by, l, c, mode, missing_value = _check_arguments(
        tables.meta_nonempty, key_names(keys), sensitive, l, c, mode, missing_value, key_bins, sensitive_bins)
    tables, rec_k = tables.binned(key_bins)
    tables, rec_s = tables.binned(sensitive_bins, "sensitive_bins", "sensitive variable")
    table, classes = tables.class_table(keys, sens)
    check_keys(table, keys)  # missing in every record, infinite values: seen in the table
    counts = table["_n"].to_numpy(np.int64)
    encoded = [encode_sensitive(table, s) for s in sens]
    warn_values(encoded, mode, l_by, stacklevel=4)
    order = functools.cache(lambda: classes_in_key_order(table, classes)) if mode == "sdcmicro" else None

    per_class: dict[str, np.ndarray] = {}
    arrays: dict[str, np.ndarray] = {}
    summary_rows, dominant = [], {}
    for s in encoded:
        miss = _missing_code(s, missing_value)
        cl = cells(classes, s, counts)
        vals = _class_values(cl, classes, miss, c, mode)
        # sdcMicro leaves a class without categories at the previous class's value (key order).
        if order is not None and np.isnan(vals["recursive"]).any():
            vals["recursive"] = _carry_forward(vals["recursive"], order())
        dominant[s.name] = functools.partial(dominant_values, cl, s, miss)
        per_class.update({f"{s.name}_{k}": v for k, v in vals.items()})
        for k, col in zip(MEASURES, ("Distinct", "Entropy", "Recursive")):
            arrays[f"{s.name}_{col}_Ldiversity"] = vals[k]
        summary_rows.append(_summary(s.name, vals, classes, l_by[s.name], int(s.n_values),
                                         ids_are_records=False))
    if mode == "correct" and len(encoded) >= 2:
        m_ent, m_rec = _multi(table, keys, encoded, classes, missing_value, c, counts)
    else:
        m_ent = m_rec = np.zeros(classes.n_classes)
    arrays["MultiEntropy_Ldiversity"], arrays["MultiRecursive_Ldiversity"] = m_ent, m_rec

    class_frame = functools.partial(_class_frame, classes, table, encoded, per_class, dominant, m_ent, m_rec)
    rows, ids = key_rows(table, keys, classes.ids)
    per = tables.per_record(keys, rows, ids, int(classes.sizes.sum()),
                            **{k: v.astype(np.float64) for k, v in arrays.items()})
    return LDiversityResult(
        keys=keys, sensitive=sens, l=l, c=c, mode=mode, missing_value=missing_value, binning=rec_k + rec_s,
        n_records=int(classes.sizes.sum()), n_classes=classes.n_classes,
        records=per.frame(list(arrays)), by_sensitive=pd.DataFrame(summary_rows), l_by_sensitive=l_by,
        _classes=_Deferred(class_frame),
    )
