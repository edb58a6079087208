"""bench_replay.py - seek and resume on replay checkpoints, natively (scripts/bench-replay).

Plays one wizard-mode game (the mix of bench-replay's journal bench: moves in
compass order and searches) to the largest size, then for each size opens
the journal's first N inputs as a Timeline (its own forkable engine, every
boundary verified, checkpoints spaced by replay cost), seeks to random moves,
resumes at the end, and measures what the paused checkpoints cost: the
private memory of every checkpoint process (/proc/<pid>/smaps_rollup
Private_Clean + Private_Dirty: what the fork did not share) plus its own game
directory, per 10,000 inputs.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from nethack_webmcp.engine.native import NativeEngine  # noqa: E402
from nethack_webmcp.replay import Timeline  # noqa: E402
from nethack_webmcp.session import GameRegistry, Session  # noqa: E402
from nethack_webmcp.store import JournalEntry, SessionInfo  # noqa: E402
from nethack_webmcp.store.memory import MemoryStore  # noqa: E402

CREATED_AT = 1700000000


def private_bytes(pid: int) -> int:
    """What a process holds that no other process shares with it."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1]) * 1024
    except OSError:
        return 0
    return total


def directory_bytes(pid: int) -> int:
    try:
        cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
        return sum(entry.stat().st_size for entry in cwd.iterdir() if entry.is_file() and not entry.is_symlink())
    except OSError:
        return 0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def play_game(
    inputs: int, seed: int, play: Callable[[Session, int], Awaitable[None]]
) -> tuple[SessionInfo, list[JournalEntry]]:
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create({"seed": seed, "name": "Bench", "createdAt": CREATED_AT, "wizard": True})
    await play(session, inputs)
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    assert info is not None
    return info, entries


async def measure(info: SessionInfo, entries: list[JournalEntry], inputs: int, seeks: int) -> dict[str, Any]:
    timeline = await Timeline.open(info, entries[:inputs])
    try:
        generator = random.Random(inputs)
        times = []
        for move in (generator.randint(0, timeline.length) for _ in range(seeks)):
            started = time.perf_counter()
            await timeline.seek(move)
            times.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        engine = await timeline.resume()
        resume_ms = (time.perf_counter() - started) * 1000
        engine.close()
        held = sum(private_bytes(c.connection.pid) + directory_bytes(c.connection.pid) for c in timeline.checkpoints)
        return {
            "inputs": timeline.length,
            "openMs": round(timeline.open_seconds * 1000, 1),
            "checkpoints": len(timeline.checkpoints),
            "seekP50Ms": round(statistics.median(times), 1),
            "seekP95Ms": round(percentile(times, 0.95), 1),
            "resumeMs": round(resume_ms, 1),
            "checkpointBytesPer10k": round(held * 10000 / max(1, timeline.length)),
        }
    finally:
        await timeline.close()


async def main(
    sizes: list[int], seed: int, seeks: int, play: Callable[[Session, int], Awaitable[None]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The native table (printed); returns the game and the largest run's
    summary, which bench-replay prints last, after the page half."""
    started = time.perf_counter()
    info, entries = await play_game(max(sizes), seed, play)
    print(
        f"game: seed {seed}, wizard fixture, {max(sizes)} inputs played in {time.perf_counter() - started:.1f} s; "
        f"{seeks} seeks to random moves per size\n"
    )
    print("| inputs | open ms | checkpoints | seek p50 ms | seek p95 ms | resume ms | checkpoint bytes / 10k inputs |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    results = []
    for size in sorted(sizes):
        row = await measure(info, entries, size, seeks)
        results.append(row)
        print(
            f"| {row['inputs']} | {row['openMs']} | {row['checkpoints']} | {row['seekP50Ms']} | {row['seekP95Ms']} | "
            f"{row['resumeMs']} | {row['checkpointBytesPer10k'] / 1e6:.1f} MB |"
        )
    largest = results[-1]
    return {"info": info, "entries": entries}, {
        key: largest[key] for key in ("inputs", "openMs", "seekP95Ms", "resumeMs")
    }


if __name__ == "__main__":
    # The module of scripts/bench-replay's default bench; run that script.
    import argparse

    argparse.ArgumentParser(
        prog="scripts/bench_replay.py", description="the checkpoint bench of ./scripts/bench-replay (run that)"
    ).parse_args()
    raise SystemExit("run ./scripts/bench-replay (this module holds its checkpoint bench)")
