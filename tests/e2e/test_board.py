"""test_board.py - the game page people watch (issue 26), in real Chromium.

At 390, 768, 1024 and 1440 px wide: the map's top is inside the first
viewport, ASCII glyphs are at least 12 px tall (on a phone the box scrolls
and follows the hero, who stays in view), tiles are drawn at an integer
scale (16 or 32 CSS px), and the page never scrolls sideways. Zoom steps
between the integer scales. Take over asks in the page before it acts, the
tab title names the game on show, an ended game shows its tombstone and
its end-of-game windows in order, and axe-core finds no serious or
critical violation on the home, game and ended pages. Every page at every
size is photographed into build/screenshots/ (git-ignored) for review.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright
from support.client import bound
from support.watched import ThreadedAgent, require_driver

from .site_harness import ROOT, SCREENSHOTS, PolyfillClient, boot, launch, wait_until, walkable_direction

SIZES = [(390, 844), (768, 1024), (1024, 768), (1440, 900)]
HOSTILE_TV_NAME = "<b>Gus</b>"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

MEASURE = """() => {
  const box = document.querySelector('.map-box');
  const top = box.getBoundingClientRect().top;
  const pre = box.querySelector('pre.map');
  const canvas = box.querySelector('canvas.tiles');
  const hero = box.querySelector('pre.map .hero');
  const b = box.getBoundingClientRect();
  let heroInView = null;
  const inside = (r) => r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;
  if (hero) heroInView = inside(hero.getBoundingClientRect());
  if (canvas) { // the hero's tile, from its square
    const c = canvas.getBoundingClientRect();
    const size = c.width / 80;
    const [x, y] = [Number(box.dataset.heroX), Number(box.dataset.heroY)];
    const left = c.left + x * size;
    const top = c.top + y * size;
    heroInView = inside({left, top, right: left + size, bottom: top + size});
  }
  const status = document.querySelector('[data-field=status-lines]').getBoundingClientRect();
  return {
    top, viewport: innerHeight, boxBottom: b.bottom, statusTop: status.top,
    font: pre ? parseFloat(getComputedStyle(pre).fontSize) : null,
    glyph: hero ? hero.getBoundingClientRect().height : null,
    tile: canvas ? canvas.getBoundingClientRect().width / 80 : null,
    heroInView,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}"""


HOME_FIT = """() => ({
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  resume: [...document.querySelectorAll('.games [data-control=resume]')].map((n) => n.getBoundingClientRect().right),
  cells: [...document.querySelectorAll('table.games td, table.records td')].map((c) => c.getBoundingClientRect().right),
})"""


class Agent:
    def __init__(self, page: Page) -> None:
        self.client = PolyfillClient(page)

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        frame = self.client.call(name, arguments)
        assert isinstance(frame, dict) and frame.get("version") == 2, frame
        return frame


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = launch(playwright, native=False)
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture(scope="module")
def board(browser: Browser, site_url: str) -> Iterator[tuple[Page, Agent, str]]:
    """One booted page with one game (made by the tools, as an agent makes one), shown."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    boot(page, site_url)
    agent = Agent(page)
    created = agent.call("session", {"action": "create", "seed": 2626, "name": "Zedor", "harness_name": "e2e board"})
    game = created["basis"]["sessionId"]
    show(page, game)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield page, agent, game
    finally:
        context.close()
    assert not errors, f"uncaught page errors: {errors}"


def show(page: Page, game: str) -> None:
    page.evaluate("(id) => { location.hash = '#/g/' + id; }", game)
    wait_until(
        page,
        "(id) => document.getElementById('main').dataset.gameId === id && document.querySelector('.map-box')",
        15,
        game,
    )


def mode(page: Page, name: str) -> None:
    page.locator(f"[data-control=map-{name}]").click()
    wait_until(page, "(mode) => document.querySelector('.map-box')?.dataset.mode === mode", 10, name)
    if name == "tiles":
        wait_until(page, "() => document.querySelector('canvas.tiles')?.dataset.state === 'drawn'", 20)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}" for w, _ in SIZES])
def test_the_board_comes_first_at_every_size(board: tuple[Page, Agent, str], width: int, height: int) -> None:
    page, _, _ = board
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.scrollTo(0, 0)")
    mode(page, "ascii")
    page.wait_for_timeout(150)  # the resize observer re-centres on the hero
    ascii = page.evaluate(MEASURE)
    page.screenshot(path=str(SCREENSHOTS / f"board-game-ascii-{width}.png"))
    print(f"{width}x{height} ascii: {ascii}")
    assert 0 <= ascii["top"] < height, ascii
    assert ascii["statusTop"] >= ascii["boxBottom"] - 1, "the status lines sit right under the map"
    assert ascii["font"] >= 12, ascii
    assert ascii["glyph"] >= 12, ascii
    assert ascii["heroInView"], f"the view follows the hero: {ascii}"
    assert ascii["overflow"] <= 0, ascii

    mode(page, "tiles")
    page.wait_for_timeout(150)
    tiles = page.evaluate(MEASURE)
    page.screenshot(path=str(SCREENSHOTS / f"board-game-tiles-{width}.png"))
    print(f"{width}x{height} tiles: {tiles}")
    assert 0 <= tiles["top"] < height, tiles
    assert tiles["tile"] in (16, 32), tiles
    assert tiles["heroInView"], f"the view follows the hero: {tiles}"
    assert tiles["overflow"] <= 0, tiles
    mode(page, "ascii")


def test_tiles_zoom_between_integer_scales(board: tuple[Page, Agent, str]) -> None:
    page, _, _ = board
    page.set_viewport_size({"width": 1024, "height": 768})
    mode(page, "tiles")
    tile = "() => document.querySelector('canvas.tiles').getBoundingClientRect().width / 80"
    assert page.evaluate(tile) == 16
    page.locator("[data-control=map-zoom-in]").click()
    assert page.evaluate(tile) == 32
    assert page.evaluate(MEASURE)["heroInView"], "zoomed in, the view still follows the hero"
    page.locator(".map-box").hover()
    page.keyboard.down("Control")
    page.mouse.wheel(0, 120)  # Ctrl + wheel (a trackpad pinch) zooms out
    page.keyboard.up("Control")
    wait_until(page, f"() => ({tile})() === 16", 5)
    page.locator(".map-box").focus()  # the keyboard: + and - on the focused map
    page.keyboard.press("+")
    assert page.evaluate(tile) == 32
    page.keyboard.press("-")
    assert page.evaluate(tile) == 16
    mode(page, "ascii")


def test_the_tab_title_names_the_game(board: tuple[Page, Agent, str]) -> None:
    page, agent, game = board
    title = wait_until(page, "() => document.title.startsWith('Zedor') && document.title", 10)
    assert re.match(r"Zedor · Dlvl 1 · HP \d+/\d+ — NetHack for software agents$", title), title
    other = agent.call("session", {"action": "create", "seed": 2627, "name": "Bo", "harness_name": "e2e board"})
    show(page, other["basis"]["sessionId"])
    assert wait_until(page, "() => document.title.startsWith('Bo · Dlvl 1 · HP ') && document.title", 10)
    icon = page.evaluate("() => document.querySelector('link[rel=icon]').getAttribute('href')")
    assert icon.startswith("data:image/svg+xml,") and "43a047" in icon, icon  # full HP: a green badge
    shown = page.locator("[data-field=game-id]").text_content()
    assert shown == other["basis"]["sessionId"]
    page.evaluate("() => { location.hash = '#/'; }")
    assert wait_until(page, "() => document.title === 'NetHack for software agents'", 10)
    assert page.evaluate("() => document.querySelector('link[rel=icon]').getAttribute('href')") == "data:,"
    show(page, game)


def test_take_over_asks_first(board: tuple[Page, Agent, str], browser: Browser, site_url: str) -> None:
    page, _, game = board
    second = page.context.new_page()
    boot(second, f"{site_url}#/g/{game}")
    ownership = "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership"
    assert wait_until(second, f"() => ({ownership})() === 'observer'", 30)
    second.locator("[data-control=take-over]").click()
    confirm = second.locator("[data-panel=take-over-confirm]")
    confirm.wait_for(state="visible", timeout=5000)
    assert "stop" in (confirm.text_content() or "").lower()
    second.wait_for_timeout(300)
    assert second.evaluate(ownership) == "observer", "nothing moved before the answer"
    assert page.evaluate(ownership) == "owner"
    second.locator("[data-control=take-over-cancel]").click()
    confirm.wait_for(state="detached", timeout=5000)
    assert second.evaluate(ownership) == "observer"
    second.locator("[data-control=take-over]").click()
    second.locator("[data-control=take-over-confirm]").click()
    assert wait_until(second, f"() => ({ownership})() === 'owner'", 30)
    assert wait_until(page, f"() => ({ownership})() === 'lost'", 10)
    second.close()


def test_the_autopilot_plays_a_game_from_its_page(board: tuple[Page, Agent, str]) -> None:
    page, agent, _ = board
    created = agent.call("session", {"action": "create", "seed": 2629, "name": "Cy", "harness_name": "e2e board"})
    game = created["basis"]["sessionId"]
    show(page, game)
    start = int(page.evaluate("() => document.getElementById('main').dataset.revision"))
    page.locator("[data-control=autopilot-play]").click()
    assert wait_until(
        page, "(id) => window.nethackSite.autopilot.running && window.nethackSite.autopilot.gameId === id", 10, game
    )
    wait_until(page, "(start) => Number(document.getElementById('main').dataset.revision) > start + 2", 30, start)
    page.locator("[data-control=autopilot-stop]").click()
    assert wait_until(page, "() => !window.nethackSite.autopilot.running", 10) is True
    page.locator("[data-control=autopilot-play]").wait_for(state="visible", timeout=5000)


NOTES = """() => {
  const list = document.querySelector('[data-field=autopilot-notes]');
  const from = document.querySelector('[data-field=autopilot-notes-from]');
  return list && {
    from: from && from.dataset.from,
    lines: [...list.querySelectorAll('li')].map((li) => li.textContent),
    markup: list.querySelectorAll('li *').length,
  };
}"""


def test_every_watching_tab_shows_the_autopilots_reasons(board: tuple[Page, Agent, str]) -> None:
    """The autopilot plays in one tab; a second tab that only watches shows its reasons (from the owner's snapshot)."""
    page, agent, _ = board
    created = agent.call("session", {"action": "create", "seed": 2631, "name": "Eve", "harness_name": "e2e board"})
    game = created["basis"]["sessionId"]
    show(page, game)
    watcher = page.context.new_page()
    try:
        boot(watcher, f"{page.url.split('#')[0]}#/g/{game}")
        ownership = "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership"
        assert wait_until(watcher, f"() => ({ownership})() === 'observer'", 30)
        assert watcher.evaluate(NOTES) is None, "no reasons before the autopilot plays"
        made = page.evaluate("() => window.nethackSite.autopilot.notesMade")  # notes about earlier games
        page.locator("[data-control=autopilot-play]").click()
        assert wait_until(page, "(id) => window.nethackSite.autopilot.gameId === id", 10, game)
        shown = wait_until(
            watcher, f"() => {{ const n = ({NOTES})(); return n && n.from === 'owner' && n.lines.length > 2 && n }}", 30
        )
        played = page.evaluate("() => window.nethackSite.autopilot.log.slice()")
        assert shown["markup"] == 0, "reasons are text"
        assert set(shown["lines"]) <= set(played) | {"stopped"}, (shown, played)
        assert watcher.evaluate("() => window.nethackSite.autopilot.running") is False, "the watching tab plays nothing"
        page.locator("[data-control=autopilot-stop]").click()
        assert wait_until(page, "() => !window.nethackSite.autopilot.running", 10) is True
        # the call in flight when Stop was pressed still finishes (and may add a note):
        # the watcher ends on the same notes
        deadline = time.monotonic() + 15
        while True:
            stopped = watcher.evaluate(NOTES)
            final = page.evaluate(NOTES)  # the playing tab shows its own notes for this game
            if stopped and stopped["from"] == "owner-stopped" and final and stopped["lines"] == final["lines"]:
                break
            assert time.monotonic() < deadline, (stopped, final)
            watcher.wait_for_timeout(200)
        assert final["from"] == "here", final
        assert "stopped" in stopped["lines"], stopped
        # only this game's notes: the ones made since it was handed over (12 at most), no earlier game's
        since = page.evaluate("() => window.nethackSite.autopilot.notesMade") - made
        assert len(stopped["lines"]) == min(12, since), (stopped, since)
        assert since > 12 or stopped["lines"][-1] == "starting", stopped
        watcher.screenshot(path=str(SCREENSHOTS / "board-watching-autopilot.png"), full_page=True)
    finally:
        watcher.close()


def end_game(agent: Agent, game: str) -> dict[str, Any]:
    """Quit, asking for every end-of-game window NetHack offers (a list to pick from is dismissed)."""
    frame = agent.call("observe", {"sessionId": game})
    frame = agent.call("session", {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "quit"})
    for _ in range(20):
        if frame["control"]["gate"] != "decision":
            return frame
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            frame = agent.call("respond", {**decision["reply"]["arguments"], "value": True})
        else:
            frame = agent.call("respond", decision["cancel"]["arguments"])
    return frame


def test_an_ended_game_shows_its_tombstone_and_windows(board: tuple[Page, Agent, str], site_url: str) -> None:
    page, agent, _ = board
    created = agent.call("session", {"action": "create", "seed": 2628, "name": "Ada", "harness_name": "e2e board"})
    game = created["basis"]["sessionId"]
    frame = end_game(agent, game)
    assert frame["control"]["gate"] == "ended", frame
    end = frame["scene"]["end"]
    show(page, game)
    wait_until(page, "() => document.querySelector('[data-field=tombstone]')", 15)
    stone = page.locator("[data-field=tombstone]").text_content() or ""
    assert "REST" in stone and "Ada" in stone and f"{end['score']} points" in stone
    assert page.locator("[data-field=ending-cause]").text_content() == "quit"
    # "quit / quit" is said once: no separate cause under the end reason
    assert page.locator("[data-field=death]").count() == 0
    messages = page.locator("[data-field=messages]").text_content() or ""
    assert "Points" not in messages and "[max]" not in messages, messages
    windows = end.get("windows") or []
    shown = page.evaluate(
        "() => [...document.querySelectorAll('[data-field=end-windows] .end-window pre')].map((pre) => pre.textContent)"
    )
    assert shown == ["\n".join(window["lines"]) for window in windows]
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        page.screenshot(path=str(SCREENSHOTS / f"board-ended-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})


def test_the_tv_lists_every_live_game_and_follows_them(board: tuple[Page, Agent, str]) -> None:
    page, agent, _ = board
    page.evaluate("() => { location.hash = '#/tv'; }")
    wait_until(page, "() => document.getElementById('main').dataset.live !== undefined", 10)
    before = page.evaluate("() => [...document.querySelectorAll('.tv-card')].map((card) => card.dataset.gameId)")
    created = agent.call("session", {"action": "create", "seed": 2630, "name": "Di", "harness_name": "e2e board"})
    game = created["basis"]["sessionId"]
    card = f'.tv-card[data-game-id="{game}"]'
    wait_until(page, "(card) => document.querySelector(card)", 10, card)
    facts = page.locator(f"{card} [data-field=tv-facts]").text_content() or ""
    assert page.locator(f"{card} [data-field=tv-name]").text_content() == "Di"
    assert re.search(r"Dlvl 1 · HP \d+/\d+", facts), facts
    assert page.locator(f"{card} pre.map").count() == 1
    assert sorted(
        page.evaluate("() => [...document.querySelectorAll('.tv-card')].map((c) => c.dataset.gameId)")
    ) == sorted([*before, game])
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        page.screenshot(path=str(SCREENSHOTS / f"board-tv-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})
    assert axe(page) == []
    end_game(agent, game)  # an ended game leaves the TV
    wait_until(page, "(card) => !document.querySelector(card)", 10, card)
    page.locator(".tv-card a").first.click()
    wait_until(page, "() => document.getElementById('main').dataset.view === 'game'", 10)


def quit_over_mcp(agent: ThreadedAgent, frame: dict[str, Any]) -> dict[str, Any]:
    """Quit a stdio server's game (every end-of-game window declined, "Really quit?" confirmed)."""
    frame = agent.call("session", **bound(frame), action="quit")
    while frame["decision"] is not None:
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            frame = agent.call("respond", **decision["reply"]["arguments"], value=decision["prompt"] == "Really quit?")
        else:
            frame = agent.call("respond", **decision["cancel"]["arguments"])
    assert frame["control"]["gate"] == "ended", frame
    return frame


OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
TV_CARDS = "() => [...document.querySelectorAll('.tv-card')].map((c) => c.dataset.gameId)"


def test_the_server_tv_shows_every_game_the_stdio_server_plays(browser: Browser, tmp_path: Path) -> None:
    """The native server's spectator has the TV too (/#/tv): every game its agent plays, live, from its GET routes."""
    require_driver()
    agent = ThreadedAgent(tmp_path / "state")
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        base = agent.base
        fay = agent.call("session", action="create", seed=2640, name="Fay")
        gus = agent.call("session", action="create", seed=2641, name=HOSTILE_TV_NAME)
        page.goto(f"{base}/")
        page.locator("[data-control=tv]").click()  # the root links to it
        wait_until(page, "() => document.getElementById('main').dataset.view === 'tv'", 10)
        games = [fay["basis"]["sessionId"], gus["basis"]["sessionId"]]
        assert wait_until(page, f"(ids) => ({TV_CARDS})().length === 2 && ({TV_CARDS})()", 10, games)
        assert sorted(page.evaluate(TV_CARDS)) == sorted(games)
        card = '.tv-card[data-game-id="{}"]'.format
        wait_until(page, "(card) => document.querySelector(card + ' pre.map')", 10, card(games[0]))
        assert page.locator(f"{card(games[0])} [data-field=tv-name]").text_content() == "Fay"
        facts = page.locator(f"{card(games[0])} [data-field=tv-facts]").text_content() or ""
        vitals = fay["scene"]["self"]["vitals"]
        assert f"Dlvl 1 · HP {vitals['hp']}/{vitals['hpMax']}" in facts, facts
        # a hostile name is the engine's accepted name, shown as text
        accepted = gus["scene"]["self"]["name"]
        assert accepted and HOSTILE_TV_NAME.startswith(accepted), accepted
        assert page.locator(f"{card(games[1])} [data-field=tv-name]").text_content() == accepted
        assert page.evaluate("() => document.querySelectorAll('main script, main img, main b').length") == 0

        # the agent plays: the card follows the game's revision
        moved = agent.call("travel", **bound(fay), mode="step", target={"direction": walkable_direction(fay)})
        assert moved["outcome"]["submission"] == "accepted"
        wait_until(
            page,
            "([card, r]) => document.querySelector(card)?.dataset.revision === String(r)",
            10,
            [card(games[0]), moved["basis"]["revision"]],
        )
        # a new game appears; an ended one leaves
        hal = agent.call("session", action="create", seed=2642, name="Hal")
        games.append(hal["basis"]["sessionId"])
        wait_until(page, "(card) => document.querySelector(card)", 10, card(games[2]))
        quit_over_mcp(agent, moved)
        wait_until(page, "(card) => !document.querySelector(card)", 10, card(games[0]))
        assert sorted(page.evaluate(TV_CARDS)) == sorted(games[1:])
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(100)
            assert page.evaluate(OVERFLOW) <= 0
            page.screenshot(path=str(SCREENSHOTS / f"server-tv-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1440, "height": 900})
        assert axe(page) == []

        # watching changes nothing: the games' revisions stay where the agent left them
        revision = agent.call("observe", sessionId=games[2])["basis"]["revision"]
        page.wait_for_timeout(2000)  # several polls
        assert agent.call("observe", sessionId=games[2])["basis"]["revision"] == revision
        page.locator(f"{card(games[2])} a").click()  # a card opens the game's page
        wait_until(page, "(id) => document.getElementById('main').dataset.gameId === id", 10, games[2])
        assert page.url == f"{base}/g/{games[2]}"
    finally:
        context.close()
        agent.close()
    assert not errors, errors


def axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())  # evaluated by the test, not a page script (the page's CSP stays on)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))"
    )
    return [violation for violation in found if violation["impact"] in ("serious", "critical")]


def test_axe_finds_no_serious_violation(board: tuple[Page, Agent, str]) -> None:
    page, agent, game = board
    page.set_viewport_size({"width": 1440, "height": 900})
    pages: dict[str, list[dict[str, Any]]] = {}
    page.evaluate("() => { location.hash = '#/'; }")
    wait_until(
        page,
        "() => document.getElementById('main').dataset.view === 'home' && document.querySelector('table.games')",
        15,
    )
    pages["home"] = axe(page)
    ended = page.evaluate("() => document.querySelector('table.records a')?.dataset.gameId")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(SCREENSHOTS / f"board-home-{width}.png"), full_page=True)
        # the lists fit: no sideways scrolling, every Resume button on screen (phone: cards)
        fit = page.evaluate(HOME_FIT)
        print(f"home {width}: {fit}")
        assert fit["overflow"] <= 0 and all(right <= width for right in fit["resume"]), fit
        assert all(right <= width for right in fit["cells"]), fit
    page.set_viewport_size({"width": 1440, "height": 900})
    show(page, game)
    pages["game"] = axe(page)
    if ended:
        show(page, ended)
        wait_until(page, "() => document.querySelector('[data-field=tombstone]')", 15)
        pages["ended"] = axe(page)
    print({name: len(found) for name, found in pages.items()})
    assert {name: found for name, found in pages.items() if found} == {}
    assert "ended" in pages, "an ended game was on show (the tombstone test ended one)"
