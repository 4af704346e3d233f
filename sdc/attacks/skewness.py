"""Skewness and similarity attacks on a sensitive variable (Li, Li & Venkatasubramanian 2007).

Within an equivalence class (records with identical quasi-identifiers, missing = a value of its
own, :func:`sdc.core.classes.equivalence_classes`), the attacker who places a target in its
class learns the class's distribution of the sensitive variable.

**Skewness attack.** A value can be far more frequent in a class than in the file: for class c
and sensitive value v,

    lift(c, v) = (n_cv / n_c) / (n_v / n),

with n_cv the records of class c with value v, n_c the records of c with an observed value,
n_v the records with value v and n all records with an observed value (missing sensitive
values are left out of every share). A lift of 1 means the class tells nothing about v; a
lift of 10 that membership makes v ten times more likely than the attacker's prior. Per record
we report the lift of its own value and the largest lift in its class (what the class reveals
most strongly).

**Similarity attack.** Distinct values can still share a meaning ("gastric ulcer", "gastritis",
"stomach cancer": all stomach diseases): l-diversity counts them as different, the attacker
does not. Given a grouping of the values into semantic categories, per class the category
shares q_cg give the entropy H_c = -sum_g q_cg ln q_cg (natural log; 0 = a single category)
and the purity max_g q_cg (1 = every observed value falls in one category: the attacker learns
the category for sure), and the category lift as above.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame, summary_values
from sdc._validation import check_columns, check_frame, check_int, check_keys, check_number
from sdc.attacks._common import frame_rows, plain
from sdc.core.binning import BinSpec, apply_binning
from sdc.core.classes import cells, encode_sensitive, equivalence_classes
from sdc.exceptions import DegenerateDataWarning

__all__ = ["SkewnessResult", "skewness_attack"]

#: A numeric sensitive variable without bands is warned about from this many distinct values
#: (and a tenth of the observed records).
UNBANDED_VALUES = 20


def _banded(data: pd.DataFrame, sens: str, bins: BinSpec | None, categories: object) -> pd.DataFrame:
    """The data with the sensitive variable banded by `bins` (a new frame; none: as given)."""
    if bins is None:
        return data
    if categories is not None:
        raise ValueError("`bins` and `categories` group the sensitive values two ways; give one of them.")
    return apply_binning(data, {sens: bins})[0]


def _warn_if_unbanded(s: pd.Series, n_values: int) -> None:
    """Warn when a numeric sensitive variable has so many distinct values that lifts measure
    how rare each value is, not what the class reveals."""
    if not (pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)):
        return
    n_obs = int(s.notna().sum())
    if n_values > max(UNBANDED_VALUES, n_obs // 10):
        warnings.warn(f"sensitive variable {s.name!r} is numeric with {n_values:,} distinct values in {n_obs:,} "
                      "records and no bands: each value is rare in the file, so most records' lift is large (lift "
                      "= share in the class / share in the file); band it (`bins`, e.g. quantiles:5) to "
                      "measure what a class reveals.", DegenerateDataWarning, stacklevel=3)


@dataclass(frozen=True)
class SkewnessResult:
    """Lift of sensitive values (and semantic categories) within equivalence classes.

    Attributes
    ----------
    keys : tuple of str
        The quasi-identifiers defining the classes.
    sensitive : str
        The sensitive variable.
    lift_threshold : float
        Lift from which a class counts as skewed (default 2).
    classes : pandas.DataFrame
        One row per class: key values, ``n_records``, ``n_observed``, ``max_lift``,
        ``max_lift_value``, ``max_lift_share`` (its share in the class), ``file_share`` (its
        share in the file); with categories ``n_categories``, ``entropy``, ``purity``,
        ``dominant_category``, ``max_category_lift``.
    records : pandas.DataFrame
        One row per record (the data's index): ``class_id``, ``own_lift``, ``max_lift``,
        ``max_lift_value``; with categories ``category``, ``purity``, ``entropy``.
    has_categories : bool
        Whether a grouping into semantic categories was given.
    """

    keys: tuple[str, ...]
    sensitive: str
    lift_threshold: float
    classes: pd.DataFrame = field(repr=False)
    records: pd.DataFrame = field(repr=False)
    has_categories: bool = False

    @property
    def n_records(self) -> int:
        return len(self.records)

    @property
    def max_lift(self) -> float:
        v = self.classes["max_lift"]
        return float(v.max()) if v.notna().any() else float("nan")

    @property
    def n_records_skewed(self) -> int:
        """Records in a class whose largest lift reaches the threshold."""
        return int((self.records["max_lift"] >= self.lift_threshold).sum())

    @property
    def n_classes_skewed(self) -> int:
        return int((self.classes["max_lift"] >= self.lift_threshold).sum())

    @property
    def n_records_pure(self) -> int | None:
        """Records in a class whose observed values all fall in one category (similarity attack)."""
        if not self.has_categories:
            return None
        return int((self.records["purity"] >= 1.0 - 1e-12).sum())

    @property
    def n_classes_pure(self) -> int | None:
        if not self.has_categories:
            return None
        return int((self.classes["purity"] >= 1.0 - 1e-12).sum())

    def to_frame(self) -> pd.DataFrame:
        """The per-class table."""
        return self.classes

    def summary(self) -> pd.DataFrame:
        """Headline figures as rows of (statistic, value, description)."""
        r = self.records
        n = max(self.n_records, 1)

        def mean(col: str) -> float:
            return float(r[col].mean()) if r[col].notna().any() else float("nan")

        rows: list[tuple[str, object, str]] = [
            ("attack", "skewness", "the attack"),
            ("keys", list(self.keys), "the quasi-identifiers defining the classes"),
            ("sensitive", self.sensitive, "the sensitive variable"),
            ("n_records", self.n_records, "records"),
            ("n_classes", len(self.classes), "equivalence classes"),
            ("lift_threshold", self.lift_threshold, "lift from which a class counts as skewed"),
            ("max_lift", self.max_lift, "largest lift of a value in a class"),
            ("mean_own_lift", mean("own_lift"), "mean lift of a record's own value"),
            ("mean_max_lift", mean("max_lift"), "mean over records of their class's largest lift"),
            ("n_classes_skewed", self.n_classes_skewed, "classes whose largest lift reaches the threshold"),
            ("n_records_skewed", self.n_records_skewed, "records in those classes"),
            ("pct_records_skewed", 100.0 * self.n_records_skewed / n, "% records in those classes"),
        ]
        if self.has_categories:
            rows += [
                ("n_classes_pure", self.n_classes_pure, "classes whose observed values all fall in one category"),
                ("n_records_pure", self.n_records_pure, "records in those classes"),
                ("pct_records_pure", 100.0 * self.n_records_pure / n, "% records in those classes"),
                ("mean_entropy", mean("entropy"), "mean entropy of the categories in a record's class"),
            ]
        return summary_frame(rows)

    def most_skewed(self, top: int = 10) -> pd.DataFrame:
        """The `top` classes of the largest lift (ties: the smaller class first).

        `top` is checked: a negative one would be a slice from the end (``head(-1)``: every
        class but the last), a silently wrong listing.
        """
        top = check_int(top, "top", min_value=0)
        worst = self.classes.sort_values(["max_lift", "n_records"], ascending=[False, True], na_position="last")
        return worst.head(top)

    def to_dict(self, *, top: int = 10) -> dict[str, Any]:
        """JSON-ready: the summary and the `top` most skewed classes."""
        return plain({**summary_values(self.summary()), "top_classes": frame_rows(self.most_skewed(top))})


def _add_categories(cls_tab: pd.DataFrame, rec: pd.DataFrame, s: Any, categories: Mapping[object, object] | pd.Series,
                    cells_obs: tuple[np.ndarray, np.ndarray, np.ndarray], n_obs_class: np.ndarray, n_total: float,
                    has: np.ndarray) -> None:
    """The similarity attack's columns: per class the categories' entropy and purity, the
    dominant category and its lift; per record its category (added to the two tables)."""
    ccls, ccode, ccnt = cells_obs
    G = len(cls_tab)
    rec_cls = rec["class_id"].to_numpy()
    cat_of_value, labels = _categories(s.values, categories)
    C = labels.size
    ccat = cat_of_value[ccode]
    key = ccls.astype(np.int64) * C + ccat
    ukey, inv = np.unique(key, return_inverse=True)
    cnt = np.bincount(inv, weights=ccnt)
    kcls, kcat = ukey // C, ukey % C
    q = cnt / n_obs_class[kcls]
    n_cat = np.bincount(ccat, weights=ccnt, minlength=C)
    with np.errstate(invalid="ignore", divide="ignore"):
        cat_lift = q / (n_cat[kcat] / n_total)
    entropy = np.full(G, np.nan)
    purity = np.full(G, np.nan)
    dominant = np.full(G, None, dtype=object)
    n_cats = np.zeros(G, dtype=np.int64)
    max_cat_lift = np.full(G, np.nan)
    if kcls.size:
        st = np.flatnonzero(np.r_[True, kcls[1:] != kcls[:-1]])
        g = kcls[st]
        entropy[g] = -np.add.reduceat(q * np.log(q), st)
        purity[g] = np.maximum.reduceat(q, st)
        max_cat_lift[g] = np.maximum.reduceat(cat_lift, st)
        n_cats[g] = np.diff(np.r_[st, kcls.size])
        hit = np.flatnonzero(q == purity[kcls])
        firsts = hit[np.r_[True, kcls[hit][1:] != kcls[hit][:-1]]]
        dominant[kcls[firsts]] = labels[kcat[firsts]]
    entropy = np.where(np.abs(entropy) < 1e-15, 0.0, entropy)  # -0.0 and rounding of a single category
    cls_tab["n_categories"] = n_cats
    cls_tab["entropy"] = entropy
    cls_tab["purity"] = purity
    cls_tab["dominant_category"] = dominant
    cls_tab["max_category_lift"] = max_cat_lift
    rec_cat = np.full(len(rec), None, dtype=object)
    rec_cat[has] = labels[cat_of_value[s.codes[has]]]
    rec["category"] = rec_cat
    rec["purity"] = purity[rec_cls]
    rec["entropy"] = entropy[rec_cls]


def _categories(values: np.ndarray, categories: Mapping[object, object] | pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Category code of each sensitive value code, and the category labels."""
    mapping = dict(categories.items()) if isinstance(categories, pd.Series) else dict(categories)
    missing = [v for v in values if v not in mapping]
    if missing:
        shown = ", ".join(repr(plain(v)) for v in missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise ValueError(f"`categories` has no category for {len(missing)} sensitive value(s): {shown}.")
    labels = [mapping[v] for v in values]
    uniq = list(dict.fromkeys(str(x) for x in labels))
    index = {u: i for i, u in enumerate(uniq)}
    return np.array([index[str(x)] for x in labels], dtype=np.int64), np.array(uniq, dtype=object)


def _top_lifts(G: int, ccls: np.ndarray, ccode: np.ndarray, lift: np.ndarray, share_in_class: np.ndarray,
               file_share: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per class (of G) from its observed cells (sorted by class, then value code): the largest
    lift, the value reaching it (ties go to the smallest value), that value's share in the
    class and in the file. NaN (None for the value) for a class with no observed value."""
    max_lift = np.full(G, np.nan)
    max_value = np.full(G, None, dtype=object)
    max_share = np.full(G, np.nan)
    fs = np.full(G, np.nan)
    if ccls.size:
        starts = np.flatnonzero(np.r_[True, ccls[1:] != ccls[:-1]])
        max_lift[ccls[starts]] = np.maximum.reduceat(lift, starts)
        # First cell of a class reaching its top lift: ties go to the smallest value.
        hit = np.flatnonzero(np.isclose(lift, max_lift[ccls], rtol=1e-12, atol=0.0))
        first = hit[np.r_[True, ccls[hit][1:] != ccls[hit][:-1]]]
        max_value[ccls[first]] = values[ccode[first]]
        max_share[ccls[first]] = share_in_class[first]
        fs[ccls[first]] = file_share[ccode[first]]
    return max_lift, max_value, max_share, fs


def _own_lifts(rec_cls: np.ndarray, codes: np.ndarray, n_values: int, ccls: np.ndarray, ccode: np.ndarray,
               lift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per record the lift of its own value in its class (NaN when missing), and whether it has
    a value: cells are sorted by (class, code), so a search finds each record's cell."""
    width = n_values + 1
    cell_key = ccls.astype(np.int64) * width + (ccode + 1)
    rec_key = rec_cls.astype(np.int64) * width + (codes + 1)
    own = np.full(len(codes), np.nan)
    has = codes >= 0
    if has.any() and cell_key.size:
        at = np.searchsorted(cell_key, rec_key[has])
        own[has] = lift[at]
    return own, has


def skewness_attack(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    sensitive: str,
    *,
    categories: Mapping[object, object] | pd.Series | None = None,
    lift_threshold: float = 2.0,
    bins: BinSpec | None = None,
) -> SkewnessResult:
    """Skewness (lift) and similarity (category entropy and purity) attacks per class.

    Parameters
    ----------
    data : pandas.DataFrame
        The released file.
    keys : str or sequence of str
        The quasi-identifiers that define the classes.
    sensitive : str
        The sensitive variable.
    categories : mapping or Series, optional
        Semantic category of every observed sensitive value (e.g. ``{"gastritis": "stomach",
        "gastric ulcer": "stomach", "flu": "respiratory"}``).
    lift_threshold : float
        A class is *skewed* when its largest lift is at least this (default 2).
    bins : bin spec, optional
        Bands of a numeric sensitive variable (:mod:`sdc.core.binning`: edges such as
        ``[0, 20000, 50000, inf]``, ``{"quantiles": 5}`` or ``{"width": 10}``): the lifts are
        those of the bands. Without them each distinct value is its own: with a measurement
        that is nearly unique per record, every class's value is rare in the file and almost
        every record's lift is large (a DegenerateDataWarning says so).

    Returns
    -------
    SkewnessResult
        Per class and per record lifts; with categories the entropy and purity.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"zip": [1, 1, 2, 2], "dx": ["flu", "flu", "flu", "ulcer"]})
    >>> r = sdc.skewness_attack(df, ["zip"], "dx")
    >>> r.records["own_lift"].round(3).tolist()
    [1.333, 1.333, 0.667, 2.0]
    """
    data = check_frame(data, "data")
    key_cols = check_keys(data, keys)
    (sens,) = check_columns(data, [sensitive], role="sensitive")
    if sens in key_cols:
        raise ValueError(f"`sensitive` {sens!r} is also a key variable.")
    lift_threshold = check_number(lift_threshold, "lift_threshold", low=0.0, high=np.inf, low_open=True)
    data = _banded(data, sens, bins, categories)
    classes = equivalence_classes(data, key_cols)
    s = encode_sensitive(data, sens)
    if bins is None:
        _warn_if_unbanded(data[sens], s.n_values)
    cl = cells(classes, s)
    G = classes.n_classes
    obs = cl.code >= 0
    ccls, ccode, ccnt = cl.cls[obs], cl.code[obs], cl.count[obs].astype(np.float64)
    n_obs_class = np.bincount(ccls, weights=ccnt, minlength=G)
    n_value = np.bincount(ccode, weights=ccnt, minlength=s.n_values)
    n_total = float(n_value.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        share_in_class = ccnt / n_obs_class[ccls]
        file_share = n_value / n_total
        lift = share_in_class / file_share[ccode]

    max_lift, max_value, max_share, fs = _top_lifts(G, ccls, ccode, lift, share_in_class, file_share, s.values)
    cls_tab = classes.key_values(data)
    cls_tab.insert(0, "class_id", np.arange(G))
    cls_tab["n_records"] = classes.sizes
    cls_tab["n_observed"] = n_obs_class.astype(np.int64)
    cls_tab["max_lift"] = max_lift
    cls_tab["max_lift_value"] = max_value
    cls_tab["max_lift_share"] = max_share
    cls_tab["file_share"] = fs
    rec_cls = classes.ids
    own, has = _own_lifts(rec_cls, s.codes, s.n_values, ccls, ccode, lift)
    rec = pd.DataFrame({"class_id": rec_cls, "own_lift": own, "max_lift": max_lift[rec_cls],
                        "max_lift_value": max_value[rec_cls]}, index=data.index)

    if categories is not None:
        _add_categories(cls_tab, rec, s, categories, (ccls, ccode, ccnt), n_obs_class, n_total, has)
    return SkewnessResult(keys=key_cols, sensitive=sens, lift_threshold=lift_threshold, classes=cls_tab,
                          records=rec, has_categories=categories is not None)
