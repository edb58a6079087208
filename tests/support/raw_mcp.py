"""raw_mcp.py - MCP clients that keep every byte the server sent, for secrecy tests.

    async with RawStdio.start(state_dir) as agent:        # python -m nethack_webmcp.mcp (+ spectator)
        frame = await agent.call("session", {"action": "create"})
        agent.received                                    # every stdout byte, every stderr byte
    async with RawHttp(mcp_url) as agent:                 # the HTTP service's /mcp, JSON-RPC by hand
        ...

Plain JSON-RPC written by hand (no MCP SDK between the server and the
bytes searched), so nothing the server sends is parsed away unseen:
responses, notifications, headers, stderr. `Spectator` fetches every
route of the spectator (pages, assets, /api/*, event streams) and keeps
what it got the same way. `call` returns the frame (structuredContent)
with the text content as "text" and `isError`. `MCP_HEADERS` and
`initialize_request` are the pieces of a hand-written HTTP exchange the
edge tests post themselves.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = "2025-06-18"
ANNOUNCED = re.compile(rb"watch the games at (http://\S+?)/?\n")
#: what a Streamable-HTTP MCP client posts with
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def initialize_request(client: str) -> dict[str, Any]:
    """A handshake-era `initialize` (protocol PROTOCOL) from a client named `client`."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": client, "version": "1"}},
    }


def _frame(message: dict[str, Any]) -> dict[str, Any]:
    result = message.get("result") or {}
    frame = dict(result.get("structuredContent") or {})
    frame["isError"] = bool(result.get("isError")) or "error" in message
    frame["text"] = "".join(block.get("text", "") for block in result.get("content") or ())
    return frame


class RawStdio:
    """The stdio server as a subprocess; its stdout and stderr are kept whole."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.spectator = ""
        self._next = 0
        self._messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._readers = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr())]

    @classmethod
    def start(cls, state_dir: Path, *args: str) -> _Starting:
        return _Starting(state_dir, args)

    @property
    def received(self) -> bytes:
        return bytes(self.stdout) + b"\n" + bytes(self.stderr)

    async def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.stdout += line
            with suppress(json.JSONDecodeError):
                self._messages.put_nowait(json.loads(line))

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while chunk := await self.process.stderr.read(4096):
            self.stderr += chunk
            found = ANNOUNCED.search(bytes(self.stderr))
            if found and not self.spectator:
                self.spectator = found.group(1).decode()

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        await self.process.stdin.drain()

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        await self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        while True:
            async with asyncio.timeout(120):
                message = await self._messages.get()
            if message.get("id") == self._next:
                return message

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return _frame(await self.request("tools/call", {"name": name, "arguments": arguments}))

    async def initialize(self) -> None:
        await self.request(
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await self.request("tools/list", {})

    async def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            async with asyncio.timeout(20):
                await self.process.wait()
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        for reader in self._readers:
            with suppress(asyncio.CancelledError):
                await reader


class _Starting:
    def __init__(self, state_dir: Path, args: tuple[str, ...]) -> None:
        self.state_dir, self.args = state_dir, args
        self.client: RawStdio | None = None

    async def __aenter__(self) -> RawStdio:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "nethack_webmcp.mcp",
            "--spectator-port",
            "0",
            *self.args,
            cwd=ROOT,
            env={**os.environ, "NNH_STATE_DIR": str(self.state_dir)},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=1 << 24,  # one JSON-RPC message per line, however long
        )
        self.client = RawStdio(process)
        await self.client.initialize()
        for _ in range(400):
            if self.client.spectator:
                break
            await asyncio.sleep(0.05)
        assert self.client.spectator, bytes(self.client.stderr)
        return self.client

    async def __aexit__(self, *_: object) -> None:
        assert self.client is not None
        await self.client.stop()


class RawHttp:
    """JSON-RPC posted to the HTTP service's /mcp; every response kept with its headers."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.received = bytearray()
        self._next = 0
        self._http = httpx.AsyncClient(timeout=120)

    async def __aenter__(self) -> Self:
        await self.request(
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        await self.request("tools/list", {})
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self._http.aclose()

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        response = await self._http.post(
            self.url,
            json={"jsonrpc": "2.0", "id": self._next, "method": method, "params": params},
            headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL},
        )
        self.received += keep(response)
        body = response.content
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            data = [line[5:].strip() for line in body.splitlines() if line.startswith(b"data:")]
            messages = [json.loads(item) for item in data if item]
            return next(message for message in messages if message.get("id") == self._next)
        message: dict[str, Any] = response.json()
        return message

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return _frame(await self.request("tools/call", {"name": name, "arguments": arguments}))


def head(response: httpx.Response) -> bytes:
    """A response's status and headers as received."""
    lines = f"{response.status_code}\n" + "".join(f"{key}: {value}\n" for key, value in response.headers.items())
    return lines.encode() + b"\n"


def keep(response: httpx.Response) -> bytes:
    """A response as received: status line, headers and body."""
    return head(response) + response.content + b"\n"


class Spectator:
    """Every spectator route of one server, fetched the way a browser would; the bytes kept."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.received = bytearray()

    async def get(self, http: httpx.AsyncClient, path: str, method: str = "GET", **headers: str) -> httpx.Response:
        response = await http.request(method, self.base + path, headers=headers)
        self.received += f"{method} {path}\n".encode() + keep(response)
        return response

    async def stream(self, http: httpx.AsyncClient, path: str, seconds: float) -> bytes:
        """An event stream's bytes for `seconds` (a long-lived stream is cut, as a tab closing would)."""
        got = bytearray()
        with suppress(TimeoutError):
            async with asyncio.timeout(seconds), http.stream("GET", self.base + path) as response:
                got += head(response)
                async for chunk in response.aiter_raw():
                    got += chunk
        self.received += f"STREAM {path}\n".encode() + got
        return bytes(got)

    async def everything(self, games: list[str], *extra: str) -> None:
        """Every route once (HEAD too), each game's state with and without its ETag,
        the page's assets, unknown games and paths, and `extra` paths."""
        async with httpx.AsyncClient(timeout=30) as http:
            page = await self.get(http, "/")
            paths = ["/health", "/api/recent", "/g/no-such-game", "/api/games/no-such-game/state", "/nope", *extra]
            paths += re.findall(r'(?:src|href)="(/assets/[^"]+)"', page.text)
            for game in games:
                paths += [f"/g/{game}", f"/api/games/{game}/state", f"/api/games/{game}/events"]
            for path in paths:
                if path.endswith("/events"):
                    await self.stream(http, path, 1.0)
                else:
                    response = await self.get(http, path)
                    if "etag" in response.headers:
                        await self.get(http, path, **{"If-None-Match": response.headers["etag"]})
                await self.get(http, path, "HEAD")
