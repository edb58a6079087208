"""test_tokenless_reads.py - strangers use up no capacity: token-less reads of 50 completed
games (their IDs are public at /api/recent) load, resume and replay nothing.

Fifty games are played to their end (quit) one after another through an
instance with `--max-games 2`: each ended game leaves memory as its last
call ends, or the third create would be refused. Then a fresh instance on
the same database (nothing in memory, as after a restart) gets a token-less
`observe` of every one of them, twice: each answer is the game's last
recorded frame and its record; afterwards the registry holds no game, no
engine process was ever started, and two creates - the limit - succeed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.service_instance import Agent, Instance
from test_admission import engine_processes

pytestmark = pytest.mark.asyncio

GAMES = 50


async def play_to_the_end(agent: Agent, seed: int) -> tuple[str, str]:
    """Create a game and quit it (confirming, dismissing the disclosure menus): (id, token)."""
    created = await agent.call("session", {"action": "create", "seed": seed})
    assert not created["isError"], created
    game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
    frame = await agent.call(
        "session", {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "quit", "controlToken": token}
    )
    for _ in range(16):
        if not frame.get("decision"):
            break
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            reply = decision["reply"]
            arguments = {**reply["arguments"], "value": True}
        else:
            reply = decision["cancel"]
            arguments = dict(reply["arguments"])
        frame = await agent.call(reply["tool"], {**arguments, "controlToken": token})
    assert frame["control"]["gate"] == "ended", (frame.get("error"), frame.get("decision"))
    return game, token


async def health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=30) as http:
        return dict((await http.get(f"{url}/health")).json())


async def test_tokenless_reads_of_fifty_completed_games_take_no_capacity(database: str, tmp_path: Path) -> None:
    limits = ("--max-games", "2", "--games-per-client", "2")
    with Instance.start(database, tmp_path, *limits) as player:
        async with Agent(player.mcp_url) as agent:
            games = [await play_to_the_end(agent, seed) for seed in range(1, GAMES + 1)]
            assert (await health(player.url))["games"] == 0  # every ended game left memory
            # even its creator's observe reads the record: nothing is replayed
            game, token = games[0]
            mine = await agent.call("observe", {"sessionId": game, "controlToken": token})
            assert not mine["isError"] and mine["result"]["record"]["endReason"] == "quit", mine
            assert (await health(player.url))["games"] == 0
        async with httpx.AsyncClient(timeout=30) as http:
            listed = (await http.get(f"{player.url}/api/recent")).json()["records"]
        assert len(listed) == 10 and {record["gameId"] for record in listed} <= {game for game, _ in games}

    with Instance.start(database, tmp_path, *limits) as instance:
        async with Agent(instance.mcp_url) as stranger:
            for _ in range(2):
                answers = await asyncio.gather(*(stranger.call("observe", {"sessionId": game}) for game, _ in games))
                for (game, _), answer in zip(games, answers, strict=True):
                    assert not answer["isError"], answer
                    result = answer["result"]
                    assert result["source"] == "receipt" and result["lifecycle"] == "ended", result
                    assert result["record"]["gameId"] == game and result["record"]["endReason"] == "quit"
                    assert answer["basis"]["sessionId"] == game and answer["control"]["gate"] == "ended"
            # the other reading tools read loaded games only; they load none either
            refused = await stranger.call("inventory", {"sessionId": games[0][0]})
            assert refused["isError"] and refused["error"]["code"] == "notLoaded"
            assert (await health(instance.url))["games"] == 0
            assert engine_processes(instance.pid) == 0
        async with Agent(instance.mcp_url) as newcomer:
            for seed in (101, 102):  # the whole capacity is still there
                created = await newcomer.call("session", {"action": "create", "seed": seed})
                assert not created["isError"], created
        assert (await health(instance.url))["games"] == 2


async def test_tokenless_reads_of_a_live_game_elsewhere_never_resume_it(database: str, tmp_path: Path) -> None:
    """A live game stored but not loaded here (its instance stopped): a stranger's observe
    reads its last receipt; it is not resumed, and its creator's next call still is."""
    with Instance.start(database, tmp_path) as first:
        async with Agent(first.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 5})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            searched = await agent.call(
                "interact",
                {
                    "sessionId": game,
                    "viewId": created["basis"]["viewId"],
                    "action": "search",
                    "requestId": "s1",
                    "controlToken": token,
                },
            )
            assert not searched["isError"], searched
    with Instance.start(database, tmp_path) as second:
        async with Agent(second.mcp_url) as stranger:
            seen = await stranger.call("observe", {"sessionId": game})
            assert not seen["isError"], seen
            assert seen["result"]["source"] == "receipt" and seen["result"]["lifecycle"] == "stored"
            assert seen["basis"]["revision"] == searched["basis"]["revision"]
            assert seen["outcome"] is None and seen["events"] == []  # history, not news
            assert (await health(second.url))["games"] == 0
            assert engine_processes(second.pid) == 0
            resumed = await stranger.call("observe", {"sessionId": game, "controlToken": token})
            assert not resumed["isError"] and resumed["basis"]["revision"] == searched["basis"]["revision"]
            assert (await health(second.url))["games"] == 1  # the creator's call did resume it
