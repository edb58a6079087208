#!/usr/bin/env python3
"""bench_tools.py - the stdio tool path against the SDK's own round trip (issue 27 item 2).

One `python -m nethack_webmcp.mcp --no-spectator` driven by the official
`mcp` client over stdio, one game (seed 42, a pinned game clock). Each round
times, in a rotating order, `calls` of each of:

  help              {} - no game work: the SDK's round trip plus a constant frame
  observe           the full world (free: no input, no turn)
  search            interact {action: search}: one acting call, one engine turn
  observeAfterSearch  observe right after an (untimed) search: a state no
                    observe has seen yet, what an agent that looks after
                    every action pays

each timed as the client's round trip (perf_counter around call_tool). The
ratios are median(observe) / median(help) and median(search) / median(help),
both from this one run. Then, in this process, the same three calls go
through the tools directly (no MCP) and each stage is timed apart: the tool
call (validation, session, engine, projection), within it the engine's
requests, the store's awaits (SQLite commits: WAL, synchronous=FULL) and the
rest (`python`: ours), then the text rendering, the SDK runner's validation and dump of the result and its
JSON serialisation - what a call costs before the wire - and the size of
the JSON-RPC response line each kind sends.

The last line is one JSON object (the numbers of the tables in
docs/BENCHMARKS.md, "The stdio tool path").

    ./scripts/bench-tools [--rounds 10] [--calls 30] [--seed 42] [--state-parent /dev/shm]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from mcp import Client, StdioServerParameters, types  # noqa: E402
from mcp_types.methods import serialize_server_result  # noqa: E402
from nethack_webmcp.hosting import native_registry  # noqa: E402
from nethack_webmcp.mcp import tool_result  # noqa: E402
from nethack_webmcp.projection.render import text  # noqa: E402
from nethack_webmcp.tools import BY_NAME, ToolContext  # noqa: E402

#: NetHack's moon phase and night depend on the date: every run plays the same game
GAME_CLOCK = 1768046400
KINDS = ("help", "observe", "search", "observeAfterSearch")
#: the in-process stages timed apart (ms); "bytes" is the JSON-RPC response line's size
TIMED_STAGES = ("call", "engine", "store", "python", "text", "result", "json")
#: the protocol era the in-process stages shape results for (the stdio client's)
PROTOCOL = "2026-07-28"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class Game:
    """The arguments of the next call of each kind on one game, kept current
    (a question is cancelled, an ended game replaced by the next seed)."""

    def __init__(self, call: Any, seed: int) -> None:
        self.call = call
        self.seed = seed
        self.frame: dict[str, Any] = {}

    async def start(self) -> None:
        self.frame = await self.call("session", {"action": "create", "seed": self.seed})

    async def settle(self) -> None:
        """Until the game is ready for an acting call (untimed)."""
        while True:
            if self.frame["control"]["gate"] == "ended":
                self.seed += 1
                await self.start()
            elif self.frame.get("decision"):
                cancel = self.frame["decision"].get("cancel") or self.frame["decision"]["reply"]
                self.frame = await self.call("respond", cancel["arguments"])
            else:
                return

    async def prepare(self, kind: str) -> None:
        """Untimed: ready for an acting call; before observeAfterSearch, one search."""
        await self.settle()
        if kind == "observeAfterSearch":
            self.frame = await self.call(*self.arguments("search"))
            await self.settle()

    def arguments(self, kind: str) -> tuple[str, dict[str, Any]]:
        basis = self.frame["basis"]
        if kind == "help":
            return "help", {}
        if kind in ("observe", "observeAfterSearch"):
            return "observe", {"sessionId": basis["sessionId"]}
        return "interact", {"sessionId": basis["sessionId"], "viewId": basis["viewId"], "action": "search"}


async def over_stdio(rounds: int, calls: int, seed: int, state_dir: Path) -> dict[str, list[float]]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nethack_webmcp.mcp", "--no-spectator", "--game-clock", str(GAME_CLOCK)],
        cwd=str(ROOT),
        env={**os.environ, "NNH_STATE_DIR": str(state_dir), "PYTHONPATH": str(ROOT / "py")},
    )
    timed: dict[str, list[float]] = {kind: [] for kind in KINDS}
    async with Client(params) as client:

        async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, arguments)
            assert result.structured_content is not None
            return result.structured_content

        game = Game(call, seed)
        await game.start()
        for _ in range(20):  # warm-up: imports, caches, the first frames
            for kind in KINDS:
                await game.prepare(kind)
                warmed = await call(*game.arguments(kind))
                if kind == "search":
                    game.frame = warmed
        for number in range(rounds):
            turn = number % len(KINDS)
            order = KINDS[turn:] + KINDS[:turn]
            for kind in order:
                for _ in range(calls):
                    await game.prepare(kind)
                    tool, arguments = game.arguments(kind)
                    started = time.perf_counter()
                    result = await client.call_tool(tool, arguments)
                    timed[kind].append((time.perf_counter() - started) * 1000)
                    assert result.structured_content is not None and not result.is_error, result.structured_content
                    if kind == "search":
                        game.frame = result.structured_content
    return timed


class Clock:
    """Adds up the wall time spent inside the wrapped coroutine methods."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, owner: Any, *names: str) -> None:
        for name in names:
            method = getattr(owner, name)

            async def timed(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await _method(*args, **kwargs)
                finally:
                    self.seconds += time.perf_counter() - started

            setattr(owner, name, timed)  # on the instance: the class stays as it is


#: the store's methods a call may await (writes commit: SQLite WAL, synchronous=FULL)
STORE_METHODS = (
    "reserve", "complete", "put_receipt", "get_receipt", "operation_entries", "update_session",
    "journal", "get_session", "put_record", "get_record",
)  # fmt: skip


async def in_process(calls: int, seed: int, state_dir: Path) -> dict[str, dict[str, list[float]]]:
    """Each stage of a call in this process, in ms: tool.call (and, inside it, the
    engine's requests, the store's awaits and the rest: our Python), text(),
    the SDK runner's validate + dump of the result dict, the JSON-RPC response's JSON."""
    games = native_registry(str(state_dir))  # what the stdio server plays on
    games.game_clock = GAME_CLOCK
    engine_clock, store_clock = Clock(), Clock()
    store_clock.wrap(games.store, *STORE_METHODS)
    start_engine = games._engine_factory

    async def timed_engine() -> Any:
        engine = await start_engine()
        engine_clock.wrap(engine, "request")
        return engine

    games._engine_factory = timed_engine
    ctx = ToolContext(games)
    stages: dict[str, dict[str, list[float]]] = {
        kind: {stage: [] for stage in (*TIMED_STAGES, "bytes")} for kind in KINDS
    }

    async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await BY_NAME[tool].call(ctx, arguments)

    game = Game(call, seed)
    try:
        await game.start()
        for warm in (True, False):
            for kind in KINDS:
                for _ in range(10 if warm else calls):
                    await game.prepare(kind)
                    tool, arguments = game.arguments(kind)
                    engine, store = engine_clock.seconds, store_clock.seconds
                    t0 = time.perf_counter()
                    frame = await call(tool, arguments)
                    t1 = time.perf_counter()
                    engine, store = engine_clock.seconds - engine, store_clock.seconds - store
                    assert "error" not in frame, frame["error"]  # every timed call is one that did its work
                    rendered = text(frame)
                    t2 = time.perf_counter()
                    # what the SDK's runner does with the handler's dict: validate and dump it
                    # for the protocol era; then our stdio writer's JSON of the response
                    result = serialize_server_result("tools/call", PROTOCOL, tool_result(frame, rendered))
                    t3 = time.perf_counter()
                    line = types.JSONRPCResponse(jsonrpc="2.0", id=1, result=result).model_dump_json(
                        by_alias=True, exclude_unset=True
                    )
                    t4 = time.perf_counter()
                    if kind == "search":
                        game.frame = frame
                    if not warm:
                        spent = (t1 - t0, engine, store, t1 - t0 - engine - store, t2 - t1, t3 - t2, t4 - t3)
                        for stage, seconds in zip(TIMED_STAGES, spent, strict=True):
                            stages[kind][stage].append(seconds * 1000)
                        stages[kind]["bytes"].append(len(line.encode()))
    finally:
        await games.close_all()
        await games.store.close()
    return stages


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--calls", type=int, default=30, help="calls of each kind per round")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--state-parent",
        default=None,
        help="where the games' SQLite store lives (default: the system temp directory, on disk here); "
        "/dev/shm puts it on tmpfs, where a commit's fsync costs nothing: acting calls without the disk",
    )
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-tools-", dir=opts.state_parent) as directory:
        state = Path(directory)
        timed = await over_stdio(opts.rounds, opts.calls, opts.seed, state / "stdio")
        stages = await in_process(opts.calls * 3, opts.seed, state / "in-process")
    floor = median(timed["help"])
    print("| call (stdio, client round trip) | calls | median ms | p95 ms | ÷ help |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in KINDS:
        print(
            f"| {kind} | {len(timed[kind])} | {median(timed[kind]):.2f} | "
            f"{percentile(timed[kind], 0.95):.2f} | {median(timed[kind]) / floor:.2f}× |"
        )
    print()
    print("| stage (in process, median ms) | " + " | ".join(KINDS) + " |")
    print("| --- | " + " | ".join("---:" for _ in KINDS) + " |")
    for stage in TIMED_STAGES:
        print(f"| {stage} | " + " | ".join(f"{median(stages[kind][stage]):.3f}" for kind in KINDS) + " |")
    print(
        "| response bytes (JSON-RPC line) | "
        + " | ".join(f"{median(stages[kind]['bytes']):.0f}" for kind in KINDS)
        + " |"
    )
    summary = {
        "rounds": opts.rounds,
        "callsPerRound": opts.calls,
        "medianMs": {kind: round(median(timed[kind]), 3) for kind in KINDS},
        "p95Ms": {kind: round(percentile(timed[kind], 0.95), 3) for kind in KINDS},
        "observeRatio": round(median(timed["observe"]) / floor, 3),
        "observeAfterSearchRatio": round(median(timed["observeAfterSearch"]) / floor, 3),
        "actingRatio": round(median(timed["search"]) / floor, 3),
        "stagesMs": {kind: {stage: round(median(stages[kind][stage]), 4) for stage in TIMED_STAGES} for kind in KINDS},
        "responseBytes": {kind: round(median(stages[kind]["bytes"])) for kind in KINDS},
    }
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    asyncio.run(main())
