"""The engine a command runs on: pandas in memory (default) or Dask (``--engine dask``).

With Dask, the data path may be a glob of CSV files (``'data/part-*.csv'``), read lazily by
``dask.dataframe.read_csv``; the measures then run on the cluster: a LocalCluster sized to
the machine (one worker process per core), or the existing cluster at ``--scheduler``
(``tcp://host:8786``, or a scheduler file ``*.json`` written by dask-jobqueue / dask-mpi).
"""

from __future__ import annotations

import atexit
from typing import Any

from sdc.core import _dask
from sdc.core._dask_protect import input_files
from sdc.io import check_text_file, delimiter

__all__ = ["ENGINES", "open_dask"]

ENGINES = ("pandas", "dask")

_open: list[Any] = []


def open_dask(path: str, *, scheduler: str | None = None, sep: str | None = None, na_values: Any = None,
              text_columns: Any = None, sheet: Any = None, n_workers: int | None = None) -> Any:
    """Start (or connect to) the cluster and read `path` (a CSV file or glob) as a Dask
    DataFrame. The client stays open for the rest of the process (closed at exit)."""
    if sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); --sheet is for Excel input.")
    sep = None if sep is None else delimiter(sep)
    for f in input_files(path):  # refused as in memory: dask's reader would rename or misread
        check_text_file(f, sep=sep)
    kwargs: dict[str, Any] = {}
    if sep:
        kwargs["sep"] = sep
    if na_values:
        kwargs["na_values"] = list(na_values)
    if text_columns:
        kwargs["dtype"] = {c: "object" for c in text_columns}
    session = _dask.client_for(scheduler, n_workers=n_workers)
    _open.append(session)
    atexit.register(session.__exit__, None, None, None)
    return _dask.read_csv(path, **kwargs)
