"""l-diversity and t-closeness on a Dask DataFrame, from one table of (class, value) counts.

Both measures depend on the data only through the number of records of each (key pattern,
sensitive value) cell, and those counts are additive over partitions: each partition counts
its cells (a missing key or sensitive value kept as a value), one tree reduction adds them
into a small pandas table (:func:`sdc.core._dask.class_table`; no shuffle of the records),
and the in-memory per-class code runs on that table with each row standing for its count.
The classes are numbered by first appearance in the data and the values are coded as in
memory, so every per-class sum runs over the same cells in the same order: the numbers are
the in-memory ones (counts exactly; the floats agree to the last bits).

Per-record results (``records``) are Dask objects aligned to the input partitions (one merge
of each partition's keys with the small per-class table); per-class and summary tables are
pandas. Binning (``key_bins``, ``sensitive_bins``) is not distributed: bin the columns first.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._validation import check_keys, check_number, check_option
from sdc.attribute import closeness as _tc
from sdc.attribute import ldiversity as _ld
from sdc.core import _dask
from sdc.core.classes import cells, dominant_values, encode_sensitive, key_order

__all__ = ["l_diversity", "t_closeness"]


def _no_bins(**bins: Any) -> None:
    for name, b in bins.items():
        if b:
            raise _dask.not_distributed(name, "bin the columns first, e.g. with ddf.map_partitions")


def _meta(ddf: Any) -> pd.DataFrame:
    """A small pandas frame with the data's columns and types (for checking the arguments)."""
    return ddf._meta_nonempty


def l_diversity(ddf: Any, keys: str | Sequence[str], sensitive: str | Sequence[str], *,
                l: int | Mapping[str, int] = 2, c: float = 2.0, mode: str = "correct",
                missing_value: float | None = -999, key_bins: Any = None,
                sensitive_bins: Any = None) -> _ld.LDiversityResult:
    """:func:`sdc.l_diversity` on a Dask DataFrame: the same arguments and numbers.

    One pass over the data counts the records of every (key pattern, sensitive values) cell;
    ``records`` is a Dask DataFrame (sdcMicro's per-record columns), ``classes`` and
    ``by_sensitive`` are pandas.
    """
    _no_bins(key_bins=key_bins, sensitive_bins=sensitive_bins)
    if not isinstance(keys, (str, list, tuple)):
        raise TypeError("`keys` on a Dask DataFrame must be a column name or a list of column names.")
    _, keys, sens, l_by, l, c, mode, missing_value = _ld._check_arguments(
        _meta(ddf), keys, sensitive, l, c, mode, missing_value, None, None)
    table, classes = _dask.class_table(ddf, keys, sens)
    check_keys(table, keys)  # missing in every record, infinite values: seen in the table
    counts = table["_n"].to_numpy(np.int64)
    encoded = [encode_sensitive(table, s) for s in sens]
    _ld.warn_values(encoded, mode, l_by, stacklevel=5)
    order = functools.cache(lambda: key_order(table, classes)) if mode == "sdcmicro" else None

    per_class: dict[str, np.ndarray] = {}
    arrays: dict[str, np.ndarray] = {}
    summary_rows, dominant = [], {}
    for s in encoded:
        miss = _ld._missing_code(s, missing_value)
        cl = cells(classes, s, counts)
        vals = _ld._class_values(cl, classes, miss, c, mode)
        # sdcMicro leaves a class without categories at the previous class's value (key order).
        if order is not None and np.isnan(vals["recursive"]).any():
            vals["recursive"] = _ld._carry_forward(vals["recursive"], order())
        dominant[s.name] = functools.partial(dominant_values, cl, s, miss)
        per_class.update({f"{s.name}_{k}": v for k, v in vals.items()})
        for k, col in zip(_ld.MEASURES, ("Distinct", "Entropy", "Recursive")):
            arrays[f"{s.name}_{col}_Ldiversity"] = vals[k]
        summary_rows.append(_ld._summary(s.name, vals, classes, l_by[s.name], int(s.n_values),
                                         ids_are_records=False))
    if mode == "correct" and len(encoded) >= 2:
        m_ent, m_rec = _ld._multi(table, keys, encoded, classes, missing_value, c, counts)
    else:
        m_ent = m_rec = np.zeros(classes.n_classes)
    arrays["MultiEntropy_Ldiversity"], arrays["MultiRecursive_Ldiversity"] = m_ent, m_rec

    class_frame = functools.partial(_ld._class_frame, classes, table, encoded, per_class, dominant, m_ent, m_rec)
    rows, ids = _dask.key_rows(table, keys, classes.ids)
    per = _dask.DaskPerRecord(ddf, keys, rows, ids, int(classes.sizes.sum()),
                              **{k: v.astype(np.float64) for k, v in arrays.items()})
    return _ld.LDiversityResult(
        keys=keys, sensitive=sens, l=l, c=c, mode=mode, missing_value=missing_value, binning=(),
        n_records=int(classes.sizes.sum()), n_classes=classes.n_classes,
        records=per.frame(list(arrays)), by_sensitive=pd.DataFrame(summary_rows), l_by_sensitive=l_by,
        _classes=_ld._Deferred(class_frame),
    )


def t_closeness(ddf: Any, keys: str | Sequence[str], sensitive: str, *, distance: str = "ordered",
                t: float = 0.2, key_bins: Any = None) -> _tc.TClosenessResult:
    """:func:`sdc.t_closeness` on a Dask DataFrame: the same arguments and numbers.

    One pass over the data counts the records of every (key pattern, sensitive value) cell;
    ``records`` is a Dask Series, ``classes`` pandas.
    """
    _no_bins(key_bins=key_bins)
    if not isinstance(keys, (str, list, tuple)):
        raise TypeError("`keys` on a Dask DataFrame must be a column name or a list of column names.")
    distance = check_option(distance, "distance", _tc.DISTANCES)
    t = check_number(t, "t", low=0.0, high=float("inf"), high_open=True)
    _, keys, s_name = _tc._check_arguments(_meta(ddf), keys, sensitive, None)
    table, classes = _dask.class_table(ddf, keys, (s_name,))
    check_keys(table, keys)
    prep = _tc.prepared(classes, encode_sensitive(table, s_name), table, counts=table["_n"].to_numpy(np.int64))
    dist = _tc.class_distances(prep, distance)
    rows, ids = _dask.key_rows(table, keys, classes.ids)
    name = f"{s_name}_t_{distance}"
    per = _dask.DaskPerRecord(ddf, keys, rows, ids, int(classes.sizes.sum()), **{name: dist})
    return _tc.closeness_result(prep, distance, t, dist, per.series(name))
