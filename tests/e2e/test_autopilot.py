"""test_autopilot.py - the in-page reference agent plays a real game through WebMCP.

A person starts a game from the page's form with a chosen seed and hands
it to the autopilot (with "start a new game after each end" ticked, so an
early death does not end the test). The seed makes the test repeatable: a
random game can be one whose only way on is a hidden passage, where a
careful beginner spends hundreds of turns searching a few squares (CI once
drew such a game: 3,900 turns, 13 squares). Seed 13 is a Valkyrie who
explored five levels in the autopilot benchmark. The autopilot must play
at least 300 actions (engine inputs) without an error frame it did not
handle, with real progress (turns passed, squares stood on), and every
decision it answered must have been the standing one. Mid-game the
spectator is photographed into build/screenshots/ for review.
"""

from __future__ import annotations

from .site_harness import SCREENSHOTS, Site, spectator_state, start_from_form, wait_until

TARGET_ACTIONS = 300
SCREENSHOT_AT = 150
PLAY_TIMEOUT = 240.0
SEED = "13"
HARNESS = "nethack-webmcp autopilot"

PROGRESS = """(target) => { const state = window.nethackSite.autopilot;
  return (state.unhandled || state.actions >= target) ? {...state} : null; }"""


def test_autopilot_plays_300_actions_through_the_tools(site: Site) -> None:
    page = site.page
    site.show_home(page)
    page.locator("[data-control=autopilot-keep-playing]").check()
    page.locator("[data-control=start-autopilot]").check()
    handed = start_from_form(page, seed=SEED, harness_name=HARNESS)
    assert not handed.startswith("refused"), handed
    try:
        state = wait_until(page, PROGRESS, PLAY_TIMEOUT, SCREENSHOT_AT)
        assert state["unhandled"] is None, state
        site.show_game(page, state["gameId"])
        wait_until(page, "() => document.querySelector('pre.map .row')", 10)
        page.wait_for_timeout(400)  # let a newer snapshot land
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"spectator-{site.kind}.png"), full_page=True)
        shown = spectator_state(page)
        assert shown["harness"] == HARNESS
        assert any(row.strip() for row in shown["rows"])

        state = wait_until(page, PROGRESS, PLAY_TIMEOUT, TARGET_ACTIONS)
    finally:
        site.show_home(page)
        if page.evaluate("() => window.nethackSite.autopilot.running"):
            page.locator("[data-control=autopilot]").click()
    assert state["unhandled"] is None, state
    assert state["actions"] >= TARGET_ACTIONS
    assert state["turnsPlayed"] >= 100 and state["squares"] >= 60, state
    assert state["answersAccepted"] == state["decisions"] and state["notStanding"] == 0, state
    assert state["gameId"] == handed or state["games"] >= 1, (handed, state)
    wait_until(page, "() => !window.nethackSite.autopilot.running", 60)
    listed = wait_until(
        page,
        '(id) => { const row = document.querySelector(`table.games tr[data-game-id="${id}"]`); '
        "return row && row.textContent; }",
        10,
        state["gameId"],
    )
    assert HARNESS in listed
