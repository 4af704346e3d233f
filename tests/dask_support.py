"""What the Dask test modules share: the import guard (skip with the reason, or fail when
SDC_REQUIRE_DASK=1) and the module cluster (a LocalCluster of 2 worker processes, 1 thread
each; the ``client`` fixture of tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

REASON = "the Dask engine needs dask and distributed (apt-get install python3-dask python3-distributed)"


def require_dask() -> None:
    """Called at a test module's top: skips the module without dask and distributed (fails
    instead with SDC_REQUIRE_DASK=1, as CI sets it)."""
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the installation
        reason = f"{REASON}: {e}"
        if os.environ.get("SDC_REQUIRE_DASK", "") not in ("", "0"):
            raise ImportError(reason) from e
        pytest.skip(reason, allow_module_level=True)


def local_cluster() -> Iterator[Any]:
    """A client of a LocalCluster with 2 worker processes (1 thread each), for the fixture."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as c:
        yield c
