"""test_server_spectator.py - a person watches, in Chromium, a game a desktop agent plays.

The agent is the official `mcp` client driving `python -m nethack_webmcp.mcp`
over stdio; the page is the server's spectator (the site's spectator
modules in server mode, web/src/server/). The map, status, standing
question and messages follow each call within a second; a reload and a
second tab leave the game's revision and journal as they were; hostile
names stay text; a completed game shows its record, and the root lists it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from support.client import bound
from support.watched import ThreadedAgent, require_driver

from .site_harness import SCREENSHOTS, assert_spectator_matches, spectator_state, wait_until, walkable_direction

FOLLOW_S = 1.0  # the spectator shows a call's result within this
HOSTILE_NAME = "<b>x</b><script>y</script>"
HOSTILE_MODEL = "<img src=x onerror=alert(1)>"


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[ThreadedAgent]:
    require_driver()
    agent = ThreadedAgent(tmp_path / "state")
    agent.state = tmp_path / "state"  # type: ignore[attr-defined]
    try:
        yield agent
    finally:
        agent.close()


def shows(page: Page, revision: int, started: float) -> float:
    """Wait until the page shows `revision`; seconds since `started`."""
    wait_until(page, "(r) => document.getElementById('main').dataset.revision === String(r)", 10, revision)
    return time.monotonic() - started


def journal(state: Path, game: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(state / "games.sqlite3") as db:
        return db.execute(
            "SELECT seq, state, request_id FROM journal WHERE session_id = ? ORDER BY seq", (game,)
        ).fetchall()


def injected(page: Page) -> int:
    return page.evaluate("() => document.querySelectorAll('main script, main img, main b').length")


def test_a_person_watches_a_desktop_agent(plain_browser: Browser, agent: ThreadedAgent) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = plain_browser.new_context(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    base = agent.base
    try:
        frame = agent.call("session", action="create", seed=4242, name=HOSTILE_NAME, model_name=HOSTILE_MODEL)
        game = frame["basis"]["sessionId"]
        assert frame["result"]["watchUrl"] == f"{base}/g/{game}"
        page.goto(frame["result"]["watchUrl"])
        shows(page, frame["basis"]["revision"], time.monotonic())
        observed = agent.call("observe", sessionId=game)
        assert_spectator_matches(spectator_state(page), observed)
        shown = spectator_state(page)
        assert shown["name"] == HOSTILE_NAME[: len(shown["name"])] and shown["model"] == HOSTILE_MODEL
        # the game's own text carries the name too ("Hello <b>x</b>…, welcome"): text, not markup
        welcome = page.evaluate("() => document.querySelector('[data-field=messages]')?.textContent || ''")
        assert HOSTILE_NAME[: len(shown["name"])] in welcome
        assert injected(page) == 0

        # the agent plays: every result is on the page within a second
        lags = []
        for _ in range(4):
            started = time.monotonic()
            frame = agent.call("travel", **bound(frame), mode="step", target={"direction": walkable_direction(frame)})
            assert frame["outcome"]["submission"] == "accepted"
            lags.append(shows(page, frame["basis"]["revision"], started))
            assert_spectator_matches(spectator_state(page), agent.call("observe", sessionId=game))
        started = time.monotonic()
        frame = agent.call("interact", **bound(frame), action="kick")
        decision = frame["decision"]
        assert decision["kind"] == "direction"
        lags.append(shows(page, frame["basis"]["revision"], started))
        assert spectator_state(page)["prompt"] == decision["prompt"]
        started = time.monotonic()
        frame = agent.call("respond", **decision["reply"]["arguments"], value="north")
        lags.append(shows(page, frame["basis"]["revision"], started))
        assert spectator_state(page)["prompt"] != decision["prompt"]
        messages = page.evaluate("() => document.querySelector('[data-field=messages]')?.textContent || ''")
        for message in frame["scene"].get("messages", []):
            assert message in messages
        assert max(lags) < FOLLOW_S, lags
        page.screenshot(path=str(SCREENSHOTS / "server-spectator-game.png"))

        # a reload and a second tab change nothing
        before = journal(agent.state, game)  # type: ignore[attr-defined]
        revision = frame["basis"]["revision"]
        page.reload()
        shows(page, revision, time.monotonic())
        second = context.new_page()
        second.goto(f"{base}/g/{game}")
        shows(second, revision, time.monotonic())
        assert spectator_state(second) == spectator_state(page)
        page.wait_for_timeout(1500)  # several polls of both tabs
        assert journal(agent.state, game) == before  # type: ignore[attr-defined]
        assert agent.call("observe", sessionId=game)["basis"]["revision"] == revision
        second.close()

        # the game ends: its record on its page, then on the root
        frame = agent.call("session", **bound(frame), action="quit")
        while frame["decision"] is not None:
            decision = frame["decision"]
            if decision["kind"] == "confirmation":
                frame = agent.call(
                    "respond", **decision["reply"]["arguments"], value=decision["prompt"] == "Really quit?"
                )
            else:
                frame = agent.call("respond", **decision["cancel"]["arguments"])
        assert frame["control"]["gate"] == "ended"
        reason = wait_until(page, "() => document.querySelector('[data-field=end-reason]')?.textContent", 5)
        assert reason == "quit"
        agent.call("session", action="close", sessionId=game)
        wait_until(page, "() => document.querySelector('main .muted')?.textContent.includes('closed it')", 5)
        assert page.evaluate("() => document.querySelector('[data-field=end-reason]').textContent") == "quit"
        page.goto(f"{base}/")
        row = wait_until(
            page, '(id) => document.querySelector(`table.records tr[data-game-id="${id}"]`)?.textContent', 5, game
        )
        assert HOSTILE_NAME[:8] in row and HOSTILE_MODEL in row
        assert injected(page) == 0
        page.screenshot(path=str(SCREENSHOTS / "server-spectator-home.png"))

        # a dead connection: the root and a live game's page say so and keep trying, without errors
        live = agent.call("session", action="create", seed=5)
        watching = context.new_page()
        watching.on("pageerror", lambda error: errors.append(str(error)))
        watching.goto(live["result"]["watchUrl"])
        shows(watching, live["basis"]["revision"], time.monotonic())
        agent.close()
        for shown_page in (page, watching):
            line = wait_until(
                shown_page,
                "() => document.getElementById('boot').dataset.state === 'disconnected' "
                "&& document.getElementById('boot').textContent",
                10,
            )
            assert "cannot reach the MCP server" in line and "retrying in" in line
    finally:
        context.close()
    assert not errors, errors
    foreign = [url for url in requests if not url.startswith((base, "data:"))]
    assert not foreign, foreign
