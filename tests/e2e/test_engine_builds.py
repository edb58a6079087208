"""test_engine_builds.py - the page's engine build: JSPI in Chromium, Asyncify
in a browser without JSPI, and one game across both.

The fallback is forced with the test hook `__NETHACK_TEST_WITHOUT_JSPI__`: the
worker deletes WebAssembly.Suspending/promising before it picks a build, so
it takes exactly the path a browser without JSPI takes (Chromium 156 cannot
switch JSPI off by flag). Pages of one browser context share IndexedDB, so
a game journaled by the Asyncify page resumes on the JSPI page and back.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .durable_harness import CREATE, SCRIPT, Agent, context, open_site, owned
from .site_harness import wait_until

WITHOUT_JSPI = "globalThis.__NETHACK_TEST_WITHOUT_JSPI__ = true;"


@pytest.fixture
def ctx(plain_browser: Browser) -> Iterator[BrowserContext]:
    made = context(plain_browser)
    errors: list[str] = []
    made.on("weberror", lambda error: errors.append(str(error.error)))
    try:
        yield made
    finally:
        made.close()
    assert not errors, f"uncaught page errors: {errors}"


def open_page(ctx: BrowserContext, url: str, *, jspi: bool, requests: list[str]) -> Page:
    page = ctx.new_page()
    page.on("request", lambda request: requests.append(request.url))
    if not jspi:
        page.add_init_script(WITHOUT_JSPI)
    page.goto(url)
    wait_until(page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 120)
    return page


def play(agent: Agent, frame: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    for step in steps:
        frame = agent.step(frame, step)
        assert "error" not in frame, frame["error"]
    return frame


def test_the_page_picks_jspi_and_falls_back_to_asyncify(ctx: BrowserContext, site_url: str) -> None:
    jspi_requests: list[str] = []
    jspi_page = open_page(ctx, site_url, jspi=True, requests=jspi_requests)
    jspi_engine = jspi_page.evaluate("() => window.nethackSite.engine")
    assert jspi_engine["build"] == "jspi" and jspi_engine["buildIdentity"].startswith("jspi-sha256:")
    assert any("/engine/jspi/nethack.wasm" in url for url in jspi_requests)
    assert not any("/engine/asyncify/" in url for url in jspi_requests)

    fallback_requests: list[str] = []
    fallback = open_page(ctx, site_url, jspi=False, requests=fallback_requests)
    engine = fallback.evaluate("() => window.nethackSite.engine")
    assert engine["build"] == "asyncify" and engine["buildIdentity"].startswith("asyncify-sha256:")
    assert any("/engine/asyncify/nethack.wasm" in url for url in fallback_requests)
    assert not any("/engine/jspi/" in url for url in fallback_requests)
    # both builds play the same rules: one game identity
    assert fallback.evaluate("() => window.nethackSite.identity") == \
        jspi_page.evaluate("() => window.nethackSite.identity")


def test_a_game_moves_between_the_builds(ctx: BrowserContext, site_url: str) -> None:
    asyncify_page = open_page(ctx, site_url, jspi=False, requests=[])
    asyncify = Agent(asyncify_page)
    created = asyncify.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    play(asyncify, created, SCRIPT[:4])
    before = asyncify.ok("observe", {"sessionId": game})
    asyncify.ok("session", {"action": "close", "sessionId": game})  # hands it over, stays stored

    jspi_page = open_page(ctx, site_url, jspi=True, requests=[])
    jspi = Agent(jspi_page)
    resumed = jspi.ok("observe", {"sessionId": game})
    report = resumed["diagnostics"]["resume"]
    assert report["replayed"] == 4
    assert report["engineBuild"] == jspi_page.evaluate("() => window.nethackSite.engine.buildIdentity")
    assert resumed["basis"]["revision"] == before["basis"]["revision"]
    assert resumed["result"]["stateHash"] == before["result"]["stateHash"]
    assert resumed["decision"] == before["decision"] and resumed["scene"] == before["scene"]
    play(jspi, resumed, SCRIPT[4:7])
    final = jspi.ok("observe", {"sessionId": game})
    jspi.ok("session", {"action": "close", "sessionId": game})

    asyncify_page.reload()
    wait_until(asyncify_page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 120)
    back = Agent(asyncify_page).ok("observe", {"sessionId": game})
    assert back["diagnostics"]["resume"]["replayed"] == 7
    assert back["result"]["stateHash"] == final["result"]["stateHash"]
    assert back["basis"]["revision"] == final["basis"]["revision"]
    assert owned(asyncify_page, game)
