"""watched.py - the stdio MCP server with its spectator, driven by the official MCP client.

    async with watched_server(state_dir) as (session, base):
        ...  # session: mcp.ClientSession (initialized); base: "http://127.0.0.1:<port>"

The server runs as `python -m nethack_webmcp.mcp --spectator-port 0` (a free
loopback port); its stderr goes to a file, where the announced URL is read.
Used by tests/watch, tests/e2e and scripts/bench-spectators.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]


def require_driver() -> None:
    from nethack_webmcp.engine.native import DEFAULT_DRIVER

    if not os.access(os.environ.get("NNH_DRIVER", DEFAULT_DRIVER), os.X_OK):
        raise AssertionError(f"native driver missing at {DEFAULT_DRIVER}; build it with ./scripts/build")


ANNOUNCED = re.compile(r"watch the games at (http://\S+?)/?$", re.MULTILINE)


@asynccontextmanager
async def watched_server(
    state_dir: Path, *args: str, timeout: float = 20.0
) -> AsyncIterator[tuple[ClientSession, str]]:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nethack_webmcp.mcp", "--spectator-port", "0", *args],
        cwd=str(ROOT),
        env={**os.environ, "NNH_STATE_DIR": str(state_dir)},
    )
    with tempfile.TemporaryFile("w+") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            base = await _announced(errlog, timeout)
            yield session, base


async def _announced(errlog: Any, timeout: float) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        errlog.seek(0)
        found = ANNOUNCED.search(errlog.read())
        if found:
            return found.group(1)
        if asyncio.get_running_loop().time() > deadline:
            errlog.seek(0)
            raise AssertionError(f"the server announced no spectator URL: {errlog.read()!r}")
        await asyncio.sleep(0.05)


def http(method: str, url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One blocking HTTP request; (status, lower-cased headers, body) for every status."""
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


class ThreadedAgent:
    """An MCP client of a watched server, for synchronous tests (Playwright's
    sync API): one task in a thread of its own holds the client session
    (anyio wants it entered and left by the same task) and runs the calls
    it is handed, one at a time, in order.

        agent = ThreadedAgent(state_dir); frame = agent.call("help"); agent.close()
    """

    def __init__(self, state_dir: Path, *args: str) -> None:
        import concurrent.futures
        import threading

        self._futures = concurrent.futures
        self.loop = asyncio.new_event_loop()
        self._ready: concurrent.futures.Future[str] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self.loop.run_until_complete, args=(self._main(state_dir, args),), daemon=True
        )
        self._thread.start()
        self.base = self._ready.result(timeout=60)

    async def _main(self, state_dir: Path, args: tuple[str, ...]) -> None:
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        try:
            async with watched_server(state_dir, *args) as (session, base):
                self._ready.set_result(base)
                while (item := await self._queue.get()) is not None:
                    tool, arguments, future = item
                    try:
                        future.set_result(await session.call_tool(tool, arguments))
                    except Exception as exc:
                        future.set_exception(exc)
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """One tool call; its structured frame."""
        future: Any = self._futures.Future()
        self.loop.call_soon_threadsafe(self._queue.put_nowait, (tool, arguments, future))
        return future.result(timeout=60).structured_content

    def close(self) -> None:
        """End the client session and the server. Idempotent."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._queue.put_nowait, None)
            self._thread.join(timeout=30)
