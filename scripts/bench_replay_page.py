"""bench_replay_page.py - seek and resume in the page, from IndexedDB checkpoints (scripts/bench-replay --page).

The built site in Chromium (a persistent profile: IndexedDB on disk, as a
person's browser keeps it). For each size the first N inputs of the bench
game are stored in the page's journal database under a session ID of their
own, then through window.nethackReplay (worker/page-replay.js):

- open: the first open of the game - one verified quiet replay in the
  Asyncify build taking checkpoints (compressed into IndexedDB);
- reopen: after a page reload (a new worker, nothing in memory), the open
  that finds the stored checkpoints (digests and bytes checked);
- seek p50/p95: frames at random moves after the reload (restore the nearest
  checkpoint into a fresh instance, replay the rest verified, observe),
  timed in the page (the worker round trip included);
- resume: an engine at the last move, verified, after the reload;
- checkpoint bytes per 10k inputs: what IndexedDB holds for the game.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.durable_harness import HOOKS, wait_ready  # noqa: E402  (needs tests/ on the path)
from e2e.page_replay_harness import renamed, store_game, timed  # noqa: E402
from e2e.site_harness import CHROMIUM, FLAGS, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(game: dict[str, Any], sizes: list[int], seeks: int) -> tuple[str, list[dict[str, Any]]]:
    profile = tempfile.mkdtemp(prefix="bench-replay-page-")
    rows = []
    with sync_playwright() as playwright, serve() as url:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True
        )
        context.set_default_timeout(900_000)
        context.add_init_script(HOOKS)
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        version = context.browser.version if context.browser else "?"
        for size in sorted(sizes):
            session_id = f"bench-page-{size}"
            stored = renamed(game, session_id, size)
            inputs = store_game(page, stored)
            opened, open_ms = timed(page, "open", session_id)
            page.reload()
            wait_ready(page)
            reopened, reopen_ms = timed(page, "open", session_id)
            generator = random.Random(size)
            times = [timed(page, "frame", session_id, generator.randint(0, inputs))[1] for _ in range(seeks)]
            resumed, _ = timed(page, "resume", session_id)
            timed(page, "close", session_id)
            rows.append(
                {
                    "inputs": inputs,
                    "openMs": round(open_ms, 1),
                    "reopenMs": round(reopen_ms, 1),
                    "rebuiltAtReopen": reopened["rebuilt"],
                    "checkpoints": opened["checkpoints"],
                    "seekP50Ms": round(statistics.median(times), 1),
                    "seekP95Ms": round(percentile(times, 0.95), 1),
                    "resumeMs": round(resumed["ms"], 1),
                    "checkpointBytesPer10k": round(opened["bytes"] * 10000 / max(1, inputs)),
                }
            )
        context.close()
    return version, rows


def table(version: str, rows: list[dict[str, Any]], seeks: int) -> str:
    lines = [
        f"page (Chromium {version}, Asyncify build, checkpoints in IndexedDB; {seeks} seeks after a reload):\n",
        "| inputs | open ms | reopen ms (after reload) | checkpoints | seek p50 ms | seek p95 ms | resume ms | "
        "checkpoint bytes / 10k inputs |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['inputs']} | {row['openMs']} | {row['reopenMs']}"
            f"{'' if not row['rebuiltAtReopen'] else ' (rebuilt)'} | {row['checkpoints']} | {row['seekP50Ms']} | "
            f"{row['seekP95Ms']} | {row['resumeMs']} | {row['checkpointBytesPer10k'] / 1e6:.2f} MB |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        prog="scripts/bench_replay_page.py", description="the page half of ./scripts/bench-replay (run that)"
    ).parse_args()
    raise SystemExit("run ./scripts/bench-replay (this module holds its page bench)")
