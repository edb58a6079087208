"""service_instance.py - real HTTP service instances (`python -m nethack_webmcp.mcp --http`) and
an agent that talks to them through the MCP SDK's Streamable-HTTP client.

    with Instance.start(store_url, state_dir) as a:      # a subprocess on a free loopback port
        async with Agent(a.mcp_url) as agent:            # mode="auto": 2026-07-28, found by server/discover
            frame = await agent.call("session", {"action": "create", "seed": 7})

`Agent(url, mode="legacy")` speaks the 2025-11-25 handshake era instead.

Used by tests/service and scripts/bench-service.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

REPOSITORY = Path(__file__).resolve().parents[2]
ANNOUNCED = re.compile(r"MCP over HTTP at (http://\S+)/mcp")


class Instance:
    """One server process; its stderr is kept (tests check no token is ever logged)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.stderr: list[str] = []
        self.url = ""
        self._announced = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)
            found = ANNOUNCED.search(line)
            if found and not self._announced.is_set():
                self.url = found.group(1)
                self._announced.set()
        self._announced.set()

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return "".join(self.stderr)

    @classmethod
    @contextmanager
    def start(
        cls, store_url: str | None, state_dir: Path, *extra: str, env: dict[str, str] | None = None
    ) -> Iterator[Instance]:
        command = [sys.executable, "-m", "nethack_webmcp.mcp", "--http", "127.0.0.1:0", *extra]
        if store_url is not None:
            command += ["--store", store_url]
        environment = {**os.environ, "NNH_STATE_DIR": str(state_dir), "PYTHONUNBUFFERED": "1", **(env or {})}
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            cwd=REPOSITORY,
        )
        instance = cls(process)
        try:
            if not instance._announced.wait(60) or not instance.url:
                raise RuntimeError(f"the service did not start:\n{instance.log()}")
            yield instance
        finally:
            instance.stop()

    def kill(self) -> None:
        """SIGKILL: the instance dies mid-game, with no chance to clean up."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reader.join(5)

    def cpu_seconds(self) -> float:
        """User + system CPU time so far of the instance and its engines (Linux /proc): the
        server process, its reaped children, and its live descendants."""

        def stat(pid: int | str) -> list[str]:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

        own = stat(self.pid)
        ticks = sum(int(own[index]) for index in (11, 12, 13, 14))  # utime stime cutime cstime
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    parents[int(entry.name)] = int(stat(entry.name)[1])
                except (OSError, IndexError, ValueError):
                    continue
        family = {self.pid}
        changed = True
        while changed:
            changed = False
            for pid, parent in parents.items():
                if parent in family and pid not in family:
                    family.add(pid)
                    changed = True
        for pid in family - {self.pid}:
            try:
                fields = stat(pid)
                ticks += int(fields[11]) + int(fields[12])
            except (OSError, IndexError, ValueError):
                continue
        return ticks / os.sysconf("SC_CLK_TCK")


class Agent:
    """An MCP client over Streamable HTTP (the SDK's own client), in the protocol era `mode` picks."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, mode: str = "auto") -> None:
        self.url = url
        self.headers = headers
        self.mode = mode
        self._stack = AsyncExitStack()
        self.client: Client | None = None

    async def __aenter__(self) -> Self:
        http = await self._stack.enter_async_context(httpx2.AsyncClient(headers=self.headers, timeout=120))
        transport = streamable_http_client(self.url, http_client=http)
        self.client = await self._stack.enter_async_context(Client(transport, mode=self.mode))
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    @property
    def protocol_version(self) -> str:
        assert self.client is not None
        return self.client.protocol_version

    async def listed(self) -> list[dict[str, Any]]:
        """tools/list as the wire carried it (camelCase JSON objects)."""
        assert self.client is not None
        return [tool.model_dump(by_alias=True, exclude_none=True) for tool in (await self.client.list_tools()).tools]

    async def tools(self) -> list[str]:
        return [tool["name"] for tool in await self.listed()]

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The frame (structuredContent) of one call; `isError` and the rendered `text` added."""
        assert self.client is not None
        result = await self.client.call_tool(name, arguments)
        frame = dict(result.structured_content or {})
        frame["isError"] = bool(result.is_error)
        frame["text"] = "".join(getattr(block, "text", "") for block in result.content)
        return frame

    async def close_created(self, created: dict[str, Any]) -> dict[str, Any]:
        """Close the game a `session create` frame made, with the token only that frame carries."""
        return await self.call(
            "session",
            {
                "action": "close",
                "sessionId": created["basis"]["sessionId"],
                "controlToken": created["result"]["controlToken"],
            },
        )


def wait_until(predicate: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())
