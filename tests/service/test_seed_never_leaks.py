"""test_seed_never_leaks.py - a live game's seed is in nothing the agent or a spectator receives.

Two games on each real server - the stdio MCP server with its spectator
listener, and the HTTP service on a real PostgreSQL - one with a seed the
harness chose, one with the engine's: both played through every tool
(free and acting, close and resume, a token-less read over HTTP), while
every spectator route is fetched (pages, assets, /api/* with the
timeline's moves and frames, HEAD, ETag revalidation, event streams held
open across the calls). Every byte kept
(raw JSON-RPC responses and notifications, stdio's stderr, HTTP headers
and bodies) is searched for each seed in every encoding it could take:
decimal (also digit-grouped), hex, octal, its four bytes raw or in
base64, base64 of its digits. Then the chosen-seed game ends: its record
(store and spectator) publishes the seed, and the other game's stays
sealed. The seeds searched for are read from the store, so the searcher
itself is checked to find them where they are.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from nethack_webmcp.store.sqlite import DATABASE_NAME
from support.client import require_driver
from support.every_tool import reading_calls
from support.raw_mcp import RawHttp, RawStdio, Spectator
from support.service_instance import Instance

pytestmark = pytest.mark.asyncio
SHORT = 10**6  # an engine seed below this could match unrelated numbers: its text forms are not searched


def encodings(seed: int) -> dict[str, re.Pattern[bytes]]:
    """Every form the seed could be sent in, each bounded so that a longer
    number holding the same digits does not count."""
    digits = str(seed).encode()
    forms = {
        "decimal": rb"(?<![0-9])" + digits + rb"(?![0-9])",
        "hex": rb"(?i)(?<![0-9a-f])(?:0x)?0*" + b"%x" % seed + rb"(?![0-9a-f])",
        "octal": rb"(?<![0-7])(?:0o)?0*" + b"%o" % seed + rb"(?![0-7])",
    }
    for separator in (",", ".", " ", "_", "\u202f", "'"):
        grouped = f"{seed:,}".replace(",", separator).encode()
        forms[f"grouped {separator!r}"] = rb"(?<![0-9])" + re.escape(grouped) + rb"(?![0-9])"
    for order in ("big", "little"):
        packed = seed.to_bytes(4, order)
        forms[f"bytes {order}"] = re.escape(packed)
        for name, encode in (("base64", base64.b64encode), ("base64url", base64.urlsafe_b64encode)):
            forms[f"{name} {order}"] = re.escape(encode(packed).rstrip(b"="))
    forms["base64 of the digits"] = re.escape(base64.b64encode(digits).rstrip(b"="))
    return {name: re.compile(pattern) for name, pattern in forms.items()}


def leaks(seed: int, received: bytes) -> list[str]:
    """The encodings of `seed` found in `received`, each with its context."""
    found = []
    for name, pattern in encodings(seed).items():
        match = pattern.search(received)
        if match:
            found.append(f"{name}: …{received[max(0, match.start() - 120) : match.end() + 40]!r}…")
    return found


def assert_sealed(seed: int, received: bytes, where: str) -> None:
    assert b'"seed":' + str(seed).encode() not in received
    if seed >= SHORT:
        assert not leaks(seed, received), f"seed {seed} reached the {where}: {leaks(seed, received)}"


def assert_sealed_but_stored(seeds: dict[str, int], game: str, chosen: int, stored: bytes) -> None:
    """The store holds `game`'s chosen seed, and the searcher finds it there (so a miss elsewhere means something)."""
    assert seeds[game] == chosen and leaks(chosen, stored), "the searcher finds a seed where it is"


def assert_sealed_in(
    seeds: dict[str, int], agent: bytes | bytearray, channel: str, spectator: bytes | bytearray
) -> None:
    """No live game's seed in what the agent (over `channel`) or the spectator received."""
    for seed in seeds.values():
        assert_sealed(seed, bytes(agent), channel)
        assert_sealed(seed, bytes(spectator), "spectator")


@pytest.mark.filterwarnings("ignore::pytest.PytestWarning")
def test_the_searcher_finds_each_form_and_only_the_seed() -> None:
    seed = 3_000_000_123
    for text in (
        b'{"seed":3000000123}',
        b"seed 0xB2D05E7B.",
        b"id=00b2d05e7b",
        b"%o" % seed,
        b"3,000,000,123 turns",
        b"3\xe2\x80\xaf000\xe2\x80\xaf000\xe2\x80\xaf123",
        b"token " + base64.urlsafe_b64encode(seed.to_bytes(4, "little")),
        b"x" + seed.to_bytes(4, "big") + b"y",
        base64.b64encode(b"3000000123"),
    ):
        assert leaks(seed, text), text
    assert not leaks(seed, b"13000000123 30000001234 0xab2d05e7b 3,000,000,1234 2999999123")


async def play(agent: Any, frame: dict[str, Any], auth: dict[str, str]) -> dict[str, Any]:
    """Every tool once or more on the game of `frame`: acting and free calls; the last frame."""
    game = frame["basis"]["sessionId"]

    def bound(frame: dict[str, Any]) -> dict[str, Any]:
        return {"sessionId": game, "viewId": frame["basis"]["viewId"], **auth}

    frame = await agent.call("interact", {**bound(frame), "action": "search", "requestId": f"{game}-s"})
    frame = await agent.call("travel", {**bound(frame), "mode": "explore", "maxActions": 8})
    for tool, arguments in reading_calls(frame["basis"]["viewId"]):
        await agent.call(tool, {"sessionId": game, **arguments, **auth})
    await agent.call("help", {})
    observed = await agent.call("observe", {"sessionId": game, **auth})
    return observed if not observed["isError"] else frame


async def quit_game(agent: Any, frame: dict[str, Any], auth: dict[str, str]) -> dict[str, Any]:
    arguments = {"sessionId": frame["basis"]["sessionId"], "viewId": frame["basis"]["viewId"], **auth}
    frame = await agent.call("session", {**arguments, "action": "quit"})
    for _ in range(16):  # "Really quit?" -> yes; the end-of-game disclosure menus dismissed
        decision = frame.get("decision")
        if not decision:
            break
        if decision["kind"] == "confirmation":
            reply = {**decision["reply"]["arguments"], "value": decision["prompt"] == "Really quit?"}
            frame = await agent.call(decision["reply"]["tool"], {**reply, **auth})
        else:
            frame = await agent.call(decision["cancel"]["tool"], {**decision["cancel"]["arguments"], **auth})
    assert frame["control"]["gate"] == "ended", (frame.get("error"), frame.get("decision"))
    return frame


def timeline_paths(games: list[str]) -> list[str]:
    """The timeline routes of each game: its moves, and frames at the start, early on and past the end."""
    routes = ("moves", "frames/0", "frames/1", "frames/3", "frames/9999")
    return [f"/api/games/{game}/{route}" for game in games for route in routes]


async def watched_while(spectator: Spectator, games: list[str], calls: Any) -> Any:
    """Run `calls` while each game's event stream is held open (the pushes they cause are kept)."""
    async with httpx.AsyncClient(timeout=30) as http:
        streams = [asyncio.create_task(spectator.stream(http, f"/api/games/{g}/events", 60)) for g in games]
        try:
            return await calls
        finally:
            await asyncio.sleep(0.6)  # the last push (streams coalesce every 0.25 s)
            for stream in streams:
                stream.cancel()
            await asyncio.gather(*streams, return_exceptions=True)


async def test_the_stdio_server_and_its_spectator_never_show_a_live_seed(tmp_path: Path) -> None:
    require_driver()
    chosen = random.SystemRandom().randrange(2**31, 2**32)
    async with RawStdio.start(tmp_path) as agent:
        spectator = Spectator(agent.spectator)
        first = await agent.call("session", {"action": "create", "seed": chosen, "harness_name": "seal suite"})
        second = await agent.call("session", {"action": "create"})
        games = [first["basis"]["sessionId"], second["basis"]["sessionId"]]
        assert first["result"]["watchUrl"].endswith(games[0]), "the agent is handed the spectator's URL"

        async def calls() -> dict[str, Any]:
            await spectator.everything(games, *timeline_paths(games))
            frame = await play(agent, first, {})
            await play(agent, second, {})
            await agent.call("session", {"action": "close", "sessionId": games[0]})
            await agent.call("session", {"action": "resume", "sessionId": games[0]})
            await spectator.everything(games, *timeline_paths(games))
            return frame

        frame = await watched_while(spectator, games, calls())
        with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
            seeds = dict(db.execute("SELECT session_id, seed FROM sessions").fetchall())
            stored = json.dumps(db.execute("SELECT * FROM sessions").fetchall()).encode()
        assert_sealed_but_stored(seeds, games[0], chosen, stored)
        assert_sealed_in(seeds, agent.received, "agent (stdio: every stdout and stderr byte)", spectator.received)
        assert len(agent.stdout) > 10_000 and spectator.received.count(b"data: {") >= 4

        # the chosen-seed game ends: its record publishes the seed; the other game's stays sealed
        before = len(spectator.received)
        await quit_game(agent, frame, {})
        resumed = await agent.call("session", {"action": "resume", "sessionId": games[0]})
        assert resumed["result"]["session"]["seed"] == chosen
        await spectator.everything(games, *timeline_paths(games))
        published = bytes(spectator.received[before:])
        assert b'"seed":%d' % chosen in published
        recent = json.loads(await fetch(spectator.base + "/api/recent"))
        assert [(r["gameId"], r["seed"], r["seedChoice"]) for r in recent["records"]] == [(games[0], chosen, "chosen")]
        assert_sealed(seeds[games[1]], bytes(agent.received) + bytes(spectator.received), "agent or spectator")
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        assert db.execute("SELECT seed FROM game_records WHERE game_id = ?", (games[0],)).fetchone() == (chosen,)


async def fetch(url: str) -> bytes:
    async with httpx.AsyncClient(timeout=30) as http:
        return (await http.get(url)).content


async def test_the_http_service_never_shows_a_live_seed(database: str, tmp_path: Path) -> None:
    require_driver()
    chosen = random.SystemRandom().randrange(2**31, 2**32)
    with Instance.start(database, tmp_path) as instance:
        spectator = Spectator(instance.url)
        async with RawHttp(instance.mcp_url) as agent:
            first = await agent.call("session", {"action": "create", "seed": chosen, "harness_name": "seal suite"})
            second = await agent.call("session", {"action": "create"})
            games = [first["basis"]["sessionId"], second["basis"]["sessionId"]]
            auths = [
                {"controlToken": first["result"]["controlToken"]},
                {"controlToken": second["result"]["controlToken"]},
            ]

            async def calls() -> dict[str, Any]:
                await spectator.everything(games, "/metrics", *timeline_paths(games))
                frame = await play(agent, first, auths[0])
                await play(agent, second, auths[1])
                for game in games:  # a stranger's token-less reads, as a spectator's
                    await agent.call("observe", {"sessionId": game})
                    await agent.call("inventory", {"sessionId": game})
                await agent.call("session", {"action": "close", "sessionId": games[0], **auths[0]})
                await agent.call("session", {"action": "resume", "sessionId": games[0], **auths[0]})
                await spectator.everything(games, "/metrics", *timeline_paths(games))
                return frame

            frame = await watched_while(spectator, games, calls())
            async with await psycopg.AsyncConnection.connect(database) as db:
                rows = await (await db.execute("SELECT session_id, seed FROM sessions")).fetchall()
                stored = repr(await (await db.execute("SELECT * FROM sessions")).fetchall()).encode()
            seeds: dict[str, int] = dict(rows)
            assert_sealed_but_stored(seeds, games[0], chosen, stored)
            channel = "agent (HTTP: every response, headers and body)"
            assert_sealed_in(seeds, agent.received, channel, spectator.received)
            assert len(agent.received) > 10_000 and spectator.received.count(b"data: {") >= 4

            before = len(spectator.received)
            await quit_game(agent, frame, auths[0])
            await spectator.everything(games, *timeline_paths(games))
            assert b'"seed":%d' % chosen in bytes(spectator.received[before:])
            assert_sealed(seeds[games[1]], bytes(agent.received) + bytes(spectator.received), "agent or spectator")
        async with await psycopg.AsyncConnection.connect(database) as db:
            record = await (
                await db.execute("SELECT seed FROM game_records WHERE game_id = %s", (games[0],))
            ).fetchone()
        assert record == (chosen,)
