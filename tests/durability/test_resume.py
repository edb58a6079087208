"""test_resume.py - resume by pinned replay, in process (a new registry = a restarted host).

Each test plays through the tools on one registry, closes it (the engines
are retired; the games stay in SQLite), and continues on a fresh registry
over the same state directory, exactly as a restarted MCP server would.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from durable_support import registry, standing
from support.client import CREATED_AT, Client, bound

pytestmark = pytest.mark.asyncio


async def play_to_a_decision(client: Client) -> dict:
    """seed 42: a few moves, a search, then a kick that leaves a direction question standing."""
    frame = await client.ok("session", action="create", seed=42, name="Ada", harness_name="pytest", model_name="none")
    for direction in ("west", "west", "north"):
        frame = await client.ok("travel", **bound(frame), mode="step", target={"direction": direction})
    frame = await client.ok("interact", **bound(frame), action="search", turns=3, requestId="search-1")
    frame = await client.ok("interact", **bound(frame), action="kick")
    assert frame["control"]["gate"] == "decision" and frame["decision"]["kind"] == "direction"
    return frame


async def test_resume_restores_state_decision_and_view(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    frame = await play_to_a_decision(first)
    sid = frame["basis"]["sessionId"]
    before = await first.ok("observe", sessionId=sid)
    await first.close()

    second = Client(registry(state_dir))
    after = await second.ok("observe", sessionId=sid)  # names a stored game: resumed on demand
    assert after["result"]["stateHash"] == before["result"]["stateHash"]
    assert after["basis"] == before["basis"], "same revision, viewId, level and turn"
    assert after["control"]["gate"] == "decision"
    assert standing(after) == standing(before)
    assert after["decision"]["reply"] == before["decision"]["reply"]
    assert after["scene"]["world"] == before["scene"]["world"]
    resume = after["diagnostics"]["resume"]
    assert resume["replayed"] == 5 == before["basis"]["revision"] == resume["revision"]
    assert "notApplied" not in resume

    # the standing question is answered with the reply copied before the restart
    answered = await second.ok("respond", **frame["decision"]["reply"]["arguments"], value="north")
    assert answered["outcome"]["submission"] == "accepted"
    assert answered["basis"]["revision"] == before["basis"]["revision"] + 1
    await second.close()


async def test_exact_retry_after_restart_returns_the_original_frame(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=42)
    args = {**bound(created), "mode": "step", "target": {"direction": "west"}, "requestId": "walk-1"}
    original = await first.ok("travel", **args)
    await first.close()

    second = Client(registry(state_dir))
    again = await second.call("travel", **args)
    assert again == original, "the stored receipt, not a second step"
    observed = await second.ok("observe", sessionId=created["basis"]["sessionId"])
    assert observed["basis"]["revision"] == original["basis"]["revision"]
    changed = await second.call("travel", **{**args, "target": {"direction": "east"}})
    assert changed["error"]["code"] == "requestIdReused"
    await second.close()


async def test_an_operation_without_its_receipt_is_not_run_twice(state_dir: Path) -> None:
    """A crash after the engine answered but before the tool receipt was stored:
    the retry is refused (receiptMissing), never executed a second time."""
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=42)
    sid = created["basis"]["sessionId"]
    await first.ok("travel", **bound(created), mode="step", target={"direction": "west"}, requestId="walk-1")
    await first.close()
    with sqlite3.connect(state_dir / "games.sqlite3") as db:  # the receipt write that never happened
        db.execute("DELETE FROM receipts WHERE request_id = 'walk-1'")

    second = Client(registry(state_dir))
    retry = await second.call("travel", **bound(created), mode="step", target={"direction": "west"}, requestId="walk-1")
    assert retry["error"]["code"] == "receiptMissing"
    observed = await second.ok("observe", sessionId=sid)
    assert observed["basis"]["revision"] == 1
    await second.close()


async def test_a_different_engine_is_refused(state_dir: Path) -> None:
    """Other rules (another driver, patch, options or NetHack) are refused
    before any replay; another build of the same rules is not (below)."""
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=42)
    await first.close()
    other = Client(registry(state_dir, identity="rules-sha256:other-rules"))
    frame = await other.call("observe", sessionId=created["basis"]["sessionId"])
    assert frame["error"]["code"] == "engineMismatch" and frame["basis"] is None
    assert frame["error"]["recorded"] != frame["error"]["current"]
    await other.close()


async def test_a_diverging_replay_is_refused(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=42)
    frame = await first.ok("travel", **bound(created), mode="step", target={"direction": "west"})
    await first.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
    await first.close()
    with sqlite3.connect(state_dir / "games.sqlite3") as db:  # history that this engine cannot reproduce
        db.execute("UPDATE journal SET receipt_json = json_set(receipt_json, '$.revision', 7) WHERE seq = 2")

    second = Client(registry(state_dir))
    refused = await second.call("travel", **bound(frame), mode="step", target={"direction": "west"})
    assert refused["error"]["code"] == "replayDiverged" and refused["error"]["seq"] == 2
    assert refused["error"]["expected"]["revision"] == 7 and refused["error"]["got"]["revision"] == 2
    assert second.games.sessions() == [], "nothing is loaded from a diverging replay"
    await second.close()


async def test_torn_history_is_not_truncated(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=42)
    frame = await first.ok("travel", **bound(created), mode="step", target={"direction": "west"})
    await first.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
    await first.close()
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        db.execute("UPDATE journal SET state = 'reserved', receipt_json = NULL WHERE seq = 1")
    second = Client(registry(state_dir))
    refused = await second.call("observe", sessionId=created["basis"]["sessionId"])
    assert refused["error"]["code"] == "journalCorrupt"
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM journal").fetchone()[0] == 2
    await second.close()


async def test_explicit_resume_and_close_keep_the_game(state_dir: Path) -> None:
    first = Client(registry(state_dir))
    created = await first.ok("session", action="create", seed=7)
    sid = created["basis"]["sessionId"]
    closed = await first.ok("session", action="close", sessionId=sid)
    assert closed["result"]["action"] == "closed"
    resumed = await first.ok("session", action="resume", sessionId=sid)
    assert resumed["result"]["owner"] is True and resumed["basis"] == created["basis"]
    unknown = await first.call("session", action="resume", sessionId="no-such-game")
    assert unknown["error"]["code"] == "unknownSession"
    await first.close()
    # closing a stored game that is not loaded is a no-op, not a resume
    second = Client(registry(state_dir))
    assert (await second.ok("session", action="close", sessionId=sid))["result"]["action"] == "closed"
    assert second.games.sessions() == []
    await second.close()


async def test_low_fixture_games_resume_too(state_dir: Path) -> None:
    """Games created with low-only parameters (wizard, fixed clock) replay the same."""
    games = registry(state_dir)
    session = await games.create({"seed": 5, "name": "Wiz", "createdAt": CREATED_AT, "wizard": True})
    result = await session.step("game.search", {"turns": 20}, request_id="s.1")
    assert result.submission == "accepted"
    await session.observe()
    digest, sid = session.last_state_hash, session.session_id
    await games.close_all()
    again = registry(state_dir, store=games.store)
    resumed = await again.load(sid)
    assert resumed.last_state_hash == digest and resumed.metadata["wizard"] is True
    await again.close_all()
    await again.store.close()


async def test_automatic_pickup_chosen_at_creation_survives_a_restart(state_dir: Path) -> None:
    """session create's autopickup is on from the first turn (a Healer's dropped
    gold comes back in the step onto it) and is re-created by the replay."""
    first = Client(registry(state_dir))
    frame = await first.ok("session", action="create", seed=42, role="healer", autopickup="$")
    assert frame["scene"]["automaticPickup"] == {
        "enabled": True,
        "itemTypes": ["gold"],
        "arrows": True,
        "leaveCorpses": True,
        "leaveKnownCursed": True,
    }
    assert frame["basis"]["revision"] == 0
    gold = frame["scene"]["self"]["vitals"]["gold"]
    coins = next(entry["id"] for entry in frame["scene"]["inventory"] if entry["label"].endswith("gold pieces"))
    frame = await first.ok("use", **bound(frame), action="drop", itemId=coins)
    assert frame["scene"]["self"]["vitals"]["gold"] == 0
    start = frame["scene"]["self"]["position"]
    for there, back in (("east", "west"), ("west", "east"), ("north", "south"), ("south", "north")):
        frame = await first.ok("travel", **bound(frame), mode="step", target={"direction": there})
        if frame["scene"]["self"]["position"] != start:
            frame = await first.ok("travel", **bound(frame), mode="step", target={"direction": back})
            break
    assert frame["scene"]["self"]["position"] == start
    assert frame["scene"]["self"]["vitals"]["gold"] == gold, "picked up in the step onto it"
    before = await first.ok("observe", sessionId=frame["basis"]["sessionId"])
    await first.close()

    second = Client(registry(state_dir))
    after = await second.ok("observe", sessionId=frame["basis"]["sessionId"])
    assert after["result"]["stateHash"] == before["result"]["stateHash"]
    assert after["scene"]["automaticPickup"] == before["scene"]["automaticPickup"]
    refused = await second.call("session", action="create", seed=42, autopickup="$$")
    assert refused["error"]["code"] == "invalidArguments" and refused["error"]["field"] == "autopickup"
    await second.close()
