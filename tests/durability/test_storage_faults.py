"""test_storage_faults.py - a failing store write is a `storage` diagnostic that blocks input.

The store is a real SqliteStore wrapped by FaultyStore, which raises on
chosen writes. Nothing is silently dropped: a write that failed is retried
by observe (the gate reopens only when it is durable), and the game that a
restart resumes is the game the player saw.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from durable_support import (
    SCRIPT,
    TWIN_PARAMS,
    Client,
    FaultyStore,
    apply_input,
    bound,
    drivers,
    registry,
    twin_hash,
)
from nethack_webmcp.session import SessionError
from nethack_webmcp.store.sqlite import SqliteStore

pytestmark = pytest.mark.asyncio


def faulty(state_dir: Path) -> tuple[Client, FaultyStore]:
    store = FaultyStore(SqliteStore.in_state_dir(state_dir))
    return Client(registry(state_dir, store=store)), store


async def engine_revision(client: Client, session_id: str) -> int:
    session = client.games.get(session_id)
    response = await session.engine.request(
        {"version": 1, "method": "session.observe", "params": {"sessionId": session_id}}
    )
    return int(response["revision"])


async def test_failed_reservation_sends_nothing_and_blocks(state_dir: Path) -> None:
    client, store = faulty(state_dir)
    try:
        created = await client.ok("session", action="create", seed=42)
        sid = created["basis"]["sessionId"]
        store.fail("reserve")
        frame = await client.call("travel", **bound(created), mode="step", target={"direction": "west"})
        assert frame["error"]["code"] == "storageFailed"
        assert frame["outcome"]["submission"] == "rejected"
        assert frame["control"]["gate"] == "recoveryRequired"
        assert frame["diagnostics"]["storage"]["status"] == "failed"
        assert frame["diagnostics"]["storage"]["operation"] == "reserve"
        assert await engine_revision(client, sid) == 0, "the engine saw nothing"
        blocked = await client.call("interact", **bound(created), action="search")
        assert blocked["error"]["code"] == "recoveryRequired"
        assert blocked["diagnostics"]["storage"]["status"] == "failed"

        observed = await client.ok("observe", sessionId=sid)
        assert observed["control"]["gate"] == "ready"
        assert observed["diagnostics"]["storage"]["status"] == "recovered"
        moved = await client.ok("travel", **bound(observed), mode="step", target={"direction": "west"})
        assert moved["basis"]["revision"] == 1 and "storage" not in moved["diagnostics"]
    finally:
        await client.close()
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        assert db.execute("SELECT seq, state FROM journal").fetchall() == [(1, "completed")]


async def test_failed_receipt_blocks_until_it_is_durable(state_dir: Path) -> None:
    client, store = faulty(state_dir)
    try:
        created = await client.ok("session", action="create", seed=42)
        sid = created["basis"]["sessionId"]
        # the step's completion and the call's tool receipt are one write (Journal.put_receipt): it fails,
        # and is retried as the two writes it carries
        store.fail("complete")
        args = {**bound(created), "mode": "step", "target": {"direction": "west"}, "requestId": "walk-1"}
        frame = await client.call("travel", **args)
        assert frame["outcome"]["submission"] == "accepted", "the deed is done; storage failure does not undo it"
        assert frame["control"]["gate"] == "recoveryRequired"
        assert frame["diagnostics"]["storage"]["status"] == "failed"
        assert frame["diagnostics"]["storage"]["pendingWrites"] == 1
        assert await engine_revision(client, sid) == 1

        retry = await client.call("travel", **args)  # an exact retry still gets its original frame
        assert retry["outcome"] == frame["outcome"] and retry["basis"] == frame["basis"]

        store.broken = True  # observe retries, the store still fails: still blocked
        still = await client.call("observe", sessionId=sid)
        assert still["control"]["gate"] == "recoveryRequired"
        assert "still fails" in still["diagnostics"]["storage"]["message"]
        store.broken = False
        healed = await client.ok("observe", sessionId=sid)
        assert healed["control"]["gate"] == "ready"
        assert healed["diagnostics"]["storage"]["status"] == "recovered"
        digest = healed["result"]["stateHash"]
    finally:
        await client.close()
    # everything the player saw is durable: a restart resumes the same game and receipt
    again = Client(registry(state_dir))
    try:
        resumed = await again.ok("observe", sessionId=sid)
        assert resumed["result"]["stateHash"] == digest and resumed["basis"]["revision"] == 1
        assert (await again.call("travel", **args))["outcome"] == frame["outcome"]
    finally:
        await again.close()


async def test_failed_creation_starts_no_game(state_dir: Path) -> None:
    before = drivers()
    client, store = faulty(state_dir)
    try:
        store.fail("create_session")
        frame = await client.call("session", action="create", seed=42)
        assert frame["error"]["code"] == "storageFailed" and frame["basis"] is None
        assert client.games.sessions() == [] and not (drivers() - before)
        assert (await client.call("session", action="create", seed=42))["basis"] is not None
    finally:
        await client.close()


@pytest.mark.parametrize("nth", range(1, 14))
async def test_any_failing_write_is_reported_and_nothing_is_lost(state_dir: Path, tmp_path: Path, nth: int) -> None:
    """Write number `nth` fails (creation, a reservation, a receipt, a tool
    receipt...). Whatever it was, the caller is told, input stays blocked
    until observe has made it durable, and the finished game equals the
    uninterrupted twin."""
    store = FaultyStore(SqliteStore.in_state_dir(state_dir), fail_on={nth})
    client = Client(registry(state_dir, store=store))
    reported = 0
    try:
        try:
            session = await client.games.create(dict(TWIN_PARAMS))
        except SessionError as exc:  # the creation write itself failed
            assert exc.code == "storageFailed"
            reported += 1
            session = await client.games.create(dict(TWIN_PARAMS))
        frame = await client.ok("observe", sessionId=session.session_id)
        for step in SCRIPT:
            result = await apply_input(client, frame, step)
            if result.get("diagnostics", {}).get("storage", {}).get("status") == "failed":
                reported += 1
                assert result["control"]["gate"] == "recoveryRequired"
                frame = await client.ok("observe", sessionId=session.session_id)
                assert frame["control"]["gate"] in ("ready", "decision")
                if result["outcome"]["submission"] == "rejected":  # not sent: the caller re-issues it
                    result = await apply_input(client, frame, step)
                else:
                    result = frame  # it was sent and is now durable: go on from the observed view
            assert "error" not in result, result["error"]
            frame = result
        final = await client.ok("observe", sessionId=session.session_id)
    finally:
        await client.close()
    assert store.failures and reported == 1, "the one failed write was reported once"
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == await twin_hash(tmp_path / "twin")
    resumed = Client(registry(state_dir))
    try:
        again = await resumed.ok("observe", sessionId=TWIN_PARAMS["sessionId"])
        assert again["result"]["stateHash"] == final["result"]["stateHash"]
    finally:
        await resumed.close()
