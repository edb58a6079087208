"""test_snapshot_boot.py - a boot from the build's Python snapshot and a plain boot are the same game host.

One fresh browser profile boots from the snapshot (web/dist/snapshot/); in
another the snapshot's URL is refused, so the worker falls back to a plain
boot (Pyodide from scratch, micropip installs the wheel) and says so. Both
expose the same tools and answer the same seeded game with byte-identical
frames.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route

from .durable_harness import CREATE, SCRIPT, arguments_for, context, wait_ready

TOOLS = """async () => JSON.stringify((await document.modelContext.getTools()).map((tool) => ({
  name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema,
  annotations: tool.annotations})))"""
# the frame's JSON text as the page's tool answers it (the polyfill answers text)
CALL_TEXT = """async ([name, input]) => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((candidate) => candidate.name === name);
  const result = await context.executeTool(tool, JSON.stringify(input));
  return typeof result === 'string' ? result : JSON.stringify(result);
}"""


def play_texts(page: Page) -> list[str]:
    """The seeded game's frames, as text: create, then the shared script."""
    texts = [page.evaluate(CALL_TEXT, ["session", CREATE])]
    for step in SCRIPT:
        frame = json.loads(texts[-1])
        assert "error" not in frame, frame["error"]
        texts.append(page.evaluate(CALL_TEXT, list(arguments_for(frame, step))))
    return texts


def unsealed(texts: list[str]) -> list[str]:
    """The frames with what differs between any two games by design - the
    game's random names (its sessionId, the nonces of its viewIds and
    operationIds) and the
    wall-clock second it was created at - replaced by placeholders; every
    other byte is kept."""
    basis = json.loads(texts[0])["basis"]
    nonce = basis["viewId"].split("-", 1)[1]
    named = (text.replace(basis["sessionId"], "<session>").replace(f"-{nonce}", "-<nonce>") for text in texts)
    return [OPERATION.sub(r'"op-\1-<nonce>"', CREATED_AT.sub('"createdAt":0', text)) for text in named]


CREATED_AT = re.compile(r'"createdAt":\d+')
OPERATION = re.compile(r'"op-(\d+)-[0-9a-f]{6}"')
RANDOM = "() => window.nethackTest.python('import random, secrets; f\"{random.random()} {secrets.token_hex(8)}\"')"


def booted(browser: Browser, url: str, refuse_snapshot: bool) -> dict[str, Any]:
    ctx = context(browser)
    try:
        refused: list[str] = []
        if refuse_snapshot:

            def refuse(route: Route) -> None:
                refused.append(route.request.url)
                route.abort()

            ctx.route("**/snapshot/*", refuse)
        page = ctx.new_page()
        page.goto(url)
        wait_ready(page)
        return {
            "timings": page.evaluate("() => window.nethackSite.timings"),
            "line": page.locator("#boot").text_content() or "",
            "tools": page.evaluate(TOOLS),
            "frames": play_texts(page),
            "refused": refused,
            # a second boot in the same profile: warm, from the snapshot again unless refused
            "random": [page.evaluate(RANDOM), second_boot_random(ctx, url)],
        }
    finally:
        ctx.close()


def second_boot_random(ctx: BrowserContext, url: str) -> str:
    page = ctx.new_page()
    page.goto(url)
    wait_ready(page)
    value = page.evaluate(RANDOM)
    page.close()
    return value


def stages_in_order(timings: dict[str, Any], stages: tuple[str, ...]) -> None:
    """Each stage of the path was reported (timings: when it began), in this order."""
    assert all(stage in timings for stage in stages), timings
    began = [timings[stage] for stage in stages]
    assert began == sorted(began), timings


def test_a_snapshot_boot_and_a_plain_boot_are_the_same_host(plain_browser: Browser, site_url: str) -> None:
    snapshot = booted(plain_browser, site_url, refuse_snapshot=False)
    plain = booted(plain_browser, site_url, refuse_snapshot=True)

    assert snapshot["timings"]["boot"] == "snapshot", snapshot["timings"]
    assert "from the build snapshot" in snapshot["line"], snapshot["line"]
    assert "micropip" not in snapshot["timings"], snapshot["timings"]  # no plain-boot stage ran
    stages_in_order(snapshot["timings"], ("snapshot", "package", "engine", "start", "ready"))

    assert plain["refused"], "the snapshot was never requested"
    assert plain["timings"]["boot"] == "plain", plain["timings"]
    assert plain["timings"]["snapshotFailure"], plain["timings"]
    assert "the build snapshot failed" in plain["line"], plain["line"]
    assert "micropip" in plain["timings"], plain["timings"]
    # the snapshot was tried first, then the plain path from its start
    stages_in_order(plain["timings"], ("snapshot", "pyodide", "micropip", "package", "engine", "start", "ready"))

    assert snapshot["tools"] == plain["tools"]
    assert len(json.loads(snapshot["tools"])) == 11
    assert len(snapshot["frames"]) == len(SCRIPT) + 1
    # every snapshot boot starts from the same memory: its random state must not be shared
    assert snapshot["random"][0] != snapshot["random"][1], snapshot["random"]
    frames = zip(unsealed(snapshot["frames"]), unsealed(plain["frames"]), strict=True)
    for index, (restored, started) in enumerate(frames):
        at = next((i for i, (a, b) in enumerate(zip(restored, started, strict=False)) if a != b), None)
        window = slice(max(0, (at or 0) - 80), (at or 0) + 40)
        assert restored == started, (
            f"frame {index} differs between the snapshot boot and the plain boot at {at}: "
            f"{restored[window]!r} != {started[window]!r}"
        )
