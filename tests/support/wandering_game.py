"""A stored game of exactly N journal inputs, made fast on the native engine: for replay tests.

It wanders (moves round the compass, a search every third input, any question cancelled) in wizard mode,
so "Die?" keeps a long game going, and returns what an exported game holds: the session info and its journal.
"""

from __future__ import annotations

from typing import Any

from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.session import replay as journal_replay
from nethack_webmcp.store.memory import MemoryStore

COMPASS = ["north", "east", "south", "west", "northeast", "southwest", "southeast", "northwest"]


async def wandering_game(inputs: int, *, seed: int, name: str, stride: int, prefix: str) -> dict[str, Any]:
    """`inputs` inputs of seed `seed`; `stride` picks the compass walk, `prefix` the request IDs."""
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create({"seed": seed, "name": name, "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        request_id = f"{prefix}{sent}"
        decision = session.decision
        if decision is not None:
            await session.step("decision.cancel", {"decisionId": decision["id"]}, request_id=request_id)
        elif sent % 3 == 2:
            await session.step("game.search", {"turns": 1}, request_id=request_id)
        else:
            await session.step("game.move", {"direction": COMPASS[(sent * stride) % 8]}, request_id=request_id)
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    return {"info": info, "entries": entries}


async def native_rows(game: dict[str, Any], move: int) -> list[str]:
    """The oracle for a replayed move: a brand-new native engine, the game's first `move` inputs, observe;
    the map rows y = 0..20 the player saw."""
    todo = journal_replay.plan(game["entries"])[0][:move]
    engine = await NativeEngine.start()
    try:
        await engine.request({"version": 1, "method": "session.create", "params": game["info"]["create"]})
        for entry in todo:
            await engine.request(journal_replay.quiet(entry["request"]))
        observed = await engine.request(
            {"version": 1, "method": "session.observe", "params": {"sessionId": game["info"]["sessionId"]}}
        )
    finally:
        await engine.close()
    rows = [""] * 21
    for row in observed["observation"]["world"]["rows"]:
        rows[row["y"]] = row["marks"]
    return rows
