"""catch_up_process.py - the host's side of the catch-up process (catch_up_worker.py).

One child process per checkpointer, started at its first catch-up, fed one
request at a time on its stdin. The host awaits the answer without holding
its event loop, so live calls go on while a catch-up runs. A child that
dies is started again at the next catch-up; one alive at the host's exit is
killed and reaped (engine/native.py's sweep covers every child it lists).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..engine.native import _live
from ..engine.wasm_node import CATCH_UP_NODE_FLAGS
from ..store import Store, StoreError

CATCH_UP_TIMEOUT = 600.0  # a 50k-input game's first catch-up under load takes minutes, not hours


def store_locator(store: Store) -> str | None:
    """How another process opens this store: sqlite:PATH, a PostgreSQL URL, or None (only here)."""
    from ..store.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        return f"sqlite:{store.path}"
    # a PostgresStore (not imported: a host without psycopg has none)
    conninfo = getattr(store, "conninfo", None)
    return conninfo if isinstance(conninfo, str) and store.durability == "postgresql-commit" else None


class CatchUpProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 1
        self.lock = asyncio.Lock()
        self.busy = False  # a request sent and its answer not read (also after a cancelled wait)

    @classmethod
    async def start(cls, locator: str) -> CatchUpProcess:
        # the package as this process imports it (a script may have put it on sys.path itself)
        package_root = str(Path(__file__).resolve().parents[2])
        paths = [package_root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "nethack_webmcp.replay.catch_up_worker",
                "--store",
                locator,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                # (NNH_NODE_FLAGS, when set, is for every engine)
                env={"NNH_NODE_FLAGS": CATCH_UP_NODE_FLAGS, **os.environ, "PYTHONPATH": os.pathsep.join(paths)},
            )
        except OSError as exc:
            raise StoreError(f"cannot start the catch-up process: {exc}") from exc
        _live[process.pid] = process
        return cls(process)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def catch_up(self, session_id: str, given: tuple[int, bytes] | None = None) -> dict[str, Any]:
        """The worker's answer for one catch-up of the game (catch_up_worker.py), with the live
        session's navigation memory at journal entry given[0] when given."""
        async with self.lock:
            request: dict[str, Any] = {"id": self.next_id, "catchUp": session_id}
            if given is not None:
                request["at"] = {"seq": given[0], "navigation": given[1].decode("utf-8")}
            self.next_id += 1
            assert self.process.stdin is not None and self.process.stdout is not None
            self.busy = True
            try:
                self.process.stdin.write((json.dumps(request) + "\n").encode())
                await self.process.stdin.drain()
                async with asyncio.timeout(CATCH_UP_TIMEOUT):
                    line = await self.process.stdout.readline()
            except (OSError, TimeoutError) as exc:
                await self.close()
                raise StoreError(f"the catch-up process did not answer: {exc!r}") from exc
            if not line:
                await self.close()
                raise StoreError(f"the catch-up process exited ({self.process.returncode})")
            self.busy = False
            reply: dict[str, Any] = json.loads(line)
            return reply

    async def close(self) -> None:
        """End the process: at once when a catch-up is in flight (it is made again by the
        next checkpointer: a checkpoint is stored whole or not at all), else at its EOF."""
        if self.process.returncode is None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            if self.busy:
                self.process.kill()
            try:
                async with asyncio.timeout(5):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        _live.pop(self.process.pid, None)
