"""test_limits_and_secrecy.py - the limits as configuration (typed refusals; games ended by
idle time and lifetime with records that say so), and control tokens that appear nowhere
but in their creator's result: not in logs, spectator pages or APIs, records, or the database."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import psycopg
import pytest
from support.game_records import stored_end
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio


async def test_game_counts_are_limited_with_typed_errors(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path, "--max-games", "3", "--games-per-client", "2") as instance:
        async with Agent(instance.mcp_url) as agent:
            first = await agent.call("session", {"action": "create", "seed": 1})
            await agent.call("session", {"action": "create", "seed": 2})
            third = await agent.call("session", {"action": "create", "seed": 3})
            assert third["isError"] and third["error"]["code"] == "tooManyGamesForClient"
            # closing one (with its token) makes room again
            closed = await agent.close_created(first)
            assert not closed["isError"], closed
            again = await agent.call("session", {"action": "create", "seed": 4})
            assert not again["isError"], again


async def test_the_instance_limit_is_typed(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path, "--max-games", "1", "--games-per-client", "1") as instance:
        async with Agent(instance.mcp_url) as agent:
            await agent.call("session", {"action": "create", "seed": 1})
        # another client address is not available on loopback; the registry's own cap answers
        async with Agent(instance.mcp_url) as other:
            refused = await other.call("session", {"action": "create", "seed": 2})
            assert refused["isError"] and refused["error"]["code"] in ("tooManyGames", "tooManyGamesForClient")


async def test_invalid_limits_are_refused_at_start(tmp_path: Path) -> None:
    for flag, value in (
        ("--max-games", "0"),
        ("--idle-timeout", "-1"),
        ("--max-lifetime", "0"),
        ("--max-body-bytes", "0"),
    ):
        with pytest.raises(RuntimeError, match="must be a positive"), Instance.start(None, tmp_path, flag, value):
            pass


async def record_of(database: str, session_id: str) -> tuple[str, str] | None:
    """(end reason, session status): what these limits decide (the clock kind is test_deadlines')."""
    found = await stored_end(database, session_id)
    return (found[0], found[2]) if found else None


async def test_idle_games_end_with_a_record_saying_so(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path, "--idle-timeout", "2", "--sweep-interval", "0.5") as instance:
        async with Agent(instance.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 3})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            for _ in range(3):  # spectator reads do not keep it alive; authorized calls do
                await asyncio.sleep(1)
                kept = await agent.call("observe", {"sessionId": game, "controlToken": token})
                assert not kept["isError"]
            deadline = time.monotonic() + 15
            while await record_of(database, game) is None and time.monotonic() < deadline:
                await asyncio.sleep(0.5)
                await agent.call("observe", {"sessionId": game})  # a spectator's read: no activity
            assert await record_of(database, game) == ("idle_timeout", "ended")
            after = await agent.call(
                "interact",
                {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "search", "controlToken": token},
            )
            assert after["isError"] and after["error"]["code"] == "gameEnded"
            async with httpx.AsyncClient(timeout=30) as http:
                page = await http.get(f"{instance.url}/api/games/{game}/state")
            assert page.status_code == 410 and page.json()["record"]["endReason"] == "idle_timeout"


async def test_lifetime_ends_a_busy_game_at_the_call(database: str, tmp_path: Path) -> None:
    # the sweep is slow: the call itself must find the deadline passed
    with Instance.start(database, tmp_path, "--max-lifetime", "3", "--sweep-interval", "600") as instance:
        async with Agent(instance.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 4})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            view = created["basis"]["viewId"]
            started = time.monotonic()
            while time.monotonic() - started < 2.5:
                frame = await agent.call(
                    "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": token}
                )
                assert frame["outcome"]["submission"] == "accepted", frame
                view = frame["basis"]["viewId"]
            await asyncio.sleep(max(0.0, 3.2 - (time.monotonic() - started)))
            late = await agent.call(
                "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": token}
            )
            assert late["isError"] and late["error"]["code"] == "gameEnded"
            assert await record_of(database, game) == ("time_limit", "ended")


async def test_tokens_appear_nowhere_but_in_the_creators_result(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path) as instance:
        async with Agent(instance.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 8, "name": "Ada"})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            assert token in created["text"]  # the creator is told, once
            frame = created
            for step in range(2):
                frame = await agent.call(
                    "interact",
                    {
                        "sessionId": game,
                        "viewId": frame["basis"]["viewId"],
                        "action": "search",
                        "requestId": f"s{step}",
                        "controlToken": token,
                    },
                )
                assert token not in str(frame)
            quit_ = await agent.call(
                "session",
                {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "quit", "controlToken": token},
            )
            for _ in range(16):  # "Really quit?" -> yes (and whatever follows), so the game has a record
                if not quit_.get("decision"):
                    break
                decision = quit_["decision"]
                if decision["kind"] == "confirmation":
                    reply = decision["reply"]
                    arguments = {**reply["arguments"], "value": True}
                else:  # the end-of-game disclosure menus: dismissed
                    reply = decision["cancel"]
                    arguments = dict(reply["arguments"])
                quit_ = await agent.call(reply["tool"], {**arguments, "controlToken": token})
            assert quit_["control"]["gate"] == "ended", (quit_.get("error"), quit_.get("decision"))
            async with httpx.AsyncClient(timeout=30) as http:
                pages = [
                    (await http.get(f"{instance.url}{path}")).text
                    for path in ("/", f"/g/{game}", f"/api/games/{game}/state", "/api/recent")
                ]
        async with await psycopg.AsyncConnection.connect(database) as db:
            dumped = []
            for table in ("sessions", "journal", "receipts", "game_records", "control_tokens"):
                rows = await (await db.execute(f"SELECT * FROM {table}")).fetchall()
                dumped.append(repr(rows))
            held = await (
                await db.execute("SELECT token_hash FROM control_tokens WHERE session_id = %s", (game,))
            ).fetchone()
        assert held is not None and len(held[0]) == 64 and held[0] != token
        assert "'quit'" in dumped[3], "the game's record was written (and holds no token)"
        assert any(game in page for page in pages)
        for where, text in (("log", instance.log()), ("pages", "".join(pages)), ("database", "".join(dumped))):
            assert token not in text, f"the control token leaked into the {where}"
