"""Dask plumbing of the row-wise protection (``sdc protect --engine dask``, PRAM on Dask).

* :func:`read_partitions`: one partition per input file, each read by :func:`sdc.io.read_data`
  (the in-memory reader: same delimiter detection, same column types per file), so a
  released partition is what the in-memory run writes for those records;
* :func:`level_counts`: record counts of several column combinations (missing values kept
  as values) in one pass over the data, as small pandas tables;
* :func:`partition_delayed` / :func:`delayed_call` / :func:`compute`: per-partition results
  (transition counts, cells changed) computed in the same pass as the writing;
* :func:`write_partitions`: each worker turns its partition into a file's bytes (a writer
  function given by the caller) and writes it into a folder, returning its name, SHA-256 and
  record count.

Like :mod:`sdc.core._dask`, this module imports dask only inside functions.
"""

from __future__ import annotations

import glob
import hashlib
import os
from typing import Any, Callable

import numpy as np
import pandas as pd

from sdc.core._dask import _plain, require_dask

__all__ = ["read_partitions", "level_counts", "partition_delayed", "delayed_call", "compute", "write_partitions",
           "session"]


def session(scheduler: str | None = None) -> Any:
    """A context giving a distributed Client: :func:`sdc.core._dask.client_for`, except that
    a local cluster's workers log only errors (a failing step is reported once, as one line,
    by the caller; not also as the worker's multi-line warning)."""
    import logging

    from sdc.core._dask import _Client, client_for

    if scheduler:
        return client_for(scheduler)
    require_dask()
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=max(1, os.cpu_count() or 1), threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.CRITICAL)
    return _Client(Client(cluster), cluster=cluster, own=True)


def input_files(pattern: str) -> list[str]:
    """The files of a path or glob, sorted (the partition order)."""
    files = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
    files = [f for f in files if os.path.isfile(f)]
    if not files:
        raise ValueError(f"no data file matches {pattern!r}.")
    return files


def _read_one(path: str, options: dict, columns: list[str] | None = None) -> pd.DataFrame:
    from sdc.io import read_data

    df = read_data(path, **options)
    if columns is not None and list(df.columns) != columns:
        raise ValueError(f"the data files must have the same columns: {os.path.basename(path)!r} has "
                         f"{', '.join(map(str, df.columns))}; the first file has {', '.join(columns)}.")
    return df


def read_partitions(pattern: str, **options: Any) -> tuple[Any, list[str]]:
    """A path or glob as a Dask DataFrame of one partition per file (in sorted order), each
    read by :func:`sdc.io.read_data` with `options` (``sep``, ``na_values``,
    ``text_columns``); and the files. The first file is read here for the columns and their
    types (the meta); every file must have the same columns (checked as it is read)."""
    require_dask()
    import dask.dataframe as dd

    files = input_files(pattern)
    first = _read_one(files[0], options)
    columns = [str(c) for c in first.columns]
    ddf = dd.from_map(_read_one, files, args=(options, columns), meta=first.iloc[:0], enforce_metadata=False,
                      label="read-sdc")
    return ddf, files


def _count_chunk(part: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    g = _plain(part, cols).assign(_n=np.int64(1))
    return g.groupby(cols, dropna=False, sort=False, observed=True)["_n"].sum().reset_index()


def level_counts(ddf: Any, combinations: list[list[str]]) -> list[pd.DataFrame]:
    """Records per distinct value combination of each column list (missing values kept as
    values), in one pass over the data: pandas tables of the columns and ``_n``."""
    import dask

    tables = []
    for cols in combinations:
        cols = list(cols)
        meta = _count_chunk(ddf._meta[cols], cols)
        per = ddf[cols].map_partitions(_count_chunk, cols, meta=meta)
        tables.append(per.groupby(cols, dropna=False, observed=True)["_n"].sum())
    out = dask.compute(*tables)
    return [t.reset_index() for t in out]


def partition_delayed(fn: Callable, *frames: Any, **kwargs: Any) -> list[Any]:
    """`fn(partition_a, partition_b, ..., **kwargs)` per partition of Dask DataFrames with
    the same partitions, as a list of Delayed (no alignment by divisions is needed)."""
    import dask

    parts = [f.to_delayed() for f in frames]
    if len({len(p) for p in parts}) != 1:
        raise ValueError("the Dask DataFrames must have the same number of partitions.")
    call = dask.delayed(fn, pure=True)
    return [call(*ps, **kwargs) for ps in zip(*parts)]


def delayed_call(fn: Callable, *args: Any) -> Any:
    """`fn(*args)` as a Delayed (args may hold Delayed objects and lists of them)."""
    import dask

    return dask.delayed(fn, pure=True)(*args)


def compute(*objs: Any) -> tuple:
    """Compute Dask objects together (shared partitions are computed once)."""
    import dask

    return dask.compute(*objs)


def _write_one(part: pd.DataFrame, number: int, directory: str, writer: Callable, mode: int) -> tuple[str, str, int]:
    name, body = writer(part, number)
    path = os.path.join(directory, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as fh:
        fh.write(body)
    os.chmod(path, mode)
    return name, hashlib.sha256(body).hexdigest(), len(part)


def write_partitions(ddf: Any, directory: str, writer: Callable[[pd.DataFrame, int], tuple[str, bytes]], *,
                     mode: int = 0o644) -> list[Any]:
    """Delayed writes of every partition: ``writer(partition, number) -> (file name, bytes)``
    runs on the worker, which writes the file into `directory` (it must be visible to the
    workers: a shared file system on a cluster) and gives (name, SHA-256, records).
    Nothing runs until computed (:func:`compute`, with other results of the same pass)."""
    import dask

    call = dask.delayed(_write_one, pure=False)
    return [call(p, i, directory, writer, mode) for i, p in enumerate(ddf.to_delayed())]
