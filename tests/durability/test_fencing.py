"""test_fencing.py - an owner that loses its lock without noticing cannot append (SQLite + flock).

Two registries over one state directory, as two processes would have them, on the
real engine and real SQLite. The flock of the owner is lost by deleting its lock
file (a tmp cleaner, a careless operator): another opener then locks a new file.
The old owner notices (its lease turns lost), every journal write of its is
refused by the fence, it never adopts the new owner's entries, and once it is an
observer it shows the game exactly as the new owner's journal has it - reloaded by
replay when its own engine took an input the journal never recorded.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from durable_support import registry
from nethack_webmcp.store import JournalEntry
from nethack_webmcp.store.sqlite import SqliteStore
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


def journal(state_dir: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        return [tuple(row) for row in db.execute("SELECT seq, request_id, state FROM journal ORDER BY seq")]


def epochs(state_dir: Path) -> dict[str, int]:
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        return dict(db.execute("SELECT session_id, epoch FROM owners").fetchall())


class HookedStore(SqliteStore):
    """The real SQLite store; `hook` runs once right after a reservation is written
    (the input not yet sent), to make something happen at exactly that moment."""

    hook: Callable[[JournalEntry], Awaitable[None]] | None = None

    async def reserve(self, entry: JournalEntry, **kwargs: Any) -> None:
        await super().reserve(entry, **kwargs)
        hook, self.hook = self.hook, None
        if hook is not None:
            await hook(entry)


def search(frame: dict[str, Any], request_id: str) -> dict[str, Any]:
    return {**bound(frame), "action": "search", "requestId": request_id}


async def test_a_lost_flock_stops_the_old_owner_and_the_new_one_goes_on(state_dir: Path) -> None:
    a, b = Client(registry(state_dir)), Client(registry(state_dir))
    try:
        frame = await a.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]
        frame = await a.ok("interact", **search(frame, "a-1"))
        assert (await b.call("observe", sessionId=sid))["control"]["gate"] == "lostOwnership"
        assert epochs(state_dir) == {sid: 1}

        os.unlink(state_dir / "locks" / f"{sid}.lock")  # A's flock no longer guards anything
        taken = await b.ok("session", action="resume", sessionId=sid)
        assert taken["result"]["owner"] is True and epochs(state_dir) == {sid: 2}
        refused = await a.call("interact", **search(frame, "a-2"))
        assert refused["error"]["code"] == "lostOwnership" and refused["control"]["gate"] == "lostOwnership"
        assert len(journal(state_dir)) == 1, "the old owner journaled nothing"

        moved = await b.ok("interact", **search(taken, "b-1"))
        assert moved["outcome"]["submission"] == "accepted" and moved["basis"]["revision"] == 2
        followed = await a.ok("observe", sessionId=sid)
        assert followed["basis"] == moved["basis"], "the old owner follows the new owner's journal"
        assert [state for _, _, state in journal(state_dir)] == ["completed", "completed"]
    finally:
        await a.close()
        await b.close()


async def test_an_input_in_flight_at_a_takeover_does_not_count_and_the_old_owner_reloads(state_dir: Path) -> None:
    store = HookedStore(state_dir / "games.sqlite3")
    a, b = Client(registry(state_dir, store=store)), Client(registry(state_dir))
    try:
        frame = await a.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]
        frame = await a.ok("interact", **search(frame, "a-1"))

        async def take_over(entry: JournalEntry) -> None:
            # A has journaled its input and is about to send it: B takes the game now
            os.unlink(state_dir / "locks" / f"{sid}.lock")
            resumed = await b.games.resume(sid)
            assert resumed.lease is not None and resumed.unverified is not None, "B sees A's reservation dangling"

        store.hook = take_over
        lost = await a.call("interact", **search(frame, "a-2"))
        assert lost["error"]["code"] == "lostOwnership", lost.get("error")
        assert lost["outcome"]["submission"] != "accepted"
        assert [(seq, state) for seq, _, state in journal(state_dir)] == [(1, "completed"), (2, "reserved")]

        verified = await b.ok("observe", sessionId=sid)  # B settles A's input: it is not in the game
        assert verified["diagnostics"]["recovery"]["notApplied"][0]["requestId"].startswith("a-2")
        assert verified["basis"]["revision"] == 1
        moved = await b.ok("interact", **search(verified, "b-1"))
        assert moved["basis"]["revision"] == 2
        assert [(seq, state) for seq, _, state in journal(state_dir)] == [
            (1, "completed"),
            (2, "notApplied"),
            (3, "completed"),
        ]

        # A's engine took a-2, which the journal will never have: it is reloaded by replay
        reloaded = await a.ok("observe", sessionId=sid)
        assert reloaded["diagnostics"]["ownership"]["status"] == "reloaded", reloaded["diagnostics"]
        assert reloaded["basis"] == moved["basis"]
        assert reloaded["scene"]["map"] == moved["scene"]["map"]
        again = await a.call("interact", **search(reloaded, "a-3"))
        assert again["error"]["code"] == "lostOwnership" and len(journal(state_dir)) == 3
    finally:
        await a.close()
        await b.close()


async def test_a_reservation_refused_at_a_position_another_writer_took_is_never_adopted(state_dir: Path) -> None:
    """The journal's own check, below the fence: a store that keeps no owner epochs
    (an unbound ownership) still never adopts another writer's entry."""
    a = Client(registry(state_dir))
    try:
        frame = await a.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]
        session = a.games.get(sid)
        lease = session.lease
        assert lease is not None and lease.fence is not None
        a.games.store.release_claim(lease.fence)  # no fence: only the journal's own check is left
        other = SqliteStore(state_dir / "games.sqlite3")  # a writer that should not be there
        request = {"version": 1, "method": "game.wait", "params": {"sessionId": sid, "requestId": "x.1"}}
        await other.reserve(
            JournalEntry(
                sessionId=sid,
                seq=1,
                operationId="x",
                requestId="x.1",
                method="game.wait",
                request=request,
                reservedAt=1.0,
                state="reserved",
                receipt=None,
                completedAt=None,
            )
        )
        await other.close()
        refused = await a.call("interact", **search(frame, "a-1"))
        assert refused["error"]["code"] == "lostOwnership", refused.get("error")
        assert "another owner" in refused["error"]["message"]
        assert session.gate == "lostOwnership" and session.journal.seq == 0, "its entry was not adopted"
        assert journal(state_dir) == [(1, "x.1", "reserved")], "nothing of A's was written"
    finally:
        await a.close()
