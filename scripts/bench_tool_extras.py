#!/usr/bin/env python3
"""bench_tool_extras.py - two tool-path measures bench-tools does not take (issue 27 item 2).

  bytes  observe frames (compact JSON, structuredContent) on real native games
         after 0, 5 and up to 40 explore legs, several seeds: the frame as sent
         (the world in spans-v1) against the same frame with 21 full rows-v1
         rows, the world alone both ways, and the text
  legs   explore legs of up to 8 moves in process on a real SqliteStore, with
         an input's held completion written with the next reservation (one
         commit) and without it (two: the store's reserves_with_completion off),
         runs alternated: median ms per input of a leg

    python scripts/bench_tool_extras.py bytes [--seeds 8]
    python scripts/bench_tool_extras.py legs [--runs 5] [--state-parent /tmp]

Numbers: docs/BENCHMARKS.md, "The stdio tool path", third pass.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from nethack_webmcp.hosting import native_registry  # noqa: E402
from nethack_webmcp.projection import world as world_encoding  # noqa: E402
from nethack_webmcp.projection.render import text  # noqa: E402
from nethack_webmcp.store.sqlite import SqliteStore  # noqa: E402
from nethack_webmcp.tools import BY_NAME, ToolContext  # noqa: E402

GAME_CLOCK = 1768046400  # the moon phase and night depend on the date: the same games every run


def size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


class Games:
    """One registry on a fresh state directory and its tools."""

    def __init__(self, parent: str | None) -> None:
        self.games = native_registry(tempfile.mkdtemp(prefix="bench-extras-", dir=parent))
        self.games.game_clock = GAME_CLOCK
        self.ctx = ToolContext(self.games)

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await BY_NAME[tool].call(self.ctx, arguments)

    async def close(self) -> None:
        await self.games.close_all()
        await self.games.store.close()


async def explore(games: Games, frame: dict[str, Any], legs: int) -> dict[str, Any]:
    """Up to `legs` explore legs of 40 moves (a question is cancelled); the last frame."""
    for _ in range(legs):
        if frame.get("decision"):
            answer = frame["decision"].get("cancel") or frame["decision"]["reply"]
            frame = await games.call("respond", answer["arguments"])
            continue
        if frame["control"]["gate"] != "ready":
            break
        basis = frame["basis"]
        leg = await games.call(
            "travel", {"sessionId": basis["sessionId"], "viewId": basis["viewId"], "mode": "explore", "maxActions": 40}
        )
        if "error" in leg:
            break
        frame = leg
    return frame


async def observe_bytes(seeds: int) -> None:
    games = Games("/dev/shm" if Path("/dev/shm").is_dir() else None)
    found: dict[int, list[tuple[int, int, int, int, int]]] = {0: [], 5: [], 40: []}
    try:
        for seed in range(1, seeds + 1):
            frame = await games.call("session", {"action": "create", "seed": seed})
            played = 0
            for legs in found:
                frame = await explore(games, frame, legs - played)
                played = legs
                observed = await games.call("observe", {"sessionId": frame["basis"]["sessionId"]})
                if "error" in observed:
                    continue
                world = observed["scene"]["world"]
                full = {"levelId": world["levelId"], "encoding": "rows-v1", "rows": world_encoding.rows(world)}
                frame_bytes = size(observed)
                found[legs].append(
                    (frame_bytes, frame_bytes - size(world) + size(full), size(world), size(full), len(text(observed)))
                )
    finally:
        await games.close()
    for legs, rows in found.items():

        def median(index: int, rows: list[tuple[int, int, int, int, int]] = rows) -> float:
            return statistics.median(row[index] for row in rows)

        print(
            f"after {'up to ' if legs > 5 else ''}{legs} explore legs ({len(rows)} games): observe frame "
            f"{median(0):.0f} B (with 21 full rows {median(1):.0f}); world {median(2):.0f} vs {median(3):.0f} B; "
            f"text {median(4):.0f} chars"
        )


async def leg_inputs(parent: str | None, joint: bool, legs: int = 12) -> float:
    """Median ms per input over `legs` explore legs of 2-8 moves."""
    SqliteStore.reserves_with_completion = joint
    games = Games(parent)
    per_input: list[float] = []
    seed = 42
    try:
        frame = await games.call("session", {"action": "create", "seed": seed})
        while len(per_input) < legs:
            basis = frame["basis"]
            started = time.perf_counter()
            leg = await games.call(
                "travel",
                {"sessionId": basis["sessionId"], "viewId": basis["viewId"], "mode": "explore", "maxActions": 8},
            )
            spent = time.perf_counter() - started
            inputs = (leg.get("outcome") or {}).get("actionsTaken") or 0
            if "error" in leg or inputs < 2 or leg.get("decision") or leg["control"]["gate"] != "ready":
                seed += 1  # nothing left to explore (or a question): the next game
                frame = await games.call("session", {"action": "create", "seed": seed})
                continue
            per_input.append(spent * 1000 / inputs)
            frame = leg
    finally:
        await games.close()
        SqliteStore.reserves_with_completion = True
    return statistics.median(per_input)


async def leg_commits(runs: int, parent: str | None) -> None:
    apart: list[float] = []
    joint: list[float] = []
    for _ in range(runs):
        apart.append(await leg_inputs(parent, False))
        joint.append(await leg_inputs(parent, True))
    where = parent or tempfile.gettempdir()
    print(
        f"{where}: ms per input of a leg, completion and next reservation apart (2 commits) "
        f"{statistics.median(apart):.2f} (runs {', '.join(f'{x:.2f}' for x in apart)}); "
        f"together (1 commit) {statistics.median(joint):.2f} (runs {', '.join(f'{x:.2f}' for x in joint)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="measure", required=True)
    sizes = sub.add_parser("bytes", help="observe frame bytes on explored levels")
    sizes.add_argument("--seeds", type=int, default=8)
    legs = sub.add_parser("legs", help="a leg's inputs with one commit or two")
    legs.add_argument("--runs", type=int, default=5)
    legs.add_argument("--state-parent", default=None, help="where the SQLite store lives (default: the temp dir)")
    opts = parser.parse_args()
    if opts.measure == "bytes":
        asyncio.run(observe_bytes(opts.seeds))
    else:
        asyncio.run(leg_commits(opts.runs, opts.state_parent))


if __name__ == "__main__":
    main()
