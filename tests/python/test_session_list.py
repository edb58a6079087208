"""test_session_list.py - an agent lists its games and quits one, on the real engine and a real SQLite store.

`session list` on the stdio server's (and the page's) terms: every game of
the store, the loaded ones as they are now, newest first, with state,
Dlvl and turn and never a seed; `session quit` asks NetHack's own "Really
quit?" and only a yes ends the game. A fresh process over the same store
lists the games without loading or replaying any of them: a stored game's
turn is its last recorded call's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.hosting import native_registry
from support.client import Client, bound, require_driver

pytestmark = pytest.mark.asyncio

ENTRY_KEYS = {"sessionId", "state", "access", "dlvl", "turn", "name", "role"}


async def listed(agent: Client) -> dict[str, dict[str, Any]]:
    """The list's entries by sessionId (the frame must be a plain, sessionless result)."""
    frame = await agent.ok("session", action="list")
    assert frame["basis"] is None and frame["result"]["kind"] == "sessions", frame
    entries = frame["result"]["games"]
    for entry in entries:
        assert set(entry) == ENTRY_KEYS, entry  # no seed, live or not
    assert "seed" not in json.dumps(frame)
    return {entry["sessionId"]: entry for entry in entries}


async def quit_answering(agent: Client, frame: dict[str, Any], really: bool) -> dict[str, Any]:
    """session quit, then NetHack's questions: "Really quit?" answered `really`, the rest cancelled."""
    frame = await agent.ok("session", action="quit", **bound(frame))
    assert frame["decision"]["kind"] == "confirmation" and frame["decision"]["prompt"] == "Really quit?", frame
    for _ in range(16):
        decision = frame.get("decision")
        if decision is None:
            break
        if decision["kind"] == "confirmation":
            frame = await agent.ok("respond", **decision["reply"]["arguments"], value=really)
        else:
            frame = await agent.ok("respond", **decision["cancel"]["arguments"])
    return frame


async def test_an_agent_lists_its_games_and_quits_one(tmp_path: Path) -> None:
    require_driver()
    agent = Client(native_registry(str(tmp_path)))
    try:
        first = await agent.create(seed=1111, name="Ada", role="valkyrie")
        second = await agent.create(seed=2222, name="Bea", role="wizard")
        one, two = first["basis"]["sessionId"], second["basis"]["sessionId"]
        games = await listed(agent)
        assert list(games) == [two, one], "newest first"
        assert games[one] == {
            "sessionId": one,
            "state": "ready",
            "access": "drive",
            "dlvl": 1,
            "turn": first["basis"]["turn"],
            "name": "Ada",
            "role": "Valkyrie",
        }
        assert games[two]["name"] == "Bea" and games[two]["state"] == "ready"

        # quit asks first; no keeps playing
        kept = await quit_answering(agent, first, really=False)
        assert kept["control"]["gate"] == "ready" and kept["scene"].get("end") is None, kept["control"]
        # a quit bound to an old view is refused and changes nothing
        stale = await agent.call("session", action="quit", **bound(first))
        assert stale["error"]["code"] == "staleView" and stale["basis"]["revision"] == kept["basis"]["revision"]
        # interact no longer quits
        refused = await agent.call("interact", action="quit", **bound(kept))
        assert refused["error"]["code"] == "invalidArguments" and refused["outcome"]["submission"] == "rejected"

        # a standing question shows in the list; yes ends the game
        asked = await agent.ok("session", action="quit", **bound(kept))
        assert (await listed(agent))[one]["state"] == "decision"
        await agent.ok("respond", **asked["decision"]["cancel"]["arguments"])
        ended = await quit_answering(agent, await agent.ok("observe", sessionId=one), really=True)
        assert ended["control"]["gate"] == "ended" and ended["scene"]["end"]["how"] == "quit"
        games = await listed(agent)
        assert games[one]["state"] == "ended" and games[one]["access"] == "watch"
        assert games[one]["turn"] == ended["basis"]["turn"]

        # closed here: listed as closed (session resume first), with its last recorded call's turn
        searched = await agent.ok("interact", action="search", turns=5, **bound(second))
        assert searched["basis"]["turn"] > second["basis"]["turn"]
        await agent.ok("session", action="close", sessionId=two)
        closed = (await listed(agent))[two]
        assert closed["state"] == "closed" and closed["turn"] == searched["basis"]["turn"] and closed["dlvl"] == 1
        assert (await agent.call("session", action="list", sessionId=two))["error"]["code"] == "invalidArguments"
    finally:
        await agent.close()

    # A fresh process over the same store: both listed, nothing loaded or replayed for it.
    fresh = Client(native_registry(str(tmp_path)))
    try:
        games = await listed(fresh)
        assert set(games) == {one, two}
        assert games[two]["state"] == "closed" and games[two]["access"] == "drive", "the close is durable"
        assert games[two]["turn"] == searched["basis"]["turn"], "the latest receipt's turn, read without loading"
        assert games[one]["state"] == "ended" and games[one]["turn"] == ended["basis"]["turn"]
        assert fresh.games.sessions() == [], "a list loads no game"
        # still the agent's to play, once it says so: session resume (a call naming it is sessionClosed)
        assert (await fresh.call("observe", sessionId=two))["error"]["code"] == "sessionClosed"
        resumed = await fresh.ok("session", action="resume", sessionId=two)
        assert (await listed(fresh))[two]["state"] == "ready" and resumed["basis"]["sessionId"] == two
    finally:
        await fresh.close()
