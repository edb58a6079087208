"""test_restore_point.py - a game resumed from a restore point shows exactly the frames of the uninterrupted one.

The fixed 500-call game of exact_resume_play.py (seed 6, wizard fixture:
levels left and revisited, traps, questions, observes) is played on the real
native engine and real SQLite twice. The second run saves a restore point
at call j - the journal seq and the live tracker's navigation snapshot
(`navigation.snapshot.dump`) - plays on to call k, then restarts the host
and resumes the game with `Session.restore_from`: the engine is a second
native engine brought to entry seq_j by a quiet replay (as a checkpoint
would hold it), the memory is the snapshot loaded back, and only the
entries seq_j+1..seq_k are replayed. Every later frame must equal the
uninterrupted game's byte for byte (masked as test_exact_resume.py masks),
and so must the navigation memory.

A restore point that does not fit is refused before anything is trusted:
another game's, a boundary the journal did not record (checkpointRefused),
an engine that is not where the point says (replayDiverged); the engine is
closed and `Session.restore` (the whole journal) still resumes the game.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from durable_support import registry
from exact_resume_play import PARAMS, RESUME_NOTICE, SESSION_ID, Player, differences, mask
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import snapshot
from nethack_webmcp.navigation.level import WorldTracker
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.session import replay as journal_replay
from nethack_webmcp.session.errors import SessionError
from nethack_webmcp.session.restore_point import RestorePoint, point_of
from nethack_webmcp.store import JournalEntry, SessionInfo
from nethack_webmcp.store.memory import MemoryStore
from support.client import Client
from support.wandering_game import wandering_game

pytestmark = pytest.mark.asyncio

CALLS = 500
#: (call the restore point is taken at, call the host restarts at): the resume replays the calls between
RESTARTS = ((150, 190), (330, 330))


async def engine_at(info: SessionInfo, entries: list[JournalEntry], seq: int) -> NativeEngine:
    """A fresh native engine brought to the boundary after entry `seq` by a quiet replay."""
    engine = await NativeEngine.start()
    await engine.request({"version": 1, "method": "session.create", "params": info["create"]})
    for entry in journal_replay.plan([e for e in entries if e["seq"] <= seq])[0]:
        response = await engine.request(journal_replay.quiet(entry["request"]))
        assert journal_replay.summary_of(response) == entry["receipt"]
    return engine


async def play(directory: Path, restarts: tuple[tuple[int, int], ...] = ()) -> tuple[list[str], list[Any], list[Any]]:
    """The fixed game's frames (masked), memories after every 10 calls, and the resume notices."""
    client = Client(registry(directory))
    session = await client.games.create(dict(PARAMS))
    nonce = session.info["viewNonce"]
    player = Player()
    frames, memories, notices = [], [], []
    saved: dict[int, tuple[int, bytes]] = {}
    taken = dict(restarts)
    restart_at = {k: j for j, k in restarts}
    frame = await client.ok("observe", sessionId=SESSION_ID)
    try:
        for index in range(CALLS + 1):
            if index:
                tool, arguments = player.next_call(index, frame)
                frame = await client.call(tool, **arguments)
            assert frame["basis"] is not None, f"call {index} lost the game: {frame['error']}"
            frames.append(mask(frame, nonce))
            if RESUME_NOTICE in frame["diagnostics"]:
                notices.append(frame["diagnostics"][RESUME_NOTICE])
            live = client.games.get(SESSION_ID)
            if index in taken:
                saved[index] = (live.journal.seq, snapshot.dump(live.state.tracker))
            if index in restart_at:
                seq, memory = saved[restart_at[index]]
                await client.close()
                client = Client(registry(directory))
                games = client.games
                info = await games.store.get_session(SESSION_ID)
                assert info is not None
                entries = await games.store.journal(SESSION_ID)
                lease = await games.ownership.acquire(SESSION_ID)
                resumed = await Session.restore_from(
                    await engine_at(info, entries, seq),
                    info,
                    entries,
                    point=point_of(info, entries, seq, memory),
                    store=games.store,
                    engine_factory=NativeEngine.start,
                    lease=lease,
                )
                games._register(resumed)  # as GameRegistry._resume does with a restored game
            if index % 10 == 0:
                memories.append(client.games.get(SESSION_ID).state.tracker.memory())
    finally:
        await client.close()
    return frames, memories, notices


async def test_a_resume_from_a_restore_point_changes_no_frame(tmp_path: Path, state_dir: Path) -> None:
    straight, straight_memories, none = await play(tmp_path / "uninterrupted")
    resumed, resumed_memories, notices = await play(state_dir, RESTARTS)

    assert none == [] and len(straight) == len(resumed) == CALLS + 1
    for index, (original, again) in enumerate(zip(straight, resumed, strict=True)):
        assert original == again, (
            f"frame {index} differs after a resume from a restore point: "
            f"{differences(json.loads(original), json.loads(again))[:5]}"
        )
    for checkpoint, (before, after) in enumerate(zip(straight_memories, resumed_memories, strict=True)):
        assert before == after, f"the navigation memory differs at call {checkpoint * 10}"
    # each resume started at its restore point and replayed only the entries after it
    assert len(notices) == len(RESTARTS)
    first, second = notices
    assert first["replayed"] > 0 and second["replayed"] == 0, notices
    assert first["fromCheckpoint"] < second["fromCheckpoint"]


# ---- a restore point that does not fit --------------------------------------------------------------


async def _stored(inputs: int) -> tuple[SessionInfo, list[JournalEntry], MemoryStore]:
    game = await wandering_game(inputs, seed=19, name="Point", stride=5, prefix="p")
    store = MemoryStore()
    return game["info"], game["entries"], store


async def _memory_at(info: SessionInfo, entries: list[JournalEntry], seq: int) -> bytes:
    """The navigation memory after entry `seq`, folded from full responses."""
    engine = await NativeEngine.start()
    try:
        created = await engine.request({"version": 1, "method": "session.create", "params": info["create"]})
        tracker = WorldTracker()
        tracker.apply(created["observation"])
        for entry in journal_replay.plan([e for e in entries if e["seq"] <= seq])[0]:
            response = await engine.request(entry["request"])
            tracker.apply(response["observation"], searching=entry["method"] == "game.search")
    finally:
        await engine.close()
    return snapshot.dump(tracker)


async def test_a_restore_point_that_does_not_fit_is_refused_and_the_journal_still_resumes(state_dir: Path) -> None:
    info, entries, store = await _stored(120)
    memory = await _memory_at(info, entries, 80)
    good = point_of(info, entries, 80, memory)

    # resumed from it: the same game as a whole-journal resume
    from_point = await Session.restore_from(await engine_at(info, entries, 80), info, entries, point=good, store=store)
    whole = await Session.restore(await NativeEngine.start(), info, entries, store=store)
    try:
        assert snapshot.dump(from_point.state.tracker) == snapshot.dump(whole.state.tracker)
        assert from_point.notes["resume"]["fromCheckpoint"] == 80 and from_point.notes["resume"]["replayed"] == 40
        assert from_point.last_state_hash == whole.last_state_hash
    finally:
        await from_point.close()
        await whole.close()

    other: SessionInfo = {**info, "sessionId": "another-game"}
    refusals: list[tuple[str, Any, str]] = [
        ("another game's", dataclasses.replace(good, created={**good.created, "sessionId": "x"}), "another game"),
        ("a boundary not recorded", dataclasses.replace(good, summary={**good.summary, "revision": 1}), "boundary"),
        ("an entry not in the journal", dataclasses.replace(good, seq=999), "no entry 999"),
    ]
    for what, point, message in refusals:
        engine = await engine_at(info, entries, 80)
        with pytest.raises(SessionError, match=message) as refused:
            await Session.restore_from(engine, info, entries, point=point, store=store)
        assert refused.value.code == "checkpointRefused", what
        assert engine.closed, f"{what}: the engine is closed"
    with pytest.raises(SessionError, match="another game"):
        await Session.restore_from(await engine_at(info, entries, 80), other, entries, point=good, store=store)
    with pytest.raises(SessionError, match="navigation memory is refused"):
        point_of(info, entries, 80, memory.replace(b'"format":1', b'"format":7'))

    # an engine that is not where the point says: refused before any input is sent
    engine = await engine_at(info, entries, 75)
    with pytest.raises(SessionError, match="not at journal entry 80") as diverged:
        await Session.restore_from(engine, info, entries, point=point_of(info, entries, 80, memory), store=store)
    assert diverged.value.code == "replayDiverged" and engine.closed
    fallback = await Session.restore(await NativeEngine.start(), info, entries, store=store)
    try:
        assert fallback.revision == whole.revision and "fromCheckpoint" not in fallback.notes["resume"]
    finally:
        await fallback.close()


# ---- the registry: a host's restore source, and the fallback when its point does not hold --------------------


async def test_the_registry_resumes_from_the_host_restore_point_or_falls_back_to_the_journal(state_dir: Path) -> None:
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create({"seed": 19, "name": "Point", "createdAt": 1700000000, "wizard": True})
    session_id = session.session_id
    for sent in range(60):
        if session.decision is not None:
            await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=f"q{sent}")
        else:
            await session.step(
                "game.move", {"direction": ("north", "east", "south", "west")[sent % 4]}, request_id=f"q{sent}"
            )
    await session.observe()
    expected_memory = snapshot.dump(session.state.tracker)
    expected_hash = session.last_state_hash
    await games.close_all()
    info = await store.get_session(session_id)
    assert info is not None
    entries = await store.journal(session_id)
    memory = await _memory_at(info, entries, 40)
    asked: list[tuple[str, int, int]] = []

    async def source(stored: SessionInfo, journal: Any) -> tuple[NativeEngine, RestorePoint] | None:
        asked.append(("plain", journal[0]["seq"], len(journal)))
        return await engine_at(stored, entries, 40), point_of(stored, journal, 40, memory)

    async def lying(stored: SessionInfo, journal: Any) -> tuple[NativeEngine, RestorePoint] | None:
        asked.append(("lying", journal[0]["seq"], len(journal)))
        return await engine_at(stored, entries, 35), point_of(stored, journal, 40, memory)

    class Tail:
        """A source that names its newest checkpoint's entry: the registry reads the journal from there on."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def newest_seq(self, stored: SessionInfo) -> int:
            return 40

        async def __call__(self, stored: SessionInfo, journal: Any) -> tuple[NativeEngine, RestorePoint] | None:
            return await self.inner(stored, journal)

    cases = ((source, True), (lying, False), (Tail(source), True), (Tail(lying), False))
    for host, checkpointed in cases:
        games = GameRegistry(NativeEngine.start, store=store)
        games.restore_source = host
        resumed = await games.resume(session_id)
        await resumed.observe()
        report = resumed.notes["resume"]
        try:
            assert snapshot.dump(resumed.state.tracker) == expected_memory
            assert resumed.last_state_hash == expected_hash
            if checkpointed:
                assert report["fromCheckpoint"] == 40 and report["replayed"] == 20 and "checkpoint" not in report
            else:  # refused, said so, and resumed by the whole journal
                assert "fromCheckpoint" not in report and report["replayed"] == 60
                refusal = report["checkpoint"]["refused"][-1]
                assert refusal["code"] == "replayDiverged" and "not at journal entry 40" in refusal["message"]
        finally:
            await games.close_all()
    # asked with the whole journal, or with the tail from entry 40 (and, when that did not hold, the whole one)
    assert asked == [("plain", 1, 60), ("lying", 1, 60), ("plain", 40, 21), ("lying", 40, 21), ("lying", 1, 60)]
