"""test_checkpoint_memory.py - every checkpoint a fold catch-up stores keeps the navigation memory, compressed.

A host stopped in the middle of play resumes from the newest checkpoint
that keeps a navigation memory, replaying the inputs after it with their
full responses folded (replay/native_resume.py). So a catch-up that folds
keeps the memory with every checkpoint it stores (a resume then replays at
most the checkpoint spacing beyond the inputs since the catch-up), stored
zlib-compressed so that stays within the size budget (docs/REPLAY.md). A
real wizard-mode game on the native engine, a real SQLite store and the
Asyncify build under Node: the memories are compressed, each one is the
memory an uninterrupted fold holds at its move, a resume from a checkpoint
in the middle replays only what followed it, and a checkpoint kept before
compression (the plain JSON) still resumes.
"""

from __future__ import annotations

import hashlib
import zlib
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine import wasm_node
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import snapshot
from nethack_webmcp.replay import persisted
from nethack_webmcp.replay.checkpointer import Checkpointer
from nethack_webmcp.replay.native_resume import native_restore_source
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.store.sqlite import SqliteStore
from support.wasm_builds import WASM_ENGINE

pytestmark = pytest.mark.asyncio

COMPASS = ["north", "east", "south", "west", "northeast", "southwest", "southeast", "northwest"]
INPUTS = 400
PARAMS = {"seed": 41, "name": "Memory", "createdAt": 1700000000, "wizard": True, "sessionId": "memory-everywhere"}


async def play(session: Session, count: int) -> dict[int, bytes]:
    """The fixed walk; the live tracker's memory after each journal entry, by seq."""
    memories = {}
    for sent in range(count):
        request_id = f"m{sent}"
        if session.decision is not None:
            await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=request_id)
        elif sent % 3 == 2:
            await session.step("game.search", {"turns": 1}, request_id=request_id)
        else:
            await session.step("game.move", {"direction": COMPASS[(sent * 5) % 8]}, request_id=request_id)
        memories[int(session.journal.seq)] = snapshot.dump(session.state.tracker)
    return memories


async def resume(store: SqliteStore, session_id: str) -> tuple[dict[str, Any], bytes]:
    """A restarted host's resume of the game: its report and the navigation memory it resumed with."""
    games = GameRegistry(NativeEngine.start, store=store)
    games.restore_source = native_restore_source(store)
    try:
        resumed = await games.resume(session_id)
        return resumed.notes["resume"], snapshot.dump(resumed.state.tracker)
    finally:
        await games.close_all()


async def test_a_fold_catch_up_keeps_a_compressed_memory_at_every_checkpoint(tmp_path: Path) -> None:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create(dict(PARAMS))
    session_id = session.session_id
    memories = await play(session, INPUTS)
    await games.close_all()
    try:
        await Checkpointer(games, min_inputs=1).catch_up(session_id)  # no live point: it folds
        index = await store.checkpoint_index(session_id)
        assert len(index) >= INPUTS // persisted.MAX_INPUTS, index
        middle = None
        for entry in index:
            assert entry["meta"].get("navigationSha256"), f"the checkpoint at move {entry['move']} has no memory"
            kept = await store.get_checkpoint(session_id, entry["move"])
            assert kept is not None and kept["navigation"] is not None
            assert kept["navigation"][:1] != b"{", "the memory is stored compressed"
            memory = zlib.decompress(kept["navigation"])
            if entry["seq"] in memories:  # (move 0: the creation)
                assert memory == memories[entry["seq"]], f"the memory at journal entry {entry['seq']} differs"
                raw = len(memories[entry["seq"]])
                assert len(kept["navigation"]) * 4 < raw, (len(kept["navigation"]), raw)
            if 0 < entry["move"] < index[-1]["move"] and middle is None:
                middle = entry

        # resumed from the newest checkpoint, then from one in the middle (a host stopped in the
        # middle of play: the checkpoints after it not made yet), then from that one kept the way
        # checkpoints were before memories were compressed (the JSON itself): the same memory
        assert middle is not None
        last_seq = int(index[-1]["seq"])
        report, reference = await resume(store, session_id)
        assert report["fromCheckpoint"] == last_seq and report["replayed"] == 0, report
        await store.drop_checkpoints(session_id, [entry["move"] for entry in index if entry["move"] > middle["move"]])
        report, memory = await resume(store, session_id)
        assert report["fromCheckpoint"] == middle["seq"] and report["replayed"] == last_seq - middle["seq"], report
        assert memory == reference
        kept = await store.get_checkpoint(session_id, middle["move"])
        assert kept is not None
        plain = memories[middle["seq"]]
        kept["navigation"] = plain
        kept["meta"] = {**kept["meta"], "navigationSha256": hashlib.sha256(plain).hexdigest()}
        await store.put_checkpoint(kept)
        report, memory = await resume(store, session_id)
        assert report["fromCheckpoint"] == middle["seq"], report
        assert memory == reference
    finally:
        await games.close_all()
        await wasm_node.discard_spare()
        await store.close()
