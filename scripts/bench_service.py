"""bench_service.py - N concurrent agents over HTTP MCP, on one and on two instances (run by scripts/bench-service).

A private PostgreSQL cluster (tests/support/postgres_server.py) and, per
configuration, a fresh database and 1 or 2 `python -m nethack_webmcp.mcp
--http 127.0.0.1:0 --store postgresql://...` processes. N agents start
together, agent i on instance i mod k, each through the MCP SDK's
Streamable-HTTP client: `session create` (its own seed), --moves
`interact search` calls (one engine turn each; a standing question is
cancelled), `observe`, `session close`. Every tool call's client round trip
is timed. Per configuration: games/s (N / wall time from the first create
to the last close), tool-call p50/p95 (all calls; creation separately,
since it starts an engine), and each instance's CPU (user+system seconds
over the wall time, as % of one core). The agents run in this process, on
the same 2 cores as the servers and PostgreSQL, as a real co-located load
would; its CPU is reported too.

    ./scripts/bench-service [--agents 10,50] [--instances 1,2] [--moves 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from support.postgres_server import PostgresServer  # noqa: E402
from support.service_instance import Agent, Instance  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def play(url: str, seed: int, moves: int, calls: list[float], creates: list[float]) -> None:
    async with Agent(url) as agent:

        async def timed(name: str, arguments: dict[str, Any], into: list[float]) -> dict[str, Any]:
            started = time.perf_counter()
            frame = await agent.call(name, arguments)
            into.append(time.perf_counter() - started)
            return frame

        created = await timed("session", {"action": "create", "seed": seed, "name": "Bench"}, creates)
        if created["isError"]:
            raise RuntimeError(f"create failed: {created.get('error')}")
        game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
        frame = created
        for _ in range(moves):
            decision = frame.get("decision")
            if decision and decision.get("cancel"):
                cancel = decision["cancel"]
                frame = await timed(cancel["tool"], {**cancel["arguments"], "controlToken": token}, calls)
                continue
            frame = await timed(
                "interact",
                {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "search", "controlToken": token},
                calls,
            )
            if frame["isError"] and frame["error"]["code"] not in ("staleView", "decisionPending"):
                raise RuntimeError(f"call failed: {frame['error']}")
            if frame.get("control", {}).get("gate") == "ended":
                break
        await timed("observe", {"sessionId": game, "controlToken": token}, calls)
        await timed("session", {"action": "close", "sessionId": game, "controlToken": token}, calls)


async def run_config(instances: list[Instance], agents: int, moves: int, seed_base: int) -> dict[str, Any]:
    calls: list[float] = []
    creates: list[float] = []
    cpu_before = [instance.cpu_seconds() for instance in instances]
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    await asyncio.gather(
        *(play(instances[i % len(instances)].mcp_url, seed_base + i, moves, calls, creates) for i in range(agents))
    )
    wall = time.perf_counter() - started
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = [
        (instance.cpu_seconds() - before) / wall * 100 for instance, before in zip(instances, cpu_before, strict=True)
    ]
    client_cpu = ((own_after.ru_utime + own_after.ru_stime) - (own_before.ru_utime + own_before.ru_stime)) / wall * 100
    return {
        "agents": agents,
        "instances": len(instances),
        "wall": wall,
        "gamesPerSecond": agents / wall,
        "calls": len(calls) + len(creates),
        "p50": percentile(calls, 0.5) * 1000,
        "p95": percentile(calls, 0.95) * 1000,
        "createP50": percentile(creates, 0.5) * 1000,
        "createP95": percentile(creates, 0.95) * 1000,
        "cpu": cpu,
        "clientCpu": client_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", default="10,50")
    parser.add_argument("--instances", default="1,2")
    parser.add_argument("--moves", type=int, default=20)
    opts = parser.parse_args()
    agent_counts = [int(n) for n in opts.agents.split(",")]
    instance_counts = [int(n) for n in opts.instances.split(",")]
    if max(agent_counts) > 200 or min(agent_counts) < 1 or not set(instance_counts) <= {1, 2, 3, 4}:
        parser.error("1-200 agents, 1-4 instances")
    results = []
    with PostgresServer.start() as postgres:
        number = 0
        for count in instance_counts:
            for agents in agent_counts:
                number += 1
                database = postgres.create_database(f"bench{number}")
                limit = str(agents)
                with ExitStack() as stack:
                    running = [
                        stack.enter_context(
                            Instance.start(
                                database,
                                Path(tempfile.mkdtemp(prefix="nnh-bench-")),
                                "--max-games",
                                limit,
                                "--games-per-client",
                                limit,
                            )
                        )
                        for _ in range(count)
                    ]
                    result = asyncio.run(run_config(running, agents, opts.moves, seed_base=1000 * number))
                print(
                    f"# {count} instance(s), {agents} agents: {result['gamesPerSecond']:.2f} games/s, "
                    f"p50 {result['p50']:.0f} ms, p95 {result['p95']:.0f} ms",
                    file=sys.stderr,
                    flush=True,
                )
                results.append(result)
    print(
        f"\n{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}; "
        f"{opts.moves} `interact search` per game + create, observe, close\n"
    )
    print(
        "| instances | agents | games/s | wall s | tool calls | call p50 ms | call p95 ms | create p50 ms "
        "| create p95 ms | CPU per instance (% of a core) | agents' CPU % |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        cpu = " / ".join(f"{value:.0f}" for value in r["cpu"])
        print(
            f"| {r['instances']} | {r['agents']} | {r['gamesPerSecond']:.2f} | {r['wall']:.1f} | {r['calls']} "
            f"| {r['p50']:.0f} | {r['p95']:.0f} | {r['createP50']:.0f} | {r['createP95']:.0f} | {cpu} "
            f"| {r['clientCpu']:.0f} |"
        )


if __name__ == "__main__":
    main()
