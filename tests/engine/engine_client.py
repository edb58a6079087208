"""engine_client.py - the engine tests' view of the semantic driver.

The client itself (DriverClient, Game, start_game, CREATED_AT) is the shared
one in support/driver.py, re-exported here; this module adds what only the
engine tests need: which build to run, the staleness hint, and the check
that a rejected request changed nothing.

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

from support.driver import (  # noqa: F401  (re-exported: the engine tests import the client from here)
    CREATED_AT,
    NATIVE_DRIVER,
    ROOT,
    DriverClient,
    DriverError,
    Game,
    create_request,
    dumps,
    native_command,
    start_game,
)
from support.wasm_builds import JSPI_FLAG, WASM_BUILDS, WASM_ENGINE, WASM_SCRIPT, node24, wasm_command  # noqa: F401

DRIVER_SOURCES = ROOT / "wasm" / "driver"


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
