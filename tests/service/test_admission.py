"""test_admission.py - admission is atomic: simultaneous creates never exceed any limit.

Twenty `session create` calls are sent at once to a real HTTP service (real
engines, real PostgreSQL). The limits - games loaded in the instance and
games per client - are checked and claimed in one step (registry._claim),
so exactly as many games as the limits allow are admitted, every other call
gets a typed capacity error with a retry hint, and no engine is started for
a refused call. Five client addresses come from X-Forwarded-For behind a
`--trusted-proxy` (the loopback peer), so both limits are in play at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio

CAPACITY = ("tooManyGames", "tooManyGamesForClient")


def engine_processes(pid: int) -> int:
    """The instance's live nhdriver children (Linux /proc)."""
    found = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        if int(rest.split()[1]) == pid and name == "nhdriver":
            found += 1
    return found


async def create_at_once(url: str, clients: list[str]) -> list[dict[str, Any]]:
    """One agent per entry (its X-Forwarded-For address); all creates released together."""
    async with AsyncExitStack() as stack:  # (anyio: the agents are left in reverse order)
        agents = [await stack.enter_async_context(Agent(url, headers={"X-Forwarded-For": c})) for c in clients]
        go = asyncio.Event()

        async def create(agent: Agent, seed: int) -> dict[str, Any]:
            await go.wait()
            return await agent.call("session", {"action": "create", "seed": seed})

        calls = [asyncio.create_task(create(agent, seed)) for seed, agent in enumerate(agents, 1)]
        await asyncio.sleep(0.2)  # every task is waiting on the event
        go.set()
        return list(await asyncio.gather(*calls))


def check_refusals(frames: list[dict[str, Any]]) -> None:
    for frame in frames:
        if frame["isError"]:
            error = frame["error"]
            assert error["code"] in CAPACITY, error
            assert isinstance(error["retryAfterSeconds"], int) and error["retryAfterSeconds"] >= 1, error


async def test_twenty_simultaneous_creates_never_exceed_either_limit(database: str, tmp_path: Path) -> None:
    limits = ("--max-games", "6", "--games-per-client", "2", "--trusted-proxy", "127.0.0.1")
    clients = [f"203.0.113.{n % 5 + 1}" for n in range(20)]  # five clients, four creates each
    with Instance.start(database, tmp_path, *limits) as instance:
        frames = await create_at_once(instance.mcp_url, clients)
        admitted = [(client, frame) for client, frame in zip(clients, frames, strict=True) if not frame["isError"]]
        per_client = Counter(client for client, _ in admitted)
        assert len(admitted) == 6, [frame.get("error") for frame in frames]
        assert max(per_client.values()) <= 2, per_client
        check_refusals(frames)
        codes = Counter(frame["error"]["code"] for frame in frames if frame["isError"])
        assert sum(codes.values()) == 14, codes
        async with httpx.AsyncClient(timeout=30) as http:
            health = (await http.get(f"{instance.url}/health")).json()
        assert health["games"] == 6
        assert engine_processes(instance.pid) == 6  # a refused create started no engine


async def test_the_issues_six_creates_from_one_client(database: str, tmp_path: Path) -> None:
    """The reported case: 6 simultaneous creates against --max-games 2 --games-per-client 2
    (all were admitted), here 20 of them."""
    with Instance.start(database, tmp_path, "--max-games", "2", "--games-per-client", "2") as instance:
        frames = await create_at_once(instance.mcp_url, ["198.51.100.1"] * 20)  # not trusted: the peer counts
        assert sum(not frame["isError"] for frame in frames) == 2, [frame.get("error") for frame in frames]
        check_refusals(frames)
        assert engine_processes(instance.pid) == 2
        # a slot freed by closing a game is free at once
        created = next(frame for frame in frames if not frame["isError"])
        async with Agent(instance.mcp_url) as agent:
            closed = await agent.close_created(created)
            assert not closed["isError"], closed
            again = await agent.call("session", {"action": "create", "seed": 99})
            assert not again["isError"], again
