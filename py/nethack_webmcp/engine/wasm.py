"""wasm.py - the WebAssembly engine host: one nethack.wasm instance per game.

Runs only inside Pyodide, in the browser's core worker. The worker's
JavaScript (web/src/worker/engine-host.js) compiles nethack.wasm once and
publishes `globalThis.nethackEngineHost`:

    await nethackEngineHost.start()      -> a fresh instance (a new game's engine)
    await instance.request(Uint8Array)   -> the response text (one JSON object)
    instance.close()                     -> retire the instance (idempotent)

A request is the same bytes the native driver reads as one NDJSON line
(without the newline), so the C parser validates them identically.

This module and the IndexedDB store are the only ones in the package that
import `js`/`pyodide`; the imports are inside the functions so that the
module can still be imported (not used) under CPython.
"""

from __future__ import annotations

import json
from typing import Any

from .base import Engine, EngineError, JsonObject

HOST_GLOBAL = "nethackEngineHost"


def _host() -> Any:
    import js  # Pyodide only: the worker's global scope

    host = getattr(js, HOST_GLOBAL, None)
    if host is None:
        raise EngineError(f"the worker did not publish globalThis.{HOST_GLOBAL}; "
                          "WasmEngine runs only inside the site's core worker")
    return host


class WasmEngine(Engine):
    """One WebAssembly instance. Create with `await WasmEngine.start()`."""

    def __init__(self, instance: Any) -> None:
        super().__init__()
        self._instance = instance

    @classmethod
    async def start(cls) -> WasmEngine:
        """Instantiate a fresh engine from the compiled module.

        Raises EngineError when the host is missing or instantiation fails."""
        from pyodide.ffi import JsException

        host = _host()
        try:
            instance = await host.start()
        except JsException as exc:
            raise EngineError(f"cannot start a WebAssembly engine: {exc}") from exc
        return cls(instance)

    async def _exchange(self, message: JsonObject) -> JsonObject:
        from pyodide.ffi import JsException, to_js

        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        try:
            text = await self._instance.request(to_js(data))
        except JsException as exc:
            # The instance trapped or exited mid-request: the effect of the
            # request is unknown and the instance is unusable from here on.
            self._closed = True
            self._release()
            raise EngineError(f"engine failed: {exc}") from exc
        try:
            response = json.loads(str(text))
        except json.JSONDecodeError as exc:
            self._closed = True
            self._release()
            raise EngineError(f"engine reply is not JSON: {str(text)[:200]!r}") from exc
        if not isinstance(response, dict):
            self._closed = True
            self._release()
            raise EngineError(f"engine reply is not an object: {str(text)[:200]!r}")
        return response

    def _release(self) -> None:
        instance, self._instance = self._instance, None
        if instance is not None:
            instance.close()
            destroy = getattr(instance, "destroy", None)
            if destroy is not None:
                destroy()  # drop the JsProxy now rather than at garbage collection

    async def _shutdown(self) -> None:
        self._release()
