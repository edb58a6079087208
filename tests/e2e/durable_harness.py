"""durable_harness.py - helpers for the browser durability tests (tests/e2e/test_durab*.py).

Pages are opened with the site's test hooks on (window.nethackTest: Python
in the worker, IndexedDB fault injection, worker termination); the hooks
exist only when `globalThis.__NETHACK_TEST_HOOKS__` is set before the page's
scripts run, which a normal page load never does, and they are not WebMCP
tools. The agent-side client is the WebMCP polyfill's executeTool (these
tests are about durability, not about the WebMCP path, so they run once).

The twin: a game's uninterrupted run computed natively (CPython, the native
engine, the memory store) from the browser game's own recorded creation
parameters and the same tool calls. Native and WASM engines give
byte-identical responses, so equal state hashes mean equal games.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page
from support.threads import run_in_thread
from support.twin import SCRIPT as TWIN_SCRIPT

from .site_harness import BOOT_TIMEOUT, PolyfillClient, wait_until

HOOKS = "globalThis.__NETHACK_TEST_HOOKS__ = true;"

SCRIPT = TWIN_SCRIPT  # the crash tests' input script, shared with tests/durability
CREATE = {"action": "create", "seed": 42, "name": "Ada", "role": "valkyrie", "harness_name": "e2e durability"}


run = run_in_thread


def context(browser: Browser) -> BrowserContext:
    """A fresh browser profile (its own IndexedDB) with the test hooks on."""
    made = browser.new_context(viewport={"width": 1400, "height": 1000})
    made.set_default_timeout(60_000)
    made.add_init_script(HOOKS)
    return made


def open_site(ctx: BrowserContext, url: str, fragment: str = "") -> Page:
    page = ctx.new_page()
    page.goto(url + fragment)
    wait_ready(page)
    return page


def wait_ready(page: Page) -> None:
    status = wait_until(
        page,
        "() => window.nethackSite && window.nethackSite.status !== 'booting' && window.nethackSite.status",
        BOOT_TIMEOUT,
    )
    assert status == "ready", page.evaluate("() => window.nethackSite.error")


def reload(page: Page) -> None:
    page.reload()
    wait_ready(page)


class Agent:
    """An agent in the page: the eleven tools through WebMCP (polyfill)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.client = PolyfillClient(page)

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        frame = self.client.call(name, arguments)
        assert isinstance(frame, dict) and frame.get("version") == 2, frame
        return frame

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        frame = self.call(name, arguments)
        assert "error" not in frame, frame["error"]
        return frame

    def step(
        self, frame: dict[str, Any], step: tuple[str, dict[str, Any]], request_id: str | None = None
    ) -> dict[str, Any]:
        return self.call(*arguments_for(frame, step, request_id))

    def start(self, frame: dict[str, Any], step: tuple[str, dict[str, Any]], request_id: str | None = None) -> None:
        """Start a tool call and do not wait for it (it may never answer)."""
        name, arguments = arguments_for(frame, step, request_id)
        self.page.evaluate(
            """([name, input]) => {
          const context = document.modelContext;
          window.__inflight = context.getTools().then((tools) =>
            context.executeTool(tools.find((tool) => tool.name === name), JSON.stringify(input)))
            .then((result) => ({result}), (error) => ({error: String(error)}));
        }""",
            [name, arguments],
        )


def play(agent: Agent, frame: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Play `steps` (SCRIPT's form) from `frame`; every step must succeed."""
    for step in steps:
        frame = agent.step(frame, step)
        assert "error" not in frame, frame["error"]
    return frame


def arguments_for(
    frame: dict[str, Any], step: tuple[str, dict[str, Any]], request_id: str | None = None
) -> tuple[str, dict[str, Any]]:
    tool, arguments = step
    extra = {"requestId": request_id} if request_id else {}
    if tool == "respond":
        return "respond", {**frame["decision"]["reply"]["arguments"], **arguments, **extra}
    basis = frame["basis"]
    return tool, {"sessionId": basis["sessionId"], "viewId": basis["viewId"], **arguments, **extra}


def python(page: Page, code: str) -> Any:
    """Run Python in the page's worker (test hook); the code's last expression
    is JSON text, returned parsed."""
    return json.loads(page.evaluate("(code) => window.nethackTest.python(code)", code))


def journal(page: Page, session_id: str) -> list[dict[str, Any]]:
    return python(
        page,
        f"""
import json
from nethack_webmcp import worker
json.dumps(await worker._games().store.journal({session_id!r}))""",
    )


def stored_session(page: Page, session_id: str) -> dict[str, Any]:
    return python(page, f"from nethack_webmcp import worker\nawait worker.stored({session_id!r})")


def faults(page: Page, config: dict[str, Any] | None) -> None:
    page.evaluate("(config) => window.nethackTest.faults(config)", config)


def owned(page: Page, session_id: str) -> bool:
    return bool(page.evaluate("(id) => (window.nethackSite.games[id] || {}).owner === true", session_id))


# ---- the native twin ------------------------------------------------------------------------


async def _twin(create: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> tuple[str, int]:
    from nethack_webmcp.engine.native import NativeEngine
    from nethack_webmcp.session import GameRegistry
    from nethack_webmcp.tools import BY_NAME, ToolContext

    games = GameRegistry(NativeEngine.start)
    ctx = ToolContext(games)
    try:
        session = await games.create(dict(create))
        frame = await BY_NAME["observe"].call(ctx, {"sessionId": session.session_id})
        for step in steps:
            name, arguments = arguments_for(frame, step)
            frame = await BY_NAME[name].call(ctx, arguments)
            assert "error" not in frame, frame["error"]
        observed = await BY_NAME["observe"].call(ctx, {"sessionId": session.session_id})
        return observed["result"]["stateHash"], observed["basis"]["revision"]
    finally:
        await games.close_all()


def twin(page: Page, session_id: str, steps: list[tuple[str, dict[str, Any]]]) -> tuple[str, int]:
    """(state hash, revision) of `steps` played uninterrupted natively on the
    browser game's recorded creation parameters."""
    return run(_twin(stored_session(page, session_id)["create"], steps))
