"""test_routes.py - the native server's spectator routes, over real HTTP on loopback.

A game is played through the official MCP client while the routes are read:
ETag and 304, a new ETag after a move, 405 for every other method, no CORS
header, 404 for unknown and malformed IDs, 410 with the record once a
completed game is closed, the URL in the create and help results, and
reading never moves the game (its revision and journal stay as they were).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support.client import bound
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio

HOSTILE = "<img src=x onerror=alert(1)>&amp;"


async def call(session: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    return {"frame": result.structured_content, "text": result.content[0].text}


def journal_rows(state: Path, session_id: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(state / "games.sqlite3") as db:
        return db.execute("SELECT seq, state FROM journal WHERE session_id = ? ORDER BY seq", (session_id,)).fetchall()


async def quit_game(session: Any, frame: dict[str, Any]) -> dict[str, Any]:
    ended = (await call(session, "session", **bound(frame), action="quit"))["frame"]
    while ended["decision"] is not None:
        decision = ended["decision"]
        if decision["kind"] == "confirmation":
            ended = (
                await call(
                    session, "respond", **decision["reply"]["arguments"], value=decision["prompt"] == "Really quit?"
                )
            )["frame"]
        else:
            ended = (await call(session, "respond", **decision["cancel"]["arguments"]))["frame"]
    assert ended["control"]["gate"] == "ended"
    return ended


def timeline(game: str) -> tuple[str, str]:
    """The timeline routes of a game (docs/SPECTATOR.md, The timeline)."""
    return (f"/api/games/{game}/moves", f"/api/games/{game}/frames/0")


async def test_routes_follow_a_game_and_never_touch_it(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    async with watched_server(state) as (session, base):
        helped = await call(session, "help")
        assert helped["frame"]["result"]["watchUrl"] == f"{base}/" and f"{base}/" in helped["text"]
        created = await call(session, "session", action="create", seed=7, name=HOSTILE[:30], model_name=HOSTILE)
        frame = created["frame"]
        game = frame["basis"]["sessionId"]
        assert frame["result"]["watchUrl"] == f"{base}/g/{game}" and f"{base}/g/{game}" in created["text"]

        status, headers, body = http("GET", f"{base}/api/games/{game}/state")
        assert status == 200 and headers["content-type"] == "application/json"
        published = json.loads(body)
        etag = headers["etag"]
        assert etag == f'"{game}/{frame["basis"]["revision"]}"' and published["revision"] == frame["basis"]["revision"]
        assert published["record"]["name"] == HOSTILE[:30] and published["record"]["model"] == HOSTILE
        assert published["map"]["rows"] and published["observation"]["vitals"]
        assert "no-cache" in headers["cache-control"]
        assert http("GET", f"{base}/api/games/{game}/state", {"If-None-Match": etag})[0] == 304
        assert http("GET", f"{base}/api/games/{game}/state", {"If-None-Match": f'"x", W/{etag}'})[0] == 304
        assert http("GET", f"{base}/api/games/{game}/state", {"If-None-Match": etag[:-1] + '0"'})[0] == 200
        assert http("HEAD", f"{base}/api/games/{game}/state")[2] == b""

        # watching changes nothing: the same revision and journal after many reads
        journal = journal_rows(state, game)
        for _ in range(25):
            for path in ("/", f"/g/{game}", f"/api/games/{game}/state", "/api/recent", "/health", *timeline(game)):
                assert http("GET", base + path)[0] == 200
        assert journal_rows(state, game) == journal
        observed = (await call(session, "observe", sessionId=game))["frame"]
        assert observed["basis"]["revision"] == frame["basis"]["revision"]

        moved = (await call(session, "interact", **bound(frame), action="search"))["frame"]
        status, headers, body = http("GET", f"{base}/api/games/{game}/state", {"If-None-Match": etag})
        assert status == 200 and headers["etag"] == f'"{game}/{moved["basis"]["revision"]}"' != etag
        assert json.loads(body)["revision"] == moved["basis"]["revision"]

        # read-only: every other method is refused, on every path; no CORS anywhere
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            for path in (
                "/",
                f"/g/{game}",
                f"/api/games/{game}/state",
                "/api/recent",
                "/health",
                "/nowhere",
                *timeline(game),
            ):
                status, headers, _ = http(method, base + path, {"Origin": "http://127.0.0.1:1"})
                assert status == 405 and headers["allow"] == "GET, HEAD", (method, path)
                assert "access-control-allow-origin" not in headers
        for path in ("/", f"/g/{game}", f"/api/games/{game}/state", "/api/recent", "/health", *timeline(game)):
            headers = http("GET", base + path, {"Origin": "http://127.0.0.1:1"})[1]
            assert not [name for name in headers if name.startswith("access-control-")], path
        page_headers = http("GET", f"{base}/g/{game}")[1]
        assert "script-src 'self'" in page_headers["content-security-policy"]

        # unknown and malformed IDs
        assert http("GET", f"{base}/api/games/no-such-game/state")[0] == 404
        assert http("GET", f"{base}/g/no-such-game")[0] == 404
        for bad in ("a%20b", "x" * 97, "%3Cscript%3E", "a%22b"):
            assert http("GET", f"{base}/api/games/{bad}/state")[0] == 404, bad
            assert http("GET", f"{base}/g/{bad}")[0] == 404, bad
            assert all(http("GET", f"{base}{path}")[0] == 404 for path in timeline(bad)), bad

        # a completed game: its state while loaded, 410 with its record once closed
        ended = await quit_game(session, moved)
        status, _, body = http("GET", f"{base}/api/games/{game}/state")
        assert status == 200 and json.loads(body)["record"]["endReason"] == "quit"
        assert json.loads(body)["end"]["how"] == "quit"
        await call(session, "session", action="close", sessionId=game)
        status, _, body = http("GET", f"{base}/api/games/{game}/state")
        gone = json.loads(body)
        assert status == 410 and gone["record"]["gameId"] == game and gone["record"]["endReason"] == "quit"
        assert gone["record"]["name"] == HOSTILE[:30] and gone["record"]["turn"] == ended["scene"]["end"]["turn"]
        assert http("GET", f"{base}/g/{game}")[0] == 200
        overview = json.loads(http("GET", f"{base}/api/recent")[2])
        assert [record["gameId"] for record in overview["records"]] == [game] and overview["live"] == []
        assert json.loads(http("GET", f"{base}/health")[2])["status"] == "ok"
