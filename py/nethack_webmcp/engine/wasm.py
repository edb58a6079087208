"""wasm.py - the WebAssembly engine host: one nethack.wasm instance per game.

Runs only inside Pyodide, in the browser's core worker. The worker's
JavaScript (web/src/worker/engine-host.js) compiles nethack.wasm once and
publishes `globalThis.nethackEngineHost`:

    await nethackEngineHost.start()      -> a fresh instance (a new game's engine)
    await instance.request(text)         -> the response text (one JSON object)
    await instance.requestMany(text)     -> requests one per line, run back to back;
                                            the response lines (replays)
    instance.close()                     -> retire the instance (idempotent)

A request is the JSON text the native driver reads as one NDJSON line
(without the newline); the host encodes it straight into the engine's
memory, so the C parser sees the same bytes. Either way only text crosses:
Python encodes and parses, JavaScript neither parses nor re-serialises.

This module and the IndexedDB store are the only ones in the package that
import `js`/`pyodide`; the imports are inside the functions so that the
module can still be imported (not used) under CPython.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Check, Engine, EngineClosed, EngineError, JsonObject
from .deltas import Wire

HOST_GLOBAL = "nethackEngineHost"
PIPELINE_BATCH = 1024  # requests per crossing into JavaScript during a replay


def _host() -> Any:
    import js  # Pyodide only: the worker's global scope

    host = getattr(js, HOST_GLOBAL, None)
    if host is None:
        raise EngineError(
            f"the worker did not publish globalThis.{HOST_GLOBAL}; WasmEngine runs only inside the site's core worker"
        )
    return host


class WasmEngine(Engine):
    """One WebAssembly instance. Create with `await WasmEngine.start()`."""

    def __init__(self, instance: Any, *, deltas: bool = True) -> None:
        super().__init__()
        self._instance = instance
        self._wire = Wire(deltas)  # delta responses reassembled (deltas.py), or full ones as sent

    @classmethod
    async def start(cls, *, deltas: bool = True) -> WasmEngine:
        """Instantiate a fresh engine from the compiled module.

        Raises EngineError when the host is missing or instantiation fails.
        `deltas` as for NativeEngine.start: callers see full responses
        either way."""
        from pyodide.ffi import JsException

        host = _host()
        try:
            instance = await host.start()
        except JsException as exc:
            raise EngineError(f"cannot start a WebAssembly engine: {exc}") from exc
        return cls(instance, deltas=deltas)

    async def _exchange(self, message: JsonObject) -> JsonObject:
        from pyodide.ffi import JsException

        try:
            text = await self._instance.request(self._wire.encode(message))
        except JsException as exc:
            # The instance trapped or exited mid-request: the effect of the
            # request is unknown and the instance is unusable from here on.
            self._retire()
            raise EngineError(f"engine failed: {exc}") from exc
        except BaseException:
            # Interrupted while the instance runs the request (the exchange's
            # own task was cancelled): it is mid-request, so never reuse it.
            self._retire()
            raise
        try:
            return self._wire.decode(str(text))
        except EngineError:
            self._retire()
            raise

    async def pipeline(self, messages: Sequence[JsonObject], check: Check, *, window: int = 1) -> None:
        """`Engine.pipeline` in batches: the requests cross to JavaScript in batches of up to PIPELINE_BATCH
        (window <= 1: one at a time), one JSON text per line; the instance
        runs each batch back to back and returns the response lines. If a
        check raises, the engine is retired (it has run the rest of its
        batch) and the exception propagates."""
        from pyodide.ffi import JsException

        batch = 1 if window <= 1 else PIPELINE_BATCH
        async with self._lock:
            for start in range(0, len(messages), batch):
                if self._closed or self._instance is None:
                    raise EngineClosed("the engine is closed")
                chunk = messages[start : start + batch]
                try:
                    replies = str(await self._instance.requestMany(self._wire.encode_lines(chunk)))
                except JsException as exc:
                    self._retire()
                    raise EngineError(f"engine failed: {exc}") from exc
                except BaseException:
                    self._retire()  # interrupted mid-batch: the instance is mid-request
                    raise
                lines = replies.split("\n")
                if len(lines) != len(chunk):
                    self._retire()
                    raise EngineError(f"engine answered {len(lines)} of {len(chunk)} pipelined requests")
                for offset, line in enumerate(lines):
                    try:
                        check(start + offset, self._wire.decode(line))
                    except BaseException:
                        self._retire()
                        raise

    def _retire(self) -> None:
        self._closed = True
        self._release()

    def _release(self) -> None:
        instance, self._instance = self._instance, None
        if instance is not None:
            instance.close()
            destroy = getattr(instance, "destroy", None)
            if destroy is not None:
                destroy()  # drop the JsProxy now rather than at garbage collection

    async def _shutdown(self) -> None:
        self._release()
