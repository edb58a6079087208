"""test_watching.py - the spectator as a person uses it (issue 12): a game
started from the page and played through WebMCP, the tiles view, screens
from a phone to a desktop, a clear ended state, follow mode, and records that
equal the ones the Python layer computes.

Screenshots for review go to build/screenshots/ (git-ignored).
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import BrowserContext, Page

from .durable_harness import Agent, open_site, python, reload
from .site_harness import SCREENSHOTS, start_from_form, wait_for_revision, wait_until, walkable_direction

SCREENS = {"phone": (390, 844), "tablet": (1024, 768), "desktop": (1400, 900)}
HOSTILE_NAME = "<img src=x onerror=1>"
MARKUP = "#main img, #main script, #main svg, #main iframe"

LAYOUT = """() => {
  const root = document.documentElement;
  const hero = document.querySelector('pre.map .hero');
  const canvas = document.querySelector('canvas.tiles');
  const mapBox = document.querySelector('.map-box');
  const box = mapBox ? mapBox.getBoundingClientRect() : null;
  let heroBox = null;
  if (hero) { const r = hero.getBoundingClientRect(); heroBox = {left: r.left, right: r.right}; }
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, innerWidth: window.innerWidth,
          heroBox, box: box && {left: box.left, right: box.right}, canvas: canvas ? (() => { const r = canvas.getBoundingClientRect();
            return {left: r.left, right: r.right, width: r.width, state: canvas.dataset.state,
                    drawn: Number(canvas.dataset.drawn || 0)}; })() : null};
}"""


ACCESSIBILITY = """() => {
  const rgb = (text) => text.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => { const c = [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  const ruler = document.querySelector('pre.map .ruler');
  const [fore, back] = [luminance(rgb(getComputedStyle(ruler).color)),
                        luminance(rgb(getComputedStyle(document.querySelector('pre.map')).backgroundColor))];
  const stat = document.querySelector('.status .stat');
  return {mapLabel: document.querySelector('pre.map').getAttribute('aria-label'),
          live: document.getElementById('live-summary').getAttribute('aria-live'),
          announced: document.getElementById('live-summary').textContent ===
                     document.querySelector('[data-field=map-summary]').textContent,
          rulerContrast: (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05),
          statText: stat.textContent, statLabel: stat.querySelector('.label').textContent};
}"""


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"watch-{name}.png"), full_page=True)


def show(page: Page, fragment: str) -> None:
    page.evaluate("(hash) => { location.hash = hash; }", fragment)


def assert_fits(page: Page, screen: str, mode: str) -> None:
    layout = page.evaluate(LAYOUT)
    assert layout["scrollWidth"] <= layout["clientWidth"], (screen, mode, layout)
    if mode == "ascii":
        hero = layout["heroBox"]
        assert hero and hero["left"] >= 0 and hero["right"] <= layout["innerWidth"], (screen, layout)
    elif mode == "tiles":
        # tiles keep an integer scale: the map box fits the screen and scrolls (test_board.py)
        canvas, box = layout["canvas"], layout["box"]
        assert canvas and box["left"] >= 0 and box["right"] <= layout["innerWidth"], (screen, layout)


def test_a_game_started_from_the_page_is_playable_and_fits_every_screen(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    game = start_from_form(
        page,
        name=HOSTILE_NAME,
        role="samurai",
        race="human",
        seed="4242",
        harness_name="<b>person</b>",
        model_name="none",
    )
    assert not game.startswith("refused"), game
    wait_until(page, "(id) => document.getElementById('main').dataset.gameId === id", 10, game)

    # the in-page agent plays it through WebMCP
    frame = agent.ok("observe", {"sessionId": game})
    assert frame["scene"]["self"]["name"] == HOSTILE_NAME and frame["scene"]["self"]["role"].lower() == "samurai"
    moved = agent.ok(
        "travel",
        {
            "sessionId": game,
            "viewId": frame["basis"]["viewId"],
            "mode": "step",
            "target": {"direction": walkable_direction(frame)},
        },
    )
    assert moved["outcome"]["submission"] == "accepted"
    wait_for_revision(page, moved["basis"]["revision"])
    # the activity feed shows the call as text
    feed = wait_until(page, "() => document.querySelector('[data-field=activity]')?.textContent", 10)
    assert "travel" in feed and f"revision {moved['basis']['revision']}" in feed
    summary = page.evaluate("() => document.querySelector('[data-field=map-summary]').textContent")
    position = moved["scene"]["self"]["position"]
    assert f"column {position['x']}, row {position['y']}" in summary
    assert page.evaluate("() => document.querySelector('[data-field=name]').textContent") == HOSTILE_NAME
    # accessible: a labelled map with a live summary, contrasting rulers, labels apart from values, a skip link
    a11y = page.evaluate(ACCESSIBILITY)
    assert a11y["mapLabel"] and a11y["live"] == "polite" and a11y["announced"] and a11y["rulerContrast"] >= 4.5, a11y
    assert a11y["statText"].startswith(f"{a11y['statLabel']}: "), a11y
    hash_before = page.evaluate("() => location.hash")
    page.evaluate("() => document.querySelector('.skip-link').focus()")
    assert page.evaluate("() => document.querySelector('.skip-link').getBoundingClientRect().top >= 0"), (
        "shown on focus"
    )
    page.keyboard.press("Enter")
    assert page.evaluate("() => [document.activeElement.id, location.hash]") == ["main", hash_before]

    for screen, (width, height) in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        show(page, "#/")
        wait_until(page, "() => document.querySelector('[data-list=games]')", 10)
        assert_fits(page, screen, "home")
        shot(page, f"home-{screen}")
        show(page, f"#/g/{game}")
        wait_until(page, "() => document.querySelector('pre.map .hero')", 10)
        assert_fits(page, screen, "ascii")
        shot(page, f"game-ascii-{screen}")
        if screen == "tablet":  # the status sits beside the map up to ~1280 px
            beside = page.evaluate("""() => { const map = document.querySelector('.map-panel').getBoundingClientRect();
              const status = document.querySelector('.status').getBoundingClientRect();
              return status.left >= map.right && status.top < map.bottom; }""")
            assert beside
        page.locator("[data-control=map-tiles]").click()
        wait_until(page, "() => document.querySelector('canvas.tiles')?.dataset.state === 'drawn'", 10)
        assert_fits(page, screen, "tiles")
        shot(page, f"game-tiles-{screen}")
        page.locator("[data-control=map-ascii]").click()
        wait_until(page, "() => document.querySelector('pre.map')", 10)

    # the tiles choice is remembered; tiles are drawn for what was shown
    page.set_viewport_size({"width": 1400, "height": 900})
    page.locator("[data-control=map-tiles]").click()
    reload(page)
    canvas = wait_until(
        page,
        "() => { const c = document.querySelector('canvas.tiles');"
        " return c && c.dataset.state === 'drawn' && Number(c.dataset.drawn); }",
        15,
    )
    assert canvas > 20, "the hero, floor and walls are drawn with tiles"
    assert page.evaluate(f"() => document.querySelectorAll('{MARKUP}').length") == 0
    assert page.evaluate("() => document.querySelector('[data-field=harness]').textContent") == "<b>person</b>"
    page.locator("[data-control=map-ascii]").click()

    # a game started with "let the autopilot play it" is played by the autopilot through the tools
    show(page, "#/")
    page.locator("[data-control=start-autopilot]").check()
    handed = start_from_form(page, name="Cy", seed="77")
    try:
        state = wait_until(
            page,
            "(id) => { const s = window.nethackSite.autopilot;"
            " return s.gameId === id && (s.unhandled || s.actions >= 3) && {...s}; }",
            60,
            handed,
        )
        assert state["unhandled"] is None and state["actions"] >= 3, state
    finally:
        page.evaluate("() => { location.hash = '#/'; }")
        if page.evaluate("() => window.nethackSite.autopilot.running"):
            page.locator("[data-control=autopilot]").click()
    assert agent.ok("observe", {"sessionId": handed})["basis"]["revision"] >= 3


def answer_to_the_end(agent: Agent, frame: dict[str, Any], yes: str) -> dict[str, Any]:
    """Answer standing questions (yes to the prompt `yes`, no or cancel to the rest) until the game ends."""
    for _ in range(30):
        decision = frame["decision"]
        if frame["control"]["gate"] == "ended" or decision is None:
            return frame
        if decision["kind"] == "confirmation":
            frame = agent.ok("respond", {**decision["reply"]["arguments"], "value": decision["prompt"] == yes})
        else:
            frame = agent.ok("respond", decision["cancel"]["arguments"])
    raise AssertionError(f"the game did not end: {frame['decision']}")


def quit_game(agent: Agent, game: str) -> dict[str, Any]:
    frame = agent.ok("observe", {"sessionId": game})
    frame = agent.ok("session", {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "quit"})
    return answer_to_the_end(agent, frame, "Really quit?")


DEADLY = """
import json, time
from nethack_webmcp import worker
session = await worker._games().create({"seed": 7, "wizard": True, "role": "valkyrie", "name": "Bo",
                                        "createdAt": int(time.time()), "harness_name": "e2e watching"})
for n in range(3):
    await session.step("debug.wizard", {"command": "createMonster"}, request_id=f"ant{n}.1")
    await session.step("decision.answer", {"decisionId": session.decision["id"],
                                           "answer": {"kind": "text", "text": "soldier ant"}}, request_id=f"ant{n}.2")
json.dumps(session.session_id)"""


def die(agent: Agent, game: str) -> dict[str, Any]:
    """Search in place among three soldier ants until the game asks "Die?", then say yes."""
    frame = agent.ok("observe", {"sessionId": game})
    for _ in range(80):
        decision = frame["decision"]
        if frame["control"]["gate"] == "ended":
            return frame
        if decision is not None:
            if decision["kind"] == "confirmation" and decision["prompt"] == "Die?":
                return answer_to_the_end(agent, frame, "Die?")
            frame = (
                agent.ok("respond", decision["cancel"]["arguments"])
                if decision.get("cancel")
                else agent.ok("respond", {**decision["reply"]["arguments"], "value": False})
            )
            continue
        frame = agent.ok("interact", {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "search"})
    raise AssertionError("the hero did not die among three soldier ants")


RECORDS_TABLE = """() => [...document.querySelectorAll('table.records tbody tr')].map((row) => {
  const cell = (name) => row.querySelector(`[data-col="${name}"]`).textContent;
  return {gameId: row.dataset.gameId, name: cell('character'), role: cell('role'), reason: cell('end-reason'),
          cause: cell('cause'), turns: cell('turns'), deepest: cell('deepest'), depth: cell('depth'),
          score: cell('score'), harness: cell('harness'), model: cell('model')};
})"""

PYTHON_RECORDS = """
import json
from nethack_webmcp import worker
store = worker._games().store
records = await store.recent_records(10)
json.dumps([{**record, "role": (await store.get_session(record["sessionId"]))["metadata"]["role"]}
            for record in records])"""


def ended_state(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => ({
      banner: document.querySelector('[data-panel=game-over]')?.textContent || null,
      decision: Boolean(document.querySelector('[data-panel=decision]')),
      ownership: document.querySelector('[data-panel=ownership]')?.dataset.ownership,
      lifecycle: document.querySelector('[data-field=lifecycle]')?.textContent})""")


def test_ended_games_show_a_banner_and_records_equal_the_python_records(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok(
        "session",
        {
            "action": "create",
            "seed": 2024,
            "name": "Ada",
            "role": "wizard",
            "harness_name": "e2e watching",
            "model_name": "scripted",
        },
    )
    quitter = created["basis"]["sessionId"]
    show(page, f"#/g/{quitter}")
    quit_end = quit_game(agent, quitter)["scene"]["end"]
    assert quit_end["how"] == "quit"

    victim = python(page, DEADLY)
    died = die(agent, victim)
    death = died["scene"]["end"]
    assert death["how"] != "quit" and death["death"].startswith("killed by"), death

    # the ended game: a banner, no question panel, ownership ended; after a reload too
    show(page, f"#/g/{victim}")
    for attempt in ("shown", "reloaded"):
        # (until this game's banner: right after the route changes, the page
        # may still show the game watched before, which ended too)
        state = wait_until(
            page,
            "(death) => { const b = document.querySelector('[data-panel=game-over]');"
            " const o = document.querySelector('[data-panel=ownership]');"
            " return b && o && o.dataset.ownership === 'ended' && b.textContent.includes(death) && b.textContent; }",
            15,
            death["death"],
        )
        assert death["death"] in state and f"turn {death['turn']}" in state and f"score {death['score']}" in state
        assert ended_state(page)["decision"] is False, attempt
        assert ended_state(page)["lifecycle"] == "ended"
        shot(page, f"ended-{attempt}")
        if attempt == "shown":
            reload(page)

    # the records table is the Python layer's records, field by field
    show(page, "#/")
    expected = python(page, PYTHON_RECORDS)
    assert {record["sessionId"] for record in expected} == {quitter, victim}
    shown = wait_until(
        page, "(n) => { const rows = (" + RECORDS_TABLE + ")(); return rows.length === n && rows; }", 15, len(expected)
    )
    assert [row["gameId"] for row in shown] == [record["sessionId"] for record in expected]
    for row, record in zip(shown, expected, strict=True):
        assert row == {
            "gameId": record["sessionId"],
            "name": record["characterName"],
            "role": record["role"],
            "reason": record["endReason"],
            "cause": record["death"] or "—",
            "turns": str(record["turns"]),
            "deepest": str(record["deepestDepth"]),
            "depth": str(record["lastDepth"]),
            "score": str(record["score"]),
            "harness": record["harnessName"] or "—",
            "model": record["modelName"] or "—",
        }
    reasons = {record["sessionId"]: record["endReason"] for record in expected}
    assert reasons == {quitter: "quit", victim: "died"}
    shot(page, "records")


def test_follow_mode_moves_to_the_next_autopilot_game(ctx: BrowserContext, site_url: str) -> None:
    player = open_site(ctx, site_url)
    agent = Agent(player)
    victim = python(player, DEADLY)
    agent.ok("observe", {"sessionId": victim})  # listed as a live game of this tab

    watcher = open_site(ctx, site_url, "#/watch")
    wait_until(watcher, "(id) => document.getElementById('main').dataset.gameId === id", 15, victim)
    assert watcher.evaluate("() => document.getElementById('main').dataset.follow") == "true"

    die(agent, victim)
    wait_until(watcher, "() => document.querySelector('[data-panel=game-over]')", 10)
    # the autopilot, told to keep playing, starts its next game; the watcher follows within 2 s
    player.evaluate("() => { location.hash = '#/'; }")
    player.locator("[data-control=autopilot-keep-playing]").check()
    player.locator("[data-control=autopilot]").click()
    try:
        next_game = wait_until(
            player, "(id) => { const g = window.nethackSite.autopilot.gameId; return g && g !== id && g; }", 30, victim
        )
        started = time.monotonic()
        wait_until(watcher, "(id) => document.getElementById('main').dataset.gameId === id", 2.0, next_game)
        followed_in = time.monotonic() - started
        notice = watcher.evaluate("() => document.querySelector('[data-field=follow-notice]').textContent")
        assert notice.startswith("Bo died on Dlvl 1 → now watching"), notice
        shot(watcher, "follow")
    finally:
        if player.evaluate("() => window.nethackSite.autopilot.running"):
            player.locator("[data-control=autopilot]").click()
    assert followed_in <= 2.0
