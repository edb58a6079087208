"""test_webmcp_abort.py - a WebMCP call aborted through its AbortSignal loses nothing.

Real Chromium, the built site, the page's WebAssembly engine, on both WebMCP
paths. The agent side calls `executeTool(tool, input, {signal})` (the
polyfill's, or the browser's own) and aborts the signal at once or a few
milliseconds in - while the core worker runs the call. Like an MCP cancel,
the abort only stops the agent waiting: the operation runs to its boundary
in the worker, its receipt is recorded, a retry with the same requestId
returns that receipt, and the game advanced exactly once.
"""

from __future__ import annotations

import time
from typing import Any

from .site_harness import Site

ABORTED_CALL = """async ([name, input, delay, asObject]) => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((candidate) => candidate.name === name);
  const controller = new AbortController();
  // the browser's own executeTool takes the input object, the polyfill its JSON text
  const call = context.executeTool(tool, asObject ? input : JSON.stringify(input), { signal: controller.signal });
  call.catch(() => {}); // handled below, after the abort: not an unhandled rejection meanwhile
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  controller.abort();
  try {
    const result = await call;
    return { aborted: false, frame: typeof result === 'string' ? JSON.parse(result) : result };
  } catch (error) {
    return { aborted: true, name: error && error.name };
  }
}"""
SUPPORTS_SIGNAL = "() => typeof document.modelContext.executeTool === 'function'"


def aborted_call(site: Site, name: str, arguments: dict[str, Any], delay_ms: int) -> dict[str, Any]:
    outcome: dict[str, Any] = site.page.evaluate(ABORTED_CALL, [name, arguments, delay_ms, site.kind == "native"])
    assert outcome["aborted"] is False or outcome["name"] == "AbortError", outcome
    return outcome


def settled_revision(site: Site, game: str, before: int) -> int:
    """The game's revision once an aborted call has had time to reach its
    boundary in the worker (it advances by itself: nobody retried yet)."""
    deadline = time.monotonic() + 10
    while True:
        revision = int(site.call("observe", {"sessionId": game})["basis"]["revision"])
        if revision != before or time.monotonic() > deadline:
            return revision
        time.sleep(0.05)


def test_aborted_calls_keep_their_receipts(site: Site) -> None:
    assert site.page.evaluate(SUPPORTS_SIGNAL), f"{site.kind}: document.modelContext.executeTool takes a signal"
    created = site.call("session", {"action": "create", "seed": 5150, "role": "valkyrie"})
    game = created["basis"]["sessionId"]
    revision = created["basis"]["revision"]
    view = created["basis"]["viewId"]
    aborts = ran_on = 0
    for index, delay in enumerate((0, 0, 1, 2, 5)):
        arguments = {"sessionId": game, "viewId": view, "action": "search", "requestId": f"abort-{index}"}
        first = aborted_call(site, "interact", arguments, delay)
        aborts += first["aborted"]
        # an aborted call the worker had begun runs on to its boundary by itself
        alone = settled_revision(site, game, revision)
        assert alone in (revision, revision + 1)
        ran_on += first["aborted"] and alone == revision + 1
        retried = site.call("interact", arguments)
        assert retried["outcome"]["submission"] == "accepted", retried.get("error")
        assert retried["outcome"]["operationId"] == f"abort-{index}"
        assert retried["basis"]["revision"] == revision + 1, "the aborted input was applied exactly once"
        again = site.call("interact", arguments)
        assert again["basis"] == retried["basis"] and again["outcome"] == retried["outcome"]
        revision, view = retried["basis"]["revision"], retried["basis"]["viewId"]
    assert aborts >= 3, f"only {aborts} of 5 calls were really aborted"
    assert ran_on >= 3, f"only {ran_on} of {aborts} aborted calls went on to their boundary"

    # a whole explore leg aborted mid-way runs to its end; the retry is its receipt
    arguments = {"sessionId": game, "viewId": view, "mode": "explore", "requestId": "abort-leg"}
    first = aborted_call(site, "travel", arguments, 3)
    settled_revision(site, game, revision)
    retried = site.call("travel", arguments)
    assert retried["outcome"]["submission"] == "accepted", retried.get("error")
    moves = retried["outcome"]["actionsTaken"]
    assert retried["basis"]["revision"] == revision + moves
    looked = site.call("observe", {"sessionId": game})
    assert looked["basis"]["revision"] == revision + moves, (first, retried["outcome"])
    assert looked["control"]["gate"] in ("ready", "decision")
