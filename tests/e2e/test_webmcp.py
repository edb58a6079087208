"""test_webmcp.py - the eleven tools through WebMCP, on the native API and the polyfill.

A real game in the page's WASM engine, driven only through the agent-side
WebMCP client: tools listed with their exported schemas and annotations,
a session created, one travel step, a real NetHack question answered, and
observe agreeing with what the spectator draws; the page's session list
and session quit.
"""

from __future__ import annotations

from nethack_webmcp.tools import TOOLS
from support.tool_compat import problems

from .site_harness import (
    Site,
    assert_spectator_matches,
    client_for,
    spectator_state,
    wait_for_revision,
    wait_until,
    walkable_direction,
)


def test_tools_listed_with_schemas_and_honest_hints(site: Site) -> None:
    """As the browser reports them (Chromium's own WebMCP, or the polyfill):
    each tool's schema, read-only hint and untrusted-content hint per tool."""
    listed = {tool["name"]: tool for tool in site.client.tools()}
    assert sorted(listed) == sorted(tool.name for tool in TOOLS)
    for tool in TOOLS:
        seen = listed[tool.name]
        assert seen["description"] == tool.description
        assert seen["inputSchema"] == tool.input_schema
        hints = seen.get("annotations") or {}
        assert bool(hints.get("readOnly")) is tool.read_only, (tool.name, hints)
        assert bool(hints.get("untrustedContent")) is tool.untrusted, (tool.name, hints)
    assert any(tool.read_only for tool in TOOLS) and not all(tool.read_only for tool in TOOLS)
    assert [tool.name for tool in TOOLS if not tool.untrusted] == ["help"]
    assert problems(listed.values()) == [], "as page.webmcp lists them, every model API accepts them"


def test_session_list_and_quit_through_webmcp(site: Site) -> None:
    """The page lists its own games (state, Dlvl, turn; no seed), and quitting
    is session's: NetHack asks first, no plays on, yes ends the game."""
    created = site.call("session", {"action": "create", "seed": 606, "name": "Lis", "role": "samurai"})
    game = created["basis"]["sessionId"]
    entries = {entry["sessionId"]: entry for entry in site.call("session", {"action": "list"})["result"]["games"]}
    assert entries[game] == {
        "sessionId": game,
        "state": "ready",
        "access": "drive",
        "dlvl": 1,
        "turn": created["basis"]["turn"],
        "name": "Lis",
        "role": "Samurai",
    }
    assert all("seed" not in entry for entry in entries.values())

    bound = {"sessionId": game, "viewId": created["basis"]["viewId"]}
    asked = site.call("session", {"action": "quit", **bound})
    assert asked["decision"]["kind"] == "confirmation" and asked["decision"]["prompt"] == "Really quit?", asked
    kept = site.call("respond", {**asked["decision"]["reply"]["arguments"], "value": False})
    assert kept["control"]["gate"] == "ready", kept

    frame = site.call("session", {"action": "quit", "sessionId": game, "viewId": kept["basis"]["viewId"]})
    for _ in range(16):
        decision = frame.get("decision")
        if decision is None:
            break
        if decision["kind"] == "confirmation":
            frame = site.call("respond", {**decision["reply"]["arguments"], "value": True})
        else:
            frame = site.call("respond", decision["cancel"]["arguments"])
    assert frame["control"]["gate"] == "ended" and frame["scene"]["end"]["how"] == "quit", frame["control"]
    entries = {entry["sessionId"]: entry for entry in site.call("session", {"action": "list"})["result"]["games"]}
    assert entries[game]["state"] == "ended" and entries[game]["access"] == "watch"


def test_session_travel_decision_and_observe_match_the_spectator(site: Site) -> None:
    created = site.call("session", {"action": "create", "seed": 4242, "role": "valkyrie"})
    assert created["control"]["gate"] == "ready" and created.get("error") is None, created
    game = created["basis"]["sessionId"]
    assert created["result"]["session"]["role"] == "Valkyrie"
    assert "@" in created["scene"]["map"]["text"]

    # One ordinary step onto free floor: accepted, one input, a new view.
    direction = walkable_direction(created)
    stepped = site.call(
        "travel",
        {"sessionId": game, "viewId": created["basis"]["viewId"], "mode": "step", "target": {"direction": direction}},
    )
    assert stepped["outcome"]["submission"] == "accepted", stepped
    assert stepped["outcome"]["positionChanged"] is True
    assert stepped["basis"]["revision"] == created["basis"]["revision"] + 1
    # A stale view is refused without acting.
    stale = site.call(
        "travel",
        {"sessionId": game, "viewId": created["basis"]["viewId"], "mode": "step", "target": {"direction": direction}},
    )
    assert stale["error"]["code"] == "staleView" and stale["basis"]["revision"] == stepped["basis"]["revision"]

    # A real NetHack question: praying asks for confirmation (paranoid pray).
    asked = site.call("interact", {"sessionId": game, "viewId": stepped["basis"]["viewId"], "action": "pray"})
    assert asked["control"]["gate"] == "decision", asked
    decision = asked["decision"]
    assert decision["kind"] == "confirmation" and "pray" in decision["prompt"]

    # While it stands, the spectator shows it, and observe agrees with the spectator.
    site.show_game(site.page, game)
    observed = site.call("observe", {"sessionId": game})
    assert observed["basis"]["revision"] == asked["basis"]["revision"]
    shown = wait_for_revision(site.page, observed["basis"]["revision"])
    assert_spectator_matches(shown, observed)
    assert shown["prompt"] == decision["prompt"] and shown["kind"] == "confirmation"

    answered = site.call("respond", {**decision["reply"]["arguments"], "value": False})
    assert answered["outcome"]["submission"] == "accepted", answered
    assert answered["control"]["gate"] == "ready" and answered["decision"] is None
    assert answered["basis"]["revision"] == asked["basis"]["revision"] + 1
    # The same answer again is refused: the question is gone.
    again = site.call("respond", {**decision["reply"]["arguments"], "value": False})
    assert again["error"]["code"] == "noDecision"

    observed = site.call("observe", {"sessionId": game})
    shown = wait_for_revision(site.page, observed["basis"]["revision"])
    assert_spectator_matches(shown, observed)
    assert shown["prompt"].startswith("none")


def test_unregistered_when_the_page_shuts_down(site: Site) -> None:
    page = site.context.new_page()
    try:
        page.goto(site.url)
        wait_until(page, "() => window.nethackSite && window.nethackSite.registered", 30)
        client = client_for(site.kind, page)
        assert len(client.tools()) == len(TOOLS)
        page.evaluate("() => window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: false}))")
        wait_until(page, "async () => (await document.modelContext.getTools()).length === 0", 10)
        assert client.tools() == []
    finally:
        page.close()


def test_spectator_reads_do_not_call_tools(site: Site) -> None:
    """Watching is reading IndexedDB: the spectator module has no tool client."""
    frame = site.call("session", {"action": "create", "seed": 77})
    game = frame["basis"]["sessionId"]
    site.show_game(site.page, game)
    before = site.call("observe", {"sessionId": game})["basis"]
    shown = wait_for_revision(site.page, before["revision"])
    site.page.wait_for_timeout(1500)  # a poll period and more
    after = site.call("observe", {"sessionId": game})["basis"]
    assert (after["revision"], after["turn"]) == (before["revision"], before["turn"])
    assert spectator_state(site.page)["rows"] == shown["rows"]
    site.call("session", {"action": "close", "sessionId": game})


def test_item_verbs_through_webmcp(site: Site) -> None:
    """A Wizard's own kit (seed 2): take off and wear the cloak, quaff a potion,
    zap the wand - equipment and use through the page's tools, the WASM engine."""
    created = site.call("session", {"action": "create", "seed": 2, "role": "wizard"})
    game = created["basis"]["sessionId"]
    inventory = site.call("inventory", {"sessionId": game})["result"]["items"]
    cloak = next(item for item in inventory if "cloak" in item["label"])
    assert cloak["equipmentSlots"] == ["cloak"] and "remove" in cloak["actions"]

    off = site.call(
        "equipment",
        {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "takeoff", "itemId": cloak["id"]},
    )
    assert off["outcome"]["submission"] == "accepted", off
    assert any("You were wearing" in event.get("text", "") for event in off["events"])
    worn = site.call(
        "equipment", {"sessionId": game, "viewId": off["basis"]["viewId"], "action": "wear", "itemId": cloak["id"]}
    )
    assert worn["outcome"]["submission"] == "accepted", worn
    slots = site.call("equipment", {"sessionId": game})["result"]["slots"]
    assert {"slot": "cloak", "itemId": cloak["id"]} in [{k: s[k] for k in ("slot", "itemId")} for s in slots]

    quaffed = site.call(
        "use", {"sessionId": game, "viewId": worn["basis"]["viewId"], "action": "drink", "itemId": "item-8"}
    )
    assert quaffed["outcome"]["submission"] == "accepted" and quaffed["outcome"]["turnsElapsed"] >= 1
    zapped = site.call(
        "use",
        {
            "sessionId": game,
            "viewId": quaffed["basis"]["viewId"],
            "action": "zap",
            "itemId": "item-3",
            "direction": "east",
        },
    )
    assert zapped["outcome"]["submission"] == "accepted", zapped
    wand = next(
        item for item in site.call("inventory", {"sessionId": game})["result"]["items"] if item["id"] == "item-3"
    )
    assert wand["label"] == "a wand of sleep (0:6)"
    site.call("session", {"action": "close", "sessionId": game})
