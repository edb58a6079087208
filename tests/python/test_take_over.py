"""test_take_over.py - the page's take-over (`worker.take_over`) on the real native engine.

`take_over` is the page's control for a person, not a tool: it steals the
game's lock from the tab that owns it and resumes the game by pinned replay,
answering the frame `session resume` answers (projection.frame.resumed) with
`takenOver` and the session's diagnostics (projection.frame.diagnosed).
Natively flock cannot be stolen, so the two tabs here are two registries
over one MemoryStore (each its own `peer` view, as each tab is) whose
in-process locks can be stolen as a Web Lock can: the taker claims a new
owner epoch in the store, so the old owner is fenced out by the store
itself. The engine is the real native one.
"""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the test extras
from nethack_webmcp import worker
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store import Lease, MemoryStore
from nethack_webmcp.store.memory import MemoryOwnership
from nethack_webmcp.tools import ToolContext, frame_schema
from support.client import Client, bound, require_driver

pytestmark = pytest.mark.asyncio


class StealableOwnership(MemoryOwnership):
    """MemoryOwnership plus the browser's Web Lock steal: a new claim, whoever holds the game."""

    async def steal(self, session_id: str) -> Lease:
        self._held.pop(session_id, None)
        lease = await self.acquire(session_id)
        assert lease is not None
        return lease


async def test_take_over_answers_the_resumed_frame_with_its_diagnostics(monkeypatch: pytest.MonkeyPatch) -> None:
    require_driver()
    store = MemoryStore()
    # two tabs: one database, each with its own view of it (its own claims) and its own locks
    owner = Client(GameRegistry(NativeEngine.start, store=store, ownership=StealableOwnership()))
    taker = GameRegistry(NativeEngine.start, store=store.peer(), ownership=StealableOwnership())
    monkeypatch.setattr(worker, "_context", ToolContext(taker))
    try:
        created = await owner.create(seed=42)
        searched = await owner.ok("interact", **bound(created), action="search")
        game = searched["basis"]["sessionId"]

        taken = json.loads(await worker.take_over(game))

        assert "error" not in taken, taken.get("error")
        assert taken["result"] == {
            "kind": "session",
            "action": "resumed",
            "session": taken["result"]["session"],
            "owner": True,
            "takenOver": True,
            "durability": "memory",
        }
        assert list(taken["result"]) == ["kind", "action", "session", "owner", "takenOver", "durability"]
        assert "seed" not in taken["result"]["session"], "a live game's seed is never shown"
        assert taken["basis"]["revision"] == searched["basis"]["revision"]
        assert taken["control"]["gate"] == "ready"
        # the session's diagnostics reach the frame: the resume's replay report
        assert taken["diagnostics"]["resume"]["replayed"] == 1
        assert [error.message for error in Draft202012Validator(frame_schema.schema()).iter_errors(taken)] == []

        refused = await owner.call("interact", **bound(searched), action="search")
        assert refused["error"]["code"] == "lostOwnership", "the old owner is fenced out"
        assert len(await store.journal(game)) == 1, "the old owner journaled nothing more"
    finally:
        await owner.close()
        await taker.close_all()
