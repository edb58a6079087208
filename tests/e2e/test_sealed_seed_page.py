"""test_sealed_seed_page.py - the spectator page in Chromium never shows a live game's seed;
the ended game's record does.

The agent (the official `mcp` client over stdio) creates a game with a
seed a harness would choose and plays a few calls while a person watches
its page (`watchUrl`) and the root. Every byte the page received - each
response body but the event stream's (read whole, as raw bytes, by
tests/service/test_seed_never_leaks.py), its DOM and its text - is
searched for the seed. Then the game ends: the record summary shows it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Response
from support.client import bound
from support.watched import ThreadedAgent, require_driver

from .site_harness import wait_until


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[ThreadedAgent]:
    require_driver()
    agent = ThreadedAgent(tmp_path / "state")
    try:
        yield agent
    finally:
        agent.close()


def test_the_page_shows_no_live_seed_and_the_record_shows_it(plain_browser: Browser, agent: ThreadedAgent) -> None:
    seed = random.SystemRandom().randrange(2**31, 2**32)  # ten digits: nothing holds them by chance
    context = plain_browser.new_context()
    bodies: list[bytes] = []

    def keep(response: Response) -> None:
        if "text/event-stream" not in (response.headers.get("content-type") or ""):
            bodies.append(response.body())

    context.on("response", keep)
    page = context.new_page()
    try:
        frame = agent.call("session", action="create", seed=seed, harness_name="seal suite")
        game = frame["basis"]["sessionId"]
        page.goto(frame["result"]["watchUrl"])
        for _ in range(3):
            frame = agent.call("interact", **bound(frame), action="search")
        wait_until(
            page,
            "(r) => document.getElementById('main').dataset.revision === String(r)",
            10,
            frame["basis"]["revision"],
        )
        seen = [page.content().encode(), page.evaluate("() => document.body.innerText").encode()]
        root = context.new_page()
        root.goto(agent.base + "/")
        wait_until(root, '(id) => document.querySelector(`[data-game-id="${id}"]`) !== null', 10, game)
        seen += [root.content().encode()]
        received = b"\n".join(seen + bodies)
        assert game.encode() in received and len(bodies) >= 3
        assert str(seed).encode() not in received, "the page received a live game's seed"

        frame = agent.call("session", **bound(frame), action="quit")
        while frame["decision"] is not None:
            decision = frame["decision"]
            if decision["kind"] == "confirmation":
                reply = {**decision["reply"]["arguments"], "value": decision["prompt"] == "Really quit?"}
                frame = agent.call("respond", **reply)
            else:
                frame = agent.call("respond", **decision["cancel"]["arguments"])
        assert frame["control"]["gate"] == "ended"
        shown = wait_until(page, "() => document.querySelector('[data-field=seed]')?.textContent", 10)
        assert shown == str(seed), "the ended game's record publishes its seed"
    finally:
        context.close()
