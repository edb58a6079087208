"""test_receipt_with_completion.py - an acting call's last completion and its tool receipt are one commit.

Real engine, real SQLite. Journal before effect holds as before: the
reservation is written before the engine sees the input; the input's
completion is held (session.durability) and written with the call's tool
receipt in one transaction, or alone before the operation's next input.
Either way it is durable before the caller sees a frame of it. When the
fence refuses a held completion, that input does not count: the frame says
so (lostOwnership, not accepted) and nothing more is sent.
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
from nethack_webmcp.tools.base import Operation, mutate
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


class CountingStore(SqliteStore):
    """The real SQLite store, counting its journal and receipt writes; `hook`
    runs once after the reservation numbered `hook_at` (counted from arming)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.writes: list[str] = []
        self.hook: Callable[[JournalEntry], Awaitable[None]] | None = None
        self.hook_at = 1

    async def reserve(self, entry: JournalEntry, **kwargs: Any) -> None:
        await super().reserve(entry, **kwargs)
        self.writes.append("complete+reserve" if kwargs.get("completing") else "reserve")
        if self.hook is not None:
            self.hook_at -= 1
            if self.hook_at == 0:
                hook, self.hook = self.hook, None
                await hook(entry)

    async def complete(self, session_id: str, seq: int, **kwargs: Any) -> bool:
        written = await super().complete(session_id, seq, **kwargs)
        self.writes.append("complete+receipt" if kwargs.get("tool_receipt") else "complete")
        return written

    async def put_receipt(self, receipt: Any) -> None:
        await super().put_receipt(receipt)
        self.writes.append("receipt")


def rows(state_dir: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        return [tuple(row) for row in db.execute(sql)]


async def test_an_acting_call_is_a_reservation_and_one_commit(state_dir: Path) -> None:
    store = CountingStore(state_dir / "games.sqlite3")
    client = Client(registry(state_dir, store=store))
    try:
        frame = await client.ok("session", action="create", seed=42)
        store.writes.clear()
        searched = await client.ok("interact", **bound(frame), action="search", requestId="s-1")
        assert searched["outcome"]["submission"] == "accepted"
        assert store.writes == ["reserve", "complete+receipt"]
        assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "completed")]
        assert rows(state_dir, "SELECT request_id FROM receipts") == [("s-1",)]
        again = await client.ok("interact", **bound(frame), action="search", requestId="s-1")
        assert again["outcome"] == searched["outcome"], "an exact retry gets the stored receipt"

        # a leg of many inputs: each completion with the next reservation, the last with the receipt
        store.writes.clear()
        walked = await client.ok("travel", **bound(searched), mode="explore", maxActions=4)
        inputs = walked["outcome"]["actionsTaken"]
        assert inputs >= 2, walked["outcome"]
        assert store.writes == ["reserve"] + ["complete+reserve"] * (inputs - 1) + ["complete+receipt"]
        assert {state for (state,) in rows(state_dir, "SELECT state FROM journal")} == {"completed"}
    finally:
        await client.close()


async def test_a_held_completion_the_fence_refuses_does_not_count(state_dir: Path) -> None:
    """B takes the game while A's leg runs: A's first input reached A's engine, but its
    held completion is refused before A's next input, so that input is not applied,
    A's frame says so, and nothing more is sent."""
    store = CountingStore(state_dir / "games.sqlite3")
    a, b = Client(registry(state_dir, store=store)), Client(registry(state_dir))
    try:
        frame = await a.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]

        async def take_over(entry: JournalEntry) -> None:
            os.unlink(state_dir / "locks" / f"{sid}.lock")
            assert (await b.games.resume(sid)).lease is not None

        store.hook = take_over
        lost = await a.call("travel", **bound(frame), mode="explore", maxActions=4)
        # a leg reports its refused input as stepFailed, with the refusal's own message
        assert lost["error"]["code"] == "stepFailed" and "cannot be recorded" in lost["error"]["message"]
        assert lost["control"]["gate"] == "lostOwnership"
        assert lost["outcome"]["submission"] != "accepted"
        assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "reserved")], "one input, never recorded"
        assert rows(state_dir, "SELECT request_id FROM receipts") == []

        verified = await b.ok("observe", sessionId=sid)
        assert verified["basis"]["revision"] == 0, "the new owner's game does not have it"
        assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "notApplied")]
        reloaded = await a.ok("observe", sessionId=sid)
        assert reloaded["basis"] == verified["basis"], "the old owner shows the journal's game"
    finally:
        await a.close()
        await b.close()


async def test_a_held_completion_is_not_reported_taken_until_it_is_written(state_dir: Path) -> None:
    """A `running` frame counts only inputs whose completion is durable: a held one is not (yet)."""
    client = Client(registry(state_dir))
    try:
        frame = await client.ok("session", action="create", seed=42)
        session = await client.games.load(frame["basis"]["sessionId"])
        operation = Operation(session, "op-held")
        async with session.lock:
            step = await operation.step("game.search")
            assert step.submission == "accepted"
            assert session.journal.holding(step.request_id) and operation.durable_steps() == []
            assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "reserved")]
            assert await operation.settled()
            assert not session.journal.holding(step.request_id) and operation.durable_steps() == [step]
            assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "completed")]
    finally:
        await client.close()


async def test_an_operation_that_fails_after_an_input_still_journals_it(state_dir: Path) -> None:
    """A tool's own failure after an input reached the engine (a bug, not a refusal) does
    not leave its completion held: it is written before the failure propagates."""
    client = Client(registry(state_dir))
    try:
        frame = await client.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]

        async def perform(operation: Operation) -> dict[str, Any]:
            await operation.step("game.search")
            raise RuntimeError("the tool broke after its input")

        with pytest.raises(RuntimeError):
            await mutate(client.ctx, "interact", {"sessionId": sid, "viewId": frame["basis"]["viewId"]}, perform)
        assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "completed")]
        observed = await client.ok("observe", sessionId=sid)
        assert observed["basis"]["revision"] == 1 and observed["control"]["gate"] == "ready"
    finally:
        await client.close()


async def test_a_held_completion_refused_with_the_next_reservation_does_not_count(state_dir: Path) -> None:
    """Another owner claims the game (its epoch, not the lock file: the gate does not
    notice) while A's leg runs: the joint write of A's held completion and next
    reservation is refused, the completion alone is refused too, so that input is
    not applied, A's frame says so, and nothing more is sent or written."""
    store = CountingStore(state_dir / "games.sqlite3")
    peer = SqliteStore(state_dir / "games.sqlite3")
    a = Client(registry(state_dir, store=store))
    try:
        frame = await a.ok("session", action="create", seed=42)
        sid = frame["basis"]["sessionId"]

        async def claim(entry: JournalEntry) -> None:
            assert await peer.claim(sid, {"who": "peer"}) is not None

        store.hook = claim
        store.writes.clear()
        lost = await a.call("travel", **bound(frame), mode="explore", maxActions=4)
        assert lost["error"]["code"] == "stepFailed" and "cannot be recorded" in lost["error"]["message"]
        assert lost["control"]["gate"] == "lostOwnership"
        assert lost["outcome"]["submission"] != "accepted"
        assert store.writes == ["reserve"], "the refused joint write and the refused completion wrote nothing"
        assert rows(state_dir, "SELECT seq, state FROM journal") == [(1, "reserved")], "one input, never recorded"
        assert rows(state_dir, "SELECT request_id FROM receipts") == []
    finally:
        await a.close()
        await peer.close()
