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
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np
import pandas as pd

from sdc.core._dask import _plain, is_dask, require_dask

__all__ = ["read_partitions", "level_counts", "partition_delayed", "delayed_call", "compute", "compute_nested",
           "write_partitions", "session"]


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
    """The files of a path or glob, sorted (the partition order), as absolute paths: the
    workers read them, and a cluster's workers need not run in our working directory."""
    files = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
    files = [os.path.abspath(f) for f in files if os.path.isfile(f)]
    if not files:
        raise ValueError(f"no data file matches {pattern!r}.")
    return files


def _read_or_header(path: str, options: dict) -> pd.DataFrame | list[str]:
    """:func:`sdc.io.read_data` of one file, or its header's names for a file with a header
    and no records (a part of a data set may hold none; the whole file has them)."""
    from sdc.exceptions import DataFileError
    from sdc.io import read_data, read_header

    try:
        return read_data(path, **options)
    except DataFileError as e:
        if "has no records" not in str(e):
            raise
        header = read_header(path, sep=options.get("sep"))  # the file's format reads its header (sdc._formats)
        if not header:
            raise
        return header


def _same_columns(path: str, have: list[str], columns: list[str]) -> None:
    if have != columns:
        order = " in the same order" if sorted(map(str, have)) == sorted(map(str, columns)) else ""
        raise ValueError(f"the data files must have the same columns{order}: {os.path.basename(path)!r} has "
                         f"{', '.join(map(str, have))}; the first file has {', '.join(columns)}.")


def _read_one(path: str, options: dict, columns: list[str] | None = None, dtypes: dict | None = None,
              first: str | dict | None = None, bools: frozenset = frozenset()) -> pd.DataFrame:
    df = _read_or_header(path, options)
    if isinstance(df, list):  # a header without records: an empty partition of the data set's types
        if columns is not None:
            _same_columns(path, df, columns)
        return pd.DataFrame({c: pd.Series(dtype=(dtypes or {}).get(c, "float64")) for c in (columns or df)})
    if columns is not None:
        _same_columns(path, [str(c) for c in df.columns], columns)
    if dtypes is not None:
        df = _conform(df, path, options, dtypes, first or "the first file", bools)
    return df


def _is_text(dtype: Any) -> bool:
    return pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)


def _is_number(dtype: Any) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _holds_bools(s: pd.Series) -> bool:
    """Whether a column's values are truth values (TRUE/FALSE read as bool, or as Python bools
    in a text column when some are missing), with at least one value."""
    if pd.api.types.is_bool_dtype(s.dtype):
        return True
    return _is_text(s.dtype) and pd.api.types.infer_dtype(s, skipna=True) == "boolean"


def _holds_text(s: pd.Series) -> bool:
    """Whether a text column holds a value that is not a truth value (one file holding it
    reads the column's TRUE/FALSE as the text "TRUE"/"FALSE")."""
    return _is_text(s.dtype) and pd.api.types.infer_dtype(s, skipna=True) not in ("boolean", "empty")


def _conform(df: pd.DataFrame, path: str, options: dict, dtypes: dict, first: str | dict,
             bools: frozenset = frozenset()) -> pd.DataFrame:
    """A file's columns in the types of the first file's (the meta), so that every partition
    holds a column's values alike, as one file holding all the records would be read:

    * a column with no value in this file takes the first file's type;
    * a column the first file holds as text and this one as numbers is read again as text
      (its values as written: text "10" and the number 10 must not become two values);
    * whole numbers in one file and decimals or missing values in the other stay numbers
      (float64 where the first file has it);
    * any other difference (numbers in the first file, text here) cannot be settled one file
      at a time: one line names the column, both files and the remedy."""
    from sdc.io import read_data

    retext = []
    sources = first
    for c, want in dtypes.items():
        have = df[c].dtype
        first = sources.get(c, "the first file") if isinstance(sources, dict) else sources  # where `want` is from
        if c in bools and _holds_text(df[c]):
            # TRUE/FALSE are truth values in the first file and text here ("x" beside them):
            # one file holding both reads them as text; the first file cannot be read again.
            raise ValueError(
                f"column {c!r} holds TRUE/FALSE in {first!r} and other text in {os.path.basename(path)!r}: one "
                f"file holding both reads them as text; declare it as text (text_columns = [{c!r}] in the "
                "configuration) or make its values alike in every file.")
        if _is_text(want) and c not in bools and _holds_bools(df[c]):
            retext.append(c)  # TRUE/FALSE among the first file's text: the text "TRUE", as one file reads it
            continue
        if have == want:
            continue
        if pd.api.types.is_bool_dtype(want) and (_holds_bools(df[c]) or df[c].isna().all()):
            # truth values with missing ones are read as Python bools in a text column
            df[c] = df[c].astype(object)
            continue
        if c in bools and pd.api.types.is_bool_dtype(have):
            df[c] = df[c].astype(object)
            continue
        if df[c].isna().all() and (_is_text(want) or pd.api.types.is_float_dtype(want)):
            df[c] = df[c].astype(want)
        elif _is_text(want) and (pd.api.types.is_numeric_dtype(have) or pd.api.types.is_bool_dtype(have)):
            retext.append(c)
        elif _is_number(want) and _is_number(have):
            # Whole numbers in one file, decimals or missing values in another: equal values
            # compare equal across int64 and float64 (counts and lookups agree); float64
            # where the first file has it, as one file would be read.
            if pd.api.types.is_float_dtype(want):
                df[c] = df[c].astype(want)
        else:
            from sdc.exceptions import DataFileError  # the files' fault, not a step's

            kind = {True: "text", False: f"{have}"}[_is_text(have)]
            raise DataFileError(
                f"column {c!r} is read as {kind} in {os.path.basename(path)!r} but as "
                f"{'text' if _is_text(want) else want} in {first!r}: the files of one data set must hold a column "
                f"alike; declare it as text (--text {c}, or text_columns = [{c!r}] in the configuration) or make "
                "its values alike in every file.")
    if retext:
        opts = dict(options)
        tc = opts.get("text_columns")
        if tc is not True:
            opts["text_columns"] = sorted(set([] if not tc else ([tc] if isinstance(tc, str) else list(tc))) | set(retext))
            df = read_data(path, **opts)
            return _conform(df, path, options, dtypes, sources, bools)
    return df


def read_partitions(pattern: str, **options: Any) -> tuple[Any, list[str]]:
    """A path or glob as a Dask DataFrame of one partition per file (in sorted order), each
    read by :func:`sdc.io.read_data` with `options` (``sep``, ``na_values``,
    ``text_columns``); and the files. The first file is read here for the columns and their
    types (the meta); every file must have the same columns, and is brought to the first
    file's types where that is exact (:func:`_conform`; checked as it is read)."""
    require_dask()
    import dask.dataframe as dd

    files = input_files(pattern)
    # The meta: the first file with records; a column missing in all its records takes its
    # type from the next file holding a value of it (read here too, until every column has
    # one), as one file holding every record would be read.
    base, columns, unsettled = None, None, []
    dtypes: dict[str, Any] = {}
    bools: set[str] = set()
    for f in files:
        df = _read_or_header(f, options)
        names = df if isinstance(df, list) else [str(c) for c in df.columns]
        if columns is None:
            columns = names
        _same_columns(f, names, columns)
        if isinstance(df, list):
            continue
        if base is None:
            base = df
            dtypes = {str(c): df[c].dtype for c in df.columns}
            unsettled = [c for c in columns if df[c].isna().all()]
            bools = {c for c in columns if _holds_bools(df[c])}  # TRUE/FALSE (read as truth values)
            source = {c: os.path.basename(f) for c in columns}  # the file each column's type comes from
        else:
            for c in [c for c in unsettled if not df[c].isna().all()]:
                # beside the first file's missing values: truth values are read as Python
                # bools in a text column, whole numbers as float64
                have = df[c].dtype
                dtypes[c] = (np.dtype(object) if pd.api.types.is_bool_dtype(have) else
                             np.dtype("float64") if pd.api.types.is_integer_dtype(have) else have)
                if _holds_bools(df[c]):
                    bools.add(c)
                source[c] = os.path.basename(f)
                unsettled.remove(c)
        if not unsettled:
            break
    if base is None:
        from sdc.exceptions import DataFileError

        raise DataFileError(f"no data file of {pattern!r} has records.")
    meta = base.iloc[:0].astype({c: t for c, t in dtypes.items() if base[c].dtype != t})
    ddf = dd.from_map(_read_one, files, args=(options, columns, dtypes, source, frozenset(bools)),
                      meta=meta, enforce_metadata=False, label="read-sdc")
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


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def _strip(x: Any, found: list[Any]) -> Any:
    """`x` with each Dask object (in mappings, walked) replaced by its place in `found`."""
    if isinstance(x, Mapping):
        return {k: _strip(v, found) for k, v in x.items()}
    if is_dask(x):  # a collection or a Delayed
        found.append(x)
        return _Slot(len(found) - 1)
    return x


def _fill(x: Any, values: list[Any]) -> Any:
    if isinstance(x, Mapping):
        return {k: _fill(v, values) for k, v in x.items()}
    return values[x.index] if isinstance(x, _Slot) else x


def compute_nested(first: list[Any], nested: list[Any]) -> tuple[list[Any], list[Any]]:
    """Compute the Dask objects of `first` (a list of Delayed) and every Dask object inside
    `nested` (dicts walked) in one pass over the data: (computed `first`, `nested` with each
    Dask object replaced by its value)."""
    found: list[Any] = []
    shells = [_strip(x, found) for x in nested]
    done = compute(list(first), found)
    return list(done[0]), [_fill(s, list(done[1])) for s in shells]


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
