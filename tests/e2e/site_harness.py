"""site_harness.py - driving the built site in real Chromium (helpers for tests/e2e and scripts/bench-site).

The static file server, the Chromium launch flags, boot waiting, the two
agent-side WebMCP clients and spectator readers. The fixtures are in
conftest.py.

  native    Chromium with --enable-features=WebMCP; the agent-side client
            is Playwright's page.webmcp (independent of the page's code)
  polyfill  Chromium without the flag, so the page installs
            @mcp-b/webmcp-polyfill; the client calls the polyfill's
            document.modelContext.getTools()/executeTool() from the test,
            the same discovery/execution calls page.webmcp makes natively
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from nethack_webmcp.projection.world import rows as world_rows
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Root on a CI machine: no sandbox; and nothing that phones home.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOOT_TIMEOUT = 90.0


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(directory: Path = DIST) -> Iterator[str]:
    """Serve a directory on 127.0.0.1 (ephemeral port); yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def launch(playwright: Playwright, native: bool) -> Browser:
    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"Chromium missing at {CHROMIUM}: apt-get install chromium (./scripts/test does)")
    args = FLAGS + (["--enable-features=WebMCP"] if native else [])
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


def wait_until(page: Page, expression: str, timeout: float = 30.0, arg: Any = None) -> Any:
    """Poll a JS expression/function until it is truthy; return its value.

    (page.wait_for_function evaluates strings with eval, which the site's
    Content-Security-Policy forbids; evaluate() does not need it.)"""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {expression}")
        time.sleep(0.05)


def boot(page: Page, url: str) -> dict[str, Any]:
    """Open the site and wait for the game host; fail with its own error."""
    page.goto(url)
    status = wait_until(
        page,
        "() => window.nethackSite && window.nethackSite.status !== 'booting' && window.nethackSite.status",
        BOOT_TIMEOUT,
    )
    site = page.evaluate("() => window.nethackSite")
    assert status == "ready", f"the site failed to boot: {site.get('error')}"
    return site


class NativeClient:
    """The browser's own WebMCP, through Playwright's page.webmcp."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def tools(self) -> list[dict[str, Any]]:
        return [dict(tool) for tool in self.page.webmcp.tools()]

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        return self.page.webmcp.call_tool(name, arguments, timeout=60_000)


POLYFILL_TOOLS = """async () => (await document.modelContext.getTools()).map((tool) => ({
  name: tool.name, description: tool.description, inputSchema: tool.inputSchema,
  annotations: tool.annotations ? {readOnly: tool.annotations.readOnlyHint,
                                   untrustedContent: tool.annotations.untrustedContentHint} : undefined}))"""
POLYFILL_CALL = """async ([name, input]) => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no WebMCP tool named ${name}`);
  const result = await context.executeTool(tool, JSON.stringify(input));
  return typeof result === 'string' ? JSON.parse(result) : result;
}"""


class PolyfillClient:
    """The polyfill's document.modelContext, called as an agent would: the
    same getTools()/executeTool() discovery and execution page.webmcp uses."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def tools(self) -> list[dict[str, Any]]:
        return self.page.evaluate(POLYFILL_TOOLS)

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        return self.page.evaluate(POLYFILL_CALL, [name, arguments])


def client_for(kind: str, page: Page) -> NativeClient | PolyfillClient:
    return NativeClient(page) if kind == "native" else PolyfillClient(page)


@dataclass
class Site:
    """One WebMCP path: a browser, a context, a booted page and its client."""

    kind: str
    url: str
    browser: Browser
    context: BrowserContext
    page: Page
    requests: list[str] = field(default_factory=list)

    @property
    def client(self) -> NativeClient | PolyfillClient:
        return client_for(self.kind, self.page)

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        frame = self.client.call(name, arguments)
        assert isinstance(frame, dict) and frame.get("version") == 2, frame
        return frame

    def show_game(self, page: Page, game_id: str) -> None:
        page.evaluate("(id) => { location.hash = '#/g/' + id; }", game_id)
        wait_until(page, "(id) => document.getElementById('main').dataset.gameId === id", 10, game_id)

    def show_home(self, page: Page) -> None:
        page.evaluate("() => { location.hash = '#/'; }")
        wait_until(page, "() => document.getElementById('main').dataset.view === 'home'", 10)


def spectator_state(page: Page) -> dict[str, Any]:
    """What the spectator shows, read from the DOM as a person sees it."""
    return page.evaluate("""() => {
      const root = document.getElementById('main');
      const text = (name) => {
        const node = root.querySelector(`[data-field="${name}"]`);
        return node ? node.textContent : null;
      };
      return {revision: root.dataset.revision, gameId: root.dataset.gameId,
              turn: text('turn'), hp: text('hp'), pw: text('pw'), depth: text('depth'), hunger: text('hunger'),
              prompt: text('decision-prompt'), kind: text('decision-kind'), name: text('name'),
              harness: text('harness'), model: text('model'), lifecycle: text('lifecycle'),
              inventory: text('inventory-freshness'),
              rows: [...root.querySelectorAll('pre.map .row')].map((row) => row.textContent.slice(3))};
    }""")


def start_from_form(page: Page, **fields: str) -> str:
    """Start a game from the home page's form as a person would; returns its game id."""
    page.evaluate("() => { location.hash = '#/'; }")
    wait_until(page, "() => document.querySelector('[data-form=start]')", 10)
    for name, value in fields.items():
        control = page.locator(f"[data-control=start-{name}]")
        if control.evaluate("(node) => node.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    page.locator("[data-control=start-game]").click()
    # a started game opens its own page; a refused one says why on the form
    return wait_until(
        page,
        "() => { const r = document.querySelector('[data-field=start-result]');"
        " if (r && r.dataset.state === 'refused') return 'refused: ' + r.textContent;"
        " const m = /^#\\/g\\/(.+)$/.exec(location.hash); return m && m[1]; }",
        30,
    )


def wait_for_revision(page: Page, revision: int, timeout: float = 15.0) -> dict[str, Any]:
    wait_until(
        page, "(revision) => document.getElementById('main').dataset.revision === String(revision)", timeout, revision
    )
    return spectator_state(page)


def walkable_direction(frame: dict[str, Any]) -> str:
    for square in frame["scene"]["nearby"]:
        if square.get("walkable") and "occupant" not in square and square["terrain"] == "floor":
            return square["direction"]
    raise AssertionError(f"no free floor next to the hero: {frame['scene']['nearby']}")


def assert_spectator_matches(shown: dict[str, Any], observed: dict[str, Any]) -> None:
    scene = observed["scene"]
    vitals = scene["self"]["vitals"]
    assert shown["gameId"] == observed["basis"]["sessionId"]
    assert shown["revision"] == str(observed["basis"]["revision"])
    assert shown["turn"] == str(observed["basis"]["turn"])
    assert shown["hp"] == f"{vitals['hp']}/{vitals['hpMax']}"
    assert shown["pw"] == f"{vitals['energy']}/{vitals['energyMax']}"
    assert shown["depth"].startswith(scene["self"]["level"]["label"])
    assert shown["name"] == scene["self"]["name"]
    world = [row["marks"] for row in world_rows(scene["world"])]
    assert shown["rows"] == world
    assert shown["inventory"].startswith("current")
