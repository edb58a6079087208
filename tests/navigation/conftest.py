"""conftest.py - import paths and the live driver for the navigation tests.

The navigation package is pure Python under py/; the tests put py/ and this
folder on sys.path so they run from a plain checkout. Fixture tests read
real driver responses recorded by record_fixtures.py (see recorded.py);
live tests drive the native driver itself and fail (as tests/engine does)
when it is not built.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (ROOT / "py", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from driver_client import NATIVE_DRIVER, DriverClient, driver_available  # noqa: E402  (after the path entries)


@pytest.fixture
def driver() -> Iterator[Any]:
    """A factory of live native-driver games, all closed after the test."""
    if not driver_available():
        pytest.fail(
            f"native driver missing at {NATIVE_DRIVER}; build it with "
            "`make -f wasm/engine.mk TARGET=native -j2` from the repository root"
        )
    games: list[DriverClient] = []

    def start(seed: int) -> DriverClient:
        client = DriverClient(seed)
        games.append(client)
        return client

    yield start
    for client in games:
        client.close()
