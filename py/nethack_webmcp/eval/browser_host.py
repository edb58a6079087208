"""browser_host.py - `--host browser`: the suite's games played in headless Chromium through the page's own tools.

The harness serves the built site (web/dist) on a loopback port, opens it in
headless Chromium (Playwright) and waits for the page to boot (Pyodide, the
WebAssembly engine, the tools registered). Every tool call then runs in the
page: the page's WebMCP tools as an agent finds them (`document.modelContext`,
`getTools()` and `executeTool()` - the calls Chromium's own WebMCP client makes),
the game in the page's worker, stored in the page's IndexedDB.

So that every agent, the proxy and the rest of the harness stay the ones the
native host uses, the page's tools are offered as a loopback MCP endpoint
(`/mcp`, Streamable HTTP with JSON responses, the handshake era): `tools/list`
answers the page's `getTools()`, `tools/call` the frame its `executeTool()`
returns, with the same text rendering the native server sends. Nothing else
is added: the page has no control tokens (the tab playing a game controls it),
so a `controlToken` argument is dropped before the call reaches the page.

A game's record and replay come from the page itself: its Export button
(the game's page, `#/g/<id>`), whose download is the exchange document with
the record, the journal and the state hash the worker's replay reached.

The page keeps the seed in its IndexedDB, which the agent's browser profile
could read: a browser run is labelled `sealed: false`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import __version__
from ..projection.render import text
from .proxy import serve_loopback

DIST = Path(__file__).resolve().parents[3] / "web" / "dist"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip
BOOT_TIMEOUT_S = 180.0
CALL_TIMEOUT_MS = 600_000
HANDSHAKE_VERSION = "2025-06-18"  # answered when a client asks for none

#: the page's tools as an agent discovers them (the WebMCP polyfill's document.modelContext)
PAGE_TOOLS = """async () => (await document.modelContext.getTools()).map((tool) => ({
  name: tool.name, description: tool.description, inputSchema: tool.inputSchema}))"""
PAGE_CALL = """async ([name, input]) => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((candidate) => candidate.name === name);
  if (!tool) return {unknownTool: name};
  const result = await context.executeTool(tool, JSON.stringify(input));
  return typeof result === 'string' ? JSON.parse(result) : result;
}"""
BOOTED = "() => window.nethackSite && window.nethackSite.status !== 'booting' && window.nethackSite"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def is_error(frame: dict[str, Any]) -> bool:
    """As the native server decides it (mcp.is_error): an error without accepted progress."""
    if "error" not in frame:
        return False
    outcome = frame.get("outcome")
    return outcome is None or outcome.get("submission") != "accepted"


class BrowserHost:
    """The site in one headless Chromium page, its tools at `mcp_url`; one call in the page at a time."""

    def __init__(self, dist: Path = DIST) -> None:
        if not (dist / "index.html").exists():
            raise RuntimeError(f"{dist}/index.html is missing: build the site (./scripts/build)")
        if not os.access(CHROMIUM, os.X_OK):
            raise RuntimeError(f"Chromium missing at {CHROMIUM} (set $CHROMIUM)")
        self.dist = dist
        self.site_url = ""
        self.mcp_url = ""
        self._files: ThreadingHTTPServer | None = None
        self._playwright: Any = None
        self._browser: Any = None
        self._page: Any = None
        self._lock = asyncio.Lock()
        self._tools: list[dict[str, Any]] = []
        app = Starlette(routes=[Route("/mcp", self._mcp, methods=["GET", "POST", "DELETE"])])
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                                     lifespan="off"))  # fmt: skip
        self._task: asyncio.Task[None] | None = None
        self.page_errors: list[str] = []

    async def start(self) -> None:
        from playwright.async_api import async_playwright

        handler = functools.partial(_Quiet, directory=str(self.dist))
        self._files = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self._files.serve_forever, daemon=True).start()
        self.site_url = f"http://127.0.0.1:{self._files.server_port}/"
        self._playwright = await async_playwright().start()
        self._browser = await self._playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = await self._browser.new_context(accept_downloads=True)
        context.set_default_timeout(CALL_TIMEOUT_MS)
        self._page = await context.new_page()
        self._page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        await self._page.goto(self.site_url)
        site = await self._wait(BOOTED, BOOT_TIMEOUT_S)
        if site.get("status") != "ready":
            raise RuntimeError(f"the page failed to boot: {site.get('error')}")
        self._tools = await self._page.evaluate(PAGE_TOOLS)
        self._task, port = await serve_loopback(self._server)
        self.mcp_url = f"http://127.0.0.1:{port}/mcp"

    async def stop(self) -> None:
        if self.page_errors:
            print(f"browser host: uncaught page errors: {self.page_errors[:5]}", file=sys.stderr)
        self._server.should_exit = True
        if self._task is not None:
            await self._task
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
        if self._files is not None:
            self._files.shutdown()
            self._files.server_close()

    async def _wait(self, expression: str, timeout: float, arg: Any = None) -> Any:
        """Poll a JS function until truthy (the page's Content-Security-Policy forbids wait_for_function's eval)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (value := await self._page.evaluate(expression, arg)):
            if loop.time() > deadline:
                raise RuntimeError(f"the page did not get there in {timeout} s: {expression}")
            await asyncio.sleep(0.1)
        return value

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """One tool call in the page; its frame."""
        arguments = {key: value for key, value in arguments.items() if key != "controlToken"}
        async with self._lock:
            return dict(await self._page.evaluate(PAGE_CALL, [name, arguments]))

    async def export(self, session_id: str) -> dict[str, Any] | None:
        """The game's exchange document, downloaded with the Export button of its page in the site;
        None (said on stderr) when the page would not export it: the game's entry then has no record
        or replay, and its metrics come from the frames, as with `--server` without `--store`."""
        try:
            return await self._export(session_id)
        except Exception as exc:  # a page that fails one export must not lose the run's other games
            print(f"browser host: game {session_id} was not exported: {exc}", file=sys.stderr)
            return None

    async def _export(self, session_id: str) -> dict[str, Any] | None:
        async with self._lock:
            page = self._page
            await page.evaluate("(id) => { location.hash = '#/g/' + id; }", session_id)
            await self._wait("(id) => document.getElementById('main').dataset.gameId === id", 30, session_id)
            button = page.locator("[data-control=export]")
            await button.wait_for(state="visible", timeout=30_000)
            async with page.expect_download(timeout=120_000) as downloading:
                await button.click()
            download = await downloading.value
            document = json.loads(Path(await download.path()).read_text(encoding="utf-8"))
            await page.evaluate("() => { location.hash = '#/'; }")
        return document if isinstance(document, dict) and document.get("format") == "nethack-webmcp-game" else None

    # ---- the MCP endpoint ------------------------------------------------------------

    async def _mcp(self, request: Request) -> Response:
        if request.method != "POST":
            return Response(status_code=405, headers={"allow": "POST"})  # no event stream, no sessions
        try:
            message = json.loads(await request.body())
        except ValueError:
            return JSONResponse(_failure(None, -32700, "the body is not JSON"), 400)
        if isinstance(message, list) or not isinstance(message, dict):
            return JSONResponse(_failure(None, -32600, "one JSON-RPC message per request"), 400)
        if "id" not in message:
            return Response(status_code=202)  # a notification (initialized, cancelled): nothing to answer
        return JSONResponse(await self._answer(message))

    async def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        method, params, ident = message.get("method"), message.get("params") or {}, message.get("id")
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion") or HANDSHAKE_VERSION,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "nethack-webmcp-page", "version": __version__},
            }
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": self._tools}
        elif method == "tools/call":
            frame = await self.call(str(params.get("name")), dict(params.get("arguments") or {}))
            if "unknownTool" in frame:
                return _failure(ident, -32602, f"unknown tool {frame['unknownTool']!r}")
            result = {"content": [{"type": "text", "text": text(frame)}], "structuredContent": frame,
                      "isError": is_error(frame)}  # fmt: skip
        else:  # server/discover included: a handshake-era server, so modern clients fall back to initialize
            return _failure(ident, -32601, f"method {method!r} not found")
        return {"jsonrpc": "2.0", "id": ident, "result": result}


def _failure(ident: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}
