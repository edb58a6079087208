"""durable_support.py - helpers for the durability tests (real native engine, real SQLite).

The tool client itself is tests/support/client.py (shared with tests/python).

Nothing here mocks the engine or the store: `FaultyStore` wraps a real
SqliteStore and only injects failures (or a crash hook) at chosen writes.
(A uniquely named module rather than conftest.py, so `import` never picks
up another directory's helpers.)
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from nethack_webmcp.store import Store, StoreError
from support.client import CREATED_AT, ROOT, Client, bound
from support.processes import drivers  # noqa: F401  (re-exported for the tests)
from support.registries import registry
from support.twin import SCRIPT as TWIN_SCRIPT

PYTHON = sys.executable


def standing(frame: dict[str, Any]) -> dict[str, Any] | None:
    decision = frame.get("decision")
    return None if decision is None else {key: decision.get(key) for key in ("id", "kind", "prompt")}


# ---- a store that fails (or crashes) at chosen writes ------------------------------------

WRITES = ("create_session", "update_session", "reserve", "complete", "put_receipt", "put_record", "import_game")


class FaultyStore(Store):
    """Delegates to a real store; write number N (1-based, counted over all
    writes) in `fail_on` raises StoreError instead of writing, and `fail(name)`
    arms the next write of that kind. `after_reserve` runs after a successful
    reservation (the crash hook)."""

    def __init__(
        self,
        inner: Store,
        *,
        fail_on: set[int] | None = None,
        after_reserve: Callable[[dict[str, Any]], Awaitable[None] | None] | None = None,
    ) -> None:
        self.inner = inner
        self.durability = inner.durability
        self.fail_on = set(fail_on or ())
        self.armed: dict[str, int] = {}
        self.writes = 0
        self.failures: list[str] = []
        self.after_reserve = after_reserve
        self.broken = False  # every write fails while True
        self.fail_ending = False  # fail the receipt of the input that ends the game, once

    def fail(self, name: str, times: int = 1) -> None:
        self.armed[name] = self.armed.get(name, 0) + times

    async def _write(self, name: str, call: Callable[[], Awaitable[Any]]) -> Any:
        self.writes += 1
        if self.broken or self.writes in self.fail_on or self.armed.get(name, 0) > 0:
            if self.armed.get(name, 0) > 0:
                self.armed[name] -= 1
            self.failures.append(name)
            raise StoreError(f"injected failure of write {self.writes} ({name})")
        return await call()

    async def create_session(self, info):
        return await self._write("create_session", lambda: self.inner.create_session(info))

    async def get_session(self, session_id):
        return await self.inner.get_session(session_id)

    async def list_sessions(self):
        return await self.inner.list_sessions()

    async def update_session(self, session_id, fields):
        return await self._write("update_session", lambda: self.inner.update_session(session_id, fields))

    async def reserve(self, entry):
        result = await self._write("reserve", lambda: self.inner.reserve(entry))
        if self.after_reserve is not None:
            hooked = self.after_reserve(entry)
            if hooked is not None:
                await hooked
        return result

    async def complete(self, session_id, seq, **kwargs):
        if self.fail_ending and (kwargs.get("receipt") or {}).get("ended"):
            self.fail_ending = False
            self.fail("complete")
        return await self._write("complete", lambda: self.inner.complete(session_id, seq, **kwargs))

    async def journal(self, session_id, after_seq=0):
        return await self.inner.journal(session_id, after_seq)

    async def operation_entries(self, session_id, operation_id):
        return await self.inner.operation_entries(session_id, operation_id)

    async def get_receipt(self, session_id, request_id):
        return await self.inner.get_receipt(session_id, request_id)

    async def put_receipt(self, receipt):
        return await self._write("put_receipt", lambda: self.inner.put_receipt(receipt))

    async def receipts(self, session_id):
        return await self.inner.receipts(session_id)

    async def put_record(self, record):
        return await self._write("put_record", lambda: self.inner.put_record(record))

    async def get_record(self, session_id):
        return await self.inner.get_record(session_id)

    async def recent_records(self, limit=10):
        return await self.inner.recent_records(limit)

    async def import_game(self, info, entries, receipts, record):
        return await self._write("import_game", lambda: self.inner.import_game(info, entries, receipts, record))

    async def close(self) -> None:
        await self.inner.close()


# ---- the MCP server as a real subprocess ----------------------------------------------------


class StdioServer:
    """`python -m nethack_webmcp.mcp` in its own process, spoken to over
    newline-delimited JSON-RPC (so the test can SIGKILL it)."""

    def __init__(self, state_dir: Path, timeout: float = 60.0) -> None:
        env = {**os.environ, "NNH_STATE_DIR": str(state_dir)}
        self.process = subprocess.Popen(
            [PYTHON, "-m", "nethack_webmcp.mcp"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.timeout = timeout
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._ids = 0
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._drain, daemon=True).start()
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "durability-test", "version": "0"},
            },
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr.append(line)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        self._send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params})
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if not line:
                raise AssertionError(
                    "the MCP server closed its output; stderr: "
                    + b"".join(self._stderr).decode(errors="replace")[-2000:]
                )
            message = json.loads(line)
            if message.get("id") == self._ids:
                assert "error" not in message, message["error"]
                return message["result"]

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        return result["structuredContent"]

    def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        frame = self.call(tool, **arguments)
        assert "error" not in frame, frame.get("error")
        return frame

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def wait_until(predicate: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


# ---- a fixed input script, for twin comparisons ------------------------------------------------

SCRIPT = TWIN_SCRIPT  # tests/support/twin.py, shared with the browser crash tests
TWIN_PARAMS = {"seed": 42, "name": "Ada", "createdAt": CREATED_AT, "sessionId": "twin-game"}


async def apply_input(
    client: Client, frame: dict[str, Any], step: tuple[str, dict[str, Any]], request_id: str | None = None
) -> dict[str, Any]:
    tool, arguments = step
    extra = {"requestId": request_id} if request_id else {}
    if tool == "respond":
        return await client.call("respond", **frame["decision"]["reply"]["arguments"], **arguments, **extra)
    return await client.call(tool, **bound(frame), **arguments, **extra)


async def twin_hash(directory: Path) -> tuple[str, int]:
    """Play SCRIPT uninterrupted on a fresh game; (state hash, revision)."""
    client = Client(registry(directory))
    try:
        session = await client.games.create(dict(TWIN_PARAMS))
        frame = await client.ok("observe", sessionId=session.session_id)
        for step in SCRIPT:
            frame = await apply_input(client, frame, step)
            assert "error" not in frame, frame["error"]
        observed = await client.ok("observe", sessionId=session.session_id)
        return observed["result"]["stateHash"], observed["basis"]["revision"]
    finally:
        await client.close()
