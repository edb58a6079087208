"""client.py - a tool client over Streamable-HTTP MCP (the MCP SDK's own client), for the harness and its agents.

The harness uses one straight to the service (to create and end the suite's
games); the in-process agents (random, llm) use one through the recording
proxy, exactly as an outside program would.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from types import TracebackType
from typing import Any, Self

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

CALL_TIMEOUT_S = 600  # a long leg on a crowded machine


class ToolClient:
    """call(name, args) -> the frame (structuredContent) with `isError` and the rendered `text` added."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._stack = AsyncExitStack()
        self._client: Client | None = None

    async def __aenter__(self) -> Self:
        http = await self._stack.enter_async_context(httpx2.AsyncClient(timeout=CALL_TIMEOUT_S))
        self._client = await self._stack.enter_async_context(
            Client(streamable_http_client(self.url, http_client=http), mode="auto")
        )
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    async def tools(self) -> list[dict[str, Any]]:
        """tools/list as the wire carried it (camelCase)."""
        assert self._client is not None
        listed = await self._client.list_tools()
        return [tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools]

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        assert self._client is not None
        result = await self._client.call_tool(name, arguments)
        frame = dict(result.structured_content or {})
        frame["isError"] = bool(result.is_error)
        frame["text"] = "".join(getattr(block, "text", "") for block in result.content)
        return frame
