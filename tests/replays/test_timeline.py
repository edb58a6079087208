"""test_timeline.py - native replay checkpoints: exact seeks, refusals, exports (docs/REPLAY.md)."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.replay import ReplayRefused, Timeline
from nethack_webmcp.replay.exports import cast, dumplog
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.session import replay as journal_replay
from nethack_webmcp.store.memory import MemoryStore

COMPASS = ["north", "east", "south", "west", "northeast", "southwest"]


async def play(inputs: int, *, quit_at_end: bool = False) -> tuple[Any, list[Any]]:
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session: Session = await games.create({"seed": 11, "name": "Scrub", "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        decision = session.decision
        if decision is not None:
            await session.step("decision.cancel", {"decisionId": decision["id"]}, request_id=f"r{sent}")
        elif sent % 3 == 2:
            await session.step("game.search", {"turns": 1}, request_id=f"r{sent}")
        else:
            await session.step("game.move", {"direction": COMPASS[sent % 6]}, request_id=f"r{sent}")
    if quit_at_end:
        result = await session.step("game.quit", {}, request_id="quit")
        while not session.state.ended:
            decision = session.decision
            assert decision is not None, result
            answer = (
                {"kind": "confirmation", "confirm": True}
                if decision["kind"] == "confirmation"
                else {"kind": "choice", "choose": [decision["options"][0]["id"]]}
            )
            result = await session.step(
                "decision.answer", {"decisionId": decision["id"], "answer": answer}, request_id=f"a{session.revision}"
            )
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    return info, entries


async def fresh_observe(info: Any, entries: list[Any], move: int) -> dict[str, Any]:
    """The oracle: a brand-new engine, the first `move` inputs replayed from scratch."""
    todo = journal_replay.plan(entries)[0][:move]
    engine = await NativeEngine.start()
    try:
        await engine.request({"version": 1, "method": "session.create", "params": info["create"]})
        for entry in todo:
            await engine.request(journal_replay.quiet(entry["request"]))
        return await journal_replay.observe(engine, info["sessionId"])
    finally:
        await engine.close()


def test_seek_equals_a_fresh_replay_at_random_moves() -> None:
    async def run() -> None:
        info, entries = await play(400)
        timeline = await Timeline.open(info, entries, spacing=0.002, extra=[123])
        try:
            assert len(timeline.checkpoints) > 3 and 123 in [c.move for c in timeline.checkpoints]
            for move in random.Random(5).sample(range(timeline.length + 1), 8) + [0, timeline.length]:
                seen = await timeline.seek(move)
                expected = await fresh_observe(info, entries, move)
                assert seen["observation"] == expected["observation"], move
                assert journal_replay.summary_of(seen) == timeline.summary_at(move)
            resumed = await timeline.resume()
            resumed.close()
        finally:
            await timeline.close()

    asyncio.run(run())


def test_a_tampered_journal_is_refused() -> None:
    async def run() -> None:
        info, entries = await play(60)
        bad = copy.deepcopy(entries)
        bad[30]["receipt"]["revision"] += 5
        with pytest.raises(ReplayRefused) as refused:
            await Timeline.open(info, bad)
        assert refused.value.code == "replayDiverged" and "move 31" in refused.value.message
        timeline = await Timeline.open(info, entries, spacing=0.0)
        try:
            edited = copy.deepcopy(entries)
            edited[10]["request"]["params"]["direction"] = "west"
            with pytest.raises(ReplayRefused) as changed:
                timeline.verify_journal(edited)
            assert changed.value.code == "journalTampered"
            timeline.verify_journal(entries)  # the unchanged journal passes
            timeline.checkpoints[2].digest = "0" * 64
            with pytest.raises(ReplayRefused) as forged:
                await timeline.seek(timeline.checkpoints[2].move)
            assert forged.value.code == "checkpointTampered"
        finally:
            await timeline.close()

    asyncio.run(run())


def test_cast_has_one_v2_frame_per_move_and_the_dumplog_names_the_end() -> None:
    async def run() -> None:
        info, entries = await play(40, quit_at_end=True)
        timeline = await Timeline.open(info, entries)
        try:
            document = await cast(timeline, "Scrub")
            final = await timeline.seek(timeline.length)
            summary = dumplog(final, "Scrub")
        finally:
            await timeline.close()
        header, *events = [json.loads(line) for line in document.splitlines()]
        assert header["version"] == 2 and header["width"] == 80 and header["height"] == 24
        assert len(events) == timeline.length + 1
        times = [event[0] for event in events]
        assert times == sorted(times) and all(isinstance(t, float | int) for t in times)
        for event in events:
            assert len(event) == 3 and event[1] == "o" and isinstance(event[2], str)
            screen = event[2].removeprefix("\x1b[H\x1b[2J").split("\r\n")
            assert len(screen) == 24 and all(len(line) <= 80 for line in screen)
        assert "Dlvl:1" in events[0][2] and "@" in events[0][2]
        assert "Cause of death: quit" in summary

    asyncio.run(run())
