"""test_ownership.py - two processes, one game: only the owner advances it.

Process A is a real MCP server subprocess; process B is this test process
with its own registry over the same state directory. B gets a read-only
observer (gate lostOwnership) that follows A's journal; once A gives the
game up (close, or death) B takes it over with session resume.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from durable_support import StdioServer, registry
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


def journal_length(state_dir: Path) -> int:
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        return int(db.execute("SELECT count(*) FROM journal").fetchone()[0])


async def test_only_the_owner_advances_the_game(state_dir: Path) -> None:
    owner = StdioServer(state_dir)
    other = Client(registry(state_dir))
    try:
        frame = owner.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]
        frame = owner.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
        owned = owner.ok("observe", sessionId=sid)

        watched = await other.call("observe", sessionId=sid)
        assert watched["control"]["gate"] == "lostOwnership" and "error" not in watched
        assert watched["diagnostics"]["ownership"]["status"] == "observer"
        assert watched["diagnostics"]["ownership"]["holder"]["pid"] == owner.pid
        assert watched["result"]["stateHash"] == owned["result"]["stateHash"]
        assert watched["decision"] is None

        refused = await other.call("travel", **bound(watched), mode="step", target={"direction": "west"})
        assert refused["error"]["code"] == "lostOwnership"
        assert journal_length(state_dir) == 1, "the observer sent and journaled nothing"
        resumed = await other.call("session", action="resume", sessionId=sid)
        assert resumed["result"]["owner"] is False, "a live owner keeps the game"

        # the owner goes on; the observer follows its journal
        frame = owner.ok("travel", **bound(frame), mode="step", target={"direction": "north"})
        frame = owner.ok("interact", **bound(frame), action="search", turns=2)
        owned = owner.ok("observe", sessionId=sid)
        watched = await other.ok("observe", sessionId=sid)
        assert watched["basis"] == owned["basis"]
        assert watched["result"]["stateHash"] == owned["result"]["stateHash"]

        # the owner closes the game: B takes it over and advances it; A is now the observer
        owner.ok("session", action="close", sessionId=sid)
        taken = await other.ok("session", action="resume", sessionId=sid)
        assert taken["result"]["owner"] is True and taken["control"]["gate"] == "ready"
        assert taken["basis"] == owned["basis"]
        moved = await other.ok("travel", **bound(taken), mode="step", target={"direction": "south"})
        assert moved["basis"]["revision"] == owned["basis"]["revision"] + 1
        late = owner.call("travel", **bound(moved), mode="step", target={"direction": "south"})
        # A closed the game: its late call is refused as closed (it names session resume),
        # and resuming there would make it an observer: either way nothing is sent
        assert late["error"]["code"] in ("sessionClosed", "lostOwnership"), late["error"]
        assert journal_length(state_dir) == 4
    finally:
        owner.close()
        await other.close()


async def test_a_dead_owner_releases_the_game(state_dir: Path) -> None:
    owner = StdioServer(state_dir)
    other = Client(registry(state_dir))
    try:
        frame = owner.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]
        watched = await other.call("observe", sessionId=sid)
        assert watched["control"]["gate"] == "lostOwnership"
        owner.kill()  # the kernel drops its flock
        taken = await other.ok("session", action="resume", sessionId=sid)
        assert taken["result"]["owner"] is True
        moved = await other.ok("travel", **bound(taken), mode="step", target={"direction": "west"})
        assert moved["outcome"]["submission"] == "accepted"
    finally:
        owner.close()
        await other.close()


async def test_no_forced_takeover_natively(state_dir: Path) -> None:
    """flock cannot be stolen: a takeover (the browser's Web Lock steal) is refused here."""
    from nethack_webmcp.session import SessionError

    owner = Client(registry(state_dir))
    other = Client(registry(state_dir))
    try:
        frame = await owner.ok("session", action="create", seed=42)
        with pytest.raises(SessionError) as refused:
            await other.games.resume(frame["basis"]["sessionId"], take_over=True)
        assert refused.value.code == "takeoverUnsupported"
        assert owner.games.get(frame["basis"]["sessionId"]).gate == "ready", "the owner keeps its game"
    finally:
        await owner.close()
        await other.close()
