"""described.py - the native engine's own `protocol.describe` answer, through the package's
NativeEngine: what the package's copies of the engine's words are checked against."""

from __future__ import annotations

from typing import Any

from nethack_webmcp.engine.native import NativeEngine

from support.client import require_driver


async def described() -> dict[str, Any]:
    require_driver()
    engine = await NativeEngine.start()
    try:
        return await engine.request({"version": 1, "method": "protocol.describe"})
    finally:
        await engine.close()
