#!/usr/bin/env python3
"""bench_acting_writes.py - an acting call's journal writes on the SQLite store: three commits or two.

A real SqliteStore (WAL, synchronous=FULL: each commit waits for an fsync)
in a fresh directory under each `--parent`. Interleaved, `--calls` times
each: the writes an acting call of one input made before issue 27's change
(reserve; complete; put_receipt: three commits) and now (reserve;
complete with the tool receipt: two), with a ~3 KB receipt frame. Prints
the medians and the p90s (ms) per directory (docs/BENCHMARKS.md, "The
stdio tool path").

    python scripts/bench_acting_writes.py [--calls 300] [--parent /tmp --parent /dev/shm]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tests"))
from durability.store_contract import done, entry, info  # noqa: E402  (the contract's own fixtures)
from nethack_webmcp.store import ToolReceipt  # noqa: E402
from nethack_webmcp.store.sqlite import SqliteStore  # noqa: E402

FRAME = {"version": 2, "scene": {"map": "x" * 3000}}


def p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * len(values))]


async def measure(parent: str, calls: int) -> tuple[list[float], list[float]]:
    """(three-commit times, two-commit times) in ms."""
    with tempfile.TemporaryDirectory(prefix="bench-acting-writes-", dir=parent) as directory:
        store = SqliteStore(Path(directory) / "games.sqlite3")
        try:
            await store.create_session(info())
            timed: dict[str, list[float]] = {"three": [], "two": []}
            seq = 0
            for number in range(calls):
                for kind in ("three", "two") if number % 2 else ("two", "three"):
                    seq += 1
                    receipt = ToolReceipt(
                        sessionId="g1", requestId=f"op-{seq}", payloadHash=None, frame=FRAME, createdAt=float(seq)
                    )
                    started = time.perf_counter()
                    await store.reserve(entry(seq, operation=f"op-{seq}"))
                    if kind == "three":
                        await store.complete("g1", seq, state="completed", receipt=done(seq), completed_at=1.0)
                        await store.put_receipt(receipt)
                    else:
                        await store.complete(
                            "g1", seq, state="completed", receipt=done(seq), completed_at=1.0, tool_receipt=receipt
                        )
                    timed[kind].append((time.perf_counter() - started) * 1000)
            return timed["three"], timed["two"]
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--parent", action="append", help="directories to put the store in (default /tmp, /dev/shm)")
    opts = parser.parse_args()
    print("| store directory | 3 commits median ms | 2 commits median ms | ratio | p90 3 | p90 2 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for parent in opts.parent or ["/tmp", "/dev/shm"]:
        three, two = asyncio.run(measure(parent, opts.calls))
        m3, m2 = statistics.median(three), statistics.median(two)
        print(f"| {parent} | {m3:.3f} | {m2:.3f} | {m2 / m3:.2f}× | {p90(three):.3f} | {p90(two):.3f} |")


if __name__ == "__main__":
    main()
