"""conftest.py - import paths and the live driver for the navigation tests.

The navigation package is pure Python under py/; the tests put py/ and this
folder (and tests/, for the shared support.driver client) on sys.path so
they run from a plain checkout. Fixture tests read
real driver responses recorded by record_fixtures.py (see recorded.py);
live tests drive the native driver itself and fail (as tests/engine does)
when it is not built.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (ROOT / "py", ROOT / "tests", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from support.driver import DriverClient, Game, native_command, start_game  # noqa: E402  (after the path entries)


@pytest.fixture
def driver() -> Iterator[Callable[[int], Game]]:
    """A factory of live native-driver games (seed -> Game), all closed after the test."""
    command = native_command()  # fails the test when the driver is not built
    clients: list[DriverClient] = []

    def start(seed: int) -> Game:
        client = DriverClient(command)
        clients.append(client)
        return start_game(client, seed, session_id="nav", name=None)

    yield start
    for client in clients:
        client.close()
