"""Shared fixtures, the ``sdcmicro`` marker policy and hypothesis profiles.

Tests marked ``sdcmicro`` need R and sdcMicro through r_bridge. Without them they skip
with the reason, unless ``SDC_REQUIRE_SDCMICRO=1`` (set by ``.ci/run``): then they fail,
so CI cannot pass without running the cross-validation.

Tests marked ``browser`` render the HTML report in headless Chromium (Debian's ``chromium``
package). Without it they skip, unless ``SDC_REQUIRE_BROWSER=1`` (also set by ``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

from tests.scale import examples

# The Dask tests compare each Dask result with the in-memory one cell by cell, dtypes included.
# Dask >= 2023.7 with pyarrow (Debian sid) turns text columns into string[pyarrow] (missing: NA)
# where pandas 3 has str (missing: NaN): Dask's conversion, not sdc's. The tests keep pandas'
# dtypes; tests/core/test_dask.py checks the values under Dask's default too.
os.environ.setdefault("DASK_DATAFRAME__CONVERT_STRING", "False")

# SDC_TEST_SCALE (tests/scale.py) scales the examples too; a bad value is refused in
# pytest_configure, with one line.
try:
    _ci, _dev = examples(150), examples(100)
except ValueError:
    _ci, _dev = 150, 100
settings.register_profile("ci", derandomize=True, max_examples=_ci, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=_dev, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_configure(config: pytest.Config) -> None:
    from tests.scale import scale

    try:
        scale()
    except ValueError as exc:  # one line, before any module reads it
        raise pytest.UsageError(str(exc)) from None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Below ``SDC_TEST_SCALE=1``, parametrised groups marked ``breadth`` keep about
    one variant in ``1/scale`` (tests/scale.py); the others are reported as deselected."""
    from tests.scale import thinned

    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        if getattr(item, "callspec", None) is not None and item.get_closest_marker("breadth") is not None:
            groups.setdefault(item.nodeid.split("[")[0], []).append(item)
    dropped = {id(i) for group in groups.values()
               for i, keep in zip(group, thinned([i.callspec.id for i in group], True))
               if not keep}
    if dropped:
        config.hook.pytest_deselected(items=[i for i in items if id(i) in dropped])
        items[:] = [i for i in items if id(i) not in dropped]


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Before any fixture: a module-scoped fixture that loads sdcMicro's data would otherwise
    # error where R is not installed instead of skipping.
    _require_sdcmicro(item)


@pytest.fixture(autouse=True)
def _sdcmicro_available(request: pytest.FixtureRequest) -> None:
    _require_sdcmicro(request.node)


def _require_sdcmicro(node: pytest.Item) -> None:
    if node.get_closest_marker("sdcmicro") is None:
        return
    import r_bridge

    if r_bridge.is_available():
        return
    reason = f"sdcMicro cross-validation needs R and sdcMicro: {r_bridge.unavailable_reason()}"
    if _required("SDC_REQUIRE_SDCMICRO"):
        pytest.fail(f"{reason} (required here: SDC_REQUIRE_SDCMICRO=1)", pytrace=False)
    pytest.skip(reason)


def _required(var: str) -> bool:
    return os.environ.get(var, "") not in ("", "0")


@pytest.fixture
def chromium() -> str:
    """Path of a headless-capable Chromium; skips (or fails where required) without one."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    reason = "the HTML report check needs Chromium (Debian: apt-get install chromium; scripts/install.sh --with-browser)"
    if _required("SDC_REQUIRE_BROWSER"):
        pytest.fail(f"{reason} (required here: SDC_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def toy() -> pd.DataFrame:
    """8 records, 3 keys, weights; hand-computed values are in the tests that use it."""
    return pd.DataFrame({
        "age": [30, 30, 30, 40, 40, 50, 50, 60],
        "sex": ["f", "f", "m", "m", "m", "f", "f", "f"],
        "region": ["n", "n", "n", "s", "s", "s", "s", "n"],
        "w": [10.0, 20.0, 5.0, 12.5, 7.5, 30.0, 30.0, 4.0],
    }, index=[101, 102, 103, 104, 105, 106, 107, 108])


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


@pytest.fixture(scope="module")
def client():  # noqa: ANN201 - a distributed Client
    """A LocalCluster of 2 worker processes for one test module (tests/dask_support.py)."""
    from tests.dask_support import local_cluster

    yield from local_cluster()


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """The sdist and wheel built once, the wheel installed in a fresh venv outside the checkout
    (tests/dist.py); shared by the wheel and the docs tests."""
    from tests.dist import build_and_install

    try:
        return build_and_install(tmp_path_factory.mktemp("dist"))
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)


#: When the shared example run was generated (the reports of tests that compare with it are
#: written at the same time).
EXAMPLE_TIME = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


@pytest.fixture(scope="session")
def example_assessment():  # noqa: ANN201 - an sdc.Assessment
    """The bundled example assessed once per session (sdc/data/example.toml, generated at
    :data:`EXAMPLE_TIME`), shared by the tests that only read it: never change it."""
    from sdc.datasets import example_config_path
    from sdc.workflow.assess import assess
    from sdc.workflow.config import load_config

    return assess(load_config(example_config_path()), now=EXAMPLE_TIME)


@pytest.fixture(scope="session")
def example_report(example_assessment, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: ANN001
    """The shared example's report folder (every format), written once per session: read it,
    never write into it."""
    from sdc.report import write_report

    out = tmp_path_factory.mktemp("example") / "report"
    write_report(example_assessment, out)
    return out
