"""native.py - the native engine host: one `nhdriver` subprocess per game.

The driver speaks NDJSON: one request per line on stdin, one response per
line on stdout, diagnostics on stderr. This is one of the two modules in the
package allowed to use asyncio subprocess machinery (the other is the MCP
server); everything else must run unchanged in Pyodide.

Process hygiene: every process is reaped by `close()`; processes still
alive at interpreter exit are terminated and reaped by an atexit hook; and
a driver whose parent dies sees EOF on stdin and exits by itself, so no
orphan outlives its host.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import json
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path

from . import rundirs
from .base import Check, Engine, EngineClosed, EngineError, JsonObject
from .deltas import Wire

REPOSITORY = Path(__file__).resolve().parents[3]
DEFAULT_DRIVER = REPOSITORY / "build" / "native" / "nhdriver"
RESPONSE_TIMEOUT = 60.0  # seconds; the engine answers in milliseconds
LINE_LIMIT = 64 * 1024 * 1024  # full observations are tens of KB; be generous
STDERR_TAIL = 40  # diagnostic lines kept for error messages

# pid -> process, for the atexit sweep. Removed once a process is reaped.
_live: dict[int, asyncio.subprocess.Process] = {}


def driver_path() -> Path:
    """The driver executable: $NNH_DRIVER, else build/native/nhdriver."""
    override = os.environ.get("NNH_DRIVER")
    return Path(override) if override else DEFAULT_DRIVER


_identities: dict[Path, dict[str, str]] = {}


def _identity_file(path: str | os.PathLike[str] | None) -> dict[str, str]:
    """identity.json beside the driver (written by wasm/engine.mk with it),
    read once per process: {"game": gameIdentity, "build": buildIdentity}."""
    executable = (Path(path) if path else driver_path()).resolve()
    cached = _identities.get(executable)
    if cached is not None:
        return cached
    file = executable.parent / "identity.json"
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
        cached = {"game": str(document["gameIdentity"]), "build": str(document["builds"]["native"]["buildIdentity"])}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EngineError(
            f"cannot read the engine identity from {file}: {exc!r}; "
            "run ./scripts/build (make -f wasm/engine.mk TARGET=native)"
        ) from exc
    _identities[executable] = cached
    return cached


def native_identity(path: str | os.PathLike[str] | None = None) -> str:
    """The game identity of the native engine: the rules it plays
    (`rules-sha256:…`, see wasm/engine.mk). Every build from the same rules -
    this one, the browser's JSPI and Asyncify builds - shares it, so a stored
    game resumes on any of them. Raises EngineError when identity.json is
    missing or unreadable."""
    return _identity_file(path)["game"]


def native_build_identity(path: str | os.PathLike[str] | None = None) -> str:
    """This binary's own identity (`native-sha256:…` over nhdriver and its
    nhdat): diagnostics only, never a reason to refuse a game."""
    return _identity_file(path)["build"]


class NativeEngine(Engine):
    """One `nhdriver` process. Create with `await NativeEngine.start()`."""

    def __init__(
        self, process: asyncio.subprocess.Process, timeout: float, rundir: Path | None = None, *, deltas: bool = True
    ) -> None:
        super().__init__()
        self._wire = Wire(deltas)  # delta responses reassembled (deltas.py), or full ones as sent
        self._process = process
        self._rundir = rundir  # the driver's $TMPDIR (rundirs.py), removed once it is reaped
        self._timeout = timeout
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())

    @classmethod
    async def start(
        cls, path: str | os.PathLike[str] | None = None, timeout: float = RESPONSE_TIMEOUT, *, deltas: bool = True
    ) -> NativeEngine:
        """Spawn a driver. Raises EngineError when it cannot be started.
        `deltas`: ask for delta responses and reassemble them (the default;
        callers see full responses either way), else ask for full ones."""
        executable = Path(path) if path else driver_path()
        if not os.access(executable, os.X_OK):
            raise EngineError(f"native driver not found at {executable}; run ./scripts/build or set NNH_DRIVER")
        rundir = rundirs.make()
        try:
            process = await asyncio.create_subprocess_exec(
                str(executable),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT,
                env={**os.environ, "TMPDIR": str(rundir)},
            )
        except OSError as exc:
            rundirs.remove(rundir)
            raise EngineError(f"cannot start {executable}: {exc}") from exc
        _live[process.pid] = process
        return cls(process, timeout, rundir, deltas=deltas)

    @property
    def pid(self) -> int:
        return self._process.pid

    async def _drain_stderr(self) -> None:
        # Stderr must be read continuously or a chatty driver would block
        # on a full pipe; keep only a tail for diagnostics.
        assert self._process.stderr is not None
        while line := await self._process.stderr.readline():
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    def _diagnostics(self) -> str:
        tail = " | ".join(self._stderr)
        return f" (exit code {self._process.returncode}; stderr: {tail or 'empty'})"

    async def _exchange(self, message: JsonObject) -> JsonObject:
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        if self._process.returncode is not None:
            await self._retire()
            raise EngineClosed("the driver has exited" + self._diagnostics())
        try:
            stdin.write(self._wire.encode(message).encode("utf-8") + b"\n")
            await stdin.drain()
            async with asyncio.timeout(self._timeout):
                line = await stdout.readline()
        except (TimeoutError, ConnectionError, asyncio.LimitOverrunError, ValueError) as exc:
            # A late reply would be read as the answer to the next request:
            # the engine is unusable from here on.
            await self._retire()
            raise EngineError(f"driver transport failed: {exc!r}" + self._diagnostics()) from exc
        except BaseException:
            # Interrupted between writing and reading (the exchange's own task
            # was cancelled): the reply is still coming, so never reuse the pipe.
            self._abandon()
            raise
        try:
            if not line:
                raise EngineError("driver closed its output" + self._diagnostics())
            return self._wire.decode(line)
        except EngineError:
            await self._retire()
            raise

    async def pipeline(self, messages: Sequence[JsonObject], check: Check, *, window: int = 1) -> None:
        """`Engine.pipeline` with up to `window` requests in flight (a replay
        knows all its requests in advance, so it need not wait for each
        answer). If `check` raises, the engine is retired (in-flight replies
        would be read as answers to later requests)."""
        async with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            if self._process.returncode is not None:
                await self._retire()
                raise EngineClosed("the driver has exited" + self._diagnostics())
            stdin, stdout = self._process.stdin, self._process.stdout
            assert stdin is not None and stdout is not None
            lines = [self._wire.encode(m).encode("utf-8") + b"\n" for m in messages]
            sent = received = 0
            try:
                while received < len(lines):
                    try:
                        if sent < len(lines) and sent - received < window:
                            batch = lines[sent : received + window]
                            stdin.write(b"".join(batch))
                            sent += len(batch)
                            await stdin.drain()
                        async with asyncio.timeout(self._timeout):
                            line = await stdout.readline()
                    except (TimeoutError, ConnectionError, asyncio.LimitOverrunError, ValueError) as exc:
                        raise EngineError(f"driver transport failed: {exc!r}" + self._diagnostics()) from exc
                    if not line:
                        raise EngineError("driver closed its output" + self._diagnostics())
                    check(received, self._wire.decode(line))  # its own exception propagates unchanged
                    received += 1
            except BaseException:
                await self._retire()
                raise

    async def _retire(self) -> None:
        self._closed = True
        await self._shutdown()

    async def _shutdown(self) -> None:
        process = self._process
        if process.returncode is None:
            if process.stdin is not None and not process.stdin.is_closing():
                process.stdin.close()  # EOF: the driver exits on its own
            for sig in (None, signal.SIGTERM, signal.SIGKILL):
                if sig is not None and process.returncode is None:
                    try:
                        process.send_signal(sig)
                    except ProcessLookupError:
                        pass
                try:
                    async with asyncio.timeout(5.0):
                        await process.wait()
                    break
                except TimeoutError:
                    continue
        else:
            await process.wait()
        try:
            async with asyncio.timeout(1.0):
                await self._stderr_task
        except (TimeoutError, asyncio.CancelledError):
            self._stderr_task.cancel()
        _live.pop(process.pid, None)
        if self._rundir is not None:
            rundirs.remove(self._rundir)  # a killed driver could not remove its own playground


@atexit.register
def _reap_at_exit() -> None:
    """Terminate and reap drivers whose engines were never closed.

    The event loop may already be gone, so this uses plain signals and
    waitpid. A pid asyncio's child watcher already reaped raises
    ChildProcessError, which means it is gone."""
    for pid, process in list(_live.items()):
        if process.returncode is not None:
            continue
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 3.0
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break
            if done:
                break
            if time.monotonic() > deadline:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (ProcessLookupError, ChildProcessError):
                    pass
                break
            time.sleep(0.02)
    _live.clear()
    rundirs.remove_own()
