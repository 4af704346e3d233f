"""The measures on a Dask DataFrame: one pass over the data to a small pattern table.

Frequencies are additive. Each partition counts its distinct key patterns (a missing value
kept as a value of its own: ``groupby(keys, dropna=False)``) with their record count, weight
sum and first position; a tree reduction adds the partitions' tables into one pandas table
of the distinct patterns (:func:`pattern_table`). Everything else is computed on that table
by the same in-memory code (:func:`sdc.core.frequencies.table_frequencies`;
:func:`sdc.core.wildcard.wildcard_frequencies` works per
pattern, given each pattern's count and weight sum), so sdcMicro's wildcard rule, missing as
a category, the risks and the threshold give the in-memory numbers. Per-record results
(f_k, F_k, risk) go back to the records as a Dask Series, one merge of each partition's keys
with the table (pandas matches a missing key to a missing key in a merge), aligned to the
input partitions.

:class:`DaskTables` is what a measure's Dask variant reads (``sdc.core.engine.tables_of``):
the pattern tables, the per-record views, and binning by explicit edges, row by row in each
partition (quantile and width bins depend on the whole file, and are refused in one line).

This is the only module of ``sdc`` that imports dask or distributed (with its sibling
``_dask_protect``), and only inside functions: :func:`sdc.core.engine.is_dask` never imports
dask, so ``sdc`` runs without it.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from sdc._validation import check_columns, check_key_values, check_weights
from sdc.core.binning import Binning, apply_binning
from sdc.core.engine_base import EngineError, is_dask, not_on_engine

__all__ = [
    "is_dask", "require_dask", "pattern_table", "DaskPerRecord", "DaskTables", "binned",
    "value_table", "map_partitions_seeded", "partition_seeds", "client_for",
    "not_distributed", "extremes", "write_partitioned", "concat_columns", "sum_by_index", "class_table",
]

#: Positions within a partition are below this; the partition number goes above it, so the
#: smallest position of a pattern over all partitions is its first record in the data.
_POSITION_BITS = 40


def require_dask() -> None:
    """Raise one clear line when dask (with distributed) is not installed."""
    try:
        import dask.dataframe  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ValueError("--engine dask needs dask and distributed: apt-get install python3-dask "
                         "python3-distributed, or pip install 'sdc[dask]'.") from e


def not_distributed(measure: str, why: str) -> EngineError:
    """The one-line error of a measure that cannot run on a Dask DataFrame exactly."""
    return not_on_engine(measure, "dask", why)


def edges_only(bins: Any, argument: str = "key_bins", role: str = "continuous key") -> dict[str, list[float]]:
    """`bins` (column -> spec) when every spec is explicit edges, applied row by row; else the
    one-line refusal (quantile and width bins depend on the whole file)."""
    out = {}
    for col, spec in (bins or {}).items():
        if isinstance(spec, dict) or not isinstance(spec, (list, tuple, np.ndarray)):
            raise EngineError(
                f"`{argument}` of {col!r} must be explicit edges on a Dask DataFrame, e.g. [0, 18, 65, inf] "
                "(quantile and width bins depend on the whole file).",
                f"--engine dask: the bins of {col!r} ({role}) must be explicit edges, e.g. {col}=0,18,65,inf "
                "(quantile and width bins depend on the whole file).")
        out[col] = list(spec)
    return out


def _bin_part(part: pd.DataFrame, bins: dict[str, list[float]]) -> pd.DataFrame:
    return apply_binning(part, bins)[0]


def binned(ddf: Any, bins: Any, *, argument: str = "key_bins", role: str = "continuous key"
           ) -> tuple[Any, tuple[Binning, ...]]:
    """The columns binned by explicit edges in every partition (the in-memory labels and
    categories), and what was done; quantile and width bins are refused (:func:`edges_only`)."""
    edges = edges_only(bins, argument, role)
    if not edges:
        return ddf, ()
    check_columns(ddf._meta, list(edges), role=argument)
    meta, done = apply_binning(ddf._meta, edges)
    return ddf.map_partitions(_bin_part, edges, meta=meta), done


def _check_columns(ddf: Any, names: list[str], role: str) -> None:
    missing = [c for c in names if c not in ddf.columns]
    if missing:
        raise ValueError(f"`{role}` names columns not in the data: {', '.join(map(repr, missing))}.")


def _plain(part: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    """The columns, categoricals as their values (pandas 1.5 drops NaN groups of categoricals)."""
    out = part[cols]
    cats = [c for c in cols if isinstance(out[c].dtype, pd.CategoricalDtype)]
    if cats:
        out = out.astype({c: object for c in cats})
    return out


def _chunk(part: pd.DataFrame, keys: list[str], weights: str | None, extra: list[str],
           partition_info: dict | None = None) -> pd.DataFrame:
    number = partition_info["number"] if partition_info else 0
    cols = keys + extra
    w = check_weights(part, weights) if weights is not None else None
    g = _plain(part, cols).assign(
        _n=np.int64(1), _w=1.0 if w is None else w,
        _first=np.arange(len(part), dtype=np.int64) + (np.int64(number) << _POSITION_BITS))
    out = g.groupby(cols, dropna=False, sort=False, observed=True).agg(
        _n=("_n", "sum"), _w=("_w", "sum"), _first=("_first", "min"))
    return out.reset_index()


def pattern_table(ddf: Any, keys: tuple[str, ...], weights: str | None = None, *,
                  extra: tuple[str, ...] = ()) -> pd.DataFrame:
    """The distinct key patterns (with `extra` columns, e.g. a sensitive variable) of a Dask
    DataFrame, as pandas: the columns, ``_n`` (records), ``_w`` (weight sum; records when
    unweighted) and ``_first`` (order of first appearance), sorted by first appearance.

    One pass over the data with a tree reduction (no shuffle); the table has one row per
    distinct pattern, so it must fit in the client's memory.
    """
    cols = list(keys) + list(extra)
    _check_columns(ddf, cols, "keys")
    if weights:
        _check_columns(ddf, [weights], "weights")  # named as in memory, not as a key
    sub = ddf[cols + ([weights] if weights else [])]
    meta = _chunk(sub._meta, list(keys), weights, list(extra))
    per = sub.map_partitions(_chunk, list(keys), weights, list(extra), meta=meta)
    agg = per.groupby(cols, dropna=False, observed=True).agg({"_n": "sum", "_w": "sum", "_first": "min"})
    table = agg.compute().reset_index()
    if table.empty:  # as the in-memory measures say it (not a later, less clear error)
        raise ValueError("`data` is empty: it has no records.")
    # What check_keys refuses in memory, seen in the pattern table (it holds every value of every key).
    check_key_values(table, keys, at_index=False)
    return table.sort_values("_first", kind="stable", ignore_index=True)


def _lookup_frame(part: pd.DataFrame, table: pd.DataFrame, keys: list[str], names: list[str]) -> pd.DataFrame:
    merged = _plain(part, keys).merge(table, how="left", on=keys, sort=False)
    return pd.DataFrame({n: merged[n].to_numpy() for n in names}, index=part.index)


def _lookup(part: pd.DataFrame, table: pd.DataFrame, keys: list[str], name: str) -> pd.Series:
    # A left merge keeps the partition's row order; pandas matches NaN keys to NaN keys.
    merged = _plain(part, keys).merge(table, how="left", on=keys, sort=False)
    return pd.Series(merged[name].to_numpy(), index=part.index, name=name)


class DaskPerRecord:
    """Per-pattern arrays shown per record as Dask Series (the Dask twin of
    :class:`sdc.core.frequencies.PerRecord`): ``series(name)`` merges each partition's keys
    with the small (pattern, value) table; nothing is computed until the Series is."""

    __slots__ = ("ddf", "keys", "table", "ids", "n_records", "_arrays", "_series")

    def __init__(self, ddf: Any, keys: tuple[str, ...], table: pd.DataFrame, ids: np.ndarray, n_records: int,
                 **arrays: np.ndarray):
        self.ddf, self.keys, self.table, self.ids, self.n_records = ddf, keys, table, ids, n_records
        self._arrays, self._series = arrays, {}

    def series(self, name: str) -> Any:
        if name not in self._series:
            import dask

            values = self._arrays[name][self.ids]
            small = _plain(self.table, list(self.keys)).assign(**{name: values})
            lookup = dask.delayed(small, pure=True)
            self._series[name] = self.ddf[list(self.keys)].map_partitions(
                _lookup, lookup, list(self.keys), name, meta=pd.Series(dtype=values.dtype, name=name))
        return self._series[name]

    def concat(self, series: list[Any]) -> Any:
        """Per-record Series of these records side by side, as one Dask DataFrame."""
        return concat_columns(series)

    def frame(self, names: list[str]) -> Any:
        """Several arrays per record as one Dask DataFrame: one merge per partition (not one
        per column)."""
        import dask

        cols = {n: self._arrays[n][self.ids] for n in names}
        small = _plain(self.table, list(self.keys)).assign(**cols)
        meta = pd.DataFrame({n: pd.Series(dtype=v.dtype) for n, v in cols.items()})
        return self.ddf[list(self.keys)].map_partitions(
            _lookup_frame, dask.delayed(small, pure=True), list(self.keys), list(names), meta=meta)


class DaskTables:
    """A Dask DataFrame as a measure's Dask variant reads it (:func:`sdc.core.engine.tables_of`):
    its pattern tables (one pass each, :func:`pattern_table`, :func:`class_table`), the
    per-record views of per-pattern arrays (:class:`DaskPerRecord`), and its columns binned by
    explicit edges. A chunked file (:class:`sdc.core.stream.ChunkedFile`) reads the same way."""

    __slots__ = ("ddf",)
    engine = "dask"

    def __init__(self, ddf: Any):
        self.ddf = ddf

    @property
    def meta(self) -> pd.DataFrame:
        """An empty frame of the data's columns and types."""
        return self.ddf._meta

    @property
    def meta_nonempty(self) -> pd.DataFrame:
        return self.ddf._meta_nonempty

    def pattern_table(self, keys: tuple[str, ...], weights: str | None = None, *,
                      extra: tuple[str, ...] = ()) -> pd.DataFrame:
        return pattern_table(self.ddf, keys, weights, extra=extra)

    def class_table(self, keys: tuple[str, ...], extra: tuple[str, ...]) -> tuple[pd.DataFrame, Any]:
        return class_table(self.ddf, keys, extra)

    def per_record(self, keys: tuple[str, ...], table: pd.DataFrame, ids: np.ndarray, n_records: int,
                   **arrays: np.ndarray) -> DaskPerRecord:
        return DaskPerRecord(self.ddf, keys, table, ids, n_records, **arrays)

    def binned(self, bins: Any, argument: str = "key_bins", role: str = "continuous key"
               ) -> tuple[DaskTables, tuple[Binning, ...]]:
        ddf, done = binned(self.ddf, bins, argument=argument, role=role)
        return (self if ddf is self.ddf else DaskTables(ddf)), done


def concat_columns(series: list[Any]) -> Any:
    """Dask Series with the same partitions side by side, as a Dask DataFrame."""
    import dask.dataframe as dd

    return dd.concat(series, axis=1)


def value_table(ddf: Any, keys: tuple[str, ...], sensitive: str, weights: str | None = None) -> pd.DataFrame:
    """The (key pattern, sensitive value) cells with their counts: one pass, as pandas."""
    return pattern_table(ddf, keys, weights, extra=(sensitive,))


def _known_categories(ddf: Any, table: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    """The table's columns with the categorical dtypes of the data back (the pattern table
    holds categoricals as their values): the categories and their order are what the
    in-memory measures see (unobserved categories count, ordered categoricals are ordered)."""
    out = table
    for c in cols:
        dtype = ddf._meta[c].dtype
        if isinstance(dtype, pd.CategoricalDtype):
            if "__UNKNOWN_CATEGORIES__" in list(dtype.categories):
                raise ValueError(f"column {c!r} is a Dask categorical with unknown categories; make them known "
                                 f"first (ddf = ddf.categorize(columns=[{c!r}]) or ddf[{c!r}].cat.as_known()).")
            if out is table:
                out = table.copy()
            out[c] = out[c].astype(dtype)
    return out


def class_table(ddf: Any, keys: tuple[str, ...], extra: tuple[str, ...]) -> tuple[pd.DataFrame, Any]:
    """The (key pattern, `extra` values) cells of a Dask DataFrame with their record counts
    (``_n``), in one pass (:func:`pattern_table`), and the equivalence classes of its rows.

    The classes are those of :func:`sdc.core.classes.equivalence_classes` on the records (a
    missing key value is a value of its own), numbered by first appearance in the data (the
    table is sorted by its cells' first records, and a class's first record is its first
    cell's); ``sizes`` are record counts, ``ids`` and ``first`` refer to the table's rows.
    """
    import dataclasses

    from sdc.core.classes import equivalence_classes

    table = pattern_table(ddf, keys, extra=extra)
    table = _known_categories(ddf, table, list(keys) + list(extra))
    cl = equivalence_classes(table, keys)
    sizes = np.rint(np.bincount(cl.ids, weights=table["_n"].to_numpy(np.float64), minlength=cl.n_classes))
    return table, dataclasses.replace(cl, sizes=sizes.astype(np.int64))


# --- row-wise methods -----------------------------------------------------------------------

def partition_seeds(seed: int, n_partitions: int) -> list[int]:
    """One seed per partition, spawned from `seed` (numpy SeedSequence): a rerun with the same
    seed and partitioning draws the same numbers in every partition."""
    return [int(s.generate_state(1, dtype=np.uint64)[0]) >> 1 for s in np.random.SeedSequence(seed).spawn(n_partitions)]


def _apply(part: pd.DataFrame, fn: Callable, seeds: list[int] | None, attribute: str, kwargs: dict,
           empty: Any = None, partition_info: dict | None = None) -> Any:
    if len(part) == 0 and empty is not None:
        # a partition without records (a data file with a header only): nothing to protect;
        # the methods refuse an empty frame
        return empty
    if seeds is not None:
        number = partition_info["number"] if partition_info else 0
        kwargs = {**kwargs, "seed": seeds[number]}
    return getattr(fn(part, **kwargs), attribute)


def map_partitions_seeded(ddf: Any, fn: Callable, *, seed: int | None = None, attribute: str = "data",
                          **kwargs: Any) -> Any:
    """`fn(partition, **kwargs).<attribute>` on every partition (a row-wise protection method
    returning a ProtectionResult), with a per-partition seed from `seed` when given."""
    seeds = None if seed is None else partition_seeds(int(seed), ddf.npartitions)
    probe = fn(ddf._meta_nonempty, **({**kwargs, "seed": 0} if seeds is not None else kwargs))
    meta = getattr(probe, attribute).iloc[:0]
    # `empty` bound, not passed: dask would align a pandas argument with the partitions
    return ddf.map_partitions(functools.partial(_apply, empty=meta), fn, seeds, attribute, kwargs, meta=meta)


def extremes(ddf: Any, cols: list[str]) -> tuple[pd.Series, pd.Series]:
    """The smallest and largest value of each column (missing values skipped), in one pass."""
    import dask

    return dask.compute(ddf[cols].min(), ddf[cols].max())


def _sum_parts(parts: list[pd.Series]) -> pd.Series:
    return pd.concat(parts).groupby(level=0, sort=False).sum()


def sum_by_index(series: Any) -> Any:
    """A Dask Series whose partitions share one small index (e.g. counts per variable), summed
    over the partitions: lazy (a Delayed); ``.compute()`` gives a pandas Series."""
    import dask

    return dask.delayed(_sum_parts, pure=True)(series.to_delayed())


def write_partitioned(ddf: Any, directory: str, *, name: str = "part-*.csv") -> list[str]:
    """Write a Dask DataFrame as one CSV file per partition into `directory`, all or nothing:
    the files go to a temporary directory beside it, renamed into place when every one is
    written."""
    import shutil
    import tempfile

    target = os.path.abspath(directory)
    if os.path.exists(target) and os.listdir(target):
        raise ValueError(f"output directory {directory!r} exists and is not empty.")
    parent = os.path.dirname(target) or "."
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".sdc-", dir=parent)
    try:
        ddf.to_csv(os.path.join(tmp, name), index=False, lineterminator="\n")
        if os.path.exists(target):
            os.rmdir(target)
        os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return sorted(os.path.join(target, f) for f in os.listdir(target))


# --- reading and the cluster ------------------------------------------------------------------

@dataclass
class _Client:
    client: Any
    cluster: Any = None
    own: bool = field(default=False)

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, *exc: object) -> None:
        if self.own:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()


def _connect(client: Any, scheduler: str, **where: str) -> Any:
    """A Client of the scheduler at `scheduler`; a scheduler that cannot be reached is one line
    naming the option (`scheduler`, --scheduler on the command line) and the address."""
    try:
        return client(**where)
    except (OSError, TimeoutError) as e:  # distributed raises OSError (a timeout, a refused connection)
        why = " ".join(str(e).split()) or type(e).__name__
        raise ValueError(f"`scheduler` {scheduler!r}: cannot reach the Dask scheduler ({why}); check the address "
                         "(tcp://host:8786) or the scheduler file, or leave `scheduler` out for a local cluster.") from e


def client_for(scheduler: str | None = None, *, n_workers: int | None = None, threads_per_worker: int | None = None,
               memory_limit: str | None = None) -> _Client:
    """A context giving a distributed Client: connected to `scheduler` (an address such as
    ``tcp://host:8786`` or a scheduler file ``*.json``), else a LocalCluster sized to the
    machine (one worker process per core, one thread each), closed on exit."""
    require_dask()
    from distributed import Client, LocalCluster

    if scheduler:
        if scheduler.endswith(".json"):
            # distributed waits, without end, for a missing scheduler file to appear
            if not os.path.isfile(scheduler):
                raise ValueError(f"`scheduler` file '{scheduler}' does not exist (or is not a file); start the "
                                 "scheduler with --scheduler-file, or give its address (tcp://host:8786).")
            return _Client(_connect(Client, scheduler, scheduler_file=scheduler), own=True)
        return _Client(_connect(Client, scheduler, address=scheduler), own=True)
    n = n_workers or max(1, os.cpu_count() or 1)
    # silence_logs: a task that raises is reported once, as sdc's one-line error, not also as
    # the workers' "Compute Failed" log (a dozen lines of task arguments) on stderr.
    cluster = LocalCluster(n_workers=n, threads_per_worker=threads_per_worker or 1, processes=True,
                           memory_limit=memory_limit or "auto", dashboard_address=None, silence_logs=logging.ERROR)
    return _Client(Client(cluster), cluster=cluster, own=True)
