"""engine_client.py - a synchronous NDJSON client for the semantic driver.

Every engine test talks to the REAL driver: the native build
(build/native/nhdriver) or one of the two WebAssembly builds run under Node
(node scripts/wasm-driver.mjs --build jspi|asyncify). All speak one JSON
request per line on stdin and one JSON response per line on stdout
(support/wasm_builds.py: where the WASM builds are, the Node that runs them).

WASM tests carry the `wasm` marker. When the WASM build is missing they FAIL
with a message saying how to build it (CI always builds it); deselect them
deliberately with `-m "not wasm"` while the build is unavailable.

(A uniquely named module rather than conftest.py, so `import` can never pick
up another directory's conftest.)
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
from support.wasm_builds import JSPI_FLAG, WASM_BUILDS, WASM_ENGINE, WASM_SCRIPT, node24, wasm_command  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
NATIVE_DRIVER = ROOT / "build" / "native" / "nhdriver"
DRIVER_SOURCES = ROOT / "wasm" / "driver"

CREATED_AT = 1700000000
RESPONSE_TIMEOUT = 60.0  # seconds for one response; the engine answers in ms


class DriverError(AssertionError):
    """The driver process misbehaved at the transport level (no line, exit, bad JSON)."""


def native_command() -> list[str]:
    if not os.access(NATIVE_DRIVER, os.X_OK):
        pytest.fail(
            f"native driver missing at {NATIVE_DRIVER}; build it with "
            "`make -f wasm/engine.mk TARGET=native -j2` from the repository root"
        )
    return [str(NATIVE_DRIVER)]


def build_staleness_note() -> str:
    """A hint for divergence failures: which builds are older than the driver sources."""
    sources = [p.stat().st_mtime for p in DRIVER_SOURCES.glob("*.[ch]")]
    if not sources:
        return ""
    newest = max(sources)
    builds = [NATIVE_DRIVER] + [WASM_ENGINE / build / "nethack.wasm" for build in WASM_BUILDS]
    stale = [str(path.relative_to(ROOT)) for path in builds if path.exists() and path.stat().st_mtime < newest]
    return f"note: {', '.join(stale)} older than wasm/driver sources; rebuild both (./scripts/build)" if stale else ""


def driver_command(kind: str) -> list[str]:
    """`native`, or `wasm-jspi` / `wasm-asyncify`; plain `wasm` is the JSPI
    build, the one a browser with JSPI runs (the suites that compare every
    build use WASM_KINDS)."""
    if kind == "native":
        return native_command()
    if kind == "wasm":
        kind = "wasm-jspi"
    if kind.startswith("wasm-") and kind[5:] in WASM_BUILDS:
        return wasm_command(kind[5:])
    raise ValueError(kind)


WASM_KINDS = [f"wasm-{build}" for build in WASM_BUILDS]


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


def assert_rejected_without_effect(game: Game, response: dict, code: str) -> dict:
    """The response is a typed error `code`, and a following session.observe shows
    the same revision, turn, position and standing decision as before the request.
    Returns the observe response."""
    assert "error" in response, f"expected error {code}, got a state response: {str(response)[:400]}"
    assert response["error"]["code"] == code, response["error"]
    assert response["version"] == 1
    before = game.last
    after = game.observe()
    assert after["revision"] == game.revision == before["revision"]
    assert after["observation"]["turn"] == before["observation"]["turn"]
    assert after["observation"]["position"] == before["observation"]["position"]
    assert after["decision"] == before["decision"], "a rejected request changed the standing decision"
    return after


def create_request(session_id: str, seed: int, **extra: Any) -> dict:
    params = {"seed": seed, "name": "Ada", "createdAt": CREATED_AT, "sessionId": session_id}
    params.update(extra)
    return {"version": 1, "method": "session.create", "params": params}


def start_game(client: DriverClient, seed: int = 42, session_id: str = "test-1", **extra: Any) -> Game:
    created = client.request(create_request(session_id, seed, **extra))
    assert "error" not in created, created
    assert created["outcome"]["action"] == "create"
    return Game(client, session_id, created)
