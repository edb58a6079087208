"""test_durable_close_http.py - `session close` on one HTTP instance holds on another.

Two real service instances on one real PostgreSQL database. A closes the game
it owns; B (with the game's control token) refuses acting calls and free
queries `sessionClosed` naming `session resume`, even after B had loaded the
game as an observer (the close released A's lock: B's take-over must not
reopen it); a spectator (no token) still reads it; `session resume` on B
clears the mark and plays on at the same revision.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio


async def closed_at(database: str, session_id: str) -> float | None:
    async with await psycopg.AsyncConnection.connect(database) as db:
        row = await (
            await db.execute("SELECT closed_at_s FROM sessions WHERE session_id = %s", (session_id,))
        ).fetchone()
    assert row is not None
    return row[0]


async def test_a_game_closed_on_one_instance_is_closed_on_the_other(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path / "a") as a, Instance.start(database, tmp_path / "b") as b:
        async with Agent(a.mcp_url) as on_a, Agent(b.mcp_url) as on_b:
            created = await on_a.call("session", {"action": "create", "seed": 6, "name": "Ada"})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            bound = {"sessionId": game, "controlToken": token}
            played = await on_a.call(
                "interact", {**bound, "viewId": created["basis"]["viewId"], "action": "search", "requestId": "a-0"}
            )
            assert played["outcome"]["submission"] == "accepted", played
            # B loads the game as an observer while A owns it
            owned = await on_b.call("interact", {**bound, "viewId": played["basis"]["viewId"], "action": "search"})
            assert owned["error"]["code"] == "lostOwnership", owned["error"]

            closed = await on_a.call("session", {"action": "close", **bound})
            assert closed["result"] == {"kind": "session", "action": "closed", "sessionId": game}, closed
            assert isinstance(await closed_at(database, game), float), "the close is in the database"

            refused = await on_b.call("interact", {**bound, "viewId": played["basis"]["viewId"], "action": "search"})
            error = refused["error"]
            assert error["code"] == "sessionClosed" and "session {action: resume}" in error["message"], error
            assert refused["outcome"]["submission"] == "rejected"
            looked = await on_b.call("inventory", bound)
            assert looked["error"]["code"] == "sessionClosed", looked["error"]
            listed = await on_b.call("session", {"action": "list", "controlToken": token})
            states = {entry["sessionId"]: entry["state"] for entry in listed["result"]["games"]}
            assert states[game] == "closed", "B lists it closed although it holds an observer copy"
            watched = await on_b.call("observe", {"sessionId": game})  # a spectator still sees it
            assert "error" not in watched and watched["basis"]["revision"] == played["basis"]["revision"], watched

            resumed = await on_b.call("session", {"action": "resume", **bound})
            assert "error" not in resumed, resumed.get("error")
            assert resumed["basis"]["revision"] == played["basis"]["revision"]
            assert await closed_at(database, game) is None, "resume clears the mark in the database"
            listed = await on_b.call("session", {"action": "list", "controlToken": token})
            assert {entry["sessionId"]: entry["state"] for entry in listed["result"]["games"]}[game] == "ready"
            acted = await on_b.call(
                "interact", {**bound, "viewId": resumed["basis"]["viewId"], "action": "search", "requestId": "b-0"}
            )
            assert acted["outcome"]["submission"] == "accepted"
            assert acted["basis"]["revision"] == played["basis"]["revision"] + 1
