"""The engine a command runs on: pandas in memory (default) or Dask (``--engine dask``).

With Dask, the data path may be a glob of CSV files (``'data/part-*.csv'``), read one
partition per file by the in-memory reader (:func:`sdc.core._dask_protect.read_partitions`); the measures then run on the cluster: a LocalCluster sized to
the machine (one worker process per core), or the existing cluster at ``--scheduler``
(``tcp://host:8786``, or a scheduler file ``*.json`` written by dask-jobqueue / dask-mpi).
"""

from __future__ import annotations

import atexit
from typing import Any

from sdc.core import _dask
from sdc.core._dask_protect import read_partitions

__all__ = ["ENGINES", "open_dask"]

ENGINES = ("pandas", "dask")

_open: list[Any] = []


def open_dask(path: str, *, scheduler: str | None = None, sep: str | None = None, na_values: Any = None,
              text_columns: Any = None, sheet: Any = None, n_workers: int | None = None) -> Any:
    """Start (or connect to) the cluster and read `path` (a CSV file or glob) as a Dask
    DataFrame of one partition per file, each read by the in-memory reader
    (:func:`sdc.core._dask_protect.read_partitions`, as ``sdc assess`` and ``sdc protect
    --engine dask`` read): the same missing-value markers (only empty fields, and
    `na_values`), codes with leading zeros kept as text, and column types settled across the
    files as one file holding every record would be read. The client stays open for the rest
    of the process (closed at exit)."""
    if sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); --sheet is for Excel input.")
    # dask.dataframe.read_csv types every block on its own with pandas' defaults ("NA" is
    # missing, "0123" is 123): other classes than the in-memory reader's.
    options: dict[str, Any] = {}
    if sep:
        options["sep"] = sep
    if na_values:
        options["na_values"] = list(na_values)
    if text_columns:
        options["text_columns"] = text_columns
    session = _dask.client_for(scheduler, n_workers=n_workers)
    _open.append(session)
    atexit.register(session.__exit__, None, None, None)
    ddf, _ = read_partitions(path, **options)
    return ddf
