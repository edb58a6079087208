"""test_engine_builds.py - the page's engine build: JSPI in Chromium, Asyncify
in a browser without JSPI, and one game across both.

The fallback is forced with the test hook `__NETHACK_TEST_WITHOUT_JSPI__`: the
worker deletes WebAssembly.Suspending/promising before it picks a build, so
it takes exactly the path a browser without JSPI takes (Chromium 156 cannot
switch JSPI off by flag). Pages of one browser context share IndexedDB, so
a game journaled by the Asyncify page resumes on the JSPI page and back.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page

from .durable_harness import CREATE, SCRIPT, Agent, owned, play
from .site_harness import wait_until

WITHOUT_JSPI = "globalThis.__NETHACK_TEST_WITHOUT_JSPI__ = true;"


def open_page(ctx: BrowserContext, url: str, *, jspi: bool, requests: list[str]) -> Page:
    page = ctx.new_page()
    page.on("request", lambda request: requests.append(request.url))
    if not jspi:
        page.add_init_script(WITHOUT_JSPI)
    page.goto(url)
    wait_until(page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 120)
    return page


def picked(ctx: BrowserContext, url: str, *, jspi: bool) -> str:
    """Open the site; check it runs and downloads the expected build, and
    only that one; returns the page's game identity."""
    build, other = ("jspi", "asyncify") if jspi else ("asyncify", "jspi")
    requests: list[str] = []
    page = open_page(ctx, url, jspi=jspi, requests=requests)
    engine = page.evaluate("() => window.nethackSite.engine")
    assert engine["build"] == build and engine["buildIdentity"].startswith(f"{build}-sha256:"), engine
    assert any(f"/engine/{build}/nethack.wasm" in request for request in requests)
    assert not any(f"/engine/{other}/" in request for request in requests)
    return str(page.evaluate("() => window.nethackSite.identity"))


def test_the_page_picks_jspi_and_falls_back_to_asyncify(ctx: BrowserContext, site_url: str) -> None:
    # both builds play the same rules: one game identity
    assert picked(ctx, site_url, jspi=True) == picked(ctx, site_url, jspi=False)


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
    reopened = jspi.ok("session", {"action": "resume", "sessionId": game})  # closed means closed: resume explicitly
    report = reopened["diagnostics"]["resume"]
    resumed = jspi.ok("observe", {"sessionId": game})
    # the inputs before the page's background checkpoint (if one was taken yet) plus those replayed after it
    assert report.get("fromCheckpoint", 0) + report["replayed"] == 4, report
    assert report["engineBuild"] == jspi_page.evaluate("() => window.nethackSite.engine.buildIdentity")
    assert resumed["basis"]["revision"] == before["basis"]["revision"]
    assert resumed["result"]["stateHash"] == before["result"]["stateHash"]
    assert resumed["decision"] == before["decision"] and resumed["scene"] == before["scene"]
    play(jspi, resumed, SCRIPT[4:7])
    final = jspi.ok("observe", {"sessionId": game})
    jspi.ok("session", {"action": "close", "sessionId": game})

    asyncify_page.reload()
    wait_until(asyncify_page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 120)
    reopened = Agent(asyncify_page).ok("session", {"action": "resume", "sessionId": game})
    report = reopened["diagnostics"]["resume"]
    assert report.get("fromCheckpoint", 0) + report["replayed"] == 7, report
    back = Agent(asyncify_page).ok("observe", {"sessionId": game})
    assert back["result"]["stateHash"] == final["result"]["stateHash"]
    assert back["basis"]["revision"] == final["basis"]["revision"]
    assert owned(asyncify_page, game)
