"""bench_spectators.py - does watching slow the agent? (run by scripts/bench-spectators)

For each N (default 0, 1, 50, 200): a fresh `python -m nethack_webmcp.mcp
--spectator-port 0` (loopback), one game played through the official `mcp`
client - `interact search` calls, one engine turn each, a standing
question cancelled, a finished game replaced - while N pollers
(spectator_pollers.py, another process) poll that game's state as the
page does (one conditional GET per poller at a time, 250 ms apart).
Reports the tool-call latency (client round trip) against N = 0 and the
poll latency p50/p95. Bounded: at most 1000 pollers, and each N stops
after --calls calls or --seconds, whichever comes first.

    ./scripts/bench-spectators [--pollers 0,1,50,200] [--calls 400] [--seconds 60] [--rounds 2]

Rounds alternate the order of N (0..200, then 200..0) so a drifting
machine load does not favour one N; the numbers are pooled over rounds.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from support.watched import watched_server  # noqa: E402

WARMUP_CALLS = 20
MAX_POLLERS = 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def new_game(session: Any, seed: int) -> dict[str, Any]:
    return (await session.call_tool("session", {"action": "create", "seed": seed})).structuredContent


async def play(session: Any, frame: dict[str, Any], calls: int, deadline: float, seed: int
               ) -> tuple[list[float], dict[str, Any]]:
    """`calls` timed search calls (fewer if the deadline passes); latencies in ms."""
    latencies: list[float] = []
    while len(latencies) < calls and time.monotonic() < deadline:
        basis = frame["basis"]
        if frame["control"]["gate"] == "ended":
            seed += 1
            frame = await new_game(session, seed)
            continue
        if frame.get("decision"):
            cancel = frame["decision"].get("cancel") or frame["decision"]["reply"]
            frame = (await session.call_tool("respond", cancel["arguments"])).structuredContent
            continue
        started = time.perf_counter()
        result = await session.call_tool("interact", {"sessionId": basis["sessionId"], "viewId": basis["viewId"],
                                                      "action": "search"})
        latencies.append((time.perf_counter() - started) * 1000)
        frame = result.structuredContent
    return latencies, frame


async def measure(pollers: int, calls: int, seconds: float, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as state:
        async with watched_server(Path(state)) as (session, base):
            frame = await new_game(session, seed)
            game = frame["basis"]["sessionId"]
            frame = (await play(session, frame, WARMUP_CALLS, time.monotonic() + seconds, seed))[1]
            crowd = None
            if pollers:
                crowd = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "spectator_pollers.py"),
                                          f"{base}/api/games/{game}/state", str(pollers)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                assert crowd.stdout is not None and crowd.stdin is not None
                assert (await asyncio.to_thread(crowd.stdout.readline)).strip() == "ready"
                await asyncio.sleep(1.0)  # every poller connected and polling
            started = time.monotonic()
            latencies, frame = await play(session, frame, calls, started + seconds, seed)
            elapsed = time.monotonic() - started
            polled: dict[str, Any] = {"latencies": [], "statuses": {}, "errors": []}
            if crowd is not None:
                out, _ = await asyncio.to_thread(crowd.communicate, "stop\n", 60)
                polled = json.loads(out.strip().splitlines()[-1])
    return {"pollers": pollers, "calls": latencies, "elapsed": elapsed, "polls": polled["latencies"],
            "statuses": polled["statuses"], "errors": polled["errors"]}


def report(runs: list[dict[str, Any]], order: list[int]) -> None:
    pooled: dict[int, dict[str, Any]] = {}
    for run in runs:
        entry = pooled.setdefault(run["pollers"], {"calls": [], "polls": [], "elapsed": 0.0, "statuses": {},
                                                   "errors": []})
        entry["calls"] += run["calls"]
        entry["polls"] += run["polls"]
        entry["elapsed"] += run["elapsed"]
        entry["errors"] += run["errors"]
        for status, count in run["statuses"].items():
            entry["statuses"][status] = entry["statuses"].get(status, 0) + count
    baseline = statistics.median(pooled[0]["calls"]) if 0 in pooled and pooled[0]["calls"] else None
    print("| pollers | tool calls | call p50 ms | call p95 ms | p50 vs N=0 | polls/s | 200 / 304 | "
          "poll p50 ms | poll p95 ms | poll max ms | errors |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for pollers in order:
        entry = pooled[pollers]
        calls, polls = entry["calls"], entry["polls"]
        p50 = statistics.median(calls)
        versus = f"{(p50 / baseline - 1) * 100:+.1f}%" if baseline else "—"
        rate = f"{len(polls) / entry['elapsed']:.0f}" if polls else "—"
        codes = f"{entry['statuses'].get('200', 0)} / {entry['statuses'].get('304', 0)}" if polls else "—"
        poll = [f"{percentile(polls, q):.2f}" if polls else "—" for q in (0.5, 0.95)]
        print(f"| {pollers} | {len(calls)} | {p50:.2f} | {percentile(calls, 0.95):.2f} | {versus} | {rate} | "
              f"{codes} | {poll[0]} | {poll[1]} | {max(polls) if polls else float('nan'):.2f} | "
              f"{len(entry['errors'])} |")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pollers", default="0,1,50,200")
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    order = [int(n) for n in args.pollers.split(",")]
    if any(not 0 <= n <= MAX_POLLERS for n in order):
        raise SystemExit(f"pollers: 0 to {MAX_POLLERS}")
    runs = []
    for round_number in range(args.rounds):
        for pollers in (order if round_number % 2 == 0 else order[::-1]):
            run = await measure(pollers, args.calls, args.seconds, args.seed)
            print(f"round {round_number + 1}, {pollers} pollers: call p50 {statistics.median(run['calls']):.2f} ms, "
                  f"polls {run['statuses']}",
                  file=sys.stderr, flush=True)
            runs.append(run)
    report(runs, order)


if __name__ == "__main__":
    asyncio.run(main())
