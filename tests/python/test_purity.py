"""test_purity.py - the package stays runnable in Pyodide and under CPython.

Only the native engine host and the MCP server (and its transports,
stdio_transport.py and service/http.py) may use subprocess or stdio machinery or the MCP SDK, and
only the native spectator's app and listener (watch/) and the service's
HTTP edge and transport its HTTP stack; only the PostgreSQL store may use
its driver; only the WASM engine host and the IndexedDB store
may touch `js`/`pyodide`. Everything else is plain Python. Whole packages
that only ever run natively (the HTTP service, the evaluation harness) may
use process and HTTP machinery throughout; the page's worker must then never
import them, which the second test holds.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "nethack_webmcp"
PROCESS = ("subprocess", "asyncio.subprocess", "mcp", "anyio", "signal", "atexit")
BROWSER = ("js", "pyodide")
PROCESS_ALLOWED = {
    PACKAGE / "engine" / "native.py",
    PACKAGE / "engine" / "wasm_node.py",  # the WebAssembly engine under Node (persisted checkpoints), never in the page
    PACKAGE / "mcp.py",
    PACKAGE / "stdio_transport.py",
    PACKAGE / "replay" / "forks.py",  # native replays: forkable drivers, never in the page
    PACKAGE / "service" / "http.py",
}
HTTP = ("starlette", "uvicorn")
HTTP_ALLOWED = {
    PACKAGE / "watch" / "app.py",
    PACKAGE / "watch" / "listener.py",
    PACKAGE / "watch" / "json_response.py",  # raw ASGI JSON responses for the listener and the edge
    PACKAGE / "watch" / "connections.py",  # the listener's uvicorn protocol: head deadline, connection cap
    PACKAGE / "service" / "edge.py",
    PACKAGE / "service" / "metrics_route.py",
    PACKAGE / "service" / "request_body.py",
    PACKAGE / "service" / "http.py",
}
DATABASE = ("psycopg",)
DATABASE_ALLOWED = {PACKAGE / "store" / "postgres.py"}


#: packages only a native host runs: the HTTP service, the evaluation harness, native replays
NATIVE_PACKAGES = ("service", "eval", "replay")


def native_only(path: Path) -> bool:
    return path.relative_to(PACKAGE).parts[0] in NATIVE_PACKAGES


def browser_allowed(path: Path) -> bool:
    # the page's checkpoint restore source reads the worker's Asyncify checkpoints, and its pacing wakes the
    # worker's follower (both inside their functions)
    page_only = {
        PACKAGE / "engine" / "wasm.py",
        PACKAGE / "session" / "page_checkpoints.py",
        PACKAGE / "session" / "page_pacing.py",
    }
    return path in page_only or (path.parent.name == "store" and "indexeddb" in path.name)


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_runtime_specific_imports_stay_in_their_modules() -> None:
    for path in PACKAGE.rglob("*.py"):
        names = imported(path)
        if path not in PROCESS_ALLOWED and not native_only(path):
            assert not [n for n in names if matches(n, PROCESS)], path
            assert "create_subprocess" not in path.read_text(), path
        if path not in HTTP_ALLOWED and not native_only(path):
            assert not [n for n in names if matches(n, HTTP)], path
        if path not in DATABASE_ALLOWED:
            assert not [n for n in names if matches(n, DATABASE)], path
        if not browser_allowed(path):
            assert not [n for n in names if matches(n, BROWSER)], path


def package_imports(path: Path) -> set[Path]:
    """The package's own modules `path` imports (absolute `nethack_webmcp.` or relative)."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        parts: list[str] = []
        if isinstance(node, ast.ImportFrom):
            base = path.parent
            for _ in range(max(node.level - 1, 0)):
                base = base.parent
            if node.level == 0:
                if not (node.module or "").startswith("nethack_webmcp"):
                    continue
                base, parts = PACKAGE, (node.module or "").split(".")[1:]
            else:
                parts = (node.module or "").split(".") if node.module else []
            target = base.joinpath(*parts)
            names = [alias.name for alias in node.names]
            candidates = [target.with_suffix(".py"), target / "__init__.py"]
            candidates += [target / f"{name}.py" for name in names] + [target / name / "__init__.py" for name in names]
            found.update(c for c in candidates if c.is_file())
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("nethack_webmcp."):
                    target = PACKAGE.joinpath(*alias.name.split(".")[1:])
                    found.update(c for c in (target.with_suffix(".py"), target / "__init__.py") if c.is_file())
    return found


def test_the_page_worker_imports_no_native_only_module() -> None:
    seen: set[Path] = set()
    todo = [PACKAGE / "worker.py"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(package_imports(path))
    assert len(seen) > 20, "the walk follows the worker's imports"
    native = sorted(str(p.relative_to(PACKAGE)) for p in seen if native_only(p) or p in PROCESS_ALLOWED | HTTP_ALLOWED)
    assert native == [], native
