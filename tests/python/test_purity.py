"""test_purity.py - the package stays runnable in Pyodide and under CPython.

Only the native engine host and the MCP server (and its transports,
stdio_transport.py and service/http.py) may use subprocess or stdio machinery or the MCP SDK, and
only the native spectator's app and listener (watch/) and the service's
HTTP edge and transport its HTTP stack; only the PostgreSQL store may use
its driver; only the WASM engine host and the IndexedDB store
may touch `js`/`pyodide`. Everything else is plain Python.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "nethack_webmcp"
PROCESS = ("subprocess", "asyncio.subprocess", "mcp", "anyio", "signal", "atexit")
BROWSER = ("js", "pyodide")
PROCESS_ALLOWED = {
    PACKAGE / "engine" / "native.py",
    PACKAGE / "mcp.py",
    PACKAGE / "stdio_transport.py",
    PACKAGE / "service" / "http.py",
}
HTTP = ("starlette", "uvicorn")
HTTP_ALLOWED = {
    PACKAGE / "watch" / "app.py",
    PACKAGE / "watch" / "listener.py",
    PACKAGE / "watch" / "connections.py",  # the listener's uvicorn protocol: head deadline, connection cap
    PACKAGE / "service" / "edge.py",
    PACKAGE / "service" / "http.py",
}
DATABASE = ("psycopg",)
DATABASE_ALLOWED = {PACKAGE / "store" / "postgres.py"}


def browser_allowed(path: Path) -> bool:
    return path == PACKAGE / "engine" / "wasm.py" or (path.parent.name == "store" and "indexeddb" in path.name)


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
        if path not in PROCESS_ALLOWED:
            assert not [n for n in names if matches(n, PROCESS)], path
            assert "create_subprocess" not in path.read_text(), path
        if path not in HTTP_ALLOWED:
            assert not [n for n in names if matches(n, HTTP)], path
        if path not in DATABASE_ALLOWED:
            assert not [n for n in names if matches(n, DATABASE)], path
        if not browser_allowed(path):
            assert not [n for n in names if matches(n, BROWSER)], path
