"""conftest.py - fixtures for the engine tests (the client lives in engine_client.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from engine_client import DriverClient, native_command


@pytest.fixture
def native_client() -> Iterator[DriverClient]:
    client = DriverClient(native_command())
    try:
        yield client
    finally:
        client.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "wasm: needs the WebAssembly driver (node scripts/wasm-driver.mjs); fails, never skips, when it is missing",
    )


@pytest.fixture
def native_client_factory() -> Iterator:
    """Start as many native drivers as a test needs; all are closed after it."""
    clients: list[DriverClient] = []

    def start() -> DriverClient:
        clients.append(DriverClient(native_command()))
        return clients[-1]

    try:
        yield start
    finally:
        for client in clients:
            client.close()
