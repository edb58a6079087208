"""service.py - the HTTP service a run plays on: a private local instance, or one given by --server.

The local instance is `python -m nethack_webmcp.mcp --http 127.0.0.1:0` (the
public entry point) with its own state directory, so the run's games, their
journals and records are in a SQLite database only the harness reads. Its
limits are sized for the run: every game is created by the harness from
loopback, so the per-client limit is the number of games played at once.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

ANNOUNCED = re.compile(r"MCP over HTTP at (http://\S+)/mcp")
START_TIMEOUT_S = 60


class LocalService:
    def __init__(self, state_dir: Path, jobs: int) -> None:
        self.state_dir = state_dir
        self.jobs = jobs
        self.url = ""
        self._process: asyncio.subprocess.Process | None = None
        self._log: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"

    async def start(self) -> None:
        slots = str(self.jobs + 1)  # the games being played, and one being ended or created
        command = [sys.executable, "-m", "nethack_webmcp.mcp", "--http", "127.0.0.1:0", "--max-games", slots,
                   "--games-per-client", slots, "--idle-timeout", "3600"]  # fmt: skip
        environment = {**os.environ, "NNH_STATE_DIR": str(self.state_dir), "PYTHONUNBUFFERED": "1"}
        self._process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        announced: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(announced))
        try:
            async with asyncio.timeout(START_TIMEOUT_S):
                self.url = await announced
        except (TimeoutError, asyncio.CancelledError, RuntimeError):
            await self.stop()
            raise RuntimeError("the local service did not start:\n" + "".join(self._log)) from None

    async def _read(self, announced: asyncio.Future[str]) -> None:
        assert self._process is not None and self._process.stderr is not None
        async for raw in self._process.stderr:
            line = raw.decode("utf-8", "replace")
            self._log.append(line)
            del self._log[:-200]  # the tail is what a failure report needs
            found = ANNOUNCED.search(line)
            if found and not announced.done():
                announced.set_result(found.group(1))
        if not announced.done():
            announced.set_exception(RuntimeError("the service exited"))

    async def stop(self) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.terminate()
            try:
                async with asyncio.timeout(15):
                    await self._process.wait()
            except TimeoutError:
                self._process.kill()
                await self._process.wait()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.wait([self._reader])  # (a cancel of this task still propagates)
