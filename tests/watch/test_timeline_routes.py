"""test_timeline_routes.py - the spectator's timeline routes over the stdio server (docs/SPECTATOR.md, Timeline).

A game played through the official MCP client (calls of one input and of
several): while it lives, `/moves` lists every journal input grouped by the
call that made it (with the call's turn, Dlvl, HP from its receipt) and
`/frames/<k>` shows the receipt of the call that made move k - exact at a
call's last move, the map the agent was shown. Once it has ended, the frames
come from a verified replay of its journal and equal, at every call's last
move, the map its receipt recorded; the replay is opened once for all
requests. Reading changes nothing (revision and journal as they were). A
journal edited in the store is refused with 409 and no frame.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from nethack_webmcp.store.sqlite import DATABASE_NAME
from nethack_webmcp.watch.frames import map_rows
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    frame = (await session.call_tool(tool, arguments)).structured_content
    assert frame is not None and "error" not in frame, frame
    return frame


async def get(base: str, path: str) -> tuple[int, Any]:
    status, _, body = await asyncio.to_thread(http, "GET", base + path)
    return status, json.loads(body)


async def play(session: ClientSession, calls: int) -> tuple[str, list[dict[str, Any]]]:
    """Alternate one-input calls (search) and several-input calls (explore legs)."""
    frame = await call(session, "session", {"action": "create", "seed": 1_734_260_911, "name": "Scrubber"})
    game, frames = frame["basis"]["sessionId"], []
    for number in range(calls):
        binding = {"sessionId": game, "viewId": frame["basis"]["viewId"]}
        if number % 2:
            frame = await call(session, "travel", {**binding, "mode": "explore", "maxActions": 5})
        else:
            frame = await call(session, "interact", {**binding, "action": "search"})
        frames.append(frame)
    return game, frames


async def quit_game(session: ClientSession, frame: dict[str, Any]) -> None:
    binding = {"sessionId": frame["basis"]["sessionId"], "viewId": frame["basis"]["viewId"]}
    frame = await call(session, "session", {**binding, "action": "quit"})
    for _ in range(16):
        decision = frame.get("decision")
        if not decision:
            break
        if decision["kind"] == "confirmation":
            reply = {**decision["reply"]["arguments"], "value": decision["prompt"] == "Really quit?"}
            frame = await call(session, decision["reply"]["tool"], reply)
        else:
            frame = await call(session, decision["cancel"]["tool"], decision["cancel"]["arguments"])
    assert frame["control"]["gate"] == "ended"


def journal_rows(state: Path, game: str) -> list[Any]:
    with sqlite3.connect(state / DATABASE_NAME) as db:
        return db.execute("SELECT seq, state, receipt_json FROM journal WHERE session_id = ?", (game,)).fetchall()


async def test_live_moves_and_frames_come_from_receipts_and_ended_ones_from_a_verified_replay(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    async with watched_server(state) as (session, base):
        game, frames = await play(session, 8)
        status, listed = await get(base, f"/api/games/{game}/moves")
        assert status == 200 and listed["live"] is True
        completed = [row for row in journal_rows(state, game) if row[1] == "completed"]
        assert listed["count"] == len(completed) == len(listed["moves"]) > len(frames)
        calls = sorted(listed["calls"].values(), key=lambda c: c["index"])
        assert len(calls) == len(frames), "one group per acting call"
        assert [m["move"] for m in listed["moves"]] == list(range(1, listed["count"] + 1))
        for shown, frame in zip(calls, frames, strict=True):
            assert shown["id"] == frame["outcome"]["operationId"] or shown["last"] - shown["first"] == 0
            assert shown["turn"] == frame["basis"]["turn"]
            assert shown["hp"] == frame["scene"]["self"]["vitals"]["hp"]
            assert shown["depth"] == frame["scene"]["self"]["level"]["depth"]
            assert shown["label"].startswith(("interact {", "travel {"))  # the tool call (test_move_labels.py)
        assert any(c["last"] > c["first"] for c in calls), "an explore leg made several moves"

        page = (await get(base, f"/api/games/{game}/moves?from=2&to=3"))[1]
        assert [m["move"] for m in page["moves"]] == [2, 3] and page["count"] == listed["count"]
        assert (await get(base, f"/api/games/{game}/moves?from=x"))[0] == 400

        for shown, frame in zip(calls, frames, strict=True):
            status, at_end = await get(base, f"/api/games/{game}/frames/{shown['last']}")
            assert status == 200 and at_end["exact"] is True, at_end
            assert at_end["rows"] == map_rows(frame["scene"]["map"]) and "@" in "".join(at_end["rows"])
            if shown["last"] > shown["first"]:
                inside = (await get(base, f"/api/games/{game}/frames/{shown['first']}"))[1]
                assert inside["exact"] is False and inside["rows"] == at_end["rows"]
        revision = (await get(base, f"/api/games/{game}/state"))[1]["revision"]
        before = journal_rows(state, game)

        await quit_game(session, frames[-1])
        ended = await get(base, f"/api/games/{game}/moves")
        assert ended[1]["live"] is False and ended[1]["count"] > listed["count"]
        assert all(c["status"] and c["turn"] for c in ended[1]["calls"].values()), "every call's facts"
        for shown, frame in zip(calls, frames, strict=True):
            status, replayed = await get(base, f"/api/games/{game}/frames/{shown['last']}")
            assert status == 200 and replayed["exact"] is True, replayed
            assert replayed["rows"] == map_rows(frame["scene"]["map"]), shown
            assert replayed["turn"] == frame["basis"]["turn"] and replayed["hp"] == shown["hp"]
        first = (await get(base, f"/api/games/{game}/frames/0"))[1]
        assert first["exact"] and "@" in "".join(first["rows"]) and first["status"][1].startswith("Dlvl:1")
        last = (await get(base, f"/api/games/{game}/frames/{ended[1]['count']}"))[1]
        assert last["ended"] is True
        assert (await get(base, f"/api/games/{game}/frames/{ended[1]['count'] + 1}"))[0] == 404
        assert (await get(base, f"/api/games/{game}/frames/-1"))[0] == 400
        assert (await get(base, "/api/games/no-such-game/frames/0"))[0] == 404
        assert (await get(base, "/api/games/no-such-game/moves"))[0] == 404
        assert journal_rows(state, game)[: len(before)] == before, "watching wrote nothing"
        assert revision == frames[-1]["basis"]["revision"]


async def test_an_edited_journal_is_refused_and_no_frame_is_shown(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    async with watched_server(state) as (session, base):
        game, frames = await play(session, 4)
        await quit_game(session, frames[-1])
    with sqlite3.connect(state / DATABASE_NAME) as db:
        third = "SELECT seq, receipt_json FROM journal WHERE session_id = ? AND state = 'completed' ORDER BY seq"
        seq, receipt = db.execute(third + " LIMIT 1 OFFSET 2", (game,)).fetchone()
        edited = json.loads(receipt)
        edited["revision"] += 7
        update = "UPDATE journal SET receipt_json = ? WHERE session_id = ? AND seq = ?"
        db.execute(update, (json.dumps(edited), game, seq))
    async with watched_server(state) as (_, base):
        for move in (0, 5):
            status, refused = await get(base, f"/api/games/{game}/frames/{move}")
            assert status == 409 and refused["error"] == "replayDiverged", refused
            assert "rows" not in refused and "move 3" in refused["message"]
