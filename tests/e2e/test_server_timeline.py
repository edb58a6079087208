"""test_server_timeline.py - the server spectator's timeline in Chromium (docs/SPECTATOR.md, "The timeline").

An ended game of 3,000 moves (played here through the tools, one input or a
few per call, then quit): the page opens it; 20 random moves asked by
`#move=N` each show the map its receipt recorded for that move (the frame
the game had, from a verified replay); ← → step one move, Home and End go to
the ends; playback at 10 moves/s shows every move, in order, at about that
rate. A live game the reference autopilot plays (in another server process on
the same store) watched at 2 moves/s falls behind the present, and "Live"
returns to it. Watching writes nothing to the game's journal.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.hosting import native_registry
from nethack_webmcp.tools import BY_NAME, ToolContext
from nethack_webmcp.watch.frames import map_rows
from playwright.sync_api import Browser, Page
from support.inspector import node_bin
from support.watched import ThreadedAgent, http, require_driver

from .site_harness import ROOT, SCREENSHOTS, wait_until

MOVES = 3000
SEEKS = 20


async def play_and_quit(state: Path) -> tuple[str, dict[str, list[str]]]:
    """A game of at least MOVES inputs, ended by quitting; each call's map by its operation ID."""
    games = native_registry(str(state))
    ctx = ToolContext(games)
    # wizard mode: NetHack asks "Die?" instead of ending the game, so 3,000 inputs of searching and
    # exploring (no eating, no fighting) reach their end; the game is then quit
    session = await games.create({"seed": 20_261_201, "name": "Scrub", "wizard": True})
    game = session.session_id
    maps: dict[str, list[str]] = {}
    frame = await BY_NAME["observe"].call(ctx, {"sessionId": game})
    call, exploring = 0, True
    while frame["basis"]["revision"] < MOVES:  # one revision per input taken
        assert frame["control"]["gate"] != "ended", "the game ended before it was long enough"
        binding = {"sessionId": game, "viewId": frame["basis"]["viewId"]}
        call += 1
        if call % 2 == 0 and exploring:
            frame = await BY_NAME["travel"].call(ctx, {**binding, "mode": "explore", "maxActions": 8})
            exploring = bool((frame.get("outcome") or {}).get("actionsTaken"))  # the level explored: search
        else:
            frame = await BY_NAME["interact"].call(ctx, {**binding, "action": "search"})
        frame = await settle(ctx, frame, maps)
    binding = {"sessionId": game, "viewId": frame["basis"]["viewId"]}
    frame = await BY_NAME["session"].call(ctx, {**binding, "action": "quit"})
    for _ in range(16):
        decision = frame.get("decision")
        if not decision:
            break
        if decision["kind"] == "confirmation":
            reply = {**decision["reply"]["arguments"], "value": decision["prompt"] == "Really quit?"}
            frame = await BY_NAME[decision["reply"]["tool"]].call(ctx, reply)
        else:
            frame = await BY_NAME[decision["cancel"]["tool"]].call(ctx, decision["cancel"]["arguments"])
    assert frame["control"]["gate"] == "ended", frame.get("error")
    await games.close_all()
    return game, maps


async def settle(ctx: ToolContext, frame: dict[str, Any], maps: dict[str, list[str]]) -> dict[str, Any]:
    """Keep the call's map; answer a question in the way (yes to a confirmation, else dismissed)."""
    for _ in range(16):
        outcome = frame.get("outcome") or {}
        if outcome.get("operationId") and frame.get("scene"):
            maps[outcome["operationId"]] = map_rows(frame["scene"]["map"])
        decision = frame.get("decision")
        if not decision or frame["control"]["gate"] == "ended":
            break
        if decision["kind"] == "confirmation":  # "Die?" no (wizard mode); anything else yes
            value = not decision["prompt"].startswith("Die?")
            reply = {**decision["reply"]["arguments"], "value": value}
            frame = await BY_NAME[decision["reply"]["tool"]].call(ctx, reply)
        else:
            frame = await BY_NAME[decision["cancel"]["tool"]].call(ctx, decision["cancel"]["arguments"])
    return frame


@pytest.fixture
def state(tmp_path: Path) -> Iterator[Path]:
    """The store in memory-backed /dev/shm when there is one: thousands of calls, each fsynced."""
    require_driver()
    scratch = Path(tempfile.mkdtemp(dir="/dev/shm")) if Path("/dev/shm").is_dir() else tmp_path
    try:
        yield scratch / "state"
    finally:
        if scratch != tmp_path:
            shutil.rmtree(scratch, ignore_errors=True)


def journal(state: Path, game: str) -> list[Any]:
    with sqlite3.connect(state / "games.sqlite3") as db:
        return db.execute(
            "SELECT seq, state, receipt_json FROM journal WHERE session_id = ? ORDER BY seq", (game,)
        ).fetchall()


def shown_move(page: Page) -> int:
    return int(page.evaluate("() => document.querySelector('[data-field=timeline-frame]').dataset.move || -1"))


def wait_move(page: Page, move: int, timeout: float = 15) -> None:
    wait_until(
        page,
        "(k) => document.querySelector('[data-field=timeline-frame]')?.dataset.move === String(k)",
        timeout,
        move,
    )


def map_text(page: Page) -> str:
    return page.evaluate("() => document.querySelector('[data-field=timeline-map]').textContent")


def record_shown(page: Page) -> None:
    """Every move the frame view shows from now on, in order, with when (page time)."""
    page.evaluate(
        """() => {
        const frame = document.querySelector('[data-field=timeline-frame]');
        window.shownMoves = [];
        new MutationObserver(() => window.shownMoves.push([Number(frame.dataset.move), performance.now()]))
          .observe(frame, { attributes: true, attributeFilter: ['data-move'] });
      }"""
    )


def test_an_ended_game_seeks_steps_and_plays_every_move(plain_browser: Browser, state: Path) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        game, maps = pool.submit(asyncio.run, play_and_quit(state)).result()
    before = journal(state, game)
    server = ThreadedAgent(state)
    context = plain_browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        status, _, body = http("GET", f"{server.base}/api/games/{game}/moves?from=1&to=1")
        count = int(json.loads(body)["count"])
        assert status == 200 and count >= MOVES
        calls = all_calls(server.base, game)
        assert all(c["status"] and c["turn"] for c in calls), "every call's facts, from its receipt"
        with_map = [c for c in calls if c["id"] in maps]
        assert len(with_map) > SEEKS

        first = random.Random(7).choice(with_map)
        page.goto(f"{server.base}/g/{game}#move={first['last']}")
        wait_move(page, first["last"], 60)  # the first frame opens the replay: one verified pass over 3,000 inputs
        assert map_text(page) == "\n".join(maps[first["id"]])
        assert page.evaluate("() => document.querySelector('[data-field=timeline-scrubber]').max") == str(count)

        for chosen in random.Random(11).sample(with_map, SEEKS):
            page.evaluate("(k) => { location.hash = `#move=${k}`; }", chosen["last"])
            wait_move(page, chosen["last"])
            assert map_text(page) == "\n".join(maps[chosen["id"]]), chosen
            assert page.evaluate("() => document.querySelector('[data-field=timeline-frame]').dataset.exact") == "true"
        listed = page.evaluate("() => document.querySelector('[data-field=timeline-calls] li.current').textContent")
        assert "T:" in listed and "HP " in listed, listed
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "server-timeline-ended.png"), full_page=True)

        here = shown_move(page)
        page.focus("[data-field=timeline]")
        page.keyboard.press("ArrowRight")
        wait_move(page, here + 1)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        wait_move(page, here - 1)
        page.keyboard.press("Home")
        wait_move(page, 0)
        page.keyboard.press("End")
        wait_move(page, count)
        assert "the game ended" in page.evaluate(
            "() => document.querySelector('[data-field=timeline-where]').textContent"
        )
        assert page.evaluate("() => location.hash") == f"#move={count}", "a paused move is in the address"

        start = 1000
        page.evaluate("(k) => { location.hash = `#move=${k}`; }", start)
        wait_move(page, start)
        page.select_option("[data-field=timeline-speed]", "10")
        record_shown(page)
        page.click("[data-action=toggle]")
        time.sleep(4.0)
        page.click("[data-action=toggle]")
        shown = [entry for entry in page.evaluate("() => window.shownMoves") if entry[0] != start]  # drawn again
        moves = [move for move, _ in shown]
        assert moves == list(range(start + 1, start + 1 + len(moves))), f"every move, in order: {moves}"
        seconds = (shown[-1][1] - shown[0][1]) / 1000
        rate = (len(moves) - 1) / seconds
        assert len(moves) >= 25 and 7.0 <= rate <= 10.8, (len(moves), rate)
        assert not errors, errors
        assert journal(state, game) == before, "watching wrote nothing"
    finally:
        context.close()
        server.close()


def all_calls(base: str, game: str) -> list[dict[str, Any]]:
    calls: dict[str, dict[str, Any]] = {}
    first = 1
    while True:
        _, _, body = http("GET", f"{base}/api/games/{game}/moves?from={first}")
        page = json.loads(body)
        calls.update(page["calls"])
        if not page["moves"] or page["moves"][-1]["move"] >= page["count"]:
            return [calls[k] for k in sorted(calls, key=int)]
        first = page["moves"][-1]["move"] + 1


def test_a_live_autopilot_game_watched_at_2_moves_a_second_falls_behind_and_live_returns(
    plain_browser: Browser, state: Path
) -> None:
    state.mkdir(parents=True, exist_ok=True)
    server = ThreadedAgent(state)  # the spectator; the autopilot plays in a server process of its own
    autopilot = subprocess.Popen(
        [f"{node_bin()}/node", "tests/e2e/timeline_autopilot.mjs", str(state), "7", "400"],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        stdout=subprocess.PIPE,
        text=True,
    )
    context = plain_browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    try:
        assert autopilot.stdout is not None
        line = autopilot.stdout.readline()
        assert line.startswith("game "), line
        game = line.split()[1]
        page.goto(f"{server.base}/g/{game}")
        wait_until(page, "() => document.querySelector('[data-field=timeline]')?.dataset.mode === 'live'", 20)
        wait_until(page, "() => Number(document.querySelector('[data-field=timeline-scrubber]').max) > 5", 20)
        page.focus("[data-field=timeline]")
        for _ in range(5):  # a few moves back: playing into the present would turn live at once
            page.keyboard.press("ArrowLeft")
        page.select_option("[data-field=timeline-speed]", "2")
        record_shown(page)
        page.click("[data-action=toggle]")
        behind = wait_until(
            page,
            "() => { const t = document.querySelector('[data-field=timeline]');"
            " return t.dataset.mode === 'playing' && Number(t.dataset.behind) >= 20"
            " && window.shownMoves.length >= 3 && Number(t.dataset.behind); }",
            60,
        )  # a few moves shown too: one travel call can put the present 20 inputs ahead before the first step
        assert behind >= 20
        shown = [move for move, _ in page.evaluate("() => window.shownMoves")]
        assert shown == list(range(shown[0], shown[0] + len(shown))), f"2 moves/s, every one in order: {shown}"
        assert "behind the present" in page.evaluate(
            "() => document.querySelector('[data-field=timeline-state]').textContent"
        )
        page.screenshot(path=str(SCREENSHOTS / "server-timeline-behind.png"), full_page=True)
        page.click("[data-action=live]")
        wait_until(
            page,
            "() => { const t = document.querySelector('[data-field=timeline]');"
            " return t.dataset.mode === 'live' && Number(t.dataset.behind) === 0; }",
            10,
        )
        # live: the frame shown follows the present (its frame may still be on its way when live is set).
        # Both are read in one evaluation: the autopilot keeps playing, and one travel call can move the
        # present 20 inputs on between two separate reads.
        count = wait_until(
            page,
            "() => { const max = Number(document.querySelector('[data-field=timeline-scrubber]').max);"
            " const move = Number(document.querySelector('[data-field=timeline-frame]').dataset.move);"
            " return move >= max - 1 && max; }",
            10,
        )
        assert count > shown[-1] + 15
    finally:
        context.close()
        autopilot.kill()
        autopilot.wait()
        server.close()
