"""bench_spectators.py - does watching slow the agent? (run by scripts/bench-spectators)

One `python -m nethack_webmcp.mcp --spectator-port 0` (loopback) and one
game played through the official `mcp` client: `interact search` calls,
one engine turn each (a standing question is cancelled, a finished game
replaced). The calls run in blocks; during a block N pollers
(spectator_pollers.py, a process of their own) poll the game's state as
the page does: one conditional GET per poller at a time, 250 ms apart.
Blocks of N = 0, 1, 50, 200 alternate for several rounds (each round in
the reverse order of the last), so a machine whose load drifts favours
no N. Per N: tool-call latency (client round trip) against N = 0, the
round-by-round ratio of medians, the server process's CPU time per call
(its share of the spectators' work included), and poll
latency p50/p95.

Bounded: at most 1000 pollers; a block stops after --calls calls or
--seconds, whichever comes first.

    ./scripts/bench-spectators [--pollers 0,1,50,200] [--modes poll,stream] [--calls 150] [--seconds 30] [--rounds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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

WARMUP_CALLS = 30
MAX_POLLERS = 1000
TICK = os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def server_pid() -> int:
    """The MCP server: this process's child running nethack_webmcp.mcp."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if parent == os.getpid() and b"nethack_webmcp.mcp" in (entry / "cmdline").read_bytes():
                    return int(entry.name)
            except (OSError, ValueError):
                continue
    raise RuntimeError("the MCP server process is not a child of this one")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def new_game(session: Any, seed: int) -> dict[str, Any]:
    return (await session.call_tool("session", {"action": "create", "seed": seed})).structured_content


async def play(
    session: Any, frame: dict[str, Any], calls: int, deadline: float, produced: dict[int, float] | None = None
) -> tuple[list[float], dict[str, Any]]:
    """`calls` timed search calls (fewer if the deadline passes); latencies in
    ms. `produced`: revision -> monotonic time its call returned."""
    latencies: list[float] = []
    while len(latencies) < calls and time.monotonic() < deadline:
        basis = frame["basis"]
        if frame["control"]["gate"] == "ended":
            frame = await new_game(session, int(basis["revision"]) + 1)
            continue
        if frame.get("decision"):
            cancel = frame["decision"].get("cancel") or frame["decision"]["reply"]
            frame = (await session.call_tool("respond", cancel["arguments"])).structured_content
            continue
        started = time.perf_counter()
        result = await session.call_tool(
            "interact", {"sessionId": basis["sessionId"], "viewId": basis["viewId"], "action": "search"}
        )
        latencies.append((time.perf_counter() - started) * 1000)
        frame = result.structured_content
        if produced is not None:
            produced[frame["basis"]["revision"]] = time.monotonic()
    return latencies, frame


async def block(
    session: Any, frame: dict[str, Any], url: str, pid: int, pollers: int, mode: str, calls: int, seconds: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    crowd = None
    if pollers:
        crowd = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "spectator_pollers.py"), url, str(pollers), "--mode", mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert crowd.stdout is not None
        assert (await asyncio.to_thread(crowd.stdout.readline)).strip() == "ready"
        await asyncio.sleep(1.0)  # every poller connected and polling
    cpu, started = cpu_seconds(pid), time.monotonic()
    produced: dict[int, float] = {}
    latencies, frame = await play(session, frame, calls, started + seconds, produced)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu
    polled: dict[str, Any] = {"latencies": [], "statuses": {}, "errors": [], "seconds": 0.0, "receipts": []}
    if crowd is not None:
        out, _ = await asyncio.to_thread(crowd.communicate, "stop\n", 60)
        polled = json.loads(out.strip().splitlines()[-1])
    if mode == "stream":  # a push's lag: its state's arrival after the call that made it returned
        polled["latencies"] = [
            (at - produced[int(revision)]) * 1000
            for revision, at in polled.pop("receipts")
            if int(revision) in produced and at >= started
        ]
    return {"pollers": pollers, "mode": mode, "calls": latencies, "elapsed": elapsed, "cpu": cpu, **polled}, frame


def report(runs: list[dict[str, Any]], configurations: list[tuple[int, str]]) -> None:
    by_n: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for run in runs:
        by_n.setdefault((run["pollers"], run["mode"]), []).append(run)
    base_runs = by_n.get((0, "-"), [])
    baseline = statistics.median([c for run in base_runs for c in run["calls"]]) if base_runs else None
    print(
        "| spectators | mode | tool calls | call p50 ms | call p95 ms | p50 vs N=0 (pooled) "
        "| p50 vs N=0 (median of rounds) | server CPU ms / call | answers/s | 200 / 304 "
        "| spectator p50 ms | spectator p95 ms | errors |"
    )
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for pollers, mode in configurations:
        blocks = by_n[(pollers, mode)]
        calls = [c for run in blocks for c in run["calls"]]
        polls = [p for run in blocks for p in run["latencies"]]
        statuses: dict[str, int] = {}
        for run in blocks:
            for status, count in run["statuses"].items():
                statuses[status] = statuses.get(status, 0) + count
        p50 = statistics.median(calls)
        pooled = f"{(p50 / baseline - 1) * 100:+.1f}%" if baseline else "—"
        ratios = [
            statistics.median(run["calls"]) / statistics.median(base["calls"])
            for run, base in zip(blocks, base_runs, strict=False)
        ]
        rounds = f"{(statistics.median(ratios) - 1) * 100:+.1f}%" if base_runs else "—"
        cpu = f"{1000 * sum(run['cpu'] for run in blocks) / len(calls):.2f}"
        rate = f"{len(polls) / sum(run['seconds'] for run in blocks):.0f}" if polls else "—"
        codes = f"{statuses.get('200', 0)} / {statuses.get('304', 0)}" if polls else "—"
        poll = [f"{percentile(polls, q):.2f}" if polls else "—" for q in (0.5, 0.95)]
        errors = sum(len(run["errors"]) for run in blocks) + sum(
            count for status, count in statuses.items() if status not in ("200", "304")
        )
        print(
            f"| {pollers} | {mode} | {len(calls)} | {p50:.2f} | {percentile(calls, 0.95):.2f} | {pooled} | "
            f"{rounds} | {cpu} | "
            f"{rate} | {codes} | {poll[0]} | {poll[1]} | {errors} |"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pollers", default="0,1,50,200")
    parser.add_argument("--modes", default="poll,stream")
    parser.add_argument("--calls", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    order = [int(n) for n in args.pollers.split(",")]
    if any(not 0 <= n <= MAX_POLLERS for n in order):
        raise SystemExit(f"pollers: 0 to {MAX_POLLERS}")
    configurations = [(n, mode) for n in order for mode in (["-"] if n == 0 else args.modes.split(","))]
    runs = []
    with tempfile.TemporaryDirectory() as state:
        async with watched_server(Path(state)) as (session, base):
            pid = server_pid()
            frame = await new_game(session, args.seed)
            url = f"{base}/api/games/{frame['basis']['sessionId']}/state"
            frame = (await play(session, frame, WARMUP_CALLS, time.monotonic() + args.seconds))[1]
            for round_number in range(args.rounds):
                for pollers, mode in configurations if round_number % 2 == 0 else configurations[::-1]:
                    if frame["basis"]["sessionId"] not in url:  # the game ended and was replaced
                        url = f"{base}/api/games/{frame['basis']['sessionId']}/state"
                    run, frame = await block(session, frame, url, pid, pollers, mode, args.calls, args.seconds)
                    print(
                        f"round {round_number + 1}, {pollers} {mode}: call p50 "
                        f"{statistics.median(run['calls']):.2f} ms, polls {run['statuses']}",
                        file=sys.stderr,
                        flush=True,
                    )
                    runs.append(run)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)", file=sys.stderr)
    report(runs, configurations)


if __name__ == "__main__":
    asyncio.run(main())
