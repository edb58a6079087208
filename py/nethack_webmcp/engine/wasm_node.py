"""wasm_node.py - the WebAssembly engine (Asyncify build) under Node, with checkpoints that outlive a process.

`NodeWasmEngine` runs scripts/wasm-checkpoint-host.mjs: the same NDJSON as
build/native/nhdriver (one request per line, one response per line), plus
transport lines below the protocol that save a checkpoint of the engine at
its current input boundary and start it from one (web/src/worker/
checkpoints.js records: linear memory, the stack pointer, Asyncify's
JS-side state, the in-memory files). Native and WebAssembly play byte for
byte alike (tests/engine/test_determinism.py), so a game replayed or resumed
here is the game the native driver played; this is the native host's
persisted checkpoint format (docs/REPLAY.md, "Why forks, and what is
persisted"). Native only (Node subprocesses), like native.py.

A record is checked by the host when it is restored (its bytes' sha256, the
build and base it was made on, the journal digest it claims) and refused
with a typed `CheckpointRejected` otherwise; the engine is then unchanged.

Startup (Node, compiling the build) costs a few hundred milliseconds, so
`take()` hands out an engine started ahead of time and starts the next one.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .base import Check, Engine, EngineClosed, EngineError, JsonObject
from .codec import decode, encode
from .native import LINE_LIMIT, REPOSITORY, _live

HOST_SCRIPT = REPOSITORY / "scripts" / "wasm-checkpoint-host.mjs"
DEFAULT_BUILDS = REPOSITORY / "web" / "dist" / "engine"
RESPONSE_TIMEOUT = 60.0
STDERR_TAIL = 40


class CheckpointRejected(Exception):
    """A checkpoint record the host would not restore: `code` is
    checkpointTampered (its bytes are not the ones it was made with),
    checkpointStale (another engine build or base) or journalChanged (made
    from another journal); `message` says which move and why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# V8 compiles the whole engine with its optimising tier when the host starts
# instead of tiering up while the first seeks run: a restarted host's first
# seeks then cost what later ones do (docs/BENCHMARKS.md, "After a restart":
# seek p95 100 -> 49 ms at 1k). `--no-liftoff` alone still compiles each
# function lazily, at its first call: a resume's tail on a fresh engine met
# the game's rarer paths and paid 5-10 ms of compilation per input (a
# 55-input tail 477 ms, against 20 ms for a warmed one); compiled eagerly the
# start costs 1-2 s more, at boot or in a spare's background start.
NODE_FLAGS = "--no-liftoff --no-wasm-lazy-compilation"
# The catch-up process's engines (replay/catch_up_process.py) compile eagerly with the baseline
# tier instead: the optimising compile of the whole build takes 6-7 s of wall clock (12 s of CPU)
# on two cores, and a young game played without pause went on for those seconds with no catch-up
# (a kill then replayed 1,100-1,800 inputs). Baseline code is ready in ~0.1 s; its engine runs
# without pause from then on, so V8 tiers its hot functions up in the background. A resume keeps
# NODE_FLAGS: its short tail on a fresh engine runs 3-6x slower on baseline code.
CATCH_UP_NODE_FLAGS = "--no-wasm-lazy-compilation"


def node_executable() -> str:
    """$NNH_NODE, else `node` on PATH. A checkpoint names the base memory of
    the Node it was made under (emcc's startup reads the host), so one
    service should keep to one Node: another one's checkpoints are stale."""
    chosen = os.environ.get("NNH_NODE") or shutil.which("node")
    if not chosen:
        raise EngineError("Node is needed for the WebAssembly engine: put node on PATH or set NNH_NODE")
    return chosen


class NodeWasmEngine(Engine):
    """One Node process hosting one Asyncify instance. Create with `await NodeWasmEngine.start()` or `take()`."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float) -> None:
        super().__init__()
        self._process = process
        self._timeout = timeout
        self._identity: dict[str, Any] | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())

    @classmethod
    async def start(cls, builds: Path | None = None, timeout: float = RESPONSE_TIMEOUT) -> NodeWasmEngine:
        """A host with a fresh instance, ready (its identity read). Raises EngineError when it cannot start."""
        directory = builds or Path(os.environ.get("NNH_WASM_ENGINE", DEFAULT_BUILDS))
        if not (directory / "asyncify" / "nethack.wasm").is_file():
            raise EngineError(f"the Asyncify build is missing in {directory}; run ./scripts/build")
        try:
            process = await asyncio.create_subprocess_exec(
                node_executable(),
                *os.environ.get("NNH_NODE_FLAGS", NODE_FLAGS).split(),
                str(HOST_SCRIPT),
                "--engine",
                str(directory),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT,
            )
        except OSError as exc:
            raise EngineError(f"cannot start the WebAssembly engine under Node: {exc}") from exc
        _live[process.pid] = process  # reaped at exit like a native driver (native._reap_at_exit)
        engine = cls(process, timeout)
        try:
            await engine.identity()
        except BaseException:
            # killed without awaiting anything: a start cancelled at a loop's shutdown (a spare
            # still starting) must not wait on the child; the exit sweep reaps it (_live)
            engine._closed = True
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            engine._stderr_task.cancel()
            raise
        return engine

    @property
    def pid(self) -> int:
        return self._process.pid

    async def _drain_stderr(self) -> None:
        assert self._process.stderr is not None
        while line := await self._process.stderr.readline():
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    def _diagnostics(self) -> str:
        return f" (exit code {self._process.returncode}; stderr: {' | '.join(self._stderr) or 'empty'})"

    async def _line(self) -> bytes:
        assert self._process.stdout is not None
        try:
            async with asyncio.timeout(self._timeout):
                line = await self._process.stdout.readline()
        except (TimeoutError, ConnectionError, asyncio.LimitOverrunError, ValueError) as exc:
            raise EngineError(f"WebAssembly host transport failed: {exc!r}" + self._diagnostics()) from exc
        if not line:
            raise EngineError("the WebAssembly host closed its output" + self._diagnostics())
        return line

    async def _send(self, data: bytes) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        if self._process.returncode is not None:
            raise EngineClosed("the WebAssembly host has exited" + self._diagnostics())
        stdin.write(data)
        await stdin.drain()

    async def _exchange(self, message: JsonObject) -> JsonObject:
        try:
            await self._send(encode(message).encode("utf-8") + b"\n")
            return decode(await self._line())
        except EngineError:
            await self._retire()
            raise
        except BaseException:
            self._abandon()  # interrupted mid-exchange: its reply would answer the next request
            raise

    async def pipeline(self, messages: Sequence[JsonObject], check: Check, *, window: int = 1) -> None:
        """Up to `window` requests in flight (native.py's pipeline); if
        `check` raises the engine is retired (replies are still in flight)."""
        async with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            lines = [encode(m).encode("utf-8") + b"\n" for m in messages]
            sent = received = 0
            try:
                while received < len(lines):
                    # refilled by halves, not one line per answer: each write wakes the
                    # host, and an engine that runs dry suspends (Asyncify) until the next
                    if sent < len(lines) and sent - received <= window // 2:
                        batch = lines[sent : received + window]
                        await self._send(b"".join(batch))
                        sent += len(batch)
                    check(received, decode(await self._line()))
                    received += 1
            except BaseException:
                await self._retire()
                raise

    async def _transport(self, line: str) -> dict[str, Any]:
        async with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            try:
                await self._send(line.encode("utf-8") + b"\n")
                answer = decode(await self._line())
            except EngineError:
                await self._retire()
                raise
            except BaseException:
                self._abandon()
                raise
        error = answer.get("error")
        if isinstance(error, dict) and error.get("code") in ("hostFailed", "unknownTransport"):
            raise EngineError(f"the WebAssembly host failed: {error.get('message')}")
        return answer

    async def identity(self) -> dict[str, Any]:
        """{"build": "asyncify:<wasm sha256>", "baseHash", "format"}: what a checkpoint must have been made on."""
        if self._identity is None:
            self._identity = dict((await self._transport("#identity"))["identity"])
        return self._identity

    async def save(self, move: int, digest: str, summary: Any) -> dict[str, Any]:
        """A checkpoint of the engine as it is now (between requests): the
        record {move, digest, summary, format, build, baseHash, sha256, bytes}."""
        meta = json.dumps({"move": move, "digest": digest, "summary": summary}, separators=(",", ":"))
        record = dict((await self._transport(f"#save {meta}"))["checkpoint"])
        record["bytes"] = base64.b64decode(record["bytes"])
        return record

    async def restore(self, record: dict[str, Any], expect_digest: str | None, *, last: bool = False) -> None:
        """Replace the engine by `record`'s state. Raises CheckpointRejected
        (the engine unchanged) when the record fails its checks. `last`: no
        restore follows (a resumed game's engine), so the host starts no spare
        instance for one: its start ran beside the resume's first request
        (an observe 7.8-8.5 ms instead of 0.9-1.4 at 3,000 inputs)."""
        wire = {**record, "bytes": base64.b64encode(record["bytes"]).decode("ascii"), "expectDigest": expect_digest}
        if last:
            wire["last"] = True
        answer = await self._transport(f"#restore {json.dumps(wire, separators=(',', ':'))}")
        error = answer.get("error")
        if isinstance(error, dict):
            raise CheckpointRejected(str(error.get("code")), str(error.get("message")))

    async def _retire(self) -> None:
        self._closed = True
        await self._shutdown()

    async def _shutdown(self) -> None:
        process = self._process
        if process.returncode is None:
            if process.stdin is not None and not process.stdin.is_closing():
                process.stdin.close()  # EOF: the host exits on its own
            try:
                async with asyncio.timeout(5.0):
                    await process.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        else:
            await process.wait()
        try:
            async with asyncio.timeout(1.0):
                await self._stderr_task
        except (TimeoutError, asyncio.CancelledError):
            self._stderr_task.cancel()
        _live.pop(process.pid, None)


_spare: tuple[asyncio.AbstractEventLoop, asyncio.Task[NodeWasmEngine]] | None = None  # one per running loop
#: seconds after a `take` before the next spare starts: the engine taken is usually put to work at
#: once (a resume's tail, a catch-up) and a start compiles the build on a core for a second or more,
#: which on a 2-core machine tripled a 100-input resume (docs/BENCHMARKS.md)
SPARE_DELAY = 1.0
_spare_timer: asyncio.TimerHandle | None = None
#: whether `take` starts a spare for the next one; the catch-up process turns it off (it keeps its
#: engines between catch-ups, and a spare would compile on the core its catch-ups need)
spares = True


async def take() -> NodeWasmEngine:
    """A started engine, from the one kept ready when there is one (then the
    next is started in the background): a restore or resume does not wait
    for Node and the build to start."""
    global _spare
    ready, _spare = _spare, None
    engine: NodeWasmEngine | None = None
    if ready is not None and ready[0] is asyncio.get_running_loop():
        with contextlib.suppress(Exception):
            engine = await ready[1]
    if engine is None or engine.closed:
        engine = await NodeWasmEngine.start()
    if spares:
        _prepare_later()
    return engine


def _prepare_later() -> None:
    global _spare_timer
    if _spare_timer is not None:
        _spare_timer.cancel()
    _spare_timer = asyncio.get_running_loop().call_later(SPARE_DELAY, prepare)


def prepare() -> None:
    """Start the engine the next `take` hands out (no-op when one is ready or starting in this loop)."""
    global _spare, _spare_timer
    if _spare_timer is not None:
        _spare_timer.cancel()
        _spare_timer = None
    loop = asyncio.get_running_loop()
    if _spare is None or _spare[0] is not loop:
        _spare = (loop, loop.create_task(NodeWasmEngine.start()))


async def ready() -> None:
    """Wait until the engine the next `take` hands out has started (a host at boot)."""
    prepare()
    assert _spare is not None
    with contextlib.suppress(Exception):
        await _spare[1]


async def discard_spare() -> None:
    """Close the engine kept ready (a host shutting down, a test's end)."""
    global _spare, _spare_timer
    if _spare_timer is not None:
        _spare_timer.cancel()  # no spare starts after this
        _spare_timer = None
    ready, _spare = _spare, None
    if ready is not None and ready[0] is asyncio.get_running_loop():
        with contextlib.suppress(Exception):
            await (await ready[1]).close()
