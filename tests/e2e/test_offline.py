"""test_offline.py - the site works offline after one visit (its service worker).

The site is served by a server of this test's own, so the network can really
be cut: after the first visit the server is shut down and the browser context
goes offline, then the page reloads, boots and plays from the service
worker's cache alone. A rebuilt manifest (another version) installs into a
new cache and the old one is deleted.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from typing import Any

from playwright.sync_api import Browser, Page

from .durable_harness import CREATE, SCRIPT, Agent, context, play, wait_ready
from .site_harness import DIST, QuietHandler, wait_until

VERSION = re.compile(rb'"version":"([0-9a-f]{16})"')


class SiteServer:
    """web/dist on 127.0.0.1; `sw_version` (when set) rewrites the manifest's
    version in sw.js, as a rebuilt site with other files would have it."""

    def __init__(self) -> None:
        self.sw_version: bytes | None = None
        self.paths: list[str] = []
        server = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                server.paths.append(self.path)
                if self.path.split("?")[0] == "/sw.js" and server.sw_version:
                    body = VERSION.sub(b'"version":"' + server.sw_version + b'"', (DIST / "sw.js").read_bytes())
                    self.send_response(200)
                    self.send_header("Content-Type", "text/javascript")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(DIST)))
        self.url = f"http://127.0.0.1:{self.http.server_port}/"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@contextmanager
def site_server() -> Iterator[SiteServer]:
    server = SiteServer()
    try:
        yield server
    finally:
        server.stop()


def built_version() -> str:
    found = VERSION.search((DIST / "sw.js").read_bytes())
    assert found, "web/dist/sw.js carries no manifest version: rebuild the site"
    return found.group(1).decode()


def wait_controlled(page: Page) -> dict[str, Any]:
    """Until the service worker has precached the build and controls the page."""
    wait_until(page, "() => window.nethackSite.offline.serviceWorker !== 'installing'", 120)
    offline = page.evaluate("() => window.nethackSite.offline")
    assert offline["serviceWorker"] == "ready", offline
    wait_until(page, "() => !!navigator.serviceWorker.controller", 30)
    return offline


def cache_names(page: Page) -> list[str]:
    return page.evaluate("async () => (await caches.keys()).filter((name) => name.startsWith('nethack-site-'))")


def test_the_site_boots_and_plays_with_the_network_cut(plain_browser: Browser) -> None:
    ctx = context(plain_browser)
    try:
        with site_server() as server:
            page = ctx.new_page()
            page.goto(server.url)
            wait_ready(page)
            offline = wait_controlled(page)
            assert offline["version"] == built_version()
            assert cache_names(page) == [f"nethack-site-{built_version()}"]
            assert (page.locator("#offline").text_content() or "").startswith("Offline: ready")
            url = server.url
        # the server is gone and the browser is offline: nothing can come from the network
        ctx.set_offline(True)
        assert page.evaluate("() => fetch('decision-frame.schema.json').then(() => 'fetched', () => 'failed')") == (
            "failed"
        ), "a file outside the precache was fetched: the network is not cut"
        page.reload()
        wait_ready(page)
        assert page.url.startswith(url)
        agent = Agent(page)
        frame = agent.ok("session", CREATE)
        frame = play(agent, frame, SCRIPT[:4])
        assert frame["basis"]["revision"] > 1
        # a game was created: the page asked for persistent storage and says what it got
        persisted = wait_until(page, "() => window.nethackSite.offline.persisted !== null", 10) and page.evaluate(
            "() => navigator.storage.persisted()"
        )
        wait_until(page, "(p) => window.nethackSite.offline.persisted === p", 10, persisted)
        line = page.locator("#offline").text_content() or ""
        assert ("storage is persistent" in line) if persisted else ("storage is not persistent" in line), line
    finally:
        ctx.close()


def test_a_rebuilt_manifest_replaces_the_cache(plain_browser: Browser) -> None:
    ctx = context(plain_browser)
    try:
        with site_server() as server:
            page = ctx.new_page()
            page.goto(server.url)
            wait_ready(page)
            old = wait_controlled(page)["version"]
            assert cache_names(page) == [f"nethack-site-{old}"]
            new = "0123456789abcdef" if old != "0123456789abcdef" else "fedcba9876543210"
            server.sw_version = new.encode()
            page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
            has = "(name) => caches.keys().then((names) => names.includes(name))"
            wait_until(page, has, 120, f"nethack-site-{new}")
            # the old build's cache is deleted once the new worker activates
            wait_until(page, f"async (name) => !(await ({has})(name))", 60, f"nethack-site-{old}")
            assert cache_names(page) == [f"nethack-site-{new}"]
            # the page stays on its build and says that a newer one is installed
            assert wait_until(page, "() => window.nethackSite.offline.newer", 30) == new
            assert "a newer build is installed" in (page.locator("#offline").text_content() or "")
            page.reload()
            wait_ready(page)
            assert wait_controlled(page)["version"] == new
    finally:
        ctx.close()
