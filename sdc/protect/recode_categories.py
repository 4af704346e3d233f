"""Categories in :func:`sdc.global_recode` (any of, applied in this order): ``truncate=n``
keeps the first *n* characters of each code (postcodes: ``"75013"`` -> ``"750"``);
``mapping={old: new}`` merges and renames values (sdcMicro's ``groupAndRename``,
``R/groupAndRename.R``), the truncated codes when ``truncate`` is given too; a key that no
value of the column holds is accepted (a mapping is often written for a code list, such as
the 17 restricted ZIP3 prefixes, rather than for one file) and listed in the details
(``mapping_absent``); ``rare=m`` pools the
values held by fewer than *m* records into ``rare_label``. Merged labels keep the position of
their first level (R's ``levels<-``); the pooled level goes last.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_int
from sdc.core.strata import sorted_levels
from sdc.protect._common import restore_numeric

__all__ = ["CategoryRecode", "category_recode", "text_of", "plain_of"]


def _text(v: object) -> str:
    """A value as text: whole floats without '.0', so 12 and 12.0 read the same."""
    if isinstance(v, (float, np.floating)) and math.isfinite(v) and float(v).is_integer():
        return str(int(v))
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def _plain(v: object) -> object:
    return v.item() if isinstance(v, np.generic) else v


def _match_mapping(mapping: Mapping, levels: Sequence[object], numeric: bool) -> tuple[dict[int, object], list]:
    """Level index -> new value (every level equal to a key), and the keys no level holds; a text
    key matches a number and a number a text level."""
    pos: dict[object, list[int]] = {}
    for i, lv in enumerate(levels):
        pos.setdefault(lv, []).append(i)
    out: dict[int, object] = {}
    absent = []
    for k, new in mapping.items():
        idx = pos.get(k)
        if idx is None and numeric and isinstance(k, str):
            try:
                idx = pos.get(float(k))
            except ValueError:
                idx = None
        if idx is None and not numeric and not isinstance(k, str):
            idx = pos.get(_text(k))
        if idx is None:
            absent.append(k)
        else:
            for i in idx:
                out[i] = new
    return out, absent


def _recode(s: pd.Series, truncate: int | None, mapping: Mapping | None, rare: int | None,
                       rare_label: object) -> tuple[pd.Series, int, dict[str, Any]]:
    name = str(s.name)
    lv = sorted_levels(s)
    levels = lv.levels
    new: list[object] = list(levels)
    detail: dict[str, Any] = {"levels_before": len(levels)}
    if truncate is not None:
        new = [_text(v)[:truncate] for v in new]
    if mapping is not None:
        # After `truncate` the keys name the truncated codes ({'036': '000'} on 5-digit ZIP codes).
        numeric = (truncate is None and bool(pd.api.types.is_numeric_dtype(s.dtype))
                   and not pd.api.types.is_bool_dtype(s.dtype))
        m, absent = _match_mapping(mapping, new, numeric)
        for i, v in m.items():
            new[i] = v
        if absent:  # a mapping written for a code list (the restricted ZIP3 prefixes), not for this file
            detail["mapping_absent"] = [_text(k) for k in absent]
    counts = lv.counts()
    if rare is not None:
        # Count the records of each recoded value, then pool the values with fewer than `rare`.
        uniq = list(dict.fromkeys(new))
        where = {u: j for j, u in enumerate(uniq)}
        grp = np.array([where[v] for v in new], dtype=np.int64)
        tot = np.bincount(grp, weights=counts, minlength=len(uniq)) if len(grp) else np.zeros(0)
        small = [u for j, u in enumerate(uniq) if 0 < tot[j] < rare]
        small_set = set(small)
        if small:
            new = [rare_label if v in small_set else v for v in new]
        detail["pooled"] = [_text(v) for v in small]
        detail["pooled_records"] = int(sum(tot[where[u]] for u in small))
    changed_level = np.array([not _same(a, b) for a, b in zip(levels, new)], dtype=bool)
    n_changed = int(counts[changed_level].sum()) if len(levels) else 0
    # Merged labels keep the position of their first level (R's `levels<-`); the pooled level goes last.
    order = list(dict.fromkeys(v for v in new if not (rare is not None and v == rare_label)))
    if rare is not None and any(v == rare_label for v in new):
        order.append(rare_label)
    where_new = {v: j for j, v in enumerate(order)}
    level_map = np.array([where_new[v] for v in new], dtype=np.int64) if new else np.zeros(0, dtype=np.int64)
    codes = np.where(lv.codes >= 0, level_map[np.maximum(lv.codes, 0)] if len(level_map) else -1, -1)
    detail["levels_after"] = len(order)
    if isinstance(s.dtype, pd.CategoricalDtype):
        out = pd.Series(pd.Categorical.from_codes(codes, categories=order, ordered=bool(s.cat.ordered)),
                        index=s.index, name=s.name)
    else:
        numeric_out = all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in order)
        if numeric_out and pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
            vals = np.array([float(v) for v in order] + [np.nan])[codes]
            out = restore_numeric(vals, s)
        else:
            table = np.empty(len(order) + 1, dtype=object)
            table[:-1] = [_plain(v) for v in order]
            table[-1] = np.nan
            out = pd.Series(table[codes], index=s.index, name=s.name, dtype=object)
    return out, n_changed, detail


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b) and (isinstance(a, str) or isinstance(b, str)):
        return False
    try:
        return bool(a == b)
    except Exception:  # pragma: no cover - exotic objects
        return False


text_of, plain_of = _text, _plain


@dataclass(frozen=True)
class CategoryRecode:
    """The checked category recoding of one call."""

    truncate: int | None
    mapping: Mapping | None
    rare: int | None
    rare_label: object

    @property
    def label(self) -> str:
        return "+".join(k for k in ("truncate", "mapping", "rare") if getattr(self, k) is not None)

    def recode(self, s: pd.Series) -> tuple[pd.Series, int, dict[str, Any]]:
        """The recoded column, the cells changed and the details."""
        if pd.api.types.is_datetime64_any_dtype(s.dtype):
            raise TypeError(f"column {str(s.name)!r} holds dates; recode it with `date` or `age_at`.")
        new, n, det = _recode(s, self.truncate, self.mapping, self.rare, self.rare_label)
        det["recode"] = self.label
        return new, n, det

    def parameters(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.truncate is not None:
            out["truncate"] = self.truncate
        if self.mapping is not None:
            out["mapping"] = {_text(k): _plain(v) for k, v in self.mapping.items()}
        if self.rare is not None:
            out.update(rare=self.rare, rare_label=_plain(self.rare_label))
        return out


def category_recode(truncate: object, mapping: object, rare: object, rare_label: object) -> CategoryRecode | None:
    """The checked category parameters (None when none is given)."""
    if truncate is None and mapping is None and rare is None:
        return None
    if truncate is not None:
        truncate = check_int(truncate, "truncate", min_value=1)
    if mapping is not None and not isinstance(mapping, Mapping):
        raise TypeError(f"`mapping` must be a dict of old value -> new value; got {type(mapping).__name__}.")
    if rare is not None:
        rare = check_int(rare, "rare", min_value=2)
    return CategoryRecode(truncate, mapping, rare, rare_label)  # type: ignore[arg-type]
