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
- exact session resume: the checkpoints of the last TAIL (64) inputs dropped
  (a game that went on after its newest checkpoint), after another reload
  (a new worker, nothing warmed but what its boot warms),
  the game's session resumed as opening its view does (GameRegistry.resume in
  the worker's Python: the journal read from IndexedDB, the newest checkpoint
  with its navigation memory restored, the tail replayed, observed), timed
  in the worker's Python; beside it what reading the whole journal costs
  (the checkpoint resume reads only the entries from its checkpoint on), and
  the whole-journal resume it replaces (the same resume without the restore
  source) at the sizes where that is affordable;
- checkpoint bytes per 10k inputs: what IndexedDB holds for the game (with
  the navigation memory each checkpoint now carries).

The open replays with full responses folded into the navigation memory (the
checkpoints carry it), so it costs more than the seeks' quiet replays.
"""

from __future__ import annotations

import json
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


#: the whole-journal resume is measured up to this many inputs (at 50k it replays for minutes in the page)
WHOLE_REPLAY_UP_TO = 10_000

SESSION_RESUME = """
import json, time
from nethack_webmcp import worker
games = worker._games()
source = games.restore_source
games.restore_source = source if CHECKPOINTED else None
try:
    started = time.perf_counter()
    session = await games.resume(SESSION)
    seconds = time.perf_counter() - started
finally:
    games.restore_source = source
report = dict(session.notes.get("resume") or {})
await games.close(SESSION)
started = time.perf_counter()
journal = await games.store.journal(SESSION)  # what reading the whole journal costs (a checkpoint resume does not)
read = time.perf_counter() - started
json.dumps({"ms": seconds * 1000, "journalMs": read * 1000, "entries": len(journal), "report": report})
"""


#: the session resume starts this many inputs or more before the end (the later checkpoints are dropped first):
#: a game that went on after its newest checkpoint
TAIL = 64
DROP_LATE_CHECKPOINTS = """async ({sessionId, after}) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('nethack-webmcp-checkpoints');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction('checkpoints', 'readwrite');
  tx.objectStore('checkpoints').delete(IDBKeyRange.bound([sessionId, after], [sessionId, Infinity], true));
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
}"""


def session_resume(page: Any, session_id: str, checkpointed: bool) -> dict[str, Any]:
    """The game's session resumed in the page's worker (after the caller's reload)."""
    code = f"SESSION = {session_id!r}\nCHECKPOINTED = {checkpointed!r}\n" + SESSION_RESUME
    return dict(json.loads(page.evaluate("(code) => window.nethackTest.python(code)", code)))


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
            # the page's game identity: the rules, which every build shares (the native build may be newer)
            stored["info"]["engineIdentity"] = page.evaluate("() => window.nethackSite.identity")
            inputs = store_game(page, stored)
            opened, open_ms = timed(page, "open", session_id)
            page.reload()
            wait_ready(page)
            reopened, reopen_ms = timed(page, "open", session_id)
            generator = random.Random(size)
            times = [timed(page, "frame", session_id, generator.randint(0, inputs))[1] for _ in range(seeks)]
            resumed, _ = timed(page, "resume", session_id)
            timed(page, "close", session_id)
            page.evaluate(DROP_LATE_CHECKPOINTS, {"sessionId": session_id, "after": inputs - TAIL})
            page.reload()  # the session resume: a new worker, nothing warmed by the replay above
            wait_ready(page)
            exact = session_resume(page, session_id, True)
            whole = None
            if inputs <= WHOLE_REPLAY_UP_TO:
                page.reload()
                wait_ready(page)
                whole = session_resume(page, session_id, False)
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
                    "sessionResumeMs": round(exact["ms"], 1),
                    "journalReadMs": round(exact["journalMs"], 1),
                    "fromCheckpoint": exact["report"].get("fromCheckpoint"),
                    "tailReplayed": exact["report"].get("replayed"),
                    "wholeReplayMs": None if whole is None else round(whole["ms"], 1),
                    "checkpointBytesPer10k": round(opened["bytes"] * 10000 / max(1, inputs)),
                }
            )
        context.close()
    return version, rows


def table(version: str, rows: list[dict[str, Any]], seeks: int) -> str:
    lines = [
        f"page (Chromium {version}, Asyncify build, checkpoints in IndexedDB; {seeks} seeks after a reload):\n",
        "| inputs | open ms | reopen ms (after reload) | checkpoints | seek p50 ms | seek p95 ms | resume ms | "
        "exact session resume ms (after reload) | whole journal read ms | whole-journal session resume ms | "
        "checkpoint bytes / 10k inputs |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        whole = "–" if row["wholeReplayMs"] is None else row["wholeReplayMs"]
        lines.append(
            f"| {row['inputs']} | {row['openMs']} | {row['reopenMs']}"
            f"{'' if not row['rebuiltAtReopen'] else ' (rebuilt)'} | {row['checkpoints']} | {row['seekP50Ms']} | "
            f"{row['seekP95Ms']} | {row['resumeMs']} | {row['sessionResumeMs']} (from entry "
            f"{row['fromCheckpoint']} + {row['tailReplayed']}) | {row['journalReadMs']} | {whole} | "
            f"{row['checkpointBytesPer10k'] / 1e6:.2f} MB |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        prog="scripts/bench_replay_page.py", description="the page half of ./scripts/bench-replay (run that)"
    ).parse_args()
    raise SystemExit("run ./scripts/bench-replay (this module holds its page bench)")
