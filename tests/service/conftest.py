"""conftest.py - the service tests run against a real PostgreSQL server (one
private cluster for the session, a fresh database per test) and the real
native engine over real HTTP."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from support.postgres_server import PostgresServer

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    with PostgresServer.start() as server:
        yield server


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    """A fresh empty database's URL."""
    return postgres.create_database(f"t{next(_numbers)}")
