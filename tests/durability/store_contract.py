"""store_contract.py - the Store interface's contract, as plain async checks.

Every implementation must pass these: SQLite and the in-memory reference
(tests/durability/test_store.py, under pytest), and IndexedDB inside the
browser's Pyodide (tests/e2e/test_durable_store.py runs this very file in
the site's worker). So this module imports nothing but the package's store
interface: no pytest, no native modules.

    CHECKS                      the checks, each `async def check(store)` on an empty store
    FENCE_CHECKS                fencing, each `async def check(store, peer)`: `peer` is a second
                                store object on the same data (another process's view)
    await run_all(make_store)   [(name, None | traceback text)] with a fresh store per check
                                (a fence check's peer is `make_store(name)` called again)
"""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import cast

from nethack_webmcp.store import (
    Checkpoint,
    GameRecord,
    JournalEntry,
    Outcome,
    OwnershipLost,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    ToolReceipt,
)


@contextmanager
def raises(kind: type[BaseException]) -> Iterator[None]:
    try:
        yield
    except kind:
        return
    raise AssertionError(f"{kind.__name__} was not raised")


def info(session_id: str = "g1", started: float = 100.0) -> SessionInfo:
    create = {
        "sessionId": session_id,
        "seed": 42,
        "name": "Ada",
        "role": "valkyrie",
        "race": "human",
        "gender": "female",
        "alignment": "neutral",
        "createdAt": 1700000000,
        "harness_name": "h",
        "model_name": "m",
        "wizard": False,
    }
    return SessionInfo(
        sessionId=session_id,
        create=create,
        metadata={"seed": 42, "name": "Ada"},
        createdSummary={"revision": 0, "decision": None, "ended": False, "end": None},
        profile=1,
        engineIdentity="native-sha256:x",
        viewNonce="abc123",
        startedAt=started,
        updatedAt=started,
        endedAt=None,
        status="active",
        lastDepth=1,
        deepestDepth=1,
    )


def entry(seq: int, session_id: str = "g1", operation: str = "op-1") -> JournalEntry:
    request = {
        "version": 1,
        "method": "game.wait",
        "params": {"sessionId": session_id, "requestId": f"{operation}.{seq}", "expectedRevision": seq - 1},
    }
    return JournalEntry(
        sessionId=session_id,
        seq=seq,
        operationId=operation,
        requestId=f"{operation}.{seq}",
        method="game.wait",
        request=request,
        reservedAt=200.0 + seq,
        state="reserved",
        receipt=None,
        completedAt=None,
    )


def record(session_id: str = "g1", ended: int = 500) -> GameRecord:
    """A record as schema 1 wrote it: without the seed fields."""
    written = {
        "sessionId": session_id,
        "characterName": "Ada",
        "harnessName": "h",
        "modelName": "m",
        "startedAt": 100,
        "endedAt": ended,
        "endTimeKind": "observed",
        "endReason": "quit",
        "how": "quit",
        "death": "quit",
        "score": 12,
        "turns": 30,
        "lastDepth": 2,
        "deepestDepth": 3,
    }
    return cast(GameRecord, written)


async def check_sessions(store: Store) -> None:
    await store.create_session(info("g1", 100.0))
    await store.create_session(info("g2", 200.0))
    with raises(StoreConflict):
        await store.create_session(info("g1"))
    assert await store.get_session("g1") == info("g1", 100.0)
    assert await store.get_session("nope") is None
    assert [s["sessionId"] for s in await store.list_sessions()] == ["g2", "g1"]
    await store.update_session("g1", {"status": "ended", "endedAt": 300.0, "lastDepth": 4, "deepestDepth": 5})
    got = await store.get_session("g1")
    assert got is not None and (got["status"], got["endedAt"], got["lastDepth"], got["deepestDepth"]) == (
        "ended",
        300.0,
        4,
        5,
    )


async def check_journal_is_dense_and_completed_once(store: Store) -> None:
    await store.create_session(info())
    with raises(StoreConflict):
        await store.reserve(entry(2))  # a gap
    await store.reserve(entry(1))
    with raises(StoreConflict):
        await store.reserve(entry(1))  # twice
    summary = {"revision": 1, "decision": None, "ended": False, "end": None}
    assert (
        await store.complete(
            "g1", 1, state="completed", receipt=summary, completed_at=201.5, session_fields={"updatedAt": 201.5}
        )
        is False
    )
    with raises(StoreConflict):
        await store.complete("g1", 1, state="completed", receipt=summary, completed_at=202.0)
    await store.reserve(entry(2, operation="op-2"))
    entries = await store.journal("g1")
    assert [(e["seq"], e["state"], e["receipt"]) for e in entries] == [(1, "completed", summary), (2, "reserved", None)]
    assert entries[0]["request"] == entry(1)["request"] and entries[0]["completedAt"] == 201.5
    assert [e["seq"] for e in await store.journal("g1", after_seq=1)] == [2]
    assert [e["seq"] for e in await store.operation_entries("g1", "op-2")] == [2]
    updated = await store.get_session("g1")
    assert updated is not None and updated["updatedAt"] == 201.5


async def check_record_is_written_once_with_its_receipt(store: Store) -> None:
    await store.create_session(info())
    await store.reserve(entry(1))
    end = {"how": "quit", "score": 12}
    written = await store.complete(
        "g1",
        1,
        state="completed",
        receipt={"revision": 1, "decision": None, "ended": True, "end": end},
        completed_at=300.0,
        session_fields={"status": "ended", "endedAt": 300.0},
        record=record(),
    )
    assert written is True
    assert await store.put_record(record(ended=999)) is False
    assert await store.get_record("g1") == record()
    assert await store.recent_records() == [record()]


async def check_recent_records_order(store: Store) -> None:
    for session_id, ended in (("a", 500), ("c", 700), ("b", 700), ("d", 100)):
        assert await store.put_record(record(session_id, ended)) is True
    assert [r["sessionId"] for r in await store.recent_records(3)] == ["c", "b", "a"]
    assert [r["sessionId"] for r in await store.recent_records()] == ["c", "b", "a", "d"]


async def check_receipts(store: Store) -> None:
    await store.create_session(info())
    receipt = ToolReceipt(sessionId="g1", requestId="walk-1", payloadHash="aa", frame={"version": 2}, createdAt=1.0)
    await store.put_receipt(receipt)
    await store.put_receipt(receipt)  # identical: a no-op
    with raises(StoreConflict):
        await store.put_receipt({**receipt, "payloadHash": "bb"})
    assert await store.get_receipt("g1", "walk-1") == receipt
    assert await store.get_receipt("g1", "walk-2") is None
    assert await store.receipts("g1") == [receipt]


async def check_a_completion_and_its_receipt_are_one_write(store: Store) -> None:
    """complete(tool_receipt=...) settles the entry and records the receipt
    together; a receipt refused (another payload under its requestId) writes
    neither, and the entry can still be completed."""
    await store.create_session(info())
    summary = {"revision": 1, "decision": None, "ended": False, "end": None}
    receipt = ToolReceipt(sessionId="g1", requestId="op-1", payloadHash="aa", frame={"version": 2}, createdAt=2.0)
    await store.reserve(entry(1))
    written = await store.complete(
        "g1", 1, state="completed", receipt=summary, completed_at=201.0, tool_receipt=receipt
    )
    assert written is False
    assert [(e["seq"], e["state"]) for e in await store.journal("g1")] == [(1, "completed")]
    assert await store.get_receipt("g1", "op-1") == receipt
    await store.reserve(entry(2, operation="op-2"))
    with raises(StoreConflict):  # op-1's requestId again with another payload: nothing is written
        await store.complete(
            "g1", 2, state="completed", receipt=done(2), completed_at=202.0,
            tool_receipt={**receipt, "payloadHash": "bb"},
        )  # fmt: skip
    assert [(e["seq"], e["state"]) for e in await store.journal("g1")] == [(1, "completed"), (2, "reserved")]
    assert await store.receipts("g1") == [receipt]
    with raises(StoreConflict):  # a receipt of another game never rides along
        await store.complete(
            "g1", 2, state="completed", receipt=done(2), completed_at=202.0, tool_receipt={**receipt, "sessionId": "g2"}
        )
    again = ToolReceipt(sessionId="g1", requestId="op-2", payloadHash="aa", frame={"version": 2}, createdAt=3.0)
    await store.complete("g1", 2, state="completed", receipt=done(2), completed_at=202.0, tool_receipt=again)
    assert [e["state"] for e in await store.journal("g1")] == ["completed", "completed"]
    assert await store.receipts("g1") == [receipt, again]


async def check_a_completion_rides_with_the_next_reservation(store: Store) -> None:
    """reserve(completing=...) (stores with reserves_with_completion: every one
    here) closes the earlier entry and reserves the next in one write, with the
    completion's session fields; a reservation refused (a gap, a repeated seq)
    or a completion refused (not reserved, another game's, not earlier) writes
    neither."""
    assert store.reserves_with_completion
    await store.create_session(info())
    await store.create_session(info("g2"))
    await store.reserve(entry(1))

    def closing(seq: int, session_id: str = "g1") -> Outcome:
        return Outcome(session_id, seq, "completed", done(seq), 200.5 + seq, {"lastDepth": 2}, None)

    def shown(session_id: str = "g1") -> list[tuple[int, str]]:
        return [(e["seq"], e["state"]) for e in entries[session_id]]

    entries: dict[str, list[JournalEntry]] = {}

    async def read() -> None:
        entries["g1"] = await store.journal("g1")
        entries["g2"] = await store.journal("g2")

    for refused in (entry(3), entry(1)):  # a gap; the completed entry's own seq again
        with raises(StoreConflict):
            await store.reserve(refused, completing=closing(1))
        await read()
        assert shown() == [(1, "reserved")], "the refused reservation's completion is not written either"
    with raises(StoreConflict):  # a completion of another game never rides along
        await store.reserve(entry(2), completing=closing(1, "g2"))
    with raises(StoreConflict):  # nor one of a later entry
        await store.reserve(entry(2), completing=closing(2))
    await store.reserve(entry(2), completing=closing(1))
    await read()
    assert shown() == [(1, "completed"), (2, "reserved")]
    assert entries["g1"][0]["receipt"] == done(1) and entries["g1"][0]["completedAt"] == 201.5
    stored = await store.get_session("g1")
    assert stored is not None and stored["lastDepth"] == 2
    with raises(StoreConflict):  # an entry is completed once: not again with the next reservation
        await store.reserve(entry(3), completing=closing(1))
    await read()
    assert shown() == [(1, "completed"), (2, "reserved")] and shown("g2") == []


async def check_a_receipt_keeps_its_tool_call(store: Store) -> None:
    """A receipt's tool call reads back with it, from every reader (one, all, latest, recent),
    and a receipt stored without one (an old game's) still has none."""
    await store.create_session(info())
    call = {"tool": "travel", "arguments": {"to": "downstairs", "viewId": "v-1"}}
    frame = {"version": 2, "outcome": {"status": "completed"}}
    old = ToolReceipt(sessionId="g1", requestId="old", payloadHash=None, frame=frame, createdAt=1.0)
    new = ToolReceipt(sessionId="g1", requestId="new", payloadHash=None, frame=frame, createdAt=2.0, call=call)
    await store.put_receipt(old)
    await store.put_receipt(new)
    assert await store.get_receipt("g1", "new") == new
    assert await store.get_receipt("g1", "old") == old
    assert "call" not in (await store.get_receipt("g1", "old") or {})
    assert await store.receipts("g1") == [old, new]
    assert await store.latest_receipt("g1") == new
    assert await store.recent_receipts("g1", 1) == [new]


async def check_import_is_atomic(store: Store) -> None:
    entries = [entry(1), entry(2)]
    entries[0] = {**entries[0], "state": "completed", "receipt": {"revision": 1}, "completedAt": 1.0}
    await store.import_game(info(), entries, [], record())
    assert [e["seq"] for e in await store.journal("g1")] == [1, 2]
    with raises(StoreConflict):
        await store.import_game(info(), entries, [], None)
    with raises(StoreConflict):
        await store.import_game(info("g2"), [entry(2, "g2")], [], None)  # out of order
    assert await store.get_session("g2") is None, "a refused import writes nothing"


async def check_latest_receipt_is_the_last_recorded(store: Store) -> None:
    await store.create_session(info())
    await store.create_session(info("g2"))
    assert await store.latest_receipt("g1") is None
    for request_id, created in (("b", 2.0), ("c", 3.0), ("a", 1.0)):
        frame = {"version": 2, "id": request_id}
        await store.put_receipt(
            ToolReceipt(sessionId="g1", requestId=request_id, payloadHash=None, frame=frame, createdAt=created)
        )
    await store.put_receipt(ToolReceipt(sessionId="g2", requestId="z", payloadHash=None, frame={}, createdAt=9.0))
    latest = await store.latest_receipt("g1")
    assert latest is not None and (latest["requestId"], latest["frame"]) == ("c", {"version": 2, "id": "c"})
    assert [r["requestId"] for r in await store.receipts("g1")] == ["a", "b", "c"], "oldest first"
    assert await store.latest_receipt("nope") is None


async def check_recent_receipts_are_the_last_n_oldest_first(store: Store) -> None:
    """The bounded read behind a spectator's history: the last N of one game, in order."""
    await store.create_session(info())
    await store.create_session(info("g2"))
    assert await store.recent_receipts("g1", 3) == []
    for request_id, created in (("d", 4.0), ("b", 2.0), ("e", 4.0), ("a", 1.0), ("c", 3.0)):
        await store.put_receipt(
            ToolReceipt(
                sessionId="g1", requestId=request_id, payloadHash=None, frame={"id": request_id}, createdAt=created
            )
        )
    await store.put_receipt(ToolReceipt(sessionId="g2", requestId="z", payloadHash=None, frame={}, createdAt=9.0))
    recent = await store.recent_receipts("g1", 3)
    assert [(r["requestId"], r["frame"]) for r in recent] == [
        ("c", {"id": "c"}),
        ("d", {"id": "d"}),
        ("e", {"id": "e"}),
    ]
    assert [r["requestId"] for r in await store.recent_receipts("g1", 10)] == ["a", "b", "c", "d", "e"]
    assert await store.recent_receipts("g1", 0) == []
    assert await store.recent_receipts("nope", 3) == []


async def check_refused_writes_write_nothing(store: Store) -> None:
    """The rules a call's arguments break, and the ones its transaction finds broken."""
    await store.create_session(info())
    with raises(StoreConflict):
        await store.reserve({**entry(1), "receipt": {"revision": 1}})  # a reservation has no receipt
    with raises(StoreConflict):
        await store.reserve({**entry(1), "state": "completed"})
    with raises(StoreConflict):
        await store.reserve(entry(1, "nope"))  # no such game
    await store.reserve(entry(1))
    with raises(StoreConflict):
        await store.complete("g1", 1, state="reserved", receipt=done(1), completed_at=1.0)  # not a final state
    with raises(StoreError):
        await store.update_session("g1", {"viewNonce": "other"})  # not an updatable field
    with raises(StoreError):
        await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=1.0, session_fields={"seed": 1})
    with raises(StoreConflict):
        await store.update_session("nope", {"updatedAt": 1.0})
    with raises(StoreConflict):
        await store.complete("g1", 2, state="completed", receipt=done(2), completed_at=1.0)  # never reserved
    with raises(StoreConflict):
        await store.import_game(info("g3"), [entry(1, "g1")], [], None)  # another game's entry
    assert [(e["seq"], e["state"]) for e in await store.journal("g1")] == [(1, "reserved")]
    got = await store.get_session("g1")
    assert got is not None and got["viewNonce"] == info()["viewNonce"]
    assert await store.get_session("g3") is None
    assert await store.journal("nope") == []


async def check_the_close_mark_is_kept_until_cleared(store: Store) -> None:
    """session close's mark (closedAt): absent on a new game, kept when set,
    shown by get and list, untouched by other updates, absent again once cleared."""
    await store.create_session(info("g1", 100.0))
    await store.create_session(info("g2", 200.0))
    fresh = await store.get_session("g1")
    assert fresh is not None and "closedAt" not in fresh
    await store.update_session("g1", {"closedAt": 150.25})
    await store.update_session("g1", {"updatedAt": 160.0, "lastDepth": 2})
    closed = await store.get_session("g1")
    assert closed is not None and closed["closedAt"] == 150.25 and closed["status"] == "active"
    marks = {s["sessionId"]: s.get("closedAt") for s in await store.list_sessions()}
    assert marks == {"g1": 150.25, "g2": None}
    await store.update_session("g1", {"closedAt": None})
    reopened = await store.get_session("g1")
    assert reopened == {**info("g1", 100.0), "updatedAt": 160.0, "lastDepth": 2}, reopened
    with raises(StoreConflict):
        await store.update_session("nope", {"closedAt": 1.0})


async def check_max_level_is_kept_with_the_record(store: Store) -> None:
    """A record's maxLevel reads back; a record without one reads back without the key."""
    assert await store.put_record({**record("x"), "maxLevel": 7}) is True
    assert await store.put_record(record("y")) is True
    kept, bare = await store.get_record("x"), await store.get_record("y")
    assert kept is not None and kept.get("maxLevel") == 7
    assert bare is not None and "maxLevel" not in bare


async def check_max_level_is_a_session_field(store: Store) -> None:
    """A game's highest experience level is set like its depth, with a receipt too, and reads back."""
    await store.create_session(info("lv"))
    assert "maxLevel" not in (await store.get_session("lv") or {})
    await store.update_session("lv", {"maxLevel": 2})
    await store.reserve(entry(1, "lv"))
    await store.complete("lv", 1, state="completed", receipt=done(1), completed_at=5.0,
                         session_fields={"updatedAt": 5.0, "maxLevel": 3})  # fmt: skip
    stored = await store.get_session("lv")
    assert stored is not None and stored["maxLevel"] == 3 and stored["updatedAt"] == 5.0


CHECKS: list[Callable[[Store], Awaitable[None]]] = [
    check_sessions,
    check_max_level_is_kept_with_the_record,
    check_max_level_is_a_session_field,
    check_the_close_mark_is_kept_until_cleared,
    check_journal_is_dense_and_completed_once,
    check_record_is_written_once_with_its_receipt,
    check_recent_records_order,
    check_receipts,
    check_a_completion_and_its_receipt_are_one_write,
    check_a_completion_rides_with_the_next_reservation,
    check_a_receipt_keeps_its_tool_call,
    check_import_is_atomic,
    check_latest_receipt_is_the_last_recorded,
    check_recent_receipts_are_the_last_n_oldest_first,
    check_refused_writes_write_nothing,
]


# ---- fencing: two owners of one game, each through its own store object ----------------------


def done(revision: int) -> dict[str, object]:
    return {"revision": revision, "decision": None, "ended": False, "end": None}


async def check_a_claim_fences_out_the_previous_owner(store: Store, peer: Store) -> None:
    mine = await store.claim("g1", {"who": "a"})  # a new game is claimed before its row is written
    assert mine is not None and mine.epoch >= 1 and mine.lost is None
    await store.create_session(info())
    await store.reserve(entry(1))
    await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
    theirs = await peer.claim("g1", {"who": "b"})  # a take-over: the lock changed hands unnoticed
    assert theirs is not None and theirs.epoch > mine.epoch
    with raises(OwnershipLost):
        await store.reserve(entry(2, operation="op-a"))
    assert mine.lost is not None, "the old claim knows it is lost (its lease reports it)"
    assert [e["seq"] for e in await peer.journal("g1")] == [1], "the refused append wrote nothing"
    with raises(OwnershipLost):  # lost for good, whatever it tries next
        await store.reserve(entry(2, operation="op-a"))
    await peer.reserve(entry(2, operation="op-b"))
    await peer.complete("g1", 2, state="completed", receipt=done(2), completed_at=202.0)
    entries = await store.journal("g1")
    assert [(e["seq"], e["operationId"], e["state"]) for e in entries] == [
        (1, "op-1", "completed"),
        (2, "op-b", "completed"),
    ]


async def check_an_input_in_flight_at_a_takeover_is_never_recorded(store: Store, peer: Store) -> None:
    await store.claim("g1")
    await store.create_session(info())
    await store.reserve(entry(1))  # sent to the old owner's engine ...
    await peer.claim("g1")  # ... when the new owner claims the game and reads the journal
    with raises(OwnershipLost):
        await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
    entries = await peer.journal("g1")
    assert [(e["seq"], e["state"], e["receipt"]) for e in entries] == [(1, "reserved", None)]
    # the new owner settles it: not applied (the replay it resumed from does not include it)
    await peer.complete("g1", 1, state="notApplied", receipt={"reason": "its engine is gone"}, completed_at=203.0)
    assert (await store.journal("g1"))[0]["state"] == "notApplied"


async def check_claims_are_per_game_and_a_released_claim_leaves_the_newer(store: Store, peer: Store) -> None:
    for session_id in ("g1", "g2"):
        await store.create_session(info(session_id))
    first = await store.claim("g1")
    other = await peer.claim("g2")
    assert first is not None and other is not None
    await store.reserve(entry(1, "g1"))
    await peer.reserve(entry(1, "g2"))  # another game's claim fences nothing of g1
    again = await store.claim("g1")  # the same process takes g1 again (after a reconnect)
    assert again is not None and again.epoch == first.epoch + 1
    store.release_claim(first)  # the older lease lets go late: the newer claim stays in force
    assert store.fence_of("g1") is again
    await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
    store.release_claim(again)
    assert store.fence_of("g1") is None


FENCE_CHECKS: list[Callable[[Store, Store], Awaitable[None]]] = [
    check_a_claim_fences_out_the_previous_owner,
    check_an_input_in_flight_at_a_takeover_is_never_recorded,
    check_claims_are_per_game_and_a_released_claim_leaves_the_newer,
]


async def run_all(make_store: Callable[[str], Store | Awaitable[Store]]) -> list[tuple[str, str | None]]:
    """Run every check on a fresh store (`make_store(check name)`; a fence
    check's peer is a second `make_store(check name)`); never raises."""

    async def made(name: str) -> Store:
        store = make_store(name)
        return store if isinstance(store, Store) else await store

    # (name, how many stores on the same data it takes, the check)
    runs: list[tuple[str, int, Callable[..., Awaitable[None]]]] = [
        *((check.__name__, 1, check) for check in CHECKS),
        *((check.__name__, 2, check) for check in FENCE_CHECKS),
    ]
    results: list[tuple[str, str | None]] = []
    for name, count, check in runs:
        stores: list[Store] = []
        try:
            for _ in range(count):
                stores.append(await made(name))
            await check(*stores)
            results.append((name, None))
        except Exception:
            results.append((name, traceback.format_exc()))
        finally:
            for store in stores:
                await store.close()
    return results


# ---- the HTTP service's additions (SQLite, PostgreSQL, memory; not the browser's store) ---------


async def check_control_hash_is_kept_once(store: Store) -> None:
    await store.create_session(info())
    assert await store.get_control_hash("g1") is None
    await store.put_control_hash("g1", "h" * 64)
    with raises(StoreConflict):
        await store.put_control_hash("g1", "x" * 64)  # a game's token never changes
    assert await store.get_control_hash("g1") == "h" * 64
    assert await store.get_control_hash("g2") is None


async def check_limit_end_reasons_are_recorded(store: Store) -> None:
    for session_id, reason in (("i", "idle_timeout"), ("t", "time_limit")):
        assert await store.put_record({**record(session_id), "endReason": reason}) is True  # type: ignore[typeddict-item]
        assert (await store.get_record(session_id))["endReason"] == reason  # type: ignore[index]


def checkpoint(
    session_id: str, move: int, state: bytes = b"\x00state\xff", navigation: bytes | None = None
) -> Checkpoint:
    return {
        "sessionId": session_id,
        "move": move,
        "seq": move,
        "digest": f"d{move}",
        "engine": "asyncify:e base:b",
        "sha256": f"s{move}",
        "meta": {"format": 1, "summary": done(move)},
        "createdAt": 10.5,
        "state": state,
        "navigation": navigation,
    }


async def check_checkpoints_are_kept_by_move_and_replaced(store: Store) -> None:
    """Persisted engine checkpoints (schema 8): bytes read back exactly, the index (no bytes) is by
    move, a second one at the same move replaces the first, and they are dropped per move or all."""
    await store.create_session(info())
    await store.create_session(info("g2"))
    assert await store.checkpoint_index("g1") == [] and await store.get_checkpoint("g1", 0) is None
    assert await store.has_checkpoints() is False
    binary = bytes(range(256)) * 40
    await store.put_checkpoint(checkpoint("g1", 128, binary, b"{}"))
    await store.put_checkpoint(checkpoint("g1", 0))
    await store.put_checkpoint(checkpoint("g2", 0))
    assert await store.has_checkpoints() is True
    assert await store.get_checkpoint("g1", 128) == checkpoint("g1", 128, binary, b"{}")
    index = await store.checkpoint_index("g1")
    assert [entry["move"] for entry in index] == [0, 128]
    assert index[1] == {k: v for k, v in checkpoint("g1", 128).items() if k not in ("state", "navigation")}
    await store.put_checkpoint({**checkpoint("g1", 0, b"again"), "sha256": "s0-new"})
    replaced = await store.get_checkpoint("g1", 0)
    assert replaced is not None and replaced["state"] == b"again" and replaced["sha256"] == "s0-new"
    await store.drop_checkpoints("g1", [128])
    assert [entry["move"] for entry in await store.checkpoint_index("g1")] == [0]
    await store.drop_checkpoints("g1")
    assert await store.checkpoint_index("g1") == [] and len(await store.checkpoint_index("g2")) == 1
    await store.drop_checkpoints("g2")
    assert await store.has_checkpoints() is False


async def check_a_checkpoint_needs_its_game(store: Store) -> None:
    with raises(StoreConflict):
        await store.put_checkpoint(checkpoint("nobody", 0))
    assert await store.checkpoint_index("nobody") == []


SERVICE_CHECKS: list[Callable[[Store], Awaitable[None]]] = [
    check_control_hash_is_kept_once,
    check_limit_end_reasons_are_recorded,
    check_checkpoints_are_kept_by_move_and_replaced,
    check_a_checkpoint_needs_its_game,
]
