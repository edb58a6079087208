"""conftest.py - the `agent` fixture: a tool caller over live native games."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import GameRegistry
from support.client import Client, require_driver


@pytest_asyncio.fixture
async def agent() -> AsyncIterator[Client]:
    require_driver()
    games = GameRegistry(NativeEngine.start)
    try:
        yield Client(games)
    finally:
        await games.close_all()
