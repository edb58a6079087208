"""test_durable_close.py - `session close` is durable: a restarted host refuses the game too.

Real native engine, real SQLite, each restart a fresh registry over the same
state directory (what a restarted MCP server is). The close is marked in the
store, so after the restart every call naming the game - acting or a free
query - is `sessionClosed` naming `session resume`, nothing is loaded or
journaled; `session list` shows it `closed`; `session resume` clears the mark
durably (the next restart plays on without it) at the same revision.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from durable_support import registry
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


def listed(frame: dict) -> dict[str, str]:
    return {game["sessionId"]: game["state"] for game in frame["result"]["games"]}


async def test_a_closed_game_stays_closed_across_a_restart_until_resumed(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.create(seed=33, name="Ada")
    game = created["basis"]["sessionId"]
    played = await first.ok("interact", **bound(created), action="search", requestId="before-close")
    await first.ok("session", action="close", sessionId=game)
    stored = await first.games.store.get_session(game)
    assert stored is not None and isinstance(stored.get("closedAt"), float), stored
    await first.close()

    second = Client(registry(state_dir))  # the restarted server
    entries = len(await second.games.store.journal(game))
    refused = await second.call("interact", **bound(played), action="search")
    error = refused["error"]
    assert error["code"] == "sessionClosed" and "session {action: resume}" in error["message"], error
    assert error["resume"] == {"tool": "session", "arguments": {"action": "resume", "sessionId": game}}
    assert refused["outcome"]["submission"] == "rejected"
    for tool, arguments in (("observe", {}), ("inventory", {}), ("plan", {"query": "navigation"})):
        looked = await second.call(tool, sessionId=game, **arguments)
        assert looked["error"]["code"] == "sessionClosed", (tool, looked)
    retried = await second.call("interact", **bound(created), action="search", requestId="before-close")
    assert retried["error"]["code"] == "sessionClosed", "a retry is refused too: resume first"
    assert listed(await second.ok("session", action="list"))[game] == "closed"
    assert second.games.sessions() == [], "nothing was loaded"
    assert len(await second.games.store.journal(game)) == entries, "nothing was journaled"
    again = await second.ok("session", action="close", sessionId=game)  # closing it again: a no-op
    assert again["result"]["action"] == "closed"

    resumed = await second.ok("session", action="resume", sessionId=game)
    assert resumed["basis"]["revision"] == played["basis"]["revision"]
    reopened = await second.games.store.get_session(game)
    assert reopened is not None and "closedAt" not in reopened, "resume clears the mark in the store"
    assert listed(await second.ok("session", action="list"))[game] == "ready"
    acted = await second.ok("interact", **bound(resumed), action="search")
    assert acted["basis"]["revision"] == played["basis"]["revision"] + 1
    await second.close()

    third = Client(registry(state_dir))  # open again after another restart: auto-resume as before
    assert listed(await third.ok("session", action="list"))[game] == "stored"
    observed = await third.ok("observe", sessionId=game)
    assert observed["basis"]["revision"] == acted["basis"]["revision"]
    await third.close()


async def test_closing_a_stored_game_that_is_not_loaded_marks_it(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.create(seed=34, name="Ada")
    game = created["basis"]["sessionId"]
    await first.close()  # the server stops (the game is open, only not loaded)

    second = Client(registry(state_dir))
    await second.ok("session", action="close", sessionId=game)  # marked under its lease, not resumed
    assert second.games.sessions() == []
    await second.close()

    third = Client(registry(state_dir))
    refused = await third.call("interact", **bound(created), action="search")
    assert refused["error"]["code"] == "sessionClosed"
    resumed = await third.ok("session", action="resume", sessionId=game)
    assert resumed["basis"]["revision"] == created["basis"]["revision"]
    await third.close()


async def test_a_closed_game_ends_by_a_deadline_only_once_it_has_passed(state_dir: Path) -> None:
    """Closed is not ended: before its deadline a closed game stays closed
    (sessionClosed); past it, naming it ends it (gameEnded, a record), and the
    sweep's end_by_limit ends a closed game nobody loaded, as any other."""
    first = Client(registry(state_dir))
    one = (await first.create(seed=35, name="Ada"))["basis"]["sessionId"]
    two = (await first.create(seed=36, name="Bea"))["basis"]["sessionId"]
    for game in (one, two):
        await first.ok("session", action="close", sessionId=game)
    await first.close()

    later = Client(registry(state_dir))
    due: dict[str, str | None] = {"reason": None}
    later.games.deadline = lambda _info: due["reason"]  # type: ignore[assignment,return-value]
    refused = await later.call("observe", sessionId=one)
    assert refused["error"]["code"] == "sessionClosed", "not past its deadline: closed, not ended"
    assert await later.games.store.get_record(one) is None
    due["reason"] = "idle_timeout"
    ended = await later.call("observe", sessionId=one)
    assert ended["error"]["code"] == "gameEnded", ended["error"]
    record = await later.games.store.get_record(one)
    assert record is not None and record["endReason"] == "idle_timeout"
    assert await later.games.end_by_limit(two, "idle_timeout", kind="recovery") is True  # what the sweep calls
    swept = await later.games.store.get_record(two)
    assert swept is not None and swept["endTimeKind"] == "recovery"
    assert later.games.sessions() == [], "nothing was replayed to end them"
    await later.close()
