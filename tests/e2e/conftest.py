"""conftest.py - fixtures: the built site in real Chromium, on both WebMCP paths.

One static file server (127.0.0.1, ephemeral port) serves web/dist for the
whole run. Each WebMCP path gets one browser and one booted page, shared by
the tests of that path (Pyodide boots once per page);

(site_harness.py describes the two agent-side clients.)

Every request of every page and worker in a context is recorded, so tests
can check that the site asks nothing of any other origin.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

from .durable_harness import context
from .site_harness import DIST, Site, boot, launch, serve


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """pytest-playwright's `playwright` fixture, narrowed to this package.

    The sync API keeps its event loop registered as the running loop while
    it is started; session-wide it would break every asyncio test that runs
    after tests/e2e (asyncio.run() refuses to nest)."""
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="package")
def site_url() -> Iterator[str]:
    if not (DIST / "index.html").exists():
        pytest.fail(f"{DIST}/index.html is missing: build the site with ./scripts/build")
    with serve() as url:
        yield url


@pytest.fixture(scope="package", params=["native", "polyfill"])
def site(request: pytest.FixtureRequest, playwright: Playwright, site_url: str) -> Iterator[Site]:
    kind = request.param
    browser = launch(playwright, native=kind == "native")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    requests: list[str] = []
    context.on("request", lambda req: requests.append(req.url))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    booted = boot(page, site_url)
    assert booted["webmcp"] == kind, booted
    try:
        yield Site(kind, site_url, browser, context, page, requests)
    finally:
        context.close()
        browser.close()
    assert not errors, f"uncaught page errors: {errors}"
    foreign = [url for url in requests if not url.startswith((site_url, "data:"))]
    assert not foreign, f"requests outside the page's origin: {foreign}"


@pytest.fixture(scope="package")
def plain_browser(playwright: Playwright, site_url: str) -> Iterator[Browser]:
    """Chromium without the WebMCP flag, for the durability tests (they use the
    polyfill's client and a fresh browser context, i.e. a fresh IndexedDB, each)."""
    launched = launch(playwright, native=False)
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def ctx(plain_browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile with the test hooks on (durable_harness.context);
    fails the test on any uncaught page error."""
    made = context(plain_browser)
    errors: list[str] = []
    made.on("weberror", lambda error: errors.append(str(error.error)))
    try:
        yield made
    finally:
        made.close()
    assert not errors, f"uncaught page errors: {errors}"
