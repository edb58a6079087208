"""driver.py - the one client of the semantic driver for every test that speaks its protocol.

A synchronous NDJSON client: one JSON request per line on stdin, one JSON
response per line on stdout, from the REAL driver - the native build
(build/native/nhdriver) or a WebAssembly build run under Node (the command
comes from the caller: tests/engine/engine_client.py knows the builds).
`Game` keeps a created game's request bookkeeping (sessionId, revision,
request IDs). The engine, navigation, fuzz and Python tests all use these;
CREATED_AT is the one fixed creation time their games start at.

It imports nothing of the package, so the engine and navigation tests stay
importable on their own.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NATIVE_DRIVER = ROOT / "build" / "native" / "nhdriver"

#: the creation time every test game starts at (the clock is part of a game's determinism)
CREATED_AT = 1700000000
RESPONSE_TIMEOUT = 60.0  # seconds for one response; the engine answers in ms


def driver_available() -> bool:
    """True when the native driver binary is built and executable."""
    return os.access(NATIVE_DRIVER, os.X_OK)


class DriverError(AssertionError):
    """The driver process misbehaved at the transport level (no line, exit, bad JSON)."""


def native_command() -> list[str]:
    """The native driver's command line; the test fails when it is not built."""
    if not driver_available():
        pytest.fail(
            f"native driver missing at {NATIVE_DRIVER}; build it with "
            "`make -f wasm/engine.mk TARGET=native -j2` from the repository root"
        )
    return [str(NATIVE_DRIVER)]


def dumps(obj: Any) -> str:
    """The canonical compact encoding every test uses for requests."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class DriverClient:
    """One driver process; send a request, read exactly one response line.

    send(dict) and send_raw(bytes) both return (raw_line, parsed), where raw_line
    is the response text without its trailing newline and parsed is the decoded
    JSON. Every raw line read is also kept in `transcript` (as bytes).
    """

    def __init__(self, command: list[str], timeout: float = RESPONSE_TIMEOUT):
        self.command = command
        self.timeout = timeout
        self.transcript: list[bytes] = []
        self._buffer = b""
        # stderr goes to a file, never a pipe nobody drains (a full pipe would block the driver)
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115  (lives as long as the driver; close() closes it)
        self.proc = subprocess.Popen(
            command,
            cwd=str(ROOT),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            bufsize=0,
        )

    # -- transport ---------------------------------------------------------

    def _read_line(self) -> bytes:
        deadline = time.monotonic() + self.timeout
        assert self.proc.stdout is not None  # Popen(stdout=PIPE)
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DriverError(
                    f"no response within {self.timeout}s from {self.command}; stderr: {self._stderr_tail()}"
                )
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise DriverError(f"driver closed stdout (exit code {self.proc.poll()}); stderr: {self._stderr_tail()}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            return self._stderr.read()[-2000:].decode("utf-8", "replace") or "(empty)"
        except Exception:  # pragma: no cover - diagnostics only
            return "(unreadable)"

    def stderr_text(self) -> str:
        """Everything the driver wrote to stderr so far (sanitizer reports, diagnostics)."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def send_raw(self, data: bytes) -> tuple[str, dict]:
        """Write one frame of raw bytes (a newline is appended) and read one response."""
        assert b"\n" not in data, "a frame is one line"
        assert self.proc.stdin is not None  # Popen(stdin=PIPE)
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise DriverError(f"driver stdin closed: {self._stderr_tail()}") from exc
        line = self._read_line()
        self.transcript.append(line)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DriverError(f"response is not UTF-8: {line[:200]!r}") from exc
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DriverError(f"response is not JSON: {text[:300]}") from exc
        return text, parsed

    def send(self, request: dict) -> tuple[str, dict]:
        return self.send_raw(dumps(request).encode("utf-8"))

    def request(self, request: dict) -> dict:
        return self.send(request)[1]

    def close(self) -> None:
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except Exception:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for stream in (self.proc.stdout, self.proc.stdin, self._stderr):
            try:
                if stream:
                    stream.close()
            except Exception:
                pass

    def __enter__(self) -> DriverClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Game:
    """A created session with request bookkeeping (sessionId, revision, request IDs).

    Gameplay helpers send the current revision; `last` is the last full state
    response (one carrying an observation) the game received.
    """

    def __init__(self, client: DriverClient, session_id: str, created: dict):
        self.client = client
        self.session_id = session_id
        self.last = created
        self.revision = created["revision"]
        self._counter = 0

    def next_request_id(self) -> str:
        self._counter += 1
        return f"r{self._counter}"

    def call(self, method: str, **params: Any) -> dict:
        """Send a gameplay/continuation request at the current revision."""
        body = {
            "sessionId": self.session_id,
            "requestId": self.next_request_id(),
            "expectedRevision": self.revision,
            **params,
        }
        response = self.client.request({"version": 1, "method": method, "params": body})
        if "error" not in response:
            self.revision = response["revision"]
            self.last = response
        return response

    def ok(self, method: str, **params: Any) -> dict:
        response = self.call(method, **params)
        assert "error" not in response, f"{method} {params} failed: {response.get('error')}"
        return response

    def answer(self, decision: dict, answer: dict) -> dict:
        return self.ok("decision.answer", decisionId=decision["id"], answer=answer)

    def cancel(self, decision: dict) -> dict:
        return self.ok("decision.cancel", decisionId=decision["id"])

    def observe(self) -> dict:
        response = self.client.request(
            {"version": 1, "method": "session.observe", "params": {"sessionId": self.session_id}}
        )
        assert "error" not in response, response
        return response

    def wizard(self, command: str) -> dict:
        return self.ok("debug.wizard", command=command)


def create_request(session_id: str, seed: int, *, name: str | None = "Ada", **extra: Any) -> dict:
    """A session.create request at the fixed creation time (`name` None: the driver's default name)."""
    params: dict[str, Any] = {"seed": seed, "createdAt": CREATED_AT, "sessionId": session_id}
    if name is not None:
        params["name"] = name
    params.update(extra)
    return {"version": 1, "method": "session.create", "params": params}


def start_game(
    client: DriverClient, seed: int = 42, session_id: str = "test-1", *, name: str | None = "Ada", **extra: Any
) -> Game:
    created = client.request(create_request(session_id, seed, name=name, **extra))
    assert "error" not in created, created
    assert created["outcome"]["action"] == "create"
    return Game(client, session_id, created)
