"""test_records.py - a finished game's record (seed 002's fields), written exactly once."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from durable_support import FaultyStore, registry
from nethack_webmcp.session.records import end_reason
from nethack_webmcp.store.sqlite import SqliteStore
from support.client import CREATED_AT, Client, bound


def records(state_dir: Path) -> list[tuple]:
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        return db.execute("SELECT * FROM game_records").fetchall()


async def quit_game(client: Client, frame: dict[str, Any]) -> dict[str, Any]:
    frame = await client.ok("session", **bound(frame), action="quit")
    while frame["decision"] is not None:
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            frame = await client.ok(
                "respond", **decision["reply"]["arguments"], value=decision["prompt"] == "Really quit?"
            )
        else:
            frame = await client.ok("respond", **decision["cancel"]["arguments"])
    assert frame["control"]["gate"] == "ended"
    return frame


def test_end_reasons() -> None:
    assert [
        end_reason(how)
        for how in ("ascended", "escaped", "quit", "panicked", "died", "choked", "stoned", "trickery", None)
    ] == ["ascended", "escaped", "quit", "failed", "died", "died", "died", "died", "failed"]


@pytest.mark.asyncio
async def test_quit_writes_one_record(state_dir: Path) -> None:
    started = int(time.time())
    client = Client(registry(state_dir))
    try:
        frame = await client.ok(
            "session", action="create", seed=42, name="Ada", harness_name="pytest-harness", model_name="no-model"
        )
        sid = frame["basis"]["sessionId"]
        frame = await client.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
        ended = await quit_game(client, frame)
        record = await client.games.store.get_record(sid)
        stored = await client.games.store.get_session(sid)
    finally:
        await client.close()
    end = ended["scene"]["end"]
    assert record is not None and stored is not None
    assert record == {
        "sessionId": sid,
        "characterName": "Ada",
        "harnessName": "pytest-harness",
        "modelName": "no-model",
        "startedAt": record["startedAt"],
        "endedAt": record["endedAt"],
        "endTimeKind": "observed",
        "endReason": "quit",
        "how": "quit",
        "death": end.get("death"),
        "score": end["score"],
        "turns": end["turn"],
        "lastDepth": 1,
        "deepestDepth": 1,
        "seed": 42,
        "seedChoice": "chosen",
        "maxLevel": 1,
    }
    assert started <= record["startedAt"] <= record["endedAt"] <= time.time()
    assert stored["status"] == "ended" and stored["endedAt"] is not None

    # resuming the ended game shows the end and writes nothing twice
    again = Client(registry(state_dir))
    try:
        observed = await again.ok("observe", sessionId=sid)
        assert observed["control"]["gate"] == "ended" and observed["scene"]["end"]["how"] == "quit"
        refused = await again.call("interact", **bound(observed), action="search")
        assert refused["error"]["code"] == "gameEnded"
    finally:
        await again.close()
    assert len(records(state_dir)) == 1


@pytest.mark.asyncio
async def test_depths_and_a_failed_final_receipt(state_dir: Path) -> None:
    """Depth is tracked as it changes; the record rides in the ending receipt's
    transaction, so a failed final write writes no record until observe makes
    it durable - once."""
    store = FaultyStore(SqliteStore.in_state_dir(state_dir))
    client = Client(registry(state_dir, store=store))
    try:
        session = await client.games.create({"seed": 5, "name": "Wiz", "createdAt": CREATED_AT, "wizard": True})
        sid = session.session_id
        for level in ("5", "2"):
            await session.step("debug.wizard", {"command": "levelTeleport"}, request_id=f"lt{level}.1")
            await session.step(
                "decision.answer",
                {
                    "decisionId": session.decision["id"],  # type: ignore[index]
                    "answer": {"kind": "text", "text": level},
                },
                request_id=f"lt{level}.2",
            )
        stored = await store.get_session(sid)
        assert stored is not None and (stored["lastDepth"], stored["deepestDepth"]) == (2, 5)
        frame = await client.ok("observe", sessionId=sid)
        frame = await client.ok("session", **bound(frame), action="quit")
        assert frame["decision"]["prompt"] == "Really quit?"
        store.fail_ending = True
        frame = await client.call("respond", **frame["decision"]["reply"]["arguments"], value=True)
        while frame["decision"] is not None:  # the disclosure questions before the end
            frame = await client.call("respond", **frame["decision"]["cancel"]["arguments"])
        assert store.failures == ["complete"], "the ending input's receipt failed"
        assert frame["outcome"]["status"] == "ended" and frame["control"]["gate"] == "recoveryRequired"
        assert frame["diagnostics"]["storage"]["status"] == "failed"
        assert records(state_dir) == []
        frame = await client.ok("observe", sessionId=sid)
        assert frame["control"]["gate"] == "ended"
        await client.ok("observe", sessionId=sid)
        record = await store.get_record(sid)
    finally:
        await client.close()
    assert len(records(state_dir)) == 1
    assert record is not None and record["endReason"] == "quit"
    assert (record["lastDepth"], record["deepestDepth"]) == (2, 5)


@pytest.mark.asyncio
async def test_a_resumed_ended_game_without_its_record_gets_it_once(state_dir: Path, tmp_path: Path) -> None:
    """An ended game whose record is missing (here: imported without it) gets
    its record when it is resumed, dated by the ending input's receipt."""
    from nethack_webmcp.engine.native import NativeEngine, native_identity
    from nethack_webmcp.exchange import export_game, import_game

    client = Client(registry(state_dir))
    try:
        frame = await client.ok("session", action="create", seed=42, name="Ada")
        sid = frame["basis"]["sessionId"]
        await quit_game(client, frame)
        document = await export_game(client.games.store, sid, engine_factory=NativeEngine.start)
    finally:
        await client.close()
    original = document["record"]
    document["record"] = None
    elsewhere = tmp_path / "elsewhere"
    target = Client(registry(elsewhere))
    try:
        await import_game(target.games.store, document, engine_factory=NativeEngine.start, identity=native_identity())
        assert records(elsewhere) == []
        observed = await target.ok("observe", sessionId=sid)
        assert observed["control"]["gate"] == "ended"
        await target.games.close(sid)
        await target.ok("session", action="resume", sessionId=sid)  # a second resume writes nothing more
        record = await target.games.store.get_record(sid)
    finally:
        await target.close()
    assert len(records(elsewhere)) == 1
    ending = [entry for entry in document["journal"] if entry["state"] == "completed"][-1]
    assert record == {**original, "endedAt": int(ending["completedAt"])}
