"""forks.py - a forkable native driver: each paused fork is an exact checkpoint.

A driver started with NNH_FORKABLE=1 takes the transport line
`#fork <socket> <token>` between requests (wasm/driver/io_native.c): it
forks at that input boundary, and the child copies the game directory,
connects to our Unix socket and serves requests on it. A child left waiting
for its next request is a checkpoint of everything the next input depends
on - the whole process memory and its own game directory - restored exactly
by forking it again (copy-on-write: a fork costs page tables, not a copy).

Only replay engines are started forkable; a live game's driver never is, so
no request path of a live game can fork it.
"""

from __future__ import annotations

import asyncio
import collections
import os
import secrets
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..engine import rundirs
from ..engine.codec import decode, encode
from ..engine.native import LINE_LIMIT, driver_path
from .errors import ReplayRefused

FORK_TIMEOUT = 10.0  # seconds for a child to connect back


class Connection:
    """One NDJSON conversation with a driver process (the first one over
    pipes, each fork over its socket)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pid: int, hub: ForkHub) -> None:
        self.reader, self.writer, self.pid, self._hub = reader, writer, pid, hub

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.writer.write(encode(message).encode("utf-8") + b"\n")
        await self.writer.drain()
        return await self._read()

    async def _read(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise ReplayRefused("engineFailed", f"the replay engine (pid {self.pid}) exited")
        return decode(line)

    async def pipeline(
        self, requests: Sequence[dict[str, Any]], check: Callable[[int, dict[str, Any]], None], window: int = 64
    ) -> None:
        """Send every request with up to `window` in flight; `check` sees
        each response in order (and may raise to stop)."""
        sent = 0
        for index in range(len(requests)):
            while sent < len(requests) and sent - index < window:
                self.writer.write(encode(requests[sent]).encode("utf-8") + b"\n")
                sent += 1
            await self.writer.drain()
            check(index, await self._read())

    async def fork(self) -> Connection:
        """A new process at this connection's current boundary; this one is
        left exactly where it was (call it only with nothing in flight)."""
        return await self._hub.fork(self)

    def close(self) -> None:
        # EOF on its input ends a driver; its game directory goes with it.
        self.writer.close()


class ForkHub:
    """The Unix socket forks connect back to, and the first driver."""

    def __init__(self) -> None:
        self._directory = Path(tempfile.mkdtemp(prefix="nnh-replay-"))
        self._socket = str(self._directory / "forks.sock")
        self._waiting: dict[str, asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter, int]]] = {}
        self._order: collections.deque[str] = collections.deque()
        self._server: asyncio.AbstractServer | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._rundir: Path | None = None

    async def start(self) -> Connection:
        """Start the socket and a fresh forkable driver; its connection."""
        self._server = await asyncio.start_unix_server(self._accept, path=self._socket, limit=LINE_LIMIT)
        executable = driver_path()
        if not os.access(executable, os.X_OK):
            raise ReplayRefused("engineFailed", f"native driver not found at {executable}; run ./scripts/build")
        self._rundir = rundirs.make()
        self._process = await asyncio.create_subprocess_exec(
            str(executable),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=LINE_LIMIT,
            env={**os.environ, "TMPDIR": str(self._rundir), "NNH_FORKABLE": "1"},
        )
        assert self._process.stdin is not None and self._process.stdout is not None
        return Connection(self._process.stdout, self._process.stdin, self._process.pid, self)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hello = decode(await reader.readline()).get("forked") or {}
        waiting = self._waiting.get(str(hello.get("token")))
        if waiting is None or waiting.done():
            writer.close()
            return
        waiting.set_result((reader, writer, int(hello["pid"])))

    def fork_line(self) -> bytes:
        """The transport line that forks a driver at its next boundary; the
        answer is collected, in order, by `forked`."""
        token = secrets.token_hex(8)
        self._waiting[token] = asyncio.get_running_loop().create_future()
        self._order.append(token)
        return f"#fork {self._socket} {token}\n".encode()

    async def forked(self, parent: Connection) -> Connection:
        """Read the parent's answer to its oldest fork line; the child."""
        token = self._order.popleft()
        answer = (await parent._read()).get("fork") or {}
        if "pid" not in answer:
            self._waiting.pop(token, None)
            raise ReplayRefused("engineFailed", f"the replay engine could not fork: {answer.get('error')}")
        try:
            async with asyncio.timeout(FORK_TIMEOUT):
                reader, writer, pid = await self._waiting[token]
        except TimeoutError as exc:
            raise ReplayRefused("engineFailed", "a replay checkpoint never connected back") from exc
        finally:
            self._waiting.pop(token, None)
        return Connection(reader, writer, pid, self)

    async def fork(self, parent: Connection) -> Connection:
        parent.writer.write(self.fork_line())
        await parent.writer.drain()
        return await self.forked(parent)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                async with asyncio.timeout(5):
                    await self._process.wait()
            except TimeoutError:
                self._process.kill()
                await self._process.wait()
        if self._rundir is not None:
            rundirs.remove(self._rundir)
        for leftover in self._directory.iterdir():
            leftover.unlink(missing_ok=True)
        self._directory.rmdir()
